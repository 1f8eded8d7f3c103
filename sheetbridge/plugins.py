"""The installed game plugins: the ``sheetbridge.games`` entry points installed packages declare.

The one module that reads what installed packages declare; the registry (in the games' pure room)
asks it when it lists every game or meets an id no built-in game has. importlib.metadata finds the
entry points, but its import alone (email, zipfile, csv, importlib.resources...) costs more than the
rest of ``sheetbridge games`` (about 25 ms of 110), and most installs declare no game. So it is asked
only when it may find one: when an ``entry_points.txt`` of a ``*.dist-info`` or ``*.egg-info`` folder
on ``sys.path`` names the group (a directory listing per path entry, 1 ms for a hundred packages), or
when the path holds what this look cannot see through (a zip or an egg on the path, an import hook that
finds distributions of its own). The look only ever says "maybe": what is found is importlib.metadata's
(tests/test_plugins.py checks that both find the same plugins).
"""
from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from importlib.metadata import EntryPoint

GROUP = "sheetbridge.games"


def entry_points(group: str = GROUP) -> list[EntryPoint]:
    """The group's entry points, by name (none without importing importlib.metadata when no installed
    package can declare one)."""
    if not may_declare(group):
        return []
    from importlib.metadata import entry_points as installed
    return sorted(installed(group=group), key=lambda ep: ep.name)


def may_declare(group: str = GROUP) -> bool:
    """False only when no distribution importlib.metadata would find on ``sys.path`` can declare an entry
    point of `group`: it reads a package's ``entry_points.txt`` by its ``[group]`` section header, so a
    file without that text declares none."""
    from importlib.machinery import PathFinder
    if any(hasattr(finder, "find_distributions") and finder is not PathFinder for finder in sys.meta_path):
        return True
    header = f"[{group}]".encode()
    for entry in sys.path:
        if not isinstance(entry, str):   # (bytes or a path object: not what the path finder lists)
            return True
        where = entry or "."
        if not os.path.isdir(where):
            if os.path.exists(where):    # a zip or an egg file on the path
                return True
            continue
        if where.lower().endswith(".egg"):   # an egg folder: its EGG-INFO is read too
            return True
        try:
            names = os.listdir(where)
        except OSError:
            return True
        for name in names:
            if name.lower().endswith((".dist-info", ".egg-info")):
                try:
                    with open(os.path.join(where, name, "entry_points.txt"), "rb") as f:
                        if header in f.read():
                            return True
                except (FileNotFoundError, NotADirectoryError):   # none, or an .egg-info file (distutils)
                    pass
                except OSError:
                    return True
    return False
