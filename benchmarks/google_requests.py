"""Google API requests per round, and the wall time of a 30-player round.

Runs offline against the fake Google in tests/fake_google (through the real gspread
client) and prints:

1. for 9 and 30 players, sheetbridge's batched pattern beside the naive one:
   - batched: what the host does per round with GoogleStore: one values:batchGet
     per book read (the master; each player's Submission+Results+Board), one
     spreadsheets:batchUpdate per book written (the master, each player, the board),
     no metadata reads (sheet ids are cached in the master);
   - naive: the usual gspread idiom: open each spreadsheet (a metadata read), open each
     tab (another metadata read in gspread 6), read each tab with get_all_values, and
     write each tab with clear + update + one format call;
2. for each registered game at its recommended player count, and for 30 players, the
   requests of one real `resolve` through sheetbridge.host (lock, revision check and
   all), with the local id cache file and without it (another computer);
3. the wall time of one real 30-player `resolve` against the fake answering every request
   after ``--latency`` seconds (default 0.1, a quick Google answer; 0.4 is closer to a
   spreadsheets:batchUpdate), books published one at a time versus ``PUBLISH_WORKERS`` at once.
   Each command also waits LOCK_SETTLE (2 s) while taking the game lock.

    python benchmarks/google_requests.py [--latency 0.1] [--skip-timing]
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sheetbridge.host.config import CONFIG_FILE  # noqa: E402
from sheetbridge.host.new import new_game  # noqa: E402
from sheetbridge.host.players import PlayerInfo  # noqa: E402
from sheetbridge.host.resolve import resolve  # noqa: E402
from sheetbridge.sheets import google as G  # noqa: E402
from sheetbridge.sheets.model import CellData as C, TabData  # noqa: E402
from sheetbridge.sheets.store import BOARD, MASTER, player_key  # noqa: E402
from tests.fake_google import FakeGoogle  # noqa: E402

HOST = "host@example.com"
MASTER_TABS = ["Config", "Players", "Rounds", "Board", "Ledger", "Host log", "Record"]
PLAYER_TABS = ["Submission", "Results", "Board"]


GOAL_SECONDS = 8   # the goal for a 30-player round


def tab(text: str, rows: int = 12, protected: bool = False) -> TabData:
    return TabData(rows=[[C(text, bold=i == 0), C(i), C("x", choices=("a", "b"))] for i in range(rows)],
                   protected=protected, frozen_rows=1)


def setup(fake: FakeGoogle, n: int):
    store = fake.store(HOST)
    players = [f"P{i + 1}" for i in range(n)]
    books = {p: store.create(player_key(p), p, {t: tab(t, protected=t != "Submission") for t in PLAYER_TABS},
                             writer_email=f"{p.lower()}@example.com").location for p in players}
    board = store.create(BOARD, "board", {"Board": tab("Board", protected=True)},
                         reader_email=[f"{p.lower()}@example.com" for p in players]).location
    master = store.create(MASTER, "master", {t: tab(t) for t in MASTER_TABS}).location
    return store, players, books, board, master


def batched_round(fake: FakeGoogle, n: int, round_no: int = 2) -> tuple[int, int, int]:
    store, players, books, board, master = setup(fake, n)
    fake.reset_counts()
    m = store.open(MASTER, master)
    m.read(MASTER_TABS)
    for p in players:
        store.open(player_key(p), books[p]).read(PLAYER_TABS)
    m.write({t: tab(f"{t} r{round_no}") for t in MASTER_TABS})
    for p in players:
        store.open(player_key(p), books[p]).write({t: tab(f"{t} r{round_no}", protected=t != "Submission")
                                                   for t in PLAYER_TABS})
    store.open(BOARD, board).write({"Board": tab(f"Board r{round_no}", protected=True)})
    return counts(fake)


def naive_round(fake: FakeGoogle, n: int, round_no: int = 2) -> tuple[int, int, int]:
    store, players, books, board, master = setup(fake, n)
    gc = fake.gspread_client(HOST)
    fake.reset_counts()

    def read(book_id, tabs):
        sh = gc.open_by_key(book_id)
        for t in tabs:
            sh.worksheet(t).get_all_values()

    def write(book_id, tabs):
        sh = gc.open_by_key(book_id)
        for t in tabs:
            ws = sh.worksheet(t)
            ws.clear()
            ws.update([[f"{t} r{round_no}", round_no]], "A1", raw=True)
            ws.format("A1", {"textFormat": {"bold": True}})

    read(master, MASTER_TABS)
    for p in players:
        read(books[p], PLAYER_TABS)
    write(master, MASTER_TABS)
    for p in players:
        write(books[p], PLAYER_TABS)
    write(board, ["Board"])
    return counts(fake)


def counts(fake: FakeGoogle) -> tuple[int, int, int]:
    reads = fake.count("read") + fake.count("metadata")
    writes = fake.count("write")
    return reads, writes, fake.count("metadata")


def _new_game(fake: FakeGoogle, gid: str, n: int, folder: Path) -> None:
    store = fake.store(HOST, game_folder=folder)
    players = [PlayerInfo(f"P{i + 1}", f"p{i + 1}@example.com", 10) for i in range(n)]
    new_game(gid, players, store, seed=1, folder=folder)


def _reopen(fake: FakeGoogle, folder: Path, workers: int = G.PUBLISH_WORKERS) -> G.GoogleStore:
    """The store a new sheetbridge process opens from the game folder."""
    cfg = json.loads((folder / CONFIG_FILE).read_text())
    st = G.open_google_store({**cfg, "folder": str(folder)}, session=fake.session(HOST), clock=fake.clock,
                             sleep=fake.sleep, wall_clock=fake.wall_clock, workers=workers)
    st.game_id = cfg["game"]
    return st


def host_round(gid: str, n: int) -> tuple[int, int, int, int]:
    """One real `resolve` of a new game: (reads, writes, metadata reads with the cache file, without it)."""
    fake = FakeGoogle(seed=1)
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d) / "game"
        _new_game(fake, gid, n, folder)
        fake.reset_counts()
        resolve(_reopen(fake, folder), allow_empty=True)
        reads, writes, meta = fake.count("read"), fake.count("write"), fake.count("metadata")
        (folder / G.CACHE_FILE).unlink()
        fake.reset_counts()
        resolve(_reopen(fake, folder), allow_empty=True)
        return reads, writes, meta, fake.count("metadata")


def host_rounds() -> list[tuple[str, int, int, int, int, int]]:
    from sheetbridge.api import games
    out = []
    for gid, game in sorted(games().items()):
        n = game.spec.recommended_players or game.spec.max_players
        out.append((gid, n, *host_round(gid, n)))
    out.append(("three-modular-rooms", 30, *host_round("three-modular-rooms", 30)))
    return out


def timed_round(n: int, workers: int, latency: float) -> tuple[float, int]:
    """Seconds of one real `resolve` of an n-player game, every request answered after ``latency``
    seconds of real time, ``workers`` books at a time; and the requests it sent."""
    fake = FakeGoogle(seed=1, quota_per_minute=0)
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d) / "game"
        _new_game(fake, "three-modular-rooms", n, folder)   # set up on the virtual clock, at once
        fake.real_time, fake.latency = True, latency             # then a real process, a fresh minute
        (folder / G.PACE_FILE).unlink(missing_ok=True)
        store = _reopen(fake, folder, workers)
        fake.reset_counts()
        start = time.perf_counter()
        res = resolve(store, allow_empty=True)
        took = time.perf_counter() - start
        assert res.action == "resolved", res.message
        return took, fake.count()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.1, help="seconds each fake request takes (default 0.1)")
    parser.add_argument("--skip-timing", action="store_true", help="only count requests")
    args = parser.parse_args()
    print("Google API requests per round (Sheets reads / writes; metadata reads counted as reads)")
    print(f"{'players':>7} | {'batched reads':>13} {'writes':>6} {'total':>5} {'meta':>4} | "
          f"{'naive reads':>11} {'writes':>6} {'total':>5} {'meta':>4} | {'naive min of quota':>18}")
    for n in (9, 30):
        br, bw, bm = batched_round(FakeGoogle(seed=1), n)
        nr, nw, nm = naive_round(FakeGoogle(seed=1, quota_per_minute=0), n)   # it would trip the quota
        minutes = max(nr, nw) / 60
        print(f"{n:>7} | {br:>13} {bw:>6} {br + bw:>5} {bm:>4} | {nr:>11} {nw:>6} {nr + nw:>5} {nm:>4} | "
              f"{minutes:>18.1f}")
    print("batched bound: reads <= players + 1 (master + each player), writes <= players + 2 "
          "(master + each changed player + board); quota is 60 reads and 60 writes a minute.")
    print()
    print("One real `resolve` through the host (nothing submitted; the game lock and the revision check "
          "included):")
    for gid, n, r, w, m, blind in host_rounds():
        print(f"  {gid:<22} {n:>2} players: {r:>3} reads, {w:>3} writes, {m} metadata reads "
              f"({blind} without the local cache file)")
    if args.skip_timing:
        return
    print()
    print(f"Wall time of one real 30-player `resolve`, every request answered after {args.latency * 1000:.0f} ms "
          f"(the lock's {G.LOCK_SETTLE:g} s settle wait included):")
    serial, sent = timed_round(30, 1, args.latency)
    print(f"  one book at a time:   {serial:6.2f} s  ({sent} requests)")
    fast, sent = timed_round(30, G.PUBLISH_WORKERS, args.latency)
    print(f"  {G.PUBLISH_WORKERS} books at a time:   {fast:6.2f} s  ({sent} requests): {serial / fast:.1f} times faster; "
          f"goal {GOAL_SECONDS} s: {'ok' if fast <= GOAL_SECONDS else 'over'}")


if __name__ == "__main__":
    main()
