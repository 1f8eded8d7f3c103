"""The Control tab: how the Sheetbridge menu in the master spreadsheet talks to `sheetbridge watch`.

The menu (an Apps Script bound to the master, sheetbridge/appscript/Menu.gs) cannot run
Python: it appends a request row to the master's Control tab. `sheetbridge watch DIR`, on the
host's computer, polls that tab, runs the request through the host's commands, and writes the
status, progress and result back into the request's own cells, and a heartbeat the menu reads
to tell the host when nothing is listening.

    row 1   title
    row 2   heartbeat | 2026-11-23T16:05:00Z | watcher id | poll seconds
    row 4   id | action | round | asked by | asked at | status | progress | result | handled by
    row 5+  one request per row, appended by the menu

A request runs exactly once: a watcher claims a queued row (its id in "handled by"), runs it and
answers it while holding the game's lock, reading the row afresh under it (control_writes.py), so
a second watcher finds it answered; and the id of every request that changed the game is stored
in the master's record by the same write that changes it, so a restarted watcher that finds a
claimed row it cannot account for re-runs it only if the record does not hold its id.

>>> rect = [["sheetbridge control"], ["heartbeat", "2026-11-23T16:05:00Z", "w1", "15"], [],
...         HEADER, ["r1", "resolve", "3", "host@x.org", "2026-11-23T16:06:00Z", "queued"]]
>>> [r.id for r in requests(rect)], heartbeat(rect).watcher
(['r1'], 'w1')
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Sequence

from ..sheets.model import CellData, TabData

TAB = "Control"
HEADER = ["id", "action", "round", "asked by", "asked at", "status", "progress", "result", "handled by"]
FIRST_REQUEST_ROW = 5          # 1-based row of the first request
HEARTBEAT_ROW = 2
COL = {name: i for i, name in enumerate(HEADER)}   # 0-based columns
ACTIONS = {
    "status": "Who has submitted",
    "preview": "Preview round",
    "resolve": "Resolve round",
    "undo": "Undo last round",
    "lock": "Lock submissions now",
    "reopen": "Reopen submissions",
    "announce": "Post announcement",
}
CHANGES_GAME = {"resolve", "undo", "lock", "reopen"}   # their ids go into the record
STALE_AFTER = 120.0            # seconds without a heartbeat before the menu says nobody listens


@dataclass(frozen=True)
class Request:
    row: int                   # 1-based row in the Control tab
    id: str
    action: str
    round: str
    asked_by: str
    asked_at: str
    status: str
    handled_by: str


@dataclass(frozen=True)
class Heartbeat:
    at: str
    watcher: str
    interval: str

    def age(self, now: dt.datetime) -> float | None:
        when = parse_time(self.at)
        return None if when is None else (now - when).total_seconds()


def parse_time(text: str) -> dt.datetime | None:
    try:
        when = dt.datetime.fromisoformat(text.strip().replace("Z", "+00:00"))
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=dt.timezone.utc)


def iso(when: dt.datetime) -> str:
    return when.astimezone(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _cell(row: Sequence[str], col: int) -> str:
    return str(row[col]).strip() if col < len(row) and row[col] is not None else ""


def requests(rect: Sequence[Sequence[str]]) -> list[Request]:
    """Every request row under the header, in order (rows without an id are skipped)."""
    out = []
    for i, row in enumerate(rect[FIRST_REQUEST_ROW - 1:], start=FIRST_REQUEST_ROW):
        rid = _cell(row, COL["id"])
        if not rid:
            continue
        out.append(Request(i, rid, _cell(row, COL["action"]).lower(), _cell(row, COL["round"]),
                           _cell(row, COL["asked by"]), _cell(row, COL["asked at"]),
                           _cell(row, COL["status"]).lower(), _cell(row, COL["handled by"])))
    return out


def heartbeat(rect: Sequence[Sequence[str]]) -> Heartbeat:
    row = rect[HEARTBEAT_ROW - 1] if len(rect) >= HEARTBEAT_ROW else []
    return Heartbeat(_cell(row, 1), _cell(row, 2), _cell(row, 3))


def control_tab() -> TabData:
    """A new, empty Control tab (written once by `new` or by the first `watch`)."""
    rows = [[CellData("sheetbridge control: the Sheetbridge menu adds requests here and `sheetbridge watch` "
                      "answers them; do not edit", bold=True)],
            [CellData("heartbeat", bold=True), CellData(""), CellData(""), CellData("")],
            [],
            [CellData(h, bold=True, fill="D9E1F2") for h in HEADER]]
    return TabData(rows=rows, frozen_rows=4, col_widths={0: 38.0, 1: 12.0, 4: 22.0, 5: 10.0, 6: 30.0, 7: 60.0,
                                                          8: 24.0})
