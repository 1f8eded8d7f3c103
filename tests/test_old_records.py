"""Records written by sheetbridge before the games became packages (main at ae79595) still load,
replay and render the same reports: the fact type tags are pinned to the game, not the module.

The files in tests/records/ were written once by that main (``play_random(game, P1..Pn, seed=7)``,
a whole game each) with the public report and P1's report it drew; they are kept as they are.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from sheetbridge.api import load_match
from sheetbridge.core.types import to_json

RECORDS = Path(__file__).parent / "records"
GAMES = ["three-modular-rooms", "skeld", "bugcatcher", "big-machine", "flickering-lights"]


@pytest.fixture(scope="module")
def reports() -> dict:
    return json.loads((RECORDS / "reports.json").read_text())


@pytest.mark.parametrize("game", GAMES)
def test_an_old_record_loads_replays_and_draws_the_same_reports(game: str, reports: dict) -> None:
    data = json.loads((RECORDS / f"{game}.json").read_text())
    match = load_match(data)
    recorded_state = json.dumps(data["state"], sort_keys=True)
    match.replay()     # raises if any replayed round's facts differ from the recorded ones
    assert json.dumps(match.state, sort_keys=True) == recorded_state
    assert to_json(match.public_report()) == reports[game]["public"]
    assert to_json(match.player_report("P1")) == reports[game]["P1"]
    # every fact tag the record holds names a type this sheetbridge knows
    tags = {f["__t"] for r in data["rounds"] for f in r.get("facts", [])}
    assert tags and all(not t.startswith("sheetbridge.") for t in tags)
