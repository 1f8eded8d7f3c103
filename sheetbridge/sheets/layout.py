"""Drawing forms and reports into tabs, and reading forms back. Knows no game.

A Submission tab is laid out from a :class:`Form` alone, so the same form
gives the same cell positions when the tab is read back:

    row 1   title ("Submission: Round 3 of 11")
    row 2   Round | 3          <- the round marker read back to catch stale tabs
    row 3   Player | Ann
    then per section: a title row, a header row of field labels, `rows` input rows
    then the help lines and, per field, what it allows.
"""
from __future__ import annotations

import json
from typing import Any, Mapping, Sequence

from ..core.errors import WorkbookError
from ..core.types import Form, Report
from ..templates import layout as _layout
from .model import CellData, Rect, TabData


def tab_name(key: str) -> str:
    return _layout()["tabs"][key]


def color(key: str) -> str:
    return _layout()["colors"][key]


def _title(text: str) -> CellData:
    return CellData(text, fill=color("title"), font=color("title_font"), bold=True)


# ------------------------------------------------------------ submission

FORM_TOP = 4  # rows before the first section (title, round, player, blank)


def form_tab(form: Form, player: str, prefill: Mapping[str, Sequence[Mapping[str, Any]]] | None = None) -> TabData:
    """The Submission tab; `prefill` puts a raw submission back (after an undo, or a demo player typing)."""
    prefill = prefill or {}
    rows: list[list[CellData]] = [
        [_title(f"Submission: {form.round_label}")],
        [CellData("Round", bold=True), CellData(form.round)],
        [CellData("Player", bold=True), CellData(player)],
        [],
    ]
    for sec in form.sections:
        rows.append([CellData(sec.title, fill=color("section"), bold=True)])
        rows.append([CellData("", fill=color("header"))] +
                    [CellData(f.label, fill=color("header"), bold=True) for f in sec.fields])
        for i in range(sec.rows):
            label = sec.row_labels[i] if i < len(sec.row_labels) else (str(i + 1) if sec.rows > 1 else "")
            typed = prefill.get(sec.name, [])
            typed_row = typed[i] if i < len(typed) else {}
            rows.append([CellData(label, bold=True)] +
                        [CellData(_typed(typed_row.get(f.name)), fill=color("input"), choices=tuple(f.choices),
                                  input=True) for f in sec.fields])
        if sec.help:
            rows.append([CellData(sec.help, wrap=False)])
        rows.append([])
    rows.append([CellData("How to fill this in", bold=True)])
    rows.extend([CellData(line)] for line in form.help)
    for sec in form.sections:
        for f in sec.fields:
            rows.append([CellData(f"{f.label}: {f.allowed()}" + (f" ({f.help})" if f.help and f.kind.value != "text" else ""))])
    widths = {0: float(_layout()["widths"]["first"])}
    for c in range(1, max(len(s.fields) for s in form.sections) + 1):
        widths[c] = float(_layout()["widths"]["other"]) + 4
    return TabData(rows=rows, col_widths=widths, frozen_rows=3)


def _typed(value: Any) -> Any:
    if value is None or (isinstance(value, str) and value == ""):
        return None
    return str(value)


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
        raise WorkbookError(f"{where}: cell A2 should say 'Round' but says {cell(1, 0)!r}; the tab's layout was "
                            "changed. Redraw it with `sheetbridge repair GAME_FOLDER --player NAME` (the player then re-enters the submission)")
    try:
        marked = int(float(marker))
    except ValueError:
        raise WorkbookError(f"{where}: cell B2 should hold the round number but holds {marker!r}") from None
    if marked != form.round:
        return None
    out: dict[str, list[dict[str, str]]] = {}
    r = FORM_TOP
    for sec in form.sections:
        if cell(r, 0).strip() != sec.title:
            raise WorkbookError(f"{where}: row {r + 1} should start the section {sec.title!r} but says "
                                f"{cell(r, 0)!r}; rows were inserted or deleted. Undo that, or redraw the tab with "
                                f"`sheetbridge repair GAME_FOLDER --player NAME` (the player then re-enters the submission)")
        rows = []
        for i in range(sec.rows):
            rr = r + 2 + i
            rows.append({f.name: cell(rr, 1 + j) for j, f in enumerate(sec.fields)})
        out[sec.name] = rows
        r += 2 + sec.rows + (1 if sec.help else 0) + 1
    return out


# ------------------------------------------------------------ reports

def report_tab(report: Report, notice: Sequence[str] = ()) -> TabData:
    rows: list[list[CellData]] = [[_title(report.title)]]
    for line in notice:
        rows.append([CellData(line)])
    rows.append([])
    width = 1
    for block in report.blocks:
        rows.append([CellData(block.title, fill=color("section"), bold=True)])
        rows.extend([CellData(line)] for line in block.lines)
        for grow in block.grid:
            rows.append([CellData(c.text, fill=c.fill, bold=c.bold, font=c.font) for c in grow])
            width = max(width, len(grow))
        for label, fill in block.legend:
            rows.append([CellData("", fill=fill), CellData(label)])
        rows.append([])
    widths = {0: float(_layout()["widths"]["first"])}
    for c in range(1, width):
        widths[c] = float(_layout()["widths"]["other"])
    return TabData(rows=rows, protected=True, col_widths=widths, frozen_rows=1)


# ------------------------------------------------------------ master tabs

def key_value_tab(title: str, rows: Sequence[Sequence[Any]], header: Sequence[str]) -> TabData:
    out = [[_title(title)], [CellData(h, fill=color("header"), bold=True) for h in header]]
    out += [[CellData(v) for v in row] for row in rows]
    return TabData(rows=out, col_widths={0: 28.0, 1: 22.0, 2: 60.0}, frozen_rows=2)


def table_tab(rows: Sequence[Sequence[Any]], header_fill: bool = True, protected: bool = False) -> TabData:
    out = []
    for i, row in enumerate(rows):
        out.append([CellData(v, fill=color("header") if (i == 0 and header_fill) else None, bold=i == 0)
                    for v in row])
    return TabData(rows=out, protected=protected, frozen_rows=1 if header_fill else 0)


def json_tab(data: Any) -> TabData:
    """JSON split into cells (xlsx cells hold 32767 characters, Google's 50000)."""
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    size = int(_layout()["chunk"])
    chunks = [text[i:i + size] for i in range(0, len(text), size)] or [""]
    rows = [[CellData("sheetbridge record: do not edit")]] + [[CellData(c)] for c in chunks]
    return TabData(rows=rows, hidden=True)


def read_json_tab(rect: Rect, where: str) -> Any:
    if not rect or not rect[0] or not rect[0][0].startswith("sheetbridge record"):
        raise WorkbookError(f"{where}: this is not a sheetbridge record tab (cell A1 was changed)")
    text = "".join(row[0] if row else "" for row in rect[1:])
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise WorkbookError(f"{where}: the record is damaged ({e.msg}, character {e.pos}); "
                            "restore the master workbook from a backup") from None
