"""The games, one module each. Importing this package registers every game
whose module is present; a game joins by adding its module name below."""
from importlib import import_module
from importlib.util import find_spec

from ..core.game import register

_MODULES = ("three_modular_rooms", "skeld", "bugcatcher", "big_machine", "flickering_lights")

for _name in _MODULES:
    if find_spec(f"{__name__}.{_name}") is not None:
        register(import_module(f"{__name__}.{_name}").GAME)
