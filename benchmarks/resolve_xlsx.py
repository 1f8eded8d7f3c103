"""Time one resolve of a 9-player game at round 11 against the openpyxl floor.

    python benchmarks/resolve_xlsx.py [--repeat 3]

Prints: the resolve time (read every file, resolve, write every changed file), the floor (just
loading and saving the same files with openpyxl), and the pure resolver's rounds per second.
"""
import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import openpyxl  # noqa: E402

from sheetbridge.core.match import Match, random_submissions  # noqa: E402
from sheetbridge.core.rng import Rng  # noqa: E402
from sheetbridge.orchestrator import PlayerInfo, fill_submission, load, new_game, resolve  # noqa: E402
from sheetbridge.sheets.xlsx import XlsxStore  # noqa: E402

GAME = "three-modular-rooms"
NAMES = ["Ann", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy"]


def game_at_round_11(folder: Path) -> XlsxStore:
    store = XlsxStore(folder)
    new_game(GAME, [PlayerInfo(n, "", 20) for n in NAMES], store, seed=1)
    rng = Rng.from_seed(1, "bench")
    while True:
        ld = load(store)
        subs = random_submissions(ld.match, rng)
        for p, raw in subs.items():
            fill_submission(store, ld, p, raw)
        if ld.match.round == 11:
            return store
        resolve(store)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    resolve_times, floor_times = [], []
    for _ in range(args.repeat):
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            store = game_at_round_11(folder)
            files = sorted(folder.rglob("*.xlsx"))
            t = time.perf_counter()
            for f in files:
                openpyxl.load_workbook(f).save(f)
            floor_times.append(time.perf_counter() - t)
            store = game_at_round_11(Path(tempfile.mkdtemp(dir=tmp)))
            t = time.perf_counter()
            res = resolve(store)
            resolve_times.append(time.perf_counter() - t)
            assert res.action == "resolved", res.message
    n = 0
    t = time.perf_counter()
    rng = Rng.from_seed(2, "bench")
    while time.perf_counter() - t < 2.0:
        m = Match.new(GAME, NAMES, seed=n, garnets={p: 20 for p in NAMES})
        while not m.finished:
            m.resolve(random_submissions(m, rng))
            n += 1
    rate = n / (time.perf_counter() - t)
    print(f"{GAME}, 9 players, resolve of round 11 over {len(files)} xlsx files:")
    print(f"  resolve (read all, resolve, write changed): best {min(resolve_times):.3f} s, "
          f"median {sorted(resolve_times)[len(resolve_times) // 2]:.3f} s")
    print(f"  floor (openpyxl load + save of the same files): best {min(floor_times):.3f} s")
    print(f"  ratio: {min(resolve_times) / min(floor_times):.2f}x the floor")
    print(f"  pure resolver: {rate:.0f} rounds per second")


if __name__ == "__main__":
    main()
