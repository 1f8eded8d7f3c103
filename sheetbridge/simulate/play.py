"""Whole games played with the pure API, one row of plain results each.

>>> df = play_games("three-modular-rooms", ["A", "B", "C"], games=4, seed=1, workers=1)
>>> len(df), list(df.columns[:4])
(4, ['game', 'rounds', 'ending', 'winners'])

``random`` is the game's own random legal play (it reads the state only to list what is legal);
where the game's ``random_play`` says what parse would read from its text, the text is not read back.
The same seed gives the same games, the same tables and the same report, with any number of workers
(local processes, or a Dask cluster through ``cluster.py``).
"""
from __future__ import annotations

import gc
import math
import os
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from typing import Any, Callable, Iterator, Mapping, Sequence

import pandas as pd

from ..core.errors import UsageError
from ..api import get_game
from ..core.match import Match, parse_options
from ..core.rng import Rng
from ..core.types import RawSubmission, Tables
from .cluster import cluster_threads, play_chunks_on_cluster
from .view import STRATEGIES, FactsTold, PlayerView, Strategy, strategy


def find_strategy(name: str, game_id: str) -> Strategy:
    # Imported on first use: the shipped strategies import the games they read, which a run of
    # another game, or a plugin's own strategy, need not load.
    from . import strategies as _  # noqa: F401  (registers the shipped strategies)
    table = STRATEGIES.get(name, {})
    fn = table.get(game_id) or table.get("*")
    if fn is None:
        usable = sorted(n for n, t in STRATEGIES.items() if game_id in t or "*" in t)
        raise UsageError(f"no strategy {name!r} for {game_id}; strategies for it: {', '.join(usable)}")
    return fn


def _view(m: Match, player: str, told: FactsTold | None = None) -> PlayerView:
    return PlayerView(m, player, told)


def play_game(game_id: str, players: Sequence[str], seed: str, strategies: Sequence[str],
              options: Mapping[str, Any] | None = None, garnets: int = 10) -> dict:
    """One whole game; returns one row of results (plain data)."""
    m = Match.new(get_game(game_id), players, seed=seed, options=options, garnets={p: garnets for p in players},
                  tables=_default_tables(game_id))
    m.checks = False   # the purity check runs in the tests, not on every simulated round
    rng = Rng.from_seed(seed, "simulated players")
    fns = {p: find_strategy(strategies[i % len(strategies)], game_id) for i, p in enumerate(players)}
    told = FactsTold()
    counts: Counter[type] = Counter()
    # When every seat is the game's own random player, nothing reads a past round (no view, no
    # report, no replay): its facts are counted and the record let go but for its ledger and requests,
    # so a game's working memory stays small and two workers on two cores get in each other's way less.
    forget = all(fn is _random for fn in fns.values())
    guard = 0
    while not m.finished:
        subs: dict[str, RawSubmission | None] = {}
        known: dict[str, Mapping[str, Any]] = {}   # what the game knows it reads from its own random play
        per_round = rng.fork("players", m.round)   # a stream each, without a hash each
        for i, p in enumerate(players, 1):
            r = per_round.jumped(i)
            if fns[p] is _random:
                subs[p], values = m.game.random_play(m.state, p, r)
                if values is not None:
                    known[p] = values
            else:
                subs[p] = fns[p](_view(m, p, told), r)
        rec = m.resolve(subs, known=known)
        counts.update(map(type, rec.facts))
        if forget:
            rec.forget()
        guard += 1
        if guard > 500:
            raise UsageError(f"{game_id} did not finish after 500 rounds under these strategies")
    out = m.outcome()
    counts.update(map(type, out.facts))   # the end's own facts (a reveal, final totals) happen too
    row: dict[str, Any] = {"game": seed, "rounds": len(m.rounds), "ending": out.ending or "-",
                           "winners": tuple(out.winners), "losers": tuple(out.losers),
                           "ec": out.elimination_candidate or "", "pending": len(m.pending())}
    balances = m.ledger.balances(players)
    for i, p in enumerate(players):
        row[f"strategy:{i}"] = strategies[i % len(strategies)]
        row[f"score:{i}"] = float(out.scores.get(p, math.nan))
        row[f"garnets:{i}"] = balances[p]
        row[f"won:{i}"] = p in out.winners
        row[f"ec:{i}"] = p == out.elimination_candidate
    for rec in m.rounds:   # the match is done with: without its records' way back to it, it is freed at once
        rec.detach()
    for cls, n in counts.items():   # by name, in the order first seen (two classes may share a name)
        row[f"fact:{cls.__name__}"] = row.get(f"fact:{cls.__name__}", 0) + n
    return row


_TABLES: dict[str, Tables] = {}


def _default_tables(game_id: str) -> Tables:
    """The game's shipped content tables, read from disk once a process rather than once a game
    (a match copies them, so every game still starts from its own)."""
    if game_id not in _TABLES:
        from ..api import default_tables
        _TABLES[game_id] = default_tables(game_id)
    return _TABLES[game_id]


@strategy("random")
def _random(view: PlayerView, rng: Rng) -> RawSubmission | None:  # pragma: no cover - dispatched in play_game
    raise AssertionError("the random strategy is played by the game's random_submission")


def _chunk(args: tuple) -> list[dict]:
    game_id, players, seeds, strategies, options = args
    rows = []
    with _few_collections():
        for s in seeds:
            rows.append(play_game(game_id, players, s, strategies, options))
            if gc.get_count()[0] > 200_000:   # only if something left reference cycles behind
                gc.collect()
    return rows


@contextmanager
def _few_collections() -> Iterator[None]:
    """No automatic garbage collection while games are played.

    A game allocates many small objects that live until it ends (states, facts, records), and the
    automatic collector walks them again and again: a fifth to a third of the time. They need no
    walk: play_game leaves no reference cycle, so each game is freed as it ends, and _chunk collects
    only if allocations pile up anyway. Objects alive before (modules, pandas) are frozen out of
    such a walk meanwhile. Everything is as it was afterwards.
    """
    enabled = gc.isenabled()
    freeze = gc.get_freeze_count() == 0   # someone else's frozen objects are left as they are
    gc.disable()
    if freeze:
        gc.freeze()
    try:
        yield
    finally:
        if freeze:
            gc.unfreeze()
        if enabled:
            gc.enable()


def play_games(game_id: str, players: Sequence[str], games: int, seed: int | str = 1,
               strategies: Sequence[str] = ("random",), options: Mapping[str, Any] | None = None,
               workers: int | None = None, progress: Callable[[int], None] | None = None,
               cluster: Any = None) -> pd.DataFrame:
    """`games` whole games (seeds "<seed>:<i>"), one row each, in seed order whatever the workers.

    With `cluster` (a Dask scheduler's address, or a ``distributed.Client``) the same chunks of seeds
    are played on its workers instead of local processes: every game is fixed by its own seed, so the rows are the same.
    """
    game = get_game(game_id)
    parse_options(game, options or {})
    for name in strategies:
        find_strategy(name, game_id)
    seeds = [f"{seed}:{i}" for i in range(games)]
    if cluster is not None:
        with cluster_threads(cluster) as (client, threads):
            chunks = _chunks(game_id, players, seeds, strategies, options, threads)
            rows = play_chunks_on_cluster(client, chunks, _chunk, progress)
        return _frame(rows)
    workers = workers or min(2, os.cpu_count() or 1)
    chunks = _chunks(game_id, players, seeds, strategies, options, workers)
    rows: list[dict] = []
    if workers <= 1 or len(chunks) == 1:
        for c in chunks:
            rows += _chunk(c)
            if progress:
                progress(len(c[2]))
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for c, got in zip(chunks, pool.map(_chunk, chunks)):
                rows += got
                if progress:
                    progress(len(c[2]))
    return _frame(rows)


def _chunks(game_id: str, players: Sequence[str], seeds: list[str], strategies: Sequence[str],
            options: Mapping[str, Any] | None, workers: int) -> list[tuple]:
    """Consecutive ranges of seeds: small enough that every worker finishes at about the same time
    (the last one waits for at most one chunk), large enough that handing them out costs nothing."""
    size = max(1, min(100, len(seeds) // (workers * 16)))
    return [(game_id, list(players), seeds[i:i + size], list(strategies), dict(options or {}))
            for i in range(0, len(seeds), size)]


def _frame(rows: list[dict]) -> pd.DataFrame:
    return pd.DataFrame(rows).fillna({c: 0 for c in {k for r in rows for k in r if k.startswith("fact:")}})

