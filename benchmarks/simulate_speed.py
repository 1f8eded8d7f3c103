"""Simulation speed: whole games a second per game, and the time for 10,000 games on all cores.

    python benchmarks/simulate_speed.py [--games 200] [--workers 2]

Prints, per game, the games per second of one process (median of three interleaved runs)
and the projected time of 10,000 games with `--workers` processes, against the 60-second goal.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sheetbridge.core.game import games  # noqa: E402
from sheetbridge.simulate import play_games  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    ids = list(games())
    rates: dict[str, list[float]] = {g: [] for g in ids}
    for r in range(args.repeat):              # interleaved: every game once per repetition
        for g in ids:
            spec = games()[g].spec
            n = spec.recommended_players or spec.min_players
            t = time.perf_counter()
            play_games(g, [f"P{i + 1}" for i in range(n)], args.games, seed=f"bench{r}", workers=1)
            rates[g].append(args.games / (time.perf_counter() - t))
    print(f"{'game':22} {'games/s (1 process)':>20} {'10,000 games, ' + str(args.workers) + ' workers':>26}  goal 60 s")
    for g in ids:
        rate = statistics.median(rates[g])
        projected = 10_000 / (rate * args.workers)
        print(f"{g:22} {rate:20.1f} {projected:24.0f} s  {'ok' if projected <= 60 else 'over'}")


if __name__ == "__main__":
    main()
