"""Helpers games use to read what players type. Pure string handling.

>>> clean(" \u22121 0 ")
'-1 0'
>>> parse_int("\u221210")
-10
>>> match_choice("null", ("Null", "Solitary", "Duel"))
'Null'
"""
from __future__ import annotations

from typing import Iterable, Sequence

_MINUSES = "\u2212\u2013\u2014\u2012\ufe63\uff0d"


def clean(text: object) -> str:
    """Text as typed, trimmed, with Unicode minus signs and non-breaking spaces made plain."""
    if text is None:
        return ""
    if isinstance(text, float) and text.is_integer():
        text = int(text)
    s = str(text)
    for m in _MINUSES:
        s = s.replace(m, "-")
    return s.replace("\u00a0", " ").strip()


def parse_int(text: object) -> int | None:
    """A whole number from the text, or None if it is not one ("seven", "1.5", "")."""
    s = clean(text).replace(" ", "")
    if s.startswith("+"):
        s = s[1:]
    if s.endswith(".0"):
        s = s[:-2]
    if not s or not (s.isdigit() or (s[0] == "-" and s[1:].isdigit())):
        return None
    return int(s)


def match_choice(text: object, choices: Iterable[str]) -> str | None:
    """The choice the text names, ignoring case and surrounding spaces; None if none."""
    s = clean(text).casefold()
    for c in choices:
        if c.casefold() == s:
            return c
    return None


def is_formula(text: object) -> bool:
    """A cell that holds a formula rather than what the player typed."""
    return isinstance(text, str) and text.lstrip().startswith("=")


def yes_no(text: object) -> bool | None:
    s = clean(text).casefold()
    if s in ("yes", "y", "true", "1", "x"):
        return True
    if s in ("no", "n", "false", "0", ""):
        return False
    return None


def split_list(text: object, seps: Sequence[str] = (",", ";", " ")) -> list[str]:
    """Items of a typed list: "1, 5 ;9" -> ["1", "5", "9"]."""
    s = clean(text)
    for sep in seps[1:]:
        s = s.replace(sep, seps[0])
    return [p.strip() for p in s.split(seps[0]) if p.strip()]
