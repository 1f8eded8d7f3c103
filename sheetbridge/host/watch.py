"""`sheetbridge watch DIR`: answer the master's Sheetbridge menu and lock submissions at the deadline.

One poll is one read of the master (the Control tab rides along with the game's tabs) and one
small write (the heartbeat: on Google three cells of the Control tab, on xlsx a file of its own,
so that a poll never saves the master). A request is claimed, run and answered while this
watcher holds the game's lock, its row read afresh under it: a second watcher, or a CLI command,
is refused the lock meanwhile and then finds the row answered, so a request runs exactly once,
and no write of watch's can put back a master older than a round committed in between (see
control_writes.py). A request that finds the game busy stays queued for the next poll. Requests
that change the game (resolve, undo, lock, reopen) also carry their id into the master's record
in the same write that changes the game, so a watcher restarted mid-way never runs one twice.
"""
from __future__ import annotations

import os
import socket
import time
from dataclasses import dataclass, field
from typing import Callable

from . import control as C
from . import control_writes as W
from ..core.errors import GameBusy, SheetbridgeError, UsageError
from ..sheets.store import Book, Store
from . import clock, media
from .lock import deadline_due, deadline_state, deadline_warning, lock_submissions, reopen_submissions
from .resolve import resolve
from .session import Loaded, ResolveResult, load
from .status import status
from .undo import undo


TAKE_OVER_AFTER = W.TAKE_OVER_AFTER   # seconds: a claimed request not done by then is taken over


def _round(req: C.Request) -> int | None:
    """The round a request names (the round to resolve, or the one an undo undoes); None when blank (an older menu)."""
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
    now: Callable[[], str] = clock.utc_now
    sleep: Callable[[float], None] = time.sleep
    log: Callable[[str], None] = lambda line: None
    webhook: str | None = None
    _last_beat: float = 0.0
    _told: set[str] = field(default_factory=set)   # deadline warnings already logged (once each, not every poll)

    # ---- one poll
    def poll(self) -> list[str]:
        """Read the master once, beat, lock at the deadline, answer queued requests. Returns what it did."""
        done: list[str] = []
        ld = load(self.store, extra_tabs=[C.TAB])
        if C.TAB not in ld.extra:
            busy = W.ensure_control_tab(self.store)
            if busy is not None:
                return [f"waiting to create the Control tab: {busy}"]
        self.beat()
        now = self.now()
        warning = deadline_warning(ld, now)
        if warning and warning not in self._told:
            self._told.add(warning)
            done.append(f"deadline: {warning}")
        if deadline_due(ld, now):
            from .deadlines import shown
            when = shown(deadline_state(ld, now).at)
            res = self._guarded(lambda: lock_submissions(self.store, why=f"deadline {when}", due_at=now))
            done.append(f"deadline: {res}")
        reminded = self._remind(ld, now)
        if reminded:
            done.append(reminded)
        for req in C.requests(ld.extra.get(C.TAB, [])):
            if W.claimable(req, self.watcher_id, now):
                done.append(self.answer(ld.master, req))
        return done

    def _remind(self, ld: Loaded, now: str) -> str | None:
        """The Config tab's reminders before the deadline, each posted once (round_posts.py)."""
        from . import round_posts
        try:
            if not round_posts.due_reminders(ld, now):   # checked on this poll's read; again under the lock
                return None
            return round_posts.post_due_reminder(self.store, now, self.webhook)
        except GameBusy as e:
            return f"reminder waiting ({e})"
        except SheetbridgeError as e:
            return f"reminder not posted: {e}"

    def beat(self) -> None:
        W.write_heartbeat(self.store, self._heartbeat())

    def _heartbeat(self) -> C.Heartbeat:
        return C.Heartbeat(self.now(), self.watcher_id, str(int(self.interval)))

    # ---- one request
    def answer(self, master: Book, req: C.Request) -> str:
        """Claim, run and answer `req` in one hold of the game's lock; if the game is busy, leave it queued."""
        try:
            with self.store.lock(f"watch: {req.action}"):
                return self._answer_held(master, req)
        except GameBusy as e:
            return f"{req.id}: waiting ({e})"

    def _answer_held(self, master: Book, req: C.Request) -> str:
        col = {k: v + 1 for k, v in C.COL.items()}
        mine = W.current(master, req.id)       # afresh, under the lock: another watcher may have answered it
        if mine is None or not W.claimable(mine, self.watcher_id, self.now()):
            return f"{req.id}: taken by another watcher"
        if mine.action not in C.ACTIONS:
            master.update_cells(C.TAB, {(mine.row, col["status"]): "refused",
                                        (mine.row, col["handled by"]): self.watcher_id,
                                        (mine.row, col["result"]): f"unknown action {mine.action!r}"})
            return f"{req.id}: refused"
        master.update_cells(C.TAB, {(mine.row, col["status"]): "running",
                                    (mine.row, col["handled by"]): self.watcher_id,
                                    (mine.row, col["progress"]): "started"})
        status, result = self._run_reporting(master, mine)
        master.update_cells(C.TAB, {(mine.row, col["status"]): status, (mine.row, col["result"]): result[:1000],
                                    (mine.row, col["progress"]): ""})
        self.log(f"{mine.action} ({mine.id}): {status}: {result}")
        return f"{req.id}: {status}"

    def _run_reporting(self, master: Book, req: C.Request) -> tuple[str, str]:
        """Run the request, its progress in its row; ("done" | "failed", the result in one line)."""
        last = [0.0]

        def progress(line: str) -> None:   # at most one progress write every 5 seconds (quota)
            t = time.monotonic()
            if t - last[0] >= 5.0:
                last[0] = t
                master.update_cells(C.TAB, {(req.row, C.COL["progress"] + 1): line[:200],
                                            **W.heartbeat_cells(self.store, self._heartbeat())})

        try:
            return "done", self.run(req, progress)
        except SheetbridgeError as e:
            return "failed", str(e)
        except Exception as e:   # a bug: said in one line, the watcher keeps listening
            return "failed", f"internal error: {type(e).__name__}: {e}"

    def run(self, req: C.Request, progress: Callable[[str], None]) -> str:
        s, a = self.store, req.action
        if s.lock_who is not None:   # the lock names the (co-)host who asked in the menu, else this computer's
            own = self.__dict__.setdefault("own_lock_name", s.lock_who)
            s.lock_who = req.asked_by or own
        if a == "status":
            ld, lines = status(s)
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
            res = resolve(s, dry_run=True, allow_empty=True)
            media.write_preview(s, res)
            return res.message + "; the whole preview is in the master's Preview tab"
        if a == "resolve":   # the round it was asked for: a request that waited never resolves the next one
            res = resolve(s, allow_empty=True, progress=progress, request_id=req.id, round_no=_round(req))
        elif a == "undo":
            res = undo(s, progress=progress, request_id=req.id, round_no=_round(req), from_menu=True)
        elif a == "lock":
            res = lock_submissions(s, request_id=req.id, progress=progress, why=f"locked by {req.asked_by or 'the host'}")
        elif a == "reopen":
            res = reopen_submissions(s, request_id=req.id, progress=progress)
        else:   # announce
            return media.post_announcement(s, self.webhook, request_id=req.id)
        return res.message

    def _guarded(self, fn: Callable[[], ResolveResult]) -> str:
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
