"""`watch` against a CLI command, and two watchers, interleaved step by step (issue 25, point 4).

A step scheduler (:class:`Interleave`) counts every point where one party (this test's thread)
touches the master: after each read of it, and just before each write reaches it (on xlsx once
the saved content is decided, from what was read before, and again once its temporary file is
written, just before it is renamed over master.xlsx; on Google the request). At the chosen
point the other party runs from start to end in a thread of its own, as a second process would
(its own game lock), while the first waits; then the first goes on.
No sleeps: every interleaving is one exact schedule, run again the same way.

After both, the host (or the next poll) runs again whatever was refused as busy, and the game
must hold every round exactly once, on both backends: the master's record and every player's
file and the board agree (nothing left to publish), no ledger row twice, and each menu request
was run by exactly one watcher, once. `pytest -m fuzz` runs every point of every schedule.
"""
from __future__ import annotations

import os
import shutil
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import pytest

from sheetbridge.host import control as C
from sheetbridge.host import clock, media, new
from sheetbridge.host.books import read_books
from sheetbridge.host.demo import fill_submission
from sheetbridge.host.resolve import resolve
from sheetbridge.host.session import Loaded, load
from sheetbridge.host.transaction import plan
from sheetbridge.host.undo import undo
from sheetbridge.core.errors import GameBusy
from sheetbridge.sheets import google as G
from sheetbridge.sheets import xlsx as X
from sheetbridge.sheets.store import MASTER
from sheetbridge.host.watch import Watcher
from tests.test_cli_xlsx import run, type_submission

NOW = "2026-11-24T15:30:00Z"       # every party's clock: today's 15:00 deadline has passed
OPENED = "2026-11-24T09:00:00Z"    # when round 1's forms were published


# ------------------------------------------------------------------ the step scheduler

class Interleave:
    """Party A is the thread that makes this; `other` is party B, run whole at A's `at`-th point."""

    def __init__(self, monkeypatch, at: int | None, other: Callable[[], Any] | None) -> None:
        self.points: list[str] = []
        self.at, self.other = at, other
        self.outcome: Any = None          # what B returned, or the exception it raised
        self.a = threading.get_ident()
        self._hook(monkeypatch)

    def point(self, kind: str) -> None:
        if threading.get_ident() != self.a:
            return
        self.points.append(kind)
        if len(self.points) == self.at and self.other is not None:
            b = threading.Thread(target=self._run_other)
            b.start()
            b.join(120)
            assert not b.is_alive(), "party B never finished"

    def _run_other(self) -> None:
        try:
            self.outcome = self.other()
        except Exception as e:            # GameBusy, or a crash (a test failure below)
            self.outcome = e

    def _hook(self, monkeypatch) -> None:
        real_save, real_replace, real_xread = X.replace_atomically, os.replace, X.XlsxBook.read

        def save(path, data, tmp_dir=None):   # every save of an xlsx book: its content is decided
            if Path(path).name == "master.xlsx":
                self.point("write")
            return real_save(path, data, tmp_dir)

        def replace(src, dst, *a, **kw):     # ... its temporary file is written, and renamed over the book
            if Path(dst).name == "master.xlsx":
                self.point("rename")
            return real_replace(src, dst, *a, **kw)
        monkeypatch.setattr(X, "replace_atomically", save)

        def xread(book, tabs):
            out = real_xread(book, tabs)
            if book.key == MASTER:
                self.point("read")
            return out
        monkeypatch.setattr(os, "replace", replace)
        monkeypatch.setattr(X.XlsxBook, "read", xread)
        real_gread, real_gwrite, real_gcells = G.GoogleBook.read, G.GoogleBook.write, G.GoogleBook.update_cells

        def gread(book, tabs):
            out = real_gread(book, tabs)
            if book.key == MASTER:
                self.point("read")
            return out

        def gwrite(book, tabs):
            if book.key == MASTER:
                self.point("write")
            return real_gwrite(book, tabs)

        def gcells(book, tab, cells):
            if book.key == MASTER:
                self.point("write")
            return real_gcells(book, tab, cells)
        monkeypatch.setattr(G.GoogleBook, "read", gread)
        monkeypatch.setattr(G.GoogleBook, "write", gwrite)
        monkeypatch.setattr(G.GoogleBook, "update_cells", gcells)


# ------------------------------------------------------------------ one game, on either backend

@dataclass
class Game:
    backend: str
    folder: Path
    fake: Any = None
    master_id: str = ""
    processes: int = 0
    runs: list[str] = field(default_factory=list)      # request ids, once per Watcher.run
    previews: list[int] = field(default_factory=list)  # one per Preview tab written

    def store(self):
        """The store a new sheetbridge process opens (on Google: its own owner of the game's lock)."""
        self.processes += 1
        if self.backend == "xlsx":
            return X.XlsxStore(self.folder)
        st = self.fake.store("host@example.com", game_folder=self.folder, master_id=self.master_id)
        st.game_id = "three-modular-rooms"
        n = self.processes
        st.lock_owner, st.lock_pid, st.lock_host = f"process-{n}", 5000 + n, f"host-{n}"
        return st

    def watcher(self, name: str) -> Watcher:
        return Watcher(self.store(), watcher_id=name, now=lambda: NOW)

    def type(self, player: str, card: int, room: str) -> None:
        if self.backend == "xlsx":
            type_submission(self.folder / "players" / f"{player}.xlsx", "Your play", [card, room])
        else:
            st = self.store()
            fill_submission(st, load(st), player, {"play": [{"card": str(card), "room": room}]})

    def master(self):
        st = self.store()
        return st.open(MASTER, st.master_location())

    def set_deadline(self, text: str) -> None:
        master = self.master()
        rows = master.read(["Config"])["Config"]
        row = next(i for i, r in enumerate(rows, start=1) if r and r[0] == "deadline")
        with self.store().lock("test: deadline"):      # as the host typing it: not while a command runs
            master.update_cells("Config", {(row, 2): text})

    def request(self, rid: str, action: str, round_no: str = "1") -> None:
        """What the menu does: append a queued row to the Control tab."""
        master = self.master()
        if C.TAB not in master.tab_names():
            with self.store().lock("test: Control tab"):
                master.write({C.TAB: C.control_tab()})
        rect = master.read([C.TAB])[C.TAB]
        row = max(C.FIRST_REQUEST_ROW, len(rect) + 1)
        values = [rid, action, round_no, "host@example.com", "2026-11-24T15:29:00Z", "queued"]
        master.update_cells(C.TAB, {(row, i + 1): v for i, v in enumerate(values)})

    def rows(self) -> dict[str, C.Request]:
        return {r.id: r for r in C.requests(self.master().read([C.TAB])[C.TAB])}


@pytest.fixture(scope="module")
def xlsx_template(tmp_path_factory):
    folder = tmp_path_factory.mktemp("template") / "game"
    real_now = clock.utc_now
    clock.utc_now = lambda: OPENED
    try:
        run("new", "three-modular-rooms", "--players", "Ann,Bo,Cy", "--out", folder, "--garnets", "10",
            "--option", "rounds=3", "--seed", "5")
    finally:
        clock.utc_now = real_now
    return folder


def new_game(backend: str, tmp_path: Path, template: Path, monkeypatch) -> Game:
    monkeypatch.setattr(clock, "utc_now", lambda: OPENED)
    folder = tmp_path / "game"
    if backend == "xlsx":
        shutil.copytree(template, folder)
        game = Game("xlsx", folder)
    else:
        from tests.fake_google import FakeGoogle
        from tests.test_google_backend import HOST, _players
        fake = FakeGoogle(seed=2)
        st = fake.store(HOST, game_folder=folder)
        st.game_id = "three-modular-rooms"
        new.new_game("three-modular-rooms", _players("three-modular-rooms")[:3], st, seed=5, folder=folder,
                   options={"rounds": "3"})
        game = Game("google", folder, fake, st.master_id)
    real_run, real_preview = Watcher.run, media.write_preview

    def counted_run(watcher, req, progress):
        game.runs.append(req.id)
        return real_run(watcher, req, progress)

    def counted_preview(store, res):
        game.previews.append(1)
        return real_preview(store, res)
    monkeypatch.setattr(Watcher, "run", counted_run)
    monkeypatch.setattr(media, "write_preview", counted_preview)
    monkeypatch.setattr(clock, "utc_now", lambda: NOW)
    return game


# ------------------------------------------------------------------ what must hold after any schedule

def attempt(party: Callable[[], Any]) -> Any:
    try:
        return party()
    except Exception as e:
        return e


def listened(outcome: Any) -> None:
    """A poll may say it could not do something (watch logs it and keeps listening), never crash."""
    from sheetbridge.core.errors import SheetbridgeError
    if isinstance(outcome, Exception) and not isinstance(outcome, SheetbridgeError):
        raise AssertionError(f"the watcher crashed: {type(outcome).__name__}: {outcome}") from outcome


def again_if_busy(outcome: Any, command: Callable[[], Any]) -> Any:
    """The host runs a command refused as busy again, once the other has ended."""
    if isinstance(outcome, GameBusy):
        return command()
    if isinstance(outcome, Exception):
        raise AssertionError(f"the command failed: {type(outcome).__name__}: {outcome}") from outcome
    return outcome


def assert_every_round_once(game: Game, rounds: int) -> Loaded:
    ld = load(game.store())
    assert len(ld.match.rounds) == rounds, f"the master holds {len(ld.match.rounds)} round(s), not {rounds}"
    left = plan(ld, read_books(ld))
    assert not left, f"the master and the files disagree: a re-run would publish to {[w.key for w in left]}"
    keys = [r.key for r in ld.match.ledger.rows]
    assert len(keys) == len(set(keys)), "a ledger row twice"
    return ld


def every_schedule(monkeypatch, tmp_path, template, backend, scenario, points=None) -> int:
    """Run `scenario` (game -> party A, party B, check) once per point of A, B at that point, each time
    on a fresh game; `points` limits it to those (1-based). Returns how many points A has."""
    k, total = 0, None
    while total is None or k < total:
        k += 1
        if points is not None and k not in points:
            if k > max(points):
                break
            continue
        with monkeypatch.context() as mp:
            game = new_game(backend, tmp_path / f"at-{k}", template, mp)
            first, second, check = scenario(game)
            sched = Interleave(mp, k, second)
            out_first = attempt(first)
            total = len(sched.points)
            if k > total:                     # past A's last point: nothing interleaved
                break
            check(out_first, sched.outcome)
    assert total, "party A never touched the master"
    return total


# ------------------------------------------------------------------ the schedules

def watch_and_command(command: str, watch_first: bool):
    """The heartbeat (and the first poll's Control tab) against a CLI `resolve` or `undo`."""
    def scenario(game: Game):
        game.type("Ann", 3, "Null")
        if command == "undo":
            resolve(game.store())
        w = game.watcher("w1")

        def cmd():
            return {"resolve": resolve, "undo": undo}[command](game.store())

        def check(out_watch, out_cmd):
            listened(out_watch)
            done = again_if_busy(out_cmd, cmd)
            assert done.action == ("resolved" if command == "resolve" else "undone"), done.message
            listened(attempt(w.poll))
            assert_every_round_once(game, 1 if command == "resolve" else 0)
        if watch_first:
            return w.poll, cmd, check
        return cmd, w.poll, lambda out_cmd, out_watch: check(out_watch, out_cmd)
    return scenario


def two_watchers(action: str):
    """One menu request (resolve or preview), two watchers polling."""
    def scenario(game: Game):
        game.type("Ann", 3, "Null")
        game.request("r1", action)
        a, b = game.watcher("a"), game.watcher("b")

        def check(out_a, out_b):
            listened(out_a)
            listened(out_b)
            listened(attempt(a.poll))                 # the next polls
            listened(attempt(b.poll))
            row = game.rows()["r1"]
            assert row.status == "done" and row.handled_by in ("a", "b"), row
            assert game.runs == ["r1"], f"request r1 was run {len(game.runs)} time(s)"
            assert len(game.previews) == (1 if action == "preview" else 0)
            assert_every_round_once(game, 1 if action == "resolve" else 0)
        return a.poll, b.poll, check
    return scenario


def request_and_command(action: str, watch_first: bool):
    """The menu's Resolve (asked for round 1) or Preview, and a CLI `resolve` at once: round 1 is resolved
    once, the request runs once, and a Resolve that finds round 1 resolved never resolves round 2."""
    def scenario(game: Game):
        game.type("Ann", 3, "Null")
        game.request("r1", action)
        w = game.watcher("w1")

        def cmd():
            return resolve(game.store())

        def check(out_watch, out_cmd):
            listened(out_watch)
            again_if_busy(out_cmd, cmd)
            listened(attempt(w.poll))
            assert game.rows()["r1"].status == "done"
            assert game.runs == ["r1"]
            assert len(game.previews) == (1 if action == "preview" else 0)
            assert_every_round_once(game, 1)
        if watch_first:
            return w.poll, cmd, check
        return cmd, w.poll, lambda out_cmd, out_watch: check(out_watch, out_cmd)
    return scenario


def deadline_and_resolve(watch_first: bool):
    """The deadline ("15:00", every day) is due for round 1 as a CLI `resolve` runs: round 1 may be locked
    or not, but round 2, opened at 15:30, is never locked by what watch read of round 1."""
    def scenario(game: Game):
        game.set_deadline("15:00")
        game.type("Ann", 3, "Null")
        w = game.watcher("w1")

        def cmd():
            return resolve(game.store())

        def check(out_watch, out_cmd):
            listened(out_watch)
            assert again_if_busy(out_cmd, cmd).action == "resolved"
            listened(attempt(w.poll))
            ld = assert_every_round_once(game, 1)
            assert ld.locked is None, f"round 2 was locked: {ld.locked}"
        if watch_first:
            return w.poll, cmd, check
        return cmd, w.poll, lambda out_cmd, out_watch: check(out_watch, out_cmd)
    return scenario


# ------------------------------------------------------------------ the tests

BACKENDS = ["xlsx", "google"]
# The default run tries two points of the first party: on xlsx right after a watcher's poll has read the
# master and at its first write, or, for a command, after it checked the record's revision and just
# before its commit; on Google the same windows one point earlier. `-m fuzz` tries every point.
POINTS = [pytest.param((2, 3), id="points-2-3"), pytest.param(None, id="every-point", marks=pytest.mark.fuzz)]


@pytest.mark.parametrize("points", POINTS)
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("command", ["resolve", "undo"])
@pytest.mark.parametrize("watch_first", [True, False], ids=["watch-then-command", "command-then-watch"])
def test_a_heartbeat_never_rewrites_a_round(backend, command, watch_first, points, xlsx_template, tmp_path,
                                           monkeypatch):
    every_schedule(monkeypatch, tmp_path, xlsx_template, backend, watch_and_command(command, watch_first), points)


@pytest.mark.parametrize("points", POINTS)
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("action", ["resolve", "preview"])
def test_two_watchers_run_a_request_once(backend, action, points, xlsx_template, tmp_path, monkeypatch):
    every_schedule(monkeypatch, tmp_path, xlsx_template, backend, two_watchers(action), points)


@pytest.mark.parametrize("points", POINTS)
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("action", ["resolve", "preview"])
@pytest.mark.parametrize("watch_first", [True, False], ids=["watch-then-command", "command-then-watch"])
def test_a_menu_request_and_a_cli_resolve_resolve_the_round_once(backend, action, watch_first, points,
                                                                 xlsx_template, tmp_path, monkeypatch):
    every_schedule(monkeypatch, tmp_path, xlsx_template, backend, request_and_command(action, watch_first), points)


@pytest.mark.parametrize("points", POINTS)
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("watch_first", [True, False], ids=["watch-then-command", "command-then-watch"])
def test_the_deadline_lock_never_locks_the_round_a_resolve_just_opened(backend, watch_first, points, xlsx_template,
                                                                      tmp_path, monkeypatch):
    every_schedule(monkeypatch, tmp_path, xlsx_template, backend, deadline_and_resolve(watch_first), points)


# ------------------------------------------------------------------ temporary files of a live process

def test_cleanup_never_deletes_a_temporary_file_another_live_process_is_writing(tmp_path, xlsx_template):
    """A command clears what a killed run left in .sheetbridge-tmp, but only while holding the game's
    lock and only files older than its hold: a file written meanwhile is another live process's."""
    folder = tmp_path / "game"
    shutil.copytree(xlsx_template, folder)
    store = X.XlsxStore(folder)
    tmp = folder / X.TMP_DIR
    tmp.mkdir(exist_ok=True)
    left, live = tmp / ".tmp-left.xlsx", tmp / ".tmp-live.xlsx"
    left.write_bytes(b"a killed run's")
    store.cleanup()                                   # not holding the lock: nothing is touched
    assert left.exists()
    with store.lock("status"):
        live.write_bytes(b"being written")            # after the lock was taken
        later = os.stat(live).st_mtime + 5
        os.utime(live, (later, later))
        os.utime(left, (later - 3600, later - 3600))
        store.cleanup()
    assert not left.exists() and live.exists()
