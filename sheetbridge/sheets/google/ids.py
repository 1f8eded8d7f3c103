"""The sheet and protected-range ids a write names, remembered so that no metadata read happens
once a game is set up: kept in memory, in the game folder (CACHE_FILE) and in the master's record
(``export_cache``/``import_cache``), the master's own included (``prepare_write``)."""
from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Iterable, Mapping, Sequence

import requests
from gspread.exceptions import APIError

from ...core.errors import WorkbookError
from ..model import TabData
from ..store import MASTER
from .cells import (add_sheet_request, content_requests, grid_properties, protection_requests,
                    protection_signature, replace_sheet_requests, shift_requests, shuffle_requests, shuffled_cells)
from .http import SheetbridgeHTTPClient
from .kept import (Shuffle, cell_prints, crosses, fingerprinted, has_inputs, kept_block, row_prints, shuffle,
                   shufflable, values_print)
from .lock import LOCK_TAB, LockRides

CACHE_FILE = ".sheetbridge-google-cache.json"   # beside sheetbridge.json in a game folder
ROWS_DIR = ".sheetbridge-google-rows"            # beside it: each book's rows as last written (kept.py)


def _cache_entry(data: Mapping) -> dict:
    """One book's ids as the cache keeps them, from their JSON (a protection whose id Google
    has not told us yet, known from a record drawn before the write, has the id None)."""
    return {"sheets": {str(k): int(v) for k, v in dict(data.get("sheets", {})).items()},
            "protected": {str(k): [None if v[0] is None else int(v[0]), v[1]]
                          for k, v in dict(data.get("protected", {})).items()}}


class SheetIds(LockRides):
    """The id cache of a :class:`~sheetbridge.sheets.google.store.GoogleStore` (a base class: the
    store's ``__init__`` sets ``_cache``, ``_lock``, ``_planned_master``, ``cache_file``, ``http``...)."""

    _cache: dict[str, dict]
    _lock: threading.RLock
    _prints: dict[str, dict[str, dict]]     # spreadsheet id -> tab -> its rows as last written (kept.py)
    _seen: dict[str, dict[str, str]]        # spreadsheet id -> tab -> the values this process read or wrote
    incremental: bool = True                # write only the rows that changed (False: whole tabs, as before)
    _planned_master: dict | None
    cache_file: Path | None
    host_email: str | None
    master_id: str | None
    http: SheetbridgeHTTPClient

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
                shown = entry["after"] if planned and entry.get("after") else entry
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
                                        "protected": {t: [None, protection_signature(tab)] for t, tab in tabs.items()
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
                        protected[title] = [old[0] if old else None, protection_signature(tab)]
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
            if old is not None and old[0] is None and (not tab.protected or old[1] != protection_signature(tab)):
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
            raise self.http.failure(f"opening {label}", exc) from None
        except requests.RequestException as exc:
            raise self.http.failure(f"opening {label}", exc) from None
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

    # ---- the rows a tab holds (kept.py)
    def _note_read(self, sid: str, rects: Mapping[str, list]) -> None:
        """Tabs as this process read them: what a fingerprint is checked against before it is trusted."""
        if self.incremental:
            with self._lock:
                seen = self._seen.setdefault(sid, {})
                for title, rect in rects.items():
                    seen[title] = values_print(rect)

    def _master_extra(self) -> list[str]:
        """The master's tabs with a fingerprint: read with the lock's row, to check them."""
        if not self.incremental or not self.master_id:
            return []
        with self._lock:
            return list(self._book_prints(self.master_id))

    def _read_extra(self, sid: str, tabs: Sequence[str]) -> list[str]:
        """A book's other tabs with a fingerprint, read along with ``tabs`` to check them (not the
        master's: the lock's first read fetches those, :meth:`_master_extra`)."""
        if not self.incremental or sid == self.master_id:
            return []
        with self._lock:
            known = self._cache.get(sid, {}).get("sheets") or {}
            return [t for t in self._book_prints(sid) if t not in tabs and t in known]

    def _book_prints(self, sid: str) -> dict[str, dict]:
        """(Under ``_lock``.) The fingerprints of a book's tabs, from the game folder the first time."""
        got = self._prints.get(sid)
        if got is None:
            got = {}
            path = self._prints_file(sid)
            if path is not None and path.is_file():
                try:
                    data = json.loads(path.read_text(encoding="utf-8"))
                    if data.get("version") == 1:
                        got = {str(t): dict(fp) for t, fp in dict(data["tabs"]).items()}
                except (OSError, ValueError, KeyError, TypeError):
                    got = {}   # only a cache: the tabs are written whole
            self._prints[sid] = got
        return got

    def _prints_file(self, sid: str) -> Path | None:
        if self.cache_file is None or not sid or "/" in sid or sid.startswith("."):
            return None
        return self.cache_file.parent / ROWS_DIR / f"{sid}.json"

    def _save_prints(self, sid: str) -> None:
        """(Under ``_lock``.) A book's fingerprints to the game folder (a lost file costs whole writes)."""
        path = self._prints_file(sid)
        if path is None:
            return
        try:
            tabs = self._prints.get(sid) or {}
            if not tabs:
                path.unlink(missing_ok=True)
                return
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_name(path.name + ".tmp")
            tmp.write_text(json.dumps({"version": 1, "tabs": tabs}, separators=(",", ":")), encoding="utf-8")
            os.replace(tmp, path)
        except OSError:
            pass

    def _forget_rows(self, sid: str, titles: Iterable[str]) -> None:
        """Tabs about to change: their fingerprints are not trusted again until a write is known to have landed."""
        with self._lock:
            prints = self._book_prints(sid)
            seen = self._seen.get(sid, {})
            gone = [t for t in titles if t in prints]
            for t in titles:
                prints.pop(t, None)
                seen.pop(t, None)
            if gone:
                self._save_prints(sid)

    def _kept(self, sid: str, title: str, tab: TabData, rows: list[str]) -> tuple[int, int, int, int] | None:
        """The rows of ``tab`` that tab ``title`` of ``sid`` holds already, if its fingerprint is trusted:
        (first row held, its row in ``tab``, how many, the grid's rows now)."""
        with self._lock:
            old = self._book_prints(sid).get(title)
            seen = self._seen.get(sid, {}).get(title)
        if old is None or seen is None or seen != old.get("values") or old.get("inputs") or has_inputs(tab):
            return None
        held = old.get("rows") or []
        block = kept_block(held, rows)
        if block is None or crosses(tab, block[1], block[1] + block[2]) or not isinstance(old.get("grid"), int) \
                or old["grid"] < len(held):
            return None
        return (*block, old["grid"])

    def _shuffled(self, sid: str, title: str, tab: TabData, cells: list[list[str]]) -> Shuffle | None:
        """How tab ``title`` of ``sid`` is written around the cells it holds (kept.shuffle), if its
        fingerprint is trusted and has its cells; not with dropdowns or input cells (they are ranges
        that a row's move would not carry as a whole write leaves them: kept.shufflable)."""
        with self._lock:
            old = self._book_prints(sid).get(title)
            seen = self._seen.get(sid, {}).get(title)
        if old is None or seen is None or seen != old.get("values") or old.get("inputs"):
            return None
        held = old.get("cells")
        if not isinstance(held, list) or len(held) != len(old.get("rows") or []) or not isinstance(old.get("grid"), int) \
                or old["grid"] < len(held):
            return None
        return shuffle(held, cells)

    # ---- building a write
    def _write_requests(self, sid: str, tabs: Mapping[str, TabData], reserved: Iterable[int] = (),
                        moves: bool = False) -> tuple[list[dict], list]:
        """The batchUpdate body that replaces ``tabs`` in spreadsheet ``sid`` (requests built by
        cells.py), and what to record in the cache once it succeeded (:meth:`_commit`). With ``moves``,
        a tab whose rows are known (kept.py) is written around the rows it keeps (the caller sends
        such a batch once: moving rows is not idempotent; see book.py)."""
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
            grid = grid_properties(tab)
            exists = title in sheets
            rows = row_prints(tab) if self.incremental and fingerprinted(tab) else None
            block = self._kept(sid, title, tab, rows) if moves and exists and rows is not None else None
            # A tab not written around a block of rows is fingerprinted by cell too (the Standings tab)
            cells = cell_prints(tab) if rows is not None and block is None and shufflable(tab) else None
            shuffled = self._shuffled(sid, title, tab, cells) if moves and exists and cells is not None else None
            if rows is not None:
                pending.append(("rows", title, {"values": values_print(tab.values()), "rows": rows,
                                                "inputs": has_inputs(tab), "grid": grid["rowCount"],
                                                **({"cells": cells} if cells is not None else {})}))
            kept, parts = None, None
            if block is not None:
                sheet_id = sheets[title]
                reqs += shift_requests(sheet_id, title, tab, grid, *block[:3], block[3])
                kept = (block[1], block[1] + block[2])
            elif shuffled is not None:
                sheet_id = sheets[title]
                reqs += shuffle_requests(sheet_id, title, tab, grid, shuffled)
                parts = shuffled_cells(sheet_id, tab, grid, shuffled)
            elif exists:
                sheet_id = sheets[title]
                reqs += replace_sheet_requests(sheet_id, title, tab, grid)
            else:
                sheet_id = planned.get(title, -1)
                if sheet_id < 0 or sheet_id in taken:
                    sheet_id = next_id
                    next_id += 1
                taken.add(sheet_id)
                sheets[title] = sheet_id
                pending.append(("sheet", title, sheet_id))
                reqs.append(add_sheet_request(sheet_id, title, tab, grid))
            reqs += content_requests(sheet_id, tab, grid, exists, kept, parts)
            more, todo = protection_requests(sheet_id, title, tab, entry["protected"].get(title),
                                             self.host_email, at=len(reqs))
            reqs += more
            pending += todo
        self._forget_rows(sid, tabs)
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
                elif item[0] == "rows":   # the tab holds these rows now (and this process knows its values)
                    _, title, fp = item
                    self._book_prints(sid)[title] = fp
                    self._seen.setdefault(sid, {})[title] = fp["values"]
            if any(item[0] == "rows" for item in pending):
                self._save_prints(sid)
            prepared = entry.pop("planned", None), entry.pop("after", None)
        if any(item[0] != "rows" for item in pending) or any(prepared):
            self._save_cache()

