"""`status`: who has submitted for the open round and whether it is valid, revealing no submission."""
from __future__ import annotations

from dataclasses import dataclass

from ..sheets.store import BOARD, Store, player_key
from . import clock
from . import identity as ID
from .books import read_books
from .late_lock import typed_entries
from .lines import listed
from .lock import deadline_warning
from .session import Loaded, clear_leftovers, folder_hint, is_locked, load


@dataclass
class StatusLine:
    player: str
    state: str        # "submitted", "not submitted", "file shows another round...", "cannot read the file..."
    valid: bool
    problem_fields: tuple[str, ...] = ()
    note: str = ""    # e.g. "edited after the lock (not counted)": names only, never values



def status(store: Store) -> tuple[Loaded, list[StatusLine]]:
    """Who has submitted for the open round and whether it is valid, revealing no submission.
    A file that cannot be read is reported on its player's line; the others are still read. A
    public board that cannot be read is added to ``ld.warnings`` with the command that mends it."""
    with store.lock("status"):
        clear_leftovers(store)
        ld = load(store)
        lines: list[StatusLine] = []
        if ld.match.finished:
            return ld, lines
        early = deadline_warning(ld, clock.utc_now())
        if early:
            ld.warnings.append(early)
        books = read_books(ld, compare=False)   # (a Results or Board tab lost is drawn again by resolve)
        board = books.get(BOARD)
        if board is not None and board.error:   # told now, not at the deadline when resolve stops on it
            ld.warnings.append(f"the public board's file cannot be read ({board.error}); resolve will stop until "
                               f"`sheetbridge repair {folder_hint(store)}` re-creates it from the master's record")
        elsewhere: set[str] = set()   # players with another file of theirs in players/ (collect.py)
        if store.folder is not None:
            from .collect import unused_lines
            unused = unused_lines(store, ld.identities, ld.locations)
            ld.warnings += [line for _owner, line in unused]
            elsewhere = {owner for owner, _line in unused if owner}
        for p in ld.match.players:
            st = books[player_key(p)]
            if st.foreign:   # on its own line, with the fix; nothing of the file was read
                lines.append(StatusLine(p, f"{st.error}: {ID.fix(st.key, st.location, folder_hint(store))}", False))
            elif st.error:
                lines.append(StatusLine(p, f"cannot read the file: {st.error}; `sheetbridge repair "
                                           f"{folder_hint(store)} --player {p}` re-creates it", False))
            elif st.stale:
                lines.append(StatusLine(p, "file shows another round: run resolve to finish publishing", False))
            else:
                locked = is_locked(ld)
                sub = ld.match.parse(p, ld.locked["raw"].get(p) if locked else st.raw)
                note = ("edited after the lock (not counted)"
                        if locked and typed_entries(st.raw) != typed_entries(ld.locked["raw"].get(p)) else "")
                if st.stray:   # where, never what: status reveals no value
                    note = "; ".join(x for x in (note, "typed outside the boxes (ignored): "
                                                  + listed([e.cell for e in st.stray], 60)) if x)
                if p in elsewhere:
                    note = "; ".join(x for x in (note, "another file of theirs is in players/ (see above)") if x)
                if sub is None:
                    lines.append(StatusLine(p, "not submitted", False, note=note))
                else:
                    labels = []
                    for pr in sub.problems:
                        label = getattr(pr, "label", "") or pr.field
                        if label not in labels:
                            labels.append(label)
                    lines.append(StatusLine(p, "submitted", not sub.problems, tuple(labels), note))
        return ld, lines


