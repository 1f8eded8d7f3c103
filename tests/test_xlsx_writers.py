"""The fast xlsx writer (XlsxWriter, sheetbridge/sheets/xlsx_fast.py) gives the files the openpyxl writer
gave: cell by cell the same values and formats (fill, font, bold, size, wrap, alignment, number format,
protection), the same dropdowns, merges, widths, heights, frozen rows, hidden tabs, print setup and
sheet protection, for a master, a player's file and the public board of every game; its files are
byte-deterministic; a read (python-calamine) gives back what was written, also where openpyxl is
needed (formulas, error cells); a partial write keeps the other tabs exactly."""
from __future__ import annotations

import io
import zipfile
from xml.etree import ElementTree

import openpyxl
import pytest

from sheetbridge.api import games, new_match
from sheetbridge.core.match import random_submissions
from sheetbridge.core.rng import Rng
from sheetbridge.host.players import PlayerInfo
from sheetbridge.sheets import xlsx as X
from sheetbridge.sheets import xlsx_fast as F
from sheetbridge.sheets.model import HELPER_COLUMN, CellData as C, TabData, TabImage, normalise, text_of
from sheetbridge.sheets.store import player_key
from sheetbridge.host.tabs import board_tabs, master_tabs, player_tabs

from conftest import players_for


def old_writer(tabs) -> bytes:
    """The book as the openpyxl writer (still used for partial writes) makes it."""
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    X._fill_book(wb, tabs)
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def books_of(game_id, tmp_path):
    """A master, the first player's book and the board, a round into the game (some entries invalid)."""
    names = players_for(game_id)
    m = new_match(game_id, names, seed=4, garnets={n: 10 for n in names})
    rng = Rng.from_seed(4, "writers")
    m.resolve(random_submissions(m, rng, 0.3))
    typed = random_submissions(m, rng, 0.3)
    players = [PlayerInfo(n, f"{n.lower()}@example.com", 10) for n in names]
    master = master_tabs(m, players, {n: f"players/{n}.xlsx" for n in names}, "board.xlsx", X.XlsxStore(tmp_path),
                         ["a warning with _x0041_ in it"])
    return {"master": master, "player": player_tabs(m, names[0], typed.get(names[0])),
            "board": board_tabs(m, picture=True)}


def everything_tab() -> TabData:
    """What no game happens to need at once: every kind of value, a long dropdown list in a hidden
    column, a landscape page, a tall row beyond the cells, merges over rows."""
    long_list = tuple(f"choice number {i}, with a comma" for i in range(30))
    rows = [[C("Title", fill="1F3864", font="FFFFFF", bold=True, size=14.0, valign="middle"), C(fill="1F3864")],
            [C("=1+2"), C("_x0041_"), C("_x005F_x0041_"), C(" spaced "), C("two\nlines", wrap=True)],
            [C(3), C(2.5), C(True), C(False), C(-7), C(1e-7), C(123456.789)],
            [C("", input=True, fill="FFF2CC", choices=long_list), C(None, input=True, choices=("a", "b")),
             C("<r><t>x</t></r>"), C("a & b < c > d"), C("tab\there")],
            [C("right", align="right"), C("center", align="center", valign="bottom"), C("top", valign="top")]]
    return TabData(rows=rows, protected=True, frozen_rows=1, merges=[(0, 0, 1, 2), (3, 2, 5, 3)],
                   col_widths={c: 30.0 for c in range(5)}, row_heights={0: 21.1, 8: 40.0})


def looks(path_or_bytes) -> dict:
    """Everything the files say about their tabs, as openpyxl reads it, in comparable form."""
    wb = openpyxl.load_workbook(io.BytesIO(path_or_bytes) if isinstance(path_or_bytes, bytes) else path_or_bytes)
    out = {"tabs": wb.sheetnames}
    for ws in wb.worksheets:
        p = ws.protection
        sheet = {
            "state": ws.sheet_state, "freeze": ws.freeze_panes,
            "protection": (p.sheet, p.formatCells, p.formatColumns, p.formatRows, p.insertColumns, p.insertRows,
                           p.insertHyperlinks, p.deleteColumns, p.deleteRows, p.selectLockedCells,
                           p.selectUnlockedCells, p.sort, p.autoFilter, p.pivotTables, p.objects, p.scenarios,
                           p.password),
            "page": (ws.sheet_properties.pageSetUpPr.fitToPage, ws.page_setup.fitToWidth,
                     ws.page_setup.fitToHeight, ws.page_setup.orientation or "portrait"),
            "margins": (ws.page_margins.left, ws.page_margins.right, ws.page_margins.top, ws.page_margins.bottom,
                        ws.page_margins.header, ws.page_margins.footer),
            "merges": sorted(str(r) for r in ws.merged_cells.ranges),
            "widths": {k: d.width for k, d in ws.column_dimensions.items() if d.customWidth and not d.hidden},
            "hidden columns": sorted(k for k, d in ws.column_dimensions.items() if d.hidden),
            "heights": {k: d.height for k, d in ws.row_dimensions.items() if d.height},
            "validations": sorted((str(v.sqref), v.type, v.formula1, bool(v.allow_blank), bool(v.showErrorMessage),
                                   bool(v.showInputMessage), v.errorStyle, v.errorTitle, v.error)
                                  for v in ws.data_validations.dataValidation),
            "cells": {},
        }
        for row in ws.iter_rows():
            for cell in row:
                look = cell_look(cell)
                if look != cell_look(None):
                    sheet["cells"][cell.coordinate] = look
        out[ws.title] = sheet
    return out


def rgb(color) -> str | None:
    """An RRGGBB colour, or None for the default (openpyxl gives 00RRGGBB, XlsxWriter FFRRGGBB)."""
    value = getattr(color, "rgb", None)
    return value[-6:] if isinstance(value, str) and getattr(color, "type", "rgb") == "rgb" else None


def cell_look(cell) -> tuple:
    if cell is None:
        return ("", None, None, None, False, 11.0, "Calibri", False, None, "bottom", "General", True)
    fill = cell.fill
    solid = fill.fill_type == "solid"
    font, align = cell.font, cell.alignment
    return (text_of(cell.value), type(cell.value).__name__ if cell.value not in (None, "") else None,
            rgb(fill.fgColor) if solid else None, fill.fill_type if solid else None,
            bool(font.b), float(font.sz or 11), font.name, bool(align.wrap_text), align.horizontal,
            align.vertical or "bottom",   # (bottom is the default: openpyxl says it, XlsxWriter does not)
            cell.number_format, bool(cell.protection.locked))


@pytest.mark.parametrize("game_id", sorted(games()))
def test_the_fast_writer_gives_the_files_the_openpyxl_writer_gave(game_id, tmp_path):
    for which, tabs in books_of(game_id, tmp_path).items():
        old, new = looks(old_writer(tabs)), looks(F.book_bytes(tabs))
        assert new["tabs"] == old["tabs"]
        for name in old["tabs"]:
            for key in old[name]:
                assert new[name][key] == old[name][key], f"{game_id} {which}, tab {name}: {key} differ"
        cells = sum(len(old[name]["cells"]) for name in old["tabs"])
        assert cells > 10, f"{game_id} {which}: the comparison compared almost nothing"


def test_every_kind_of_cell_value_and_look_is_written_as_the_openpyxl_writer_wrote_it():
    tabs = {"Everything": everything_tab(), "Hidden": TabData(rows=[[C("secret")]], hidden=True),
            "Wide": TabData(rows=[[C(i) for i in range(12)]], col_widths={c: 12.0 for c in range(12)})}
    old, new = looks(old_writer(tabs)), looks(F.book_bytes(tabs))
    for name in tabs:
        assert new[name] == old[name], name
    assert new["Hidden"]["state"] == "hidden" and new["Wide"]["page"][3] == "landscape"
    assert new["Everything"]["hidden columns"] == ["BH"]                       # the long list's helper column
    assert new["Everything"]["validations"][0][2] == "$BH$1:$BH$30"
    assert new["Everything"]["cells"]["B2"][0] == "_x005F_x0041_"             # escaped: Excel shows "_x0041_"
    assert new["Everything"]["cells"]["A4"][-1] is False                      # an input cell is unlocked


def test_the_fast_writer_is_byte_deterministic_and_its_xml_well_formed(tmp_path, monkeypatch):
    tabs = books_of("skeld", tmp_path)["master"]
    first = F.book_bytes(tabs, "the host master")
    assert F.book_bytes(tabs, "the host master") == first
    with zipfile.ZipFile(io.BytesIO(first)) as z:
        assert {i.date_time for i in z.infolist()} == {F.FIXED_ZIP_TIME}
        assert {i.compress_type for i in z.infolist()} == {zipfile.ZIP_DEFLATED}   # compressed once, by us
        for info in z.infolist():
            if info.filename.endswith((".xml", ".rels")):
                ElementTree.fromstring(z.read(info))          # raises on malformed XML
        core = z.read("docProps/core.xml").decode()
    assert "2000-01-01T00:00:00Z" in core and "the host master" in core
    # XlsxWriter handed its parts over unpacked; its module is as it was, also after a failure
    import xlsxwriter.workbook
    import xlsxwriter.packager
    assert xlsxwriter.workbook.ZipFile is zipfile.ZipFile
    def fails(self):
        raise RuntimeError("out of memory")
    with monkeypatch.context() as m:
        m.setattr(xlsxwriter.packager.Packager, "_create_package", fails)
        with pytest.raises(RuntimeError):
            F.book_bytes(tabs, "the host master")
    assert xlsxwriter.workbook.ZipFile is zipfile.ZipFile
    # an XlsxWriter that packs its parts itself (no ZipFile of its module to stand in for) gives the same book
    from contextlib import nullcontext
    monkeypatch.setattr(F, "_parts_kept", lambda parts: nullcontext())
    assert F.book_bytes(tabs, "the host master") == first


def test_a_tab_shared_by_books_is_drawn_once_and_gives_the_same_bytes(monkeypatch):
    from sheetbridge.sheets.layout import tab_name
    names = players_for("three-modular-rooms")
    m = new_match("three-modular-rooms", names, seed=4, garnets={n: 10 for n in names})
    rng = Rng.from_seed(4, "writers")
    m.resolve(random_submissions(m, rng, 0.3))
    players = [player_tabs(m, n, random_submissions(m, rng, 0.3).get(n), picture=True) for n in names]
    alone = [F.book_bytes(tabs) for tabs in players]
    drawn = []
    real = F._draw
    monkeypatch.setattr(F, "_draw", lambda tab: drawn.append(tab) or real(tab))
    shared = F.SharedTabs()
    assert [F.book_bytes(tabs, shared=shared) for tabs in players] == alone
    board = players[0][tab_name("board")]
    assert sum(tab == board for tab in drawn) == 1                        # the public board: drawn once
    assert len(drawn) < 3 * len(players)
    # a tab changed after it was drawn is drawn again (the cache keeps its own copy)
    board.rows[0][0] = C("changed")
    again = F.book_bytes(players[0], shared=shared)
    assert again != alone[0] and again == F.book_bytes(players[0])


def test_a_resolve_lays_out_the_public_board_once_and_each_players_results_once(tmp_path, monkeypatch):
    """The board every book shows is laid out once a round (the players' own Results, each drawn once,
    are not kept where they would push it out), and each player's Results once."""
    from sheetbridge.host.demo import fill_submission
    from sheetbridge.host.new import new_game
    from sheetbridge.host.resolve import resolve
    from sheetbridge.host.session import load
    from sheetbridge.sheets import layout as L
    names = players_for("three-modular-rooms")
    store = X.XlsxStore(tmp_path)
    new_game("three-modular-rooms", [PlayerInfo(n, "", 10) for n in names], store, seed=4, folder=tmp_path)
    rng = Rng.from_seed(4, "layout once")
    for _ in range(2):
        ld = load(store)
        for p, raw in random_submissions(ld.match, rng).items():
            fill_submission(store, ld, p, raw)
        laid: list[str] = []
        real = L._layout_report
        monkeypatch.setattr(L, "_layout_report", lambda report, notice: laid.append(report.title) or real(report, notice))
        L._kept_report_tab.cache_clear()
        assert resolve(X.XlsxStore(tmp_path)).action == "resolved"
        monkeypatch.setattr(L, "_layout_report", real)
        m = load(store).match
        board = m.public_report().title
        assert laid.count(board) == 1
        assert sorted(t for t in laid if t != board and not t.startswith("Round ")) == \
            sorted(m.player_report(p).title for p in names)


def test_a_read_gives_back_what_the_fast_writer_wrote(tmp_path):
    store = X.XlsxStore(tmp_path)
    tab = everything_tab()
    tab.rows.append([C(0.1 + 0.2), C(2 ** 60 + 1), C(-0.0), C(1.5e300), C(float("nan"))])
    info = store.create(player_key("Ann"), "t", {"T": tab})
    got = store.open(info.key, info.location).read(["T"])["T"]
    assert normalise([row[:HELPER_COLUMN] for row in got]) == tab.values()   # (the long list: in a helper column)
    assert got[2][:7] == ["3", "2.5", "TRUE", "FALSE", "-7", "1e-07", "123456.789"]
    assert got[3][2:4] == ["<r><t>x</t></r>", "a & b < c > d"]
    # Numbers openpyxl's writer rounded come back exactly (an int beyond 2**53 is stored as its text).
    assert got[5][:5] == ["0.30000000000000004", str(2 ** 60 + 1), "0", text_of(1.5e300), "nan"]


def test_formulas_and_error_cells_typed_by_a_player_read_as_openpyxl_read_them(tmp_path):
    store = X.XlsxStore(tmp_path)
    info = store.create(player_key("Ann"), "t", {"T": TabData(rows=[[C("x"), C("y")]]), "U": TabData(rows=[[C(1)]])})
    path = tmp_path / info.location
    wb = openpyxl.load_workbook(path)
    wb["T"]["A2"] = "=1+2"                    # a formula with no cached value (calamine alone would read "")
    wb["T"]["B2"] = "#N/A"
    wb["T"]["B2"].data_type = "e"             # an error cell, as a spreadsheet program stores #N/A
    wb.save(path)
    book = store.open(info.key, info.location)
    assert book.read(["T", "U"]) == {"T": [["x", "y"], ["=1+2", "#N/A"]], "U": [["1"]]}


def test_a_formula_in_a_tab_not_read_leaves_the_read_to_calamine(tmp_path, monkeypatch):
    """Only the tabs read are looked at for formulas: a round reads a player's Submission tab,
    and their Results and Board tabs (growing every round) are not inflated for it. A formula in
    a tab read still sends the read to openpyxl."""
    store = X.XlsxStore(tmp_path)
    info = store.create(player_key("Ann"), "t", {"T": TabData(rows=[[C("x")]]), "U": TabData(rows=[[C(1)]]),
                                                  "Odd & <named>": TabData(rows=[[C("z")]])})
    path = tmp_path / info.location
    wb = openpyxl.load_workbook(path)
    wb["U"]["A2"] = "=1+2"
    wb.save(path)
    book = store.open(info.key, info.location)
    calls: list = []
    slow = X.XlsxBook._read_openpyxl
    monkeypatch.setattr(X.XlsxBook, "_read_openpyxl", lambda self, data, tabs: calls.append(tabs) or slow(self, data, tabs))
    assert book.read(["T", "Odd & <named>"]) == {"T": [["x"]], "Odd & <named>": [["z"]]} and calls == []
    assert book.read(["U"]) == {"U": [["1"], ["=1+2"]]} and calls == [["U"]]


def test_a_partial_write_keeps_the_other_tabs_exactly(tmp_path):
    """The demo typing a player's entries writes one tab: openpyxl carries the others over."""
    store = X.XlsxStore(tmp_path)
    tabs = books_of("three-modular-rooms", tmp_path)["player"]
    info = store.create(player_key("Ann"), "Ann", tabs)
    before = looks(tmp_path / info.location)
    sub = next(iter(tabs))
    changed = TabData(rows=[[C("Round", bold=True), C(2)]], protected=True)
    store.open(info.key, info.location).write({sub: changed})
    after = looks(tmp_path / info.location)
    assert after["tabs"] == before["tabs"]
    for name in before["tabs"][1:]:
        assert after[name] == before[name], name
    assert store.open(info.key, info.location).read([sub])[sub] == [["Round", "2"]]


def test_a_whole_write_keeps_the_tab_order_and_adds_new_tabs_at_the_end(tmp_path):
    store = X.XlsxStore(tmp_path)
    info = store.create(player_key("Ann"), "t", {"A": TabData(rows=[[C("a")]]), "B": TabData(rows=[[C("b")]])})
    book = store.open(info.key, info.location)
    book.write({"B": TabData(rows=[[C("b2")]]), "C": TabData(rows=[[C("c")]]), "A": TabData(rows=[[C("a2")]])})
    assert book.tab_names() == ["A", "B", "C"]
    assert book.read(["A", "B", "C"]) == {"A": [["a2"]], "B": [["b2"]], "C": [["c"]]}


def test_a_book_read_is_not_opened_again_while_its_file_is_unchanged(tmp_path, monkeypatch):
    store = X.XlsxStore(tmp_path)
    info = store.create(player_key("Ann"), "t", {"A": TabData(rows=[[C("a")]]), "B": TabData(rows=[[C("b")]])})
    opened = []
    real = F.open_book
    monkeypatch.setattr(F, "open_book", lambda data: opened.append(data) or real(data))
    assert store.open(info.key, info.location).read(["A"]) == {"A": [["a"]]}
    assert store.open(info.key, info.location).read(["B"]) == {"B": [["b"]]}
    assert store.open(info.key, info.location).tab_names() == ["A", "B"]
    assert len(opened) == 1
    # another program replaces the file: it is read again, also for the tab names a whole write asks for
    path = tmp_path / info.location
    other = F.book_bytes({"B": TabData(rows=[[C("b2")]]), "A": TabData(rows=[[C("a2")]])})
    (tmp_path / "other.xlsx").write_bytes(other)
    (tmp_path / "other.xlsx").replace(path)
    assert store.open(info.key, info.location).tab_names() == ["B", "A"]
    assert store.open(info.key, info.location).read(["A"]) == {"A": [["a2"]]}
    # changed in place (the same file, another size)
    path.write_bytes(F.book_bytes({"C": TabData(rows=[[C("c")]])}))
    assert store.open(info.key, info.location).read(["C"]) == {"C": [["c"]]}
    # our own write, then a read: the new file
    store.open(info.key, info.location).write({"C": TabData(rows=[[C("c3")]])})
    assert store.open(info.key, info.location).read(["C"]) == {"C": [["c3"]]}
    assert len(opened) == 4   # (the write asked the tab names of the book just read: kept)


def test_a_tab_read_again_while_its_book_is_unchanged_is_not_parsed_again_and_is_a_copy(tmp_path, monkeypatch):
    """The master's Record tab is read at load and again just before the commit's compare-and-set: the
    second read of an unchanged book gives what the first gave (a copy), with nothing opened or parsed;
    another program's change of the file is read."""
    store = X.XlsxStore(tmp_path)
    info = store.create(player_key("Ann"), "t", {"A": TabData(rows=[[C("a")]]), "B": TabData(rows=[[C("b")]])})
    path = tmp_path / info.location
    ann = path.read_bytes()
    parsed = []
    real = F.read_values
    monkeypatch.setattr(F, "read_values",
                        lambda opened, tabs, slow: parsed.append(opened.data == ann) or real(opened, tabs, slow))
    first = store.open(info.key, info.location).read(["A", "B"])
    first["A"][0].append("changed by the caller")
    for _ in range(3):   # (more books read in between than the store keeps opened)
        for i in range(6):
            other = store.create(player_key(f"P{i}"), "t", {"A": TabData(rows=[[C(str(i))]])})
            store.open(other.key, other.location).read(["A"])
    assert store.open(info.key, info.location).read(["A"]) == {"A": [["a"]]}
    assert store.open(info.key, info.location).read(["B", "A"]) == {"B": [["b"]], "A": [["a"]]}
    assert parsed.count(True) == 1   # (Ann's book parsed once; the other books' reads parsed theirs)
    (tmp_path / "other.xlsx").write_bytes(F.book_bytes({"A": TabData(rows=[[C("a2")]]), "B": TabData(rows=[[C("b")]])}))
    (tmp_path / "other.xlsx").replace(path)
    assert store.open(info.key, info.location).read(["A"]) == {"A": [["a2"]]}


def test_an_unreadable_file_is_named_in_one_line(tmp_path):
    store = X.XlsxStore(tmp_path)
    info = store.create(player_key("Ann"), "t", {"T": TabData(rows=[[C("x")]])})
    path = tmp_path / info.location
    data = path.read_bytes()
    for damaged in (b"not a workbook", data[: len(data) // 2], data[:200] + b"\0" * 300 + data[500:]):
        path.write_bytes(damaged)
        with pytest.raises(X.WorkbookError, match=r"not a readable \.xlsx workbook"):
            store.open(info.key, info.location).read(["T"])


def test_a_resolve_and_an_undo_write_whole_books_only(tmp_path, monkeypatch):
    """The round's path never needs openpyxl: every book it writes is written whole (the fast writer)."""
    from sheetbridge.host.demo import fill_submission
    from sheetbridge.host.new import new_game
    from sheetbridge.host.resolve import resolve
    from sheetbridge.host.session import load
    from sheetbridge.host.undo import undo
    store = X.XlsxStore(tmp_path)
    new_game("three-modular-rooms", [PlayerInfo(n, "", 10) for n in ["Ann", "Bo", "Cy"]], store, seed=3,
               folder=tmp_path)
    ld = load(store)
    for p, raw in random_submissions(ld.match, Rng.from_seed(3, "w"), 0.0).items():
        fill_submission(store, ld, p, raw)
    kinds = []
    real = X.XlsxBook.write

    def write(book, tabs):
        kinds.append("whole" if set(book.tab_names()) <= set(tabs) else "partial")
        return real(book, tabs)
    monkeypatch.setattr(X.XlsxBook, "write", write)
    assert resolve(store).action == "resolved"
    undo(store)
    assert kinds == ["whole"] * len(kinds) and len(kinds) == 2 * 5   # master, 3 players, board; twice


def a_png(width: int, height: int) -> bytes:
    """A PNG with a red square in its top-left corner (so a reader's copy can be checked by pixels)."""
    from PIL import Image
    img = Image.new("RGB", (width, height), (255, 255, 255))
    img.paste((255, 0, 0), (0, 0, 10, 10))
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def images_of(data: bytes) -> list[tuple[str, str, bytes, tuple[int, int]]]:
    """Each picture as a reader finds it: tab, top-left cell, its bytes, its size on the sheet (EMU)."""
    wb = openpyxl.load_workbook(io.BytesIO(data))
    out = []
    for ws in wb.worksheets:
        for image in ws._images:
            marker = image.anchor._from
            out.append((ws.title, f"{openpyxl.utils.get_column_letter(marker.col + 1)}{marker.row + 1}",
                        image._data(), (image.anchor.ext.width, image.anchor.ext.height)))
    return out


def test_both_writers_put_a_picture_at_its_cell_at_its_own_size():
    png = a_png(120, 40)
    tab = TabData(rows=[[C("Round 3: the board", bold=True)]], col_widths={0: 30.0}, row_heights={0: 40.0},
                  images=[TabImage(png, row=2, col=1, name="round-3-board.png")])
    tabs = {"Board": TabData(rows=[[C("text")]]), "Picture": tab}
    emu = (120 * 9525, 40 * 9525)          # 9,525 EMU per pixel at 96 dpi: the picture is not stretched
    for data in (F.book_bytes(tabs), old_writer(tabs)):
        assert images_of(data) == [("Picture", "B3", png, emu)]
    first = F.book_bytes(tabs)
    assert F.book_bytes(tabs) == first                                   # still byte-deterministic
    with zipfile.ZipFile(io.BytesIO(first)) as z:
        drawing = z.read("xl/drawings/drawing1.xml")
        ElementTree.fromstring(drawing)
    assert b"<xdr:oneCellAnchor>" in drawing and b"twoCellAnchor" not in drawing


def test_the_board_book_holds_the_last_rounds_public_picture(tmp_path):
    from sheetbridge.host.new import new_game
    from sheetbridge.host.resolve import resolve
    from sheetbridge.host.session import load
    from sheetbridge.host.undo import undo
    from sheetbridge.host.pictures import render_png
    from sheetbridge.host.tabs import board_picture
    store = X.XlsxStore(tmp_path)
    new_game("skeld", [PlayerInfo(n, "", 10) for n in ("Ann", "Bo", "Cy", "Dee")], store, seed=5)
    board = tmp_path / "board.xlsx"
    wb = openpyxl.load_workbook(board)
    assert wb.sheetnames == ["Board", "Picture", "Identity"] and wb["Picture"]._images == []
    assert wb["Picture"]["A1"].value == "No picture yet: the board is drawn when the first round is resolved."
    for _ in range(2):
        ld = load(store)
        for p in ld.match.players:
            X.XlsxStore(tmp_path).open(player_key(p), ld.locations[p]).write(
                player_tabs(ld.match, p, random_submissions(ld.match, Rng.from_seed(1, p), 0.0).get(p)))
        resolve(store, allow_empty=True)
    m = load(store).match
    assert [r.round for r in m.rounds] == [0, 1]             # Skeld's round 0: the starting rooms
    (got,) = images_of(board.read_bytes())
    assert got[0] == "Picture" and got[2] == render_png(board_picture(m, 1))
    assert got[2] == (tmp_path / "pictures" / "round-1-board.png").read_bytes()
    assert openpyxl.load_workbook(board)["Picture"]["A1"].value == "Round 1: the board"
    undo(store)
    (got,) = images_of(board.read_bytes())                   # back to round 0's picture
    assert got[2] == render_png(board_picture(load(store).match, 0)) != render_png(board_picture(m, 1))
    undo(store)
    wb = openpyxl.load_workbook(board)
    assert wb["Picture"]._images == [] and wb["Picture"]["A1"].value.startswith("No picture yet")
