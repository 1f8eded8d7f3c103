"""How sheetbridge reads what players type: one rule for every field. Pure string handling.

The rule, applied to every cell before a game sees it (:func:`normalise`):

1. NFKC normalisation: fullwidth ``５`` becomes ``5``, superscript ``²`` becomes ``2``,
   ``Ｎｕｌｌ`` becomes ``Null``, a non-breaking space becomes a space;
2. Unicode minus signs and dashes become ``-``;
3. decimal digits of any script become ASCII digits (Arabic-Indic ``٣`` is ``3``);
4. surrounding whitespace is trimmed.

Then a field accepts only what its help says: a whole number of at most
:data:`MAX_DIGITS` digits, one of its choices, yes/no (:data:`YES_WORDS`,
:data:`NO_WORDS`), or free text. When the rule changed what was typed, the
player is told what it was read as (:func:`read_cell`, a
:class:`~sheetbridge.core.types.Notice`).

>>> clean(" \u22121 0 ")
'-1 0'
>>> parse_int("\u221210")
-10
>>> parse_int("\uff15"), parse_int("\u0663"), parse_int("\u00b2")
(5, 3, 2)
>>> parse_int("9" * 5000) is None            # never int() on a huge string
True
>>> match_choice("null", ("Null", "Solitary", "Duel"))
'Null'
>>> yes_no("TRUE"), yes_no("n"), yes_no(""), yes_no("x")
(True, False, False, None)
>>> shorten("a\\nb" + "c" * 60)
'a\\\\nbcccccccccccccccccccccccccccccccccccc…'
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Sequence

# Hyphen, non-breaking hyphen, figure dash, en dash, em dash, minus sign, small and fullwidth
# hyphen-minus: what keyboards and autocorrect put where a player meant "-".
_MINUSES = "\u2010\u2011\u2012\u2013\u2014\u2212\ufe63\uff0d"
_MINUS_TABLE = str.maketrans({m: "-" for m in _MINUSES})

MAX_DIGITS = 9  # no number in any game comes near a billion; longer digit strings are never int()-ed
YES_WORDS = ("yes", "y", "true")   # TRUE/FALSE: what a sheet checkbox reads as
NO_WORDS = ("no", "n", "false")
YES_NO_HELP = "yes or no (y/n and TRUE/FALSE from a checkbox also work)"
PREVIEW = 40  # characters of a player's value echoed in any message or tab


def normalise(text: object) -> str:
    """The one reading rule: NFKC, plain minus signs, ASCII digits, trimmed.

    >>> normalise("  \uff0d\uff11\uff10 ")
    '-10'
    >>> normalise("\u0661\u0662")
    '12'
    >>> normalise("\u2460 Null")   # a circled one
    '1 Null'
    """
    if type(text) is str and text.isascii():   # nearly every cell: only the spaces go
        return text.strip()
    if text is None:
        return ""
    if isinstance(text, bool):
        return "TRUE" if text else "FALSE"
    if isinstance(text, float) and text.is_integer():
        text = int(text)
    s = str(text)
    if s.isascii():   # nearly every cell: NFKC, the minus signs and the digits leave ASCII as it is
        return s.strip()
    s = unicodedata.normalize("NFKC", s).translate(_MINUS_TABLE)
    if not s.isascii():
        s = "".join(_ascii_digit(ch) for ch in s)
    return s.strip()


def _ascii_digit(ch: str) -> str:
    if ch.isascii():
        return ch
    d = unicodedata.decimal(ch, None)  # only decimal digits (category Nd) have one
    return ch if d is None else str(d)


def clean(text: object) -> str:
    """Text as typed, read by the one rule (:func:`normalise`). Games call this on every cell."""
    if type(text) is str and text.isascii():   # the common case without a second call
        return text.strip()
    return normalise(text)


@dataclass(frozen=True)
class CellReading:
    """What one cell was read as: ``text`` as typed, ``read`` after the reading rule."""
    text: str
    read: str

    @property
    def changed(self) -> bool:
        """True when the rule changed more than spacing: the player is told what it read.

        >>> read_cell("\uff15").changed, read_cell(" 5 ").changed, read_cell("Zo\u00eb").changed
        (True, False, False)
        >>> read_cell("1\u00a0000").changed   # a non-breaking space looks like a space
        False
        """
        if self.text.isascii():
            return self.text.strip() != self.read
        return _nfc_trimmed(self.text) != self.read


def read_cell(text: object) -> CellReading:
    """The cell as typed and as read.

    >>> read_cell("\u0663")
    CellReading(text='\u0663', read='3')
    """
    original = "" if text is None else str(text)
    return CellReading(original, normalise(text))


def _nfc_trimmed(text: str) -> str:
    # Canonical (NFC) forms and other kinds of space look identical on screen: not worth a notice.
    s = unicodedata.normalize("NFC", text)
    return "".join(" " if unicodedata.category(ch) == "Zs" else ch for ch in s).strip()


def parse_int(text: object) -> int | None:
    """A whole number from the text, or None if it is not one ("seven", "1.5", "", 10+ digits).

    >>> parse_int("+7"), parse_int("3.0"), parse_int("1 000"), parse_int("1.5"), parse_int("1234567890")
    (7, 3, 1000, None, None)
    """
    s = clean(text).replace(" ", "")
    if s.startswith("+"):
        s = s[1:]
    if s.endswith(".0"):
        s = s[:-2]
    digits = s[1:] if s.startswith("-") else s
    if not digits or len(digits) > MAX_DIGITS or not (digits.isascii() and digits.isdigit()):
        return None
    return int(s)


def int_reason(text: object) -> str:
    """Why `text` is not a whole number, in a player's words.

    >>> int_reason("12345678901"), int_reason("1.5"), int_reason("seven"), int_reason("=1+2")
    ('too many digits (at most 9)', 'not a whole number', 'not a whole number', 'a formula, not a number')
    """
    s = clean(text).replace(" ", "").lstrip("+-")
    if is_formula(clean(text)):
        return "a formula, not a number"
    if s.isascii() and s.isdigit() and len(s) > MAX_DIGITS:
        return f"too many digits (at most {MAX_DIGITS})"
    return "not a whole number"


def match_choice(text: object, choices: Iterable[str]) -> str | None:
    """The choice the text names, ignoring case and surrounding spaces; None if none."""
    s = clean(text).casefold()
    if type(choices) is tuple:   # a game's fixed choices: looked up, not scanned
        return _folded(choices).get(s)
    for c in choices:
        if c.casefold() == s:
            return c
    return None


@lru_cache(maxsize=256)
def _folded(choices: tuple[str, ...]) -> dict[str, str]:
    """Each choice by its case-folded text; the first of two that fold alike, as a scan finds it."""
    out: dict[str, str] = {}
    for c in choices:
        out.setdefault(c.casefold(), c)
    return out


def is_formula(text: object) -> bool:
    """A cell that holds a formula rather than what the player typed."""
    if type(text) is str and text.isascii():
        return text.lstrip().startswith("=")
    return isinstance(text, str) and clean(text).startswith("=")


def yes_no(text: object) -> bool | None:
    """True for yes/y/TRUE, False for no/n/FALSE or blank, None for anything else ("x", "1", "ok")."""
    s = clean(text).casefold()
    if s in YES_WORDS:
        return True
    if s in NO_WORDS or s == "":
        return False
    return None


def host_flag(text: object) -> bool | None:
    """A yes/no cell of a host's content table, read leniently (1/0 and x as well): hosts are
    not players, and their tables are checked before a game starts.

    >>> host_flag("x"), host_flag("0"), host_flag("maybe")
    (True, False, None)
    """
    s = clean(text).casefold()
    if s in YES_WORDS + ("1", "x"):
        return True
    if s in NO_WORDS + ("0", ""):
        return False
    return None


def table_key(rect: Sequence[Sequence[object]] | None) -> tuple[tuple[str, ...], ...] | None:
    """A host's content table as a hashable key (rows of text, "" for a blank cell), so that what a
    game reads from it can be cached by content. Games read their tables every round; when the same
    table object comes back with the same text, the key it had is reused rather than built again.

    >>> rect = [["id", "reward"], ["J1", 6]]
    >>> table_key(rect)
    (('id', 'reward'), ('J1', '6'))
    >>> table_key(rect) is table_key(rect), table_key(None)
    (False, None)
    >>> text = [["id", "reward"], ["J1", "6"]]
    >>> table_key(text) is table_key(text)
    True
    """
    if rect is None:
        return None
    seen = _TABLE_KEYS.get(id(rect))
    if seen is not None and seen[0] is rect and rect == seen[1]:
        return seen[2]
    key = tuple(tuple("" if v is None else str(v) for v in row) for row in rect)
    snapshot = [list(row) for row in rect]
    # Only a table of text is remembered: text equals only the same text (1 == 1.0 == True would not do).
    if type(rect) is list and all(type(row) is list for row in rect) and \
            all(type(v) is str for row in snapshot for v in row):
        if len(_TABLE_KEYS) >= 64:
            _TABLE_KEYS.clear()
        _TABLE_KEYS[id(rect)] = (rect, snapshot, key)   # holding the table keeps its id from being reused
    return key


_TABLE_KEYS: dict[int, tuple[object, list[list[object]], tuple[tuple[str, ...], ...]]] = {}


def split_list(text: object, seps: Sequence[str] = (",", ";", " ")) -> list[str]:
    """Items of a typed list: "1, 5 ;9" -> ["1", "5", "9"]."""
    s = clean(text)
    for sep in seps[1:]:
        s = s.replace(sep, seps[0])
    return [p.strip() for p in s.split(seps[0]) if p.strip()]


def shorten(text: object, limit: int = PREVIEW) -> str:
    """A player's value as it may be echoed: control characters escaped, at most `limit`
    characters and an ellipsis. Shortening twice changes nothing.

    >>> shorten("ok")
    'ok'
    >>> shorten("\\x00\\u202e")
    '\\\\x00\\\\u202e'
    >>> s = shorten("x" * 100); len(s), s == shorten(s)
    (41, True)
    """
    s = "" if text is None else str(text)
    out: list[str] = []
    size = 0
    for ch in s:
        piece = _escaped(ch)
        if size + len(piece) > limit:
            return "".join(out) + "…"
        out.append(piece)
        size += len(piece)
    return "".join(out)


def _escaped(ch: str) -> str:
    """A character as shown: itself, or an escape when it is invisible or controls layout."""
    if ch == " " or ch.isprintable():
        return ch
    if ch in "\n\t\r":
        return {"\n": "\\n", "\t": "\\t", "\r": "\\r"}[ch]
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"
