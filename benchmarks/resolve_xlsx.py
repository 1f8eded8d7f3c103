"""Time an offline resolve against two floors: 9 and 30 players, rounds 1 and 11.

    python benchmarks/resolve_xlsx.py [--repeat 7] [--players 9 30] [--rounds 1 11] [--rate]

For each case a Three Modular Rooms game is played up to that round (every player's entries typed
in) and kept as a pristine folder; a resolve of a copy tells which files the round changes (kept
as they are after it). Each repeat times, one after the other, each on fresh copies:

- resolve: one `host.resolve.resolve` on the folder opened as the CLI opens it (read every file,
  resolve, write every changed file, draw the board's picture);
- physical floor: what no resolve can avoid, measured here: read every .xlsx file of the folder
  (a resolve reads every book: what the players typed, and what each tab shows, to write only
  what changed), inflate every part and parse its XML (expat, no handler: the least a parse is);
  then deflate every part of each file the resolve changes, as it is after the resolve (zlib's
  default level, the one the books are written with). Issue 31's goal: a warm resolve within 2.5x.
- openpyxl floor: openpyxl loading and saving every .xlsx file of the same folder, nothing else
  (the goal of issue 22: at most 0.5x).

Each is timed in a fresh Python process, warmed up first by the same work on another, small game
(imports, templates and fonts loaded, as in any process that has resolved once): no cache or
garbage of one timed run helps or hurts another. Prints the medians and the ratios, of the wall
clock and of the process's CPU time (steadier when other processes share the cores), and how many
of the resolve's writes replaced whole books (the fast writer) or only some tabs (openpyxl).
`--rate` adds the pure resolver's rounds per second.
"""
from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GAME = "three-modular-rooms"
NAMES = ["Ann", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou", "Max", "Ned", "Oz",
         "Pia", "Quin", "Rae", "Sam", "Tia", "Uma", "Vic", "Wes", "Xia", "Yul", "Zoe", "Abe", "Bea", "Cal", "Dot"]


GOAL_RATIO = 0.5   # issue 22's goal: a resolve takes at most half the openpyxl floor
GOAL_PHYSICAL = 2.5   # issue 31's goal: a warm resolve within 2.5x the physical floor
CHANGED = "changed.json"   # (in a physical floor's folder: the files the resolve changes, their parts after it)


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

def clock() -> tuple[float, float]:
    """Wall-clock and CPU seconds (the CPU time of this process: steadier on a busy machine)."""
    return time.perf_counter(), time.process_time()


def since(start: tuple[float, float]) -> tuple[float, float]:
    now = clock()
    return now[0] - start[0], now[1] - start[1]


def time_floor(folder: Path) -> tuple[float, float]:
    import openpyxl
    files = sorted(folder.rglob("*.xlsx"))
    t = clock()
    for f in files:
        openpyxl.load_workbook(f).save(f)
    return since(t)


def time_physical(folder: Path) -> tuple[float, float]:
    """The physical floor (see the module's text): `folder` holds the game before the resolve, and
    in CHANGED the files the resolve changes, as they are after it."""
    import zlib
    from xml.parsers import expat
    after = json.loads((folder / CHANGED).read_text())
    files = sorted(f for f in folder.rglob("*.xlsx") if f.relative_to(folder).parts[0] != "after")
    written = [folder / "after" / name for name in after]
    t = clock()
    for f in files:
        with zipfile.ZipFile(f) as z:
            for info in z.infolist():
                part = z.read(info)
                if info.filename.endswith((".xml", ".rels")):
                    expat.ParserCreate().Parse(part, True)
    for f in written:
        with zipfile.ZipFile(f) as z:
            parts = [z.read(info) for info in z.infolist()]
        for part in parts:
            c = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -15)
            c.compress(part)
            c.flush()
    return since(t)


def with_after(pristine: Path, changed: Path) -> Path:
    """A copy of `pristine` for the physical floor: the files the resolve changes as they are after
    it in after/, their names in CHANGED."""
    folder = pristine.parent / f"{pristine.name}-physical"
    if not folder.exists():
        shutil.copytree(pristine, folder)
        names = sorted(str(f.relative_to(changed)) for f in changed.rglob("*.xlsx")
                       if not (pristine / f.relative_to(changed)).exists()
                       or (pristine / f.relative_to(changed)).read_bytes() != f.read_bytes())
        for name in names:
            (folder / "after" / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(changed / name, folder / "after" / name)
        (folder / CHANGED).write_text(json.dumps(names))
    return folder


def time_resolve(folder: Path) -> tuple[float, float]:
    from sheetbridge.host.resolve import resolve
    from sheetbridge.host.session import open_store
    t = clock()
    res = resolve(open_store(folder))   # as the CLI opens it (the game's id from sheetbridge.json)
    elapsed = since(t)
    assert res.action == "resolved", res.message
    return elapsed


def timed(kind: str, pristine: Path, warm: Path, tmp: Path) -> tuple[float, float]:
    """One run in a fresh process: the same work on a copy of `warm` first, then timed on a copy of `pristine`."""
    run, warm_run = tmp / "run", tmp / "warm"
    shutil.copytree(pristine, run)
    shutil.copytree(warm, warm_run)
    try:
        out = subprocess.run([sys.executable, __file__, "--time", kind, str(warm_run), str(run)],
                             capture_output=True, text=True, check=True).stdout
        wall, cpu = out.split()[-2:]
        return float(wall), float(cpu)
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
        measure = {"floor": time_floor, "physical": time_physical, "resolve": time_resolve}[kind]
        measure(Path(warm))
        print(*measure(Path(folder)))
        return
    print(f"{GAME}: offline resolve against the physical floor (inflate and parse what is read, deflate what is "
          f"written; goal <= {GOAL_PHYSICAL}x) and the openpyxl floor (load + save of the same files; goal <= "
          f"{GOAL_RATIO}x); medians of {args.repeat} interleaved runs, each in a fresh process, warmed up")
    with tempfile.TemporaryDirectory() as tmp:
        warm = Path(tmp) / "warm-up"
        game_at_round(warm, 3, 1, seed=2)
        run = Path(tmp) / "count"
        shutil.copytree(warm, run)
        count_writes(run)
        warm_physical = with_after(warm, run)
        shutil.rmtree(run)
        for players in args.players:
            for round_no in args.rounds:
                pristine = Path(tmp) / f"p{players}-r{round_no}"
                game_at_round(pristine, players, round_no)
                nfiles = len(list(pristine.rglob("*.xlsx")))
                shutil.copytree(pristine, run)
                counts = count_writes(run)
                physical = with_after(pristine, run)
                shutil.rmtree(run)
                resolves, floors, physicals = [], [], []
                for _ in range(args.repeat):
                    resolves.append(timed("resolve", pristine, warm, Path(tmp)))
                    physicals.append(timed("physical", physical, warm_physical, Path(tmp)))
                    floors.append(timed("floor", pristine, warm, Path(tmp)))
                writes = ", ".join(f"{n} {kind}" for kind, n in sorted(counts.items()))
                print(f"  {players:2d} players, round {round_no:2d}, {nfiles:2d} files (writes: {writes})")
                for i, what in enumerate(("wall clock", "CPU")):
                    r = statistics.median(t[i] for t in resolves)
                    f = statistics.median(t[i] for t in floors)
                    ph = statistics.median(t[i] for t in physicals)
                    print(f"    {what:10s}: resolve {r:.3f} s; physical floor {ph:.3f} s, ratio {r / ph:.2f}x "
                          f"(goal: <= {GOAL_PHYSICAL}x: {'ok' if r / ph <= GOAL_PHYSICAL else 'over'}); openpyxl floor "
                          f"{f:.3f} s, ratio {r / f:.2f}x (goal: <= {GOAL_RATIO}x: {'ok' if r / f <= GOAL_RATIO else 'over'})",
                          flush=True)
    if args.rate:
        print(f"  pure resolver: {rate():.0f} rounds per second")


if __name__ == "__main__":
    main()
