"""`repair`: players' books and the board redrawn from the record, missing or unreadable ones
re-created, typed entries kept; and accepting hand edits of the Ledger tab as correcting rows."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..core.errors import UsageError, WorkbookError
from ..sheets import layout as L
from ..sheets.model import TabData
from ..sheets.store import BOARD, Book, Store, player_key
from . import identity as ID
from .books import BookState, player_tab_names, read_books
from .picture_files import plan_pictures
from .private_pictures import picture_link_of, picture_uploads, upload
from .session import Loaded, clear_leftovers, load
from .tabs import board_tabs, player_tabs
from .transaction import Write, check_revision, commit, fresh_prefill
from .undo import has_entries


@dataclass
class RepairResult:
    written: list[str]
    notes: list[str]


def repair(store: Store, players: Sequence[str] | None = None, board: bool | None = None) -> RepairResult:
    """Redraw players' books (and the board) from the record; re-create missing or unreadable ones.

    Entries a player typed for the open round are kept: read from the Submission tab, or from a
    tab with the Submission layout under another name (a renamed tab, which is then removed).
    """
    with store.lock("repair"):
        clear_leftovers(store)
        ld = load(store)
        m = ld.match
        names = list(players or m.players)
        for p in names:
            if p not in m.players:
                raise UsageError(f"{p!r} is not a player of this game; players are {', '.join(m.players)}")
        with_board = (not players) if board is None else board
        books = read_books(ld, names, board=with_board)
        before = dict(ld.identities)
        notes = _give_identities(ld, names, with_board and BOARD in books)
        writes: list[Write] = []
        emails = {pi.name: pi.email for pi in ld.players}
        for p in names:
            st = books[player_key(p)]
            prefill, renamed = st.raw, None
            if st.foreign:   # never salvaged: nothing of another's file goes into this one
                prefill = None
            elif st.error:
                prefill, renamed, note = _salvage(ld, p, st)
                notes.append(note)
            tabs = ID.with_identity(player_tabs(m, p, prefill if prefill is not None else fresh_prefill(ld, p),
                                                picture=ld.store.embeds_pictures, picture_link=picture_link_of(ld, p)),
                                    st.key, ld.identities)
            if st.foreign:
                writes.append(_replace_foreign(ld, st, tabs, notes))
                continue
            exists = st.error == "" or renamed is not None or _opens(ld, st)
            writes.append(Write(st.key, st.location, tabs, create=not exists, remove=[renamed] if renamed else []))
        if with_board and BOARD in books:
            st = books[BOARD]
            tabs = ID.with_identity(board_tabs(m, ld.store.embeds_pictures), BOARD, ld.identities)
            if st.foreign:
                writes.append(_replace_foreign(ld, st, tabs, notes))
            else:
                writes.append(Write(BOARD, st.location, tabs, create=bool(st.error)))
                if st.error:
                    notes.append(f"the public board could not be read ({st.error}): re-created")
        elif with_board and not ld.board_location:
            notes.append("this game has no public board book")
        written: list[str] = []
        moved = False
        check_revision(ld)
        for w in writes:
            if w.key.startswith("player:"):   # the picture its Results tab links, put first (Google)
                upload(store, picture_uploads(ld, w.key.split(":", 1)[1]))
            if w.create:
                p = w.key.split(":", 1)[1] if w.key.startswith("player:") else ""
                title = f"{m.game.spec.name}: {p}" if p else f"{m.game.spec.name}: public board"
                if p:
                    info = store.recreate(w.key, w.location, title, w.tabs, writer_email=emails.get(p) or None)
                else:
                    readers = ",".join([e for e in emails.values() if e] + ld.cohosts) or None
                    info = store.recreate(w.key, w.location, title, w.tabs, reader_email=readers)
                if info.location != w.location:
                    moved = True
                    if p:
                        ld.locations[p] = info.location
                    else:
                        ld.board_location = info.location
                written.append(info.location)
            else:
                book = store.open(w.key, w.location)
                book.write(w.tabs)
                if w.remove:
                    book.remove_tabs(w.remove)
                written.append(w.location)
        if moved or ld.identities != before:
            written.append(commit(ld))
        for picture in plan_pictures(m, store.host_folder()):   # missing or wrong pictures are drawn again
            picture.publish()
            written.append(picture.location)
        return RepairResult(written, notes)


def _give_identities(ld: Loaded, players: Sequence[str], board: bool) -> list[str]:
    """A game made before identities: the books repair redraws get theirs now (recorded at its commit)."""
    m = ld.match
    keys = [k for k in ID.book_keys(players, board) if k not in ld.identities]
    if not keys:
        return []
    ld.identities.update(ID.file_ids(m.seed, m.name, m.players, keys))
    return [f"gave {len(keys)} file(s) their identity (a hidden Identity tab, recorded in the master): from now on "
            "a file saved in another's place is refused by name"]


def _replace_foreign(ld: Loaded, st: BookState, tabs: Mapping[str, TabData], notes: list[str]) -> Write:
    """Redraw a book that held another's file. A file in a folder is moved aside into broken/ (nothing is
    lost) and drawn anew; a Google spreadsheet is overwritten in place, its other tabs removed, so whoever
    it is shared with no longer sees the other file's content."""
    who = ID.owner_name(st.key)
    if ld.store.folder is not None:   # (the books are files in a folder)
        notes.append(f"{st.error}: it was moved aside into broken/ and {who}'s file was drawn anew")
        return Write(st.key, st.location, dict(tabs), create=True)
    others = [t for t in ld.store.open(st.key, st.location).tab_names() if t not in tabs]
    removed = " and its other tabs removed" if others else ""
    notes.append(f"{st.error}: it was overwritten with {who}'s file{removed}")
    return Write(st.key, st.location, dict(tabs), remove=others)


def _opens(ld: Loaded, st: BookState) -> bool:
    """The book exists and opens (only a tab is missing or damaged): redraw it in place."""
    try:
        ld.store.open(st.key, st.location).tab_names()
        return True
    except (WorkbookError, NotImplementedError):
        return False


def _salvage(ld: Loaded, player: str, st: BookState) -> tuple[Mapping[str, Any] | None, str | None, str]:
    """After a failed read: find the player's entries in a renamed Submission tab, if the book opens."""
    book = ld.store.open(st.key, st.location)
    try:
        names = book.tab_names()
    except (WorkbookError, NotImplementedError):
        return None, None, f"{player}'s file could not be read ({st.error}): re-created from the record"
    sub = L.tab_name("submission")
    form = None if ld.match.finished else ld.match.form(player)
    if sub in names:
        # Often only another tab is missing (a deleted Results or Board tab): keep what the player typed.
        readable, kept = _entries_in(book, sub, form, player)
        if readable:
            what = (f"the entries in its Submission tab for round {ld.match.round} were kept" if kept
                    else "its Submission tab held no entries for the open round")
            return kept, None, f"{player}'s file could not be read ({st.error}): redrawn from the record; {what}"
        return None, None, (f"{player}'s Submission tab could not be read ({st.error}): redrawn; the player "
                            "re-enters this round's entries")
    for name in names:
        if name in player_tab_names():
            continue
        try:
            rect = book.read([name])[name]
            raw = L.read_form(form, rect, name) if form is not None else None
        except WorkbookError:
            continue
        if raw is not None and len(rect) > 2 and len(rect[2]) > 1 and rect[2][1] == player:
            return raw, name, (f"{player}'s Submission tab had been renamed to {name!r}: the entries in it were "
                               f"moved back into a new Submission tab and {name!r} was removed")
    return None, None, (f"{player}'s file had no Submission tab ({st.error}): a new one was drawn; the player "
                        "re-enters this round's entries")


def _entries_in(book: Book, tab: str, form: Any, player: str) -> tuple[bool, Mapping[str, Any] | None]:
    """Whether a Submission tab still reads, and the open round's entries in it (None: it shows
    another round, or nothing is typed)."""
    if form is None:   # the game is over: a closed form holds no entries
        return True, None
    try:
        raw = L.read_form(form, book.read([tab])[tab], f"{player}'s {tab} tab")
    except WorkbookError:
        return False, None
    return True, raw if raw is not None and has_entries(raw) else None


def accept_ledger_edits(store: Store) -> list[str]:
    """Accept hand edits of the Ledger tab (or the Record tab): book correcting rows, never rewrite a row.

    Each accepted edit becomes a correcting row (the recorded row is put back as it
    was) and a line in the Host log until the next command rewrites it; the master is
    written once, the record re-sealed. Returns those lines (none: the Ledger tab matched
    the record and nothing was written).
    """
    with store.lock("repair --accept-ledger-edits"):
        ld = load(store, accept_ledger_edits=True)
        if ld.accepted:
            commit(ld)
        return ld.accepted


