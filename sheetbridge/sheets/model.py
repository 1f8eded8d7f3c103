"""Cells and tabs: the rectangles every backend moves. No game knowledge here.

What is written reads back identical
------------------------------------
Both backends (``xlsx.py``, ``google/``) give back exactly the text they were given,
leading and trailing spaces, newlines and tabs included; strings are stored as literal
text, so ``"=1+2"`` stays the four characters ``=1+2`` (never a formula), ``"'quoted"``
keeps its apostrophe and ``"007"`` stays text (a read returns ``"007"``, not 7).
``tests/test_sheet_rendering.py`` checks this for both backends. The differences are
deliberate, the same in both backends, and all made by :func:`stored_text`:

- Line ends: ``"\\r\\n"`` and ``"\\r"`` are written as ``"\\n"`` (an .xlsx file is XML,
  whose readers turn every line end into ``"\\n"``; Google is made to agree).
- Characters a workbook cannot hold (control characters other than tab and newline,
  unpaired surrogates, U+FFFE and U+FFFF) are written as U+FFFD, the replacement
  character "�", so the cell shows that something was there.
- A value longer than the backend's cell limit (:data:`XLSX_CELL_LIMIT` 32,767 and
  :data:`GOOGLE_CELL_LIMIT` 50,000, counted in UTF-16 units as Excel and Google count)
  is shortened with a visible note: ``"...text... [shortened: 52,113 characters]"``
  (:func:`fit_cell`); nothing is ever refused or cut silently.
- Numbers come back as their text (``3`` and ``3.0`` read as ``"3"``, ``2.5`` as
  ``"2.5"``), booleans as ``"TRUE"``/``"FALSE"`` (:func:`text_of`).

What a player types in the spreadsheet program itself is another matter: a leading
apostrophe typed in Excel, LibreOffice or Google Sheets is the program's "keep this as
text" marker and is not part of the value, so typing ``'007`` gives ``"007"``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence, Union

from ..core.facts import quick_init
from .cell_reading import number_text, readable

Value = Union[str, int, float, bool, None]
Rect = list  # list[list[str]]: what a read returns, every value as text ("" for empty)
Merge = tuple  # (first_row, first_col, end_row, end_col): 0-based, ends excluded, like Google's GridRange

XLSX_CELL_LIMIT = 32_767     # Excel's and openpyxl's most characters in one cell
GOOGLE_CELL_LIMIT = 50_000   # Google Sheets' most characters in one cell
# Columns from here on (0-based; BH in A1 terms) are the backends' own: the xlsx backend keeps
# long dropdown lists there. Layouts never draw there and readers of forms ignore them.
HELPER_COLUMN = 59

DEFAULT_ROW_HEIGHT = 15.0    # points: one line of 11-point text (Excel's default row)


@dataclass(frozen=True)
class CellData:
    """One cell to write. Strings are always literal text, never formulas."""
    value: Value = None
    fill: str | None = None        # background RRGGBB
    bold: bool = False
    font: str | None = None        # font colour RRGGBB
    choices: tuple[str, ...] = ()  # a dropdown of allowed values (data validation)
    wrap: bool = False
    input: bool = False            # a cell the player types into (left unprotected)
    size: float | None = None      # font size in points (None: the book's default)
    align: str | None = None       # horizontal: "left", "center" or "right" (None: the program's default)
    valign: str | None = None      # vertical: "top", "middle" or "bottom" (None: bottom)


# A resolve makes a CellData for nearly every cell it draws (12,000 for 30 players at round 11): the
# same __init__ writing the fields straight into __dict__ (core/facts.quick_init) takes 0.5 us, not 1.3.
CellData.__init__ = quick_init(CellData) or CellData.__init__   # type: ignore[method-assign]


@dataclass(frozen=True)
class TabImage:
    """A PNG shown over a tab, its top-left corner on a cell (0-based). The xlsx backend embeds
    it; Google Sheets takes no image bytes through its API (only a public address), so the
    Google backend writes the tab's cells without it."""
    png: bytes
    row: int = 0
    col: int = 0
    name: str = "picture.png"      # the file name a spreadsheet program shows as its description


@dataclass
class TabData:
    """A whole tab's content; writing it replaces what the tab held (values, formats, merges, sizes)."""
    rows: list[list[CellData]]
    hidden: bool = False
    protected: bool = False        # only the host may edit, except the `input` cells (players can't add rows)
    col_widths: dict[int, float] = field(default_factory=dict)  # 0-based column -> width in characters
    frozen_rows: int = 0
    merges: list[Merge] = field(default_factory=list)   # cells shown as one; the value is in the first cell
    row_heights: dict[int, float] = field(default_factory=dict)  # 0-based row -> height in points
    images: list[TabImage] = field(default_factory=list)         # pictures over the cells (xlsx only)
    # Rows [a, b) already hold these values in the book (read or written by this command: the master's
    # record entries, host/record.py); a backend may leave them as they are (Google writes only the others).
    kept_rows: tuple[int, int] = (0, 0)

    @property
    def width(self) -> int:
        return max((len(r) for r in self.rows), default=0)

    def values(self) -> list[list[str]]:
        """The tab as a read would return it: text, padded to a rectangle, trailing blanks trimmed.

        Exact except for a value longer than a backend's cell limit (see :func:`fit_cell`)."""
        return normalise([[stored_text(c.value) if isinstance(c.value, str) else c.value for c in row]
                          for row in self.rows])


def text_of(value: Value) -> str:
    """How a read reports a value: whole floats without ".0", booleans as TRUE/FALSE, text as a
    write stores it (:func:`stored_text`: a cell another program wrote with "\\r\\n" or U+FFFF
    reads as sheetbridge would write it back, so what is put back into a tab reads back the same),
    a lone surrogate as U+FFFD (a pair joined first) and a number beyond a double as ``inf``
    (``cell_reading.py``).

    >>> text_of("Null\\r\\nDuel"), text_of(3.0), text_of(True), text_of(10 ** 5000)
    ('Null\\nDuel', '3', 'TRUE', 'inf')
    >>> text_of("Du\\ud83del") == "Du\\ufffdel"
    True
    """
    if type(value) is str:   # (isprintable: C speed, nearly every cell; is_plain: a record's long entries)
        return value if (value.isprintable() if len(value) < 256 else is_plain(value)) else \
            stored_text(readable(value))
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if type(value) is int:
        return number_text(value) or str(value)
    return readable(str(value))


def normalise(rows: Sequence[Sequence[Any]], convert: Callable[[Any], Value] | None = None) -> list[list[str]]:
    """Rows as text, trailing empty cells and rows trimmed (what both backends return). `convert`:
    applied to each value that is not printable text first (a reader's own types, ``xlsx_fast.py``).
    Printable text, nearly every cell, is kept without a call (tests/test_fast_paths_read.py)."""
    out = []
    for row in rows:
        cells = [v if v.__class__ is str and (v.isprintable() if len(v) < 256 else is_plain(v))
                 else text_of(v if convert is None else convert(v)) for v in row]
        while cells and cells[-1] == "":
            cells.pop()
        out.append(cells)
    while out and not out[-1]:
        out.pop()
    return out


def literal(text: str) -> CellData:
    return CellData(value=text)


# ------------------------------------------------------------ what a cell can hold

_UNSTORABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
REPLACEMENT = "\ufffd"


def stored_text(text: str) -> str:
    """The text as every backend stores it: line ends as "\\n", unstorable characters as "�".

    >>> stored_text("a\\r\\nb\\x07")
    'a\\nb\\ufffd'
    """
    if is_plain(text):   # (no line end to change, nothing unstorable: nearly every text)
        return text
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _UNSTORABLE.sub(REPLACEMENT, text)


_ASCII_CONTROLS = bytes(range(0x20)) + b"\x7f"   # (the ASCII characters str.isprintable refuses)


def is_plain(text: str) -> bool:
    """``text.isprintable()`` (no control character, line end, surrogate or unassigned character),
    five times quicker for long ASCII text such as a record's entries (hundreds of kB a resolve):
    isprintable looks every character up in the Unicode tables.

    >>> is_plain("a b"), is_plain("a\\nb"), is_plain("x" * 99 + "\\x7f"), is_plain("é" * 99)
    (True, False, False, True)
    """
    if len(text) > 64 and text.isascii():
        return len(text.encode("ascii").translate(None, _ASCII_CONTROLS)) == len(text)
    return text.isprintable()


def utf16_length(text: str) -> int:
    """Length as Excel and Google count it (characters beyond U+FFFF count twice)."""
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


def fit_cell(text: str, limit: int) -> str:
    """`text` if it fits in a cell of `limit` characters, else its start and a visible note.

    >>> fit_cell("abcdefghij" * 5, 40)
    'abcdefghij... [shortened: 50 characters]'
    >>> fit_cell("short", 40)
    'short'
    """
    if utf16_length(text) <= limit:
        return text
    note = f"... [shortened: {len(text):,} characters]"
    room = limit - utf16_length(note)
    kept: list[str] = []
    used = 0
    for ch in text:
        size = 2 if ord(ch) > 0xFFFF else 1
        if used + size > room:
            break
        kept.append(ch)
        used += size
    return "".join(kept) + note


def cell_string(text: str, limit: int) -> str:
    """What a backend writes for a string value: :func:`stored_text`, then :func:`fit_cell`."""
    return fit_cell(stored_text(text), limit)
