"""Boards and their keys as plain monospace text for Discord (issue 27, point 4).

Discord shows a code block in a monospace font, but a cell holding two characters, a wide
(east-asian) character or a box-drawing pair drifts every later column when cells are only
joined. Here every column is padded to its widest cell, measured in terminal columns, so each
cell of a column has the same width. A colour means nothing in monochrome text, so the key
names the symbol a colour is written with ("R = Red") and says plainly when a colour is shown
in the picture only.


>>> from sheetbridge.core.types import Cell
>>> grid = ((Cell(""), Cell("A"), Cell("B")), (Cell("1"), Cell("SE"), Cell("·")))
>>> print("\\n".join(grid_lines(grid)))
  A  B
1 SE ·
>>> legend_key(((Cell("R", fill="E06666"), Cell("-", fill="BFBFBF")),), (("Red", "E06666"), ("Gray", "BFBFBF")))
['R = Red', '- = Gray']
"""
from __future__ import annotations

import unicodedata
from collections import Counter
from typing import Sequence

from ..core.types import Cell

MAX_KEY_SYMBOLS = 8   # a key line lists at most this many symbols of one colour
BOARD_CELL = 3   # cells at most this wide are board squares: columns joined by spaces, not " | "


def text_width(text: str) -> int:
    """Columns `text` takes in a monospace font: wide and full-width characters count two,
    combining marks and zero-width characters none."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def pad(text: str, width: int) -> str:
    return text + " " * max(0, width - text_width(text))


def grid_lines(grid: Sequence[Sequence[Cell]]) -> list[str]:
    """The grid as lines of equal-width columns (a board: joined by spaces; a table: by " | ")."""
    if not grid:
        return []
    ncols = max(len(row) for row in grid)
    widths = [0] * ncols
    for row in grid:
        for i, c in enumerate(row):
            widths[i] = max(widths[i], text_width(_clean(c.text)))
    board = max(widths) <= BOARD_CELL
    sep = " " if board else " | "
    lines = []
    for row in grid:
        cells = [_clean(row[i].text) if i < len(row) else "" for i in range(ncols)]
        lines.append(sep.join(pad(t, widths[i]) for i, t in enumerate(cells)).rstrip())
    return lines


def _clean(text: str) -> str:
    """One line, and no backtick that would close the code block."""
    return text.replace("`", "'").replace("\n", " ")


def legend_key(grid: Sequence[Sequence[Cell]], legend: Sequence[tuple[str, str]]) -> list[str]:
    """The key under a text board: each colour named by the symbols it is written with ("R = Red").
    A label that already explains its own symbols is kept; a colour with no symbol of its own in the
    text (only blank cells, or symbols other colours share) is said to be shown in the picture only."""
    by_fill: dict[str, Counter[str]] = {}
    background: set[str] = set()      # a fill under blank cells too is a background, not a symbol's colour
    owners: dict[str, set[str]] = {}
    for row in grid:
        for c in row:
            if not c.fill:
                continue
            fill, text = c.fill.upper(), c.text.strip()
            if not text:
                background.add(fill)
                continue
            by_fill.setdefault(fill, Counter())[text] += 1
            owners.setdefault(text, set()).add(fill)
    out, picture_only = [], []
    for label, fill in legend:
        own = _own_symbols(by_fill.get((fill or "").upper(), Counter()), owners)
        if (fill or "").upper() in background:
            own = []
        if " = " in label or "─" in label or "drawn" in label:   # the game's own words for its symbols
            out.append(label)
        elif own and len(own) <= MAX_KEY_SYMBOLS:
            out.append(f"{' / '.join(own)} = {label}")
        elif own:   # a colour for a whole family of named squares (Skeld's "Frontier room (A)"): the names say it
            out.append(label)
        else:
            picture_only.append(label)
    if picture_only:
        out.append("shown in the picture only: " + "; ".join(picture_only))
    return out


def _own_symbols(symbols: Counter[str], owners: dict[str, set[str]]) -> list[str]:
    """The symbols only this colour is written with, if they are most of its cells (a symbol other colours
    share, as a node drawn in either colour, cannot name a colour in monochrome text)."""
    own = [s for s in symbols if len(owners[s]) == 1]
    return own if 2 * sum(symbols[s] for s in own) > sum(symbols.values()) else []
