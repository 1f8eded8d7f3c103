"""Bugcatcher rules tests. Every expected value is worked out by hand from the ruleset
(shared/rules/bugcatcher.txt) and the rulings (R/A/E numbers); the arithmetic is in the comments.

Coordinates: columns A-F are x = 0..5, rows 1-5 are y = 0..4 (A1, A2). A border node sits on a
lattice corner (x, y), x = 0..6, y = 0..5, with C1 bottom right = (3, 1) (A3). The engine works
on the doubled "fine" grid: corner (x, y) -> (2x, 2y), cell (c, r) -> (2c+1, 2r+1); a path moves
2 fine units and its midpoint is where a central path crosses a border edge (A4).
"""
import re

import pytest

from sheetbridge.api import load_match, match_from_position, new_match
from sheetbridge.core.errors import ConfigError, PositionError
from sheetbridge.core.facts import HOST_ONLY, PUBLIC, of_type
from sheetbridge.core.types import ProblemKind
from sheetbridge.games import bugcatcher as bc
from sheetbridge.games.bugcatcher import GAME, cell_fine as C, point_fine as P, run_paths

HEADER = ["round", "id", "name", "node", "shape", "reward", "penalty", "failure_rounds", "rotate",
          "reflect", "either_end", "anywhere", "expires_after_round", "text"]


def mission(rnd, mid, node, shape, reward, penalty="", failure="", expires="", name=None):
    return [str(rnd), mid, name or f"Mission {mid}", node, shape, str(reward), str(penalty), str(failure),
            "", "", "", "", str(expires), ""]


def tables(*rows, ranking=()):
    return {"Missions": [HEADER] + [list(r) for r in rows],
            "Gamewide Tiebreak": [["rank", "player"]] + [[str(i + 1), p] for i, p in enumerate(ranking)]}


def start(nodes, tbl=None, options=None, garnets=None, seed=1):
    """A match after a pregame in which everyone got their (uncontested) 1st choices.
    nodes: player -> (central cell, border cell, border corner)."""
    players = list(nodes)
    m = new_match("bugcatcher", players, seed=seed, tables=tbl or tables(), options=options,
                  garnets=garnets or {})
    raw = {p: {"central": [{"cell": c}], "border": [{"cell": b, "corner": k}]} for p, (c, b, k) in nodes.items()}
    m.resolve(raw)
    assert m.round == 1
    return m


def last_round(fireflies, missions=None, collisions=None, **kw):
    """A match opened at round 7 of 7 (the default mission catalogue) with these totals: the next
    resolve is the last round. Each player's nodes are apart: border (i, 0), central cell (i, 4)."""
    players = list(fireflies)
    nodes = {p: {"border": [i, 0], "central": [i % 6, 4 - i // 6]} for i, p in enumerate(players)}
    pos = {"round": 7, "nodes": nodes, "fireflies": fireflies, "missions_completed": missions or {},
           "collisions": collisions or {}}
    return match_from_position("bugcatcher", players, pos, seed=1, **kw)


def acts(*codes, accept=None):
    raw = {"actions": [{"action": c} for c in codes]}
    if accept is not None:
        raw["missions"] = [{"accept": a} for a in accept]
    return raw


def run(starts, plans, colours=None, **opts):
    return run_paths(starts, colours or {p: bc.BLUE for p in starts}, plans, {**bc.DEFAULTS, **opts})


def names_in(text, names):
    return [n for n in names if re.search(rf"\b{re.escape(n)}\b", text)]


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


# ------------------------------------------------------------------ the ruleset's example

def test_ruleset_example_submission_end_to_end():
    # R35/R36 with the text's example nodes: central C3, border C1 bottom right = corner (3,1).
    # BD (3,1)->(3,2) blue; BL ->(2,2) blue; CL C3->B3 black; BD (2,2)->(2,3) blue; swap;
    # BL (2,3)->(1,3) black; CD B3->B4 blue. 6 paths -> 6 fireflies (R32).
    # CL crosses the edge (2,2)-(2,3) that BD uses at step 4, and CD crosses the edge (1,3)-(2,3)
    # that BL uses at step 6, but the colours differ (black/blue, then black/blue) so no collision.
    m = start({"Ann": ("C3", "C1", "bottom right"), "Bo": ("F5", "F5", "bottom right")})
    m.resolve({"Ann": acts("BD", "BL", "CL", "BD", "swap", "BL", "CD")})
    assert m.state["fireflies"] == {"Ann": 6, "Bo": 0}
    assert m.state["nodes"]["Ann"] == {"B": list(P(1, 3)), "C": list(C(1, 3))}
    assert m.state["border_colour"]["Ann"] == "black"      # one swap: border black, central blue
    segs = [(s["node"], s["colour"], s["step"]) for s in m.state["board"]["segments"]]
    assert segs == [("B", "blue", 1), ("B", "blue", 2), ("C", "black", 3), ("B", "blue", 4),
                    ("B", "black", 6), ("C", "blue", 7)]
    assert m.state["collisions"]["Ann"] == 0
    text = m.player_report("Ann").text()
    assert "Your fireflies: 6" in text
    assert "A3 bottom right" in text and "B4" in text     # next round's nodes (1,3) and B4


def test_example_variants_and_self_crossing():
    # The example with the swap left out: CL (black, step 3) crosses the edge (2,2)-(2,3) where
    # the border BD of step 4 is blue; BL (2,3)->(1,3) at step 5 is blue and CD B3->B4 at step 6
    # black crosses it: different colours both times, so all 6 paths succeed.
    res = run({"a": {"B": P(3, 1), "C": C(2, 2)}}, {"a": ["BD", "BL", "CL", "BD", "BL", "CD"]})
    assert res.paths["a"] == 6 and res.collisions["a"] == 0
    # Self-collision case 4 (A7): border edge (2,2)-(2,3) placed blue at step 3, then a swap makes
    # the central node blue and CL C3->B3 crosses that edge's midpoint at step 5.
    res = run({"a": {"B": P(3, 1), "C": C(2, 2)}}, {"a": ["BD", "BL", "BD", "swap", "CL", "CD"]})
    # BD (3,1)->(3,2), BL ->(2,2), BD ->(2,3): 3 blue border paths; swap; CL blue hits -> case 4;
    # CD is then invalidated (the central node stopped). 3 paths, 1 collision caused.
    assert res.paths["a"] == 3 and res.collisions["a"] == 1
    ev = res.events["a"]
    assert ev[4].result == "collision" and ev[4].case == 4 and ev[4].others == ("a",)
    assert ev[5].result == "stopped"


# ------------------------------------------------------------------ collisions (R37-R47)

def test_case1_later_arrival_is_invalidated_with_its_nodes_later_paths():
    # a: BR (0,0)->(1,0) at step 1. b: BL (3,0)->(2,0) step 1, BL ->(1,0) step 2 (claimed by a at
    # step 1: case 1, b is later), BL step 3 invalidated (node stopped), CU step 4 still runs.
    res = run({"a": {"B": P(0, 0), "C": C(0, 4)}, "b": {"B": P(3, 0), "C": C(5, 4)}},
              {"a": ["BR"], "b": ["BL", "BL", "BL", "CU"]})
    assert res.paths == {"a": 1, "b": 2}           # b: BL at step 1 and CU at step 4
    assert res.collisions == {"a": 0, "b": 1}      # only the later arrival caused it (R72)
    assert [e.result for e in res.events["b"]] == ["placed", "collision", "stopped", "placed"]
    assert res.events["b"][1].case == 1
    assert res.ends["b"] == {"B": P(2, 0), "C": C(5, 3)}


def test_case1_onto_a_start_node():
    # A8: start points are claimed at step 0. a's BR (0,0)->(1,0) lands on b's border node.
    res = run({"a": {"B": P(0, 0), "C": C(0, 4)}, "b": {"B": P(1, 0), "C": C(5, 4)}}, {"a": ["BR"], "b": []})
    assert res.paths["a"] == 0 and res.collisions == {"a": 1, "b": 0}
    # with start_nodes_claimed off, the move succeeds
    res = run({"a": {"B": P(0, 0), "C": C(0, 4)}, "b": {"B": P(1, 0), "C": C(5, 4)}}, {"a": ["BR"], "b": []},
              start_nodes_claimed=False)
    assert res.paths["a"] == 1 and res.collisions["a"] == 0


def test_head_on_swap_of_places_is_case1_for_both():
    # A5: a (0,0)->(1,0) and b (1,0)->(0,0) at the same step: each target is the other's start.
    res = run({"a": {"B": P(0, 0), "C": C(0, 4)}, "b": {"B": P(1, 0), "C": C(5, 4)}},
              {"a": ["BR"], "b": ["BL"]})
    assert res.paths == {"a": 0, "b": 0} and res.collisions == {"a": 1, "b": 1}


def test_case2_same_coordinate_same_step():
    # a (0,0)->(1,0) and b (2,0)->(1,0) at step 1: both invalidated (R41), +1 collision each.
    # a's BR at step 2 is invalidated; a's CD at step 3 runs. (1,0) stays free (A10): c moves
    # BU (1,1)->(1,0) at step 2 and succeeds.
    res = run({"a": {"B": P(0, 0), "C": C(0, 3)}, "b": {"B": P(2, 0), "C": C(5, 4)},
               "c": {"B": P(1, 1), "C": C(3, 4)}},
              {"a": ["BR", "BR", "CD"], "b": ["BL"], "c": ["CL", "BU"]})
    assert res.collisions == {"a": 1, "b": 1, "c": 0}
    assert res.paths == {"a": 1, "b": 0, "c": 2}    # a: CD only; c: CL and BU
    assert res.events["a"][0].case == 2 and res.events["a"][1].result == "stopped"
    assert res.ends["c"]["B"] == P(1, 0)


def test_case2_three_players_per_action_and_per_pair():
    # Three border paths into corner (1,1) at step 1. A13 default: 1 per colliding action;
    # per_pair: each collides with 2 others -> 2 each.
    starts = {"a": {"B": P(0, 1), "C": C(0, 4)}, "b": {"B": P(2, 1), "C": C(5, 4)},
              "c": {"B": P(1, 0), "C": C(3, 4)}}
    plans = {"a": ["BR"], "b": ["BL"], "c": ["BD"]}
    assert run(starts, plans).collisions == {"a": 1, "b": 1, "c": 1}
    assert run(starts, plans, collision_count_mode="per_pair").collisions == {"a": 2, "b": 2, "c": 2}


def test_case3_same_colour_crossing_at_the_same_step():
    # a's central C(0,0)=A1 -> B1 at step 2 (black, R11) crosses the edge (1,0)-(1,1), midpoint
    # fine (2,1). b swaps at step 1 (border black) and moves BD (1,0)->(1,1) at step 2: same
    # colour, same midpoint, same step -> case 3 for both (R40, R41).
    starts = {"a": {"B": P(6, 5), "C": C(0, 0)}, "b": {"B": P(1, 0), "C": C(5, 4)}}
    res = run(starts, {"a": ["BL", "CR"], "b": ["swap", "BD"]})
    assert res.collisions == {"a": 1, "b": 1}
    assert res.paths == {"a": 1, "b": 0}            # a's BL at step 1 only
    assert res.events["a"][1].case == 3 and res.events["b"][1].case == 3
    # without b's swap the border path is blue, the central black: different colours, no collision
    res = run(starts, {"a": ["BL", "CR"], "b": ["CL", "BD"]})
    assert res.collisions == {"a": 0, "b": 0} and res.paths == {"a": 2, "b": 2}


def test_case4_crossing_a_path_placed_earlier():
    # Addendum: a's central A1 -> B1 (black) at step 1 is placed; b (border black after its swap)
    # crosses the same midpoint at step 2: b is later -> case 4 for b only (R42, R43).
    starts = {"a": {"B": P(6, 5), "C": C(0, 0)}, "b": {"B": P(1, 0), "C": C(5, 4)}}
    res = run(starts, {"a": ["CR"], "b": ["swap", "BD", "BD"]})
    assert res.paths == {"a": 1, "b": 0}
    assert res.collisions == {"a": 0, "b": 1}      # R72: only the later arrival caused it
    assert res.events["b"][1].case == 4 and res.events["b"][2].result == "stopped"
    # the other colour passes
    res = run(starts, {"a": ["CR"], "b": ["CL", "BD", "BD"]})
    assert res.paths == {"a": 1, "b": 3} and res.collisions["b"] == 0


def test_crossing_before_arrival_order():
    # A12: a (central A1->B1, black) and b (border black, (1,0)->(1,1)) cross at step 2 (case 3).
    # d's border BL (2,1)->(1,1) also arrives at (1,1) at step 2. By default b is stopped at the
    # crossing and never reaches (1,1), so d is alone there and succeeds. Evaluated all at once,
    # b and d also meet at (1,1): case 2 for both.
    starts = {"a": {"B": P(6, 5), "C": C(0, 0)}, "b": {"B": P(1, 0), "C": C(5, 4)},
              "d": {"B": P(2, 1), "C": C(5, 0)}}
    plans = {"a": ["BU", "CR"], "b": ["swap", "BD"], "d": ["CD", "BL"]}
    res = run(starts, plans)
    assert res.paths == {"a": 1, "b": 0, "d": 2} and res.collisions == {"a": 1, "b": 1, "d": 0}
    res = run(starts, plans, crossing_before_arrival=False)
    assert res.paths == {"a": 1, "b": 0, "d": 1} and res.collisions == {"a": 1, "b": 1, "d": 1}


def test_self_collision_onto_own_path_and_node():
    # R45, A7: (2,2) BR ->(3,2), BD ->(3,3), BL ->(2,3), BU ->(2,2) = own start node: case 1.
    res = run({"a": {"B": P(2, 2), "C": C(5, 4)}}, {"a": ["BR", "BD", "BL", "BU"]})
    assert res.paths["a"] == 3 and res.collisions["a"] == 1
    assert res.events["a"][3].case == 1 and res.events["a"][3].others == ("a",)


def test_swap_after_a_collision_goes_through():
    # R44: BR (0,0)->(1,0); BL back onto the own start (case 1); swap still flips; BR invalidated.
    res = run({"a": {"B": P(0, 0), "C": C(5, 4)}}, {"a": ["BR", "BL", "swap", "BR"]})
    assert res.paths["a"] == 1 and res.collisions["a"] == 1
    assert res.border_colour["a"] == "black"
    assert [e.result for e in res.events["a"]] == ["placed", "collision", "swap", "stopped"]


def test_off_board_stops_the_node_without_a_collision():
    # E5: BL from corner (0,0) leaves the board: invalid, node stopped, not a collision;
    # BD is invalidated; the central node's CD still runs.
    starts = {"a": {"B": P(0, 0), "C": C(0, 0)}}
    res = run(starts, {"a": ["BL", "BD", "CD"]})
    assert res.paths["a"] == 1 and res.collisions["a"] == 0
    assert [e.result for e in res.events["a"]] == ["offboard", "stopped", "placed"]
    res = run(starts, {"a": ["BL", "BD", "CD"]}, offboard_policy="skip_action")
    assert res.paths["a"] == 2


def test_gswap_without_a_step():
    # A14 option: with gswap_takes_step off, the garnet swap applies before the next action
    # without using a step, so BR runs at step 1 in black.
    res = run({"a": {"B": P(0, 0), "C": C(5, 4)}}, {"a": ["gswap", "BR"]}, gswap_takes_step=False)
    assert [(s.step, s.colour) for s in res.segments] == [(1, "black")]
    res = run({"a": {"B": P(0, 0), "C": C(5, 4)}}, {"a": ["gswap", "BR"]})
    assert [(s.step, s.colour) for s in res.segments] == [(2, "black")]


def test_paths_do_not_carry_over_between_rounds():
    # R46: in round 1 Ann's border goes (0,0)->(1,0)->(2,0). In round 2 Bo's border, which starts at
    # (1,1), moves BU onto (1,0): that point was on Ann's round-1 path but is free now -> placed.
    m = start({"Ann": ("F5", "A1", "upper left"), "Bo": ("F1", "A2", "upper right")})
    m.resolve({"Ann": acts("BR", "BR")})
    assert m.state["fireflies"]["Ann"] == 2
    m.resolve({"Bo": acts("BU")})
    assert m.state["fireflies"]["Bo"] == 1 and m.state["collisions"]["Bo"] == 0


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


# ------------------------------------------------------------------ missions (R48-R62)

JELLY_VARIANTS = sorted("DDRDL DDLDR UURUL UULUR RRDRU RRURD LLDLU LLULD "
                        "RULUU LURUU RDLDD LDRDD URDRR DRURR ULDLL DLULL".split())  # rulings A22


def test_jellyfish_variants():
    assert bc.shape_variants("DDRDL") == JELLY_VARIANTS
    assert bc.matches("LDDRDLU", JELLY_VARIANTS, True)      # R61: anywhere in the path
    assert not bc.matches("LDDRDLU", JELLY_VARIANTS, False)
    assert not bc.matches("DDRDR", JELLY_VARIANTS, True)


def test_jellyfish_rotated_and_reflected_completes_and_penalises_other_acceptor():
    # Ann builds LLULD (rotated and reflected) from corner (5,3): (4,3),(3,3),(3,2),(2,2),(2,3).
    # 5 paths + 6 reward = 11. Bo accepted and failed while Ann completed: -3 now (R56).
    tbl = tables(mission(1, "J1", "border", "DDRDL", 6, -3, 2, name="Cheerful Jellyfish"))
    m = start({"Ann": ("A1", "E3", "bottom right"), "Bo": ("F5", "A5", "bottom left")}, tbl)
    rec = m.resolve({"Ann": acts("BL", "BL", "BU", "BL", "BD", accept=["yes"]),
                     "Bo": acts("CU", accept=["yes"])})
    assert m.state["fireflies"] == {"Ann": 11, "Bo": 1 - 3}
    assert m.state["missions_completed"] == {"Ann": 1, "Bo": 0}
    pub = rec.public.text()
    assert "Mission J1 (Cheerful Jellyfish) has been completed" in pub
    assert not names_in(pub, ["Ann", "Bo"])                  # R62: not who
    assert "+6" in rec.private["Ann"].text() and "-3" in rec.private["Bo"].text()


def test_shape_built_without_accepting_earns_nothing():
    # A18: Ann builds RR with her central node without accepting: 2 paths only.
    tbl = tables(mission(1, "A1", "any", "RR", 4))
    m = start({"Ann": ("A1", "A5", "bottom left"), "Bo": ("F5", "F1", "upper right")}, tbl)
    m.resolve({"Ann": acts("CR", "CR", accept=["no"])})
    assert m.state["fireflies"]["Ann"] == 2 and m.state["missions"][0]["status"] == "open"


def test_split_reward_rounds_up():
    # R53/A24: reward 5 split between Ann and Bo: ceil(5/2) = 3 each, plus 2 paths each = 5.
    # Cy accepted but did not build it (no penalty on this mission); Dee built it unaccepted: 2.
    tbl = tables(mission(1, "S", "any", "RR", 5))
    m = start({"Ann": ("A1", "A5", "bottom left"), "Bo": ("A3", "A3", "bottom left"),
               "Cy": ("F5", "F1", "upper right"), "Dee": ("A5", "E1", "upper left")}, tbl)
    m.resolve({"Ann": acts("CR", "CR", accept=["yes"]), "Bo": acts("CR", "CR", accept=["yes"]),
               "Cy": acts("CU", accept=["yes"]), "Dee": acts("CR", "CR", accept=["no"])})
    assert m.state["fireflies"] == {"Ann": 5, "Bo": 5, "Cy": 1, "Dee": 2}
    assert m.state["missions"][0]["completers"] == ["Ann", "Bo"]


def test_penalty_at_the_end_of_the_window_and_mission_closes():
    # R57/A19: presented in round 1 with Failure (2 rounds): window rounds 1-2. Ann accepts and
    # never completes: 0 after round 1, -2 after round 2; in round 3 RR no longer completes it.
    tbl = tables(mission(1, "W", "central", "RR", 4, -2, 2))
    m = start({"Ann": ("A1", "A5", "bottom left"), "Bo": ("F5", "F1", "upper right")}, tbl,
              options={"rounds": "3"})
    m.resolve({"Ann": acts("CD", accept=["yes"])})      # A1 -> A2: 1 path
    assert m.state["fireflies"]["Ann"] == 1
    m.resolve({"Ann": acts("CD")})                      # A2 -> A3: 1 path, then -2
    assert m.state["fireflies"]["Ann"] == 1 + 1 - 2
    assert m.state["missions"][0]["status"] == "closed"
    m.resolve({"Ann": acts("CR", "CR")})                # 2 paths, no reward any more
    assert m.state["fireflies"]["Ann"] == 0 + 2


def test_accepting_is_only_for_this_rounds_board_and_tables_change_between_rounds():
    tbl = tables(mission(1, "A", "central", "RR", 4), mission(2, "B", "central", "DD", 3))
    m = start({"Ann": ("A1", "A5", "bottom left"), "Bo": ("F5", "F1", "upper right")}, tbl)
    assert [s.row_labels for s in m.form("Ann").sections if s.name == "missions"] == [("A: Mission A",)]
    # the host replaces round 2's mission before round 1 is resolved; round 1's stays as presented
    new = tables(mission(1, "A", "central", "LL", 9), mission(2, "C", "border", "RRR", 2))
    m.resolve({}, tables=new)
    assert [x["id"] for x in m.state["missions"]] == ["A", "C"]
    assert m.state["missions"][0]["shape"] == "RR"
    assert m.form("Ann").section("missions").row_labels == ("C: Mission C",)


def test_check_tables_explains_problems():
    bad = tables(mission(1, "X", "border", "DDRDL", 6), mission(1, "X", "border", "DDR", 2),
                 mission(1, "Y", "border", "RDLU", 2), mission(1, "Z", "middle", "DQ", 1),
                 mission(1, "P", "border", "RR", 1, -2, ""))
    msgs = GAME.check_tables(bad)
    joined = " | ".join(msgs)
    assert "id 'X' is also used on row 2" in joined
    assert "comes back to a point" in joined              # RDLU returns to its start
    assert "node 'middle'" in joined and "shape 'DQ'" in joined
    assert "needs failure_rounds" in joined
    assert GAME.check_tables(tables(mission(1, "J", "border", "down down right down left", 6))) == []


# ------------------------------------------------------------------ pregame (R16-R26, A26-A30)

def test_pregame_passes_and_bid_tiebreak():
    # Pass 1: X wanted by a (bid 1) and b (bid 0) -> a; Y -> c. Pass 2: b's 2nd choice W -> b.
    got, how, contested, log = bc.assign_nodes({"a": ["X", "Z"], "b": ["X", "W"], "c": ["Y"]},
                                               {"a": 1, "b": 0, "c": 0}, ["W", "X", "Y", "Z"],
                                               bc.Rng(1), "strict", "central")
    assert got == {"a": "X", "b": "W", "c": "Y"}
    assert how["b"] == "your 2nd choice" and contested == {"a", "b"}


def test_pregame_strict_taken_entry_means_no_claim_then_fallback():
    # A27: a (bid 2), d (bid 1) and b (bid 0) want X; a wins. c gets Y. Pass 2: b's Y is taken
    # (no claim), d gets W. Pass 3: b's W is taken. b's list is used up: random free coordinate.
    got, how, _, log = bc.assign_nodes({"a": ["X"], "b": ["X", "Y", "W"], "c": ["Y"], "d": ["X", "W"]},
                                       {"a": 2, "b": 0, "c": 0, "d": 1}, ["V", "W", "X", "Y", "Z"],
                                       bc.Rng(5), "strict", "central")
    assert got["a"] == "X" and got["c"] == "Y" and got["d"] == "W"
    assert got["b"] in ("V", "Z") and "random free" in how["b"]


def test_pregame_equal_bids_seeded_draw():
    # R25(2): equal bids -> a seeded draw; the loser takes its 2nd choice in pass 2.
    lists = {"a": ["X", "A"], "b": ["X", "B"]}
    r1 = bc.assign_nodes(lists, {"a": 0, "b": 0}, ["A", "B", "X"], bc.Rng(7), "strict", "central")
    r2 = bc.assign_nodes(lists, {"a": 0, "b": 0}, ["A", "B", "X"], bc.Rng(7), "strict", "central")
    assert r1[0] == r2[0]
    winner = [p for p in "ab" if r1[0][p] == "X"]
    assert len(winner) == 1
    loser = "b" if winner == ["a"] else "a"
    assert r1[0][loser] == loser.upper()
    assert any("seeded draw" in line for line in r1[3])


def test_pregame_end_to_end_bids_aliases_and_ledger():
    m = new_match("bugcatcher", ["Ann", "Bo", "Cy"], seed=3, tables=tables(), garnets={"Ann": 3, "Bo": 2, "Cy": 5})
    raw = {
        # Ann: bids 2 + 5 with 3 garnets -> central 2, border capped at 3 - 2 = 1 (E-P5)
        "Ann": {"central": [{"cell": "C3"}], "border": [{"cell": "C1", "corner": "bottom right"},
                                                         {"cell": "D2", "corner": "upper left"}],
                "bids": [{"central_bid": "2", "border_bid": "5"}]},
        # Bo wants C3 too (bid 1 < 2): gets B2; border: D2 upper left = Ann's point, so G1 and "seven"
        "Bo": {"central": [{"cell": "C3"}, {"cell": "B2"}],
               "border": [{"cell": "G1", "corner": "upper left"}, {"cell": "seven"}, {"cell": "F5", "corner": "bottom right"}],
               "bids": [{"central_bid": "1", "border_bid": "-4"}]},
        "Cy": None,
    }
    sub = m.parse("Ann", raw["Ann"])
    assert any(p.field == "border 2nd" and p.reason == "the same point as your 1st choice"   # alias
               for p in sub.problems)                                                        # duplicate, E-P3
    sub = m.parse("Bo", raw["Bo"])
    fields = {p.field: p for p in sub.problems}
    assert fields["border 1st"].kind is ProblemKind.ILLEGAL and fields["border 2nd"].kind is ProblemKind.SYNTAX
    assert fields["border_bid"].default == "bid 0"
    rec = m.resolve(raw)
    cols, rows = 6, 5
    assert bc.fine_label(m.state["nodes"]["Ann"]["C"], cols, rows) == "C3"
    assert bc.fine_label(m.state["nodes"]["Bo"]["C"], cols, rows) == "B2"   # 2nd choice in pass 2
    assert bc.fine_label(m.state["nodes"]["Ann"]["B"], cols, rows) == "C1 bottom right"
    assert bc.fine_label(m.state["nodes"]["Bo"]["B"], cols, rows) == "F5 bottom right"
    assert sorted((r.player, r.change, r.reason) for r in rec.ledger) == [
        ("Ann", -2, "PREGAME_BID_CENTRAL"), ("Ann", -1, "PREGAME_BID_BORDER"), ("Bo", -1, "PREGAME_BID_CENTRAL")]
    assert "random free" in rec.private["Cy"].text()          # E-P4
    # The pregame as data. Central pass 1: C3 wanted by Ann (bid 2) and Bo (bid 1): Ann by bid. Bo's
    # 2nd choice B2 in pass 2 alone. Cy listed nothing: a seeded draw among the free cells (A27).
    passes = {(f.list, f.pass_no, f.coordinate): f for f in of_type(rec.facts, bc.PriorityPass)}
    c3 = passes[("central", 1, "C3")]
    assert (c3.winner, c3.decided_by, c3.claimants) == ("Ann", "bid", (bc.PriorityClaim("Ann", 1, 2),
                                                                         bc.PriorityClaim("Bo", 1, 1)))
    assert passes[("central", 2, "B2")].decided_by == "alone"
    assert {(f.list, f.player) for f in of_type(rec.facts, bc.PriorityFallback)} == {("central", "Cy"),
                                                                                      ("border", "Cy")}
    assert all(f.audience == () for f in of_type(rec.facts, bc.PriorityPass, bc.PriorityFallback))
    starts = {(f.player, f.node): (f.label, f.choice, f.colour) for f in of_type(rec.facts, bc.StartingNode)}
    assert starts[("Bo", "central")] == ("B2", 2, "black") and starts[("Ann", "border")] == ("C1 bottom right", 1, "blue")
    assert starts[("Bo", "border")] == ("F5 bottom right", 3, "blue") and starts[("Cy", "central")][1] == 0
    bids = {(f.player, f.list): (f.wanted, f.bid, f.charged) for f in of_type(rec.facts, bc.PriorityBid)}
    assert bids[("Ann", "border")] == (5, 1, 1) and bids[("Bo", "border")] == (0, 0, 0)
    assert "capped at 2 and 1" in rec.private["Ann"].text()
    # The public board: six starting nodes, unowned, in Round 1's colours (R26, R11).
    marks = of_type(rec.facts, bc.NodeMarker)
    assert len(marks) == 6 and all(not hasattr(f, "player") and f.audience == ("*",) for f in marks)
    assert {f.colour for f in marks if f.node == "central"} == {"black"}
    assert m.state["border_colour"] == {"Ann": "blue", "Bo": "blue", "Cy": "blue"}   # R11


def test_bids_charged_only_if_contested_option():
    m = new_match("bugcatcher", ["Ann", "Bo"], seed=3, tables=tables(), garnets={"Ann": 3, "Bo": 3},
                  options={"bid_charge": "only_if_contested"})
    rec = m.resolve({"Ann": {"central": [{"cell": "C3"}], "border": [{"cell": "A1", "corner": "upper left"}],
                             "bids": [{"central_bid": "2", "border_bid": "2"}]},
                     "Bo": {"central": [{"cell": "C3"}, {"cell": "D3"}], "border": [{"cell": "F5", "corner": "bottom right"}],
                            "bids": [{"central_bid": "0", "border_bid": "1"}]}})
    # only the central list was contested: Ann pays 2; nobody pays for the border list
    assert [(r.player, r.change) for r in rec.ledger] == [("Ann", -2)]


# ------------------------------------------------------------------ information (R63-R68)

def test_private_reports_hold_only_the_players_own_information():
    m = start({"Ann": ("A1", "A1", "upper left"), "Bo": ("B1", "C1", "upper left"), "Cy": ("F5", "F5", "bottom right")})
    rec = m.resolve({"Ann": acts("BR", "BR", "CD"), "Bo": acts("BL", "CD", "CD"), "Cy": acts("CU")})
    # Step 1: Ann (0,0)->(1,0) and Bo (2,0)->(1,0): case 2, both border nodes stop; Cy F5->F4.
    # Step 2: Ann's BR invalidated; Bo B1->B2. Step 3: Ann A1->A2; Bo B2->B3. -> 1, 2, 1.
    assert m.state["fireflies"] == {"Ann": 1, "Bo": 2, "Cy": 1}
    for p in m.players:
        text = rec.private[p].text()
        assert f"Your fireflies: {m.state['fireflies'][p]}" in text
        others = [q for q in m.players if q != p]
        assert not names_in(text, others)
        assert not names_in(m.player_report(p).text(), others)
        for q in others:     # no other player's total (R66)
            assert f"Your fireflies: {m.state['fireflies'][q]}" not in text or \
                m.state['fireflies'][q] == m.state['fireflies'][p]
    pub = rec.public.text() + m.game.public_view(m.state).__repr__()
    assert not names_in(pub, m.players)
    assert "Your fireflies" not in pub


def test_public_board_draws_paths_in_colour():
    m = start({"Ann": ("C3", "C1", "bottom right"), "Bo": ("F5", "F5", "bottom right")})
    rec = m.resolve({"Ann": acts("BD", "BL", "CL", "BD", "swap", "BL", "CD")})
    grid = rec.public.blocks[0].grid
    assert len(grid) == 12 and len(grid[0]) == 14          # 13 x 11 board plus labels
    # border BD from (3,1) to (3,2): the edge cell is fine (6,3) -> grid row 3+1, column 6+1
    edge = grid[4][7]
    assert edge.text == "│" and edge.fill == bc.FILL["blue"]
    # central CL C3 -> B3 crosses the edge (2,2)-(2,3) at fine (4,5), where the border BD of step
    # 4 (blue) also runs: the cell keeps the border fill and shows the black central crossing
    cross = grid[6][5]
    assert cross.text == "│═" and cross.fill == bc.FILL["blue"]


# ------------------------------------------------------------------ end of game (R69-R73)

def test_final_ranking_tiebreaks_and_payouts():
    m = last_round({"Ann": 65, "Bo": 65, "Cy": 10, "Dee": -5, "Eli": -5, "Fay": 30},
                   {"Ann": 2, "Bo": 1, "Cy": 0, "Dee": 0, "Eli": 0, "Fay": 0},
                   {"Ann": 9, "Bo": 0, "Cy": 0, "Dee": 3, "Eli": 5, "Fay": 0})
    rec = m.resolve({})
    out = m.outcome()
    # Ann and Bo tie on 65: Ann completed more missions (R71 1) and wins.
    # Dee and Eli tie on -5 and on missions: Eli caused more collisions (R71 2): Eli is the EC.
    assert out.winners == ("Ann",) and out.elimination_candidate == "Eli"
    assert [p for p, _ in out.standings] == ["Ann", "Bo", "Fay", "Cy", "Dee", "Eli"]
    # R69 +1 to Ann; R73 floor(65/30) = 2 for Ann and Bo, floor(30/30) = 1 for Fay, nothing below 30
    assert sorted((r.player, r.change, r.reason) for r in rec.ledger) == [
        ("Ann", 1, "MM_WINNER"), ("Ann", 2, "FIREFLY_CONVERSION"), ("Bo", 2, "FIREFLY_CONVERSION"),
        ("Fay", 1, "FIREFLY_CONVERSION")]
    assert [(a.player, a.kind, a.count) for a in out.awards] == [("Ann", "Token of Life", 2)]
    # the outcome as data: Ann's win was settled by missions (R71 step 1); scores are the fireflies
    assert out.ending == "missions"
    assert out.scores == {"Ann": 65, "Bo": 65, "Fay": 30, "Cy": 10, "Dee": -5, "Eli": -5}
    # R68: every count revealed, once, in the outcome (not again in the last round's post); A35:
    # missions figures for those whose fireflies tied, collisions only where missions tied too.
    assert dict(out.standings) == {"Ann": "65 fireflies, 2 missions completed", "Bo": "65 fireflies, "
                                   "1 mission completed", "Fay": "30 fireflies", "Cy": "10 fireflies",
                                   "Dee": "-5 fireflies, 0 missions completed, 3 collisions caused",
                                   "Eli": "-5 fireflies, 0 missions completed, 5 collisions caused"}
    counts = {f.player: (f.place, f.fireflies, f.missions, f.collisions) for f in of_type(rec.facts, bc.FinalCount)}
    assert counts["Ann"] == (1, 65, 2, None) and counts["Eli"] == (6, -5, 0, 5) and counts["Fay"] == (3, 30, None, None)
    assert "65 fireflies" not in rec.public.text()
    assert [(f.above, f.below, f.by, f.above_value, f.below_value) for f in of_type(rec.facts, bc.TieBreakStep)] == [
        ("Ann", "Bo", "missions", 2, 1), ("Dee", "Eli", "collisions", 3, 5)]
    assert out.reasons[2:] == ("Ann, Bo tied on 65 fireflies: Ann above Bo by more missions completed (2 to 1).",
                               "Dee, Eli tied on -5 fireflies: Dee above Eli by fewer collisions caused (3 to 5).")


def test_gamewide_tiebreak_is_a_ranking_decision_for_the_winner_and_the_ec():
    # R71 (3), A32: Ann, Bo and Cy end tied on fireflies (5), missions (0) and collisions (0). The
    # Gamewide Tiebreak is a ranking the host enters. Until then nobody wins or goes to the EC and
    # the winner's garnet is not paid; the ranking Cy > Bo > Ann makes Cy the winner, Ann the EC.
    m = last_round({"Ann": 5, "Bo": 5, "Cy": 5})
    rec = m.resolve({})
    out = m.outcome()
    assert out.winners == () and out.elimination_candidate is None and out.awards == ()
    (req,) = m.pending()
    assert (req.key, req.kind, req.choices, req.round) == ("gamewide:Ann,Bo,Cy", bc.DecisionKind.RANKING,
                                                           ("Ann", "Bo", "Cy"), 7)
    assert "the winner and the Elimination Candidate" in req.question
    assert [r.reason for r in rec.ledger] == []                           # MM_WINNER waits for the ranking
    assert any("Gamewide Tiebreak" in line for line in out.pending)
    assert of_type(rec.facts, bc.MainMatchResult) == [bc.MainMatchResult(None, None, ("gamewide:Ann,Bo,Cy",))]
    public = m.public_report().text()   # players read what waits, never the host's instruction (issue 27)
    assert "The winner will be announced after the tiebreak." in public and "Winner: pending" in public
    assert "Winner(s)" not in public and "for the host" not in public and "none" not in public
    assert out.ending == "winner_pending"
    m.decide("gamewide", "cy, bo, ann")       # the start of the one pending key; re-resolves the last round
    out = m.outcome()
    assert out.winners == ("Cy",) and out.elimination_candidate == "Ann" and out.pending == () and not m.pending()
    assert out.ending == "gamewide"
    assert [(r.player, r.change, r.reason) for r in m.rounds[-1].ledger] == [("Cy", 1, "MM_WINNER")]
    assert m.ledger.balance("Cy") == 1
    assert [(f.above, f.below, f.by) for f in of_type(m.rounds[-1].facts, bc.TieBreakStep)] == [
        ("Cy", "Bo", "gamewide"), ("Bo", "Ann", "gamewide")]


def test_gamewide_tiebreak_separate_rankings_for_the_top_and_the_bottom():
    # Ann and Bo tie at the top (9, no missions, no collisions), Dee and Eli at the bottom (1): two
    # rankings. Entering the bottom one names the EC; the winner stays pending until the top one.
    m = last_round({"Ann": 9, "Bo": 9, "Cy": 4, "Dee": 1, "Eli": 1})
    m.resolve({})
    assert sorted(r.key for r in m.pending()) == ["gamewide:Ann,Bo", "gamewide:Dee,Eli"]
    m.decide("gamewide:Dee,Eli", "Eli, Dee")
    out = m.outcome()
    assert out.elimination_candidate == "Dee" and out.winners == ()
    assert [r.key for r in m.pending()] == ["gamewide:Ann,Bo"]
    m.decide("gamewide:Ann,Bo", "Bo, Ann")
    assert m.outcome().winners == ("Bo",) and m.outcome().elimination_candidate == "Dee"
    assert [p for p, _ in m.outcome().standings] == ["Bo", "Ann", "Cy", "Eli", "Dee"]


def test_penalty_is_charged_once_and_expiry_keeps_the_reward_open():
    # A19/A20: window 1 round (round 1 only) but expires_after_round 2. Ann and Bo accept in round 1;
    # nobody completes it: both -2 at the end of round 1, and it stays open for the reward.
    # Round 2: Ann builds RR with her central node: reward 4 (alone), +2 paths; Bo is not charged
    # again. Ann: -2 + 4 + 2 = 4. Bo: -2.
    tbl = tables(mission(1, "E", "central", "RR", 4, -2, 1, expires=2))
    m = start({"Ann": ("A1", "A5", "bottom left"), "Bo": ("F5", "F1", "upper right")}, tbl, options={"rounds": "2"})
    m.resolve({"Ann": acts(accept=["yes"]), "Bo": acts(accept=["yes"])})
    assert m.state["fireflies"] == {"Ann": -2, "Bo": -2}        # R58: negative totals are fine
    m.resolve({"Ann": acts("CR", "CR")})
    assert m.state["fireflies"] == {"Ann": 4, "Bo": -2}
    assert m.state["missions"][0]["completers"] == ["Ann"]


def test_round1_public_board_shows_starting_nodes_in_colour():
    # R26, R11: the starting nodes are revealed at the start of Round 1, central black, border blue.
    m = start({"Ann": ("C3", "C1", "bottom right"), "Bo": ("F5", "F5", "bottom right")})
    board = next(b for b in m.public_report().blocks if b.grid)   # shown once: in the pregame's post (issue 27)
    grid = board.grid
    # C3 is fine (5,5) -> grid[6][6]; C1 bottom right is fine (6,2) -> grid[3][7]
    assert grid[6][6].text == "S" and grid[6][6].fill == bc.FILL["black"]
    assert grid[3][7].text == "S" and grid[3][7].fill == bc.FILL["blue"]


def test_random_submissions_are_legal_as_typed():
    from sheetbridge.core.match import random_submissions
    from sheetbridge.core.rng import Rng
    m = new_match("bugcatcher", ["Ann", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy"], seed=4,
                  garnets={p: 5 for p in ["Ann", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy"]})
    rng = Rng.from_seed(4, "t")
    while not m.finished:
        raw = random_submissions(m, rng)
        for p, r in raw.items():
            sub = m.parse(p, r)
            bad = [x for x in sub.problems if x.kind is ProblemKind.SYNTAX or "leave the board" in x.reason
                   or "energy" in x.reason or "garnet swap" in x.reason]  # E1, E3
            assert not bad, [x.message for x in bad]
        m.resolve(raw)
    assert m.outcome() is not None


# ------------------------------------------------------------------ the round as typed facts

def example_round():
    """The ruleset's example (R35, R36) for Ann from C3 and C1 bottom right (A42), with Bo meeting her
    path. Mission M1 (central, shape LD, +3, failure 1 round -1) accepted by both.

    Ann: BD (3,1)->(3,2) blue, BL ->(2,2) blue, CL C3->B3 black, BD (2,2)->(2,3) blue, swap (border
    black, central blue), BL (2,3)->(1,3) black, CD B3->B4 blue: 6 paths. Her CL at step 3 crosses the
    edge (2,2)-(2,3) her blue BD uses at step 4, and her CD at step 7 crosses the edge (1,3)-(2,3) of
    her black BL of step 6: different colours, no collision (A4).
    Bo (border corner (1,2) = A2 bottom right, central F5, 1 garnet): CU F5->F4, CU ->F3 (black);
    BR (1,2)->(2,2) at step 3: Ann claimed (2,2) at step 2, so case 1 for Bo, the later arrival (R37,
    R38): 1 collision caused; BD at step 4 is invalidated (its node stopped) but still costs energy
    (A16); gswap at step 5 (a garnet, no energy); CU F3->F2, CU ->F1 in blue: 4 paths.
    M1: Ann's central moves are L, D at steps 3 and 7: the shape itself: +3. Bo's central moves
    UUUU hold no turn: not completed, so Bo pays -1 now that Ann completed it (R56).
    Ann 6 + 3 = 9 fireflies; Bo 4 - 1 = 3; Bo's garnet swap costs 1 garnet."""
    m = start({"Ann": ("C3", "C1", "bottom right"), "Bo": ("F5", "A2", "bottom right")},
              tables(mission(1, "M1", "central", "LD", 3, -1, 1, name="Little Hook")), garnets={"Bo": 1})
    rec = m.resolve({"Ann": acts("BD", "BL", "CL", "BD", "swap", "BL", "CD", accept=["yes"]),
                     "Bo": acts("CU", "CU", "BR", "BD", "gswap", "CU", "CU", accept=["yes"])})
    return m, rec


def test_every_fact_of_the_ruleset_example_round():
    m, rec = example_round()
    F = rec.facts
    ann, bo = ("Ann",), ("Bo",)
    # Every step, with what it became and what it cost (energy, garnet, collisions caused).
    steps = [(f.player, f.step, f.action, f.node, f.result, f.frm, f.to, f.frm_label, f.to_label, f.colour,
              f.cases, f.self_cases, f.energy, f.garnet, f.collisions) for f in of_type(F, bc.ActionStep)]
    assert steps == [
        ("Ann", 1, "BD", "border", "placed", (3, 1), (3, 2), "C1 bottom right", "C2 bottom right", "blue", (), (), 1, 0, 0),
        ("Ann", 2, "BL", "border", "placed", (3, 2), (2, 2), "C2 bottom right", "B2 bottom right", "blue", (), (), 1, 0, 0),
        ("Ann", 3, "CL", "central", "placed", (2, 2), (1, 2), "C3", "B3", "black", (), (), 1, 0, 0),
        ("Ann", 4, "BD", "border", "placed", (2, 2), (2, 3), "B2 bottom right", "B3 bottom right", "blue", (), (), 1, 0, 0),
        ("Ann", 5, "swap", "", "swap", None, None, "", "", "black", (), (), 1, 0, 0),
        ("Ann", 6, "BL", "border", "placed", (2, 3), (1, 3), "B3 bottom right", "A3 bottom right", "black", (), (), 1, 0, 0),
        ("Ann", 7, "CD", "central", "placed", (1, 2), (1, 3), "B3", "B4", "blue", (), (), 1, 0, 0),
        ("Bo", 1, "CU", "central", "placed", (5, 4), (5, 3), "F5", "F4", "black", (), (), 1, 0, 0),
        ("Bo", 2, "CU", "central", "placed", (5, 3), (5, 2), "F4", "F3", "black", (), (), 1, 0, 0),
        ("Bo", 3, "BR", "border", "collision", (1, 2), (2, 2), "A2 bottom right", "B2 bottom right", "blue", (1,), (), 1, 0, 1),
        ("Bo", 4, "BD", "border", "stopped", (1, 2), (1, 3), "A2 bottom right", "A3 bottom right", "blue", (), (), 1,
         0, 0),
        ("Bo", 5, "gswap", "", "swap", None, None, "", "", "black", (), (), 0, 1, 0),
        ("Bo", 6, "CU", "central", "placed", (5, 2), (5, 1), "F3", "F2", "blue", (), (), 1, 0, 0),
        ("Bo", 7, "CU", "central", "placed", (5, 1), (5, 0), "F2", "F1", "blue", (), (), 1, 0, 0)]
    assert all(f.audience == (f.player,) for f in of_type(F, bc.ActionStep))
    # Who collided with whom is the host's alone (section (c)).
    assert of_type(F, bc.CollisionRecord) == [bc.CollisionRecord(3, "Bo", "BR", "border", "B2 bottom right",
                                                                  (bc.CollisionHit(1, "Ann"),), 1, audience=HOST_ONLY)]
    paths = {(f.player, f.node): (f.start, f.end, f.start_label, f.end_label, f.moves, f.steps)
             for f in of_type(F, bc.NodePath)}
    assert paths == {("Ann", "border"): ((3, 1), (1, 3), "C1 bottom right", "A3 bottom right", "DLDL", (1, 2, 4, 6)),
                     ("Ann", "central"): ((2, 2), (1, 3), "C3", "B4", "LD", (3, 7)),
                     ("Bo", "border"): ((1, 2), (1, 2), "A2 bottom right", "A2 bottom right", "", ()),
                     ("Bo", "central"): ((5, 4), (5, 0), "F5", "F1", "UUUU", (1, 2, 6, 7))}
    energy = {f.player: (f.energy, f.limit, f.paths, f.swaps, f.garnet_swaps) for f in of_type(F, bc.EnergyUsed)}
    assert energy == {"Ann": (7, 7, 6, 1, 0), "Bo": (6, 7, 6, 0, 1)}
    # Missions: acceptances, the checks with the matched window, the reward, the penalty, the announcement.
    assert of_type(F, bc.MissionAccepted) == [bc.MissionAccepted("Ann", "M1", "Little Hook", audience=ann),
                                              bc.MissionAccepted("Bo", "M1", "Little Hook", audience=bo)]
    assert of_type(F, bc.MissionCheck) == [
        bc.MissionCheck("Ann", "M1", "Little Hook", "shape", True, "central", "LD", "LD", (3, 7), 1, 1, audience=ann),
        bc.MissionCheck("Bo", "M1", "Little Hook", "shape", False, "central", "UUUU", "", (), 1, 1, audience=bo)]
    assert of_type(F, bc.MissionReward) == [bc.MissionReward("Ann", "M1", "Little Hook", 3, 1, 3, audience=ann)]
    assert of_type(F, bc.MissionPenalty) == [bc.MissionPenalty("Bo", "M1", "Little Hook", -1, "completed_by_others",
                                                               audience=bo)]
    assert of_type(F, bc.MissionCompleters) == [bc.MissionCompleters("M1", ("Ann",), 3, audience=HOST_ONLY)]
    assert of_type(F, bc.MissionCompleted) == [bc.MissionCompleted("M1", "Little Hook")]   # never who (R62)
    assert of_type(F, bc.MissionClosed) == []
    # Fireflies gained and lost, and why; totals, collisions, next nodes.
    assert {f.player: (f.paths, f.rewards, f.penalties) for f in of_type(F, bc.FireflyBreakdown)} == {
        "Ann": (6, 3, 0), "Bo": (4, 0, -1)}
    assert {f.player: (f.before, f.change, f.total) for f in of_type(F, bc.FireflyTotal)} == {
        "Ann": (0, 9, 9), "Bo": (0, 3, 3)}
    assert {f.player: (f.this_round, f.total) for f in of_type(F, bc.CollisionsCaused)} == {"Ann": (0, 0), "Bo": (1, 1)}
    assert of_type(F, bc.NextNodes) == [
        bc.NextNodes("Ann", (1, 3), (1, 3), "A3 bottom right", "B4", "black", audience=ann),
        bc.NextNodes("Bo", (1, 2), (5, 0), "A2 bottom right", "F1", "black", audience=bo)]
    # The public board: the 10 paths unowned and in board order (not step order, A33), the node points.
    assert of_type(F, bc.BugcatcherBoard) == [bc.BugcatcherBoard(1, 6, 5, ())]
    placed = [(f.node, f.frm, f.to, f.colour, f.step) for f in of_type(F, bc.PathPlaced)]
    assert placed == [("border", (3, 1), (3, 2), "blue", 0), ("border", (2, 2), (2, 3), "blue", 0),
                      ("border", (3, 2), (2, 2), "blue", 0), ("border", (2, 3), (1, 3), "black", 0),
                      ("central", (5, 1), (5, 0), "blue", 0), ("central", (1, 2), (1, 3), "blue", 0),
                      ("central", (2, 2), (1, 2), "black", 0), ("central", (5, 2), (5, 1), "blue", 0),
                      ("central", (5, 3), (5, 2), "black", 0), ("central", (5, 4), (5, 3), "black", 0)]
    marks = [(f.phase, f.node, f.at, f.colour) for f in of_type(F, bc.NodeMarker)]
    assert marks == [("start", "border", (3, 1), ""), ("start", "border", (1, 2), ""),
                     ("start", "central", (2, 2), ""), ("start", "central", (5, 4), ""),
                     ("end", "border", (1, 2), ""), ("end", "border", (1, 3), ""),
                     ("end", "central", (5, 0), ""), ("end", "central", (1, 3), "")]
    assert of_type(F, bc.MissionPresented) == []          # no mission for round 2 in this table
    public = [f for f in F if f.audience == PUBLIC]
    assert not any(hasattr(f, "player") for f in public)  # nothing public names anyone during the game
    # Every fact of the round was read above.
    assert {type(f) for f in F} == {bc.ActionStep, bc.CollisionRecord, bc.NodePath, bc.EnergyUsed,
                                    bc.MissionAccepted, bc.MissionCheck, bc.MissionReward, bc.MissionPenalty,
                                    bc.MissionCompleters, bc.MissionCompleted, bc.FireflyBreakdown, bc.FireflyTotal,
                                    bc.CollisionsCaused, bc.NextNodes, bc.BugcatcherBoard, bc.PathPlaced,
                                    bc.NodeMarker}
    assert m.state["fireflies"] == {"Ann": 9, "Bo": 3}
    assert [(r.player, r.change, r.reason) for r in rec.ledger] == [("Bo", -1, "GARNET_SWAP")]


def test_reports_say_it_once_and_without_ruling_numbers():
    m, rec = example_round()
    pub = rec.public
    assert [b.title for b in pub.blocks] == ["Round 1: all paths", "Round 1: missions", "Mission board, round 2"]
    assert "Mission M1 (Little Hook) has been completed." in pub.blocks[1].lines
    ann = rec.private["Ann"].text()
    assert "Your fireflies: 9 (this round +9)." in ann and "Energy used: 7 of 7." in ann
    assert "You completed mission M1 (Little Hook) with your central node (steps 3, 7): +3 fireflies." in ann
    bo = rec.private["Bo"].text()
    assert ("3. BR: collision (case 1: B2 bottom right was already claimed by another node or path): invalidated, "
            "and this node places no more paths this round") in bo
    assert "You failed mission M1 (Little Hook): -1 fireflies, another player completed it." in bo
    assert not names_in(bo, ["Ann"]) and not names_in(ann, ["Bo"])
    # A ruling reference as the code wrote them: "(R62)", "(E-P5)", "(R45, A7, E6)", "(R63-R65)".
    ruling = re.compile(r"\((?:\s*(?:R|A|E|E-P)\d+(?:-[RAE]?\d+)?\s*,?)+\)")
    assert ruling.search("announced (R45, A7, E6)") and ruling.search("capped (E-P5)")
    from sheetbridge.api import play_random
    g = play_random("bugcatcher", ["Ann", "Bo", "Cy", "Dee"], seed=2)
    texts = [g.public_report().text()] + [g.player_report(p).text() for p in g.players]
    texts += [r.public.text() for r in g.rounds] + [t.text() for r in g.rounds for t in r.private.values()]
    for text in texts + [m.public_report().text(), m.player_report("Bo").text()]:
        assert not ruling.search(text), text[max(0, ruling.search(text).start() - 80):ruling.search(text).end()]


def test_fact_classes_rebuild_as_themselves():
    # Facts are rebuilt from the record by their registered tag: each of ours must be registered, and
    # as itself (a record that rebuilt another class would replay differently).
    from sheetbridge.api import games
    from sheetbridge.core.types import _TYPES, type_tag
    games()
    for cls in bc.FACT_TYPES:
        assert _TYPES[type_tag(cls)] is cls, cls.__name__


# ------------------------------------------------------------------ pictures

def rgb(hex_colour):
    return tuple(int(hex_colour[i:i + 2], 16) for i in (0, 2, 4))


def test_pictures_draw_paths_in_their_colours_and_each_players_own_view():
    from sheetbridge.host.picture_files import round_pictures
    from sheetbridge.host.pictures import draw
    m, _ = example_round()
    pics = round_pictures(m, 1)
    assert set(pics) == {"board", "Ann", "Bo"}
    board = draw(pics["board"])
    # Cells are 64 px from (40, 64); corner (x, y) is at (40 + 64x, 64 + 64y), cell (c, r) at its middle.
    assert board.getpixel((232, 160)) == rgb(bc.FILL["blue"])      # Ann's BD (3,1)->(3,2), blue
    assert board.getpixel((150, 224)) == rgb(bc.FILL["black"])     # Ann's CL C3->B3, black
    assert board.getpixel((392, 320)) == rgb(bc.FILL["black"])     # Bo's CU F5->F4 (y 352 -> 288), black
    assert board.getpixel((392, 128)) == rgb(bc.FILL["blue"])      # Bo's CU F2->F1 (y 160 -> 96), blue
    assert board.getpixel((392, 30)) == (255, 255, 255)            # above the board: background
    assert board.getpixel((72, 96)) == rgb(bc.GRAY)               # cell A1, nothing on it
    assert board.getpixel((133, 192)) == rgb(bc.PIC_LANE)         # the lane of Bo's failed BR: bare
    bo = draw(pics["Bo"])
    assert bo.getpixel((133, 192)) == rgb(bc.PIC_FAILED)           # Bo sees his failed BR, dashed red
    assert bo.getpixel((402, 96)) == rgb(bc.PIC_MINE)              # his central node's end, F1, ringed
    assert board.getpixel((402, 96)) == rgb(bc.GRAY)
    assert draw(pics["Ann"]).getpixel((133, 192)) == rgb(bc.PIC_LANE)   # not Ann's: not drawn for her
    # Legend swatches: every colour distinct, and the legend text sits on white.
    swatches = [s for s in pics["Bo"].shapes if isinstance(s, bc.Box) and s.x == bc.PIC_LEFT and s.w == 22]
    assert len({s.fill for s in swatches}) == len(swatches) == 7
    labels = [s for s in pics["Bo"].shapes if isinstance(s, bc.Label) and s.x == bc.PIC_LEFT + 30]
    assert [s.colour for s in labels] == ["000000"] * 7 and bo.getpixel((bc.PIC_LEFT + 200, int(labels[0].y) + 3)) \
        == (255, 255, 255)


def test_pregame_picture_shows_starting_nodes_in_round_one_colours_and_blocked_cells():
    from sheetbridge.host.picture_files import round_pictures
    from sheetbridge.host.pictures import draw
    m = start({"Ann": ("C3", "C1", "bottom right"), "Bo": ("F5", "A1", "upper left")},
              options={"blocked_cells": "E1"})
    pics = round_pictures(m, 0)
    img = draw(pics["board"])
    assert img.getpixel((200, 224)) == rgb(bc.FILL["black"])       # Ann's central node C3 (R11)
    assert img.getpixel((232, 128)) == rgb(bc.FILL["blue"])        # Ann's border node C1 bottom right
    assert img.getpixel((310, 100)) == rgb(bc.BLOCKED)             # E1 is blocked (A36)
    assert draw(pics["Ann"]).getpixel((200 + 12, 224)) == rgb(bc.PIC_MINE)


# ------------------------------------------------------------------ decisions: manual missions (A21)

def manual_table():
    row = mission(1, "X", "", "manual", 4, -2, 2, name="Firefly Dance")
    row[-1] = "Post a firefly dance in the lounge."
    return tables(row)


def test_manual_mission_is_a_decision_and_entering_it_re_resolves_the_round():
    # Ann and Bo accept manual mission X (+4, failure 2 rounds -2). Round 1 and 2 are played. Until the
    # host enters who completed it (in round 1), it counts as not completed: no reward, and at the end
    # of its window (round 2) both pay -2. Entering "Ann" for round 1 re-resolves rounds 1 and 2: Ann
    # gets 4, and Bo pays -2 in round 1 (Ann completed it, R56), not again in round 2.
    m = start({"Ann": ("A1", "A5", "bottom left"), "Bo": ("F5", "F1", "upper right")}, manual_table(),
              options={"rounds": "2"})
    rec = m.resolve({"Ann": acts("CD", accept=["yes"]), "Bo": acts(accept=["yes"])})
    (req,) = m.pending()
    assert (req.key, req.kind, req.choices, req.round) == ("r1:mission:X", bc.DecisionKind.SUBSET, ("Ann", "Bo"), 1)
    assert "Post a firefly dance" in req.question and "not completed" in req.default
    assert of_type(rec.facts, bc.ManualMissionPending)[0].audience == HOST_ONLY
    assert "the host has not entered who completed it yet" in rec.private["Ann"].text()
    m.resolve({"Ann": acts("CD")})
    assert m.state["fireflies"] == {"Ann": 2 - 2, "Bo": -2}
    out = m.outcome()
    assert out.winners == () and out.elimination_candidate is None          # provisional: nothing final
    assert out.ending == "manual_pending"
    assert any("mission X" in line for line in out.pending) and out.reasons[0].startswith("Provisional")
    assert [r.reason for r in m.rounds[-1].ledger] == []
    assert {r.key for r in m.pending()} == {"r1:mission:X", "r2:mission:X"}
    m.decide("r1:mission:X", "ann")
    assert m.state["fireflies"] == {"Ann": 1 + 4 + 1, "Bo": -2}
    assert m.state["missions"][0]["completers"] == ["Ann"] and not m.pending()
    out = m.outcome()
    assert out.winners == ("Ann",) and out.elimination_candidate == "Bo" and out.pending == ()
    assert [(f.player, f.share) for f in of_type(m.rounds[1].facts, bc.MissionReward)] == [("Ann", 4)]
    m.decide("r1:mission:X", "none")                  # the host changes their mind: back to nobody
    assert m.state["fireflies"] == {"Ann": 0, "Bo": -2} and [r.key for r in m.pending()] == ["r2:mission:X"]


# ------------------------------------------------------------------ tie-break reasons (R71)

def test_tie_break_reason_names_the_step_that_separated_each_pair():
    # Ann, Bo and Cy tie on 10 fireflies, below Dee's 20. Missions: Ann 2, Bo 1, Cy 1 -> Ann above Bo
    # by missions. Bo and Cy tie on missions too; collisions 1 and 3 -> Bo above Cy by collisions.
    # Cy is the EC because of collisions, not missions (the chain "ended at missions" was wrong).
    m = last_round({"Dee": 20, "Ann": 10, "Bo": 10, "Cy": 10}, {"Dee": 0, "Ann": 2, "Bo": 1, "Cy": 1},
                   {"Dee": 0, "Ann": 5, "Bo": 1, "Cy": 3})
    rec = m.resolve({})
    out = m.outcome()
    assert out.winners == ("Dee",) and out.elimination_candidate == "Cy"
    assert out.ending == "fireflies"                # Dee's 20 alone: no tie-break at the top
    assert [(f.above, f.below, f.by, f.above_value, f.below_value) for f in of_type(rec.facts, bc.TieBreakStep)] == [
        ("Ann", "Bo", "missions", 2, 1), ("Bo", "Cy", "collisions", 1, 3)]
    assert ("Ann, Bo, Cy tied on 10 fireflies: Ann above Bo by more missions completed (2 to 1); Bo above Cy by "
            "fewer collisions caused (1 to 3).") in out.reasons
    # A35: Ann's collisions figure was never used (her missions separated her); Bo's and Cy's were.
    assert dict(out.standings)["Ann"] == "10 fireflies, 2 missions completed"
    assert dict(out.standings)["Cy"] == "10 fireflies, 1 mission completed, 3 collisions caused"


# ------------------------------------------------------------------ options: blocked cells, missing policy

def test_blocked_cells_stop_central_paths_and_cannot_be_listed():
    # A36: D3 is blocked. Ann's central node at C3 moves CR into D3: invalid like a move off the board
    # (E5): no firefly, no collision, the central node stops; CU is then invalidated; BR still runs.
    opts = {"blocked_cells": "d3"}
    m = new_match("bugcatcher", ["Ann", "Bo"], seed=1, tables=tables(), options=opts)
    assert "D3" not in m.form("Ann").section("central").fields[0].choices
    assert "D3" in m.form("Ann").section("border").fields[0].choices      # corners of D3 stay usable
    sub = m.parse("Ann", {"central": [{"cell": "D3"}, {"cell": "C3"}], "border": [{"cell": "A1", "corner": "UL"}]})
    (prob,) = [p for p in sub.problems if p.field == "central 1st"]
    assert prob.reason == "a blocked cell: no central node can be there"
    m.resolve({"Ann": {"central": [{"cell": "D3"}, {"cell": "C3"}], "border": [{"cell": "A1", "corner": "UL"}]},
               "Bo": {"central": [{"cell": "F5"}], "border": [{"cell": "F5", "corner": "BR"}]}})
    assert bc.fine_label(m.state["nodes"]["Ann"]["C"], 6, 5) == "C3"
    rec = m.resolve({"Ann": acts("CR", "CU", "BR")})
    assert m.state["fireflies"]["Ann"] == 1 and m.state["collisions"]["Ann"] == 0
    assert [(f.action, f.result, f.to_label) for f in of_type(rec.facts, bc.ActionStep) if f.player == "Ann"] == [
        ("CR", "blocked", "D3"), ("CU", "stopped", "C2"), ("BR", "placed", "A1 upper right")]
    assert "2. CU: invalidated" in rec.private["Ann"].text() and "D3 is a blocked cell" in rec.private["Ann"].text()
    assert of_type(rec.facts, bc.BugcatcherBoard)[0].blocked == ("D3",)
    with pytest.raises(ConfigError, match="G9 is not a cell"):
        new_match("bugcatcher", ["Ann", "Bo"], tables=tables(), options={"blocked_cells": "C3, G9"})


def test_missing_policy_repeat_last():
    # E11 option: Ann submits BR, gswap, BR in round 1 (1 garnet) and nothing in round 2. Default: no
    # actions. repeat_last: BR BR again from her new node (the garnet swap is not repeated: no garnet
    # is ever spent for a player who did not ask, A17).
    for policy, expected in (("no_actions", 2), ("repeat_last", 4)):
        m = start({"Ann": ("C3", "A1", "upper left"), "Bo": ("F5", "A5", "bottom left")}, garnets={"Ann": 1},
                  options={"missing_policy": policy})
        m.resolve({"Ann": acts("BR", "gswap", "BR")})
        rec = m.resolve({})
        assert m.state["fireflies"]["Ann"] == expected
        assert m.ledger.balance("Ann") == 0
        (miss,) = [f for f in of_type(rec.facts, bc.NoSubmission) if f.player == "Ann"]
        assert miss.repeated == (() if policy == "no_actions" else ("BR", "BR"))
    assert "your last actions were repeated (BR BR)" in rec.private["Ann"].text()


# ------------------------------------------------------------------ starting from a position

def test_a_game_opened_from_a_position_plays_on_and_replays():
    # Round 6 of 7 with the default catalogue. Ann's border node at C1 bottom right (3,1), blue; Bo's
    # border node at (4,1), black after his swaps. Ann completed F1 in round 1; Bo took Z1's penalty.
    pos = {"round": 6, "nodes": {"Ann": {"border": "C1 bottom right", "central": "C3"},
                                 "Bo": {"border": [4, 1], "central": "F5"}},
           "border_colour": {"Bo": "black"}, "fireflies": {"Ann": 20, "Bo": -3},
           "missions_completed": {"Ann": 1}, "collisions": {"Bo": 4},
           "missions": {"F1": {"accepted": ["Ann"], "completed_by": ["Ann"], "completed_round": 1},
                        "Z1": {"accepted": ["Bo"], "penalized": ["Bo"]}}}
    m = match_from_position("bugcatcher", ["Ann", "Bo"], pos, garnets={"Ann": 2, "Bo": 2})
    status = {x["id"]: x["status"] for x in m.state["missions"] if x["round"] < 6}
    assert m.round == 6 and status["F1"] == "completed" and status["Z1"] == "closed"
    assert status["J1"] == "closed" and status["C1"] == "open"      # J1's window (rounds 1-2) is over
    # Round 6: Ann BR (3,1)->(4,1) lands on Bo's border node: case 1 (start nodes are claimed, A8).
    # Bo's BD (4,1)->(4,2) is black, Ann's CR C3->D3 black crosses the edge (3,2)-(3,3)? No: CR from
    # C3 crosses the edge between C3 and D3, x = 3, from (3,2) to (3,3); Bo's path is at x = 4: no
    # crossing. Ann: CR placed (+1); Bo: BD placed (+1).
    rec = m.resolve({"Ann": acts("BR", "CR"), "Bo": acts("BD")})
    assert m.state["fireflies"] == {"Ann": 21, "Bo": -2} and m.state["collisions"] == {"Ann": 1, "Bo": 4}
    assert [(f.player, f.result) for f in of_type(rec.facts, bc.ActionStep)] == [
        ("Ann", "collision"), ("Ann", "placed"), ("Bo", "placed")]
    back = load_match(m.to_json(), m.ledger.rows)
    back.replay()                                         # replay starts from the position
    assert back.state == m.state
    m.resolve({})
    assert m.finished and m.outcome().winners == ("Ann",)


@pytest.mark.parametrize("change, message", [
    ({"round": 8}, "a position opens a round from 1 to 7"),
    ({"hands": {}}, "unknown position key(s) hands"),
    ({"nodes": {"Ann": {"border": "C1 bottom right", "central": "C3"}}}, "nodes: Bo needs both nodes"),
    ({"nodes": {"Ann": {"border": "G1 upper left", "central": "C3"}, "Bo": {"border": [0, 0], "central": "F5"}}},
     "Ann's border node 'G1 upper left' is not a corner of the 6x5 board"),
    ({"nodes": {"Ann": {"border": [7, 0], "central": "C3"}, "Bo": {"border": [0, 0], "central": "F5"}}},
     "is not a corner"),
    ({"nodes": {"Ann": {"border": "C1 bottom right", "central": "C3"},
                "Bo": {"border": "D2 upper left", "central": "F5"}}}, "two nodes never share a point"),
    ({"fireflies": {"Ann": 500}}, "fireflies: Ann has 500; after 2 round(s) a player has"),
    ({"fireflies": {"Zed": 1}}, "fireflies: Zed is not a player"),
    ({"collisions": {"Bo": 15}}, "collisions: Bo has 15; after 2 round(s) a player has 0 to 14"),
    ({"missions_completed": {"Bo": 11}}, "missions_completed: Bo has 11; after 2 round(s) a player has 0 to 10"),
    ({"border_colour": {"Ann": "red"}}, "a border node is blue or black"),
    ({"missions": {"L7": {"accepted": ["Ann"]}}}, "'L7' is not a mission presented before round 3"),
    ({"missions": {"J1": {"completed_by": ["Ann"], "completed_round": 1}}}, "completed by someone who did not accept"),
    ({"missions": {"J1": {"accepted": ["Ann"], "completed_by": ["Ann"], "completed_round": 3}}},
     "completed_round 3 must be a round from 1 to 2"),
    ({"missions": {"J1": {"accepted": ["Ann"], "completed_by": ["Ann"], "completed_round": 1}},
      "missions_completed": {"Ann": 0}}, "missions_completed: Ann has 0 but completed 1"),
])
def test_impossible_positions_are_refused_in_one_line(change, message):
    pos = {"round": 3, "nodes": {"Ann": {"border": "C1 bottom right", "central": "C3"},
                                 "Bo": {"border": [0, 0], "central": "F5"}}}
    pos.update(change)
    with pytest.raises(PositionError) as err:
        match_from_position("bugcatcher", ["Ann", "Bo"], pos)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_central_node_in_a_blocked_cell_is_an_impossible_position():
    pos = {"round": 2, "nodes": {"Ann": {"border": [0, 0], "central": "C3"}, "Bo": {"border": [6, 5], "central": "F5"}}}
    with pytest.raises(PositionError, match="Ann's central node C3 is a blocked cell"):
        match_from_position("bugcatcher", ["Ann", "Bo"], pos, options={"blocked_cells": "C3"})


def test_without_the_private_breakdown_the_steps_are_the_hosts_alone():
    # A34 off: each player still learns their total, nodes and missions (section (c)); the steps,
    # energy and paths stay with the host, and so are never handed to the player's renderer.
    m = start({"Ann": ("C3", "C1", "bottom right"), "Bo": ("F5", "A2", "bottom right")},
              options={"private_breakdown": "false", "public_step_order": "true"})
    rec = m.resolve({"Ann": acts("BD", "BL", "CL", "BD", "swap", "BL", "CD")})
    assert all(f.audience == HOST_ONLY for f in of_type(rec.facts, bc.ActionStep, bc.EnergyUsed, bc.NodePath,
                                                         bc.FireflyBreakdown, bc.CollisionsCaused))
    assert rec.private["Ann"].text().splitlines() == [
        "Round 1", "Round 1: your result", "Your fireflies: 6 (this round +6).",
        "Border node: A3 bottom right (black paths)", "Central node: B4 (blue paths)"]
    # With the step order public, each path carries its step, in step order (A33).
    assert [f.step for f in of_type(rec.facts, bc.PathPlaced)] == [1, 2, 3, 4, 6, 7]


def test_a_whole_games_state_options_ledger_and_ending_are_the_ones_the_package_names():
    # state.py names every key the state holds; spec.Options every option; facts.LedgerReason every
    # reason booked and facts.Ending every ending (issue 26): a whole game, with its bids, garnet swaps
    # and conversions, uses no other.
    from sheetbridge.api import play_random
    from sheetbridge.games.bugcatcher.facts import Ending, LedgerReason
    from sheetbridge.games.bugcatcher.spec import SPEC, Options, options_of
    from sheetbridge.games.bugcatcher.state import BugcatcherState, Final, Mission, PublicBoard
    g = play_random("bugcatcher", ["Ann", "Bo", "Cy", "Dee"], seed=2, garnets=3)
    st = g.state
    assert set(st) == set(BugcatcherState.__annotations__)
    assert st["missions"] and all(set(m) == set(Mission.__annotations__) for m in st["missions"])
    assert set(st["final"]) == set(Final.__annotations__)
    assert set(st["board"]) <= set(PublicBoard.__annotations__)
    opts = options_of(st["options"])
    assert {o.name for o in SPEC.options} | {"blocked", "blocked_labels"} == set(Options.__dataclass_fields__)
    assert all(getattr(opts, o.name) == st["options"][o.name] for o in SPEC.options)
    reasons = {e.reason for r in g.rounds for e in r.ledger}
    assert reasons and reasons <= {x.value for x in LedgerReason} and all(type(x) is str for x in reasons)
    ending = g.outcome().ending
    assert type(ending) is str and ending in {x.value for x in Ending}
