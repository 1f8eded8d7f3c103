"""Drawing forms and reports into tabs, and reading forms back. Knows no game.

A Submission tab is laid out from a :class:`Form` alone, so the same form
gives the same cell positions when the tab is read back:

    row 1   title ("Submission: Round 3 of 11"), merged across the tab
    row 2   Round | 3          <- the round marker read back to catch stale tabs
    row 3   Player | Ann
    then per section: a title row, a header row of field labels, `rows` input rows,
    the section's help (if any) and a blank row;
    then "How to fill this in", the help lines and, per field, what it allows.

Only the input cells are editable (the tab is protected), so a player cannot insert
rows; :func:`stray_entries` finds anything typed outside them anyway.

Everything is sized to its content so that nothing is cut: columns are as wide as
what they hold (up to a maximum, beyond which text wraps), titles are merged across
the tab and wide enough for their text, help and report lines are merged across the
tab, wrapped, and their rows made tall enough. Text widths are estimated with
:func:`text_width`, which errs on the wide side for the fonts the files are seen in.
"""
from __future__ import annotations

import dataclasses
import functools
import json
import math
import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..core.errors import WorkbookError
from ..core.parsing import shorten
from ..core.types import Form, Report, Section
from ..templates import layout as _layout
from .model import DEFAULT_ROW_HEIGHT, HELPER_COLUMN, CellData, Merge, Rect, TabData, normalise, stored_text, text_of


def tab_name(key: str) -> str:
    return _layout()["tabs"][key]


def color(key: str) -> str:
    return _layout()["colors"][key]


def width(key: str) -> float:
    return float(_layout()["widths"][key])


# ------------------------------------------------------------ measuring text

# Advance widths relative to a digit (column widths count digits), measured on DejaVu Sans and
# DejaVu Sans Bold (over BOLD_FACTOR), rounded up: the widest of the fonts our files are shown in
# (Calibri in Excel, Arial in Google Sheets, DejaVu Sans where LibreOffice has neither).
_CLASSES = (
    (0.45, "'"),
    (0.5, "ijl "),
    (0.55, "IJ,./\\|"),
    (0.6, "-:;"),
    (0.65, "f"),
    (0.7, "t!()[]"),
    (0.75, 'r"'),
    (0.8, "*_`"),
    (0.85, "z?"),
    (0.9, "cs"),
    (0.95, "vxyL"),
    (1.0, "0123456789aekoEFT$"),
    (1.05, "bdghnpquPSY{}"),
    (1.1, "BCZ"),
    (1.15, "AKRVX"),
    (1.2, "HNU"),
    (1.25, "DGOQ&"),
    (1.35, "w#+<=>^~"),
    (1.45, "M"),
    (1.5, "%"),
    (1.55, "m"),
    (1.6, "W@"),
)
_ADVANCE = {ch: w for w, chars in _CLASSES for ch in chars}
_ASCII_ADVANCE = [_ADVANCE.get(chr(b), 1.0) for b in range(128)]   # (as _advance gives them, by byte)
BOLD_FACTOR = 1.1       # bold digits are ~9% wider (DejaVu Sans Bold)
# Google Sheets gives a width unit 7 pixels (google/cells.py) but draws 10-point Arial, whose digit is 7.4.
GOOGLE_MARGIN = 1.06
BASE_SIZE = 11.0        # the font size column widths are counted in (Excel's default, Calibri 11)
MAX_ROW_HEIGHT = 409.0  # Excel's tallest row, in points
CELL_PADDING = 1.0      # room a renderer keeps between the text and the cell's edges, in digits
TEXT_COLUMN = 12.0      # width of the columns a tab of text only is laid on


def _advance(ch: str) -> float:
    w = _ADVANCE.get(ch)
    if w is not None:
        return w
    if ch.isascii():
        return 1.0
    if unicodedata.combining(ch):
        return 0.0
    if unicodedata.east_asian_width(ch) in ("W", "F"):
        return 2.0
    return 1.7 if ord(ch) > 0xFFFF else 1.3   # emoji; any other letter or sign (a dash is 1.6)


@functools.lru_cache(maxsize=16_384)   # (the same words are measured again and again: a round's reports repeat them)
def text_width(text: str, bold: bool = False, size: float | None = None) -> float:
    """The width of one line of `text`, in digits of the default 11-point font (the unit of
    column widths). Errs wide: a column this wide shows the text in Excel, LibreOffice and Google.

    >>> text_width("0000")
    4.24
    >>> text_width("0000", bold=True, size=22)
    9.328
    """
    if text.isascii():   # (nearly every text: each byte's advance looked up in C)
        w = sum(map(_ASCII_ADVANCE.__getitem__, text.encode("ascii"))) * GOOGLE_MARGIN
    else:
        w = sum(_advance(ch) for ch in text) * GOOGLE_MARGIN
    if bold:
        w *= BOLD_FACTOR
    return round(w * (size or BASE_SIZE) / BASE_SIZE, 4)


@functools.lru_cache(maxsize=16_384)   # (a table's every cell is measured, and most cells repeat)
def fit_width(text: str, bold: bool = False, size: float | None = None) -> float:
    """The column width (digits) that shows `text` on one line: its width plus padding."""
    return round(text_width(text, bold, size) + CELL_PADDING + 0.5, 1)


@functools.lru_cache(maxsize=16_384)   # (every tab of every book wraps the same texts in the same widths)
def line_count(text: str, width_: float, bold: bool = False, size: float | None = None) -> int:
    """How many lines `text` takes wrapped in a cell `width_` digits wide (words move to the
    next line whole; a word longer than a line is broken, as every renderer does).

    >>> line_count("aaaa bbbb cccc", 10.0)
    2
    """
    room = max(width_ - CELL_PADDING, 1.0)
    lines = 0
    for para in str(text).split("\n"):
        lines += 1
        used = 0.0
        for word in re.findall(r"\S+\s*", para) or [""]:
            w = text_width(word.rstrip(), bold, size)
            trail = text_width(word[len(word.rstrip()):], bold, size)
            if used and used + w > room:
                lines += 1
                used = 0.0
            while w > room:
                lines += 1
                w -= room
            used += w + trail
    return lines


def line_height(size: float | None = None) -> float:
    """Points per line of text of this size (15 for 11-point text, as Excel's default row)."""
    return DEFAULT_ROW_HEIGHT * (size or BASE_SIZE) / BASE_SIZE


# ------------------------------------------------------------ building a tab

@dataclass
class _Tab:
    """Rows being drawn, with the column widths fixed before any text is laid in them."""
    widths: dict[int, float]
    rows: list[list[CellData]] = dataclasses.field(default_factory=list)
    merges: list[Merge] = dataclasses.field(default_factory=list)
    # fill -> the one (frozen) cell every band of that fill carries right of its text: a tab of many
    # bands has a few objects, which the writer draws once each (sheets/xlsx_fast._draw)
    _band_fills: dict[str | None, CellData] = dataclasses.field(default_factory=dict, init=False, repr=False,
                                                                compare=False)

    def add(self, cells: Sequence[CellData] = ()) -> int:
        self.rows.append(list(cells))
        return len(self.rows) - 1

    def band(self, cell: CellData, span: int) -> int:
        """One cell shown across the first `span` columns (the rest of the band carries its fill,
        so it looks the same in every program)."""
        rest = self._band_fills.get(cell.fill)
        if rest is None:
            rest = self._band_fills[cell.fill] = CellData(fill=cell.fill)
        r = self.add([cell] + [rest] * (span - 1))   # (one frozen cell, shared)
        if span > 1:
            self.merges.append((r, 0, r + 1, span))
        return r

    def title(self, text: str, span: int) -> int:
        size = float(_layout()["title_size"])
        need = fit_width(text, bold=True, size=size)
        have = sum(self.widths.get(c, 0.0) for c in range(span))
        if need > have:  # widen the last column of the band rather than cut the title
            self.widths[span - 1] = round(self.widths.get(span - 1, 0.0) + need - have, 1)
        return self.band(CellData(text, fill=color("title"), font=color("title_font"), bold=True, size=size,
                                  valign="middle"), span)

    def section(self, text: str, span: int) -> int:
        return self.band(CellData(text, fill=color("section"), bold=True, wrap=True, valign="top"), span)

    def text(self, text: str, span: int, **style: Any) -> int:
        """A line of text across `span` columns, wrapped if it does not fit."""
        return self.band(CellData(text, wrap=True, valign="top", **style), span)

    def build(self, **kwargs: Any) -> TabData:
        rows = _wrap_overflowing(self.rows, self.widths, self.merges)
        heights = row_heights(rows, self.widths, self.merges)
        for r in heights:   # in a tall row, every cell starts at the top, like its wrapped text
            rows[r] = [c if c.valign or c.value in (None, "") else changed(c, valign="top") for c in rows[r]]
        return TabData(rows=rows, col_widths={c: round(w, 1) for c, w in sorted(self.widths.items())},
                       merges=list(self.merges), row_heights=heights, **kwargs)


def changed(cell: CellData, **fields: Any) -> CellData:
    """``dataclasses.replace(cell, **fields)``, quicker: a tab of wrapped rows restyles thousands of
    cells, and replace looks up the dataclass's fields and calls its __init__ for each (6 us, not 0.6).
    The cell is frozen and has no __post_init__: its fields are its __dict__ (core/facts.quick_init)."""
    unknown = fields.keys() - cell.__dict__.keys()
    if unknown:
        raise TypeError(f"CellData has no field {', '.join(sorted(unknown))}")
    new = object.__new__(CellData)
    new.__dict__.update(cell.__dict__, **fields)
    return new


def _span_width(widths: Mapping[int, float], c0: int, c1: int) -> float:
    return sum(widths.get(c, 8.43) for c in range(c0, c1))   # 8.43: a column left at Excel's default


def _merge_at(merges: Sequence[Merge]) -> dict[tuple[int, int], Merge]:
    return {(m[0], m[1]): m for m in merges}


def _cell_room(r: int, c: int, widths: Mapping[int, float], merged: Mapping[tuple[int, int], Merge],
               rooms: dict[tuple[int, int], float] | None = None) -> float:
    """The width a cell's text has: its column's, or its merged range's. `rooms`: the widths of the
    column spans measured so far (a report's every line is the same band of columns)."""
    m = merged.get((r, c))
    span = (c, m[3]) if m else (c, c + 1)
    if rooms is None:
        return _span_width(widths, *span)
    room = rooms.get(span)
    if room is None:
        room = rooms[span] = _span_width(widths, *span)
    return room


def _wrap_overflowing(rows: list[list[CellData]], widths: Mapping[int, float],
                      merges: Sequence[Merge]) -> list[list[CellData]]:
    """Rows with every text cell too wide for its column (or merged range) set to wrap."""
    merged = _merge_at(merges)
    rooms: dict[tuple[int, int], float] = {}
    out = []
    for r, row in enumerate(rows):
        new = None
        for c, cell in enumerate(row):
            value = cell.value
            if value is None or cell.wrap or not isinstance(value, str) or not value:
                continue
            if "\n" in value or fit_width(value, cell.bold, cell.size) > _cell_room(r, c, widths, merged, rooms):
                if new is None:
                    new = list(row)
                new[c] = changed(cell, wrap=True, valign=cell.valign or "top")
        out.append(new if new is not None else list(row))
    return out


def row_heights(rows: Sequence[Sequence[CellData]], widths: Mapping[int, float],
                merges: Sequence[Merge]) -> dict[int, float]:
    """Heights (points) of the rows that need more than one plain line: wrapped text is given the
    lines it takes (no program sizes a merged row to its text) and large text its line height."""
    merged = _merge_at(merges)
    rooms: dict[tuple[int, int], float] = {}
    out: dict[int, float] = {}
    for r, row in enumerate(rows):
        need = 0.0
        for c, cell in enumerate(row):
            if not (cell.wrap or cell.size):   # one line of the default size: the default height
                continue
            if cell.value is None or cell.value == "":
                continue
            lines = 1
            if cell.wrap:
                lines = line_count(text_of(cell.value), _cell_room(r, c, widths, merged, rooms), cell.bold,
                                   cell.size)
            height = lines * line_height(cell.size) + (2.0 if lines > 1 or (cell.size or 0) > BASE_SIZE else 0.0)
            need = max(need, height)
        if need > DEFAULT_ROW_HEIGHT:
            out[r] = min(round(need, 1), MAX_ROW_HEIGHT)
    return out


def content_widths(rows: Sequence[Sequence[CellData]], *, maxima: Mapping[int, float] | None = None,
                   minimum: float = 4.0, maximum: float | None = None,
                   skip: Sequence[int] = ()) -> dict[int, float]:
    """Column widths that fit each column's widest cell (plus padding), between `minimum` and
    `maximum` (layout.json's column_max by default; `maxima` per column): wider text wraps.
    Rows in `skip` do not count."""
    top = width("column_max") if maximum is None else maximum
    maxima = maxima or {}
    need: dict[int, float] = {}
    skipped = set(skip)
    fits: dict[tuple, float] = {}   # (value, its type, bold, size) -> its width: a table repeats its values
    for r, row in enumerate(rows):
        if r in skipped:
            continue
        for c, cell in enumerate(row):
            value = cell.value
            if value is None:
                continue
            key = (value, type(value), cell.bold, cell.size)   # (the type: 1, 1.0 and True are equal keys)
            w = fits.get(key)
            if w is None:
                w = fits[key] = _fit(value, cell.bold, cell.size)
            if w > need.get(c, 0.0):
                need[c] = w
    return {c: round(min(max(w, minimum), maxima.get(c, top)), 1) for c, w in need.items()}


def _fit(value: Any, bold: bool, size: float | None) -> float:
    """The width that shows a cell's value, each of its lines on one line."""
    text = text_of(value)
    if "\n" in text:
        return max(fit_width(line, bold, size) for line in text.split("\n"))
    return fit_width(text, bold, size)


def _text_span(widths: dict[int, float], used: int, total: float) -> int:
    """Columns a full-width line covers: the `used` columns, plus more (of :data:`TEXT_COLUMN`
    digits, the last one making up the difference) when they are narrower than `total` digits."""
    have = _span_width(widths, 0, used)
    span = used
    while have < total:
        widths[span] = round(min(TEXT_COLUMN, total - have), 1) if total - have >= TEXT_COLUMN / 2 else \
            round(TEXT_COLUMN / 2, 1)
        have += widths[span]
        span += 1
    return span


# ------------------------------------------------------------ submission

FORM_TOP = 4  # rows before the first section (title, round, player, blank)
HELP_TITLE = "How to fill this in"


def form_tab(form: Form, player: str, prefill: Mapping[str, Sequence[Mapping[str, Any]]] | None = None) -> TabData:
    """The Submission tab; `prefill` puts a raw submission back (after an undo, or a demo player typing)."""
    return _form_cells(form, player, prefill).build(frozen_rows=3, protected=True)


def _form_cells(form: Form, player: str, prefill: Mapping[str, Sequence[Mapping[str, Any]]] | None) -> _Tab:
    """The Submission tab's cells before they are laid out (wrapped, rows sized): what it shows."""
    prefill = prefill or {}
    nfields = max((len(s.fields) for s in form.sections), default=0)
    widths = _form_widths(form, player, prefill)
    span = _text_span(widths, 1 + nfields, width("form_text"))
    t = _Tab(widths)
    t.title(f"Submission: {form.round_label}", span)
    t.add([CellData("Round", bold=True), CellData(form.round, align="left")])
    t.add([CellData("Player", bold=True), CellData(player)])
    t.add()
    for sec in form.sections:
        t.section(sec.title, span)
        t.add([CellData("", fill=color("header"))] +
              [CellData(f.label, fill=color("header"), bold=True, wrap=True, valign="top") for f in sec.fields])
        typed = prefill.get(sec.name, [])
        for i in range(sec.rows):
            label = sec.row_labels[i] if i < len(sec.row_labels) else (str(i + 1) if sec.rows > 1 else "")
            typed_row = typed[i] if i < len(typed) else {}
            t.add([CellData(label, bold=True)] +
                  [CellData(_typed(typed_row.get(f.name)), fill=color("input"), choices=tuple(f.choices),
                            input=True) for f in sec.fields])
        if sec.help:
            t.text(sec.help, span)
        t.add()
    t.section(HELP_TITLE, span)
    for line in form.help:
        t.text(line, span)
    for line in field_help_lines(form):
        t.text(line, span)
    return t


def field_help_lines(form: Form) -> list[str]:
    """What each field allows, once: fields of several sections that allow the same are one line;
    a label two sections use for different things is named with its section."""
    groups: dict[tuple[str, str], list[tuple[Section, Any]]] = {}
    for sec in form.sections:
        for f in sec.fields:
            groups.setdefault((f.label, f.allowed(every=True)), []).append((sec, f))
    labels = [label for label, _allowed in groups]
    lines = []
    for (label, allowed), fields in groups.items():
        sec, f = fields[0]
        name = f"{sec.title} - {label}" if labels.count(label) > 1 else label
        lines.append(f"{name}: {allowed}" + (f" ({f.help})" if f.help and f.kind.value != "text" else ""))
    return lines


def closed_form_tab(title: str) -> TabData:
    """The Submission tab once the match is over: its title, and "finished" as the round marker."""
    widths = {c: TEXT_COLUMN for c in range(math.ceil(width("form_text") / TEXT_COLUMN))}
    t = _Tab(widths)
    t.title(title, len(widths))
    t.add([CellData("Round", bold=True), CellData("finished")])
    return t.build(frozen_rows=1, protected=True)


def _form_widths(form: Form, player: str, prefill: Mapping[str, Sequence[Mapping[str, Any]]]) -> dict[int, float]:
    first = [fit_width(x, bold=True) for x in ("Round", "Player")]
    first += [fit_width(label, bold=True) for s in form.sections for label in s.row_labels]
    first += [fit_width(str(i + 1), bold=True) for s in form.sections for i in range(s.rows)]
    widths = {0: max(first)}
    top = width("column_max")
    for s in form.sections:
        typed = prefill.get(s.name, [])
        for j, f in enumerate(s.fields, start=1):
            need = [width("input_min"), min(fit_width(f.label, bold=True), top / 2)]
            need += [min(fit_width(str(ch)) + 2.0, top) for ch in f.choices]  # + the dropdown's arrow
            need += [min(fit_width(str(row.get(f.name) or "")), top) for row in typed]
            widths[j] = round(max(widths.get(j, 0.0), *need), 1)
    widths[1] = max(widths.get(1, 0.0), min(fit_width(player), top))
    return widths


def _typed(value: Any) -> Any:
    if value is None or (isinstance(value, str) and value == ""):
        return None
    return str(value)


REDRAW = "run `sheetbridge repair GAME_FOLDER --player NAME` to redraw it"


def read_form(form: Form, rect: Rect, where: str) -> dict[str, list[dict[str, str]]] | None:
    """The raw submission typed into a Submission tab laid out by :func:`form_tab`.

    Returns None when the tab is for another round (not yet refreshed, or stale).
    Raises WorkbookError (naming `where`) when the layout was changed by hand.
    """
    def cell(r: int, c: int) -> str:
        if r < len(rect) and c < len(rect[r]):
            return rect[r][c]
        return ""

    marker = cell(1, 1).strip()
    if cell(1, 0).strip() != "Round":
        raise WorkbookError(f"{where}: cell A2 should say 'Round' but says {_quoted(cell(1, 0))}",
                            fix="the tab's layout was changed: " + REDRAW)
    marked = _round_of(marker)
    if marked is None:
        raise WorkbookError(f"{where}: cell B2 should hold the round number but holds {_quoted(marker)}", fix=REDRAW)
    if marked != form.round:
        return None
    out: dict[str, list[dict[str, str]]] = {}
    for sec, r in zip(form.sections, _section_rows(form)):
        if cell(r, 0).strip() != sec.title:
            raise WorkbookError(f"{where}: cell A{r + 1} should say {sec.title!r} but says {_quoted(cell(r, 0))}",
                                fix="rows were inserted or deleted: undo that, or " + REDRAW)
        rows = []
        for i in range(sec.rows):
            rr = r + 2 + i
            rows.append({f.name: cell(rr, 1 + j) for j, f in enumerate(sec.fields)})
        out[sec.name] = rows
    return out


def _section_rows(form: Form) -> list[int]:
    """The 0-based row of each section's title (the layout of :func:`form_tab`)."""
    out, r = [], FORM_TOP
    for sec in form.sections:
        out.append(r)
        r += 2 + sec.rows + (1 if sec.help else 0) + 1
    return out


@dataclass(frozen=True)
class StrayEntry:
    """Something typed in a Submission tab outside its input cells (sheetbridge ignores it)."""
    cell: str    # "C9"
    value: str   # what it holds, shortened
    near: str    # the section (or label) it is next to: "Your play"

    @property
    def message(self) -> str:
        return f"cell {self.cell} ({self.value!r}, near '{self.near}') is outside the boxes to fill in and is ignored"


def stray_entries(form: Form, rect: Rect, player: str | None = None) -> list[StrayEntry]:
    """Non-empty cells of a Submission tab that are neither input cells nor what :func:`form_tab`
    draws there (an entry typed a row too low, a label overwritten), top to bottom, left to right.

    The player cell (B3) is compared only when `player` is given. A tab showing another round
    (see :func:`read_form`) is not this form's: nothing is reported. Columns from
    :data:`~.model.HELPER_COLUMN` on belong to the backend and are not looked at.
    """
    if len(rect) < 2 or len(rect[1]) < 2 or _round_of(rect[1][1]) != form.round:
        return []
    expected, inputs = _form_values(form, player if player is not None else _at(rect, 2, 1))
    out = []
    for r, row in enumerate(rect):
        for c, value in enumerate(row[:HELPER_COLUMN]):
            if not value.strip() or (r, c) in inputs or value == _at(expected, r, c):
                continue
            out.append(StrayEntry(_a1(r, c), _short(value), _near(form, r)))
    return out


def _form_values(form: Form, player: str) -> tuple[list[list[str]], set[tuple[int, int]]]:
    """What :func:`_form_cells` draws with nothing typed, as a read returns it (``TabData.values()``),
    and its input cells: the same rows without making a cell or measuring a column, because a
    resolve checks every player's form (tests/test_fast_paths_read.py compares it with the tab drawn)."""
    rows: list[list[Any]] = [[f"Submission: {form.round_label}"], ["Round", form.round], ["Player", player], []]
    inputs: set[tuple[int, int]] = set()
    for sec in form.sections:
        rows.append([sec.title])
        rows.append(["", *(f.label for f in sec.fields)])
        for i in range(sec.rows):
            inputs.update((len(rows), c) for c in range(1, 1 + len(sec.fields)))
            rows.append([sec.row_labels[i] if i < len(sec.row_labels) else (str(i + 1) if sec.rows > 1 else "")])
        if sec.help:
            rows.append([sec.help])
        rows.append([])
    rows.append([HELP_TITLE])
    rows += [[line] for line in form.help]
    rows += [[line] for line in field_help_lines(form)]
    return normalise([[stored_text(v) if isinstance(v, str) else v for v in row] for row in rows]), inputs


def _round_of(text: str) -> int | None:
    try:
        return int(float(text.strip()))
    except (ValueError, OverflowError):   # "inf": a 5,000-digit number
        return None


def _at(rect: Rect, r: int, c: int) -> str:
    return rect[r][c] if r < len(rect) and c < len(rect[r]) else ""


def _a1(r: int, c: int) -> str:
    letters, n = "", c + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(65 + rem) + letters
    return f"{letters}{r + 1}"


def _quoted(text: str) -> str:
    """A cell's text as a host's error line echoes it: quoted, at most a short prefix, escaped."""
    return f"'{shorten(text, 20)}'"   # (its lines also name the file and the fix: they stay short)


def _short(text: str, limit: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _near(form: Form, r: int) -> str:
    """The title of the block row `r` is in (or under): a section, the help, or the top rows' label."""
    if r < FORM_TOP:
        return {1: "Round", 2: "Player"}.get(r, "the title")
    near = form.sections[0].title if form.sections else HELP_TITLE
    for sec, start in zip(form.sections, _section_rows(form)):
        if r >= start:
            near = sec.title
    ends = _section_rows(form)
    if form.sections:
        last = form.sections[-1]
        help_row = ends[-1] + 2 + last.rows + (1 if last.help else 0) + 1
        if r >= help_row:
            near = HELP_TITLE
    return near


# ------------------------------------------------------------ reports

def report_tab(report: Report, notice: Sequence[str] = (), *, kept: bool = True) -> TabData:
    """A report (a player's Results, the public Board): title, then per block a title band, its
    lines (wrapped across the tab), its grid (columns sized to the cells, centred) and its legend
    (each colour as a chip naming it). `kept`: the last few reports' tabs are kept (a round draws
    the same public board into every book: once); a report drawn once (a player's own Results) is
    not kept, so that it does not push the board out."""
    if not kept:
        return _layout_report(report, tuple(notice))
    tab = _kept_report_tab(report, tuple(notice))
    return dataclasses.replace(tab, rows=[list(row) for row in tab.rows], col_widths=dict(tab.col_widths),
                               merges=list(tab.merges), row_heights=dict(tab.row_heights))


@functools.lru_cache(maxsize=4)
def _kept_report_tab(report: Report, notice: tuple[str, ...]) -> TabData:
    return _layout_report(report, notice)


def _layout_report(report: Report, notice: tuple[str, ...]) -> TabData:
    grids = [row for b in report.blocks for row in b.grid]
    ncols = max((len(row) for row in grids), default=0)
    if ncols:
        cells = [[CellData(c.text, bold=c.bold) for c in row] for row in grids]
        widths = content_widths(cells, minimum=3.5)
        for c in range(ncols):
            widths.setdefault(c, 3.5)
        span = _text_span(widths, ncols, width("report_text"))
    else:
        # Several columns, not one wide one: a program printing one page wide cannot shrink a
        # single column that is wider than the page, it cuts it.
        span = math.ceil(width("report_text") / TEXT_COLUMN)
        widths = {c: TEXT_COLUMN for c in range(span)}
    t = _Tab(widths)
    t.title(report.title, span)
    for line in notice:
        t.text(line, span)
    t.add()
    for block in report.blocks:
        t.section(block.title, span)
        for line in block.lines:
            t.text(line, span)
        for grow in block.grid:
            t.add([CellData(c.text, fill=c.fill, bold=c.bold, font=c.font, align="center") for c in grow])
        colours = [label for label, fill in block.legend if fill.upper() != "FFFFFF"]
        chip = _columns_for(widths, max((fit_width(x) for x in colours), default=0.0), max(ncols, 1))
        for label, fill in block.legend:   # each colour as a chip naming it, in a readable ink
            if fill.upper() == "FFFFFF":   # a note, not a colour
                t.text(label, span)
            else:
                t.text(label, chip, fill=fill, font=readable_font(fill))
        t.add()
    return t.build(protected=True, frozen_rows=1)


def _columns_for(widths: Mapping[int, float], need: float, most: int) -> int:
    """How many columns from the first it takes to be `need` digits wide (at most `most`)."""
    for n in range(1, most + 1):
        if _span_width(widths, 0, n) >= need:
            return n
    return most


def luminance(rgb: str) -> float:
    """Relative luminance of an RRGGBB colour (WCAG 2)."""
    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (int(rgb[i:i + 2], 16) for i in (0, 2, 4))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two RRGGBB colours, 1 to 21 (4.5 is enough for text).

    >>> round(contrast("000000", "FFFFFF"), 1)
    21.0
    """
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def readable_font(fill: str) -> str:
    """Black or white, whichever reads better on `fill`."""
    return "000000" if contrast(fill, "000000") >= contrast(fill, "FFFFFF") else "FFFFFF"


# ------------------------------------------------------------ master tabs

def header_cells(header: Sequence[str]) -> list[CellData]:
    return [CellData(h, fill=color("header"), bold=True, wrap=True, valign="top") for h in header]


def _value_cell(v: Any) -> CellData:
    if isinstance(v, CellData):
        return v
    return CellData(v, align=None if isinstance(v, str) or v is None else "center")


def key_value_tab(title: str, rows: Sequence[Sequence[Any]], header: Sequence[str],
                  max_widths: Mapping[int, float] | None = None) -> TabData:
    """A titled table of the host's: a header row, then rows (values, or cells already styled);
    columns sized to content up to layout.json's column_max (or `max_widths`), longer text wrapped."""
    body = [header_cells(header)] + [[_value_cell(v) for v in row] for row in rows]
    widths = content_widths(body, maxima=max_widths, minimum=6.0)
    t = _Tab(widths)
    t.title(title, max(len(header), 1))
    for row in body:
        t.add(row)
    return t.build(frozen_rows=2)


def table_tab(rows: Sequence[Sequence[Any]], header_fill: bool = True, protected: bool = False,
              max_widths: Mapping[int, float] | None = None) -> TabData:
    """A plain table whose first row is its header (content tables, the host log): no title row.
    Columns sized to content up to layout.json's column_max (or `max_widths`), longer text wrapped."""
    body = [header_cells(row) if i == 0 and header_fill else
            [changed(_value_cell(v), bold=True) if i == 0 else _value_cell(v) for v in row]
            for i, row in enumerate(rows)]
    t = _Tab(content_widths(body, maxima=max_widths, minimum=6.0))
    for row in body:
        t.add(row)
    return t.build(protected=protected, frozen_rows=1 if header_fill else 0)


_XLSX_ESCAPE_LIKE = re.compile(r"_(?=x[0-9A-Fa-f]{4}_)")
_XML_UNSAFE = re.compile("[\ud800-\udfff\ufffe\uffff]")


RECORD_TITLE = "sheetbridge record: do not edit"
RECORD_HEAD = "head"     # column A of an entry record's row 2 (an older record's row 2 starts its JSON: "{")


def json_text(data: Any) -> str:
    """`data` as the canonical JSON a record tab holds (sorted keys, no spaces), escaped so every
    backend stores and gives back exactly this text."""
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    # An "_" before "xHHHH_" is written as \u005f: the xlsx backend would escape it, making the cell longer.
    text = _XLSX_ESCAPE_LIKE.sub(r"\\u005f", text)
    # XML 1.0 cannot hold U+FFFE, U+FFFF or a lone surrogate (a player can type them; readers
    # give back U+FFFD): written as JSON escapes, the record reads back as it was sealed.
    return _XML_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


_ASTRAL = re.compile("[\U00010000-\U0010FFFF]")   # characters Excel and Google count as two


def _chunks(text: str) -> list[str]:
    """`text` in cells of at most ``chunk`` characters, as Excel and Google count them
    (xlsx cells hold 32767, Google's 50000), so no backend ever has to shorten one."""
    size = int(_layout()["chunk"])
    if not text or text.isascii() or not _ASTRAL.search(text):   # one unit per character: plain slices
        # (the loop below is slow, and so is max(text) over a long record entry)
        return [text[i:i + size] for i in range(0, len(text), size)] or [""]
    chunks, start, used = [], 0, 0
    for i, ch in enumerate(text):
        units = 2 if ord(ch) > 0xFFFF else 1
        if used + units > size:
            chunks.append(text[start:i])
            start, used = i, 0
        used += units
    chunks.append(text[start:])
    return chunks


def json_tab(data: Any) -> TabData:
    """JSON split into cells of at most ``chunk`` characters, one under another in column A."""
    rows = [[CellData(RECORD_TITLE)]] + [[CellData(c)] for c in _chunks(json_text(data))]
    return TabData(rows=rows, hidden=True)


def entries_tab(head: str, entries: Sequence[tuple[str, str]]) -> TabData:
    """A record of entries: the head's JSON text in row 2, then one row per entry (label, text), each
    text in cells of at most ``chunk`` characters from column B on. An entry already written keeps its
    row and text, so a new round only adds a row (host/record.py)."""
    rows = [[CellData(RECORD_TITLE)], [CellData(RECORD_HEAD)] + [CellData(c) for c in _chunks(head)]]
    rows += [[CellData(label)] + [CellData(c) for c in _chunks(text)] for label, text in entries]
    return TabData(rows=rows, hidden=True)


def read_entries_tab(rect: Rect, where: str) -> tuple[str, list[str]] | None:
    """The head's text and each entry's text of a record of entries (:func:`entries_tab`); None for a
    record written as one JSON text (:func:`json_tab`, read by :func:`read_json_tab`)."""
    if not rect or not rect[0] or not rect[0][0].startswith("sheetbridge record"):
        raise WorkbookError(f"{where}: this is not a sheetbridge record tab (cell A1 was changed)")
    if len(rect) < 2 or not rect[1] or rect[1][0] != RECORD_HEAD:
        return None
    return "".join(rect[1][1:]), ["".join(row[1:]) for row in rect[2:] if row and row[0]]


def read_json_tab(rect: Rect, where: str) -> Any:
    if not rect or not rect[0] or not rect[0][0].startswith("sheetbridge record"):
        raise WorkbookError(f"{where}: this is not a sheetbridge record tab (cell A1 was changed)")
    text = "".join(row[0] if row else "" for row in rect[1:])
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise WorkbookError(f"{where}: the record is damaged ({e.msg}, character {e.pos}); "
                            "restore the master workbook from a backup") from None


__all__ = ["FORM_TOP", "HELP_TITLE", "StrayEntry", "closed_form_tab", "color", "content_widths", "contrast",
           "entries_tab", "fit_width", "form_tab", "header_cells", "json_tab", "json_text", "key_value_tab",
           "line_count", "line_height", "luminance", "read_entries_tab", "read_form", "read_json_tab",
           "readable_font", "report_tab", "row_heights", "stray_entries", "tab_name", "table_tab", "text_width",
           "width"]
