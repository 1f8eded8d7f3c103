"""The game lock on Google rides on the command's own requests (issue 31): the peek's read fetches
the master tabs `load` reads, and the read-back after the settle wait rides on the command's next
read of the master (the revision check before the commit), or comes before its first write.

What must hold: a resolve costs the master 2 reads and 3 writes (peek with the load, the revision
check with the read-back; claim, commit, release); nothing is ever written before the read-back;
a rival's later claim still wins; what was served from the peek is checked against the record."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from sheetbridge.core.errors import GameBusy
from sheetbridge.host import status as host_status
from sheetbridge.host.config import CONFIG_FILE
from sheetbridge.host.new import new_game
from sheetbridge.host.players import PlayerInfo
from sheetbridge.host.resolve import resolve
from sheetbridge.host.session import expect_master_read, load
from sheetbridge.sheets import google as G
from sheetbridge.sheets.store import MASTER
from sheetbridge.sheets.model import TabData
from tests.fake_google import FakeGoogle
from tests.test_google_faults import tab_values

HOST = "host@example.com"
GAME = "three-modular-rooms"


def _game(tmp_path: Path, n: int = 9) -> tuple[FakeGoogle, Path, str]:
    fake = FakeGoogle(seed=5)
    folder = tmp_path / "g"
    players = [PlayerInfo(f"P{i + 1}", f"p{i + 1}@example.com", 10) for i in range(n)]
    new_game(GAME, players, fake.store(HOST, game_folder=folder), seed=1, folder=folder)
    return fake, folder, json.loads((folder / CONFIG_FILE).read_text())["master"]


def _process(fake: FakeGoogle, folder: Path, name: str, pid: int, hint: bool = True) -> G.GoogleStore:
    """The store a sheetbridge process opens from the folder, as host.session.open_store does."""
    cfg = json.loads((folder / CONFIG_FILE).read_text())
    st = G.open_google_store({**cfg, "folder": str(folder)}, session=fake.session(HOST), clock=fake.clock,
                             sleep=fake.sleep, wall_clock=fake.wall_clock)
    st.game_id = cfg["game"]
    if hint:
        expect_master_read(st, cfg["game"])
    st.lock_owner, st.lock_pid, st.lock_host = f"{name}-token", pid, f"host-{name}"
    return st


def _lock_row(fake: FakeGoogle, master: str) -> list:
    rows = tab_values(fake, master).get(G.LOCK_TAB, [])[1:2]
    return rows[0] if rows else [None]


def _game_tabs(fake: FakeGoogle, master: str) -> dict:
    return {t: v for t, v in tab_values(fake, master).items() if t != G.LOCK_TAB}


def _master_counts(fake: FakeGoogle, master: str) -> Counter:
    return Counter(e.kind for e in fake.log if e.file == master)


def test_a_resolve_costs_the_master_two_reads_and_three_writes(tmp_path):
    fake, folder, master = _game(tmp_path)
    fake.reset_counts()
    res = resolve(_process(fake, folder, "a", 4411), allow_empty=True)
    assert res.action == "resolved"
    # peek + the load's tabs; the revision check + the lock's read-back | claim, commit, release
    assert _master_counts(fake, master) == Counter(read=2, write=3)
    files_read = {e.file for e in fake.log if e.kind == "read"}
    files_written = {e.file for e in fake.log if e.kind == "write"}
    assert fake.count() == len(files_read) + len(files_written) + 3   # the goal is + 2: docs/google.md
    assert sum(fake.slept) >= G.LOCK_SETTLE                           # the settle wait is kept
    assert _lock_row(fake, master)[0] in (None, "")                   # released


def test_without_the_hint_the_load_carries_the_read_back(tmp_path):
    fake, folder, master = _game(tmp_path)
    fake.reset_counts()
    resolve(_process(fake, folder, "a", 4411, hint=False), allow_empty=True)
    assert _master_counts(fake, master) == Counter(read=3, write=3)   # peek; load + read-back; revision check


def test_a_later_claim_wins_over_a_lock_not_read_back_yet_and_nothing_is_written(tmp_path):
    fake, folder, master = _game(tmp_path)
    a = _process(fake, folder, "a", 4411)
    b = _process(fake, folder, "b", 4412)
    before = _game_tabs(fake, master)
    with pytest.raises(GameBusy, match=r"\(undo since .*pid 4412 on host-b\)"):
        with a.lock("resolve"):
            G.GameLock(b, "undo").claim()          # b saw it free too, and wrote after a
            ld = load(a)                           # served from a's peek: no request
            ld.master.write({"Config": TabData(rows=[])})
    assert _lock_row(fake, master)[:4] == ["b-token", "undo", "4412", "host-b"]   # b's row left alone
    assert _game_tabs(fake, master) == before                                    # nothing written


def test_a_write_before_any_read_of_the_master_waits_for_the_read_back(tmp_path):
    fake, folder, master = _game(tmp_path)
    a = _process(fake, folder, "a", 4411)
    b = _process(fake, folder, "b", 4412)
    before = _game_tabs(fake, master)
    fake.reset_counts()
    with pytest.raises(GameBusy):
        with a.lock("watch: Control tab"):
            G.GameLock(b, "undo").claim()
            a.open(MASTER, master).update_cells("Config", {(1, 1): "overwritten"})
    assert _game_tabs(fake, master) == before      # not written
    assert [e.method_id.rsplit(".", 1)[-1] for e in fake.log if e.file == master] == \
        ["batchGet", "update", "update", "batchGet"]   # a: peek, claim; b: claim; a: read-back, refused
    assert _lock_row(fake, master)[0] == "b-token"


def test_a_command_that_only_reads_reads_back_at_its_release(tmp_path):
    fake, folder, master = _game(tmp_path)
    a = _process(fake, folder, "a", 4411)
    b = _process(fake, folder, "b", 4412)
    with a.lock("status"):
        G.GameLock(b, "undo").claim()             # b claimed after a: a must not clear b's row
    assert _lock_row(fake, master)[0] == "b-token"
    with pytest.raises(GameBusy, match="pid 4412 on host-b"):   # and b holds the game
        with _process(fake, folder, "c", 4413).lock("status"):
            pass


def test_what_the_peek_served_is_checked_against_the_record(tmp_path):
    """A rival that held the game between a's peek and a's claim (a request slower than the settle
    wait): a's load, served from the peek, is stale; the read-back sees the record changed."""
    fake, folder, master = _game(tmp_path)
    a = _process(fake, folder, "a", 4411)
    lock = G.GameLock(a, "resolve")
    lock.take(a._master_hint[0])                   # peek (with the tabs) and claim
    rival = _process(fake, folder, "b", 4412)
    rival.lock = lambda command: __import__("contextlib").nullcontext()   # as if it held the lock then
    assert resolve(rival, allow_empty=True).action == "resolved"
    try:
        ld = load(a)                               # served from the peek: round 1, stale
        assert ld.match.round == 1
        with pytest.raises(GameBusy, match="changed while this command ran"):
            a.open(MASTER, master).update_cells("Config", {(30, 1): "x"})
    finally:
        lock.release()
        a._held(None)
    assert load(_process(fake, folder, "c", 4413, hint=False)).match.round == 2   # the rival's round stands
    assert _lock_row(fake, master)[0] in (None, "")                              # a released its own row


def test_a_status_reads_the_master_once_with_the_peek(tmp_path):
    fake, folder, master = _game(tmp_path)
    st = _process(fake, folder, "a", 4411)
    fake.reset_counts()
    host_status.status(st)
    counts = _master_counts(fake, master)
    assert counts["read"] == 2 and counts["write"] == 2    # peek with the tabs, read-back at release | claim, release


def test_a_master_without_a_tab_the_hint_names_costs_no_failed_request(tmp_path):
    """A master made before the Decisions tab existed: the peek reads only what the id cache says
    the master has (one missing range would fail the whole read), and the game resolves as before."""
    fake, folder, master = _game(tmp_path)
    sheets = fake.files[master].sheets
    sheets.remove(next(t for t in sheets if t.title == "Decisions"))
    cache = json.loads((folder / G.CACHE_FILE).read_text())
    for entry in cache.values():
        if isinstance(entry, dict) and master in entry:
            del entry[master]["sheets"]["Decisions"]
    (folder / G.CACHE_FILE).write_text(json.dumps(cache))
    fake.reset_counts()
    assert resolve(_process(fake, folder, "a", 4411), allow_empty=True).action == "resolved"
    assert all(e.status == 200 for e in fake.log if e.file == master)   # none refused
    # (the load asks for the Decisions tab, which the cache says is gone: one metadata read, as before)
    assert _master_counts(fake, master) == Counter(read=2, write=3, metadata=1)
    assert load(_process(fake, folder, "c", 4413)).match.round == 2
    assert _lock_row(fake, master)[0] in (None, "")
