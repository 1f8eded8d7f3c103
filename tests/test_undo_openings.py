"""Undo keeps opening balances: they belong to the game, not to round 0 (core/ledger.py
reverse_round, Match.undo). Skeld, Bugcatcher and Big Machine have a pregame round 0."""
import pytest

from sheetbridge.api import new_match
from sheetbridge.core.match import Match, random_submissions
from sheetbridge.core.rng import Rng

from conftest import game_ids, players_for

ROUND_ZERO = ["big-machine", "bugcatcher", "skeld"]


def test_the_games_with_a_round_0_are_the_ones_tested_below():
    assert sorted(g for g in game_ids() if new_match(g, players_for(g)).round == 0) == ROUND_ZERO


@pytest.mark.parametrize("game", ROUND_ZERO)
def test_undo_of_the_pregame_keeps_opening_balances(game):
    players = players_for(game)
    m = new_match(game, players, seed=1, garnets={p: 10 for p in players})
    rec = m.resolve({})                              # `resolve --allow-empty` of round 0
    assert rec.round == 0
    m.undo()
    assert m.ledger.balances(players) == {p: 10 for p in players}
    assert [r.key for r in m.ledger.rows if r.key.endswith(":undo")] == [r.key + ":undo" for r in rec.ledger]


def test_undo_of_the_first_resolved_round_keeps_opening_balances(game_id):
    players = players_for(game_id)
    m = new_match(game_id, players, seed=2, garnets={p: 10 + i for i, p in enumerate(players)})
    rec = m.resolve(random_submissions(m, Rng.from_seed(2, "t")))
    m.undo()
    assert m.ledger.balances(players) == {p: 10 + i for i, p in enumerate(players)}
    reversed_keys = sorted(r.key[:-len(":undo")] for r in m.ledger.rows if r.key.endswith(":undo"))
    assert reversed_keys == sorted(r.key for r in rec.ledger)
