"""Where games meet sheets: new, status, resolve, undo and demo over any Store.

Every command follows one shape: read (one batched read per book), compute
everything with the pure core, then write (one batched write per book whose
content changed), master first. The master holds the record, so a run cut
off while publishing is completed by running ``resolve`` again: it finds the
player files still showing the old round and publishes them, with the same
result and no second ledger entry.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from .core.errors import ConfigError, LedgerError, SheetbridgeError, UsageError, WorkbookError
from .core.game import get_game
from .core.ledger import parse_rows
from .core.match import Match, RoundRecord, parse_options, random_submissions
from .core.rng import Rng
from .sheets import layout as L
from .sheets.store import BOARD, MASTER, Book, Store, player_key
from .sheets.xlsx import XlsxStore
from .tabs import board_tabs, master_tabs, player_tabs
from .templates import default_tables

CONFIG_FILE = "sheetbridge.json"
Progress = Callable[[str], None]


@dataclass(frozen=True)
class PlayerInfo:
    name: str
    email: str = ""
    garnets: int = 0


def parse_players(text: str, default_garnets: int = 0) -> list[PlayerInfo]:
    """'Ann, Bo <bo@x.org>, Cy:cy@x.org' -> players with optional emails."""
    out = []
    for part in [p.strip() for p in re.split(r"[,;\n]", text) if p.strip()]:
        m = re.fullmatch(r"(.+?)\s*<\s*([^>]+)\s*>", part) or re.fullmatch(r"([^:]+?)\s*:\s*(\S+@\S+)", part)
        name, email = (m.group(1).strip(), m.group(2).strip()) if m else (part, "")
        if email and "@" not in email:
            raise UsageError(f"player {name!r}: {email!r} is not an email address")
        out.append(PlayerInfo(name, email, default_garnets))
    if not out:
        raise UsageError("no players given; use --players \"Ann,Bo,Cy\"")
    return out


# ------------------------------------------------------------ opening a game

def open_store(folder: str | Path) -> Store:
    """The store of the game in `folder` (an xlsx game, or a Google game's pointer file)."""
    folder = Path(folder)
    cfg = read_config(folder)
    if cfg.get("backend", "xlsx") == "google":
        from .sheets.google import open_google_store
        store: Store = open_google_store({**cfg, "folder": str(folder)})
    else:
        store = XlsxStore(folder)
    store.game_id = cfg.get("game")  # saves a metadata read: the master's tabs follow from the game
    return store


def read_config(folder: Path) -> dict:
    path = folder / CONFIG_FILE
    if not path.exists():
        if (folder / "master.xlsx").exists():
            return {"backend": "xlsx"}
        if not folder.exists():
            raise WorkbookError(f"{folder}: no such game folder; create one with `sheetbridge new GAME --out {folder}`")
        raise WorkbookError(f"{folder}: no sheetbridge game here (no master.xlsx or {CONFIG_FILE})")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise WorkbookError(f"{path}: not valid JSON ({e.msg}, line {e.lineno})") from None


def write_config(folder: Path, cfg: Mapping[str, Any]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / CONFIG_FILE).write_text(json.dumps(cfg, indent=2, sort_keys=True) + "\n", encoding="utf-8")


@dataclass
class Loaded:
    """A game read from its master book."""
    store: Store
    master: Book
    match: Match
    players: list[PlayerInfo]
    locations: dict[str, str]                 # player -> book location
    board_location: str
    warnings: list[str] = field(default_factory=list)


def _tab_names(game_id: str) -> list[str]:
    game = get_game(game_id)
    return [L.tab_name(k) for k in ("config", "players", "ledger", "record")] + [t.name for t in game.spec.tables]


def load(store: Store, game_id: str | None = None) -> Loaded:
    master = store.open(MASTER, store.master_location())
    game_id = game_id or getattr(store, "game_id", None)
    if game_id is None:
        names = master.tab_names()
        if L.tab_name("record") not in names:
            raise WorkbookError(f"{master.location}: no {L.tab_name('record')!r} tab; this is not a sheetbridge "
                                "master workbook, or the tab was renamed")
        game_id = master.read([L.tab_name("record")])[L.tab_name("record")]
        game_id = L.read_json_tab(game_id, f"{master.location}, tab {L.tab_name('record')}")["match"]["game"]
    rects = master.read(_tab_names(game_id))
    where = f"{master.location}, tab "
    record = L.read_json_tab(rects[L.tab_name("record")], where + L.tab_name("record"))
    store.import_cache(record.get("store", {}))
    rows, problems = parse_rows(record["match"]["name"], rects[L.tab_name("ledger")])
    if problems:
        raise ConfigError(f"{master.location}: " + "; ".join(problems))
    game = get_game(game_id)
    tables = {t.name: rects[t.name] for t in game.spec.tables}
    match = Match.from_json(record["match"], rows, tables=tables)
    try:
        match.ledger.check_no_negative(match.players)
    except LedgerError as e:
        raise LedgerError(f"{master.location}, tab {L.tab_name('ledger')}: {e}") from None
    warnings: list[str] = []
    # Nothing is lost: rows the record booked but the Ledger tab lacks are restored.
    missing = [r for rec in match.rounds for r in rec.ledger if not match.ledger.has(r.key)]
    if missing:
        match.ledger.append(missing)
        warnings.append(f"{len(missing)} ledger row(s) booked by resolved rounds were missing from the Ledger tab "
                        "and have been restored")
    options = _read_options(rects[L.tab_name("config")])
    if options is not None:
        try:
            wanted = parse_options(game, options)
        except ConfigError as e:
            raise ConfigError(f"{master.location}, tab {L.tab_name('config')}: {e}") from None
        if wanted != match.options:
            if match.rounds:
                warnings.append("host options in the Config tab changed after round 1 was resolved; the game keeps "
                                "the options it started with")
            else:
                match.options = wanted
                match.state = match._fresh_state()
    problems = game.check_tables(tables)
    if problems:
        raise ConfigError(f"{master.location}: " + "; ".join(problems))
    players = [PlayerInfo(p["name"], p.get("email", ""), 0) for p in record["players"]]
    return Loaded(store, master, match, players, dict(record["locations"]), record.get("board", ""), warnings)


def _read_options(rect) -> dict[str, str] | None:
    out: dict[str, str] = {}
    in_options = False
    for row in rect:
        if row and row[0] == "option":
            in_options = True
            continue
        if in_options and row and row[0]:
            out[row[0]] = row[1] if len(row) > 1 else ""
    return out if in_options else None


# ------------------------------------------------------------ new

@dataclass
class NewGame:
    folder: Path
    match: Match
    files: dict[str, str]


def new_game(game_id: str, players: Sequence[PlayerInfo], store: Store, *, seed: int | str = 0,
             options: Mapping[str, Any] | None = None, folder: Path | None = None, board: bool = True,
             name: str | None = None, progress: Progress | None = None) -> NewGame:
    """Create the master book and one book per player (and a public board book)."""
    game = get_game(game_id)
    tables = default_tables(game)
    match = Match.new(game_id, [p.name for p in players], options=options, seed=seed, tables=tables,
                      garnets={p.name: p.garnets for p in players}, name=name)
    locations: dict[str, str] = {}
    for p in players:
        info = store.create(player_key(p.name), f"{game.spec.name}: {p.name}", player_tabs(match, p.name),
                            writer_email=p.email or None)
        locations[p.name] = info.location
        if progress:
            progress(f"created {p.name}'s file: {info.location}")
    board_loc = ""
    if board:
        emails = ",".join(p.email for p in players if p.email) or None
        board_loc = store.create(BOARD, f"{game.spec.name}: public board", board_tabs(match),
                                 reader_email=emails).location
    master_info = store.create(MASTER, f"{game.spec.name}: host master", master_tabs(match, players, locations,
                                                                                     board_loc, store))
    if folder is not None:
        cfg = {"backend": "xlsx" if isinstance(store, XlsxStore) else "google", "game": game_id,
               "master": master_info.location}
        cfg.update(getattr(store, "config_extra", lambda: {})())
        write_config(folder, cfg)
    return NewGame(folder or Path("."), match, {**locations, "master": master_info.location})


# ------------------------------------------------------------ reading players

@dataclass
class PlayerState:
    name: str
    raw: dict | None            # None: nothing for the open round
    stale: bool                 # the book still shows another round (not yet published)
    rects: dict


def read_players(ld: Loaded) -> dict[str, PlayerState]:
    out = {}
    m = ld.match
    names = [L.tab_name("submission"), L.tab_name("results"), L.tab_name("board")]
    for p in m.players:
        book = ld.store.open(player_key(p), ld.locations[p])
        rects = book.read(names)
        where = f"{book.location}, tab {L.tab_name('submission')} ({p})"
        raw, stale = None, False
        if m.finished:
            stale = _marker(rects[names[0]]) != "finished"
        else:
            raw = L.read_form(m.form(p), rects[names[0]], where)
            stale = raw is None
        out[p] = PlayerState(p, raw, stale, rects)
    return out


def _marker(rect) -> str:
    return rect[1][1] if len(rect) > 1 and len(rect[1]) > 1 else ""


# ------------------------------------------------------------ status

@dataclass
class StatusLine:
    player: str
    state: str        # "submitted", "not submitted", "not yet published"
    valid: bool
    problem_fields: tuple[str, ...] = ()


def status(store: Store) -> tuple[Loaded, list[StatusLine]]:
    """Who has submitted for the open round and whether it is valid, revealing no submission."""
    ld = load(store)
    lines = []
    if ld.match.finished:
        return ld, lines
    for p, ps in read_players(ld).items():
        if ps.stale:
            lines.append(StatusLine(p, "file shows another round: run resolve to finish publishing", False))
            continue
        sub = ld.match.parse(p, ps.raw)
        if sub is None:
            lines.append(StatusLine(p, "not submitted", False))
        else:
            fields = tuple(sorted({pr.field for pr in sub.problems}))
            lines.append(StatusLine(p, "submitted", not sub.problems, fields))
    return ld, lines


# ------------------------------------------------------------ resolve

@dataclass
class ResolveResult:
    action: str                       # "resolved", "published", "nothing", "dry-run"
    message: str
    record: RoundRecord | None = None
    match: Match | None = None
    written: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def resolve(store: Store, *, dry_run: bool = False, round_no: int | None = None, allow_empty: bool = False,
            progress: Progress | None = None) -> ResolveResult:
    ld = load(store)
    m = ld.match
    states = read_players(ld)
    stale = [p for p, s in states.items() if s.stale]
    if stale and m.rounds:
        # A previous run was cut off while publishing: finish it, same result, no new ledger rows.
        if dry_run:
            return ResolveResult("dry-run", f"round {m.rounds[-1].round} is resolved but {len(stale)} player "
                                 f"file(s) still show the old round: {', '.join(stale)}; resolve would publish them",
                                 m.rounds[-1], m, warnings=ld.warnings)
        written, skipped = _publish(ld, states, progress, write_master=False)
        return ResolveResult("published", f"finished publishing round {m.rounds[-1].round}: "
                             f"{len(written)} file(s) written", m.rounds[-1], m, written, skipped, ld.warnings)
    if m.finished:
        return ResolveResult("nothing", f"{m.game.spec.name} is over; nothing to resolve", None, m,
                             warnings=ld.warnings)
    if round_no is not None and round_no != m.round:
        if round_no < m.round:
            return ResolveResult("nothing", f"round {round_no} is already resolved; nothing changed", None, m,
                                 warnings=ld.warnings)
        raise UsageError(f"round {round_no} is not open yet; round {m.round} is")
    raws = {p: s.raw for p, s in states.items()}
    submitted = [p for p in m.players if m.parse(p, raws[p]) is not None]
    if not submitted and not allow_empty:
        return ResolveResult("nothing", f"nobody has submitted for round {m.round} yet; nothing was resolved "
                             "(add --allow-empty to resolve it with every player's default)", None, m,
                             warnings=ld.warnings)
    rec = m.resolve(raws, tables=m.tables)
    if dry_run:
        return ResolveResult("dry-run", f"round {rec.round} would be resolved; nothing was written", rec, m,
                             warnings=ld.warnings)
    written, skipped = _publish(ld, states, progress, write_master=True)
    return ResolveResult("resolved", f"round {rec.round} resolved and published", rec, m, written, skipped,
                         ld.warnings)


def _publish(ld: Loaded, states: Mapping[str, PlayerState], progress: Progress | None, write_master: bool,
             prefill: Mapping[str, Any] | None = None) -> tuple[list[str], list[str]]:
    """Write the master first (the commit point), then every player book whose content changed."""
    m = ld.match
    written, skipped = [], []
    # Compute everything before the first write.
    ptabs = {p: player_tabs(m, p, (prefill or {}).get(p)) for p in m.players}
    mtabs = master_tabs(m, ld.players, ld.locations, ld.board_location, ld.store, ld.warnings)
    if write_master:
        ld.master.write(mtabs)
        written.append(ld.master.location)
    for p in m.players:
        current = states[p].rects if p in states else None
        if current is not None and all(current.get(name) == tab.values() for name, tab in ptabs[p].items()):
            skipped.append(ld.locations[p])
            continue
        ld.store.open(player_key(p), ld.locations[p]).write(ptabs[p])
        written.append(ld.locations[p])
        if progress:
            progress(f"published {p}'s file")
    if ld.board_location:
        ld.store.open(BOARD, ld.board_location).write(board_tabs(m))
        written.append(ld.board_location)
    return written, skipped


# ------------------------------------------------------------ undo

def undo(store: Store, progress: Progress | None = None) -> ResolveResult:
    """Roll back the last resolved round by replaying the record up to the round before."""
    ld = load(store)
    m = ld.match
    last = m.undo()
    prefill = {p: raw for p, raw in last.raw.items() if raw}
    states = {p: PlayerState(p, None, False, {}) for p in m.players}
    written, skipped = _publish(ld, states, progress, write_master=True, prefill=prefill)
    return ResolveResult("undone", f"round {last.round} undone: state, ledger and tabs recomputed by replay; "
                         "players' submissions for it are back in their Submission tabs", last, m, written, skipped,
                         ld.warnings)


# ------------------------------------------------------------ repair

def repair(store: Store, players: Sequence[str] | None = None) -> list[str]:
    """Redraw players' books (Submission, Results, Board) from the record. Returns the locations written."""
    ld = load(store)
    names = list(players or ld.match.players)
    for p in names:
        if p not in ld.match.players:
            raise UsageError(f"{p!r} is not a player of this game; players are {', '.join(ld.match.players)}")
    written = []
    for p in names:
        ld.store.open(player_key(p), ld.locations[p]).write(player_tabs(ld.match, p))
        written.append(ld.locations[p])
    return written


# ------------------------------------------------------------ demo

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
        n = game.spec.recommended_players or game.spec.max_players
        base = ["Ann", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit", "Lu"]
        names = base[:n] if n <= len(base) else [f"Player{i + 1}" for i in range(n)]
        players = [PlayerInfo(nm, "", garnets) for nm in names]
    new_game(game_id, players, store, seed=seed, folder=folder, name=f"{game_id}-demo-{seed}")
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
