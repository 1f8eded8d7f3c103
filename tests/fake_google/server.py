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

This file serves a request (identities, faults, quotas, counts, dispatch); the endpoints are
chapters mixed into :class:`FakeGoogle`: model.py (what the fake holds, A1 notation, a cell's value,
field masks), values.py (metadata and values), batch.py and rows.py (batchUpdate), drive.py (Drive).
"""
from __future__ import annotations

import copy
import json
import random
import re
import threading
import time
from collections import Counter, deque
from typing import Any, Iterable, Mapping
from urllib.parse import parse_qs, unquote, urlsplit

import requests
from requests.adapters import BaseAdapter
from requests.structures import CaseInsensitiveDict

from . import schema
from .batch import BatchUpdates
from .drive import DriveFiles
from .model import (  # noqa: F401  (the data and A1 helpers, importable from here as before the split)
    CELL_FIELDS, DEFAULT_ROW_PX, FAKE_EPOCH, HOSTS, MAX_CELL_CHARS, REASONS, ROLE_RANK, SPREADSHEET_MIME, STATUS,
    ApiError, File, Logged, Sheet, _apply, _check_cell_size, _inside, _mask, _unq, a1, col_index, col_letters,
    entered, parse_range, rendered)
from .rows import RowMoves
from .values import SheetValues



# --------------------------------------------------------------------------- the fake
class FakeGoogle(RowMoves, BatchUpdates, SheetValues, DriveFiles):
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
