"""An in-process Google Sheets v4 + Drive v3, for tests: no sockets, no network.

``FakeGoogle`` holds files (spreadsheets with tabs of cells, formats, data validation,
protected ranges; Drive permissions) and answers the endpoints gspread and the
GoogleStore use, with Google-shaped JSON and errors:

- Sheets: spreadsheets get, batchUpdate (sheets, cells, validation, sizes of rows and columns, merges,
  protection, rows inserted, deleted and moved: rows.py);
  values get, batchGet, update, batchUpdate,
  clear, batchClear.
- Drive: files create, get, list (``q`` with ``appProperties has {...}``, ``trashed``,
  ``mimeType`` and ``name`` terms), update (name, trashed; and a file's bytes by a simple media
  upload, ``uploadType=media``, kept in ``File.content``), delete; permissions create, list, delete.

Every request's query parameters and body are checked against the discovery
documents (:mod:`.schema`); a request that does not conform gets 400 with
Google's error shape. Identities come from the bearer token (``token_for(email)``);
a caller may only open files shared with them, write files where they are a
writer, and edit protected cells when they are an editor. Requests are counted
per spreadsheet and kind ("read", "write", "metadata", "drive"); 429 (with
Retry-After) and 500 answers can be injected on a seeded share of requests, either
instead of serving the request or AFTER serving it (the change is made but its answer
is lost: the nasty case for anything that is not idempotent); the per-user
60-a-minute read and write quotas are enforced on the fake's clock.

Use ``fake.session(email)`` (a requests.Session served by the fake through a
transport adapter) or ``serve(fake)`` for a loopback HTTP server on 127.0.0.1.
"""
from __future__ import annotations

import copy
import json
import random
import re
import string
import threading
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping
from urllib.parse import parse_qs, unquote, urlsplit

import requests
from requests.adapters import BaseAdapter
from requests.structures import CaseInsensitiveDict

from . import schema
from .rows import RowMoves

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


# --------------------------------------------------------------------------- the fake
class FakeGoogle(RowMoves):
    """The fake service. ``clock``/``sleep`` default to a virtual clock so pacing is instant."""

    def __init__(self, seed: int = 0, *, real_time: bool = False, quota_per_minute: int = 60,
                 validate: bool = True, latency: float = 0.0) -> None:
        self.rng = random.Random(seed)
        # Seconds of (real) network time each request takes, spent outside the fake's lock so that
        # concurrent requests overlap as on Google (benchmarks; tests keep 0).
        self.latency = latency
        self.files: dict[str, File] = {}
        self.now = 0.0
        self.real_time = real_time
        self.slept: list[float] = []
        self.quota_per_minute = quota_per_minute
        self.validate = validate
        self.counts: Counter = Counter()          # (file id or "-", kind) -> answered requests
        self.log: list[Logged] = []
        self.faults: dict | None = None
        self.persistent: list[dict] = []
        self.quota_hits: deque = deque()
        self._quota: dict[tuple[str, str], deque] = {}
        self._perm_ids = 0
        self.invitations: Counter = Counter()     # (file id, email) -> permissions created for it
        self._lock = threading.RLock()
        self.sheets_api = schema.sheets()
        self.drive_api = schema.drive()
        self.script_api = schema.script()
        self.scripts: dict[str, dict] = {}        # Apps Script projects: id -> {title, parentId, files}
        self.script_api_enabled = True            # a user can turn the Apps Script API off in their settings

    # ---- clock
    def clock(self) -> float:
        return time.monotonic() if self.real_time else self.now

    def wall_clock(self) -> float:
        """UTC seconds on the fake's clock: 2026-01-01 12:00 UTC at its start."""
        return time.time() if self.real_time else FAKE_EPOCH + self.now

    def sleep(self, seconds: float) -> None:
        if self.real_time:
            self.slept.append(seconds)
            time.sleep(seconds)
            return
        with self._lock:    # several threads may wait at once (a store publishing books together)
            self.slept.append(seconds)
            self.now += seconds

    # ---- identities and clients
    @staticmethod
    def token_for(email: str) -> str:
        return "fake-token:" + email

    def session(self, email: str) -> requests.Session:
        s = requests.Session()
        adapter = FakeTransport(self)
        for host in HOSTS:
            s.mount(host, adapter)
        s.headers["Authorization"] = "Bearer " + self.token_for(email)
        return s

    def store(self, email: str = "host@example.com", **kwargs):
        """A GoogleStore acting as ``email``, on the fake's clock."""
        from sheetbridge.sheets.google import GoogleStore
        kwargs.setdefault("clock", self.clock)
        kwargs.setdefault("sleep", self.sleep)
        kwargs.setdefault("host_email", email)
        kwargs.setdefault("wall_clock", self.wall_clock)
        return GoogleStore(session=self.session(email), **kwargs)

    def gspread_client(self, email: str):
        import gspread
        return gspread.Client(auth=None, session=self.session(email))

    # ---- fault injection
    def inject(self, share: float, statuses: Iterable[int] = (429, 500), seed: int = 1,
               retry_after: float = 2.0, kinds: Iterable[str] | None = None, after: float = 0.0) -> None:
        """Answer a seeded ``share`` of requests with one of ``statuses``. Of those, a seeded
        share ``after`` is answered so AFTER the request was served (its change is made, its
        answer lost); the rest instead of serving it. ``hits`` counts them by status and
        ``"after"``."""
        self.faults = {"share": share, "statuses": tuple(statuses), "rng": random.Random(seed),
                       "retry_after": retry_after, "kinds": set(kinds) if kinds else None, "hits": Counter(),
                       "after": after}

    def fail_always(self, status: int = 500, kinds: Iterable[str] = ("write",), file: str | None = None,
                    after: bool = False, methods: Iterable[str] | None = None) -> None:
        """Answer every request of ``kinds`` (to ``file``, or any; of ``methods``, discovery
        ids such as "drive.permissions.create", or any) with ``status``; with ``after``,
        serve it first (the change is made, the answer is lost)."""
        self.persistent.append({"status": status, "kinds": set(kinds), "file": file, "after": after,
                                "methods": set(methods) if methods else None})

    def clear_faults(self) -> None:
        self.faults = None
        self.persistent = []

    # ---- counting
    def count(self, kind: str | None = None, file: str | None = None) -> int:
        return sum(n for (f, k), n in self.counts.items()
                   if (kind is None or k == kind) and (file is None or f == file))

    def reset_counts(self) -> None:
        self.counts.clear()
        self.log.clear()

    # ---- inspection helpers (tests)
    def sheet(self, file_id: str, tab: str) -> Sheet:
        s = self.files[file_id].sheet(tab)
        assert s is not None, f"no tab {tab} in {file_id}"
        return s

    def cell(self, file_id: str, tab: str, row: int, col: int) -> dict:
        return self.sheet(file_id, tab).cells.get((row, col), {})

    def readable_by(self, email: str) -> list[str]:
        return [fid for fid, f in self.files.items()
                if f.owner == email or (f.role(email) and not f.trashed)]

    def live_files(self) -> list[str]:
        """Ids of the files not in the trash, oldest first."""
        return [fid for fid, f in sorted(self.files.items(), key=lambda x: (x[1].created, x[0])) if not f.trashed]

    # ---- the transport
    def handle(self, method: str, url: str, headers: Mapping[str, str], body: bytes | None,
               timeout: Any = None) -> tuple[int, dict, bytes]:
        """Serve one request. Requests from several threads (or loopback connections) are served
        one at a time under the fake's lock, each as a whole: state, counts, log, faults and quota
        stay consistent; only the simulated ``latency`` overlaps."""
        if self.latency:
            time.sleep(self.latency)
        with self._lock:
            parts = urlsplit(url)
            path = unquote(parts.path)
            raw_path = parts.path
            query = parse_qs(parts.query, keep_blank_values=True)
            api = (self.sheets_api if raw_path.startswith("/v4/") else
                   self.script_api if raw_path.startswith("/v1/projects") else self.drive_api)
            rel = raw_path[len(api.service_path):] if raw_path.startswith(api.service_path) else raw_path.lstrip("/")
            upload = raw_path.startswith("/upload/")       # a simple media upload: the body is the file's bytes
            m = api.find_upload(method, raw_path) if upload else api.find(method, rel)
            who, file_id, kind = "", "-", "drive" if api is self.drive_api else "read"
            status, out_headers, payload = 200, {}, None
            try:
                if m is None:
                    raise ApiError(404, f"The requested URL {path} was not found on this server.")
                args = ([unquote(a) for a in re.fullmatch(r"/upload/drive/v3/files/([^/]+)", raw_path).groups()]
                        if upload else [unquote(a) for a in m.pattern.match(rel).groups()])
                names = re.findall(r"\{([^}]+)\}", m.spec.get("flatPath", m.spec["path"]))
                pargs = dict(zip(names, args))
                file_id = pargs.get("spreadsheetId") or pargs.get("fileId") or "-"
                kind = self._kind(m.id)
                who = self._identity(headers)
                media = None
                if upload:
                    if query.get("uploadType", [""])[-1] != "media":
                        raise ApiError(501, "the fake Google implements only uploadType=media uploads")
                    media, body = body or b"", None
                try:
                    data = json.loads(body.decode("utf-8")) if body else None
                except (UnicodeDecodeError, ValueError):
                    raise ApiError(400, "Invalid JSON payload received. Unexpected token.")
                if self.validate:
                    problems = api.check_params(m, query) + api.check_body(m, data)
                    if problems:
                        raise ApiError(400, str(problems[0]) if len(problems) == 1 else
                                       f"{len(problems)} problems; first: {problems[0]}", problems)
                fault = self._faults(kind, file_id, m.id)
                if fault is not None and not fault[1]:
                    raise fault[0]
                self._check_quota(who, kind)
                payload = self._dispatch(m.id, pargs, {k: v[-1] for k, v in query.items()}, query, data, who)
                if media is not None:
                    self.files[pargs["fileId"]].content = media
                if fault is not None:
                    raise fault[0]          # served, but the answer is lost on the way back
                if payload is None:
                    status = 204
            except ApiError as e:
                status, out_headers = e.code, e.headers
                payload = self._error(e, api is self.drive_api)
            self.counts[(file_id, kind)] += 1 if status < 300 else 0
            if status >= 300:
                self.counts[(file_id, f"error:{status}")] += 1
            self.log.append(Logged(who, method.upper(), path, m.id if m else "?", file_id, kind, status, timeout,
                                   self.clock()))
            body_out = b"" if payload is None else json.dumps(payload).encode("utf-8")
            out_headers = {"Content-Type": "application/json; charset=UTF-8", **out_headers}
            return status, out_headers, body_out

    @staticmethod
    def _kind(method_id: str) -> str:
        if method_id.startswith("drive.") or method_id.startswith("script."):
            return "drive"
        if method_id == "sheets.spreadsheets.get":
            return "metadata"
        if method_id in ("sheets.spreadsheets.values.get", "sheets.spreadsheets.values.batchGet"):
            return "read"
        return "write"

    def _identity(self, headers: Mapping[str, str]) -> str:
        auth = ""
        for k, v in headers.items():
            if k.lower() == "authorization":
                auth = v
        token = auth[7:] if auth.startswith("Bearer ") else ""
        if not token.startswith("fake-token:") or "@" not in token:
            raise ApiError(401, "Request is missing required authentication credential. Expected OAuth 2 "
                                "access token, login cookie or other valid authentication credential.")
        return token[len("fake-token:"):]

    def _faults(self, kind: str, file_id: str, method_id: str = "") -> tuple[ApiError, bool] | None:
        """The injected failure for this request, if any: (error, after serving it?)."""
        for p in self.persistent:
            if (kind in p["kinds"] and (p["file"] is None or p["file"] == file_id)
                    and (p.get("methods") is None or method_id in p["methods"])):
                return ApiError(p["status"], "Internal error encountered." if p["status"] >= 500
                                else "Injected persistent failure."), bool(p.get("after"))
        f = self.faults
        if f and (f["kinds"] is None or kind in f["kinds"]) and f["rng"].random() < f["share"]:
            code = f["rng"].choice(f["statuses"])
            after = bool(f["after"]) and f["rng"].random() < f["after"]   # no extra draw when after == 0
            f["hits"][code] += 1
            if after:
                f["hits"]["after"] += 1
            if code == 429:
                return ApiError(429, "Quota exceeded for quota metric 'Requests' and limit 'Requests per "
                                     "minute per user' of service 'sheets.googleapis.com'.",
                                headers={"Retry-After": str(f["retry_after"])}), after
            return ApiError(code, "Internal error encountered." if code == 500
                            else "The service is currently unavailable."), after
        return None

    def _check_quota(self, who: str, kind: str) -> None:
        if kind not in ("read", "write", "metadata") or not self.quota_per_minute:
            return
        bucket = "read" if kind in ("read", "metadata") else "write"
        q = self._quota.setdefault((who, bucket), deque())
        now = self.clock()
        while q and q[0] <= now - 60.0:
            q.popleft()
        if len(q) >= self.quota_per_minute:
            self.quota_hits.append((who, bucket, now))
            raise ApiError(429, f"Quota exceeded for quota metric '{bucket.title()} requests' and limit "
                                f"'{bucket.title()} requests per minute per user' of service "
                                "'sheets.googleapis.com'.")
        q.append(now)

    @staticmethod
    def _error(e: ApiError, drive: bool) -> dict:
        err: dict[str, Any] = {"code": e.code, "message": e.message, "status": STATUS.get(e.code, "UNKNOWN")}
        if drive:
            err["errors"] = [{"message": e.message, "domain": "global",
                              "reason": e.reason or REASONS.get(e.code, "error")}]
        if e.violations:
            err["details"] = [{"@type": "type.googleapis.com/google.rpc.BadRequest",
                               "fieldViolations": [{"field": v.field, "description": v.description}
                                                   for v in e.violations]}]
        return {"error": err}

    # ---- access
    def _file(self, fid: str, who: str, need: str = "reader", drive: bool = False) -> File:
        f = self.files.get(fid)
        if f is not None and f.trashed and f.owner != who:
            f = None                      # a trashed file is gone for everyone but its owner
        role = None if f is None else ("owner" if f.owner == who else f.role(who))
        if f is None or role is None:
            if drive:
                raise ApiError(404, f"File not found: {fid}.", reason="notFound")
            if f is None:
                raise ApiError(404, "Requested entity was not found.")
            raise ApiError(403, "The caller does not have permission")
        if ROLE_RANK[role] < ROLE_RANK[need]:
            if drive:
                raise ApiError(403, "The user does not have sufficient permissions for this file.",
                               reason="insufficientFilePermissions")
            raise ApiError(403, "The caller does not have permission")
        if not drive and f.mime != SPREADSHEET_MIME:
            raise ApiError(400, "This operation is not supported for this document")
        return f

    def _can_edit(self, f: File, sheet: Sheet, r: int, c: int, who: str) -> bool:
        if who == f.owner:
            return True
        for pr in sheet.protected:
            rng = pr["range"]
            if not _inside(rng, sheet, r, c):
                continue
            if any(_inside(u, sheet, r, c) for u in pr.get("unprotectedRanges", [])):
                continue
            if who not in pr.get("editors", {}).get("users", []):
                return False
        return True

    def _guard(self, f: File, sheet: Sheet, r0: int, r1: int, c0: int, c1: int, who: str) -> None:
        if who == f.owner or not sheet.protected:
            return
        for r in range(r0, min(r1, sheet.rows)):
            for c in range(c0, min(c1, sheet.cols)):
                if not self._can_edit(f, sheet, r, c, who):
                    raise ApiError(403, "You are trying to edit a protected cell or object. Please contact "
                                        "the spreadsheet owner to remove protection if you need to edit.")

    # ---- dispatch
    def _dispatch(self, mid: str, p: dict, q: dict, qlists: dict, body: Any, who: str) -> Any:
        if mid == "drive.files.create":
            return self._files_create(body or {}, q, who)
        if mid == "drive.files.get":
            f = self._file(p["fileId"], who, drive=True)
            return self._file_json(f, q.get("fields"))
        if mid == "drive.files.list":
            return self._files_list(q, who)
        if mid == "drive.files.update":
            return self._files_update(p["fileId"], body or {}, q, who)
        if mid == "drive.files.delete":
            f = self._file(p["fileId"], who, "owner", drive=True)
            del self.files[f.id]
            return None
        if mid == "drive.permissions.create":
            return self._perm_create(p["fileId"], body or {}, q, who)
        if mid == "drive.permissions.list":
            f = self._file(p["fileId"], who, drive=True)
            return {"kind": "drive#permissionList", "permissions": copy.deepcopy(f.permissions)}
        if mid == "drive.permissions.delete":
            f = self._file(p["fileId"], who, "writer", drive=True)
            self._may_share(f, who)
            before = len(f.permissions)
            f.permissions = [x for x in f.permissions if x["id"] != p["permissionId"] or x["role"] == "owner"]
            if len(f.permissions) == before:
                raise ApiError(404, f"Permission not found: {p['permissionId']}.", reason="notFound")
            return None
        if mid.startswith("script."):
            return self._script(mid, p, body or {}, who)
        if mid == "sheets.spreadsheets.get":
            return self._spreadsheet_json(self._file(p["spreadsheetId"], who))
        if mid == "sheets.spreadsheets.batchUpdate":
            return self._batch_update(self._file(p["spreadsheetId"], who, "writer"), body or {}, who)
        if mid == "sheets.spreadsheets.values.get":
            f = self._file(p["spreadsheetId"], who)
            return self._values_get(f, p["range"], q)
        if mid == "sheets.spreadsheets.values.batchGet":
            f = self._file(p["spreadsheetId"], who)
            return {"spreadsheetId": f.id,
                    "valueRanges": [self._values_get(f, r, q) for r in qlists.get("ranges", [])]}
        if mid == "sheets.spreadsheets.values.update":
            f = self._file(p["spreadsheetId"], who, "writer")
            return self._values_update(f, p["range"], body or {}, q, who)
        if mid == "sheets.spreadsheets.values.batchUpdate":
            f = self._file(p["spreadsheetId"], who, "writer")
            body = body or {}
            opt = body.get("valueInputOption")
            if not opt:
                raise ApiError(400, "'valueInputOption' is required but not specified")
            res = [self._values_update(f, vr.get("range", ""), vr, {"valueInputOption": opt}, who)
                   for vr in body.get("data", [])]
            return {"spreadsheetId": f.id, "totalUpdatedCells": sum(r["updatedCells"] for r in res),
                    "responses": res}
        if mid == "sheets.spreadsheets.values.clear":
            f = self._file(p["spreadsheetId"], who, "writer")
            return {"spreadsheetId": f.id, "clearedRange": self._clear(f, p["range"], who)}
        if mid == "sheets.spreadsheets.values.batchClear":
            f = self._file(p["spreadsheetId"], who, "writer")
            return {"spreadsheetId": f.id,
                    "clearedRanges": [self._clear(f, r, who) for r in (body or {}).get("ranges", [])]}
        raise ApiError(501, f"the fake Google does not implement {mid}")

    # ---- drive
    def _new_id(self, n: int = 44) -> str:
        alphabet = string.ascii_letters + string.digits + "-_"
        while True:
            fid = "1" + "".join(self.rng.choice(alphabet) for _ in range(n - 1))
            if fid not in self.files:
                return fid

    def _perm(self, kind: str, role: str, email: str | None) -> dict:
        self._perm_ids += 1
        p = {"kind": "drive#permission", "id": f"{10 ** 19 + self._perm_ids}", "type": kind, "role": role}
        if email:
            p["emailAddress"] = email
            p["displayName"] = email.split("@")[0]
        else:
            p["id"] = "anyoneWithLink"
        return p

    def _files_create(self, body: dict, q: dict, who: str) -> dict:
        parents = body.get("parents") or []
        for parent in parents:
            pf = self.files.get(parent)
            if pf is None or (pf.owner != who and ROLE_RANK.get(pf.role(who) or "", 0) < 2):
                raise ApiError(404, f"File not found: {parent}.", reason="notFound")
        if who.endswith("gserviceaccount.com") and not parents:
            raise ApiError(403, "Service Accounts do not have storage quota. Leverage shared drives, or use "
                                "OAuth delegation instead.", reason="storageQuotaExceeded")
        mime = body.get("mimeType") or "application/octet-stream"
        f = File(id=self._new_id(), name=body.get("name") or "Untitled", mime=mime, owner=who,
                 writers_can_share=body.get("writersCanShare", True),
                 copy_requires_writer=body.get("copyRequiresWriterPermission", False),
                 parents=list(parents), created=self.clock(),
                 app_properties={k: v for k, v in (body.get("appProperties") or {}).items() if v is not None})
        f.permissions.append(self._perm("user", "owner", who))
        if mime == SPREADSHEET_MIME:
            f.sheets.append(Sheet({"sheetId": 0, "title": "Sheet1", "index": 0, "sheetType": "GRID",
                                   "gridProperties": {"rowCount": 1000, "columnCount": 26}}))
        self.files[f.id] = f
        return self._file_json(f, q.get("fields"))

    def _file_json(self, f: File, fields: str | None) -> dict:
        full = {"kind": "drive#file", "id": f.id, "name": f.name, "mimeType": f.mime,
                "owners": [{"kind": "drive#user", "emailAddress": f.owner, "displayName": f.owner.split("@")[0],
                            "me": True}],
                "writersCanShare": f.writers_can_share,
                "copyRequiresWriterPermission": f.copy_requires_writer, "parents": f.parents,
                "createdTime": "2026-01-01T00:00:00.000Z", "modifiedTime": "2026-01-01T00:00:00.000Z",
                "appProperties": dict(f.app_properties), "trashed": f.trashed}
        if not fields:
            return {k: full[k] for k in ("kind", "id", "name", "mimeType")}
        if fields.strip() == "*":
            return full
        top = [re.sub(r"\(.*", "", x).strip() for x in re.split(r",(?![^(]*\))", fields)]
        return {k: full[k] for k in top if k in full}

    # q terms the fake understands (Drive's search grammar, the part sheetbridge uses)
    _Q_TERMS = (
        (re.compile(r"appProperties has \{ ?key ?= ?'((?:[^'\\]|\\.)*)' and value ?= ?'((?:[^'\\]|\\.)*)' ?\}"),
         lambda f, m: f.app_properties.get(_unq(m[1])) == _unq(m[2])),
        (re.compile(r"trashed ?= ?(true|false)"), lambda f, m: f.trashed == (m[1] == "true")),
        (re.compile(r"mimeType ?= ?'((?:[^'\\]|\\.)*)'"), lambda f, m: f.mime == _unq(m[1])),
        (re.compile(r"name ?= ?'((?:[^'\\]|\\.)*)'"), lambda f, m: f.name == _unq(m[1])),
    )

    def _files_list(self, q: dict, who: str) -> dict:
        tests = []
        for term in [t.strip() for t in re.split(r"\s+and\s+(?![^{]*\})", q.get("q", "")) if t.strip()]:
            for regex, test in self._Q_TERMS:
                m = regex.fullmatch(term)
                if m:
                    tests.append((test, m))
                    break
            else:
                raise ApiError(400, "Invalid Value", reason="invalid")
        if not any(t[0] is self._Q_TERMS[1][1] for t in tests):
            tests.append((lambda f, m: not f.trashed, None))        # Drive lists trashed files only if asked
        found = [f for f in self.files.values()
                 if (f.owner == who or f.role(who)) and all(test(f, m) for test, m in tests)]
        found.sort(key=lambda f: (f.created, f.id))
        fields = q.get("fields") or ""
        inner = re.search(r"files\(([^)]*)\)", fields)
        return {"kind": "drive#fileList", "incompleteSearch": False,
                "files": [self._file_json(f, inner[1] if inner else None) for f in found]}

    def _files_update(self, fid: str, body: dict, q: dict, who: str) -> dict:
        f = self.files.get(fid)
        if f is None or f.owner != who:
            f = self._file(fid, who, "writer", drive=True)
        if "trashed" in body and f.owner != who:
            raise ApiError(403, "The user does not have sufficient permissions for this file.",
                           reason="insufficientFilePermissions")
        if body.get("name"):
            f.name = body["name"]
        if "trashed" in body:
            f.trashed = bool(body["trashed"])
        for k, v in (body.get("appProperties") or {}).items():
            if v is None:
                f.app_properties.pop(k, None)
            else:
                f.app_properties[k] = v
        return self._file_json(f, q.get("fields"))

    def _may_share(self, f: File, who: str) -> None:
        role = "owner" if f.owner == who else f.role(who)
        if role != "owner" and not (role == "writer" and f.writers_can_share):
            raise ApiError(403, "The user does not have sufficient permissions for this file.",
                           reason="insufficientFilePermissions")

    def _perm_create(self, fid: str, body: dict, q: dict, who: str) -> dict:
        f = self._file(fid, who, "writer", drive=True)
        self._may_share(f, who)
        kind, role = body["type"], body["role"]
        if kind not in ("user", "group", "domain", "anyone"):
            raise ApiError(400, f"The permission type field you specified is not valid: {kind}.", reason="invalid")
        if role not in ROLE_RANK or role == "owner":
            raise ApiError(400, f"The permission role '{role}' is not supported here.", reason="invalid")
        email = body.get("emailAddress")
        if kind in ("user", "group") and not email:
            raise ApiError(400, "The permission emailAddress field is required for user and group.",
                           reason="required")
        for p in f.permissions:
            if email and p.get("emailAddress", "").lower() == email.lower() and p["role"] != "owner":
                p["role"] = role
                self.invitations[(f.id, email.lower())] += 1      # Google mails them again
                return {k: p[k] for k in ("kind", "id", "type", "role")}
        p = self._perm(kind, role, email)
        f.permissions.append(p)
        if email:
            self.invitations[(f.id, email.lower())] += 1
        return {k: p[k] for k in ("kind", "id", "type", "role")}

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

    # ---- Apps Script: a project bound to a spreadsheet, and its files
    def _script(self, mid: str, p: Mapping[str, str], data: Mapping[str, Any], who: str) -> dict:
        if not self.script_api_enabled:
            raise ApiError(403, "User has not enabled the Apps Script API. Enable it by visiting "
                                "https://script.google.com/home/usersettings then retry.")
        if mid == "script.projects.create":
            parent = data.get("parentId")
            if parent:
                self._file(parent, who, "writer")        # binding needs write access to the container
            sid = f"script-{len(self.scripts) + 1}"
            self.scripts[sid] = {"title": data.get("title", ""), "parentId": parent, "files": [], "owner": who}
            return {"scriptId": sid, "title": data.get("title", ""), "parentId": parent}
        project = self.scripts.get(p.get("scriptId", ""))
        if project is None or project["owner"] != who:
            raise ApiError(404, "Requested entity was not found.")
        if mid == "script.projects.updateContent":
            project["files"] = list(data.get("files", []))
            return {"scriptId": p["scriptId"], "files": project["files"]}
        if mid == "script.projects.getContent":
            return {"scriptId": p["scriptId"], "files": project["files"]}
        return {"scriptId": p["scriptId"], "title": project["title"], "parentId": project["parentId"]}

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


# --------------------------------------------------------------------------- transports
class FakeTransport(BaseAdapter):
    """A requests transport adapter that answers from a FakeGoogle: no sockets."""

    def __init__(self, fake: FakeGoogle) -> None:
        super().__init__()
        self.fake = fake

    def send(self, request, stream=False, timeout=None, verify=True, cert=None, proxies=None):
        body = request.body
        if isinstance(body, str):
            body = body.encode("utf-8")
        status, headers, payload = self.fake.handle(request.method, request.url, request.headers, body, timeout)
        resp = requests.Response()
        resp.status_code = status
        resp.headers = CaseInsensitiveDict(headers)
        resp._content = payload
        resp.encoding = "utf-8"
        resp.url = request.url
        resp.request = request
        resp.reason = STATUS.get(status, "OK")
        return resp

    def close(self) -> None:
        pass
