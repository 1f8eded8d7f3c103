"""What the fake Google holds and how it reads and writes one cell: spreadsheets (:class:`File`,
:class:`Sheet`), the errors it answers (:class:`ApiError`), A1 notation, a value as entered and as
rendered, a field mask applied to a cell. (Moved out of server.py, which serves requests.)"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

SPREADSHEET_MIME = "application/vnd.google-apps.spreadsheet"
HOSTS = ("https://sheets.googleapis.com/", "https://www.googleapis.com/", "https://script.googleapis.com/")
STATUS = {400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND",
          409: "ALREADY_EXISTS", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 501: "NOT_IMPLEMENTED",
          503: "UNAVAILABLE"}
REASONS = {400: "badRequest", 401: "authError", 403: "insufficientFilePermissions", 404: "notFound",
           429: "rateLimitExceeded", 500: "backendError", 501: "notImplemented", 503: "backendError"}
FAKE_EPOCH = 1767268800.0    # 2026-01-01 12:00:00 UTC
ROLE_RANK = {"reader": 1, "commenter": 1, "writer": 2, "fileOrganizer": 2, "organizer": 3, "owner": 3}


class ApiError(Exception):
    def __init__(self, code: int, message: str, violations: Iterable = (), reason: str | None = None,
                 headers: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.violations = list(violations)
        self.reason = reason
        self.headers = dict(headers or {})


# --------------------------------------------------------------------------- data
@dataclass
class Sheet:
    props: dict
    cells: dict = field(default_factory=dict)        # (row, col) -> CellData json
    col_px: dict = field(default_factory=dict)       # col -> pixel size
    protected: list = field(default_factory=list)    # ProtectedRange json
    merges: list = field(default_factory=list)       # GridRange json of merged cells
    row_px: dict = field(default_factory=dict)       # row -> pixel size (a row not in it: Google's default)

    @property
    def id(self) -> int:
        return self.props["sheetId"]

    @property
    def title(self) -> str:
        return self.props["title"]

    @property
    def rows(self) -> int:
        return self.props["gridProperties"]["rowCount"]

    @property
    def cols(self) -> int:
        return self.props["gridProperties"]["columnCount"]


@dataclass
class File:
    id: str
    name: str
    mime: str
    owner: str
    permissions: list = field(default_factory=list)
    writers_can_share: bool = True
    copy_requires_writer: bool = False
    parents: list = field(default_factory=list)
    sheets: list = field(default_factory=list)       # [Sheet] for spreadsheets
    created: float = 0.0
    app_properties: dict = field(default_factory=dict)
    trashed: bool = False
    content: bytes = b""                             # a plain file's bytes (a media upload)

    def role(self, who: str) -> str | None:
        best = None
        for p in self.permissions:
            if p["type"] == "anyone" or (p["type"] == "user" and p.get("emailAddress", "").lower() == who.lower()):
                if best is None or ROLE_RANK[p["role"]] > ROLE_RANK[best]:
                    best = p["role"]
        return best

    def sheet(self, ref: int | str) -> Sheet | None:
        for s in self.sheets:
            if (isinstance(ref, int) and s.id == ref) or (isinstance(ref, str) and s.title == ref):
                return s
        return None


@dataclass
class Logged:
    who: str
    method: str
    path: str
    method_id: str
    file: str
    kind: str
    status: int
    timeout: Any
    at: float = 0.0


# --------------------------------------------------------------------------- A1 notation
def col_index(letters: str) -> int:
    n = 0
    for ch in letters.upper():
        n = n * 26 + ord(ch) - 64
    return n - 1


def col_letters(index: int) -> str:
    s = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        s = chr(65 + rem) + s
    return s


A1 = re.compile(r"^(?:([A-Za-z]{1,3})?(\d+)?)(?::(?:([A-Za-z]{1,3})?(\d+)?))?$")


def parse_range(f: File, text: str) -> tuple[Sheet, int, int, int, int]:
    """(sheet, r0, r1, c0, c1), end-exclusive, clipped to nothing: bounds may exceed the grid."""
    bad = ApiError(400, f"Unable to parse range: {text}")
    if "!" in text:
        name, _, cells = text.rpartition("!")
    else:
        name, cells = text, ""
    if name.startswith("'"):
        if not name.endswith("'") or len(name) < 2:
            raise bad
        name = name[1:-1].replace("''", "'")
    sheet = f.sheet(name)
    if sheet is None and "!" not in text:
        m = A1.match(text)
        if m and any(m.groups()) and f.sheets:
            sheet, cells = f.sheets[0], text
    if sheet is None:
        raise bad
    if not cells:
        return sheet, 0, sheet.rows, 0, sheet.cols
    m = A1.match(cells)
    if not m or not any(m.groups()):
        raise bad
    ca, ra, cb, rb = m.groups()
    single = ":" not in cells
    c0 = col_index(ca) if ca else 0
    r0 = int(ra) - 1 if ra else 0
    if single:
        return sheet, r0, r0 + 1, c0, c0 + 1
    c1 = col_index(cb) + 1 if cb else sheet.cols
    r1 = int(rb) if rb else sheet.rows
    return sheet, r0, r1, c0, c1


def a1(sheet: Sheet, r0: int, r1: int, c0: int, c1: int) -> str:
    title = sheet.title
    q = "'" + title.replace("'", "''") + "'" if re.search(r"[^A-Za-z0-9_]", title) else title
    return f"{q}!{col_letters(c0)}{r0 + 1}:{col_letters(max(c1 - 1, c0))}{max(r1, r0 + 1)}"


# --------------------------------------------------------------------------- values
def rendered(cell: dict | None, option: str) -> Any:
    v = (cell or {}).get("userEnteredValue")
    if not v:
        return ""
    if "formulaValue" in v:
        return v["formulaValue"] if option == "FORMULA" else ""   # the fake evaluates nothing
    if "stringValue" in v:
        return v["stringValue"]
    if "boolValue" in v:
        b = v["boolValue"]
        return ("TRUE" if b else "FALSE") if option == "FORMATTED_VALUE" else b
    if "numberValue" in v:
        n = v["numberValue"]
        if isinstance(n, float) and n.is_integer() and abs(n) < 1e15:
            n = int(n)
        return str(n) if option == "FORMATTED_VALUE" else n
    if "errorValue" in v:
        return "#ERROR!"
    return ""


def entered(value: Any, option: str) -> dict | None:
    """The ExtendedValue a values.update stores for one JSON value."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, (int, float)):
        return {"numberValue": value}
    text = str(value)
    if option == "USER_ENTERED":
        if text.startswith("=") and len(text) > 1:
            return {"formulaValue": text}
        if text.upper() in ("TRUE", "FALSE"):
            return {"boolValue": text.upper() == "TRUE"}
        if re.fullmatch(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?", text.strip()):
            n = float(text)
            return {"numberValue": int(n) if n.is_integer() else n}
        if text.startswith("'"):
            return {"stringValue": text[1:]}
    return {"stringValue": text}


MAX_CELL_CHARS = 50000
DEFAULT_ROW_PX = 21   # Google's default row height, in pixels


def _unq(text: str) -> str:
    """A Drive query string literal's value: \\' and \\\\ escapes undone."""
    return re.sub(r"\\(.)", r"\1", text)


def _check_cell_size(value: dict | None) -> None:
    text = (value or {}).get("stringValue") or (value or {}).get("formulaValue") or ""
    if len(text) > MAX_CELL_CHARS:
        raise ApiError(400, f"Your input contains more than the maximum of {MAX_CELL_CHARS} characters "
                            "in a single cell.")


def _inside(grid: dict, sheet: Sheet, r: int, c: int) -> bool:
    return (grid.get("sheetId", 0) == sheet.id
            and grid.get("startRowIndex", 0) <= r < grid.get("endRowIndex", sheet.rows)
            and grid.get("startColumnIndex", 0) <= c < grid.get("endColumnIndex", sheet.cols))


def _mask(fields: str | None) -> list[str]:
    out = [x.strip() for x in re.split(r",(?![^(]*\))", fields or "") if x.strip()]
    if not out:
        raise ApiError(400, "At least one field must be specified.")
    return out


CELL_FIELDS = ("userEnteredValue", "userEnteredFormat", "dataValidation", "note", "hyperlink", "textFormatRuns")


def _apply(cells: dict, key: tuple, data: dict, fields: list[str]) -> None:
    cell = dict(cells.get(key, {}))
    for path in fields:
        tops = CELL_FIELDS if path == "*" else (path,)
        for path_ in tops:
            keys = path_.split(".")
            src, dst = data, cell
            for k in keys[:-1]:
                src = src.get(k, {}) if isinstance(src, dict) else {}
                dst[k] = dict(dst.get(k) or {})   # copy on write: the original may be shared
                dst = dst[k]
            if keys[-1] in src and src[keys[-1]] not in (None, {}):
                dst[keys[-1]] = copy.deepcopy(src[keys[-1]])
            else:
                dst.pop(keys[-1], None)
    cell = {k: v for k, v in cell.items() if v not in (None, {})}
    if cell:
        cells[key] = cell
    else:
        cells.pop(key, None)
