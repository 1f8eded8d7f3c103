"""Time an offline resolve against the openpyxl floor: 9 and 30 players, rounds 1 and 11.

    python benchmarks/resolve_xlsx.py [--repeat 7] [--players 9 30] [--rounds 1 11] [--rate]

For each case a Three Modular Rooms game is played up to that round (every player's entries typed
in) and kept as a pristine folder. Each repeat copies it twice and times, interleaved:

- resolve: one `orchestrator.resolve` on the folder opened as the CLI opens it (read every file,
  resolve, write every changed file, draw the board's picture);
- floor: openpyxl loading and saving every .xlsx file of the same folder, nothing else.

Prints the medians and their ratio (the issue's goal: at most 0.5x the floor), and how many of
the resolve's writes replaced whole books (the fast writer) or only some tabs (openpyxl).
`--rate` adds the pure resolver's rounds per second.
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import openpyxl  # noqa: E402

from sheetbridge.core.match import Match, random_submissions  # noqa: E402
from sheetbridge.core.rng import Rng  # noqa: E402
from sheetbridge.orchestrator import PlayerInfo, fill_submission, load, new_game, open_store, resolve  # noqa: E402
from sheetbridge.sheets import xlsx as X  # noqa: E402
from sheetbridge.sheets.xlsx import XlsxStore  # noqa: E402

GAME = "three-modular-rooms"
NAMES = ["Ann", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou", "Max", "Ned", "Oz",
         "Pia", "Quin", "Rae", "Sam", "Tia", "Uma", "Vic", "Wes", "Xia", "Yul", "Zoe", "Abe", "Bea", "Cal", "Dot"]


def game_at_round(folder: Path, players: int, round_no: int) -> None:
    """A game in `folder` whose open round is `round_no`, with every player's entries typed in."""
    store = XlsxStore(folder)
    names = NAMES[:players]
    new_game(GAME, [PlayerInfo(n, "", 20) for n in names], store, seed=1, folder=folder)
    rng = Rng.from_seed(1, "bench")
    while True:
        ld = load(store)
        for p, raw in random_submissions(ld.match, rng).items():
            fill_submission(store, ld, p, raw)
        if ld.match.round == round_no:
            return
        resolve(store)


def floor(folder: Path) -> float:
    files = sorted(folder.rglob("*.xlsx"))
    t = time.perf_counter()
    for f in files:
        openpyxl.load_workbook(f).save(f)
    return time.perf_counter() - t


class WriteCounter:
    """Counts the resolve's book writes: whole books (every existing tab given) or some tabs only."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self._write = X.XlsxBook.write

    def __enter__(self) -> "WriteCounter":
        counter, original = self, self._write

        def write(book, tabs):
            kind = "whole" if set(book.tab_names()) <= set(tabs) else "partial"
            counter.counts[kind] += 1
            return original(book, tabs)
        X.XlsxBook.write = write
        return self

    def __exit__(self, *exc) -> None:
        X.XlsxBook.write = self._write


def timed_resolve(folder: Path) -> float:
    store = open_store(folder)   # as the CLI opens it (the game's id from sheetbridge.json)
    t = time.perf_counter()
    res = resolve(store)
    elapsed = time.perf_counter() - t
    assert res.action == "resolved", res.message
    return elapsed


def rate() -> float:
    n = 0
    t = time.perf_counter()
    rng = Rng.from_seed(2, "bench")
    names = NAMES[:9]
    while time.perf_counter() - t < 2.0:
        m = Match.new(GAME, names, seed=n, garnets={p: 20 for p in names})
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
    args = ap.parse_args()
    print(f"{GAME}: offline resolve against the openpyxl floor (load + save of the same files); "
          f"medians of {args.repeat} interleaved runs")
    with tempfile.TemporaryDirectory() as tmp:
        for players in args.players:
            for round_no in args.rounds:
                pristine = Path(tmp) / f"p{players}-r{round_no}"
                game_at_round(pristine, players, round_no)
                nfiles = len(list(pristine.rglob("*.xlsx")))
                counter = WriteCounter()
                run = Path(tmp) / "run"
                shutil.copytree(pristine, run)
                with counter:                      # a warm-up run that also counts the kinds of writes
                    timed_resolve(run)
                shutil.rmtree(run)
                resolves, floors = [], []
                for _ in range(args.repeat):
                    for measure, into in ((timed_resolve, resolves), (floor, floors)):
                        shutil.copytree(pristine, run)
                        into.append(measure(run))
                        shutil.rmtree(run)
                r, f = statistics.median(resolves), statistics.median(floors)
                writes = ", ".join(f"{n} {kind}" for kind, n in sorted(counter.counts.items()))
                print(f"  {players:2d} players, round {round_no:2d}, {nfiles:2d} files: resolve {r:.3f} s, "
                      f"floor {f:.3f} s, ratio {r / f:.2f}x  (writes: {writes})")
    if args.rate:
        print(f"  pure resolver: {rate():.0f} rounds per second")


if __name__ == "__main__":
    main()
