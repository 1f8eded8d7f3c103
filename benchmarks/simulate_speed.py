"""Simulation speed: whole games a second per game, and the time for 10,000 games on all cores.

    python benchmarks/simulate_speed.py [--games 60] [--workers 2] [--repeat 3]
    python benchmarks/simulate_speed.py --full bugcatcher [--full skeld ...] [--workers 2]

The first form prints, per game, the games per second of one process (median of `--repeat`
interleaved runs, wall clock; the CPU figure beside it is what the process got of a core, which
says how loaded the machine was) and the projected time of 10,000 games with `--workers`
processes, against the 60-second goal. `--full GAME` instead plays the real 10,000 games
(`--full-games`) with `simulate.play_games` on `--workers` processes and prints the time taken.
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

GOAL_SECONDS = 60


def players(game_id: str) -> list[str]:
    spec = games()[game_id].spec
    return [f"P{i + 1}" for i in range(spec.recommended_players or spec.min_players)]


def rates(ids: list[str], n_games: int, repeat: int) -> tuple[dict[str, list[float]], dict[str, list[float]]]:
    """Games a second of one process per game, by wall clock and by CPU time, one figure per repetition."""
    wall: dict[str, list[float]] = {g: [] for g in ids}
    cpu: dict[str, list[float]] = {g: [] for g in ids}
    for r in range(repeat):              # interleaved: every game once per repetition
        for g in ids:
            t, c = time.perf_counter(), time.process_time()
            play_games(g, players(g), n_games, seed=f"bench{r}", workers=1)
            wall[g].append(n_games / (time.perf_counter() - t))
            cpu[g].append(n_games / (time.process_time() - c))
    return wall, cpu


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=60, help="games per game and repetition")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--full", action="append", metavar="GAME", default=[],
                    help="play the real --full-games games of GAME on --workers processes (repeatable)")
    ap.add_argument("--full-games", type=int, default=10_000)
    args = ap.parse_args()
    if args.full:
        unknown = [g for g in args.full if g not in games()]
        if unknown:
            ap.error(f"unknown game(s) {', '.join(unknown)}; games: {', '.join(games())}")
        print(f"{'game':22} {str(args.full_games) + ' games, ' + str(args.workers) + ' workers':>26} "
              f"{'games/s':>9}  goal {GOAL_SECONDS} s")
        for g in args.full:
            t = time.perf_counter()
            df = play_games(g, players(g), args.full_games, seed="full", workers=args.workers)
            took = time.perf_counter() - t
            assert len(df) == args.full_games
            print(f"{g:22} {took:24.1f} s {args.full_games / took:9.1f}  "
                  f"{'ok' if took <= GOAL_SECONDS else 'over'}", flush=True)
        return
    ids = list(games())
    wall, cpu = rates(ids, args.games, args.repeat)
    print(f"{'game':22} {'games/s (1 process)':>20} {'CPU games/s':>12} "
          f"{'10,000 games, ' + str(args.workers) + ' workers':>26}  goal {GOAL_SECONDS} s")
    for g in ids:
        rate = statistics.median(wall[g])
        projected = 10_000 / (rate * args.workers)
        print(f"{g:22} {rate:20.1f} {statistics.median(cpu[g]):12.1f} {projected:24.0f} s  "
              f"{'ok' if projected <= GOAL_SECONDS else 'over'}")


if __name__ == "__main__":
    main()
