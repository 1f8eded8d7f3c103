"""Skeld rules tests. Every expected outcome is computed by hand from the ruleset
(shared/rules/skeld.txt, copied where needed) and the rulings' R/A numbers.

The default board (templates/skeld/board.csv), row 1 north, column 1 west:

    r1: 1A  2A  3A  S   11A 12B 13C
    r2: 1B  2B  5A  4C  6A  7B  8C
    r3: 1C  2C  3C  4B  P   9A  10C
    r4: R   T   3B  V   4A  W   10B
    r5: 5B  6B  7A  8A  U   9B  10A
    r6: 5C  6C  7C  8B  X   9C  11B
    r7: Y   Z   11C 12A 12C 13A 13B
"""
import copy
import re

import pytest

from sheetbridge.api import load_match, match_from_position, new_match as api_new_match
from sheetbridge.core.decisions import DecisionKind
from sheetbridge.core.facts import of_type, visible
from sheetbridge.core.match import Match
from sheetbridge.core.rng import Rng
from sheetbridge.core.types import FieldKind, ProblemKind
from sheetbridge.games import skeld
from sheetbridge.games.skeld import GAME, contention_winner, decide, sequence_value
from sheetbridge.templates import default_tables

PLAYERS = ["Marcer", "uri", "Spadez", "Ann"]
NAMES = {"Marcer": ("Crew1", "Crew2"), "uri": ("CrewA", "CrewB"), "Spadez": ("CrewN", "CrewM"),
         "Ann": ("Red", "Blue")}
BOARD_CSV = [["row", "1", "2", "3", "4", "5", "6", "7"],
             ["1", "1A", "2A", "3A", "S", "11A", "12B", "13C"],
             ["2", "1B", "2B", "5A", "4C", "6A", "7B", "8C"],
             ["3", "1C", "2C", "3C", "4B", "P", "9A", "10C"],
             ["4", "R", "T", "3B", "V", "4A", "W", "10B"],
             ["5", "5B", "6B", "7A", "8A", "U", "9B", "10A"],
             ["6", "5C", "6C", "7C", "8B", "X", "9C", "11B"],
             ["7", "Y", "Z", "11C", "12A", "12C", "13A", "13B"]]


def new_match(options=None, garnets=None, starts=None, seed=1):
    """A match past the pregame: every crewmate named as in the ruleset's examples."""
    m = api_new_match("skeld", PLAYERS, seed=seed, options=options,
                  garnets=garnets if garnets is not None else {p: 10 for p in PLAYERS})
    starts = starts or {p: ("1A", "1B") for p in PLAYERS}
    m.resolve({p: {"crew": [{"name": NAMES[p][i], "start": starts[p][i]} for i in range(2)]}
               for p in PLAYERS})
    assert m.state["round"] == 1
    return m


def place(m, player, idx, room, energy=None, items=(), parasite=None):
    c = m.state["crew"][player][idx]
    c["pos"] = room
    if energy is not None:
        c["energy"] = energy
    for letter, uses in items:
        c["items"].append({"item": letter, "uses": uses, "got": 0})
    if parasite is not None:
        c["parasite"] = parasite
        if parasite:
            m.state["claimed"][player] = True


def give(m, player, labels):
    """Components already claimed (shared inventory, R35) and their rooms activated (R25)."""
    for lab in labels:
        m.state["components"][player].append(lab)
        m.state["activated"].append(lab)


def row(move="", energy="", disable="", item="", item_2="", toe="", room=""):
    """One crewmate's row: `room` and `energy` are the activation ("Activate Room 3C with 2 Energy")."""
    return {"move_to": move, "toe_step": toe, "activate_room": room, "energy": energy, "disable_room": disable,
            "item": item, "item_2": item_2}


def sub(c1=None, c2=None, upgrades=""):
    return {"crew": [c1 or row(), c2 or row()], "garnets": [{"cap_upgrades": upgrades}]}


def crew(m, player, idx):
    return m.state["crew"][player][idx]


def text(report):
    return report.text()


# ------------------------------------------------------------------ board content (R4, R5, A1)

def test_default_board_is_valid_and_matches_the_documented_grid():
    tables = default_tables(GAME)
    assert GAME.check_tables(tables) == []
    assert [list(r) for r in tables[skeld.BOARD_TABLE]] == BOARD_CSV


def test_board_with_a_doubled_and_a_missing_room_is_refused_with_both_named():
    bad = copy.deepcopy(BOARD_CSV)
    bad[3][3] = "4C"  # 3C replaced by a second 4C (row 2 column 4 holds the first)
    problems = GAME.check_tables({skeld.BOARD_TABLE: bad})
    joined = " ".join(problems)
    assert "4C at row 2 column 4 and row 3 column 3" in joined
    assert "missing room(s) 3C" in joined


def test_board_with_unknown_label_and_short_row_is_refused():
    bad = copy.deepcopy(BOARD_CSV)
    bad[1][1] = "14A"
    bad[7] = bad[7][:-1]  # row 7 loses 13B
    joined = " ".join(GAME.check_tables({skeld.BOARD_TABLE: bad}))
    assert "14A" in joined and "data row 7 has 6 room labels" in joined
    assert "1A" in joined and "13B" in joined  # both now missing
    with pytest.raises(Exception):
        api_new_match("skeld", PLAYERS, tables={skeld.BOARD_TABLE: bad})


# ------------------------------------------------------------------ pregame (R8-R13, A33)

def test_pregame_names_and_start_cells():
    m = new_match(starts={"Marcer": ("2C", "5A"), "uri": ("3A", "3A"), "Spadez": ("1A", "2B"),
                          "Ann": ("1C", "2A")})
    assert [c["name"] for c in m.state["crew"]["uri"]] == ["CrewA", "CrewB"]
    assert [c["pos"] for c in m.state["crew"]["Marcer"]] == ["2C", "5A"]
    assert all(c["energy"] == 5 for p in PLAYERS for c in m.state["crew"][p])  # R13
    assert m.state["activated"] == []  # R11: starting in a room does not activate it
    # A34: each player learns co-location and energy privately; uri's two crewmates share 3A
    facts = m.rounds[0].facts
    (room,) = [f for f in of_type(facts, skeld.RoomOccupants) if f.room == "3A"]
    assert [(o.player, o.crewmate) for o in room.occupants] == [("uri", "CrewA"), ("uri", "CrewB")]
    assert room.audience == ("uri",)   # no other player's crewmate shares uri's room
    assert [(f.crewmate, f.next_start) for f in of_type(facts, skeld.EnergyAccount) if f.player == "uri"] == [
        ("CrewA", 5), ("CrewB", 5)]
    assert {f.audience for f in of_type(facts, skeld.CrewStart)} == {(p,) for p in PLAYERS}  # not revealed
    priv = text(m.rounds[0].private["uri"])
    assert "CrewA is in 3A: with uri.CrewB (yours)" in priv and "CrewA: 5" in priv and "CrewB: 5" in priv
    assert "Marcer" not in priv
    assert "3A" not in text(m.rounds[0].public)


def test_pregame_bad_and_missing_start_cells_get_an_allowed_cell():
    m = api_new_match("skeld", PLAYERS, seed=4)
    s = m.parse("Ann", {"crew": [{"name": "Red", "start": "4B"}, {"name": "Red", "start": ""}]})
    kinds = {(p.field, p.kind) for p in s.problems}
    assert ("crewmate 1 start", ProblemKind.ILLEGAL) in kinds  # 4B is a room but not a start cell (R10)
    assert ("crewmate 2 start", ProblemKind.MISSING) in kinds
    assert ("crewmate 2 name", ProblemKind.ILLEGAL) in kinds   # both named Red
    prob = [p for p in s.problems if p.field == "crewmate 1 start"][0]
    assert "Ann" in prob.message and "4B" in prob.message and "1A, 1B, 1C, 2A, 2B, 2C, 3A, 5A" in prob.message
    assert "random" in prob.default
    m.resolve({"Ann": {"crew": [{"name": "Red", "start": "4B"}, {"name": "Red", "start": ""}]}})
    for p in PLAYERS:  # Ann's cells and everyone else's (no submission) are drawn from the 8 allowed
        for c in m.state["crew"][p]:
            assert c["pos"] in skeld.START_CELLS
    assert [c["name"] for c in m.state["crew"]["Ann"]] == ["Red", "Crewmate 2"]
    assert any("drew" in line for line in m.rounds[0].host_log)


def test_pregame_fixed_fallback_option():
    m = api_new_match("skeld", PLAYERS, seed=4, options={"pregame_fallback": "5A"})
    m.resolve({})
    assert all(c["pos"] == "5A" for p in PLAYERS for c in m.state["crew"][p])


def test_pregame_formula_is_syntax():
    m = api_new_match("skeld", PLAYERS, seed=4)
    s = m.parse("uri", {"crew": [{"name": "=A1", "start": "=B2"}, {"name": "", "start": "1A"}]})
    assert {p.kind for p in s.problems} == {ProblemKind.SYNTAX}
    assert len(s.problems) == 2


# ------------------------------------------------------------------ energy and movement (R13-R21, A3, A8)

def test_income_and_cap():
    m = new_match()
    m.resolve({})  # nobody acts: 5 + 3 = 8, capped at 7 (R14, R15)
    assert all(c["energy"] == 7 for p in PLAYERS for c in m.state["crew"][p])


def test_move_cost_and_leftover_energy():
    m = new_match()
    place(m, "uri", 0, "1A", energy=5)
    # 1A -> 11A along row 1: 4 tiles (2A, 3A, S, 11A) = 4 Energy (A3); 5 - 4 = 1 left; next 1 + 3 = 4
    m.resolve({"uri": sub(row(move="11A"))})
    assert crew(m, "uri", 0)["pos"] == "11A"
    assert crew(m, "uri", 0)["energy"] == 4


def test_move_off_row_or_column_is_refused_and_the_crewmate_stays():
    m = new_match()
    place(m, "uri", 0, "1A", energy=5)
    s = m.parse("uri", sub(row(move="2B")))  # 2B is diagonal from 1A
    (p,) = s.problems
    assert p.kind is ProblemKind.ILLEGAL and p.player == "uri" and p.field == "CrewA move_to"
    assert p.value == "2B" and "same row or column as 1A" in p.allowed and "stays in 1A" in p.default
    m.resolve({"uri": sub(row(move="2B"))})
    assert crew(m, "uri", 0)["pos"] == "1A"
    assert crew(m, "uri", 0)["energy"] == 7  # nothing spent: 5 + 3 = 8 -> cap 7
    (told,) = of_type(m.rounds[-1].facts, skeld.SubmissionProblem)  # the problem is reported privately
    assert told.audience == ("uri",) and told.problem.value == "2B"
    assert told.problem.text in text(m.rounds[-1].private["uri"])   # uri's own: not named to uri


def test_move_beyond_energy_is_refused():
    m = new_match()
    place(m, "uri", 0, "1A", energy=3)
    s = m.parse("uri", sub(row(move="11A")))  # 4 tiles, 3 Energy
    (p,) = s.problems
    assert p.kind is ProblemKind.ILLEGAL and "costs 4 Energy" in p.reason and "has 3" in p.reason


def test_unreadable_move_and_formula_are_syntax():
    m = new_match()
    s = m.parse("uri", sub(row(move="seven", energy="=1+1")))
    assert [(p.field, p.kind) for p in s.problems] == [("CrewA move_to", ProblemKind.SYNTAX),
                                                         ("CrewA energy", ProblemKind.SYNTAX)]


def test_banana_then_move_uses_the_extra_energy_and_cap_still_applies():
    m = new_match()
    place(m, "uri", 0, "1A", energy=3, items=[("Y", 1)])
    # 3 + 3 = 6 (<= cap 7); 1A -> 13C is 6 tiles: 6 - 6 = 0 left; next round 0 + 3 = 3
    m.resolve({"uri": sub(row(move="13C", item="Eat Yellow Banana"))})
    c = crew(m, "uri", 0)
    assert c["pos"] == "13C" and c["energy"] == 3
    assert c["items"][0]["uses"] == 0
    m2 = new_match()
    place(m2, "uri", 0, "1A", energy=6, items=[("Y", 1)])
    m2.resolve({"uri": sub(row(item="Eat Yellow Banana"))})  # 6 + 3 = 9 -> cap 7 (A10); 7 + 3 -> 7
    assert crew(m2, "uri", 0)["energy"] == 7


# ------------------------------------------------------------------ activation contention (R22-R30)

def test_ruleset_example_tied_energy_three_bidders():
    """'Marcer's Crew1 submits 2, uri's CrewA submits 2, and Spadez's CrewN submits 1, then
    Spadez's CrewN will activate the room.'"""
    m = new_match()
    for p in ("Marcer", "uri", "Spadez"):
        place(m, p, 0, "1A", energy=5)
    m.resolve({"Marcer": sub(row(room="1A", energy="2")), "uri": sub(row(room="1A", energy="2")), "Spadez": sub(row(room="1A", energy="1"))})
    assert m.state["components"]["Spadez"] == ["1A"]
    assert m.state["components"]["Marcer"] == [] and m.state["components"]["uri"] == []
    # every bid is paid (R29): Marcer 5 - 2 = 3 -> 6; uri 3 -> 6; Spadez 5 - 1 = 4 -> 7
    assert [crew(m, p, 0)["energy"] for p in ("Marcer", "uri", "Spadez")] == [6, 6, 7]
    facts = m.rounds[-1].facts
    assert of_type(facts, skeld.RoomActivated) == [skeld.RoomActivated("1A")]
    (contest,) = of_type(facts, skeld.ActivationContest)
    assert contest.decided_by == "highest untied bid" and [b.player for b in contest.winners] == ["Spadez"]
    # R38: everyone present learns who activated
    (seen,) = of_type(facts, skeld.ActivatorsSeen)
    assert seen.players == ("Spadez",) and set(seen.audience) == set(PLAYERS)  # Ann's Red starts in 1A too
    assert "1A (Machine Learning) was activated by Spadez" in text(m.rounds[-1].private["Marcer"])


def test_ruleset_example_tied_energy_two_bidders_nobody_activates():
    """'Marcer's Crew1 and uri's CrewA ... both submit 2, then nobody activated the room.'"""
    m = new_match()
    for p in ("Marcer", "uri"):
        place(m, p, 0, "1A", energy=5)
    m.resolve({"Marcer": sub(row(room="1A", energy="2")), "uri": sub(row(room="1A", energy="2"))})
    assert "1A" not in m.state["activated"]
    assert of_type(m.rounds[-1].facts, skeld.RoomActivated) == []
    assert of_type(m.rounds[-1].facts, skeld.ActivationContest)[0].decided_by == "all tied"
    assert "Rooms activated this round: none" in text(m.rounds[-1].public)
    assert crew(m, "Marcer", 0)["energy"] == 6  # 5 - 2 = 3, not refunded; + 3 = 6
    priv = text(m.rounds[-1].private["uri"])
    assert "No room holding your crewmates was activated this round." in priv
    assert "tied" not in priv  # A37: no reason given, not even in the player's facts
    assert [f.reason for f in of_type(m.rounds[-1].facts, skeld.ActivationAttempt)] == ["", ""]
    m2 = new_match(options={"reveal_failure_reasons": "on"})
    for p in ("Marcer", "uri"):
        place(m2, p, 0, "1A", energy=5)
    m2.resolve({"Marcer": sub(row(room="1A", energy="2")), "uri": sub(row(room="1A", energy="2"))})
    assert [(f.player, f.reason) for f in of_type(m2.rounds[-1].facts, skeld.ActivationAttempt)] == [
        ("Marcer", "tied with another bid"), ("uri", "tied with another bid")]
    assert "CrewA's attempt on 1A failed: tied with another bid" in text(m2.rounds[-1].private["uri"])


def test_same_players_two_crewmates_can_cancel_out():
    m = new_match()  # A43: bids 3, 3 (both uri) and 1 (Ann): Ann wins
    place(m, "uri", 0, "4B", energy=5)
    place(m, "uri", 1, "4B", energy=5)
    place(m, "Ann", 0, "4B", energy=5)
    m.resolve({"uri": sub(row(room="4B", energy="3"), row(room="4B", energy="3")), "Ann": sub(row(room="4B", energy="1"))})
    assert m.state["components"]["Ann"] == ["4B"]


def test_contention_winner_helper():
    assert contention_winner([("a", 5), ("b", 4), ("c", 4)]) == "a"
    assert contention_winner([("a", 5), ("b", 5), ("c", 4), ("d", 4), ("e", 3)]) == "e"
    assert contention_winner([("a", 1)]) == "a"
    assert contention_winner([]) is None


def test_room_already_activated_and_energy_over_held():
    m = new_match()
    give(m, "Ann", ["1A"])
    place(m, "uri", 0, "1A", energy=5)
    place(m, "uri", 1, "1B", energy=2)
    s = m.parse("uri", sub(row(room="1A", energy="1"), row(room="1B", energy="3")))
    p1, p2 = s.problems
    assert p1.field == "CrewA activate_room" and "already activated" in p1.reason  # R25
    assert p2.field == "CrewB energy" and p2.value == "3" and "has 2 Energy" in p2.reason  # A40
    assert p2.allowed == "a whole number from 1 to 2" and p2.default == "no activation of 1B"
    m.resolve({"uri": sub(row(room="1A", energy="1"), row(room="1B", energy="3"))})
    assert crew(m, "uri", 1)["energy"] == 5  # the bid was dropped: 2 + 3


def test_bonus_room_gives_item_to_the_crewmate_not_the_teammate():
    m = new_match()
    place(m, "uri", 0, "T", energy=5)
    place(m, "uri", 1, "2B", energy=5)
    m.resolve({"uri": sub(row(room="T", energy="1"))})
    assert [it["item"] for it in crew(m, "uri", 0)["items"]] == ["T"]
    # R35: bonuses are not shared; the teammate may not step with the Toe (E07)
    s = m.parse("uri", sub(None, row(toe="N")))
    (p,) = s.problems
    assert p.field == "CrewB toe_step" and "does not carry" in p.reason


def test_bonus_works_from_the_next_round():
    m = new_match()  # A12: the Toe won in round 1 cannot step in round 1
    place(m, "uri", 0, "T", energy=5)
    s = m.parse("uri", sub(row(room="T", energy="1", toe="N")))
    assert [p.field for p in s.problems] == ["CrewA toe_step"]


# ------------------------------------------------------------------ disable (R31-R34, A15)

def test_disable_blocks_this_round_and_the_next_and_uses_all_energy():
    m = new_match()
    place(m, "uri", 0, "4B", energy=4)
    place(m, "Ann", 0, "4B", energy=5)
    m.resolve({"uri": sub(row(disable="4B")), "Ann": sub(row(room="4B", energy="1"))})  # round 1
    assert crew(m, "uri", 0)["energy"] == 3  # 4 -> 0 (R33), + 3
    assert "4B" not in m.state["activated"] and crew(m, "Ann", 0)["energy"] == 7  # 5 - 1 + 3
    assert of_type(m.rounds[-1].facts, skeld.RoomDisabled) == [
        skeld.RoomDisabled("uri", "CrewA", "4B", 4, 2, audience=("uri",))]   # blocks rounds 1 and 2, all 4 Energy
    assert of_type(m.rounds[-1].facts, skeld.DisablesAnnounced) == []        # A15: not announced
    assert "disabled" not in text(m.rounds[-1].public)
    m.resolve({"Ann": sub(row(room="4B", energy="1"))})  # round 2: still blocked (R32)
    assert "4B" not in m.state["activated"]
    m.resolve({"Ann": sub(row(room="4B", energy="1"))})  # round 3: open again
    assert m.state["components"]["Ann"] == ["4B"]


def test_second_disable_and_disable_of_p_or_v_are_refused():
    m = new_match()
    place(m, "uri", 0, "4B", energy=4)
    m.resolve({"uri": sub(row(disable="4B"))})
    place(m, "uri", 0, "5A", energy=4)
    s = m.parse("uri", sub(row(disable="5A")))
    (p,) = s.problems
    assert p.field == "CrewA disable_room" and "already used" in p.reason and p.default == "no disable"
    m2 = new_match()
    place(m2, "Ann", 0, "P", energy=4)
    place(m2, "Ann", 1, "V", energy=4)
    s = m2.parse("Ann", sub(row(disable="P")))
    assert "cannot be disabled" in s.problems[0].reason  # R34
    s = m2.parse("Ann", sub(None, row(disable="V")))
    assert "cannot be disabled" in s.problems[0].reason


def test_both_crewmates_disabling_in_one_round_are_both_dropped():
    m = new_match()
    place(m, "uri", 0, "4B", energy=4)
    place(m, "uri", 1, "5A", energy=4)
    s = m.parse("uri", sub(row(disable="4B"), row(disable="5A")))
    assert [p.field for p in s.problems] == ["CrewA disable_room", "CrewB disable_room"]
    m.resolve({"uri": sub(row(disable="4B"), row(disable="5A"))})
    assert not m.state["disable_used"]["uri"] and m.state["disabled"] == {}
    assert crew(m, "uri", 0)["energy"] == 7  # nothing spent


def test_activate_and_disable_by_one_crewmate_keeps_the_activation():
    m = new_match()
    place(m, "uri", 0, "4B", energy=4)
    s = m.parse("uri", sub(row(room="4B", energy="2", disable="4B")))
    (p,) = s.problems  # A7, E19
    assert p.field == "CrewA disable_room" and "activation stands" in p.default
    m.resolve({"uri": sub(row(room="4B", energy="2", disable="4B"))})
    assert m.state["components"]["uri"] == ["4B"] and not m.state["disable_used"]["uri"]


# ------------------------------------------------------------------ bonuses (R66-R73)

def test_urgot_beats_a_higher_bid_and_is_used_up():
    m = new_match()
    place(m, "uri", 0, "4B", energy=5, items=[("U", 1)])
    place(m, "Ann", 0, "4B", energy=5)
    m.resolve({"uri": sub(row(room="4B", energy="1")), "Ann": sub(row(room="4B", energy="5"))})
    assert m.state["components"]["uri"] == ["4B"]
    assert crew(m, "uri", 0)["items"][0]["uses"] == 0


def test_urgot_does_not_beat_a_disable_and_is_kept():
    m = new_match()
    place(m, "uri", 0, "4B", energy=5, items=[("U", 1)])
    place(m, "Ann", 0, "4B", energy=5)
    m.resolve({"uri": sub(row(room="4B", energy="1")), "Ann": sub(row(disable="4B"))})
    assert "4B" not in m.state["activated"]
    assert crew(m, "uri", 0)["items"][0]["uses"] == 1  # A14


def test_urgot_does_not_apply_to_bonus_rooms():
    m = new_match()
    place(m, "uri", 0, "S", energy=5, items=[("U", 1)])
    place(m, "Ann", 0, "S", energy=5)
    m.resolve({"uri": sub(row(room="S", energy="1")), "Ann": sub(row(room="S", energy="2"))})
    assert [it["item"] for it in crew(m, "Ann", 0)["items"]] == ["S"]
    assert crew(m, "uri", 0)["items"][0]["uses"] == 1


def test_rose_adds_one_energy_each_round():
    m = new_match()
    place(m, "uri", 0, "1A", energy=2, items=[("R", None)])
    m.resolve({})
    assert crew(m, "uri", 0)["energy"] == 6  # 2 + 3 + 1


def test_take_back_toe_step_costs_one():
    m = new_match()
    place(m, "uri", 0, "1A", energy=5, items=[("T", None)])
    # 1A -> 3A (2 tiles), Toe step south to 5A (1): 5 - 2 - 1 = 2; activate 5A with 2 -> 0
    m.resolve({"uri": sub(row(move="3A", toe="S", room="5A", energy="2"))})
    assert crew(m, "uri", 0)["pos"] == "5A"
    assert m.state["components"]["uri"] == ["5A"]
    assert crew(m, "uri", 0)["energy"] == 3  # 0 + 3
    s = m.parse("uri", sub(row(toe="N")))  # north of 5A is 3A: allowed
    assert s.problems == ()
    place(m, "uri", 0, "1A")
    s = m.parse("uri", sub(row(toe="W")))
    assert "the hull" in s.problems[0].reason


def test_ruleset_example_submission_with_summoner_wall_and_banana():
    """The ruleset's example: crewmate 1 at 4B (4 Energy, Summoner's Meme) moves to 3C,
    activates 3C with 2 and walls the east side of 3C; crewmate 2 at 10B (3 Energy, Yellow
    Banana) eats it, moves to 10A and activates 10A with 4."""
    m = new_match()
    place(m, "uri", 0, "4B", energy=4, items=[("S", 1)])
    place(m, "uri", 1, "10B", energy=3, items=[("Y", 1)])
    raw = sub(row(move="3C", room="3C", energy="2", item="Summoner wall E"),
              row(move="10A", room="10A", energy="4", item="Eat Yellow Banana"))
    assert m.parse("uri", raw).problems == ()
    m.resolve({"uri": raw})
    assert sorted(m.state["components"]["uri"]) == ["10A", "3C"]
    # crewmate 1: 4 - 1 (move) - 2 = 1 -> 4; crewmate 2: 3 + 3 - 1 - 4 = 1 -> 4
    assert crew(m, "uri", 0)["energy"] == 4 and crew(m, "uri", 1)["energy"] == 4
    assert m.state["walls"] == ["3C|4B"]
    assert of_type(m.rounds[-1].facts, skeld.WallPlaced) == [skeld.WallPlaced("3C", "E", "4B")]  # R67: public
    assert "east wall of 3C (between 3C and 4B)" in text(m.rounds[-1].public)
    # the wall blocks movement through it (A5), for everyone
    place(m, "Ann", 0, "1C", energy=5)
    s = m.parse("Ann", sub(row(move="P")))  # 1C -> 2C -> 3C -> |wall| -> 4B -> P
    assert "crosses a wall" in s.problems[0].reason
    # and the public board marks it on both cells
    grid = GAME.public_view(m.state).blocks[0].grid
    assert grid[2][2].text == "3C |E" and grid[2][3].text == "4B |W"
    assert grid[2][2].fill == "595959"  # an activated room: dark grey, whatever its Sequence


def test_wiwaxia_drains_everyone_else_in_the_room_two_uses():
    m = new_match()
    place(m, "uri", 0, "W", energy=5, items=[("W", 2)])
    place(m, "uri", 1, "W", energy=2)
    place(m, "Ann", 0, "W", energy=0)
    place(m, "Spadez", 0, "W", energy=4)
    m.resolve({"uri": sub(row(item="Wiwaxia drain"))})
    # end of round: teammate 2 -> 1, Ann 0 stays 0, Spadez 4 -> 3; then income +3 (cap 7)
    assert crew(m, "uri", 1)["energy"] == 4
    assert crew(m, "Ann", 0)["energy"] == 3
    assert crew(m, "Spadez", 0)["energy"] == 6
    assert crew(m, "uri", 0)["energy"] == 7  # not transferred (A16): 5 + 3 -> 7
    assert crew(m, "uri", 0)["items"][0]["uses"] == 1
    m.resolve({"uri": sub(row(item="Wiwaxia drain"))})
    assert crew(m, "uri", 0)["items"][0]["uses"] == 0
    s = m.parse("uri", sub(row(item="Wiwaxia drain")))
    assert "no Wiwaxia with a use left" in s.problems[0].reason
    # R40: a used-up bonus is still reported to crewmates in the same room
    (room,) = [f for f in visible(m.rounds[-1].facts, "Ann") if isinstance(f, skeld.RoomOccupants) and f.room == "W"]
    assert room.occupants[0].items == (skeld.BonusHeld("W", 0),)
    assert "Wiwaxia (used up)" in text(m.rounds[-1].private["Ann"])
    # who was drained is the host's alone (A16)
    assert [(f.player, f.drained, f.end) for f in of_type(m.rounds[1].facts, skeld.EndOfRoundEnergy)
            if f.drained] == [("uri", 1, 1), ("Spadez", 1, 3)]
    assert all(f.audience == () for f in of_type(m.rounds[1].facts, skeld.EndOfRoundEnergy))
    (drain,) = of_type(m.rounds[1].facts, skeld.WiwaxiaDrain)   # round 1: Ann had 0 Energy to lose
    assert drain.audience == () and [(d.player, d.crewmate) for d in drain.drained] == [("uri", "CrewB"),
                                                                                         ("Spadez", "CrewN")]


def test_item_not_carried_is_refused_with_a_message():
    m = new_match()
    place(m, "uri", 0, "1A", energy=5)
    s = m.parse("uri", sub(row(item="Eat Yellow Banana", item_2="Summoner wall E")))
    p1, p2 = s.problems
    assert p1.player == "uri" and p1.field == "CrewA item" and p1.value == "Eat Yellow Banana"
    assert "no uneaten Yellow Banana" in p1.reason and p1.default == "not eaten"
    assert p2.value == "Summoner wall E" and p2.default == "no wall"
    s = m.parse("uri", sub(row(item="Fly")))
    assert s.problems[0].kind is ProblemKind.SYNTAX


def test_xcomm_tells_both_players_privately():
    m = new_match()
    place(m, "uri", 0, "2A", energy=5, items=[("X", 1)])
    place(m, "Ann", 1, "2A", energy=5)
    m.resolve({"uri": sub(row(item="XComm with Ann"))})
    assert of_type(m.rounds[-1].facts, skeld.XCommOpened) == [skeld.XCommOpened("uri", "CrewA", "Ann",
                                                                                   audience=("uri", "Ann"))]
    assert "talk freely with Ann" in text(m.rounds[-1].private["uri"])
    assert "uri used the XCommunications Device with you" in text(m.rounds[-1].private["Ann"])
    assert "XComm" not in text(m.rounds[-1].public) and "XCommunications" not in text(m.rounds[-1].public)
    assert crew(m, "uri", 0)["items"][0]["uses"] == 0


# ------------------------------------------------------------------ garnets: cap raises (R17, A11, E27)

def test_cap_raise_costs_three_garnets_and_raises_both_crewmates():
    m = new_match(garnets={p: 10 for p in PLAYERS})
    m.resolve({"uri": sub(upgrades="2")})
    assert [c["cap"] for c in m.state["crew"]["uri"]] == [9, 9]
    rows = [r for r in m.ledger.rows if r.player == "uri" and r.round == 1]
    assert [(r.change, r.reason) for r in rows] == [(-3, "Skeld energy cap raise (now 8)"),
                                                    (-3, "Skeld energy cap raise (now 9)")]
    assert m.ledger.balance("uri") == 4
    # 5 + 3 = 8 <= 9 for both crewmates
    assert [c["energy"] for c in m.state["crew"]["uri"]] == [8, 8]
    s = m.parse("uri", sub(upgrades="1"))
    assert s.problems[0].field == "cap_upgrades" and s.problems[0].kind is ProblemKind.ILLEGAL
    assert of_type(m.rounds[-1].facts, skeld.EnergyCapRaise) == [
        skeld.EnergyCapRaise("uri", 2, 6, ("CrewA", "CrewB"), (9, 9), True, audience=("uri",))]   # private (A39)
    assert "cap_upgrades" not in text(m.rounds[-1].public) and "9" not in text(m.rounds[-1].public)


def test_two_raises_are_two_ledger_rows_in_the_masters_ledger_tab(tmp_path):
    """Section (d), garnet-flow table: "Energy cap upgrade (R17, A11) | -3 per upgrade | ... (cap 8,
    then 9)". Ann (10 garnets) buys 2 raises in round 1: two -3 rows, "now 8" then "now 9", balance
    10 - 3 - 3 = 4, read back from the master.xlsx the resolve wrote."""
    import openpyxl
    from test_cli_xlsx import run, type_submission
    folder = tmp_path / "game"
    run("new", "skeld", "--players", "Ann,Bo,Cy,Dee", "--out", folder, "--garnets", "10", "--seed", "3")
    run("resolve", folder, "--allow-empty")                       # the pregame: default starts
    type_submission(folder / "players" / "Ann.xlsx", "Garnet purchases", [2])
    run("resolve", folder, "--allow-empty")
    book = openpyxl.load_workbook(folder / "master.xlsx")
    rows = [r[:7] for r in book["Ledger"].iter_rows(min_row=2, values_only=True) if r[0] is not None]
    ann = [(change, reason) for _, rnd, who, change, reason, _, _ in rows if who == "Ann" and rnd == 1]
    assert ann == [(-3, "Skeld energy cap raise (now 8)"), (-3, "Skeld energy cap raise (now 9)")]
    balances = {r[0]: r[3] for r in book["Players"].iter_rows(min_row=3, values_only=True)}
    assert balances["Ann"] == 4


def test_per_crewmate_raises_are_one_row_each_naming_the_crewmate():
    """A11 option cap_upgrade_scope = crewmate: 3 garnets per crewmate per +1; CrewA +2, CrewB +1 is
    three -3 rows, each naming the crewmate and the cap it reached."""
    m = new_match(options={"cap_upgrade_scope": "crewmate"}, garnets={p: 10 for p in PLAYERS})
    m.resolve({"uri": {"crew": [row(), row()], "garnets": [{"cap_upgrades": "2"}, {"cap_upgrades": "1"}]}})
    rows = [(r.change, r.reason) for r in m.ledger.rows if r.player == "uri" and r.round == 1]
    assert rows == [(-3, "Skeld energy cap raise (CrewA now 8)"), (-3, "Skeld energy cap raise (CrewA now 9)"),
                    (-3, "Skeld energy cap raise (CrewB now 8)")]
    assert m.ledger.balance("uri") == 1


def test_cap_raise_without_enough_garnets_is_refused():
    m = new_match(garnets={"uri": 5})
    m.resolve({"uri": sub(upgrades="2")})  # needs 6, has 5: whole request dropped
    assert [c["cap"] for c in m.state["crew"]["uri"]] == [7, 7] and m.ledger.balance("uri") == 5
    (refused,) = of_type(m.rounds[-1].facts, skeld.EnergyCapRaise)
    assert (refused.accepted, refused.reason, refused.cost, refused.balance) == (False, "garnets", 6, 5)
    assert "Cap raise refused: it costs 6 garnets and you have 5." in text(m.rounds[-1].private["uri"])


# ------------------------------------------------------------------ parasite (R52-R57)

def test_parasite_claim_once_per_player_and_vault_needs_three():
    m = new_match()
    place(m, "uri", 0, "P", energy=5)
    m.resolve({"uri": sub(row(room="P", energy="1"))})
    assert crew(m, "uri", 0)["parasite"] and m.state["claimed"]["uri"]
    s = m.parse("uri", sub(row(room="P", energy="1")))  # again at P: E15
    assert "already claimed" in s.problems[0].reason
    place(m, "uri", 0, "V", energy=5)
    s = m.parse("uri", sub(row(room="V", energy="2")))  # R55
    assert s.problems[0].allowed == "a whole number from 3 to 5"
    place(m, "uri", 1, "V", energy=5)
    s = m.parse("uri", sub(None, row(room="V", energy="3")))  # R54: only the claiming crewmate
    assert "carries no parasite" in s.problems[0].reason


def test_improper_plant_does_not_end_the_game_and_makes_the_planter_ec():
    m = new_match(options={"max_rounds": "2"})
    place(m, "uri", 0, "V", energy=5, parasite=True)
    m.resolve({"uri": sub(row(room="V", energy="3"))})
    assert not m.finished  # R62
    assert of_type(m.rounds[-1].facts, skeld.RoomActivated) == [skeld.RoomActivated("V")]
    assert of_type(m.rounds[-1].facts, skeld.ParasitePlant) == [
        skeld.ParasitePlant("uri", "CrewA", 1, 3, None, "no_sequence", True, audience=("uri",))]
    assert not crew(m, "uri", 0)["parasite"] and m.state["vault_used"]["uri"]
    give(m, "uri", ["13A", "13B"])  # uri: total 26
    give(m, "Ann", ["1A"])          # Ann: total 1
    give(m, "Marcer", ["12A"])      # Marcer: 12
    give(m, "Spadez", ["2A"])       # Spadez: 2
    m.resolve({})
    out = m.outcome()
    # R50: highest total uri 26 wins; EC: improper planters minus the winner is empty (A26), so R51:
    # lowest total among the others: Ann 1
    assert out.winners == ("uri",) and out.elimination_candidate == "Ann"
    m2 = new_match(options={"max_rounds": "2"})
    place(m2, "Spadez", 0, "V", energy=5, parasite=True)
    m2.resolve({"Spadez": sub(row(room="V", energy="3"))})
    give(m2, "uri", ["13A", "13B"])
    give(m2, "Ann", ["1A"])
    give(m2, "Marcer", ["12A"])
    give(m2, "Spadez", ["2A"])
    m2.resolve({})
    # R61/A31: the only improper planter Spadez (2) is EC although Ann (1) is lower
    assert m2.outcome().elimination_candidate == "Spadez"


# ------------------------------------------------------------------ Sequences and the end (R44-R51, R58-R61)

CONDUCTOR_EXAMPLE = {  # the ruleset's 30 vs 29 example; 12C is left for the last round
    "uri": ["1C", "3C", "5C", "7C", "13C"],     # 1 + 3 + 5 + 7 + 13 = 29
    "Marcer": ["2C", "4C", "6C", "8C", "10C"],  # 2 + 4 + 6 + 8 + 10 = 30
    "Spadez": ["9C", "11C"],                     # 20
    "Ann": [],                                   # 12C this round: 12
}


def conductor_match(**kw):
    m = new_match(**kw)
    for p, labs in CONDUCTOR_EXAMPLE.items():
        give(m, p, labs)
    place(m, "Ann", 0, "12C", energy=5)
    return m


def test_ruleset_example_sequence_value_tiebreak_30_vs_29():
    m = conductor_match()
    m.resolve({"Ann": sub(row(room="12C", energy="1"))})
    assert m.finished
    out = m.outcome()
    # both hold 5 pieces (R45), Marcer's value 30 beats uri's 29 (R46)
    assert out.winners == ("Marcer",)
    assert [a.kind for a in out.awards] == ["Token of Life"] and out.awards[0].player == "Marcer"
    # R51: no plant ever; lowest Conductor value among the others: Ann 12 (Spadez 20, uri 29)
    assert out.elimination_candidate == "Ann"
    assert "Conductor Sequence activated in round 1" in text(m.rounds[-1].public)
    # the numbers behind the result are in the final standings, once
    pub = text(m.public_report())
    assert "Marcer: Conductor: 5 pieces, value 30" in pub and "uri: Conductor: 5 pieces, value 29" in pub
    assert pub.count("Marcer: Conductor: 5 pieces, value 30") == 1
    (done,) = of_type(m.rounds[-1].facts, skeld.SequenceCompleted)
    assert {(f.player, f.pieces, f.value) for f in done.standings} == {
        ("Marcer", 5, 30), ("uri", 5, 29), ("Spadez", 2, 20), ("Ann", 1, 12)}
    # R64: 1 garnet per 3 components: uri 5 -> 1, Marcer 5 -> 1, Spadez 2 -> 0, Ann 1 -> 0
    paid = {r.player: r.change for r in m.rounds[-1].ledger}
    assert paid == {"uri": 1, "Marcer": 1}
    assert m.ledger.balance("uri") == 11 and m.ledger.balance("Ann") == 10


def test_decide_ruleset_example_three_sequences_77_to_75():
    comps = {
        # Frontier: Spadez 13+12+11+10+3 = 49, Marcer 9, uri 8+7+2 = 17, Ann 1+4+5+6 = 16 (sum 91)
        # Greenhouse: Marcer 49, Spadez 8, uri 9+7+6 = 22, Ann 1+2+4+5 = 12 (sum 91)
        # Conductor: uri 13+12+7 = 32, Spadez 11+6+1 = 18, Marcer 10+9 = 19, Ann 2+3+4+5+8 = 22 (91)
        "Spadez": ["13A", "12A", "11A", "10A", "3A", "8B", "11C", "6C", "1C"],
        "Marcer": ["9A", "13B", "12B", "11B", "10B", "3B", "10C", "9C"],
        "uri": ["8A", "7A", "2A", "9B", "7B", "6B", "13C", "12C", "7C"],
        "Ann": ["1A", "4A", "5A", "6A", "1B", "2B", "4B", "5B", "2C", "3C", "4C", "5C", "8C"],
    }
    assert sorted(c for v in comps.values() for c in v) == sorted(skeld.COMPONENTS)
    assert sequence_value(comps["Spadez"], "A") == 49 and sequence_value(comps["Marcer"], "B") == 49
    assert sequence_value(comps["uri"], "C") == 32
    res = decide(PLAYERS, comps, ["A", "B", "C"], [], skeld.DEFAULTS)
    # best single values: Spadez 49, Marcer 49, uri 32, Ann 22 -> tie 49; sums Marcer 77 > Spadez 75
    assert res["winners"] == ["Marcer"]
    # EC (A27 sum): Spadez 75, uri 17 + 22 + 32 = 71, Ann 16 + 12 + 22 = 50 -> Ann
    assert res["ec"] == "Ann"
    assert "sum 77" in res["numbers"]["Marcer"] and "sum 75" in res["numbers"]["Spadez"]


def test_three_sequences_completed_in_one_round_end_to_end():
    comps = {
        "Spadez": ["13A", "12A", "11A", "10A", "8B", "11C", "6C", "1C"],  # 3A left
        "Marcer": ["9A", "13B", "12B", "11B", "10B", "10C", "9C"],         # 3B left
        "uri": ["8A", "7A", "2A", "9B", "7B", "6B", "13C", "12C"],         # 7C left
        "Ann": ["1A", "4A", "5A", "6A", "1B", "2B", "4B", "5B", "2C", "3C", "4C", "5C", "8C"],
    }
    m = new_match()
    for p, labs in comps.items():
        give(m, p, labs)
    place(m, "Spadez", 0, "3A", energy=5)
    place(m, "Marcer", 0, "3B", energy=5)
    place(m, "uri", 0, "7C", energy=5)
    m.resolve({p: sub(row(room=room, energy="1")) for p, room in (("Spadez", "3A"), ("Marcer", "3B"), ("uri", "7C"))})
    out = m.outcome()
    assert out.winners == ("Marcer",) and out.elimination_candidate == "Ann"
    facts = m.rounds[-1].facts
    assert [f.name for f in of_type(facts, skeld.SequenceCompleted)] == ["Frontier", "Greenhouse", "Conductor"]
    best = {f.player: (f.best_value, f.best_sequences, f.total) for f in of_type(facts, skeld.MultiSequenceStanding)}
    assert best == {"Marcer": (49, ("B",), 77), "uri": (32, ("C",), 71), "Spadez": (49, ("A",), 75),
                    "Ann": (22, ("C",), 50)}
    assert "Frontier Sequence and Greenhouse Sequence and Conductor Sequence activated" in text(m.rounds[-1].public)


def test_correct_plant_wins_and_the_would_be_winner_is_ec():
    m = conductor_match()
    place(m, "Spadez", 0, "V", energy=5, parasite=True)
    m.resolve({"Ann": sub(row(room="12C", energy="1")), "Spadez": sub(row(room="V", energy="3"))})
    out = m.outcome()
    assert out.winners == ("Spadez",)  # R53, R58
    assert out.awards[0].player == "Spadez" and out.awards[0].kind == "Token of Life"
    assert out.elimination_candidate == "Marcer"  # R60: would have won with 30


def test_tied_plants_fail_and_the_tied_planter_with_the_lowest_value_is_ec():
    m = conductor_match()
    place(m, "Spadez", 0, "V", energy=5, parasite=True)
    place(m, "uri", 0, "V", energy=5, parasite=True)
    m.resolve({"Ann": sub(row(room="12C", energy="1")), "Spadez": sub(row(room="V", energy="4")), "uri": sub(row(room="V", energy="4"))})
    out = m.outcome()
    assert out.winners == ("Marcer",)  # R59: normal winner
    # A25: both tied plants are improper; lowest Conductor value among uri 29, Spadez 20: Spadez
    assert out.elimination_candidate == "Spadez"


def test_higher_planter_wins_over_a_lower_one():
    m = conductor_match()
    place(m, "Spadez", 0, "V", energy=5, parasite=True)
    place(m, "uri", 0, "V", energy=5, parasite=True)
    m.resolve({"Ann": sub(row(room="12C", energy="1")), "Spadez": sub(row(room="V", energy="3")), "uri": sub(row(room="V", energy="5"))})
    out = m.outcome()
    assert out.winners == ("uri",) and out.elimination_candidate == "Marcer"


def test_planter_who_would_have_won_anyway_falls_back():
    m = conductor_match()
    place(m, "Marcer", 0, "V", energy=5, parasite=True)
    m.resolve({"Ann": sub(row(room="12C", energy="1")), "Marcer": sub(row(room="V", energy="3"))})
    out = m.outcome()
    # A28 fallback: no improper planters, so R51 among the others: Ann 12
    assert out.winners == ("Marcer",) and out.elimination_candidate == "Ann"
    m2 = conductor_match(options={"planter_was_winner_ec": "runner_up"})
    place(m2, "Marcer", 0, "V", energy=5, parasite=True)
    m2.resolve({"Ann": sub(row(room="12C", energy="1")), "Marcer": sub(row(room="V", energy="3"))})
    assert m2.outcome().elimination_candidate == "uri"  # 5 pieces, 29


def _result(m):
    (res,) = of_type(m.outcome().facts, skeld.MainMatchResult)
    assert res.audience == skeld.PUBLIC      # section (c): winner, method and the EC's rule are revealed
    return (res.normal_winner, res.parasite_winner, res.parasite_energy, res.no_parasite_winner, res.tied_planters,
            res.winner, res.method, res.elimination_candidate, res.ec_rule, res.ec_by_gt)


def test_end_facts_name_the_normal_winner_beside_the_parasite_winner():
    """Section (d), steps 2-5, on the ruleset's 30 vs 29 Conductor example (Marcer 30, uri 29, Spadez
    20, Ann 12 after taking 12C). Step 2: NW = Marcer (5 pieces, 30 beats 29). Step 3: PW = the unique
    top V Energy of the round's plants, none if the top is tied (A24). Step 4: winner = PW, else NW.
    Step 5: (a) PW != NW: EC = NW (R60); PW == NW: A28 fallback, the lowest among the others (R51): Ann
    12; (b) improper planters: the lowest of them (R61, A25); (c) else R51."""
    # Marcer plants (3 Energy) and would have won anyway: NW and PW are both Marcer (A28 fallback)
    m = conductor_match()
    place(m, "Marcer", 0, "V", energy=5, parasite=True)
    m.resolve({"Ann": sub(row(room="12C", energy="1")), "Marcer": sub(row(room="V", energy="3"))})
    assert _result(m) == ("Marcer", "Marcer", 3, "", (), "Marcer", "parasite", "Ann", "lowest_metric", False)
    # the same with planter_was_winner_ec = runner_up: uri (5 pieces, 29) goes
    m = conductor_match(options={"planter_was_winner_ec": "runner_up"})
    place(m, "Marcer", 0, "V", energy=5, parasite=True)
    m.resolve({"Ann": sub(row(room="12C", energy="1")), "Marcer": sub(row(room="V", energy="3"))})
    assert _result(m) == ("Marcer", "Marcer", 3, "", (), "Marcer", "parasite", "uri", "runner_up", False)
    # Spadez plants: PW Spadez != NW Marcer, so Marcer goes to the EC (R60)
    m = conductor_match()
    place(m, "Spadez", 0, "V", energy=5, parasite=True)
    m.resolve({"Ann": sub(row(room="12C", energy="1")), "Spadez": sub(row(room="V", energy="3"))})
    assert _result(m) == ("Marcer", "Spadez", 3, "", (), "Spadez", "parasite", "Marcer", "would_have_won", False)
    # Spadez and uri both plant with 4: tied top, no Parasite winner (A24); both improper (A25): Spadez 20
    m = conductor_match()
    place(m, "Spadez", 0, "V", energy=5, parasite=True)
    place(m, "uri", 0, "V", energy=5, parasite=True)
    m.resolve({"Ann": sub(row(room="12C", energy="1")), "Spadez": sub(row(room="V", energy="4")),
               "uri": sub(row(room="V", energy="4"))})
    assert _result(m) == ("Marcer", None, None, "tied", ("Spadez", "uri"), "Marcer", "normal", "Spadez",
                          "improper_planter", False)
    # no plant at all: NW wins, R51 among the others: Ann 12
    m = conductor_match()
    m.resolve({"Ann": sub(row(room="12C", energy="1"))})
    assert _result(m) == ("Marcer", None, None, "no_plant", (), "Marcer", "normal", "Ann", "lowest_metric", False)


def test_tie_after_all_tiebreaks_goes_to_gamewide_tiebreak():
    comps = {"Marcer": ["1A", "12A"], "uri": ["13A"], "Spadez": ["2A"], "Ann": ["3A"]}
    res = decide(PLAYERS, comps, [], [], skeld.DEFAULTS)  # totals 13, 13, 2, 3
    assert res["winners"] == [] and res["winner"] is None and res["normal_group"] == ["Marcer", "uri"]  # pending
    (req,) = res["requests"]
    assert req.key == "gt-winner" and req.kind is DecisionKind.RANKING and req.choices == ("Marcer", "uri")
    # whoever wins the tie, the lowest total among the others is Spadez's 2: the EC is settled already
    assert res["ec"] == "Spadez"
    res = decide(PLAYERS, comps, [], [], skeld.DEFAULTS, {"gt-winner": ["uri", "Marcer"]})
    assert res["winners"] == ["uri"] and res["winner"] == "uri"
    assert [r.key for r in res["requests"]] == ["gt-winner"]   # still asked (it can be changed), now applied


def test_game_ends_after_round_8_with_highest_total():
    m = new_match()
    give(m, "uri", ["13A", "1B"])     # 14
    give(m, "Ann", ["12C"])           # 12
    give(m, "Marcer", ["5A", "4C"])   # 9
    give(m, "Spadez", ["1A", "2A", "3A"])  # 6, 3 components -> 1 garnet
    for r in range(1, 9):
        assert not m.finished
        m.resolve({})
    assert m.finished and m.state["round"] == 8
    out = m.outcome()
    assert out.winners == ("uri",) and out.elimination_candidate == "Spadez"
    assert {r.player: r.change for r in m.rounds[-1].ledger} == {"Spadez": 1}
    assert all(f.next_start is None for f in of_type(m.rounds[-1].facts, skeld.EnergyAccount))  # R39 omitted
    (limit,) = of_type(m.rounds[-1].facts, skeld.RoundLimitReached)
    assert {(t.player, t.value) for t in limit.standings} == {("uri", 14), ("Ann", 12), ("Marcer", 9), ("Spadez", 6)}
    assert "Energy at the start" not in text(m.rounds[-1].private["uri"])


def test_zurich_is_worth_four_garnets_at_the_end():
    m = new_match(options={"max_rounds": "1"})
    place(m, "Ann", 0, "Z", energy=5)
    m.resolve({"Ann": sub(row(room="Z", energy="1"))})
    assert {r.player: r.change for r in m.rounds[-1].ledger} == {"Ann": 4}


# ------------------------------------------------------------------ information model (R37-R41)

def test_private_report_holds_the_four_things_and_nothing_of_others():
    m = new_match()
    place(m, "uri", 0, "4B", energy=5)
    place(m, "uri", 1, "1A", energy=5)
    place(m, "Ann", 0, "4B", energy=5, items=[("S", 1)])
    place(m, "Spadez", 0, "1B", energy=5, parasite=True)  # not with uri's crewmates at the end
    place(m, "Marcer", 0, "5A", energy=5)
    m.resolve({"uri": sub(row(room="4B", energy="2")), "Ann": sub(row(room="4B", energy="1")),
               "Marcer": sub(row(move="3A", room="3A", energy="4")), "Spadez": sub(row(move="1A"))})
    report = m.rounds[-1].private["uri"]
    assert [b.title for b in report.blocks] == [
        "1. Crewmates sharing your rooms", "2. Activations of rooms you are in",
        "3. Energy at the start of round 2", "4. Bonuses and parasites of crewmates in your rooms"]
    rep = text(report)
    # 1. co-location (Spadez ended in 1A with CrewB)
    assert "CrewA is in 4B: with Ann.Red" in rep and "CrewB is in 1A: with Spadez.CrewN" in rep
    # 2. the activator of a room uri was in
    assert "4B (Hyacinth) was activated by uri" in rep
    # 3. own next energy: CrewA 5 - 2 + 3 = 6; CrewB 5 + 3 -> 7
    assert "CrewA: 6" in rep and "CrewB: 7" in rep
    # 4. items of co-located crewmates, with parasites
    assert "Ann.Red in 4B: Summoner's Meme (1 use left)" in rep
    assert "Spadez.CrewN in 1A: a Parasite" in rep
    # nothing else: not Marcer's room, bid, energy or activation (3A)
    assert "Marcer" not in rep and "3A" not in rep
    assert "Ann: " not in rep  # no other player's energy
    pub = text(m.rounds[-1].public)
    assert "4B (Hyacinth)" in pub and "3A (Streamline)" in pub  # R41: rooms activated
    assert "uri" not in pub and "Marcer" not in pub  # no activators in public


def test_form_has_dropdowns_per_crewmate():
    m = new_match()
    place(m, "uri", 0, "4B", energy=4, items=[("S", 1)])
    form = GAME.form(m.state, "uri")
    crew_sec = form.section("crew")
    assert crew_sec.rows == 2 and crew_sec.row_labels[0].startswith("CrewA")
    fields = {f.name: f for f in crew_sec.fields}
    assert fields["move_to"].kind is FieldKind.CHOICE and "3C" in fields["move_to"].choices
    # CrewA in 4B and CrewB in 1B: their rows and columns only (9C is in neither)
    assert "9C" not in fields["move_to"].choices and "8C" in fields["move_to"].choices
    assert "Summoner wall E" in fields["item"].choices and "Eat Yellow Banana" not in fields["item"].choices
    assert form.section("garnets").fields[0].name == "cap_upgrades"
    pre = GAME.form(api_new_match("skeld", PLAYERS).state, "uri")
    assert pre.round == 0 and pre.section("crew").fields[1].choices == skeld.START_CELLS


def test_random_submissions_are_legal():
    m = new_match()
    rng = Rng.from_seed(9, "legal")
    for _ in range(8):
        raws = {p: GAME.random_submission(m.state, p, rng.fork(p)) for p in PLAYERS}
        for p in PLAYERS:
            assert m.parse(p, raws[p]) is None or m.parse(p, raws[p]).problems == ()
        if m.finished:
            break
        m.resolve(raws)
        if m.finished:
            break


def test_resolve_does_not_mutate_input_state():
    m = new_match()
    place(m, "uri", 0, "1A", energy=5)
    before = copy.deepcopy(m.state)
    from sheetbridge.core.types import RoundInput
    sub_ = GAME.parse(m.state, "uri", sub(row(room="1A", energy="1")))
    GAME.resolve(m.state, RoundInput(1, {"uri": sub_}, {p: 0 for p in PLAYERS}, default_tables(GAME)), Rng(1))
    assert m.state == before


def test_parasite_room_contention_one_claimant_a_round():
    m = new_match()
    place(m, "uri", 0, "P", energy=5)
    place(m, "Ann", 0, "P", energy=5)
    m.resolve({"uri": sub(row(room="P", energy="2")), "Ann": sub(row(room="P", energy="1"))})  # A20: 2 beats 1
    assert m.state["claimed"] == {"Marcer": False, "uri": True, "Spadez": False, "Ann": False}
    m2 = new_match(options={"parasite_room_contention": "off"})
    place(m2, "uri", 0, "P", energy=5)
    place(m2, "Ann", 0, "P", energy=5)
    m2.resolve({"uri": sub(row(room="P", energy="2")), "Ann": sub(row(room="P", energy="1"))})  # both claim
    assert m2.state["claimed"]["uri"] and m2.state["claimed"]["Ann"]


def test_announce_disables_option():
    m = new_match(options={"announce_disables": "on"})
    place(m, "uri", 0, "4B", energy=4)
    m.resolve({"uri": sub(row(disable="4B"))})
    assert of_type(m.rounds[-1].facts, skeld.DisablesAnnounced) == [skeld.DisablesAnnounced(("4B",))]
    assert "Disabled this round: 4B" in text(m.rounds[-1].public)


def test_toe_step_through_a_wall_is_refused():
    m = new_match()
    m.state["walls"].append("3C|4B")
    place(m, "uri", 0, "3C", energy=5, items=[("T", None)])
    s = m.parse("uri", sub(row(toe="E")))
    assert s.problems[0].field == "CrewA toe_step" and "a wall" in s.problems[0].reason


def test_multi_sequence_piece_count_option():
    # Frontier and Greenhouse activated at once.
    # Frontier: Marcer 1..9 (9 pieces, value 45), uri 10..13 (4 pieces, value 46).
    # Greenhouse: Spadez 1..8 (8 pieces, value 36), Ann 9..13 (5 pieces, value 55).
    comps = {"Marcer": [f"{n}A" for n in range(1, 10)], "uri": [f"{n}A" for n in range(10, 14)],
             "Spadez": [f"{n}B" for n in range(1, 9)], "Ann": [f"{n}B" for n in range(9, 14)]}
    # A30 off (literal): best single value Ann 55 > uri 46 > Marcer 45 > Spadez 36 -> Ann
    assert decide(PLAYERS, comps, ["A", "B"], [], skeld.DEFAULTS)["winners"] == ["Ann"]
    # on: most pieces in one Sequence first: Marcer 9 > Spadez 8 > Ann 5 > uri 4 -> Marcer
    opts = dict(skeld.DEFAULTS, multi_seq_use_piece_count=True)
    assert decide(PLAYERS, comps, ["A", "B"], [], opts)["winners"] == ["Marcer"]


def test_plant_requires_target_option():
    m = conductor_match(options={"plant_requires_target": "on"})
    place(m, "Spadez", 0, "V", energy=5, parasite=True)
    form = GAME.form(m.state, "Spadez")
    assert "plant_sequence" in [f.name for f in form.section("crew").fields]
    r = sub(row(room="V", energy="3"))
    s = m.parse("Spadez", r)  # E17: a plant must name its Sequence
    assert s.problems[0].field == "CrewN plant_sequence" and "name its Sequence" in s.problems[0].reason
    r["crew"][0]["plant_sequence"] = "Greenhouse"
    assert m.parse("Spadez", r).problems == ()
    m.resolve({"Ann": sub(row(room="12C", energy="1")), "Spadez": r})
    out = m.outcome()
    # Conductor is activated, the plant named Greenhouse: improper (A22, A25). Marcer wins (30 vs 29);
    # the only improper planter Spadez is EC (R61).
    assert out.winners == ("Marcer",) and out.elimination_candidate == "Spadez"


def test_winner_can_be_ec_option():
    # 8-round end (max_rounds 1): totals Marcer 13, uri 12, Spadez 11, Ann 10; Marcer planted improperly.
    m = new_match(options={"max_rounds": "1", "winner_can_be_ec": "on"})
    for p, lab in (("Marcer", "13A"), ("uri", "12A"), ("Spadez", "11A"), ("Ann", "10A")):
        give(m, p, [lab])
    m.state["plants"].append({"player": "Marcer", "crew": 0, "energy": 3, "round": 0, "seq": None,
                             "verdict": "no_sequence", "improper": True})
    m.resolve({})
    out = m.outcome()
    # the improper-planter rule picks among {Marcer}; with the option the winner is not excluded
    assert out.winners == ("Marcer",) and out.elimination_candidate == "Marcer"


def test_cap_upgrade_scope_crewmate_option():
    m = new_match(options={"cap_upgrade_scope": "crewmate"}, garnets={p: 10 for p in PLAYERS})
    form = GAME.form(m.state, "uri")
    assert form.section("garnets").rows == 2
    raw = sub()
    raw["garnets"] = [{"cap_upgrades": "2"}, {"cap_upgrades": "1"}]
    m.resolve({"uri": raw})
    # 3 raises at 3 garnets each = 9; caps 9 and 8; energies 5 + 3 = 8 for both
    assert [c["cap"] for c in m.state["crew"]["uri"]] == [9, 8]
    assert m.ledger.balance("uri") == 1
    assert [c["energy"] for c in m.state["crew"]["uri"]] == [8, 8]


def test_remote_disable_option():
    m = new_match(options={"remote_disable": "on"})
    place(m, "uri", 0, "1A", energy=4)
    place(m, "Ann", 0, "4B", energy=5)
    # A6/A7 on: uri activates 1A with 1 (4 -> 3) and disables 4B from afar with the 3 left
    m.resolve({"uri": sub(row(room="1A", energy="1", disable="4B")), "Ann": sub(row(room="4B", energy="2"))})
    assert m.state["components"]["uri"] == ["1A"] and "4B" not in m.state["activated"]
    assert crew(m, "uri", 0)["energy"] == 3  # 0 + 3
    m2 = new_match()  # off: naming another room is refused
    place(m2, "uri", 0, "1A", energy=4)
    s = m2.parse("uri", sub(row(disable="4B")))
    assert s.problems[0].field == "CrewA disable_room" and "ends its movement in 1A, not 4B" in s.problems[0].reason


def test_same_round_bonus_use_option():
    m = new_match(options={"same_round_bonus_use": "on"})
    place(m, "uri", 0, "S", energy=5)
    raw = sub(row(room="S", energy="1", item="Summoner wall W"))
    assert m.parse("uri", raw).problems == ()
    m.resolve({"uri": raw})  # wins S and walls its west side (3A) at the end of the same round
    assert m.state["walls"] == ["3A|S"]
    m2 = new_match(options={"same_round_bonus_use": "on"})
    place(m2, "uri", 0, "S", energy=5)
    place(m2, "Ann", 0, "S", energy=5)
    m2.resolve({"uri": sub(row(room="S", energy="1", item="Summoner wall W")), "Ann": sub(row(room="S", energy="3"))})
    assert m2.state["walls"] == []  # Ann won S: uri's wall does not happen
    assert of_type(m2.rounds[-1].facts, skeld.BonusNotUsed) == [
        skeld.BonusNotUsed("uri", "CrewA", "S", "not won", audience=("uri",))]
    assert "did not win the Summoner's Meme" in text(m2.rounds[-1].private["uri"])
    m3 = new_match()  # off (A12 default): refused
    place(m3, "uri", 0, "S", energy=5)
    assert m3.parse("uri", raw).problems[0].default == "no wall"


@pytest.mark.parametrize("options", [
    {"remote_disable": "on", "cap_upgrade_scope": "crewmate", "same_round_bonus_use": "on"},
    {"parasite_room_contention": "off", "plant_requires_target": "on", "income_before_round_1": "on",
     "banana_can_exceed_cap": "on", "wiwaxia_transfers": "on", "toe_requires_real_move": "on"},
    {"reveal_start_positions": "on", "reveal_activator_crewmate": "on", "reveal_failure_reasons": "on",
     "public_garnets": "on", "endgame_full_reveal": "on", "announce_disables": "on", "max_rounds": "3"},
])
def test_random_games_under_host_options(options):
    from sheetbridge.api import play_random
    for seed in (1, 2):
        m = play_random("skeld", PLAYERS, seed=seed, options=options)
        out = m.outcome()
        assert out is not None and out.winners
        for rec in m.rounds[1:]:  # random submissions are legal under these options too
            for p in PLAYERS:
                sub_ = rec.submissions.get(p)
                assert sub_ is None or sub_.problems == (), [x.message for x in sub_.problems]


# ------------------------------------------------------------------ round results as data (typed facts)

GRID = tuple(tuple(r[1:]) for r in BOARD_CSV[1:])


def problem(player, field, value, allowed, reason, default, kind=ProblemKind.ILLEGAL, label=""):
    from sheetbridge.core.types import Problem
    return Problem(kind, player, field, value, allowed, reason, default, label=label)


def test_every_fact_of_a_hand_computed_round():
    """The ruleset's examples in one round, every fact read from the typed results.

    - 1A: Marcer's Crew1 bids 2, uri's CrewA 2, Spadez's CrewN (moved from 2A, 1 tile) 1: the tied
      2s are nullified and Spadez's 1 activates (R27, the ruleset's example).
    - Ann: the ruleset's example submission. Red (4B, 4 Energy, Summoner's Meme) moves to 3C
      (1 tile), activates 3C with 2 and walls its east side; Blue (10B, 3 Energy, Yellow Banana)
      eats it (3 + 3 = 6), moves to 10A (1 tile) and activates it with 4.
    - uri's CrewB (4A, 5 Energy, Take Back Toe, Urgot) moves to P (1 tile), steps west to 4B (1)
      and bids 1 there; Urgot beats Spadez's CrewM bid of 3 (R69).
    - Marcer's Crew2 (5A, 6 Energy, Yellow Banana) eats it: 9 is over the cap 7, so 2 are lost
      (A10); its move to 9C is off its row and column (refused), so its activation of 9C is
      dropped (E11) and costs nothing.
    """
    from sheetbridge.core.facts import HOST_ONLY, PUBLIC
    S = skeld
    m = new_match()
    place(m, "Marcer", 0, "1A", energy=5)
    place(m, "Marcer", 1, "5A", energy=6, items=[("Y", 1)])
    place(m, "uri", 0, "1A", energy=5)
    place(m, "uri", 1, "4A", energy=5, items=[("T", None), ("U", 1)])
    place(m, "Spadez", 0, "2A", energy=5)
    place(m, "Spadez", 1, "4B", energy=5)
    place(m, "Ann", 0, "4B", energy=4, items=[("S", 1)])
    place(m, "Ann", 1, "10B", energy=3, items=[("Y", 1)])
    rec = m.resolve({
        "Marcer": sub(row(room="1A", energy="2"), row(item="Eat Yellow Banana", move="9C", room="9C", energy="3")),
        "uri": sub(row(room="1A", energy="2"), row(move="P", toe="W", room="4B", energy="1")),
        "Spadez": sub(row(move="1A", room="1A", energy="1"), row(room="4B", energy="3")),
        "Ann": sub(row(move="3C", room="3C", energy="2", item="Summoner wall E"),
                   row(item="Eat Yellow Banana", move="10A", room="10A", energy="4")),
    })
    M, U, SP, A = ("Marcer",), ("uri",), ("Spadez",), ("Ann",)

    def account(p, c, room, start, end, nxt, banana=0, move=0, toe=0, bid=0):
        return S.EnergyAccount(p, c, room, start, banana, move, toe, bid, 0, end, nxt, 7, audience=(p,))

    def at_end(p, c, end, nxt):
        return S.EndOfRoundEnergy(p, c, 0, 0, end, nxt - end, audience=HOST_ONLY)

    def contest(room, bids, winner, how):
        return S.ActivationContest(room, tuple(S.RoomBid(*b) for b in bids), (S.RoomBid(*winner),), how, audience=HOST_ONLY)

    expected = (
        # each named as the player's Submission tab names the cell
        S.SubmissionProblem("Marcer", problem("Marcer", "Crew2 move_to", "9C", "a room in the same row or column as 5A",
                                              "9C is not in the same row or column as 5A", "Crew2 stays in 5A",
                                              label="Crew2: Move to"), audience=M),
        S.SubmissionProblem("Marcer", problem("Marcer", "Crew2 activate_room", "9C", "the room Crew2 ends in (5A)",
                                              "the move to 9C was refused, so Crew2 stays in 5A",
                                              "no activation; no Energy spent", label="Crew2: Activate room"),
                            audience=M),
        S.BonusUsed("Marcer", "Crew2", "Y", 0, audience=M),
        S.EnergyLost("Marcer", "Crew2", "banana", 2, 7, audience=M),
        S.CrewMove("Marcer", "Crew2", "move", "5A", "9C", (), 0, "9C is not in the same row or column as 5A", audience=M),
        S.CrewMove("uri", "CrewB", "move", "4A", "P", ("P",), 1, audience=U),
        S.CrewMove("uri", "CrewB", "toe", "P", "4B", ("4B",), 1, audience=U),
        S.CrewMove("Spadez", "CrewN", "move", "2A", "1A", ("1A",), 1, audience=SP),
        S.CrewMove("Ann", "Red", "move", "4B", "3C", ("3C",), 1, audience=A),
        S.BonusUsed("Ann", "Blue", "Y", 0, audience=A),
        S.CrewMove("Ann", "Blue", "move", "10B", "10A", ("10A",), 1, audience=A),
        # 1A: 2, 2 and 1: the ties are nullified, the 1 wins (R27)
        contest("1A", [("Marcer", "Crew1", 2), ("Spadez", "CrewN", 1), ("uri", "CrewA", 2)], ("Spadez", "CrewN", 1),
                "highest untied bid"),
        S.ActivationAttempt("Marcer", "Crew1", "1A", 2, False, audience=M),
        S.ActivationAttempt("Spadez", "CrewN", "1A", 1, True, audience=SP),
        S.ActivationAttempt("uri", "CrewA", "1A", 2, False, audience=U),
        S.ComponentGained("Spadez", "CrewN", "1A", "A", 1, audience=SP),
        contest("10A", [("Ann", "Blue", 4)], ("Ann", "Blue", 4), "only bid"),
        S.ActivationAttempt("Ann", "Blue", "10A", 4, True, audience=A),
        S.ComponentGained("Ann", "Blue", "10A", "A", 10, audience=A),
        S.BonusUsed("uri", "CrewB", "U", 0, "4B", audience=U),
        contest("4B", [("Spadez", "CrewM", 3), ("uri", "CrewB", 1)], ("uri", "CrewB", 1), "Urgot Peraphernalia"),
        S.ActivationAttempt("Spadez", "CrewM", "4B", 3, False, audience=SP),
        S.ActivationAttempt("uri", "CrewB", "4B", 1, True, audience=U),
        S.ComponentGained("uri", "CrewB", "4B", "B", 4, audience=U),
        contest("3C", [("Ann", "Red", 2)], ("Ann", "Red", 2), "only bid"),
        S.ActivationAttempt("Ann", "Red", "3C", 2, True, audience=A),
        S.ComponentGained("Ann", "Red", "3C", "C", 3, audience=A),
        S.RoomActivated("1A"), S.RoomActivated("10A"), S.RoomActivated("4B"), S.RoomActivated("3C"),
        S.BonusUsed("Ann", "Red", "S", 0, "east wall of 3C", audience=A),
        S.WallPlaced("3C", "E", "4B"),
        # Energy: start, spending, what is left, next start (income 3, cap 7)
        account("Marcer", "Crew1", "1A", 5, 3, 6, bid=2),
        account("Marcer", "Crew2", "5A", 6, 7, 7, banana=1),            # 6 + 3 = 9, capped at 7: 2 lost
        account("uri", "CrewA", "1A", 5, 3, 6, bid=2),
        account("uri", "CrewB", "4B", 5, 2, 5, move=1, toe=1, bid=1),
        account("Spadez", "CrewN", "1A", 5, 3, 6, move=1, bid=1),
        account("Spadez", "CrewM", "4B", 5, 2, 5, bid=3),             # spent though it failed (R29)
        account("Ann", "Red", "3C", 4, 1, 4, move=1, bid=2),
        account("Ann", "Blue", "10A", 3, 1, 4, banana=3, move=1, bid=4),
        # the end of the round before income, with drains (none here): the host's (A16)
        at_end("Marcer", "Crew1", 3, 6), at_end("Marcer", "Crew2", 7, 7), at_end("uri", "CrewA", 3, 6),
        at_end("uri", "CrewB", 2, 5), at_end("Spadez", "CrewN", 3, 6), at_end("Spadez", "CrewM", 2, 5),
        at_end("Ann", "Red", 1, 4), at_end("Ann", "Blue", 1, 4),
        # R37, R40 (end-of-round rooms and what is carried), R38 (who activated), to those present
        S.RoomOccupants("1A", (S.CrewInRoom("Marcer", "Crew1", (), False), S.CrewInRoom("uri", "CrewA", (), False),
                               S.CrewInRoom("Spadez", "CrewN", (), False)), audience=("Marcer", "uri", "Spadez")),
        S.ActivatorsSeen("1A", ("Spadez",), audience=("Marcer", "uri", "Spadez")),
        S.RoomOccupants("5A", (S.CrewInRoom("Marcer", "Crew2", (S.BonusHeld("Y", 0),), False),), audience=M),
        S.RoomOccupants("10A", (S.CrewInRoom("Ann", "Blue", (S.BonusHeld("Y", 0),), False),), audience=A),
        S.ActivatorsSeen("10A", ("Ann",), audience=A),
        S.RoomOccupants("4B", (S.CrewInRoom("uri", "CrewB", (S.BonusHeld("T", None), S.BonusHeld("U", 0)), False),
                               S.CrewInRoom("Spadez", "CrewM", (), False)), audience=("uri", "Spadez")),
        S.ActivatorsSeen("4B", ("uri",), audience=("uri", "Spadez")),
        S.RoomOccupants("3C", (S.CrewInRoom("Ann", "Red", (S.BonusHeld("S", 0),), False),), audience=A),
        S.ActivatorsSeen("3C", ("Ann",), audience=A),
        S.ShipBoard(GRID, ("1A", "10A", "4B", "3C"), ("3C|4B",)),
        S.MainMatchStatus(1, 2),
    )
    assert rec.facts == expected
    assert all(f.audience == PUBLIC for f in expected if isinstance(f, (S.RoomActivated, S.WallPlaced, S.ShipBoard)))
    # The reports say the same, each public fact once, and name no ruling.
    assert rec.public.text().splitlines() == [
        "Skeld round 1", "Round 1",
        "Rooms activated this round: 1A (Machine Learning), 10A (Capacitor), 4B (Hyacinth), 3C (Debussy)",
        "Wall placed: east wall of 3C (between 3C and 4B)", "The Main Match continues with round 2."]
    marcer = rec.private["Marcer"].text()
    assert "1A (Machine Learning) was activated by Spadez" in marcer
    assert "Crew2 ate the Yellow Banana over its Energy cap of 7: 2 Energy lost." in marcer
    assert ("Crew2: Activate room = '9C' (the move to 9C was refused, so Crew2 stays in 5A); allowed: the "
            "room Crew2 ends in (5A); applied: no activation; no Energy spent") in marcer


def test_a_refused_move_no_longer_activates_the_start_room():
    # E11: the bid names 4C; the move 4B -> 4C crosses a wall, so CrewA stays in 4B. Before the fix the
    # "activate here" field activated 4B, the room the player never asked for, and spent the 2 Energy.
    m = new_match()
    m.state["walls"].append("4B|4C")
    place(m, "uri", 0, "4B", energy=2)
    place(m, "uri", 1, "1B", energy=5)
    raw = sub(row(move="4C", room="4C", energy="2"), row(room="2B", energy="1"))
    rec = m.resolve({"uri": raw})
    assert "4B" not in m.state["activated"] and m.state["components"]["uri"] == []
    assert crew(m, "uri", 0)["energy"] == 5 and crew(m, "uri", 1)["energy"] == 7   # nothing spent: 2 + 3, 5 + 3 -> 7
    assert of_type(rec.facts, skeld.ActivationAttempt) == [] and of_type(rec.facts, skeld.RoomActivated) == []
    probs = [f.problem for f in of_type(rec.facts, skeld.SubmissionProblem)]
    assert [(p.field, p.value, p.reason) for p in probs] == [
        ("CrewA move_to", "4C", "the way from 4B to 4C crosses a wall"),
        ("CrewA activate_room", "4C", "the move to 4C was refused, so CrewA stays in 4B"),
        ("CrewB activate_room", "2B", "CrewB ends its movement in 1B, not 2B")]
    assert all(p.default == "no activation; no Energy spent" for p in probs[1:])
    (move,) = of_type(rec.facts, skeld.CrewMove)
    assert (move.start, move.to, move.refused) == ("4B", "4C", "the way from 4B to 4C crosses a wall")
    assert "the move to 4C was refused, so CrewA stays in 4B" in rec.private["uri"].text()   # told why
    # The same for a disable: it names its room (E11), and an activation or a disable alone is incomplete.
    s = m.parse("uri", sub(row(disable="4C"), row(room="1B")))
    assert [(p.kind, p.field) for p in s.problems] == [(ProblemKind.MISSING, "CrewB energy"),
                                                       (ProblemKind.ILLEGAL, "CrewA disable_room")]
    s = m.parse("uri", sub(row(energy="2")))
    assert [(p.kind, p.field, p.reason) for p in s.problems] == [
        (ProblemKind.MISSING, "CrewA activate_room", "an activation names its room")]


def test_two_activations_for_one_crewmate_are_against_the_rules_not_unreadable():
    # E18 (R30): two rooms, or two amounts, for one crewmate: every activation of it is dropped.
    m = new_match()
    place(m, "uri", 0, "4B", energy=5)
    place(m, "uri", 1, "1B", energy=5)
    raw = sub(row(room="4B, 3C", energy="2"), row(room="1B", energy="2 3"))
    s = m.parse("uri", raw)
    assert [(p.kind, p.field, p.value, p.reason) for p in s.problems] == [
        (ProblemKind.ILLEGAL, "CrewA activate_room", "4B, 3C", "a crewmate activates at most one room a round"),
        (ProblemKind.ILLEGAL, "CrewB energy", "2 3", "a crewmate activates at most one room a round")]
    rec = m.resolve({"uri": raw})
    assert m.state["activated"] == [] and of_type(rec.facts, skeld.ActivationContest) == []
    assert m.parse("uri", sub(row(room="4B and 3C", energy="2"))).problems[0].kind is ProblemKind.ILLEGAL


def test_banana_energy_over_the_cap_is_lost_and_the_player_is_warned():
    # A10: 6 + 3 = 9 over the cap of 7: 2 Energy are lost; the player is told. 7 + 3 -> 7 next round.
    m = new_match()
    place(m, "uri", 0, "1A", energy=6, items=[("Y", 1)])
    rec = m.resolve({"uri": sub(row(item="Eat Yellow Banana"))})
    assert of_type(rec.facts, skeld.EnergyLost) == [skeld.EnergyLost("uri", "CrewA", "banana", 2, 7, audience=("uri",))]
    assert "CrewA ate the Yellow Banana over its Energy cap of 7: 2 Energy lost." in rec.private["uri"].text()
    assert "Energy lost" not in rec.public.text() and "Energy lost" not in rec.private["Ann"].text()
    acc = [f for f in of_type(rec.facts, skeld.EnergyAccount) if f.crewmate == "CrewA"][0]
    assert (acc.start, acc.banana, acc.left, acc.next_start) == (6, 1, 7, 7)
    # Under banana_can_exceed_cap nothing is lost: 9 this round, then 9 + 3 -> 7 at the cap.
    m2 = new_match(options={"banana_can_exceed_cap": "on"})
    place(m2, "uri", 0, "1A", energy=6, items=[("Y", 1)])
    rec2 = m2.resolve({"uri": sub(row(item="Eat Yellow Banana", move="13C", room="13C", energy="3"))})
    assert of_type(rec2.facts, skeld.EnergyLost) == []
    assert crew(m2, "uri", 0)["energy"] == 3   # 9 - 6 tiles - 3 = 0, + 3


def test_contests_say_which_tie_break_decided():
    m = new_match()
    for p in ("Marcer", "uri"):
        place(m, p, 0, "1A", energy=5)
    place(m, "Ann", 0, "P", energy=5)
    place(m, "Spadez", 0, "P", energy=5)
    rec = m.resolve({"Marcer": sub(row(room="1A", energy="2")), "uri": sub(row(room="1A", energy="2")),
                     "Ann": sub(row(room="P", energy="3")), "Spadez": sub(row(room="P", energy="1"))})
    contests = {f.room: (f.winners, f.decided_by) for f in of_type(rec.facts, skeld.ActivationContest)}
    assert contests == {"1A": ((), "all tied"), "P": ((skeld.RoomBid("Ann", "Red", 3),), "highest bid")}
    assert [f.room for f in of_type(rec.facts, skeld.RoomActivated)] == ["P"]


# ------------------------------------------------------------------ colours and pictures

def test_every_legend_colour_is_distinct_and_text_is_readable_on_its_fill():
    import itertools
    from coloraide import Color
    from sheetbridge.sheets.layout import contrast
    legend = dict(skeld.FILL_LEGEND)
    legend.update({"new": skeld.NEW_THIS_ROUND, "wall": skeld.WALL_COLOUR, "crew": skeld.CREW_COLOUR})
    # Before the fix "activated" (2F75B5) and the Vault (4472C4) were two similar blues: CIEDE2000 4.9.
    assert Color("#2F75B5").delta_e("#4472C4", method="2000") < 10
    assert legend["Activated room"] != legend["Vault V"]
    for (a, ca), (b, cb) in itertools.combinations(legend.items(), 2):
        # CIEDE2000: about 2 is barely noticeable side by side; 10 or more is told apart at a glance
        assert Color("#" + ca).delta_e("#" + cb, method="2000") >= 10, (a, b)
    for fill in skeld.ROOM_FILL.values():
        assert contrast(fill, skeld.room_text_colour(fill)) >= 4.5, fill   # WCAG AA for normal text
    # the board tab uses the same colours
    m = new_match()
    cells = {c.text: c for r in GAME.public_view(m.state).blocks[0].grid for c in r}
    assert cells["P"].fill == "C00000" and cells["P"].font == "FFFFFF" and cells["V"].fill == "2F5597"
    assert GAME.public_view(m.state).blocks[0].legend == skeld.FILL_LEGEND


def test_pictures_show_the_ship_and_only_your_own_crewmates():
    from sheetbridge.host.picture_files import round_pictures
    from sheetbridge.host.pictures import draw
    m = new_match()
    place(m, "uri", 0, "1A", energy=5)
    place(m, "uri", 1, "1B", energy=5)
    place(m, "Ann", 0, "4B", energy=4, items=[("S", 1)])
    place(m, "Ann", 1, "2A", energy=5)
    for p in ("Marcer", "Spadez"):
        place(m, p, 0, "13B")
        place(m, p, 1, "13B")
    m.resolve({"uri": sub(row(room="1A", energy="2")),
               "Ann": sub(row(move="3C", room="3C", energy="2", item="Summoner wall E"))})
    pics = round_pictures(m, 1)
    assert set(pics) == {"board", "Marcer", "uri", "Spadez", "Ann"}
    board, mine, ann = draw(pics["board"]), draw(pics["uri"]), draw(pics["Ann"])

    def rgb(h):
        return tuple(int(h[i:i + 2], 16) for i in (0, 2, 4))

    def cell(i, j, dx, dy):   # a point in the room of row i, column j (0-based)
        x, y = skeld.cell_xy(i, j)
        return x + dx, y + dy
    assert board.getpixel(cell(2, 4, 80, 30)) == rgb("C00000")     # P (row 3, column 5) is red
    assert board.getpixel(cell(3, 3, 80, 30)) == rgb("2F5597")     # V (row 4, column 4) is blue
    assert board.getpixel(cell(0, 1, 80, 30)) == rgb("BDD7EE")     # 2A, not activated: Frontier light blue
    assert board.getpixel(cell(0, 0, 80, 30)) == rgb("595959")     # 1A, activated by uri: grey
    assert board.getpixel(cell(0, 0, 2, 30)) == rgb("FFC000")      # ... and framed: activated this round
    assert board.getpixel(cell(2, 3, 0, 30)) == rgb("E6007E")      # the wall between 3C and 4B
    # uri's own crewmates are tagged on uri's picture only; Ann's are not on it.
    assert mine.getpixel(cell(0, 0, 6, 48)) == rgb(skeld.CREW_COLOUR)    # CrewA's tag in 1A
    assert mine.getpixel(cell(1, 0, 6, 48)) == rgb(skeld.CREW_COLOUR)    # CrewB's tag in 1B
    assert board.getpixel(cell(0, 0, 6, 48)) == rgb("595959")
    assert mine.getpixel(cell(2, 2, 6, 48)) == rgb("595959")             # 3C: Ann's Red is there, not shown
    assert ann.getpixel(cell(2, 2, 6, 48)) == rgb(skeld.CREW_COLOUR)
    texts = [s.text for s in pics["uri"].shapes if hasattr(s, "text")]
    assert "by uri" in texts and "CrewA" in texts and "Red" not in texts
    assert "by Ann" not in texts   # uri was not in 3C: who activated it is not uri's to know
    assert not any(getattr(s, "text", "").startswith("by ") for s in pics["board"].shapes)


# ------------------------------------------------------------------ decisions: the Gamewide Tiebreak (R49)

TIED_CONDUCTOR = {  # 5 pieces and value 30 each: tied on both (R45, R46); 12C is left for the last round
    "uri": ["1C", "2C", "6C", "8C", "13C"],     # 1 + 2 + 6 + 8 + 13 = 30
    "Marcer": ["3C", "4C", "5C", "7C", "11C"],  # 3 + 4 + 5 + 7 + 11 = 30
    "Spadez": ["9C", "10C"],                    # 19
    "Ann": [],                                  # 12C this round: 12
}


def tied_match(**kw):
    m = new_match(**kw)
    for p, labs in TIED_CONDUCTOR.items():
        give(m, p, labs)
    place(m, "Ann", 0, "12C", energy=5)
    return m


def test_a_tie_for_the_win_waits_for_the_gamewide_tiebreak():
    m = tied_match()
    m.resolve({"Ann": sub(row(room="12C", energy="1"))})
    out = m.outcome()
    # Pending: nobody is named winner and nobody gets the Token of Life yet. Whoever wins, the EC is the
    # lowest Conductor value among the others: Ann 12 (Spadez 19, the other tied player 30).
    assert out.winners == () and out.awards == () and out.elimination_candidate == "Ann"
    assert out.losers == ("Spadez", "Ann") and [p for p, _ in out.standings] == ["Marcer", "uri", "Spadez", "Ann"]
    (req,) = m.pending()
    assert (req.key, req.kind, req.choices) == ("gt-winner", DecisionKind.RANKING, ("Marcer", "uri"))
    assert "no Token of Life" in req.default
    board = m.public_report().text()
    assert "The winner will be announced after the tiebreak." in board and "for the host" not in board
    assert out.ending == "sequence_tiebreak" and out.scores == {"Marcer": 30.0, "uri": 30.0, "Spadez": 19.0,
                                                                 "Ann": 12.0}
    m.decide("gt-winner", "uri, Marcer")
    out = m.outcome()
    assert out.winners == ("uri",) and [(a.player, a.kind) for a in out.awards] == [("uri", "Token of Life")]
    assert out.losers[0] == "Marcer" and not m.pending()
    m.decide("gt-winner", "Marcer, uri")   # a ranking can be corrected
    assert m.outcome().winners == ("Marcer",)


def test_a_tie_for_the_elimination_candidate_waits_for_the_gamewide_tiebreak():
    # Round limit (max_rounds 1): totals Marcer 13, uri 12, Spadez 5, Ann 5: Marcer wins (R50); the
    # lowest total is tied between Spadez and Ann (A29): pending until the host ranks them.
    m = new_match(options={"max_rounds": "1"})
    for p, lab in (("Marcer", "13A"), ("uri", "12A"), ("Spadez", "5A"), ("Ann", "5B")):
        give(m, p, [lab])
    m.resolve({})
    out = m.outcome()
    assert out.winners == ("Marcer",) and out.elimination_candidate is None
    (req,) = m.pending()
    assert req.key == "gt-ec" and req.choices == ("Ann", "Spadez") and req.default == "no Elimination Candidate yet"
    assert "The Elimination Candidate will be announced after the tiebreak." in m.public_report().text()
    m.decide("gt-ec", "Spadez, Ann")       # best first: the last goes to the EC
    assert m.outcome().elimination_candidate == "Ann"
    m.decide("gt-ec", "Ann, Spadez")
    assert m.outcome().elimination_candidate == "Spadez"


def test_after_a_winning_plant_the_tied_would_be_winners_wait_for_the_gamewide_tiebreak():
    # Spadez plants alone in the round Conductor is activated: Spadez wins (R58). The EC is who would
    # have won without the Parasite (R60): Marcer and uri are tied, so the GT decides who.
    m = tied_match()
    place(m, "Spadez", 0, "V", energy=5, parasite=True)
    rec = m.resolve({"Ann": sub(row(room="12C", energy="1")), "Spadez": sub(row(room="V", energy="3"))})
    out = m.outcome()
    assert out.winners == ("Spadez",) and out.awards[0].player == "Spadez" and out.elimination_candidate is None
    assert out.ending == "parasite"
    (req,) = m.pending()
    assert req.key == "gt-winner" and "would have won without the Parasite" in req.question
    (res,) = of_type(out.facts, skeld.MainMatchResult)    # NW pending: the tied are named, no EC yet
    assert (res.normal_winner, res.normal_tied, res.parasite_winner, res.elimination_candidate, res.ec_rule) == \
        (None, ("Marcer", "uri"), "Spadez", None, "")
    m.decide("gt-winner", "uri, Marcer")
    assert m.outcome().elimination_candidate == "uri" and m.outcome().winners == ("Spadez",)
    (res,) = of_type(m.outcome().facts, skeld.MainMatchResult)
    assert (res.normal_winner, res.normal_tied, res.winner, res.elimination_candidate, res.ec_rule) == \
        ("uri", ("Marcer", "uri"), "Spadez", "uri", "would_have_won")
    (plant,) = of_type(rec.facts, skeld.ParasitePlant)
    assert (plant.player, plant.verdict, plant.improper, plant.audience) == ("Spadez", "correct", False, ("*",))


def test_a_runner_up_tie_waits_for_the_gamewide_tiebreak():
    # planter_was_winner_ec = runner_up: Marcer planted and would have won anyway (30); runner-up
    # uri and Spadez tied at 2 pieces, value 13 (13C vs 6C + 7C).
    comps = {"Marcer": ["1C", "2C", "3C", "4C", "5C", "8C", "9C"], "uri": ["13C", "10C"], "Spadez": ["6C", "7C"],
             "Ann": ["11C", "12C"]}
    plants = [{"player": "Marcer", "energy": 3, "verdict": "correct", "improper": False}]
    opts = dict(skeld.DEFAULTS, planter_was_winner_ec="runner_up")
    # uri 2 pieces 23, Spadez 2 pieces 13, Ann 2 pieces 23: uri and Ann tie for runner-up
    res = decide(PLAYERS, comps, ["C"], plants, opts)
    assert res["winners"] == ["Marcer"] and res["ec"] is None
    assert [(r.key, r.choices) for r in res["requests"]] == [("gt-runner-up", ("Ann", "uri"))]
    res = decide(PLAYERS, comps, ["C"], plants, opts, {"gt-runner-up": ["uri", "Ann"]})
    assert res["ec"] == "uri"


# ------------------------------------------------------------------ starting from a position

def position(**changes):
    pos = {
        "round": 7,
        "crew": {"Marcer": [{"name": "Crew1", "room": "4B", "energy": 7}, {"name": "Crew2", "room": "1A", "energy": 5}],
                 "uri": [{"name": "CrewA", "room": "3C", "energy": 6, "items": {"S": 0}},
                         {"name": "CrewB", "room": "V", "energy": 4}],
                 "Spadez": [{"name": "CrewN", "room": "P", "energy": 3, "parasite": True},
                            {"name": "CrewM", "room": "2B", "energy": 7}],
                 "Ann": [{"name": "Red", "room": "12C", "energy": 5, "items": ["R"]},
                         {"name": "Blue", "room": "1B", "energy": 8}]},
        "cap": {"Ann": 8},
        "components": {p: labs for p, labs in CONDUCTOR_EXAMPLE.items() if labs},
        "walls": ["3C E"],
        "disable_used": ["Marcer"],
    }
    pos.update(changes)
    return pos


def test_a_game_opened_from_a_position_plays_on_and_replays():
    m = match_from_position("skeld", PLAYERS, position(), garnets={p: 10 for p in PLAYERS})
    st = m.state
    assert st["round"] == 7 and st["crew"]["Ann"][0]["pos"] == "12C" and st["crew"]["Ann"][1]["cap"] == 8
    assert st["walls"] == ["3C|4B"] and st["claimed"]["Spadez"] and st["disable_used"]["Marcer"]
    assert sorted(st["activated"]) == sorted(["S", "R"] + [c for labs in CONDUCTOR_EXAMPLE.values() for c in labs])
    # Round 7: Marcer's Crew1 cannot go west through the wall; Ann activates 12C, the last Conductor
    # component: the Main Match ends, Marcer wins 30 to 29 (R46) and Ann (12) is the EC (R51).
    s = m.parse("Marcer", sub(row(move="1C")))
    assert "crosses a wall" in s.problems[0].reason
    m.resolve({"Ann": sub(row(room="12C", energy="1")), "Marcer": sub(row(move="1C"))})
    out = m.outcome()
    assert m.finished and out.winners == ("Marcer",) and out.elimination_candidate == "Ann"
    back = load_match(m.to_json(), m.ledger.rows)
    back.replay()                                            # replay starts from the position
    assert back.state == m.state


@pytest.mark.parametrize("changes, message", [
    ({"round": 9}, "a position opens a round from 1 to 8"),
    ({"cards": []}, "unknown position key(s) cards"),
    ({"components": {"Zed": ["1A"]}}, "components: Zed is not a player"),
    ({"crew": {"Marcer": [{"room": "4B", "energy": 7}]}}, "Marcer needs a list of exactly two crewmates"),
    ({"components": {"uri": ["1C"], "Ann": ["1C"]}}, "1C is held by uri and Ann"),
    ({"components": {"uri": [f"{n}A" for n in range(1, 14)]}}, "all 13 Frontier components are claimed"),
    ({"components": {"uri": ["1A", "2A", "3A"]}, "round": 2}, "uri has made 4 activations"),
    ({"walls": []}, "0 wall(s) but the Summoner's Meme (single use) has been used 1 time(s)"),
    ({"walls": ["3C E", "4B|3C"]}, "'4B|3C' is given twice"),
    ({"walls": ["1A N"]}, "is on the hull"),
    ({"cap": {"Ann": 10}}, "a cap is 7 to 9"),
    ({"round": 1}, "every crewmate starts round 1 with 5"),
    ({"disabled": {"4B": 7, "5A": 7}}, "2 room(s) disabled but only 1 player(s)"),
    ({"disabled": {"V": 7}}, "'V' cannot be disabled"),
    ({"plants": [{"player": "Spadez", "round": 3, "energy": 3}]}, "Spadez planted and still carries a parasite"),
])
def test_impossible_positions_are_refused_with_one_line(changes, message):
    from sheetbridge.core.errors import PositionError
    pos = position()
    for key, value in changes.items():
        if key == "crew":
            pos["crew"] = dict(pos["crew"], **value)
        else:
            pos[key] = value
    with pytest.raises(PositionError) as err:
        match_from_position("skeld", PLAYERS, pos)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_crewmates_energy_and_items_in_a_position_are_checked():
    from sheetbridge.core.errors import PositionError
    for crew0, message in [({"room": "Q9", "energy": 5}, "'Q9', which is not a room of the ship"),
                           ({"room": "4B", "energy": 9}, "Marcer.Crew1 has 9 Energy"),
                           ({"room": "4B", "energy": 7, "items": ["S"]}, "carried by Marcer.Crew1 and uri.CrewA"),
                           ({"room": "4B", "energy": 7, "items": {"W": 3}}, "Wiwaxia has 3 uses left"),
                           ({"room": "4B", "energy": 7, "parasite": True, "name": "Crew2"}, "both of Marcer's")]:
        pos = position()
        pos["crew"] = dict(pos["crew"], Marcer=[dict({"name": "Crew1"}, **crew0), pos["crew"]["Marcer"][1]])
        with pytest.raises(PositionError, match=re.escape(message)):
            match_from_position("skeld", PLAYERS, pos)


# ------------------------------------------------------------------ what players read

def test_no_ruling_numbers_in_anything_players_or_the_public_read():
    from sheetbridge.api import play_random
    ruling = re.compile(r"\b[RAE]\d{1,2}\b")
    for options in ({}, {"reveal_failure_reasons": "on", "public_garnets": "on", "announce_disables": "on",
                         "endgame_full_reveal": "on"}):
        m = play_random("skeld", PLAYERS, seed=3, options=options)
        texts = [m.public_report().text()] + [m.player_report(p).text() for p in PLAYERS]
        texts += [f.help for f in GAME.form(new_match().state, "uri").section("crew").fields]
        texts += list(GAME.form(new_match().state, "uri").help) + list(GAME.form(api_new_match("skeld", PLAYERS).state,
                                                                             "uri").help)
        for rec in m.rounds:
            texts += [p.message for s in rec.submissions.values() if s for p in s.problems]
        out = m.outcome()
        texts += list(out.reasons) + [a.reason for a in out.awards] + [r.question for r in out.requests]
        found = sorted({hit for t in texts for hit in ruling.findall(t)})
        assert found == [], found



# ------------------------------------------------------------------ types (issue 26)

def test_options_are_read_once_into_typed_fields():
    from sheetbridge.games.skeld.spec import SPEC, CapScope, Options, options_of
    assert [f for f in Options.__dataclass_fields__] == [o.name for o in SPEC.options]   # one field per option
    m = api_new_match("skeld", PLAYERS, options={"cap_upgrade_scope": "crewmate", "max_rounds": "5",
                                             "remote_disable": "on"})
    opts = options_of(m.state)
    assert (opts.cap_upgrade_scope, opts.max_rounds, opts.remote_disable) == (CapScope.CREWMATE, 5, True)
    assert options_of(m.state) is opts                     # parsed once, not at every use
    assert m.state["options"]["cap_upgrade_scope"] == "crewmate" and type(m.state["options"]["max_rounds"]) is int


def test_ledger_reasons_and_endings_are_plain_strings_as_before():
    from sheetbridge.api import play_random
    from sheetbridge.games.skeld.facts import Ending, LedgerReason
    assert LedgerReason.CAP_RAISE.text(cap=8) == "Skeld energy cap raise (now 8)"
    assert LedgerReason.CAP_RAISE_CREWMATE.text(crewmate="Red", cap=9) == "Skeld energy cap raise (Red now 9)"
    assert LedgerReason.COMPONENTS.text(held=7) == "Skeld: 7 components"
    assert Ending.SEQUENCE.with_tiebreak() == "sequence_tiebreak"
    m = play_random("skeld", PLAYERS, seed=3)
    reasons = [row.reason for rec in m.rounds for row in rec.ledger]
    assert reasons and all(type(r) is str for r in reasons)
    assert type(m.outcome().ending) is str and m.outcome().ending in set(Ending)


def test_state_is_typed_and_versioned():
    from sheetbridge.games.skeld.state import STATE_VERSION, SkeldState, upgrade
    state = new_match().state
    assert set(state) == set(SkeldState.__annotations__)   # every key the state holds is named
    assert GAME.state_version == STATE_VERSION == 1
    assert upgrade(state, 1) is state and GAME.upgrade_state(state, 1) is state
