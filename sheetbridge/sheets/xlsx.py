"""Offline games as .xlsx files in a folder.

    game/master.xlsx          the host's workbook (config, players, rounds, ledger, board, record)
    game/players/<name>.xlsx  one per player: Submission, Results, Board
    game/board.xlsx           the public board, safe to share with everyone

Reads go through python-calamine and writes of whole books through XlsxWriter
(``xlsx_fast.py``: a round's reads and writes are those). openpyxl does the
rest: a write of only some of a book's tabs (a player's entries typed by the
demo, the master's Preview or Control tab), ``update_cells``, ``remove_tabs``,
and reading a tab that holds a formula typed by a player.

Writes are atomic (a temporary file renamed over the old one) and
deterministic: the same content gives the same bytes, because the zip entry
times and the document's created/modified stamps are fixed.
"""
from __future__ import annotations

import io
import json
import os
import platform
import re
import tempfile
import threading
import time
import warnings
import zipfile
from contextlib import contextmanager
from copy import copy
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Sequence

from ..core.errors import GameBusy, WorkbookError
from . import xlsx_fast as fast
from .folder_lock import FolderLock, LockHeld
from .cell_reading import openpyxl_reading, put_back_dates, unescape
from .model import CellData, Rect, TabData, normalise
from .store import BOARD, MASTER, Book, BookInfo, Store

if TYPE_CHECKING:   # openpyxl (0.14 s with the numpy it imports) is imported where it is used, not by a round's
    from openpyxl import Workbook   # reads and writes of whole books (calamine and XlsxWriter, issue 31)

LOCK_FILE = ".sheetbridge.lock"
TMP_DIR = ".sheetbridge-tmp"
HEARTBEAT_FILE = ".sheetbridge-watch.json"   # `watch`'s heartbeat: a file of its own, not the master
_HELD: dict[tuple[Path, int], tuple[FolderLock, int]] = {}   # (lock path, thread) -> (lock, depth)
_TAKEN_AT: dict[tuple[Path, int], float] = {}   # (lock path, thread) -> when the lock was taken (time.time)
LIST_COLUMN = fast.LIST_COLUMN   # first hidden column holding long dropdown lists (1-based)
_FIXED_ZIP_TIME = fast.FIXED_ZIP_TIME
_FIXED_STAMP = "2000-01-01T00:00:00Z"
BOOK_FONT, BOOK_FONT_SIZE = fast.BOOK_FONT, fast.BOOK_FONT_SIZE   # a new workbook's default font
PORTRAIT_COLUMNS = fast.PORTRAIT_COLUMNS   # widest tab (in characters) printed on a portrait page


class XlsxBook(Book):
    def __init__(self, key: str, path: Path, location: str, tmp_dir: Path | None = None,
                 shared: fast.SharedTabs | None = None, opened: OpenedBooks | None = None) -> None:
        self.key = key
        self.path = path
        self.location = location
        self.tmp_dir = tmp_dir
        self.shared = shared   # tabs drawn for the store's other books (the public board, drawn once)
        self.opened = opened   # the store's books read before, while unchanged

    def _load(self, read_only: bool):
        from openpyxl import load_workbook   # only a write of some tabs, or of cells, needs it (issue 31)
        if not self.path.exists():
            raise WorkbookError(f"{self.path}: file not found; was it moved or renamed? "
                                f"The master workbook expects it at {self.location}")
        try:
            with warnings.catch_warnings():   # (a date cell that is no date...: never on the host's terminal)
                warnings.simplefilter("ignore")
                return load_workbook(self.path, read_only=read_only)
        except (zipfile.BadZipFile, KeyError, OSError, ValueError) as e:
            raise WorkbookError(f"{self.path}: not a readable .xlsx workbook ({type(e).__name__}); "
                                "restore it from a backup or re-create it") from None

    def _bytes(self) -> bytes:
        try:
            return self.path.read_bytes()
        except OSError as e:   # (asked only now: a round reads every book, and each is there)
            if not self.path.exists():
                raise WorkbookError(f"{self.path}: file not found; was it moved or renamed? "
                                    f"The master workbook expects it at {self.location}") from None
            raise self._unreadable(type(e).__name__) from None

    def _unreadable(self, why: str) -> WorkbookError:
        return WorkbookError(f"{self.path}: not a readable .xlsx workbook ({why}); "
                             "restore it from a backup or re-create it")

    def _open_fast(self, data: bytes):
        try:
            return fast.open_book(data)
        except fast.ReadFailed as e:
            raise self._unreadable(str(e)) from None

    def _opened(self) -> fast.Opened:
        """The file read and opened, or as the store read and opened it before if it is unchanged."""
        return self._opened_now() if self.opened is None else self.opened.get(self.path, self._opened_now)

    def _opened_now(self) -> fast.Opened:
        data = self._bytes()
        return fast.Opened(data, self._open_fast(data))

    def tab_names(self) -> list[str]:
        if self.opened is not None:
            names = self.opened.names(self.path)
            if names is not None:
                return names
        return list(self._opened().book.sheet_names)

    def read(self, tabs: Sequence[str]) -> dict[str, Rect]:
        if self.opened is not None:
            kept = self.opened.values(self.path, tabs)
            if kept is not None:   # (the master's record, read again just before the commit's compare-and-set)
                return kept
        opened = self._opened()
        names = list(opened.book.sheet_names)
        for name in tabs:
            if name not in names:
                raise WorkbookError(f"{self.path}: no tab named {name!r} (tabs: {', '.join(names)}); "
                                    f"if it was renamed, rename it back to {name!r}")
        try:
            rects = fast.read_values(opened, tabs, lambda some: self._read_openpyxl(opened.data, some))
        except fast.ReadFailed as e:
            raise self._unreadable(str(e)) from None
        if self.opened is not None:
            self.opened.keep_values(self.path, opened, rects)
        return rects

    def _read_openpyxl(self, data: bytes, tabs: Sequence[str]) -> dict[str, Rect]:
        """A read that sees formulas as their text ("=1+2") and error cells as their code ("#N/A")."""
        from openpyxl import load_workbook   # only a book holding a formula or an error cell needs it
        try:
            wb = load_workbook(io.BytesIO(data), read_only=True)
        except (zipfile.BadZipFile, KeyError, OSError, ValueError) as e:
            raise self._unreadable(type(e).__name__) from None
        try:
            return {name: _read_tab(wb[name]) for name in tabs}
        except (ValueError, OverflowError, KeyError) as e:   # a number or date openpyxl cannot take
            raise self._unreadable(type(e).__name__) from None
        finally:
            wb.close()

    def write(self, tabs: Mapping[str, TabData]) -> None:
        existing = self.tab_names()
        if set(existing) <= set(tabs):
            # Every tab is replaced: the book is written afresh, by the fast writer.
            order = existing + [t for t in tabs if t not in existing]
            replace_atomically(self.path, fast.book_bytes({name: tabs[name] for name in order}, shared=self.shared),
                               self.tmp_dir)
        else:
            # Some tabs only: openpyxl carries the others over as they are.
            wb = self._load(read_only=False)
            _fill_book(wb, tabs)
            _save(wb, self.path, self.tmp_dir)

    def update_cells(self, tab: str, cells: Mapping[tuple[int, int], object]) -> None:
        wb = self._load(read_only=False)
        if tab not in wb.sheetnames:
            raise WorkbookError(f"{self.path}: no tab named {tab!r}")
        ws = wb[tab]
        for (r, c), value in cells.items():
            _set_value(ws.cell(row=r, column=c), value)
        _save(wb, self.path, self.tmp_dir)

    def remove_tabs(self, tabs: Sequence[str]) -> None:
        wb = self._load(read_only=False)
        for name in tabs:
            if name in wb.sheetnames and len(wb.sheetnames) > 1:
                wb.remove(wb[name])
        _save(wb, self.path, self.tmp_dir)


class XlsxStore(Store):
    """A folder holding one game's workbooks."""

    backend = "xlsx"
    embeds_pictures = True

    def __init__(self, folder: str | os.PathLike) -> None:
        self.folder = Path(folder)
        self.shared = fast.SharedTabs()   # a round's books share the public board's tab: drawn once
        self.opened = OpenedBooks()       # a book read is not read again to write it, while unchanged

    @contextmanager
    def lock(self, command: str) -> Iterator[None]:
        """An OS file lock on ``.sheetbridge.lock`` in the game folder (released by the OS if the
        process dies, so a crash never leaves the game locked); ``.sheetbridge.lock.json`` says who holds it."""
        path = self.folder.resolve() / LOCK_FILE
        mine = (path, threading.get_ident())
        held = _HELD.get(mine)
        if held is not None:          # re-entrant within one thread (demo calls resolve)
            _HELD[mine] = (held[0], held[1] + 1)
            try:
                yield
            finally:
                _HELD[mine] = (held[0], _HELD[mine][1] - 1)
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        info = path.with_name(LOCK_FILE + ".json")
        try:
            flock = FolderLock(str(path))
        except LockHeld:
            raise GameBusy(_busy_message(info)) from None
        _HELD[mine] = (flock, 1)
        _TAKEN_AT[mine] = time.time()
        try:
            _write_text_atomic(info, json.dumps({"command": command, "pid": os.getpid(),
                                                 "since": _utc_now(), "host": platform.node()}))   # (not socket: 3 ms)
            yield
        finally:
            _HELD.pop(mine, None)
            _TAKEN_AT.pop(mine, None)
            try:
                info.unlink()
            except OSError:
                pass
            flock.release()

    def describe(self) -> str:
        return f"folder {self.folder}"

    @property
    def tmp_dir(self) -> Path:
        """Where files are written before being renamed into place: never a player's folder."""
        return self.folder / TMP_DIR

    # Any write, even of one cell, saves the whole file: a write that is not under the game's lock
    # could put back a master older than a round committed meanwhile (see watch.py).
    rewrites_whole_book = True

    def cleanup(self) -> None:
        """Temporary files a killed run left (ours, and the .tmp-*.xlsx older versions wrote beside files).

        Only by the thread holding the game's lock, and only files written before it took the lock:
        a temporary file another live process is writing is never deleted under its feet."""
        mine = (self.folder.resolve() / LOCK_FILE, threading.get_ident())
        taken_at = _TAKEN_AT.get(mine)
        if taken_at is None:
            return
        leftovers = list(self.tmp_dir.glob("*")) if self.tmp_dir.is_dir() else []
        for sub in (self.folder, self.folder / "players"):
            if sub.is_dir():
                leftovers += list(sub.glob(".tmp-*.xlsx"))
        for path in leftovers:
            try:
                if path.stat().st_mtime <= taken_at:
                    path.unlink()
            except OSError:
                pass

    def recreate(self, key: str, location: str, title: str, tabs: Mapping[str, TabData],
                 reader_email: str | None = None, writer_email: str | None = None) -> BookInfo:
        """Move an unreadable file aside into broken/ (nothing is deleted), then create it anew."""
        path = self.folder / location
        if path.exists():
            stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
            aside = self.folder / "broken" / f"{path.stem}-{stamp}{path.suffix}"
            aside.parent.mkdir(parents=True, exist_ok=True)
            os.replace(path, aside)
        return self.create(key, title, tabs, reader_email=reader_email, writer_email=writer_email)

    @staticmethod
    def location_for(key: str) -> str:
        if key == MASTER:
            return "master.xlsx"
        if key == BOARD:
            return "board.xlsx"
        if key.startswith("player:"):
            return f"players/{key.split(':', 1)[1]}.xlsx"
        raise ValueError(key)

    def create(self, key: str, title: str, tabs: Mapping[str, TabData],
               reader_email: str | None = None, writer_email: str | None = None) -> BookInfo:
        location = self.location_for(key)
        replace_atomically(self.folder / location, fast.book_bytes(tabs, title, self.shared), self.tmp_dir)
        return BookInfo(key, location, title)

    def open(self, key: str, location: str) -> XlsxBook:
        return XlsxBook(key, self.folder / location, location, self.tmp_dir, self.shared, self.opened)

    def master_location(self) -> str:
        return "master.xlsx"


# ------------------------------------------------------------ writing

def _fill_book(wb: Workbook, tabs: Mapping[str, TabData]) -> None:
    order = list(tabs)
    for name, tab in tabs.items():
        if name in wb.sheetnames:
            index = wb.sheetnames.index(name)
            wb.remove(wb[name])
            ws = wb.create_sheet(name, index)
        else:   # a new tab goes before the first existing tab that follows it in `tabs`
            after = [wb.sheetnames.index(n) for n in order[order.index(name) + 1:] if n in wb.sheetnames]
            ws = wb.create_sheet(name, min(after) if after else None)
        _fill_sheet(ws, tab)


_ESCAPE_LIKE = re.compile(r"_(?=x[0-9A-Fa-f]{4}_)")


def _read_tab(ws) -> Rect:
    """One tab through openpyxl, read as calamine reads it (``cell_reading.py``): escapes decoded,
    numbers as doubles, a date serial that is no date as its number, no warning printed."""
    with openpyxl_reading() as bad_dates:
        rows = [[unescape(v) for v in row] for row in ws.iter_rows(values_only=True)]
    put_back_dates(rows, bad_dates)
    return normalise(rows)


def _escaped_cell_string(value: str) -> str:
    """The text openpyxl is given. Excel and LibreOffice read "_x0041_" in a file as an escaped "A", so
    the underscore of such a sequence is escaped ("_x005F_"); openpyxl writes text as it is given.
    The text is the one the fast writer stores (:func:`.xlsx_fast.cell_text`): shortened further when
    the escapes would push it over the cell limit (openpyxl would cut it silently)."""
    text = fast.cell_text(value)
    return _ESCAPE_LIKE.sub("_x005F_", text) if "_x" in text else text


def _set_value(cell, value) -> None:
    if isinstance(value, str):
        cell.value = _escaped_cell_string(value)
        cell.data_type = "s"  # player text is literal: never a formula ("=1+2") nor an error ("#N/A")
    else:
        cell.value = value


_ALIGN = {"left": "left", "center": "center", "right": "right", "top": "top", "middle": "center",
          "bottom": "bottom"}


def _styled(data: CellData) -> bool:
    return bool(data.fill or data.bold or data.font or data.size or data.choices or data.input
                or data.wrap or data.align or data.valign)


def _style(cell, data: CellData) -> None:
    from openpyxl.styles import Alignment, Font, PatternFill, Protection   # (openpyxl: see the imports)
    if data.fill:
        cell.fill = PatternFill("solid", start_color=data.fill, end_color=data.fill)
    if data.bold or data.font or data.size:
        # Named as the book's default font: without a name LibreOffice falls back to a serif face.
        cell.font = Font(name=BOOK_FONT, size=data.size or BOOK_FONT_SIZE, bold=data.bold, color=data.font)
    if data.wrap or data.align or data.valign:
        cell.alignment = Alignment(wrap_text=data.wrap or None, horizontal=_ALIGN.get(data.align or ""),
                                   vertical=_ALIGN.get(data.valign or ""))
    if data.input:
        cell.protection = Protection(locked=False)


def _fill_sheet(ws, tab: TabData) -> None:
    from openpyxl.drawing.image import Image as OpenpyxlImage   # openpyxl only on its paths (see the imports)
    from openpyxl.utils import get_column_letter
    from openpyxl.worksheet.cell_range import CellRange
    from openpyxl.worksheet.datavalidation import DataValidation
    from openpyxl.worksheet.merge import MergedCellRange
    lists: dict[tuple[str, ...], int] = {}  # long dropdown lists live in hidden columns of the same tab
    validations: dict[tuple[str, ...], list[str]] = {}
    styles: dict[tuple, Any] = {}  # a style applied once, then copied: openpyxl's style objects are slow to compare
    for r, row in enumerate(tab.rows, start=1):
        for c, data in enumerate(row, start=1):
            if data.value is None and not _styled(data):
                continue
            cell = ws.cell(row=r, column=c)
            _set_value(cell, data.value)
            key = (data.fill, data.bold, data.font, data.size, data.wrap, data.align, data.valign, data.input)
            if key in styles:
                cell._style = copy(styles[key])
            else:
                _style(cell, data)
                styles[key] = copy(cell._style)
            if data.choices:
                validations.setdefault(tuple(data.choices), []).append(cell.coordinate)
    for choices, cells in validations.items():
        inline = ",".join(choices)
        if len(inline) <= 250 and not any(ch in inline for ch in '"') and all("," not in c for c in choices):
            formula = f'"{inline}"'
        else:
            col_no = LIST_COLUMN + len(lists)
            lists[choices] = col_no
            for i, c in enumerate(choices, start=1):
                _set_value(ws.cell(row=i, column=col_no), c)
            ws.column_dimensions[get_column_letter(col_no)].hidden = True
            col = get_column_letter(col_no)
            formula = f"${col}$1:${col}${len(choices)}"
        dv = DataValidation(type="list", formula1=formula, allow_blank=True, showErrorMessage=True,
                            errorStyle="warning", errorTitle="Not an allowed value",
                            error="sheetbridge will apply the rules' default for a value not on the list.")
        for coord in cells:
            dv.add(coord)
        ws.add_data_validation(dv)
    for r0, c0, r1, c1 in tab.merges:
        # Added as ranges: ws.merge_cells would also rebuild every covered cell and its borders (slow);
        # the covered cells hold no value, only the fill the band shows in every program.
        ws.merged_cells.add(MergedCellRange(ws, CellRange(min_row=r0 + 1, min_col=c0 + 1, max_row=r1,
                                                          max_col=c1).coord))
    for col, width in tab.col_widths.items():
        ws.column_dimensions[get_column_letter(col + 1)].width = width
    for row, height in tab.row_heights.items():
        ws.row_dimensions[row + 1].height = height
    for image in tab.images:
        picture = OpenpyxlImage(io.BytesIO(image.png))
        picture.anchor = f"{get_column_letter(image.col + 1)}{image.row + 1}"
        ws.add_image(picture)
    if tab.frozen_rows:
        ws.freeze_panes = ws.cell(row=tab.frozen_rows + 1, column=1)
    # Printed (or exported to PDF) one page wide, so nothing is cut at the page's right edge;
    # a wide tab on a landscape page, so that it is not shrunk too small to read.
    ws.sheet_properties.pageSetUpPr.fitToPage = True
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    if sum(tab.col_widths.values()) > PORTRAIT_COLUMNS:
        ws.page_setup.orientation = "landscape"
    if tab.hidden:
        ws.sheet_state = "hidden"
    if tab.protected:
        # Players may resize rows and columns, nothing else but the unlocked input cells: inserting or
        # deleting rows would move the form under sheetbridge's feet. No password: the host can lift it.
        ws.protection.sheet = True
        ws.protection.formatColumns = False
        ws.protection.formatRows = False


def _save(wb: Workbook, path: Path, tmp_dir: Path | None = None) -> None:
    """Save atomically with fixed timestamps, so equal content gives equal bytes."""
    buf = io.BytesIO()
    wb.save(buf)
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as src, \
            zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info.filename)
            if info.filename == "docProps/core.xml":
                data = re.sub(rb"(<dcterms:(?:created|modified)[^>]*>)[^<]*(</dcterms:)",
                              rb"\g<1>" + _FIXED_STAMP.encode() + rb"\g<2>", data)
            zi = zipfile.ZipInfo(info.filename, date_time=_FIXED_ZIP_TIME)
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = 0o600 << 16
            dst.writestr(zi, data)
    replace_atomically(path, out.getvalue(), tmp_dir)


class OpenedBooks:
    """The books a store read, kept while their file is unchanged (the same inode, size, modification
    and change times, before and after the read), so that a command does not read and open a book
    again: a resolve reads every book, then asks each book's tab names to write it whole; it reads the
    master several times. Every book's tab names are kept; the last few books, opened."""

    def __init__(self, size: int = 4) -> None:
        self.size = size
        self._names: dict[Path, tuple[tuple, list[str]]] = {}
        self._opened: dict[Path, tuple[tuple, fast.Opened]] = {}   # least recently used first
        self._values: dict[Path, tuple[tuple, dict[str, Rect]]] = {}   # every book's tabs read, while unchanged
        self._lock = threading.Lock()

    def values(self, path: Path, tabs: Sequence[str]) -> dict[str, Rect] | None:
        """What a read of `tabs` gave before (copies), if the book at `path` is unchanged since."""
        signature = _signature(path)
        with self._lock:
            kept = self._values.get(path)
        if not signature or not kept or kept[0] != signature or any(t not in kept[1] for t in tabs):
            return None
        return {t: [list(row) for row in kept[1][t]] for t in tabs}

    def keep_values(self, path: Path, opened: fast.Opened, rects: Mapping[str, Rect]) -> None:
        """Keep what a read of `opened` gave, if `opened` is the book at `path` as it still is."""
        with self._lock:
            kept = self._opened.get(path)
            if kept is None or kept[1] is not opened:
                return
            values = self._values.get(path)
            if values is None or values[0] != kept[0]:
                values = self._values[path] = (kept[0], {})
            values[1].update({name: [list(row) for row in rect] for name, rect in rects.items()})

    def names(self, path: Path) -> list[str] | None:
        """The tab names of the book at `path`, if it was read unchanged."""
        signature = _signature(path)
        with self._lock:
            kept = self._names.get(path)
        return list(kept[1]) if signature and kept and kept[0] == signature else None

    def get(self, path: Path, read: Callable[[], fast.Opened]) -> fast.Opened:
        """The book at `path` as it was opened before if it is unchanged, or `read()` and kept."""
        signature = _signature(path)
        with self._lock:
            kept = self._opened.pop(path, None)
            if signature and kept and kept[0] == signature:
                self._opened[path] = kept
                return kept[1]
        opened = read()
        if signature and _signature(path) == signature:   # (not replaced while it was read)
            with self._lock:
                self._names[path] = (signature, list(opened.book.sheet_names))
                self._opened[path] = (signature, opened)
                while len(self._opened) > self.size:
                    del self._opened[next(iter(self._opened))]
        return opened


def _signature(path: Path) -> tuple | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns


def replace_atomically(path: Path, data: bytes, tmp_dir: Path | None = None) -> None:
    """Put `data` at `path` atomically: written in `tmp_dir` (default: beside `path`; never a
    player's folder) as ``.tmp-*`` with `path`'s suffix, then renamed, so a reader (or a kill) never
    sees half a file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp_dir = tmp_dir or path.parent
    tmp_dir.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=path.suffix, dir=tmp_dir)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; a host expects ordinary file permissions
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


# ------------------------------------------------------------ the game lock

def _utc_now() -> str:
    return time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())


def _busy_message(info: Path) -> str:
    try:
        holder = json.loads(info.read_text(encoding="utf-8"))
        who = f"{holder.get('command', '?')} since {holder.get('since', '?')}, pid {holder.get('pid', '?')}"
    except (OSError, ValueError):
        who = "it just started"
    return f"another sheetbridge is working on this game ({who}); try again when it ends"


def _write_text_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)
