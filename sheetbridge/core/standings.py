"""Standings: each player's score per round and in total, in the game's own units, drawn from facts.

A game says how to read its score from one round's facts (``GameRules.round_scores``: typed
:class:`RoundScore` rows), its unit ("fireflies", "points") and how its ties are broken; this
module adds them up, ranks the players and names the ties. Privacy comes from
:func:`~sheetbridge.core.facts.visible`: the game only ever reads the facts the viewer may know,
so the public standings of a game whose points are private show no number until the rules
reveal them, and the host's show everything.

>>> rows = rank_rows({"Ann": 3, "Bo": 3, "Cy": 1}, ["Ann", "Bo", "Cy"], "points", "")
>>> [(r.player, r.rank, r.tie) for r in rows]
[('Ann', 1, 'tied with Bo'), ('Bo', 1, 'tied with Ann'), ('Cy', 3, '')]
>>> [r.rank for r in rank_rows({"Ann": 3, "Bo": None}, ["Ann", "Bo"], "points", "")]   # Bo's unknown: no ranks
[None, None]
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from .facts import HOST, visible
from .types import register_types

Number = int | float


@dataclass(frozen=True)
class RoundScore:
    """A player's score in one round as the game reads it from that round's facts: ``score`` is
    what the round column shows (the points gained, or the level reached for a game whose score is
    a level, like a machine's points); ``total`` the total after the round when the facts say it
    (else the total is the sum of the rounds)."""
    player: str
    score: Number | None
    total: Number | None = None
    round: int | None = None   # the round it belongs to, when a later round restates it (a hidden round revealed)


@dataclass(frozen=True)
class Place:
    """A final place the rules decided (the end of the game), with how a tie was settled."""
    player: str
    place: int
    tie: str = ""


@dataclass(frozen=True)
class StandingRow:
    player: str
    rounds: tuple[Number | None, ...]   # one per Standings.rounds; None: not known to this viewer
    total: Number | None
    rank: int | None                    # None: the total is not known to this viewer
    tie: str = ""                       # "tied with Bo" and what breaks it, or how it was settled


@dataclass(frozen=True)
class Standings:
    game: str
    unit: str
    rounds: tuple[int, ...]
    rows: tuple[StandingRow, ...]
    tie_rule: str = ""
    final: bool = False
    viewer: str = "host"                 # "host", "public" or a player's name
    notes: tuple[str, ...] = field(default=())

    def table(self) -> list[list[Any]]:
        """Header and one row per player, best first: the cells of the Standings tab and of the CLI."""
        head = ["rank", "player"] + [f"round {r}" for r in self.rounds] + [f"total {self.unit}", "tie-break"]
        body = [[r.rank if r.rank is not None else "?", r.player]
                + ["?" if v is None else _num(v) for v in r.rounds]
                + ["?" if r.total is None else _num(r.total), r.tie] for r in self.rows]
        return [head] + body

    def text(self) -> str:
        rows = [[str(c) for c in row] for row in self.table()]
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        lines = ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in rows]
        title = f"{self.game}: standings ({'final' if self.final else 'so far'}, in {self.unit})"
        extra = [f"Ties: {self.tie_rule}"] if self.tie_rule else []
        return "\n".join([title] + lines + extra + list(self.notes))


def _num(v: Number) -> Number:
    return int(v) if isinstance(v, float) and v.is_integer() else v


def rank_rows(totals: Mapping[str, Number | None], players: Sequence[str], unit: str, tie_rule: str,
              rounds: Mapping[str, tuple[Number | None, ...]] | None = None) -> list[StandingRow]:
    """Rows best first: competition ranking (1, 1, 3) on the totals, when every total is known to the
    viewer (else no rank, in seat order). Ties name the others tied (no order among them is
    invented: seat order only lists them)."""
    known_totals: dict[str, Number] = {p: t for p in players if (t := totals.get(p)) is not None}
    known = sorted(known_totals, key=lambda p: -known_totals[p])
    if len(known) < len(players):   # a rank among the totals one knows would mislead (a player sees only theirs)
        return [StandingRow(p, (rounds or {}).get(p, ()), totals.get(p), None) for p in players]
    rows = []
    for p in known:
        rank = 1 + sum(1 for q in known if known_totals[q] > known_totals[p])
        tied = [q for q in known if q != p and known_totals[q] == known_totals[p]]
        tie = f"tied with {', '.join(tied)}" if tied else ""
        rows.append(StandingRow(p, (rounds or {}).get(p, ()), totals[p], rank, tie))
    rows += [StandingRow(p, (rounds or {}).get(p, ()), None, None) for p in players if totals.get(p) is None]
    return rows


def standings(game: Any, rounds: Sequence[Any], players: Sequence[str], viewer: str | None = HOST,
              final_scores: Mapping[str, Number] | None = None, end_facts: Sequence[Any] = ()) -> Standings:
    """The standings after ``rounds`` (RoundRecords, each with ``round`` and ``facts``) as ``viewer``
    may know them (HOST: the host; None: the public; a name: that player). ``final_scores`` and
    ``end_facts``: the outcome's scores and records once the game is over (the end makes them public)."""
    unit = getattr(game, "score_unit", "") or "points"
    tie_rule = getattr(game, "tie_rule", "")
    shown = tuple(rec.round for rec in rounds)
    per_round: dict[str, list[Number | None]] = {p: [None] * len(shown) for p in players}
    totals: dict[str, Number | None] = {p: None for p in players}
    summed: dict[str, Number] = {}
    total_at: dict[str, int] = {}
    places: list[Place] = []
    scored = [bool(game.round_scores(rec.facts)) for rec in rounds]   # a pregame round scores nothing
    for i, rec in enumerate(rounds):
        seen = visible(rec.facts, viewer)
        if viewer == HOST and scored[i]:   # the host knows everything: no score is a score of 0
            for p in players:
                per_round[p][i] = 0
                if totals[p] is None:   # (so a player who has scored nothing yet is ranked, at 0)
                    totals[p] = 0
        for s in game.round_scores(seen):
            if s.player not in per_round:
                continue
            col = shown.index(s.round) if s.round in shown else i
            if s.score is not None and s.round is not None:   # a round's own figure, maybe restated later
                per_round[s.player][col] = s.score
            elif s.score is not None:   # several rows in a round add up (Skeld: one per component)
                per_round[s.player][col] = (per_round[s.player][col] or 0) + s.score
            at = s.round if s.round is not None else rec.round
            if s.total is not None:
                if at >= total_at.get(s.player, at):   # a restated earlier round's total is not the total now
                    totals[s.player], total_at[s.player] = s.total, at
            elif s.score is not None:
                summed[s.player] = summed.get(s.player, 0) + s.score
                totals[s.player] = summed[s.player]
        places = list(game.final_places(seen)) or places
    if end_facts:   # the outcome's own records (Flickering Lights' five-round totals), not a round's column
        seen = visible(end_facts, viewer)
        totals.update({s.player: s.total for s in game.round_scores(seen)
                       if s.player in totals and s.total is not None})
        places = list(game.final_places(seen)) or places
    if final_scores and getattr(game, "outcome_scores_are_totals", True):   # the end publishes every final score
        totals.update({p: v for p, v in final_scores.items() if p in totals and totals[p] is None})
    keep = [i for i, s in enumerate(scored) if s]
    shown = tuple(shown[i] for i in keep)
    rows = rank_rows(totals, players, unit, tie_rule, {p: tuple(v[i] for i in keep) for p, v in per_round.items()})
    if places:
        rows = _with_places(rows, places)
    who = "host" if viewer == HOST else "public" if viewer is None else viewer
    return Standings(getattr(game.spec, "name", ""), unit, shown, tuple(rows), tie_rule,
                     bool(final_scores) or bool(places), who)


def _with_places(rows: list[StandingRow], places: Sequence[Place]) -> list[StandingRow]:
    """The rules' final places replace the ranking by totals (a tie settled by missions, a vote...)."""
    by = {pl.player: pl for pl in places}
    placed = sorted((r for r in rows if r.player in by), key=lambda r: by[r.player].place)
    rest = [r for r in rows if r.player not in by]
    return [StandingRow(r.player, r.rounds, r.total, by[r.player].place, by[r.player].tie or r.tie)
            for r in placed] + rest


register_types(RoundScore, Place, StandingRow, Standings)
