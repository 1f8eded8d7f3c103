"""The Sheets v4 read side and values endpoints of the fake Google: a spreadsheet's metadata,
values get, update and clear (methods of :class:`~tests.fake_google.server.FakeGoogle`, kept
apart: the server is long enough)."""
from __future__ import annotations

import copy
from typing import Any

from .model import ApiError, File, _check_cell_size, a1, entered, parse_range, rendered


class SheetValues:
    """Spreadsheet metadata and the values endpoints (methods of FakeGoogle)."""
    files: dict
    _guard: Any

    # ---- sheets: metadata
    def _spreadsheet_json(self, f: File) -> dict:
        sheets = []
        for s in f.sheets:
            entry: dict[str, Any] = {"properties": copy.deepcopy(s.props)}
            if s.protected:
                entry["protectedRanges"] = copy.deepcopy(s.protected)
            if s.merges:
                entry["merges"] = copy.deepcopy(s.merges)
            sheets.append(entry)
        return {"spreadsheetId": f.id,
                "properties": {"title": f.name, "locale": "en_US", "autoRecalc": "ON_CHANGE",
                               "timeZone": "Etc/GMT"},
                "sheets": sheets,
                "spreadsheetUrl": f"https://docs.google.com/spreadsheets/d/{f.id}/edit"}

    # ---- sheets: values
    def _values_get(self, f: File, rng: str, q: dict) -> dict:
        sheet, r0, r1, c0, c1 = parse_range(f, rng)
        r1, c1 = min(r1, sheet.rows), min(c1, sheet.cols)
        option = q.get("valueRenderOption", "FORMATTED_VALUE")
        used = [k for k, v in sheet.cells.items() if v.get("userEnteredValue")]
        last_r = min(r1, max((k[0] for k in used), default=-1) + 1)
        last_c = min(c1, max((k[1] for k in used), default=-1) + 1)
        rows = []
        for r in range(r0, last_r):
            row = [rendered(sheet.cells.get((r, c)), option) for c in range(c0, last_c)]
            while row and row[-1] == "":
                row.pop()
            rows.append(row)
        while rows and not rows[-1]:
            rows.pop()
        if q.get("majorDimension") == "COLUMNS":
            width = max((len(r) for r in rows), default=0)
            rows = [[r[i] if i < len(r) else "" for r in rows] for i in range(width)]
            for col in rows:
                while col and col[-1] == "":
                    col.pop()
        out: dict[str, Any] = {"range": a1(sheet, r0, r1, c0, c1), "majorDimension": q.get("majorDimension", "ROWS")}
        if rows:
            out["values"] = rows
        return out

    def _values_update(self, f: File, rng: str, body: dict, q: dict, who: str) -> dict:
        option = q.get("valueInputOption")
        if not option or option == "INPUT_VALUE_OPTION_UNSPECIFIED":
            raise ApiError(400, "'valueInputOption' is required but not specified")
        if body.get("range") and parse_range(f, body["range"])[:3] != parse_range(f, rng)[:3]:
            pass
        sheet, r0, r1, c0, c1 = parse_range(f, rng)
        values = body.get("values") or []
        if body.get("majorDimension") == "COLUMNS":
            h = max((len(c) for c in values), default=0)
            values = [[col[i] if i < len(col) else "" for col in values] for i in range(h)]
        height = len(values)
        width = max((len(r) for r in values), default=0)
        if r0 + height > sheet.rows or c0 + width > sheet.cols:
            raise ApiError(400, f"Range ({a1(sheet, r0, r0 + height, c0, c0 + width)}) exceeds grid limits. "
                                f"Max rows: {sheet.rows}, max columns: {sheet.cols}")
        self._guard(f, sheet, r0, r0 + height, c0, c0 + width, who)
        for i, row in enumerate(values):
            for j, v in enumerate(row):
                if v is None:
                    continue
                cell = dict(sheet.cells.get((r0 + i, c0 + j), {}))
                ev = entered(v, option)
                _check_cell_size(ev)
                if ev is None:
                    cell.pop("userEnteredValue", None)
                else:
                    cell["userEnteredValue"] = ev
                sheet.cells[(r0 + i, c0 + j)] = cell
        return {"spreadsheetId": f.id, "updatedRange": a1(sheet, r0, r0 + height, c0, c0 + width),
                "updatedRows": height, "updatedColumns": width, "updatedCells": height * width}

    def _clear(self, f: File, rng: str, who: str) -> str:
        sheet, r0, r1, c0, c1 = parse_range(f, rng)
        self._guard(f, sheet, r0, r1, c0, c1, who)
        for (r, c) in list(sheet.cells):
            if r0 <= r < r1 and c0 <= c < c1:
                sheet.cells[(r, c)].pop("userEnteredValue", None)
        return a1(sheet, r0, min(r1, sheet.rows), c0, min(c1, sheet.cols))
