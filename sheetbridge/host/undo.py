"""`undo`: the last resolved round rolled back by replaying the record up to the round before;
entries typed meanwhile are kept (which round an undo undoes: :mod:`.undo_guard`)."""
from __future__ import annotations

from typing import Any, Mapping

from ..sheets.store import Store
from .books import read_every_book
from .late_lock import restore_lock
from .session import Progress, ResolveResult, is_locked, load_for
from .transaction import commit, plan, unpublished_message, write_all
from .undo_guard import menu_round, undo_target


def undo(store: Store, progress: Progress | None = None, request_id: str | None = None,
         round_no: int | None = None, from_menu: bool = False) -> ResolveResult:
    """Roll back the last resolved round by replaying the record up to the round before.

    Entries players had already typed for the next round are kept in the master and put
    back in their Submission tabs when that round opens again. With `round_no`, only that
    round is undone: run again once it is undone, the undo changes nothing (see undo_guard;
    `from_menu`: the round of a menu request, which older menus sent differently).
    """
    with store.lock("undo"):
        ld, done = load_for(store, request_id)
        if done:
            return done
        m = ld.match
        round_no = menu_round(m, round_no) if from_menu else round_no
        already = undo_target(m, round_no)
        books = read_every_book(ld, "undo")
        pending = plan(ld, books)
        if pending:
            # An earlier run (often an undo) was cut off while publishing: finish it instead of undoing
            # one more round, which is what a host re-running a failed undo means.
            written = write_all(ld, pending, progress)
            then = (f"Round {round_no} is undone" if already else "Nothing was undone: run undo again to undo "
                    f"round {m.rounds[-1].round if m.rounds else '-'}")
            return ResolveResult("published", f"an earlier run was cut off while publishing; finished publishing to "
                                 f"{unpublished_message(pending)}. {then}", None, m, written, [], ld.warnings)
        if already:
            return ResolveResult("nothing", already, None, m, warnings=ld.warnings)
        typed = {b.player: b.raw for b in books.values() if b.player and b.raw and has_entries(b.raw)}
        next_round = m.round
        last = m.undo()
        if typed:
            ld.saved[str(next_round)] = {**ld.saved.get(str(next_round), {}), **typed}
        # The undone round's entries go back into the Submission tabs (kept in the record, so a
        # run cut off after the master write puts them back too).
        ld.saved[str(last.round)] = {p: raw for p, raw in last.raw.items() if raw}
        lifted = ld.locked if is_locked(ld) else None
        ld.locked = None
        kept_late = restore_lock(ld, last)   # a round resolved from a lock is locked again, late entries shown
        ld.opens_round = ld.locked is None   # (a round locked again keeps the opening its deadline was judged by)
        if request_id:
            ld.handled.append(request_id)
        writes = plan(ld, books, redraw=m.players)
        written = [commit(ld, progress)]
        written += write_all(ld, writes, progress, checked=True)
        msg = (f"round {last.round} undone: state, ledger and tabs recomputed by replay; players' submissions for it "
               "are back in their Submission tabs")
        if typed:
            msg += (f"; entries {', '.join(typed)} had typed for round {next_round} are kept in the master and will "
                    f"be put back when round {next_round} opens again")
        if lifted:
            msg += f"; round {next_round}'s lock is lifted (its deadline snapshot dropped, what players typed kept)"
        msg += kept_late
        return ResolveResult("undone", msg, last, m, written, [], ld.warnings)


def has_entries(raw: Mapping[str, Any]) -> bool:
    return any(str(v).strip() for rows in raw.values() for row in rows for v in row.values())


