"""The verdict of a balance report: the answers a designer asks for first, as data, then in words.

Are the seats balanced, which strategy is strongest and by how much, which host options change the
outcome beyond noise (and how many games tell it), which facts never or always happen. Each answer
is a typed record computed from the games' rows (:func:`sheetbridge.simulate.play_games`); the text
and the HTML are drawn from the records, and ``BalanceReport.to_dict`` holds them as they are.

Statistics, kept plain: Wilson intervals for rates, a two-sided z test for a difference (pooled for
rates, Welch for means), Bonferroni over the figures compared at once so that nine seats or a dozen
figures do not cry wolf by chance, and the games needed per side to tell a difference the size seen
(95% confidence, 80% power).
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from statistics import NormalDist
from typing import Any, Sequence

import pandas as pd

from ..core.facts import Fact
from ..core.game import GameRules
from ..core.types import Option, registered_types

ALPHA = 0.05
POWER_Z = NormalDist().inv_cdf(0.80)
KIND_LABELS = {"content": "content: a different board or grid, not a rule change",
               "display": "display: changes only what is shown or told"}


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (another z for another confidence).

    >>> [round(x, 3) for x in wilson(50, 100)]
    [0.404, 0.596]
    """
    if n == 0:
        return (math.nan, math.nan)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def critical_z(comparisons: int) -> float:
    """The two-sided z beyond which one of `comparisons` figures differs at 5% overall (Bonferroni).

    >>> round(critical_z(1), 2), round(critical_z(9), 2)
    (1.96, 2.77)
    """
    return NormalDist().inv_cdf(1 - ALPHA / (2 * max(1, comparisons)))


# ------------------------------------------------------------ the records

@dataclass(frozen=True)
class SeatBalance:
    """The seats that play one strategy: balanced when every seat's interval holds their average."""
    strategy: str
    seats: tuple[str, ...]
    win_rates: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]
    average: float
    spread: float
    balanced: bool
    outliers: tuple[str, ...]


@dataclass(frozen=True)
class StrategyRanking:
    """Strategies by win rate per seat-game, strongest first, and the strongest's lead on the next."""
    order: tuple[str, ...]
    win_rates: tuple[float, ...]
    lead: float
    lead_low: float
    lead_high: float
    clear: bool


@dataclass(frozen=True)
class Figure:
    """One outcome figure under the chosen options and under another value of one option."""
    name: str
    base: float
    alt: float
    z: float
    games_to_tell: int | None   # per side; None when the figures are equal


@dataclass(frozen=True)
class OptionEffect:
    option: str
    value: str
    kind: str
    ruling: str
    games: int
    identical: bool             # every game ended exactly as under the chosen options
    winners_changed: float      # share of games (same seeds) whose winners differ
    beyond_noise: bool
    biggest: Figure | None


@dataclass(frozen=True)
class FactFiring:
    fact: str                   # the class name (the docs page's fact table)
    label: str                  # the words reports use
    share_of_games: float
    per_game: float


@dataclass(frozen=True)
class Verdict:
    games: int
    seats: tuple[SeatBalance, ...]
    strategies: StrategyRanking | None
    options_swept: bool
    options: tuple[OptionEffect, ...]
    facts: tuple[FactFiring, ...]

    @property
    def never(self) -> tuple[FactFiring, ...]:
        return tuple(f for f in self.facts if f.share_of_games == 0)

    @property
    def always(self) -> tuple[FactFiring, ...]:
        return tuple(f for f in self.facts if f.share_of_games == 1)


# ------------------------------------------------------------ computing them

def seat_balance(df: pd.DataFrame, seat_labels: Sequence[str],
                 strategy_of: Sequence[str]) -> tuple[SeatBalance, ...]:
    """For each strategy played by two seats or more: is any seat's win rate off their average?"""
    n = len(df)
    out = []
    for strat in sorted(set(strategy_of), key=list(strategy_of).index):
        seats = [i for i, s in enumerate(strategy_of) if s == strat]
        if len(seats) < 2 or n == 0:
            continue
        z = critical_z(len(seats))
        wins = [float(df[f"won:{i}"].sum()) for i in seats]
        rates = [w / n for w in wins]
        bounds = [wilson(w, n, z) for w in wins]
        average = sum(wins) / (n * len(seats))
        outliers = tuple(seat_labels[i] for i, (lo, hi) in zip(seats, bounds) if not lo <= average <= hi)
        out.append(SeatBalance(strat, tuple(seat_labels[i] for i in seats), _r(rates), _r(b[0] for b in bounds),
                               _r(b[1] for b in bounds), round(average, 3), round(max(rates) - min(rates), 3),
                               not outliers, outliers))
    return tuple(out)


def strategy_ranking(df: pd.DataFrame, strategy_of: Sequence[str]) -> StrategyRanking | None:
    """Strategies by wins per seat-game; the lead of the strongest on the next, with its 95% interval."""
    names = sorted(set(strategy_of))
    if len(names) < 2 or len(df) == 0:
        return None
    rate, count = {}, {}
    for s in names:
        seats = [i for i, x in enumerate(strategy_of) if x == s]
        count[s] = len(df) * len(seats)
        rate[s] = sum(float(df[f"won:{i}"].sum()) for i in seats) / count[s]
    order = sorted(names, key=lambda s: (-rate[s], s))
    a, b = order[0], order[1]
    lead = rate[a] - rate[b]
    se = math.sqrt(rate[a] * (1 - rate[a]) / count[a] + rate[b] * (1 - rate[b]) / count[b])
    low, high = lead - 1.96 * se, lead + 1.96 * se
    return StrategyRanking(tuple(order), _r(rate[s] for s in order), round(lead, 3), round(low, 3),
                           round(high, 3), low > 0)


def option_effect(option: Option, value: Any, base: pd.DataFrame, alt: pd.DataFrame,
                  players: Sequence[str]) -> OptionEffect:
    """How another value of one option changes the games played on the same seeds."""
    k = len(alt)
    base = base.iloc[:k].reset_index(drop=True)
    alt = alt.reset_index(drop=True)
    same = _outcome_columns(base, len(players))
    identical = base[same].equals(alt[same])
    changed = float((base["winners"] != alt["winners"]).mean()) if k else 0.0
    compared = [] if identical else _figures(base, alt, players)
    zc = critical_z(len(compared))
    figures = [replace(f, games_to_tell=_games_to_tell(f, var, zc)) for f, var in compared]
    biggest = max(figures, key=lambda f: (abs(f.z), f.name), default=None)
    beyond = biggest is not None and abs(biggest.z) > zc
    return OptionEffect(option.name, _text(value), option.kind, option.ruling, k, identical, round(changed, 3),
                        beyond, biggest and _rounded(biggest))


def fact_firing(game: GameRules, df: pd.DataFrame) -> tuple[FactFiring, ...]:
    """Every fact class of the game, with how often it happened: never, sometimes, in every game."""
    names = [c.__name__ for c in game_facts(game)]
    seen = [c[5:] for c in df.columns if c.startswith("fact:")]
    out = []
    for name in names + [s for s in seen if s not in names]:
        col = df[f"fact:{name}"] if f"fact:{name}" in df.columns else pd.Series(0, index=df.index)
        n = max(1, len(df))
        out.append(FactFiring(name, fact_label(game, name), round(float((col > 0).sum()) / n, 3),
                              round(float(col.sum()) / n, 2)))
    return tuple(out)


def game_facts(game: GameRules) -> list[type]:
    """The fact classes a game defines, in the order it defines them, in whichever of its
    package's chapters they stand (a built-in game is ``sheetbridge.games.<id>``, one module or a
    package; a plugin is its own top-level package)."""
    module = type(game).__module__
    parts = module.split(".")
    root = ".".join(parts[:3]) if module.startswith("sheetbridge.games.") else parts[0]
    return [c for c in registered_types()
            if issubclass(c, Fact) and c is not Fact and (c.__module__ == root or c.__module__.startswith(root + "."))]


def fact_label(game: GameRules, name: str) -> str:
    """The words for a fact class: the game's own, or its name split into words.

    >>> from sheetbridge.api import get_game
    >>> fact_label(get_game("bugcatcher"), "ActionStep")
    'action step'
    """
    named = getattr(game, "fact_names", {}) or {}
    if name in named:
        return named[name]
    return " ".join(w if w.isupper() else w.lower() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", name))


def _outcome_columns(df: pd.DataFrame, n: int) -> list[str]:
    cols = ["rounds", "ending", "winners", "losers", "ec"]
    return cols + [f"{k}:{i}" for i in range(n) for k in ("score", "garnets", "won", "ec")]


def _figures(base: pd.DataFrame, alt: pd.DataFrame,
             players: Sequence[str]) -> list[tuple[Figure, float]]:
    """Each outcome figure compared, with the sum of its two per-game variances."""
    out = []
    for i, p in enumerate(players):
        out.append(_rate_figure(f"seat {i + 1} ({p}) win rate", base[f"won:{i}"], alt[f"won:{i}"]))
        out.append(_rate_figure(f"seat {i + 1} ({p}) EC rate", base[f"ec:{i}"], alt[f"ec:{i}"]))
        out.append(_mean_figure(f"seat {i + 1} ({p}) mean score", base[f"score:{i}"], alt[f"score:{i}"]))
    out += _strategy_figures(base, alt, len(players))
    out.append(_mean_figure("mean game length (rounds)", base["rounds"], alt["rounds"]))
    return [(f, var) for f, var in out if not math.isnan(f.z)]


def _strategy_figures(base: pd.DataFrame, alt: pd.DataFrame, n: int) -> list[tuple[Figure, float]]:
    """The seats of one strategy together, one average a game (so that the games stay independent):
    a rule that moves every seat alike shows here sooner than on any one seat."""
    seats: dict[str, list[int]] = {}
    for i in range(n):
        seats.setdefault(str(base[f"strategy:{i}"].iloc[0]), []).append(i)
    out = []
    for strat, idx in seats.items():
        if len(idx) < 2:
            continue
        kinds = (("win rate", "won"), ("EC rate", "ec"), ("mean score", "score")) if len(seats) > 1 \
            else (("mean score", "score"),)   # one strategy: its seats' win and EC rates are fixed by the game
        for label, col in kinds:
            cols = [f"{col}:{i}" for i in idx]
            out.append(_mean_figure(f"{strat} seats' {label}", base[cols].astype(float).mean(axis=1),
                                    alt[cols].astype(float).mean(axis=1)))
    return out


def _rate_figure(name: str, a: pd.Series, b: pd.Series) -> tuple[Figure, float]:
    p1, p2 = float(a.mean()), float(b.mean())
    pooled = (p1 + p2) / 2
    se = math.sqrt(pooled * (1 - pooled) * 2 / len(a))
    return Figure(name, p1, p2, _z(p2 - p1, se), None), p1 * (1 - p1) + p2 * (1 - p2)


def _mean_figure(name: str, a: pd.Series, b: pd.Series) -> tuple[Figure, float]:
    a, b = a.dropna().astype(float), b.dropna().astype(float)
    if len(a) < 2 or len(b) < 2:
        return Figure(name, math.nan, math.nan, math.nan, None), math.nan
    se = math.sqrt(a.var() / len(a) + b.var() / len(b))
    return Figure(name, float(a.mean()), float(b.mean()), _z(float(b.mean() - a.mean()), se), None), \
        float(a.var() + b.var())


def _z(diff: float, se: float) -> float:
    if diff == 0:
        return 0.0
    return diff / se if se > 0 else math.copysign(math.inf, diff)


def _games_to_tell(f: Figure, variance: float, zc: float) -> int | None:
    """Games per side for a difference this size to stand out at 5% (Bonferroni) with 80% power."""
    d = f.alt - f.base
    if d == 0:
        return None
    return max(2, math.ceil((zc + POWER_Z) ** 2 * variance / (d * d)))


def _rounded(f: Figure) -> Figure:
    z = f.z if math.isinf(f.z) else round(f.z, 2)
    return Figure(f.name, round(f.base, 3), round(f.alt, 3), z, f.games_to_tell)


def _r(xs) -> tuple[float, ...]:
    return tuple(round(float(x), 3) for x in xs)


def _text(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


# ------------------------------------------------------------ in words

def verdict_lines(v: Verdict, option_games: int) -> list[str]:
    """The verdict in words, one answer a line, each starting with what it answers."""
    return [*_seats_lines(v), _strategies_line(v), *_options_lines(v, option_games), *_facts_lines(v)]


def _seats_lines(v: Verdict) -> list[str]:
    if not v.seats:
        return ["- Seats: no strategy plays two seats, so seats cannot be compared "
                "(play one strategy to compare them)."]
    lines = []
    for s in v.seats:
        where = f"{len(s.seats)} seats win {min(s.win_rates):.3f} to {max(s.win_rates):.3f} " \
                f"(spread {s.spread:.3f}, average {s.average:.3f})"
        if s.balanced:
            lines.append(f"- Seats ({s.strategy}): balanced: {where}; every seat's 95% interval holds the average.")
        else:
            lines.append(f"- Seats ({s.strategy}): NOT balanced: {where}; outside their 95% interval: "
                         f"{', '.join(s.outliers)}.")
    return lines


def _strategies_line(v: Verdict) -> str:
    r = v.strategies
    if r is None:
        return "- Strategies: only one played; compare two with --strategy random --strategy NAME."
    rates = ", ".join(f"{s} {x:.3f}" for s, x in zip(r.order, r.win_rates))
    how = "a clear lead" if r.clear else "within noise"
    return (f"- Strongest strategy: {r.order[0]}, ahead of {r.order[1]} by {r.lead:+.3f} wins per seat-game "
            f"(95% interval {r.lead_low:+.3f} to {r.lead_high:+.3f}: {how}); weakest: {r.order[-1]}. "
            f"Win rates per seat-game: {rates}.")


def _options_lines(v: Verdict, option_games: int) -> list[str]:
    if not v.options_swept:
        return ["- Host options: not compared (ask with --options all, or --options NAME,NAME=VALUE; "
                f"each value plays --option-games games, {option_games} now)."]
    beyond = [e for e in v.options if e.beyond_noise]
    noise = [e for e in v.options if not e.beyond_noise and not e.identical]
    nothing = [e for e in v.options if e.identical]
    k = v.options[0].games if v.options else 0
    lines = []
    if beyond:
        lines.append(f"- Options that change the outcome beyond noise ({k} games each): "
                     + "; ".join(_effect(e, True) for e in beyond) + ".")
    if noise:
        lines.append(f"- Options within noise in {k} games: " + "; ".join(_effect(e, False) for e in noise) + ".")
    if nothing:
        lines.append(f"- Options that change nothing in {k} games (every game ends the same): "
                     + ", ".join(_name(e) for e in nothing) + ".")
    return lines or ["- Host options: none has another value to compare."]


def _effect(e: OptionEffect, beyond: bool) -> str:
    f = e.biggest
    if f is None:
        return _name(e)
    tell = f"about {f.games_to_tell:,} games a side tell it" if f.games_to_tell else "no difference to tell"
    return f"{_name(e)} ({f.name} {f.base:.3f} -> {f.alt:.3f}; {tell})"


def _name(e: OptionEffect) -> str:
    label = f" [{KIND_LABELS[e.kind]}]" if e.kind in KIND_LABELS else ""
    return f"{e.option}={e.value}{label}"


def _facts_lines(v: Verdict) -> list[str]:
    lines = []
    if v.never:
        lines.append(f"- Never happened in {v.games:,} games: " + ", ".join(f.label for f in v.never) + ".")
    if v.always:
        lines.append("- Happened in every game: " + ", ".join(f.label for f in v.always) + ".")
    return lines
