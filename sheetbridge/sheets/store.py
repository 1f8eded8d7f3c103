"""The storage interface: a game lives in a Store of Books (workbooks or spreadsheets).

A round costs one batched read and one batched write per book touched, so the
interface is exactly that: ``read`` several tabs at once, ``write`` several
tabs at once. Privacy comes from book boundaries: the master book is the
host's alone, each player's book is shared with that player only.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, MutableMapping, Sequence

from .model import Rect, TabData

MASTER = "master"
BOARD = "board"
NEW_PROGRESS_FILE = ".sheetbridge-new.json"   # an unfinished `new`, beside sheetbridge.json


def player_key(player: str) -> str:
    return f"player:{player}"


@dataclass(frozen=True)
class BookInfo:
    key: str        # "master", "board" or "player:<name>"
    location: str   # a file path (xlsx) or spreadsheet id (Google)
    title: str


class Book(ABC):
    """One workbook. Reads and writes whole tabs, batched."""

    key: str
    location: str

    @abstractmethod
    def read(self, tabs: Sequence[str]) -> dict[str, Rect]:
        """The named tabs' values as text; a missing tab raises WorkbookError naming the book and tab."""

    @abstractmethod
    def write(self, tabs: Mapping[str, TabData]) -> None:
        """Replace the named tabs' content (creating tabs that do not exist), in one batch."""

    def tab_names(self) -> list[str]:
        """Names of the tabs the book has (used for clear errors about renamed tabs)."""
        raise NotImplementedError

    def remove_tabs(self, tabs: Sequence[str]) -> None:
        """Delete the named tabs (repair removes a renamed Submission tab once its entries are moved)."""
        raise NotImplementedError

    def update_cells(self, tab: str, cells: Mapping[tuple[int, int], object]) -> None:
        """Set single cells, (row, column) 1-based, as literal values, leaving the rest of the tab as it
        is: for a tab another writer appends to at the same time (the Control tab and the menu)."""
        raise NotImplementedError


class Store(ABC):
    """Where one game's books live: a folder of .xlsx files or a set of Google spreadsheets.

    Everything the host uses is declared here, with the default of a backend that lacks it, so the
    host never asks a store what it is: a backend overrides what it offers."""

    backend: str = ""   # its name in the game folder's sheetbridge.json: "xlsx" or "google"
    embeds_pictures: bool = False   # whether a tab's images are written (xlsx); the board then gets a Picture tab
    # Whether writing one cell saves the whole book (xlsx): the master is then written only under the
    # game's lock, and what `watch` writes every poll (its heartbeat) goes to a file of its own.
    rewrites_whole_book: bool = False
    # Whether the players' Submission tabs are protected while a round is locked (Google); a folder's
    # files cannot be, so a locked round's form says so instead.
    locks_forms: bool = False
    # Whether each player's picture is a file of its own linked from their Results tab (Google, see
    # google/pictures.py), rather than embedded in the tab.
    links_pictures: bool = False
    # The folder whose files are the books (xlsx); None when they live elsewhere (Google).
    folder: Path | None = None
    # The host's folder of a game whose books live elsewhere (a Google game's pointer file and caches).
    game_folder: Path | None = None
    # The game's id when the store knows it from the folder's config: saves a metadata read at load.
    game_id: str | None = None
    # Who the game's lock names as its holder (Google co-hosts: the one who asked in the menu);
    # None: the store's lock names this computer.
    lock_who: str | None = None

    def host_folder(self) -> Path | None:
        """The host's folder of this game: the books' folder, or the pointer file's; None if neither."""
        return self.folder if self.folder is not None else self.game_folder

    def config_extra(self) -> dict[str, Any]:
        """What the backend keeps in the game folder's sheetbridge.json beside the game and its files."""
        return {}

    @abstractmethod
    def create(self, key: str, title: str, tabs: Mapping[str, TabData],
               reader_email: str | None = None, writer_email: str | None = None) -> BookInfo:
        """Create a book with these tabs. Google shares it with `writer_email` as writer
        (a player file) or `reader_email` as reader (the public board); nobody else."""

    @abstractmethod
    def open(self, key: str, location: str) -> Book:
        """The existing book `key` at `location` (a path or id recorded in the master)."""

    @abstractmethod
    def master_location(self) -> str:
        """Where the master book is (the store knows it from its folder or config)."""

    def describe(self) -> str:
        return type(self).__name__

    def recreate(self, key: str, location: str, title: str, tabs: Mapping[str, TabData],
                 reader_email: str | None = None, writer_email: str | None = None) -> BookInfo:
        """Create a book anew in place of a missing or unreadable one at `location` (repair).
        The returned location may differ (a new spreadsheet); the old file is never deleted."""
        return self.create(key, title, tabs, reader_email=reader_email, writer_email=writer_email)

    def cleanup(self) -> None:
        """Remove what a killed run left behind (temporary files). Called while holding the lock."""
        return None

    # Ids a store needs to avoid metadata reads (Google sheet ids). The host
    # keeps them in the master workbook: export before writing it, import after reading it.
    def export_cache(self) -> dict[str, Any]:
        return {}

    def import_cache(self, data: Mapping[str, Any]) -> None:
        return None

    def prepare_write(self, key: str, location: str | None, tabs: Mapping[str, TabData]) -> bool:
        """Before drawing a record that carries ``export_cache``: get ready to write ``tabs`` to
        book ``key`` (``location`` None: it is about to be created), so that the export describes
        the book as that write will leave it. True if the export changed: draw the record again."""
        return False

    def expect_master_read(self, tabs: Sequence[str], record: str | None = None) -> None:
        """A hint: the commands of this store read these master tabs first (``record``: the tab only
        a commit changes). Google fetches them with the game lock's first read; others ignore it."""
        return None

    # Books a command may read or write at once (the player files and the board; Google: one
    # request each, so they overlap their waits). 1: one after another.
    publish_workers: int = 1

    # One command at a time per game: every command that reads or writes a game holds its lock.
    @abstractmethod
    def lock(self, command: str) -> AbstractContextManager[None]:
        """Hold this game's lock for the duration of `command` ("resolve", "undo"...).

        Raises :class:`~sheetbridge.core.errors.GameBusy` at once, naming the holder
        ("another sheetbridge is working on this game (resolve since 12:03 UTC, pid 4411)..."),
        when another process holds it. Re-entrant within one process."""

    # Creating a game (host/new.py): every book is created and filled, then shared.
    def begin_creation(self, journal: MutableMapping[str, Any], save: Callable[[], None]) -> None:
        """`new` is about to create books: record each one in ``journal["books"]`` as soon as
        it exists (and ``save()``), and reuse the ones an earlier, failed run recorded there.
        Books in a folder are simply written again: nothing to do."""
        return None

    def end_creation(self) -> list[str]:
        """Every book is written: remove leftovers of earlier failed runs that this game does
        not use. Returns one line per leftover removed (for the host)."""
        return []

    def share(self, info: BookInfo, reader_email: str | Sequence[str] | None = None,
              writer_email: str | None = None) -> None:
        """Give exactly these people access to a created book (Google); files in a folder are
        handed out by the host: nothing to do."""
        return None
