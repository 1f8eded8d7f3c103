"""Time an offline resolve against the openpyxl floor: 9 and 30 players, rounds 1 and 11.

    python benchmarks/resolve_xlsx.py [--repeat 7] [--players 9 30] [--rounds 1 11] [--rate]

For each case a Three Modular Rooms game is played up to that round (every player's entries typed
in) and kept as a pristine folder. Each repeat copies it twice and times, one after the other:

- resolve: one `host.resolve.resolve` on the folder opened as the CLI opens it (read every file,
  resolve, write every changed file, draw the board's picture);
- floor: openpyxl loading and saving every .xlsx file of the same folder, nothing else.

Each is timed in a fresh Python process, warmed up first by the same work on another, small game
(imports, templates and fonts loaded, as in any process that has resolved once): no cache or
garbage of one timed run helps or hurts another. Prints the medians
and their ratio (the issue's goal: at most 0.5x the floor), and how many of the resolve's writes
replaced whole books (the fast writer) or only some tabs (openpyxl). `--rate` adds the pure
resolver's rounds per second.
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GAME = "three-modular-rooms"
NAMES = ["Ann", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou", "Max", "Ned", "Oz",
         "Pia", "Quin", "Rae", "Sam", "Tia", "Uma", "Vic", "Wes", "Xia", "Yul", "Zoe", "Abe", "Bea", "Cal", "Dot"]


GOAL_RATIO = 0.5   # the goal: a resolve takes at most half the openpyxl floor


def game_at_round(folder: Path, players: int, round_no: int, seed: int = 1) -> None:
    """A game in `folder` whose open round is `round_no`, with every player's entries typed in."""
    from sheetbridge.core.match import random_submissions
    from sheetbridge.core.rng import Rng
    from sheetbridge.host.demo import fill_submission
    from sheetbridge.host.new import new_game
    from sheetbridge.host.players import PlayerInfo
    from sheetbridge.host.resolve import resolve
    from sheetbridge.host.session import load
    from sheetbridge.sheets.xlsx import XlsxStore
    store = XlsxStore(folder)
    new_game(GAME, [PlayerInfo(n, "", 20) for n in NAMES[:players]], store, seed=seed, folder=folder)
    rng = Rng.from_seed(seed, "bench")
    while True:
        ld = load(store)
        for p, raw in random_submissions(ld.match, rng).items():
            fill_submission(store, ld, p, raw)
        if ld.match.round == round_no:
            return
        resolve(store)


# ------------------------------------------------------------ one timed run (in its own process)

def time_floor(folder: Path) -> float:
    import openpyxl
    files = sorted(folder.rglob("*.xlsx"))
    t = time.perf_counter()
    for f in files:
        openpyxl.load_workbook(f).save(f)
    return time.perf_counter() - t


def time_resolve(folder: Path) -> float:
    from sheetbridge.host.resolve import resolve
    from sheetbridge.host.session import open_store
    t = time.perf_counter()
    res = resolve(open_store(folder))   # as the CLI opens it (the game's id from sheetbridge.json)
    elapsed = time.perf_counter() - t
    assert res.action == "resolved", res.message
    return elapsed


def timed(kind: str, pristine: Path, warm: Path, tmp: Path) -> float:
    """One run in a fresh process: the same work on a copy of `warm` first, then timed on a copy of `pristine`."""
    run, warm_run = tmp / "run", tmp / "warm"
    shutil.copytree(pristine, run)
    shutil.copytree(warm, warm_run)
    try:
        out = subprocess.run([sys.executable, __file__, "--time", kind, str(warm_run), str(run)],
                             capture_output=True, text=True, check=True).stdout
        return float(out.split()[-1])
    finally:
        shutil.rmtree(run)
        shutil.rmtree(warm_run)


# ------------------------------------------------------------ what kinds of writes a resolve makes

def count_writes(folder: Path) -> Counter:
    """The resolve's book writes: whole books (every existing tab given) or some tabs only."""
    from sheetbridge.host.resolve import resolve
    from sheetbridge.host.session import open_store
    from sheetbridge.sheets import xlsx as X
    counts: Counter[str] = Counter()
    original = X.XlsxBook.write

    def write(book, tabs):
        counts["whole" if set(book.tab_names()) <= set(tabs) else "partial"] += 1
        return original(book, tabs)
    X.XlsxBook.write = write
    try:
        resolve(open_store(folder))
    finally:
        X.XlsxBook.write = original
    return counts


def rate() -> float:
    from sheetbridge.api import new_match
    from sheetbridge.core.match import random_submissions
    from sheetbridge.core.rng import Rng
    n = 0
    t = time.perf_counter()
    rng = Rng.from_seed(2, "bench")
    names = NAMES[:9]
    while time.perf_counter() - t < 2.0:
        m = new_match(GAME, names, seed=n, garnets={p: 20 for p in names})
        while not m.finished:
            m.resolve(random_submissions(m, rng))
            n += 1
    return n / (time.perf_counter() - t)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--players", type=int, nargs="+", default=[9, 30])
    ap.add_argument("--rounds", type=int, nargs="+", default=[1, 11])
    ap.add_argument("--rate", action="store_true", help="also the pure resolver's rounds per second")
    ap.add_argument("--time", nargs=3, metavar=("KIND", "WARM", "FOLDER"), help=argparse.SUPPRESS)   # a child's run
    args = ap.parse_args()
    if args.time:
        kind, warm, folder = args.time
        measure = time_floor if kind == "floor" else time_resolve
        measure(Path(warm))
        print(measure(Path(folder)))
        return
    print(f"{GAME}: offline resolve against the openpyxl floor (load + save of the same files); "
          f"medians of {args.repeat} interleaved runs, each in a fresh process")
    with tempfile.TemporaryDirectory() as tmp:
        warm = Path(tmp) / "warm-up"
        game_at_round(warm, 3, 1, seed=2)
        for players in args.players:
            for round_no in args.rounds:
                pristine = Path(tmp) / f"p{players}-r{round_no}"
                game_at_round(pristine, players, round_no)
                nfiles = len(list(pristine.rglob("*.xlsx")))
                run = Path(tmp) / "count"
                shutil.copytree(pristine, run)
                counts = count_writes(run)
                shutil.rmtree(run)
                resolves, floors = [], []
                for _ in range(args.repeat):
                    resolves.append(timed("resolve", pristine, warm, Path(tmp)))
                    floors.append(timed("floor", pristine, warm, Path(tmp)))
                r, f = statistics.median(resolves), statistics.median(floors)
                writes = ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items()))
                print(f"  {players:2d} players, round {round_no:2d}, {nfiles:2d} files: resolve {r:.3f} s, "
                      f"floor {f:.3f} s, ratio {r / f:.2f}x, goal {GOAL_RATIO}x: {'ok' if r / f <= GOAL_RATIO else 'over'}  "
                      f"(writes: {writes})", flush=True)
    if args.rate:
        print(f"  pure resolver: {rate():.0f} rounds per second")


if __name__ == "__main__":
    main()
