"""Flickering Lights: round results as data (typed facts)."""
from dataclasses import replace
from sheetbridge.core.facts import HOST_ONLY, PUBLIC, of_type, visible
from sheetbridge.core.types import ProblemKind
from sheetbridge.games import flickering_lights as fl

from .helpers import CORNERS, CSD, CSS, DUO, P, ROW1, SBS, _to_round_four, new, rows_of, sp, white


# ------------------------------------------------------------------ round results as data (typed facts)

SBS_ROLES = {1: (SBS, SBS)}


def test_every_fact_of_a_hand_computed_round():
    # Round 1 on ROW1 (A1-D1 red, E1-H1 blue). Roles Sniper, Blocker, Saboteur: Ann, Dee Snipers; Bo, Eli
    # Blockers; Cy, Fay Saboteurs; Gus White.
    #   Ann A1 +4; Dee H1 +4; Bo blocks H1, Eli blocks A1 (R27, R28): A1 = 4 - 1 = 3, H1 = 4 - 1 = 3.
    #   Eli writes Z9 (unreadable, dropped) then G1, which moves up: G1 +2 (A33). Gus: D1 +1, E1 +1 (R15).
    #   Cy flips E1 blue -> red (R30, R31); Fay submits nothing.
    # Recolouring (A2 Manhattan, A7, A10: the flipped E1 spreads red with X 1):
    #   red sources A1 (3), D1 (1), E1 (1); blue sources G1 (2), H1 (3).
    #   E1: red 1 (E1, D1) vs blue 2 (G1): red. F1: red 1 (E1) vs blue 2 (G1): red, a blue square taken.
    #   E2: red 1 (E1); G1 is 3 away, H1 4: red. F2: only G1 (2 away): blue.
    #   Red: A1-F1, A2-E2, A3, B3, A4 = 14. Blue: G1, H1, F2, G2, H2, G3, H3, H4 = 8. Gray 42.
    # Scores (R33-R35): red 14 > 8: red 14 + 8 = 22, blue 8; difference 6 <= 7: White the winners' 22.
    m = new({1: ROW1}, SBS_ROLES)
    rec = m.resolve({"Ann": sp("A1"), "Bo": sp(block="H1"), "Cy": sp(flip="E1"), "Dee": sp("H1"),
                     "Eli": sp("Z9", "G1", block="A1"), "Gus": white("D1", "E1")})
    (problem,) = of_type(rec.facts, fl.SpacesProblem)
    assert (problem.round, problem.player, problem.audience) == (1, "Eli", ("Eli",))
    assert (problem.problem.kind, problem.problem.field, problem.problem.value) == (ProblemKind.SYNTAX, "spaces row 1", "Z9")
    final = ("RRRRRRBB", "RRRRRBBB", "RR....BB", "R......B") + ("........",) * 4
    teams = {"Ann": ("Red", "Sniper"), "Bo": ("Red", "Blocker"), "Cy": ("Red", "Saboteur"), "Dee": ("Blue", "Sniper"),
             "Eli": ("Blue", "Blocker"), "Fay": ("Blue", "Saboteur"), "Gus": ("White", "Mediator")}
    pts = {"Ann": 22, "Bo": 22, "Cy": 22, "Dee": 8, "Eli": 8, "Fay": 8, "Gus": 22}
    expected = [fl.TeamRole(1, p, *teams[p], audience=(p,)) for p in P]
    expected += [fl.RolesInPlay(1, ("Sniper", "Blocker", "Saboteur"), audience=("Gus",)),
                 fl.BoardGrid(1, "start", tuple(ROW1)),
                 fl.SpacesApplied(1, "Ann", True, (fl.SpaceRaise("A1", 4),), audience=("Ann",)),
                 fl.SpacesApplied(1, "Bo", True, (), blocks=("H1",), audience=("Bo",)),
                 fl.SpacesApplied(1, "Cy", True, (), flip="E1", audience=("Cy",)),
                 fl.SpacesApplied(1, "Dee", True, (fl.SpaceRaise("H1", 4),), audience=("Dee",)),
                 problem,
                 fl.SpacesApplied(1, "Eli", True, (fl.SpaceRaise("G1", 2),), blocks=("A1",), audience=("Eli",)),
                 fl.NoSpacesSubmitted(1, "Fay", audience=("Fay",)),
                 fl.SpacesApplied(1, "Fay", False, (), audience=("Fay",)),
                 fl.SpacesApplied(1, "Gus", True, (fl.SpaceRaise("D1", 1), fl.SpaceRaise("E1", 1)), audience=("Gus",)),
                 # values before and after blocks (A6), the host's alone (section (c))
                 fl.SpaceValue(1, "A1", 4, 1, 3, audience=HOST_ONLY),
                 fl.SpaceValue(1, "D1", 1, 0, 1, audience=HOST_ONLY),
                 fl.SpaceValue(1, "E1", 1, 0, 1, audience=HOST_ONLY),
                 fl.SpaceValue(1, "G1", 2, 0, 2, audience=HOST_ONLY),
                 fl.SpaceValue(1, "H1", 4, 1, 3, audience=HOST_ONLY),
                 fl.SaboteurFlip(1, "Cy", "E1", "blue", "red", audience=HOST_ONLY),
                 fl.BoardGrid(1, "after_flips", ("RRRRRBBB",) + ("........",) * 7, audience=HOST_ONLY),
                 fl.BoardGrid(1, "final", final),
                 fl.ColourCounts(1, 14, 8, 42),
                 fl.SideScore(1, "red", 14, total=14, more=True, points=22),
                 fl.SideScore(1, "blue", 8, total=8, more=False, points=8),
                 fl.MediatorCheck(1, "Gus", 6, "red", 22, audience=("Gus",))]
    expected += [fl.PlayerPoints(1, p, pts[p], pts[p], audience=(p,)) for p in P]
    assert list(rec.facts) == expected
    assert m.state["history"][-1]["grid_end"] == list(final)


def test_the_rulesets_fog_example_as_facts_hidden_until_the_end():
    # The ruleset's own example (R51): "a Blue Saboteur who submits A1, H1, Sabotage E1: my H1 submission
    # will be replaced with a random blue tile, and my E1 submission with a random red tile."
    # Round 4 grid: blue A1, B1; red G1, H1 (left-right mirror); E1 gray. Fay is the Blue Saboteur.
    # H1 is red: replaced in its slot by a blue tile other than A1 (A23: distinct): B1 (+1). E1 is gray: the
    # flip takes a random red tile, G1 or H1 (seeded), which turns blue. A1 +2 reaches A1, B1, C1, A2, B2, A3;
    # B1 +1 nothing more. Blue 6 + the flipped square = 7; red the other of G1/H1 = 1. Blue 7 + 8 = 15, red 1;
    # difference 6 <= 7: White 15. Rounds 1-3 (nothing submitted, 1 red = 1 blue) gave everyone 1 point each.
    g4 = rows_of({"A1": "B", "B1": "B", "G1": "R", "H1": "R"})
    m = _to_round_four(g4)
    rec = m.resolve({"Fay": sp("A1", "H1", flip="E1")})
    (applied,) = [f for f in of_type(rec.facts, fl.SpacesApplied) if f.player == "Fay"]
    flipped = applied.flip
    assert flipped in ("G1", "H1")
    assert applied == fl.SpacesApplied(4, "Fay", True, (fl.SpaceRaise("A1", 2), fl.SpaceRaise("B1", 1)), flip=flipped,
                                           replacements=(fl.FogReplacement("spaces", "H1", "B1", "blue"),
                                                         fl.FogReplacement("flip", "E1", flipped, "red")),
                                           audience=HOST_ONLY)
    assert of_type(rec.facts, fl.FogReceived) == [fl.FogReceived(4, "Fay", ("A1", "H1", "E1"), audience=("Fay",))]
    assert of_type(rec.facts, fl.ColourCounts) == [fl.ColourCounts(4, 1, 7, 56, audience=HOST_ONLY)]
    assert {f.player: f.points for f in of_type(rec.facts, fl.PlayerPoints)} == {
        "Ann": 1, "Bo": 1, "Cy": 1, "Dee": 15, "Eli": 15, "Fay": 15, "Gus": 15}
    # R52: nothing of the board or the scores is visible to anyone but the host in round 4.
    for viewer in [None] + P:
        seen = visible(rec.facts, viewer)
        assert not of_type(seen, fl.BoardGrid, fl.ColourCounts, fl.SideScore, fl.PlayerPoints, fl.SpacesApplied,
                           fl.MediatorCheck)
    # The end of the game re-states Round 4: the grids and counts for everyone, each player's own part.
    end = m.resolve({})
    fay = visible(end.facts, "Fay")
    assert [f for f in of_type(fay, fl.SpacesApplied) if f.round == 4] == [replace(applied, audience=("Fay",))]
    assert [f.points for f in of_type(fay, fl.PlayerPoints) if f.round == 4] == [15]
    public = visible(end.facts, None)
    assert {(f.round, f.stage) for f in of_type(public, fl.BoardGrid)} >= {(4, "start"), (4, "final")}
    assert fl.ColourCounts(4, 1, 7, 56) in public
    assert not [f for f in of_type(visible(end.facts, "Eli"), fl.SpacesApplied) if f.player == "Fay"]
    text = end.private["Fay"].text()
    assert f"Round 4 flip: E1 was not red; replaced by {flipped} at random." in text
    assert "Round 4 spaces: H1 was not blue; replaced by B1 at random." in text


def test_round_four_problems_are_told_at_the_end_only():
    # A23, section (c): a Round 4 entry dropped as unreadable is not echoed in round 4 (only "Received"),
    # and is disclosed to its player with the rest of their Round 4 at the end.
    m = _to_round_four(DUO)
    rec = m.resolve({"Ann": sp("Q9", "D4")})
    assert of_type(visible(rec.facts, "Ann"), fl.SpacesProblem) == []
    assert "Q9" not in rec.private["Ann"].text()
    end = m.resolve({})
    (prob,) = [f for f in of_type(visible(end.facts, "Ann"), fl.SpacesProblem) if f.round == 4]
    assert prob.problem.value == "Q9" and prob.audience == ("Ann",)
    assert "Round 4 problem: " + prob.problem.text in end.private["Ann"].text()   # not named to herself


def test_alignments_at_the_end_as_facts():
    roles = {1: (CSD, CSD), 2: (CSS, CSS), 3: (CSD, CSD), 4: (SBS, SBS), 5: (CSD, CSD)}
    m = new({1: CORNERS, 2: DUO, 3: CORNERS, 4: DUO, 5: ROW1}, roles, options={"reveal_roles_at_end": "yes"})
    for _ in range(5):
        rec = m.resolve({})
    ann = next(f for f in of_type(rec.facts, fl.TeamsRevealed) if f.player == "Ann")
    assert ann == fl.TeamsRevealed("Ann", ("Red",) * 5, ("Coordinator", "Coordinator", "Coordinator", "Sniper",
                                                     "Coordinator"))
    assert ann.audience == PUBLIC
