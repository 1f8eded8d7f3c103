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
   all), with the local id cache file and without it (another computer), against the
   goal of issue 31: one read per file read + one write per file changed + at most two
   for the lock; the master's own reads and writes beside it;
3. the wall time of one real 30-player `resolve` against the fake answering every request
   after ``--latency`` seconds (default 0.4, about a spreadsheets:batchUpdate on Google;
   goal: 8 s), books published one at a time versus ``PUBLISH_WORKERS`` at once (the median
   of ``--runs``). The game lock's LOCK_SETTLE (2 s) wait is included: since issue 31 it
   overlaps the reading of the players' files.

``--before REF`` runs the same figures on the code of git ref REF (``git archive``; e.g. main)
in a subprocess, interleaved with this tree's timing runs, and prints both.

    python benchmarks/google_requests.py [--latency 0.4] [--runs 3] [--skip-timing] [--before main]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODE = Path(os.environ.get("SHEETBRIDGE_BENCH_CODE") or ROOT)   # the sheetbridge measured (--before: an old tree)
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(CODE))

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


GOAL_SECONDS = 8   # the goal for a 30-player round at 0.4 s a request
LOCK_ALLOWANCE = 2  # the goal: the lock may add at most two requests to a resolve


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
    try:   # as host.session.open_store does (issue 31): the lock's first read carries the master's tabs
        from sheetbridge.host.session import expect_master_read
    except ImportError:   # (--before: code older than issue 31)
        pass
    else:
        expect_master_read(st, cfg["game"])
    return st


def host_round(gid: str, n: int) -> dict:
    """One real `resolve` of a new game: reads, writes, metadata reads (with the cache file, without
    it), the master's reads and writes, and the issue's goal (files read + files written + 2)."""
    fake = FakeGoogle(seed=1)
    with tempfile.TemporaryDirectory() as d:
        folder = Path(d) / "game"
        _new_game(fake, gid, n, folder)
        master = json.loads((folder / CONFIG_FILE).read_text())["master"]
        fake.reset_counts()
        resolve(_reopen(fake, folder), allow_empty=True)
        read_files = {e.file for e in fake.log if e.kind in ("read", "metadata")}
        written_files = {e.file for e in fake.log if e.kind == "write"}
        out = {"reads": fake.count("read"), "writes": fake.count("write"), "meta": fake.count("metadata"),
               "master_reads": fake.count("read", master) + fake.count("metadata", master),
               "master_writes": fake.count("write", master),
               "goal": len(read_files) + len(written_files) + LOCK_ALLOWANCE}
        (folder / G.CACHE_FILE).unlink()
        fake.reset_counts()
        resolve(_reopen(fake, folder), allow_empty=True)
        out["blind"] = fake.count("metadata")
        return out


def host_rounds() -> list[tuple[str, int, dict]]:
    from sheetbridge.api import games
    out = []
    for gid, game in sorted(games().items()):
        n = game.spec.recommended_players or game.spec.max_players
        out.append((gid, n, host_round(gid, n)))
    out.append(("three-modular-rooms", 30, host_round("three-modular-rooms", 30)))
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


def counts_lines() -> list[str]:
    lines = ["Google API requests per round (Sheets reads / writes; metadata reads counted as reads)",
             f"{'players':>7} | {'batched reads':>13} {'writes':>6} {'total':>5} {'meta':>4} | "
             f"{'naive reads':>11} {'writes':>6} {'total':>5} {'meta':>4} | {'naive min of quota':>18}"]
    for n in (9, 30):
        br, bw, bm = batched_round(FakeGoogle(seed=1), n)
        nr, nw, nm = naive_round(FakeGoogle(seed=1, quota_per_minute=0), n)   # it would trip the quota
        minutes = max(nr, nw) / 60
        lines.append(f"{n:>7} | {br:>13} {bw:>6} {br + bw:>5} {bm:>4} | {nr:>11} {nw:>6} {nr + nw:>5} {nm:>4} | "
                     f"{minutes:>18.1f}")
    lines += ["batched bound: reads <= players + 1 (master + each player), writes <= players + 2 "
              "(master + each changed player + board); quota is 60 reads and 60 writes a minute.", "",
              "One real `resolve` through the host (nothing submitted; the game lock and the revision check "
              "included); goal (issue 31): one read per file read + one write per file changed + at most "
              f"{LOCK_ALLOWANCE} for the lock:"]
    for gid, n, c in host_rounds():
        total = c["reads"] + c["writes"]
        lines.append(f"  {gid:<22} {n:>2} players: {c['reads']:>3} reads, {c['writes']:>3} writes = {total:>3} "
                     f"(goal <= {c['goal']}: {'ok' if total <= c['goal'] else 'over by ' + str(total - c['goal'])}); "
                     f"master {c['master_reads']} reads + {c['master_writes']} writes; {c['meta']} metadata reads "
                     f"({c['blind']} without the local cache file)")
    return lines


def timing(latency: float, workers: int) -> str:
    took, sent = timed_round(30, workers, latency)
    return json.dumps([took, sent])


def _run_old(ref: str, tree: Path, args: list[str]) -> str:
    env = {**os.environ, "SHEETBRIDGE_BENCH_CODE": str(tree), "PYTHONPATH": f"{tree}{os.pathsep}{ROOT}"}
    return subprocess.run([sys.executable, __file__, *args], env=env, check=True, capture_output=True,
                          text=True).stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency", type=float, default=0.4, help="seconds each fake request takes (default 0.4)")
    parser.add_argument("--runs", type=int, default=3, help="timing runs of each (the median is shown)")
    parser.add_argument("--skip-timing", action="store_true", help="only count requests")
    parser.add_argument("--before", metavar="REF", help="also measure the code of git ref REF (e.g. main)")
    parser.add_argument("--_counts", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--_time", type=int, metavar="WORKERS", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args._counts:
        print("\n".join(counts_lines()))
        return
    if args._time:
        print(timing(args.latency, args._time))
        return
    old = None
    with tempfile.TemporaryDirectory() as d:
        if args.before:
            old = Path(d) / "before"
            old.mkdir()
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.before, "sheetbridge", "templates",
                                      "pyproject.toml"],
                                     check=True, capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", str(old)], input=archive, check=True)
            print(f"== before ({args.before})")
            print(_run_old(args.before, old, ["--_counts"]).rstrip())
            print("== after (this tree)")
        print("\n".join(counts_lines()))
        if args.skip_timing:
            return
        print()
        print(f"Wall time of one real 30-player `resolve`, every request answered after {args.latency * 1000:.0f} ms "
              f"(the lock's {G.LOCK_SETTLE:g} s settle wait included), median of {args.runs}:")
        for workers in (1, G.PUBLISH_WORKERS):
            mine, theirs = [], []
            for _ in range(args.runs):      # interleaved: before, after, before, after...
                if old is not None:
                    theirs.append(json.loads(_run_old(args.before, old, ["--_time", str(workers),
                                                                          "--latency", str(args.latency)])))
                took, sent = timed_round(30, workers, args.latency)
                mine.append([took, sent])
            label = "one book at a time" if workers == 1 else f"{workers} books at a time"
            after = statistics.median(t for t, _ in mine)
            line = f"  {label + ':':<21} {after:6.2f} s  ({mine[0][1]} requests)"
            if theirs:
                before = statistics.median(t for t, _ in theirs)
                line += f"; before ({args.before}): {before:6.2f} s ({theirs[0][1]} requests): {before / after:.2f}x"
            if workers > 1 and args.latency == 0.4:
                line += f"; goal: <= {GOAL_SECONDS} s: {'ok' if after <= GOAL_SECONDS else 'over'}"
            elif workers > 1:
                line += f"; (the goal, <= {GOAL_SECONDS} s, is at --latency 0.4)"
            print(line)


if __name__ == "__main__":
    main()
