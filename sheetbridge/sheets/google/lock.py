"""The game lock on Google: one command at a time per game, held in a row of the master's hidden
Lock tab (:class:`GameLock`); before the master exists, the game folder's file lock stands in."""
from __future__ import annotations

import contextlib
import os
import secrets
import time
from pathlib import Path
import threading
from typing import Any, Callable, Iterator, Protocol, Sequence

import requests
from gspread.exceptions import APIError

from ...core.errors import GameBusy, SheetbridgeError
from ..model import Rect, normalise
from .http import SheetbridgeHTTPClient
from .urls import quote_tab


class LockingStore(Protocol):
    """What the game lock needs of a store (GoogleStore has it): named here, below the store, so
    that the lock does not import the store that holds it (no import cycle, even for types)."""
    http: SheetbridgeHTTPClient
    master_id: str | None
    game_folder: Path | None
    wall_clock: Callable[[], float]
    lock_owner: str
    lock_pid: int
    lock_host: str
    lock_clock: Callable[[], float]          # the monotonic clock ``http.sleep`` advances (the settle wait)

    @property
    def lock_who(self) -> str | None: ...
    @property
    def lock_ttl(self) -> float: ...
    @property
    def lock_settle(self) -> float: ...

    _master_hint: tuple[list[str], str | None]

    def master_location(self) -> str: ...
    def _sheets(self, sid: str) -> dict[str, int] | None: ...
    def _held(self, lock: "GameLock | None", prefetch: dict[str, Rect] | None = None) -> None: ...
    def _master_extra(self) -> list[str]: ...

# The game lock: a hidden tab in the master (see GameLock).
LOCK_TAB = "Lock"
LOCK_COLUMNS = ("owner", "command", "pid", "host", "since", "expires")
# Which host starts a command (co-hosts share a game): its name goes into the lock's command column.
HOST_NAME_ENV = "SHEETBRIDGE_HOST_NAME"
# 15 minutes: the longest healthy command (creating a 30-player game, about 130 requests
# paced at 55 a minute, plus retries' waits) takes under 5 minutes, so a live run never
# loses its lock; and a run that died (a closed laptop) blocks the game for 15 minutes at
# most; on the same computer a dead holder's lock is taken over at once.
LOCK_TTL = 15 * 60
# Between writing our claim and reading it back: longer than a rival's read-then-write,
# so that of two runs that both saw the lock free, the later writer wins and the earlier
# one sees it (Google has no compare-and-set; see GameLock).
LOCK_SETTLE = 2.0

LOCK_RANGE = f"{quote_tab(LOCK_TAB)}!A2:F2"       # the holder's row
CHANGED = ("the game changed while this command ran (another sheetbridge, or a restored backup); "
           "nothing was written: run the command again")

PROCESS_NONCE = secrets.token_hex(4)                 # tells this process from an earlier one with its pid
_HELD_LOCKS: dict[tuple[str, str], list] = {}         # (master id, owner) -> [depth, GameLock]


def _iso(t: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def _parse_iso(text: str) -> float | None:
    import calendar
    try:
        return float(calendar.timegm(time.strptime(text.strip(), "%Y-%m-%dT%H:%M:%SZ")))
    except (ValueError, AttributeError):
        return None


def holder_of(rows: Sequence[Sequence[Any]]) -> dict | None:
    """The Lock tab's holder row (its A2:F2 as read) as a dict, or None when nobody holds it."""
    row = [str(v) for v in rows[0]] if rows else []
    if not row or not row[0].strip():
        return None
    holder: dict[str, Any] = dict(zip(LOCK_COLUMNS, row + [""] * len(LOCK_COLUMNS)))
    holder["since_t"] = _parse_iso(holder["since"])
    holder["expires_t"] = _parse_iso(holder["expires"])
    return holder


def _hhmm(t: float | None, now: float) -> str:
    if t is None:
        return "?"
    same_day = time.gmtime(t)[:3] == time.gmtime(now)[:3]
    return time.strftime("%H:%M UTC" if same_day else "%Y-%m-%d %H:%M UTC", time.gmtime(t))


def _pid_gone(pid: str) -> bool:
    """Is there no process ``pid`` on this computer? (POSIX only; elsewhere: unknown, False.)"""
    if os.name != "posix":
        return False
    try:
        n = int(pid)
    except (TypeError, ValueError):
        return False
    if n <= 0:
        return False
    try:
        os.kill(n, 0)
    except ProcessLookupError:
        return True
    except OSError:          # EPERM: it exists, as another user
        return False
    return False


class GameLock:
    """One command's hold on a game: a row in the master's hidden Lock tab
    (owner token, command, pid, host, since, expires; times in UTC).

    Google has no compare-and-set, so taking the lock is three steps (tests drive them
    one by one on two stores):

    1. :meth:`peek` reads the row; a live lock held by another run refuses at once
       (:class:`GameBusy` naming it);
    2. :meth:`claim` writes our row over it;
    3. :meth:`confirm`, ``store.lock_settle`` seconds later, reads it back: another run's
       row means it claimed after us and wins; we refuse and leave its row alone.

    A command takes the lock with :meth:`take` (issue 31): the peek's read also fetches the master
    tabs the command loads, and the read-back (``check``) rides on the command's next read of the
    master, at least ``lock_settle`` seconds after the claim, or is a read of its own before the
    first request that is not a read (see :class:`LockRides`): two requests fewer, and the settle
    wait overlaps the command's reading of the players' files. :meth:`acquire` is the three steps
    at once.

    Of two runs that both saw the lock free, the later writer wins and the earlier one
    sees that at confirm. What is left is a rival whose read came before our claim but
    whose write lands after our read-back: the settle wait makes that need a request
    slower than LOCK_SETTLE, and the record's revision check before the master's commit
    write catches even that. A lock past its expiry, or held by a process of this computer
    that is gone, is taken over; a row of our own process (a run whose release failed)
    is ours again.
    """

    def __init__(self, store: LockingStore, command: str) -> None:
        self.store = store
        self.command = command
        self.expires: float | None = None
        self.claimed_at: float | None = None      # lock_clock() at a claim not read back yet (take)
        self.prefetch: dict[str, Rect] | None = None

    # ---- the steps
    def read(self, tabs: Sequence[str] = ()) -> dict | None:
        """The holder's row as a dict, or None (no Lock tab yet, or nobody holds it). With ``tabs``,
        the same values:batchGet also fetches those master tabs, handed to the store (``_held``) for
        the command's first read of the master; a tab missing there costs a read of the row alone."""
        st = self.store
        sid = st.master_location()
        what = f"reading the game's lock in the master spreadsheet ({sid})"
        tabs = list(tabs)
        try:
            data = st.http.values_batch_get(sid, [LOCK_RANGE] + [quote_tab(t) for t in tabs],
                                            params={"valueRenderOption": "FORMULA", "majorDimension": "ROWS"})
        except APIError as exc:
            if exc.code == 400 and "parse range" in str(exc.error.get("message", "")):
                return self.read() if tabs else None   # a tab renamed, or no Lock tab yet: never locked
            raise st.http.failure(what, exc) from None
        except requests.RequestException as exc:
            raise st.http.failure(what, exc) from None
        ranges = data.get("valueRanges") or [{}]
        if tabs:
            got = [normalise(vr.get("values", [])) for vr in ranges[1:]]
            self.prefetch = dict(zip(tabs, got + [[] for _ in tabs[len(got):]]))
        return holder_of(ranges[0].get("values") or [])

    def blocks(self, holder: dict | None) -> bool:
        """Does ``holder`` keep us out? Not if it is us, expired (or unreadable), or a
        process of this computer that is gone."""
        st = self.store
        if holder is None or holder["owner"] == st.lock_owner:
            return False
        if holder["expires_t"] is None or holder["expires_t"] <= st.wall_clock():
            return False
        if holder["host"] == st.lock_host and _pid_gone(holder["pid"]):
            return False
        return True

    def busy(self, holder: dict | None) -> GameBusy:
        now = self.store.wall_clock()
        if holder is None:
            return GameBusy("another sheetbridge started working on this game at the same moment; "
                            "try again when it ends")
        return GameBusy(f"another sheetbridge is working on this game ({holder['command'] or '?'} since "
                        f"{_hhmm(holder['since_t'], now)}, pid {holder['pid'] or '?'} on {holder['host'] or '?'}); "
                        f"try again when it ends (a lock left by a run that died expires at "
                        f"{_hhmm(holder['expires_t'], now)})")

    def peek(self, tabs: Sequence[str] = ()) -> None:
        holder = self.read(tabs)
        if self.blocks(holder):
            raise self.busy(holder)

    def claim(self) -> None:
        st = self.store
        now = st.wall_clock()
        self.expires = now + st.lock_ttl
        command = f"{self.command} by {st.lock_who}" if st.lock_who else self.command   # co-hosts: who started it
        row = [st.lock_owner, command, str(st.lock_pid), st.lock_host, _iso(now), _iso(self.expires)]
        self._write([list(LOCK_COLUMNS), row])

    def confirm(self) -> None:
        self.claimed_at = None
        self.check(self.read())

    def check(self, holder: dict | None) -> None:
        """The read-back: refuse (leaving the winner's row alone) unless the row is ours."""
        if holder is None or holder["owner"] != self.store.lock_owner:
            self.expires = None               # the row is the winner's now: leave it
            raise self.busy(holder)

    def release(self) -> None:
        """Clear our row. Well before our expiry nobody can have taken the lock over, so
        no read is needed; later, only a row that is still ours is cleared."""
        if self.expires is None:
            return
        if self.claimed_at is not None:       # taken, never read back (a command that only read)
            self.settle()
            holder = self.read()
            self.claimed_at = None
            self.store._held(None)            # read back: the clear below needs no other
            if holder is None or holder["owner"] != self.store.lock_owner:
                self.expires = None
                return
        elif self.store.wall_clock() > self.expires - 60:
            holder = self.read()
            if holder is None or holder["owner"] != self.store.lock_owner:
                return
        st = self.store
        sid = st.master_location()
        st._held(None)                        # the command is over: its release is always let through
        try:
            st.http.values_clear(sid, LOCK_RANGE)
        except (APIError, requests.RequestException) as exc:
            raise st.http.failure(f"releasing the game's lock in the master spreadsheet ({sid})", exc) from None
        self.expires = None

    def take(self, tabs: Sequence[str] = ()) -> None:
        """peek (fetching the master's ``tabs`` with the lock's row) and claim; the read-back is
        left to ride on the command's next read of the master, or to come before its first write
        (see :class:`LockRides`), at least ``lock_settle`` seconds after the claim."""
        self.prefetch = None
        known = self.store._sheets(self.store.master_location())
        if known is not None:      # a tab the master lacks (an older game) would fail the whole read
            tabs = [t for t in tabs if t in known]
        self.peek(tabs)
        try:
            self.claim()
        except SheetbridgeError:
            with contextlib.suppress(SheetbridgeError):
                self.release()
            raise
        self.claimed_at = self.store.lock_clock()
        self.store._held(self, self.prefetch)

    def settle(self) -> None:
        """Wait what is left of ``lock_settle`` since the claim (the work done meanwhile counts)."""
        if self.claimed_at is not None:
            left = self.store.lock_settle - (self.store.lock_clock() - self.claimed_at)
            if left > 0:
                self.store.http.sleep(left)

    def acquire(self) -> None:
        """peek, claim, wait ``lock_settle`` seconds, confirm."""
        self.peek()
        try:
            self.claim()
            self.store.http.sleep(self.store.lock_settle)
            self.confirm()
        except GameBusy:
            self.expires = None               # the row is the winner's now: leave it
            raise
        except SheetbridgeError:
            with contextlib.suppress(SheetbridgeError):
                self.release()
            raise

    def _write(self, rows: list[list[str]]) -> None:
        """Values only (no sheet ids needed, so no metadata read); a master made before the
        Lock tab existed gets it first (hidden)."""
        st = self.store
        sid = st.master_location()
        what = f"writing the game's lock in the master spreadsheet ({sid})"
        body: dict[str, Any] = {"range": f"{quote_tab(LOCK_TAB)}!A1:F{len(rows)}", "majorDimension": "ROWS", "values": rows}

        def put() -> None:
            st.http.values_update(sid, body["range"], params={"valueInputOption": "RAW"}, body=body)

        try:
            try:
                put()
            except APIError as exc:
                if not (exc.code == 400 and "parse range" in str(exc.error.get("message", ""))):
                    raise
                try:
                    st.http.batch_update(sid, {"requests": [{"addSheet": {"properties": {
                        "title": LOCK_TAB, "hidden": True, "gridProperties": {"rowCount": 10, "columnCount": 6}}}}]})
                except APIError as exc2:
                    if exc2.code != 400 or "already exists" not in str(exc2.error.get("message", "")):
                        raise
                put()
        except (APIError, requests.RequestException) as exc:
            raise st.http.failure(what, exc) from None



@contextlib.contextmanager
def hold_game_lock(store: LockingStore, command: str) -> Iterator[None]:
    """Hold the game's lock for ``command`` (see :class:`GameLock`): at most one
    sheetbridge works on a game at a time. Re-entrant within one process. Before the
    master exists (``new``), the game folder's file lock stands in for it.

    Costs 1 read (carrying the master tabs ``expect_master_read`` named) and 1 write to take,
    1 write to release; the read-back rides on the command's next read of the master (or is
    one read before its first write, or at the release of a command that only read): see
    docs/google.md."""
    if not store.master_id:
        if store.game_folder is None:
            yield
            return
        from ..xlsx import XlsxStore    # the same OS file lock an xlsx game folder uses
        with XlsxStore(store.game_folder).lock(command):
            yield
        return
    key = (store.master_id, store.lock_owner)
    held = _HELD_LOCKS.get(key)
    if held is not None:                   # re-entrant: demo runs new, then resolve...
        held[0] += 1
        try:
            yield
        finally:
            held[0] -= 1
        return
    game_lock = GameLock(store, command)
    game_lock.take(list(dict.fromkeys(store._master_hint[0] + store._master_extra())))
    _HELD_LOCKS[key] = [1, game_lock]
    try:
        yield
    finally:
        _HELD_LOCKS.pop(key, None)
        try:
            game_lock.release()
        except SheetbridgeError:
            pass   # no network: the lock expires by itself, and a run on this computer takes it over
        finally:
            store._held(None)


class LockRides:
    """The store's side of a lock taken with :meth:`GameLock.take` (mixed into the store): the peek's
    read fetched the master tabs the command reads first (``expect_master_read``), served once
    by :meth:`prefetched`; the read-back rides on the next read of the master (:meth:`ride`,
    :meth:`landed`), or is one read of its own before the first request that is not a read
    (:meth:`before_write`, the HTTP client's hook), so nothing is written before it.

    Tabs served from the peek were read before our claim: if the record among them changed by
    the read-back (a rival that held the game in between), the command stops with GameBusy
    (nothing written), as the revision check before the commit would."""
    http: Any
    master_id: str | None
    _ride_lock: threading.RLock
    _pending: GameLock | None
    _prefetch: dict[str, Rect] | None
    _record_seen: Rect | None
    _refused: GameBusy | None
    _master_hint: tuple[list[str], str | None]

    def expect_master_read(self, tabs: Sequence[str], record: str | None = None) -> None:
        """The master tabs the next commands read first (``record``: the one only a commit changes)."""
        self._master_hint = (list(tabs), record)

    def _held(self, lock: GameLock | None, prefetch: dict[str, Rect] | None = None) -> None:
        with self._ride_lock:
            self._pending, self._prefetch, self._record_seen, self._refused = lock, prefetch, None, None
        if prefetch and self.master_id:
            self._note_read(self.master_id, prefetch)

    def _note_read(self, sid: str, rects: dict[str, Rect]) -> None:
        """Tabs as read (the store checks the rows it remembers against them: kept.py)."""

    def _master_extra(self) -> list[str]:
        """More master tabs the lock's first read fetches (those whose rows the store remembers)."""
        return []

    def prefetched(self, location: str, tabs: Sequence[str]) -> dict[str, Rect] | None:
        """``tabs`` as the peek read them (once), or None: read them."""
        with self._ride_lock:
            got = self._prefetch
            if got is None or location != self.master_id or any(t not in got for t in tabs):
                return None
            self._prefetch = None
            record = self._master_hint[1]
            if self._pending is not None and record in got:
                self._record_seen = got[record]
            return {t: [list(r) for r in got[t]] for t in tabs}

    def ride(self, location: str, tabs: Sequence[str]) -> list[str]:
        """The ranges to add to this read of ``location``: the lock's row (and the record, to check
        what was served from the peek) while the lock is not read back; its settle wait is waited."""
        with self._ride_lock:
            self._prefetch = None if location == self.master_id else self._prefetch
            lock = self._pending
            if lock is None or location != self.master_id:
                return []
        lock.settle()
        record = self._master_hint[1]
        extra = [LOCK_RANGE]
        if self._record_seen is not None and record is not None and record not in tabs:
            extra.append(quote_tab(record))
        return extra

    def landed(self, got: dict[str, Rect], extra: Sequence[Rect]) -> None:
        """The read-back that rode on a read of the master (``got``: the tabs read; ``extra``: what
        ``ride`` added): ours, and the record as served, or GameBusy."""
        with self._ride_lock:
            lock, self._pending = self._pending, None
            if lock is None or not extra:
                return
            lock.claimed_at = None
            record = self._master_hint[1]
            now = got.get(record) if record in got else (extra[1] if len(extra) > 1 else None)
            try:
                lock.check(holder_of(extra[0]))
                if self._record_seen is not None and now is not None and now != self._record_seen:
                    raise GameBusy(CHANGED)    # (the lock is ours: released on the way out)
            except GameBusy as busy:
                self._refused = busy
                raise

    def before_write(self) -> None:
        """Before any request that is not a read: the lock read back (one read), or GameBusy."""
        with self._ride_lock:
            if self._refused is not None:
                raise self._refused
            self._prefetch = None
            if self._pending is None or self.master_id is None:
                return
            sid = self.master_id
            extra = self.ride(sid, [])
            try:
                data = self.http.values_batch_get(sid, extra, params={"valueRenderOption": "FORMULA",
                                                                      "majorDimension": "ROWS"})
            except (APIError, requests.RequestException) as exc:
                raise self.http.failure(f"reading the game's lock in the master spreadsheet ({sid})", exc) from None
            ranges = data.get("valueRanges") or []
            self.landed({}, [normalise(vr.get("values", [])) for vr in ranges] or [[]])
