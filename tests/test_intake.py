"""The one reading rule, the caps, notices and labels (issues 15 and 17), with outcomes worked out by hand."""
import json

import pytest

from sheetbridge.api import load_match, new_match
from sheetbridge.core.parsing import yes_no
from sheetbridge.core.types import Notice, Problem, ProblemKind, from_json, to_json

TMR = "three-modular-rooms"


def tmr(players=("Ann", "Bo")):
    return new_match(TMR, list(players), seed=1, garnets={p: 10 for p in players})


def play(card="", room="", buy="", hide=""):
    return {"play": [{"card": card, "room": room}], "buy": [{"buy_cards": buy, "buy_hide": hide}]}


def test_one_reading_rule_for_every_field_and_the_player_is_told():
    m = tmr()
    sub = m.parse("Ann", play("\u0663", "\uff2e\uff55\uff4c\uff4c", "\uff17, \u221210", "TRUE"))
    assert sub.valid and not sub.problems                                   # notices are not problems
    assert sub.values == {"card": 3, "room": "Null", "buy_cards": [7, -10], "buy_hide": True}
    assert [n.text for n in sub.notices] == [
        "Card: read '\u0663' as 3", "Room: read '\uff2e\uff55\uff4c\uff4c' as Null",
        "Buy card copies: read '\uff17, \u221210' as 7, -10"]
    assert m.parse("Bo", play("\u00b2", "Duel")).values["card"] == 2          # superscript two: NFKC reads 2
    assert not m.parse("Bo", play("3", " duel ")).notices                     # plain ASCII: nothing to tell


@pytest.mark.parametrize("text,expected", [("yes", True), ("Y", True), ("TRUE", True), ("no", False), ("N", False),
                                           ("FALSE", False), ("", False), ("x", None), ("1", None), ("0", None),
                                           ("ok", None)])
def test_yes_no_accepts_only_what_its_help_says(text, expected):
    assert yes_no(text) is expected
    sub = tmr().parse("Ann", play("3", "Null", hide=text))
    if expected is None:
        (p,) = sub.problems
        assert p.message == (f"Ann: Hide rooms = '{text}' (not yes or no); allowed: yes or no (y/n and TRUE/FALSE "
                             "from a checkbox also work); applied: rooms not hidden, nothing charged")
    else:
        assert sub.valid and sub.values["buy_hide"] is expected


def test_an_over_long_cell_is_one_problem_with_a_short_value_and_the_rules_default():
    m = tmr()
    sub = m.parse("Ann", play("1" * 2_000_000, "Null"))
    (p,) = sub.problems                                   # not "too long" and "no card chosen"
    assert p.label == "Card" and p.reason == "too long: 2,000,000 characters; at most 100"
    assert p.value == "1" * 40 + "…"
    assert p.default == "a random card from your hand; you cannot score this round"   # the game's default, once
    assert sub.values["card"] is None and sub.values["room"] == "Null"


def test_a_list_of_a_million_items_is_one_problem_not_a_million():
    sub = tmr().parse("Ann", play("3", "Null", buy="1," * 1_000_000))
    (p,) = sub.problems
    assert p.label == "Buy card copies" and p.reason == "too long: 2,000,000 characters; at most 200"
    assert sub.values["buy_cards"] == []


def test_a_huge_number_is_never_converted():
    sub = tmr().parse("Ann", play("3", "Null", buy="9" * 150))           # under the text cap: read, then refused
    (p,) = sub.problems
    assert p.reason == "not a card" and p.value == "9" * 40 + "…"


def test_control_characters_never_reach_a_message_raw():
    sub = tmr().parse("Ann", play("3\x00", "Null\u202e"))
    assert [p.message.split(" (")[0] for p in sub.problems] == ["Ann: Card = '3\\x00'", "Ann: Room = 'Null\\u202e'"]


def test_notices_and_labels_survive_the_record_and_replay():
    m = tmr()
    rec = m.resolve({"Ann": play("\u0663", "Null"), "Bo": play("5", "Duel", hide="x")})
    assert "Ann: Card: read '\u0663' as 3" in rec.notices() and rec.problems()[0].startswith("Bo: Hide rooms = 'x'")
    ann = m.player_report("Ann").text()
    assert "Round 1: how your entries were read\nCard: read '\u0663' as 3" in ann and "You played card 3 in Null." in ann
    assert "how your entries were read" not in m.player_report("Bo").text()
    back = load_match(json.loads(json.dumps(m.to_json())), m.ledger.rows)
    assert back.rounds[0].submissions["Ann"].notices == (Notice("Ann", "card", "Card", "\u0663", "3"),)
    assert back.rounds[0].submissions["Bo"].problems[0].label == "Hide rooms"
    back.replay()                                          # recomputes the notices block; raises if it differs
    p = Problem(ProblemKind.SYNTAX, "Bo", "buy_hide", "x", "yes or no", label="Hide rooms")
    assert from_json(json.loads(json.dumps(to_json(p)))) == p


def _after_setup(game_id, players):
    m = new_match(game_id, players, seed=2, garnets={p: 10 for p in players})
    if m.round == 0:
        m.resolve({})                                      # everyone's pregame default
    return m


@pytest.mark.parametrize("game_id,players,field,label", [
    (TMR, ["Ann", "Bo"], "buy_hide", "Hide rooms"),
    ("skeld", ["Ann", "Bo", "Cy", "Dee"], "Crewmate 2 move_to", "Crewmate 2: Move to"),
    ("skeld", ["Ann", "Bo", "Cy", "Dee"], "cap_upgrades", "Energy cap raises (3 garnets each)"),
    ("big-machine", ["Ann", "Bo", "Cy", "Dee"], "give row 1 to", "Give cogs, row 1: To"),
    ("big-machine", ["Ann", "Bo", "Cy", "Dee"], "power", "Power-up (cogs)"),
    ("bugcatcher", ["Ann", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy"], "action 3", "Action 3"),
    ("flickering-lights", ["Ann", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus"], "spaces row 2", "2nd: Space"),
])
def test_problems_name_the_field_as_the_player_sees_it(game_id, players, field, label):
    m = _after_setup(game_id, players)
    section_or_field = field.split()[0] if " row " in field else None
    player = next(p for p in m.players if section_or_field is None
                  or any(s.name == section_or_field for s in m.form(p).sections))
    assert m.form(player).label_for(field) == label


def test_pregame_labels_name_the_row():
    skeld = new_match("skeld", ["Ann", "Bo", "Cy", "Dee"], seed=1)
    assert skeld.form("Ann").label_for("crewmate 2 start") == "Crewmate 2: Start cell"
    bug = new_match("bugcatcher", ["Ann", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy"], seed=1)
    form = bug.form("Ann")
    assert form.label_for("border 2nd") == "Border node priority list, 2nd"
    assert form.label_for("central 1st") == "Central node priority list, 1st: Cell"
    assert form.label_for("central list") == "Central node priority list"
    sub = bug.parse("Ann", {"central": [{"cell": "Z9"}]})
    assert sub.problems[0].message.startswith("Ann: Central node priority list, 1st: Cell = 'Z9'")


def test_a_bug_in_a_game_parse_is_that_players_problem_not_a_stopped_round(monkeypatch):
    m = tmr()
    real = m.game.parse

    def broken(state, player, raw):
        if player == "Ann" and raw:
            raise ValueError("a bug")
        return real(state, player, raw)

    monkeypatch.setattr(m.game, "parse", broken)
    sub = m.parse("Ann", play("3", "Null"))
    (p,) = sub.problems
    assert "internal error ValueError" in p.reason and p.label == "Submission"
    rec = m.resolve({"Ann": play("3", "Null"), "Bo": play("5", "Duel")})
    assert "Your card was chosen at random" in rec.private["Ann"].text()
    assert "You played card 5 in Duel." in rec.private["Bo"].text()
