"""The master's record as a head and one sealed entry per round (issue 31, host/record.py): a resolve
serialises and seals only the new round, a master written by main before it loads and is upgraded once,
and a hand edit of any round's entry is still caught.

tests/records/game-main-5aa35f6/ is a Three Modular Rooms game (Ann, Bo, Cy, seed 7) written by main at
5aa35f6 (the record as one JSON text): two rounds resolved, round 3's entries typed. Kept as it is.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import openpyxl
import pytest

from sheetbridge.core.errors import LedgerError
from sheetbridge.core.match import random_submissions
from sheetbridge.core.round_record import RoundRecord
from sheetbridge.core.rng import Rng
from sheetbridge.host.demo import fill_submission
from sheetbridge.host.record import read_record
from sheetbridge.host.resolve import resolve
from sheetbridge.host.session import load
from sheetbridge.host.undo import undo
from sheetbridge.sheets import layout as L
from sheetbridge.sheets.xlsx import XlsxStore

OLD_GAME = Path(__file__).parent / "records" / "game-main-5aa35f6"


@pytest.fixture
def game(tmp_path: Path) -> Path:
    folder = tmp_path / "game"
    shutil.copytree(OLD_GAME, folder)
    return folder


def record_rect(folder: Path) -> list[list[str]]:
    store = XlsxStore(folder)
    rec = L.tab_name("record")
    return store.open("master", store.master_location()).read([rec])[rec]


def count_round_json(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    original = RoundRecord.to_json

    def counted(self: RoundRecord) -> dict:
        calls.append(self.round)
        return original(self)
    monkeypatch.setattr(RoundRecord, "to_json", counted)
    return calls


def type_entries(folder: Path, seed: int) -> None:
    store = XlsxStore(folder)
    ld = load(store)
    for p, raw in random_submissions(ld.match, Rng.from_seed(seed, "entries")).items():
        fill_submission(store, ld, p, raw)


def test_a_master_written_by_main_loads_resolves_and_is_upgraded_once(game: Path, monkeypatch) -> None:
    assert L.read_entries_tab(record_rect(game), "record") is None     # one JSON text, as main wrote it
    before = load(XlsxStore(game)).match
    assert [r.round for r in before.rounds] == [1, 2]
    calls = count_round_json(monkeypatch)
    assert resolve(XlsxStore(game)).action == "resolved"
    assert sorted(calls) == [1, 2, 3]                 # the upgrade: every round written once as its entry
    rect = record_rect(game)
    head, texts = L.read_entries_tab(rect, "record")
    assert [row[0] for row in rect[2:]] == ["round 1", "round 2", "round 3"] and len(texts) == 3
    stored = read_record(rect, "record")
    assert stored.sealed
    after = load(XlsxStore(game)).match
    assert after.round == 4
    assert [r.to_json() for r in after.rounds[:2]] == [r.to_json() for r in before.rounds]

    calls.clear()
    type_entries(game, 4)
    assert resolve(XlsxStore(game)).action == "resolved"
    assert calls == [4]                               # upgraded once: only the new round is serialised
    assert L.read_entries_tab(record_rect(game), "record")[1][:3] == texts   # old entries kept as written


def test_undo_drops_the_last_entry_and_keeps_the_others(game: Path) -> None:
    resolve(XlsxStore(game))
    type_entries(game, 4)
    resolve(XlsxStore(game))
    texts = L.read_entries_tab(record_rect(game), "record")[1]
    assert len(texts) == 4
    undo(XlsxStore(game))
    after = L.read_entries_tab(record_rect(game), "record")[1]
    assert after == texts[:3]
    assert read_record(record_rect(game), "record").sealed
    assert load(XlsxStore(game)).match.round == 4


@pytest.mark.parametrize("row", [2, 3])   # round 1's entry, round 2's
def test_a_hand_edit_of_a_rounds_entry_is_caught(game: Path, row: int) -> None:
    resolve(XlsxStore(game))
    path = game / "master.xlsx"
    wb = openpyxl.load_workbook(path)
    ws = wb[L.tab_name("record")]
    cell = ws.cell(row=row + 1, column=2)
    assert '"seed":' in cell.value
    cell.value = cell.value.replace('"seed":', '"seed":1', 1)
    wb.save(path)
    assert not read_record(record_rect(game), "record").sealed
    with pytest.raises(LedgerError, match="Record tab was edited"):
        load(XlsxStore(game))


def test_on_google_a_resolve_sends_only_the_new_rounds_entry_and_the_book_holds_the_whole_record(tmp_path):
    """The Record tab's rounds already in the master are not sent again (TabData.kept_rows); what the
    master then holds is the whole record, as a full write would leave it, through resolves and an undo."""
    import json as _json
    from sheetbridge.host.new import new_game
    from sheetbridge.host.players import PlayerInfo
    from sheetbridge.host.record import record_tab
    from tests.fake_google import FakeGoogle
    fake = FakeGoogle(seed=3)
    store = fake.store("host@example.com", game_folder=tmp_path / "g")
    store.game_id = "three-modular-rooms"
    new_game("three-modular-rooms", [PlayerInfo(n, "", 10) for n in ("Ann", "Bo", "Cy")], store, seed=4,
             folder=tmp_path / "g")
    sent: list[dict] = []
    handle = fake.handle

    def spy(method, url, headers, body, timeout=None):
        if body and ":batchUpdate" in url and store.master_location() in url:
            sent.append(_json.loads(body))
        return handle(method, url, headers, body, timeout)
    fake.handle = spy
    for step in ("resolve", "resolve", "resolve", "undo", "resolve"):
        sent.clear()
        assert (resolve(store, allow_empty=True) if step == "resolve" else undo(store)).action in ("resolved", "undone")
        ld = load(store)                                   # the book's record: sealed and whole
        rect = ld.master.read([L.tab_name("record")])[L.tab_name("record")]
        assert read_record(rect, "record").sealed
        assert rect[2:] == record_tab(ld.match, {}).values()[2:]   # every round's row, as a full write has it
        cells = [u["updateCells"] for b in sent for u in b["requests"] if "updateCells" in u]
        record_id = store._sheets(store.master_location())[L.tab_name("record")]   # (other tabs keep rows too)
        record_rows = [c for c in cells if c["range"].get("sheetId") == record_id
                       and c["range"].get("startRowIndex", 0) >= 2]
        if step == "resolve" and ld.match.round > 2:
            assert len(record_rows) == 1 and len(record_rows[0]["rows"]) == 1   # the new round's row alone
            assert record_rows[0]["range"]["startRowIndex"] == ld.match.round   # row 3 holds round 1


def test_an_entry_longer_than_a_cell_is_chunked_along_its_row():
    from sheetbridge.sheets.model import utf16_length
    head = L.json_text({"memo": "😀_x0041_" * 20_000})
    entry = L.json_text({"round": 1, "memo": "😀" * 40_000})
    tab = L.entries_tab(head, [("round 1", entry)])
    assert len(tab.rows[1]) > 2 and len(tab.rows[2]) > 2
    assert all(utf16_length(c.value) <= 30_000 for row in tab.rows for c in row)
    assert "_x0041_" not in head
    assert L.read_entries_tab(tab.values(), "test") == (head, [entry])
