"""How long `sheetbridge --help` and `sheetbridge games` take to start, against `python -c pass`.

    python benchmarks/cli_startup.py [--repeat 15]

Runs each command in a fresh interpreter ``--repeat`` times and prints the median wall time
and its ratio to an empty interpreter's (the ratio travels between machines better than the
seconds), then the modules each command spent most on importing (``python -X importtime``).
sheetbridge's own bytecode is compiled first, as pip does when it installs a package (an
environment with PYTHONDONTWRITEBYTECODE would otherwise recompile it on every run).
Commands are loaded lazily (sheetbridge/cli/__init__.py): `--help` imports click and the
command modules only, `games` the game registry too; tests/test_cli_startup.py checks which
modules load, never how long it takes.
"""
from __future__ import annotations

import argparse
import compileall
import os
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


GOAL_MS = 150   # the goal for each command


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(ROOT)
    return env


def median_seconds(args: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run([sys.executable, *args], env=_env(), cwd=ROOT, stdout=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


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
    args = parser.parse_args()
    compileall.compile_dir(str(ROOT / "sheetbridge"), quiet=1)
    base = median_seconds(COMMANDS["python -c pass"], args.repeat)
    print(f"median of {args.repeat} runs, fresh interpreter each:")
    for label, argv in COMMANDS.items():
        took = base if label == "python -c pass" else median_seconds(argv, args.repeat)
        goal = "" if label == "python -c pass" else \
            f"   goal {GOAL_MS} ms: {'ok' if took * 1000 <= GOAL_MS else 'over'}"
        print(f"  {label:<20} {took * 1000:7.0f} ms   {took / base:5.1f} x python -c pass{goal}")
    for label in ("sheetbridge --help", "sheetbridge games"):
        shown = ", ".join(f"{name} {us / 1000:.0f} ms" for us, name in slowest_imports(COMMANDS[label]))
        print(f"  slowest imports of {label}: {shown}")


if __name__ == "__main__":
    main()
