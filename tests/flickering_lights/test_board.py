"""Flickering Lights: grids, items and assignments, and the grids checked against their symmetries."""
import pytest

from sheetbridge.api import new_match
from sheetbridge.core.errors import ConfigError
from sheetbridge.core.rng import Rng
from sheetbridge.games import flickering_lights as fl

from .helpers import (CORNERS, CSB, CSD, CSS, DUO, P, assign_table, count, final_grid, grid_table, new,
                      points, rows_of, sp)


# ------------------------------------------------------------------ grids, items, assignments

def test_generated_grids_are_symmetric_and_balanced():
    for name in fl.TRANSFORMS:
        for seed in range(5):
            g = fl.generate_grid(Rng.from_seed(seed, name), name, 16)
            reds = sum(1 for s in fl.ALL_SQUARES if g[s] == "R")
            blues = sum(1 for s in fl.ALL_SQUARES if g[s] == "B")
            assert reds == blues == 16 and name in fl.symmetries(g, (name,))
    g = fl.generate_grid(Rng.from_seed(1), "rot90", 32)
    assert sum(1 for s in fl.ALL_SQUARES if g[s] == ".") == 0


def test_each_round_has_a_different_generated_grid():
    m = new_match("flickering-lights", P, seed=4)
    for _ in range(4):
        m.resolve({})
    assert len({tuple(g) for g in m.state["used_grids"]}) == 5


def test_host_grid_must_be_symmetric_with_a_clear_message():
    bad = rows_of({"A1": "R", "B2": "B"})  # B2 is no mirror or rotation image of A1
    game = fl.GAME
    probs = game.check_tables({"Grids": grid_table({2: bad})})
    assert len(probs) == 1 and "Grids, round 2" in probs[0] and "do not map" in probs[0]
    uneven = rows_of({"A1": "R", "H1": "B", "A8": "R"})
    assert "2 red and 1 blue" in game.check_tables({"Grids": grid_table({1: uneven})})[0]
    part = grid_table({1: CORNERS})
    part[3][4] = ""
    assert "blank" in game.check_tables({"Grids": part})[0]
    with pytest.raises(ConfigError):
        new_match("flickering-lights", P, tables={"Grids": grid_table({1: bad})})


def test_diagonal_symmetry_only_with_the_option():
    diag = rows_of({"B1": "R", "A2": "B"})  # the A1-H8 diagonal mirror maps B1 onto A2
    tables = {"Grids": grid_table({1: diag})}
    assert fl.GAME.check_tables(tables)            # A17: rejected by default
    assert not fl.GAME.check_content(tables, dict(fl.DEFAULT_OPTIONS, diagonal_symmetry=True))
    with pytest.raises(ConfigError):
        new_match("flickering-lights", P, tables=tables)
    m = new_match("flickering-lights", P, tables=tables, options={"diagonal_symmetry": "true"})
    assert m.state["current"]["transform"] == "diagonal"


def test_items_lock_and_value():
    # A18: round 1 DUO with a lock on D4 and E4 and a value item of 1 on D4 and E4.
    # Ann D4 +2 -> X(D4) = 2 + 1 = 3, X(E4) = 1. E4's radius-1 diamond (E4, D4, E3, E5, F4)
    # goes blue (X 1 < 3), but D4 and E4 are locked: D4 stays red, E4 blue.
    # Red: radius-3 diamond 25 - 5 + D4 = 21; blue E3, E5, F4, E4 = 4. Red 21 + 8 = 29.
    items = [["1", "lamp", "lock", "D4 E4", "", ""], ["1", "spark", "value", "D4 E4", "1", "a spark"]]
    m = new({1: DUO}, {1: (CSD, CSD)}, items=items)
    assert "Item lamp (lock) on D4 E4" in m.public_report().text()
    m.resolve({"Ann": sp("D4")})
    assert count(m, "R") == 21 and count(m, "B") == 4
    assert points(m)["Ann"] == 29


def test_items_bonus_tiles():
    # A18 bonus 2 on C4 and F4 (left-right images). Ann D4 +2: radius-2 diamond = 13 red,
    # C4 and F4 inside: red 13 + 2 + 2 = 17 tiles, blue 0. Red 17 + 8 = 25. The bonus counts
    # as tiles for the Mediator too: 17 > 7: White gets the loser's 0.
    items = [["1", "gem", "bonus", "C4 F4", "2", ""]]
    m = new({1: DUO}, {1: (CSD, CSD)}, items=items)
    m.resolve({"Ann": sp("D4")})
    assert count(m, "R") == 13 and points(m)["Ann"] == 25 and points(m)["Gus"] == 0


def test_items_must_be_symmetric():
    items = [["1", "lamp", "lock", "A1 B2", "", ""]]
    probs = fl.GAME.check_tables({"Grids": grid_table({1: CORNERS}),
                                  "Items": [["round", "item", "kind", "squares", "amount", "explanation"]] + items})
    assert probs and "Items, round 1" in probs[0]
    bad_kind = [["1", "x", "teleport", "A1", "", ""]]
    probs = fl.GAME.check_tables({"Items": [["round", "item", "kind", "squares", "amount", "explanation"]] + bad_kind})
    assert "not supported" in probs[0]


def test_assignment_table_checked():
    rect = assign_table({1: (CSD, CSS)})
    probs = fl.GAME.check_tables({"Assignments": rect})
    assert probs and "same three different roles" in probs[0]
    rect2 = assign_table({2: (CSB, CSB)})
    assert "Blocker is not in play" in fl.GAME.check_tables({"Assignments": rect2})[0]


def test_random_draw_three_three_one_same_roles_both_teams():
    for seed in range(10):
        m = new_match("flickering-lights", P, seed=seed)
        a = m.state["current"]["assign"]
        teams = sorted(x["team"] for x in a.values())
        assert teams == ["Blue"] * 3 + ["Red"] * 3 + ["White"]
        red = sorted(x["role"] for x in a.values() if x["team"] == "Red")
        blue = sorted(x["role"] for x in a.values() if x["team"] == "Blue")
        assert red == blue and len(set(red)) == 3


def test_public_board_is_coloured_and_private_reports_hold_no_other_player():
    m = new_match("flickering-lights", P, seed=9)
    board = m.public_report().blocks[0]
    fills = {c.fill for row in board.grid[1:] for c in row[1:]}
    assert fills == {fl.FILL["R"], fl.FILL["B"], fl.FILL["."]}
    from sheetbridge.core.match import random_submissions
    rec = m.resolve(random_submissions(m, Rng.from_seed(9)))
    for p in P:
        assert not any(q in rec.private[p].text() for q in P if q != p)
    assert not any(q in rec.public.text() for q in P)


def test_tie_keeps_colour_after_flip_or_at_round_start():
    # A8: C4, D4 red; E4, F4 blue. Cy (Red Saboteur) flips E4 to red. Ann (Red Coordinator)
    # C4 +2 reaches E4 (2 steps) with red X 2; Dee (Blue Coordinator) F4 +2 reaches E4 with
    # blue X 2: a tie. after_flip (default): E4 stays red; round_start: E4 is blue again.
    g = rows_of({"C4": "R", "D4": "R", "E4": "B", "F4": "B"})
    raw = {"Cy": sp(flip="E4"), "Ann": sp("C4"), "Dee": sp("F4")}
    m = new({1: g}, {1: (CSS, CSS)})
    m.resolve(raw)
    assert final_grid(m)[(4, 3)] == "R"
    m2 = new({1: g}, {1: (CSS, CSS)}, options={"tie_keeps": "round_start"})
    m2.resolve(raw)
    assert final_grid(m2)[(4, 3)] == "B"
    # A flipped square nobody reaches keeps the flip under either option.
    m3 = new({1: g}, {1: (CSS, CSS)}, options={"tie_keeps": "round_start"})
    m3.resolve({"Cy": sp(flip="E4")})
    assert final_grid(m3)[(4, 3)] == "R"


def test_white_defends_option_and_role_pool_option():
    # A13: with white_defends, Gus may defend a red or blue square in round 2 (not gray).
    m = new({1: CORNERS, 2: DUO}, {1: (CSD, CSD), 2: (CSS, CSS)}, options={"white_defends": "yes"})
    m.resolve({})
    assert m.form("Gus").section("defend").fields[0].choices == ("D4", "E4")
    # A41: a fixed round 2 pool of exactly three roles is always drawn whole.
    m2 = new_match("flickering-lights", P, seed=3, options={"round2_roles": "Sniper, Demolitionist, Saboteur"})
    m2.resolve({})
    assert m2.state["current"]["roles"] == ["Sniper", "Demolitionist", "Saboteur"]
    with pytest.raises(ConfigError):
        new_match("flickering-lights", P, options={"round2_roles": "Blocker,Sniper,Saboteur"})


# ------------------------------------------------------------------ rules fidelity (issue 12)

DIAG_ONLY = rows_of({"B1": "R", "A2": "B", "C1": "R", "A3": "B"})   # the A1-H8 diagonal mirror only


def test_a_later_rounds_grid_is_checked_at_new_against_the_allowed_symmetries():
    # A17: diagonal mirrors are not in the ruleset's list. A round-3 grid with only a diagonal symmetry used
    # to pass `new` and be replaced by a generated grid when round 3 opened (the host log alone said so).
    with pytest.raises(ConfigError) as err:
        new({1: CORNERS, 3: DIAG_ONLY}, {1: (CSD, CSD)})
    msg = str(err.value)
    assert msg.startswith("Grids, round 3: the red squares do not map onto the blue squares under the left-right "
                          "mirror, the top-bottom mirror, a rotation by 90 degrees, a rotation by 180 degrees, a "
                          "rotation by 270 degrees (R8)")
    assert "set the option diagonal_symmetry to true" in msg
    # With the option the same grid is played as entered.
    m = new({1: CORNERS, 3: DIAG_ONLY}, {1: (CSD, CSD)}, options={"diagonal_symmetry": "true"})
    m.resolve({})
    m.resolve({})
    assert m.state["current"]["grid"] == DIAG_ONLY and m.state["current"]["transform"] == "diagonal"


def test_a_grid_edited_later_is_checked_when_the_tables_change():
    m = new({1: CORNERS}, {1: (CSD, CSD)})
    bad = {"Grids": grid_table({1: CORNERS, 4: DIAG_ONLY}),
           "Assignments": assign_table({1: (CSD, CSD)}), "Items": [["round", "item", "kind", "squares", "amount",
                                                                    "explanation"]]}
    with pytest.raises(ConfigError, match="Grids, round 4"):
        m.resolve({}, tables=bad)
    assert m.round == 1 and not m.rounds            # nothing resolved


def test_a_grid_edited_in_the_master_workbook_stops_every_command(tmp_path):
    import openpyxl
    from click.testing import CliRunner
    from sheetbridge.cli import main
    folder = tmp_path / "game"
    res = CliRunner().invoke(main, ["new", "flickering-lights", "--players", ",".join(P), "--out", str(folder)])
    assert res.exit_code == 0, res.output
    wb = openpyxl.load_workbook(folder / "master.xlsx")
    ws = wb["Grids"]
    for row in ws.iter_rows(min_row=2):
        if row[0].value == "3":
            r = int(row[1].value) - 1
            for c in range(8):
                row[2 + c].value = {"R": "R", "B": "B", ".": "G"}[DIAG_ONLY[r][c]]
    wb.save(folder / "master.xlsx")
    res = CliRunner().invoke(main, ["status", str(folder)])
    assert res.exit_code == 2 and "Grids, round 3: the red squares do not map" in res.output
    assert "Traceback" not in res.output
