"""Bugcatcher rules tests. Every expected value is worked out by hand from the ruleset
(shared/rules/bugcatcher.txt) and the rulings (R/A/E numbers); the arithmetic is in the comments.

Coordinates: columns A-F are x = 0..5, rows 1-5 are y = 0..4 (A1, A2). A border node sits on a
lattice corner (x, y), x = 0..6, y = 0..5, with C1 bottom right = (3, 1) (A3). The engine works
on the doubled "fine" grid: corner (x, y) -> (2x, 2y), cell (c, r) -> (2c+1, 2r+1); a path moves
2 fine units and its midpoint is where a central path crosses a border edge (A4).
"""
import re

from sheetbridge.core.match import Match
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
    m = Match.new("bugcatcher", players, seed=seed, tables=tbl or tables(), options=options,
                  garnets=garnets or {})
    raw = {p: {"central": [{"cell": c}], "border": [{"cell": b, "corner": k}]} for p, (c, b, k) in nodes.items()}
    m.resolve(raw)
    assert m.round == 1
    return m


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
    text = rec.private["Ann"].text()
    assert "garnet swap without a garnet counts as a normal swap" in text                    # E4
    assert "energy action(s) (BD) are dropped" in text and "(E1)" not in text               # E1, told without the number


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
    m = Match.new("bugcatcher", ["Ann", "Bo"], seed=1, tables=tables(mission(1, "J1", "border", "DDRDL", 6)))
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
    m = Match.new("bugcatcher", ["Ann", "Bo", "Cy"], seed=3, tables=tables(), garnets={"Ann": 3, "Bo": 2, "Cy": 5})
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
    assert any(p.field == "border 2nd" and "the same point as your" in p.reason for p in sub.problems)  # E-P3
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
    assert m.state["border_colour"] == {"Ann": "blue", "Bo": "blue", "Cy": "blue"}   # R11


def test_bids_charged_only_if_contested_option():
    m = Match.new("bugcatcher", ["Ann", "Bo"], seed=3, tables=tables(), garnets={"Ann": 3, "Bo": 3},
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
    players = ["Ann", "Bo", "Cy", "Dee", "Eli", "Fay"]
    nodes = {p: (f"{'ABCDEF'[i]}1", f"{'ABCDEF'[i]}5", "bottom left") for i, p in enumerate(players)}
    m = start(nodes, options={"rounds": "1"})
    m.state["fireflies"] = {"Ann": 65, "Bo": 65, "Cy": 10, "Dee": -5, "Eli": -5, "Fay": 30}
    m.state["missions_completed"] = {"Ann": 2, "Bo": 1, "Cy": 0, "Dee": 0, "Eli": 0, "Fay": 0}
    m.state["collisions"] = {"Ann": 9, "Bo": 0, "Cy": 0, "Dee": 3, "Eli": 5, "Fay": 0}
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
    final = rec.public.text()
    for p, n in m.state["fireflies"].items():                 # R68: every count revealed
        assert f"{p}: {n} fireflies" in final


def test_gamewide_tiebreak_table_decides_full_ties():
    players = ["Ann", "Bo", "Cy"]
    nodes = {p: (f"{'ABC'[i]}1", f"{'ABC'[i]}5", "bottom left") for i, p in enumerate(players)}
    m = start(nodes, tbl=tables(ranking=["Cy", "Bo", "Ann"]), options={"rounds": "1"})
    m.state["fireflies"] = {"Ann": 5, "Bo": 5, "Cy": 5}
    m.resolve({}, tables=tables(ranking=["Cy", "Bo", "Ann"]))
    out = m.outcome()
    assert out.winners == ("Cy",) and out.elimination_candidate == "Ann" and out.pending == ()


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
    board = next(b for b in m.game.public_view(m.state).blocks if b.grid)
    grid = board.grid
    # C3 is fine (5,5) -> grid[6][6]; C1 bottom right is fine (6,2) -> grid[3][7]
    assert grid[6][6].text == "S" and grid[6][6].fill == bc.FILL["black"]
    assert grid[3][7].text == "S" and grid[3][7].fill == bc.FILL["blue"]


def test_random_submissions_are_legal_as_typed():
    from sheetbridge.core.match import random_submissions
    from sheetbridge.core.rng import Rng
    m = Match.new("bugcatcher", ["Ann", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy"], seed=4,
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
