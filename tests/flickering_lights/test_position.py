"""Flickering Lights: a game opened from a position."""
import pytest

from sheetbridge.api import load_match, match_from_position

from .helpers import CORNERS, DUO, P, points, rows_of, sp


# ------------------------------------------------------------------ starting from a position

T1 = {"Ann": "Red Coordinator", "Bo": "Red Sniper", "Cy": "Red Demolitionist", "Dee": "Blue Coordinator",
      "Eli": "Blue Sniper", "Fay": "Blue Demolitionist", "Gus": "White"}
T2 = {"Ann": "Red Coordinator", "Bo": "Red Sniper", "Cy": "Red Saboteur", "Dee": "Blue Coordinator",
      "Eli": "Blue Sniper", "Fay": "Blue Saboteur", "Gus": "White"}
# Round 1 on CORNERS after Ann's A1 +2: red A1, B1, C1, A2, B2, A3; blue H1 (see the first test).
R1_RESULT = rows_of({"A1": "R", "B1": "R", "C1": "R", "A2": "R", "B2": "R", "A3": "R", "H1": "B"})
POS = {"round": 2, "teams": {"1": T1, "2": T2}, "grids": {"1": CORNERS, "2": DUO}, "results": {"1": R1_RESULT},
       "points": {"Ann": [14], "Bo": [14], "Cy": [14], "Dee": [1], "Eli": [1], "Fay": [1], "Gus": [14]}}


def test_a_game_opened_from_a_position_plays_on_and_replays():
    m = match_from_position("flickering-lights", P, POS)
    assert m.round == 2 and m.state["totals"] == {"Ann": 14, "Bo": 14, "Cy": 14, "Dee": 1, "Eli": 1, "Fay": 1, "Gus": 14}
    assert m.state["current"]["grid"] == DUO and m.state["current"]["assign"]["Cy"] == {"team": "Red", "role": "Saboteur"}
    assert "Your list: Bo, Cy, Fay" in m.player_report("Ann").text()
    # Round 2: Bo (Red Sniper) D4 +4: the radius-4 diamond, 39 squares, goes red; red 39 + 8 = 47, blue 0;
    # difference 39 > 7: White the losers' 0.
    m.resolve({"Bo": sp("D4")})
    assert points(m) == {"Ann": 47, "Bo": 47, "Cy": 47, "Dee": 0, "Eli": 0, "Fay": 0, "Gus": 0}
    assert m.state["totals"] == {"Ann": 61, "Bo": 61, "Cy": 61, "Dee": 1, "Eli": 1, "Fay": 1, "Gus": 14}
    back = load_match(m.to_json(), m.ledger.rows)
    back.replay()                      # replay starts from the position
    assert back.state == m.state
    # Without points they are worked out from the results; the open round's teams may come from the seed.
    pos = {k: v for k, v in POS.items() if k != "points"}
    pos["teams"] = {"1": T1}
    m2 = match_from_position("flickering-lights", P, pos, seed=3)
    assert m2.state["totals"]["Gus"] == 14 and len(m2.state["current"]["assign"]) == 7
    # The end of the game from a position at round 5 reveals the position's round 4.
    pos5 = {"round": 5, "teams": {str(r): (T2 if r in (2, 5) else T1) for r in range(1, 6)},
            "grids": {str(r): (DUO if r % 2 == 0 else CORNERS) for r in range(1, 6)},
            "results": {str(r): (DUO if r % 2 == 0 else CORNERS) for r in range(1, 5)}}
    pos5["teams"]["4"] = {"Ann": "Red Sniper", "Bo": "Red Blocker", "Cy": "Red Saboteur", "Dee": "Blue Sniper",
                          "Eli": "Blue Blocker", "Fay": "Blue Saboteur", "Gus": "White"}
    m5 = match_from_position("flickering-lights", P, pos5)
    rec = m5.resolve({})
    assert "Round 4 (Fog of War): you were Red Sniper and scored 1." in rec.private["Ann"].text()
    assert m5.state["totals"]["Ann"] == 5


@pytest.mark.parametrize("change, message", [
    ({"round": 6}, "a position opens a round from 1 to 5"),
    ({"hands": {}}, "unknown position key(s) hands"),
    ({"teams": {"2": T2}}, "teams: round 1 is missing"),
    ({"teams": {"1": dict(T1, Zed="Red Sniper"), "2": T2}}, "teams, round 1: Zed is not a player"),
    ({"teams": {"1": dict(T1, Gus="Red Sniper"), "2": T2}}, "give all 7 players, 3 Red, 3 Blue and 1 White"),
    ({"teams": {"1": dict(T1, Fay="Blue Saboteur"), "2": T2}}, "both teams need the same three different roles"),
    ({"teams": {"1": T1, "2": dict(T2, Cy="Red Blocker", Fay="Blue Blocker")}},
     "teams, round 2: Blocker is not in play this round"),
    ({"teams": {"1": dict(T1, Ann="Red Wizard"), "2": T2}}, "Ann is 'Red Wizard'"),
    ({"grids": {"1": rows_of({"B1": "R", "A2": "B"}), "2": DUO}},
     "grids, round 1: the red squares do not map onto the blue squares under the left-right mirror"),
    ({"grids": {"1": CORNERS[:7], "2": DUO}}, "grids, round 1: give 8 rows of 8 squares"),
    ({"results": {}}, "results: round 1 is missing"),
    ({"results": {"1": R1_RESULT, "2": DUO}}, "results: round 2 is not played yet"),
    ({"points": {"Ann": [12], "Bo": [14]}}, "points: Ann has 12 in round 1, but on that round's resulting grid a Red "
                                            "player scores 14"),
    ({"points": {"Zed": [1]}}, "points: Zed is not a player"),
    ({"points": {"Ann": [14, 3]}}, "points: Ann needs one number per round played"),
])
def test_impossible_positions_are_refused_in_one_line(change, message):
    import re
    from sheetbridge.core.errors import PositionError
    with pytest.raises(PositionError, match=re.escape(message)) as err:
        match_from_position("flickering-lights", P, dict(POS, **change))
    assert "\n" not in str(err.value)
    if "grids, round 1: the red" in message:   # A17: only the allowed symmetries are listed as allowed
        listed = str(err.value).split(" under ", 1)[1].split(" (R8)")[0]
        assert "diagonal" not in listed
