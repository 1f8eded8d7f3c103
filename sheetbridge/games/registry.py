"""The registry of games: the built-in ones and those installed as plugins, by id.

It lives with the games, not in the core, so that the core imports nothing above it: the core
takes a :class:`~sheetbridge.core.game.GameRules` it is handed, and :mod:`sheetbridge.api` finds
one here by id. Listing the games (:func:`summaries`) imports no built-in game module, and
:func:`get_game` imports only the package of the game asked for (issue 31: a command imports the game
it plays, not the five); the installed plugins load only when the id is not a built-in game's, or
when every game is listed (:func:`games`, :func:`summaries`).
"""
from __future__ import annotations

from importlib import import_module
from importlib.util import find_spec
from typing import TYPE_CHECKING

from ..core.errors import UsageError
from . import GameSummary

if TYPE_CHECKING:   # GameRules (with the core's rng and hashlib) is imported to check a plugin, not to list the games
    from ..core.game import GameRules

PLUGIN_GROUP = "sheetbridge.games"   # entry points of installed game packages

# The built-in games, one package each: its __init__ holds SPEC (light), its GAME loads on first use.
BUILT_IN: tuple[str, ...] = tuple(f"{__package__}.{name}" for name in (
    "three_modular_rooms", "skeld", "bugcatcher", "big_machine", "flickering_lights"))

_REGISTRY: dict[str, GameRules] = {}
_PLUGIN_ERRORS: dict[str, str] = {}
_plugins_loaded = False
_built_in_registered = False


def register(game: GameRules) -> GameRules:
    """Add a game to the registry (a second game with the same id is refused, a built-in game's id
    too: it is taken even before that game is first played)."""
    if game.spec.id in _REGISTRY or (not _built_in_registered and _is_other_built_in(game)):
        raise ValueError(f"game id {game.spec.id!r} registered twice")
    _REGISTRY[game.spec.id] = game
    return game


def _is_other_built_in(game: GameRules) -> bool:
    """Whether the id of `game` belongs to a built-in game that is not `game` itself (read from the
    light specs; the built-in game is imported only when the ids match)."""
    module = _built_in_module(game.spec.id)
    return module is not None and import_module(module).GAME is not game


def present() -> tuple[str, ...]:
    """The built-in game modules that are installed (a trimmed install may leave one out)."""
    return tuple(module for module in BUILT_IN if find_spec(module) is not None)


def built_in_summary(module: str) -> GameSummary:
    """A built-in game's summary from its package's light ``SPEC`` (``games/<game>/__init__.py``
    imports its ``spec`` chapter only), without importing its rules."""
    return GameSummary.of_spec(import_module(module).SPEC, module)


def _built_in_module(game_id: str) -> str | None:
    """The built-in package whose light SPEC has this id, or None. The package named after the id
    (``big-machine``: ``games/big_machine``) is tried first, so that finding one game imports one spec;
    the other specs are read only when it is not there (a built-in game whose id is not its package's name)."""
    guess = f"{__package__}.{game_id.replace('-', '_')}"
    modules = present()
    for module in sorted(modules, key=lambda m: m != guess):
        if built_in_summary(module).id == game_id:
            return module
    return None


def _built_in_game(game_id: str) -> GameRules | None:
    """The built-in game of this id, registered on first use; only its own package is imported."""
    if game_id in _REGISTRY:
        return _REGISTRY[game_id]
    module = _built_in_module(game_id)
    if module is None:
        return None
    game: GameRules = import_module(module).GAME
    _REGISTRY[game.spec.id] = game
    return game


def _register_built_in() -> None:
    """Import every built-in game module present and register its GAME (once per process)."""
    global _built_in_registered
    if _built_in_registered:
        return
    _built_in_registered = True
    for module in present():
        game = import_module(module).GAME
        if _REGISTRY.get(game.spec.id) is not game:   # (one already played was registered by get_game)
            register(game)


def games() -> dict[str, GameRules]:
    """All games by id, in id order: the built-in ones and those installed as plugins."""
    _register_built_in()
    _load_plugins()
    return dict(sorted(_REGISTRY.items()))


def summaries() -> dict[str, GameSummary]:
    """Every game's :class:`~sheetbridge.games.GameSummary` (name, player counts, rounds) by id, in id
    order, like :func:`games` but without importing the built-in game modules. Plugins are loaded,
    since only they know their specs.

    >>> summaries()["skeld"].max_players
    4
    """
    found = {s.id: s for s in map(built_in_summary, present())}
    _load_plugins()
    for gid, game in _REGISTRY.items():   # plugins, and games registered by the caller
        found.setdefault(gid, GameSummary.of(game))
    return dict(sorted(found.items()))


def plugin_errors() -> dict[str, str]:
    """Plugins that failed to load: entry point name -> one line saying why."""
    _load_plugins()
    return dict(_PLUGIN_ERRORS)


def _load_plugins() -> None:
    """Register every game a package declares in the ``sheetbridge.games`` entry-point group.

    An entry point names a GameRules instance (``mygame.rules:GAME``), a GameRules subclass, or a
    module with a ``GAME``. One broken plugin never hides the others or the built-in games.
    """
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    from ..plugins import entry_points   # (importlib.metadata only when an installed package may declare one)
    for ep in entry_points(PLUGIN_GROUP):
        try:
            _add_plugin(ep.load(), ep.value)
        except Exception as e:   # a plugin's bug must not stop sheetbridge: reported by `games`
            first = str(e).splitlines()[0] if str(e) else ""
            _PLUGIN_ERRORS[ep.name] = f"{type(e).__name__}: {first}"[:300]


def _add_plugin(obj: object, where: str) -> None:
    from ..core.game import GameRules
    if isinstance(obj, type) and issubclass(obj, GameRules):
        obj = obj()
    game = obj if isinstance(obj, GameRules) else getattr(obj, "GAME", None)
    if not isinstance(game, GameRules):
        raise TypeError(f"{where} is not a GameRules game (nor a module with GAME)")
    known = _REGISTRY.get(game.spec.id)
    if known is None:
        known = _built_in_game(game.spec.id)   # a built-in game's id is taken even before it is played
    if known is not None and known is not game:
        raise ValueError(f"its game id {game.spec.id!r} is already taken by {type(known).__module__}")
    _REGISTRY[game.spec.id] = game


def get_game(game_id: str) -> GameRules:
    """The game registered under ``game_id``; a UsageError lists the known ids.

    A built-in game is found from the light specs and only its own package is imported; the
    plugins load only for an id that is no built-in game's."""
    game = _built_in_game(game_id)
    if game is None:
        _load_plugins()
        game = _REGISTRY.get(game_id)
    if game is None:
        known = ", ".join(summaries()) or "none"
        raise UsageError(f"unknown game {game_id!r}; known games: {known} (see `sheetbridge games`)")
    return game
