"""Bugcatcher: the ruleset's example and the collisions (R37-R47)."""
from sheetbridge.games import bugcatcher as bc
from sheetbridge.games.bugcatcher import cell_fine as C, point_fine as P, run_paths

from .helpers import acts, start


def run(starts, plans, colours=None, **opts):
    return run_paths(starts, colours or {p: bc.BLUE for p in starts}, plans, {**bc.DEFAULTS, **opts})


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
