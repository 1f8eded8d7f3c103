"""The games, one package each, whose files are its chapters (see docs/architecture.md).

A game joins by adding its package here and its module name to ``BUILT_IN`` in
:mod:`sheetbridge.games.registry`. Importing this package imports no game; importing a game's
package imports only its light ``spec`` chapter (``SPEC``), which is all ``sheetbridge games``
reads; the rules load when the game is first played (each package's lazy ``__getattr__``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:   # the core's classes are not loaded to list the games
    from ..core.game import GameRules
    from ..core.spec import GameSpec


class GameSummary(NamedTuple):
    """What a list of games shows: the GameSpec's identity, player counts and length."""
    id: str
    name: str
    min_players: int
    max_players: int | None   # None: any number
    recommended_players: int | None
    rounds: int
    module: str     # where the game's GAME lives

    @classmethod
    def of(cls, game: GameRules) -> "GameSummary":
        module = type(game).__module__
        if module.startswith(f"{__name__}.") and module.count(".") > 2:   # a chapter of a game package:
            module = ".".join(module.split(".")[:3])                        # the game is the package
        return cls.of_spec(game.spec, module)

    @classmethod
    def of_spec(cls, s: GameSpec, module: str) -> "GameSummary":
        return cls(s.id, s.name, s.min_players, s.max_players, s.recommended_players, s.rounds, module)

