"""The Big Machine: the end, from a position; positions refused."""
import json
import re

import pytest

from sheetbridge.api import load_match, match_from_position
from sheetbridge.core.errors import PositionError
from sheetbridge.core.facts import PUBLIC, of_type
from sheetbridge.games import big_machine as bm

from .helpers import ROSTER, machine_50_position, parts, text, turn


# ------------------------------------------------------------------ the end, from a position

def test_the_rulesets_50_point_machine_scored_connector_by_connector():
    m = match_from_position("big-machine", ROSTER, machine_50_position(), seed=2, garnets={p: 0 for p in ROSTER})
    # everyone in Red, bids 1, 1, 2, 2: no unique bid, everyone installs faulty (A3)
    rec = m.resolve({"Ann": turn("Red", 1, 0, "L5"), "Bo": turn("Red", 1, 0, "R5"),
                     "Cy": turn("Red", 2, 0, "M1"), "Dee": turn("Red", 2, 0, "M1")})
    scored = {f.team: f for f in of_type(rec.facts, bm.MachineScored)}
    assert all(f.audience == PUBLIC for f in scored.values())          # R68: all machines public at the end
    t1 = scored["Team 1"]
    points = {(k.a, k.b): (k.status, k.points) for k in t1.connectors}
    # as computed in _machine_50's docstring: 9 excellent x 5 + 5 working x 1 = 50
    assert points == {
        ("M1", "L1"): ("excellent", 5), ("M2", "L2"): ("excellent", 5), ("M3", "L3"): ("working", 1),
        ("L1", "L2"): ("excellent", 5), ("L2", "L3"): ("excellent", 5), ("L1", "L4"): ("working", 1),
        ("L3", "L5"): ("dead", 0), ("L4", "L2"): ("excellent", 5),
        ("M1", "R1"): ("working", 1), ("M2", "R2"): ("excellent", 5), ("M3", "R3"): ("excellent", 5),
        ("R1", "R2"): ("excellent", 5), ("R2", "R3"): ("excellent", 5), ("R1", "R4"): ("working", 1),
        ("R3", "R5"): ("dead", 0), ("R4", "R2"): ("working", 1)}
    assert t1.total == 50 and (t1.player, t1.guest) == ("Ann", "Bo") and t1.filled == ()
    # Team 2: every node but the two faulty ones was empty at the end and is made faulty (R48): 0
    assert scored["Team 2"].total == 0 and len(scored["Team 2"].filled) == 10
    assert [(g.participant, g.points, g.garnets) for g in of_type(rec.facts, bm.MachinePayout)] == [
        ("Ann", 50, 25), ("Bo", 50, 25), ("Cy", 0, 0), ("Dee", 0, 0)]
    assert sorted((r.player, r.change) for r in rec.ledger) == [("Ann", 25), ("Bo", 25)]
    assert "Team 1 (Ann + Bo): 50 points; garnets (1 per 2 points): Ann 25, Bo 25" in text(rec.public)
    out = m.outcome()
    assert out.winners == ("Ann",) and out.elimination_candidate == "Cy" and not out.requests
    assert out.scores == {"Ann": 50.0, "Bo": 50.0, "Cy": 0.0, "Dee": 0.0} and out.ending == "single_winner"
    assert not any(re.search(r"\b[RA]\d+\b", x) for x in out.reasons + tuple(a.reason for a in out.awards))


def test_a_position_plays_on_and_replays():
    pos = {"round": 2, "start": {"Ann": "White", "Bo": "White", "Cy": "Red", "Dee": "Blue"},
           "meadows": {"Ann": "Blue"}, "previous": {"Ann": "L4", "Bo": "R4", "Cy": "L1", "Dee": "R1"},
           "parts": {"Team 1": {"L4": "Red 2", "R4": "faulty"}, "Team 2": {"L1": "green 1", "R1": "X"}},
           "cogs": {"Ann": 7}}
    m = match_from_position("big-machine", ROSTER, pos, seed=4, garnets={p: 5 for p in ROSTER})
    assert m.round == 2 and m.state["meadow"]["Ann"] == "Blue" and m.state["meadow"]["Bo"] == "White"
    assert parts(m, "Team 2")["L1"] == {"color": "Green", "power": 1} and parts(m, "Team 2")["R1"] == "faulty"
    # Round 2: Ann stays in Blue alone and powers up 3: Blue 1 + 3 = 4 on L1 (joined to L4 by a free
    # connector, now used); 7 - 0 - 3 = 4 cogs.
    m.resolve({"Ann": turn("Blue", 0, 3, "L1"), "Bo": turn("White", 0, 0, "R1"),
               "Cy": turn("Red", 0, 0, "L3"), "Dee": turn("Green", 0, 0, "R2")})
    assert parts(m, "Team 1")["L1"] == {"color": "Blue", "power": 4} and m.state["cogs"]["Ann"] == 4
    assert bm.find_connector(m.state["machines"]["Team 1"], "L1", "L4")["used"] is True
    back = load_match(json.loads(json.dumps(m.to_json())), m.ledger.rows)
    back.replay()                                            # replay starts from the position
    assert back.state == m.state


@pytest.mark.parametrize("change, message", [
    ({"round": 9}, "a position opens a round from 1 to 7"),
    ({"round": 0}, "round 0, meadow selection, is a new game"),
    ({"colour": "x"}, "unknown position key(s) colour"),
    ({"start": {"Ann": "White", "Bo": "White", "Cy": "Red"}}, "start: Dee's starting meadow is missing"),
    ({"start": {"Ann": "Purple", "Bo": "White", "Cy": "Red", "Dee": "Blue"}}, "'Purple' is not a meadow"),
    ({"meadows": {"Zed": "Blue"}}, "meadows: 'Zed' is not a participant"),
    ({"cogs": {"Ann": -1}}, "cogs: Ann has -1"),
    ({"cogs": {"Ann": 40, "Bo": 40}}, "at most 56 after 1 round(s)"),
    ({"parts": {"Team 9": {}}}, "parts: 'Team 9' is not a team (Team 1 = Ann + Bo; Team 2 = Cy + Dee)"),
    ({"parts": {"Team 1": {"Q7": "Red 1"}}}, "parts: Team 1 has no node 'Q7'"),
    ({"parts": {"Team 1": {"L4": "Red 0"}}}, "a part is a colour and a power from 1"),
    ({"parts": {"Team 1": {"L4": "Red 2", "R4": "faulty", "L1": "faulty", "L2": "faulty", "L3": "faulty"}}},
     "Team 1 has 5 node(s) filled after 1 round(s); a team fills at most 4 a round"),
    ({"previous": {"Ann": "L4", "Bo": "R4", "Cy": "L1"}}, "previous: Dee's previous node is missing"),
    ({"previous": {"Ann": "L5", "Bo": "R4", "Cy": "L1", "Dee": "R1"}}, "Ann installed on L5 last round, so it "
                                                                        "cannot be empty"),
    ({"round": 1, "parts": {}}, "round 1 has no previous node"),
    ({"traversed": {"Team 1": [["L1", "L4"]]}}, "moves along connectors start in round 2"),
    ({"round": 3, "traversed": {"Team 1": [["L1", "L5"]]}}, "traversed: Team 1 has no connector"),
])
def test_impossible_positions_are_refused_in_one_line(change, message):
    pos = {"round": 2, "start": {"Ann": "White", "Bo": "White", "Cy": "Red", "Dee": "Blue"},
           "previous": {"Ann": "L4", "Bo": "R4", "Cy": "L1", "Dee": "R1"},
           "parts": {"Team 1": {"L4": "Red 2", "R4": "faulty"}, "Team 2": {"L1": "Green 1", "R1": "faulty"}}}
    pos.update(change)
    with pytest.raises(PositionError, match=re.escape(message)) as err:
        match_from_position("big-machine", ROSTER, pos)
    assert "\n" not in str(err.value)
