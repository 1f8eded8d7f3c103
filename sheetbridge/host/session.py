"""Opening a game: its store, the master read and checked (``load``), and what every command
starts with (``load_for``: the lock held, leftovers of a killed run cleared, a menu request run once).

The master holds the record, so a run cut off while publishing is completed by running the
command again (see :mod:`.transaction`)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Sequence

from ..core import integrity
from ..core.errors import ConfigError, LedgerError, WorkbookError
from ..api import get_game, load_match
from ..core.match import Match, parse_options
from ..core.round_record import RoundRecord
from ..sheets import layout as L
from ..sheets.store import MASTER, Book, Store
from ..sheets.xlsx import XlsxStore
from . import clock
from .config import read_config, read_options, read_setting
from .confessionals import read_webhooks
from .deadlines import RoundDeadlines
from .picture_files import remove_leftovers
from .players import PlayerInfo
from .record import read_head, read_record
from .tabs import DECISIONS_TAB, read_decisions

Progress = Callable[[str], None]


def open_store(folder: str | Path, progress: Progress | None = None) -> Store:
    """The store of the game in `folder` (an xlsx game, or a Google game's pointer file).
    ``progress`` hears what the host should know meanwhile ("waiting for Google's quota (30 s)...")."""
    folder = Path(folder)
    cfg = read_config(folder)
    if cfg.get("backend", "xlsx") == "google":
        from ..sheets.google import open_google_store
        store: Store = open_google_store({**cfg, "folder": str(folder)}, progress=progress)
        if cfg.get("game"):   # the game lock's first read fetches them too (sheets/google/lock.py)
            expect_master_read(store, cfg["game"])
    else:
        store = XlsxStore(folder)
    store.game_id = cfg.get("game")  # saves a metadata read: the master's tabs follow from the game
    return store


def expect_master_read(store: Store, game_id: str, extra_tabs: Sequence[str] = ()) -> None:
    """Tell a store that takes its lock with a read of the master (Google) which tabs `load` reads first."""
    store.expect_master_read(_tab_names(game_id) + [DECISIONS_TAB] + list(extra_tabs), L.tab_name("record"))


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
    revision: int = 0                         # bumped by every master write (compare-and-set at commit)
    saved: dict[str, dict[str, Any]] = field(default_factory=dict)  # round -> player -> entries kept by undo
    typed_decisions: dict[str, str] = field(default_factory=dict)   # values typed in the Decisions tab
    handled: list[str] = field(default_factory=list)  # ids of menu requests that changed the game (exactly once)
    locked: dict[str, Any] | None = None      # the deadline snapshot of the open round's submissions
    deadline: str = ""                        # the Config tab's deadline, as the host typed it
    opened_at: dict[str, str] = field(default_factory=dict)   # round -> when its forms were published (UTC)
    extra: dict[str, Any] = field(default_factory=dict)       # other master tabs read with the game (Control)
    accepted: list[str] = field(default_factory=list)   # ledger edits accepted by this load (see integrity.accept)
    identities: dict[str, str] = field(default_factory=dict)   # book key -> file id (identity.py); {} in older games
    cohosts: list[str] = field(default_factory=list)   # co-hosts' emails (Google: the master and board are shared)
    deadlines: RoundDeadlines = field(default_factory=RoundDeadlines)   # per round: extended, spent (deadlines.py)
    lock_history: dict[str, Any] = field(default_factory=dict)   # round -> its lock and late entries (for undo)
    opens_round: bool = False    # this command's master write opens a round (resolve, undo): its opening is recorded
    reminders: str = ""                       # the Config tab's reminder times before the deadline ("24h, 1h")
    webhook: str = ""                         # the Config tab's Discord webhook (menu's announce, watch's reminders)
    webhooks: dict[str, str] = field(default_factory=dict)     # player -> confessional webhook (Players tab only)
    picture_files: dict[str, str] = field(default_factory=dict)  # player -> their picture's Drive file (Google)
    record_held: list[str] = field(default_factory=list)   # the round entries the Record tab holds (record.py)

    def record_extra(self) -> dict[str, Any]:
        """The host's bookkeeping stored beside the match in the record, for the next write."""
        opened = dict(self.opened_at)
        # Only with a deadline (no clock otherwise: the same inputs give the same bytes), and only by the write
        # that opens the round: a later one (lock, reopen) would pass for an opening after the deadline.
        if self.deadline and not self.match.finished and self.opens_round:
            opened.setdefault(str(self.match.round), clock.utc_now())
        extra = {"revision": self.revision + 1, "saved": self.saved, "handled": self.handled[-500:],
                 "locked": self.locked, "deadline": self.deadline, "opened_at": opened}
        for key in ("reminders", "webhook"):   # Config rows the master is redrawn with
            if getattr(self, key):
                extra[key] = getattr(self, key)
        if self.identities:   # (an older game's record stays as it was until `repair` gives it identities)
            extra["identities"] = dict(self.identities)
        if self.cohosts:
            extra["cohosts"] = list(self.cohosts)
        extra.update(self.deadlines.to_record())
        if self.lock_history:
            extra["lock_history"] = self.lock_history
        if self.picture_files:
            extra["picture_files"] = dict(self.picture_files)
        return extra


def _tab_names(game_id: str) -> list[str]:
    game = get_game(game_id)
    return [L.tab_name(k) for k in ("config", "players", "ledger", "record")] + [t.name for t in game.spec.tables]


def load(store: Store, game_id: str | None = None, extra_tabs: Sequence[str] = (), *,
         accept_ledger_edits: bool = False) -> Loaded:
    """Read a game from its master book; refuse (LedgerError) if the ledger or record was edited by hand,
    unless `accept_ledger_edits` (then correcting rows are booked, see :func:`accept_ledger_edits`)."""
    master = store.open(MASTER, store.master_location())
    game_id = game_id or store.game_id
    if game_id is None:
        names = master.tab_names()
        if L.tab_name("record") not in names:
            raise WorkbookError(f"{master.location}: no {L.tab_name('record')!r} tab; this is not a sheetbridge "
                                "master workbook, or the tab was renamed")
        rect = master.read([L.tab_name("record")])[L.tab_name("record")]
        game_id = read_head(rect, f"{master.location}, tab {L.tab_name('record')}")["match"]["game"]
    try:
        wanted = _tab_names(game_id) + [DECISIONS_TAB] + list(extra_tabs)
        rects = master.read(wanted)
    except WorkbookError:   # a master written before the Decisions tab existed, or without an extra tab
        wanted = _tab_names(game_id)
        rects = master.read(wanted)
    store.expect_master_read(wanted, L.tab_name("record"))   # what this process's next command reads first
    where = f"{master.location}, tab "
    stored = read_record(rects[L.tab_name("record")], where + L.tab_name("record"))
    record = stored.data
    store.import_cache(record.get("store", {}))
    # The record is the authority for the ledger; the Ledger tab is its checked copy (core/integrity.py).
    checked = integrity.verify_record(record, rects[L.tab_name("ledger")], stored.sealed)
    if checked.problems:
        raise ConfigError(f"{master.location}: " + "; ".join(checked.problems))
    if checked.findings and not accept_ledger_edits:
        raise LedgerError(f"{master.location}: " + integrity.describe(checked.findings))
    rows, accepted = integrity.accept(checked) if checked.findings else (checked.rows, [])
    game = get_game(game_id)
    tables = {t.name: rects[t.name] for t in game.spec.tables}
    match = load_match(record["match"], rows, tables=tables)
    stored.keep(match)   # the rounds as stored: the next write adds only the new round's entry
    try:
        match.ledger.check_no_negative(match.players)
    except LedgerError as e:
        raise LedgerError(f"{master.location}, tab {L.tab_name('ledger')}: {e}") from None
    warnings: list[str] = checked.notes + accepted
    options = read_options(rects[L.tab_name("config")])
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
    problems = game.check_content(tables, match.options)
    if problems:
        raise ConfigError(f"{master.location}: " + "; ".join(problems))
    if not match.rounds and match.tables != match.setup_tables:
        # Content tabs edited before round 1 is resolved: the game is set up again from them, as promised.
        match.setup_tables = match.tables
        match.state = match._fresh_state()
    players = [PlayerInfo(p["name"], p.get("email", ""), 0) for p in record["players"]]
    deadline = read_setting(rects[L.tab_name("config")], "deadline")
    ld = Loaded(store, master, match, players, dict(record["locations"]), record.get("board", ""), warnings,
                  int(record.get("revision", 0)), dict(record.get("saved", {})),
                  read_decisions(rects.get(DECISIONS_TAB, [])), list(record.get("handled", [])),
                  record.get("locked"), record.get("deadline", "") if deadline is None else deadline,
                  dict(record.get("opened_at", {})), {t: rects[t] for t in extra_tabs if t in rects}, accepted)
    ld.identities = dict(record.get("identities") or {})
    ld.cohosts = list(record.get("cohosts") or [])
    ld.deadlines = RoundDeadlines.from_record(record)
    ld.lock_history = dict(record.get("lock_history") or {})
    for key in ("reminders", "webhook"):
        typed = read_setting(rects[L.tab_name("config")], key)
        setattr(ld, key, record.get(key, "") if typed is None else typed)
    ld.webhooks = read_webhooks(rects[L.tab_name("players")], match.players)
    ld.picture_files = dict(record.get("picture_files") or {})
    ld.record_held = list(stored.texts or []) if stored.in_place else []
    return ld


@dataclass
class ResolveResult:
    """What a command that moves the round did (resolve, undo, lock, reopen, extend), for the host's line."""
    action: str                       # "resolved", "published", "nothing", "dry-run", "undone"
    message: str
    record: RoundRecord | None = None
    match: Match | None = None
    written: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def load_for(store: Store, request_id: str | None, *, cleanup: bool = True) -> tuple[Loaded, ResolveResult | None]:
    """The game, loaded by a command that holds its lock (after clearing what a killed run left, unless
    the command writes nothing); with a "nothing to do" result when the menu's request was already
    done (a request runs exactly once, however often `watch` sees it)."""
    if cleanup:
        clear_leftovers(store)
    ld = load(store)
    if request_id and request_id in ld.handled:
        return ld, ResolveResult("nothing", f"request {request_id} was already done", None, ld.match)
    return ld, None


def clear_leftovers(store: Store) -> None:
    """Remove what a killed run left: the store's temporary files and the pictures' (holding the lock)."""
    store.cleanup()
    remove_leftovers(store.host_folder())


def is_locked(ld: Loaded) -> bool:
    """The open round's submissions were snapshot at the deadline (or by `sheetbridge lock`)."""
    return bool(ld.locked) and not ld.match.finished and ld.locked.get("round") == ld.match.round


def folder_hint(store: Store) -> str:
    """The game folder for the commands a message suggests ("GAME_FOLDER" when the store has none)."""
    folder = store.host_folder()
    return str(folder) if folder is not None else "GAME_FOLDER"


