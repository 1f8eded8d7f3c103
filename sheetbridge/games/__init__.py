"""The games, one module each, and a catalogue of them that costs nothing to read.

A game joins by adding its module and its line in ``CATALOGUE``. Importing this package imports
no game: the registry (:mod:`sheetbridge.games.registry`) imports the modules present and
registers each one's ``GAME`` when the games are first asked for. ``sheetbridge games`` lists
the catalogue instead, because importing the five modules takes about 0.1 s (defining their ~140 fact
classes), more than the whole command may take; tests/test_cli_startup.py checks that every
line agrees with its module's :class:`~sheetbridge.core.types.GameSpec`.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:   # the core's classes are not loaded to list the games
    from ..core.game import GameRules
    from ..core.types import GameSpec


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


CATALOGUE = (
    GameSummary("three-modular-rooms", "Three Modular Rooms", 1, None, 9, 11, f"{__name__}.three_modular_rooms"),
    GameSummary("skeld", "Skeld", 4, 4, 4, 8, f"{__name__}.skeld"),
    GameSummary("bugcatcher", "Bugcatcher", 2, 12, 9, 7, f"{__name__}.bugcatcher"),
    GameSummary("big-machine", "The Big Machine", 4, 8, 8, 7, f"{__name__}.big_machine"),
    GameSummary("flickering-lights", "Flickering Lights", 7, 7, 7, 5, f"{__name__}.flickering_lights"),
)
