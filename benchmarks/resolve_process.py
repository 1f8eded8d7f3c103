"""Time the whole `sheetbridge resolve` process against a whole process doing openpyxl's load and save
of the same files: 9 and 30 players, rounds 1 and 11 (issue 31's goal: at most 0.5x).

    python benchmarks/resolve_process.py [--repeat 7] [--players 9 30] [--rounds 1 11] [--also OLD_TREE]

What a host waits for is the command, not a warm process: the interpreter starting, the imports (the
game it plays, the libraries its path uses), reading every book, resolving, writing every changed
book. So both sides are whole processes started cold, one after the other on fresh copies of the same
pristine folder (a Three Modular Rooms game played up to that round, every player's entries typed in,
made by benchmarks/resolve_xlsx.py's ``game_at_round``):

- resolve: ``python -m sheetbridge.cli resolve FOLDER --quiet``, what the ``sheetbridge`` script runs;
- floor: ``python -c "import openpyxl; ..."`` loading and saving every .xlsx file of the folder.

Runs are interleaved (resolve, floor, resolve, floor...) and the medians compared, so a busy machine
slows both alike. ``--also OLD_TREE`` times another checkout's sheetbridge too, interleaved with this
one (``git archive main sheetbridge templates pyproject.toml | tar -x -C /tmp/old``): before and after
in one run. sheetbridge's bytecode is compiled first, as pip does when it installs a package.
"""
from __future__ import annotations

import argparse
import compileall
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from resolve_xlsx import game_at_round  # noqa: E402  (the same games as the warm benchmark)

GOAL_RATIO = 0.5   # the goal: the whole command within half the whole openpyxl process
FLOOR = ("import sys, openpyxl\n"
         "for f in sys.argv[1:]:\n"
         "    openpyxl.load_workbook(f).save(f)\n")


def _env(tree: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(tree)
    return env


def timed(pristine: Path, tmp: Path, tree: Path | None) -> tuple[float, float]:
    """(wall, CPU) seconds of one whole process on a fresh copy of `pristine`: sheetbridge's resolve (from
    `tree`), or the floor (None). The CPU time (user + system) varies less on a busy machine."""
    run = tmp / "run"
    shutil.copytree(pristine, run)
    try:
        if tree is None:
            argv = [sys.executable, "-c", FLOOR, *map(str, sorted(run.rglob("*.xlsx")))]
        else:
            argv = [sys.executable, "-m", "sheetbridge.cli", "resolve", str(run), "--quiet"]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        out = subprocess.run(argv, env=_env(tree or ROOT), cwd=tmp, capture_output=True, text=True)
        took = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if out.returncode != 0 or (tree is not None and "resolved and published" not in out.stdout):
            raise SystemExit(f"{argv[1:3]} failed: {out.stdout}{out.stderr}")
        return took, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    finally:
        shutil.rmtree(run)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--players", type=int, nargs="+", default=[9, 30])
    ap.add_argument("--rounds", type=int, nargs="+", default=[1, 11])
    ap.add_argument("--also", type=Path, help="another checkout's tree (holding sheetbridge/) timed alongside")
    args = ap.parse_args()
    trees = {"resolve": ROOT} | ({"before": args.also.resolve()} if args.also else {})
    for tree in trees.values():
        compileall.compile_dir(str(tree / "sheetbridge"), quiet=1)
    print(f"three-modular-rooms: the whole `sheetbridge resolve` process against the whole openpyxl process "
          f"(load + save of the same files); medians of {args.repeat} interleaved runs; goal: <= {GOAL_RATIO}x")
    with tempfile.TemporaryDirectory() as tmp:
        for players in args.players:
            for round_no in args.rounds:
                pristine = Path(tmp) / f"p{players}-r{round_no}"
                game_at_round(pristine, players, round_no)
                times: dict[str, list[tuple[float, float]]] = {"floor": [], **{label: [] for label in trees}}
                for _ in range(args.repeat):
                    for label, tree in trees.items():
                        times[label].append(timed(pristine, Path(tmp), tree))
                    times["floor"].append(timed(pristine, Path(tmp), None))
                med = {label: statistics.median(w for w, _ in t) for label, t in times.items()}
                cpu = {label: statistics.median(c for _, c in t) for label, t in times.items()}
                shown = ", ".join(f"{label} {med[label]:.3f} s ({med[label] / med['floor']:.2f}x; "
                                  f"CPU {cpu[label] / cpu['floor']:.2f}x)" for label in trees)
                ratio = med["resolve"] / med["floor"]
                print(f"  {players:2d} players, round {round_no:2d}: floor {med['floor']:.3f} s "
                      f"(CPU {cpu['floor']:.3f} s), {shown}; "
                      f"goal <= {GOAL_RATIO}x: {'ok' if ratio <= GOAL_RATIO else 'over'}", flush=True)


if __name__ == "__main__":
    main()
