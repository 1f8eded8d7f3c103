"""What the backends write reads back as written, no cell is over a backend's limit, the
Submission tab's structure is protected, stray entries are found, the master's tabs are
readable, and every game's colours are distinct and readable. Offline: xlsx files and the
fake Google (tests/fake_google)."""
from __future__ import annotations

import itertools
from pathlib import Path

import openpyxl
import pytest
from coloraide import Color
from gspread.exceptions import APIError

from sheetbridge.host.demo import fill_submission
from sheetbridge.host.new import new_game
from sheetbridge.host.players import PlayerInfo
from sheetbridge.host.resolve import resolve
from sheetbridge.host.session import load
from sheetbridge.api import games, new_match
from sheetbridge.core import integrity
from sheetbridge.core.ledger import COLUMNS
from sheetbridge.core.match import random_submissions
from sheetbridge.core.rng import Rng
from sheetbridge.sheets import layout as L
from sheetbridge.sheets.model import (GOOGLE_CELL_LIMIT, XLSX_CELL_LIMIT, CellData as C, TabData, fit_cell,
                                      utf16_length)
from sheetbridge.sheets.store import player_key
from sheetbridge.sheets.xlsx import XlsxStore
from sheetbridge.host.tabs import LEDGER_TOTALS_COLUMN, ledger_tab, rounds_tab

from conftest import players_for
from fake_google import FakeGoogle

HOST = "host@example.com"

# What a player or a game may put in a cell, and what must come back.
SAME = [" (Eli)", "(Eli) ", "  two spaces  ", "\nleading newline", "trailing newline\n", "two\nlines",
        "tab\there", "=1+2", "=SUM(A1:A3)", "'quoted", "''", "007", "-0", "1e5", "3.0", "TRUE", "#N/A", "+1",
        "@home", "_x0041_", "_x005F_x0041_", "a_x000D_b", "é ü ß", "名前", "emoji 😀", "\u00a0nbsp\u00a0"]
# Deliberate differences, documented in sheetbridge/sheets/model.py.
CHANGED = {"a\r\nb": "a\nb", "a\rb": "a\nb", "bell\x07": "bell\ufffd", "nul\x00": "nul\ufffd",
           "vt\x0bff\x0c": "vt\ufffdff\ufffd"}


def xlsx_store(tmp_path):
    return XlsxStore(tmp_path / "x")


def google_store():
    return FakeGoogle(seed=1).store(HOST)


@pytest.fixture(params=["xlsx", "google"])
def backend(request, tmp_path):
    return request.param, (xlsx_store(tmp_path) if request.param == "xlsx" else google_store())


def write_and_read(store, values, **tab):
    info = store.create(player_key("Ann"), "t", {"T": TabData(rows=[[C(v)] for v in values], **tab)})
    return [row[0] if row else "" for row in store.open(info.key, info.location).read(["T"])["T"]]


# ------------------------------------------------------------------ reads give back what was written

def test_both_backends_give_back_text_exactly_as_written(backend):
    name, store = backend
    got = write_and_read(store, SAME + list(CHANGED) + [3, 2.5, 4.0, True])
    assert got[:len(SAME)] == SAME
    assert got[len(SAME):len(SAME) + len(CHANGED)] == list(CHANGED.values())
    assert got[-4:] == ["3", "2.5", "4", "TRUE"]


def test_a_memo_with_a_leading_space_survives_a_reload_of_the_ledger_tab(backend):
    # The Ledger tab itself keeps " (Eli)" (and the record, not the tab, is what the ledger is read from).
    name, store = backend
    rect = [list(COLUMNS), ["g", 1, "Ann", 3, "prize", "g:r1:Ann", " (Eli)"]]
    info = store.create(player_key("Ann"), "t", {"Ledger": TabData(rows=[[C(v) for v in r] for r in rect])})
    back = store.open(info.key, info.location).read(["Ledger"])["Ledger"]
    assert back[1][6] == " (Eli)"


def test_what_a_tab_says_it_holds_is_what_a_read_returns(backend):
    name, store = backend
    values = SAME + list(CHANGED)
    tab = TabData(rows=[[C(v)] for v in values])
    info = store.create(player_key("Ann"), "t", {"T": tab})
    assert store.open(info.key, info.location).read(["T"])["T"] == tab.values()


# ------------------------------------------------------------------ cells over a backend's limit

def test_fit_cell_keeps_start_and_says_how_long_the_value_was():
    text = "x" * 52_113
    out = fit_cell(text, GOOGLE_CELL_LIMIT)
    assert len(out) == GOOGLE_CELL_LIMIT
    assert out.endswith("x... [shortened: 52,113 characters]")
    assert fit_cell("short", 10) == "short"
    # Astral characters count twice, as Excel and Google count them; none is split.
    emoji = fit_cell("😀" * 20_000, XLSX_CELL_LIMIT)
    assert utf16_length(emoji) <= XLSX_CELL_LIMIT and emoji.endswith("😀... [shortened: 20,000 characters]")


@pytest.mark.parametrize("length", [50_000, 50_001, 52_113])
def test_no_backend_writes_a_cell_over_its_limit(backend, length):
    name, store = backend
    limit = XLSX_CELL_LIMIT if name == "xlsx" else GOOGLE_CELL_LIMIT
    got = write_and_read(store, ["y" * length])[0]
    if length <= limit:
        assert got == "y" * length
    else:
        assert len(got) == limit and got.endswith(f"y... [shortened: {length:,} characters]")


def test_a_50000_character_entry_does_not_stop_a_google_round(tmp_path):
    """A 50,000-character entry is one problem, echoed short: the round goes on and no cell is too long."""
    fake = FakeGoogle(seed=3)
    folder = tmp_path / "g"
    st = fake.store(HOST, game_folder=folder)
    st.game_id = "three-modular-rooms"
    players = [PlayerInfo(n, f"{n.lower()}@example.com", 10) for n in ["Ann", "Bo", "Cy"]]
    new_game("three-modular-rooms", players, st, seed=4, folder=folder)
    ld = load(st)
    fill_submission(st, ld, "Ann", {"play": [{"card": "x" * 50_000, "room": "Null"}]})
    res = resolve(st, allow_empty=True)
    assert res.action == "resolved"
    # The entry is refused at the source (one problem, a 40-character echo); no cell anywhere is over the limit.
    log = load(st).master.read([L.tab_name("log")])[L.tab_name("log")]
    assert all(len(c) <= GOOGLE_CELL_LIMIT for row in log for c in row)
    assert any("too long: 50,000 characters" in c for row in log for c in row)
    results = st.open(player_key("Ann"), ld.locations["Ann"]).read([L.tab_name("results")])[L.tab_name("results")]
    assert any("too long: 50,000 characters" in c for row in results for c in row)
    assert not any("x" * 100 in c for row in results for c in row)


def test_a_50000_character_entry_never_makes_an_xlsx_cell_too_long(tmp_path):
    store = XlsxStore(tmp_path)
    new_game("three-modular-rooms", [PlayerInfo(n, "", 10) for n in ["Ann", "Bo"]], store, seed=4,
               folder=tmp_path)
    ld = load(store)
    fill_submission(store, ld, "Ann", {"play": [{"card": "x" * 50_000, "room": "Null"}]})
    assert resolve(store, allow_empty=True).action == "resolved"
    ws = openpyxl.load_workbook(tmp_path / "master.xlsx")[L.tab_name("log")]
    notes = [c.value for c in ws["B"] if isinstance(c.value, str) and c.value.startswith("Ann: Card = 'xxx")]
    assert notes and all("too long: " in v and len(v) < 400 for v in notes)   # (the xlsx cell held 32,767)
    for path in [tmp_path / "master.xlsx", *(tmp_path / "players").glob("*.xlsx")]:
        for sheet in openpyxl.load_workbook(path).worksheets:
            assert all(len(str(c.value)) <= XLSX_CELL_LIMIT for row in sheet.iter_rows() for c in row if c.value)


def test_the_record_is_chunked_so_no_backend_shortens_it():
    data = {"memo": "😀_x0041_" * 20_000}
    tab = L.json_tab(data)
    assert all(utf16_length(row[0].value) <= 30_000 and "_x0041_" not in row[0].value for row in tab.rows[1:])
    assert L.read_json_tab(tab.values(), "test") == data


# ------------------------------------------------------------------ the Submission tab's structure is protected

def tmr_form():
    m = new_match("three-modular-rooms", ["Ann", "Bo", "Cy"], seed=7, garnets={"Ann": 10, "Bo": 10, "Cy": 10})
    return m.form("Ann")


def test_xlsx_submission_tab_lets_players_type_only_in_the_input_cells(tmp_path):
    store = XlsxStore(tmp_path)
    new_game("three-modular-rooms", [PlayerInfo(n, "", 10) for n in ["Ann", "Bo"]], store, seed=4,
               folder=tmp_path)
    wb = openpyxl.load_workbook(tmp_path / "players" / "Ann.xlsx")
    ws = wb[L.tab_name("submission")]
    assert ws.protection.sheet is True
    assert ws.protection.insertRows and ws.protection.deleteRows   # True: locked for players
    assert not ws.protection.formatColumns                         # False: players may widen columns
    unlocked = sorted(c.coordinate for row in ws.iter_rows() for c in row if c.protection.locked is False)
    assert unlocked == ["B11", "B7", "C11", "C7"]                  # Your play: card, room; purchases
    for name in (L.tab_name("results"), L.tab_name("board")):
        assert wb[name].protection.sheet is True


def test_google_submission_tab_lets_players_type_only_in_the_input_cells(tmp_path):
    fake = FakeGoogle(seed=5)
    st = fake.store(HOST, game_folder=tmp_path)
    st.game_id = "three-modular-rooms"
    new_game("three-modular-rooms", [PlayerInfo("Ann", "ann@example.com", 10),
                                        PlayerInfo("Bo", "bo@example.com", 10)], st, seed=4, folder=tmp_path)
    sid = load(st).locations["Ann"]
    (prot,) = fake.sheet(sid, L.tab_name("submission")).protected
    assert prot["editors"]["users"] == [HOST]
    cells = sorted((u["startRowIndex"], u["endRowIndex"], u["startColumnIndex"], u["endColumnIndex"])
                   for u in prot["unprotectedRanges"])
    assert cells == [(6, 7, 1, 3), (10, 11, 1, 3)]                 # B7:C7 and B11:C11
    ws = fake.gspread_client("ann@example.com").open_by_key(sid).worksheet(L.tab_name("submission"))
    ws.update([["3", "Null"]], "B7")                               # the player's own entry
    with pytest.raises(APIError) as err:
        ws.update([["3"]], "B8")                                   # a row below: refused
    assert err.value.code == 403
    with pytest.raises(APIError):
        ws.update([["Mine"]], "A5")                                # a section title: refused


# ------------------------------------------------------------------ stray entries

def test_an_entry_typed_a_row_below_its_place_is_found():
    form = tmr_form()
    rect = L.form_tab(form, "Ann", {"play": [{"card": "3", "room": ""}]}).values()
    assert L.stray_entries(form, rect, "Ann") == []
    rect[7] = ["", "", "Null"]                                     # C8: the room typed one row too low
    assert L.stray_entries(form, rect, "Ann") == [L.StrayEntry(cell="C8", value="Null", near="Your play")]


def test_stray_entries_name_the_cell_a_short_value_and_the_nearest_section():
    form = tmr_form()
    rect = L.form_tab(form, "Ann").values()
    rect[2] += ["", "me!"]                                          # D3, beside the player's name
    rect[11] = ["", "7, -10"]                                       # B12, below the purchases row
    rect[4] = ["My play"]                                           # A5: a section title overwritten
    rect[20] = rect[20] + ["x" * 100]                               # B21, in the help lines
    rect.append([""] * 70 + ["hidden"])                             # a backend's helper column: ignored
    got = L.stray_entries(form, rect)
    assert got == [L.StrayEntry("D3", "me!", "Player"), L.StrayEntry("A5", "My play", "Your play"),
                   L.StrayEntry("B12", "7, -10", "Purchases (optional)"),
                   L.StrayEntry("B21", "x" * 37 + "...", L.HELP_TITLE)]
    assert "C8" not in L.StrayEntry("D3", "me!", "Player").message


def test_stray_entries_ignore_a_tab_for_another_round_and_what_the_layout_draws():
    form = tmr_form()
    rect = L.form_tab(form, "Ann").values()
    rect[1][1] = "2"                                                # the tab shows round 2: not this form's
    rect[7] = ["", "3"]
    assert L.stray_entries(form, rect) == []
    assert L.stray_entries(form, []) == []


@pytest.mark.parametrize("game_id", sorted(games()))
def test_read_form_reads_what_form_tab_draws_through_a_file(game_id, tmp_path):
    names = players_for(game_id)
    m = new_match(game_id, names, seed=9, garnets={n: 10 for n in names})
    raw = random_submissions(m, Rng.from_seed(9, "f"), 0.0)
    store = XlsxStore(tmp_path)
    for p in names[:3]:
        info = store.create(player_key(p), p, {"Submission": L.form_tab(m.form(p), p, raw[p])})
        rect = store.open(info.key, info.location).read(["Submission"])["Submission"]
        got = L.read_form(m.form(p), rect, p)
        assert m.parse(p, got).values == m.parse(p, raw[p]).values
        assert L.stray_entries(m.form(p), rect, p) == []


# ------------------------------------------------------------------ merges, heights and widths reach both backends

def drawn_form():
    return L.form_tab(tmr_form(), "Ann")


def test_xlsx_keeps_merges_row_heights_and_widths(tmp_path):
    tab = drawn_form()
    store = XlsxStore(tmp_path)
    store.create(player_key("Ann"), "t", {"Submission": tab})
    ws = openpyxl.load_workbook(tmp_path / "players" / "Ann.xlsx")["Submission"]
    assert sorted(str(r) for r in ws.merged_cells.ranges) == sorted(
        f"A{r0 + 1}:{openpyxl.utils.get_column_letter(c1)}{r1}" for r0, c0, r1, c1 in tab.merges)
    last = openpyxl.utils.get_column_letter(max(tab.col_widths) + 1)
    assert f"A1:{last}1" in {str(r) for r in ws.merged_cells.ranges}   # the title, across the tab
    assert ws.row_dimensions[1].height == tab.row_heights[0]
    assert ws["A1"].font.sz == 14 and ws["A1"].font.b
    assert ws["A14"].alignment.wrap_text                           # help lines wrap
    assert ws.column_dimensions["B"].width == tab.col_widths[1]
    assert ws.page_setup.fitToWidth == 1 and ws.sheet_properties.pageSetUpPr.fitToPage


def test_google_gets_merges_row_heights_and_replaces_them(tmp_path):
    fake = FakeGoogle(seed=6)
    st = fake.store(HOST)
    tab = drawn_form()
    info = st.create(player_key("Ann"), "t", {"Submission": tab})
    sheet = fake.sheet(info.location, "Submission")
    assert sorted((m["startRowIndex"], m["startColumnIndex"], m["endRowIndex"], m["endColumnIndex"])
                  for m in sheet.merges) == sorted(tab.merges)
    title = fake.cell(info.location, "Submission", 0, 0)["userEnteredFormat"]
    assert title["textFormat"]["fontSize"] == 13                   # 14 points in an 11-point book; Google's is 10
    body, _ = st._write_requests(info.location, {"Submission": tab})
    rows = {r["updateDimensionProperties"]["range"]["startIndex"]: r["updateDimensionProperties"]["properties"]
            for r in body if "updateDimensionProperties" in r
            and r["updateDimensionProperties"]["range"]["dimension"] == "ROWS"
            and r["updateDimensionProperties"]["range"].get("endIndex", 0) - r["updateDimensionProperties"]["range"]
            ["startIndex"] == 1}
    assert rows[0]["pixelSize"] == round(tab.row_heights[0] * 4 / 3)
    st.open(info.key, info.location).write({"Submission": TabData(rows=[[C("plain")]], merges=[(0, 0, 1, 2)])})
    assert fake.sheet(info.location, "Submission").merges == [
        {"sheetId": sheet.id, "startRowIndex": 0, "endRowIndex": 1, "startColumnIndex": 0, "endColumnIndex": 2}]


def test_titles_are_wide_enough_and_long_lines_wrap_with_room():
    tab = L.report_tab(new_match("three-modular-rooms", ["Ann", "Bo"], seed=1).public_report(),
                       notice=["A notice that is long enough to need more than one line of the report's width, "
                               "so it wraps onto a second line and its row is made taller to show it whole."])
    widths = tab.col_widths
    (title,) = [m for m in tab.merges if m[0] == 0]
    assert sum(widths[c] for c in range(title[1], title[3])) >= L.fit_width(tab.rows[0][0].value, True, 14)
    notice = tab.rows[1][0]
    assert notice.wrap and tab.row_heights[1] == 2 * L.line_height() + 2


# ------------------------------------------------------------------ the master's readable tabs

def played_tmr(rounds=2, seed=11):
    names = ["Ann", "Bo", "Cy"]
    m = new_match("three-modular-rooms", names, seed=seed, garnets={n: 10 for n in names})
    m.resolve({"Ann": {"play": [{"card": "3", "room": "Null"}]},
               "Bo": {"play": [{"card": "seven", "room": "Duel"}]}})   # Cy: nothing; Bo: a bad card
    return m


def test_ledger_tab_keeps_a_to_g_and_puts_totals_from_j():
    m = played_tmr()
    tab = ledger_tab(m)
    values = tab.values()
    assert values[0][:8] == list(COLUMNS) + ["check"]                  # H: the check chaining each row
    assert [row[7] for row in values[1:len(m.ledger.rows) + 1]] == integrity.chain(m.ledger.rows)
    assert LEDGER_TOTALS_COLUMN == 9
    block = [row[9:12] for row in values]
    balances = m.ledger.balances(m.players)
    assert block[0] == ["player", "garnets now", "ledger rows"]
    assert block[1:4] == [[p, str(balances[p]), str(sum(r.player == p for r in m.ledger.rows))] for p in m.players]
    assert block[4] == ["all players", str(sum(balances.values())), str(len(m.ledger.rows))]
    checked = integrity.verify(m.ledger.rows, values, m.players, name=m.name)
    assert not checked.findings and checked.rows == m.ledger.rows    # the totals never reach the ledger


def test_ledger_totals_add_up_by_hand():
    m = new_match("three-modular-rooms", ["Ann", "Bo"], seed=2, garnets={"Ann": 10, "Bo": 4})
    values = ledger_tab(m).values()
    assert [row[9:12] for row in values[1:4]] == [["Ann", "10", "1"], ["Bo", "4", "1"], ["all players", "14", "2"]]


def test_rounds_tab_says_who_did_not_submit_and_whose_entry_had_problems():
    m = played_tmr()
    values = rounds_tab(m).values()
    assert values[0] == ["Round log"]
    assert values[1] == ["round", "status", "submitted", "with problems", "ledger rows", "garnets moved", "notes"]
    rec = m.rounds[0]
    moved = sum(abs(r.change) for r in rec.ledger)
    assert values[2] == ["1", "resolved", "2 of 3", "1", str(len(rec.ledger)), str(moved),
                         "not submitted: Cy; problems: Bo (card)"]
    assert values[3] == ["2", "open", "", "", "", "", "waiting for submissions"]


def test_every_master_tab_has_column_widths_and_a_frozen_header(tmp_path):
    store = XlsxStore(tmp_path)
    new_game("skeld", [PlayerInfo(n, "", 10) for n in players_for("skeld")], store, seed=4, folder=tmp_path)
    wb = openpyxl.load_workbook(tmp_path / "master.xlsx")
    for ws in wb.worksheets:
        if ws.sheet_state != "visible":
            continue
        used = {c.column_letter for row in ws.iter_rows() for c in row if c.value not in (None, "")}
        assert all(ws.column_dimensions[col].width for col in used), ws.title
        assert ws.freeze_panes, ws.title


# ------------------------------------------------------------------ colours: distinct and readable

def delta_e(a: str, b: str) -> float:
    """How different two RRGGBB colours look (CIEDE2000: about 2 is barely noticeable side by side)."""
    return Color("#" + a).delta_e("#" + b, method="2000")


def every_report(game_id):
    names = players_for(game_id)
    m = new_match(game_id, names, seed=3, garnets={n: 10 for n in names})
    rng = Rng.from_seed(3, "colours")
    while True:
        yield m.public_report()
        for p in names:
            yield m.player_report(p)
        if m.finished:
            return
        m.resolve(random_submissions(m, rng, 0.1))


def test_the_colour_checks_can_fail():
    assert delta_e("2F75B5", "4472C4") < 10          # Skeld's old "activated" and "Vault" (issue 17)
    assert L.contrast("BF8F00", "FFFFFF") < 4.5      # white on Skeld's old dark Conductor fill


@pytest.mark.parametrize("game_id", sorted(games()))
def test_every_legend_colour_is_distinct_and_every_text_readable_on_its_fill(game_id):
    legends, cells = set(), {}
    for report in every_report(game_id):
        for block in report.blocks:
            if block.legend:
                legends.add(block.legend)
            for row in block.grid:
                for cell in row:
                    if cell.fill and cell.text.strip():
                        cells[(cell.fill, cell.font or "000000")] = cell.text
    for legend in legends:
        colours = [(label, fill) for label, fill in legend if fill.upper() != "FFFFFF"]  # white: a note
        for (la, a), (lb, b) in itertools.combinations(colours, 2):
            assert delta_e(a, b) >= 10, f"{game_id}: legend colours {la!r} {a} and {lb!r} {b} look alike"
        for label, fill in legend:   # drawn as chips: the label on its colour
            assert L.contrast(fill, L.readable_font(fill)) >= 4.5
    for (fill, font), text in cells.items():
        # Text needs 4.5:1 (WCAG AA); line-drawing glyphs are graphics, 3:1.
        need = 4.5 if any(ch.isalnum() for ch in text) else 3.0
        assert L.contrast(fill, font) >= need, f"{game_id}: {text!r} in {font} on {fill}"
    assert cells and legends, "the check compared nothing"


# ------------------------------------------------------------------ the width estimate errs wide

def dejavu(name):
    for base in ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/TTF", "/usr/share/fonts/dejavu"):
        path = Path(base) / name
        if path.is_file():
            return path
    return None


@pytest.mark.skipif(dejavu("DejaVuSans.ttf") is None, reason="the DejaVu fonts are not installed")
def test_text_width_is_never_narrower_than_the_widest_font_draws_it():
    ImageFont = pytest.importorskip("PIL.ImageFont", reason="Pillow (the test extra) measures fonts")
    texts = set()
    for game_id in sorted(games()):
        for report in itertools.islice(every_report(game_id), 40):
            texts.add(report.title)
            for block in report.blocks:
                texts.update(block.lines)
                texts.update(label for label, _ in block.legend)
    texts.update("ABCDEFGHIJKLMNOPQRSTUVWXYZ abcdefghijklmnopqrstuvwxyz 0123456789 !\"#$%&'()*+,-./:;<=>?@[]^_`{|}~")
    for name, bold in (("DejaVuSans.ttf", False), ("DejaVuSans-Bold.ttf", True)):
        path = dejavu(name)
        if path is None:
            continue
        font = ImageFont.truetype(str(path), 1000)
        digit = ImageFont.truetype(str(dejavu("DejaVuSans.ttf")), 1000).getlength("0")   # the column unit
        for text in texts:
            assert L.text_width(text, bold=bold) * 1.01 >= font.getlength(text) / digit, (name, text)


def test_a_form_with_other_input_cells_keeps_its_protected_range_and_id():
    """Forms change from round to round; the protection is updated in place, so the ids the
    master's record keeps stay right (a stale id would cost a metadata read)."""
    fake = FakeGoogle(seed=7)
    st = fake.store(HOST)
    first = TabData(rows=[[C("Round"), C(1)], [C("Card"), C("", input=True)]], protected=True)
    info = st.create(player_key("Ann"), "t", {"Submission": first})
    (before,) = fake.sheet(info.location, "Submission").protected
    second = TabData(rows=[[C("Round"), C(2)], [C("Card")], [C("Room"), C("", input=True), C("", input=True)]],
                     protected=True)
    st.open(info.key, info.location).write({"Submission": second})
    (after,) = fake.sheet(info.location, "Submission").protected
    assert after["protectedRangeId"] == before["protectedRangeId"]
    assert [(u["startRowIndex"], u["startColumnIndex"], u["endColumnIndex"]) for u in after["unprotectedRanges"]] \
        == [(2, 1, 3)]
    assert st.export_cache()["books"][info.location]["protected"]["Submission"] == \
        [before["protectedRangeId"], [[2, 3, 1, 3]]]
