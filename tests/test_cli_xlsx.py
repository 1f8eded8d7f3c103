"""End to end through the CLI on real .xlsx files, read back from disk with openpyxl."""
import hashlib
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from sheetbridge.cli import main


def run(*args, ok=True):
    res = CliRunner().invoke(main, [str(a) for a in args])
    if ok:
        assert res.exit_code == 0, res.output
    return res


def digest(folder: Path) -> dict:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*.xlsx"))}


def type_submission(path: Path, section_title: str, values: list, formula=False):
    """Fill a player's Submission tab as the player would in a spreadsheet program."""
    wb = openpyxl.load_workbook(path)
    ws = wb["Submission"]
    row = next(r for r in range(1, ws.max_row + 1) if ws.cell(r, 1).value == section_title) + 2
    for i, v in enumerate(values):
        ws.cell(row, 2 + i).value = v
    wb.save(path)


def tab_text(path: Path, tab: str) -> str:
    ws = openpyxl.load_workbook(path)[tab]
    return "\n".join(" | ".join("" if v is None else str(v) for v in row) for row in ws.iter_rows(values_only=True))


@pytest.fixture
def game(tmp_path):
    folder = tmp_path / "game"
    run("new", "three-modular-rooms", "--players", "Ann,Bo,Cy", "--out", folder, "--garnets", "10",
        "--option", "rounds=3", "--seed", "11")
    return folder


def test_new_creates_master_and_one_file_per_player(game):
    assert (game / "master.xlsx").exists() and (game / "board.xlsx").exists()
    assert sorted(p.name for p in (game / "players").iterdir()) == ["Ann.xlsx", "Bo.xlsx", "Cy.xlsx"]
    wb = openpyxl.load_workbook(game / "players" / "Ann.xlsx")
    assert wb.sheetnames == ["Submission", "Results", "Board", "Identity"]   # Identity: hidden (issue 25)
    assert wb["Identity"].sheet_state == "hidden" and wb["Identity"].protection.sheet
    ws = wb["Submission"]
    dvs = [dv.formula1 for dv in ws.data_validations.dataValidation]
    assert '"Null,Solitary,Duel"' in dvs  # the room dropdown
    assert any("1,2,3,4,5,6,7,8,9,-10,-11,-12" in f for f in dvs)  # the card dropdown (the hand)
    help_text = tab_text(game / "players" / "Ann.xlsx", "Submission")
    assert "Card: one of 1, 2, 3" in help_text
    master = openpyxl.load_workbook(game / "master.xlsx")
    for tab in ("Config", "Players", "Rounds", "Board", "Ledger", "Host log", "Record"):
        assert tab in master.sheetnames
    assert master["Record"].sheet_state == "hidden"
    ledger = tab_text(game / "master.xlsx", "Ledger")
    assert ledger.count("opening balance") == 3


def test_a_round_status_dry_run_resolve_rerun_and_undo(game):
    players = game / "players"
    type_submission(players / "Ann.xlsx", "Your play", [3, "Null"])
    type_submission(players / "Bo.xlsx", "Your play", ["seven", "Duel"])

    out = run("status", game).output
    assert "Ann" in out and "submitted" in out and "ok" in out
    assert "problems in Card" in out                         # Bo: invalid, named by the label the player sees
    assert "seven" not in out and "Null" not in out          # no submission is revealed
    assert "Cy               not submitted" in out

    before = digest(game)
    out = run("resolve", game, "--dry-run").output
    assert "== Public report, round 1" in out and "== Private to Ann" in out
    assert "Bo: Card = 'seven' (not a card number)" in out
    assert digest(game) == before                            # a dry run writes nothing

    out = run("resolve", game).output
    assert "round 1 resolved and published" in out
    results = tab_text(players / "Ann.xlsx", "Results")
    assert "You played card 3 in Null." in results
    bo = tab_text(players / "Bo.xlsx", "Results")
    # (Bo's random card may be a 3 too: what must not be there is Ann's play, card 3 in Null)
    assert "Your card was chosen at random" in bo and "You played card 3 in Null." not in bo
    assert "Round 2 of 3" in tab_text(players / "Ann.xlsx", "Submission")
    ledger_before = tab_text(game / "master.xlsx", "Ledger")

    after = digest(game)
    out = run("resolve", game).output                        # nothing submitted for round 2 yet
    assert "nobody has submitted for round 2" in out
    assert run("resolve", game, "--round", "1").output.strip().endswith("round 1 is already resolved; nothing changed")
    assert digest(game) == after
    assert tab_text(game / "master.xlsx", "Ledger") == ledger_before

    out = run("undo", game).output
    assert "round 1 undone" in out
    sub = tab_text(players / "Ann.xlsx", "Submission")
    assert "Round 1 of 3" in sub and "3 | Null" in sub        # Ann's entry is back for editing
    assert "You played card" not in tab_text(players / "Ann.xlsx", "Results")
    out = run("resolve", game).output
    assert "round 1 resolved" in out
    assert "You played card 3 in Null." in tab_text(players / "Ann.xlsx", "Results")


def test_garnet_purchase_reaches_the_ledger_once(game):
    players = game / "players"
    type_submission(players / "Ann.xlsx", "Your play", [1, "Null"])
    type_submission(players / "Ann.xlsx", "Purchases (optional)", ["7", "no"])
    run("resolve", game)
    run("resolve", game)  # a re-run pays nothing twice
    wb = openpyxl.load_workbook(game / "master.xlsx")
    rows = [r for r in wb["Ledger"].iter_rows(values_only=True) if r[4] == "card purchase"]
    assert len(rows) == 1 and rows[0][2] == "Ann" and rows[0][3] == -5
    players_tab = tab_text(game / "master.xlsx", "Players")
    assert "Ann |  | players/Ann.xlsx | 5" in players_tab


def test_formula_in_a_submission_is_rejected_and_player_text_stays_literal(game):
    players = game / "players"
    type_submission(players / "Ann.xlsx", "Your play", ["=1+2", "Null"])
    run("resolve", game)
    wb = openpyxl.load_workbook(players / "Ann.xlsx")
    cells = [c for row in wb["Results"].iter_rows() for c in row if isinstance(c.value, str) and "=1+2" in c.value]
    assert cells and all(c.data_type == "s" for c in cells)
    assert "a formula, not a card" in cells[0].value


def test_text_starting_with_equals_is_written_as_text(tmp_path):
    from sheetbridge.sheets.model import CellData, TabData
    from sheetbridge.sheets.xlsx import XlsxStore
    store = XlsxStore(tmp_path)
    store.create("player:X", "x", {"T": TabData(rows=[[CellData("=SUM(A1:A3)"), CellData("=cmd|' /C calc'!A0")]])})
    ws = openpyxl.load_workbook(tmp_path / "players" / "X.xlsx")["T"]
    assert ws["A1"].data_type == "s" and ws["A1"].value == "=SUM(A1:A3)"
    assert ws["B1"].data_type == "s"
    assert store.open("player:X", "players/X.xlsx").read(["T"])["T"] == [["=SUM(A1:A3)", "=cmd|' /C calc'!A0"]]


def test_broken_input_gives_one_clear_line(game, tmp_path):
    # A renamed tab
    path = game / "players" / "Cy.xlsx"
    wb = openpyxl.load_workbook(path)
    wb["Submission"].title = "Submissions"
    wb.save(path)
    res = run("status", game)       # reported on Cy's line; the others are still read
    cy = next(line for line in res.output.splitlines() if line.strip().startswith("Cy"))
    assert "cannot read the file" in cy and "no tab named 'Submission'" in cy and "Cy.xlsx" in cy
    assert any(line.strip().startswith("Ann") and "not submitted" in line for line in res.output.splitlines())
    # A missing workbook stops resolve before anything is written, naming the fix
    path.unlink()
    before = digest(game)
    res = run("resolve", game, ok=False)
    assert res.exit_code == 2 and "Cy.xlsx: file not found" in res.output
    assert "sheetbridge repair" in res.output and "--player Cy" in res.output and res.output.count("\n") == 1
    assert digest(game) == before
    # Not a game folder at all
    res = run("status", tmp_path / "nowhere", ok=False)
    assert res.exit_code == 2 and "no such game folder" in res.output
    # An unknown game
    res = run("new", "chess", "--players", "A,B", "--out", tmp_path / "x", ok=False)
    assert res.exit_code == 2 and "unknown game 'chess'" in res.output


def test_nothing_half_written_when_a_player_file_is_broken(game):
    players = game / "players"
    type_submission(players / "Ann.xlsx", "Your play", [3, "Null"])
    (players / "Bo.xlsx").write_bytes(b"not a workbook")
    before = digest(game)
    res = run("resolve", game, ok=False)
    assert "Bo.xlsx: not a readable .xlsx workbook" in res.output
    assert digest(game) == before


def test_bad_option_in_config_tab_is_reported(game):
    wb = openpyxl.load_workbook(game / "master.xlsx")
    ws = wb["Config"]
    row = next(r for r in range(1, ws.max_row + 1) if ws.cell(r, 1).value == "empty_room_policy")
    ws.cell(row, 2).value = "sometimes"
    wb.save(game / "master.xlsx")
    res = run("status", game, ok=False)
    assert "empty_room_policy: 'sometimes' is not allowed; use one of zero_included, excluded" in res.output


def test_demo_same_seed_same_bytes(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    out = run("demo", "three-modular-rooms", "--out", a, "--seed", "7", "--quiet").output
    assert "Final standings:" in out and "Winner(s):" in out
    run("demo", "three-modular-rooms", "--out", b, "--seed", "7", "--quiet")
    assert digest(a) == digest(b)


def test_games_lists_ids_and_player_counts():
    out = run("games").output
    assert "three-modular-rooms" in out and "players 1 or more (designed for 9)" in out


def test_repair_redraws_a_tab_whose_rows_were_deleted(game):
    path = game / "players" / "Ann.xlsx"
    wb = openpyxl.load_workbook(path)
    wb["Submission"].delete_rows(5, 2)
    wb.save(path)
    res = run("status", game)
    assert "rows were inserted or deleted" in res.output and "sheetbridge repair" in res.output
    assert "redrew 1 file(s): players/Ann.xlsx" in run("repair", game, "--player", "Ann").output
    assert "Ann" in run("status", game).output


def test_a_host_ledger_row_that_overdraws_is_blamed_on_the_ledger_tab(game):
    wb = openpyxl.load_workbook(game / "master.xlsx")
    wb["Ledger"].append(["", "", "Ann", -50, "fine"])
    wb.save(game / "master.xlsx")
    before = digest(game)
    res = run("resolve", game, ok=False)
    assert res.exit_code == 2
    assert res.output == ("error: master.xlsx, tab Ledger: Ann's garnet balance adds up to -40; the ledger never "
                          "goes negative. Check the rows you added by hand for a mistyped amount\n")
    assert digest(game) == before
