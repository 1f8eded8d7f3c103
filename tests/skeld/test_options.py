"""Skeld: the host options, and random legal play under them."""
import copy

import pytest
from sheetbridge.core.facts import of_type
from sheetbridge.core.rng import Rng
from sheetbridge.games import skeld
from sheetbridge.games.skeld import GAME, decide
from sheetbridge.templates import default_tables

from .helpers import PLAYERS, conductor_match, crew, give, new_match, place, row, sub, text


# ------------------------------------------------------------------ host options, and random play under them

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
