"""Simulated games on a Dask cluster: time, and each worker's peak memory, against the number of games.

    python benchmarks/simulate_cluster.py [--game three-modular-rooms] [--players 3]
                                          [--games 2000 --games 20000] [--workers 2]
    python benchmarks/simulate_cluster.py --cluster tcp://HOST:8786 --games 100000

Without --cluster, each run starts a fresh local cluster of `--workers` worker processes (one
thread each), so a worker's peak resident memory (getrusage's maxrss, read on the worker) is that
run's alone. A worker holds a few chunks of games at a time whatever the number of games, so its
peak should stay nearly flat as the games grow tenfold (what grows a little is Dask's own record of
finished tasks); the client holds one row a game.
Measured (2 worker processes, three-modular-rooms, 3 players, a loaded 2-core machine):
1,000 games 112 MiB a worker, 10,000 games 120 MiB, 30,000 games 132 MiB; 675 client bytes a game.
"""
from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sheetbridge.simulate import play_games  # noqa: E402


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024   # Linux: KiB


def run(address: str, game: str, players: list[str], n: int) -> tuple[float, list[float], float]:
    from distributed import Client
    t = time.perf_counter()
    df = play_games(game, players, n, seed="cluster-bench", cluster=address)
    took = time.perf_counter() - t
    assert len(df) == n
    with Client(address) as client:
        peaks = sorted(client.run(peak_rss_mib).values())
    return took, peaks, df.memory_usage(deep=True).sum() / n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--game", default="three-modular-rooms")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", type=int, action="append", default=[])
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--cluster", default=None, help="an existing scheduler's address (else a local cluster each run)")
    args = ap.parse_args()
    players = [f"P{i + 1}" for i in range(args.players)]
    print(f"{'games':>9} {'seconds':>8} {'games/s':>8}  worker peak RSS (MiB)   client bytes a game")
    for n in args.games or [2000, 20000]:
        if args.cluster:
            took, peaks, per_row = run(args.cluster, args.game, players, n)
        else:
            from distributed import LocalCluster
            with LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                              dashboard_address=None) as c:
                took, peaks, per_row = run(c.scheduler_address, args.game, players, n)
        print(f"{n:9,} {took:8.1f} {n / took:8.1f}  {', '.join(f'{p:.0f}' for p in peaks):>22}   {per_row:8.0f}",
              flush=True)


if __name__ == "__main__":
    main()
