"""The round transaction: plan what every book should show, write the master first (the commit
point, compare-and-set on the record's revision), then publish the players' books, the board and
the pictures. Comparing content, not a flag, is what lets any re-run finish a publication an
earlier run left unfinished."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from ..core.errors import BackendError, GameBusy
from ..sheets import layout as L
from ..sheets.model import TabData
from ..sheets.store import BOARD, MASTER, player_key
from . import identity as ID
from .books import BookState, each_book, marker
from .late_lock import locked_fill
from .picture_files import PictureWrite, plan_pictures
from .record import held_texts, read_head
from .private_pictures import picture_link_of, picture_uploads, upload
from .session import Loaded, Progress, is_locked
from .tabs import board_tab, board_tabs, master_tabs, player_tabs


@dataclass
class Write:
    key: str
    location: str
    tabs: dict[str, TabData]
    create: bool = False          # the book is missing or unreadable: create it anew (repair only)
    remove: list[str] = field(default_factory=list)   # tabs to remove after writing (a renamed Submission tab)
    uploads: list = field(default_factory=list)   # (Drive file, PNG): the player's picture, put before the tabs


def fresh_prefill(ld: Loaded, player: str) -> Mapping[str, Any] | None:
    """Entries an undo kept for the open round, put back when its Submission tab is drawn again."""
    return ld.saved.get(str(ld.match.round), {}).get(player)


def plan(ld: Loaded, books: Mapping[str, BookState], *, redraw: Sequence[str] = (),
          prefill: Mapping[str, Any] | None = None) -> list[Write | PictureWrite]:
    """The writes that make every readable book show what the record says, and nothing more.

    A player's Submission tab is redrawn only when it shows another round (or for `redraw`
    players): a current one holds what the player is typing. Results and Board are rewritten
    when they differ. Comparing content, not a flag, is what lets any re-run finish a
    publication that was cut off, the board's and the pictures' included (:mod:`.picture_files`).
    """
    m = ld.match
    out: list[Write] = []
    board_shown = board_tab(m)   # (every book shows the same board: drawn once)
    for p in m.players:
        st = books.get(player_key(p))
        if st is None or st.rects is None:
            continue
        locked = is_locked(ld)
        fill = ((prefill or {}).get(p) if prefill is not None else
                locked_fill(ld, p) if locked else fresh_prefill(ld, p))
        want = player_tabs(m, p, fill, locked=locked and ld.store.locks_forms,
                           picture=ld.store.embeds_pictures, picture_link=picture_link_of(ld, p), board=board_shown)
        sub = L.tab_name("submission")
        tabs = {name: tab for name, tab in want.items()   # (a tab not read is rewritten: no need to draw its values)
                if name != sub and (name not in st.rects or st.rects[name] != tab.values())}
        shows = marker(st.rects.get(sub) or [])
        if shows != ("finished" if m.finished else str(m.round)) or p in redraw:
            tabs[sub] = want[sub]
        if tabs:
            tabs = {n: tabs[n] for n in want if n in tabs}
            if len(tabs) == len(want):    # a whole book: its Identity tab too, so it stays one whole write
                tabs = ID.with_identity(tabs, st.key, ld.identities)
            uploads = picture_uploads(ld, p) if L.tab_name("results") in tabs else []
            out.append(Write(st.key, st.location, tabs, uploads=uploads))
    st = books.get(BOARD)
    if st is not None and st.rects is not None:
        board = L.tab_name("board")   # (the Picture tab shows the same round: it follows the Board tab)
        if st.rects.get(board) != board_shown.values():
            out.append(Write(BOARD, st.location, ID.with_identity(
                board_tabs(m, ld.store.embeds_pictures, board_shown), BOARD, ld.identities)))
    return out + plan_pictures(m, ld.store.host_folder())   # the pictures are published like the books


def write_all(ld: Loaded, writes: Sequence[Write | PictureWrite], progress: Progress | None,
               checked: bool = False) -> list[str]:
    """Write players' books and the board, after the master (the commit point); first make sure
    the record is still the one loaded. On Google several books are written at once
    (``store.publish_workers``, sharing one pacer). A failure lets the writes already under way
    finish, starts no other, and raises the first error (in the order of ``writes``) naming every
    book left unpublished: running the command again publishes them from the master's record.
    Returns the locations written, in the order of ``writes``."""
    if writes and not checked:
        check_revision(ld)

    def publish(w: Write | PictureWrite) -> None:
        if isinstance(w, PictureWrite):
            w.publish()
        else:
            upload(ld.store, w.uploads)   # (first: the Results tab written is what says it is done)
            ld.store.open(w.key, w.location).write(w.tabs)

    def published(w: Write | PictureWrite, _result) -> None:
        if progress:
            progress(_published_line(w))

    outcomes = each_book(ld.store, writes, publish, published)
    failed = [outcome for state, outcome in outcomes if state == "failed"]
    if failed:
        left = [w for w, (state, _) in zip(writes, outcomes) if state != "done"]
        first = failed[0]
        message = f"{first} (still unpublished: {unpublished_message(left)})"
        try:
            error = type(first)(message)
        except TypeError:
            error = BackendError(message)
        raise error from first
    return [w.location for w, (state, _) in zip(writes, outcomes) if state == "done"]


def _published_line(w: Write | PictureWrite) -> str:
    if isinstance(w, PictureWrite):
        return f"{'removed' if w.data is None else 'saved'} {w.location}"
    return f"published {w.key.split(':', 1)[-1]}'s file" if w.key.startswith("player:") else "published the public board"


def commit(ld: Loaded, progress: Progress | None = None) -> str:
    """Write the master: the commit point. Refused if another run changed the game since `load`
    (compare-and-set on the record's revision), so a stale run can never overwrite a newer round."""
    m = ld.match

    def draw() -> dict[str, TabData]:
        return master_tabs(m, ld.players, ld.locations, ld.board_location, ld.store, ld.warnings,
                           record_extra=ld.record_extra(), webhooks=ld.webhooks, record_held=ld.record_held)

    mtabs = draw()
    if ld.store.prepare_write(MASTER, ld.master.location, mtabs):
        mtabs = draw()   # the record then names the master's own ids as this write leaves them
    check_revision(ld)
    ld.master.write(mtabs)
    ld.revision += 1
    ld.record_held = held_texts(m)   # what the Record tab holds now: a later write adds only what is new
    if progress:
        progress("saved the master (the round's record and ledger)")
    return ld.master.location


def check_revision(ld: Loaded) -> None:
    """Compare-and-set: refuse to write if another run wrote the master since this one read it."""
    rec_tab = L.tab_name("record")
    now = read_head(ld.master.read([rec_tab])[rec_tab], f"{ld.master.location}, tab {rec_tab}")
    if int(now.get("revision", 0)) != ld.revision:
        raise GameBusy("the game changed while this command ran (another sheetbridge, or a restored backup); "
                       "nothing was written: run the command again")


def unpublished_message(writes: Sequence[Write | PictureWrite]) -> str:
    names = [w.key.split(":", 1)[1] if w.key.startswith("player:") else "the round's pictures"
             if isinstance(w, PictureWrite) else "the public board" for w in writes]
    return ", ".join(dict.fromkeys(names))


