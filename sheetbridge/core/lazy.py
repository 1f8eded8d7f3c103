"""What a game package's ``__init__`` uses to load its rules on first use (a module of its own, with
no import but importlib's, so that listing the games costs only their light spec chapters)."""
from __future__ import annotations

from importlib import import_module
from typing import Any, Callable


def lazy_rules(package: str) -> Callable[[str], Any]:
    """A game package's module ``__getattr__`` (PEP 562): every name but its light ``SPEC`` comes from
    the package's ``game.py``, imported on first use, so listing the games reads only their spec
    chapters and a game's rules, facts and drawing load when it is played. A dunder probed by a tool
    (doctest's ``__test__``), or a chapter not yet imported, is not found there: the import system
    then loads the chapter itself. The chapters import each other directly, never through here."""
    def __getattr__(name: str) -> Any:
        if not name.startswith("__"):
            game = import_module(f"{package}.game")
            if hasattr(game, name):
                return getattr(game, name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    return __getattr__
