"""Issue 13: a 30-player Google round in seconds, commands that never collide on the quota,
no metadata read without the local id cache, (`--help`: tests/test_cli_startup.py).

Everything runs against the offline fake (tests/fake_google) on its virtual clock: waits for
the quota cost no time and every figure below is exact. Nothing here is timed; the wall-time
figures are in benchmarks/google_requests.py and benchmarks/cli_startup.py.
"""
from __future__ import annotations

import json
import re
import threading
from pathlib import Path

import pytest

from sheetbridge.host.books import marker
from sheetbridge.host.config import CONFIG_FILE
from sheetbridge.host.new import new_game
from sheetbridge.host.players import PlayerInfo
from sheetbridge.host.resolve import resolve
from sheetbridge.host.session import load
from sheetbridge.host.status import status
from sheetbridge.host.undo import undo
from sheetbridge.core.errors import BackendError
from sheetbridge.sheets import google as G
from sheetbridge.sheets import layout as L
from sheetbridge.sheets.model import CellData as C, TabData
from sheetbridge.sheets.store import BOARD, MASTER
from tests.fake_google import FakeGoogle
from tests.test_google_backend import snapshot

HOST = "host@example.com"
GAME = "three-modular-rooms"          # any number of players up to 30
WAITING = re.compile(r"^waiting for Google's quota \(\d+ s\)\.\.\.$")


def _players(n: int) -> list[PlayerInfo]:
    return [PlayerInfo(f"P{i + 1}", f"p{i + 1}@example.com", 10) for i in range(n)]


def _new(fake: FakeGoogle, folder: Path, n: int = 30, seed: int = 3) -> None:
    new_game(GAME, _players(n), fake.store(HOST, game_folder=folder), seed=seed, folder=folder)


def _reopen(fake: FakeGoogle, folder: Path, **kwargs) -> G.GoogleStore:
    """The store a new sheetbridge process opens from the game folder (on the fake's clocks)."""
    cfg = json.loads((folder / CONFIG_FILE).read_text())
    st = G.open_google_store({**cfg, "folder": str(folder)}, session=fake.session(HOST), clock=fake.clock,
                             sleep=fake.sleep, wall_clock=fake.wall_clock, **kwargs)
    st.game_id = cfg["game"]
    return st


def _shows_round(fake: FakeGoogle, st: G.GoogleStore, location: str) -> str:
    sub = st.open("player:?", location).read([L.tab_name("submission")])[L.tab_name("submission")]
    return marker(sub)


def _most_in_a_minute(times: list[float]) -> int:
    times = sorted(times)
    return max((sum(1 for t in times if start <= t < start + 60) for start in times), default=0)


# ------------------------------------------------------------------ publishing at once
def test_a_30_player_round_publishes_its_books_at_once_with_the_serial_result(tmp_path):
    serial, fast = FakeGoogle(seed=1), FakeGoogle(seed=1)
    _new(serial, tmp_path / "serial")
    _new(fast, tmp_path / "fast")
    one = _reopen(serial, tmp_path / "serial")
    one.publish_workers = 1
    assert resolve(one, allow_empty=True).action == "resolved"

    st = _reopen(fast, tmp_path / "fast")
    assert st.publish_workers == G.PUBLISH_WORKERS > 1
    ld = load(st)
    books = {*ld.locations.values(), ld.board_location}
    # The first two writes of player files (or the board) each wait until the other has started: if the
    # books were written one after another, the first would wait in vain and the round would fail.
    meet, lock, started = threading.Barrier(2, timeout=30), threading.Lock(), []
    real = fast.handle

    def handle(method, url, headers, body, timeout=None):
        if method.upper() == "POST" and url.endswith(":batchUpdate") and any(b in url for b in books):
            with lock:
                started.append(url)
                first_two = len(started) <= 2
            if first_two:
                meet.wait()
        return real(method, url, headers, body, timeout)

    fast.handle = handle
    fast.reset_counts()
    lines: list[str] = []
    res = resolve(st, allow_empty=True, progress=lines.append)
    assert res.action == "resolved" and not meet.broken

    writes = [(e.file, i) for i, e in enumerate(fast.log) if e.method_id == "sheets.spreadsheets.batchUpdate"]
    master_at = [i for f, i in writes if f == ld.master.location]
    assert len(master_at) == 1 and all(i > master_at[0] for f, i in writes if f in books)   # the commit point first
    assert sorted(f for f, _ in writes if f in books) == sorted(books)                      # each book once
    assert lines[0] == "saved the master (the round's record and ledger)"
    books_published = [line for line in lines[1:] if line.startswith("published ")]   # (then the round's pictures)
    assert sorted(books_published) == sorted([f"published P{i}'s file" for i in range(1, 31)] + ["published the public board"])
    assert all(line.startswith("saved ") and line.endswith(".png") for line in lines[1:] if line not in books_published)
    assert res.written[:32] == [ld.master.location] + [ld.locations[f"P{i}"] for i in range(1, 31)] \
        + [ld.board_location]                                               # in the plan's order, whatever finished first
    assert snapshot(st) == snapshot(_reopen(serial, tmp_path / "serial"))   # the same spreadsheets, to the cell


def test_a_failure_while_publishing_names_every_unpublished_book_and_a_rerun_finishes(tmp_path):
    clean, fake = FakeGoogle(seed=2), FakeGoogle(seed=2)
    for f, name in ((clean, "clean"), (fake, "cut")):
        _new(f, tmp_path / name, n=12)
    resolve(_reopen(clean, tmp_path / "clean"), allow_empty=True)
    ld = load(_reopen(fake, tmp_path / "cut"))
    for p in ("P4", "P9"):
        fake.fail_always(500, kinds=("write",), file=ld.locations[p])
    with pytest.raises(BackendError) as err:
        resolve(_reopen(fake, tmp_path / "cut"), allow_empty=True)
    message = str(err.value)
    assert "\n" not in message and "run the same command again" in message
    named = message.rsplit("(still unpublished: ", 1)[1].rstrip(")").split(", ")
    assert "P4" in named and "P9" in named
    st = _reopen(fake, tmp_path / "cut")
    for p, location in ld.locations.items():     # exactly the books named still show round 1
        assert (_shows_round(fake, st, location) == "1") == (p in named), p
    fake.clear_faults()
    again = resolve(_reopen(fake, tmp_path / "cut"), allow_empty=True, round_no=1)
    assert again.action == "published"
    assert snapshot(_reopen(fake, tmp_path / "cut")) == snapshot(_reopen(clean, tmp_path / "clean"))
    rows = load(_reopen(fake, tmp_path / "cut")).match.ledger.rows
    assert len({r.key for r in rows}) == len(rows)


def test_the_fake_serves_requests_from_many_threads_consistently():
    fake = FakeGoogle(seed=4)
    st = fake.store(HOST)
    ids = [st.create(f"player:T{i}", f"T{i}", {"Results": TabData(rows=[[C("start")]])}).location for i in range(8)]
    fake.reset_counts()

    def hammer(i: int) -> None:
        book = fake.store(HOST, per_minute=1000).open(f"player:T{i}", ids[i])
        for n in range(5):
            book.write({"Results": TabData(rows=[[C(f"T{i} write {n}")]])})
    threads = [threading.Thread(target=hammer, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert fake.count("write") == 40 and len(fake.log) == fake.count()
    assert [fake.cell(sid, "Results", 0, 0)["userEnteredValue"]["stringValue"] for sid in ids] == \
        [f"T{i} write 4" for i in range(8)]


# ------------------------------------------------------------------ the quota
def _spend_the_read_quota(fake: FakeGoogle, sid: str) -> None:
    """The host's browser (the same Google account, not sheetbridge) spends the minute's reads."""
    browser = fake.gspread_client(HOST).http_client
    for _ in range(fake.quota_per_minute):
        browser.values_get(sid, "Results!A1")


def test_a_429_is_waited_out_and_the_host_is_told(tmp_path):
    fake = FakeGoogle(seed=5)
    st = fake.store(HOST)
    told: list[str] = []
    st.progress = told.append
    info = st.create("player:Ann", "Ann", {"Results": TabData(rows=[[C("hello")]])})
    fake.sleep(61)                                          # a fresh minute, all the browser's
    _spend_the_read_quota(fake, info.location)
    start = fake.now
    assert st.open(info.key, info.location).read(["Results"]) == {"Results": [["hello"]]}
    waited = fake.now - start
    assert fake.quota_hits                                  # Google did answer 429...
    assert 60 <= waited <= G.QUOTA_WAIT_LIMIT               # ...until the window had passed: no failure
    assert len(fake.quota_hits) > G.DEFAULT_ATTEMPTS - 1    # more tries than the old policy allowed
    assert told and all(WAITING.match(line) for line in told), told


def test_a_quota_that_stays_spent_stops_after_the_cap_in_one_line():
    fake = FakeGoogle(seed=6)
    st = fake.store(HOST)
    info = st.create("player:Ann", "Ann", {"Results": TabData(rows=[[C("hello")]])})
    fake.fail_always(429, kinds=("read",))
    start = fake.now
    with pytest.raises(BackendError) as err:
        st.open(info.key, info.location).read(["Results"])
    assert str(err.value).startswith(f"Google Sheets failed while reading Results from the player:Ann spreadsheet "
                                     f"({info.location}) after waiting {int(G.QUOTA_WAIT_LIMIT)} s for Google's "
                                     f"per-minute quota: Google answered 429")
    assert fake.now - start == pytest.approx(G.QUOTA_WAIT_LIMIT)     # capped, however the jitter fell


def test_status_then_resolve_within_a_minute_share_the_pacing(tmp_path):
    """The issue as reported: 30 players, `status` then `resolve` at once. Together they need more
    reads than a minute allows; the second command knows what the first spent (the game folder's
    pace log) and waits, telling the host, instead of running into Google's 429."""
    fake = FakeGoogle(seed=7)
    folder = tmp_path / "g"
    _new(fake, folder)
    fake.sleep(120)                                          # later that day: a fresh minute
    fake.reset_counts()
    told: list[str] = []
    status(_reopen(fake, folder, progress=told.append))
    res = resolve(_reopen(fake, folder, progress=told.append), allow_empty=True)
    assert res.action == "resolved"
    reads = [e.at for e in fake.log if e.kind in ("read", "metadata")]
    assert len(reads) > fake.quota_per_minute                # more than one minute's quota in all
    assert not fake.quota_hits                               # and never a 429
    assert _most_in_a_minute(reads) <= G.PACE_PER_MINUTE
    assert told and all(WAITING.match(line) for line in told)
    log = json.loads((folder / G.PACE_FILE).read_text())
    assert set(log) == {"version", "sent", "hold"} and len(log["sent"]["read"]) <= G.PACE_PER_MINUTE


def test_a_second_process_that_paces_alone_waits_out_the_429_and_still_resolves(tmp_path):
    """Part (1) in the same scenario: a process that does not know the first one's requests (its pace
    log was lost, or another computer) meets Google's 429 and waits it out."""
    fake = FakeGoogle(seed=7)
    folder = tmp_path / "g"
    _new(fake, folder)
    fake.sleep(120)
    status(_reopen(fake, folder))
    (folder / G.PACE_FILE).unlink()
    told: list[str] = []
    res = resolve(_reopen(fake, folder, progress=told.append), allow_empty=True)
    assert res.action == "resolved" and fake.quota_hits
    assert any(WAITING.match(line) for line in told)


def test_processes_share_one_pace_log_through_the_game_folder(tmp_path):
    now = [1_000_000.0]

    def clock() -> float:
        return now[0]

    def sleep(seconds: float) -> None:
        now[0] += seconds
    told: list[str] = []
    a, b = (G.Pacer(per_minute=5, clock=clock, sleep=sleep, path=tmp_path / G.PACE_FILE, notice=told.append)
            for _ in range(2))
    for _ in range(5):
        a.acquire("read")
    assert now[0] == 1_000_000.0
    b.acquire("read")                         # the other process's five reads fill the window
    assert now[0] == 1_000_060.0 and told == ["waiting for Google's quota (60 s)..."]
    b.acquire("write")                        # another kind: no wait
    a.hold("write", 30)                       # a's write got a 429
    b.acquire("write")
    assert now[0] == 1_000_090.0
    (tmp_path / G.PACE_FILE).write_text("{not json")
    a.acquire("read")                         # an unreadable log: paced with what this process knows
    assert now[0] == 1_000_090.0


def test_a_wait_for_the_next_window_lets_the_requests_in_flight_land_first():
    """Google counts a request when it arrives: one sent in this window must arrive in it, even when
    another thread waits for the next window (on the virtual clock that wait takes no time at all)."""
    now = [0.0]
    pacer = G.Pacer(per_minute=1, clock=lambda: now[0], sleep=lambda s: now.__setitem__(0, now[0] + s))
    arrived: dict[str, float] = {}
    sent, land = threading.Event(), threading.Event()

    def first() -> None:
        with pacer.sending("write"):
            sent.set()
            land.wait(30)
            arrived["first"] = now[0]

    def second() -> None:
        with pacer.sending("write"):
            arrived["second"] = now[0]
    a = threading.Thread(target=first)
    a.start()
    sent.wait(30)
    b = threading.Thread(target=second)
    b.start()
    b.join(0.3)                       # give the second thread the chance to jump ahead: it must not
    land.set()
    a.join(30)
    b.join(30)
    assert arrived == {"first": 0.0, "second": 60.0}


# ------------------------------------------------------------------ no metadata read without the cache file
def _master_protections(fake: FakeGoogle, folder: Path) -> int:
    master = json.loads((folder / CONFIG_FILE).read_text())["master"]
    return sum(len(s.protected) for s in fake.files[master].sheets)


def test_a_game_reopened_without_the_cache_file_reads_no_metadata(tmp_path):
    fake = FakeGoogle(seed=8)
    folder = tmp_path / "g"
    _new(fake, folder, n=9)
    protections = _master_protections(fake, folder)
    for round_no in (1, 2, 3):                # another computer every time: no local id cache
        (folder / G.CACHE_FILE).unlink()
        fake.reset_counts()
        res = resolve(_reopen(fake, folder), allow_empty=True)
        assert res.action == "resolved" and res.record.round == round_no
        assert fake.count("metadata") == 0 and fake.count("drive") == 0
    assert _master_protections(fake, folder) == protections   # no protection added twice on the way
    (folder / G.CACHE_FILE).unlink()
    fake.reset_counts()
    undo(_reopen(fake, folder))
    assert fake.count("metadata") == 0


def test_a_record_made_without_the_masters_ids_learns_them_at_the_first_write(tmp_path, monkeypatch):
    """A game created before the record carried the master's own ids pays one metadata read, once."""
    fake = FakeGoogle(seed=9)
    folder = tmp_path / "g"
    with monkeypatch.context() as m:
        m.setattr(G.GoogleStore, "prepare_write", lambda self, key, location, tabs: False)
        _new(fake, folder, n=9)
    costs = []
    for _ in range(3):
        (folder / G.CACHE_FILE).unlink()
        fake.reset_counts()
        resolve(_reopen(fake, folder), allow_empty=True)
        costs.append(fake.count("metadata"))
    assert costs == [1, 0, 0]


def test_a_master_tab_added_by_a_write_is_named_in_the_record_it_carries(tmp_path):
    fake = FakeGoogle(seed=10)
    folder = tmp_path / "g"
    _new(fake, folder, n=3)
    st = _reopen(fake, folder)
    ld = load(st)
    tabs = {"Extra": TabData(rows=[[C("x")]], protected=True)}
    assert st.prepare_write(MASTER, ld.master.location, tabs)      # the export now names the new tab
    planned = st.export_cache()["books"][ld.master.location]
    ld.master.write(tabs)
    sheet = fake.sheet(ld.master.location, "Extra")
    assert planned["sheets"]["Extra"] == sheet.id and planned["protected"]["Extra"] == [None, []]
    assert st.export_cache()["books"][ld.master.location]["protected"]["Extra"][0] == \
        sheet.protected[0]["protectedRangeId"]                       # Google's id, once its reply came
    assert not st.prepare_write(BOARD, ld.board_location, {})        # nothing to plan: the export is unchanged
