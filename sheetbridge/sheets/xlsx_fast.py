"""The fast path of the xlsx backend: python-calamine reads values, XlsxWriter writes whole books.

openpyxl builds an object per cell and per style to read or write a file; a round needs neither:
a read wants values only, and a resolve replaces every tab of the books it writes. So:

- :func:`read_values` reads tabs with calamine (Rust), values only. A tab holding a formula or an
  error cell (typed by a player in a spreadsheet program) is read with openpyxl instead, which
  reports a formula as its text (``"=1+2"``) and an error as its code (``"#N/A"``), as it always
  has: calamine would give the formula's cached result, or nothing.
- :func:`book_bytes` writes a whole book with XlsxWriter, with everything the openpyxl writer in
  ``xlsx.py`` gives a tab (values, fills, fonts, wrap, alignment, protection, dropdowns, merges,
  sizes, frozen rows, hidden tabs, print setup). Two parts are finished by us, because
  XlsxWriter would change them: the shared strings (its escaping garbles overlapping
  ``_xHHHH_`` sequences and takes a text shaped like ``<r>...</r>`` for raw XML) and the column
  widths (it rounds them to whole pixels; the layout's widths are kept exactly).

Both give the same bytes for the same tabs: fixed dates, fixed zip entry times, no clock.
"""
from __future__ import annotations

import datetime as dt
import io
import math
import re
import zipfile
import zlib
from typing import Any, Callable, Mapping, Sequence

import xlsxwriter
from python_calamine import CalamineError, CalamineWorkbook

from .model import (HELPER_COLUMN, XLSX_CELL_LIMIT, CellData, Rect, TabData, cell_string, normalise,
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
# Numbers XlsxWriter writes with 16 significant digits: an int beyond 2**53 or a float needing 17
# digits would come back changed, so such a value is written as its text (a read gives text anyway).
_EXACT_INT = 2 ** 53

_ESCAPE_LIKE = re.compile(r"_(?=x[0-9A-Fa-f]{4}_)")
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f]")
# An <f> element (also with a namespace prefix: <x:f>), or a cell of type "e" (an error such as #N/A).
_FORMULA_MARKS = (b"<f>", b"<f ", b"<f/>", b":f>", b":f ", b't="e"', b"t='e'")
_SST_TOKEN = re.compile(rb"<si><t>(\d+)</t></si>")


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


def read_values(data: bytes, book: CalamineWorkbook, tabs: Sequence[str],
                slow: Callable[[Sequence[str]], dict[str, Rect]]) -> dict[str, Rect]:
    """The named tabs of `book` (opened from `data`; all present: the caller checked) as text
    rectangles, as openpyxl reads them. `slow` reads tabs with openpyxl: used when the book holds a
    formula or an error cell."""
    if _has_formulas(data):
        return slow(tabs)
    out: dict[str, Rect] = {}
    for name in tabs:
        try:
            rows = book.get_sheet_by_name(name).to_python(skip_empty_area=False)
        except CalamineError as e:
            raise ReadFailed(type(e).__name__) from None
        except BaseException as e:
            if type(e).__name__ == "PanicException":
                raise ReadFailed("damaged") from None
            raise
        out[name] = normalise([[_as_openpyxl(v) for v in row] for row in rows])
    return out


def _has_formulas(data: bytes) -> bool:
    """Does any tab hold a formula (an <f> element) or an error cell (t="e")? Sheet parts only."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as z:
            for info in z.infolist():
                if info.filename.startswith("xl/worksheets/sheet"):
                    part = z.read(info)
                    # (plain substring tests: far faster than a regular expression over the whole part)
                    if any(mark in part for mark in _FORMULA_MARKS):
                        return True
            return False
    except (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, OSError, ValueError, EOFError) as e:
        raise ReadFailed(type(e).__name__) from None


def _as_openpyxl(value: Any) -> Any:
    """A calamine value as openpyxl gives it, so a read reports the same text: a date-formatted whole
    day is a datetime (calamine: a date), "" is an empty cell."""
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


def book_bytes(tabs: Mapping[str, TabData], title: str | None = None) -> bytes:
    """A whole .xlsx book holding `tabs` in order (the same bytes for the same tabs)."""
    strings: dict[str, int] = {}   # stored text -> its token: XlsxWriter stores the token, we write the text
    texts: dict[str, str] = {}     # value -> stored text (a book repeats many values)
    out = io.BytesIO()
    wb = xlsxwriter.Workbook(out, {"in_memory": True, "strings_to_numbers": False, "strings_to_formulas": False,
                                   "strings_to_urls": False})
    props: dict[str, Any] = {"created": FIXED_DATE}
    if title:
        props["title"] = title
    wb.set_properties(props)
    formats = _Formats(wb)
    edits: dict[str, tuple[bytes, bytes]] = {}
    active = False
    for n, (name, tab) in enumerate(tabs.items(), start=1):
        ws = wb.add_worksheet(name)
        edits[f"xl/worksheets/sheet{n}.xml"] = _fill_sheet(ws, tab, formats, strings, texts)
        if not tab.hidden and not active:
            ws.activate()
            active = True
    wb.close()
    return _finish(out.getvalue(), list(strings), edits)


class _Formats:
    """One XlsxWriter format per distinct look (a format is written once in styles.xml)."""

    def __init__(self, wb: xlsxwriter.Workbook) -> None:
        self.wb = wb
        self.cache: dict[tuple, Any] = {}

    def get(self, data: CellData) -> Any:
        key = (data.fill, data.bold, data.font, data.size, data.wrap, data.align, data.valign, data.input)
        fmt = self.cache.get(key, False)
        if fmt is False:
            fmt = self.cache[key] = self._make(data) if any(key) else None
        return fmt

    def _make(self, data: CellData) -> Any:
        props: dict[str, Any] = {}
        if data.fill:
            props.update(pattern=1, bg_color="#" + data.fill)
        if data.bold or data.font or data.size:
            # Named as the book's default font: without a name LibreOffice falls back to a serif face.
            props.update(font_name=BOOK_FONT, font_size=data.size or BOOK_FONT_SIZE, bold=bool(data.bold))
            if data.font:
                props["font_color"] = "#" + data.font
        if data.wrap:
            props["text_wrap"] = True
        if data.align in ("left", "center", "right"):
            props["align"] = data.align
        if data.valign in ("top", "middle", "bottom"):
            props["valign"] = "vcenter" if data.valign == "middle" else data.valign
        if data.input:
            props["locked"] = False
        return self.wb.add_format(props)


def _fill_sheet(ws, tab: TabData, formats: _Formats, strings: dict[str, int],
                texts: dict[str, str]) -> tuple[bytes, bytes]:
    """Write one tab; returns its <cols> and <pageSetup> elements, put in its XML by :func:`_finish`."""
    def put(r: int, c: int, value: Any, fmt: Any) -> None:
        if isinstance(value, str):
            text = texts.get(value)
            if text is None:
                text = texts[value] = cell_text(value)
            if text:
                ws.write_string(r, c, str(strings.setdefault(text, len(strings))), fmt)
                return
            value = None
        if value is None:
            if fmt is not None:
                ws.write_blank(r, c, None, fmt)
        elif isinstance(value, bool):
            ws.write_boolean(r, c, value, fmt)
        elif isinstance(value, int) and abs(value) < _EXACT_INT or \
                isinstance(value, float) and math.isfinite(value) and float(f"{value:.16G}") == value:
            ws.write_number(r, c, value, fmt)
        else:
            put(r, c, text_of(value), fmt)

    for r0, c0, r1, c1 in tab.merges:
        if r1 - r0 > 1 or c1 - c0 > 1:   # (a single cell is no merge)
            ws.merge_range(r0, c0, r1 - 1, c1 - 1, None)   # the cells' own values and looks are written below
    validations: dict[tuple[str, ...], list[str]] = {}
    for r, row in enumerate(tab.rows):
        for c, data in enumerate(row):
            fmt = formats.get(data)
            if data.value is None and fmt is None:
                continue
            put(r, c, data.value, fmt)
            if data.choices:
                validations.setdefault(tuple(data.choices), []).append(xlsxwriter.utility.xl_rowcol_to_cell(r, c))
    hidden: list[int] = []
    for choices, cells in validations.items():
        inline = ",".join(choices)
        options = dict(VALIDATION, validate="list", multi_range=" ".join(cells))
        if len(inline) <= 250 and '"' not in inline and all("," not in c for c in choices):
            options["source"] = list(choices)
        else:   # a long list lives in a hidden column of the same tab
            col = LIST_COLUMN - 1 + len(hidden)
            hidden.append(col)
            for i, choice in enumerate(choices):
                put(i, col, choice, None)
            letter = xlsxwriter.utility.xl_col_to_name(col)
            options["source"] = f"=${letter}$1:${letter}${len(choices)}"
        first = xlsxwriter.utility.xl_cell_to_rowcol(cells[0])
        ws.data_validation(first[0], first[1], first[0], first[1], options)
    for row, height in tab.row_heights.items():
        ws.set_row_pixels(row, height / 0.75)   # points, exactly (XlsxWriter writes pixels x 0.75)
    if tab.frozen_rows:
        ws.freeze_panes(tab.frozen_rows, 0)
    # Printed (or exported to PDF) one page wide, so nothing is cut at the page's right edge;
    # a wide tab on a landscape page, so that it is not shrunk too small to read.
    ws.fit_to_pages(1, 0)
    landscape = sum(tab.col_widths.values()) > PORTRAIT_COLUMNS
    if landscape:
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
    # fitToWidth="1" is the default, but said (as openpyxl says it): some readers want it
    page = f'<pageSetup orientation="{"landscape" if landscape else "portrait"}" fitToWidth="1" fitToHeight="0"/>'
    return _cols_xml(tab.col_widths, hidden), page.encode()


def _cols_xml(widths: Mapping[int, float], hidden: Sequence[int]) -> bytes:
    """The <cols> element: the layout's widths as given (XlsxWriter would round them to pixels)."""
    cols = {c: f'<col min="{c + 1}" max="{c + 1}" width="{float(w):.16g}" customWidth="1"/>'
            for c, w in widths.items()}
    for c in hidden:
        cols[c] = f'<col min="{c + 1}" max="{c + 1}" width="0" hidden="1" customWidth="1"/>'
    if not cols:
        return b""
    return ("<cols>" + "".join(cols[c] for c in sorted(cols)) + "</cols>").encode()


def _finish(data: bytes, texts: Sequence[str], edits: Mapping[str, tuple[bytes, bytes]]) -> bytes:
    """XlsxWriter's package with our shared strings, column widths and page setup, every entry at a
    fixed time. (A sheet's XML holds no text of ours: strings are in the shared strings.)"""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            part = src.read(info)
            if info.filename == "xl/sharedStrings.xml":
                part = _shared_strings(part, texts)
            elif info.filename in edits:
                cols, page = edits[info.filename]
                at = part.index(b"<sheetData")   # <cols> comes right before the cells (the schema's order)
                part = part[:at] + cols + part[at:]
                start = part.rindex(b"<pageSetup ")
                part = part[:start] + page + part[part.index(b"/>", start) + 2:]
            zi = zipfile.ZipInfo(info.filename, date_time=FIXED_ZIP_TIME)
            zi.compress_type = zipfile.ZIP_DEFLATED
            zi.external_attr = 0o600 << 16
            dst.writestr(zi, part)
    return out.getvalue()


def _shared_strings(part: bytes, texts: Sequence[str]) -> bytes:
    """XlsxWriter's shared-string table holds our tokens ("0", "1"...) in its own order: write the texts."""
    tokens = _SST_TOKEN.findall(part)
    head = part[:part.index(b"<si>")] if tokens else part[:part.rindex(b"</sst>")]
    body = "".join(_si(texts[int(t)]) for t in tokens)
    if len(tokens) != len(texts) or len(set(tokens)) != len(tokens):   # every text once, or the cells would be wrong
        raise AssertionError(f"shared strings: {len(tokens)} entries for {len(texts)} texts")
    return head + body.encode("utf-8") + b"</sst>"


def _si(text: str) -> str:
    """One shared string, escaped as Excel reads it: a literal "_xHHHH_" has its "_" escaped,
    control characters become "_xHHHH_", and leading or trailing spaces are kept."""
    if "_x" in text:
        text = _ESCAPE_LIKE.sub("_x005F_", text)
    if _CONTROL.search(text):
        text = _CONTROL.sub(lambda m: f"_x{ord(m.group()):04X}_", text)
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    space = ' xml:space="preserve"' if text[:1].isspace() or text[-1:].isspace() else ""
    return f"<si><t{space}>{text}</t></si>"
