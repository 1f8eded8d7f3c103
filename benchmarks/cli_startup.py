"""How long `sheetbridge --help` and `sheetbridge games` take to start, against `python -c pass`.

    python benchmarks/cli_startup.py [--repeat 15]   (goal: <= 0.15 s and <= 5x `python -c pass`, issue 31)

Runs each command in a fresh interpreter ``--repeat`` times, interleaved (``--also OLD_TREE``: another
checkout's commands too, for before and after in one run), and prints the median wall time
and its ratio to an empty interpreter's (the ratio travels between machines better than the
seconds), then the modules each command spent most on importing (``python -X importtime``).
sheetbridge's own bytecode is compiled first, as pip does when it installs a package (an
environment with PYTHONDONTWRITEBYTECODE would otherwise recompile it on every run).
Commands are loaded lazily (sheetbridge/cli/__init__.py): `--help` imports click alone (it lists the
commands from their first sentences, importing none of them), `games` the game registry and each game's
light spec chapter too (and importlib.metadata only when an installed package may declare a game:
sheetbridge/plugins.py); tests/test_cli_startup.py checks which modules load, never how long it takes.
"""
from __future__ import annotations

import argparse
import compileall
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = {
    "python -c pass": ["-c", "pass"],
    "sheetbridge --help": ["-m", "sheetbridge.cli", "--help"],
    "sheetbridge games": ["-m", "sheetbridge.cli", "games"],
}


GOAL_MS = 150     # the goals for each command (issue 31): at most 0.15 s...
GOAL_RATIO = 5.0  # ...and at most 5x an empty interpreter


def _env(tree: Path = ROOT) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(tree)
    return env


def seconds(args: list[str], tree: Path = ROOT) -> tuple[float, float]:
    """(wall, CPU) seconds of one run: the CPU time (user + system) varies less on a busy machine."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    # (run in `tree`: `-m` puts the working directory first on the path)
    subprocess.run([sys.executable, *args], env=_env(tree), cwd=tree, stdout=subprocess.DEVNULL, check=True)
    took = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return took, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def slowest_imports(args: list[str], top: int = 6) -> list[tuple[int, str]]:
    """(cumulative microseconds, module) of the top-level imports that took longest."""
    out = subprocess.run([sys.executable, "-X", "importtime", *args], env=_env(), cwd=ROOT,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=True)
    rows = []
    for line in out.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            name = parts[2].rstrip()
            if not name.startswith("   "):            # imported by the command itself, not by a module
                rows.append((int(parts[1]), name.strip()))
    return sorted(rows, reverse=True)[:top]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--also", type=Path, help="another checkout's tree (holding sheetbridge/) timed alongside, "
                                                   "as `before` (git archive main sheetbridge ... | tar -x -C DIR)")
    args = parser.parse_args()
    trees = {"": ROOT} | ({" (before)": args.also.resolve()} if args.also else {})
    for tree in trees.values():
        compileall.compile_dir(str(tree / "sheetbridge"), quiet=1)
    runs = [(label + suffix, argv, tree) for label, argv in COMMANDS.items()
            for suffix, tree in (trees.items() if label != "python -c pass" else [("", ROOT)])]
    times: dict[str, list[tuple[float, float]]] = {label: [] for label, _, _ in runs}
    for _ in range(args.repeat):          # interleaved: a busy machine slows every command alike
        for label, argv, tree in runs:
            times[label].append(seconds(argv, tree))
    wall = {label: statistics.median(w for w, _ in t) for label, t in times.items()}
    cpu = {label: statistics.median(c for _, c in t) for label, t in times.items()}
    base, base_cpu = wall["python -c pass"], cpu["python -c pass"]
    print(f"median of {args.repeat} interleaved runs, fresh interpreter each; "
          f"goal: <= {GOAL_MS / 1000:g} s and <= {GOAL_RATIO:g}x python -c pass (wall time)")
    for label, _, _ in runs:
        took = wall[label]
        ok = took * 1000 <= GOAL_MS and took / base <= GOAL_RATIO
        goal = "" if label == "python -c pass" else f"   {'ok' if ok else 'over'}"
        print(f"  {label:<29} {took * 1000:7.0f} ms   {took / base:5.1f} x python -c pass   "
              f"(CPU {cpu[label] * 1000:4.0f} ms, {cpu[label] / base_cpu:4.1f}x){goal}")
    for label in ("sheetbridge --help", "sheetbridge games"):
        shown = ", ".join(f"{name} {us / 1000:.0f} ms" for us, name in slowest_imports(COMMANDS[label]))
        print(f"  slowest imports of {label}: {shown}")


if __name__ == "__main__":
    main()
