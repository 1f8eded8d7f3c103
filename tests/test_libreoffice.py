"""An independent reader: LibreOffice (headless) opens and renders the workbooks we write."""
import csv
import shutil
import subprocess

import openpyxl
import pytest
from click.testing import CliRunner

from sheetbridge.cli import main

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
pytestmark = pytest.mark.skipif(SOFFICE is None, reason="LibreOffice is not installed (.ci/run installs "
                                "Debian's libreoffice-calc-nogui); these checks need an independent xlsx reader")
# Export every sheet as CSV, UTF-8 (76), formulas shown as computed values: a formula we wrote by
# mistake would show its result, not its text.
CSV_FILTER = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1"


def convert(path, outdir, fmt=CSV_FILTER):
    res = subprocess.run([SOFFICE, "--headless", "--norestore", f"-env:UserInstallation=file://{outdir}/lo-profile",
                          "--convert-to", fmt, "--outdir", str(outdir), str(path)],
                         capture_output=True, text=True, timeout=180)
    assert res.returncode == 0, res.stderr


def sheet(outdir, stem, tab):
    with open(outdir / f"{stem}-{tab}.csv", encoding="utf-8") as f:
        return [row for row in csv.reader(f)]


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lo") / "game"
    runner = CliRunner()
    assert runner.invoke(main, ["new", "three-modular-rooms", "--players", "Ann,Bo", "--out", str(folder),
                                "--option", "rounds=2"]).exit_code == 0
    path = folder / "players" / "Ann.xlsx"
    wb = openpyxl.load_workbook(path)
    ws = wb["Submission"]
    row = next(r for r in range(1, ws.max_row + 1) if ws.cell(r, 1).value == "Your play") + 2
    ws.cell(row, 2).value = "=1+2"   # a formula typed by a player
    ws.cell(row, 3).value = "Null"
    wb.save(path)
    res = runner.invoke(main, ["resolve", str(folder)])
    assert res.exit_code == 0, res.output
    return folder


def test_libreoffice_reads_player_file_with_literal_text(played, tmp_path):
    convert(played / "players" / "Ann.xlsx", tmp_path)
    results = sheet(tmp_path, "Ann", "Results")
    text = "\n".join(",".join(r) for r in results)
    assert "Problem: Card = '=1+2' (a formula, not a card; type the card's number)" in text
    assert "3" not in [c for r in results for c in r]  # the formula was never evaluated
    sub = sheet(tmp_path, "Ann", "Submission")
    assert sub[0][0] == "Submission: Round 2 of 2"


def test_libreoffice_reads_master_and_renders_pdf(played, tmp_path):
    convert(played / "master.xlsx", tmp_path)
    ledger = sheet(tmp_path, "master", "Ledger")
    assert ledger[0][:6] == ["game", "round", "player", "change", "reason", "key"]
    board = sheet(tmp_path, "master", "Board")
    assert any("Null" in c for r in board for c in r)
    convert(played / "board.xlsx", tmp_path, "pdf")
    assert (tmp_path / "board.pdf").stat().st_size > 1000


def test_libreoffice_reads_the_text_we_write_as_written(tmp_path):
    """An independent reader sees exactly the strings the xlsx backend wrote (spaces, newlines,
    text that looks like a formula, a number or an escape)."""
    from sheetbridge.sheets.model import CellData, TabData
    from sheetbridge.sheets.xlsx import XlsxStore
    values = [" (Eli)", "(Eli) ", "two\nlines", "=1+2", "'quoted", "007", "TRUE", "#N/A", "_x0041_", "a_x000D_b",
              "_x005F_x0041_", "é 名 😀"]
    XlsxStore(tmp_path).create("board", "t", {"T": TabData(rows=[[CellData(v)] for v in values])})
    convert(tmp_path / "board.xlsx", tmp_path)
    with open(tmp_path / "board-T.csv", encoding="utf-8", newline="") as f:
        got = [row[0] for row in csv.reader(f)]
    assert got == values


@pytest.mark.skipif(shutil.which("pdfimages") is None, reason="pdfimages (poppler-utils) is not installed")
def test_libreoffice_shows_the_board_picture_unstretched(played, tmp_path):
    from PIL import Image
    convert(played / "board.xlsx", tmp_path, "pdf")
    listing = subprocess.run(["pdfimages", "-list", str(tmp_path / "board.pdf")], capture_output=True, text=True,
                             check=True).stdout.splitlines()[2:]
    assert len(listing) == 1, listing                        # the Picture tab's one image
    cols = listing[0].split()
    png = Image.open(played / "pictures" / "round-1-board.png")
    assert (int(cols[3]), int(cols[4])) == png.size
    assert cols[12] == cols[13], "the picture is drawn stretched (x and y resolutions differ)"
    subprocess.run(["pdfimages", "-png", str(tmp_path / "board.pdf"), str(tmp_path / "img")], check=True)
    shown = Image.open(tmp_path / "img-000.png").convert("RGB")
    assert shown.tobytes() == png.convert("RGB").tobytes()  # every pixel as drawn


def test_libreoffice_shows_a_players_own_picture_in_their_results_unstretched(tmp_path):
    """Skeld draws each player a map of their own (issue 27): Ann's file, rendered, shows that one
    picture, pixel for pixel, and it is the one in the host's folder."""
    from PIL import Image
    from sheetbridge.host.demo import fill_submission
    from sheetbridge.host.new import new_game
    from sheetbridge.host.players import PlayerInfo
    from sheetbridge.host.resolve import resolve
    from sheetbridge.host.session import load
    from sheetbridge.core.match import random_submissions
    from sheetbridge.core.rng import Rng
    from sheetbridge.sheets.xlsx import XlsxStore
    folder = tmp_path / "skeld"
    store = XlsxStore(folder)
    new_game("skeld", [PlayerInfo(n, "", 10) for n in ["Ann", "Bo", "Cy", "Dee"]], store, seed=4, folder=folder)
    ld = load(store)
    for p, raw in random_submissions(ld.match, Rng.from_seed(5, "test players")).items():
        fill_submission(store, ld, p, raw)
    round_no = resolve(XlsxStore(folder)).record.round
    convert(folder / "players" / "Ann.xlsx", tmp_path, "pdf")
    listing = subprocess.run(["pdfimages", "-list", str(tmp_path / "Ann.pdf")], capture_output=True, text=True,
                             check=True).stdout.splitlines()[2:]
    assert len({line.split()[10] for line in listing}) == 1, listing   # one image (on each page it spans)
    cols = listing[0].split()
    png = Image.open(folder / "pictures" / "private" / f"Ann-round-{round_no}.png")
    assert (int(cols[3]), int(cols[4])) == png.size and cols[12] == cols[13]
    subprocess.run(["pdfimages", "-png", str(tmp_path / "Ann.pdf"), str(tmp_path / "img")], check=True)
    assert Image.open(tmp_path / "img-000.png").convert("RGB").tobytes() == png.convert("RGB").tobytes()
