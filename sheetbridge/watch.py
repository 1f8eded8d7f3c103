"""`sheetbridge watch DIR`: answer the master's Sheetbridge menu and lock submissions at the deadline.

One poll is one read of the master (the Control tab rides along with the game's tabs) and one
small write (the heartbeat). A request is claimed by writing this watcher's id into its row and
reading it back; the one whose id is there runs it. Requests that change the game (resolve,
undo, lock, reopen) carry their id into the master's record in the same write that changes the
game, so a request runs exactly once even if `watch` is restarted mid-way or two are started by
mistake (the second finds the first's id in the row, or the game lock held, or the id recorded).
"""
from __future__ import annotations

import os
import socket
import time
from dataclasses import dataclass, field
from typing import Callable

from . import control as C
from . import orchestrator as O
from .core.errors import GameBusy, SheetbridgeError, UsageError
from .sheets.store import Store


TAKE_OVER_AFTER = 15 * 60.0   # seconds: a claimed request not done by then is taken over


def _round(req: C.Request) -> int | None:
    """The round a request names (the round an undo undoes); None when blank (an older menu)."""
    if not req.round:
        return None
    try:
        return int(float(req.round))   # Sheets may hand a number back as "3.0"
    except (ValueError, OverflowError):
        raise UsageError(f"request {req.id}: round {req.round[:20]!r} is not a round number") from None


@dataclass
class Watcher:
    store: Store
    interval: float = 15.0
    watcher_id: str = field(default_factory=lambda: f"{socket.gethostname()}/{os.getpid()}")
    now: Callable[[], str] = O.utc_now
    sleep: Callable[[float], None] = time.sleep
    log: Callable[[str], None] = lambda line: None
    webhook: str | None = None
    _last_beat: float = 0.0

    # ---- one poll
    def poll(self) -> list[str]:
        """Read the master once, beat, lock at the deadline, answer queued requests. Returns what it did."""
        done: list[str] = []
        ld = O.load(self.store, extra_tabs=[C.TAB])
        master = ld.master
        if C.TAB not in ld.extra:
            master.write({C.TAB: C.control_tab()})
            rect: list = []
        else:
            rect = ld.extra[C.TAB]
        self.beat(master)
        if O.deadline_due(ld, self.now()):
            res = self._guarded(lambda: O.lock_submissions(self.store, why=f"deadline {ld.deadline} UTC"))
            done.append(f"deadline: {res}")
        for req in C.requests(rect):
            if req.status == "queued" or (req.status in ("claimed", "running")
                                          and (req.handled_by == self.watcher_id or self._abandoned(req))):
                done.append(self.answer(master, req))
        return done

    def _abandoned(self, req: C.Request) -> bool:
        """A row another watcher claimed long ago and never finished (it was stopped): take it over.
        Requests that change the game are safe to take over: their id in the record stops a second run."""
        asked = C.parse_time(req.asked_at)
        now = C.parse_time(self.now())
        return asked is not None and now is not None and (now - asked).total_seconds() > TAKE_OVER_AFTER

    def beat(self, master, progress: str | None = None) -> None:
        master.update_cells(C.TAB, {(C.HEARTBEAT_ROW, 2): self.now(), (C.HEARTBEAT_ROW, 3): self.watcher_id,
                                    (C.HEARTBEAT_ROW, 4): str(int(self.interval))})

    # ---- one request
    def answer(self, master, req: C.Request) -> str:
        col = {k: v + 1 for k, v in C.COL.items()}
        if req.action not in C.ACTIONS:
            master.update_cells(C.TAB, {(req.row, col["status"]): "refused",
                                        (req.row, col["result"]): f"unknown action {req.action!r}"})
            return f"{req.id}: refused"
        if req.handled_by != self.watcher_id or req.status == "queued":
            master.update_cells(C.TAB, {(req.row, col["status"]): "claimed", (req.row, col["handled by"]): self.watcher_id})
            mine = next((r for r in C.requests(master.read([C.TAB])[C.TAB]) if r.id == req.id), None)
            if mine is None or mine.handled_by != self.watcher_id:
                return f"{req.id}: claimed by another watcher"
        master.update_cells(C.TAB, {(req.row, col["status"]): "running", (req.row, col["progress"]): "started"})
        last = [0.0]

        def progress(line: str) -> None:   # at most one progress write every 5 seconds (quota)
            t = time.monotonic()
            if t - last[0] >= 5.0:
                last[0] = t
                master.update_cells(C.TAB, {(req.row, col["progress"]): line[:200],
                                            (C.HEARTBEAT_ROW, 2): self.now()})

        status, result = "done", ""
        try:
            result = self.run(req, progress)
        except GameBusy as e:
            status, result = "failed", str(e)
        except SheetbridgeError as e:
            status, result = "failed", str(e)
        except Exception as e:   # a bug: said in one line, the watcher keeps listening
            status, result = "failed", f"internal error: {type(e).__name__}: {e}"
        master.update_cells(C.TAB, {(req.row, col["status"]): status, (req.row, col["result"]): result[:1000],
                                    (req.row, col["progress"]): ""})
        self.log(f"{req.action} ({req.id}): {status}: {result}")
        return f"{req.id}: {status}"

    def run(self, req: C.Request, progress: Callable[[str], None]) -> str:
        s, a = self.store, req.action
        if hasattr(s, "lock_who"):   # the lock names the (co-)host who asked in the menu, else this computer's
            own = self.__dict__.setdefault("own_lock_name", s.lock_who)
            s.lock_who = req.asked_by or own
        if a == "status":
            ld, lines = O.status(s)
            if ld.match.finished:
                return f"{ld.match.game.spec.name} is over"
            groups: dict[str, list[str]] = {}
            for line in lines:
                key = ("submitted" if line.state == "submitted" and line.valid else
                       "submitted with problems" if line.state == "submitted" else line.state)
                groups.setdefault(key, []).append(line.player)
            return (f"round {ld.match.round}: " + "; ".join(f"{k}: {', '.join(v)}" for k, v in groups.items())
                    + "".join(f"; warning: {w}" for w in ld.warnings))
        if a == "preview":
            res = O.resolve(s, dry_run=True, allow_empty=True)
            O.write_preview(s, res)
            return res.message + "; the whole preview is in the master's Preview tab"
        if a == "resolve":
            res = O.resolve(s, allow_empty=True, progress=progress, request_id=req.id)
        elif a == "undo":
            res = O.undo(s, progress=progress, request_id=req.id, round_no=_round(req), from_menu=True)
        elif a == "lock":
            res = O.lock_submissions(s, request_id=req.id, progress=progress, why=f"locked by {req.asked_by or 'the host'}")
        elif a == "reopen":
            res = O.reopen_submissions(s, request_id=req.id, progress=progress)
        else:   # announce
            return O.post_announcement(s, self.webhook, request_id=req.id)
        return res.message

    def _guarded(self, fn: Callable[[], O.ResolveResult]) -> str:
        try:
            return fn().message
        except SheetbridgeError as e:
            return f"not done: {e}"

    # ---- the loop
    def run_forever(self, polls: int | None = None) -> None:
        n = 0
        while polls is None or n < polls:
            try:
                for line in self.poll():
                    self.log(line)
            except SheetbridgeError as e:   # say it and keep listening: a restored backup, a busy game...
                self.log(f"error: {e}")
            n += 1
            if polls is None or n < polls:
                self.sleep(self.interval)
