"""The Google backend: a game's books as Google spreadsheets, one layer per file.

- ``urls.py``: API roots, scopes, a tab's A1 name, which quota a request counts against;
- ``errors.py``: the one line a failure tells the host, which failures are worth a retry;
- ``cells.py``: cells and tabs as Sheets request bodies (values, formats, dropdowns, protection);
- ``kept.py``: the rows a tab holds, as fingerprints: a write sends only the rows that changed
  (or, for a tab whose rows are re-ordered and grow a column, such as Standings, the cells);
- ``pacing.py``: the per-minute quota pacing shared by threads and commands (:class:`Pacer`);
- ``http.py``: the HTTP client: timeouts, pacing, bounded retries (:class:`SheetbridgeHTTPClient`);
- ``lock.py``: the game lock in the master's hidden Lock tab (:class:`GameLock`);
- ``auth.py``: signing in (OAuth, service account, a token for the fake);
- ``script.py``: the menu's Apps Script project;
- ``ids.py``: the sheet and protected-range id cache (no metadata read once a game is set up);
- ``drive.py``: creating and sharing the spreadsheets, resumably;
- ``book.py``: one spreadsheet (:class:`GoogleBook`);
- ``store.py``: :class:`GoogleStore` and how a game folder's config opens one;
- ``pictures.py``: each player's private picture, a Drive file shared with them alone.

Imports go one way, from the leaves (urls, errors, kept <- cells, pacing) up: http <- lock, auth, ids
<- drive <- store (with book); script.py and pictures.py are handed a store (named for types only).

Cost per round (see docs/google.md): a book is read with ONE ``values:batchGet``
(``valueRenderOption=FORMULA``, so a formula typed into a cell reads back as its
text starting with "=") and written with ONE ``spreadsheets:batchUpdate`` that
adds missing tabs with preassigned sheet ids, replaces cell values with
``updateCells`` (``stringValue``: text is never parsed as a formula), and sets
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
leaves whole tabs as they should be (the rows a tab already holds, checked by what this command
read of it, are moved into place rather than sent again, with only the cells that changed: kept.py), so running the command again
completes the round. No network at
all raises :class:`GoogleUnreachable` ("cannot reach Google (no network?): ...").

Requests that are not idempotent (creating a file, sharing it) are never blindly sent
twice: when one fails, sheetbridge first asks Drive whether it landed anyway (a write
whose answer was lost), so a retry creates no second file and no second invitation.
Creating a game is resumable (``begin_creation``: each file is recorded in the game
folder as soon as it exists, and tagged so that even a lost answer finds it again) and
shares nothing until every file is written (``share``). ``lock`` keeps one command at
a time per game with an owner-and-expiry lock in the master's hidden Lock tab; its reads
ride on the command's own (lock.LockRides): a ``resolve`` costs the master 2 reads and 3 writes.
"""
from __future__ import annotations

from .auth import (CONFIG_DIR_ENV, TOKEN_ENV, build_credentials, check_credentials_file, default_credentials_path,
                   default_token_path, load_auth_settings, save_auth_settings, save_token, sign_in_settings)
from .book import GoogleBook
from .cells import DEFAULT_COL_PIXELS
from .errors import GoogleUnreachable
from .http import DEFAULT_ATTEMPTS, DEFAULT_TIMEOUT, MAX_WAIT, SheetbridgeHTTPClient
from .ids import CACHE_FILE, ROWS_DIR
from .lock import LOCK_SETTLE, LOCK_TAB, LOCK_TTL, GameLock
from .pacing import PACE_FILE, PACE_PER_MINUTE, QUOTA_WAIT_LIMIT, Pacer
from .script import install_script
from .store import API_BASE_ENV, PUBLISH_WORKERS, GoogleStore, new_google_store, open_google_store
from .urls import SCOPES, SCRIPT_SCOPE

__all__ = [
    "API_BASE_ENV", "CACHE_FILE", "CONFIG_DIR_ENV", "DEFAULT_ATTEMPTS", "DEFAULT_COL_PIXELS", "DEFAULT_TIMEOUT",
    "LOCK_SETTLE", "LOCK_TAB", "LOCK_TTL", "MAX_WAIT", "PACE_FILE", "PACE_PER_MINUTE", "PUBLISH_WORKERS",
    "QUOTA_WAIT_LIMIT", "ROWS_DIR", "SCOPES", "SCRIPT_SCOPE", "TOKEN_ENV",
    "GameLock", "GoogleBook", "GoogleStore", "GoogleUnreachable", "Pacer", "SheetbridgeHTTPClient",
    "build_credentials", "check_credentials_file", "default_credentials_path", "default_token_path",
    "install_script", "load_auth_settings", "new_google_store", "open_google_store", "save_auth_settings",
    "save_token", "sign_in_settings",
]
