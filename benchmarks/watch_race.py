"""`sheetbridge watch` running beside CLI commands on one xlsx game, as real processes: rounds lost.

    python benchmarks/watch_race.py [--commands 20] [--watchers 1] [--interval 0.05] [--code DIR]
    python benchmarks/watch_race.py --requests 4 --watchers 2      # menu requests, two watchers

Starts ``--watchers`` watcher processes on a fresh Three Modular Rooms game (``--interval 5`` and
up: the real `sheetbridge watch`; below 5, a loop of `Watcher.poll` that fast), then runs
``--commands`` CLI commands one after another, `resolve --allow-empty` and `undo` in turn. After
each command that said it resolved or undid a round it waits a moment (longer than a poll) and
reads the master: a round the command reported but the master does not hold is lost. With
``--requests N`` it instead queues N menu Resolve requests in the Control tab one at a time and
counts requests answered "done" whose round the master does not hold, and requests run twice.
Watchers that crash are counted. ``--code DIR`` runs another copy of the package (for instance
an older commit: ``git archive COMMIT sheetbridge | tar -x -C DIR``). Prints one line of counts.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = [sys.executable]

FAST_WATCHER = """
import sys, time
from sheetbridge.sheets.xlsx import XlsxStore
from sheetbridge.core.errors import SheetbridgeError
from sheetbridge.host.watch import Watcher
w = Watcher(XlsxStore(sys.argv[1]), interval=float(sys.argv[2]), watcher_id=sys.argv[3],
            log=lambda line: print(line, flush=True))
while True:
    try:
        for line in w.poll():
            print(line, flush=True)
    except SheetbridgeError as e:
        print("error:", e, flush=True)
    time.sleep(w.interval)
"""


def sheetbridge(env: dict, *args) -> str:
    res = subprocess.run([*PY, "-m", "sheetbridge.cli", *map(str, args)], env=env, capture_output=True,
                         text=True)
    return res.stdout + res.stderr


def rounds_in_master(env: dict, folder: Path) -> int:
    code = ("import sys; from sheetbridge.host.session import load; from sheetbridge.sheets.xlsx import XlsxStore;"
            "print(len(load(XlsxStore(sys.argv[1])).match.rounds))")
    out = subprocess.run([*PY, "-c", code, str(folder)], env=env, capture_output=True, text=True)
    return int(out.stdout.strip()) if out.stdout.strip().isdigit() else -1


def start_watchers(env: dict, folder: Path, n: int, interval: float, logs: Path) -> list[subprocess.Popen]:
    procs = []
    for i in range(n):
        log = open(logs / f"watcher-{i}.log", "w")
        if interval >= 5:
            cmd = [*PY, "-m", "sheetbridge.cli", "watch", str(folder), "--interval", str(interval)]
        else:
            cmd = [*PY, "-c", FAST_WATCHER, str(folder), str(interval), f"w{i}"]
        procs.append(subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT))
    time.sleep(3)                      # every watcher has polled (and the Control tab exists)
    return procs


def commands_race(env: dict, folder: Path, n: int, settle: float) -> dict:
    counts = {"commands": 0, "reported": 0, "lost": 0, "busy": 0}
    expected = rounds_in_master(env, folder)
    for i in range(n):
        command = "resolve" if i % 2 == 0 else "undo"
        out = sheetbridge(env, command, folder, *(["--allow-empty", "--quiet"] if command == "resolve" else []))
        counts["commands"] += 1
        if "another sheetbridge is working" in out:
            counts["busy"] += 1
            continue
        if "resolved and published" in out or "undone" in out:
            counts["reported"] += 1
            expected += 1 if command == "resolve" else -1
        time.sleep(settle)
        actual = rounds_in_master(env, folder)
        if actual != expected:
            counts["lost"] += 1
            expected = actual
    return counts


def requests_race(env: dict, folder: Path, n: int, settle: float, wait: float = 60.0) -> dict:
    counts = {"requests": 0, "done": 0, "done but lost": 0, "ran twice": 0, "not answered": 0}
    queue = ("import sys; from sheetbridge.host import control as C; from sheetbridge.sheets.xlsx import XlsxStore;"
             "from sheetbridge.sheets.store import MASTER\n"
             "s = XlsxStore(sys.argv[1]); m = s.open(MASTER, 'master.xlsx')\n"
             "with s.lock('host typing a request'):\n"
             "    rect = m.read([C.TAB])[C.TAB]; row = max(C.FIRST_REQUEST_ROW, len(rect) + 1)\n"
             "    m.update_cells(C.TAB, {(row, i + 1): v for i, v in enumerate([sys.argv[2], 'resolve', sys.argv[3], "
             "'host', '2026-01-01T00:00:00Z', 'queued'])})\n")
    status = ("import sys; from sheetbridge.host import control as C; from sheetbridge.sheets.xlsx import XlsxStore;"
              "from sheetbridge.sheets.store import MASTER\n"
              "m = XlsxStore(sys.argv[1]).open(MASTER, 'master.xlsx')\n"
              "print(next((r.status for r in C.requests(m.read([C.TAB])[C.TAB]) if r.id == sys.argv[2]), ''))\n")
    for i in range(n):
        before = rounds_in_master(env, folder)
        rid = f"bench-{i}"
        while subprocess.run([*PY, "-c", queue, str(folder), rid, str(before + 1)], env=env,
                             capture_output=True).returncode:
            time.sleep(0.2)            # the game was busy: type it again
        counts["requests"] += 1
        t0 = time.monotonic()
        state = ""
        while time.monotonic() - t0 < wait:
            state = subprocess.run([*PY, "-c", status, str(folder), rid], env=env, capture_output=True,
                                   text=True).stdout.strip()
            if state in ("done", "failed", "refused"):
                break
            time.sleep(0.3)
        if state != "done":
            counts["not answered"] += 1
            continue
        counts["done"] += 1
        time.sleep(settle)
        after = rounds_in_master(env, folder)
        if after < before + 1:
            counts["done but lost"] += 1
        elif after > before + 1:
            counts["ran twice"] += 1
    return counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--commands", type=int, default=20)
    ap.add_argument("--requests", type=int, default=0)
    ap.add_argument("--watchers", type=int, default=1)
    ap.add_argument("--interval", type=float, default=0.05)
    ap.add_argument("--settle", type=float, default=1.5, help="seconds to wait before reading the master back")
    ap.add_argument("--code", type=Path, default=ROOT, help="the folder holding the sheetbridge package to run")
    args = ap.parse_args()
    env = dict(os.environ)
    if args.code.resolve() != ROOT:
        env["PYTHONPATH"] = os.pathsep.join([str(args.code.resolve()), env.get("PYTHONPATH", "")])
    work = Path(tempfile.mkdtemp(prefix="watch-race-"))
    os.chdir(work)                 # not this checkout: `python -c` would import the package from the cwd first
    folder = work / "game"
    out = sheetbridge(env, "new", "three-modular-rooms", "--players", "Ann,Bo,Cy,Dee,Eli,Fay", "--out", folder,
                      "--garnets", "10", "--option", "rounds=12", "--seed", "5")
    if not (folder / "master.xlsx").exists():
        sys.exit(f"could not create the game: {out}")
    procs = start_watchers(env, folder, args.watchers, args.interval, work)
    try:
        counts = (requests_race(env, folder, args.requests, args.settle) if args.requests
                  else commands_race(env, folder, args.commands, args.settle))
    finally:
        crashed = sum(p.poll() is not None for p in procs)
        for p in procs:
            p.terminate()
            p.wait()
    tracebacks = sum("Traceback" in (work / f"watcher-{i}.log").read_text() for i in range(args.watchers))
    print(f"code {args.code}: {args.watchers} watcher(s) every {args.interval:g} s: "
          + ", ".join(f"{k} {v}" for k, v in counts.items()) + f", watchers crashed {max(crashed, tracebacks)}"
          + f" (logs in {work})")


if __name__ == "__main__":
    main()
