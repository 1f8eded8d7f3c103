"""Nothing a host does loses data or half-publishes (issues 15 and 17).

Every test here runs the real commands on real files (xlsx re-read from disk, or the
offline fake Google through the real gspread client) and checks what is on disk after.
"""
from __future__ import annotations

import copy
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

import openpyxl
import pytest

from sheetbridge.host import session
from sheetbridge.host.demo import fill_submission
from sheetbridge.host.new import new_game
from sheetbridge.host.players import PlayerInfo
from sheetbridge.host.resolve import resolve
from sheetbridge.host.session import load
from sheetbridge.host.undo import undo
from sheetbridge.core.errors import GameBusy
from sheetbridge.host.picture_files import PictureWrite, picture_path, round_pictures
from sheetbridge.host.private_pictures import latest_picture
from sheetbridge.sheets.store import BOARD
from sheetbridge.sheets.xlsx import XlsxStore
from sheetbridge.api import get_game
from sheetbridge.core.match import random_submissions
from sheetbridge.core.rng import Rng
from tests.conftest import game_ids, players_for
from tests.test_cli_xlsx import digest, run, tab_text, type_submission

PLAYERS = "Ann,Bo,Cy"

HOST_COMMANDS = {"resolve": resolve, "undo": undo}   # the commands a crash test runs again


class Killed(BaseException):
    """A hard kill in the middle of a command (not an Exception: nothing may catch it)."""


@pytest.fixture(autouse=True)
def _picture_writes_restored():
    """crash_after and count_writes hook the picture files' writes (a class, not a store): put it back."""
    real = PictureWrite.publish
    yield
    PictureWrite.publish = real


def crash_after(store, k: int):
    """Make `store` die after its k-th successful write (k = 0: before any write): a book, or a
    picture file of the game folder. Dies once: the host's re-run writes normally."""
    state = {"left": k}
    guard = threading.Lock()            # Google publishes several books at once
    real_open, real_publish = store.open, PictureWrite.publish

    def tick():
        with guard:
            if state["left"] == 0:
                PictureWrite.publish = real_publish
                raise Killed()
            state["left"] -= 1

    def open_(key, location):
        book = real_open(key, location)
        real_write = book.write

        def write(tabs):
            tick()
            real_write(tabs)
        book.write = write
        return book

    def publish(picture):
        tick()
        real_publish(picture)
    store.open = open_
    PictureWrite.publish = publish
    return store


def count_writes(store) -> list[str]:
    """The keys of the books (and "pictures" for each picture file) the next command writes, in order."""
    written: list[str] = []
    real_open, real_publish = store.open, PictureWrite.publish

    def open_(key, location):
        book = real_open(key, location)
        real_write = book.write

        def write(tabs):
            written.append(key)
            real_write(tabs)
        book.write = write
        return book

    def publish(picture):
        written.append(picture.key)
        real_publish(picture)
    store.open = open_
    PictureWrite.publish = publish
    return written


def files_digest(folder: Path) -> dict:
    """Every workbook and every picture of a game folder, by content (temporary files included)."""
    pictures = sorted(p for p in (folder / "pictures").rglob("*") if p.is_file())
    return {**digest(folder), **{str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
                                  for p in pictures}}


def leftovers(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.name.startswith(".tmp-") or p.parent.name == ".sheetbridge-tmp"]


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

# Every k of every game is `pytest -m fuzz` (about four minutes); the default run cuts two games,
# one drawing only the board (Three Modular Rooms) and one drawing a private picture per player (Skeld).
DEFAULT_GAMES = ["three-modular-rooms", "skeld"]


def few_players(game_id: str) -> list[PlayerInfo]:
    """As few players as the game allows, three or more: every cut point, in little time."""
    spec = get_game(game_id).spec
    return [PlayerInfo(n, f"{n.lower()}@example.com", 10) for n in players_for(game_id, max(3, spec.min_players))]


def all_players(game_id: str) -> list[PlayerInfo]:
    return [PlayerInfo(n, f"{n.lower()}@example.com", 10) for n in players_for(game_id)]


def play_to_the_cut(store, game_id: str, command: str, folder: Path, players) -> None:
    """A game whose next `command` is the one to cut: for resolve, a round typed in (after the pregame
    round 0 of a game that has one); for undo, one more round resolved and the next one's entries typed."""
    store.game_id = game_id
    new_game(game_id, players, store, seed=3, folder=folder)
    rng = Rng.from_seed(5, "test players")
    for _ in range(2 if command == "undo" else 1):
        ld = load(store)
        for p, raw in random_submissions(ld.match, rng).items():
            fill_submission(store, ld, p, raw)
        if command == "undo" or ld.match.round == 0:
            resolve(store, allow_empty=True)
    ld = load(store)
    for p, raw in random_submissions(ld.match, rng).items():
        fill_submission(store, ld, p, raw)


def reference_run(store, command: str, folder: Path) -> tuple[list[str], int]:
    """Run `command` uninterrupted; check the pictures it leaves are exactly the resolved rounds'.
    Returns the writes it made, in order, and the round it resolved or undid."""
    real = PictureWrite.publish
    written = count_writes(store)
    result = HOST_COMMANDS[command](store)
    PictureWrite.publish = real
    assert result.action == {"resolve": "resolved", "undo": "undone"}[command], result.message
    m = load(store).match
    drawn = {picture_path(folder, r.round, viewer) for r in m.rounds for viewer in round_pictures(m, r.round)}
    assert drawn and drawn == {p for p in (folder / "pictures").rglob("*.png")}
    assert written[0] == "master" and written.count("pictures") >= 1
    return written, result.record.round


def results_pictures_shown(folder: Path, game_id: str) -> None:
    """Each player's Results tab shows their own picture of the last round (issue 27): the digests
    compared after every cut then cover those pictures too (Skeld draws one for every player)."""
    m = load(XlsxStore(folder)).match
    shown = {p: len(openpyxl.load_workbook(folder / "players" / f"{p}.xlsx")["Results"]._images) for p in m.players}
    assert shown == {p: int(latest_picture(m, p) is not None) for p in m.players}
    assert game_id != "skeld" or set(shown.values()) == {1}


def assert_converged(folder: Path, got: dict, want: dict, k: int) -> None:
    assert got == want, f"crash after {k} write(s) did not converge"
    assert not leftovers(folder), "a temporary file was left behind"


@pytest.mark.parametrize("command", ["resolve", "undo"])
@pytest.mark.parametrize("game_id", DEFAULT_GAMES)
def test_a_crash_after_any_write_converges_on_rerun_xlsx(tmp_path, game_id, command):
    every_cut_converges_xlsx(tmp_path, game_id, command, few_players(game_id))


@pytest.mark.fuzz
@pytest.mark.parametrize("command", ["resolve", "undo"])
@pytest.mark.parametrize("game_id", game_ids())
def test_fuzz_a_crash_after_any_write_of_any_game_converges_xlsx(tmp_path, game_id, command):
    every_cut_converges_xlsx(tmp_path, game_id, command, all_players(game_id))


def every_cut_converges_xlsx(tmp_path: Path, game_id: str, command: str, players) -> None:
    start = tmp_path / "start"
    play_to_the_cut(XlsxStore(start), game_id, command, start, players)
    reference = tmp_path / "reference"
    shutil.copytree(start, reference)
    written, cut_round = reference_run(XlsxStore(reference), command, reference)
    want = files_digest(reference)
    results_pictures_shown(reference, game_id)
    books = [w for w in written if w != "pictures"]
    assert books == ["master", *[f"player:{p.name}" for p in players], BOARD]   # then the pictures
    if command == "undo":        # the undone round's pictures went with it
        assert not [p for p in (reference / "pictures").rglob("*.png") if f"round-{cut_round}" in p.name]
    for k in range(len(written)):
        folder = tmp_path / f"k{k}"
        shutil.copytree(start, folder)
        with pytest.raises(Killed):
            HOST_COMMANDS[command](crash_after(XlsxStore(folder), k))
        again = HOST_COMMANDS[command](XlsxStore(folder))            # the host runs the command again
        assert again.action == ("published" if k else {"resolve": "resolved", "undo": "undone"}[command])
        assert_converged(folder, files_digest(folder), want, k)
        rows = load(XlsxStore(folder)).match.ledger.rows
        assert len({r.key for r in rows}) == len(rows)
        shutil.rmtree(folder)


# A real `sheetbridge` process, SIGKILLed by the OS just before its k-th file lands (a workbook or a
# picture renamed into place, or a picture removed): the hook counts them, nothing else is changed.
KILL_HOOK = """
import atexit, os, signal, sys
left = int(os.environ["SHEETBRIDGE_TEST_KILL_AT"])
seen = 0
real_replace, real_unlink = os.replace, os.unlink

def landing(path, how):
    global left, seen
    name = os.path.basename(os.fspath(path))
    if name.endswith((".xlsx", ".png")) and not name.startswith(".tmp-"):
        seen += 1
        if left == 0:
            sys.stderr.write(f"killed before the {how} of {name}\\n")
            sys.stderr.flush()
            os.kill(os.getpid(), signal.SIGKILL)
        left -= 1

def replace(src, dst, *a, **kw):
    landing(dst, "rename")
    return real_replace(src, dst, *a, **kw)

def unlink(path, *a, **kw):
    landing(path, "removal")
    return real_unlink(path, *a, **kw)

os.replace, os.unlink = replace, unlink
atexit.register(lambda: sys.stderr.write(f"files landed: {seen}\\n"))
from sheetbridge.cli import main
main(prog_name="sheetbridge")
"""


def killed_run(folder: Path, command: str, kill_at: int) -> subprocess.CompletedProcess:
    env = {**os.environ, "SHEETBRIDGE_TEST_KILL_AT": str(kill_at)}
    return subprocess.run([sys.executable, "-c", KILL_HOOK, command, str(folder)], env=env, capture_output=True,
                          text=True, timeout=120)


def every_kill_converges(tmp_path: Path, start: Path, command: str, kill_points=None) -> list[int]:
    """SIGKILL `command` before each of its file writes (or those of `kill_points`); the host's re-run must
    leave the files of an uninterrupted run and no temporary file. Returns the points tried."""
    reference = tmp_path / "reference"
    shutil.copytree(start, reference)
    done = killed_run(reference, command, -1)
    assert done.returncode == 0, done.stdout + done.stderr
    landed = int(done.stderr.rsplit("files landed: ", 1)[1])
    want = files_digest(reference)
    points = list(range(landed)) if kill_points is None else [k if k >= 0 else landed + k for k in kill_points]
    for k in points:
        folder = tmp_path / f"kill{k}"
        shutil.copytree(start, folder)
        died = killed_run(folder, command, k)
        assert died.returncode == -signal.SIGKILL, (k, died.stdout, died.stderr)
        if "killed before the rename" in died.stderr:   # a whole file written, not yet in place
            assert leftovers(folder), "the kill did not land in the middle of a write"
        else:
            assert "killed before the removal" in died.stderr, died.stderr
        run(command, folder)                                                      # the host runs it again
        assert_converged(folder, files_digest(folder), want, k)
        shutil.rmtree(folder)
    return points


def test_a_sigkilled_resolve_is_finished_by_running_it_again(game, tmp_path):
    typed_round_one(game)
    # Before the master (nothing is published), after it, and before the last file (the round's board picture).
    assert every_kill_converges(tmp_path, game, "resolve", [0, 1, -1]) == [0, 1, 5]


@pytest.mark.fuzz
@pytest.mark.parametrize("command", ["resolve", "undo"])
@pytest.mark.parametrize("game_id", game_ids())
def test_fuzz_a_sigkill_before_any_write_of_any_game_is_finished_by_a_rerun(tmp_path, game_id, command):
    start = tmp_path / "start"
    play_to_the_cut(XlsxStore(start), game_id, command, start, all_players(game_id))
    every_kill_converges(tmp_path, start, command)


def test_a_crash_before_the_board_is_finished_by_resolve_round_one(game, tmp_path):
    typed_round_one(game)
    with pytest.raises(Killed):
        resolve(crash_after(XlsxStore(game), 4))          # master and 3 players written, not the board
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
    (game / "pictures" / "private").mkdir(parents=True)
    (game / "pictures" / ".tmp-ghi.png").write_bytes(b"half a board")
    (game / "pictures" / "private" / ".tmp-jkl.png").write_bytes(b"half a picture")
    run("status", game)
    assert not list(game.rglob(".tmp-*"))


def test_a_rerun_of_a_complete_round_mends_its_pictures(game):
    """Pictures deleted or damaged after the round was published (by hand, or by a run killed before
    it wrote them) are drawn again by the next resolve (or repair); a picture of a round that is not
    resolved goes."""
    typed_round_one(game)
    run("resolve", game)
    board = game / "pictures" / "round-1-board.png"
    want = board.read_bytes()
    board.unlink()
    out = run("resolve", game).output
    assert "finished publishing to the round's pictures" in out and board.read_bytes() == want
    board.write_bytes(b"not the round's board")
    (game / "pictures" / "round-2-board.png").write_bytes(want)        # round 2 is not resolved
    run("resolve", game)
    assert board.read_bytes() == want and not (game / "pictures" / "round-2-board.png").exists()
    assert run("resolve", game).output.strip().endswith("nothing was resolved (add --allow-empty to resolve it "
                                                        "with every player's default)")
    board.unlink()
    run("repair", game)                                                 # repair redraws from the record too
    assert board.read_bytes() == want


@pytest.mark.parametrize("game_id", ["skeld", "three-modular-rooms"])
def test_an_earlier_rounds_pictures_are_drawn_only_when_their_file_is_missing(tmp_path, monkeypatch, game_id):
    """Every command brings the pictures folder to the record: the last round's pictures are drawn and
    compared, an earlier round's only when its file is missing (a whole game's would be drawn at
    every command otherwise). Skeld draws a private picture per player, Three Modular Rooms the board."""
    from sheetbridge.host.picture_files import plan_pictures
    folder = tmp_path / "g"
    store = XlsxStore(folder)
    play_to_the_cut(store, game_id, "undo", folder, few_players(game_id))
    assert resolve(store, allow_empty=True).action == "resolved"
    m = load(store).match
    assert len(m.rounds) >= 2
    first, last = m.rounds[0].round, m.rounds[-1].round
    asked: list[tuple[int, str]] = []   # (round, viewer) of every picture drawn
    real = m.game.picture
    monkeypatch.setattr(m.game, "picture",
                        lambda facts, viewer, ctx: asked.append((ctx.round, viewer or "board")) or real(facts, viewer, ctx))

    def drawn_with_a_file() -> set[tuple[int, str]]:
        """The earlier rounds' pictures drawn although their file is there."""
        return {(r, v) for r, v in asked if r != last and picture_path(folder, r, v).exists()}
    assert plan_pictures(m, folder) == []
    assert {r for r, _ in asked} >= {last} and drawn_with_a_file() == set()
    gone = sorted(p for p in (folder / "pictures").rglob(f"*round-{first}*.png"))
    assert gone
    for path in gone:
        path.unlink()
    asked.clear()
    writes = plan_pictures(m, folder)
    assert sorted(w.path for w in writes) == gone and drawn_with_a_file() == set()
    for w in writes:
        w.publish()
    drawn = {picture_path(folder, r.round, viewer) for r in m.rounds for viewer in round_pictures(m, r.round)}
    assert drawn == set((folder / "pictures").rglob("*.png"))


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
    real_load = session.load
    done = {}

    def load_then_b_runs(store, *args, **kw):
        ld = real_load(store, *args, **kw)
        if store is a and not done:
            done["b"] = resolve(XlsxStore(game))                # B: a complete, newer run
        return ld
    session.load = load_then_b_runs   # what every command loads through (session.load_for)
    try:
        with pytest.raises(GameBusy, match="changed while this command ran"):
            resolve(a)
    finally:
        session.load = real_load
    assert done["b"].action == "resolved"
    ld = load(XlsxStore(game))
    assert ld.match.round == 2 and len(ld.match.rounds) == 1       # B's round stands, resolved once


def test_two_threads_resolving_at_once_resolve_the_round_once(game):
    typed_round_one(game)
    results, errors = [], []
    barrier = threading.Barrier(2)

    def go():
        barrier.wait()
        try:
            results.append(resolve(XlsxStore(game)))
        except GameBusy as e:
            errors.append(e)
    threads = [threading.Thread(target=go) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [r.action for r in results].count("resolved") == 1
    assert all("another sheetbridge is working on this game" in str(e) for e in errors)
    ld = load(XlsxStore(game))
    assert len(ld.match.rounds) == 1
    assert len({r.key for r in ld.match.ledger.rows}) == len(ld.match.ledger.rows)


# ------------------------------------------------------------------ the same on Google (the offline fake)

def twin_of(fake):
    """Another fake Google holding the same spreadsheets at the same moment (a game set up once, cut many times)."""
    from tests.fake_google import FakeGoogle
    twin = FakeGoogle(seed=11)
    for name in ("files", "scripts", "now", "_perm_ids", "_quota", "quota_hits", "invitations", "rng"):
        setattr(twin, name, copy.deepcopy(getattr(fake, name)))
    return twin


@pytest.mark.parametrize("command", ["resolve", "undo"])
def test_a_crash_after_any_write_converges_on_rerun_google(tmp_path, command):
    every_cut_converges_google(tmp_path, "skeld", command, few_players("skeld"))


@pytest.mark.fuzz
@pytest.mark.parametrize("command", ["resolve", "undo"])
@pytest.mark.parametrize("game_id", game_ids())
def test_fuzz_a_crash_after_any_write_of_any_game_converges_google(tmp_path, game_id, command):
    every_cut_converges_google(tmp_path, game_id, command, all_players(game_id))


def drive_pictures(fake) -> dict:
    """The players' picture files on Drive (Google games link them from the Results tabs), by content."""
    return {fid: hashlib.sha256(f.content).hexdigest() for fid, f in fake.files.items() if f.mime == "image/png"}


def every_cut_converges_google(tmp_path: Path, game_id: str, command: str, players) -> None:
    """The same on Google (the offline fake): the books are spreadsheets, the pictures go to the host's
    game folder (beside the pointer file) as in an xlsx game."""
    from tests.fake_google import FakeGoogle
    from tests.test_google_backend import HOST, snapshot

    fake = FakeGoogle(seed=11)
    start = tmp_path / "start"
    store = fake.store(HOST, game_folder=start)
    play_to_the_cut(store, game_id, command, start, players)

    def copy_of(name: str):
        folder = tmp_path / name
        shutil.copytree(start, folder)
        twin = twin_of(fake)
        st = twin.store(HOST, game_folder=folder, master_id=store.master_id)
        st.game_id = game_id
        return twin, st, folder

    ref_fake, ref, reference = copy_of("reference")
    written, _ = reference_run(ref, command, reference)
    want = {**snapshot(ref), "files": files_digest(reference), "drive": drive_pictures(ref_fake)}
    assert game_id != "skeld" or len(want["drive"]) == len(players)   # each player's picture file (issue 27)
    # The master first (the commit point); then the player files, the board and the pictures, at once on Google.
    assert written[0] == "master" and sorted(w for w in written[1:] if w != "pictures") == sorted(
        [BOARD] + [f"player:{p.name}" for p in players])
    for k in range(len(written)):
        twin, st, folder = copy_of(f"k{k}")
        with pytest.raises(Killed):
            HOST_COMMANDS[command](crash_after(st, k))
        again = HOST_COMMANDS[command](twin.store(HOST, game_folder=folder, master_id=st.master_id))
        assert again.action in ("published", "resolved", "undone"), again.message
        assert_converged(folder, {**snapshot(st), "files": files_digest(folder), "drive": drive_pictures(twin)}, want, k)


def test_content_edited_before_round_1_is_what_the_game_plays(tmp_path):
    folder = tmp_path / "bug"
    run("new", "bugcatcher", "--players", "Ann,Bo,Cy", "--out", folder, "--seed", "2")
    wb = openpyxl.load_workbook(folder / "master.xlsx")
    ws = wb["Missions"]
    row = next(r for r in range(1, ws.max_row + 1) if ws.cell(r, 2).value == "J1")
    ws.cell(row, 3).value = "Gleeful Jellyfish"
    wb.save(folder / "master.xlsx")
    missions = load(XlsxStore(folder)).match.state["missions"]
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
