"""Quota pacing: Sheets allows 60 reads and 60 writes a minute per user; sheetbridge sends at
most 55 of each (see :class:`Pacer`), shared by its threads and, through a small file in the
game folder, by the commands of one computer."""
from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from pathlib import Path
from typing import Callable, Mapping

QUOTA_PER_MINUTE = 60          # Google's default per user, per minute, reads and writes each
PACE_PER_MINUTE = 55           # what we allow ourselves, leaving room for the host's browser
# A 429 (the per-minute quota is spent, by us, the host's browser or another computer) is
# waited out rather than counted as a failure: waits double from 1 s up to QUOTA_STEP and
# stop after QUOTA_WAIT_LIMIT seconds in all, two whole quota windows.
QUOTA_STEP = 30.0
QUOTA_WAIT_LIMIT = 120.0
NOTICE_AFTER = 2.0             # shorter waits are not worth a line to the host
PACE_FILE = ".sheetbridge-google-pace.json"   # the last minute's requests, shared by this computer's commands
PACE_LOCK_WAIT = 10.0          # seconds to wait for the pace file's lock before pacing alone
DRAIN_WAIT = 75.0              # longest wait for the requests in flight before a pacing wait (> a request's timeout)


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
        path = self.path
        if path is not None:
            import filelock
            try:
                with filelock.FileLock(str(path) + ".lock", timeout=PACE_LOCK_WAIT):
                    sent, holds = self._read(path, now)
                    out = change(sent, holds, now)
                    self._sent, self._holds = sent, holds
                    with contextlib.suppress(OSError):   # not written: the others just do not know
                        self._write(path, sent, holds)
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

    def _read(self, path: Path, now: float) -> tuple[dict, dict]:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            sent = {str(k): sorted(float(t) for t in v) for k, v in dict(data.get("sent", {})).items()}
            holds = {str(k): float(v) for k, v in dict(data.get("hold", {})).items()}
        except (OSError, ValueError, TypeError, AttributeError):
            sent, holds = ({k: list(v) for k, v in self._sent.items()}, dict(self._holds))
        self._prune(sent, holds, now)
        return sent, holds

    def _write(self, path: Path, sent: dict, holds: dict) -> None:
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps({"version": 1, "sent": {k: [round(t, 3) for t in v] for k, v in sent.items() if v},
                                   "hold": {k: round(v, 3) for k, v in holds.items()}}, sort_keys=True),
                       encoding="utf-8")
        os.replace(tmp, path)

