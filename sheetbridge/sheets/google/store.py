"""GoogleStore: a game's books as Google spreadsheets, and how a game folder's config opens one.

The store's jobs live beside it: the id cache (ids.py), creating and sharing files (drive.py),
the game lock (lock.py), requests (http.py)."""
from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import socket
import threading
import time
from pathlib import Path
from typing import Any, Callable, Mapping

import gspread
import requests

from ...core.errors import WorkbookError
from ..store import NEW_PROGRESS_FILE, Store
from .auth import TOKEN_ENV, build_credentials, default_token_path, sign_in_settings
from .book import GoogleBook
from .drive import DriveFiles
from .http import DEFAULT_ATTEMPTS, DEFAULT_TIMEOUT, SheetbridgeHTTPClient
from .ids import CACHE_FILE, ROWS_DIR
from .lock import HOST_NAME_ENV, LOCK_SETTLE, LOCK_TTL, PROCESS_NONCE, hold_game_lock
from .pacing import PACE_FILE, PACE_PER_MINUTE, QUOTA_WAIT_LIMIT, Pacer
from .urls import SCOPES

API_BASE_ENV = "SHEETBRIDGE_GOOGLE_API_BASE"
PUBLISH_WORKERS = 8            # books read or written at once (each book is one request)


class GoogleStore(DriveFiles, Store):
    """A game's books as Google spreadsheets.

    ``locks_forms``: at the deadline the players' Submission tabs are protected so only the host edits them.

    Build it from exactly one of: ``client`` (a ``gspread.Client``), ``session`` (a
    ``requests.Session`` that already authorises requests: the seam tests use) or
    ``credentials`` (google-auth credentials). See :func:`open_google_store` for
    building one from a game folder's config.
    """

    backend = "google"

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
        self._prints: dict[str, dict[str, dict]] = {}   # the rows each tab holds (ids.py, kept.py)
        self._seen: dict[str, dict[str, str]] = {}
        self._lock = threading.RLock()
        self.settings = dict(settings or {})   # what to record in the game folder's config
        self.game_folder = Path(game_folder) if game_folder else None
        self.cache_file = self.game_folder / CACHE_FILE if self.game_folder else None
        # The game lock (GameLock): who we are, and the wall clock its expiry is judged by.
        self.wall_clock = wall_clock
        self.lock_owner = f"{socket.gethostname()}:{os.getpid()}:{PROCESS_NONCE}"
        self.lock_pid = os.getpid()
        self.lock_host = socket.gethostname()
        self.lock_who = os.environ.get(HOST_NAME_ENV, "").strip()   # in a co-host game: the account (below)
        self.lock_ttl = LOCK_TTL
        self.lock_settle = LOCK_SETTLE
        self.lock_clock = clock            # (with ``sleep``: the settle wait counts the work done meanwhile)
        self._ride_lock = threading.RLock()
        self._master_hint: tuple[list[str], str | None] = ([], None)   # expect_master_read
        self._held(None)
        self.http.before_write = self.before_write
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

    def describe(self) -> str:
        return "Google Sheets" + (f" (master {self.master_id})" if self.master_id else "")

    locks_forms = True
    links_pictures = True   # each player's picture: a Drive file of theirs, linked from Results (pictures.py)

    # ---- Store interface
    def lock(self, command: str) -> contextlib.AbstractContextManager[None]:
        """Hold the game's lock for ``command``: see :func:`hold_game_lock` (lock.py)."""
        return hold_game_lock(self, command)

    def master_location(self) -> str:
        if not self.master_id:
            raise WorkbookError("no master spreadsheet is recorded for this game; "
                                "create the game with `sheetbridge new ... --google` first")
        return self.master_id

    def open(self, key: str, location: str) -> GoogleBook:
        if not location:
            raise WorkbookError(f"no spreadsheet id is recorded for {key}")
        return GoogleBook(self, key, location)


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
    s = sign_in_settings(config)
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
    if not (Path(folder) / NEW_PROGRESS_FILE).exists():
        if cache.exists():
            cache.unlink()
        shutil.rmtree(Path(folder) / ROWS_DIR, ignore_errors=True)   # the replaced game's rows (ids.py)
    return open_google_store({"interactive": True, **(config or {}), "folder": str(folder)}, **kwargs)

