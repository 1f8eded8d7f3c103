"""What a tab already holds: the rows of every tab written are remembered as fingerprints, so the
next write of that tab sends only the rows that changed, the rows it keeps moved into place by
inserting or deleting rows above them (issue 31: a board or a Results tab grows by a round's block
at its top, a ledger at its end). Pure: the store keeps the fingerprints (ids.py) and cells.py
builds the requests.

A fingerprint is trusted only when this command read the tab and found the values the fingerprint
says were written (:func:`values_print`): a book that changed since (a hand edit, a write made
elsewhere, a write whose answer was lost) is written whole, as before.
"""
from __future__ import annotations

import hashlib
import json
from typing import Sequence

from ..model import TabData

MIN_KEPT = 8          # rows: a smaller block is not worth the rows moved (the tab is written whole)


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=9).hexdigest()


def row_prints(tab: TabData) -> list[str]:
    """One fingerprint per row: its cells (values, formats, dropdowns, input marks), its height and
    the merges over it (relative to the row, so a row keeps its print when it moves)."""
    over: dict[int, list[tuple[int, int, int, int]]] = {}
    for r0, c0, r1, c1 in tab.merges:
        for r in range(r0, r1):
            over.setdefault(r, []).append((r0 - r, c0, r1 - r, c1))
    heights = tab.row_heights
    return [_digest(repr((row, heights.get(r), sorted(over.get(r, ()))))) for r, row in enumerate(tab.rows)]


def values_print(rect: Sequence[Sequence[str]]) -> str:
    """The fingerprint of a tab's values as a read returns them (``TabData.values()`` when written)."""
    return _digest(json.dumps(rect, ensure_ascii=False, separators=(",", ":")))


def has_inputs(tab: TabData) -> bool:
    """Cells a player types into: a protected tab's unprotected ranges would move with the rows."""
    return any(cell.input for row in tab.rows for cell in row)


def kept_block(old: Sequence[str], new: Sequence[str]) -> tuple[int, int, int] | None:
    """The longest run of rows the tab holds (``old``) that the new tab (``new``) has too, either
    in the same place or moved by the difference in length (rows added or removed above it):
    (its first row in the old tab, in the new one, its length), or None if under MIN_KEPT rows."""
    best: tuple[int, int, int] | None = None
    for shift in dict.fromkeys((0, len(new) - len(old))):
        run = 0
        for i in range(max(0, -shift), min(len(old), len(new) - shift)):
            if old[i] == new[i + shift]:
                run += 1
                if best is None or run > best[2]:
                    best = (i - run + 1, i - run + 1 + shift, run)
            else:
                run = 0
    return best if best is not None and best[2] >= MIN_KEPT else None


def crosses(tab: TabData, first: int, end: int) -> bool:
    """Does a merge straddle the edge of rows [first, end)? (Then the block is not kept.)"""
    return any(r0 < edge < r1 for r0, _c0, r1, _c1 in tab.merges for edge in (first, end))
