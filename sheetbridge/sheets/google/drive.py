"""Creating a game's spreadsheets on Drive and sharing them: resumable (each file recorded in
`new`'s journal as soon as it exists, and tagged so that a lost answer finds it again), never
creating a file or sending an invitation twice."""
from __future__ import annotations

import hashlib
import re
import secrets
from typing import Any, Callable, Mapping, Sequence

import gspread
import requests
from gspread.exceptions import APIError
from gspread.urls import DRIVE_FILES_API_V3_URL

from ...core.errors import WorkbookError
from ..model import CellData, TabData
from ..store import MASTER, BookInfo
from .ids import SheetIds
from .lock import LOCK_COLUMNS, LOCK_TAB

SPREADSHEET_MIME = "application/vnd.google-apps.spreadsheet"
CREATE_HINT = ("run the same `new` command again: it reuses the spreadsheets already created and "
               "shares them only once all are written")
# Tags on every spreadsheet sheetbridge creates (Drive appProperties, private to this app):
# a create whose answer was lost is found again by them, never created twice.
TAG_RUN = "sheetbridgeNew"       # the creation run's token (one `new`, all its re-runs)
TAG_BOOK = "sheetbridgeBook"     # which book: a digest of its key ("master", "player:Ann"...)


class DriveFiles(SheetIds):
    """Creating and sharing the files of a :class:`~sheetbridge.sheets.google.store.GoogleStore`
    (a base class: the store's ``__init__`` sets ``_journal``, ``_fresh``, ``_used``...). A file is
    written with the id cache's requests (ids.py)."""

    _journal: dict[str, Any] | None
    _save_journal: Callable[[], None]
    _fresh: set[str]
    _used: dict[str, str]
    _token: str
    client: gspread.Client
    folder_id: str | None
    notify: bool

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
            raise self.http.failure(f"creating the {key} spreadsheet '{title}'", exc, hint=CREATE_HINT) from None
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
                raise self.http.failure(what, exc, hint=CREATE_HINT) from None
            try:   # an earlier attempt landed (its answer was lost): look again and finish
                once()
            except (APIError, requests.RequestException) as exc2:
                raise self.http.failure(what, exc2, hint=CREATE_HINT) from None
        except requests.RequestException as exc:
            raise self.http.failure(what, exc, hint=CREATE_HINT) from None

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
        token = str(self._journal["token"])
        try:
            found = self.http.retrying()(lambda: self._list_files({TAG_RUN: token}))
        except (APIError, requests.RequestException) as exc:
            raise self.http.failure(what, exc, hint=CREATE_HINT) from None
        keep = set(self._used.values())
        trashed = []
        for f in found:
            if f["id"] in keep:
                continue
            try:
                self.http.request("patch", f"{DRIVE_FILES_API_V3_URL}/{f['id']}", json={"trashed": True},
                                  params={"supportsAllDrives": "true", "fields": "id"})
            except (APIError, requests.RequestException) as exc:
                raise self.http.failure(f"moving the unused spreadsheet '{f.get('name', '')}' ({f['id']}) to the trash",
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
            raise self.http.failure(what, exc, hint=CREATE_HINT) from None
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



def _emails(value: str | Sequence[str] | None) -> list[str]:
    if not value:
        return []
    if isinstance(value, str):
        value = re.split(r"[,;\s]+", value)
    return [v.strip() for v in value if v and v.strip()]

