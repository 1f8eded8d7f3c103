"""Whatever one player types, the round goes on (issue 17): property-based tests over every
game, every section and every field, at round 1 and in mid-game.

The default run tries a few examples per test (derandomized, so CI is repeatable);
``pytest -m fuzz`` runs the same properties with many random examples.
"""
from __future__ import annotations

import copy
import unicodedata
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sheetbridge.api import games, new_match
from sheetbridge.core.intake import SUBMISSION_FIELD, cell_cap
from sheetbridge.core.match import Match, random_submissions
from sheetbridge.core.parsing import PREVIEW
from sheetbridge.core.rng import Rng

from conftest import players_for
from test_player_text import citations

SMALL, BIG = 6, 300
HOST_LINE = 300   # the longest line a host may see (the game folder's own path aside)
COMMON = dict(deadline=None, database=None, suppress_health_check=list(HealthCheck))

# ------------------------------------------------------------------ hostile text

HUGE = ["9" * 5000, "-" + "9" * 5000, "1" * 4301, "9" * 30, "1e400", "-1e308", "nan", "inf", "0x1F", "1_000"]
FORMULAS = ["=1+2", "=IMPORTRANGE(\"https://docs.google.com/x\",\"A1:Z9\")", "\uff1d1+2", "=cmd|' /C calc'!A0",
            "+1", "@SUM(A1)", "=" + "(" * 300]
ODD_DIGITS = ["\u00b2", "\uff15", "\u0663", "\u06f7", "\u0967", "\u2460", "\u00bd", "\U0001d7d8", "x\u00b2", "\u2212\u0663"]
ANY_CHAR = st.characters(exclude_categories=())          # every Unicode category, surrogates included
CONTROL = st.characters(categories=["Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"])
# Issue 25: half an emoji as Excel stores it (an .xlsx file's "_xHHHH_" escape) and raw (from Python or JSON).
SURROGATES = ["Du_xD83D_el", "_xD83D_", "_xDE00_3", "_xD83D__xDE00_", "_xd83d_Null", "3_xDBFF_", "_x005F_xD83D_",
              "Du\ud83del", "\ud83d", "\ude00x", "\udbff\udfff"]
# Invisible and bidirectional characters: zero-width space and joiners, word joiner, BOM, soft hyphen,
# the bidi overrides, embeddings and isolates, Arabic letter mark.
INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u00ad\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u061c"


def invisible_text() -> st.SearchStrategy[str]:
    """Short text where invisible and bidi characters hide in or around ordinary ones."""
    return st.text(st.sampled_from(INVISIBLE + "3-1Null yes"), min_size=1, max_size=12)


def hostile_text(choices: tuple[str, ...] = ()) -> st.SearchStrategy[str]:
    """Random text from all Unicode categories, huge numbers, formulas, control characters,
    very long strings, other scripts' digits, and the field's own choices dressed up."""
    parts = [
        st.text(ANY_CHAR, max_size=40),
        st.text(CONTROL, min_size=1, max_size=10),
        st.sampled_from(HUGE + FORMULAS + ODD_DIGITS + ["x", "X", "1", "0", "ok", "\u00a0", "\u200b3"]),
        st.integers(min_value=-10**40, max_value=10**40).map(str),
        st.integers(min_value=100_000, max_value=150_000).flatmap(
            lambda n: st.sampled_from(["x" * n, "1," * (n // 2), "\u0663" * n, "=" + "A1+" * (n // 3)])),
        st.tuples(st.text(ANY_CHAR, max_size=5), st.text(CONTROL, max_size=3)).map("".join),
        st.text(st.sampled_from("0123456789,; -=xX٣５"), min_size=90, max_size=220),  # around the caps
        st.sampled_from(SURROGATES),
        invisible_text(),
    ]
    if choices:
        fullwidth = {ord(c): ord(c) + 0xFEE0 for c in "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-"}
        parts.append(st.sampled_from(choices).flatmap(lambda c: st.sampled_from(
            [c, c.translate(fullwidth), f" {c.upper()}\u00a0", c + "\x00", f"{c}, {c}", c * 50])))
    return st.one_of(parts)


# ------------------------------------------------------------------ game states

@lru_cache(maxsize=None)
def _match(game_id: str, stage: str) -> Match:
    players = players_for(game_id)
    m = new_match(game_id, players, seed=4, garnets={p: 10 for p in players})
    if stage == "mid":
        rng = Rng.from_seed(4, "fuzz players")
        for _ in range(2):
            if m.finished:
                break
            m.resolve(random_submissions(m, rng, 0.1))
    return m


def fresh(game_id: str, stage: str) -> Match:
    return copy.deepcopy(_match(game_id, stage))


STATES = [(g, stage) for g in sorted(games()) for stage in ("start", "mid")]


def cells_of(form):
    return [(sec, row, fld) for sec in form.sections for row in range(sec.rows) for fld in sec.fields]


def legal_raw(m: Match, player: str) -> dict:
    raw = m.game.random_submission(m.state, player, Rng.from_seed(9, "legal", player))
    return {s: [dict(r) for r in rows] for s, rows in raw.items()}


def put(raw: dict, sec, row: int, name: str, text: str) -> None:
    rows = raw.setdefault(sec.name, [])
    while len(rows) <= row:
        rows.append({})
    rows[row][name] = text


# ------------------------------------------------------------------ the properties

def check_submission(m: Match, player: str, raw: dict) -> None:
    """Parse and resolve must not raise; every problem names player, field and a short value."""
    direct_ok = all(len(str(v)) <= 10_000 for rows in raw.values() for r in rows for v in r.values())
    if direct_ok:  # the game module itself never raises (Match.parse adds a safety net on top)
        m.game.parse(m.state, player, raw)
    sub = m.parse(player, raw)
    if sub is not None:
        assert sub.player == player
        for pr in sub.problems:
            assert pr.player == player and player in pr.message
            assert pr.field and (pr.label or pr.field) in pr.message
            assert len(pr.value) <= PREVIEW + 1, pr
            assert "internal error" not in pr.reason, pr.message
            visible(pr.message)
            no_citation(pr.reason, pr.allowed, pr.default)
        for n in sub.notices:
            assert n.player == player and len(n.value) <= PREVIEW + 1 and len(n.read_as) <= PREVIEW + 1
            visible(n.message)
    others = {p: legal_raw(m, p) for p in m.players if p != player}
    rec = m.resolve({**others, player: raw})
    for p in m.players:
        visible(m.player_report(p).text())
    visible(m.public_report().text())
    # printed one a line ("  " or "Note: " before it): at most HOST_LINE characters with the player's name
    assert all(len(line) <= HOST_LINE - 10 for line in rec.problems() + rec.notices()), \
        max(rec.problems() + rec.notices(), key=len)


def visible(text: str) -> None:
    """Player-visible text holds no raw control character (echoed values are escaped)."""
    bad = [ch for ch in text if ch != "\n" and unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Zl", "Zp")]
    assert not bad, (bad[:5], text[:300])


def no_citation(*texts: str) -> None:
    """Our own words to players cite no ruling (what a player typed may, and is echoed as typed)."""
    for text in texts:
        assert not citations(text), (citations(text), text)


def one_cell_case(draw, game_id: str, stage: str):
    m = fresh(game_id, stage)
    if m.finished:
        return None
    player = draw(st.sampled_from(m.players))
    sec, row, fld = draw(st.sampled_from(cells_of(m.form(player))))
    raw = legal_raw(m, player)
    put(raw, sec, row, fld.name, draw(hostile_text(fld.choices)))
    return m, player, raw


def all_cells_case(draw, game_id: str, stage: str):
    m = fresh(game_id, stage)
    if m.finished:
        return None
    player = draw(st.sampled_from(m.players))
    raw: dict = {}
    for sec, row, fld in cells_of(m.form(player)):
        put(raw, sec, row, fld.name, draw(hostile_text(fld.choices)))
    return m, player, raw


def _one_cell(game_id, stage, data):
    case = one_cell_case(data.draw, game_id, stage)
    if case:
        check_submission(*case)


def _all_cells(game_id, stage, data):
    case = all_cells_case(data.draw, game_id, stage)
    if case:
        check_submission(*case)


@pytest.mark.parametrize("game_id,stage", STATES)
@settings(max_examples=SMALL, derandomize=True, **COMMON)
@given(data=st.data())
def test_one_hostile_cell_never_stops_the_round(game_id, stage, data):
    _one_cell(game_id, stage, data)


@pytest.mark.parametrize("game_id,stage", STATES)
@settings(max_examples=SMALL, derandomize=True, **COMMON)
@given(data=st.data())
def test_every_cell_hostile_never_stops_the_round(game_id, stage, data):
    _all_cells(game_id, stage, data)


@pytest.mark.fuzz
@pytest.mark.parametrize("game_id,stage", STATES)
@settings(max_examples=BIG, **COMMON)
@given(data=st.data())
def test_fuzz_one_hostile_cell(game_id, stage, data):
    _one_cell(game_id, stage, data)


@pytest.mark.fuzz
@pytest.mark.parametrize("game_id,stage", STATES)
@settings(max_examples=BIG // 3, **COMMON)
@given(data=st.data())
def test_fuzz_every_cell_hostile(game_id, stage, data):
    _all_cells(game_id, stage, data)


# ------------------------------------------------------------------ fixed cases

@pytest.mark.parametrize("game_id,stage", STATES)
def test_every_field_takes_every_classic_bad_value(game_id, stage):
    """Each field of the form in turn: the values of issue 17, deterministic."""
    values = ["\u00b2", "\uff15", "\u0663", "x", "9" * 5000, "=1+2", "\x00\x1b[31m", "\u202e1", "y" * 100_000]
    base = fresh(game_id, stage)
    if base.finished:
        pytest.skip("the game ended early")
    player = base.players[0]
    for sec, row, fld in cells_of(base.form(player)):
        for text in values:
            raw = legal_raw(base, player)
            put(raw, sec, row, fld.name, text)
            sub = base.parse(player, raw)
            assert sub is not None
            for pr in sub.problems:
                assert player in pr.message and (pr.label or pr.field) and len(pr.value) <= PREVIEW + 1
                visible(pr.message)
                no_citation(pr.reason, pr.allowed, pr.default)
            if len(text) > cell_cap(fld):
                too_long = [pr for pr in sub.problems if pr.reason.startswith("too long")]
                assert len(too_long) == 1, [pr.message for pr in sub.problems]
                assert f"{len(text):,} characters" in too_long[0].reason
    check_submission(fresh(game_id, stage), player, legal_raw(base, player))


@pytest.mark.parametrize("game_id", sorted(games()))
def test_a_submission_beyond_any_form_is_one_problem(game_id):
    m = fresh(game_id, "start")
    p = m.players[0]
    raw = {"junk": [{"a": "x" * 150} for _ in range(300)]}
    sub = m.parse(p, raw)
    assert [pr.field for pr in sub.problems] == [SUBMISSION_FIELD]
    assert "nothing was read" in sub.problems[0].default
    m.resolve({p: raw})                              # the rules' default applies


def test_control_characters_are_shown_escaped_never_raw():
    m = new_match("three-modular-rooms", ["Ann", "Bo"], seed=1)
    sub = m.parse("Ann", {"play": [{"card": "\x07\x1b[2J\u202e3", "room": "Null\r\nDuel"}]})
    msgs = [pr.message for pr in sub.problems]
    assert msgs[0].startswith("Ann: Card = '\\x07\\x1b[2J\\u202e3'"), msgs
    assert msgs[1].startswith("Ann: Room = 'Null\\r\\nDuel'"), msgs
    rec = m.resolve({"Ann": {"play": [{"card": "\x07", "room": "Null"}]}})
    assert "\x07" not in m.player_report("Ann").text() and "\\x07" in m.player_report("Ann").text()
    assert rec.problems()


# ------------------------------------------------------------------ end to end on real .xlsx files

def test_hostile_cells_in_real_files_never_stop_status_or_resolve(tmp_path):
    """Issue 17 as a host saw it, through the CLI: each player's odd cell is that player's notice
    or problem, on their line; the round resolves with the rules' default; the others are unaffected."""
    from test_cli_xlsx import run, tab_text, type_submission
    game = tmp_path / "game"
    run("new", "three-modular-rooms", "--players", "Ann,Bo,Cy,Dee,Eli", "--out", game, "--garnets", "10",
        "--option", "rounds=3")
    players = game / "players"
    type_submission(players / "Ann.xlsx", "Your play", ["\u00b2", "\uff2e\uff55\uff4c\uff4c"])   # superscript 2, fullwidth Null
    type_submission(players / "Bo.xlsx", "Your play", ["\u0663", "Duel"])                        # Arabic-Indic 3
    type_submission(players / "Bo.xlsx", "Purchases (optional)", ["", "x"])                      # x is not yes
    type_submission(players / "Cy.xlsx", "Your play", ["7" * 100_000, "Solitary"])
    type_submission(players / "Dee.xlsx", "Your play", ["\uff15", "Null"])                       # fullwidth 5
    type_submission(players / "Eli.xlsx", "Your play", ["4", "Duel"])

    out = run("status", game).output
    lines = {line.split()[0]: line for line in out.splitlines() if line.startswith("  ")}
    assert lines["Ann"].endswith("submitted: ok") and lines["Dee"].endswith("ok")   # notices are not problems
    assert lines["Bo"].endswith("problems in Hide rooms") and lines["Cy"].endswith("problems in Card")  # labels, not ids
    assert lines["Eli"].endswith("ok") and "5 of 5 submitted." in out

    out = run("resolve", game, "--dry-run").output
    assert "Ann: Card: read '\u00b2' as 2" in out and "Ann: Room: read '\uff2e\uff55\uff4c\uff4c' as Null" in out
    assert "Bo: Hide rooms = 'x' (not yes or no)" in out
    # an .xlsx cell holds at most 32,767 characters: openpyxl keeps that much of the 100,000
    assert "Cy: Card = '" + "7" * 40 + "…' (too long: 32,767 characters; at most 100)" in out
    assert "7" * 41 not in out and len(out) < 20_000

    out = run("resolve", game).output
    assert "round 1 resolved and published" in out
    results = {p: tab_text(players / f"{p}.xlsx", "Results") for p in ("Ann", "Bo", "Cy", "Dee", "Eli")}
    assert "You played card 2 in Null." in results["Ann"] and "Card: read '\u00b2' as 2" in results["Ann"]
    assert "You played card 3 in Duel." in results["Bo"] and "Hide rooms = 'x'" in results["Bo"]
    assert "You paid 3 garnets to hide" not in results["Bo"]                                    # the default: not hidden
    assert "Your card was chosen at random" in results["Cy"] and "too long: 32,767 characters" in results["Cy"]
    assert "7" * 41 not in results["Cy"]
    assert "You played card 5 in Null." in results["Dee"] and "read '\uff15' as 5" in results["Dee"]
    assert "You played card 4 in Duel." in results["Eli"] and "read" not in results["Eli"]  # untouched by the others
    assert "hide rooms" not in tab_text(game / "master.xlsx", "Ledger")


def test_huge_number_and_formula_in_real_files(tmp_path):
    from test_cli_xlsx import run, tab_text, type_submission
    game = tmp_path / "game"
    run("new", "big-machine", "--players", "Ann,Bo,Cy,Dee", "--out", game, "--garnets", "10")
    run("resolve", game, "--allow-empty")                                      # meadow selection: defaults
    players = game / "players"
    type_submission(players / "Ann.xlsx", "Your move", ["White", "9" * 5000, "=IMPORTRANGE(\"x\",\"A1\")", "L1"])
    out = run("status", game).output
    assert next(line for line in out.splitlines() if "Ann" in line).endswith("problems in Bid (cogs), Power-up (cogs)")
    out = run("resolve", game).output
    assert "round 1 resolved" in out
    ann = tab_text(players / "Ann.xlsx", "Results")
    assert "too long: 5,000 characters" in ann and "a formula" in ann and "9" * 41 not in ann


# ------------------------------------------------------------------ issue 25: the same, through real files

NUMERIC = ["9" * 5000, "-" + "9" * 5000, "1" * 4301, "1e400", "99999999999", "3", "12345678901234567890"]
STRUCTURAL = ("B2", "A2", "title")   # the round marker, its label, a section's title row


@st.composite
def file_cell(draw, choices: tuple[str, ...] = ()):
    """What a cell of a player's .xlsx book may hold: ("text", stored text) or ("number", its digits),
    as it stands in the file (a text's "_xHHHH_" is the file's escape, which a reader decodes)."""
    if draw(st.integers(0, 4)) == 0:
        return ("number", draw(st.sampled_from(NUMERIC)))
    return ("text", draw(hostile_text(choices).map(lambda t: t[:40_000])))


@st.composite
def book_case(draw, form, player: str):
    """Hostile cells for some input cells of `player`'s Submission tab, maybe one structural cell,
    maybe a date-formatted number that is no date, and maybe a formula somewhere in the book."""
    inputs = input_cells(form, player)
    picked = draw(st.lists(st.sampled_from(sorted(inputs)), min_size=1, max_size=min(8, len(inputs)), unique=True))
    cells = {rc: draw(file_cell(inputs[rc])) for rc in picked}
    structural = draw(st.sampled_from((None, None, None) + STRUCTURAL))
    if structural:
        rc = {"B2": (1, 1), "A2": (1, 0), "title": (title_row(form, player), 0)}[structural]
        cells[rc] = draw(st.one_of(file_cell(), st.just(("text", "x" * 100_000))))
    return cells, draw(st.sampled_from((None, "results", "input"))), draw(st.booleans())


def input_cells(form, player: str) -> dict[tuple[int, int], tuple[str, ...]]:
    """The input cells of the drawn Submission tab (0-based), each with its dropdown's choices."""
    from sheetbridge.sheets.layout import form_tab
    return {(r, c): cell.choices for r, row in enumerate(form_tab(form, player).rows)
            for c, cell in enumerate(row) if cell.input}


def title_row(form, player: str) -> int:
    """The row of the form's first section title (0-based)."""
    from sheetbridge.sheets.layout import form_tab
    first = form.sections[0].title
    return next(r for r, row in enumerate(form_tab(form, player).rows) if row and row[0].value == first)


def ooxml(text: str) -> bytes:
    """`text` as an .xlsx file stores it: XML-escaped, and what XML cannot hold as "_xHHHH_" (Excel's way)."""
    from xml.sax.saxutils import escape
    out = "".join(f"_x{ord(ch):04X}_" if ch not in "\t\n" and (ord(ch) < 32 or 0xD800 <= ord(ch) <= 0xDFFF
                                                                or ch in "\ufffe\uffff") else ch for ch in text)
    return escape(out).encode("utf-8")


def write_book(path, cells, formula, bad_date) -> None:
    """Put `cells` in the book's Submission tab byte for byte: openpyxl writes placeholders, which are
    then replaced in the sheet's XML (openpyxl refuses what a player's file may hold: "_x" escapes of
    surrogates, 5,000-digit numbers)."""
    import io
    import zipfile
    import openpyxl
    wb = openpyxl.load_workbook(path)
    ws = wb["Submission"]
    swaps: list[tuple[bytes, bytes]] = []
    for n, ((r, c), (kind, value)) in enumerate(sorted(cells.items())):
        if kind == "number":
            ws.cell(r + 1, c + 1).value = 7_770_000 + n
            swaps.append((f"<v>{7_770_000 + n}</v>".encode(), f"<v>{value}</v>".encode()))
        else:
            ws.cell(r + 1, c + 1).value = f"@@P{n}@@"
            swaps.append((f"<t>@@P{n}@@</t>".encode(), b'<t xml:space="preserve">' + ooxml(value) + b"</t>"))
    if bad_date:   # a date-formatted cell whose serial is no date (openpyxl warned about it on the terminal)
        r, c = next(iter(sorted(cells)))
        ws.cell(r + 1, c + 1).number_format = "yyyy-mm-dd"
        if cells[(r, c)][0] != "number":
            ws.cell(r + 1, c + 1).value = 99_999_999_999
    if formula == "results":
        wb["Results"]["A60"] = "=1+2"
    elif formula == "input":
        r, c = next(iter(sorted(cells)))
        ws.cell(r + 1, c + 1).value = "=SUM(1,2)"
        swaps = [s for s in swaps if not s[0].endswith(b"@@P0@@</t>") and b"<v>7770000<" not in s[0]]
    wb.save(path)
    src = zipfile.ZipFile(io.BytesIO(path.read_bytes()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info in src.infolist():
            data = src.read(info)
            if info.filename.startswith("xl/worksheets/"):
                for old, new in swaps:
                    data = data.replace(old, new)
            z.writestr(info, data)
    path.write_bytes(out.getvalue())


@lru_cache(maxsize=None)
def _new_game(game_id: str, root: str) -> str:
    """A new game's folder (created once per game and run), its open round taking entries."""
    from pathlib import Path
    from test_cli_xlsx import run
    folder = Path(root) / game_id
    run("new", game_id, "--players", ",".join(players_for(game_id)), "--out", folder, "--garnets", "10",
        "--seed", "5")
    if not input_cells(_form_of(folder, players_for(game_id)[0]), players_for(game_id)[0]):
        run("resolve", folder, "--allow-empty")    # a round with nothing to type (The Big Machine's first)
    return str(folder)


def _form_of(folder, player: str):
    from sheetbridge.host.session import load
    from sheetbridge.sheets.xlsx import XlsxStore
    return load(XlsxStore(folder)).match.form(player)


def host_sees_short_lines_only(game, commands=(("status",), ("resolve", "--dry-run"), ("resolve",))) -> None:
    """Each command: no internal error, no library warning, every line at most HOST_LINE characters."""
    import warnings
    from test_cli_xlsx import run
    for cmd in commands:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            res = run(cmd[0], game, *cmd[1:], ok=False)
        out = res.output.replace(str(game), "GAME")
        assert res.exit_code in (0, 2) and "internal error" not in out, (cmd, res.exit_code, out[-600:])
        long = [line[:120] for line in out.splitlines() if len(line) > HOST_LINE]
        assert not long, (cmd, max(len(line) for line in out.splitlines()), long[:3])
        assert not [w for w in caught if issubclass(w.category, UserWarning)], [str(w.message)[:200] for w in caught]


def _hostile_book(game_id: str, root, data) -> None:
    import shutil
    from pathlib import Path
    source = Path(_new_game(game_id, str(root)))
    game = Path(root) / f"{game_id}-case"
    shutil.rmtree(game, ignore_errors=True)
    shutil.copytree(source, game)
    player = data.draw(st.sampled_from(players_for(game_id)))
    cells, formula, bad_date = data.draw(book_case(_form_of(game, player), player))
    write_book(game / "players" / f"{player}.xlsx", cells, formula, bad_date)
    host_sees_short_lines_only(game)


@pytest.mark.parametrize("game_id", sorted(games()))
@settings(max_examples=2, derandomize=True, **COMMON)
@given(data=st.data())
def test_hostile_books_never_stop_status_or_resolve(game_id, tmp_path_factory, data):
    """Issue 25 through the CLI on real files: surrogates as Excel stores them, 5,000-digit numeric
    cells, books with and without a formula, invisible and bidi characters, structural cells."""
    _hostile_book(game_id, tmp_path_factory.getbasetemp() / "hostile", data)


@pytest.mark.fuzz
@pytest.mark.parametrize("game_id", sorted(games()))
@settings(max_examples=60, **COMMON)
@given(data=st.data())
def test_fuzz_hostile_books(game_id, tmp_path_factory, data):
    _hostile_book(game_id, tmp_path_factory.getbasetemp() / "hostile-fuzz", data)


def test_google_reads_a_lone_surrogate_and_a_huge_number_as_a_file_does(tmp_path):
    """The same cells through the real gspread client against the offline fake Google: a lone
    surrogate (JSON "\\ud83d") is the player's problem, read as U+FFFD; a number of 308 digits is a number."""
    from gspread.utils import rowcol_to_a1
    from sheetbridge.host.new import new_game
    from sheetbridge.host.players import PlayerInfo
    from sheetbridge.host.resolve import resolve
    from sheetbridge.host.session import load
    from sheetbridge.host.status import status
    from sheetbridge.core.intake import BROKEN_REASON
    from tests.fake_google import FakeGoogle
    fake = FakeGoogle(seed=3)
    names = ["Ann", "Bo", "Cy"]
    store = fake.store("host@example.com", game_folder=tmp_path / "g")
    new_game("three-modular-rooms", [PlayerInfo(n, f"{n.lower()}@example.com", 10) for n in names], store,
               seed=3, folder=tmp_path / "g")
    ld = load(store)
    typed = {"Ann": ["3", "Du\ud83del"], "Bo": ["\u200b\u202e2", "Null"], "Cy": [1e308, "Duel"]}
    for name, values in typed.items():
        (first, *_), form = sorted(input_cells(ld.match.form(name), name)), ld.match.form(name)
        ws = fake.gspread_client(f"{name.lower()}@example.com").open_by_key(ld.locations[name]).worksheet("Submission")
        ws.update([values], rowcol_to_a1(first[0] + 1, first[1] + 1), value_input_option="RAW")
    read = store.open("player:Ann", ld.locations["Ann"]).read(["Submission"])["Submission"]
    assert any("Du\ufffdel" in row for row in read)
    _, lines = status(store)
    assert [line.problem_fields for line in lines] == [("Room",), ("Card",), ("Card",)]
    res = resolve(store)
    assert res.action == "resolved"
    problems = res.record.problems()
    assert any(p.startswith("Ann: Room = 'Du\ufffdel' (" + BROKEN_REASON) for p in problems), problems
    assert any(p.startswith("Cy: Card = '1000000000000000010979") and "(too long: 309 characters" in p
               for p in problems), problems
    assert any(p.startswith("Bo: Card = '\\u200b\\u202e2' (not a card number)") for p in problems), problems
    results = store.open("player:Ann", ld.locations["Ann"]).read(["Results"])["Results"]
    assert any("Du\ufffdel" in cell for row in results for cell in row)


def test_a_cell_reads_the_same_with_or_without_a_formula_in_the_book(tmp_path):
    """calamine reads a book without formulas, openpyxl one with: one reading either way (issue 25),
    no warning printed, nothing raised."""
    import warnings
    import openpyxl
    from sheetbridge.sheets.xlsx import XlsxStore
    cells = {(0, 0): ("text", "Du_xD83D_el"), (0, 1): ("text", "_xD83D__xDE00_"), (0, 2): ("text", "_x005F_xD83D_"),
             (0, 3): ("text", "_x0041_\u202e\u200b"), (0, 4): ("number", "9" * 5000), (0, 5): ("number", "-1e400"),
             (0, 6): ("number", "12.5"), (0, 7): ("text", "a_x0007_b")}
    reads = {}
    for formula in (None, "results"):
        path = tmp_path / f"{formula}.xlsx"
        wb = openpyxl.Workbook()
        wb.active.title = "Submission"
        wb.active["A2"].number_format = "yyyy-mm-dd"     # a date-formatted serial that is no date
        wb.create_sheet("Results")
        wb.save(path)
        write_book(path, {**cells, (1, 0): ("number", "99999999999")}, formula, bad_date=False)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            reads[formula] = XlsxStore(tmp_path).open("player:x", path.name).read(["Submission"])["Submission"]
        assert not [w for w in caught if issubclass(w.category, UserWarning)], [str(w.message) for w in caught]
    assert reads[None] == reads["results"]
    # (a control character reads as a write would store it, U+FFFD: what undo puts back reads back the same)
    assert reads[None][0] == ["Du\ufffdel", "\U0001f600", "_xD83D_", "A\u202e\u200b", "inf", "-inf", "12.5", "a\ufffdb"]
    assert reads[None][1] == ["99999999999"]


def test_a_player_with_every_field_wrong_is_one_short_status_line(tmp_path_factory):
    """Issue 25: status named every field with a problem, 749 characters for a Bugcatcher player."""
    import shutil
    from pathlib import Path
    from test_cli_xlsx import run
    game_id = "bugcatcher"
    game = tmp_path_factory.mktemp("every-field") / "game"
    shutil.copytree(_new_game(game_id, str(tmp_path_factory.getbasetemp() / "hostile")), game)
    player = players_for(game_id)[0]
    cells = {rc: ("text", "zz") for rc in input_cells(_form_of(game, player), player)}
    write_book(Path(game) / "players" / f"{player}.xlsx", cells, None, False)
    out = run("status", game).output
    line = next(line for line in out.splitlines() if line.startswith(f"  {player} "))
    assert len(cells) > 20 and "problems in " in line and line.endswith(" more"), line
    assert len(line) <= HOST_LINE, (len(line), line)
