"""A season's book (xlsx, or a Google spreadsheet the host alone owns): the I/O around
:mod:`sheetbridge.core.season`.

A season lives in a folder: ``season.json`` says where its book is; an xlsx season's book is
``season.xlsx`` beside it. The book has four tabs: Standings (derived), Games (each posted game,
in order), Ledger (the season's append-only ledger, column H the integrity check, exactly like a
game master's) and the hidden Record (the authority, sealed with its checksum). Every command
holds the season's lock, reads the book, computes everything, then writes the book once, after
a compare-and-set on the record's revision.
"""
from __future__ import annotations

import json
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from ..core import integrity
from ..core.errors import ConfigError, LedgerError, SheetbridgeError, UsageError, WorkbookError
from ..core.ledger import LedgerRow
from ..core.match import Match
from ..core.season import (GAMES_COLUMNS, STANDINGS_COLUMNS, GameSummary, PostResult, Season, SeasonError,
                          games_table, post, standings)
from ..sheets import layout as L
from ..sheets.model import TabData
from ..sheets.store import MASTER, Store
from ..sheets.xlsx import XlsxStore

SEASON_FILE = "season.json"
BOOK_FILE = "season.xlsx"
STANDINGS_TAB, GAMES_TAB = "Standings", "Games"
LEDGER_TAB, RECORD_TAB = L.tab_name("ledger"), L.tab_name("record")
TOKEN_OF_LIFE = "Token of Life"   # the Award kind the games use for Tokens of Life
Progress = Callable[[str], None]


class SeasonXlsxStore(XlsxStore):
    """A season folder: the season's book is ``season.xlsx`` (the store's "master" book)."""

    @staticmethod
    def location_for(key: str) -> str:
        if key == MASTER:
            return BOOK_FILE
        raise ValueError(key)

    def master_location(self) -> str:
        return BOOK_FILE


@dataclass
class LoadedSeason:
    store: Store
    season: Season
    revision: int = 0
    notes: list[str] = field(default_factory=list)


# ------------------------------------------------------------ opening and creating

def open_season_store(folder: str | Path, progress: Progress | None = None) -> Store:
    folder = Path(folder)
    cfg = read_season_config(folder)
    if cfg.get("backend") == "google":
        from ..sheets.google import open_google_store
        return open_google_store({**cfg, "folder": str(folder)}, progress=progress)
    return SeasonXlsxStore(folder)


def read_season_config(folder: Path) -> dict:
    path = folder / SEASON_FILE
    if not path.exists():
        raise WorkbookError(f"{folder}: no season here (no {SEASON_FILE}); create one with "
                            f"`sheetbridge season new NAME --players ... --out {folder}`")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise WorkbookError(f"{path}: not valid JSON ({e.msg}, line {e.lineno})") from None


def new_season(name: str, players: Sequence[Any], store: Store, *, garnets: int = 0,
               folder: Path | None = None) -> LoadedSeason:
    """Create the season book: ``players`` are PlayerInfo (name, email, garnets: the season's openings)."""
    season = Season.new(name, [p.name for p in players], {p.name: p.garnets or garnets for p in players},
                        {p.name: p.email for p in players if p.email})
    ld = LoadedSeason(store, season)
    with store.lock("season new"):
        tabs = season_tabs(ld)
        if store.prepare_write(MASTER, None, tabs):
            tabs = season_tabs(ld)
        info = store.create(MASTER, f"Season {name}", tabs)   # shared with no one: the host's alone
    if folder is not None:
        cfg = {"backend": store.backend, "season": name, "master": info.location,
               **store.config_extra()}
        folder.mkdir(parents=True, exist_ok=True)
        (folder / SEASON_FILE).write_text(json.dumps(cfg, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    ld.revision = 1
    return ld


def load_season(store: Store, *, accept_ledger_edits: bool = False) -> LoadedSeason:
    """Read the season book; refuse (LedgerError) an edited Ledger or Record tab unless accepted."""
    book = store.open(MASTER, store.master_location())
    rects = book.read([LEDGER_TAB, RECORD_TAB])
    record = L.read_json_tab(rects[RECORD_TAB], f"{book.location}, tab {RECORD_TAB}")
    if "season" not in record:
        raise WorkbookError(f"{book.location}: this is not a season book (its Record holds no season)")
    store.import_cache(record.get("store", {}))
    data = record["season"]
    rows = [LedgerRow(*r) for r in data["ledger"]]
    checked = integrity.verify(rows, rects[LEDGER_TAB], data["players"], name=data["name"],
                               record_sealed=integrity.seal_ok(record))
    if checked.problems:
        raise ConfigError(f"{book.location}: " + "; ".join(checked.problems))
    if checked.findings and not accept_ledger_edits:
        message = integrity.describe(checked.findings)
        raise LedgerError(f"{book.location}: " + message.replace("sheetbridge repair GAME_FOLDER",
                                                                  "sheetbridge season repair GAME_FOLDER"))
    booked, accepted = integrity.accept(checked) if checked.findings else (checked.rows, [])
    season = Season.from_json(data, booked)
    season.ledger.check_no_negative(season.players)
    return LoadedSeason(store, season, int(record.get("revision", 0)), checked.notes + accepted)


def season_tabs(ld: LoadedSeason) -> dict[str, TabData]:
    s = ld.season
    record = integrity.seal({"season": s.to_json(), "revision": ld.revision + 1, "store": ld.store.export_cache()})
    rows = s.ledger.rows
    ledger = [list(integrity.HEADER)] + [r.as_list() + [c] for r, c in zip(rows, integrity.chain(rows))]
    return {
        STANDINGS_TAB: L.key_value_tab(f"Season {s.name}: standings", [list(r.values()) for r in standings(s)],
                                       [c.replace("_", " ") for c in STANDINGS_COLUMNS]),
        GAMES_TAB: L.key_value_tab(f"Season {s.name}: games in order", [list(r.values()) for r in games_table(s)],
                                   [c.replace("_", " ") for c in GAMES_COLUMNS]),
        LEDGER_TAB: L.table_tab(ledger, max_widths={4: 44.0, 6: 40.0}),
        RECORD_TAB: L.json_tab(record),
    }


def save_season(ld: LoadedSeason) -> None:
    """Write the whole book once, after checking nobody wrote it since it was read (compare-and-set)."""
    book = ld.store.open(MASTER, ld.store.master_location())
    now = L.read_json_tab(book.read([RECORD_TAB])[RECORD_TAB], f"{book.location}, tab {RECORD_TAB}")
    if int(now.get("revision", 0)) != ld.revision:
        raise SheetbridgeError("the season book changed while this command ran (another sheetbridge?); "
                               "nothing was written: run the command again")
    tabs = season_tabs(ld)
    if ld.store.prepare_write(MASTER, book.location, tabs):
        tabs = season_tabs(ld)
    book.write(tabs)
    ld.revision += 1


# ------------------------------------------------------------ games

def summarize(match: Match) -> GameSummary:
    """What `match` hands its season: its whole ledger and, once ended, its outcome's facts."""
    out = match.outcome()
    tokens: dict[str, int] = {}
    for award in (out.awards if out is not None else ()):
        if award.kind == TOKEN_OF_LIFE:
            tokens[award.player] = tokens.get(award.player, 0) + award.count
    return GameSummary(match.name, match.game.spec.id, tuple(match.players), tuple(match.ledger.rows),
                       match.finished, match.round, tuple(r.key for r in match.pending()) if out else (),
                       tuple(out.winners) if out else (), tuple(out.losers) if out else (),
                       out.elimination_candidate if out else None, tokens)


def add_game(season_store: Store, game_store: Store, location: str = "") -> PostResult:
    """`season add`: post the game in `game_store` into the season exactly once (see core/season.py)."""
    from .session import load
    with season_store.lock("season add"):
        ld = load_season(season_store)
        with game_store.lock("season add"):
            game = load(game_store)
        try:
            result = post(ld.season, summarize(game.match), location)
        except SeasonError as e:   # its fixes name the game's folder, which the season's command knows
            raise SeasonError(str(e).replace("GAME_FOLDER", shlex.quote(location) if location else "GAME_FOLDER")) \
                from None
        if result.changed:
            save_season(ld)
    return result


def eliminate(season_store: Store, player: str, after: str = "") -> str:
    with season_store.lock("season eliminate"):
        ld = load_season(season_store)
        ld.season.eliminate(player, after)
        save_season(ld)
    return f"{player} is out of season {ld.season.name} (after {ld.season.eliminated[player] or 'no game yet'})"


def add_player(season_store: Store, player: str, email: str = "", garnets: int = 0) -> None:
    """A player joining the season (the seam for substitutions): see :meth:`Season.add_player`."""
    with season_store.lock("season add-player"):
        ld = load_season(season_store)
        ld.season.add_player(player, email, garnets)
        save_season(ld)


def accept_ledger_edits(season_store: Store) -> list[str]:
    with season_store.lock("season repair"):
        ld = load_season(season_store, accept_ledger_edits=True)
        save_season(ld)
    return ld.notes


def players_for_game(season_store: Store, names: Sequence[str] | None = None) -> list[Any]:
    """`new GAME --season`: the season's players still in (or those of `names`), with their emails and
    season balances as the game's opening garnets."""
    from .players import PlayerInfo
    s = load_season(season_store).season
    still = s.still_in()
    chosen = list(names) if names else still
    wrong = [n for n in chosen if n not in still]
    if wrong:
        raise UsageError(f"not in season {s.name} (or already out): {', '.join(wrong)}; players still in: "
                         f"{', '.join(still)}")
    return [PlayerInfo(n, s.emails.get(n, ""), s.ledger.balance(n)) for n in chosen]
