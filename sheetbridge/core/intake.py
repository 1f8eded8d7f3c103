"""What happens to a raw submission before a game reads it: caps, then the reading rule.

Enforced once, in :meth:`sheetbridge.core.match.Match.parse`, so no game can forget:

- every cell has a length cap by field kind (:func:`cell_cap`); a longer cell is ONE
  problem ("too long: 2,000,000 characters; at most 200") and the game sees it blank,
  so the rules' default applies to that entry;
- the whole submission has a cap (:data:`SUBMISSION_CHARS` characters in at most
  :data:`SUBMISSION_CELLS` cells, not counting cells already refused); beyond it nothing
  is read, ONE problem is reported and every entry gets the rules' default;
- every cell is read by the one rule (:func:`sheetbridge.core.parsing.normalise`), and
  a :class:`~sheetbridge.core.types.Notice` says what was read when the rule changed it.

>>> form = Form(1, "Round 1", (Section("play", "Your play", (Field("card", "Card", FieldKind.INTEGER),)),))
>>> got = prepare(form, "Ann", {"play": [{"card": "\\u0663"}]})
>>> got.raw, [n.message for n in got.notices], got.problems
({'play': [{'card': '3'}]}, ["Ann: Card: read '\\u0663' as 3"], [])
>>> got = prepare(form, "Ann", {"play": [{"card": "9" * 5000}]})
>>> got.raw, got.problems[0].reason
({'play': [{'card': ''}]}, 'too long: 5,000 characters; at most 30')
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Mapping

from .parsing import read_cell, shorten
from .types import Field, FieldKind, Form, Notice, Problem, ProblemKind, RawSubmission, Section

CAPS = {FieldKind.INTEGER: 30, FieldKind.YESNO: 30, FieldKind.CHOICE: 100, FieldKind.TEXT: 200}
SUBMISSION_CHARS = 20_000  # no form needs a tenth of this
SUBMISSION_CELLS = 2_000
SUBMISSION_FIELD = "submission"
SUBMISSION_LABEL = "Submission"


@lru_cache(maxsize=4096)   # a form's fields repeat every round: their caps are computed once
def cell_cap(fld: Field | None) -> int:
    """The longest text a cell of this field could ever need; unknown cells count as text.

    A choice may need more than 100 characters when its choices are long (player names).

    >>> cell_cap(Field("card", "Card", FieldKind.INTEGER)), cell_cap(None)
    (30, 200)
    """
    if fld is None:
        return CAPS[FieldKind.TEXT]
    cap = CAPS[fld.kind]
    if fld.kind is FieldKind.CHOICE and fld.choices:
        cap = max(cap, 2 * max(len(c) for c in fld.choices))
    return cap


@dataclass
class Prepared:
    """A raw submission ready for the game: capped cells blank, every cell read by the rule."""
    raw: dict[str, list[dict[str, str]]]
    problems: list[Problem] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    refused_labels: set[str] = field(default_factory=set)  # cells the game must not report again
    rejected: bool = False  # over the submission cap: nothing is read


def prepare(form: Form, player: str, raw: RawSubmission) -> Prepared:
    """Cap and normalise `raw` against `form` (sections, rows and fields outside the form
    are kept, as text, for the game to judge)."""
    quick = plain(raw)
    return Prepared(quick) if quick is not None else _prepare(form, player, raw)


def plain(raw: RawSubmission) -> dict[str, list[dict[str, str]]] | None:
    """The prepared submission when no cell can need the form: every cell short ASCII text
    (at most the smallest cap), so no cap is crossed, the reading rule only trims spaces and
    there is nothing to tell; None otherwise. Nearly every real cell, and every simulated one,
    is like that, and then no form has to be built to read it.

    >>> plain({"play": [{"card": " 3 ", "room": "Null"}]})
    {'play': [{'card': '3', 'room': 'Null'}]}
    >>> plain({"play": [{"card": "\\u0663"}]}) is None, plain({"play": [{"card": "9" * 31}]}) is None
    (True, True)
    """
    if type(raw) is not dict:
        return None
    out: dict[str, list[dict[str, str]]] = {}
    cells = chars = 0
    for sec_name, rows in raw.items():
        if type(sec_name) is not str or type(rows) not in (list, tuple):
            return None
        out_rows = []
        for row in rows:
            if type(row) is not dict:
                return None
            out_row = {}
            for name, text in row.items():
                if type(name) is not str or type(text) is not str or len(text) > _SHORTEST_CAP or not text.isascii():
                    return None
                out_row[name] = text.strip()
                chars += len(text)
            cells += len(row)
            out_rows.append(out_row)
        out[sec_name] = out_rows
    if cells > SUBMISSION_CELLS or chars > SUBMISSION_CHARS:
        return None
    return out


_SHORTEST_CAP = min(CAPS.values())


def _prepare(form: Form, player: str, raw: RawSubmission) -> Prepared:
    sections = {s.name: s for s in form.sections}
    out: dict[str, list[dict[str, str]]] = {}
    problems: list[Problem] = []
    notices: list[Notice] = []
    refused: set[str] = set()
    total_chars = total_cells = 0
    for sec_name, rows in _in_order(_items(raw), list(sections)):
        sec = sections.get(sec_name)
        fields = {f.name: f for f in sec.fields} if sec else {}
        out_rows: list[dict[str, str]] = []
        for i, row in enumerate(_rows(rows)):
            out_row: dict[str, str] = {}
            for name, value in _in_order(_items(row), list(fields)):
                total_cells += 1
                if total_cells > SUBMISSION_CELLS or total_chars > SUBMISSION_CHARS:
                    return _rejected(player, total_chars, total_cells)
                text = "" if value is None else str(value)
                fld = fields.get(name)
                cap = cell_cap(fld)
                if len(text) > cap or not text.isascii():   # the label is only needed for a problem or notice
                    label = _label(form, sec, i, fld)
                    where = name if sec is None or sec.rows <= 1 else f"{sec_name} row {i + 1} {name}"
                refusal = _refusal(text, cap)
                if refusal:
                    problems.append(Problem(
                        ProblemKind.SYNTAX, player, where, shorten(text), fld.allowed() if fld else "a short text",
                        refusal, BLANK_DEFAULT, label=label))
                    if label:
                        refused.add(label)
                    out_row[name] = ""
                    continue
                total_chars += len(text)
                reading = read_cell(text)
                if reading.changed and reading.read:
                    notices.append(Notice(player, where, label, shorten(text), shorten(reading.read)))
                out_row[name] = reading.read
            out_rows.append(out_row)
        out[sec_name] = out_rows
    if total_chars > SUBMISSION_CHARS or total_cells > SUBMISSION_CELLS:
        return _rejected(player, total_chars, total_cells)
    return Prepared(out, problems, notices, refused)


def _refusal(text: str, cap: int) -> str:
    """Why a cell is refused whole (read as blank), or "" when it is read.

    A lone surrogate (``"\\ud83d"`` from Python or JSON) or the U+FFFD a sheet reads one as
    (``sheets/cell_reading.py``) is half of an emoji or symbol cut by a paste: not what the player
    meant, so it is not read, and the player is told.
    """
    if len(text) > cap:
        return f"too long: {len(text):,} characters; at most {cap}"
    if _BROKEN.search(text):
        return BROKEN_REASON
    return ""


BROKEN_REASON = "a broken character (half an emoji, cut by a paste?): type it again"
BLANK_DEFAULT = "read as blank: the rules' default applies"
_BROKEN = re.compile("[\ud800-\udfff\ufffd]")


def _rejected(player: str, chars: int, cells: int) -> Prepared:
    """Over the submission cap (counting stops where it was crossed): one problem, nothing read."""
    size = f"more than {SUBMISSION_CELLS:,} cells" if cells > SUBMISSION_CELLS else \
        f"more than {SUBMISSION_CHARS:,} characters"
    problem = Problem(ProblemKind.SYNTAX, player, SUBMISSION_FIELD, size,
                      f"at most {SUBMISSION_CHARS:,} characters in {SUBMISSION_CELLS:,} cells",
                      "too long for any form", "nothing was read: the rules' default applies to every entry",
                      label=SUBMISSION_LABEL)
    return Prepared({}, [problem], [], set(), rejected=True)


def _label(form: Form, sec: Section | None, row: int, fld: Field | None) -> str:
    """The cell's label as the player sees it; "" for a cell the form does not have."""
    if sec is None or fld is None:
        return ""
    if row >= sec.rows:  # a row beyond the form (possible from Python, not from a sheet)
        return f"{fld.label} (row {row + 1})"
    return form.cell_label(sec, row, fld)


def _items(mapping: Any) -> list[tuple[str, Any]]:
    """A mapping's items with text keys; anything else (a player cannot make it) reads as empty."""
    if not isinstance(mapping, Mapping):
        return []
    return [(str(k), v) for k, v in mapping.items()]


def _in_order(items: list[tuple[str, Any]], order: list[str]) -> list[tuple[str, Any]]:
    """`items` in the form's order, then names the form does not have by name. A record's JSON
    sorts its keys: reading in one fixed order makes the notices and problems of a replayed
    round the same as when it was resolved, whatever order the cells came in.

    >>> _in_order([("room", "a"), ("zz", "b"), ("card", "c"), ("aa", "d")], ["card", "room"])
    [('card', 'c'), ('room', 'a'), ('aa', 'd'), ('zz', 'b')]
    """
    rank = {name: i for i, name in enumerate(order)}
    return sorted(items, key=lambda kv: (rank.get(kv[0], len(rank)), kv[0] if kv[0] not in rank else ""))


def _rows(rows: Any) -> list[Any]:
    if isinstance(rows, (str, bytes)) or not hasattr(rows, "__iter__"):
        return []
    return list(rows)
