"""Skeld: the board content (R4, R5, A1), the pregame (R8-R13, A33), the typed options and state."""
import copy

import pytest

from sheetbridge.api import new_match as api_new_match
from sheetbridge.core.facts import of_type
from sheetbridge.core.types import ProblemKind
from sheetbridge.games import skeld
from sheetbridge.games.skeld import GAME
from sheetbridge.templates import default_tables

from .helpers import BOARD_CSV, PLAYERS, new_match, text


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


# ------------------------------------------------------------------ types (issue 26)

def test_options_are_read_once_into_typed_fields():
    from sheetbridge.games.skeld.options import CapScope, Options, options_of
    from sheetbridge.games.skeld.spec import SPEC
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
