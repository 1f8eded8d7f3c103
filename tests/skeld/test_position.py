"""Skeld: a game opened from a position."""
import re

import pytest

from sheetbridge.api import load_match, match_from_position

from .helpers import CONDUCTOR_EXAMPLE, PLAYERS, row, sub


# ------------------------------------------------------------------ starting from a position

def position(**changes):
    pos = {
        "round": 7,
        "crew": {"Marcer": [{"name": "Crew1", "room": "4B", "energy": 7}, {"name": "Crew2", "room": "1A", "energy": 5}],
                 "uri": [{"name": "CrewA", "room": "3C", "energy": 6, "items": {"S": 0}},
                         {"name": "CrewB", "room": "V", "energy": 4}],
                 "Spadez": [{"name": "CrewN", "room": "P", "energy": 3, "parasite": True},
                            {"name": "CrewM", "room": "2B", "energy": 7}],
                 "Ann": [{"name": "Red", "room": "12C", "energy": 5, "items": ["R"]},
                         {"name": "Blue", "room": "1B", "energy": 8}]},
        "cap": {"Ann": 8},
        "components": {p: labs for p, labs in CONDUCTOR_EXAMPLE.items() if labs},
        "walls": ["3C E"],
        "disable_used": ["Marcer"],
    }
    pos.update(changes)
    return pos


def test_a_game_opened_from_a_position_plays_on_and_replays():
    m = match_from_position("skeld", PLAYERS, position(), garnets={p: 10 for p in PLAYERS})
    st = m.state
    assert st["round"] == 7 and st["crew"]["Ann"][0]["pos"] == "12C" and st["crew"]["Ann"][1]["cap"] == 8
    assert st["walls"] == ["3C|4B"] and st["claimed"]["Spadez"] and st["disable_used"]["Marcer"]
    assert sorted(st["activated"]) == sorted(["S", "R"] + [c for labs in CONDUCTOR_EXAMPLE.values() for c in labs])
    # Round 7: Marcer's Crew1 cannot go west through the wall; Ann activates 12C, the last Conductor
    # component: the Main Match ends, Marcer wins 30 to 29 (R46) and Ann (12) is the EC (R51).
    s = m.parse("Marcer", sub(row(move="1C")))
    assert "crosses a wall" in s.problems[0].reason
    m.resolve({"Ann": sub(row(room="12C", energy="1")), "Marcer": sub(row(move="1C"))})
    out = m.outcome()
    assert m.finished and out.winners == ("Marcer",) and out.elimination_candidate == "Ann"
    back = load_match(m.to_json(), m.ledger.rows)
    back.replay()                                            # replay starts from the position
    assert back.state == m.state


@pytest.mark.parametrize("changes, message", [
    ({"round": 9}, "a position opens a round from 1 to 8"),
    ({"cards": []}, "unknown position key(s) cards"),
    ({"components": {"Zed": ["1A"]}}, "components: Zed is not a player"),
    ({"crew": {"Marcer": [{"room": "4B", "energy": 7}]}}, "Marcer needs a list of exactly two crewmates"),
    ({"components": {"uri": ["1C"], "Ann": ["1C"]}}, "1C is held by uri and Ann"),
    ({"components": {"uri": [f"{n}A" for n in range(1, 14)]}}, "all 13 Frontier components are claimed"),
    ({"components": {"uri": ["1A", "2A", "3A"]}, "round": 2}, "uri has made 4 activations"),
    ({"walls": []}, "0 wall(s) but the Summoner's Meme (single use) has been used 1 time(s)"),
    ({"walls": ["3C E", "4B|3C"]}, "'4B|3C' is given twice"),
    ({"walls": ["1A N"]}, "is on the hull"),
    ({"cap": {"Ann": 10}}, "a cap is 7 to 9"),
    ({"round": 1}, "every crewmate starts round 1 with 5"),
    ({"disabled": {"4B": 7, "5A": 7}}, "2 room(s) disabled but only 1 player(s)"),
    ({"disabled": {"V": 7}}, "'V' cannot be disabled"),
    ({"plants": [{"player": "Spadez", "round": 3, "energy": 3}]}, "Spadez planted and still carries a parasite"),
])
def test_impossible_positions_are_refused_with_one_line(changes, message):
    from sheetbridge.core.errors import PositionError
    pos = position()
    for key, value in changes.items():
        if key == "crew":
            pos["crew"] = dict(pos["crew"], **value)
        else:
            pos[key] = value
    with pytest.raises(PositionError) as err:
        match_from_position("skeld", PLAYERS, pos)
    assert message in str(err.value) and "\n" not in str(err.value)


def test_crewmates_energy_and_items_in_a_position_are_checked():
    from sheetbridge.core.errors import PositionError
    for crew0, message in [({"room": "Q9", "energy": 5}, "'Q9', which is not a room of the ship"),
                           ({"room": "4B", "energy": 9}, "Marcer.Crew1 has 9 Energy"),
                           ({"room": "4B", "energy": 7, "items": ["S"]}, "carried by Marcer.Crew1 and uri.CrewA"),
                           ({"room": "4B", "energy": 7, "items": {"W": 3}}, "Wiwaxia has 3 uses left"),
                           ({"room": "4B", "energy": 7, "parasite": True, "name": "Crew2"}, "both of Marcer's")]:
        pos = position()
        pos["crew"] = dict(pos["crew"], Marcer=[dict({"name": "Crew1"}, **crew0), pos["crew"]["Marcer"][1]])
        with pytest.raises(PositionError, match=re.escape(message)):
            match_from_position("skeld", PLAYERS, pos)
