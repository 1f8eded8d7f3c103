"""Bugcatcher: the options for blocked cells and missing submissions."""
import pytest

from sheetbridge.api import new_match
from sheetbridge.core.errors import ConfigError
from sheetbridge.core.facts import of_type
from sheetbridge.games import bugcatcher as bc

from .helpers import acts, start, tables


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
