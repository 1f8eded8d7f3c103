"""A resolved round replays to the same result whatever was typed (issue 25, point 3).

For every game, random submissions (Hypothesis: legal entries, the same dressed up as a
Japanese keyboard or a careless player types them, and hostile text) are typed into the real
players' .xlsx files; each round is resolved, undone and resolved again, and the files must come
out the same: players' books and the board byte for byte, the master's tabs cell for cell (its
Ledger and Record keep the undo, by design: reversal rows, append-only). Two rounds at least,
so that every undo after the first replays a round resolved from those entries.

The default run tries a few examples per game (derandomized, so CI is repeatable);
``pytest -m fuzz`` runs many.
"""
from __future__ import annotations

import hashlib
import re
import shutil
import tempfile
from pathlib import Path

import openpyxl
import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from python_calamine import CalamineWorkbook

from sheetbridge.host.new import new_game
from sheetbridge.host.players import PlayerInfo
from sheetbridge.host.resolve import resolve
from sheetbridge.host.session import load
from sheetbridge.host.undo import undo
from sheetbridge.api import games
from sheetbridge.core.rng import Rng
from sheetbridge.sheets.xlsx import XlsxStore

from conftest import players_for
from test_input_fuzz import COMMON, ODD_DIGITS, hostile_text

ROUNDS = 2
# No shrinking: every example writes and reads files, and shrinking one took minutes. The draws are
# labelled, so a failure shows each cell as typed.
NO_SHRINK = dict(phases=(Phase.explicit, Phase.reuse, Phase.generate))
FULLWIDTH = {ord(c): ord(c) + 0xFEE0 for c in "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-"}
# Lone surrogates, and U+FFFE and U+FFFF, which openpyxl writes but cannot read back (its slow read,
# taken when a book holds a formula, fails on them); test_undo_repair.py types U+FFFF where it can.
NOT_XML = re.compile("[\ud800-\udfff\ufffe\uffff]")
# The master's tabs an undo changes by design: the ledger gains reversal rows, the record counts undos.
KEEPS_THE_UNDO = {"Ledger", "Record"}


def xlsx_text(text: str) -> str:
    """What a player can put in an .xlsx cell (no control characters, nor what XML cannot hold), kept
    short enough that an example stays fast (the caps themselves are test_input_fuzz's business)."""
    return NOT_XML.sub("", ILLEGAL_CHARACTERS_RE.sub("", text))[:300]


def typed(legal: str, choices) -> st.SearchStrategy[str]:
    """One cell as typed: the legal entry as it is, in fullwidth (a Japanese keyboard), padded and
    upper-cased, blank, an odd digit, or hostile text."""
    return st.one_of(
        st.just(legal), st.just(legal.translate(FULLWIDTH)), st.just(f" {legal.upper()}\u3000"), st.just(""),
        st.sampled_from(ODD_DIGITS), hostile_text(tuple(choices or ())).map(xlsx_text))


def type_entries(path: Path, form, raw: dict) -> None:
    """Fill a Submission tab cell by cell, as the player would in a spreadsheet program."""
    wb = openpyxl.load_workbook(path)
    ws = wb["Submission"]
    titles = {ws.cell(r, 1).value: r for r in range(1, ws.max_row + 1)}
    for sec in form.sections:
        top = titles[sec.title] + 2
        for i, row in enumerate(raw.get(sec.name, [])[:sec.rows]):
            for j, fld in enumerate(sec.fields):
                text = row.get(fld.name, "")
                # a formula typed by a player is a formula in the cell; text is text
                ws.cell(top + i, 2 + j).value = text if text else None
    wb.save(path)


def books(folder: Path) -> dict:
    """Players' books and the board byte for byte; the master's tabs (but the undo's own) by value."""
    out: dict = {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
                 for p in sorted(folder.rglob("*.xlsx")) if p.name != "master.xlsx"}
    for p in sorted((folder / "players").glob("*.xlsx")):   # what differs, when a book does
        book = CalamineWorkbook.from_path(str(p))
        for name in book.sheet_names:
            out[f"players/{p.name}/{name}"] = book.get_sheet_by_name(name).to_python()
    master = CalamineWorkbook.from_path(str(folder / "master.xlsx"))
    for name in master.sheet_names:
        if name not in KEEPS_THE_UNDO:
            out[f"master.xlsx/{name}"] = master.get_sheet_by_name(name).to_python()
    return out


def changes(want: dict, got: dict, keys: list[str]) -> list:
    """The first differing rows of each tab that differs (a book is shown tab by tab)."""
    out = []
    for key in keys:
        if key.endswith(".xlsx"):
            continue
        rows = [(i, a, b) for i, (a, b) in enumerate(zip(want[key], got[key])) if a != b]
        out.append((key, rows[:3], len(want[key]), len(got[key])))
    return out


_templates: dict[str, Path] = {}


def template(game_id: str) -> Path:
    """A new game of `game_id` (made once per session; each example plays a copy)."""
    if game_id not in _templates:
        spec = games()[game_id].spec
        folder = Path(tempfile.mkdtemp(prefix=f"undo-fuzz-{game_id}-")) / "game"
        players = players_for(game_id, spec.min_players)
        new_game(game_id, [PlayerInfo(p, "", 10) for p in players], XlsxStore(folder),
                   seed=3, folder=folder)
        _templates[game_id] = folder
    return _templates[game_id]


def play(game_id: str, data) -> None:
    work = Path(tempfile.mkdtemp(prefix="undo-fuzz-"))
    try:
        folder = work / "game"
        shutil.copytree(template(game_id), folder)
        for _ in range(ROUNDS):
            m = load(XlsxStore(folder)).match
            if m.finished:
                break
            seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
            for p in m.players:
                form = m.form(p)
                legal = m.game.random_submission(m.state, p, Rng.from_seed(seed, "player", p))
                raw = {sec.name: [{fld.name: data.draw(typed(str((rows[i] if i < len(rows) else {}).get(fld.name, "")),
                                                             fld.choices), label=f"{p} {sec.name} {i} {fld.name}")
                                   for fld in sec.fields} for i in range(sec.rows)]
                       for sec in form.sections for rows in [legal.get(sec.name, [])]}
                type_entries(folder / "players" / f"{p}.xlsx", form, raw)
            first = resolve(XlsxStore(folder), allow_empty=True)
            assert first.action == "resolved", first.message
            want = books(folder)
            undone = undo(XlsxStore(folder), round_no=first.record.round)
            assert undone.action == "undone", undone.message
            again = resolve(XlsxStore(folder), allow_empty=True, round_no=first.record.round)
            assert again.action == "resolved", again.message
            got = books(folder)
            assert got.keys() == want.keys()
            differ = [k for k in want if got[k] != want[k]]
            assert not differ, f"round {first.record.round}: undo then resolve changed {differ}: {changes(want, got, differ)}"
    finally:
        shutil.rmtree(work, ignore_errors=True)


@pytest.mark.parametrize("game_id", sorted(games()))
@settings(max_examples=2, derandomize=True, **COMMON, **NO_SHRINK)
@given(data=st.data())
def test_undo_then_resolve_gives_the_same_files(game_id, data):
    play(game_id, data)


@pytest.mark.fuzz
@pytest.mark.parametrize("game_id", sorted(games()))
@settings(max_examples=40, **COMMON, **NO_SHRINK)
@given(data=st.data())
def test_fuzz_undo_then_resolve_gives_the_same_files(game_id, data):
    play(game_id, data)
