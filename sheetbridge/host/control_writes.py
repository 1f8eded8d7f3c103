"""What `sheetbridge watch` writes, written so that no watcher ever rewrites a round (issue 25, point 4).

A command commits a round by writing the master under the game's lock, after checking the
record's revision (compare-and-set). On xlsx every other write to the master saves the whole
file as well: a watcher that loaded the master, changed one cell and saved it would put back
the round before a `resolve` committed in between. So what watch writes goes either under the
game's lock or into a file of its own:

- the heartbeat, every poll: on xlsx into ``.sheetbridge-watch.json`` beside the master (no
  lock needed, nothing else writes it); on Google into three cells of the Control tab, which no
  command writes (a Google write changes only the cells it names, never the record);
- the Control tab is created, and a request is claimed, run and answered, all while holding the
  game's lock, checked afresh there: a second watcher, or a CLI command, is refused the lock and
  finds the row answered once it gets it; a request runs exactly once;
- the Preview tab and the deadline lock take the game's lock themselves (host/media.py, host/lock.py), and the
  deadline is judged again under it.
"""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from . import control as C
from ..core.errors import GameBusy
from ..sheets.store import MASTER, Book, Store
from ..sheets.xlsx import HEARTBEAT_FILE

TAKE_OVER_AFTER = 15 * 60.0   # seconds: a request another watcher took and never answered is taken over
CLAIMABLE = ("claimed", "running")   # "claimed": written by watchers before the claim went under the lock


def write_heartbeat(store: Store, beat: C.Heartbeat) -> None:
    """This watcher is alive: on xlsx in a file of its own, on Google in the Control tab's row 2."""
    cells = heartbeat_cells(store, beat)
    if cells:
        store.open(MASTER, store.master_location()).update_cells(C.TAB, cells)


def heartbeat_cells(store: Store, beat: C.Heartbeat) -> dict[tuple[int, int], str]:
    """The Control tab's cells that carry `beat`, to write with other cells of it in one request (Google);
    on xlsx the beat goes to its own file at once, and no cell of the master."""
    if store.rewrites_whole_book:
        folder = store.host_folder()
        if folder is not None:
            _write_json_atomic(folder / HEARTBEAT_FILE, {"at": beat.at, "watcher": beat.watcher,
                                                         "interval": beat.interval})
        return {}
    return {(C.HEARTBEAT_ROW, 2): beat.at, (C.HEARTBEAT_ROW, 3): beat.watcher, (C.HEARTBEAT_ROW, 4): beat.interval}


def read_heartbeat(store: Store) -> C.Heartbeat:
    """The last heartbeat, wherever this backend keeps it (empty if no watcher ever beat)."""
    if store.rewrites_whole_book:
        folder = store.host_folder()
        try:
            data = json.loads((folder / HEARTBEAT_FILE).read_text(encoding="utf-8")) if folder else {}
        except (OSError, ValueError):
            data = {}
        return C.Heartbeat(str(data.get("at", "")), str(data.get("watcher", "")), str(data.get("interval", "")))
    master = store.open(MASTER, store.master_location())
    return C.heartbeat(master.read([C.TAB])[C.TAB])


def _write_json_atomic(path: Path, data: dict) -> None:
    """A temporary file of our own name, then renamed: never in the folder a command's cleanup empties."""
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def ensure_control_tab(store: Store) -> str | None:
    """Give the master its Control tab if it has none, under the game's lock and checked again there
    (two watchers starting at once create it once, never over requests already in it). Returns None,
    or why not now (the game is busy: the next poll tries again)."""
    try:
        with store.lock("watch: Control tab"):
            master = store.open(MASTER, store.master_location())
            if C.TAB not in master.tab_names():
                master.write({C.TAB: C.control_tab()})
    except GameBusy as e:
        return str(e)
    return None


def claimable(req: C.Request, watcher_id: str, now: str) -> bool:
    """Whether this watcher may run `req`: queued, or taken by this watcher (it was restarted), or taken
    by another long ago and never answered (it was stopped)."""
    if req.status == "queued":
        return True
    if req.status not in CLAIMABLE:
        return False
    return req.handled_by == watcher_id or _abandoned(req, now)


def _abandoned(req: C.Request, now: str) -> bool:
    asked, at = C.parse_time(req.asked_at), C.parse_time(now)
    return asked is not None and at is not None and (at - asked).total_seconds() > TAKE_OVER_AFTER


def current(master: Book, request_id: str) -> C.Request | None:
    """The request's row as it stands now (read while holding the game's lock)."""
    return next((r for r in C.requests(master.read([C.TAB])[C.TAB]) if r.id == request_id), None)
