"""Flickering Lights: values and spreading, the roles, rounds 2 to 5 (Blockade, connection, fog of war,
three in a row)."""
from sheetbridge.api import new_match
from sheetbridge.core.facts import HOST_ONLY, of_type
from sheetbridge.core.types import ProblemKind
from sheetbridge.games import flickering_lights as fl

from .helpers import (BLUE_P, CORNERS, CSB, CSD, CSS, DUO, P, RED_P, ROW1, SBS, _to_round_four, count,
                      final_grid, new, points, rows_of, sp, white)


# ------------------------------------------------------------------ basic values and spreading

def test_first_space_plus_two_spreads_within_manhattan_two():
    # R14, R18, A2: Ann (Red Coordinator) submits A1: X = 2. From a corner, the squares
    # within 2 steps are 1 + 2 + 3 = 6 (A1, B1, C1, A2, B2, A3): red 6, blue 1 (H1).
    # R34: red has more, so each Red player scores 6 + 8 = 14; Blue scores 1.
    # R35: difference 5 <= 7, so White scores the winning team's 14.
    m = new({1: CORNERS}, {1: (CSD, CSD)})
    m.resolve({"Ann": sp("A1")})
    assert count(m, "R") == 6 and count(m, "B") == 1
    g = final_grid(m)
    assert {fl.sq_name(s) for s in fl.ALL_SQUARES if g[s] == "R"} == {"A1", "B1", "C1", "A2", "B2", "A3"}
    assert points(m) == {"Ann": 14, "Bo": 14, "Cy": 14, "Dee": 1, "Eli": 1, "Fay": 1, "Gus": 14}


def test_sniper_plus_four_and_second_space_plus_one():
    # R24: Bo (Red Sniper) submits A1 then D1 (both red on ROW1).
    # A1: X = 4: from the corner 1+2+3+4+5 = 15 squares, including E1 (4 steps, blue -> red).
    # D1: X = 1: C1, D1, E1, D2 (all already inside A1's diamond).
    # Red 15; blue F1, G1, H1 = 3. Red 15 + 8 = 23, Blue 3; difference 12 > 7: White 3 (R36).
    m = new({1: ROW1}, {1: (CSD, CSD)})
    m.resolve({"Bo": sp("A1", "D1")})
    assert count(m, "R") == 15 and count(m, "B") == 3
    assert points(m)["Bo"] == 23 and points(m)["Eli"] == 3 and points(m)["Gus"] == 3


def test_chebyshev_option_counts_king_moves():
    # A2 option: a Sniper's X = 4 from A1 under Chebyshev covers a 5x5 square = 25.
    m = new({1: CORNERS}, {1: (CSD, CSD)}, options={"distance": "chebyshev"})
    m.resolve({"Bo": sp("A1")})
    assert count(m, "R") == 25


def test_conflict_lowest_value_wins_and_chosen_space_can_be_taken():
    # A5, A7, R19: Ann (Red Coordinator) D4 +2 and Gus (White) red D4 +1: X(D4) = 3;
    # Gus blue E4 +1: X(E4) = 1. Squares within 1 of E4 (E4, D4, E3, E5, F4) are reached by
    # blue X=1 and red X=3: blue wins (lower X), so even the chosen D4 turns blue (A3).
    # Red: the radius-3 diamond around D4 (1+4+8+12 = 25 squares, all on the board) minus
    # those 5 = 20. Red 20 + 8 = 28, Blue 5; difference 15 > 7: White gets the loser's 5.
    m = new({1: DUO}, {1: (CSD, CSD)})
    m.resolve({"Ann": sp("D4"), "Gus": white("D4", "E4")})
    g = final_grid(m)
    assert g[(3, 3)] == "B" and g[(4, 3)] == "B" and g[(2, 3)] == "R"
    assert count(m, "R") == 20 and count(m, "B") == 5
    assert points(m) == {"Ann": 28, "Bo": 28, "Cy": 28, "Dee": 5, "Eli": 5, "Fay": 5, "Gus": 5}


def test_equal_values_keep_the_original_colour():
    # R20: Ann (Red Coordinator) D4 +2, Dee (Blue Coordinator) E4 +2. A square within 2 of
    # both keeps its colour. Overlap: row 4 C4-F4 (4), rows 3 and 5 D-E (2 + 2) = 8 squares.
    # Red only: 13 - 8 = 5 (B4, C3, C5, D2, D6) plus D4, which keeps red = 6. Blue: 6 the
    # same way. Gray C4, F4, D3, E3, D5, E5 stay gray. 6 = 6: no +8 (A29), everyone 6;
    # White the common value 6 (A28).
    m = new({1: DUO}, {1: (CSD, CSD)})
    m.resolve({"Ann": sp("D4"), "Dee": sp("E4")})
    g = final_grid(m)
    assert g[(3, 3)] == "R" and g[(4, 3)] == "B" and g[(2, 3)] == "." and g[(3, 2)] == "."
    assert count(m, "R") == 6 and count(m, "B") == 6
    assert set(points(m).values()) == {6}


def test_no_chaining_recoloured_squares_do_not_spread():
    # A9: E4 is raised by nobody; D4 X=2 turns E4 red but E4 does not spread further.
    # Red = 13 squares of D4's diamond; G4 (3 away from D4, 2 from E4) stays gray.
    m = new({1: DUO}, {1: (CSD, CSD)})
    m.resolve({"Ann": sp("D4")})
    assert count(m, "R") == 13 and count(m, "B") == 0
    assert final_grid(m)[(6, 3)] == "."


# ------------------------------------------------------------------ roles

def test_demolitionist_non_adjacent_spaces_and_messages():
    # R25, R26, A14, A33: Cy (Red Demolitionist) submits A1, C1, B1, D1. B1 touches A1 and
    # D1 touches C1: both dropped. A1 +2 reaches A1, B1, C1, A2, B2, A3; C1 +1 reaches
    # B1, C1, D1, C2. Red = A1-D1 + A2, B2, A3, C2 = 8; blue E1-H1 = 4.
    # Red 8 + 8 = 16; Blue 4; difference 4 <= 7: White 16.
    m = new({1: ROW1}, {1: (CSD, CSD)})
    sub = m.parse("Cy", sp("A1", "C1", "B1", "D1"))
    assert sub.values["spaces"] == ["A1", "C1", None, None]
    msgs = [p.message for p in sub.problems]
    assert len(msgs) == 2 and all("Cy" in t and "adjacent" in t for t in msgs)
    assert "B1" in msgs[0] and "A1" in msgs[0] and "D1" in msgs[1]
    m.resolve({"Cy": sp("A1", "C1", "B1", "D1")})
    assert count(m, "R") == 8 and count(m, "B") == 4
    assert points(m)["Cy"] == 16 and points(m)["Gus"] == 16


def test_demolitionist_diagonal_allowed_unless_eight_neighbour_option():
    g = rows_of({"A1": "R", "B2": "R", "H1": "B", "G2": "B"})
    m = new({1: g}, {1: (CSD, CSD)})
    assert m.parse("Cy", sp("A1", "B2")).values["spaces"] == ["A1", "B2"]
    m8 = new({1: g}, {1: (CSD, CSD)}, options={"adjacency": "eight"})
    sub = m8.parse("Cy", sp("A1", "B2"))
    assert sub.values["spaces"] == ["A1", None] and sub.problems[0].kind is ProblemKind.ILLEGAL


def test_blocker_reduces_value_and_block_on_zero_does_nothing():
    # R27, R28, A6: Bo (Red Sniper) D4 +4; Fay (Blue Blocker) blocks D4: X = 4 - 1 = 3.
    # Red: D4's radius-3 diamond = 1 + 4 + 8 + 12 = 25 squares (E4 included, blue -> red). Red 25 + 8 = 33, Blue 0; difference 25: White 0.
    m = new({1: DUO}, {1: (CSB, CSB)})
    m.resolve({"Bo": sp("D4"), "Fay": sp(block="D4")})
    assert count(m, "R") == 25 and count(m, "B") == 0
    assert points(m) == {"Ann": 33, "Bo": 33, "Cy": 33, "Dee": 0, "Eli": 0, "Fay": 0, "Gus": 0}
    # Dee (Blue Coordinator) E4 +2; Cy (Red Blocker) writes E4 twice: the repeat is dropped
    # (blocks do not stack within one Blocker), so X(E4) = 2 - 1 = 1.
    m2 = new({1: DUO}, {1: (CSB, CSB)})
    sub = m2.parse("Cy", sp(block=["E4", "E4"]))
    assert sub.values["block"] == ["E4"] and "already" in sub.problems[0].message
    m2.resolve({"Dee": sp("E4"), "Cy": sp(block=["E4", "E4"])})
    # E4 X = 2 - 1 = 1: E4, D4, E3, E5, F4 blue = 5; red 0.
    assert count(m2, "B") == 5 and count(m2, "R") == 0


def test_block_by_a_role_without_blocks_is_ignored_and_flagged():
    # A37: Ann is a Coordinator (round 1 roles CSD): her block list is ignored.
    m = new({1: DUO}, {1: (CSD, CSD)})
    sub = m.parse("Ann", sp("D4", block="E4"))
    assert "block" not in sub.values
    (p,) = sub.problems
    assert p.player == "Ann" and p.field == "block" and p.value == "E4" and p.default == "ignored"
    m.resolve({"Ann": sp("D4", block="E4"), "Dee": sp("E4")})
    # not blocked: X(E4) = 2 = X(D4): the equal-values picture of test_equal_values...
    assert count(m, "R") == 6 and count(m, "B") == 6


def test_saboteur_flip_spreads_new_colour_and_option_off():
    # R30, R31, A10: Dee (Blue Coordinator) E4 +2; Cy (Red Saboteur) flips E4 to red before
    # recolouring, so E4 spreads red over its radius-2 diamond: 13 red, 0 blue.
    m = new({1: DUO}, {1: (CSS, CSS)})
    m.resolve({"Dee": sp("E4"), "Cy": sp(flip="E4")})
    assert count(m, "R") == 13 and count(m, "B") == 0
    # flip_spreads = false: E4 spreads blue over the same 13, E4 itself recoloured back.
    m2 = new({1: DUO}, {1: (CSS, CSS)}, options={"flip_spreads": "false"})
    m2.resolve({"Dee": sp("E4"), "Cy": sp(flip="E4")})
    assert count(m2, "B") == 13 and count(m2, "R") == 0


def test_flipped_space_can_be_recoloured_back():
    # R31: C4, D4 red; E4, F4 blue. Cy (Red Saboteur) flips E4 (now red); Dee (Blue
    # Coordinator) F4 +2 recolours its diamond (13 squares, E4 and D4 inside) blue.
    # Red only C4 (3 steps from F4) = 1; blue 13. Blue 13 + 8 = 21; Red 1; White 1 (12 > 7).
    g = rows_of({"C4": "R", "D4": "R", "E4": "B", "F4": "B"})
    m = new({1: g}, {1: (CSS, CSS)})
    m.resolve({"Cy": sp(flip="E4"), "Dee": sp("F4")})
    assert final_grid(m)[(4, 3)] == "B" and count(m, "R") == 1 and count(m, "B") == 13
    assert points(m)["Dee"] == 21 and points(m)["Cy"] == 1 and points(m)["Gus"] == 1


def test_flip_only_by_saboteur_and_only_other_colour():
    m = new({1: DUO}, {1: (CSS, CSS)})
    sub = m.parse("Cy", sp(flip="D4"))  # Cy is the Red Saboteur: D4 is his own colour
    assert sub.values["flip"] == [None]
    p = sub.problems[0]
    assert p.kind is ProblemKind.ILLEGAL and p.player == "Cy" and p.field == "flip row 1"
    assert p.value == "D4" and "blue" in p.allowed and "E4" in p.allowed
    sub2 = m.parse("Bo", sp(flip="E4"))  # Bo is a Sniper
    assert "flip" not in sub2.values and "only the Saboteur" in sub2.problems[0].reason


def test_coordinator_list_and_mediator_roles():
    # R23, R29, A19: Ann (Red Coordinator) learns Bo, Cy and the Blue Saboteur Fay, sorted,
    # unlabelled; Dee (Blue Coordinator) learns Eli, Fay and the Red Saboteur Cy.
    # R32: Gus learns the roles in play. Nobody else learns anything about others.
    m = new({1: DUO}, {1: (CSS, CSS)})
    ann = m.player_report("Ann").text()
    assert "Your list: Bo, Cy, Fay" in ann
    assert "Your list: Cy, Eli, Fay" in m.player_report("Dee").text()
    gus = m.player_report("Gus").text()
    assert "Coordinator, Sniper, Saboteur" in gus and "Your team this round: White" in gus
    bo = m.player_report("Bo").text()
    assert "Your team this round: Red. Your role: Sniper." in bo
    for other in P:
        if other != "Bo":
            assert other not in bo


def test_no_saboteur_means_two_names():
    m = new({1: DUO}, {1: (CSD, CSD)})
    assert "Your list: Bo, Cy (" in m.player_report("Ann").text()


def test_forms_offer_only_own_colour_and_own_role_fields():
    m = new({1: ROW1}, {1: (SBS, SBS)})
    f = m.form("Bo")  # Red Blocker
    assert [s.name for s in f.sections] == ["spaces", "block"]
    assert f.section("spaces").fields[0].choices == ("A1", "B1", "C1", "D1")
    assert f.section("block").fields[0].choices == ("E1", "F1", "G1", "H1")
    assert [s.name for s in m.form("Cy").sections] == ["spaces", "flip"]
    assert m.form("Ann").section("spaces").row_labels[0] == "1st (+4)"
    g = m.form("Gus").section("mediator")
    assert g.fields[0].choices == ("A1", "B1", "C1", "D1") and g.fields[1].choices == ("E1", "F1", "G1", "H1")


# ------------------------------------------------------------------ round 2: Blockade

def test_blockade_defends_stack_and_no_blocker():
    # R39-R42: round 2 roles Coordinator, Sniper, Saboteur. Bo (Red Sniper) D4 +4; Dee, Eli,
    # Fay each defend D4: X = 4 - 3 = 1: D4, C4, E4 (blue -> red), D3, D5 = 5 red, 0 blue.
    # Red 5 + 8 = 13; Blue 0; difference 5 <= 7: White 13.
    m = new({1: CORNERS, 2: DUO}, {1: (CSD, CSD), 2: (CSS, CSS)})
    m.resolve({})
    assert "defend" in [s.name for s in m.form("Dee").sections]
    assert "defend" not in [s.name for s in m.form("Gus").sections]  # A13 default
    m.resolve({"Bo": sp("D4"), "Dee": sp(defend="D4"), "Eli": sp(defend="D4"), "Fay": sp(defend="D4")})
    assert count(m, "R") == 5 and count(m, "B") == 0
    assert points(m) == {"Ann": 13, "Bo": 13, "Cy": 13, "Dee": 0, "Eli": 0, "Fay": 0, "Gus": 13}


def test_blockade_defend_below_zero_does_nothing_and_own_colour_rejected():
    # R41: Ann (Red Coordinator) D4 +2, Eli defends D4: X = 1: red D4, C4, E4, D3, D5 = 5.
    m = new({1: CORNERS, 2: DUO}, {1: (CSD, CSD), 2: (CSS, CSS)})
    m.resolve({})
    sub = m.parse("Dee", sp(defend="E4"))  # E4 is Dee's own colour
    assert sub.values["defend"] == [None] and sub.problems[0].player == "Dee"
    m.resolve({"Ann": sp("D4"), "Eli": sp(defend="D4"), "Gus": white()})
    assert count(m, "R") == 5


def test_round_two_has_no_blocker_in_the_draw():
    for seed in range(1, 30):
        m = new_match("flickering-lights", P, seed=seed)
        m.resolve({})
        roles = {a["role"] for a in m.state["current"]["assign"].values()}
        assert "Blocker" not in roles and len(roles) == 4  # three team roles + Mediator


# ------------------------------------------------------------------ round 3: connection

def test_connection_bonus_counts_for_the_eight_and_the_mediator():
    # R44, R45, A22: round 3 grid "RR....BB" on row 1. Ann (Red Coordinator) A1 +2: red A1,
    # B1, C1, A2, B2, A3 = 6 (one group of 6); blue G1, H1 = 2 (group 2). Red total
    # 6 + 4 = 10 > 2: red 18, blue 2. Mediator difference 10 - 2 = 8 > 7: White 2.
    g = rows_of({"A1": "R", "B1": "R", "G1": "B", "H1": "B"})
    roles = {1: (CSD, CSD), 2: (CSS, CSS), 3: (CSD, CSD)}
    m = new({1: CORNERS, 2: DUO, 3: g}, roles)
    m.resolve({})
    m.resolve({})
    m.resolve({"Ann": sp("A1")})
    assert points(m) == {"Ann": 18, "Bo": 18, "Cy": 18, "Dee": 2, "Eli": 2, "Fay": 2, "Gus": 2}
    # A22 option off: difference 6 - 2 = 4 <= 7: White gets the winner's 18.
    m2 = new({1: CORNERS, 2: DUO, 3: g}, roles, options={"mediator_counts_connection_bonus": "no"})
    m2.resolve({})
    m2.resolve({})
    m2.resolve({"Ann": sp("A1")})
    assert points(m2)["Gus"] == 18


def test_connection_tie_gives_no_bonus():
    # R46: two groups of 2 each: no bonus, 2 = 2, everyone 2.
    g = fl.parse_grid(rows_of({"A1": "R", "B1": "R", "G1": "B", "H1": "B"}))
    sc = fl.score_round(fl.Variation.CONNECTION, g, fl.DEFAULT_OPTIONS)
    assert sc["conn"] == {"R": 0, "B": 0} and sc["points"] == {"R": 2, "B": 2} and sc["white"] == 2


def test_largest_group_four_vs_eight_connectivity():
    # A21: red A1, B2, C3 touch only at corners: 4-connectivity largest 1, 8-connectivity 3.
    g = fl.parse_grid(rows_of({"A1": "R", "B2": "R", "C3": "R"}))
    assert fl.largest_group(g, "R", 4) == 1 and fl.largest_group(g, "R", 8) == 3


# ------------------------------------------------------------------ round 4: fog of war

def test_fog_knowledge_ten_each_twelve_for_white_overlapping_two():
    # R48-R50, A24: 60 non-centre tiles split into six disjoint sets of 10; White's 12 hold
    # exactly 2 from each set; nobody's set contains a centre tile.
    m = _to_round_four(DUO)
    fog = m.state["current"]["fog"]
    sets = {p: set(fog[p]) for p in RED_P + BLUE_P}
    assert all(len(s) == 10 for s in sets.values())
    union = set().union(*sets.values())
    assert len(union) == 60 and not union & {"D4", "E4", "D5", "E5"}
    assert len(set(fog["Gus"])) == 12
    assert all(len(set(fog["Gus"]) & s) == 2 for s in sets.values())
    # The player's view draws only the centre four and their own tiles (R48, R49).
    rep = m.player_report("Ann")
    grid = next(b for b in rep.blocks if b.grid).grid
    shown = {f"{'ABCDEFGH'[c - 1]}{r}" for r, row in enumerate(grid) if r for c, cell in enumerate(row)
             if c and cell.text != "?"}
    assert shown == sets["Ann"] | {"D4", "E4", "D5", "E5"}
    # The public board shows the centre four only.
    pub = m.public_report().blocks[0].grid
    hidden = sum(1 for row in pub[1:] for cell in row[1:] if cell.text == "?")
    assert hidden == 60


def test_fog_no_coordinator_in_the_draw():
    for seed in range(1, 20):
        m = new_match("flickering-lights", P, seed=seed)
        for _ in range(3):
            m.resolve({})
        roles = {a["role"] for a in m.state["current"]["assign"].values()}
        assert "Coordinator" not in roles and not m.state["current"]["lists"]


def test_fog_wrong_colour_replaced_in_its_slot_and_hidden_until_the_end():
    # R51, A23: round 4 grid DUO (only D4 red). Ann (Red Sniper) writes E4 (blue) as her
    # first space: replaced by a random red square, and D4 is the only one: D4 gets +4.
    # D4's radius-4 diamond, clipped to the board: rows 1..8 hold 3+5+7+8+7+5+3+1 = 39
    # squares, E4 included: red 39, blue 0. Red 39 + 8 = 47; Blue 0; difference 39: White 0.
    m = _to_round_four(DUO)
    assert m.form("Ann").section("spaces").fields[0].choices == tuple(fl.sq_name(s) for s in fl.ALL_SQUARES)
    sub = m.parse("Ann", sp("E4"))
    assert not sub.problems  # the colour is not checked in the open (that would leak it)
    rec = m.resolve({"Ann": sp("E4")})
    h4 = m.state["history"][-1]
    assert h4["points"] == {"Ann": 47, "Bo": 47, "Cy": 47, "Dee": 0, "Eli": 0, "Fay": 0, "Gus": 0}
    # R52: nothing revealed: no grid in public, no points or replacement in private.
    assert not any(b.grid for b in rec.public.blocks)
    ann = rec.private["Ann"].text()
    assert "47" not in ann and "replaced" not in ann and "Received: E4" in ann
    assert "points" not in rec.private["Gus"].text().lower()
    assert "replaced by D4" in "\n".join(rec.host_log)
    (ann,) = [f for f in of_type(rec.facts, fl.SpacesApplied) if f.player == "Ann"]
    assert ann.spaces == (fl.SpaceRaise("D4", 4),) and ann.replacements == (fl.FogReplacement("spaces", "E4", "D4", "red"),)
    assert ann.audience == HOST_ONLY
    rec5 = m.resolve({})
    end = rec5.private["Ann"].text()
    assert "replaced by D4" in end and "scored 47" in end
    assert "E4" not in rec5.private["Bo"].text()
    assert "Round 4 (Fog of War) resulting grid" in rec5.public.text()


def test_fog_saboteur_flip_replaced_by_other_colour():
    # Rules example: a Saboteur's flip of the wrong colour becomes a random tile of the other
    # colour. Cy (Red Saboteur) flips D4 (red): replaced by E4 (the only blue). E4 becomes red;
    # no values: red D4, E4 = 2, blue 0: red 2 + 8 = 10; difference 2 <= 7: White 10.
    m = _to_round_four(DUO)
    m.resolve({"Cy": sp(flip="D4")})
    assert m.state["history"][-1]["points"]["Gus"] == 10
    assert count(m, "R") == 2


def test_fog_white_fields_replaced_by_their_colour():
    # White writes red_space E4 (blue) and blue_space D4 (red): both replaced, E4 -> D4 and
    # D4 -> E4: X(D4) = 1, X(E4) = 1: their radius-1 diamonds overlap at D4 and E4 only
    # (a tie there keeps the colour). Red: C4, D3, D5, D4 = 4; blue: F4, E3, E5, E4 = 4.
    m = _to_round_four(DUO)
    m.resolve({"Gus": white("E4", "D4")})
    assert count(m, "R") == 4 and count(m, "B") == 4


def test_running_total_leaves_out_round_four_until_the_end():
    m = _to_round_four(DUO)
    m.resolve({"Ann": sp("E4")})
    # Rounds 1-3 with nothing submitted on CORNERS / DUO / CORNERS: 1 red = 1 blue each
    # round, a tie: 1 point each, so 1 + 1 + 1 = 3 shown; 3 + 47 = 50 in the hidden total.
    assert m.state["totals"]["Ann"] == 50
    assert "Your points so far: 3 (round 4 is added" in m.player_report("Ann").text()


# ------------------------------------------------------------------ round 5: three in a row

def test_three_in_a_row_counts_after_the_mediator_check():
    # R53-R55, A26: red fills A1-C3 (9 tiles): 3 rows + 3 columns + 2 diagonals = 8 lines.
    # Blue F8, H8, H6: no line. Raw 9 vs 3 (difference 6 <= 7). Final red 9 + 8 = 17 > 3:
    # red 25, blue 3; White gets the winning team's 25 (checked before the 8 lines; after
    # them the difference would be 14 and White would get 3).
    sq = {f"{c}{r}": "R" for c in "ABC" for r in "123"}
    sq.update({"F8": "B", "H8": "B", "H6": "B"})
    g = fl.parse_grid(rows_of(sq))
    sc = fl.score_round(fl.Variation.TRIPLES, g, fl.DEFAULT_OPTIONS)
    assert sc["triples"] == {"R": 8, "B": 0}
    assert sc["points"] == {"R": 25, "B": 3} and sc["white"] == 25


def test_three_in_a_row_windows_or_runs():
    # A26: a line of four counts 2 windows, or 1 run.
    g = fl.parse_grid(rows_of({"A1": "R", "B1": "R", "C1": "R", "D1": "R"}))
    assert fl.three_in_a_rows(g, "R", "windows") == 2
    assert fl.three_in_a_rows(g, "R", "runs") == 1


def test_round_five_end_to_end():
    # Round 5 grid ROW1; Ann (Red Coordinator) A1 +2: red A1-D1, A2, B2, A3 = 7; blue 4.
    # Red lines: row 1 ABC, BCD (2), column A (1), A3-B2-C1 (1) = 4; blue row 1 EFG, FGH = 2.
    # Red 11 > 6: red 19, blue 6; raw difference 3: White 19.
    roles = {1: (CSD, CSD), 2: (CSS, CSS), 3: (CSD, CSD), 4: (SBS, SBS), 5: (CSD, CSD)}
    m = new({1: CORNERS, 2: DUO, 3: CORNERS, 4: DUO, 5: ROW1}, roles)
    for _ in range(4):
        m.resolve({})
    rec = m.resolve({"Ann": sp("A1")})
    assert points(m) == {"Ann": 19, "Bo": 19, "Cy": 19, "Dee": 6, "Eli": 6, "Fay": 6, "Gus": 19}
    assert m.finished
    lines = {f.colour: f.lines for f in of_type(rec.facts, fl.SideScore) if f.round == 5}
    assert lines == {"red": 4, "blue": 2}
    aligned = {f.player: f.teams for f in of_type(rec.facts, fl.TeamsRevealed)}
    assert aligned["Ann"] == ("Red",) * 5 and aligned["Gus"] == ("White",) * 5
    assert "Alignments" in rec.public.text()


# ------------------------------------------------------------------ rules fidelity (issue 12)

def test_white_penalty_hook_off_by_default_and_on_with_the_option():
    # A32: Gus (White) gives only a red space, D4 +1: X 1 reaches D4, C4, E4 (blue -> red), D3, D5: red 5,
    # blue 0: red 13; difference 5 <= 7: White the winners' 13. No penalty by default; with 3, 13 - 3 = 10.
    m = new({1: DUO}, {1: (CSD, CSD)})
    m.resolve({"Gus": white("D4", "")})
    assert points(m)["Gus"] == 13 and not of_type(m.rounds[-1].facts, fl.MediatorPenalty)
    m3 = new({1: DUO}, {1: (CSD, CSD)}, options={"white_missing_penalty": "3"})
    rec = m3.resolve({"Gus": white("D4", "")})
    assert points(m3)["Gus"] == 10 and m3.state["totals"]["Gus"] == 10
    assert of_type(rec.facts, fl.MediatorPenalty) == [fl.MediatorPenalty(1, "Gus", ("blue_space",), 3, audience=("Gus",))]
    assert "No usable blue space from you: 3 points off" in rec.private["Gus"].text()
    # Nothing submitted at all: both fields missing; never below 0 for the round (White scores 1 on the tie).
    m4 = new({1: DUO}, {1: (CSD, CSD)}, options={"white_missing_penalty": "3"})
    m4.resolve({})
    assert points(m4)["Gus"] == 0
    assert of_type(m4.rounds[-1].facts, fl.MediatorPenalty)[0].missing == ("red_space", "blue_space")
