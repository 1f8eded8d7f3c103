"""The games, one module each, and a catalogue of them that costs nothing to read.

A game joins by adding its module and its line in ``CATALOGUE``. Importing this package imports
no game: :func:`sheetbridge.core.game.games` calls :func:`register_built_in`, which imports the
modules present and registers each one's ``GAME``. ``sheetbridge games`` lists the catalogue
instead, because importing the five modules takes about 0.1 s (defining their ~140 fact
classes), more than the whole command may take; tests/test_cli_startup.py checks that every
line agrees with its module's :class:`~sheetbridge.core.types.GameSpec`.
"""
from __future__ import annotations

from importlib import import_module
from importlib.util import find_spec
from typing import NamedTuple


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
    def of(cls, game) -> "GameSummary":
        s = game.spec
        return cls(s.id, s.name, s.min_players, s.max_players, s.recommended_players, s.rounds,
                   type(game).__module__)


CATALOGUE = (
    GameSummary("three-modular-rooms", "Three Modular Rooms", 1, None, 9, 11, f"{__name__}.three_modular_rooms"),
    GameSummary("skeld", "Skeld", 4, 4, 4, 8, f"{__name__}.skeld"),
    GameSummary("bugcatcher", "Bugcatcher", 2, 12, 9, 7, f"{__name__}.bugcatcher"),
    GameSummary("big-machine", "The Big Machine", 4, 8, 8, 7, f"{__name__}.big_machine"),
    GameSummary("flickering-lights", "Flickering Lights", 7, 7, 7, 5, f"{__name__}.flickering_lights"),
)


def present() -> tuple[GameSummary, ...]:
    """The catalogue's games whose module is installed (a trimmed install may leave one out)."""
    return tuple(g for g in CATALOGUE if find_spec(g.module) is not None)


def register_built_in(register) -> None:
    """Import every game module present and pass its GAME to `register` (once per process)."""
    global _registered
    if _registered:
        return
    _registered = True
    for g in present():
        register(import_module(g.module).GAME)


_registered = False
