"""The balance report: the verdict first, then the tables, as text, HTML or JSON.

>>> rep = balance_report("three-modular-rooms", ["A", "B", "C"], games=6, seed=1, workers=1)
>>> rep.text().splitlines()[1]
'Verdict'
>>> sorted(rep.to_dict())[:3]
['game', 'games', 'option_games']
"""
from __future__ import annotations

import base64
import dataclasses
import io
import json
import math
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import Any, Callable, ContextManager, Iterator, Mapping, Sequence

import pandas as pd

from ..core.errors import UsageError
from ..api import get_game
from ..core.game import GameRules
from ..core.match import parse_options
from ..core.types import Option
from .cluster import connected
from .play import play_games
from .verdict import (KIND_LABELS, Verdict, fact_firing, option_effect, seat_balance, strategy_ranking,
                               verdict_lines, wilson)

# A phase of work and its number of games -> a context holding the function told of games done.
Progress = Callable[[str, int], ContextManager[Callable[[int], None]]]

TABLES = (("by_seat", "Win and EC rates by seat (95% intervals)"), ("by_strategy", "By strategy"),
          ("scores", "Scores"), ("garnets", "Garnets at the end"), ("lengths", "Game length (rounds)"),
          ("endings", "Endings"), ("facts", "Events per game (facts)"),
          ("options", "Host options compared (same seeds; kind: rule, content or display)"))


@dataclass
class BalanceReport:
    game_id: str
    players: list[str]
    games: int
    seed: str
    strategies: list[str]
    option_games: int
    verdict: Verdict
    by_seat: pd.DataFrame
    by_strategy: pd.DataFrame
    scores: pd.DataFrame
    garnets: pd.DataFrame
    lengths: pd.DataFrame
    endings: pd.DataFrame
    facts: pd.DataFrame
    options: pd.DataFrame
    data: pd.DataFrame

    def title(self) -> str:
        return (f"{self.game_id}: {self.games:,} games, {len(self.players)} players, seed {self.seed}, "
                f"strategies {', '.join(self.strategies)}")

    def verdict_lines(self) -> list[str]:
        return verdict_lines(self.verdict, self.option_games)

    def text(self) -> str:
        """The title, the verdict, then the tables."""
        parts = [self.title(), "Verdict", *self.verdict_lines()]
        for key, title in TABLES:
            df = getattr(self, key)
            if not df.empty:
                parts += ["", title, df.to_string()]
        return "\n".join(parts)

    def to_dict(self) -> dict[str, Any]:
        """Every figure of the report as plain data (JSON-able; NaN as None): the verdict as its
        records, each table as rows. The games themselves are `data` (a DataFrame, a row a game)."""
        out = {"game": self.game_id, "players": list(self.players), "games": self.games, "seed": self.seed,
               "strategies": list(self.strategies), "option_games": self.option_games,
               "verdict": {**dataclasses.asdict(self.verdict),
                           "lines": self.verdict_lines()},
               "tables": {key: _rows(getattr(self, key)) for key, _ in TABLES}}
        return _plain(out)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1, ensure_ascii=False, allow_nan=False)


def _rows(df: pd.DataFrame) -> list[dict[str, Any]]:
    if df.empty:
        return []
    flat = df.reset_index()
    flat.columns = [str(c) or "name" for c in flat.columns]
    return flat.to_dict(orient="records")


def _plain(x: Any) -> Any:
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if hasattr(x, "item") and not isinstance(x, (str, bytes)):   # numpy scalars
        x = x.item()
    if isinstance(x, float) and not math.isfinite(x):
        return None if math.isnan(x) else ("inf" if x > 0 else "-inf")
    return x


# ------------------------------------------------------------ playing and summarising

def sweep_plan(game: GameRules, chosen: Mapping[str, Any],
               which: str | Sequence[str] | None) -> list[tuple[Option, Any]]:
    """The (option, value) pairs to compare: none unless asked; "all" is every other value of every
    option that has a list of values (or is true/false); a name is that option's other values;
    "name=value" is that value."""
    if not which:
        return []
    items = [w.strip() for w in (which.split(",") if isinstance(which, str) else which) if w.strip()]
    if items == ["all"]:
        return [(o, v) for o in game.spec.options for v in _other_values(o, chosen[o.name])]
    plan = []
    for item in items:
        name, _, text = item.partition("=")
        try:
            opt = game.spec.option(name.strip())
        except KeyError:
            raise UsageError(f"--options: {game.spec.id} has no option {name.strip()!r}; use all or some of: "
                             f"{', '.join(o.name for o in game.spec.options)}") from None
        if text:
            try:
                values = [opt.parse(text)]
            except ValueError as e:
                raise UsageError(f"--options: {e}") from None
        else:
            values = _other_values(opt, chosen[opt.name])
            if not values:
                raise UsageError(f"--options: {opt.name} has no list of values; name one other than the "
                                 f"{chosen[opt.name]!r} played, as --options {opt.name}=VALUE")
        if values == [chosen[opt.name]]:
            raise UsageError(f"--options: {opt.name}={text.strip()} is the value every game already plays; "
                             f"name another to compare with it")
        plan += [(opt, v) for v in values if v != chosen[opt.name]]
    return plan


def _other_values(opt: Option, chosen: Any) -> list[Any]:
    values = list(opt.choices) if opt.choices else ([True, False] if isinstance(opt.default, bool) else [])
    return [v for v in values if v != chosen]


def planned_games(game_id: str, games: int, options: Mapping[str, Any] | None, sweep: str | Sequence[str] | None,
                  option_games: int) -> tuple[int, int]:
    """(games compared per option value, option values compared): what a run will play, to announce first."""
    game = get_game(game_id)
    plan = sweep_plan(game, parse_options(game, options or {}), sweep)
    return min(option_games, games), len(plan)


def balance_report(game_id: str, players: Sequence[str], games: int, seed: int | str = 1,
                   strategies: Sequence[str] = ("random",), options: Mapping[str, Any] | None = None,
                   workers: int | None = None, option_games: int = 200, sweep: str | Sequence[str] | None = None,
                   progress: Progress | None = None, cluster: str | None = None) -> BalanceReport:
    """Play the games and summarise them: the verdict, rates per seat and per strategy, distributions,
    endings, facts, and, when `sweep` asks, how other host option values change the outcome (on the
    first `option_games` seeds)."""
    players, strategies = list(players), list(strategies)
    game = get_game(game_id)
    plan = sweep_plan(game, parse_options(game, options or {}), sweep)
    k = min(option_games, games)
    with _cluster(cluster) as client:   # one connection for every phase
        with _phase(progress, f"{game_id} games", games) as tick:
            df = play_games(game_id, players, games, seed, strategies, options, workers, tick, client)
        effects = []
        with _phase(progress, "option values", k * len(plan)) if plan else nullcontext(None) as tick:
            for opt, value in plan:
                alt = play_games(game_id, players, k, seed, strategies, {**(options or {}), opt.name: value},
                                 workers, tick, client)
                effects.append(option_effect(opt, value, df, alt, players))
    n = len(players)
    strat = [strategies[i % len(strategies)] for i in range(n)]
    seat_labels = [f"seat {i + 1} ({players[i]}, {strat[i]})" for i in range(n)]
    verdict = Verdict(games, seat_balance(df, seat_labels, strat), strategy_ranking(df, strat), bool(plan),
                      tuple(effects), fact_firing(game, df))
    return BalanceReport(game_id, players, games, str(seed), strategies, k, verdict,
                         _rate_table(df, n, lambda i: seat_labels[i]), _rate_table(df, n, lambda i: strat[i]),
                         _describe(df, players, "score"), _describe(df, players, "garnets"),
                         df["rounds"].value_counts().sort_index().rename_axis("rounds").to_frame("games"),
                         _endings(df), _facts_table(verdict), _options_table(effects), df)


def _cluster(cluster: Any) -> ContextManager[Any]:
    if cluster is None:
        return nullcontext(None)
    return connected(cluster)


@contextmanager
def _phase(progress: Progress | None, name: str, total: int) -> Iterator[Callable[[int], None] | None]:
    if progress is None:
        yield None
    else:
        with progress(name, total) as tick:
            yield tick


def _rate_table(df: pd.DataFrame, n_seats: int, key: Callable[[int], str]) -> pd.DataFrame:
    groups: dict[str, list[int]] = {}
    for i in range(n_seats):
        groups.setdefault(key(i), []).append(i)
    rows = []
    for label, seats in groups.items():
        n = len(df) * len(seats)
        wins = sum(df[f"won:{i}"].sum() for i in seats)
        ecs = sum(df[f"ec:{i}"].sum() for i in seats)
        lo, hi = wilson(wins, n)
        elo, ehi = wilson(ecs, n)
        rows.append({"": label, "games": n, "win rate": wins / n, "win 95% low": lo, "win 95% high": hi,
                     "EC rate": ecs / n, "EC 95% low": elo, "EC 95% high": ehi})
    return pd.DataFrame(rows).set_index("").round(3)


def _describe(df: pd.DataFrame, players: Sequence[str], what: str) -> pd.DataFrame:
    return pd.DataFrame({p: df[f"{what}:{i}"] for i, p in enumerate(players)}).describe().T.round(2)


def _endings(df: pd.DataFrame) -> pd.DataFrame:
    endings = df["ending"].value_counts().rename_axis("ending").to_frame("games")
    endings["share"] = (endings["games"] / len(df)).round(3)
    return endings


def _facts_table(v: Verdict) -> pd.DataFrame:
    if not v.facts:
        return pd.DataFrame()
    return pd.DataFrame([{"fact": f.label, "per game": f.per_game, "share of games": f.share_of_games}
                         for f in v.facts]).set_index("fact")


def _options_table(effects: Sequence[Any]) -> pd.DataFrame:
    if not effects:
        return pd.DataFrame()
    rows = []
    for e in effects:
        f = e.biggest
        rows.append({"option": e.option, "value": e.value, "kind": e.kind, "ruling": e.ruling, "games": e.games,
                     "winners changed": e.winners_changed,
                     "outcome": "same games" if e.identical else ("beyond noise" if e.beyond_noise else "noise"),
                     "biggest change": f.name if f else "", "from": f.base if f else math.nan,
                     "to": f.alt if f else math.nan, "z": f.z if f else math.nan,
                     "games to tell": f.games_to_tell if f and f.games_to_tell else math.nan})
    return pd.DataFrame(rows).set_index(["option", "value"])


# ------------------------------------------------------------ HTML

def html_report(rep: BalanceReport) -> str:
    """A self-contained HTML page: the verdict first, then plots and the tables."""
    import html

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
    verdict = "".join(f"<li>{html.escape(line[2:])}</li>" for line in rep.verdict_lines())
    tables = "".join(f"<h2>{html.escape(t)}</h2>{getattr(rep, k).to_html(border=0)}" for k, t in TABLES
                     if not getattr(rep, k).empty)
    kinds = "".join(f"<li><b>{k}</b>: {html.escape(v.split(': ', 1)[1])}</li>" for k, v in KIND_LABELS.items())
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{rep.game_id} balance</title>"
            "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}table{border-collapse:collapse}"
            "td,th{padding:2px 8px;text-align:right}tr:nth-child(even){background:#f3f3f3}</style></head><body>"
            f"<h1>{html.escape(rep.title())}</h1><h2>Verdict</h2><ul id='verdict'>{verdict}</ul>"
            f"<p>The same seed gives the same report. Option kinds:</p><ul>{kinds}</ul>"
            f"<img src='{wins}' alt='win rate by seat'><img src='{scores}' alt='scores by seat'>{tables}</body></html>")
