"""The fast path of the xlsx backend: python-calamine reads values, XlsxWriter writes whole books.

openpyxl builds an object per cell and per style to read or to write a file; a round needs neither:
a read wants values only, and a resolve replaces every tab of the books it writes. So:

- :func:`read_values` reads tabs with calamine (Rust), values only. A book holding a formula or an
  error cell (typed by a player in a spreadsheet program) is read with openpyxl instead, which
  reports a formula as its text (``"=1+2"``) and an error as its code (``"#N/A"``), as it always
  has: calamine would give the formula's cached result, or nothing.
- :func:`book_bytes` writes a whole book: XlsxWriter writes the package, the styles (one format per
  distinct look), frozen rows, hidden tabs, margins and sheet protection; we write four elements
  of each tab's XML ourselves and put them in its place: the cells (``<sheetData>``, with row
  heights), ``<cols>``, ``<mergeCells>`` and ``<pageSetup>``, and put in the dropdowns
  (``<dataValidations>``, written by XlsxWriter's code for the tab alone). The cells because
  XlsxWriter's own cost most of the time of a write (an object and several calls per cell) and its
  text escaping garbles overlapping ``_xHHHH_`` sequences and takes a text shaped like
  ``<r>...</r>`` for raw XML; the widths because it rounds them to whole pixels; the merges
  because its ``merge_range`` also writes every covered cell; the page setup because it leaves
  out ``fitToWidth="1"``. Each look's index in styles.xml is read back from the one cell per look
  XlsxWriter is given. Text is stored inline (``t="inlineStr"``), as openpyxl stored it.

A tab's part of this (its cells, widths, merges, page setup, looks and dropdowns: :func:`_draw`)
does not depend on the book it goes into but for each look's index in styles.xml, left as "{n}";
XlsxWriter's part (:func:`_skeleton`: the package, styles.xml, each tab's XML around ours) depends
on the tabs' names and structures alone (their looks in order, pictures, frozen rows, hidden,
protected), not on their cells or dropdowns: it is given the tab's looks in the first cells of the tab.
:class:`SharedTabs` keeps the last few tabs drawn, packages made and parts deflated, so that a round
draws the public board once for every player's book, makes the package of the players' books of
one structure once, and deflates each part they share once (the store keeps one). XlsxWriter hands
its parts over as it makes them (:func:`_parts_kept`), and the book is packed once, compressed
(:func:`_pack`, as zipfile packs it; zipfile cannot take a part already deflated).

The result is what the openpyxl writer in ``xlsx.py`` gives (tests/test_xlsx_writers.py compares
them cell by cell), and the same tabs give the same bytes: fixed dates, fixed zip entry times.
"""
from __future__ import annotations

import dataclasses
import datetime as dt
import io
import math
import re
import struct
import threading
import warnings
import zipfile
import zlib
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Mapping, Sequence

import xlsxwriter
import xlsxwriter.workbook
import xlsxwriter.worksheet
from python_calamine import CalamineError, CalamineWorkbook

from .cell_reading import has_surrogate_escape
from .model import (HELPER_COLUMN, XLSX_CELL_LIMIT, CellData, Rect, TabData, cell_string, is_plain, normalise,
                    stored_text, text_of)

LIST_COLUMN = HELPER_COLUMN + 1  # first hidden column holding long dropdown lists (1-based)
FIXED_DATE = dt.datetime(2000, 1, 1)          # the books' created and modified stamps
FIXED_ZIP_TIME = (2000, 1, 1, 0, 0, 0)
BOOK_FONT, BOOK_FONT_SIZE = "Calibri", 11     # the default font of a new book (openpyxl's and XlsxWriter's)
PORTRAIT_COLUMNS = 100                        # widest tab (in characters) printed on a portrait page
# Page margins in inches, as openpyxl writes them (the printed pages stay as they were).
MARGINS = {"left": 0.75, "right": 0.75, "top": 1.0, "bottom": 1.0}
HEADER_MARGIN = 0.5
VALIDATION = {"ignore_blank": True, "show_input": False, "show_error": True, "error_type": "warning",
              "error_title": "Not an allowed value",
              "error_message": "sheetbridge will apply the rules' default for a value not on the list."}
# calamine reads every number as a float: an int beyond 2**53 is written as its text, so that a read
# gives it back exactly (a read gives text anyway).
_EXACT_INT = 2 ** 53

_ESCAPE_LIKE = re.compile(r"_(?=x[0-9A-Fa-f]{4}_)")
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f]")
# An <f> element (also with a namespace prefix: <x:f>), or a cell of type "e" (an error such as #N/A).
_FORMULA_MARKS = (b"<f>", b"<f ", b"<f/>", b":f>", b":f ", b't="e"', b"t='e'")
_STYLED_CELL = re.compile(rb'<c r="([A-Z]+[0-9]+)" s="([0-9]+)"/>')
_MAX_COLUMNS = 16_384   # a tab's columns


class ReadFailed(Exception):
    """The bytes are not a readable .xlsx workbook (the caller names the file)."""


# ------------------------------------------------------------ reading

def open_book(data: bytes) -> CalamineWorkbook:
    """The book in `data` (its tab names: ``.sheet_names``), for :func:`read_values`."""
    try:
        return CalamineWorkbook.from_filelike(io.BytesIO(data))
    except CalamineError as e:
        raise ReadFailed(type(e).__name__) from None
    except BaseException as e:   # calamine panics (pyo3's PanicException) on some damaged files
        if type(e).__name__ == "PanicException":
            raise ReadFailed("damaged") from None
        raise


@dataclass
class Opened:
    """A book's bytes and calamine's book of them (:func:`open_book`), for :func:`read_values`."""
    data: bytes
    book: CalamineWorkbook
    formulas: dict[tuple[str, ...], bool] = dataclasses.field(default_factory=dict)   # tabs -> :func:`_needs_openpyxl`


def read_values(opened: Opened, tabs: Sequence[str],
                slow: Callable[[Sequence[str]], dict[str, Rect]]) -> dict[str, Rect]:
    """The named tabs of the book (all present: the caller checked) as text rectangles, as openpyxl
    reads them. `slow` reads tabs with openpyxl: used when the tabs hold a formula or an error cell."""
    asked = tuple(sorted(tabs))
    formulas = opened.formulas.get(asked)
    if formulas is None:
        formulas = opened.formulas[asked] = _needs_openpyxl(opened.data, tabs)
    if formulas:
        return slow(tabs)
    out: dict[str, Rect] = {}
    for name in tabs:
        try:
            with warnings.catch_warnings():   # a library's warning is never printed on the host's terminal
                warnings.simplefilter("ignore")
                rows = opened.book.get_sheet_by_name(name).to_python(skip_empty_area=False)
        except CalamineError as e:
            raise ReadFailed(type(e).__name__) from None
        except BaseException as e:
            if type(e).__name__ == "PanicException":
                raise ReadFailed("damaged") from None
            raise
        # (a date-formatted whole day is a datetime, as openpyxl gives it: calamine gives a date)
        out[name] = normalise(rows, _as_openpyxl)
    return out


def _needs_openpyxl(data: bytes, tabs: Sequence[str] | None = None) -> bool:
    """Does any of `tabs` (None: every tab) hold a formula (an <f> element) or an error cell
    (t="e"), or any text an escaped surrogate (``_xD83D_``, which calamine leaves undecoded: see
    ``cell_reading.py``)? Only the parts of the tabs read are looked at: a player's Results and
    Board tabs grow with every round, and a round reads their Submission tab alone."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            parts = _sheet_parts(z, tabs) if tabs is not None else None
            for info in z.infolist():
                sheet = info.filename.startswith("xl/worksheets/sheet")
                if sheet and parts is not None and info.filename not in parts:
                    continue
                if sheet or info.filename == "xl/sharedStrings.xml":
                    part = z.read(info)
                    if sheet and _has_formula_mark(part) or has_surrogate_escape(part):
                        return True
            return False
    except (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, OSError, ValueError, EOFError) as e:
        raise ReadFailed(type(e).__name__) from None


def _has_formula_mark(part: bytes) -> bool:
    """Does a sheet's XML hold one of :data:`_FORMULA_MARKS`? Three regular expressions, each led by
    a literal that the engine looks for first: on a master's large Record and Ledger parts about three
    times quicker than the seven substring tests they replace (tests/test_fast_paths_read.py compares
    them). A dropdown's <formula1> is the only other "<f" of our books."""
    return (_ELEMENT_F.search(part) is not None or _PREFIXED_F.search(part) is not None
            or _ERROR_CELL.search(part) is not None)


_ELEMENT_F = re.compile(rb"<f(?:[> ]|/>)")        # <f>, <f ...>, <f/>
_PREFIXED_F = re.compile(rb":f[> ]")              # <x:f>, <x:f ...>
_ERROR_CELL = re.compile(rb"t=(?:\"e\"|'e')")      # t="e", t='e'


_RELS_NS = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"


def _sheet_parts(z: zipfile.ZipFile, tabs: Sequence[str]) -> frozenset[str] | None:
    """The zip entries of the named tabs (workbook.xml names them, its rels file says where they
    are); None, meaning every tab, when the book does not say so plainly."""
    try:
        book_xml, rels_xml = z.read("xl/workbook.xml"), z.read("xl/_rels/workbook.xml.rels")
    except KeyError:
        return None
    key = (book_xml, rels_xml, tuple(tabs))
    with _PARTS_LOCK:
        if key in _PARTS:
            return _PARTS[key]
    parts = _parts_named(book_xml, rels_xml, tabs)
    with _PARTS_LOCK:
        _PARTS[key] = parts
        while len(_PARTS) > _PARTS_KEPT:
            del _PARTS[next(iter(_PARTS))]
    return parts


# What :func:`_parts_named` found, by the two parts' whole bytes and the tabs asked: a round reads
# many books of one structure (every player's), whose workbook.xml and rels are the same bytes.
_PARTS: dict[tuple[bytes, bytes, tuple[str, ...]], frozenset[str] | None] = {}
_PARTS_KEPT = 16
_PARTS_LOCK = threading.Lock()


def _parts_named(book_xml: bytes, rels_xml: bytes, tabs: Sequence[str]) -> frozenset[str] | None:
    """:func:`_sheet_parts` from the bytes of workbook.xml and its rels file."""
    from xml.etree import ElementTree as ET   # (two small parts: the standard parser is enough)
    try:
        book = ET.fromstring(book_xml)
        rels = ET.fromstring(rels_xml)
    except ET.ParseError:
        return None
    targets = {rel.get("Id"): rel.get("Target", "") for rel in rels}
    wanted = set(tabs)
    parts: set[str] = set()
    for sheet in book.iter():
        if sheet.tag.endswith("}sheet") and sheet.get("name") in wanted:
            target = targets.get(sheet.get(_RELS_NS + "id"))
            if not target:
                return None
            parts.add(target.lstrip("/") if target.startswith("/") else "xl/" + target)
    return frozenset(parts) if len(parts) == len(wanted) else None


def _as_openpyxl(value: Any) -> Any:
    """A calamine value as openpyxl gives it, so a read reports the same text: a date-formatted
    whole day is a datetime (calamine gives a date)."""
    if type(value) is dt.date:
        return dt.datetime(value.year, value.month, value.day)
    return value


# ------------------------------------------------------------ writing

def cell_text(value: str) -> str:
    """The text stored for a string, by either writer: :func:`~.model.cell_string` at the cell limit,
    shortened further when escaping its "_xHHHH_"-like sequences (``xlsx.py``) would make it longer
    than the limit, so that both writers store the same text."""
    text = stored_text(value)
    fits = len(text) <= XLSX_CELL_LIMIT // 2 or len(text.encode("utf-16-le", "surrogatepass")) <= 2 * XLSX_CELL_LIMIT
    if fits and ("_x" not in text or len(_ESCAPE_LIKE.sub("_x005F_", text)) <= XLSX_CELL_LIMIT):
        return text   # (what cell_string gives for a text that fits, without counting in Python)
    room = XLSX_CELL_LIMIT
    while True:
        text = cell_string(value, room)
        escaped = _ESCAPE_LIKE.sub("_x005F_", text) if "_x" in text else text
        if len(escaped) <= XLSX_CELL_LIMIT:
            return text
        room -= len(escaped) - XLSX_CELL_LIMIT


def book_bytes(tabs: Mapping[str, TabData], title: str | None = None, shared: SharedTabs | None = None) -> bytes:
    """A whole .xlsx book holding `tabs` in order (the same bytes for the same tabs). `shared`: tabs
    and packages already made for other books (a round writes the same public board into every
    player's book, and every player's book has the same structure)."""
    drawn = {f"xl/worksheets/sheet{n}.xml": (name, shared.drawn(tab) if shared else _draw(tab))
             for n, (name, tab) in enumerate(tabs.items(), start=1)}
    skeleton = shared.skeleton(title, list(drawn.values())) if shared else _skeleton(title, list(drawn.values()))
    return _finish(skeleton, {part: d for part, (_, d) in drawn.items()}, shared)


def _skeleton(title: str | None, tabs: Sequence[tuple[str, _Drawn]]) -> _Skeleton:
    """XlsxWriter's package for a book of these tabs: everything but our part of each tab's XML,
    which depends on the tabs' structures alone (:attr:`_Drawn.structure`), not on their cells."""
    out = io.BytesIO()
    wb = xlsxwriter.Workbook(out, {"in_memory": True})
    props: dict[str, Any] = {"created": FIXED_DATE}
    if title:
        props["title"] = title
    wb.set_properties(props)
    formats = _Formats(wb)
    sheets: dict[str, _Sheet] = {}
    active = False
    for n, (name, drawn) in enumerate(tabs, start=1):
        ws = wb.add_worksheet(name)
        sheets[f"xl/worksheets/sheet{n}.xml"] = _fill_sheet(ws, drawn, formats)
        if not drawn.tab.hidden and not active:
            ws.activate()
            active = True
    parts: list[tuple[str, bytes]] = []
    with _parts_kept(parts):
        wb.close()
    if not parts:   # (XlsxWriter packed them itself)
        with zipfile.ZipFile(io.BytesIO(out.getvalue())) as src:
            parts = [(info.filename, src.read(info)) for info in src.infolist()]
    index: dict[Any, int] = {}   # format -> its index in styles.xml, from the cells XlsxWriter wrote
    for name, part in parts:
        if name in sheets:
            for ref, s in _STYLED_CELL.findall(part):
                index[sheets[name].looks[ref.decode()]] = int(s)
    parts = [(name, _one_cell_anchors(part) if name.startswith("xl/drawings/drawing") else part)
             for name, part in parts]
    return _Skeleton(parts, {name: [index[fmt] for fmt in sheet.formats] for name, sheet in sheets.items()})


class SharedTabs:
    """The last few tabs drawn (:func:`_draw`) and book packages made (:func:`_skeleton`), for the
    books of one command to reuse: a round writes the same public board into every player's book,
    drawn once, and every player's book has the same tabs and looks, packaged once. A tab
    is found by equality (its cells are mostly the very same objects, so comparing is quick); the
    cache keeps a copy of each tab's containers, so a caller changing a tab afterwards changes
    nothing here. A package is found by its book's title and its tabs' names and structures."""

    def __init__(self, size: int = 8) -> None:
        self.size = size
        self._drawn: list[_Drawn] = []   # most recently used first
        self._skeletons: dict[tuple, _Skeleton] = {}   # least recently used first
        self._deflated: dict[bytes, tuple[int, bytes]] = {}   # part -> _deflated(part), least recently used first
        self._lock = threading.Lock()

    def drawn(self, tab: TabData) -> _Drawn:
        with self._lock:
            for i, d in enumerate(self._drawn):
                if d.tab == tab:
                    self._drawn.insert(0, self._drawn.pop(i))
                    return d
        d = _draw(tab)
        with self._lock:
            self._drawn.insert(0, d)
            del self._drawn[self.size:]
        return d

    def deflated(self, part: bytes) -> tuple[int, bytes]:
        """:func:`_deflated`, of a part met before (in the last few dozen) without deflating it again."""
        with self._lock:
            found = self._deflated.pop(part, None)
            if found is not None:
                self._deflated[part] = found
                return found
        made = _deflated(part)
        with self._lock:
            self._deflated[part] = made
            while len(self._deflated) > 8 * self.size:
                del self._deflated[next(iter(self._deflated))]
        return made

    def skeleton(self, title: str | None, tabs: Sequence[tuple[str, _Drawn]]) -> _Skeleton:
        key = (title, tuple((name, d.structure) for name, d in tabs))
        with self._lock:
            found = self._skeletons.pop(key, None)
            if found is not None:
                self._skeletons[key] = found
                return found
        made = _skeleton(title, tabs)
        with self._lock:
            self._skeletons[key] = made
            while len(self._skeletons) > self.size:
                del self._skeletons[next(iter(self._skeletons))]
        return made


_PACKING = threading.Lock()   # (:func:`_parts_kept` swaps a name in XlsxWriter's module while a book closes)


@contextmanager
def _parts_kept(parts: list[tuple[str, bytes]]) -> Iterator[None]:
    """XlsxWriter's parts as it makes them, in its order, instead of packed: :func:`_finish` would
    unpack them to put ours in and pack the book again, compressed (packing and unpacking it was
    about a tenth of a write). XlsxWriter packs through its module's ``ZipFile`` (``writestr``,
    ``compression``, ``close``), which stands aside meanwhile; should a version of XlsxWriter pack
    otherwise, nothing is kept and :func:`book_bytes` unpacks the package it wrote, as before."""

    class Kept:
        compression = zipfile.ZIP_STORED

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            pass

        def writestr(self, info: zipfile.ZipInfo, data: bytes) -> None:
            parts.append((info.filename, data))

        def close(self) -> None:
            pass

    module = xlsxwriter.workbook
    with _PACKING:
        saved = module.ZipFile
        module.ZipFile = Kept   # type: ignore[misc,assignment]
        try:
            yield
        finally:
            module.ZipFile = saved


class _Formats:
    """One XlsxWriter format per distinct look (a format is written once in styles.xml)."""

    def __init__(self, wb: xlsxwriter.Workbook) -> None:
        self.wb = wb
        self.cache: dict[tuple, Any] = {}
        self.placed: set[Any] = set()   # formats already written in a cell, for XlsxWriter to index

    def get(self, key: tuple) -> Any:
        """The format of a look (:func:`_look`; None for the default look)."""
        fmt = self.cache.get(key, False)
        if fmt is False:
            fmt = self.cache[key] = self._make(key) if any(key) else None
        return fmt

    def _make(self, key: tuple) -> Any:
        fill, bold, font, size, wrap, align, valign, input_ = key
        props: dict[str, Any] = {}
        if fill:
            props.update(pattern=1, bg_color="#" + fill)
        if bold or font or size:
            # Named as the book's default font: without a name LibreOffice falls back to a serif face.
            props.update(font_name=BOOK_FONT, font_size=size or BOOK_FONT_SIZE, bold=bool(bold))
            if font:
                props["font_color"] = "#" + font
        if wrap:
            props["text_wrap"] = True
        if align in ("left", "center", "right"):
            props["align"] = align
        if valign in ("top", "middle", "bottom"):
            props["valign"] = "vcenter" if valign == "middle" else valign
        if input_:
            props["locked"] = False
        return self.wb.add_format(props)


def _look(data: CellData) -> tuple:
    """What a cell's format is made of (all empty: the default look, no format)."""
    return (data.fill, data.bold, data.font, data.size, data.wrap, data.align, data.valign, data.input)


@dataclass
class _Drawn:
    """What a tab's XML holds of ours, drawn once whichever book it goes into (:func:`_draw`)."""
    tab: TabData          # a copy of its containers: an equal tab is drawn the same
    looks: list[tuple[int, int, tuple]]   # the first cell (row, column) of each look, in the order met
    validations: list[tuple[int, int, dict[str, Any]]]   # (first cell, XlsxWriter's options), in order
    cells: str            # <sheetData>, with "{n}" for the style index of the n-th look (braces doubled)
    dimension: bytes
    cols: bytes
    page: bytes
    merges: bytes
    valid: bytes          # <dataValidations>, as XlsxWriter writes it (:func:`_validations_xml`)
    landscape: bool
    # All XlsxWriter is given of the tab (:func:`_fill_sheet`): tabs of the same name and structure
    # give the same package (:func:`_skeleton`) whatever their cells.
    structure: tuple
    _xml: tuple = dataclasses.field(default=(), compare=False, repr=False)   # the last (XlsxWriter's part, styles, :func:`_sheet_xml` of them): books sharing the tab

    def sheet_xml(self, part: bytes, styles: list[int]) -> bytes:
        """:func:`_sheet_xml`, the same bytes object again for the same part and styles."""
        last = self._xml
        if last and last[0] == part and last[1] == styles:
            return last[2]
        xml = _sheet_xml(part, self, styles)
        self._xml = (part, styles, xml)
        return xml


@dataclass
class _Sheet:
    """A tab's looks as XlsxWriter placed them (see :func:`_skeleton`)."""
    formats: list[Any]         # the format of each of drawn.looks in this book
    looks: dict[str, Any]      # cell -> format: the one cell per look XlsxWriter writes (for the style's index)


@dataclass(frozen=True)
class _Skeleton:
    """XlsxWriter's parts of a book, in order, for :func:`_finish` to put each tab's cells in."""
    parts: list[tuple[str, bytes]]
    styles: dict[str, list[int]]   # a sheet's part -> the index in styles.xml of each of its tab's looks


def _draw(tab: TabData) -> _Drawn:
    """The tab's cells, widths, merges and page setup as XML, its looks and dropdowns: all that
    does not depend on the book (a look's index in styles.xml does: left as "{n}")."""
    texts: dict[str, str] = {}     # value -> its <c> ending, braces doubled (a tab repeats many values)
    rows: dict[int, list[tuple[int, str]]] = {}   # row -> its cells: (column, its <c> element)
    numbers: dict[tuple, int] = {}
    looks: list[tuple[int, int, tuple]] = []
    lists: dict[tuple[str, ...], list[str]] = {}
    last_col = 0
    names = _COLUMNS if tab.width <= len(_COLUMNS) else [_column_name(c) for c in range(tab.width)]
    # A cell's XML after its reference, by the cell object: a tab shares one object among many
    # cells (a band's filled cells, a table's repeated values), each drawn once. (The objects stay
    # alive in tab.rows meanwhile, so their ids are not reused.)
    drawn: dict[int, tuple[str, bool]] = {}   # id(cell) -> (its ending, with its " s=" look first; has a look)
    for r, row in enumerate(tab.rows):
        line: list[tuple[int, str]] = []
        number = str(r + 1)
        for c, data in enumerate(row):
            known = drawn.get(id(data))
            if known is None:
                known = drawn[id(data)] = _cell_ending(data, r, c, texts, numbers, looks)
            ending, styled = known
            if styled or ending != "/>":   # (a cell of the default look and no value shows nothing)
                line.append((c, f'<c r="{names[c]}{number}"{ending}'))
            if data.choices:
                lists.setdefault(tuple(data.choices), []).append(_ref(r, c))
        if line:
            rows[r] = line
            last_col = max(last_col, line[-1][0])
    hidden: list[int] = []
    validations: list[tuple[int, int, dict[str, Any]]] = []
    for choices, cells in lists.items():
        inline = ",".join(choices)
        options = dict(VALIDATION, validate="list", multi_range=" ".join(cells))
        if len(inline) <= 250 and '"' not in inline and all("," not in c for c in choices):
            options["source"] = list(choices)
        else:   # a long list lives in a hidden column of the same tab
            col = LIST_COLUMN - 1 + len(hidden)
            hidden.append(col)
            last_col = max(last_col, col)
            for i, choice in enumerate(choices):
                rows.setdefault(i, []).append((col, f'<c r="{_ref(i, col)}"{_ending(choice, texts)}'))
                rows[i].sort(key=lambda cell: cell[0])   # (right of the tab's cells, left to right)
            letter = _column_name(col)
            options["source"] = f"=${letter}$1:${letter}${len(choices)}"
        first = xlsxwriter.utility.xl_cell_to_rowcol(cells[0])
        validations.append((first[0], first[1], options))
    cells = _cells_xml(rows, tab.row_heights)
    dimension = f'<dimension ref="A1:{_column_name(last_col)}{max(rows) + 1}"/>' if rows else '<dimension ref="A1"/>'
    landscape = sum(tab.col_widths.values()) > PORTRAIT_COLUMNS
    # fitToWidth="1" is the default, but said (as openpyxl says it): some readers want it
    page = f'<pageSetup orientation="{"landscape" if landscape else "portrait"}" fitToWidth="1" fitToHeight="0"/>'
    copy = dataclasses.replace(tab, rows=[list(row) for row in tab.rows], col_widths=dict(tab.col_widths),
                               merges=list(tab.merges), row_heights=dict(tab.row_heights), images=list(tab.images))
    structure = (tuple(key for _, _, key in looks), tuple(copy.images), tab.frozen_rows, landscape, tab.hidden,
                 tab.protected)
    return _Drawn(copy, looks, validations, cells, dimension.encode(), _cols_xml(tab.col_widths, hidden),
                  page.encode(), _merges_xml(tab.merges), _validations_xml(validations), landscape, structure)


def _cell_ending(data: CellData, r: int, c: int, texts: dict[str, str], numbers: dict[tuple, int],
                 looks: list[tuple[int, int, tuple]]) -> tuple[str, bool]:
    """A cell's XML after its reference: its look (' s="{n}"', the n-th look of the tab, met first
    at row `r`, column `c`), its type and value; and whether it has a look other than the default."""
    value = data.value
    if value is None:
        ending = "/>"
    else:
        ending = texts.get(value) if type(value) is str else None
        if ending is None:
            ending = _ending(value, texts)
    if not (data.fill or data.bold or data.font or data.size or data.wrap or data.align or data.valign
            or data.input):
        return ending, False
    key = (data.fill, data.bold, data.font, data.size, data.wrap, data.align, data.valign, data.input)
    n = numbers.get(key, -1)
    if n < 0:
        n = numbers[key] = len(looks)
        looks.append((r, c, key))
    return f' s="{{{n}}}"{ending}', True


def _cells_xml(rows: Mapping[int, list[tuple[int, str]]], heights: Mapping[int, float]) -> str:
    """The <sheetData> element, "{n}" standing for the n-th look's style index."""
    lines = ["<sheetData>"]
    for r in sorted(rows.keys() | heights.keys()):
        height = heights.get(r)
        lines.append(f'<row r="{r + 1}" ht="{height:.16g}" customHeight="1">' if height else f'<row r="{r + 1}">')
        lines.extend([cell for _, cell in rows.get(r, ())])
        lines.append("</row>")
    lines.append("</sheetData>")
    return "".join(lines) if len(lines) > 2 else "<sheetData/>"


def _fill_sheet(ws, drawn: _Drawn, formats: _Formats) -> _Sheet:
    """Give XlsxWriter everything about the tab but its cells (drawn by :func:`_draw`): one cell per
    look not yet placed in this book, for XlsxWriter to give the look its index in styles.xml. Only
    their order counts (XlsxWriter numbers the looks in the order it writes the cells, row by row,
    and our cells replace its own): the n-th look of the tab goes in the n-th cell of the first row,
    so that tabs of the same structure give the same package (:func:`_skeleton`)."""
    tab = drawn.tab
    fmts = [formats.get(key) for _, _, key in drawn.looks]
    looks: dict[str, Any] = {}
    for n, fmt in enumerate(fmts):
        if fmt not in formats.placed:
            formats.placed.add(fmt)
            r, c = divmod(n, _MAX_COLUMNS)   # (row by row, in the order the tab meets its looks)
            looks[_ref(r, c)] = fmt
            ws.write_blank(r, c, None, fmt)
    for image in tab.images:
        ws.insert_image(image.row, image.col, image.name,
                        {"image_data": io.BytesIO(image.png), "description": image.name, "object_position": 3})
    if tab.frozen_rows:
        ws.freeze_panes(tab.frozen_rows, 0)
    # Printed (or exported to PDF) one page wide, so nothing is cut at the page's right edge;
    # a wide tab on a landscape page, so that it is not shrunk too small to read.
    ws.fit_to_pages(1, 0)
    if drawn.landscape:
        ws.set_landscape()
    ws.set_margins(**MARGINS)
    ws.set_header("", {"margin": HEADER_MARGIN})
    ws.set_footer("", {"margin": HEADER_MARGIN})
    if tab.hidden:
        ws.hide()
    if tab.protected:
        # Players may resize rows and columns, nothing else but the unlocked input cells: inserting or
        # deleting rows would move the form under sheetbridge's feet. No password: the host can lift it.
        ws.protect("", {"format_columns": True, "format_rows": True, "objects": True, "scenarios": True})
    return _Sheet(fmts, looks)


def _ending(value: Any, texts: dict[str, str]) -> str:
    """A cell's XML after its reference and style: its type and value ("/>" for an empty cell),
    braces doubled (:func:`_cells_xml`'s "{n}" are filled in with str.format)."""
    if isinstance(value, str):
        ending = texts.get(value)
        if ending is None:
            text = cell_text(value)
            ending = f' t="inlineStr"><is>{_t(text)}</is></c>' if text else "/>"
            if "{" in ending or "}" in ending:
                ending = ending.replace("{", "{{").replace("}", "}}")
            texts[value] = ending
        return ending
    if value is None:
        return "/>"
    if isinstance(value, bool):
        return f' t="b"><v>{int(value)}</v></c>'
    if isinstance(value, int) and abs(value) < _EXACT_INT or isinstance(value, float) and math.isfinite(value):
        return f"><v>{value!r}</v></c>"   # (repr: the shortest text that reads back as the same number)
    return _ending(text_of(value), texts)


def _validations_xml(validations: Sequence[tuple[int, int, dict[str, Any]]]) -> bytes:
    """The <dataValidations> element (the dropdowns), written by XlsxWriter's own code for a sheet of
    no book: it depends on the tab alone, so a package (:func:`_skeleton`) does not depend on it and
    serves players' books whose forms offer each player other choices."""
    if not validations:
        return b""
    ws = xlsxwriter.worksheet.Worksheet()
    for r, c, options in validations:
        ws.data_validation(r, c, r, c, options)
    out = io.StringIO()
    ws._set_filehandle(out)
    ws._write_data_validations()
    return out.getvalue().encode("utf-8")


def _merges_xml(merges: Sequence[tuple[int, int, int, int]]) -> bytes:
    """The <mergeCells> element (XlsxWriter's merge_range would also write every covered cell)."""
    refs = [f'<mergeCell ref="{_ref(r0, c0)}:{_ref(r1 - 1, c1 - 1)}"/>' for r0, c0, r1, c1 in merges
            if r1 - r0 > 1 or c1 - c0 > 1]   # (a single cell is no merge)
    return f'<mergeCells count="{len(refs)}">{"".join(refs)}</mergeCells>'.encode() if refs else b""


def _cols_xml(widths: Mapping[int, float], hidden: Sequence[int]) -> bytes:
    """The <cols> element: the layout's widths as given (XlsxWriter would round them to pixels)."""
    cols = {c: f'<col min="{c + 1}" max="{c + 1}" width="{float(w):.16g}" customWidth="1"/>'
            for c, w in widths.items()}
    for c in hidden:
        cols[c] = f'<col min="{c + 1}" max="{c + 1}" width="0" hidden="1" customWidth="1"/>'
    if not cols:
        return b""
    return ("<cols>" + "".join(cols[c] for c in sorted(cols)) + "</cols>").encode()


def _finish(skeleton: _Skeleton, sheets: Mapping[str, _Drawn], shared: SharedTabs | None = None) -> bytes:
    """The package with our part of each tab in its XML (:func:`_sheet_xml`), packed (:func:`_pack`)."""
    parts = []
    for name, part in skeleton.parts:
        drawn = sheets.get(name)
        if drawn is not None:
            part = drawn.sheet_xml(part, skeleton.styles[name])
        parts.append((name, part))
    return _pack(parts, shared.deflated if shared else _deflated)


# A zip entry as zipfile writes it (ZipFile.writestr of a ZipInfo at FIXED_ZIP_TIME, compressed, external
# attributes 0o600 << 16, no extra field or comment): its local header, and its central directory record.
_LOCAL = struct.Struct("<4s2B4HL2L2H")
_CENTRAL = struct.Struct("<4s4B4HL2L5H2L")
_END = struct.Struct("<4s4H2LH")
_DOS_DATE = (FIXED_ZIP_TIME[0] - 1980) << 9 | FIXED_ZIP_TIME[1] << 5 | FIXED_ZIP_TIME[2]
_DOS_TIME = FIXED_ZIP_TIME[3] << 11 | FIXED_ZIP_TIME[4] << 5 | FIXED_ZIP_TIME[5] // 2
_VERSION = 20                                         # zipfile's DEFAULT_VERSION (deflate, no zip64)
_SYSTEM = zipfile.ZipInfo("x").create_system          # (0 on Windows, 3 elsewhere: as zipfile says)
_ATTRIBUTES = 0o600 << 16
_SMALL = 1 << 30   # parts below this size never need zip64 (zipfile's limit is 2 GiB / 1.05)


def _deflated(part: bytes) -> tuple[int, bytes]:
    """A part's CRC-32 and its deflated bytes, as zipfile compresses it."""
    c = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -15)
    return zlib.crc32(part), c.compress(part) + c.flush()


def _pack(parts: Sequence[tuple[str, bytes]], deflated: Callable[[bytes], tuple[int, bytes]]) -> bytes:
    """The parts packed in a zip, byte for byte as zipfile packs them (:func:`_pack_zipfile`), each
    deflated by `deflated`: zipfile cannot take a part already deflated, and most parts of a round's
    books are the same (XlsxWriter's parts of books of one structure, the public board's tab), so
    the store deflates each once (:meth:`SharedTabs.deflated`)."""
    if any(len(part) >= _SMALL for _, part in parts) or len(parts) >= 0xFFFF:
        return _pack_zipfile(parts)
    out: list[bytes] = []
    central: list[bytes] = []
    offset = 0
    for name, part in parts:
        crc, data = deflated(part)
        try:
            encoded, flags = name.encode("ascii"), 0
        except UnicodeEncodeError:
            encoded, flags = name.encode("utf-8"), 0x800
        header = _LOCAL.pack(b"PK\003\004", _VERSION, 0, flags, zipfile.ZIP_DEFLATED, _DOS_TIME, _DOS_DATE, crc,
                             len(data), len(part), len(encoded), 0)
        out += (header, encoded, data)
        central += (_CENTRAL.pack(b"PK\001\002", _VERSION, _SYSTEM, _VERSION, 0, flags, zipfile.ZIP_DEFLATED,
                                  _DOS_TIME, _DOS_DATE, crc, len(data), len(part), len(encoded), 0, 0, 0, 0,
                                  _ATTRIBUTES, offset), encoded)
        offset += len(header) + len(encoded) + len(data)
    size = sum(map(len, central))
    return b"".join(out + central + [_END.pack(b"PK\005\006", 0, 0, len(parts), len(parts), size, offset, 0)])


def _pack_zipfile(parts: Sequence[tuple[str, bytes]]) -> bytes:
    """The parts packed by zipfile, every entry at a fixed time."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for name, part in parts:
            zi = zipfile.ZipInfo(name, date_time=FIXED_ZIP_TIME)
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = _ATTRIBUTES
            dst.writestr(zi, part)
    return out.getvalue()


_TWO_CELL_ANCHOR = re.compile(rb'<xdr:twoCellAnchor editAs="absolute">(<xdr:from>.*?</xdr:from>)<xdr:to>.*?</xdr:to>'
                              rb'(.*?<a:ext (cx="[0-9]+" cy="[0-9]+")/>.*?)</xdr:twoCellAnchor>', re.S)


def _one_cell_anchors(part: bytes) -> bytes:
    """A picture anchored by its top-left cell and its own size (as openpyxl writes it): XlsxWriter
    anchors both corners to cells, reckoned with widths and heights it was not given (we write
    them), so a reader would stretch the picture to those cells."""
    return _TWO_CELL_ANCHOR.sub(rb'<xdr:oneCellAnchor>\1<xdr:ext \3/>\2</xdr:oneCellAnchor>', part)


def _sheet_xml(part: bytes, drawn: _Drawn, styles: Sequence[int]) -> bytes:
    """A sheet's XML from XlsxWriter with our <dimension>, <cols>, <sheetData>, <mergeCells> and <pageSetup>.
    (Its XML holds no text of ours, so looking for these elements is safe.)"""
    cells = drawn.cells.format(*styles).encode("utf-8")
    start = part.index(b"<dimension ")
    part = part[:start] + drawn.dimension + part[part.index(b"/>", start) + 2:]
    start = part.index(b"<sheetData")
    end = part.index(b"</sheetData>", start) + len(b"</sheetData>") if part.startswith(b"<sheetData>", start) \
        else part.index(b"/>", start) + 2
    part = part[:start] + drawn.cols + cells + part[end:]
    if drawn.merges or drawn.valid:   # right after the cells and their protection (the schema's order)
        at = start + len(drawn.cols) + len(cells)
        if part.startswith(b"<sheetProtection", at):
            at = part.index(b"/>", at) + 2
        part = part[:at] + drawn.merges + drawn.valid + part[at:]
    start = part.rindex(b"<pageSetup ")
    return part[:start] + drawn.page + part[part.index(b"/>", start) + 2:]


def _column_name(c: int) -> str:
    """Excel's name of the 0-based column `c`: 0 is A, 25 Z, 26 AA."""
    name, n = "", c + 1
    while n:
        n, rem = divmod(n - 1, 26)
        name = chr(65 + rem) + name
    return name


_NAMED = 256
_COLUMNS = [_column_name(c) for c in range(_NAMED)]   # the first columns' names, looked up per cell


def _ref(r: int, c: int) -> str:
    return f"{_COLUMNS[c] if c < _NAMED else _column_name(c)}{r + 1}"


def _t(text: str) -> str:
    """A <t> element holding `text` as Excel reads it: a literal "_xHHHH_" has its "_" escaped,
    control characters become "_xHHHH_", and leading or trailing spaces are kept."""
    if "_x" in text:
        text = _ESCAPE_LIKE.sub("_x005F_", text)
    if not is_plain(text) and _CONTROL.search(text):   # (a printable text has none: the record's
        # long entries are looked at in C, not by the regular expression)
        text = _CONTROL.sub(lambda m: f"_x{ord(m.group()):04X}_", text)
    if "&" in text or "<" in text or ">" in text:
        text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    space = ' xml:space="preserve"' if text[:1].isspace() or text[-1:].isspace() else ""
    return f"<t{space}>{text}</t>"
