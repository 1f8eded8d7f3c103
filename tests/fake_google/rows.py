"""Rows inserted, deleted and moved in the fake Google (``insertDimension``, ``deleteDimension``,
``moveDimension``): every row below moves with its cells, its height, its merges and the protected
ranges over it, as on Google
(https://developers.google.com/sheets/api/reference/rest/v4/spreadsheets/request#insertdimensionrequest).
Mixed into :class:`~tests.fake_google.server.FakeGoogle` (kept apart: the server is long enough)."""
from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .server import File, Sheet


def _error(code: int, message: str) -> Exception:
    from .server import ApiError   # (the server imports this module)
    return ApiError(code, message)


class RowMoves:
    """The batchUpdate requests that move rows (methods of FakeGoogle)."""
    files: dict
    _sheet_of: Any
    _guard: Any

    def _bu_insertDimension(self, f: File, args: dict, who: str) -> None:
        """Rows inserted at ``range.startIndex``: every row from there moves down with its cells
        (values, formats, validation), its height, its merges and the protected ranges over it; the
        new rows take the formats and height of the row before (``inheritFromBefore``) or after.
        (https://developers.google.com/sheets/api/reference/rest/v4/spreadsheets/request#insertdimensionrequest;
        columns are not modelled.)"""
        s, start, n = self._rows_range(f, args.get("range") or {}, who, insert=True)
        before = bool(args.get("inheritFromBefore"))
        if before and start == 0:
            raise _error(400, "inheritFromBefore requires a startIndex greater than 0")
        src = start - 1 if before else start
        self._shift_rows(s, start, n)
        inherit = {c: {"userEnteredFormat": copy.deepcopy(cell["userEnteredFormat"])}
                   for (r, c), cell in s.cells.items() if r == (src if before else src + n) and "userEnteredFormat" in cell}
        for i in range(start, start + n):
            for c, cell in inherit.items():
                s.cells[(i, c)] = copy.deepcopy(cell)
            px = s.row_px.get(src if before else src + n)
            if px is not None:
                s.row_px[i] = px
        s.props["gridProperties"]["rowCount"] = s.rows + n

    def _bu_deleteDimension(self, f: File, args: dict, who: str) -> None:
        """Rows ``[startIndex, endIndex)`` deleted: the rows below move up (as insertDimension, reversed)."""
        s, start, n = self._rows_range(f, args.get("range") or {}, who)
        if n >= s.rows:
            raise _error(400, "You can't delete all the rows on the sheet.")
        for m in s.merges:
            if m["startRowIndex"] < start + n and start < m["endRowIndex"] and not (
                    start <= m["startRowIndex"] and m["endRowIndex"] <= start + n):
                raise _error(501, "the fake Google does not model deleting part of a merged range")
        s.merges = [m for m in s.merges if not (start <= m["startRowIndex"] and m["endRowIndex"] <= start + n)]
        s.cells = {k: v for k, v in s.cells.items() if not start <= k[0] < start + n}
        s.row_px = {k: v for k, v in s.row_px.items() if not start <= k < start + n}
        self._shift_rows(s, start + n, -n)
        s.props["gridProperties"]["rowCount"] = s.rows - n

    def _bu_moveDimension(self, f: File, args: dict, who: str) -> None:
        """Rows ``source`` [startIndex, endIndex) moved before row ``destinationIndex`` (counted before
        they are taken out): they take their cells (values, formats, validation) and heights with
        them, the rows between shift to make room
        (https://developers.google.com/sheets/api/reference/rest/v4/spreadsheets/request#movedimensionrequest).
        Merges and protected ranges over the rows that move or shift are not modelled (501)."""
        s, start, n = self._rows_range(f, args.get("source") or {}, who)
        dest = args.get("destinationIndex", 0)
        if not 0 <= dest <= s.rows:
            raise _error(400, f"Invalid destinationIndex {dest}: the sheet has {s.rows} rows")
        if start <= dest <= start + n:
            raise _error(501, "the fake Google does not model moving rows onto themselves")
        lo, hi = min(start, dest), max(start + n, dest)
        self._guard(self.files[f.id], s, lo, hi, 0, s.cols, who)
        grids = list(s.merges) + [g for pr in s.protected
                                  for g in [pr.get("range") or {}, *pr.get("unprotectedRanges", [])]
                                  if "startRowIndex" in g]
        if any(g.get("startRowIndex", 0) < hi and lo < g.get("endRowIndex", s.rows) for g in grids):
            raise _error(501, "the fake Google does not model moving rows under a merge or a protected range")
        order = list(range(s.rows))
        block, rest = order[start:start + n], order[:start] + order[start + n:]
        at = dest if dest < start else dest - n
        where = {old: new for new, old in enumerate(rest[:at] + block + rest[at:])}
        s.cells = {(where[r], c): v for (r, c), v in s.cells.items()}
        s.row_px = {where[r]: v for r, v in s.row_px.items()}

    def _rows_range(self, f: File, rng: dict, who: str, insert: bool = False) -> tuple[Sheet, int, int]:
        s = self._sheet_of(f, rng.get("sheetId", 0))
        if rng.get("dimension") != "ROWS":
            raise _error(501, "the fake Google models inserting and deleting rows only")
        if "startIndex" not in rng or "endIndex" not in rng:
            raise _error(400, "Both the start and end indexes must be bounded.")
        start, end = rng["startIndex"], rng["endIndex"]
        if start < 0 or start >= end or (start > s.rows if insert else end > s.rows):
            raise _error(400, f"Invalid dimension range: rows {start} to {end} of {s.rows}")
        self._guard(self.files[f.id], s, start, s.rows, 0, s.cols, who)   # the rows that move must be editable
        return s, start, end - start

    @staticmethod
    def _shift_rows(s: Sheet, start: int, n: int) -> None:
        """Rows from ``start`` on move by ``n`` (cells, heights, merges, protected ranges); a merge or
        protected range that straddles ``start`` grows or shrinks with it."""
        s.cells = {((r + n if r >= start else r), c): v for (r, c), v in s.cells.items()}
        s.row_px = {(r + n if r >= start else r): v for r, v in s.row_px.items()}
        grids = list(s.merges)
        for pr in s.protected:
            grids += [g for g in [pr.get("range") or {}, *pr.get("unprotectedRanges", [])] if "startRowIndex" in g]
        for g in grids:
            if g.get("startRowIndex", 0) >= start:
                g["startRowIndex"] = g.get("startRowIndex", 0) + n
            if "endRowIndex" in g and g["endRowIndex"] > start:
                g["endRowIndex"] += n
