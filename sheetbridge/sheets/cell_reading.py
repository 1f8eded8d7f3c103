"""One reading of a stored cell, whichever reader a book goes through (issue 25).

An .xlsx book is read by calamine, or by openpyxl when it holds a formula or an error cell
(``xlsx_fast.read_values``); a Google spreadsheet comes as JSON. Each used to read some cells its
own way; here is the one reading all of them give:

- OOXML's ``_xHHHH_`` escape is the character U+HHHH (ECMA-376 Part 1, 22.9.2.19), as Excel reads
  it: a text typed as ``_x0041_`` is stored ``_x005F_x0041_`` and reads back as typed. calamine
  decodes every escape but those of a surrogate (it leaves ``_xD83D_`` as it is), so a book holding
  one goes through openpyxl, where :func:`unescape` decodes them all; an escaped surrogate pair is the
  character it encodes.
- A lone surrogate (half of an emoji cut by a paste: ``_xD83D_`` in a file, ``"\\ud83d"`` in JSON)
  cannot be printed or written: it reads as U+FFFD, the replacement character, as it is written
  (:func:`~.model.stored_text`); the player is told (``core/intake.py``).
- A number is a double, as calamine and the spreadsheet programs hold it: a numeric cell of 5,000
  digits reads as ``inf`` on every path (openpyxl would ``int()`` it and stop at 4,300 digits).
- A date-formatted cell whose serial is no date reads as its number (openpyxl would warn on the
  terminal and read ``#VALUE!``); no library warning reaches the host.
"""
from __future__ import annotations

import math
import re
import warnings
from contextlib import contextmanager
from typing import Any, Iterator

REPLACEMENT = "\ufffd"
_ESCAPED = re.compile(r"_x([0-9A-Fa-f]{4})_")
_SURROGATE = re.compile("[\ud800-\udfff]")
# An escaped surrogate in a sheet or shared-strings part: calamine leaves it undecoded.
_SURROGATE_ESCAPE = re.compile(rb"_x[Dd][89A-Fa-f][0-9A-Fa-f]{2}_")
_BAD_DATE = re.compile(r"Cell ([A-Z]+)([0-9]+) is marked as a date but the serial value (\S+) is outside")


def unescape(value: Any) -> Any:
    """Text as Excel shows it: "_xHHHH_" in the file is the character U+HHHH; an escaped surrogate
    pair is one character, a lone surrogate stays (then :func:`readable` replaces it).

    >>> unescape("Du_x0065_l"), unescape("_x005F_x0041_"), unescape("_xD83D__xDE00_") == "\\U0001f600"
    ('Duel', '_x0041_', True)
    """
    if isinstance(value, str) and "_x" in value:
        return _joined(_ESCAPED.sub(lambda m: chr(int(m.group(1), 16)), value))
    return value


def _joined(text: str) -> str:
    """Surrogate pairs made into the characters they encode; lone surrogates kept."""
    if not _SURROGATE.search(text):
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def readable(text: str) -> str:
    """`text` with every lone surrogate as U+FFFD (pairs joined first): printable and writable.

    >>> readable("Du\\ud83del") == "Du\\ufffdel", readable("\\ud83d\\ude00") == "\\U0001f600"
    (True, True)
    """
    if text.isascii() or not _SURROGATE.search(text):
        return text
    return _SURROGATE.sub(REPLACEMENT, _joined(text))


def has_surrogate_escape(part: bytes) -> bool:
    """Does this XML part hold an escaped surrogate (which calamine would not decode)? (The expression
    alone: led by the literal "_x", it is quicker than a substring test first.)"""
    return _SURROGATE_ESCAPE.search(part) is not None


def number_text(value: float | int) -> str | None:
    """How a read reports a number too large to be a double or to be printed (else None):
    ``inf`` or ``-inf``, what calamine gives for it.

    >>> number_text(10 ** 5000), number_text(-10 ** 400), number_text(3)
    ('inf', '-inf', None)
    """
    if type(value) is int and value.bit_length() > 1024:
        return "inf" if value > 0 else "-inf"
    return None


def _as_double(text: str) -> float:
    """openpyxl's reading of a number, as a double (calamine's reading): never ``int()`` on the text."""
    return float(text)


@contextmanager
def openpyxl_reading() -> Iterator[list[tuple[int, int, str]]]:
    """Around an openpyxl read: numbers as doubles, and the library's warnings caught, never printed.
    Yields the cells openpyxl read as ``#VALUE!`` because their date serial is no date, as
    (0-based row, 0-based column, the serial's text), for :func:`put_back_dates`."""
    from openpyxl.worksheet import _reader
    bad_dates: list[tuple[int, int, str]] = []
    saved = _reader._cast_number
    _reader._cast_number = _as_double
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield bad_dates
    finally:
        _reader._cast_number = saved
    for w in caught:
        m = _BAD_DATE.match(str(w.message))
        if m:
            bad_dates.append((int(m.group(2)) - 1, _column(m.group(1)), m.group(3)))


def _column(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n - 1


def put_back_dates(rows: list[list[Any]], bad_dates: list[tuple[int, int, str]]) -> None:
    """The cells openpyxl gave up on as dates read as their number, as calamine reads them."""
    for r, c, serial in bad_dates:
        if r < len(rows) and c < len(rows[r]):
            number = float(serial)
            rows[r][c] = number if math.isfinite(number) else serial
