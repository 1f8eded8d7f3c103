"""The Big Machine: teams and setup, and the content tables."""
import pytest

from sheetbridge.api import new_match
from sheetbridge.core.errors import ConfigError
from sheetbridge.games import big_machine as bm

from .helpers import ROSTER, start


# ------------------------------------------------------------------ teams and setup

def test_default_pairing_in_roster_order_and_machines_from_halves():
    m = start()
    st = m.state
    assert [(t["player"], t["guest"]) for t in st["teams"]] == [("Ann", "Bo"), ("Cy", "Dee")]
    assert st["role"]["Ann"] == "player" and st["role"]["Bo"] == "guest"
    # R4, R5: Team 2 = Cy's Red left half + Dee's Blue right half, sharing M1-M3.
    t2 = st["machines"]["Team 2"]
    assert (t2["left"], t2["right"]) == ("Red", "Blue")
    # 5 own nodes per half + 3 shared middle nodes = 13, every node empty (R6)
    assert len(t2["nodes"]) == 13 and all(v is None for v in t2["parts"].values())
    assert sorted(n for n in t2["nodes"] if n.startswith("M")) == ["M1", "M2", "M3"]
    # 8 connectors per default half, none between middle nodes: 16
    assert len(t2["connectors"]) == 16
    assert st["cogs"] == {p: 12 for p in ROSTER}  # R11


def test_teams_option_names_pairs_player_first():
    m = new_match("big-machine", ROSTER, seed=1, options={"teams": "Cy+Ann; Dee+Bo"})
    assert [(t["player"], t["guest"]) for t in m.state["teams"]] == [("Cy", "Ann"), ("Dee", "Bo")]
    assert m.game.viewers(m.state, "Ann") == ("Cy", "Ann")


def test_teams_option_errors_and_odd_roster():
    with pytest.raises(ConfigError, match="Zed"):
        new_match("big-machine", ROSTER, seed=1, options={"teams": "Zed+Ann"})
    with pytest.raises(ConfigError, match="twice"):
        new_match("big-machine", ROSTER, seed=1, options={"teams": "Ann+Bo; Ann+Cy"})
    with pytest.raises(ConfigError, match="even"):
        new_match("big-machine", ["Ann", "Bo", "Cy", "Dee", "Eli"], seed=1)


def test_viewers_is_the_team():
    m = start()
    assert m.game.viewers(m.state, "Bo") == ("Ann", "Bo")
    assert m.game.viewers(m.state, "Cy") == ("Cy", "Dee")


# ------------------------------------------------------------------ content tables

def _tables():
    return {k: [list(r) for r in v] for k, v in new_match("big-machine", ROSTER, seed=0).tables.items()}


def test_default_tables_are_valid():
    assert bm.GAME.check_tables(_tables()) == []


def test_table_errors_say_what_is_wrong():
    t = _tables()
    t[bm.RELATION_TABLE] = [r for r in t[bm.RELATION_TABLE] if r[:2] != ["Blue", "Green"]]
    t[bm.RELATION_TABLE].append(["Black", "Blue", "allies"])  # Blue-Black is already there
    t[bm.NODES_TABLE].append(["White", "Both", "1", "3", "3"])  # doubled node
    t[bm.CONNECTORS_TABLE].append(["Green", "Both", "5", "9", "free"])  # unknown end
    t[bm.CONNECTORS_TABLE].append(["Red", "Left", "2", "5", "sideways"])
    probs = " ".join(bm.GAME.check_tables(t))
    assert "no row for Blue and Green" in probs
    assert "Black-Blue is listed twice" in probs or "Blue-Black is listed twice" in probs
    assert "node 1 of the White left half is listed twice" in probs
    assert "node 9 is not a node of the Green left half" in probs
    assert "Condition 'sideways'" in probs


def test_table_errors_conflicting_middle_connector_and_disconnected_machine():
    t = _tables()
    t[bm.CONNECTORS_TABLE].append(["White", "Both", "M1", "M2", "free"])
    t[bm.CONNECTORS_TABLE].append(["Blue", "Both", "M1", "M2", "allies"])
    probs = " ".join(bm.GAME.check_tables(t))
    assert "both join M1 and M2 but with different conditions" in probs
    t = _tables()
    t[bm.NODES_TABLE].append(["Green", "Left", "6", "3", "3"])
    t[bm.CONNECTORS_TABLE].append(["Green", "Left", "6", "5", "free"])
    assert bm.GAME.check_tables(t) == []  # an extra node joined in is fine
    t = _tables()
    t[bm.CONNECTORS_TABLE] = [r for r in t[bm.CONNECTORS_TABLE] if r[:4] != ["Red", "Both", "M2", "1"]]
    t[bm.CONNECTORS_TABLE] = [r for r in t[bm.CONNECTORS_TABLE] if r[2:4] not in (["M1", "1"], ["M3", "1"])
                              or r[0] != "Red"]
    probs = " ".join(bm.GAME.check_tables(t))
    # the Red half's own nodes are then cut off from M1-M3
    assert "A machine of the Red left half and the White right half falls apart" in probs
    t = _tables()
    t[bm.NODES_TABLE].append(["Blue", "Right", "7", "3", "3"])  # a node with no connector
    assert "The Blue right half: node 7 has no connector" in " ".join(bm.GAME.check_tables(t))


def test_match_refuses_bad_tables():
    t = _tables()
    del t[bm.RELATION_TABLE]
    with pytest.raises(ConfigError, match="Allies and enemies"):
        new_match("big-machine", ROSTER, seed=0, tables=t)
