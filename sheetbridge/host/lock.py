"""The round's deadline: judged for the open round, the submissions locked at it (``lock``),
reopened, and extended (``extend``). The time arithmetic itself is in :mod:`.deadlines`."""
from __future__ import annotations

from ..core.errors import ConfigError, UsageError
from ..sheets import layout as L
from ..sheets.store import Store
from . import clock
from . import deadlines as D
from .books import broken_error, read_books, read_every_book
from .late_lock import typed_entries
from .session import Loaded, Progress, ResolveResult, folder_hint, is_locked, load_for
from .transaction import commit, plan, write_all


def lock_submissions(store: Store, *, request_id: str | None = None, progress: Progress | None = None,
                     why: str = "locked by the host", due_at: str | None = None) -> ResolveResult:
    """Take the deadline snapshot of every player's Submission tab into the master's record: `resolve`
    uses it, and later edits are named by `status` and never counted. On Google the Submission tabs
    are also protected, so only the host can edit them until `reopen_submissions` or the next round.
    With `due_at` (watch's clock) only if the deadline is due for the round open now, under the lock:
    a round resolved or undone since watch read the game is never locked by that read."""
    with store.lock("lock"):
        ld, done = load_for(store, request_id)
        if done:
            return done
        m = ld.match
        if due_at is not None and not deadline_due(ld, due_at):
            return ResolveResult("nothing", f"round {m.round}'s deadline is not due; nothing to lock", None, m)
        early = [w for w in [deadline_warning(ld, clock.utc_now())] if w and due_at is None]
        if m.finished:
            return ResolveResult("nothing", f"{m.game.spec.name} is over; nothing to lock", None, m)
        if is_locked(ld):
            return ResolveResult("nothing", f"round {m.round} is already locked (since {ld.locked['at']})", None, m)
        books = read_every_book(ld, "lock submissions", board=False)
        stale = [b.player for b in books.values() if b.stale]
        if stale:
            raise UsageError(f"{', '.join(stale)}'s file(s) still show another round: run `sheetbridge resolve` to "
                             "finish publishing before locking")
        ld.locked = {"round": m.round, "at": clock.utc_now(), "why": why,
                     "raw": {b.player: b.raw for b in books.values() if typed_entries(b.raw)}}
        if request_id:
            ld.handled.append(request_id)
        writes = plan(ld, books, redraw=m.players if store.locks_forms else ())
        written = [commit(ld, progress)]
        written += write_all(ld, writes, progress, checked=True)
        got = len(ld.locked["raw"])
        return ResolveResult("locked", f"round {m.round} locked ({why}): {got} of {len(m.players)} player(s) had "
                             "entries; resolve uses this snapshot", None, m, written, [], ld.warnings + early)


def reopen_submissions(store: Store, *, request_id: str | None = None,
                       progress: Progress | None = None) -> ResolveResult:
    """Drop the deadline snapshot: the players' Submission tabs are open again, with their entries."""
    with store.lock("reopen"):
        ld, done = load_for(store, request_id)
        if done:
            return done
        m = ld.match
        if not is_locked(ld):
            return ResolveResult("nothing", f"round {m.round} is not locked", None, m)
        books = read_books(ld, board=False)
        foreign = [b for b in books.values() if b.foreign]
        if foreign:
            raise broken_error(ld, foreign, "reopen submissions")
        snapshot = ld.locked["raw"]
        ld.locked = None
        after = _spend_passed_deadline(ld, clock.utc_now())
        if request_id:
            ld.handled.append(request_id)
        redraw = m.players if store.locks_forms else ()
        writes = plan(ld, books, redraw=redraw, prefill={p: snapshot.get(p) for p in m.players})
        written = [commit(ld, progress)]
        written += write_all(ld, writes, progress, checked=True)
        return ResolveResult("reopened", f"round {m.round} reopened: players can edit their submissions again{after}",
                             None, m, written, [], ld.warnings)


def _spend_passed_deadline(ld: Loaded, now: str) -> str:
    """A reopened round stays open: the deadline it was reopened past is spent for it (recorded, so no
    `watch` poll locks it again). Returns what the host should know, as the end of reopen's line."""
    try:
        state = deadline_state(ld, now)
    except ConfigError as e:   # the round is reopened all the same; the host is told what to fix
        return f"; {e}"
    if state is None or state.at is None:
        return "; it has no deadline now (type one in the Config tab, or run `sheetbridge extend` with a time)"
    if not state.due:
        return f"; its deadline {D.shown(state.at)} ({D.discord(state.at)}) still applies"
    ld.deadlines.spent[str(ld.match.round)] = D.iso(state.at)
    return (f"; its deadline {D.shown(state.at)} has passed and will not lock it again. To set a new one run "
            f"`sheetbridge extend {folder_hint(ld.store)} 2h` (a grace period) or "
            f"`sheetbridge extend {folder_hint(ld.store)} \"YYYY-MM-DD HH:MM\"`")


def deadline_state(ld: Loaded, now: str):
    """The open round's deadline judged at `now` (deadlines.Due): the moment that locks it, whether it is due,
    and why the Config tab's deadline does not apply to it (a warning), if so. None when the game is over."""
    if ld.match.finished:
        return None
    return D.judge(ld.deadline, ld.match.round, ld.opened_at.get(str(ld.match.round)), ld.deadlines,
                   D.parse_time(now), f"{ld.master.location}, tab {L.tab_name('config')}")


def deadline_due(ld: Loaded, now: str) -> bool:
    """Whether the open round's deadline has passed and it is not locked yet.

    "2026-11-24 15:00" (UTC) is one moment; "15:00" (or "3pm") is every day at that time, due once
    the round has been open across it. A deadline belongs to a round (see deadlines.py): `extend` moves it,
    one earlier than the round's opening or reopened past never locks it.
    """
    if not ld.deadline and str(ld.match.round) not in ld.deadlines.extended or is_locked(ld):
        return False
    state = deadline_state(ld, now)
    return state is not None and state.due


def deadline_warning(ld: Loaded, now: str) -> str:
    """Why the Config tab's deadline does not lock the open round, or ""."""
    try:
        state = deadline_state(ld, now) if ld.deadline else None
    except ConfigError as e:   # a deadline that is not a time: said, and the command goes on
        return str(e)
    return state.ignored.replace("GAME_FOLDER", folder_hint(ld.store)) if state is not None else ""


def extend(store: Store, text: str, *, progress: Progress | None = None) -> ResolveResult:
    """`sheetbridge extend DIR 2h`: move the open round's deadline (this round only) and say where to.
    Writes the master alone, under the game's lock."""
    with store.lock("extend"):
        ld, _ = load_for(store, None)
        m = ld.match
        if m.finished:
            raise UsageError(f"{m.game.spec.name} is over: there is no deadline to extend")
        folder = folder_hint(store)
        if is_locked(ld):
            raise UsageError(f"round {m.round} is already locked: run `sheetbridge reopen {folder}` first (players can "
                             "edit again), then `sheetbridge extend`")
        now = clock.utc_now()
        try:
            state = deadline_state(ld, now) if ld.deadline or str(m.round) in ld.deadlines.extended else None
        except ConfigError:   # a Config deadline that is not a time: the extension replaces it for this round
            state = None
        before = state.at if state is not None else None
        at = D.new_deadline(text, before, D.parse_time(now))
        ld.deadlines.extended[str(m.round)] = D.iso(at)
        written = [commit(ld, progress)]
        was = f"from {D.shown(before)} " if before is not None else ""
        message = (f"round {m.round}'s deadline moved {was}to {D.shown(at)}; for Discord: {D.discord(at)}. "
                   "It applies to this round only; `sheetbridge watch` locks the round then")
        return ResolveResult("extended", message, None, m, written, [], ld.warnings)
