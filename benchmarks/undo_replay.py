"""How many undos a game refuses ("replaying round N gave a different result than recorded").

    python benchmarks/undo_replay.py [--games 20] [--rounds 3]

For each game, plays ``--games`` games with the pure API: every round, each player's legal entries
(the game's random play), each cell typed in fullwidth or padded half of the time, as a Japanese
keyboard or a careless player types it; after each round the match goes through its record's
JSON, as the master stores it, and the round is undone and resolved again, which must give the
same public and private reports. Prints, per game, the undos tried and refused. No files: the
file-level property is tests/test_undo_fuzz.py.
"""
from __future__ import annotations

import argparse
import json
import random

from sheetbridge.core.errors import SheetbridgeError
from sheetbridge.api import games, load_match, new_match
from sheetbridge.core.match import Match, _canon
from sheetbridge.core.rng import Rng

FULLWIDTH = {ord(c): ord(c) + 0xFEE0 for c in "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-"}


def players_of(game_id: str) -> list[str]:
    spec = games()[game_id].spec
    return ["Ann", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy"][:spec.min_players]


def dressed(raw: dict, pick: random.Random) -> dict:
    def cell(text: str) -> str:
        roll = pick.random()
        return text.translate(FULLWIDTH) if roll < 0.4 else f" {text}\u3000" if roll < 0.5 else text
    return {sec: [{k: cell(str(v)) for k, v in row.items()} for row in rows] for sec, rows in raw.items()}


def through_the_record(m: Match) -> Match:
    """The match as the next command loads it: its record's JSON, keys sorted as the Record tab has them."""
    return load_match(json.loads(json.dumps(m.to_json(), sort_keys=True)))


def play(game_id: str, seed: int, rounds: int) -> tuple[int, int]:
    players = players_of(game_id)
    m = new_match(game_id, players, seed=seed, garnets={p: 10 for p in players})
    pick, tried, refused = random.Random(seed), 0, 0
    for _ in range(rounds):
        if m.finished:
            break
        rng = Rng.from_seed(seed, "players", m.round)
        raw = {p: dressed(m.game.random_submission(m.state, p, rng.fork("player", p)), pick) for p in players}
        first = m.resolve(raw)
        want = (_canon(first.public), _canon(first.private))
        m = through_the_record(m)
        tried += 1
        try:
            m.undo()
        except SheetbridgeError:
            refused += 1
            m = load_match(json.loads(json.dumps(m.to_json(), sort_keys=True)))
            continue
        again = m.resolve(raw)
        if (_canon(again.public), _canon(again.private)) != want:
            raise SystemExit(f"{game_id} seed {seed}: undo then resolve gave another round")
    return tried, refused


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    total = [0, 0]
    for game_id in sorted(games()):
        tried = refused = 0
        for seed in range(args.games):
            t, r = play(game_id, seed, args.rounds)
            tried, refused = tried + t, refused + r
        total[0] += tried
        total[1] += refused
        print(f"{game_id:22} undos {tried:4}  refused {refused:4}")
    print(f"{'all':22} undos {total[0]:4}  refused {total[1]:4}")


if __name__ == "__main__":
    main()
