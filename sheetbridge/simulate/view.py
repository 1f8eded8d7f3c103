"""What a strategy may see, and the strategies' registry.

A strategy is a plain function of what the player may see (:class:`PlayerView`: their form, the
facts they were told, their confessional) and a seeded rng, returning a submission as the player
would type it. It never sees the hidden state. ``@strategy(name, game_id)`` registers one; the
shipped ones (``strategies/``, one module per game) import only this module, so nothing here
imports them back.
"""
from __future__ import annotations

from typing import Any, Callable

from ..core.facts import visible
from ..core.match import Match
from ..core.rng import Rng
from ..core.types import Form, RawSubmission, Report

class PlayerView:
    """What one player may know when submitting: never the hidden state.

    Each part is drawn when a strategy first reads it, so what a strategy never looks at costs nothing.
    """

    def __init__(self, match: Match, player: str, told: "FactsTold | None" = None) -> None:
        self.player = player
        self.round = match.round
        self._match = match
        self._told = told if told is not None else FactsTold()
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


class FactsTold:
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
