"""Reading the books a command writes: every player's book and the board, one read each, each
checked against its identity; a book that cannot be read is named with its fix, never hidden."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..core.errors import SheetbridgeError, WorkbookError
from ..sheets import layout as L
from ..sheets.store import BOARD, Store, player_key
from . import identity as ID
from .lines import listed
from .session import Loaded, folder_hint


@dataclass
class BookState:
    """One player's book (or the board) as read before anything is written."""
    key: str                      # "player:<name>" or "board"
    location: str
    rects: dict | None            # the tabs read; None when the book could not be read
    error: str = ""               # why the book could not be read (missing file, renamed tab...)
    reason: str = ""              # the same without its fix (an error quoting it says its own)
    raw: dict | None = None       # the entries typed for the open round (players only)
    stale: bool = False           # the Submission tab still shows another round
    stray: list = field(default_factory=list)   # entries typed outside the boxes (layout.StrayEntry)
    foreign: bool = False         # another book's identity (identity.py): refused, nothing of it read

    @property
    def player(self) -> str:
        return self.key.split(":", 1)[1] if self.key.startswith("player:") else ""


def player_tab_names() -> list[str]:
    return [L.tab_name("submission"), L.tab_name("results"), L.tab_name("board")]


def read_books(ld: Loaded, players: Sequence[str] | None = None, board: bool = True,
               compare: bool = True) -> dict[str, BookState]:
    """Read every player's book (and the board): one read per book. A book that cannot be read is
    reported in its BookState, never raised, so one broken file does not hide the others.
    ``compare=False``: of a player's book only the Submission tab (and its identity), for a command
    that rewrites the rest anyway (a new round's resolve): its Results and Board tabs grow with
    every round, and :func:`~.transaction.plan` takes a tab not read for one that differs."""
    m = ld.match
    out: dict[str, BookState] = {}
    names = player_tab_names() if compare else player_tab_names()[:1]
    who = list(m.players if players is None else players)
    states = [BookState(player_key(p), ld.locations.get(p, ""), None) for p in who]
    if board and ld.board_location:
        states.append(BookState(BOARD, ld.board_location, None))

    def fetch(st: BookState):
        try:
            return _read_own_book(ld, st, names if st.key != BOARD else [L.tab_name("board")])
        except WorkbookError as e:   # this book's problem, reported on its line; the others are still read
            return e

    fetched = each_book(ld.store, states, fetch)
    first = next((outcome for state, outcome in fetched if state == "failed"), None)
    if first is not None:
        raise first
    for p, st, (_, got) in zip(who, states, fetched):
        key = st.key
        out[key] = st
        st.foreign = isinstance(got, ID.ForeignFile)
        try:
            if isinstance(got, WorkbookError):
                raise got
            st.rects = got
            if m.finished:
                st.stale = marker(st.rects[names[0]]) != "finished"
            else:
                where = f"{st.location}, tab {names[0]} ({p})"
                form = m.form(p)
                st.raw = L.read_form(form, st.rects[names[0]], where)
                st.stale = st.raw is None
                if not st.stale:
                    st.stray = L.stray_entries(form, st.rects[names[0]], p)
        except WorkbookError as e:
            st.rects, st.error, st.reason = None, str(e), getattr(e, "what", "")
    if board and ld.board_location:
        st, (_, got) = states[-1], fetched[-1]
        if isinstance(got, WorkbookError):
            st.error, st.foreign = str(got), isinstance(got, ID.ForeignFile)
        else:
            st.rects = got
        out[BOARD] = st
    return out


def _read_own_book(ld: Loaded, st: BookState, tabs: Sequence[str]) -> dict:
    """The book's tabs, in the same one read as its Identity tab when the game records one: a book
    with another identity raises ForeignFile, and nothing else read from it is kept."""
    book = ld.store.open(st.key, st.location)
    if st.key not in ld.identities:
        return book.read(tabs)
    try:
        rects = book.read(list(tabs) + [ID.IDENTITY_TAB])
    except WorkbookError as e:
        # A tab is missing: whose book is it? Another's is refused; our own goes to the usual repair.
        try:
            names = book.tab_names()
            own = book.read([ID.IDENTITY_TAB])[ID.IDENTITY_TAB] if ID.IDENTITY_TAB in names else None
        except (WorkbookError, NotImplementedError):
            raise e from None                       # unreadable as a whole: the usual repair applies
        why = ID.refusal(st.key, st.location, own, ld.identities)
        raise (ID.ForeignFile(why) if why else e) from None
    why = ID.refusal(st.key, st.location, rects.pop(ID.IDENTITY_TAB), ld.identities)
    if why:
        raise ID.ForeignFile(why)
    return rects


def marker(rect) -> str:
    return rect[1][1] if len(rect) > 1 and len(rect[1]) > 1 else ""


def broken_error(ld: Loaded, broken: Sequence[BookState], doing: str) -> WorkbookError:
    foreign = [b for b in broken if b.foreign]
    if foreign:
        others = [b for b in broken if not b.foreign]
        also = str(broken_error(ld, others, doing)).split(": ", 1)[1] if others else ""
        return ID.refused_error(doing, [(b.key, b.location, b.error) for b in foreign], folder_hint(ld.store),
                                "also " + also if also else "")
    # One line of about 300 characters however many files are broken: the first one's reason only.
    names = listed([b.player or "the public board" for b in broken], 60)
    details = (broken[0].reason or broken[0].error) + (f"; and {len(broken) - 1} more" if len(broken) > 1 else "")
    who = " ".join(f"--player {b.player}" for b in broken if b.player) if len(broken) <= 3 else ""
    return WorkbookError(f"cannot {doing}: {len(broken)} unreadable file(s) ({names}): {details}. Nothing was "
                         f"written: run `sheetbridge repair {folder_hint(ld.store)}{' ' + who if who else ''}` (typed entries "
                         "are kept), then this again")


def read_every_book(ld: Loaded, doing: str, *, board: bool = True) -> dict[str, BookState]:
    """Every book the command writes, read before anything is written; stops (naming each broken
    book and what to do) if one cannot be read."""
    books = read_books(ld, board=board)
    broken = [b for b in books.values() if b.error]
    if broken:
        raise broken_error(ld, broken, doing)
    return books


def each_book(store: Store, items: Sequence[Any], job: Callable[[Any], Any],
               done: Callable[[Any, Any], None] | None = None) -> list[tuple[str, Any]]:
    """``job(item)`` for every item, ``store.publish_workers`` at once (Google: each book is one
    request, so their network waits overlap; xlsx: one after another). Returns, in the order of
    ``items``, ("done", result), ("failed", the SheetbridgeError) or ("skipped", None): after a
    failure no other job starts, those already running finish. Anything else a job raises (a bug,
    a kill) is raised here once the running jobs have ended. ``done(item, result)`` is called in
    this thread as each job succeeds."""
    outcomes: list[tuple[str, Any]] = [("skipped", None)] * len(items)
    workers = min(max(1, store.publish_workers), len(items))
    if workers <= 1:
        for i, item in enumerate(items):
            try:
                result = job(item)
            except SheetbridgeError as exc:
                outcomes[i] = ("failed", exc)
                break
            outcomes[i] = ("done", result)
            if done:
                done(item, result)
        return outcomes
    from concurrent.futures import ThreadPoolExecutor, as_completed
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="sheetbridge-book") as pool:
        futures = {pool.submit(job, item): i for i, item in enumerate(items)}
        try:
            for future in as_completed(futures):
                i = futures[future]
                if future.cancelled():
                    continue
                error = future.exception()
                if error is None:
                    outcomes[i] = ("done", future.result())
                    if done:
                        done(items[i], outcomes[i][1])
                elif isinstance(error, SheetbridgeError):
                    outcomes[i] = ("failed", error)
                    for other in futures:
                        other.cancel()          # only those not started yet
                else:
                    raise error
        except BaseException:
            for other in futures:
                other.cancel()
            raise
    return outcomes


