"""The files look finished when an independent program draws them: nothing is cut.

One master, one player file and one public board per game (a round resolved, the next
one's submissions typed in) are rendered by LibreOffice (headless, to PDF) and each
titled tab's first page is drawn to PNG with pdftoppm. On every page:

- the title bar (the dark fill of the title's merged range, found in the PNG) holds the
  whole title: its width, measured with the metrics of the font the PDF embeds, fits;
- every other text cell fits its cell or merged range: a single line its width, wrapped
  text (help lines, report lines) the height of its row, counting the lines with the same
  font metrics. Column widths are converted to pixels as LibreOffice drew them, measured
  on the title bar; the page's print scale (tabs print one page wide) comes from the bar's
  height against its row's height.

Set SHEETBRIDGE_RENDER_DIR to keep the PDFs and PNGs for a look. Skips with a reason
where LibreOffice, poppler-utils or fontconfig is missing.
"""
from __future__ import annotations

import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from sheetbridge.api import games
from sheetbridge.core.match import random_submissions
from sheetbridge.core.rng import Rng
from sheetbridge.host.demo import fill_submission
from sheetbridge.host.new import new_game
from sheetbridge.host.players import PlayerInfo
from sheetbridge.host.resolve import resolve
from sheetbridge.host.session import load
from sheetbridge.sheets import layout as L
from sheetbridge.sheets.model import CellData as C, TabData
from sheetbridge.sheets.xlsx import XlsxStore

from conftest import players_for

SOFFICE = shutil.which("soffice") or shutil.which("libreoffice")
TOOLS = {"LibreOffice (soffice)": SOFFICE, "pdftoppm": shutil.which("pdftoppm"),
         "pdftotext": shutil.which("pdftotext"), "pdffonts": shutil.which("pdffonts"),
         "fc-list": shutil.which("fc-list")}
MISSING = [name for name, path in TOOLS.items() if path is None]
pytestmark = pytest.mark.skipif(bool(MISSING), reason=f"{', '.join(MISSING)} not installed (.ci/run installs Debian's "
                                "libreoffice-calc-nogui and poppler-utils); rendering checks need them")
Image = pytest.importorskip("PIL.Image", reason="Pillow (the test extra) measures fonts and pixels")
ImageFont = pytest.importorskip("PIL.ImageFont")

DPI = 96
TITLE_RGB = tuple(int(L.color("title")[i:i + 2], 16) for i in (0, 2, 4))
INDENT_PX = 2.0   # LibreOffice keeps text this far (at scale 1) from a cell's left and right edges


# ------------------------------------------------------------------ making and rendering the files

def make_game(gid: str, folder: Path) -> Path:
    store = XlsxStore(folder)
    new_game(gid, [PlayerInfo(n, "", 10) for n in players_for(gid)], store, seed=5, folder=folder)
    rng = Rng.from_seed(5, "render")
    ld = load(store)
    for p, raw in random_submissions(ld.match, rng, 0.0).items():
        if raw:
            fill_submission(store, ld, p, raw)
    resolve(store, allow_empty=True)
    ld = load(store)
    for p, raw in random_submissions(ld.match, rng, 0.0).items():   # typed, not yet resolved
        if raw:
            fill_submission(store, ld, p, raw)
    return folder


def to_pdf(paths: list[Path], outdir: Path) -> None:
    res = subprocess.run([SOFFICE, "--headless", "--norestore", f"-env:UserInstallation=file://{outdir}/lo-profile",
                          "--convert-to", "pdf", "--outdir", str(outdir), *map(str, paths)],
                         capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr


def page_texts(pdf: Path) -> list[str]:
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return [" ".join(page.split()) for page in text.split("\f")]


def page_png(pdf: Path, page: int, outdir: Path) -> Path:
    stem = outdir / f"{pdf.stem}-p{page}"
    subprocess.run(["pdftoppm", "-r", str(DPI), "-f", str(page), "-l", str(page), "-png", "-singlefile",
                    str(pdf), str(stem)], check=True, capture_output=True)
    return stem.with_suffix(".png")


def font_files() -> dict[str, str]:
    out = subprocess.run(["fc-list", "-f", "%{postscriptname}\t%{file}\n"], capture_output=True, text=True,
                         check=True).stdout
    return dict(line.split("\t", 1) for line in out.splitlines() if "\t" in line)


def pdf_fonts(pdf: Path, page: int) -> list[str]:
    """PostScript names of the fonts a page uses (subset prefixes dropped)."""
    out = subprocess.run(["pdffonts", "-f", str(page), "-l", str(page), str(pdf)], capture_output=True, text=True,
                         check=True).stdout.splitlines()[2:]
    return [line.split()[0].split("+", 1)[-1] for line in out if line.strip()]


# ------------------------------------------------------------------ measuring a page

@dataclass
class Bar:
    left: int
    right: int      # exclusive
    top: int
    bottom: int     # exclusive


def title_bar(png: Path) -> tuple[Bar, Image.Image]:
    """The title's dark band: the topmost run of rows with title-coloured pixels."""
    im = Image.open(png).convert("RGB")
    px = im.load()

    def is_title(p) -> bool:
        return all(abs(a - b) <= 10 for a, b in zip(p, TITLE_RGB))
    rows = []
    for y in range(im.height):
        xs = [x for x in range(0, im.width, 1) if is_title(px[x, y])]
        if len(xs) >= 10:
            rows.append((y, xs[0], xs[-1] + 1))
        elif rows:
            break
    assert rows, f"{png.name}: no title bar found"
    return Bar(min(r[1] for r in rows), max(r[2] for r in rows), rows[0][0], rows[-1][0] + 1), im


def rightmost_ink(im: Image.Image, bar: Bar) -> int:
    """The rightmost pixel of the title's (light) text inside the bar."""
    px = im.load()
    ink = [x for y in range(bar.top, bar.bottom) for x in range(bar.left, bar.right) if sum(px[x, y]) > 500]
    return max(ink, default=bar.left)


def wrapped_lines(text: str, font, room: float) -> int:
    lines = 0
    for para in text.split("\n"):
        lines += 1
        line = ""
        for word in para.split(" "):
            trial = f"{line} {word}" if line else word
            if line and font.getlength(trial) > room:
                lines += 1
                line = word
                while font.getlength(line) > room:   # a word longer than the line is broken
                    lines += 1
                    line = line[len(line) // 2:]
            else:
                line = trial
    return lines


@dataclass
class Sheet:
    """What the .xlsx says about a tab (read back with openpyxl): the geometry to check."""
    name: str
    title: str
    title_cols: tuple[int, int]      # merged columns of the title, 1-based inclusive
    widths: dict[int, float]         # 1-based column -> width in characters
    heights: dict[int, float]        # 1-based row -> points (only rows given a height)
    merged: dict[tuple[int, int], tuple[int, int]]   # anchor (row, col) -> (last row, last col)
    cells: list[tuple[int, int, str, bool, float, bool]]   # row, col, text, bold, size, wrap


def sheets_of(path: Path) -> list[Sheet]:
    import openpyxl
    wb = openpyxl.load_workbook(path)
    out = []
    for ws in wb.worksheets:
        if ws.sheet_state != "visible":
            continue
        merged = {(m.min_row, m.min_col): (m.max_row, m.max_col) for m in ws.merged_cells.ranges}
        a1 = ws.cell(1, 1)
        if not (isinstance(a1.value, str) and a1.font and a1.font.sz and a1.font.sz > 11):
            continue   # an untitled tab (the Ledger, content tables, the host log)
        widths = {c: ws.column_dimensions[openpyxl.utils.get_column_letter(c)].width
                  for c in range(1, ws.max_column + 1)}
        heights = {r: d.height for r, d in ws.row_dimensions.items() if d.height}
        cells = []
        for row in ws.iter_rows():
            for cell in row:
                if isinstance(cell.value, (str, int, float)) and str(cell.value) != "" and cell.column < 59:
                    cells.append((cell.row, cell.column, str(cell.value), bool(cell.font and cell.font.b),
                                  float(cell.font.sz or 11) if cell.font else 11.0,
                                  bool(cell.alignment and cell.alignment.wrap_text)))
        out.append(Sheet(ws.title, a1.value, (1, merged.get((1, 1), (1, 1))[1]), widths, heights, merged, cells))
    return out


def check_sheet(sheet: Sheet, pdf: Path, page: int, outdir: Path, fonts: dict[str, str]) -> list[str]:
    """Everything cut on this tab's first page, as sentences (empty: nothing is cut)."""
    png = page_png(pdf, page, outdir)
    bar, im = title_bar(png)
    used = pdf_fonts(pdf, page)
    regular = next((f for f in used if "Bold" not in f and "Italic" not in f and "Oblique" not in f), used[0])
    bold = next((f for f in used if "Bold" in f), regular)
    title_height = sheet.heights.get(1, 15.0)
    scale = (bar.bottom - bar.top) / (title_height * DPI / 72)           # the page's print scale
    title_units = sum(sheet.widths[c] for c in range(sheet.title_cols[0], sheet.title_cols[1] + 1))
    px_per_unit = (bar.right - bar.left) / title_units                   # LibreOffice's column widths, drawn

    def font(is_bold: bool, size: float):
        return ImageFont.truetype(fonts[bold if is_bold else regular], size * scale * DPI / 72)

    problems = []
    where = f"{pdf.stem}, tab {sheet.name} (page {page}, {png.name})"
    title_font = font(True, next(s for r, c, _, _, s, _ in sheet.cells if (r, c) == (1, 1)))
    need = title_font.getlength(sheet.title) + 2 * INDENT_PX * scale
    if need > bar.right - bar.left:
        problems.append(f"{where}: the title {sheet.title!r} needs {need:.0f}px, its bar is {bar.right - bar.left}px")
    if rightmost_ink(im, bar) >= bar.right - 1:
        problems.append(f"{where}: the title's text runs to the bar's edge (cut)")
    if bar.right >= im.width - 1:
        problems.append(f"{where}: the title bar runs off the page: the tab is cut at the page's edge")
    for r, c, text, is_bold, size, wrap in sheet.cells:
        if (r, c) == (1, 1):
            continue
        last_row, last_col = sheet.merged.get((r, c), (r, c))
        room = sum(sheet.widths[k] for k in range(c, last_col + 1)) * px_per_unit - 2 * INDENT_PX * scale
        f = font(is_bold, size)
        if wrap:
            lines = wrapped_lines(text, f, room)
            ascent, descent = f.getmetrics()
            need = lines * (ascent + descent)
            height = sum(sheet.heights.get(k, 0.0) for k in range(r, last_row + 1)) * scale * DPI / 72
            if lines > 1 and height == 0:
                problems.append(f"{where}: row {r} holds {lines} lines of wrapped text but has no height")
            elif lines > 1 and need > height + 1:
                problems.append(f"{where}: cell {_a1(r, c)} needs {lines} lines ({need:.0f}px) in a row of "
                                f"{height:.0f}px: {text[:50]!r}")
        else:
            longest = max(f.getlength(line) for line in text.split("\n"))
            if longest > room + 1:
                problems.append(f"{where}: cell {_a1(r, c)} is {longest:.0f}px wide in {room:.0f}px: {text[:50]!r}")
    return problems


def _a1(r: int, c: int) -> str:
    from openpyxl.utils import get_column_letter
    return f"{get_column_letter(c)}{r}"


def check_book(path: Path, outdir: Path, fonts: dict[str, str]) -> tuple[list[str], int]:
    """Render-check every titled tab of a converted book; returns problems and tabs checked."""
    pdf = outdir / (path.stem + ".pdf")
    pages = page_texts(pdf)
    problems, checked, start = [], 0, 0
    for sheet in sheets_of(path):
        want = " ".join(sheet.title.split())
        found = next((i for i in range(start, len(pages)) if pages[i].startswith(want)), None)
        if found is None:
            problems.append(f"{path.name}, tab {sheet.name}: its title {sheet.title!r} is on no page of {pdf.name}")
            continue
        start = found + 1
        problems += check_sheet(sheet, pdf, found + 1, outdir, fonts)
        checked += 1
    return problems, checked


# ------------------------------------------------------------------ the tests

@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    keep = os.environ.get("SHEETBRIDGE_RENDER_DIR")
    outdir = Path(keep) if keep else tmp_path_factory.mktemp("render")
    outdir.mkdir(parents=True, exist_ok=True)
    books = []
    for gid in sorted(games()):
        folder = make_game(gid, tmp_path_factory.mktemp(gid))
        first = players_for(gid)[0]
        for src, name in ((folder / "master.xlsx", "master"), (folder / "players" / f"{first}.xlsx", first),
                          (folder / "board.xlsx", "board")):
            dst = outdir / f"{gid}-{name}.xlsx"
            shutil.copyfile(src, dst)
            books.append(dst)
    to_pdf(books, outdir)
    return outdir, books


def test_no_title_or_text_is_cut_in_any_games_files(rendered):
    outdir, books = rendered
    fonts = font_files()
    problems, checked = [], 0
    for book in books:
        found, n = check_book(book, outdir, fonts)
        problems += found
        checked += n
    # master: Config, Players, Rounds, Board, Decisions, Standings; player: Submission, Results, Board;
    # board: Board, Picture
    assert checked == 11 * len(games()), f"only {checked} tabs were checked"
    assert not problems, "\n".join(problems[:20])


def test_the_render_check_sees_a_cut_title_and_a_cut_line(tmp_path):
    # The old look: a title in one narrow column spilling white-on-white, a long unwrapped line.
    title = C("Submission: Round 2 of 11, a title far wider than its column", fill=L.color("title"),
              font=L.color("title_font"), bold=True, size=14)
    tab = TabData(rows=[[title], [C("Round"), C(2)], [C("A help line that runs far past its column " * 3)]],
                  col_widths={0: 12, 1: 12}, row_heights={0: 21})
    store = XlsxStore(tmp_path)
    store.create("board", "cut", {"Cut": tab})
    path = tmp_path / "board.xlsx"
    to_pdf([path], tmp_path)
    problems, checked = check_book(path, tmp_path, font_files())
    assert checked == 1
    assert any("the title" in p and "needs" in p for p in problems), problems
    assert any("cell A3" in p for p in problems), problems
