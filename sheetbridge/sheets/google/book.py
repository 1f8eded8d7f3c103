"""One spreadsheet as a :class:`~sheetbridge.sheets.store.Book`: a read is one values:batchGet,
a write one spreadsheets:batchUpdate replacing whole tabs (the ids come from the store's cache)."""
from __future__ import annotations

from typing import Mapping, Sequence

import requests
from gspread.exceptions import APIError
from gspread.urls import SPREADSHEET_BATCH_UPDATE_URL
from gspread.utils import rowcol_to_a1

from ...core.errors import WorkbookError
from ..model import Rect, TabData, normalise
from ..store import Book
from .errors import is_transient
from .urls import quote_tab
from .ids import SheetIds   # the part of GoogleStore a book uses (the store is one; no import cycle)


class GoogleBook(Book):
    """A spreadsheet of the game (``key``: "master", "player:Ann"...; ``location``: its id)."""

    def __init__(self, store: SheetIds, key: str, location: str, title: str = "") -> None:
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
        served = self.store.prefetched(self.location, tabs)   # read with the game lock's row (lock.py)
        if served is not None:
            return served
        known = self.store._sheets(self.location)
        if known is not None and any(t not in known for t in tabs):
            names = self.tab_names(refresh=True)      # the cache may be stale: ask once
            missing = [t for t in tabs if t not in names]
            if missing:
                raise self._missing(missing[0], names)
        http = self.store.http
        ride = self.store.ride(self.location, tabs)   # the lock's read-back, if it is still to come
        # The other tabs whose rows the store remembers ride along (the same request): a write checks
        # its kept rows against them (kept.py), even when the command reads only some tabs.
        extra = [] if ride else self.store._read_extra(self.location, tabs)
        try:
            try:
                data = http.values_batch_get(self.location, [quote_tab(t) for t in tabs + extra] + ride,
                                             params={"valueRenderOption": "FORMULA", "majorDimension": "ROWS"})
            except APIError as exc:
                if not (extra and exc.code == 400):
                    raise
                extra = []   # (a remembered tab deleted by hand: read what was asked alone)
                data = http.values_batch_get(self.location, [quote_tab(t) for t in tabs],
                                             params={"valueRenderOption": "FORMULA", "majorDimension": "ROWS"})
        except APIError as exc:
            if exc.code == 400 and "parse range" in str(exc.error.get("message", "")):
                names = self.tab_names(refresh=True)
                missing = [t for t in tabs if t not in names]
                if missing:
                    raise self._missing(missing[0], names) from None
            raise self.store.http.failure(f"reading {', '.join(tabs)} from {self.label}", exc) from None
        except requests.RequestException as exc:
            raise self.store.http.failure(f"reading {', '.join(tabs)} from {self.label}", exc) from None
        ranges = data.get("valueRanges", [])
        out: dict[str, Rect] = {}
        for tab, vr in zip(tabs, ranges):
            out[tab] = normalise(vr.get("values", []))
        for tab in tabs[len(ranges):]:
            out[tab] = []
        if ride:
            self.store.landed(out, [normalise(vr.get("values", [])) for vr in ranges[len(tabs):]] or [[]])
        self.store._note_read(self.location, out)
        if extra and len(ranges) == len(tabs) + len(extra):
            self.store._note_read(self.location, {t: normalise(vr.get("values", []))
                                                  for t, vr in zip(extra, ranges[len(tabs):])})
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
            self._write_once(tabs, moves=self.store.incremental)
        except APIError as exc:
            if exc.code != 400:
                raise self.store.http.failure(what, exc) from None
            # The cached ids may be stale (a tab deleted or added by hand, or a write that
            # reached Google before the connection dropped): refresh once and retry.
            self.store._load_metadata(self.location, self.label)
            try:
                self._write_once(tabs)
            except (APIError, requests.RequestException) as exc2:
                raise self.store.http.failure(what, exc2) from None
        except requests.RequestException as exc:
            raise self.store.http.failure(what, exc) from None

    def update_cells(self, tab: str, cells: Mapping[tuple[int, int], object]) -> None:
        """One values:batchUpdate, RAW input (text stays literal), only the given cells."""
        if not cells:
            return
        data = [{"range": f"{quote_tab(tab)}!{rowcol_to_a1(r, c)}", "majorDimension": "ROWS",
                 "values": [["" if v is None else v]]} for (r, c), v in sorted(cells.items())]
        self.store._forget_rows(self.location, [tab])
        try:
            self.store.http.values_batch_update(self.location, body={"valueInputOption": "RAW", "data": data})
        except (APIError, requests.RequestException) as exc:
            raise self.store.http.failure(f"updating {tab} in {self.label}", exc) from None

    def remove_tabs(self, tabs: Sequence[str]) -> None:
        known = self.store._sheets(self.location)
        if known is None or any(t not in known for t in tabs):
            self.store._load_metadata(self.location, self.label)
            known = self.store._sheets(self.location) or {}
        ids = [known[t] for t in tabs if t in known]
        if not ids:
            return
        self.store._forget_rows(self.location, tabs)
        try:
            self.store.http.batch_update(self.location, {"requests": [{"deleteSheet": {"sheetId": i}} for i in ids]})
        except (APIError, requests.RequestException) as exc:
            raise self.store.http.failure(f"removing {', '.join(tabs)} from {self.label}", exc) from None
        self.store._load_metadata(self.location, self.label)

    def _write_once(self, tabs: Mapping[str, TabData], moves: bool = False) -> None:
        """One batchUpdate. With ``moves``, a tab whose rows are known is written around the rows it keeps
        (kept.py); moving rows is not idempotent, so that batch is sent once: if it fails on the way
        (it may have landed all the same), the tabs are written whole, as often as need be."""
        body, pending = self.store._write_requests(self.location, tabs, moves=moves)
        if any("insertDimension" in r or "deleteDimension" in r or "moveDimension" in r for r in body):
            try:
                reply = self.store.http.request("post", SPREADSHEET_BATCH_UPDATE_URL % self.location,
                                                json={"requests": body}, retry=False).json()
            except (APIError, requests.RequestException) as exc:
                if isinstance(exc, APIError) and not is_transient(exc):
                    raise
                return self._write_once(tabs)
        else:
            reply = self.store.http.batch_update(self.location, {"requests": body})
        self.store._commit(self.location, pending, reply.get("replies", []))

