"""Simulate and balance a game: thousands of whole games with the pure API, and a balance report.

>>> df = play_games("three-modular-rooms", ["A", "B", "C"], games=4, seed=1, workers=1)
>>> len(df), list(df.columns[:4])
(4, ['game', 'rounds', 'ending', 'winners'])

A strategy is a plain function of what the player may see (:class:`PlayerView`: their form,
the facts they were told, their confessional) and a seeded rng, returning a submission as the
player would type it (section -> rows -> field -> text). It never sees the hidden state, so a
designer can write one in a few lines::

    def always_null(view, rng):
        hand = view.form.section("play").fields[0].choices
        return {"play": [{"card": hand[-1], "room": "Null"}]}

``random`` is the game's own random legal play (it reads the state only to list what is legal);
where the game's ``random_play`` says what parse would read from its text, the text is not read back.
The same seed gives the same games, the same tables and the same report, with any number of workers.
"""
from __future__ import annotations

import base64
import gc
import io
import math
import os
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Mapping, Sequence

import pandas as pd

from .core.errors import UsageError
from .core.facts import visible
from .core.game import get_game
from .core.match import Match, parse_options
from .core.rng import Rng
from .core.types import Form, RawSubmission, Report, Tables


class PlayerView:
    """What one player may know when submitting: never the hidden state.

    Each part is drawn when a strategy first reads it, so what a strategy never looks at costs nothing.
    """

    def __init__(self, match: Match, player: str, told: "_Told | None" = None) -> None:
        self.player = player
        self.round = match.round
        self._match = match
        self._told = told if told is not None else _Told()
        self._form: Form | None = None

    @property
    def form(self) -> Form:
        """The player's Submission form for this round."""
        if self._form is None:
            self._form = self._match.form(self.player)
        return self._form

    @property
    def facts(self) -> tuple[Any, ...]:
        """Every fact this player was told, oldest first."""
        return self._told.facts(self._match, self.player)

    @property
    def report(self) -> Report:
        """The player's confessional as text blocks (built on demand: it costs time)."""
        return self._match.player_report(self.player)

    def __repr__(self) -> str:
        return f"PlayerView(player={self.player!r}, round={self.round})"


class _Told:
    """Each player's told facts, kept up to date round by round rather than gathered again every round."""

    def __init__(self) -> None:
        self._seen: dict[str, tuple[int, list[Any]]] = {}   # player -> (rounds read, their facts)

    def facts(self, m: Match, player: str) -> tuple[Any, ...]:
        read, got = self._seen.get(player, (0, []))
        if read > len(m.rounds):       # rounds were undone: read them all again
            read, got = 0, []
        for rec in m.rounds[read:]:
            got.extend(visible(rec.facts, player))
        self._seen[player] = (len(m.rounds), got)
        return tuple(got)


Strategy = Callable[[PlayerView, Rng], "RawSubmission | None"]
STRATEGIES: dict[str, dict[str, Strategy]] = {}   # name -> game id ("*" for any game) -> function


def strategy(name: str, game_id: str = "*") -> Callable[[Strategy], Strategy]:
    """Register a strategy under `name` for one game (or every game with "*")."""
    def register(fn: Strategy) -> Strategy:
        STRATEGIES.setdefault(name, {})[game_id] = fn
        return fn
    return register


def find_strategy(name: str, game_id: str) -> Strategy:
    from . import strategies as _  # noqa: F401  (registers the shipped strategies)
    table = STRATEGIES.get(name, {})
    fn = table.get(game_id) or table.get("*")
    if fn is None:
        usable = sorted(n for n, t in STRATEGIES.items() if game_id in t or "*" in t)
        raise UsageError(f"no strategy {name!r} for {game_id}; strategies for it: {', '.join(usable)}")
    return fn


def _view(m: Match, player: str, told: _Told | None = None) -> PlayerView:
    return PlayerView(m, player, told)


def play_game(game_id: str, players: Sequence[str], seed: str, strategies: Sequence[str],
              options: Mapping[str, Any] | None = None, garnets: int = 10) -> dict:
    """One whole game; returns one row of results (plain data)."""
    m = Match.new(game_id, players, seed=seed, options=options, garnets={p: garnets for p in players},
                  tables=_default_tables(game_id))
    m.checks = False   # the purity check runs in the tests, not on every simulated round
    rng = Rng.from_seed(seed, "simulated players")
    fns = {p: find_strategy(strategies[i % len(strategies)], game_id) for i, p in enumerate(players)}
    told = _Told()
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
        from .templates import default_tables
        _TABLES[game_id] = default_tables(get_game(game_id))
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
               workers: int | None = None, progress: Callable[[int], None] | None = None) -> pd.DataFrame:
    """`games` whole games (seeds "<seed>:<i>"), one row each, in seed order whatever the workers."""
    game = get_game(game_id)
    parse_options(game, options or {})
    for name in strategies:
        find_strategy(name, game_id)
    seeds = [f"{seed}:{i}" for i in range(games)]
    workers = workers or min(2, os.cpu_count() or 1)
    # Chunks small enough that both workers finish together (the last one waits for at most one
    # chunk), large enough that handing them out costs nothing.
    size = max(1, min(100, games // (workers * 16)))
    chunks = [(game_id, list(players), seeds[i:i + size], list(strategies), dict(options or {}))
              for i in range(0, len(seeds), size)]
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
    return pd.DataFrame(rows).fillna({c: 0 for c in {k for r in rows for k in r if k.startswith("fact:")}})


# ------------------------------------------------------------ the balance report

def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion.

    >>> [round(x, 3) for x in wilson(50, 100)]
    [0.404, 0.596]
    """
    if n == 0:
        return (math.nan, math.nan)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class BalanceReport:
    game_id: str
    players: list[str]
    games: int
    seed: str
    strategies: list[str]
    by_seat: pd.DataFrame
    by_strategy: pd.DataFrame
    scores: pd.DataFrame
    garnets: pd.DataFrame
    lengths: pd.DataFrame
    endings: pd.DataFrame
    facts: pd.DataFrame
    options: pd.DataFrame
    data: pd.DataFrame

    def text(self) -> str:
        parts = [f"{self.game_id}: {self.games} games, {len(self.players)} players, seed {self.seed}, strategies "
                 f"{', '.join(self.strategies)}"]
        for title, df in (("Win and EC rates by seat (95% intervals)", self.by_seat),
                          ("By strategy", self.by_strategy), ("Scores", self.scores),
                          ("Garnets at the end", self.garnets), ("Game length (rounds)", self.lengths),
                          ("Endings", self.endings), ("Events per game (facts)", self.facts),
                          ("Host options that change the winners", self.options)):
            if not df.empty:
                parts += ["", title, df.to_string()]
        return "\n".join(parts)


def _rate_table(df: pd.DataFrame, n_seats: int, key: Callable[[int], str]) -> pd.DataFrame:
    rows = []
    for label, seats in _groups(n_seats, key).items():
        n = len(df) * len(seats)
        wins = sum(df[f"won:{i}"].sum() for i in seats)
        ecs = sum(df[f"ec:{i}"].sum() for i in seats)
        lo, hi = wilson(wins, n)
        elo, ehi = wilson(ecs, n)
        rows.append({"": label, "games": n, "win rate": wins / n, "win 95% low": lo, "win 95% high": hi,
                     "EC rate": ecs / n, "EC 95% low": elo, "EC 95% high": ehi})
    return pd.DataFrame(rows).set_index("").round(3)


def _groups(n: int, key: Callable[[int], str]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for i in range(n):
        out.setdefault(key(i), []).append(i)
    return out


def balance_report(game_id: str, players: Sequence[str], games: int, seed: int | str = 1,
                   strategies: Sequence[str] = ("random",), options: Mapping[str, Any] | None = None,
                   workers: int | None = None, option_games: int = 200,
                   progress: Callable[[int], None] | None = None) -> BalanceReport:
    """Play the games and summarise them: rates per seat and per strategy, distributions, endings,
    event counts, and how often each host option changes the winners (on the first `option_games`)."""
    players = list(players)
    df = play_games(game_id, players, games, seed, strategies, options, workers, progress)
    n = len(players)
    strat = {i: strategies[i % len(strategies)] for i in range(n)}
    by_seat = _rate_table(df, n, lambda i: f"seat {i + 1} ({players[i]}, {strat[i]})")
    by_strategy = _rate_table(df, n, lambda i: strat[i])
    scores = pd.DataFrame({players[i]: df[f"score:{i}"] for i in range(n)}).describe().T.round(2)
    garnets = pd.DataFrame({players[i]: df[f"garnets:{i}"] for i in range(n)}).describe().T.round(2)
    lengths = df["rounds"].value_counts().sort_index().rename_axis("rounds").to_frame("games")
    endings = df["ending"].value_counts().rename_axis("ending").to_frame("games")
    endings["share"] = (endings["games"] / len(df)).round(3)
    fact_cols = sorted(c for c in df.columns if c.startswith("fact:"))
    facts = (df[fact_cols].mean().rename(lambda c: c[5:]).to_frame("per game").round(2)
             if fact_cols else pd.DataFrame())
    opts = _option_effects(game_id, players, min(option_games, games), seed, strategies, options, workers, df)
    return BalanceReport(game_id, players, games, str(seed), list(strategies), by_seat, by_strategy, scores,
                         garnets, lengths, endings, facts, opts, df)


def _option_effects(game_id: str, players: Sequence[str], k: int, seed: int | str, strategies: Sequence[str],
                    options: Mapping[str, Any] | None, workers: int | None, base: pd.DataFrame) -> pd.DataFrame:
    game = get_game(game_id)
    chosen = parse_options(game, options or {})
    rows = []
    if k <= 0:
        return pd.DataFrame()
    for opt in game.spec.options:
        values = list(opt.choices) if opt.choices else ([not chosen[opt.name]] if isinstance(opt.default, bool)
                                                        else [])
        for value in values:
            if value == chosen[opt.name]:
                continue
            alt = play_games(game_id, players, k, seed, strategies, {**(options or {}), opt.name: value}, workers)
            changed = int((alt["winners"] != base["winners"].iloc[:k]).sum())
            rows.append({"option": opt.name, "value": str(value).lower() if isinstance(value, bool) else value,
                         "games": k, "winners changed": changed, "share": round(changed / k, 3)})
    return pd.DataFrame(rows).set_index(["option", "value"]) if rows else pd.DataFrame()


def html_report(rep: BalanceReport) -> str:
    """A self-contained HTML page: the tables, and plots where a designer would rather look."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    def png(fig) -> str:
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=90, bbox_inches="tight", metadata={"Software": None})
        plt.close(fig)
        return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode()

    n = len(rep.players)
    fig, ax = plt.subplots(figsize=(7, 3))
    seat = rep.by_seat
    ax.bar(range(len(seat)), seat["win rate"], yerr=[seat["win rate"] - seat["win 95% low"],
                                                     seat["win 95% high"] - seat["win rate"]], capsize=3)
    ax.axhline(1 / n, color="grey", linestyle="--", linewidth=1)
    ax.set_xticks(range(len(seat)), [s.split(" (")[0] for s in seat.index], rotation=45)
    ax.set_ylabel("win rate")
    ax.set_title("Win rate by seat (dashed: a fair share)")
    wins = png(fig)
    fig, ax = plt.subplots(figsize=(7, 3))
    ax.boxplot([rep.data[f"score:{i}"].dropna() for i in range(n)], showfliers=False)
    ax.set_xticks(range(1, n + 1), rep.players, rotation=45)
    ax.set_title("Final scores by seat")
    scores = png(fig)
    tables = "".join(f"<h2>{t}</h2>{df.to_html(border=0)}" for t, df in (
        ("Win and Elimination Candidate rates by seat (95% Wilson intervals)", rep.by_seat),
        ("By strategy", rep.by_strategy), ("Final scores", rep.scores), ("Garnets at the end", rep.garnets),
        ("Game length", rep.lengths), ("Endings and tie-break paths", rep.endings),
        ("Events per game (facts)", rep.facts), ("Host options that change the winners", rep.options))
        if not df.empty)
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{rep.game_id} balance</title>"
            "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}table{border-collapse:collapse}"
            "td,th{padding:2px 8px;text-align:right}tr:nth-child(even){background:#f3f3f3}</style></head><body>"
            f"<h1>{rep.game_id}: balance over {rep.games} games</h1>"
            f"<p>{n} players ({', '.join(rep.players)}), strategies {', '.join(rep.strategies)}, seed {rep.seed}. "
            "The same seed gives the same report.</p>"
            f"<img src='{wins}' alt='win rate by seat'><img src='{scores}' alt='scores by seat'>{tables}</body></html>")
