"""Simulation speed: whole games a second per game, and the time for 10,000 games on all cores.

    python benchmarks/simulate_speed.py [--games 60] [--workers 2] [--repeat 3]
    python benchmarks/simulate_speed.py --full bugcatcher [--full skeld ...] [--workers 2]
    python benchmarks/simulate_speed.py --instructions bugcatcher [--games 10]

The first form prints, per game, the games per second of one process (median of `--repeat`
interleaved runs, wall clock; the CPU figure beside it is what the process got of a core, which
says how loaded the machine was) and the projected time of 10,000 games with `--workers`
processes, against the 60-second goal. `--full GAME` instead plays the real 10,000 games
(`--full-games`) with `simulate.play_games` on `--workers` processes and prints the time taken.
`--instructions GAME` counts the instructions of one game under valgrind's callgrind (the
difference between `--games` games and none after two warm-up games, so start-up is left out): a figure that does not
move with a neighbour's load, for comparing two versions of the code on a shared machine.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sheetbridge.api import games  # noqa: E402
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


def instructions_per_game(game_id: str, n_games: int) -> float:
    """Instructions of one whole game of `game_id` (one process, random strategy), by callgrind."""
    code = ("import sys\nsys.path.insert(0, sys.argv[1])\nfrom sheetbridge.simulate import play_games\n"
            "names = [f'P{i + 1}' for i in range(int(sys.argv[4]))]\n"
            "play_games(sys.argv[2], names, 2, seed='warm-up', workers=1)\n"   # imports, caches: not counted
            "n = int(sys.argv[3])\nplay_games(sys.argv[2], names, n, seed='instructions', workers=1) if n else None\n")
    root = str(Path(__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONHASHSEED": "0"}

    def count(n: int) -> int:
        out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                              "-c", code, root, game_id, str(n), str(len(players(game_id)))],
                             env=env, capture_output=True, text=True, check=True)
        return int(re.search(r"Collected : (\d+)", out.stderr).group(1))

    return (count(n_games) - count(0)) / n_games


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=60, help="games per game and repetition")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--full", action="append", metavar="GAME", default=[],
                    help="play the real --full-games games of GAME on --workers processes (repeatable)")
    ap.add_argument("--full-games", type=int, default=10_000)
    ap.add_argument("--instructions", action="append", metavar="GAME", default=[],
                    help="count the instructions of one game of GAME with valgrind (repeatable)")
    args = ap.parse_args()
    if args.instructions:
        if shutil.which("valgrind") is None:
            ap.error("--instructions needs valgrind (Debian: apt-get install valgrind)")
        for g in args.instructions:
            if g not in games():
                ap.error(f"unknown game {g}; games: {', '.join(games())}")
            n = min(args.games, 20)
            print(f"{g:22} {instructions_per_game(g, n) / 1e6:8.1f} M instructions a game "
                  f"(callgrind, {n} games)", flush=True)
        return
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
