"""Cells and tabs as Sheets request bodies: values and formats (:func:`cell_json`), dropdowns,
merges, sizes and the protection that leaves a form's input cells editable. Pure: the ids a
request names are given by the caller (ids.py)."""
from __future__ import annotations

import re
from typing import Any, Iterable, Mapping

from ..model import GOOGLE_CELL_LIMIT, CellData, TabData, cell_string
from .kept import Shuffle

DEFAULT_COL_PIXELS = 100
DEFAULT_ROW_PIXELS = 21        # Google's default row height
GOOGLE_FONT_POINTS, XLSX_FONT_POINTS = 10, 11   # each program's default font size
MIN_ROWS, MIN_COLS = 100, 26
WRITE_FIELDS = "userEnteredValue,userEnteredFormat,dataValidation"


def _colour(hex_rgb: str) -> dict:
    h = hex_rgb.lstrip("#")
    if len(h) == 8:   # AARRGGBB
        h = h[2:]
    if len(h) != 6 or not re.fullmatch(r"[0-9A-Fa-f]{6}", h):
        raise ValueError(f"not an RRGGBB colour: {hex_rgb!r}")
    r, g, b = (int(h[i:i + 2], 16) / 255 for i in (0, 2, 4))
    return {"red": round(r, 4), "green": round(g, 4), "blue": round(b, 4)}


def _value(value) -> dict | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, (int, float)):
        return {"numberValue": value}
    # Always literal text, never a formula; never over Google's cell limit (shortened with a note).
    return {"stringValue": cell_string(str(value), GOOGLE_CELL_LIMIT)}


_ALIGN = {"left": "LEFT", "center": "CENTER", "right": "RIGHT"}
_VALIGN = {"top": "TOP", "middle": "MIDDLE", "bottom": "BOTTOM"}


def cell_json(cell: CellData) -> dict:
    out: dict[str, Any] = {}
    value = _value(cell.value)
    if value is not None:
        out["userEnteredValue"] = value
    fmt: dict[str, Any] = {}
    if cell.fill:
        fmt["backgroundColor"] = _colour(cell.fill)
    text: dict[str, Any] = {}
    if cell.bold:
        text["bold"] = True
    if cell.font:
        text["foregroundColor"] = _colour(cell.font)
    if cell.size:
        # Sizes are set for an 11-point book (xlsx); Google's default is 10 points.
        text["fontSize"] = max(1, int(round(cell.size * GOOGLE_FONT_POINTS / XLSX_FONT_POINTS)))
    if text:
        fmt["textFormat"] = text
    if cell.align in _ALIGN:
        fmt["horizontalAlignment"] = _ALIGN[cell.align]
    if cell.valign in _VALIGN:
        fmt["verticalAlignment"] = _VALIGN[cell.valign]
    if cell.wrap:
        fmt["wrapStrategy"] = "WRAP"
    if fmt:
        out["userEnteredFormat"] = fmt
    return out


def _rects(cells: Iterable[tuple[int, int, Any]]) -> list[tuple[int, int, int, int, Any]]:
    """Group (row, col, label) cells into rectangles (r0, r1, c0, c1, label), end-exclusive:
    runs along a row, then identical runs on consecutive rows merged."""
    by_row: dict[int, list[tuple[int, Any]]] = {}
    for r, c, label in cells:
        by_row.setdefault(r, []).append((c, label))
    runs: list[tuple[int, int, int, Any]] = []   # row, c0, c1, label
    for r in sorted(by_row):
        row = sorted(by_row[r], key=lambda x: x[0])
        start, prev, label = row[0][0], row[0][0], row[0][1]
        for c, lab in row[1:]:
            if c == prev + 1 and lab == label:
                prev = c
                continue
            runs.append((r, start, prev + 1, label))
            start, prev, label = c, c, lab
        runs.append((r, start, prev + 1, label))
    open_: dict[tuple[int, int, Any], list] = {}
    out: list[list] = []
    for r, c0, c1, label in runs:
        k = (c0, c1, label)
        rect = open_.get(k)
        if rect is not None and rect[1] == r:
            rect[1] = r + 1
        else:
            rect = [r, r + 1, c0, c1, label]
            open_[k] = rect
            out.append(rect)
    return [tuple(x) for x in sorted(out, key=lambda x: (x[0], x[2]))]


def points_to_pixels(points: float) -> int:
    """A row height in points (the model's unit, as in xlsx) as Google's pixels (96 per inch)."""
    return int(round(float(points) * 4 / 3))


def _input_rects(tab: TabData) -> list[list[int]]:
    """The rectangles of a protected tab's input cells, [r0, r1, c0, c1] end-exclusive: left editable."""
    inputs = [(r, c, True) for r, row in enumerate(tab.rows) for c, cell in enumerate(row) if cell.input]
    return [[r0, r1, c0, c1] for r0, r1, c0, c1, _ in _rects(inputs)]


def protection_signature(tab: TabData) -> list[list[int]]:
    """A protected tab's signature in the id cache: its input rectangles, sorted."""
    return sorted(_input_rects(tab))


def _grid(sheet_id: int, r0: int, r1: int, c0: int, c1: int) -> dict:
    return {"sheetId": sheet_id, "startRowIndex": r0, "endRowIndex": r1,
            "startColumnIndex": c0, "endColumnIndex": c1}


# ---- one tab's requests, in the order a write sends them: the sheet, its content, its protection
def grid_properties(tab: TabData) -> dict:
    """The tab's grid: big enough for its rows, merges and sizes, never under Google's default."""
    nrows = max(len(tab.rows), max((m[2] for m in tab.merges), default=0),
                max(tab.row_heights, default=-1) + 1)
    ncols = max(tab.width, max(tab.col_widths, default=-1) + 1, max((m[3] for m in tab.merges), default=0))
    return {"rowCount": max(nrows, tab.frozen_rows + 1, MIN_ROWS),
            "columnCount": max(ncols, MIN_COLS),
            "frozenRowCount": tab.frozen_rows}


def replace_sheet_requests(sheet_id: int, title: str, tab: TabData, grid: Mapping[str, int]) -> list[dict]:
    """An existing tab made ready to be replaced whole."""
    return [
        {"updateSheetProperties": {   # the title too: a renamed tab gets its name back
            "properties": {"sheetId": sheet_id, "title": title, "hidden": tab.hidden,
                           "gridProperties": grid},
            "fields": "title,hidden,gridProperties.rowCount,gridProperties.columnCount,"
                      "gridProperties.frozenRowCount"}},
        # The tab is replaced whole: last time's merges and row heights go too.
        {"unmergeCells": {"range": {"sheetId": sheet_id}}},
        {"updateDimensionProperties": {
            "range": {"sheetId": sheet_id, "dimension": "ROWS", "startIndex": 0,
                      "endIndex": grid["rowCount"]},
            "properties": {"pixelSize": DEFAULT_ROW_PIXELS}, "fields": "pixelSize"}}]


def add_sheet_request(sheet_id: int, title: str, tab: TabData, grid: Mapping[str, int]) -> dict:
    """A new tab, with the id the caller preassigned."""
    return {"addSheet": {"properties": {"sheetId": sheet_id, "title": title,
                                        "hidden": tab.hidden, "gridProperties": grid}}}


def shift_requests(sheet_id: int, title: str, tab: TabData, grid: Mapping[str, int],
                   old_first: int, new_first: int, count: int, old_rows: int) -> list[dict]:
    """An existing tab made ready to be written around the rows it keeps (kept.py): rows
    [old_first, old_first + count) it holds become rows [new_first, new_first + count) of ``tab``,
    moved with their cells, merges and heights by inserting or deleting the rows above them; the
    merges and heights of every other row go, as in :func:`replace_sheet_requests`. Google moves
    everything on a row with it (``insertDimension``, ``deleteDimension``). ``old_rows``: the grid's
    rows before (no request names an empty range)."""
    old_end, new_end = old_first + count, new_first + count
    reqs: list[dict] = []
    if old_first:
        reqs.append({"unmergeCells": {"range": {"sheetId": sheet_id, "startRowIndex": 0, "endRowIndex": old_first}}})
    if old_end < old_rows:
        reqs.append({"unmergeCells": {"range": {"sheetId": sheet_id, "startRowIndex": old_end}}})
    moved = new_first - old_first
    if moved > 0:
        reqs.append({"insertDimension": {"range": {"sheetId": sheet_id, "dimension": "ROWS", "startIndex": old_first,
                                                   "endIndex": old_first + moved}, "inheritFromBefore": False}})
    elif moved < 0:
        reqs.append({"deleteDimension": {"range": {"sheetId": sheet_id, "dimension": "ROWS", "startIndex": new_first,
                                                   "endIndex": old_first}}})
    reqs.append(replace_sheet_requests(sheet_id, title, tab, grid)[0])   # the grid: rows below the end go
    for r0, r1 in ((0, new_first), (new_end, grid["rowCount"])):
        if r0 < r1:
            reqs.append({"updateDimensionProperties": {
                "range": {"sheetId": sheet_id, "dimension": "ROWS", "startIndex": r0, "endIndex": r1},
                "properties": {"pixelSize": DEFAULT_ROW_PIXELS}, "fields": "pixelSize"}})
    return reqs


def shuffle_requests(sheet_id: int, title: str, tab: TabData, grid: Mapping[str, int], sh: Shuffle) -> list[dict]:
    """An existing tab made ready to be written around the cells it holds (kept.Shuffle): its merges
    undone (all of them are merged again after the cells) and its rows unfrozen, the rows it no longer holds deleted, the
    others moved into their new order (``moveDimension``: a row takes its cells with it), rows
    inserted for the new ones, its grid set and every row's height as in :func:`replace_sheet_requests`."""
    whole = replace_sheet_requests(sheet_id, title, tab, grid)

    def rows(a: int, b: int) -> dict:
        return {"sheetId": sheet_id, "dimension": "ROWS", "startIndex": a, "endIndex": b}

    return [whole[1],
            # (rows unfrozen while they move: a move across the frozen rows' edge is never asked of Google)
            {"updateSheetProperties": {"properties": {"sheetId": sheet_id, "gridProperties": {"frozenRowCount": 0}},
                                       "fields": "gridProperties.frozenRowCount"}},
            *({"deleteDimension": {"range": rows(a, b)}} for a, b in sh.deletes),
            *({"moveDimension": {"source": rows(k, k + 1), "destinationIndex": d}} for k, d in sh.moves),
            *({"insertDimension": {"range": rows(a, b), "inheritFromBefore": False}} for a, b in sh.inserts),
            whole[0], whole[2]]


def shuffled_cells(sheet_id: int, tab: TabData, grid: Mapping[str, int], sh: Shuffle) -> list[tuple[dict, list]]:
    """The cells :func:`content_requests` sends after :func:`shuffle_requests`: the columns that
    changed over the rows held, the inserted rows whole, and the rows below the tab cleared."""
    parts: list[tuple[dict, list]] = []
    for c0, c1 in sh.bands:
        rng = {"sheetId": sheet_id, "startRowIndex": sh.first, "endRowIndex": sh.last, "startColumnIndex": c0}
        if c1 is not None:
            rng["endColumnIndex"] = c1
        parts.append((rng, [row[c0:c1] for row in tab.rows[sh.first:sh.last]]))
    for a, b in sh.inserts:
        parts.append(({"sheetId": sheet_id, "startRowIndex": a, "endRowIndex": b}, tab.rows[a:b]))
    if len(tab.rows) < grid["rowCount"]:
        parts.append(({"sheetId": sheet_id, "startRowIndex": len(tab.rows)}, []))
    return parts


def content_requests(sheet_id: int, tab: TabData, grid: Mapping[str, int], exists: bool = False,
                     kept: tuple[int, int] | None = None, cells: list[tuple[dict, list]] | None = None) -> list[dict]:
    """Column widths, every cell (values, formats, dropdowns), merges and row heights. In a tab that
    `exists`, the rows ``tab.kept_rows`` says it holds already are not sent again; with ``kept``
    (rows [a, b) already in place, made so by :func:`shift_requests`), neither are their merges,
    heights and dropdowns; ``cells``: the ranges and rows to send instead (:func:`shuffled_cells`)."""
    reqs: list[dict] = []
    reqs.append({"updateDimensionProperties": {
        "range": {"sheetId": sheet_id, "dimension": "COLUMNS", "startIndex": 0,
                  "endIndex": grid["columnCount"]},
        "properties": {"pixelSize": DEFAULT_COL_PIXELS}, "fields": "pixelSize"}})
    for col, width in sorted(tab.col_widths.items()):
        reqs.append({"updateDimensionProperties": {
            "range": {"sheetId": sheet_id, "dimension": "COLUMNS", "startIndex": int(col),
                      "endIndex": int(col) + 1},
            "properties": {"pixelSize": int(round(float(width) * 7 + 5))}, "fields": "pixelSize"}})
    a, b = kept or tab.kept_rows
    if cells is not None:
        parts = cells
    elif exists and 0 <= a < b <= len(tab.rows):
        # the rows above the kept ones, then those below to the grid's end (rows below the last are cleared)
        parts = ([({"sheetId": sheet_id, "startRowIndex": 0, "endRowIndex": a}, tab.rows[:a])] if a else [])
        if b < grid["rowCount"]:
            parts.append(({"sheetId": sheet_id, "startRowIndex": b}, tab.rows[b:]))
    else:
        parts = [({"sheetId": sheet_id}, tab.rows)]
    for rng, rows in parts:
        update: dict[str, Any] = {"range": rng, "fields": WRITE_FIELDS}
        if rows:
            update["rows"] = [{"values": [cell_json(c) for c in row]} for row in rows]
        reqs.append({"updateCells": update})

    def outside(row: int) -> bool:
        return kept is None or not a <= row < b

    for r0, c0, r1, c1 in tab.merges:
        if outside(r0):
            reqs.append({"mergeCells": {"range": _grid(sheet_id, r0, r1, c0, c1), "mergeType": "MERGE_ALL"}})
    for row, height in sorted(tab.row_heights.items()):
        if not outside(row):
            continue
        reqs.append({"updateDimensionProperties": {
            "range": {"sheetId": sheet_id, "dimension": "ROWS", "startIndex": int(row),
                      "endIndex": int(row) + 1},
            "properties": {"pixelSize": points_to_pixels(height)}, "fields": "pixelSize"}})
    drops = [(r, c, choices) for r, row in enumerate(tab.rows) if outside(r) for c, cell in enumerate(row)
             if (choices := tuple(str(v) for v in cell.choices if str(v) != ""))]
    for r0, r1, c0, c1, choices in _rects(drops):
        reqs.append({"setDataValidation": {
            "range": _grid(sheet_id, r0, r1, c0, c1),
            "rule": {"condition": {"type": "ONE_OF_LIST",
                                   "values": [{"userEnteredValue": str(v)} for v in choices]},
                     "strict": True, "showCustomUi": True}}})
    return reqs


def protection_requests(sheet_id: int, title: str, tab: TabData, old: list | None, host_email: str | None,
                        at: int) -> tuple[list[dict], list]:
    """The tab's protection (only the host edits it, its input cells aside) made what ``tab`` asks,
    given ``old``, the cache's [protected-range id, signature] (None: unprotected). ``at``: the
    index the first request returned will have in the whole batch (a new range's id comes back in
    that reply). Returns the requests and what to record once the batch succeeded (ids.py)."""
    if tab.protected:
        rects = _input_rects(tab)
        sig = sorted(rects)
        if old is not None and old[1] == sig:
            return [], []
        if old is not None:
            # The same protected range, new input cells (a form changes from round to round): its id
            # stays, so the copy of the cache in the master's record stays right.
            return ([{"updateProtectedRange": {
                        "protectedRange": {"protectedRangeId": old[0],
                                           "unprotectedRanges": [_grid(sheet_id, *x) for x in rects]},
                        "fields": "unprotectedRanges"}}],
                    [("reprotect", title, old[0], sig)])
        pr: dict[str, Any] = {"range": {"sheetId": sheet_id},
                              "description": "sheetbridge: only the host edits this tab",
                              "warningOnly": False}
        if rects:
            pr["unprotectedRanges"] = [_grid(sheet_id, *x) for x in rects]
        if host_email:
            pr["editors"] = {"users": [host_email]}
        return [{"addProtectedRange": {"protectedRange": pr}}], [("protect", title, at, sig)]
    if old is not None:
        return [{"deleteProtectedRange": {"protectedRangeId": old[0]}}], [("unprotect", title)]
    return [], []
