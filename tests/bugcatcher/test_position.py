"""Bugcatcher: a game opened from a position."""
import pytest

from sheetbridge.api import load_match, match_from_position
from sheetbridge.core.errors import PositionError
from sheetbridge.core.facts import HOST_ONLY, of_type
from sheetbridge.games import bugcatcher as bc

from .helpers import acts, start


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
    # state.py names every key the state holds; options.Options every option; facts.LedgerReason every
    # reason booked and facts.Ending every ending (issue 26): a whole game, with its bids, garnet swaps
    # and conversions, uses no other.
    from sheetbridge.api import play_random
    from sheetbridge.games.bugcatcher.facts import Ending, LedgerReason
    from sheetbridge.games.bugcatcher.options import Options, options_of
    from sheetbridge.games.bugcatcher.spec import SPEC
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
