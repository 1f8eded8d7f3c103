"""What players read at the end of played games: host instructions, "none", repeated lines, "(s)".

    python benchmarks/host_text.py [--seeds 12]

Plays every built-in game with random submissions (`play_random`, seeds 0..N-1) and counts, in
the public board and every player's report (the texts the Board and Results tabs and the
announcement are drawn from), the lines that (a) speak to the host ("for the host", "Pending"),
(b) say "none" of a winner or loser ("Winner(s): none"), (c) repeat a line of the same block (or say it again at more length), or a whole block,
(d) write a count as "N thing(s)". Issue 27.6 brought each to 0; run it on an older checkout
(PYTHONPATH=that/checkout) to see the before.
"""
from __future__ import annotations

import argparse
import re
from collections import Counter

from sheetbridge.api import play_random

GAMES = {"three-modular-rooms": 9, "skeld": 4, "bugcatcher": 9, "big-machine": 4, "flickering-lights": 7}
COLUMNS = ("lines", "host instruction", "'none'", "repeated line", "repeated block", "'(s)'")
NAMES = ["Ann", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy"]


def count(report, seen: Counter) -> None:
    keys, heading = [], ""
    for b in report.blocks:   # a block again under the same round heading (or with none)
        heading = (re.match(r"Round \d+", b.title) or [heading])[0]
        keys.append((heading, b.title, b.lines, b.grid))
    seen["repeated block"] += len(keys) - len(set(keys))
    for block in report.blocks:
        lines = list(block.lines)
        seen["lines"] += len(lines)
        seen["host instruction"] += sum(1 for x in lines if "for the host" in x or x.startswith("Pending"))
        seen["'none'"] += sum(1 for x in lines if re.match(r"(Winner|Loser)\(s\): none", x))
        seen["repeated line"] += len(lines) - len(set(lines)) + sum(   # or said again at more length
            1 for a in lines for b in lines if a != b and a.startswith(("Winner: ", "Elimination Candidate: "))
            and b.startswith((a + " ", a + ",")))
        seen["'(s)'"] += sum(1 for x in lines if re.search(r"\d+ \w+\(s\)", x))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=12)
    args = ap.parse_args()
    total: Counter = Counter()
    for game, n in GAMES.items():
        seen: Counter = Counter()
        for seed in range(args.seeds):
            m = play_random(game, NAMES[:n], seed=seed)
            count(m.public_report(), seen)
            for p in m.players:
                count(m.player_report(p), seen)
        total.update(seen)
        print(f"{game:20} " + ", ".join(f"{k} {seen[k]}" for k in
                                         COLUMNS))
    print(f"{'all':20} " + ", ".join(f"{k} {total[k]}" for k in
                                     COLUMNS))


if __name__ == "__main__":
    main()
