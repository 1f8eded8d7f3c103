"""The registry of games: the built-in ones and those installed as plugins, by id.

It lives with the games, not in the core, so that the core imports nothing above it: the core
takes a :class:`~sheetbridge.core.game.GameRules` it is handed, and :mod:`sheetbridge.api` finds
one here by id. Listing the games (:func:`summaries`) imports no built-in game module.
"""
from __future__ import annotations

from importlib import import_module
from importlib.util import find_spec

from ..core.errors import UsageError
from ..core.game import GameRules
from . import GameSummary

PLUGIN_GROUP = "sheetbridge.games"   # entry points of installed game packages

# The built-in games, one package each: its __init__ holds SPEC (light), its GAME loads on first use.
BUILT_IN: tuple[str, ...] = tuple(f"{__package__}.{name}" for name in (
    "three_modular_rooms", "skeld", "bugcatcher", "big_machine", "flickering_lights"))

_REGISTRY: dict[str, GameRules] = {}
_PLUGIN_ERRORS: dict[str, str] = {}
_plugins_loaded = False
_built_in_registered = False


def register(game: GameRules) -> GameRules:
    """Add a game to the registry (a second game with the same id is refused)."""
    if game.spec.id in _REGISTRY:
        raise ValueError(f"game id {game.spec.id!r} registered twice")
    _REGISTRY[game.spec.id] = game
    return game


def present() -> tuple[str, ...]:
    """The built-in game modules that are installed (a trimmed install may leave one out)."""
    return tuple(module for module in BUILT_IN if find_spec(module) is not None)


def built_in_summary(module: str) -> GameSummary:
    """A built-in game's summary from its package's light ``SPEC`` (``games/<game>/__init__.py``
    imports its ``spec`` chapter only), without importing its rules."""
    return GameSummary.of_spec(import_module(module).SPEC, module)


def _register_built_in() -> None:
    """Import every built-in game module present and register its GAME (once per process)."""
    global _built_in_registered
    if _built_in_registered:
        return
    _built_in_registered = True
    for module in present():
        register(import_module(module).GAME)


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
    from importlib.metadata import entry_points
    for ep in sorted(entry_points(group=PLUGIN_GROUP), key=lambda e: e.name):
        try:
            _add_plugin(ep.load(), ep.value)
        except Exception as e:   # a plugin's bug must not stop sheetbridge: reported by `games`
            first = str(e).splitlines()[0] if str(e) else ""
            _PLUGIN_ERRORS[ep.name] = f"{type(e).__name__}: {first}"[:300]


def _add_plugin(obj: object, where: str) -> None:
    if isinstance(obj, type) and issubclass(obj, GameRules):
        obj = obj()
    game = obj if isinstance(obj, GameRules) else getattr(obj, "GAME", None)
    if not isinstance(game, GameRules):
        raise TypeError(f"{where} is not a GameRules game (nor a module with GAME)")
    known = _REGISTRY.get(game.spec.id)
    if known is not None and known is not game:
        raise ValueError(f"its game id {game.spec.id!r} is already taken by {type(known).__module__}")
    _REGISTRY[game.spec.id] = game


def get_game(game_id: str) -> GameRules:
    """The game registered under ``game_id``; a UsageError lists the known ids."""
    found = games()
    if game_id not in found:
        known = ", ".join(found) or "none"
        raise UsageError(f"unknown game {game_id!r}; known games: {known} (see `sheetbridge games`)")
    return found[game_id]
