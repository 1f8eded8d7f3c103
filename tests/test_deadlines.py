"""A deadline belongs to a round (issue 27, point 5): a stale one never locks a round as it opens, a round
reopened past its deadline stays open, `extend` moves it; on xlsx, read back from disk."""
from __future__ import annotations

import openpyxl
import pytest

from sheetbridge.host import clock as host_clock
from sheetbridge.host.demo import fill_submission
from sheetbridge.host.lock import deadline_due, reopen_submissions
from sheetbridge.host.new import new_game
from sheetbridge.host.resolve import resolve
from sheetbridge.host.session import load
from sheetbridge.host.undo import undo
from sheetbridge.sheets.xlsx import XlsxStore
from sheetbridge.host.watch import Watcher
from tests.test_cli_xlsx import run, tab_text, type_submission


class Clock:
    """The one clock: the host's clock.utc_now and watch's `now` read the same moment."""
    def __init__(self, monkeypatch, at):
        self.at = at
        monkeypatch.setattr(host_clock, "utc_now", self)

    def __call__(self):
        return self.at


def set_deadline(folder, text):
    """What the host does: type the deadline in the master's Config tab."""
    wb = openpyxl.load_workbook(folder / "master.xlsx")
    ws = wb["Config"]
    row = next(r for r in range(1, ws.max_row + 1) if ws.cell(r, 1).value == "deadline")
    ws.cell(row, 2).value = text
    wb.save(folder / "master.xlsx")


@pytest.fixture
def game(tmp_path, monkeypatch):
    clock = Clock(monkeypatch, "2026-11-23T09:00:00Z")
    folder = tmp_path / "game"
    run("new", "three-modular-rooms", "--players", "Ann,Bo,Cy", "--out", folder, "--garnets", "10",
        "--option", "rounds=3", "--seed", "5")
    set_deadline(folder, "2026-11-24 15:00")
    run("resolve", folder, "--allow-empty")          # round 2 opens with the deadline set (its opening is recorded)
    return folder, clock


def watch_lines(folder, clock, at):
    clock.at = at
    return Watcher(XlsxStore(folder), watcher_id="w", now=clock).poll()


def test_a_deadline_earlier_than_the_rounds_opening_is_warned_about_not_applied(game):
    folder, clock = game
    type_submission(folder / "players" / "Ann.xlsx", "Your play", [3, "Null"])
    assert "round 2 locked (deadline 2026-11-24 15:00 UTC)" in " ".join(
        watch_lines(folder, clock, "2026-11-24T15:00:05Z"))
    clock.at = "2026-11-24T16:00:00Z"
    run("resolve", folder)                           # round 3 opens after round 2's deadline
    store = XlsxStore(folder)
    watcher = Watcher(store, watcher_id="w", now=clock)
    clock.at = "2026-11-24T16:00:30Z"
    first, again = watcher.poll(), watcher.poll()
    assert load(store).locked is None              # before: "round 3 locked ... 0 of 3 player(s) had entries"
    (line,) = first
    assert ("deadline: the Config tab's deadline 2026-11-24 15:00 UTC is earlier than round 3's opening "
            "(2026-11-24 16:00 UTC), so it does not lock this round") in line and "sheetbridge extend" in line
    assert again == []                               # said once, not at every poll
    assert "is earlier than round 3's opening" in run("status", folder).output
    out = run("lock", folder).output                 # the host may still lock by hand: it says why it was not due
    assert "warning: the Config tab's deadline 2026-11-24 15:00 UTC is earlier" in out and "round 3 locked" in out


def test_a_round_reopened_past_its_deadline_stays_open_until_extend_moves_it(game):
    folder, clock = game
    type_submission(folder / "players" / "Ann.xlsx", "Your play", [3, "Null"])
    watch_lines(folder, clock, "2026-11-24T15:00:05Z")
    clock.at = "2026-11-24T15:10:00Z"
    out = run("reopen", folder).output
    assert "round 2 reopened" in out and "its deadline 2026-11-24 15:00 UTC has passed and will not lock it again" in out
    assert f"`sheetbridge extend {folder} 2h`" in out
    assert not any("locked" in ln for ln in watch_lines(folder, clock, "2026-11-24T15:10:30Z"))
    assert load(XlsxStore(folder)).locked is None  # before: the next poll locked it again
    assert "reopened after its deadline" in run("status", folder).output
    out = run("extend", folder, "2h").output         # a grace period from the deadline
    assert "round 2's deadline moved from 2026-11-24 15:00 UTC to 2026-11-24 17:00 UTC" in out
    assert "<t:1795539600:F> (<t:1795539600:R>)" in out
    assert not any("locked" in ln for ln in watch_lines(folder, clock, "2026-11-24T16:59:00Z"))
    (line,) = [ln for ln in watch_lines(folder, clock, "2026-11-24T17:00:05Z") if "locked" in ln]
    assert "round 2 locked (deadline 2026-11-24 17:00 UTC)" in line


def test_extend_takes_a_time_refuses_the_past_and_belongs_to_one_round(game):
    folder, clock = game
    clock.at = "2026-11-24T14:00:00Z"
    assert "to 2026-11-25 09:30 UTC" in run("extend", folder, "2026-11-25 09:30").output
    res = run("extend", folder, "2026-11-24 13:00", ok=False)
    assert res.exit_code == 2 and res.output.count("\n") == 1
    assert "2026-11-24 13:00 UTC has already passed (it is 2026-11-24 14:00 UTC)" in res.output
    res = run("extend", folder, "soonish", ok=False)
    assert res.exit_code == 2 and "neither a grace period (2h, 90m, 1d, 1h30m) nor a UTC time" in res.output
    assert not any("locked" in ln for ln in watch_lines(folder, clock, "2026-11-24T15:30:00Z"))
    run("lock", folder)
    res = run("extend", folder, "1h", ok=False)
    assert res.exit_code == 2 and f"run `sheetbridge reopen {folder}` first" in res.output
    clock.at = "2026-11-25T10:00:00Z"
    run("resolve", folder, "--allow-empty")         # round 3: the extension was round 2's alone
    assert deadline_due(load(XlsxStore(folder)), "2026-11-25T10:00:30Z") is False
    assert "is earlier than round 3's opening" in run("status", folder).output


def test_a_daily_deadline_reopened_past_locks_again_the_next_day(game):
    folder, clock = game
    set_deadline(folder, "15:00")
    watch_lines(folder, clock, "2026-11-24T15:00:05Z")
    clock.at = "2026-11-24T15:05:00Z"
    assert "its deadline 2026-11-24 15:00 UTC has passed" in run("reopen", folder).output
    assert not any("locked" in ln for ln in watch_lines(folder, clock, "2026-11-24T20:00:00Z"))
    (line,) = [ln for ln in watch_lines(folder, clock, "2026-11-25T15:00:01Z") if "locked" in ln]
    assert "round 2 locked (deadline 2026-11-25 15:00 UTC)" in line


# ------------------------------------------------------------------ entries typed after the lock

def results(folder, player):
    return tab_text(folder / "players" / f"{player}.xlsx", "Results")


@pytest.fixture
def late_round(tmp_path, monkeypatch):
    """Round 1 locked at 15:00 with Ann's and Bo's entries; then Bo changes his and Cy types hers, too late."""
    clock = Clock(monkeypatch, "2026-11-24T09:00:00Z")
    folder = tmp_path / "game"
    run("new", "three-modular-rooms", "--players", "Ann,Bo,Cy", "--out", folder, "--garnets", "10",
        "--option", "rounds=3", "--seed", "5")
    type_submission(folder / "players" / "Ann.xlsx", "Your play", [3, "Null"])
    type_submission(folder / "players" / "Bo.xlsx", "Your play", [5, "Duel"])
    clock.at = "2026-11-24T15:00:00Z"
    run("lock", folder)
    type_submission(folder / "players" / "Bo.xlsx", "Your play", [9, "Null"])
    type_submission(folder / "players" / "Cy.xlsx", "Your play", [1, "Null"])
    clock.at = "2026-11-24T16:00:00Z"
    assert "edited after the lock (not counted): Bo, Cy" in run("resolve", folder).output
    return folder


def test_a_player_who_typed_after_the_lock_reads_that_it_was_not_counted(late_round):
    folder = late_round
    cy, bo, ann = results(folder, "Cy"), results(folder, "Bo"), results(folder, "Ann")
    told = "What you typed after the round was locked (2026-11-24 15:00 UTC) arrived after the deadline and was not counted"
    assert "Round 1: your entries arrived after the deadline" in cy
    assert f"{told}: your form was empty then, so the rules' default applied." in cy
    # Before the round's own result, which it explains ("You did not submit this round").
    assert cy.index("arrived after the deadline") < cy.index("You did not submit this round")
    assert f"{told}: the round used your entries as they were then." in bo and "You played card 5 in Duel." in bo
    # Each is told alone: not Ann, not the public board, no one else's name.
    assert "after the deadline" not in ann and "Bo" not in cy and "Cy" not in bo
    assert "after the deadline" not in tab_text(folder / "board.xlsx", "Board")


def test_undo_after_a_lock_keeps_what_players_typed_after_it(late_round):
    folder = late_round
    out = run("undo", folder).output
    assert "round 1 is locked again as it was at 2026-11-24 15:00 UTC (resolve uses the same snapshot)" in out
    assert "what Bo, Cy typed after the lock is back in their Submission tabs, still not counted" in out
    cy, bo = tab_text(folder / "players" / "Cy.xlsx", "Submission"), tab_text(folder / "players" / "Bo.xlsx", "Submission")
    assert " | 1 | Null | " in cy and " | 9 | Null | " in bo     # before: the snapshot (Cy's empty, Bo's 5 Duel)
    status = run("status", folder).output
    assert "round 1 (locked since 2026-11-24T15:00:00Z)" in status
    lines = {ln.split()[0]: ln for ln in status.splitlines()[1:-1]}
    assert "edited after the lock (not counted)" in lines["Bo"] and "edited after the lock" in lines["Cy"]
    run("resolve", folder)                              # the same round again: the snapshot, the same words
    assert "You played card 5 in Duel." in results(folder, "Bo")
    assert "your form was empty then" in results(folder, "Cy")
    run("undo", folder)
    run("reopen", folder)                               # the host counts the late entries after all
    run("resolve", folder)
    assert "You played card 9 in Null." in results(folder, "Bo") and "You played card 1 in Null." in results(folder, "Cy")
    assert "after the deadline" not in results(folder, "Cy")


# ------------------------------------------------------------------ Google: locked forms are protected again

def test_on_google_undo_locks_the_forms_again_and_a_stale_deadline_locks_nothing(tmp_path, monkeypatch):
    from sheetbridge.sheets.store import MASTER
    from tests.fake_google import FakeGoogle
    from tests.test_google_backend import HOST, _players
    clock = Clock(monkeypatch, "2026-11-23T09:00:00Z")
    fake = FakeGoogle(seed=2)
    st = fake.store(HOST, game_folder=tmp_path / "g")
    st.game_id = "three-modular-rooms"
    new_game("three-modular-rooms", _players("three-modular-rooms")[:3], st, seed=3, folder=tmp_path / "g")
    master = st.open(MASTER, st.master_location())
    row = next(i for i, r in enumerate(master.read(["Config"])["Config"], 1) if r and r[0] == "deadline")
    master.update_cells("Config", {(row, 2): "2026-11-24 15:00"})
    ld = load(st)
    fill_submission(st, ld, "Ann", {"play": [{"card": "3", "room": "Null"}]})
    sid = ld.locations["Ann"]
    clock.at = "2026-11-24T15:00:05Z"
    assert any("round 1 locked" in ln for ln in Watcher(st, watcher_id="w", now=clock).poll())
    clock.at = "2026-11-24T16:00:00Z"
    resolve(st)
    out = undo(st).message
    assert "round 1 is locked again" in out
    (prot,) = fake.sheet(sid, "Submission").protected          # the form is the host's alone again
    assert not prot.get("unprotectedRanges") and prot["editors"]["users"] == [HOST]
    assert "locked at the deadline" in st.open("player:Ann", sid).read(["Submission"])["Submission"][0][0]
    assert "has passed and will not lock it again" in reopen_submissions(st).message
    clock.at = "2026-11-24T16:00:30Z"
    assert not any("locked" in ln for ln in Watcher(st, watcher_id="w", now=clock).poll())
    assert load(st).locked is None
    resolve(st)                                               # round 2 opens after round 1's deadline
    clock.at = "2026-11-24T16:01:00Z"
    (line,) = Watcher(st, watcher_id="w", now=clock).poll()
    assert "is earlier than round 2's opening" in line and load(st).locked is None
