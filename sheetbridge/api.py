"""sheetbridge from Python: find a game, load its default tables, build a match and play it.

The core (:mod:`sheetbridge.core`) takes a game and its tables as it is handed them; this module
finds a game by id (:mod:`sheetbridge.games.registry`, built-in games and plugins) and reads its
default content tables (``templates/<game-id>/``), so a game runs from Python with no sheet:

>>> m = new_match("three-modular-rooms", ["Ann", "Bo", "Cy"], seed=7, garnets={"Ann": 10, "Bo": 10, "Cy": 10})
>>> m.round, m.players
(1, ['Ann', 'Bo', 'Cy'])
>>> sub = m.parse("Ann", {"play": [{"card": "3", "room": "Null"}]})   # what resolve will read
>>> sub.values["card"], sub.values["room"], sub.problems
(3, 'Null', ())
>>> rec = m.resolve({"Ann": {"play": [{"card": "3", "room": "Null"}]}, "Bo": None})
>>> rec.round, m.round, rec.problems()[0]
(1, 2, "Bo: no submission; the rules' default was applied")
>>> back = load_match(m.to_json())                  # the record, as the master workbook keeps it
>>> back.state == m.state
True

Every name here is re-exported by :mod:`sheetbridge` (``from sheetbridge import new_match``).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from .core import match as _match
from .core.game import GameRules
from .core.ledger import LedgerRow
from .core.match import Match
from .core.types import Tables
from .games.registry import games, get_game, plugin_errors, register, summaries
from .templates import default_tables as _template_tables

__all__ = ["GameRules", "Match", "default_tables", "games", "get_game", "load_match", "match_from_position",
           "new_match", "play_random", "plugin_errors", "register", "summaries"]

GameLike = GameRules | str   # a game, or the id of a registered one


def game_of(game: GameLike) -> GameRules:
    """`game` itself, or the registered game of that id (a UsageError lists the known ids)."""
    return game if isinstance(game, GameRules) else get_game(game)


def default_tables(game: GameLike) -> Tables:
    """The game's default content tables: its own (a plugin's) or sheetbridge's templates/<game-id>/ CSVs."""
    return _template_tables(game_of(game))


def new_match(game: GameLike, players: Sequence[str], *, options: Mapping[str, Any] | None = None,
              seed: int | str = 0, garnets: Mapping[str, int] | None = None, tables: Tables | None = None,
              name: str | None = None) -> Match:
    """Set up a new game (`game`: a GameRules or a registered id) with its default tables unless
    `tables` are given. ``options`` may hold text as typed in the Config tab."""
    rules = game_of(game)
    return Match.new(rules, players, options=options, seed=seed, garnets=garnets, name=name,
                     tables=default_tables(rules) if tables is None else tables)


def match_from_position(game: GameLike, players: Sequence[str], position: Mapping[str, Any], *,
                        options: Mapping[str, Any] | None = None, seed: int | str = 0,
                        garnets: Mapping[str, int] | None = None, tables: Tables | None = None,
                        name: str | None = None) -> Match:
    """A game opened at a given round and position (see the game's docs page for the keys).
    An impossible position raises :class:`~sheetbridge.core.errors.PositionError` naming what is wrong."""
    rules = game_of(game)
    return Match.from_position(rules, players, position, options=options, seed=seed, garnets=garnets,
                               name=name, tables=default_tables(rules) if tables is None else tables)


def load_match(record: Mapping[str, Any], ledger_rows: Sequence[LedgerRow] | None = None,
               tables: Tables | None = None, *, game: GameRules | None = None) -> Match:
    """A match from its record (:meth:`Match.to_json`), of the game the record names (or `game`).
    The ledger is the record's own unless `ledger_rows` is given; `tables`: the host's tables now."""
    return Match.from_json(game or get_game(record["game"]), record, ledger_rows, tables=tables)


def play_random(game: GameLike, players: Sequence[str], seed: int | str = 0, *, skip_chance: float = 0.1,
                garnets: int = 10, options: Mapping[str, Any] | None = None,
                tables: Tables | None = None) -> Match:
    """Play a whole game with random legal submissions, purely in memory.

    >>> play_random("three-modular-rooms", ["Ann", "Bo", "Cy"], seed=1).finished
    True
    """
    rules = game_of(game)
    return _match.play_random(rules, players, seed, skip_chance=skip_chance, garnets=garnets, options=options,
                              tables=default_tables(rules) if tables is None else tables)
