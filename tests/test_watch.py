"""The deadline lock and `sheetbridge watch` answering the menu's requests, on xlsx and on the fake Google."""
from __future__ import annotations

import json
import threading

import openpyxl
import pytest

from sheetbridge.host import control as C
from sheetbridge.host import control_writes as W
from sheetbridge.host.demo import fill_submission
from sheetbridge.host.lock import deadline_due, lock_submissions, reopen_submissions
from sheetbridge.host.new import new_game
from sheetbridge.host.resolve import resolve
from sheetbridge.host.session import load
from sheetbridge.sheets.store import MASTER
from sheetbridge.sheets.xlsx import XlsxStore
from sheetbridge.host.watch import Watcher
from tests.test_cli_xlsx import run, tab_text, type_submission


@pytest.fixture
def game(tmp_path):
    folder = tmp_path / "game"
    run("new", "three-modular-rooms", "--players", "Ann,Bo,Cy", "--out", folder, "--garnets", "10",
        "--option", "rounds=3", "--seed", "5")
    return folder


# ------------------------------------------------------------------ the lock (xlsx: the snapshot)

def test_a_locked_round_resolves_the_snapshot_and_names_later_edits(game):
    type_submission(game / "players" / "Ann.xlsx", "Your play", [3, "Null"])
    type_submission(game / "players" / "Bo.xlsx", "Your play", [5, "Duel"])
    out = run("lock", game).output
    assert "round 1 locked" in out and "2 of 3 player(s) had entries" in out
    type_submission(game / "players" / "Bo.xlsx", "Your play", [9, "Null"])     # after the deadline
    type_submission(game / "players" / "Cy.xlsx", "Your play", [1, "Null"])     # too late as well
    status = run("status", game).output
    lines = {ln.split()[0]: ln for ln in status.splitlines()[1:-1]}
    assert "edited after the lock" in lines["Bo"] and "edited after the lock" in lines["Cy"]
    assert "9" not in lines["Bo"] and "Null" not in lines["Bo"]                # names only, never values
    out = run("resolve", game).output
    assert "edited after the lock (not counted): Bo, Cy" in out
    assert "You played card 5 in Duel." in tab_text(game / "players" / "Bo.xlsx", "Results")
    assert "You did not submit this round" in tab_text(game / "players" / "Cy.xlsx", "Results")
    assert "round 1 locked" not in run("lock", game).output                     # round 2: a new lock
    assert "is already locked" in run("lock", game).output


def test_reopen_lets_players_edit_again(game):
    type_submission(game / "players" / "Ann.xlsx", "Your play", [3, "Null"])
    run("lock", game)
    out = run("reopen", game).output
    assert "round 1 reopened" in out
    type_submission(game / "players" / "Ann.xlsx", "Your play", [7, "Solitary"])
    run("resolve", game)
    assert "You played card 7 in Solitary." in tab_text(game / "players" / "Ann.xlsx", "Results")


@pytest.mark.parametrize("deadline, opened, now, due", [
    ("2026-11-24 15:00", None, "2026-11-24T14:59:59Z", False),
    ("2026-11-24 15:00 UTC", None, "2026-11-24T15:00:00Z", True),
    ("3pm UTC", "2026-11-24T16:00:00Z", "2026-11-24T20:00:00Z", False),   # opened after today's 3pm
    ("3pm UTC", "2026-11-24T16:00:00Z", "2026-11-25T15:00:00Z", True),    # the next day's 3pm passed
    ("15:00", "2026-11-24T09:00:00Z", "2026-11-24T15:30:00Z", True),
    ("", None, "2026-11-24T15:30:00Z", False),
])
def test_when_the_deadline_is_due(game, deadline, opened, now, due):
    ld = load(XlsxStore(game))
    ld.deadline = deadline
    ld.opened_at = {"1": opened} if opened else {}
    assert deadline_due(ld, now) is due


def test_a_deadline_that_is_not_a_time_is_one_clear_line(game):
    from sheetbridge.core.errors import ConfigError
    ld = load(XlsxStore(game))
    ld.deadline = "tomorrow-ish"
    with pytest.raises(ConfigError, match="deadline 'tomorrow-ish' is not a time"):
        deadline_due(ld, "2026-11-24T15:30:00Z")


# ------------------------------------------------------------------ watch answering the menu

class Clock:
    def __init__(self, at="2026-11-23T16:00:00Z"):
        self.at = at

    def __call__(self):
        return self.at


def menu_request(store, rid, action, asked_at="2026-11-23T16:00:00Z", round_no="1"):
    """What the menu's Apps Script does: append a queued row to the Control tab."""
    master = store.open(MASTER, store.master_location())
    rect = master.read([C.TAB])[C.TAB]
    row = max(C.FIRST_REQUEST_ROW, len(rect) + 1)
    values = [rid, action, round_no, "host@example.com", asked_at, "queued"]
    master.update_cells(C.TAB, {(row, i + 1): v for i, v in enumerate(values)})
    return row


def control_rows(store):
    master = store.open(MASTER, store.master_location())
    return {r.id: r for r in C.requests(master.read([C.TAB])[C.TAB])}


def result_of(store, rid):
    master = store.open(MASTER, store.master_location())
    rect = master.read([C.TAB])[C.TAB]
    row = control_rows(store)[rid].row
    return rect[row - 1][C.COL["result"]]


def test_watch_answers_each_request_once_and_keeps_a_heartbeat(game):
    store = XlsxStore(game)
    w = Watcher(store, watcher_id="w1", now=Clock())
    w.poll()                                                  # first poll creates the Control tab
    assert C.TAB in store.open(MASTER, "master.xlsx").tab_names()
    hb = W.read_heartbeat(store)                              # xlsx: a file of its own, never a save of the master
    assert (hb.at, hb.watcher) == ("2026-11-23T16:00:00Z", "w1")
    assert json.loads((game / ".sheetbridge-watch.json").read_text())["watcher"] == "w1"
    assert C.heartbeat(store.open(MASTER, "master.xlsx").read([C.TAB])[C.TAB]).at == ""
    type_submission(game / "players" / "Ann.xlsx", "Your play", [3, "Null"])
    menu_request(store, "r-status", "status")
    menu_request(store, "r-resolve", "resolve")
    assert w.poll() == ["r-status: done", "r-resolve: done"]
    rows = control_rows(store)
    assert rows["r-resolve"].status == "done" and rows["r-resolve"].handled_by == "w1"
    assert result_of(store, "r-status") == "round 1: submitted: Ann; not submitted: Bo, Cy"
    assert result_of(store, "r-resolve").startswith("round 1 resolved and published")
    assert w.poll() == []                                     # nothing runs twice
    assert load(store).match.round == 2


def test_a_request_another_watcher_is_running_is_left_to_it(game):
    store = XlsxStore(game)
    a, b = Watcher(store, watcher_id="a", now=Clock()), Watcher(XlsxStore(game), watcher_id="b", now=Clock())
    a.poll()
    menu_request(store, "r1", "resolve")
    master = store.open(MASTER, "master.xlsx")
    req = control_rows(store)["r1"]
    seen = []
    real_run = a.run

    def run_while_b_polls(request, progress):     # a holds the game's lock while it runs the request
        other = threading.Thread(target=lambda: seen.append(b.poll()))   # b: another process
        other.start()
        other.join(60)
        return real_run(request, progress)
    a.run = run_while_b_polls
    assert a.answer(master, req) == "r1: done"
    assert seen == [[]]                                       # b saw it running under a, and left it
    assert b.poll() == []                                     # then b finds it answered
    assert control_rows(store)["r1"].handled_by == "a"
    assert len(load(store).match.rounds) == 1


def test_a_restarted_watch_never_resolves_a_round_twice(game):
    store = XlsxStore(game)
    type_submission(game / "players" / "Ann.xlsx", "Your play", [3, "Null"])
    w = Watcher(store, watcher_id="old", now=Clock())
    w.poll()
    menu_request(store, "r1", "resolve")
    # The old watcher ran the resolve (the id is in the record) but was killed before writing "done".
    assert resolve(store, allow_empty=True, request_id="r1").action == "resolved"
    master = store.open(MASTER, "master.xlsx")
    row = control_rows(store)["r1"].row
    master.update_cells(C.TAB, {(row, C.COL["status"] + 1): "running", (row, C.COL["handled by"] + 1): "old"})
    type_submission(game / "players" / "Ann.xlsx", "Your play", [7, "Null"])     # round 2 entries
    new = Watcher(store, watcher_id="new", now=Clock("2026-11-23T16:30:00Z"))    # 30 minutes later
    assert new.poll() == ["r1: done"]
    assert result_of(store, "r1") == "request r1 was already done"
    assert load(store).match.round == 2 and len(load(store).match.rounds) == 1


def test_watch_locks_at_the_deadline(game):
    store = XlsxStore(game)
    wb = openpyxl.load_workbook(game / "master.xlsx")
    ws = wb["Config"]
    row = next(r for r in range(1, ws.max_row + 1) if ws.cell(r, 1).value == "deadline")
    ws.cell(row, 2).value = "2026-11-24 15:00"
    wb.save(game / "master.xlsx")
    type_submission(game / "players" / "Ann.xlsx", "Your play", [3, "Null"])
    early = Watcher(store, watcher_id="w", now=Clock("2026-11-24T14:00:00Z"))
    assert not any("deadline" in line for line in early.poll())
    late = Watcher(store, watcher_id="w", now=Clock("2026-11-24T15:00:05Z"))
    (line,) = [ln for ln in late.poll() if "deadline" in ln]
    assert "round 1 locked (deadline 2026-11-24 15:00 UTC)" in line
    assert load(store).locked["raw"].keys() == {"Ann"}


# ------------------------------------------------------------------ Google: the lock protects the forms

def test_on_google_the_lock_protects_every_submission_tab(tmp_path):
    from tests.fake_google import FakeGoogle
    from tests.test_google_backend import HOST, _players
    fake = FakeGoogle(seed=2)
    st = fake.store(HOST, game_folder=tmp_path / "g")
    st.game_id = "three-modular-rooms"
    new_game("three-modular-rooms", _players("three-modular-rooms")[:3], st, seed=3, folder=tmp_path / "g")
    ld = load(st)
    fill_submission(st, ld, "Ann", {"play": [{"card": "3", "room": "Null"}]})
    sid = ld.locations["Ann"]
    lock_submissions(st)
    (prot,) = fake.sheet(sid, "Submission").protected
    assert not prot.get("unprotectedRanges") and prot["editors"]["users"] == [HOST]
    assert "locked at the deadline" in st.open("player:Ann", sid).read(["Submission"])["Submission"][0][0]
    reopen_submissions(st)
    # The entry cells are open again: no protection, or one that leaves them out.
    assert all(p.get("unprotectedRanges") for p in fake.sheet(sid, "Submission").protected)
    assert "locked" not in st.open("player:Ann", sid).read(["Submission"])["Submission"][0][0]
    resolve(st)
    assert "You played card 3 in Null." in "\n".join(
        " ".join(r) for r in st.open("player:Ann", sid).read(["Results"])["Results"])


# ------------------------------------------------------------------ installing the menu (Apps Script API)

def test_menu_install_binds_the_script_to_the_master_and_updates_it_in_place(tmp_path):
    from sheetbridge.cli.menu import script_files
    from sheetbridge.core.errors import ConfigError
    from sheetbridge.sheets import google as G
    from tests.fake_google import FakeGoogle
    from tests.test_google_backend import HOST, _players
    fake = FakeGoogle(seed=2)
    st = fake.store(HOST, game_folder=tmp_path / "g")
    new_game("skeld", _players("skeld"), st, seed=3, folder=tmp_path / "g")
    sid = G.install_script(st, script_files())
    project = fake.scripts[sid]
    assert project["parentId"] == st.master_location()               # bound to the master
    assert [f["name"] for f in project["files"]] == ["Menu", "appsscript"]
    assert "function onOpen()" in project["files"][0]["source"]
    assert G.install_script(st, script_files(), sid) == sid           # a second install updates, never duplicates
    assert len(fake.scripts) == 1
    fake.script_api_enabled = False
    with pytest.raises(ConfigError, match="Apps Script API is turned off .*script.google.com/home/usersettings.*"
                                          "sheetbridge menu show"):
        G.install_script(st, script_files())


def test_menu_install_on_an_xlsx_game_says_why_not(game):
    res = run("menu", "install", game, ok=False)
    assert res.exit_code == 2 and "is an xlsx game" in res.output
    out = run("menu", "show").output
    assert "Extensions > Apps Script" in out and "function onOpen()" in out
