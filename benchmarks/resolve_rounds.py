"""A round costs what the round changes: one resolve late in a game against one at round 1 (issue 31).

    python benchmarks/resolve_rounds.py [--repeat 5] [--players 30] [--rounds 1 60] [--google 9] [--skip-xlsx]

1. xlsx: a Three Modular Rooms game (host options rounds=80, cards not used up, so it lasts past its usual
   11 rounds) is brought to each round (the earlier rounds resolved in memory and written once, every
   player's entries typed in) and kept as a pristine folder. Each repeat times one `host.resolve.resolve`
   on a copy of each folder, the cases interleaved, each in a fresh Python process warmed up first by the
   same work on a small game. Prints the medians and each round's ratio to the first round's
   (goal: round 60 within 1.25x of round 1), and beside it resolve_xlsx.py's physical floor of
   each round (inflate and parse every file, deflate what the resolve writes): the files grow with
   every round (each Results tab and the board show every round, the master's record holds them),
   so round 1's resolve plus the floor's growth is a bound no later resolve can beat.
2. Google (the offline fake, tests/fake_google): the bytes one `resolve` sends (request bodies), the master's
   and all of them, at each round for a game of `--google` players (goal: flat in rounds); `--by-tab` also
   prints them by file and tab; `--before REF` measures the code of git ref REF too (bytes are the same
   from run to run: no interleaving needed).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODE = os.environ.get("SHEETBRIDGE_BENCH_CODE")   # the sheetbridge measured (--before: an old tree)
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))   # (resolve_xlsx.py's physical floor)
if CODE:
    sys.path.insert(0, CODE)

GAME = "three-modular-rooms"
OPTIONS = {"rounds": "80", "cards_consumed": "no"}
NAMES = ["Ann", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lou", "Max", "Ned", "Oz",
         "Pia", "Quin", "Rae", "Sam", "Tia", "Uma", "Vic", "Wes", "Xia", "Yul", "Zoe", "Abe", "Bea", "Cal", "Dot"]
GOAL_RATIO = 1.25   # the goal: round 60 within 1.25x of round 1 (30 players)
GOOGLE_GOAL = 1.25  # "flat in rounds": the bytes a Google resolve sends, each round within 1.25x of round 1


def game_at_round(store, folder: Path, players: int, round_no: int, seed: int = 1) -> None:
    """A game whose open round is `round_no`, every player's entries typed in. The rounds before are
    resolved in memory and written once (a resolve each would take minutes), as a resolve writes them."""
    from sheetbridge.core.match import random_submissions
    from sheetbridge.core.rng import Rng
    from sheetbridge.host.books import read_books
    from sheetbridge.host.demo import fill_submission
    from sheetbridge.host.new import new_game
    from sheetbridge.host.players import PlayerInfo
    from sheetbridge.host.session import load
    from sheetbridge.host.transaction import commit, plan, write_all
    names = (NAMES * (players // len(NAMES) + 1))[:players]
    names = [n if names[:i].count(n) == 0 else f"{n}{names[:i].count(n)}" for i, n in enumerate(names)]
    new_game(GAME, [PlayerInfo(n, "", 20) for n in names], store, seed=seed, folder=folder, options=OPTIONS)
    rng = Rng.from_seed(seed, "bench")
    if round_no > 1:
        ld = load(store)
        books = read_books(ld)
        for _ in range(round_no - 1):
            ld.match.resolve(random_submissions(ld.match, rng))
        ld.opens_round = True
        writes = plan(ld, books)
        commit(ld)
        write_all(ld, writes, None, checked=True)
    ld = load(store)
    for p, raw in random_submissions(ld.match, rng).items():
        fill_submission(store, ld, p, raw)


# ------------------------------------------------------------ xlsx: one timed run (in its own process)

def time_resolve(folder: Path) -> float:
    from sheetbridge.host.resolve import resolve
    from sheetbridge.host.session import open_store
    t = time.perf_counter()
    res = resolve(open_store(folder))
    elapsed = time.perf_counter() - t
    assert res.action == "resolved", res.message
    return elapsed


def time_physical(folder: Path) -> float:
    """resolve_xlsx.py's physical floor of this round: inflate and parse every file, deflate what
    the resolve writes (as it is after it)."""
    from resolve_xlsx import time_physical as physical
    return physical(folder)[0]


def timed(pristine: Path, warm: Path, tmp: Path, kind: str = "resolve") -> float:
    run, warm_run = tmp / "run", tmp / "warm"
    shutil.copytree(pristine, run)
    shutil.copytree(warm, warm_run)
    try:
        out = subprocess.run([sys.executable, __file__, "--time", str(warm_run), str(run)] +
                             (["--physical"] if kind == "physical" else []),
                             capture_output=True, text=True, check=True).stdout
        return float(out.split()[-1])
    finally:
        shutil.rmtree(run)
        shutil.rmtree(warm_run)


def physical_folder(pristine: Path, tmp: Path) -> Path:
    """A copy of `pristine` with the files one resolve changes, as they are after it (resolve_xlsx.py)."""
    from resolve_xlsx import with_after
    from sheetbridge.host.session import open_store
    from sheetbridge.host.resolve import resolve
    changed = tmp / f"{pristine.name}-changed"
    if not changed.exists():
        shutil.copytree(pristine, changed)
        resolve(open_store(changed))
    return with_after(pristine, changed)


def xlsx(args: argparse.Namespace) -> None:
    from sheetbridge.sheets.xlsx import XlsxStore
    print(f"{GAME} (rounds=80, cards not used up), xlsx: one resolve at each round; medians of {args.repeat} "
          f"interleaved runs, each in a fresh process")
    with tempfile.TemporaryDirectory() as tmp:
        warm = Path(tmp) / "warm-up"
        game_at_round(XlsxStore(warm), warm, 3, 1, seed=2)
        for players in args.players:
            folders = {}
            for r in args.rounds:
                folders[r] = Path(tmp) / f"p{players}-r{r}"
                game_at_round(XlsxStore(folders[r]), folders[r], players, r)
            physical = {r: physical_folder(folders[r], Path(tmp)) for r in args.rounds}
            times: dict[int, list[float]] = {r: [] for r in args.rounds}
            floors: dict[int, list[float]] = {r: [] for r in args.rounds}
            for _ in range(args.repeat):
                for r in args.rounds:
                    times[r].append(timed(folders[r], warm, Path(tmp)))
                    floors[r].append(timed(physical[r], warm, Path(tmp), "physical"))
            first = statistics.median(times[args.rounds[0]])
            first_floor = statistics.median(floors[args.rounds[0]])
            for r in args.rounds:
                med, floor = statistics.median(times[r]), statistics.median(floors[r])
                ratio = med / first
                verdict = "ok" if ratio <= GOAL_RATIO else "over"
                goal = f", goal <= {GOAL_RATIO}x: {verdict}" if r != args.rounds[0] else ""
                # What the files' own growth costs (deflating and parsing more bytes) is a lower bound
                # of a later round's resolve: round 1's resolve plus the growth of the physical floor.
                bound = (first + floor - first_floor) / first
                print(f"  {players:3d} players, round {r:3d}: resolve {med:.3f} s, {ratio:.2f}x round "
                      f"{args.rounds[0]}{goal}; physical floor {floor:.3f} s (the files' growth alone: "
                      f">= {bound:.2f}x)", flush=True)


# ------------------------------------------------------------ Google: bytes sent per resolve

def _sheet_of(request: object) -> int | None:
    """The sheet id a batchUpdate request names (the first found)."""
    if isinstance(request, dict):
        if "sheetId" in request:
            return int(request["sheetId"])
        items = list(request.values())
    elif isinstance(request, list):
        items = request
    else:
        return None
    for item in items:
        found = _sheet_of(item)
        if found is not None:
            return found
    return None


def _by_tab(fake, master: str, url: str, body: bytes) -> dict[tuple[str, str], int]:
    """A request body's bytes by (file: master, board or player; tab), for --by-tab."""
    from urllib.parse import unquote, urlsplit
    path = unquote(urlsplit(url).path)
    fid = path.split("/spreadsheets/")[1].split("/")[0].split(":")[0] if "/spreadsheets/" in path else ""
    f = fake.files.get(fid)
    kind = ("master" if fid == master else "player" if f is not None and f.sheet("Submission") is not None
            else "board")
    data = json.loads(body)
    if "requests" not in data:
        return {(kind, "values " + path.rsplit("/", 1)[-1]): len(body)}
    names = {s.id: s.title for s in f.sheets} if f is not None else {}
    out: Counter[tuple[str, str]] = Counter()
    for req in data["requests"]:
        out[(kind, names.get(_sheet_of(req), "(new tab)"))] += len(json.dumps(req))
    return out


def google(players: int, rounds: list[int], by_tab: bool = False) -> None:
    from sheetbridge.host.config import CONFIG_FILE
    from sheetbridge.host.resolve import resolve
    from sheetbridge.sheets import google as G
    from tests.fake_google import FakeGoogle
    host = "host@example.com"
    print(f"{GAME}, Google (offline fake), {players} players: bytes one resolve sends (goal: flat in rounds, "
          f"<= {GOOGLE_GOAL}x round {rounds[0]})")
    base = None
    for r in rounds:
        fake = FakeGoogle(seed=1)
        with tempfile.TemporaryDirectory() as d:
            folder = Path(d) / "game"
            game_at_round(fake.store(host, game_folder=folder), folder, players, r)
            cfg = json.loads((folder / CONFIG_FILE).read_text())
            store = G.open_google_store({**cfg, "folder": str(folder)}, session=fake.session(host),
                                        clock=fake.clock, sleep=fake.sleep, wall_clock=fake.wall_clock)
            store.game_id = cfg["game"]
            sent: Counter[str] = Counter()
            tabs: Counter[tuple[str, str]] = Counter()
            handle = fake.handle

            def counted(method, url, headers, body, timeout=None):
                sent["all"] += len(body or b"")
                if store.master_location() in url:
                    sent["master"] += len(body or b"")
                if by_tab and body and "/spreadsheets/" in url:
                    tabs.update(_by_tab(fake, store.master_location(), url, body))
                return handle(method, url, headers, body, timeout)
            fake.handle = counted
            res = resolve(store)
            assert res.action == "resolved", res.message
            base = base or sent["all"]
            print(f"  round {r:3d}: {sent['all'] / 1e3:9.1f} kB sent, the master's {sent['master'] / 1e3:8.1f} kB "
                  f"({sent['all'] / base:.2f}x round {rounds[0]}"
                  f"{'' if r == rounds[0] else ': ok' if sent['all'] / base <= GOOGLE_GOAL else ': over'})", flush=True)
            if by_tab:
                print("      " + ", ".join(f"{k} {t} {n / 1e3:.1f}" for (k, t), n in
                                           sorted(tabs.items(), key=lambda x: -x[1]) if n >= 1000) + " (kB)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--players", type=int, nargs="+", default=[30])
    ap.add_argument("--rounds", type=int, nargs="+", default=[1, 60])
    ap.add_argument("--google", type=int, default=9, help="players of the Google game (0: skip)")
    ap.add_argument("--google-rounds", type=int, nargs="+", default=[1, 11, 30, 60])
    ap.add_argument("--skip-xlsx", action="store_true")
    ap.add_argument("--by-tab", action="store_true", help="Google: the bytes by file and tab too")
    ap.add_argument("--before", metavar="REF", help="Google: also measure the code of git ref REF (e.g. main)")
    ap.add_argument("--time", nargs=2, metavar=("WARM", "FOLDER"), help=argparse.SUPPRESS)   # a child's run
    ap.add_argument("--physical", action="store_true", help=argparse.SUPPRESS)   # the child times the floor
    args = ap.parse_args()
    if args.time:
        measure = time_physical if args.physical else time_resolve
        time_resolve(Path(args.time[0]))   # (a resolve warms either up: imports, templates, fonts)
        print(measure(Path(args.time[1])))
        return
    if not args.skip_xlsx:
        xlsx(args)
    if args.google and args.before:
        with tempfile.TemporaryDirectory() as d:
            archive = subprocess.run(["git", "-C", str(ROOT), "archive", args.before, "sheetbridge", "templates",
                                      "pyproject.toml"], check=True, capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", d], input=archive, check=True)
            print(f"== before ({args.before})", flush=True)
            cmd = [sys.executable, __file__, "--skip-xlsx", "--google", str(args.google), "--google-rounds",
                   *map(str, args.google_rounds)] + (["--by-tab"] if args.by_tab else [])
            subprocess.run(cmd, env={**os.environ, "SHEETBRIDGE_BENCH_CODE": d}, check=True)
        print("== after (this tree)", flush=True)
    if args.google:
        google(args.google, args.google_rounds, args.by_tab)


if __name__ == "__main__":
    main()
