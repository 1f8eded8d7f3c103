"""The fast writer gives byte for byte the books it gave before issue 31's package cache: the writer
as it was (a copy: tests/reference/xlsx_fast_before_i31.py) and as it is write the same real books of
every game, several rounds into it, with and without pictures, each book alone and a round's books
sharing what they share (as a store writes them); and the books of a round share one package."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from sheetbridge.api import games, new_match
from sheetbridge.core.match import random_submissions
from sheetbridge.core.rng import Rng
from sheetbridge.host.players import PlayerInfo
from sheetbridge.host.tabs import board_tabs, master_tabs, player_tabs
from sheetbridge.sheets import xlsx as X
from sheetbridge.sheets import xlsx_fast as F

from conftest import players_for
from test_xlsx_writers import everything_tab

ROUNDS = (1, 2, 4)


def _before():
    """The writer as it was before (sheetbridge/sheets/xlsx_fast.py at issue 31's start), as a module of
    sheetbridge.sheets (its imports are relative)."""
    name = "sheetbridge.sheets._xlsx_fast_before_i31"
    if name not in sys.modules:
        path = Path(__file__).parent / "reference" / "xlsx_fast_before_i31.py"
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def rounds_of_books(game_id, tmp_path):
    """Each round's books (title, tabs): the master, every player's book and the board, pictures on
    and off, at rounds 1, 2 and 4 of a game (some entries invalid)."""
    names = players_for(game_id)
    m = new_match(game_id, names, seed=7, garnets={n: 10 for n in names})
    rng = Rng.from_seed(7, "same bytes")
    players = [PlayerInfo(n, f"{n.lower()}@example.com", 10) for n in names]
    store = X.XlsxStore(tmp_path)
    for round_no in range(1, max(ROUNDS) + 1):
        if m.finished:
            break
        typed = random_submissions(m, rng, 0.3)
        if round_no in ROUNDS:
            for picture in (False, True):
                books = [("the host master", master_tabs(m, players, {n: f"players/{n}.xlsx" for n in names},
                                                         "board.xlsx", store, ["a warning"]))]
                books += [(None, player_tabs(m, n, typed.get(n), picture=picture)) for n in names]
                books += [("the board", board_tabs(m, picture=picture))]
                yield f"round {round_no}, pictures {'on' if picture else 'off'}", books
        m.resolve(typed)


@pytest.mark.parametrize("game_id", sorted(games()))
def test_every_book_of_every_game_has_the_bytes_the_writer_gave_before(game_id, tmp_path, monkeypatch):
    before = _before()
    made = []
    real = F._skeleton
    monkeypatch.setattr(F, "_skeleton", lambda title, tabs: made.append(title) or real(title, tabs))
    seen = 0
    for what, books in rounds_of_books(game_id, tmp_path):
        old = [before.book_bytes(tabs, title) for title, tabs in books]
        assert [F.book_bytes(tabs, title) for title, tabs in books] == old, f"{game_id}, {what}"
        old_shared, new_shared = before.SharedTabs(), F.SharedTabs()
        made.clear()
        for n, (title, tabs) in enumerate(books):
            assert F.book_bytes(tabs, title, new_shared) == before.book_bytes(tabs, title, old_shared) == old[n], \
                f"{game_id}, {what}: book {n} differs when shared"
        seen += len(books)
        # books of the same structure (the same tabs, looks in the same order, no private picture; their
        # dropdowns may differ) share one package: without pictures, some players' books do in every round
        if "pictures off" in what:
            assert len(made) < len(books) - 1, f"{game_id}, {what}: {len(made)} packages for {len(books)} books"
    assert seen >= 30


def test_odd_tabs_have_the_bytes_the_writer_gave_before():
    from sheetbridge.sheets.model import CellData as C, TabData, TabImage
    before = _before()
    picture = TabImage(_tiny_png(), row=2, col=1)
    books = [{"Everything": everything_tab()},
             {"Everything": everything_tab(), "Hidden": TabData(rows=[[C("secret")]], hidden=True),
              "Wide": TabData(rows=[[C(i) for i in range(12)]], col_widths={c: 12.0 for c in range(12)})},
             {"Hidden": TabData(rows=[[C("x", bold=True)]], hidden=True), "Shown": TabData(rows=[[C("y", bold=True)]])},
             {"Empty": TabData(rows=[])},
             {"Picture": TabData(rows=[[C("over", fill="FFF2CC")]], images=[picture]),
              "Again": TabData(rows=[[C("same look", fill="FFF2CC"), C("new", bold=True)]], images=[picture])}]
    new_shared, old_shared = F.SharedTabs(), before.SharedTabs()
    for n, tabs in enumerate(books + books):
        assert F.book_bytes(tabs) == before.book_bytes(tabs), n
        assert F.book_bytes(tabs, "t", new_shared) == before.book_bytes(tabs, "t", old_shared), n


def _tiny_png() -> bytes:
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"\x00\xff\x00\x00" * 1
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def test_parts_are_packed_as_zipfile_packs_them():
    parts = [("[Content_Types].xml", b"<Types/>"), ("xl/empty.xml", b""), ("xl/m\u00e9dia/caf\u00e9.png", bytes(range(256)) * 50),
             ("xl/worksheets/sheet1.xml", b"<sheetData>" + b"<row/>" * 10_000 + b"</sheetData>")]
    shared = F.SharedTabs()
    assert F._pack(parts, F._deflated) == F._pack_zipfile(parts)
    assert F._pack(parts, shared.deflated) == F._pack(parts, shared.deflated) == F._pack_zipfile(parts)
    assert F._pack([], F._deflated) == F._pack_zipfile([])
