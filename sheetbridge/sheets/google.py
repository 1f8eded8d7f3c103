"""Google Sheets store: one spreadsheet per book, built on gspread.

Cost per round (see docs/google.md): a book is read with ONE ``values:batchGet``
(``valueRenderOption=FORMULA``, so a formula a player typed comes back as its
text starting with "=") and written with ONE ``spreadsheets:batchUpdate`` that
adds missing tabs with preassigned sheet ids, replaces cell values with
``stringValue``/``numberValue`` (player text is never parsed as a formula), sets
formats, dropdowns, hidden tabs, frozen rows, column widths and protection.
Sheet ids and protected-range ids are remembered (``export_cache``/``import_cache``)
so that no metadata read happens once a game is set up: the master's record carries
them, its own included (``prepare_write``), so even a computer without the local
cache file reads none.

Every request has a timeout, is paced under Google's per-user quotas (60 reads
and 60 writes a minute; we stay at 55; the last minute's requests are logged in the
game folder, so commands run one after another share the pace) and is retried with
exponential backoff and jitter on 5xx (6 attempts) and on 429 (waited out for up to
two minutes, the host told "waiting for Google's quota (30 s)..."), honouring
Retry-After. Books are safe to read and write from several threads at once (the
orchestrator publishes player files together; ``publish_workers``).
gspread's ``BackOffHTTPClient`` is not used: in gspread 6.2.1 it retries without end.
A failure that persists raises :class:`BackendError` with one line; every write
replaces whole tabs, so running the command again completes the round. No network at
all raises :class:`GoogleUnreachable` ("cannot reach Google (no network?): ...").

Requests that are not idempotent (creating a file, sharing it) are never blindly sent
twice: when one fails, sheetbridge first asks Drive whether it landed anyway (a write
whose answer was lost), so a retry creates no second file and no second invitation.
Creating a game is resumable (``begin_creation``: each file is recorded in the game
folder as soon as it exists, and tagged so that even a lost answer finds it again) and
shares nothing until every file is written (``share``). ``lock`` keeps one command at
a time per game with an owner-and-expiry lock in the master's hidden Lock tab.
"""
from __future__ import annotations

import contextlib
import email.utils
import hashlib
import json
import os
import re
import secrets
import socket
import stat
import threading
import time
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

import gspread
import requests
from google.auth import exceptions as auth_errors
from gspread.exceptions import APIError
from gspread.http_client import HTTPClient
from gspread.urls import DRIVE_FILES_API_V3_URL
from gspread.utils import rowcol_to_a1
from tenacity import Retrying, retry_if_exception, stop_after_attempt, wait_exponential_jitter

from ..core.errors import BackendError, ConfigError, GameBusy, SheetbridgeError, WorkbookError
from .model import GOOGLE_CELL_LIMIT, CellData, Rect, TabData, cell_string, normalise
from .store import MASTER, NEW_PROGRESS_FILE, Book, BookInfo, Store

SCOPES = (
    "https://www.googleapis.com/auth/spreadsheets",
    "https://www.googleapis.com/auth/drive.file",
)
SHEETS_ROOT = "https://sheets.googleapis.com"
DRIVE_ROOT = "https://www.googleapis.com"
SCRIPT_ROOT = "https://script.googleapis.com"
SCRIPT_SCOPE = "https://www.googleapis.com/auth/script.projects"   # asked for by `menu install` only
SPREADSHEET_MIME = "application/vnd.google-apps.spreadsheet"
API_BASE_ENV = "SHEETBRIDGE_GOOGLE_API_BASE"
TOKEN_ENV = "SHEETBRIDGE_GOOGLE_TOKEN"
CONFIG_DIR_ENV = "SHEETBRIDGE_CONFIG_DIR"

QUOTA_PER_MINUTE = 60          # Google's default per user, per minute, reads and writes each
PACE_PER_MINUTE = 55           # what we allow ourselves, leaving room for the host's browser
DEFAULT_TIMEOUT = (10.0, 60.0)  # connect, read (seconds)
DEFAULT_ATTEMPTS = 6
MAX_WAIT = 64.0                # longest single wait between attempts (seconds)
# A 429 (the per-minute quota is spent, by us, the host's browser or another computer) is
# waited out rather than counted as a failure: waits double from 1 s up to QUOTA_STEP and
# stop after QUOTA_WAIT_LIMIT seconds in all, two whole quota windows.
QUOTA_STEP = 30.0
QUOTA_WAIT_LIMIT = 120.0
NOTICE_AFTER = 2.0             # shorter waits are not worth a line to the host
PUBLISH_WORKERS = 8            # books read or written at once (each book is one request)
PACE_FILE = ".sheetbridge-google-pace.json"   # the last minute's requests, shared by this computer's commands
PACE_LOCK_WAIT = 10.0          # seconds to wait for the pace file's lock before pacing alone
DRAIN_WAIT = 75.0              # longest wait for the requests in flight before a pacing wait (> a request's timeout)
DEFAULT_COL_PIXELS = 100
DEFAULT_ROW_PIXELS = 21        # Google's default row height
GOOGLE_FONT_POINTS, XLSX_FONT_POINTS = 10, 11   # each program's default font size
MIN_ROWS, MIN_COLS = 100, 26
WRITE_FIELDS = "userEnteredValue,userEnteredFormat,dataValidation"
CACHE_FILE = ".sheetbridge-google-cache.json"   # beside sheetbridge.json in a game folder
RESUME_HINT = "nothing is lost: run the same command again to finish (the game is resumable)"
CREATE_HINT = ("run the same `new` command again: it reuses the spreadsheets already created and "
               "shares them only once all are written")
# Tags on every spreadsheet sheetbridge creates (Drive appProperties, private to this app):
# a create whose answer was lost is found again by them, never created twice.
TAG_RUN = "sheetbridgeNew"       # the creation run's token (one `new`, all its re-runs)
TAG_BOOK = "sheetbridgeBook"     # which book: a digest of its key ("master", "player:Ann"...)
# The game lock: a hidden tab in the master (see GameLock).
LOCK_TAB = "Lock"
LOCK_COLUMNS = ("owner", "command", "pid", "host", "since", "expires")
# Which host starts a command (co-hosts share a game): its name goes into the lock's command column.
HOST_NAME_ENV = "SHEETBRIDGE_HOST_NAME"
# 15 minutes: the longest healthy command (creating a 30-player game, about 130 requests
# paced at 55 a minute, plus retries' waits) takes under 5 minutes, so a live run never
# loses its lock; and a run that died (a closed laptop) blocks the game for 15 minutes at
# most; on the same computer a dead holder's lock is taken over at once.
LOCK_TTL = 15 * 60
# Between writing our claim and reading it back: longer than a rival's read-then-write,
# so that of two runs that both saw the lock free, the later writer wins and the earlier
# one sees it (Google has no compare-and-set; see GameLock).
LOCK_SETTLE = 2.0


# --------------------------------------------------------------------------- pacing
class Pacer:
    """At most ``per_minute`` requests of each kind in any ``window`` seconds, for every
    thread of a process and, with ``path``, every sheetbridge process of this computer.

    Kinds: "read" and "write" (Sheets quotas) and "drive" (Drive calls, whose quota is
    much larger: paced at ten times the rate). Each request reserves the earliest slot
    that keeps its kind under the limit, then sleeps until that slot outside the lock,
    so threads queue fairly without holding each other up. A 429 answer ``hold``s its
    kind: nobody sends it again before the hold ends.

    With ``path`` (a small JSON file in the game folder, see PACE_FILE) the log of the
    last window's requests and holds is kept there under a file lock: a ``resolve``
    started seconds after a ``status`` knows what the ``status`` spent and waits
    instead of running into Google's quota. ``clock`` must then be the wall clock
    (shared by processes); a log that cannot be read or written is ignored (each
    process paces itself alone). ``clock`` and ``sleep`` are injectable so tests run
    instantly. ``notice`` hears "waiting for Google's quota (30 s)..." before a wait of
    ``NOTICE_AFTER`` seconds or more.

    >>> t = [0.0]
    >>> p = Pacer(per_minute=2, clock=lambda: t[0], sleep=lambda s: t.__setitem__(0, t[0] + s))
    >>> for _ in range(3):
    ...     p.acquire("read")
    >>> t[0]                      # the third read waited for the first to leave the window
    60.0
    """

    def __init__(self, per_minute: int = PACE_PER_MINUTE, window: float = 60.0,
                 clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep,
                 limits: Mapping[str, int] | None = None, path: str | os.PathLike | None = None,
                 notice: Callable[[str], None] | None = None) -> None:
        self.per_minute = per_minute
        # Drive's per-user quota is far larger than Sheets' 60 a minute; pace it loosely.
        self.limits = {"drive": per_minute * 10, **dict(limits or {})}
        self.window = window
        self.clock = clock
        self.sleep = sleep
        self.path = Path(path) if path else None
        self.notice = notice
        self._sent: dict[str, list[float]] = {}    # kind -> slots in the last window, oldest first
        self._holds: dict[str, float] = {}         # kind -> no request of it before this time (a 429)
        self._lock = threading.RLock()
        self._flight = threading.Condition(self._lock)
        self._in_flight = 0                        # requests of this process sent and not answered yet
        self._turns: dict[str, threading.Lock] = {}   # kind -> held by the thread waiting for the next slot
        self._told = float("-inf")                 # the end of the last wait the host was told about
        self.waited = 0.0

    def acquire(self, kind: str) -> None:
        """Wait until a request of ``kind`` may be sent (and count it)."""
        self._acquire(kind, track=False)

    @contextlib.contextmanager
    def sending(self, kind: str):
        """``acquire``, then count the request as in flight until the block ends (its answer came).

        A wait for a slot first lets the requests in flight land: Google counts a request when it
        arrives, so one sent in the last window must not arrive in the next (on a test's virtual
        clock a wait takes no time at all, and would otherwise jump over requests not sent yet)."""
        self._acquire(kind, track=True)
        try:
            yield
        finally:
            with self._flight:
                self._in_flight -= 1
                self._flight.notify_all()

    def _acquire(self, kind: str, track: bool) -> None:
        limit = self.limits.get(kind, self.per_minute)

        def reserve(sent: dict, holds: dict, now: float) -> float:
            slots = sent.setdefault(kind, [])
            slot = max(now, holds.get(kind, now), slots[-1] if slots else now)
            if limit > 0 and len(slots) >= limit:
                slot = max(slot, slots[-limit] + self.window)   # the limit-th latest leaves the window
            slots.append(slot)
            return slot

        with self._lock:
            now = self.clock()
            slot = self._update(reserve, now)
            if slot <= now:
                self._in_flight += track
                return
            turn = self._turns.setdefault(kind, threading.Lock())
        # Waits for one kind take turns in slot order (slots only grow): a later slot never wakes first.
        with turn:
            self._wait_until(slot, now)
        with self._lock:
            self._in_flight += track

    def hold(self, kind: str, seconds: float) -> None:
        """Google answered 429 for ``kind``: send none of it for ``seconds`` (every thread and,
        with a shared log, every process)."""
        def extend(sent: dict, holds: dict, now: float) -> float:
            holds[kind] = max(holds.get(kind, now), now + seconds)
            return holds[kind]

        with self._lock:
            now = self.clock()
            until = self._update(extend, now)
        self._tell(until, now)

    def _wait_until(self, slot: float, now: float) -> None:
        if slot - self.clock() <= 1e-6:
            return
        self.waited += slot - now
        self._tell(slot, now)
        with self._flight:
            self._flight.wait_for(lambda: self._in_flight <= 0, timeout=DRAIN_WAIT)
        while (left := slot - self.clock()) > 1e-6:
            self.sleep(left)

    def _tell(self, until: float, now: float) -> None:
        if self.notice is None or until - now < NOTICE_AFTER:
            return
        with self._lock:
            if until <= self._told + 1.0:       # eight threads waiting for the same slot: one line
                return
            self._told = until
        self.notice(f"waiting for Google's quota ({int(round(until - now))} s)...")

    # ---- the log: in memory, or shared through the game folder
    def _update(self, change: Callable[[dict, dict, float], float], now: float) -> float:
        """Apply ``change`` to the log (the shared file's, under its lock, when there is one)."""
        if self.path is not None:
            import filelock
            try:
                with filelock.FileLock(str(self.path) + ".lock", timeout=PACE_LOCK_WAIT):
                    sent, holds = self._read(now)
                    out = change(sent, holds, now)
                    self._sent, self._holds = sent, holds
                    with contextlib.suppress(OSError):   # not written: the others just do not know
                        self._write(sent, holds)
                    return out
            except (OSError, filelock.Timeout):
                pass   # no folder yet, a read-only one or a stuck lock: pace this process alone
        self._prune(self._sent, self._holds, now)
        return change(self._sent, self._holds, now)

    def _prune(self, sent: dict, holds: dict, now: float) -> None:
        # Slots more than a few windows ahead (a clock set back) are noise, not reservations.
        for kind, slots in list(sent.items()):
            sent[kind] = [t for t in slots if now - self.window < t <= now + 3 * self.window]
        for kind, until in list(holds.items()):
            if not now < until <= now + 2 * QUOTA_WAIT_LIMIT:
                del holds[kind]

    def _read(self, now: float) -> tuple[dict, dict]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            sent = {str(k): sorted(float(t) for t in v) for k, v in dict(data.get("sent", {})).items()}
            holds = {str(k): float(v) for k, v in dict(data.get("hold", {})).items()}
        except (OSError, ValueError, TypeError, AttributeError):
            sent, holds = ({k: list(v) for k, v in self._sent.items()}, dict(self._holds))
        self._prune(sent, holds, now)
        return sent, holds

    def _write(self, sent: dict, holds: dict) -> None:
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps({"version": 1, "sent": {k: [round(t, 3) for t in v] for k, v in sent.items() if v},
                                   "hold": {k: round(v, 3) for k, v in holds.items()}}, sort_keys=True),
                       encoding="utf-8")
        os.replace(tmp, self.path)


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


class GoogleUnreachable(BackendError):
    """No answer from Google at all (no network, DNS, a proxy): one line, exit 2."""


def _network(exc: BaseException) -> bool:
    """A failure to reach Google at all (google-auth wraps requests' errors while refreshing)."""
    return isinstance(exc, (requests.ConnectionError, requests.Timeout, auth_errors.TransportError))


def _transient(exc: BaseException) -> bool:
    if isinstance(exc, APIError):
        status = exc.response.status_code if exc.response is not None else exc.code
        return status == 429 or status >= 500
    return _network(exc)


def _status(exc: BaseException) -> int | None:
    if isinstance(exc, APIError):
        return exc.response.status_code if exc.response is not None else exc.code
    return None


SIGN_IN_EXPIRED = ("the Google sign-in has expired or was revoked ({detail}); run `sheetbridge auth` "
                   "(an unpublished OAuth app's sign-in lasts 7 days)")


class _Wait:
    """How long to wait before the next attempt.

    5xx and network errors: exponential backoff with jitter, never shorter than the
    server's Retry-After. 429 (the per-minute quota is spent): waits doubling up to
    QUOTA_STEP, never shorter than Retry-After, clipped so that all of one request's
    waits add up to at most ``quota_limit``; the pacer is held for the request's kind
    meanwhile, so other threads (and processes) wait too instead of spending attempts."""

    def __init__(self, initial: float = 1.0, maximum: float = MAX_WAIT, quota_limit: float = QUOTA_WAIT_LIMIT,
                 pacer: "Pacer | None" = None) -> None:
        self.backoff = wait_exponential_jitter(initial=initial, max=maximum, jitter=initial)
        self.quota_backoff = wait_exponential_jitter(initial=initial, max=QUOTA_STEP, jitter=initial)
        self.maximum = maximum
        self.quota_limit = quota_limit
        self.pacer = pacer

    def __call__(self, retry_state) -> float:
        exc = retry_state.outcome.exception() if retry_state.outcome else None
        after = _retry_after(exc) if exc is not None else None
        if _status(exc) == 429:
            wait = self.quota_backoff(retry_state)
            if after is not None:
                wait = max(wait, min(after, self.maximum))
            wait = max(0.0, min(wait, self.quota_limit - retry_state.idle_for))
            kind = getattr(exc, "sheetbridge_kind", None)
            if kind and self.pacer is not None:
                self.pacer.hold(kind, wait)
            return wait
        wait = self.backoff(retry_state)
        if after is not None:
            wait = max(wait, min(after, self.maximum))
        return wait


class SheetbridgeHTTPClient(HTTPClient):
    """gspread's HTTP client with a timeout on every request, quota pacing, a bounded
    retry on 429/5xx/connection errors, and an optional alternate API base URL.
    Safe to share between threads (the store publishes several books at once)."""

    def __init__(self, auth, session: requests.Session | None = None) -> None:
        super().__init__(auth, session)
        self.timeout = DEFAULT_TIMEOUT
        self.api_base: str | None = None
        self.pacer = Pacer()
        self.attempts = DEFAULT_ATTEMPTS
        self.quota_wait = QUOTA_WAIT_LIMIT
        self.sleep: Callable[[float], None] = time.sleep
        self.wait = _Wait(pacer=self.pacer)
        self.sent: dict[str, int] = {}   # requests sent by kind, retries included
        self._count_lock = threading.Lock()

    def configure(self, *, api_base: str | None = None, timeout=DEFAULT_TIMEOUT,
                  pacer: Pacer | None = None, attempts: int = DEFAULT_ATTEMPTS,
                  sleep: Callable[[float], None] | None = None,
                  backoff_initial: float = 1.0, quota_wait: float = QUOTA_WAIT_LIMIT) -> None:
        self.api_base = api_base.rstrip("/") if api_base else None
        self.timeout = timeout if timeout is not None else DEFAULT_TIMEOUT
        self.attempts = max(1, int(attempts))
        self.quota_wait = float(quota_wait)
        if sleep is not None:
            self.sleep = sleep
        self.pacer = pacer or Pacer(sleep=self.sleep)
        self.wait = _Wait(initial=backoff_initial, quota_limit=self.quota_wait, pacer=self.pacer)

    @property
    def pacer(self) -> Pacer:
        return self._pacer

    @pacer.setter
    def pacer(self, pacer: Pacer) -> None:   # tests share one pacer between stores: the waits follow it
        self._pacer = pacer
        if getattr(self, "wait", None) is not None:
            self.wait.pacer = pacer

    def _rebase(self, url: str) -> str:
        if self.api_base:
            for root in (SHEETS_ROOT, DRIVE_ROOT, SCRIPT_ROOT):
                if url.startswith(root):
                    return self.api_base + url[len(root):]
        return url

    def _stop(self, retry_state) -> bool:
        """Give up: a 429 once ``quota_wait`` seconds were waited in all (the quota did not come
        back); anything else after ``attempts`` attempts. One attempt only means no retry at all."""
        if self.attempts <= 1:
            return True
        if _status(retry_state.outcome.exception()) == 429:
            return retry_state.idle_for >= self.quota_wait - 1e-6
        return retry_state.attempt_number >= self.attempts

    def request(self, method, endpoint, params=None, data=None, json=None, files=None, headers=None,
                retry: bool = True):
        """One request, retried on 429/5xx/network errors unless ``retry`` is False (for a
        request that is not idempotent: the caller checks whether it landed first).
        A network failure always ends as ``requests.ConnectionError``; a sign-in that can
        no longer be refreshed as ConfigError."""
        url = self._rebase(endpoint)
        kind = request_kind(method, url)

        def attempt():
            with self.pacer.sending(kind):
                with self._count_lock:
                    self.sent[kind] = self.sent.get(kind, 0) + 1
                try:
                    response = self.session.request(method=method, url=url, json=json, params=params,
                                                    data=data, files=files, headers=headers,
                                                    timeout=self.timeout or DEFAULT_TIMEOUT)
                except auth_errors.RefreshError as exc:
                    raise ConfigError(SIGN_IN_EXPIRED.format(detail=_first_line(exc))) from None
            if response.ok:
                return response
            error = APIError(response)
            error.sheetbridge_kind = kind   # a 429 holds this kind of request (see _Wait)
            raise error

        retrying = Retrying(stop=self._stop if retry else stop_after_attempt(1), wait=self.wait,
                            retry=retry_if_exception(_transient), sleep=self.sleep, reraise=True)
        try:
            return retrying(attempt)
        except auth_errors.TransportError as exc:   # refreshing the token could not reach Google
            raise requests.ConnectionError(f"refreshing the Google sign-in: {_first_line(exc)}") from None

    def retrying(self) -> Retrying:
        """The same bounded retry policy, for a step made of several requests."""
        return Retrying(stop=self._stop, wait=self.wait,
                        retry=retry_if_exception(_transient), sleep=self.sleep, reraise=True)


def _first_line(exc: BaseException, limit: int = 200) -> str:
    text = str(exc).strip()
    return text.splitlines()[0][:limit] if text else type(exc).__name__


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


def _protection(tab: TabData) -> list[list[int]]:
    """A protected tab's signature in the id cache: its input rectangles, sorted."""
    return sorted(_input_rects(tab))


def _cache_entry(data: Mapping) -> dict:
    """One book's ids as the cache keeps them, from their JSON (a protection whose id Google
    has not told us yet, known from a record drawn before the write, has the id None)."""
    return {"sheets": {str(k): int(v) for k, v in dict(data.get("sheets", {})).items()},
            "protected": {str(k): [None if v[0] is None else int(v[0]), v[1]]
                          for k, v in dict(data.get("protected", {})).items()}}


def _grid(sheet_id: int, r0: int, r1: int, c0: int, c1: int) -> dict:
    return {"sheetId": sheet_id, "startRowIndex": r0, "endRowIndex": r1,
            "startColumnIndex": c0, "endColumnIndex": c1}


def _quote(tab: str) -> str:
    return "'" + tab.replace("'", "''") + "'"


# --------------------------------------------------------------------------- the game lock
_PROCESS_NONCE = secrets.token_hex(4)                 # tells this process from an earlier one with its pid
_HELD_LOCKS: dict[tuple[str, str], list] = {}         # (master id, owner) -> [depth, GameLock]


def _iso(t: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def _parse_iso(text: str) -> float | None:
    import calendar
    try:
        return float(calendar.timegm(time.strptime(text.strip(), "%Y-%m-%dT%H:%M:%SZ")))
    except (ValueError, AttributeError):
        return None


def _hhmm(t: float | None, now: float) -> str:
    if t is None:
        return "?"
    same_day = time.gmtime(t)[:3] == time.gmtime(now)[:3]
    return time.strftime("%H:%M UTC" if same_day else "%Y-%m-%d %H:%M UTC", time.gmtime(t))


def _pid_gone(pid: str) -> bool:
    """Is there no process ``pid`` on this computer? (POSIX only; elsewhere: unknown, False.)"""
    if os.name != "posix":
        return False
    try:
        n = int(pid)
    except (TypeError, ValueError):
        return False
    if n <= 0:
        return False
    try:
        os.kill(n, 0)
    except ProcessLookupError:
        return True
    except OSError:          # EPERM: it exists, as another user
        return False
    return False


class GameLock:
    """One command's hold on a game: a row in the master's hidden Lock tab
    (owner token, command, pid, host, since, expires; times in UTC).

    Google has no compare-and-set, so taking the lock is three steps (tests drive them
    one by one on two stores):

    1. :meth:`peek` reads the row; a live lock held by another run refuses at once
       (:class:`GameBusy` naming it);
    2. :meth:`claim` writes our row over it;
    3. :meth:`confirm`, ``store.lock_settle`` seconds later, reads it back: another run's
       row means it claimed after us and wins; we refuse and leave its row alone.

    Of two runs that both saw the lock free, the later writer wins and the earlier one
    sees that at confirm. What is left is a rival whose read came before our claim but
    whose write lands after our read-back: the settle wait makes that need a request
    slower than LOCK_SETTLE, and the record's revision check before the master's commit
    write catches even that. A lock past its expiry, or held by a process of this computer
    that is gone, is taken over; a row of our own process (a run whose release failed)
    is ours again.
    """

    def __init__(self, store: "GoogleStore", command: str) -> None:
        self.store = store
        self.command = command
        self.expires: float | None = None

    # ---- the steps
    def read(self) -> dict | None:
        """The holder's row as a dict, or None (no Lock tab yet, or nobody holds it)."""
        st = self.store
        sid = st.master_location()
        try:
            data = st.http.values_batch_get(sid, [f"{_quote(LOCK_TAB)}!A2:F2"],
                                            params={"valueRenderOption": "FORMULA", "majorDimension": "ROWS"})
        except APIError as exc:
            if exc.code == 400 and "parse range" in str(exc.error.get("message", "")):
                return None                   # no Lock tab: never locked
            raise st._failure(f"reading the game's lock in the master spreadsheet ({sid})", exc) from None
        except requests.RequestException as exc:
            raise st._failure(f"reading the game's lock in the master spreadsheet ({sid})", exc) from None
        rows = (data.get("valueRanges") or [{}])[0].get("values") or []
        row = [str(v) for v in rows[0]] if rows else []
        if not row or not row[0].strip():
            return None
        holder = dict(zip(LOCK_COLUMNS, row + [""] * len(LOCK_COLUMNS)))
        holder["since_t"] = _parse_iso(holder["since"])
        holder["expires_t"] = _parse_iso(holder["expires"])
        return holder

    def blocks(self, holder: dict | None) -> bool:
        """Does ``holder`` keep us out? Not if it is us, expired (or unreadable), or a
        process of this computer that is gone."""
        st = self.store
        if holder is None or holder["owner"] == st.lock_owner:
            return False
        if holder["expires_t"] is None or holder["expires_t"] <= st.wall_clock():
            return False
        if holder["host"] == st.lock_host and _pid_gone(holder["pid"]):
            return False
        return True

    def busy(self, holder: dict | None) -> GameBusy:
        now = self.store.wall_clock()
        if holder is None:
            return GameBusy("another sheetbridge started working on this game at the same moment; "
                            "try again when it ends")
        return GameBusy(f"another sheetbridge is working on this game ({holder['command'] or '?'} since "
                        f"{_hhmm(holder['since_t'], now)}, pid {holder['pid'] or '?'} on {holder['host'] or '?'}); "
                        f"try again when it ends (a lock left by a run that died expires at "
                        f"{_hhmm(holder['expires_t'], now)})")

    def peek(self) -> None:
        holder = self.read()
        if self.blocks(holder):
            raise self.busy(holder)

    def claim(self) -> None:
        st = self.store
        now = st.wall_clock()
        self.expires = now + st.lock_ttl
        command = f"{self.command} by {st.lock_who}" if st.lock_who else self.command   # co-hosts: who started it
        row = [st.lock_owner, command, str(st.lock_pid), st.lock_host, _iso(now), _iso(self.expires)]
        self._write([list(LOCK_COLUMNS), row])

    def confirm(self) -> None:
        holder = self.read()
        if holder is None or holder["owner"] != self.store.lock_owner:
            raise self.busy(holder)

    def release(self) -> None:
        """Clear our row. Well before our expiry nobody can have taken the lock over, so
        no read is needed; later, only a row that is still ours is cleared."""
        if self.expires is None:
            return
        if self.store.wall_clock() > self.expires - 60:
            holder = self.read()
            if holder is None or holder["owner"] != self.store.lock_owner:
                return
        st = self.store
        sid = st.master_location()
        try:
            st.http.values_clear(sid, f"{_quote(LOCK_TAB)}!A2:F2")
        except (APIError, requests.RequestException) as exc:
            raise st._failure(f"releasing the game's lock in the master spreadsheet ({sid})", exc) from None
        self.expires = None

    def acquire(self) -> None:
        """peek, claim, wait ``lock_settle`` seconds, confirm."""
        self.peek()
        try:
            self.claim()
            self.store.http.sleep(self.store.lock_settle)
            self.confirm()
        except GameBusy:
            self.expires = None               # the row is the winner's now: leave it
            raise
        except SheetbridgeError:
            with contextlib.suppress(SheetbridgeError):
                self.release()
            raise

    def _write(self, rows: list[list[str]]) -> None:
        """Values only (no sheet ids needed, so no metadata read); a master made before the
        Lock tab existed gets it first (hidden)."""
        st = self.store
        sid = st.master_location()
        what = f"writing the game's lock in the master spreadsheet ({sid})"
        body = {"range": f"{_quote(LOCK_TAB)}!A1:F{len(rows)}", "majorDimension": "ROWS", "values": rows}

        def put() -> None:
            st.http.values_update(sid, body["range"], params={"valueInputOption": "RAW"}, body=body)

        try:
            try:
                put()
            except APIError as exc:
                if not (exc.code == 400 and "parse range" in str(exc.error.get("message", ""))):
                    raise
                try:
                    st.http.batch_update(sid, {"requests": [{"addSheet": {"properties": {
                        "title": LOCK_TAB, "hidden": True, "gridProperties": {"rowCount": 10, "columnCount": 6}}}}]})
                except APIError as exc2:
                    if exc2.code != 400 or "already exists" not in str(exc2.error.get("message", "")):
                        raise
                put()
        except (APIError, requests.RequestException) as exc:
            raise st._failure(what, exc) from None


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
        if self.store._sheets(self.location) is None or self.store._needs_ids(self.location, tabs):
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
                 api_base: str | None = None, timeout=DEFAULT_TIMEOUT, attempts: int | None = None,
                 per_minute: int = PACE_PER_MINUTE, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep, backoff_initial: float = 1.0,
                 notify: bool = True, folder_id: str | None = None,
                 game_folder: str | os.PathLike | None = None, settings: Mapping[str, Any] | None = None,
                 wall_clock: Callable[[], float] = time.time, progress: Callable[[str], None] | None = None,
                 quota_wait: float = QUOTA_WAIT_LIMIT, workers: int = PUBLISH_WORKERS) -> None:
        given = [x for x in (client, session, credentials) if x is not None]
        if len(given) != 1:
            raise ValueError("GoogleStore needs exactly one of client, session or credentials")
        if client is not None:
            inner = client.http_client
            session = inner.session
            credentials = getattr(inner, "auth", None)
        self.client = gspread.Client(auth=credentials, session=session, http_client=SheetbridgeHTTPClient)
        self.http: SheetbridgeHTTPClient = self.client.http_client  # type: ignore[assignment]
        # With a game folder, every sheetbridge process of this computer working on the game shares
        # one log of the last minute's requests (PACE_FILE), kept in wall-clock time.
        pace_file = Path(game_folder) / PACE_FILE if game_folder else None
        self.pacer = Pacer(per_minute=per_minute, clock=wall_clock if pace_file else clock, sleep=sleep,
                           path=pace_file)
        self.http.configure(api_base=api_base or os.environ.get(API_BASE_ENV) or None, timeout=timeout,
                            pacer=self.pacer, attempts=attempts or DEFAULT_ATTEMPTS, sleep=sleep,
                            backoff_initial=backoff_initial, quota_wait=quota_wait)
        self.progress = progress
        # Books read or published at once by the orchestrator (each is one request; they share the pacer).
        self.publish_workers = max(1, int(workers))
        self._planned_master: dict | None = None   # the ids a master about to be created will have
        self.master_id = master_id
        self.host_email = host_email
        self.notify = notify
        self.folder_id = folder_id
        self._cache: dict[str, dict] = {}   # spreadsheet id -> {"sheets": {title: id}, "protected": {...}}
        self._lock = threading.RLock()
        self.settings = dict(settings or {})   # what to record in the game folder's config
        self.game_folder = Path(game_folder) if game_folder else None
        self.cache_file = self.game_folder / CACHE_FILE if self.game_folder else None
        # The game lock (GameLock): who we are, and the wall clock its expiry is judged by.
        self.wall_clock = wall_clock
        self.lock_owner = f"{socket.gethostname()}:{os.getpid()}:{_PROCESS_NONCE}"
        self.lock_pid = os.getpid()
        self.lock_host = socket.gethostname()
        self.lock_who = os.environ.get(HOST_NAME_ENV, "").strip()   # in a co-host game: the account (below)
        self.lock_ttl = LOCK_TTL
        self.lock_settle = LOCK_SETTLE
        self._folder_lock: contextlib.AbstractContextManager | None = None
        # Creating books: the journal `new` keeps in the game folder (begin_creation), if any.
        self._journal: dict[str, Any] | None = None
        self._save_journal: Callable[[], None] = lambda: None
        self._token = secrets.token_hex(8)   # tags this store's creations outside a journal
        self._fresh: set[str] = set()      # spreadsheets created by this store: shared with nobody yet
        self._used: dict[str, str] = {}    # book key -> spreadsheet id, created or reused in this run
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

    @property
    def progress(self) -> Callable[[str], None] | None:
        """Told what the host should know while a command runs ("waiting for Google's quota (30 s)...")."""
        return self._progress

    @progress.setter
    def progress(self, callback: Callable[[str], None] | None) -> None:
        self._progress = callback
        self.http.pacer.notice = callback

    def _save_cache(self) -> None:
        if self.cache_file is None:
            return
        with self._lock:   # books are written from several threads: one writer of the file at a time
            try:
                self.cache_file.parent.mkdir(parents=True, exist_ok=True)
                tmp = self.cache_file.with_name(self.cache_file.name + ".tmp")
                tmp.write_text(json.dumps(self._export(planned=False), indent=1, sort_keys=True) + "\n",
                               encoding="utf-8")
                os.replace(tmp, self.cache_file)
            except OSError:
                pass

    def describe(self) -> str:
        return "Google Sheets" + (f" (master {self.master_id})" if self.master_id else "")

    locks_forms = True
    links_pictures = True   # each player's picture: a Drive file of theirs, linked from Results (google_pictures.py)

    # ---- Store interface
    @contextlib.contextmanager
    def lock(self, command: str):
        """Hold the game's lock for ``command`` (see :class:`GameLock`): at most one
        sheetbridge works on a game at a time. Re-entrant within one process. Before the
        master exists (``new``), the game folder's file lock stands in for it.

        Costs 2 reads and 1 write to take, 1 write to release (see docs/google.md)."""
        if not self.master_id:
            if self.game_folder is None:
                yield
                return
            from .xlsx import XlsxStore    # the same OS file lock an xlsx game folder uses
            with XlsxStore(self.game_folder).lock(command):
                yield
            return
        key = (self.master_id, self.lock_owner)
        held = _HELD_LOCKS.get(key)
        if held is not None:                   # re-entrant: demo runs new, then resolve...
            held[0] += 1
            try:
                yield
            finally:
                held[0] -= 1
            return
        game_lock = GameLock(self, command)
        game_lock.acquire()
        _HELD_LOCKS[key] = [1, game_lock]
        try:
            yield
        finally:
            _HELD_LOCKS.pop(key, None)
            try:
                game_lock.release()
            except SheetbridgeError:
                pass   # no network: the lock expires by itself, and a run on this computer takes it over

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
        one batchUpdate, one Drive call per person shared with.

        Within ``begin_creation`` (``new``), a spreadsheet an earlier run recorded for
        ``key`` is reused, and one already written is left as it is."""
        if not tabs:
            raise ValueError("a book needs at least one tab")
        if key == MASTER and LOCK_TAB not in tabs:   # the game lock's row lives there (GameLock)
            tabs = {**tabs, LOCK_TAB: TabData(rows=[[CellData(c, bold=True) for c in LOCK_COLUMNS]], hidden=True)}
        entry = self._entry(key)
        label = f"the {key} spreadsheet '{title}'"
        sid = entry.get("id")
        if sid is not None and entry.get("written") and entry.get("title") == title:
            self._used[key] = sid
            self._remember(key, sid)
            return BookInfo(key=key, location=sid, title=title)
        planned = self._planned_master if key == MASTER else None   # see prepare_write
        if sid is None:
            sid = self._create_file(key, title, entry)
        try:
            self._setup(sid, title, tabs, label, renamed=entry.get("title") not in (None, title), planned=planned)
        except WorkbookError:
            if sid in self._fresh:
                raise
            # A file an earlier run created is gone (deleted by hand): create it again.
            entry.pop("id", None)
            self._save_journal()
            sid = self._create_file(key, title, entry)
            self._setup(sid, title, tabs, label, renamed=False, planned=planned)
        if key == MASTER:
            self._planned_master = None
        entry.update({"id": sid, "title": title, "written": True})
        self._save_journal()
        self._used[key] = sid
        self._remember(key, sid)
        if reader_email or writer_email:
            self.share(BookInfo(key=key, location=sid, title=title), reader_email, writer_email)
        return BookInfo(key=key, location=sid, title=title)

    def _remember(self, key: str, sid: str) -> None:
        if key == MASTER:
            self.master_id = sid
        self._save_cache()

    def _entry(self, key: str) -> dict:
        """The journal's record of book ``key`` (outside `new`: a throwaway one)."""
        if self._journal is None:
            return {}
        return self._journal.setdefault("books", {}).setdefault(key, {})

    def _tags(self, key: str) -> dict[str, str]:
        if self._journal is None:   # no re-run will look for it: only this call's retries
            return {TAG_RUN: self._token, TAG_BOOK: secrets.token_hex(8)}
        return {TAG_RUN: str(self._journal["token"]), TAG_BOOK: hashlib.sha256(key.encode()).hexdigest()[:16]}

    def _list_files(self, tags: Mapping[str, str]) -> list[dict]:
        """Files this app created with these tags, oldest first (a Drive files.list, not retried:
        the caller's loop retries)."""
        q = " and ".join([f"appProperties has {{ key='{k}' and value='{v}' }}" for k, v in tags.items()]
                         + ["trashed = false"])
        params = {"q": q, "fields": "files(id,name,appProperties)", "orderBy": "createdTime",
                  "pageSize": "100", "supportsAllDrives": "true", "includeItemsFromAllDrives": "true",
                  "corpora": "allDrives" if self.folder_id else "user", "spaces": "drive"}
        return self.http.request("get", DRIVE_FILES_API_V3_URL, params=params, retry=False).json().get("files", [])

    def _create_file(self, key: str, title: str, entry: dict) -> str:
        """A new, empty spreadsheet, tagged; recorded in the journal before anything else
        happens to it. A create whose answer was lost is found by its tags, not repeated."""
        tags = self._tags(key)
        body: dict[str, Any] = {"name": title, "mimeType": SPREADSHEET_MIME, "appProperties": tags,
                                "writersCanShare": False, "copyRequiresWriterPermission": True}
        if self.folder_id:
            body["parents"] = [self.folder_id]
        params = {"supportsAllDrives": "true", "fields": "id,name,owners(emailAddress)"}
        sent = entry.get("tagged") == tags    # an earlier run (or attempt) may have created it

        def attempt() -> dict:
            nonlocal sent
            if sent:
                found = self._list_files(tags)
                if found:
                    return found[0]
            entry["tagged"] = tags
            self._save_journal()
            sent = True
            return self.http.request("post", DRIVE_FILES_API_V3_URL, json=body, params=params, retry=False).json()

        try:
            info = self.http.retrying()(attempt)
        except (APIError, requests.RequestException) as exc:
            raise self._failure(f"creating the {key} spreadsheet '{title}'", exc, hint=CREATE_HINT) from None
        sid = info["id"]
        owners = info.get("owners") or []
        if not self.host_email and owners and owners[0].get("emailAddress"):
            self.host_email = owners[0]["emailAddress"]
        entry.update({"id": sid, "title": title, "written": False})
        self._save_journal()
        self._fresh.add(sid)
        return sid

    def _setup(self, sid: str, title: str, tabs: Mapping[str, TabData], label: str, renamed: bool,
               planned: Mapping | None = None) -> None:
        """Write a created (or reused) spreadsheet's tabs and remove every other tab (the
        default Sheet1, or what an earlier game left): one metadata read, one batchUpdate.
        ``planned``: the sheet ids the record inside ``tabs`` already names (prepare_write)."""
        what = f"setting up {label} ({sid})"

        def once() -> None:
            self._load_metadata(sid, label)
            if planned:
                with self._lock:
                    entry = self._cache[sid]
                    used = set(entry["sheets"].values())
                    entry["planned"] = {t: i for t, i in planned["sheets"].items()
                                        if t not in entry["sheets"] and i not in used}
            body, pending = self._write_requests(sid, tabs)
            extra = {t: i for t, i in (self._sheets(sid) or {}).items() if t not in tabs}
            body += [{"deleteSheet": {"sheetId": i}} for i in extra.values()]
            if renamed:
                body.append({"updateSpreadsheetProperties": {"properties": {"title": title}, "fields": "title"}})
            reply = self.http.batch_update(sid, {"requests": body})
            self._commit(sid, pending, reply.get("replies", []))
            with self._lock:
                entry = self._cache[sid]
                for t in extra:
                    entry["sheets"].pop(t, None)
                    entry["protected"].pop(t, None)
            self._save_cache()

        try:
            once()
        except APIError as exc:
            if exc.code != 400:
                raise self._failure(what, exc, hint=CREATE_HINT) from None
            try:   # an earlier attempt landed (its answer was lost): look again and finish
                once()
            except (APIError, requests.RequestException) as exc2:
                raise self._failure(what, exc2, hint=CREATE_HINT) from None
        except requests.RequestException as exc:
            raise self._failure(what, exc, hint=CREATE_HINT) from None

    # ---- creating a game: journal, leftovers, sharing
    def begin_creation(self, journal, save) -> None:
        """Use `new`'s journal (kept in the game folder): ``journal["token"]`` tags every file
        of this creation, ``journal["books"][key]`` records each file as soon as it exists."""
        journal.setdefault("token", secrets.token_hex(8))
        journal.setdefault("books", {})
        self._journal = journal
        self._save_journal = save
        self._used = {}

    def end_creation(self) -> list[str]:
        """Trash what earlier runs of this creation made that the game does not use (a book
        of a player since removed from --players, or a duplicate a lost answer left): they
        carry this creation's tag. One Drive search, one call per file trashed."""
        if self._journal is None:
            return []
        what = "looking for spreadsheets left by earlier runs of `new`"
        try:
            found = self.http.retrying()(lambda: self._list_files({TAG_RUN: str(self._journal["token"])}))
        except (APIError, requests.RequestException) as exc:
            raise self._failure(what, exc, hint=CREATE_HINT) from None
        keep = set(self._used.values())
        trashed = []
        for f in found:
            if f["id"] in keep:
                continue
            try:
                self.http.request("patch", f"{DRIVE_FILES_API_V3_URL}/{f['id']}", json={"trashed": True},
                                  params={"supportsAllDrives": "true", "fields": "id"})
            except (APIError, requests.RequestException) as exc:
                raise self._failure(f"moving the unused spreadsheet '{f.get('name', '')}' ({f['id']}) to the trash",
                                    exc, hint=CREATE_HINT) from None
            trashed.append(f"'{f.get('name', '')}' ({f['id']})")
        books = self._journal.get("books", {})
        for key in [k for k, e in books.items() if e.get("id") not in keep]:
            del books[key]
        self._save_journal()
        return trashed

    def share(self, info: BookInfo, reader_email: str | Sequence[str] | None = None,
              writer_email: str | None = None) -> None:
        """Make the spreadsheet's people exactly ``writer_email`` (writer) and
        ``reader_email`` (readers), besides its owner: missing ones are invited, others
        removed. Each invitation is recorded in the journal, and one whose answer was lost is
        looked up before being sent again: a re-run never invites anyone twice."""
        sid = info.location
        want: dict[str, str] = {e.lower(): "reader" for e in _emails(reader_email)}
        want.update({e.lower(): "writer" for e in _emails(writer_email)})
        entry = self._entry(info.key)
        if entry.get("id") == sid and entry.get("shared") == want:
            return                                 # an earlier run finished this one
        what = f"sharing the {info.key} spreadsheet ({sid})"
        try:
            if sid in self._fresh and not entry.get("sharing"):
                have: dict[str, dict] = {}         # created just now: nobody has it yet
            else:
                have = self.http.retrying()(lambda: self._people(sid))
            entry["sharing"] = True
            self._save_journal()
            for email_, perm in sorted(have.items()):
                if email_ not in want:
                    self._revoke(sid, perm["id"])
            for email_, role in sorted(want.items()):
                if have.get(email_, {}).get("role") != role:
                    self._invite(sid, email_, role)
        except (APIError, requests.RequestException) as exc:
            raise self._failure(what, exc, hint=CREATE_HINT) from None
        entry["shared"] = want
        self._save_journal()

    def _people(self, sid: str) -> dict[str, dict]:
        """Who the spreadsheet is shared with (lower-case email -> permission), owners and
        permissions inherited from a shared drive left out: sheetbridge never touches them."""
        out: dict[str, dict] = {}
        token = None
        while True:
            params = {"supportsAllDrives": "true", "pageSize": "100",
                      "fields": "nextPageToken,permissions(id,type,role,emailAddress,permissionDetails)"}
            if token:
                params["pageToken"] = token
            page = self.http.request("get", f"{DRIVE_FILES_API_V3_URL}/{sid}/permissions", params=params,
                                     retry=False).json()
            for perm in page.get("permissions", []):
                details = perm.get("permissionDetails") or []
                if perm.get("role") == "owner" or (details and all(d.get("inherited") for d in details)):
                    continue
                who = (perm.get("emailAddress") or perm.get("type", "")).lower()
                if self.host_email and who == self.host_email.lower():
                    continue
                out[who] = perm
            token = page.get("nextPageToken")
            if not token:
                return out

    def _revoke(self, sid: str, permission_id: str) -> None:
        try:
            self.http.request("delete", f"{DRIVE_FILES_API_V3_URL}/{sid}/permissions/{permission_id}",
                              params={"supportsAllDrives": "true"})
        except APIError as exc:
            if exc.code != 404:     # 404: an earlier attempt removed it (its answer was lost)
                raise

    def _invite(self, sid: str, email_: str, role: str) -> None:
        params = {"supportsAllDrives": "true", "sendNotificationEmail": "true" if self.notify else "false"}
        sent = False

        def attempt() -> None:
            nonlocal sent
            if sent and self._people(sid).get(email_, {}).get("role") == role:
                return                         # the lost answer's invitation did land
            sent = True
            self.http.request("post", f"{DRIVE_FILES_API_V3_URL}/{sid}/permissions", params=params,
                              json={"type": "user", "role": role, "emailAddress": email_}, retry=False)

        self.http.retrying()(attempt)

    def permissions(self, location: str) -> list[dict]:
        """Who can open a spreadsheet (a Drive call; for checks, never used in a round)."""
        return self.client.list_permissions(location)

    # ---- cache of ids
    def export_cache(self) -> dict:
        """The sheet and protected-range ids this store knows, for the master's record. A book
        prepared for a write (prepare_write) is described as it will be after that write, and a
        master about to be created as its creation will make it: the record the master's write
        carries is then complete, and a computer without the local cache file needs no metadata read."""
        return self._export(planned=True)

    def _export(self, planned: bool) -> dict:
        with self._lock:
            books = {}
            for sid, entry in self._cache.items():
                shown = entry.get("after") if planned and entry.get("after") else entry
                books[sid] = {"sheets": shown["sheets"], "protected": shown["protected"]}
            out = {"version": 1, "host": self.host_email, "master": self.master_id,
                   "books": json.loads(json.dumps(books))}
            if planned and self._planned_master is not None and self.master_id not in self._cache:
                out["new_master"] = json.loads(json.dumps(self._planned_master))
            return out

    def import_cache(self, data: Mapping) -> None:
        if not data:
            return
        with self._lock:
            for sid, entry in dict(data.get("books", {})).items():
                if sid in self._cache:   # what this store learnt itself is at least as fresh
                    continue
                self._cache[sid] = _cache_entry(entry)
            if data.get("host") and not self.host_email:
                self.host_email = data["host"]
            if data.get("master") and not self.master_id:
                self.master_id = data["master"]
            if data.get("new_master") and self.master_id and self.master_id not in self._cache:
                self._cache[self.master_id] = _cache_entry(data["new_master"])   # drawn before it existed

    def prepare_write(self, key: str, location: str | None, tabs: Mapping[str, TabData]) -> bool:
        """Get ready to write ``tabs`` to book ``key`` so that ``export_cache`` describes the book as that
        write leaves it (see Store.prepare_write). ``location`` None: the master is about to be created;
        its tabs get the ids 1, 2, 3... in order (a new spreadsheet holds only Sheet1, id 0).
        A book whose ids are unknown costs the one metadata read its write would cost anyway.
        Returns True when the export changed (the record must be drawn again)."""
        before = self._export(planned=True)
        if location is None:
            if key == MASTER:
                titles = list(tabs) + ([] if LOCK_TAB in tabs else [LOCK_TAB])
                self._planned_master = {"sheets": {t: i + 1 for i, t in enumerate(titles)},
                                        "protected": {t: [None, _protection(tab)] for t, tab in tabs.items()
                                                      if tab.protected}}
        else:
            if self._sheets(location) is None or self._needs_ids(location, tabs):
                self._load_metadata(location, f"the {key} spreadsheet ({location})")
            with self._lock:
                entry = self._cache[location]
                sheets = entry["sheets"]
                next_id = max(sheets.values(), default=0) + 1
                planned: dict[str, int] = {}
                for title in tabs:
                    if title not in sheets:
                        planned[title] = next_id
                        next_id += 1
                protected = {t: list(v) for t, v in entry["protected"].items()}
                for title, tab in tabs.items():
                    if tab.protected:   # a new protection's id is Google's to give: unknown until the reply
                        old = protected.get(title)
                        protected[title] = [old[0] if old else None, _protection(tab)]
                    else:
                        protected.pop(title, None)
                entry["planned"] = planned
                entry["after"] = {"sheets": {**sheets, **planned}, "protected": protected}
        return self._export(planned=True) != before

    def _needs_ids(self, sid: str, tabs: Mapping[str, TabData]) -> bool:
        """Does writing ``tabs`` need ids the cache lacks? A protection known only from the record
        (its id None) is left alone while its cells stay the same; changing or removing it needs its id."""
        entry = self._cache.get(sid)
        if entry is None:
            return True
        for title, tab in tabs.items():
            old = entry["protected"].get(title)
            if old is not None and old[0] is None and (not tab.protected or old[1] != _protection(tab)):
                return True
        return False

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
            prepared = {k: v for k, v in self._cache.get(sid, {}).items() if k in ("planned", "after")}
            self._cache[sid] = {"sheets": sheets, "protected": protected, **prepared}
        self._save_cache()

    # ---- building a write
    def _write_requests(self, sid: str, tabs: Mapping[str, TabData],
                        reserved: Iterable[int] = ()) -> tuple[list[dict], list]:
        with self._lock:   # other threads write other books meanwhile
            entry = self._cache.setdefault(sid, {"sheets": {}, "protected": {}})
            sheets = dict(entry["sheets"])
            planned = dict(entry.get("planned") or {})    # ids the record this write carries already names
        taken = {*sheets.values(), *reserved}
        next_id = max([*taken, *planned.values()], default=0) + 1   # preassigned, never reused
        reqs: list[dict] = []
        pending: list = []   # ("sheet", title, id) | ("protect", title, reply index, sig)
        #                      | ("reprotect", title, id, sig) | ("unprotect", title)
        for title, tab in tabs.items():
            nrows = max(len(tab.rows), max((m[2] for m in tab.merges), default=0),
                        max(tab.row_heights, default=-1) + 1)
            ncols = max(tab.width, max(tab.col_widths, default=-1) + 1, max((m[3] for m in tab.merges), default=0))
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
                # The tab is replaced whole: last time's merges and row heights go too.
                reqs.append({"unmergeCells": {"range": {"sheetId": sheet_id}}})
                reqs.append({"updateDimensionProperties": {
                    "range": {"sheetId": sheet_id, "dimension": "ROWS", "startIndex": 0,
                              "endIndex": grid["rowCount"]},
                    "properties": {"pixelSize": DEFAULT_ROW_PIXELS}, "fields": "pixelSize"}})
            else:
                sheet_id = planned.get(title, -1)
                if sheet_id < 0 or sheet_id in taken:
                    sheet_id = next_id
                    next_id += 1
                taken.add(sheet_id)
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
            for r0, c0, r1, c1 in tab.merges:
                reqs.append({"mergeCells": {"range": _grid(sheet_id, r0, r1, c0, c1), "mergeType": "MERGE_ALL"}})
            for row, height in sorted(tab.row_heights.items()):
                reqs.append({"updateDimensionProperties": {
                    "range": {"sheetId": sheet_id, "dimension": "ROWS", "startIndex": int(row),
                              "endIndex": int(row) + 1},
                    "properties": {"pixelSize": points_to_pixels(height)}, "fields": "pixelSize"}})
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
                rects = _input_rects(tab)
                sig = sorted(rects)
                if old is not None and old[1] == sig:
                    continue
                if old is not None:
                    # The same protected range, new input cells (a form changes from round to round): its id
                    # stays, so the copy of the cache in the master's record stays right.
                    reqs.append({"updateProtectedRange": {
                        "protectedRange": {"protectedRangeId": old[0],
                                           "unprotectedRanges": [_grid(sheet_id, *x) for x in rects]},
                        "fields": "unprotectedRanges"}})
                    pending.append(("reprotect", title, old[0], sig))
                    continue
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
                elif item[0] == "reprotect":
                    _, title, prid, sig = item
                    entry["protected"][title] = [int(prid), sig]
                elif item[0] == "unprotect":
                    entry["protected"].pop(item[1], None)
            prepared = entry.pop("planned", None), entry.pop("after", None)
        if pending or any(prepared):
            self._save_cache()

    # ---- errors
    def _failure(self, what: str, exc: BaseException, resumable: bool = True,
                 hint: str | None = None) -> BackendError | WorkbookError:
        """One line for the host: what failed, Google's answer, and that running the
        command again completes it. 403/404 mean a file is gone or unshared: WorkbookError.
        No answer at all: GoogleUnreachable."""
        transient = _transient(exc)
        tail = hint or (RESUME_HINT if resumable else "run the same command again")
        if _network(exc):
            return GoogleUnreachable(f"cannot reach Google (no network?): {what} failed after "
                                     f"{self.http.attempts} attempts ({type(exc).__name__}: {_first_line(exc)}); "
                                     f"{tail}")
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
        if _status(exc) == 429 and self.http.attempts > 1:
            tries = f" after waiting {int(self.http.quota_wait)} s for Google's per-minute quota"
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
                      token_path: str | os.PathLike | None = None, interactive: bool = True,
                      scopes: Sequence[str] = SCOPES):
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
            return service_account.Credentials.from_service_account_file(str(path), scopes=list(scopes))
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
            creds = Credentials.from_authorized_user_file(str(token_file), list(scopes))
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
        except auth_errors.TransportError as exc:
            raise GoogleUnreachable(f"cannot reach Google (no network?): refreshing the Google sign-in "
                                    f"failed ({_first_line(exc)}); run the same command again when online") from None
    if not interactive:
        raise ConfigError("the Google sign-in has expired or was never made; run `sheetbridge auth` "
                          "(an unpublished OAuth app's sign-in lasts 7 days)")
    check_credentials_file(path, "oauth")
    from google_auth_oauthlib.flow import InstalledAppFlow
    flow = InstalledAppFlow.from_client_secrets_file(str(path), list(scopes))
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
        extra = tuple(config.get("extra_scopes") or ())
        token = s["token"]
        if extra and mode == "oauth":   # a wider sign-in (the menu's install) is cached apart from the usual one
            base = Path(token or default_token_path()).expanduser()
            token = str(base.with_name(base.stem + "-menu" + base.suffix))
        kwargs["credentials"] = build_credentials(mode, s["credentials"], token,
                                                  interactive=bool(config.get("interactive", False)),
                                                  scopes=tuple(SCOPES) + extra)
    store = GoogleStore(master_id=config.get("master_id") or config.get("master"),
                        host_email=config.get("host_email"), api_base=api_base,
                        notify=bool(config.get("notify", True)), folder_id=s["folder_id"],
                        game_folder=config.get("folder"), settings=s, **kwargs)
    if config.get("cache"):
        store.import_cache(config["cache"])
    if config.get("cohosts") and not store.lock_who:   # several hosts: the lock says which one started a command
        store.lock_who = str(config.get("host_email") or "")
    return store


def new_google_store(folder: str | os.PathLike, config: Mapping[str, Any] | None = None, **kwargs) -> GoogleStore:
    """The store for `sheetbridge new --google --out FOLDER`: signs in (interactively if need
    be), forgets any id cache a replaced game left in FOLDER (but keeps it while an unfinished
    `new` is being resumed). Pass the store to ``orchestrator.new_game``; it records
    ``store.config_extra()`` in the folder's config."""
    cache = Path(folder) / CACHE_FILE
    if cache.exists() and not (Path(folder) / NEW_PROGRESS_FILE).exists():
        cache.unlink()
    return open_google_store({"interactive": True, **(config or {}), "folder": str(folder)}, **kwargs)


# --------------------------------------------------------------------------- the menu's Apps Script
ENABLE_SCRIPT_API = ("turn on the Apps Script API for your account at https://script.google.com/home/usersettings "
                     "and run the command again, or add the menu by hand: `sheetbridge menu show`")


def install_script(store: GoogleStore, files: Sequence[Mapping[str, str]], script_id: str | None = None,
                   title: str = "Sheetbridge menu") -> str:
    """Put `files` (name, type, source) into an Apps Script project bound to the master spreadsheet:
    creates the project (parent = the master) unless `script_id` names one already, then replaces its
    content. Returns the project's id. One or two requests."""
    http = store.http
    try:
        if not script_id:
            r = http.request("post", f"{SCRIPT_ROOT}/v1/projects",
                             json={"title": title, "parentId": store.master_location()})
            script_id = r.json()["scriptId"]
        http.request("put", f"{SCRIPT_ROOT}/v1/projects/{script_id}/content", json={"files": list(files)})
    except APIError as exc:
        msg = str(exc.error.get("message", "")) if isinstance(getattr(exc, "error", None), dict) else str(exc)
        if exc.code == 403 and "Apps Script API" in msg:
            raise ConfigError(f"Google refused: the Apps Script API is turned off for this account; "
                              f"{ENABLE_SCRIPT_API}") from None
        raise store._failure("installing the Sheetbridge menu", exc) from None
    except requests.RequestException as exc:
        raise store._failure("installing the Sheetbridge menu", exc) from None
    return script_id
