"""sheetbridge: resolve online reality game rounds from Google Sheets or offline .xlsx workbooks.

A game runs from Python with no sheet at all (:mod:`sheetbridge.api`, whose names are
re-exported here)::

    from sheetbridge import new_match
    m = new_match("three-modular-rooms", ["Ann", "Bo", "Cy"], seed=7)
    m.resolve({"Ann": {"play": [{"card": "3", "room": "Null"}]}})

:mod:`sheetbridge.core` is the pure core (a match of a game it is handed), :mod:`sheetbridge.orchestrator`
runs the same over workbooks and :mod:`sheetbridge.cli` is the command.
"""
__version__ = "0.1.0"

_API = ("GameRules", "Match", "default_tables", "games", "get_game", "load_match", "match_from_position",
        "new_match", "play_random", "plugin_errors", "register", "summaries")
__all__ = ["__version__", *_API]


def __getattr__(name: str) -> object:   # (no typing import: every command imports this package)
    # The API is loaded when first asked for: `import sheetbridge` (every CLI command does)
    # must not pay for the core's classes, the registry or the templates.
    if name not in _API:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from . import api
    value = getattr(api, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
