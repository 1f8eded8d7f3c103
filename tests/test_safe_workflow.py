"""Nothing a host does loses data or half-publishes (issues 15 and 17).

Every test here runs the real commands on real files (xlsx re-read from disk, or the
offline fake Google through the real gspread client) and checks what is on disk after.
"""
from __future__ import annotations

import shutil
import threading
from pathlib import Path

import openpyxl
import pytest

from sheetbridge import orchestrator as O
from sheetbridge.core.errors import GameBusy
from sheetbridge.sheets.store import BOARD
from sheetbridge.sheets.xlsx import XlsxStore
from tests.test_cli_xlsx import digest, run, tab_text, type_submission

PLAYERS = "Ann,Bo,Cy"


class Killed(BaseException):
    """A hard kill in the middle of a command (not an Exception: nothing may catch it)."""


def crash_after(store, k: int):
    """Make `store` die after its k-th successful book write (k = 0: before any write)."""
    state = {"left": k}
    real_open = store.open

    def open_(key, location):
        book = real_open(key, location)
        real_write = book.write

        def write(tabs):
            if state["left"] == 0:
                raise Killed()
            state["left"] -= 1
            real_write(tabs)
        book.write = write
        return book
    store.open = open_
    return store


def count_writes(store) -> list[str]:
    written: list[str] = []
    real_open = store.open

    def open_(key, location):
        book = real_open(key, location)
        real_write = book.write

        def write(tabs):
            written.append(key)
            real_write(tabs)
        book.write = write
        return book
    store.open = open_
    return written


@pytest.fixture
def game(tmp_path):
    folder = tmp_path / "game"
    run("new", "three-modular-rooms", "--players", PLAYERS, "--out", folder, "--garnets", "10",
        "--option", "rounds=3", "--seed", "5")
    return folder


def typed_round_one(folder: Path) -> Path:
    type_submission(folder / "players" / "Ann.xlsx", "Your play", [3, "Null"])
    type_submission(folder / "players" / "Bo.xlsx", "Your play", [-10, "Null"])
    type_submission(folder / "players" / "Cy.xlsx", "Your play", [5, "Duel"])
    return folder


# ------------------------------------------------------------------ crash after every k writes

@pytest.mark.parametrize("command", ["resolve", "undo"])
def test_a_crash_after_any_write_converges_on_rerun_xlsx(game, tmp_path, command):
    typed_round_one(game)
    if command == "undo":
        run("resolve", game)
        type_submission(game / "players" / "Ann.xlsx", "Your play", [7, "Solitary"])
    start = tmp_path / "start"
    shutil.copytree(game, start)
    reference = tmp_path / "reference"
    shutil.copytree(start, reference)
    store = XlsxStore(reference)
    written = count_writes(store)
    getattr(O, command)(store)
    want = digest(reference)
    assert written[0] == "master" and written[-1] == BOARD and len(written) == 5   # master, 3 players, board
    for k in range(len(written)):
        folder = tmp_path / f"k{k}"
        shutil.copytree(start, folder)
        with pytest.raises(Killed):
            getattr(O, command)(crash_after(XlsxStore(folder), k))
        again = getattr(O, command)(XlsxStore(folder))            # the host runs the command again
        assert again.action == ("published" if k else command.replace("resolve", "resolved").replace("undo", "undone"))
        assert digest(folder) == want, f"crash after {k} write(s) did not converge"
        assert not list(folder.rglob(".tmp-*")), "a temporary file was left behind"
        rows = O.load(XlsxStore(folder)).match.ledger.rows
        assert len({r.key for r in rows}) == len(rows)


def test_a_crash_before_the_board_is_finished_by_resolve_round_one(game, tmp_path):
    typed_round_one(game)
    with pytest.raises(Killed):
        O.resolve(crash_after(XlsxStore(game), 4))          # master and 3 players written, not the board
    assert "Round 1: rooms" not in tab_text(game / "board.xlsx", "Board")
    out = run("resolve", game, "--round", "1").output
    assert "round 1 is already resolved; finished publishing to the public board" in out
    assert "Round 1: rooms" in tab_text(game / "board.xlsx", "Board")
    assert run("resolve", game, "--round", "1").output.strip().endswith("nothing changed")


# ------------------------------------------------------------------ broken and missing files

def test_a_broken_board_stops_resolve_before_anything_is_written_and_repair_recreates_it(game):
    typed_round_one(game)
    (game / "board.xlsx").write_bytes(b"not a workbook")
    before = digest(game)
    res = run("resolve", game, ok=False)
    assert res.exit_code == 2 and "board.xlsx: not a readable .xlsx workbook" in res.output
    assert "sheetbridge repair" in res.output
    assert digest(game) == before
    out = run("repair", game).output
    assert "the public board could not be read" in out
    assert list((game / "broken").glob("board-*.xlsx"))          # the broken file is kept aside
    assert "round 1 resolved and published" in run("resolve", game).output   # the players' entries survived
    assert "Round 1: rooms" in tab_text(game / "board.xlsx", "Board")


def test_status_warns_of_a_missing_board_with_the_command_that_mends_it(game):
    typed_round_one(game)
    (game / "board.xlsx").unlink()
    out = run("status", game).output
    assert out.startswith("warning: the public board's file cannot be read (")
    assert f"resolve will stop until `sheetbridge repair {game}` re-creates it" in out
    assert "3 of 3 submitted." in out                    # the players' lines are all there
    run("repair", game)
    assert "warning" not in run("status", game).output


def test_a_missing_player_file_is_reported_on_its_line_and_repair_recreates_it(game):
    typed_round_one(game)
    run("resolve", game)
    type_submission(game / "players" / "Ann.xlsx", "Your play", [7, "Solitary"])
    (game / "players" / "Bo.xlsx").unlink()
    out = run("status", game).output
    lines = {line.split()[0]: line for line in out.splitlines()[1:-1]}
    assert "cannot read the file" in lines["Bo"] and "file not found" in lines["Bo"]
    assert "submitted" in lines["Ann"] and "not submitted" in lines["Cy"]
    res = run("resolve", game, ok=False)
    assert res.exit_code == 2 and "--player Bo" in res.output
    out = run("repair", game, "--player", "Bo").output
    assert "Bo's file could not be read" in out
    sub = openpyxl.load_workbook(game / "players" / "Bo.xlsx")["Submission"]
    assert sub["B2"].value == 2                                    # open for the current round
    assert "You played card -10 in Null." in tab_text(game / "players" / "Bo.xlsx", "Results")
    assert "ok" in run("status", game).output                      # Ann's entries were never touched


def test_a_renamed_submission_tab_has_its_entries_moved_back(game):
    path = game / "players" / "Cy.xlsx"
    type_submission(path, "Your play", [5, "Duel"])
    wb = openpyxl.load_workbook(path)
    wb["Submission"].title = "My moves"
    wb.save(path)
    out = run("repair", game, "--player", "Cy").output
    assert "renamed to 'My moves'" in out
    wb = openpyxl.load_workbook(path)
    assert wb.sheetnames == ["Submission", "Results", "Board", "Identity"]
    lines = run("status", game).output
    assert any(line.strip().startswith("Cy") and "submitted" in line and "ok" in line for line in lines.splitlines())


# ------------------------------------------------------------------ undo keeps what players typed

def test_undo_keeps_entries_typed_for_the_next_round_and_puts_them_back(game):
    typed_round_one(game)
    run("resolve", game)
    type_submission(game / "players" / "Ann.xlsx", "Your play", [7, "Solitary"])
    out = run("undo", game).output
    assert "entries Ann had typed for round 2 are kept in the master" in out
    sub = openpyxl.load_workbook(game / "players" / "Ann.xlsx")["Submission"]
    assert sub["B2"].value == 1                                    # round 1 again, with her round-1 entries
    assert "3 | Null" in tab_text(game / "players" / "Ann.xlsx", "Submission")
    run("resolve", game)                                           # round 1 again
    text = tab_text(game / "players" / "Ann.xlsx", "Submission")
    assert "Round 2 of 3" in text and "7 | Solitary" in text       # her round-2 entries are back
    run("resolve", game)                                           # round 2 uses them, then they are dropped
    assert "You played card 7 in Solitary." in tab_text(game / "players" / "Ann.xlsx", "Results")
    assert "7 | Solitary" not in tab_text(game / "players" / "Ann.xlsx", "Submission")


# ------------------------------------------------------------------ demo never deletes what it did not write

def test_demo_refuses_a_real_game_and_a_folder_of_notes(game, tmp_path):
    before = digest(game)
    res = run("demo", "three-modular-rooms", "--out", game, "--quiet", ok=False)
    assert res.exit_code == 2 and "not a demo" in res.output and "nothing was deleted" in res.output
    assert digest(game) == before
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "plan.txt").write_text("my season plan")
    res = run("demo", "three-modular-rooms", "--out", notes, "--quiet", ok=False)
    assert res.exit_code == 2 and "other files" in res.output
    assert (notes / "plan.txt").read_text() == "my season plan"


def test_demo_replaces_an_earlier_demo_but_keeps_other_files(tmp_path):
    out = tmp_path / "demo"
    run("demo", "three-modular-rooms", "--out", out, "--quiet")
    (out / "my-notes.txt").write_text("keep me")
    (out / "players" / "Ann-backup.xlsx").write_bytes(b"a backup")
    first = digest(out)
    res = run("demo", "three-modular-rooms", "--out", out)
    assert "kept 2 file(s) it did not write" in res.output
    assert (out / "my-notes.txt").read_text() == "keep me"
    assert (out / "players" / "Ann-backup.xlsx").read_bytes() == b"a backup"
    assert digest(out) == first                                    # same seed, same files


# ------------------------------------------------------------------ leftovers and locks

def test_temporary_files_of_a_killed_run_are_cleaned_by_the_next_command(game):
    (game / "players" / ".tmp-abc.xlsx").write_bytes(b"half")
    (game / ".sheetbridge-tmp").mkdir(exist_ok=True)
    (game / ".sheetbridge-tmp" / ".tmp-def.xlsx").write_bytes(b"half")
    run("status", game)
    assert not list(game.rglob(".tmp-*"))


def test_writes_never_put_a_temporary_file_in_the_players_folder(game, monkeypatch):
    import sheetbridge.sheets.xlsx as X
    seen = []
    real = X.tempfile.mkstemp

    def spy(*a, **kw):
        seen.append(Path(kw["dir"]))
        return real(*a, **kw)
    monkeypatch.setattr(X.tempfile, "mkstemp", spy)
    typed_round_one(game)
    run("resolve", game)
    assert seen and not any("players" in d.parts for d in seen)
    assert {d.name for d in seen} <= {".sheetbridge-tmp", "pictures"}       # workbooks go via .sheetbridge-tmp


def test_a_second_command_on_a_busy_game_refuses_with_who_holds_it(game):
    held, release = threading.Event(), threading.Event()

    def other_run():                     # another sheetbridge (a thread holds the OS lock like a process)
        with XlsxStore(game).lock("resolve"):
            held.set()
            release.wait(30)
    t = threading.Thread(target=other_run)
    t.start()
    try:
        assert held.wait(30)
        before = digest(game)
        for command in ("status", "resolve", "undo", "repair"):
            res = run(command, game, ok=False)
            assert res.exit_code == 2, res.output
            assert "another sheetbridge is working on this game (resolve since" in res.output
            assert "pid" in res.output and "try again when it ends" in res.output
        assert digest(game) == before
    finally:
        release.set()
        t.join()
    assert run("status", game).exit_code == 0                      # released


def test_a_stale_run_can_never_overwrite_a_newer_round(game):
    """Two runs interleaved step by step (as if the lock had failed, as it can on Google):
    A loads round 1, B resolves round 1 completely, then A tries to commit."""
    typed_round_one(game)

    class NoLock(XlsxStore):
        def lock(self, command):
            import contextlib
            return contextlib.nullcontext()

    a = NoLock(game)
    real_load = O.load
    done = {}

    def load_then_b_runs(store, *args, **kw):
        ld = real_load(store, *args, **kw)
        if store is a and not done:
            done["b"] = O.resolve(XlsxStore(game))                # B: a complete, newer run
        return ld
    O.load = load_then_b_runs
    try:
        with pytest.raises(GameBusy, match="changed while this command ran"):
            O.resolve(a)
    finally:
        O.load = real_load
    assert done["b"].action == "resolved"
    ld = O.load(XlsxStore(game))
    assert ld.match.round == 2 and len(ld.match.rounds) == 1       # B's round stands, resolved once


def test_two_threads_resolving_at_once_resolve_the_round_once(game):
    typed_round_one(game)
    results, errors = [], []
    barrier = threading.Barrier(2)

    def go():
        barrier.wait()
        try:
            results.append(O.resolve(XlsxStore(game)))
        except GameBusy as e:
            errors.append(e)
    threads = [threading.Thread(target=go) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [r.action for r in results].count("resolved") == 1
    assert all("another sheetbridge is working on this game" in str(e) for e in errors)
    ld = O.load(XlsxStore(game))
    assert len(ld.match.rounds) == 1
    assert len({r.key for r in ld.match.ledger.rows}) == len(ld.match.ledger.rows)


# ------------------------------------------------------------------ the same on Google (the offline fake)

@pytest.mark.parametrize("command", ["resolve", "undo"])
def test_a_crash_after_any_write_converges_on_rerun_google(tmp_path, command):
    from sheetbridge.core.rng import Rng
    from sheetbridge.core.match import random_submissions
    from tests.fake_google import FakeGoogle
    from tests.test_google_backend import HOST, _players, snapshot

    game_id = "skeld"

    def fresh(name):
        fake = FakeGoogle(seed=11)
        st = fake.store(HOST, game_folder=tmp_path / name)
        st.game_id = game_id
        O.new_game(game_id, _players(game_id), st, seed=3, folder=tmp_path / name)
        rng = Rng.from_seed(5, "test players")
        for _ in range(2 if command == "undo" else 1):
            ld = O.load(st)
            for p, raw in random_submissions(ld.match, rng).items():
                O.fill_submission(st, ld, p, raw)
            if command == "undo" or ld.match.round == 0:
                O.resolve(st, allow_empty=True)
        ld = O.load(st)
        for p, raw in random_submissions(ld.match, rng).items():
            O.fill_submission(st, ld, p, raw)
        return fake, st

    _, ref = fresh("ref")
    written = count_writes(ref)
    getattr(O, command)(ref)
    want = snapshot(ref)
    # The master first (the commit point); then the player files and the board, published at once on Google.
    assert written[0] == "master" and sorted(written[1:]) == sorted([BOARD] + [f"player:{p.name}" for p in
                                                                              _players(game_id)])
    for k in range(len(written)):
        fake, st = fresh(f"k{k}")
        with pytest.raises(Killed):
            getattr(O, command)(crash_after(st, k))
        again = getattr(O, command)(fake.store(HOST, game_folder=tmp_path / f"k{k}", master_id=st.master_id))
        assert again.action in ("published", "resolved", "undone"), again.message
        assert snapshot(st) == want, f"crash after {k} write(s) did not converge"


def test_content_edited_before_round_1_is_what_the_game_plays(tmp_path):
    folder = tmp_path / "bug"
    run("new", "bugcatcher", "--players", "Ann,Bo,Cy", "--out", folder, "--seed", "2")
    wb = openpyxl.load_workbook(folder / "master.xlsx")
    ws = wb["Missions"]
    row = next(r for r in range(1, ws.max_row + 1) if ws.cell(r, 2).value == "J1")
    ws.cell(row, 3).value = "Gleeful Jellyfish"
    wb.save(folder / "master.xlsx")
    missions = O.load(XlsxStore(folder)).match.state["missions"]
    assert any(m["id"] == "J1" and m["name"] == "Gleeful Jellyfish" for m in missions)


def test_an_entry_typed_a_row_too_low_is_named_to_the_player_and_the_host(game):
    path = game / "players" / "Ann.xlsx"
    type_submission(path, "Your play", [3, "Null"])
    wb = openpyxl.load_workbook(path)
    ws = wb["Submission"]
    row = next(r for r in range(1, ws.max_row + 1) if ws.cell(r, 1).value == "Your play") + 3
    ws.cell(row, 3).value = "Duel"                      # one row below the Room box
    wb.save(path)
    out = run("status", game).output
    ann = next(line for line in out.splitlines() if line.strip().startswith("Ann"))
    cell = f"C{row}"
    assert f"typed outside the boxes (ignored): {cell}" in ann and "Duel" not in ann
    out = run("resolve", game).output
    assert f"Ann: cell {cell} ('Duel', near 'Your play') is outside the boxes to fill in and is ignored" in out
    results = tab_text(path, "Results")
    assert "typed outside the boxes (ignored)" in results and cell in results
    assert cell not in tab_text(game / "players" / "Bo.xlsx", "Results")
