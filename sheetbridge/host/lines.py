"""Lines a host reads on the terminal stay short (issue 25): at most :data:`HOST_LINE` characters
(not counting the game folder's own path), whatever players typed or how many fields they got wrong.
A value is echoed as a short prefix (``core.parsing.shorten``); a list of names as its first few
and how many more (:func:`listed`)."""
from __future__ import annotations

from typing import Sequence

HOST_LINE = 300      # the longest line a command prints, the game folder's path aside
LIST_ROOM = 100      # characters a list of field labels or cells may take in one line


def listed(items: Sequence[str], room: int = LIST_ROOM) -> str:
    """`items` joined by commas, as many as fit in `room` characters, then how many more.

    >>> listed(["Card", "Room"])
    'Card, Room'
    >>> listed([f"Field {i}" for i in range(40)], room=30)
    'Field 0, Field 1 and 38 more'
    """
    shown: list[str] = []
    size = 0
    for i, item in enumerate(items):
        rest = len(items) - i
        tail = f" and {rest} more" if rest > 1 else ""
        if shown and size + 2 + len(item) + len(tail) > room:
            return ", ".join(shown) + f" and {rest} more"
        shown.append(item)
        size += len(item) + (2 if len(shown) > 1 else 0)
    return ", ".join(shown)
