"""`sheetbridge substitute DIR OLD NEW`: a player drops out and a new one takes over the seat.

The seat's history and balance stay with it (core/seats.py: the match renames the seat at a
recorded point, so undo and replay keep the substitution, and two ledger rows carry the
balance over). The host layer here gives the new player a file of their own:

- a new book with its own identity (a new file id), so the old player's file, put in its
  place, is refused by name from then on;
- on Google a *new* spreadsheet, never the old one re-shared: anyone who can edit a
  spreadsheet can open its version history, which holds every earlier Results tab, so
  handing the old spreadsheet over would show the seat's earlier private reports whatever
  the host chose. The old player's access to their spreadsheet and to the board is removed;
- the new player's Results tab shows the seat's earlier private reports only with
  ``history=True`` (``--show-history yes``); by default it starts from the open round.

Order, for a run that is cut off: the new book is created (shared with nobody), the master
is written (the commit point), then the other books are redrawn and the sharing changed.
Running the same command again after a cut finishes what is left.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from . import identity as ID
from ..core.errors import UsageError
from ..sheets.store import BOARD, BookInfo, Store, player_key
from .books import read_every_book
from .players import PlayerInfo
from .session import Loaded, load
from .transaction import commit, plan, write_all
from .tabs import player_tabs

Progress = Callable[[str], None]


@dataclass
class SubstituteResult:
    old: str
    new: str
    message: str
    written: list[str] = field(default_factory=list)
    transferred: int = 0
    finished_earlier: bool = False    # the substitution was already recorded: this run finished it
    location: str = ""                # the new player's file
    shared: bool = False              # Google: shared with the new player, the old one's access removed


def substitute(store: Store, old: str, new: str, *, email: str = "", history: bool = False,
               progress: Progress | None = None) -> SubstituteResult:
    """Give ``old``'s seat to ``new`` (see the module's docstring). Holds the game's lock."""
    with store.lock("substitute"):
        store.cleanup()
        ld = load(store)
        m = ld.match
        done = next((s for s in m.seats if s["old"] == old and s["new"] == new.strip()), None)
        if done is not None and new.strip() in m.players:
            return _finish(ld, done, progress, earlier=True)
        if old not in m.players:
            raise UsageError(f"{old!r} is not a player of this game; players are {', '.join(m.players)}")
        books = read_every_book(ld, "substitute")   # every book readable before anything is written
        pending = plan(ld, books)
        if pending:   # an earlier command was cut off while publishing: finish it first
            write_all(ld, pending, progress)
        rows = m.substitute(old, new, history=history)
        seat = m.seats[-1]
        new = seat["new"]
        ld.players = [PlayerInfo(new, email.strip(), 0) if p.name == old else p for p in ld.players]
        key = player_key(new)
        ld.identities.update(ID.file_ids(m.seed, m.name, m.players + [f"seat {len(m.seats)}"], [key]))
        # What the old player typed never reaches the new player's Submission tab.
        for entries in ld.saved.values():
            entries.pop(old, None)
        title = f"{m.game.spec.name}: {new}"
        tabs = ID.with_identity(player_tabs(m, new), key, ld.identities)
        info = store.create(key, title, tabs)   # shared with nobody until the master records it
        ld.locations[new] = info.location
        written = [info.location, commit(ld, progress)]
        res = _finish(ld, seat, progress)
        res.written = written + res.written
        res.transferred = sum(r.change for r in rows if r.player == new)
        return res


def _finish(ld: Loaded, seat: dict, progress: Progress | None, earlier: bool = False) -> SubstituteResult:
    """After the master records the seat: redraw the books that show it, then share the new
    player's file with them and take the old player's access away (Google)."""
    m, store = ld.match, ld.store
    old, new = seat["old"], seat["new"]
    books = read_every_book(ld, "substitute")
    written = write_all(ld, plan(ld, books), progress, checked=False)
    emails = {p.name: p.email for p in ld.players if p.email}
    if new in emails:
        store.share(BookInfo(player_key(new), ld.locations[new], f"{m.game.spec.name}: {new}"),
                    writer_email=emails[new])
    old_location = _old_location(ld, old)
    if old_location:
        store.share(BookInfo(player_key(old), old_location, f"{m.game.spec.name}: {old}"))   # nobody
    if ld.board_location and emails:   # the old player leaves the board's readers too
        store.share(BookInfo(BOARD, ld.board_location, f"{m.game.spec.name}: public board"),
                    reader_email=sorted(emails.values()) + ld.cohosts)
    shown = "shows the seat's earlier private results" if seat.get("history") else \
        "starts from the open round (the seat's earlier private results are not shown)"
    message = (f"{new} now holds {old}'s seat from round {m.round}: balance and history kept, {new}'s own file "
               f"{shown}")
    if earlier:
        message = "the substitution was already recorded; finished publishing it: " + message
    return SubstituteResult(old, new, message, written, finished_earlier=earlier, location=ld.locations[new],
                            shared=bool(old_location))


def _old_location(ld: Loaded, old: str) -> str:
    """Where the old player's spreadsheet is (kept in the record's locations); "" for a folder, whose
    files the host hands out (the old file stays in players/, no longer read, and refused by its identity
    if put in another's place)."""
    return "" if ld.store.folder is not None else ld.locations.get(old, "")
