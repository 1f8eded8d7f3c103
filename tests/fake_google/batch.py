"""The Sheets v4 ``spreadsheets:batchUpdate`` of the fake Google: the batch applied whole or not at
all, and each request kind it models (sheets, cells, validation, sizes, merges, protection; rows
moved: rows.py) (methods of :class:`~tests.fake_google.server.FakeGoogle`, kept apart: the server
is long enough)."""
from __future__ import annotations

import copy
from typing import Any

from .model import DEFAULT_ROW_PX, ApiError, File, Sheet, _apply, _check_cell_size, _mask, a1


class BatchUpdates:
    """The batchUpdate requests (methods of FakeGoogle)."""
    files: dict
    rng: Any
    _guard: Any

    # ---- sheets: batchUpdate
    def _batch_update(self, f: File, body: dict, who: str) -> dict:
        reqs = body.get("requests") or []
        if not reqs:
            raise ApiError(400, "Must specify at least one request.")
        # Copy on write: cell dicts are replaced, never mutated, inside a batch.
        work = [Sheet(copy.deepcopy(x.props), dict(x.cells), dict(x.col_px), copy.deepcopy(x.protected),
                      copy.deepcopy(x.merges), dict(x.row_px)) for x in f.sheets]
        shadow = File(f.id, f.name, f.mime, f.owner, f.permissions, sheets=work)
        replies = []
        for i, req in enumerate(reqs):
            (kind, args), = req.items()
            handler = getattr(self, "_bu_" + kind, None)
            if handler is None:
                raise ApiError(501, f"the fake Google does not implement requests[{i}].{kind}")
            try:
                reply = handler(shadow, args, who)
            except ApiError as e:
                raise ApiError(e.code, f"Invalid requests[{i}].{kind}: {e.message}")
            replies.append({kind: reply} if reply is not None else {})
        if work and all(s.props.get("hidden") for s in work):
            raise ApiError(400, "Invalid requests: You can't hide all the sheets in a document.")
        for i, s in enumerate(sorted(work, key=lambda s: s.props["index"])):
            s.props["index"] = i
        f.sheets = sorted(work, key=lambda s: s.props["index"])
        return {"spreadsheetId": f.id, "replies": replies}

    def _sheet_of(self, f: File, sheet_id: Any) -> Sheet:
        s = f.sheet(int(sheet_id or 0))
        if s is None:
            raise ApiError(400, f"No grid with id: {sheet_id}")
        return s

    def _bounds(self, f: File, grid: dict) -> tuple[Sheet, int, int, int, int]:
        s = self._sheet_of(f, grid.get("sheetId", 0))
        r0, r1 = grid.get("startRowIndex", 0), grid.get("endRowIndex", s.rows)
        c0, c1 = grid.get("startColumnIndex", 0), grid.get("endColumnIndex", s.cols)
        if r1 > s.rows or c1 > s.cols or r0 < 0 or c0 < 0 or r0 > r1 or c0 > c1:
            raise ApiError(400, f"Range ({a1(s, r0, r1, c0, c1)}) exceeds grid limits. "
                                f"Max rows: {s.rows}, max columns: {s.cols}")
        return s, r0, r1, c0, c1

    def _bu_addSheet(self, f: File, args: dict, who: str) -> dict:
        props = copy.deepcopy(args.get("properties") or {})
        sid = props.get("sheetId")
        if sid is None:
            sid = self.rng.randrange(1, 2 ** 31 - 1)
        if f.sheet(int(sid)) is not None:
            raise ApiError(400, f"A sheet with the id {sid} already exists.")
        title = props.get("title") or f"Sheet{len(f.sheets) + 1}"
        if any(s.title.lower() == title.lower() for s in f.sheets):
            raise ApiError(400, f'A sheet with the name "{title}" already exists. Please enter another name.')
        grid = {"rowCount": 1000, "columnCount": 26, **(props.get("gridProperties") or {})}
        if grid.get("frozenRowCount", 0) >= grid["rowCount"]:
            raise ApiError(400, "You can't freeze all visible rows on the sheet.")
        if not grid.get("frozenRowCount"):
            grid.pop("frozenRowCount", None)
        index = props.get("index", len(f.sheets))
        for s in f.sheets:
            if s.props["index"] >= index:
                s.props["index"] += 1
        full = {**props, "sheetId": int(sid), "title": title, "index": index,
                "sheetType": props.get("sheetType", "GRID"), "gridProperties": grid}
        if not full.get("hidden"):
            full.pop("hidden", None)
        f.sheets.append(Sheet(full))
        return {"properties": copy.deepcopy(full)}

    def _bu_deleteSheet(self, f: File, args: dict, who: str) -> None:
        s = self._sheet_of(f, args.get("sheetId"))
        if len(f.sheets) == 1:
            raise ApiError(400, "You can't remove all the sheets in a document.")
        f.sheets.remove(s)

    def _bu_updateSheetProperties(self, f: File, args: dict, who: str) -> None:
        props = args.get("properties") or {}
        fields = _mask(args.get("fields"))
        s = self._sheet_of(f, props.get("sheetId"))
        for path in fields:
            if path == "*":
                for k, v in props.items():
                    s.props[k] = copy.deepcopy(v)
                continue
            src, dst, keys = props, s.props, path.split(".")
            for k in keys[:-1]:
                src = src.get(k, {}) if isinstance(src, dict) else {}
                dst = dst.setdefault(k, {})
            if keys[-1] in src:
                dst[keys[-1]] = copy.deepcopy(src[keys[-1]])
            else:
                dst.pop(keys[-1], None)
        if "title" in s.props and any(o is not s and o.title.lower() == s.title.lower() for o in f.sheets):
            raise ApiError(400, f'A sheet with the name "{s.title}" already exists. Please enter another name.')
        grid = s.props.setdefault("gridProperties", {})
        grid.setdefault("rowCount", 1000)
        grid.setdefault("columnCount", 26)
        if grid.get("frozenRowCount", 0) >= grid["rowCount"]:
            raise ApiError(400, "You can't freeze all visible rows on the sheet.")
        if grid.get("frozenRowCount") == 0:
            grid.pop("frozenRowCount")
        if s.props.get("hidden") is False:
            s.props.pop("hidden")
        s.cells = {k: v for k, v in s.cells.items() if k[0] < s.rows and k[1] < s.cols}
        s.col_px = {k: v for k, v in s.col_px.items() if k < s.cols}
        s.row_px = {k: v for k, v in s.row_px.items() if k < s.rows}
        s.merges = [m for m in s.merges if m["endRowIndex"] <= s.rows and m["endColumnIndex"] <= s.cols]

    def _bu_updateSpreadsheetProperties(self, f: File, args: dict, who: str) -> None:
        if "title" in _mask(args.get("fields")) and (args.get("properties") or {}).get("title"):
            self.files[f.id].name = args["properties"]["title"]

    def _bu_updateCells(self, f: File, args: dict, who: str) -> None:
        fields = _mask(args.get("fields"))
        rows = args.get("rows") or []
        if "range" in args and "start" in args:
            raise ApiError(400, "oneof field 'area' is already set. Cannot set 'start'")
        if "range" in args:
            s, r0, r1, c0, c1 = self._bounds(f, args["range"])
        elif "start" in args:
            st = args["start"]
            s = self._sheet_of(f, st.get("sheetId", 0))
            r0, c0 = st.get("rowIndex", 0), st.get("columnIndex", 0)
            r1 = r0 + len(rows)
            c1 = c0 + max((len(r.get("values") or []) for r in rows), default=0)
        else:
            raise ApiError(400, "Must specify at least one of range or start.")
        if r0 + len(rows) > r1 or any(c0 + len(r.get("values") or []) > c1 for r in rows):
            raise ApiError(400, f"Range ({a1(s, r0, r1, c0, c1)}) exceeds grid limits. "
                                f"Max rows: {s.rows}, max columns: {s.cols}")
        self._guard(self.files[f.id], s, r0, r1, c0, c1, who)
        for row in rows:
            for v in row.get("values") or []:
                _check_cell_size((v or {}).get("userEnteredValue"))
        keys = {(r, c) for (r, c) in s.cells if r0 <= r < r1 and c0 <= c < c1}
        keys.update((r0 + i, c0 + j) for i, row in enumerate(rows) for j in range(len(row.get("values") or [])))
        for r, c in keys:
            row = (rows[r - r0].get("values") or []) if r - r0 < len(rows) else []
            data = row[c - c0] if c - c0 < len(row) else {}
            _apply(s.cells, (r, c), data or {}, fields)

    def _bu_repeatCell(self, f: File, args: dict, who: str) -> None:
        fields = _mask(args.get("fields"))
        s, r0, r1, c0, c1 = self._bounds(f, args.get("range") or {})
        self._guard(self.files[f.id], s, r0, r1, c0, c1, who)
        for r in range(r0, r1):
            for c in range(c0, c1):
                _apply(s.cells, (r, c), args.get("cell") or {}, fields)

    def _bu_setDataValidation(self, f: File, args: dict, who: str) -> None:
        s, r0, r1, c0, c1 = self._bounds(f, args.get("range") or {})
        rule = args.get("rule")
        if rule is not None:
            cond = rule.get("condition") or {}
            if cond.get("type") == "ONE_OF_LIST" and not cond.get("values"):
                raise ApiError(400, "Invalid ConditionValue: ONE_OF_LIST requires at least one value")
        for r in range(r0, r1):
            for c in range(c0, c1):
                cell = dict(s.cells.get((r, c), {}))
                if rule is None:
                    cell.pop("dataValidation", None)
                else:
                    cell["dataValidation"] = copy.deepcopy(rule)
                if cell:
                    s.cells[(r, c)] = cell
                else:
                    s.cells.pop((r, c), None)

    def _bu_updateDimensionProperties(self, f: File, args: dict, who: str) -> None:
        rng = args.get("range") or {}
        fields = _mask(args.get("fields"))
        s = self._sheet_of(f, rng.get("sheetId", 0))
        rows = rng.get("dimension") == "ROWS"
        count, sizes = (s.rows, s.row_px) if rows else (s.cols, s.col_px)
        start, end = rng.get("startIndex", 0), rng.get("endIndex", count)
        if start < 0 or end > count or start >= end:
            raise ApiError(400, f"Invalid dimension range: {'rows' if rows else 'columns'} {start} to {end} of {count}")
        size = (args.get("properties") or {}).get("pixelSize")
        if "pixelSize" in fields or "*" in fields:
            for i in range(start, end):
                if size is None or (rows and size == DEFAULT_ROW_PX):
                    sizes.pop(i, None)   # (a row at Google's default height: as one never sized)
                else:
                    sizes[i] = size

    def _bu_mergeCells(self, f: File, args: dict, who: str) -> None:
        s, r0, r1, c0, c1 = self._bounds(f, args.get("range") or {})
        self._guard(self.files[f.id], s, r0, r1, c0, c1, who)
        kind = args.get("mergeType", "MERGE_ALL")
        if kind == "MERGE_ROWS":
            parts = [(r, r + 1, c0, c1) for r in range(r0, r1)]
        elif kind == "MERGE_COLUMNS":
            parts = [(r0, r1, c, c + 1) for c in range(c0, c1)]
        else:
            parts = [(r0, r1, c0, c1)]
        for a0, a1, b0, b1 in parts:
            if (a1 - a0) * (b1 - b0) < 2:
                continue
            for m in s.merges:
                if a0 < m["endRowIndex"] and m["startRowIndex"] < a1 and b0 < m["endColumnIndex"] \
                        and m["startColumnIndex"] < b1:
                    raise ApiError(400, "You can't merge cells that overlap cells already merged.")
            s.merges.append({"sheetId": s.id, "startRowIndex": a0, "endRowIndex": a1,
                             "startColumnIndex": b0, "endColumnIndex": b1})
            for (r, c) in list(s.cells):   # a merge keeps the first cell's value only
                if a0 <= r < a1 and b0 <= c < b1 and (r, c) != (a0, b0):
                    cell = {k: v for k, v in s.cells[(r, c)].items() if k != "userEnteredValue"}
                    if cell:
                        s.cells[(r, c)] = cell
                    else:
                        s.cells.pop((r, c))

    def _bu_unmergeCells(self, f: File, args: dict, who: str) -> None:
        s, r0, r1, c0, c1 = self._bounds(f, args.get("range") or {})
        keep = []
        for m in s.merges:
            inside = (r0 <= m["startRowIndex"] and m["endRowIndex"] <= r1 and c0 <= m["startColumnIndex"]
                      and m["endColumnIndex"] <= c1)
            touches = (m["startRowIndex"] < r1 and r0 < m["endRowIndex"] and m["startColumnIndex"] < c1
                       and c0 < m["endColumnIndex"])
            if touches and not inside:
                raise ApiError(400, "You must select all cells in a merged range to merge or unmerge them.")
            if not inside:
                keep.append(m)
        s.merges = keep

    def _bu_addProtectedRange(self, f: File, args: dict, who: str) -> dict:
        pr = copy.deepcopy(args.get("protectedRange") or {})
        rng = pr.get("range")
        if not rng:
            raise ApiError(400, "ProtectedRange must have a range.")
        s = self._sheet_of(f, rng.get("sheetId", 0))
        whole = set(rng) <= {"sheetId"}
        if pr.get("unprotectedRanges") and not whole:
            raise ApiError(400, "Unprotected ranges may only be set on a protected sheet.")
        for u in pr.get("unprotectedRanges", []):
            self._bounds(f, u)
        if pr.get("warningOnly") and pr.get("editors"):
            raise ApiError(400, "Editors are not supported with warningOnly protection.")
        pr["protectedRangeId"] = self.rng.randrange(1, 2 ** 31 - 1)
        users = list((pr.get("editors") or {}).get("users") or [who])
        owner = self.files[f.id].owner
        if owner not in users:
            users.append(owner)
        pr["editors"] = {"users": users}
        pr["requestingUserCanEdit"] = who in users
        s.protected.append(pr)
        return {"protectedRange": copy.deepcopy(pr)}

    def _bu_updateProtectedRange(self, f: File, args: dict, who: str) -> None:
        new = args.get("protectedRange") or {}
        fields = _mask(args.get("fields"))
        for s in f.sheets:
            for pr in s.protected:
                if pr["protectedRangeId"] != new.get("protectedRangeId"):
                    continue
                for key in (list(new) if "*" in fields else fields):
                    if key == "protectedRangeId":
                        continue
                    if key in new and new[key] not in (None, [], {}):
                        if key == "unprotectedRanges":
                            for u in new[key]:
                                self._bounds(f, u)
                        pr[key] = copy.deepcopy(new[key])
                    else:
                        pr.pop(key, None)
                return None
        raise ApiError(400, f"No protected range with id: {new.get('protectedRangeId')}")

    def _bu_deleteProtectedRange(self, f: File, args: dict, who: str) -> None:
        pid = args.get("protectedRangeId")
        for s in f.sheets:
            for pr in s.protected:
                if pr["protectedRangeId"] == pid:
                    s.protected.remove(pr)
                    return None
        raise ApiError(400, f"No protected range with id: {pid}")
