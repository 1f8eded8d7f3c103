"""Bugcatcher: codes and coordinates, submissions and bad input."""
from sheetbridge.api import new_match
from sheetbridge.core.facts import of_type
from sheetbridge.core.types import ProblemKind
from sheetbridge.games import bugcatcher as bc
from sheetbridge.games.bugcatcher import point_fine as P

from .helpers import acts, mission, start, tables


# ------------------------------------------------------------------ codes and coordinates

def test_shorthand_and_long_forms():
    # R35/R36: the ruleset's long forms and their shorthand
    assert bc.parse_action("border node path down") == "BD"
    assert bc.parse_action("central node path left") == "CL"
    assert bc.parse_action("color swap") == "swap"
    assert bc.parse_action("bd") == "BD"
    assert bc.parse_action("1. BL") == "BL"
    assert bc.parse_action("garnet swap") == "gswap"
    for bad in ("BX", "CUP", "B", "XX", "seven", "=1+1", ""):
        assert bc.parse_action(bad) is None


def test_corner_aliases_name_one_point():
    # R20: C1 bottom right = D1 bottom left = C2 upper right = D2 upper left = corner (3, 1)
    assert bc.corner_point(2, 0, "BR") == bc.corner_point(3, 0, "BL") == bc.corner_point(2, 1, "UR") \
        == bc.corner_point(3, 1, "UL") == (3, 1)
    assert bc.point_label(3, 1, 6, 5) == "C1 bottom right"
    assert bc.parse_cell("C3", 6, 5) == (2, 2)
    assert bc.parse_cell("G1", 6, 5) is None and bc.parse_cell("A6", 6, 5) is None


# ------------------------------------------------------------------ submissions and bad input

def two():
    return start({"Ann": ("C3", "A1", "upper left"), "Bo": ("F5", "A5", "bottom left")})


def test_more_than_seven_energy():
    # E1: 8 energy actions; the 8th (row 8) is dropped and never runs.
    m = two()
    sub = m.parse("Ann", acts("BR", "BR", "BR", "BR", "BR", "BR", "BD", "BD"))
    assert sub.values["actions"] == ["BR"] * 6 + ["BD"]
    (prob,) = sub.problems
    assert prob.kind is ProblemKind.ILLEGAL and prob.field == "action 8" and prob.value == "BD"
    assert "Ann" in prob.message and "at most 7 energy" in prob.allowed and "dropped" in prob.default


def test_unknown_code_and_formula():
    # E2: "BX" and a formula are removed and the later actions move up.
    m = two()
    sub = m.parse("Ann", acts("BR", "BX", "=A1", "BD"))
    assert sub.values["actions"] == ["BR", "BD"]
    kinds = {(p.field, p.value, p.kind) for p in sub.problems}
    assert ("action 2", "BX", ProblemKind.SYNTAX) in kinds and ("action 3", "=A1", ProblemKind.SYNTAX) in kinds
    assert all("BU" in p.allowed and p.player == "Ann" for p in sub.problems)
    # resolve: BR at step 1, BD at step 2 -> 2 fireflies
    m.resolve({"Ann": acts("BR", "BX", "=A1", "BD")})
    assert m.state["fireflies"]["Ann"] == 2


def test_second_free_swap_becomes_a_normal_swap():
    # E3: the second gswap costs 1 energy as a normal swap.
    m = two()
    sub = m.parse("Ann", acts("gswap", "BR", "gswap"))
    assert sub.values["actions"] == ["gswap", "BR", "swap"]
    (prob,) = sub.problems
    assert prob.field == "action 3" and prob.value == "gswap" and "normal swap" in prob.default


def test_garnet_swap_is_charged_once_and_costs_no_energy():
    # R15: gswap + 7 paths: border (0,0) BR x6 -> (6,0), BD -> (6,1): all 7 run in black.
    plan = acts("gswap", "BR", "BR", "BR", "BR", "BR", "BR", "BD")
    m = start({"Ann": ("C3", "A1", "upper left"), "Bo": ("F5", "A5", "bottom left")}, garnets={"Ann": 1})
    rec = m.resolve({"Ann": plan})
    assert m.state["fireflies"]["Ann"] == 7
    assert [(r.player, r.change, r.reason) for r in rec.ledger] == [("Ann", -1, "GARNET_SWAP")]
    assert m.ledger.balance("Ann") == 0
    # E4 with no garnet: the gswap is a normal swap (1 energy), so 8 energy: the last BD is dropped.
    m = start({"Ann": ("C3", "A1", "upper left"), "Bo": ("F5", "A5", "bottom left")})
    rec = m.resolve({"Ann": plan})
    assert m.state["fireflies"]["Ann"] == 6 and rec.ledger == []
    assert m.state["nodes"]["Ann"]["B"] == list(P(6, 0))
    # E4 then E1, as typed problems for Ann alone: what was wrong and what was done instead.
    probs = [(f.problem.field, f.problem.reason, f.problem.default) for f in of_type(rec.facts, bc.IntakeProblem)]
    assert probs == [("action 1", "you have no garnet", "a normal swap costing 1 energy"),
                     ("actions", "too much energy", "the last 1 energy action(s) (BD) are dropped")]
    assert all(f.audience == ("Ann",) for f in of_type(rec.facts, bc.IntakeProblem))
    (energy,) = [f for f in of_type(rec.facts, bc.EnergyUsed) if f.player == "Ann"]
    assert (energy.energy, energy.paths, energy.swaps, energy.garnet_swaps) == (7, 6, 1, 0)
    assert "you have no garnet" in rec.private["Ann"].text()


def test_path_off_the_board_is_flagged_at_intake():
    m = two()   # Ann's border node is at A1 upper left = (0,0)
    sub = m.parse("Ann", acts("BU", "BR"))
    (prob,) = sub.problems
    assert prob.kind is ProblemKind.ILLEGAL and prob.field == "action 1" and prob.value == "BU"
    assert "leave the board" in prob.reason and "no more paths" in prob.default
    m.resolve({"Ann": acts("BU", "BR")})
    assert m.state["fireflies"]["Ann"] == 0 and m.state["collisions"]["Ann"] == 0


def test_missing_submission_keeps_nodes():
    m = two()
    before = m.state["nodes"]["Bo"]
    rec = m.resolve({"Ann": acts("BR")})
    assert m.state["nodes"]["Bo"] == before and m.state["fireflies"]["Bo"] == 0
    assert "submitted nothing" in rec.private["Bo"].text()


def test_forms():
    m = new_match("bugcatcher", ["Ann", "Bo"], seed=1, tables=tables(mission(1, "J1", "border", "DDRDL", 6)))
    f = m.form("Ann")
    assert f.round == 0 and [s.name for s in f.sections] == ["central", "border", "bids"]
    assert f.section("central").rows == 9 and "C3" in f.section("central").fields[0].choices
    assert "bottom right" in f.section("border").fields[1].choices
    m.resolve({})
    f = m.form("Ann")
    acts_section = f.section("actions")
    assert acts_section.rows == 8
    assert acts_section.fields[0].choices == ("BU", "BD", "BL", "BR", "CU", "CD", "CL", "CR", "swap", "gswap")
    assert f.section("missions").row_labels == ("J1: Mission J1",)
