"""Each submission is read once per resolve (issue 26): the host parses every submission to say who
has submitted, then resolves the same text; resolve takes what parse read instead of reading it again."""
from __future__ import annotations

import json

import pytest

from sheetbridge.api import get_game, new_match
from sheetbridge.core.match import random_submissions
from sheetbridge.core.rng import Rng
from sheetbridge.core.types import to_json

from conftest import players_for


def _counting(monkeypatch, game_id: str) -> list[str]:
    game = type(get_game(game_id))
    calls: list[str] = []
    original = game.parse
    monkeypatch.setattr(game, "parse", lambda self, state, p, raw: calls.append(p) or original(self, state, p, raw))
    return calls


def _record(m) -> str:
    return json.dumps(m.to_json(), sort_keys=True) + json.dumps(to_json(m.rounds[-1].private), sort_keys=True)


@pytest.mark.parametrize("game_id", ["three-modular-rooms", "bugcatcher"])
def test_resolve_reads_no_submission_that_parse_has_read(monkeypatch, game_id):
    names = players_for(game_id)
    a, b = new_match(game_id, names, seed=2), new_match(game_id, names, seed=2)
    raws = random_submissions(a, Rng.from_seed(2, "once"))
    raws[names[0]] = {s: [{k: "??" for k in row} for row in rows] for s, rows in raws[names[0]].items()}  # problems
    raws[names[1]] = None
    calls = _counting(monkeypatch, game_id)
    submitted = [p for p in names if a.parse(p, raws[p]) is not None]   # as the host does before it resolves
    a.resolve(raws)
    assert sorted(calls) == sorted(submitted)                            # each read once, not twice
    calls.clear()
    b.resolve(raws)                                                      # no parse first: the same round
    assert sorted(calls) == sorted(submitted) and _record(a) == _record(b)


def test_a_reading_is_not_reused_for_other_text_or_another_round(monkeypatch):
    names = players_for("three-modular-rooms")
    m = new_match("three-modular-rooms", names, seed=4)
    calls = _counting(monkeypatch, "three-modular-rooms")
    typed = {"play": [{"card": "3", "room": "Null"}]}
    m.parse(names[0], typed)
    typed["play"][0]["room"] = "Duel"                  # the player changed their entry after it was read
    rec = m.resolve({names[0]: typed})
    assert rec.submissions[names[0]].values["room"] == "Duel" and calls == [names[0]] * 2
    m.parse(names[0], typed)                           # round 2 now: read again, in the new state
    assert calls == [names[0]] * 3
