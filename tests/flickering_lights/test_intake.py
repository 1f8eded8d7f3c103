"""Flickering Lights: bad input."""
from sheetbridge.core.types import ProblemKind

from .helpers import CSD, DUO, P, ROW1, count, new, sp, white


# ------------------------------------------------------------------ bad input

def test_wrong_colour_dropped_and_later_space_moves_up():
    # A33 drop_and_renumber: Ann (Red Coordinator) writes E1 (blue) then A1: E1 dropped,
    # A1 becomes first: +2 -> A1, B1, C1, A2, B2, A3 red: 4 + 3 = 7.
    m = new({1: ROW1}, {1: (CSD, CSD)})
    sub = m.parse("Ann", sp("E1", "A1"))
    (p,) = sub.problems
    assert p.kind is ProblemKind.ILLEGAL and p.player == "Ann" and p.field == "spaces row 1"
    assert p.value == "E1" and "E1 is blue" in p.reason and "A1 B1 C1 D1" in p.allowed
    assert "move up" in p.default
    m.resolve({"Ann": sp("E1", "A1")})
    assert count(m, "R") == 7
    # drop_keep_slots: A1 stays second: +1 -> A1, B1, A2: 4 + 1 = 5.
    m2 = new({1: ROW1}, {1: (CSD, CSD)}, options={"invalid_entries": "drop_keep_slots"})
    m2.resolve({"Ann": sp("E1", "A1")})
    assert count(m2, "R") == 5


def test_too_many_unreadable_formula_and_gray():
    m = new({1: ROW1}, {1: (CSD, CSD)})
    sub = m.parse("Ann", sp("seven", "=A1", "A1", "B1", "C1", "H8"))
    kinds = [(p.kind, p.value) for p in sub.problems]
    assert (ProblemKind.SYNTAX, "seven") in kinds and (ProblemKind.SYNTAX, "=A1") in kinds
    assert (ProblemKind.ILLEGAL, "C1") in kinds and (ProblemKind.ILLEGAL, "H8") in kinds
    assert sub.values["spaces"] == ["A1", "B1"]
    too_many = next(p for p in sub.problems if p.value == "C1")
    assert "at most 2" in too_many.reason and too_many.player == "Ann"


def test_white_must_submit_both_and_each_checked_by_colour():
    m = new({1: ROW1}, {1: (CSD, CSD)})
    sub = m.parse("Gus", white("E1", ""))
    fields = {p.field: p for p in sub.problems}
    assert fields["red_space"].kind is ProblemKind.ILLEGAL and "E1 is blue" in fields["red_space"].reason
    assert fields["blue_space"].kind is ProblemKind.MISSING and "must" in fields["blue_space"].reason
    assert sub.values == {}
    sub2 = m.parse("Gus", white("a1", "h1"))
    assert sub2.values == {"red_space": "A1", "blue_space": "H1"} and not sub2.problems


def test_defend_outside_round_two_is_ignored():
    m = new({1: DUO}, {1: (CSD, CSD)})
    sub = m.parse("Ann", sp("D4", defend="E4"))
    assert "defend" not in sub.values and "round 2" in sub.problems[0].reason


def test_private_report_echoes_problems_to_the_player_only():
    m = new({1: ROW1}, {1: (CSD, CSD)})
    rec = m.resolve({"Ann": sp("E1", "A1"), "Dee": sp("E1")})
    assert "E1 is blue" in rec.private["Ann"].text()
    assert "E1 is blue" not in rec.private["Dee"].text()
    assert "Ann" not in rec.public.text()
    for p in P:
        others = [q for q in P if q != p]
        assert not any(q in rec.private[p].text() for q in others), p
