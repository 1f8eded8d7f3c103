"""`resolve`: the open round resolved from every player's Submission tab and published, or a
publication an earlier run left unfinished completed (same result, no second ledger entry)."""
from __future__ import annotations

from typing import Any, Mapping

from ..core.errors import UsageError
from ..sheets.store import Store, player_key
from .books import BookState, broken_error, read_books
from .collector import collector_paused
from .decide import apply_typed_decisions
from .late_lock import late_entries, remember_lock, typed_entries
from .private_pictures import prepare_picture_files
from .session import Loaded, Progress, ResolveResult, is_locked, load_for
from .transaction import commit, plan, unpublished_message, write_all


@collector_paused()   # (a resolve makes many short-lived objects and almost no cycles: host/collector.py)
def resolve(store: Store, *, dry_run: bool = False, round_no: int | None = None, allow_empty: bool = False,
            progress: Progress | None = None, request_id: str | None = None) -> ResolveResult:
    """Resolve the open round and publish it, or finish publishing one that was cut off.

    Every book the round writes is read first; if one cannot be read, nothing is written.
    The master is written first (the commit point), then every book whose content differs.
    """
    with store.lock("resolve"):
        ld, done = load_for(store, request_id, cleanup=not dry_run)
        if done:
            return done
        m = ld.match
        # A new round rewrites every Results and Board tab: their content (which grows with every
        # round) is read only to finish a publication (below), where what differs is what is written.
        nothing_new = m.finished or (round_no is not None and round_no < m.round)
        books = read_books(ld, compare=nothing_new)
        broken = [b for b in books.values() if b.error]
        if broken and not dry_run:
            raise broken_error(ld, broken, "resolve")
        warnings = list(ld.warnings) + [f"cannot read {b.player or 'the board'}'s file: {b.error}" for b in broken]
        stale = [b.player for b in books.values() if b.stale]

        read_whole: list[dict[str, BookState]] = []

        def unpublished() -> list:
            """What an earlier run left unpublished: the books read whole this time (a tab is written
            only where it differs), once."""
            if not read_whole:
                read_whole.append(books if nothing_new else read_books(ld))
                again = [b for b in read_whole[0].values() if b.error]
                if again and not dry_run:
                    raise broken_error(ld, again, "resolve")
            return plan(ld, read_whole[0])

        def finish(reason: str, unchanged: str = "; nothing changed") -> ResolveResult:
            """Publish what an earlier run left unpublished (same result, no ledger rows), or say nothing changed."""
            pending = unpublished()   # (only here: a resolved round is planned once, after it is resolved)
            if not pending:
                return ResolveResult("nothing", reason + unchanged, None, m, warnings=warnings)
            what = unpublished_message(pending)
            last = m.rounds[-1] if m.rounds else None
            if dry_run:
                return ResolveResult("dry-run", f"{reason}; resolve would finish publishing to {what}", last, m,
                                     warnings=warnings)
            written = write_all(ld, pending, progress)
            return ResolveResult("published", f"{reason}; finished publishing to {what}", last, m, written,
                                 warnings=warnings)

        if stale:
            # Players could not submit for the open round: their files still show another one.
            return finish(f"{len(stale)} player file(s) still showed another round than the open round "
                          f"{'(the game is over)' if m.finished else m.round}")
        if m.finished:
            return finish(f"{m.game.spec.name} is over", "; nothing to resolve")
        if round_no is not None and round_no != m.round:
            if round_no < m.round:
                return finish(f"round {round_no} is already resolved")
            raise UsageError(f"round {round_no} is not open yet; round {m.round} is")
        entered = apply_typed_decisions(ld)
        if entered and not dry_run:
            warnings += entered
        raws, late, typed_late = _counted_entries(ld, books, warnings)
        stray = {} if is_locked(ld) else {
            p: [e.message for e in books[player_key(p)].stray] for p in m.players if books[player_key(p)].stray}
        warnings += [f"{p}: {line}" for p, lines in stray.items() for line in lines]
        submitted = [p for p in m.players if m.parse(p, raws[p]) is not None]
        if not submitted and not allow_empty and (not dry_run or unpublished()):
            return finish(f"nobody has submitted for round {m.round} yet; nothing was resolved", " (add --allow-empty "
                          "to resolve it with every player's default)")
        rec = m.resolve(raws, tables=m.tables, stray=stray, late=late)
        if dry_run:   # the same answer for `resolve --dry-run` and the menu's Preview
            said = (f"round {rec.round} would be resolved" if submitted else f"nobody has submitted for round "
                    f"{rec.round} yet: with every player's default it would be resolved as shown")
            return ResolveResult("dry-run", said + "; nothing was written", rec, m, warnings=warnings)
        ld.saved.pop(str(rec.round), None)   # entries kept by an undo for this round were used
        if typed_late is not None:
            remember_lock(ld, typed_late)
        ld.locked = None                      # the next round's forms open unlocked
        ld.opens_round = True
        if request_id:
            ld.handled.append(request_id)
        # Compute everything before the first write (a player's first picture file: made, empty, to be linked).
        prepare_picture_files(ld)
        writes = plan(ld, books)
        written = [commit(ld, progress)]
        written += write_all(ld, writes, progress, checked=True)
        skipped = [b.location for b in books.values() if b.location not in written]
        return ResolveResult("resolved", f"round {rec.round} resolved and published", rec, m, written, skipped,
                             warnings)


def _counted_entries(ld: Loaded, books: Mapping[str, BookState], warnings: list[str]
                     ) -> tuple[dict[str, Any], dict[str, dict[str, Any]], dict[str, Any] | None]:
    """The entries the round is resolved from: what each player typed, or in a locked round the deadline
    snapshot; with who typed after the lock (for ``Match.resolve(late=...)``) and what they typed then
    (None: the round was not locked)."""
    m = ld.match
    raws = {p: books[player_key(p)].raw for p in m.players}
    if not is_locked(ld):
        return raws, {}, None
    # The deadline snapshot is the submission; later edits are named, never counted.
    later = [p for p in m.players if typed_entries(raws[p]) != typed_entries(ld.locked["raw"].get(p))]
    typed_late = {p: raws[p] for p in later}   # kept in the record: an undo puts them back (late_lock.py)
    if later:
        warnings.append(f"edited after the lock (not counted): {', '.join(later)}")
    return {p: ld.locked["raw"].get(p) for p in m.players}, late_entries(ld, later), typed_late
