"""Google Sheets store: one spreadsheet per book, built on gspread.

Cost per round (see docs/google.md): a book is read with ONE ``values:batchGet``
(``valueRenderOption=FORMULA``, so a formula a player typed comes back as its
text starting with "=") and written with ONE ``spreadsheets:batchUpdate`` that
adds missing tabs with preassigned sheet ids, replaces cell values with
``stringValue``/``numberValue`` (player text is never parsed as a formula), sets
formats, dropdowns, hidden tabs, frozen rows, column widths and protection.
Sheet ids and protected-range ids are remembered (``export_cache``/``import_cache``)
so that no metadata read happens once a game is set up.

Every request has a timeout, is paced under Google's per-user quotas (60 reads
and 60 writes a minute; we stay at 55) and is retried a bounded number of times
with exponential backoff and jitter on 429 and 5xx, honouring Retry-After.
gspread's ``BackOffHTTPClient`` is not used: in gspread 6.2.1 it retries without end.
A failure that persists raises :class:`BackendError` with one line; every write
replaces whole tabs, so running the command again completes the round.
"""
from __future__ import annotations

import contextlib
import email.utils
import json
import os
import re
import stat
import threading
import time
from collections import deque
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

import gspread
import requests
from gspread.exceptions import APIError
from gspread.http_client import HTTPClient
from gspread.urls import DRIVE_FILES_API_V3_URL
from gspread.utils import rowcol_to_a1
from tenacity import Retrying, retry_if_exception, stop_after_attempt, wait_exponential_jitter

from ..core.errors import BackendError, ConfigError, WorkbookError
from .model import CellData, Rect, TabData, normalise
from .store import MASTER, Book, BookInfo, Store

SCOPES = (
    "https://www.googleapis.com/auth/spreadsheets",
    "https://www.googleapis.com/auth/drive.file",
)
SHEETS_ROOT = "https://sheets.googleapis.com"
DRIVE_ROOT = "https://www.googleapis.com"
SPREADSHEET_MIME = "application/vnd.google-apps.spreadsheet"
API_BASE_ENV = "SHEETBRIDGE_GOOGLE_API_BASE"
TOKEN_ENV = "SHEETBRIDGE_GOOGLE_TOKEN"
CONFIG_DIR_ENV = "SHEETBRIDGE_CONFIG_DIR"

QUOTA_PER_MINUTE = 60          # Google's default per user, per minute, reads and writes each
PACE_PER_MINUTE = 55           # what we allow ourselves, leaving room for the host's browser
DEFAULT_TIMEOUT = (10.0, 60.0)  # connect, read (seconds)
DEFAULT_ATTEMPTS = 6
MAX_WAIT = 64.0                # longest single wait between attempts (seconds)
DEFAULT_COL_PIXELS = 100
MIN_ROWS, MIN_COLS = 100, 26
WRITE_FIELDS = "userEnteredValue,userEnteredFormat,dataValidation"
CACHE_FILE = ".sheetbridge-google-cache.json"   # beside sheetbridge.json in a game folder
RESUME_HINT = "nothing is lost: run the same command again to finish (the game is resumable)"


# --------------------------------------------------------------------------- pacing
class Pacer:
    """At most ``per_minute`` requests of each kind in any 60-second window.

    Kinds: "read" and "write" (Sheets quotas) and "drive" (Drive calls, whose quota is
    much larger: paced at ten times the rate). ``clock`` and ``sleep`` are injectable
    so tests run instantly.
    """

    def __init__(self, per_minute: int = PACE_PER_MINUTE, window: float = 60.0,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep,
                 limits: Mapping[str, int] | None = None) -> None:
        self.per_minute = per_minute
        # Drive's per-user quota is far larger than Sheets' 60 a minute; pace it loosely.
        self.limits = {"drive": per_minute * 10, **dict(limits or {})}
        self.window = window
        self.clock = clock
        self.sleep = sleep
        self._sent: dict[str, deque] = {}
        self._lock = threading.Lock()
        self.waited = 0.0

    def acquire(self, kind: str) -> None:
        with self._lock:
            sent = self._sent.setdefault(kind, deque())
            while True:
                now = self.clock()
                while sent and sent[0] <= now - self.window:
                    sent.popleft()
                if len(sent) < self.limits.get(kind, self.per_minute):
                    sent.append(now)
                    return
                pause = sent[0] + self.window - now
                self.waited += pause
                self.sleep(max(pause, 0.001))


def request_kind(method: str, url: str) -> str:
    if "/v4/spreadsheets" in url:
        return "read" if method.upper() == "GET" else "write"
    return "drive"


def _retry_after(exc: BaseException) -> float | None:
    response = getattr(exc, "response", None)
    if response is None:
        return None
    value = response.headers.get("Retry-After")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        return max(0.0, when.timestamp() - time.time())


def _transient(exc: BaseException) -> bool:
    if isinstance(exc, APIError):
        status = exc.response.status_code if exc.response is not None else exc.code
        return status == 429 or status >= 500
    return isinstance(exc, (requests.ConnectionError, requests.Timeout))


class _Wait:
    """Exponential backoff with jitter, never shorter than the server's Retry-After."""

    def __init__(self, initial: float = 1.0, maximum: float = MAX_WAIT) -> None:
        self.backoff = wait_exponential_jitter(initial=initial, max=maximum, jitter=initial)
        self.maximum = maximum

    def __call__(self, retry_state) -> float:
        wait = self.backoff(retry_state)
        exc = retry_state.outcome.exception() if retry_state.outcome else None
        after = _retry_after(exc) if exc is not None else None
        if after is not None:
            wait = max(wait, min(after, self.maximum))
        return wait


class SheetbridgeHTTPClient(HTTPClient):
    """gspread's HTTP client with a timeout on every request, quota pacing, a bounded
    retry on 429/5xx/connection errors, and an optional alternate API base URL."""

    def __init__(self, auth, session: requests.Session | None = None) -> None:
        super().__init__(auth, session)
        self.timeout = DEFAULT_TIMEOUT
        self.api_base: str | None = None
        self.pacer = Pacer()
        self.attempts = DEFAULT_ATTEMPTS
        self.sleep: Callable[[float], None] = time.sleep
        self.wait = _Wait()
        self.sent: dict[str, int] = {}   # requests sent by kind, retries included

    def configure(self, *, api_base: str | None = None, timeout=DEFAULT_TIMEOUT,
                  pacer: Pacer | None = None, attempts: int = DEFAULT_ATTEMPTS,
                  sleep: Callable[[float], None] | None = None,
                  backoff_initial: float = 1.0) -> None:
        self.api_base = api_base.rstrip("/") if api_base else None
        self.timeout = timeout if timeout is not None else DEFAULT_TIMEOUT
        self.attempts = max(1, int(attempts))
        if sleep is not None:
            self.sleep = sleep
        self.pacer = pacer or Pacer(sleep=self.sleep)
        self.wait = _Wait(initial=backoff_initial)

    def _rebase(self, url: str) -> str:
        if self.api_base:
            for root in (SHEETS_ROOT, DRIVE_ROOT):
                if url.startswith(root):
                    return self.api_base + url[len(root):]
        return url

    def request(self, method, endpoint, params=None, data=None, json=None, files=None, headers=None):
        url = self._rebase(endpoint)
        kind = request_kind(method, url)

        def attempt():
            self.pacer.acquire(kind)
            self.sent[kind] = self.sent.get(kind, 0) + 1
            response = self.session.request(method=method, url=url, json=json, params=params,
                                            data=data, files=files, headers=headers,
                                            timeout=self.timeout or DEFAULT_TIMEOUT)
            if response.ok:
                return response
            raise APIError(response)

        retrying = Retrying(stop=stop_after_attempt(self.attempts), wait=self.wait,
                            retry=retry_if_exception(_transient), sleep=self.sleep, reraise=True)
        return retrying(attempt)


# --------------------------------------------------------------------------- cell encoding
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
    return {"stringValue": str(value)}   # always literal text, never a formula


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
    if text:
        fmt["textFormat"] = text
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


def _grid(sheet_id: int, r0: int, r1: int, c0: int, c1: int) -> dict:
    return {"sheetId": sheet_id, "startRowIndex": r0, "endRowIndex": r1,
            "startColumnIndex": c0, "endColumnIndex": c1}


def _quote(tab: str) -> str:
    return "'" + tab.replace("'", "''") + "'"


# --------------------------------------------------------------------------- the store
class GoogleBook(Book):
    def __init__(self, store: "GoogleStore", key: str, location: str, title: str = "") -> None:
        self.store = store
        self.key = key
        self.location = location
        self.title = title

    @property
    def label(self) -> str:
        return f"the {self.key} spreadsheet ({self.location})"

    # ---- reading
    def read(self, tabs: Sequence[str]) -> dict[str, Rect]:
        tabs = list(tabs)
        if not tabs:
            return {}
        known = self.store._sheets(self.location)
        if known is not None and any(t not in known for t in tabs):
            names = self.tab_names(refresh=True)      # the cache may be stale: ask once
            missing = [t for t in tabs if t not in names]
            if missing:
                raise self._missing(missing[0], names)
        http = self.store.http
        try:
            data = http.values_batch_get(self.location, [_quote(t) for t in tabs],
                                         params={"valueRenderOption": "FORMULA",
                                                 "majorDimension": "ROWS"})
        except APIError as exc:
            if exc.code == 400 and "parse range" in str(exc.error.get("message", "")):
                names = self.tab_names(refresh=True)
                missing = [t for t in tabs if t not in names]
                if missing:
                    raise self._missing(missing[0], names) from None
            raise self.store._failure(f"reading {', '.join(tabs)} from {self.label}", exc) from None
        except requests.RequestException as exc:
            raise self.store._failure(f"reading {', '.join(tabs)} from {self.label}", exc) from None
        ranges = data.get("valueRanges", [])
        out: dict[str, Rect] = {}
        for tab, vr in zip(tabs, ranges):
            out[tab] = normalise(vr.get("values", []))
        for tab in tabs[len(ranges):]:
            out[tab] = []
        return out

    def _missing(self, tab: str, names: Sequence[str]) -> WorkbookError:
        return WorkbookError(f"{self.label} has no tab named '{tab}' (its tabs: "
                             f"{', '.join(names) or 'none'}); was it renamed or deleted?")

    def tab_names(self, refresh: bool = False) -> list[str]:
        known = None if refresh else self.store._sheets(self.location)
        if known is None:
            self.store._load_metadata(self.location, self.label)
            known = self.store._sheets(self.location) or {}
        return list(known)

    # ---- writing
    def write(self, tabs: Mapping[str, TabData]) -> None:
        if not tabs:
            return
        if self.store._sheets(self.location) is None:
            self.store._load_metadata(self.location, self.label)
        what = f"writing {', '.join(tabs)} to {self.label}"
        try:
            self._write_once(tabs)
        except APIError as exc:
            if exc.code != 400:
                raise self.store._failure(what, exc) from None
            # The cached ids may be stale (a tab deleted or added by hand, or a write that
            # reached Google before the connection dropped): refresh once and retry.
            self.store._load_metadata(self.location, self.label)
            try:
                self._write_once(tabs)
            except (APIError, requests.RequestException) as exc2:
                raise self.store._failure(what, exc2) from None
        except requests.RequestException as exc:
            raise self.store._failure(what, exc) from None

    def update_cells(self, tab: str, cells: Mapping[tuple[int, int], object]) -> None:
        """One values:batchUpdate, RAW input (text stays literal), only the given cells."""
        if not cells:
            return
        data = [{"range": f"{_quote(tab)}!{rowcol_to_a1(r, c)}", "majorDimension": "ROWS",
                 "values": [["" if v is None else v]]} for (r, c), v in sorted(cells.items())]
        try:
            self.store.http.values_batch_update(self.location, body={"valueInputOption": "RAW", "data": data})
        except (APIError, requests.RequestException) as exc:
            raise self.store._failure(f"updating {tab} in {self.label}", exc) from None

    def remove_tabs(self, tabs: Sequence[str]) -> None:
        known = self.store._sheets(self.location)
        if known is None or any(t not in known for t in tabs):
            self.store._load_metadata(self.location, self.label)
            known = self.store._sheets(self.location) or {}
        ids = [known[t] for t in tabs if t in known]
        if not ids:
            return
        try:
            self.store.http.batch_update(self.location, {"requests": [{"deleteSheet": {"sheetId": i}} for i in ids]})
        except (APIError, requests.RequestException) as exc:
            raise self.store._failure(f"removing {', '.join(tabs)} from {self.label}", exc) from None
        self.store._load_metadata(self.location, self.label)

    def _write_once(self, tabs: Mapping[str, TabData]) -> None:
        body, pending = self.store._write_requests(self.location, tabs)
        reply = self.store.http.batch_update(self.location, {"requests": body})
        self.store._commit(self.location, pending, reply.get("replies", []))


class GoogleStore(Store):
    """A game's books as Google spreadsheets.

    ``locks_forms``: at the deadline the players' Submission tabs are protected so only the host edits them.

    Build it from exactly one of: ``client`` (a ``gspread.Client``), ``session`` (a
    ``requests.Session`` that already authorises requests: the seam tests use) or
    ``credentials`` (google-auth credentials). See :func:`open_google_store` for
    building one from a game folder's config.
    """

    def __init__(self, client: gspread.Client | None = None, *, session: requests.Session | None = None,
                 credentials=None, master_id: str | None = None, host_email: str | None = None,
                 api_base: str | None = None, timeout=DEFAULT_TIMEOUT, attempts: int = DEFAULT_ATTEMPTS,
                 per_minute: int = PACE_PER_MINUTE, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep, backoff_initial: float = 1.0,
                 notify: bool = True, folder_id: str | None = None,
                 game_folder: str | os.PathLike | None = None, settings: Mapping[str, Any] | None = None) -> None:
        given = [x for x in (client, session, credentials) if x is not None]
        if len(given) != 1:
            raise ValueError("GoogleStore needs exactly one of client, session or credentials")
        if client is not None:
            inner = client.http_client
            session = inner.session
            credentials = getattr(inner, "auth", None)
        self.client = gspread.Client(auth=credentials, session=session, http_client=SheetbridgeHTTPClient)
        self.http: SheetbridgeHTTPClient = self.client.http_client  # type: ignore[assignment]
        self.pacer = Pacer(per_minute=per_minute, clock=clock, sleep=sleep)
        self.http.configure(api_base=api_base or os.environ.get(API_BASE_ENV) or None, timeout=timeout,
                            pacer=self.pacer, attempts=attempts, sleep=sleep,
                            backoff_initial=backoff_initial)
        self.master_id = master_id
        self.host_email = host_email
        self.notify = notify
        self.folder_id = folder_id
        self._cache: dict[str, dict] = {}   # spreadsheet id -> {"sheets": {title: id}, "protected": {...}}
        self._lock = threading.RLock()
        self.settings = dict(settings or {})   # what to record in the game folder's config
        self.cache_file = Path(game_folder) / CACHE_FILE if game_folder else None
        if self.cache_file is not None and self.cache_file.is_file():
            try:
                self.import_cache(json.loads(self.cache_file.read_text(encoding="utf-8")))
            except (OSError, ValueError, KeyError, TypeError, IndexError):
                pass   # only a cache: a metadata read rebuilds what it lacks

    def config_extra(self) -> dict:
        """What the game folder's config must hold to reopen this store (no secrets)."""
        out = {k: v for k, v in self.settings.items()
               if k in ("mode", "credentials", "token", "api_base", "folder_id") and v}
        if self.host_email:
            out["host_email"] = self.host_email
        return out

    def _save_cache(self) -> None:
        if self.cache_file is None:
            return
        try:
            self.cache_file.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.cache_file.with_name(self.cache_file.name + ".tmp")
            tmp.write_text(json.dumps(self.export_cache(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
            os.replace(tmp, self.cache_file)
        except OSError:
            pass

    def describe(self) -> str:
        return "Google Sheets" + (f" (master {self.master_id})" if self.master_id else "")

    locks_forms = True

    # ---- Store interface
    def lock(self, command: str):
        # Placeholder until the owner-and-expiry lock in the master lands (issue 17).
        return contextlib.nullcontext()

    def master_location(self) -> str:
        if not self.master_id:
            raise WorkbookError("no master spreadsheet is recorded for this game; "
                                "create the game with `sheetbridge new ... --google` first")
        return self.master_id

    def open(self, key: str, location: str) -> GoogleBook:
        if not location:
            raise WorkbookError(f"no spreadsheet id is recorded for {key}")
        return GoogleBook(self, key, location)

    def create(self, key: str, title: str, tabs: Mapping[str, TabData],
               reader_email: str | Sequence[str] | None = None,
               writer_email: str | None = None) -> BookInfo:
        """Create a spreadsheet holding ``tabs``, then share it: with ``writer_email`` as
        writer (a player's file), with ``reader_email`` (one address, a comma-separated
        list or a sequence) as readers (the public board), with nobody else. Content is
        written before anyone is invited. Costs: one Drive create, one metadata read,
        one batchUpdate, one Drive call per person shared with."""
        if not tabs:
            raise ValueError("a book needs at least one tab")
        label = f"the {key} spreadsheet"
        body: dict[str, Any] = {"name": title, "mimeType": SPREADSHEET_MIME,
                                "writersCanShare": False, "copyRequiresWriterPermission": True}
        if self.folder_id:
            body["parents"] = [self.folder_id]
        try:
            r = self.http.request("post", DRIVE_FILES_API_V3_URL, json=body,
                                  params={"supportsAllDrives": "true",
                                          "fields": "id,name,owners(emailAddress)"})
        except (APIError, requests.RequestException) as exc:
            raise self._failure(f"creating {label} '{title}'", exc, resumable=False) from None
        info = r.json()
        sid = info["id"]
        owners = info.get("owners") or []
        if not self.host_email and owners and owners[0].get("emailAddress"):
            self.host_email = owners[0]["emailAddress"]
        what = f"setting up {label} '{title}' ({sid})"
        try:
            meta = self.http.fetch_sheet_metadata(sid, params={"fields": "sheets.properties(sheetId,title)"})
            defaults = [s["properties"]["sheetId"] for s in meta.get("sheets", [])]
            self._cache[sid] = {"sheets": {}, "protected": {}}
            body, pending = self._write_requests(sid, tabs, reserved=defaults)
            body += [{"deleteSheet": {"sheetId": d}} for d in defaults]
            reply = self.http.batch_update(sid, {"requests": body})
            self._commit(sid, pending, reply.get("replies", []))
            for email_ in _emails(writer_email):
                self._share(sid, email_, "writer")
            for email_ in _emails(reader_email):
                self._share(sid, email_, "reader")
        except (APIError, requests.RequestException) as exc:
            raise self._failure(what, exc, resumable=False) from None
        if key == MASTER:
            self.master_id = sid
        self._save_cache()
        return BookInfo(key=key, location=sid, title=title)

    def _share(self, sid: str, email_: str, role: str) -> None:
        params = {"supportsAllDrives": "true", "sendNotificationEmail": "true" if self.notify else "false"}
        self.http.request("post", f"{DRIVE_FILES_API_V3_URL}/{sid}/permissions", params=params,
                          json={"type": "user", "role": role, "emailAddress": email_})

    def permissions(self, location: str) -> list[dict]:
        """Who can open a spreadsheet (a Drive call; for checks, never used in a round)."""
        return self.client.list_permissions(location)

    # ---- cache of ids
    def export_cache(self) -> dict:
        with self._lock:
            return {"version": 1, "host": self.host_email, "master": self.master_id,
                    "books": json.loads(json.dumps(self._cache))}

    def import_cache(self, data: Mapping) -> None:
        if not data:
            return
        with self._lock:
            for sid, entry in dict(data.get("books", {})).items():
                if sid in self._cache:   # what this store learnt itself is at least as fresh
                    continue
                self._cache[sid] = {"sheets": {str(k): int(v) for k, v in entry.get("sheets", {}).items()},
                                    "protected": {str(k): [int(v[0]), v[1]]
                                                  for k, v in entry.get("protected", {}).items()}}
            if data.get("host") and not self.host_email:
                self.host_email = data["host"]
            if data.get("master") and not self.master_id:
                self.master_id = data["master"]

    def _sheets(self, sid: str) -> dict[str, int] | None:
        entry = self._cache.get(sid)
        return None if entry is None else entry["sheets"]

    def _load_metadata(self, sid: str, label: str) -> None:
        """One metadata read (setup, or a cache that went missing or stale)."""
        try:
            meta = self.http.fetch_sheet_metadata(
                sid, params={"fields": "sheets(properties(sheetId,title),"
                                       "protectedRanges(protectedRangeId,range,unprotectedRanges))"})
        except APIError as exc:
            if exc.code in (403, 404):
                raise WorkbookError(f"cannot open {label}: Google answered {exc.code} "
                                    f"({exc.error.get('message', '')}); is the id right and shared with you?") from None
            raise self._failure(f"opening {label}", exc) from None
        except requests.RequestException as exc:
            raise self._failure(f"opening {label}", exc) from None
        sheets: dict[str, int] = {}
        protected: dict[str, list] = {}
        for s in meta.get("sheets", []):
            p = s["properties"]
            sheets[p["title"]] = int(p["sheetId"])
            for pr in s.get("protectedRanges", []):
                rng = pr.get("range", {})
                if set(rng) <= {"sheetId"}:   # a whole-tab protection: ours
                    sig = sorted([u.get("startRowIndex", 0), u.get("endRowIndex", 0),
                                  u.get("startColumnIndex", 0), u.get("endColumnIndex", 0)]
                                 for u in pr.get("unprotectedRanges", []))
                    protected[p["title"]] = [int(pr["protectedRangeId"]), sig]
        with self._lock:
            self._cache[sid] = {"sheets": sheets, "protected": protected}
        self._save_cache()

    # ---- building a write
    def _write_requests(self, sid: str, tabs: Mapping[str, TabData],
                        reserved: Iterable[int] = ()) -> tuple[list[dict], list]:
        entry = self._cache.setdefault(sid, {"sheets": {}, "protected": {}})
        sheets = dict(entry["sheets"])
        next_id = max([*sheets.values(), *reserved], default=0) + 1   # preassigned, never reused
        reqs: list[dict] = []
        pending: list = []   # ("sheet", title, id) | ("protect", title, reply index, sig) | ("unprotect", title)
        for title, tab in tabs.items():
            nrows = len(tab.rows)
            ncols = max(tab.width, max(tab.col_widths, default=-1) + 1)
            grid = {"rowCount": max(nrows, tab.frozen_rows + 1, MIN_ROWS),
                    "columnCount": max(ncols, MIN_COLS),
                    "frozenRowCount": tab.frozen_rows}
            if title in sheets:
                sheet_id = sheets[title]
                reqs.append({"updateSheetProperties": {   # the title too: a renamed tab gets its name back
                    "properties": {"sheetId": sheet_id, "title": title, "hidden": tab.hidden,
                                   "gridProperties": grid},
                    "fields": "title,hidden,gridProperties.rowCount,gridProperties.columnCount,"
                              "gridProperties.frozenRowCount"}})
            else:
                sheet_id = next_id
                next_id += 1
                sheets[title] = sheet_id
                pending.append(("sheet", title, sheet_id))
                reqs.append({"addSheet": {"properties": {"sheetId": sheet_id, "title": title,
                                                         "hidden": tab.hidden, "gridProperties": grid}}})
            reqs.append({"updateDimensionProperties": {
                "range": {"sheetId": sheet_id, "dimension": "COLUMNS", "startIndex": 0,
                          "endIndex": grid["columnCount"]},
                "properties": {"pixelSize": DEFAULT_COL_PIXELS}, "fields": "pixelSize"}})
            for col, width in sorted(tab.col_widths.items()):
                reqs.append({"updateDimensionProperties": {
                    "range": {"sheetId": sheet_id, "dimension": "COLUMNS", "startIndex": int(col),
                              "endIndex": int(col) + 1},
                    "properties": {"pixelSize": int(round(float(width) * 7 + 5))}, "fields": "pixelSize"}})
            reqs.append({"updateCells": {
                "range": {"sheetId": sheet_id},
                "rows": [{"values": [cell_json(c) for c in row]} for row in tab.rows],
                "fields": WRITE_FIELDS}})
            drops = [(r, c, choices) for r, row in enumerate(tab.rows) for c, cell in enumerate(row)
                     if (choices := tuple(str(v) for v in cell.choices if str(v) != ""))]
            for r0, r1, c0, c1, choices in _rects(drops):
                reqs.append({"setDataValidation": {
                    "range": _grid(sheet_id, r0, r1, c0, c1),
                    "rule": {"condition": {"type": "ONE_OF_LIST",
                                           "values": [{"userEnteredValue": str(v)} for v in choices]},
                             "strict": True, "showCustomUi": True}}})
            old = entry["protected"].get(title)
            if tab.protected:
                inputs = [(r, c, True) for r, row in enumerate(tab.rows)
                          for c, cell in enumerate(row) if cell.input]
                rects = [[r0, r1, c0, c1] for r0, r1, c0, c1, _ in _rects(inputs)]
                sig = sorted(rects)
                if old is not None and old[1] == sig:
                    continue
                if old is not None:
                    reqs.append({"deleteProtectedRange": {"protectedRangeId": old[0]}})
                pr: dict[str, Any] = {"range": {"sheetId": sheet_id},
                                      "description": "sheetbridge: only the host edits this tab",
                                      "warningOnly": False}
                if rects:
                    pr["unprotectedRanges"] = [_grid(sheet_id, *x) for x in rects]
                if self.host_email:
                    pr["editors"] = {"users": [self.host_email]}
                pending.append(("protect", title, len(reqs), sig))
                reqs.append({"addProtectedRange": {"protectedRange": pr}})
            elif old is not None:
                reqs.append({"deleteProtectedRange": {"protectedRangeId": old[0]}})
                pending.append(("unprotect", title))
        return reqs, pending

    def _commit(self, sid: str, pending: list, replies: list) -> None:
        with self._lock:
            entry = self._cache.setdefault(sid, {"sheets": {}, "protected": {}})
            for item in pending:
                if item[0] == "sheet":
                    entry["sheets"][item[1]] = item[2]
                elif item[0] == "protect":
                    _, title, index, sig = item
                    reply = replies[index] if index < len(replies) else {}
                    prid = reply.get("addProtectedRange", {}).get("protectedRange", {}).get("protectedRangeId")
                    if prid is None:
                        entry["protected"].pop(title, None)
                    else:
                        entry["protected"][title] = [int(prid), sig]
                elif item[0] == "unprotect":
                    entry["protected"].pop(item[1], None)
        if pending:
            self._save_cache()

    # ---- errors
    def _failure(self, what: str, exc: BaseException, resumable: bool = True) -> BackendError | WorkbookError:
        """One line for the host: what failed, Google's answer, and that running the
        command again completes it. 403/404 mean a file is gone or unshared: WorkbookError."""
        transient = _transient(exc)
        if isinstance(exc, APIError):
            status = exc.response.status_code if exc.response is not None else exc.code
            msg = str(exc.error.get("message", "") or "").strip()
            msg = msg.splitlines()[0][:200] if msg else ""
            detail = f"Google answered {status}" + (f" ({msg})" if msg else "")
            if status in (403, 404) and "quota" not in msg.lower():
                return WorkbookError(f"{what} failed: {detail}; check that the spreadsheet still exists and "
                                     "is shared with the account sheetbridge signs in as")
        else:
            text = str(exc).splitlines()[0][:200] if str(exc) else "no answer"
            detail = f"{type(exc).__name__}: {text}"
        tries = f" after {self.http.attempts} attempts" if transient else ""
        tail = RESUME_HINT if resumable else "run the same command again"
        return BackendError(f"Google Sheets failed while {what}{tries}: {detail}; {tail}")


def _emails(value: str | Sequence[str] | None) -> list[str]:
    if not value:
        return []
    if isinstance(value, str):
        value = re.split(r"[,;\s]+", value)
    return [v.strip() for v in value if v and v.strip()]


# --------------------------------------------------------------------------- credentials
def config_dir() -> Path:
    base = os.environ.get(CONFIG_DIR_ENV)
    if base:
        return Path(base)
    return Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config") / "sheetbridge"


def default_credentials_path() -> Path:
    return config_dir() / "credentials.json"


def default_token_path() -> Path:
    return config_dir() / "google_token.json"


def auth_settings_path() -> Path:
    return config_dir() / "google.json"


def load_auth_settings() -> dict:
    """What `sheetbridge auth` recorded: {"mode", "credentials", "token"}; {} if nothing."""
    path = auth_settings_path()
    try:
        return json.loads(path.read_text())
    except (OSError, ValueError):
        return {}


def save_auth_settings(settings: Mapping) -> Path:
    path = auth_settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(dict(settings), indent=2) + "\n")
    return path


def check_credentials_file(path: str | os.PathLike, mode: str | None = None) -> str:
    """The kind of a credentials file ("oauth" or "service_account"), or ConfigError with
    one line saying what is wrong. ``mode`` is the kind expected (None: either)."""
    p = Path(path).expanduser()
    if not p.is_file():
        raise ConfigError(f"credentials file {p} not found; `sheetbridge auth` explains how to get one")
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ConfigError(f"credentials file {p} is not valid JSON ({exc}); download it again "
                          "from the Google Cloud console") from None
    if not isinstance(data, dict):
        raise ConfigError(f"credentials file {p} should hold a JSON object")
    if data.get("type") == "service_account":
        kind = "service_account"
        missing = [k for k in ("client_email", "private_key", "token_uri") if not data.get(k)]
        if not missing and "PRIVATE KEY" not in str(data["private_key"]):
            missing = ["private_key (not a PEM key)"]
    elif isinstance(data.get("installed"), dict) or isinstance(data.get("web"), dict):
        kind = "oauth"
        if "web" in data and "installed" not in data:
            raise ConfigError(f"credentials file {p} is a 'Web application' OAuth client; create a "
                              "'Desktop app' client instead (it runs on your computer)")
        missing = [k for k in ("client_id", "client_secret", "auth_uri", "token_uri")
                   if not data["installed"].get(k)]
    else:
        raise ConfigError(f"credentials file {p} is neither an OAuth client secret (an 'installed' "
                          "object) nor a service account key (\"type\": \"service_account\"); "
                          "see credentials.example.json")
    if missing:
        raise ConfigError(f"credentials file {p} ({kind.replace('_', ' ')}) lacks {', '.join(missing)}; "
                          "download it again from the Google Cloud console")
    if mode and mode != kind:
        want = "a service account key" if mode == "service_account" else "an OAuth client secret"
        raise ConfigError(f"credentials file {p} is a {kind.replace('_', ' ')} file, but {want} was expected")
    return kind


def build_credentials(mode: str = "oauth", credentials_path: str | os.PathLike | None = None,
                      token_path: str | os.PathLike | None = None, interactive: bool = True):
    """google-auth credentials for ``mode``:

    - "oauth": an installed-app client secret; the token is cached in ``token_path`` and
      refreshed; without one (or if refreshing fails) the browser flow runs when
      ``interactive``, else ConfigError.
    - "service_account": a service account key file.
    - "token": a bare access token from $SHEETBRIDGE_GOOGLE_TOKEN (testing against a fake).
    """
    if mode == "token":
        token = os.environ.get(TOKEN_ENV)
        if not token:
            raise ConfigError(f"mode 'token' needs an access token in ${TOKEN_ENV}")
        from google.oauth2.credentials import Credentials
        return Credentials(token=token)
    path = Path(credentials_path or default_credentials_path()).expanduser()
    if mode == "service_account":
        check_credentials_file(path, "service_account")
        from google.oauth2 import service_account
        try:
            return service_account.Credentials.from_service_account_file(str(path), scopes=list(SCOPES))
        except (ValueError, KeyError) as exc:
            raise ConfigError(f"service account key {path} is malformed ({exc}); create a new key "
                              "in the Google Cloud console") from None
    if mode != "oauth":
        raise ConfigError(f"unknown Google auth mode {mode!r}; use 'oauth' or 'service_account'")
    from google.auth.exceptions import RefreshError
    from google.auth.transport.requests import Request
    from google.oauth2.credentials import Credentials
    token_file = Path(token_path or default_token_path()).expanduser()
    creds = None
    if token_file.is_file():
        try:
            creds = Credentials.from_authorized_user_file(str(token_file), list(SCOPES))
        except (ValueError, KeyError):
            creds = None
    if creds is not None and creds.valid:
        return creds
    if creds is not None and creds.expired and creds.refresh_token:
        try:
            creds.refresh(Request())
            _save_token(token_file, creds)
            return creds
        except RefreshError:
            creds = None   # an unpublished app's refresh token expires after 7 days
    if not interactive:
        raise ConfigError("the Google sign-in has expired or was never made; run `sheetbridge auth` "
                          "(an unpublished OAuth app's sign-in lasts 7 days)")
    check_credentials_file(path, "oauth")
    from google_auth_oauthlib.flow import InstalledAppFlow
    flow = InstalledAppFlow.from_client_secrets_file(str(path), list(SCOPES))
    creds = flow.run_local_server(port=0, open_browser=True)
    _save_token(token_file, creds)
    return creds


def _save_token(path: Path, creds) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(creds.to_json())
    try:
        path.chmod(stat.S_IRUSR | stat.S_IWUSR)
    except OSError:
        pass


def _settings(config: Mapping[str, Any]) -> dict:
    saved = load_auth_settings()
    return {"mode": config.get("mode") or saved.get("mode") or "oauth",
            "credentials": config.get("credentials") or saved.get("credentials"),
            "token": config.get("token") or saved.get("token"),
            "api_base": config.get("api_base"),
            "folder_id": config.get("folder_id") or saved.get("folder_id")}


def open_google_store(config: Mapping[str, Any], **kwargs) -> GoogleStore:
    """A GoogleStore from a game folder's config (``sheetbridge.json`` plus ``"folder"``).

    Keys (all optional): ``master`` or ``master_id`` (the master spreadsheet id),
    ``folder`` (the game folder: the store keeps its id cache there, beside the copy in
    the master), ``mode`` ("oauth" default, "service_account", or "token" for a fake
    server), ``credentials`` (path; default: what `sheetbridge auth` recorded, else
    ~/.config/sheetbridge/credentials.json), ``token`` (OAuth token cache path),
    ``host_email``, ``folder_id`` (a Drive folder, e.g. in a shared drive, for new files),
    ``api_base`` (alternate API root; $SHEETBRIDGE_GOOGLE_API_BASE wins), ``notify``,
    ``interactive`` (may open a browser to sign in), ``cache`` (a dict from export_cache).
    Extra keyword arguments go to GoogleStore (e.g. ``session=`` to skip credentials)."""
    s = _settings(config)
    api_base = os.environ.get(API_BASE_ENV) or s["api_base"]
    if not any(k in kwargs for k in ("session", "client", "credentials")):
        mode = s["mode"]
        if api_base and os.environ.get(TOKEN_ENV) and mode != "service_account":
            mode = "token"
        kwargs["credentials"] = build_credentials(mode, s["credentials"], s["token"],
                                                  interactive=bool(config.get("interactive", False)))
    store = GoogleStore(master_id=config.get("master_id") or config.get("master"),
                        host_email=config.get("host_email"), api_base=api_base,
                        notify=bool(config.get("notify", True)), folder_id=s["folder_id"],
                        game_folder=config.get("folder"), settings=s, **kwargs)
    if config.get("cache"):
        store.import_cache(config["cache"])
    return store


def new_google_store(folder: str | os.PathLike, config: Mapping[str, Any] | None = None, **kwargs) -> GoogleStore:
    """The store for `sheetbridge new --google --out FOLDER`: signs in (interactively if need
    be), forgets any id cache a replaced game left in FOLDER. Pass the store to
    ``orchestrator.new_game``; it records ``store.config_extra()`` in the folder's config."""
    cache = Path(folder) / CACHE_FILE
    if cache.exists():
        cache.unlink()
    return open_google_store({"interactive": True, **(config or {}), "folder": str(folder)}, **kwargs)
