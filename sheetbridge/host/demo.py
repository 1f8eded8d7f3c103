"""`demo`: a whole game played with random legal submissions through the same books and commands."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from ..core.errors import SheetbridgeError, UsageError
from ..api import get_game
from ..core.match import Match, random_submissions
from ..core.rng import Rng
from ..sheets import layout as L
from ..sheets.store import Store, player_key
from ..sheets.xlsx import HEARTBEAT_FILE as XLSX_HEARTBEAT, LOCK_FILE as XLSX_LOCK, TMP_DIR as XLSX_TMP, XlsxStore
from .config import CONFIG_FILE, read_config, write_config
from .new import new_game
from .players import PlayerInfo
from .resolve import resolve
from .session import Loaded, Progress, load


def fill_submission(store: Store, ld: Loaded, player: str, raw: Mapping[str, Any]) -> None:
    """Type a submission into a player's Submission tab, as the player would."""
    tab = L.form_tab(ld.match.form(player), player, raw)
    store.open(player_key(player), ld.locations[player]).write({L.tab_name("submission"): tab})


@dataclass
class DemoResult:
    folder: Path
    match: Match
    rounds: int


def demo(game_id: str, store: Store, *, seed: int | str = 7, players: Sequence[PlayerInfo] | None = None,
         folder: Path | None = None, garnets: int = 10, skip_chance: float = 0.1,
         progress: Progress | None = None) -> DemoResult:
    """Play a whole game with random legal submissions through the same books and commands."""
    game = get_game(game_id)
    if players is None:
        n = game.spec.recommended_players or game.spec.max_players or game.spec.min_players
        base = ["Ann", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lu"]
        names = base[:n] if n <= len(base) else [f"Player{i + 1}" for i in range(n)]
        players = [PlayerInfo(nm, "", garnets) for nm in names]
    new_game(game_id, players, store, seed=seed, folder=folder, name=f"{game_id}-demo-{seed}")
    if folder is not None:
        write_config(folder, {**read_config(folder), "demo": True})  # a later demo may replace it
    rng = Rng.from_seed(seed, "demo players")
    rounds = 0
    while True:
        ld = load(store)
        if ld.match.finished:
            break
        subs = random_submissions(ld.match, rng, skip_chance)
        for p, raw in subs.items():
            if raw is not None:
                fill_submission(store, ld, p, raw)
        res = resolve(store, allow_empty=True)
        rounds += 1
        if progress:
            progress(res.message)
        if rounds > 200:
            raise SheetbridgeError(f"the {game_id} demo did not finish after 200 rounds")
    return DemoResult(folder or Path("."), ld.match, rounds)


def demo_files(folder: Path) -> list[Path]:
    """The files an earlier demo wrote in `folder` (and only those), for replacing it safely.

    Raises UsageError if `folder` holds anything but an earlier demo's output.
    """
    if not folder.exists():
        return []
    if not folder.is_dir():
        raise UsageError(f"{folder} is a file; choose another --out")
    entries = [p for p in folder.iterdir()]
    if not entries:
        return []
    cfg_path = folder / CONFIG_FILE
    cfg = None
    if cfg_path.exists():
        try:
            cfg = json.loads(cfg_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            cfg = None
    if not (isinstance(cfg, dict) and cfg.get("demo")):
        what = "a game that is not a demo" if (cfg is not None or (folder / "master.xlsx").exists()) else "other files"
        raise UsageError(f"{folder} holds {what}; demo only replaces an earlier demo's folder. Choose another --out "
                         "(nothing was deleted)")
    files = [cfg_path]
    if cfg.get("backend", "xlsx") == "xlsx":
        files += [folder / "master.xlsx", folder / "board.xlsx"]
        try:   # the player files its record names; a file it cannot name is left alone
            ld = load(XlsxStore(folder))
            files += [folder / loc for loc in ld.locations.values()]
        except SheetbridgeError:
            pass
    files += [folder / name for name in (".sheetbridge-google-cache.json", ".sheetbridge-new.json", XLSX_LOCK,
                                          XLSX_LOCK + ".json", XLSX_HEARTBEAT, ".sheetbridge-google-pace.json",
                                          ".sheetbridge-google-pace.json.lock")]
    files += sorted((folder / XLSX_TMP).glob("*")) if (folder / XLSX_TMP).is_dir() else []
    files += sorted((folder / "pictures").glob("round-*-board.png"))       # the pictures it drew
    files += sorted((folder / "pictures" / "private").glob("*-round-*.png"))
    return [f for f in files if f.exists()]


