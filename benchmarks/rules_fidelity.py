"""How often the end-of-game and trade facts of issue 29 come into play in seeded random games.

    python benchmarks/rules_fidelity.py [--games 100]

Three Modular Rooms (9 players): games ending with tied losers, so that the winners' ballots
(A31) decide the Elimination Candidate, and the ballots that takes. Skeld (4 players): the
rule that chose the Elimination Candidate and why no Parasite winner, from `MainMatchResult`.
Random players, so the figures say how often a case arises, not how real players play.
"""
from __future__ import annotations

import argparse
from collections import Counter

from sheetbridge.api import play_random
from sheetbridge.core.facts import of_type
from sheetbridge.games import skeld

NINE = ["Ann", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100)
    n = ap.parse_args().games
    tied = ballots = 0
    for seed in range(n):
        m = play_random("three-modular-rooms", NINE, seed=seed)
        if any(r.key == "ec-vote" for r in m.pending()):
            tied += 1
            ballots += len(m.outcome().winners)
    print(f"three-modular-rooms: {tied} of {n} games end with tied losers; {ballots} winners' ballots to enter")
    rules: Counter = Counter()
    no_pw: Counter = Counter()
    for seed in range(n):
        (res,) = of_type(play_random("skeld", NINE[:4], seed=seed).outcome().facts, skeld.MainMatchResult)
        rules[res.ec_rule or "pending"] += 1
        no_pw[res.no_parasite_winner or "parasite won"] += 1
    print(f"skeld: EC rule {dict(rules.most_common())}; Parasite winner {dict(no_pw.most_common())}")


if __name__ == "__main__":
    main()
