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

from sheetbridge.core.game import games
from sheetbridge.core.intake import SUBMISSION_FIELD, cell_cap
from sheetbridge.core.match import Match, random_submissions
from sheetbridge.core.parsing import PREVIEW
from sheetbridge.core.rng import Rng

from conftest import players_for
from test_player_text import citations

SMALL, BIG = 6, 300
COMMON = dict(deadline=None, database=None, suppress_health_check=list(HealthCheck))

# ------------------------------------------------------------------ hostile text

HUGE = ["9" * 5000, "-" + "9" * 5000, "1" * 4301, "9" * 30, "1e400", "-1e308", "nan", "inf", "0x1F", "1_000"]
FORMULAS = ["=1+2", "=IMPORTRANGE(\"https://docs.google.com/x\",\"A1:Z9\")", "\uff1d1+2", "=cmd|' /C calc'!A0",
            "+1", "@SUM(A1)", "=" + "(" * 300]
ODD_DIGITS = ["\u00b2", "\uff15", "\u0663", "\u06f7", "\u0967", "\u2460", "\u00bd", "\U0001d7d8", "x\u00b2", "\u2212\u0663"]
ANY_CHAR = st.characters(exclude_categories=())          # every Unicode category, surrogates included
CONTROL = st.characters(categories=["Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"])


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
    m = Match.new(game_id, players, seed=4, garnets={p: 10 for p in players})
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
    assert all(len(line) < 2000 for line in rec.problems())


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
    m = Match.new("three-modular-rooms", ["Ann", "Bo"], seed=1)
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
