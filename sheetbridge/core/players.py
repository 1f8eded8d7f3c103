"""Who may play: the names a game is set up with, checked against its player counts."""
from __future__ import annotations

from typing import Sequence

from .errors import UsageError
from .game import GameRules
from .outcome_text import plural


def check_players(game: GameRules, players: Sequence[str]) -> list[str]:
    """The names, trimmed, blanks left out; a UsageError says what is wrong (a repeat, a count
    outside the game's, a character no file or tab name may hold)."""
    names = [str(p).strip() for p in players if str(p).strip()]
    spec = game.spec
    if len(set(n.casefold() for n in names)) != len(names):
        raise UsageError("player names must be different (ignoring case): " + ", ".join(names))
    if not spec.min_players <= len(names) <= (spec.max_players or len(names)):
        most = spec.max_players
        wanted = (f"at least {plural(spec.min_players, 'player')}" if most is None
                  else plural(most, "player") if spec.min_players == most else f"{spec.min_players} to {most} players")
        raise UsageError(f"{spec.name} takes {wanted}; {len(names)} given")
    for n in names:
        if any(ch in n for ch in "/\\:*?\"<>|[]") or n.startswith("="):
            raise UsageError(f"player name {n!r} has a character that cannot be part of a file or tab name")
    return names
