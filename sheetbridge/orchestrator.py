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

from .core import integrity
from .core.errors import (BackendError, ConfigError, GameBusy, LedgerError, SheetbridgeError, UsageError,
                          WorkbookError)
from .api import get_game, load_match, new_match
from .core.match import Match, RoundRecord, parse_options, random_submissions
from .core.rng import Rng
from . import identity as ID
from .confessionals import read_webhooks
from .deadlines import RoundDeadlines
from .host_lines import listed
from .late_lock import late_entries, locked_fill, remember_lock, restore_lock
from .private_pictures import picture_link_of, picture_uploads, prepare_picture_files, upload
from .picture_files import PictureWrite, plan_pictures, remove_leftovers, round_pictures
from .sheets import layout as L
from .sheets.store import BOARD, MASTER, Book, Store, player_key
from .sheets.model import TabData
from .sheets.xlsx import HEARTBEAT_FILE as XLSX_HEARTBEAT, LOCK_FILE as XLSX_LOCK, TMP_DIR as XLSX_TMP, XlsxStore
from .undo_guard import menu_round, undo_target
from .tabs import DECISIONS_TAB, board_tabs, master_tabs, player_tabs, read_decisions
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
    if default_garnets < 0:
        raise UsageError(f"--garnets {default_garnets}: opening garnets cannot be negative; give 0 or more")
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

def open_store(folder: str | Path, progress: Progress | None = None) -> Store:
    """The store of the game in `folder` (an xlsx game, or a Google game's pointer file).
    ``progress`` hears what the host should know meanwhile ("waiting for Google's quota (30 s)...")."""
    folder = Path(folder)
    cfg = read_config(folder)
    if cfg.get("backend", "xlsx") == "google":
        from .sheets.google import open_google_store
        store: Store = open_google_store({**cfg, "folder": str(folder)}, progress=progress)
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

    def record_extra(self) -> dict[str, Any]:
        """The orchestrator's bookkeeping stored beside the match in the record, for the next write."""
        opened = dict(self.opened_at)
        # Only with a deadline (no clock otherwise: the same inputs give the same bytes), and only by the write
        # that opens the round: a later one (lock, reopen) would pass for an opening after the deadline.
        if self.deadline and not self.match.finished and self.opens_round:
            opened.setdefault(str(self.match.round), utc_now())
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


def utc_now() -> str:
    """Now, UTC, to the second: the one place the orchestrator reads the clock (tests patch it)."""
    import datetime as dt
    return dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def load(store: Store, game_id: str | None = None, extra_tabs: Sequence[str] = (), *,
         accept_ledger_edits: bool = False) -> Loaded:
    """Read a game from its master book; refuse (LedgerError) if the ledger or record was edited by hand,
    unless `accept_ledger_edits` (then correcting rows are booked, see :func:`accept_ledger_edits`)."""
    master = store.open(MASTER, store.master_location())
    game_id = game_id or getattr(store, "game_id", None)
    if game_id is None:
        names = master.tab_names()
        if L.tab_name("record") not in names:
            raise WorkbookError(f"{master.location}: no {L.tab_name('record')!r} tab; this is not a sheetbridge "
                                "master workbook, or the tab was renamed")
        game_id = master.read([L.tab_name("record")])[L.tab_name("record")]
        game_id = L.read_json_tab(game_id, f"{master.location}, tab {L.tab_name('record')}")["match"]["game"]
    try:
        rects = master.read(_tab_names(game_id) + [DECISIONS_TAB] + list(extra_tabs))
    except WorkbookError:   # a master written before the Decisions tab existed, or without an extra tab
        rects = master.read(_tab_names(game_id))
    where = f"{master.location}, tab "
    record = L.read_json_tab(rects[L.tab_name("record")], where + L.tab_name("record"))
    store.import_cache(record.get("store", {}))
    # The record is the authority for the ledger; the Ledger tab is its checked copy (core/integrity.py).
    checked = integrity.verify_record(record, rects[L.tab_name("ledger")])
    if checked.problems:
        raise ConfigError(f"{master.location}: " + "; ".join(checked.problems))
    if checked.findings and not accept_ledger_edits:
        raise LedgerError(f"{master.location}: " + integrity.describe(checked.findings))
    rows, accepted = integrity.accept(checked) if checked.findings else (checked.rows, [])
    game = get_game(game_id)
    tables = {t.name: rects[t.name] for t in game.spec.tables}
    match = load_match(record["match"], rows, tables=tables)
    try:
        match.ledger.check_no_negative(match.players)
    except LedgerError as e:
        raise LedgerError(f"{master.location}, tab {L.tab_name('ledger')}: {e}") from None
    warnings: list[str] = checked.notes + accepted
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
    problems = game.check_content(tables, match.options)
    if problems:
        raise ConfigError(f"{master.location}: " + "; ".join(problems))
    if not match.rounds and match.tables != match.setup_tables:
        # Content tabs edited before round 1 is resolved: the game is set up again from them, as promised.
        match.setup_tables = match.tables
        match.state = match._fresh_state()
    players = [PlayerInfo(p["name"], p.get("email", ""), 0) for p in record["players"]]
    deadline = _read_setting(rects[L.tab_name("config")], "deadline")
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
        typed = _read_setting(rects[L.tab_name("config")], key)
        setattr(ld, key, record.get(key, "") if typed is None else typed)
    ld.webhooks = read_webhooks(rects[L.tab_name("players")], match.players)
    ld.picture_files = dict(record.get("picture_files") or {})
    return ld


def _read_setting(rect, key: str) -> str | None:
    """A setting row of the Config tab ("deadline" | value), above the options; None if absent."""
    for row in rect:
        if row and row[0] == "option":
            break
        if row and row[0] == key:
            return row[1].strip() if len(row) > 1 else ""
    return None


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
    seed: int | str = 0
    resumed: list[str] = field(default_factory=list)       # books an earlier, failed run created, reused
    trashed: list[str] = field(default_factory=list)       # leftovers of earlier failed runs, moved to the trash
    replaced: dict[str, str] = field(default_factory=dict)  # the replaced game's files: key -> location
    removed: list[str] = field(default_factory=list)       # of those, the ones deleted (files in a folder)
    replaced_note: str = ""                                # why the replaced game's files are unknown


def fresh_seed() -> str:
    """A new game's seed when none is given: 12 random digits from :mod:`secrets`. `new`
    prints it and the Config tab shows it, so ``--seed`` replays the game exactly (as text,
    the way the CLI passes it: the record is then byte for byte the same)."""
    import secrets
    return str(10 ** 11 + secrets.randbelow(9 * 10 ** 11))


def new_game(game_id: str, players: Sequence[PlayerInfo], store: Store, *, seed: int | str | None = None,
             options: Mapping[str, Any] | None = None, folder: Path | None = None, board: bool = True,
             name: str | None = None, progress: Progress | None = None, cohosts: Sequence[str] = ()) -> NewGame:
    """Create the master book, one book per player and a public board book.

    Every book is created and written first, and only then shared (Google): nobody is
    invited into a game that does not fully exist. With ``folder`` the creation is
    resumable: each book is recorded in ``FOLDER/.sheetbridge-new.json`` as soon as it
    exists, and calling again after a failure reuses those, creates only what is missing
    and finishes the sharing. ``seed=None`` draws a fresh seed (:func:`fresh_seed`), or
    takes the one an unfinished earlier run drew.

    A game already in ``folder`` is replaced: the files its record lists that the new
    game does not overwrite are deleted if they are files in the folder, and returned in
    ``replaced`` otherwise (Google spreadsheets are never deleted).

    Holds the store's lock ("new"): for a folder, or a Google game whose master does not
    exist yet, the game folder's file lock."""
    with store.lock("new"):
        return _new_game_locked(game_id, players, store, seed=seed, options=options, folder=folder, board=board,
                                name=name, progress=progress, cohosts=list(cohosts))


def _new_game_locked(game_id: str, players: Sequence[PlayerInfo], store: Store, *, seed: int | str | None,
                     options: Mapping[str, Any] | None, folder: Path | None, board: bool, name: str | None,
                     progress: Progress | None, cohosts: Sequence[str] = ()) -> NewGame:
    game = get_game(game_id)
    say = progress or (lambda _line: None)
    journal = _NewJournal(folder)
    if seed is None:
        seed = journal.data.get("seed", None)
        if seed is None:
            seed = fresh_seed()
    tables = default_tables(game)
    match = new_match(game_id, [p.name for p in players], options=options, seed=seed, tables=tables,
                      garnets={p.name: p.garnets for p in players}, name=name)
    replaced, note = _replaced_game_files(folder, store) if folder is not None else ({}, "")

    fingerprint = json.dumps([game_id, [[p.name, p.email, p.garnets] for p in players], match.options,
                              str(seed), match.name, board], sort_keys=True, default=str)
    books = journal.data.setdefault("books", {})
    if journal.data.get("fingerprint") != fingerprint:
        for entry in books.values():       # other arguments: every reused book is written again
            entry["written"] = False
    journal.data.update({"version": 1, "game": game_id, "seed": seed, "fingerprint": fingerprint})
    journal.save()
    store.begin_creation(journal.data, journal.save)

    resumed: list[str] = []

    def create(key: str, title: str, tabs, what: str):
        before = books.get(key, {}).get("id")
        info = store.create(key, title, tabs)
        if before is not None and before == info.location:
            resumed.append(key)
            say(f"reused {what} an earlier run created: {info.location}")
        else:
            say(f"created {what}: {info.location}")
        return info

    ids = ID.file_ids(seed, match.name, match.players, ID.book_keys(match.players, board))
    infos = {p.name: create(player_key(p.name), f"{game.spec.name}: {p.name}",
                            ID.with_identity(player_tabs(match, p.name), player_key(p.name), ids),
                            f"{p.name}'s file") for p in players}
    locations = {name_: info.location for name_, info in infos.items()}
    board_info = create(BOARD, f"{game.spec.name}: public board",
                        ID.with_identity(board_tabs(match, store.embeds_pictures), BOARD, ids), "the public board") \
        if board else None
    board_loc = board_info.location if board_info else ""
    extra = {"identities": ids, **({"cohosts": list(cohosts)} if cohosts else {})}
    mtabs = master_tabs(match, players, locations, board_loc, store, record_extra=extra)
    if store.prepare_write(MASTER, None, mtabs):   # the record then names the master's own sheet ids too
        mtabs = master_tabs(match, players, locations, board_loc, store, record_extra=extra)
    master_info = create(MASTER, f"{game.spec.name}: host master", mtabs, "the host master")
    trashed = store.end_creation()
    for line in trashed:
        say(f"moved to the trash, unused: {line}")

    # The whole game exists: now, and only now, invite the players.
    for p in players:
        if p.email:
            store.share(infos[p.name], writer_email=p.email)
    emails = [p.email for p in players if p.email] + list(cohosts)
    if board_info is not None and emails:
        store.share(board_info, reader_email=emails)
    if cohosts:   # co-hosts: writers on the master, readers of the board, never a player's file
        store.share(master_info, writer_email=",".join(cohosts))

    files = {MASTER: master_info.location, **({BOARD: board_loc} if board_loc else {}),
             **{player_key(n): loc for n, loc in locations.items()}}
    removed: list[str] = []
    if folder is not None:
        cfg = {"backend": "xlsx" if isinstance(store, XlsxStore) else "google", "game": game_id,
               "master": master_info.location, "files": files}
        cfg.update(getattr(store, "config_extra", lambda: {})())
        if cohosts:
            cfg["cohosts"] = list(cohosts)
        write_config(folder, cfg)
        journal.remove()
        replaced, removed = _clear_replaced(folder, replaced, files)
    return NewGame(folder or Path("."), match, {**locations, "master": master_info.location}, seed, resumed,
                   trashed, replaced, removed, note)


class _NewJournal:
    """`new`'s progress, in FOLDER/.sheetbridge-new.json, replaced atomically at every step
    (kept in memory only without a folder): the seed, and each book as soon as it exists."""

    def __init__(self, folder: Path | None) -> None:
        from .sheets.store import NEW_PROGRESS_FILE
        self.path = Path(folder) / NEW_PROGRESS_FILE if folder is not None else None
        self.data: dict[str, Any] = {}
        if self.path is not None and self.path.is_file():
            try:
                data = json.loads(self.path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                data = None
            if isinstance(data, dict) and data.get("version") == 1:
                self.data = data

    def save(self) -> None:
        if self.path is None:
            return
        import os
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps(self.data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(tmp, self.path)

    def remove(self) -> None:
        if self.path is not None:
            self.path.unlink(missing_ok=True)


def _replaced_game_files(folder: Path, store: Store) -> tuple[dict[str, str], str]:
    """The files the game now in ``folder`` records as its own (key -> location), read
    before anything is written; ({}, "") if there is none, ({}, why) if they are unknown."""
    folder = Path(folder)
    if not (folder / CONFIG_FILE).exists() and not (folder / "master.xlsx").exists():
        return {}, ""
    try:
        cfg = read_config(folder)
        if isinstance(cfg.get("files"), dict):
            return {str(k): str(v) for k, v in cfg["files"].items()}, ""
        if cfg.get("backend", "xlsx") == "xlsx":
            old: Store = XlsxStore(folder)
        elif not isinstance(store, XlsxStore):
            old = store                               # the same Google account reads the old master
        else:
            old = open_store(folder)
        master = cfg.get("master") or old.master_location()
        rect = old.open(MASTER, master).read([L.tab_name("record")])[L.tab_name("record")]
        record = L.read_json_tab(rect, f"{master}, tab {L.tab_name('record')}")
        files = {MASTER: master, **({BOARD: record["board"]} if record.get("board") else {})}
        files.update({player_key(p): loc for p, loc in record.get("locations", {}).items()})
        return files, ""
    except (SheetbridgeError, KeyError, TypeError, AttributeError) as e:
        return {}, f"the replaced game's record could not be read ({e}); its files were left as they are"


def _clear_replaced(folder: Path, old: Mapping[str, str],
                    new: Mapping[str, str]) -> tuple[dict[str, str], list[str]]:
    """Delete the replaced game's .xlsx files the new game did not overwrite (only paths
    inside ``folder``). Returns what is left elsewhere (Google spreadsheets, never deleted)
    and the paths deleted."""
    kept: dict[str, str] = {}
    removed: list[str] = []
    overwritten = set(new.values())
    root = Path(folder).resolve()
    for key, loc in sorted(old.items()):
        if loc in overwritten:
            continue
        if not loc.endswith(".xlsx"):
            kept[key] = loc                           # a spreadsheet id: listed for the host, not deleted
            continue
        path = (root / loc).resolve()
        if root in path.parents and path.is_file():
            path.unlink()
            removed.append(loc)
    return kept, removed


# ------------------------------------------------------------ reading the books a round writes

@dataclass
class BookState:
    """One player's book (or the board) as read before anything is written."""
    key: str                      # "player:<name>" or "board"
    location: str
    rects: dict | None            # the tabs read; None when the book could not be read
    error: str = ""               # why the book could not be read (missing file, renamed tab...)
    reason: str = ""              # the same without its fix (an error quoting it says its own)
    raw: dict | None = None       # the entries typed for the open round (players only)
    stale: bool = False           # the Submission tab still shows another round
    stray: list = field(default_factory=list)   # entries typed outside the boxes (layout.StrayEntry)
    foreign: bool = False         # another book's identity (identity.py): refused, nothing of it read

    @property
    def player(self) -> str:
        return self.key.split(":", 1)[1] if self.key.startswith("player:") else ""


def _player_tab_names() -> list[str]:
    return [L.tab_name("submission"), L.tab_name("results"), L.tab_name("board")]


def read_books(ld: Loaded, players: Sequence[str] | None = None, board: bool = True) -> dict[str, BookState]:
    """Read every player's book (and the board): one read per book. A book that cannot be read is
    reported in its BookState, never raised, so one broken file does not hide the others."""
    m = ld.match
    out: dict[str, BookState] = {}
    names = _player_tab_names()
    who = list(m.players if players is None else players)
    states = [BookState(player_key(p), ld.locations.get(p, ""), None) for p in who]
    if board and ld.board_location:
        states.append(BookState(BOARD, ld.board_location, None))

    def fetch(st: BookState):
        try:
            return _read_own_book(ld, st, names if st.key != BOARD else [L.tab_name("board")])
        except WorkbookError as e:   # this book's problem, reported on its line; the others are still read
            return e

    fetched = _each_book(ld.store, states, fetch)
    first = next((outcome for state, outcome in fetched if state == "failed"), None)
    if first is not None:
        raise first
    for p, st, (_, got) in zip(who, states, fetched):
        key = st.key
        out[key] = st
        st.foreign = isinstance(got, ID.ForeignFile)
        try:
            if isinstance(got, WorkbookError):
                raise got
            st.rects = got
            if m.finished:
                st.stale = _marker(st.rects[names[0]]) != "finished"
            else:
                where = f"{st.location}, tab {names[0]} ({p})"
                form = m.form(p)
                st.raw = L.read_form(form, st.rects[names[0]], where)
                st.stale = st.raw is None
                if not st.stale:
                    st.stray = L.stray_entries(form, st.rects[names[0]], p)
        except WorkbookError as e:
            st.rects, st.error, st.reason = None, str(e), getattr(e, "what", "")
    if board and ld.board_location:
        st, (_, got) = states[-1], fetched[-1]
        if isinstance(got, WorkbookError):
            st.error, st.foreign = str(got), isinstance(got, ID.ForeignFile)
        else:
            st.rects = got
        out[BOARD] = st
    return out


def _read_own_book(ld: Loaded, st: BookState, tabs: Sequence[str]) -> dict:
    """The book's tabs, in the same one read as its Identity tab when the game records one: a book
    with another identity raises ForeignFile, and nothing else read from it is kept."""
    book = ld.store.open(st.key, st.location)
    if st.key not in ld.identities:
        return book.read(tabs)
    try:
        rects = book.read(list(tabs) + [ID.IDENTITY_TAB])
    except WorkbookError as e:
        # A tab is missing: whose book is it? Another's is refused; our own goes to the usual repair.
        try:
            names = book.tab_names()
            own = book.read([ID.IDENTITY_TAB])[ID.IDENTITY_TAB] if ID.IDENTITY_TAB in names else None
        except (WorkbookError, NotImplementedError):
            raise e from None                       # unreadable as a whole: the usual repair applies
        why = ID.refusal(st.key, st.location, own, ld.identities)
        raise (ID.ForeignFile(why) if why else e) from None
    why = ID.refusal(st.key, st.location, rects.pop(ID.IDENTITY_TAB), ld.identities)
    if why:
        raise ID.ForeignFile(why)
    return rects


def _marker(rect) -> str:
    return rect[1][1] if len(rect) > 1 and len(rect[1]) > 1 else ""


def _folder_hint(store: Store) -> str:
    folder = getattr(store, "folder", None) or getattr(store, "game_folder", None)
    return str(folder) if folder else "GAME_FOLDER"


def _broken_error(ld: Loaded, broken: Sequence[BookState], doing: str) -> WorkbookError:
    foreign = [b for b in broken if b.foreign]
    if foreign:
        others = [b for b in broken if not b.foreign]
        also = str(_broken_error(ld, others, doing)).split(": ", 1)[1] if others else ""
        return ID.refused_error(doing, [(b.key, b.location, b.error) for b in foreign], _folder_hint(ld.store),
                                "also " + also if also else "")
    # One line of about 300 characters however many files are broken: the first one's reason only.
    names = listed([b.player or "the public board" for b in broken], 60)
    details = (broken[0].reason or broken[0].error) + (f"; and {len(broken) - 1} more" if len(broken) > 1 else "")
    who = " ".join(f"--player {b.player}" for b in broken if b.player) if len(broken) <= 3 else ""
    return WorkbookError(f"cannot {doing}: {len(broken)} unreadable file(s) ({names}): {details}. Nothing was "
                         f"written: run `sheetbridge repair {_folder_hint(ld.store)}{' ' + who if who else ''}` (typed entries "
                         "are kept), then this again")


# ------------------------------------------------------------ what a book should show

@dataclass
class Write:
    key: str
    location: str
    tabs: dict[str, TabData]
    create: bool = False          # the book is missing or unreadable: create it anew (repair only)
    remove: list[str] = field(default_factory=list)   # tabs to remove after writing (a renamed Submission tab)
    uploads: list = field(default_factory=list)   # (Drive file, PNG): the player's picture, put before the tabs


def _is_locked(ld: Loaded) -> bool:
    """The open round's submissions were snapshot at the deadline (or by `sheetbridge lock`)."""
    return bool(ld.locked) and not ld.match.finished and ld.locked.get("round") == ld.match.round


def _fresh_prefill(ld: Loaded, player: str) -> Mapping[str, Any] | None:
    """Entries an undo kept for the open round, put back when its Submission tab is drawn again."""
    return ld.saved.get(str(ld.match.round), {}).get(player)


def _plan(ld: Loaded, books: Mapping[str, BookState], *, redraw: Sequence[str] = (),
          prefill: Mapping[str, Any] | None = None) -> list[Write | PictureWrite]:
    """The writes that make every readable book show what the record says, and nothing more.

    A player's Submission tab is redrawn only when it shows another round (or for `redraw`
    players): a current one holds what the player is typing. Results and Board are rewritten
    when they differ. Comparing content, not a flag, is what lets any re-run finish a
    publication that was cut off, the board's and the pictures' included (:mod:`.picture_files`).
    """
    m = ld.match
    out: list[Write] = []
    for p in m.players:
        st = books.get(player_key(p))
        if st is None or st.rects is None:
            continue
        locked = _is_locked(ld)
        fill = ((prefill or {}).get(p) if prefill is not None else
                locked_fill(ld, p) if locked else _fresh_prefill(ld, p))
        want = player_tabs(m, p, fill, locked=locked and getattr(ld.store, "locks_forms", False),
                           picture=ld.store.embeds_pictures, picture_link=picture_link_of(ld, p))
        sub = L.tab_name("submission")
        tabs = {name: tab for name, tab in want.items()
                if name != sub and st.rects.get(name) != tab.values()}
        shows = _marker(st.rects.get(sub) or [])
        if shows != ("finished" if m.finished else str(m.round)) or p in redraw:
            tabs[sub] = want[sub]
        if tabs:
            tabs = {n: tabs[n] for n in want if n in tabs}
            if len(tabs) == len(want):    # a whole book: its Identity tab too, so it stays one whole write
                tabs = ID.with_identity(tabs, st.key, ld.identities)
            uploads = picture_uploads(ld, p) if L.tab_name("results") in tabs else []
            out.append(Write(st.key, st.location, tabs, uploads=uploads))
    st = books.get(BOARD)
    if st is not None and st.rects is not None:
        board = L.tab_name("board")   # (the Picture tab shows the same round: it follows the Board tab)
        if st.rects.get(board) != board_tabs(m)[board].values():
            out.append(Write(BOARD, st.location, ID.with_identity(board_tabs(m, ld.store.embeds_pictures), BOARD,
                                                                  ld.identities)))  # drawn only now
    return out + plan_pictures(m, game_folder(ld.store))   # the pictures are published like the books


def _write_all(ld: Loaded, writes: Sequence[Write | PictureWrite], progress: Progress | None,
               checked: bool = False) -> list[str]:
    """Write players' books and the board, after the master (the commit point); first make sure
    the record is still the one loaded. On Google several books are written at once
    (``store.publish_workers``, sharing one pacer). A failure lets the writes already under way
    finish, starts no other, and raises the first error (in the order of ``writes``) naming every
    book left unpublished: running the command again publishes them from the master's record.
    Returns the locations written, in the order of ``writes``."""
    if writes and not checked:
        _check_revision(ld)

    def publish(w: Write | PictureWrite) -> None:
        if isinstance(w, PictureWrite):
            w.publish()
        else:
            upload(ld.store, w.uploads)   # (first: the Results tab written is what says it is done)
            ld.store.open(w.key, w.location).write(w.tabs)

    def published(w: Write | PictureWrite, _result) -> None:
        if progress:
            progress(_published_line(w))

    outcomes = _each_book(ld.store, writes, publish, published)
    failed = [outcome for state, outcome in outcomes if state == "failed"]
    if failed:
        left = [w for w, (state, _) in zip(writes, outcomes) if state != "done"]
        first = failed[0]
        message = f"{first} (still unpublished: {_unpublished_message(left)})"
        try:
            error = type(first)(message)
        except TypeError:
            error = BackendError(message)
        raise error from first
    return [w.location for w, (state, _) in zip(writes, outcomes) if state == "done"]


def _published_line(w: Write | PictureWrite) -> str:
    if isinstance(w, PictureWrite):
        return f"{'removed' if w.data is None else 'saved'} {w.location}"
    return f"published {w.key.split(':', 1)[-1]}'s file" if w.key.startswith("player:") else "published the public board"


def _each_book(store: Store, items: Sequence[Any], job: Callable[[Any], Any],
               done: Callable[[Any, Any], None] | None = None) -> list[tuple[str, Any]]:
    """``job(item)`` for every item, ``store.publish_workers`` at once (Google: each book is one
    request, so their network waits overlap; xlsx: one after another). Returns, in the order of
    ``items``, ("done", result), ("failed", the SheetbridgeError) or ("skipped", None): after a
    failure no other job starts, those already running finish. Anything else a job raises (a bug,
    a kill) is raised here once the running jobs have ended. ``done(item, result)`` is called in
    this thread as each job succeeds."""
    outcomes: list[tuple[str, Any]] = [("skipped", None)] * len(items)
    workers = min(max(1, int(getattr(store, "publish_workers", 1) or 1)), len(items))
    if workers <= 1:
        for i, item in enumerate(items):
            try:
                result = job(item)
            except SheetbridgeError as exc:
                outcomes[i] = ("failed", exc)
                break
            outcomes[i] = ("done", result)
            if done:
                done(item, result)
        return outcomes
    from concurrent.futures import ThreadPoolExecutor, as_completed
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="sheetbridge-book") as pool:
        futures = {pool.submit(job, item): i for i, item in enumerate(items)}
        try:
            for future in as_completed(futures):
                i = futures[future]
                if future.cancelled():
                    continue
                exc = future.exception()
                if exc is None:
                    outcomes[i] = ("done", future.result())
                    if done:
                        done(items[i], outcomes[i][1])
                elif isinstance(exc, SheetbridgeError):
                    outcomes[i] = ("failed", exc)
                    for other in futures:
                        other.cancel()          # only those not started yet
                else:
                    raise exc
        except BaseException:
            for other in futures:
                other.cancel()
            raise
    return outcomes


def _commit(ld: Loaded, progress: Progress | None = None) -> str:
    """Write the master: the commit point. Refused if another run changed the game since `load`
    (compare-and-set on the record's revision), so a stale run can never overwrite a newer round."""
    m = ld.match

    def draw() -> dict[str, TabData]:
        return master_tabs(m, ld.players, ld.locations, ld.board_location, ld.store, ld.warnings,
                           record_extra=ld.record_extra(), webhooks=ld.webhooks)

    mtabs = draw()
    if ld.store.prepare_write(MASTER, ld.master.location, mtabs):
        mtabs = draw()   # the record then names the master's own ids as this write leaves them
    _check_revision(ld)
    ld.master.write(mtabs)
    ld.revision += 1
    if progress:
        progress("saved the master (the round's record and ledger)")
    return ld.master.location


def _check_revision(ld: Loaded) -> None:
    """Compare-and-set: refuse to write if another run wrote the master since this one read it."""
    rec_tab = L.tab_name("record")
    now = L.read_json_tab(ld.master.read([rec_tab])[rec_tab], f"{ld.master.location}, tab {rec_tab}")
    if int(now.get("revision", 0)) != ld.revision:
        raise GameBusy("the game changed while this command ran (another sheetbridge, or a restored backup); "
                       "nothing was written: run the command again")


def _unpublished_message(writes: Sequence[Write | PictureWrite]) -> str:
    names = [w.key.split(":", 1)[1] if w.key.startswith("player:") else "the round's pictures"
             if isinstance(w, PictureWrite) else "the public board" for w in writes]
    return ", ".join(dict.fromkeys(names))


# ------------------------------------------------------------ status

@dataclass
class StatusLine:
    player: str
    state: str        # "submitted", "not submitted", "file shows another round...", "cannot read the file..."
    valid: bool
    problem_fields: tuple[str, ...] = ()
    note: str = ""    # e.g. "edited after the lock (not counted)": names only, never values


def _load_for(store: Store, request_id: str | None, *, cleanup: bool = True) -> tuple[Loaded, ResolveResult | None]:
    """The game, loaded by a command that holds its lock (after clearing what a killed run left, unless
    the command writes nothing); with a "nothing to do" result when the menu's request was already
    done (a request runs exactly once, however often `watch` sees it)."""
    if cleanup:
        _cleanup(store)
    ld = load(store)
    if request_id and request_id in ld.handled:
        return ld, ResolveResult("nothing", f"request {request_id} was already done", None, ld.match)
    return ld, None


def _cleanup(store: Store) -> None:
    """Remove what a killed run left: the store's temporary files and the pictures' (holding the lock)."""
    store.cleanup()
    remove_leftovers(game_folder(store))


def _read_every_book(ld: Loaded, doing: str, *, board: bool = True) -> dict[str, BookState]:
    """Every book the command writes, read before anything is written; stops (naming each broken
    book and what to do) if one cannot be read."""
    books = read_books(ld, board=board)
    broken = [b for b in books.values() if b.error]
    if broken:
        raise _broken_error(ld, broken, doing)
    return books


def status(store: Store) -> tuple[Loaded, list[StatusLine]]:
    """Who has submitted for the open round and whether it is valid, revealing no submission.
    A file that cannot be read is reported on its player's line; the others are still read. A
    public board that cannot be read is added to ``ld.warnings`` with the command that mends it."""
    with store.lock("status"):
        _cleanup(store)
        ld = load(store)
        lines: list[StatusLine] = []
        if ld.match.finished:
            return ld, lines
        early = deadline_warning(ld, utc_now())
        if early:
            ld.warnings.append(early)
        books = read_books(ld)
        board = books.get(BOARD)
        if board is not None and board.error:   # told now, not at the deadline when resolve stops on it
            ld.warnings.append(f"the public board's file cannot be read ({board.error}); resolve will stop until "
                               f"`sheetbridge repair {_folder_hint(store)}` re-creates it from the master's record")
        elsewhere: set[str] = set()   # players with another file of theirs in players/ (collect.py)
        if getattr(store, "folder", None) is not None:
            from .collect import unused_lines
            unused = unused_lines(store, ld.identities, ld.locations)
            ld.warnings += [line for _owner, line in unused]
            elsewhere = {owner for owner, _line in unused if owner}
        for p in ld.match.players:
            st = books[player_key(p)]
            if st.foreign:   # on its own line, with the fix; nothing of the file was read
                lines.append(StatusLine(p, f"{st.error}: {ID.fix(st.key, st.location, _folder_hint(store))}", False))
            elif st.error:
                lines.append(StatusLine(p, f"cannot read the file: {st.error}; `sheetbridge repair "
                                           f"{_folder_hint(store)} --player {p}` re-creates it", False))
            elif st.stale:
                lines.append(StatusLine(p, "file shows another round: run resolve to finish publishing", False))
            else:
                locked = _is_locked(ld)
                sub = ld.match.parse(p, ld.locked["raw"].get(p) if locked else st.raw)
                note = ("edited after the lock (not counted)"
                        if locked and _entries(st.raw) != _entries(ld.locked["raw"].get(p)) else "")
                if st.stray:   # where, never what: status reveals no value
                    note = "; ".join(x for x in (note, "typed outside the boxes (ignored): "
                                                  + listed([e.cell for e in st.stray], 60)) if x)
                if p in elsewhere:
                    note = "; ".join(x for x in (note, "another file of theirs is in players/ (see above)") if x)
                if sub is None:
                    lines.append(StatusLine(p, "not submitted", False, note=note))
                else:
                    labels = []
                    for pr in sub.problems:
                        label = getattr(pr, "label", "") or pr.field
                        if label not in labels:
                            labels.append(label)
                    lines.append(StatusLine(p, "submitted", not sub.problems, tuple(labels), note))
        return ld, lines


# ------------------------------------------------------------ resolve

@dataclass
class ResolveResult:
    action: str                       # "resolved", "published", "nothing", "dry-run", "undone"
    message: str
    record: RoundRecord | None = None
    match: Match | None = None
    written: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def resolve(store: Store, *, dry_run: bool = False, round_no: int | None = None, allow_empty: bool = False,
            progress: Progress | None = None, request_id: str | None = None) -> ResolveResult:
    """Resolve the open round and publish it, or finish publishing one that was cut off.

    Every book the round writes is read first; if one cannot be read, nothing is written.
    The master is written first (the commit point), then every book whose content differs.
    """
    with store.lock("resolve"):
        ld, done = _load_for(store, request_id, cleanup=not dry_run)
        if done:
            return done
        m = ld.match
        books = read_books(ld)
        broken = [b for b in books.values() if b.error]
        if broken and not dry_run:
            raise _broken_error(ld, broken, "resolve")
        warnings = list(ld.warnings) + [f"cannot read {b.player or 'the board'}'s file: {b.error}" for b in broken]
        stale = [b.player for b in books.values() if b.stale]

        def finish(reason: str, unchanged: str = "; nothing changed") -> ResolveResult:
            """Publish what an earlier run left unpublished (same result, no ledger rows), or say nothing changed."""
            pending = _plan(ld, books)   # (only here: a resolved round is planned once, after it is resolved)
            if not pending:
                return ResolveResult("nothing", reason + unchanged, None, m, warnings=warnings)
            what = _unpublished_message(pending)
            last = m.rounds[-1] if m.rounds else None
            if dry_run:
                return ResolveResult("dry-run", f"{reason}; resolve would finish publishing to {what}", last, m,
                                     warnings=warnings)
            written = _write_all(ld, pending, progress)
            return ResolveResult("published", f"{reason}; finished publishing to {what}", last, m, written,
                                 warnings=warnings)

        if stale:
            # Players could not submit for the open round: their files still show another one.
            return finish(f"{len(stale)} player file(s) still showed another round than the open round "
                          f"{'(the game is over)' if m.finished else m.round}")
        if m.finished:
            return finish(f"{m.game.spec.name} is over", "; nothing to resolve")
        if round_no is not None and round_no != m.round:
            if round_no < m.round:
                return finish(f"round {round_no} is already resolved")
            raise UsageError(f"round {round_no} is not open yet; round {m.round} is")
        entered = _apply_typed_decisions(ld)
        if entered and not dry_run:
            warnings += entered
        raws = {p: books[player_key(p)].raw for p in m.players}
        late: dict[str, dict[str, Any]] = {}
        typed_late: dict[str, Any] | None = None     # (None: the round was not locked)
        if _is_locked(ld):
            # The deadline snapshot is the submission; later edits are named, never counted.
            later = [p for p in m.players if _entries(raws[p]) != _entries(ld.locked["raw"].get(p))]
            late = late_entries(ld, later)
            typed_late = {p: raws[p] for p in later}   # kept in the record: an undo puts them back (late_lock.py)
            raws = {p: ld.locked["raw"].get(p) for p in m.players}
            if later:
                warnings.append(f"edited after the lock (not counted): {', '.join(later)}")
        stray = {} if _is_locked(ld) else {
            p: [e.message for e in books[player_key(p)].stray] for p in m.players if books[player_key(p)].stray}
        warnings += [f"{p}: {line}" for p, lines in stray.items() for line in lines]
        submitted = [p for p in m.players if m.parse(p, raws[p]) is not None]
        if not submitted and not allow_empty and (not dry_run or _plan(ld, books)):
            return finish(f"nobody has submitted for round {m.round} yet; nothing was resolved", " (add --allow-empty "
                          "to resolve it with every player's default)")
        rec = m.resolve(raws, tables=m.tables, stray=stray, late=late)
        if dry_run:   # the same answer for `resolve --dry-run` and the menu's Preview
            said = (f"round {rec.round} would be resolved" if submitted else f"nobody has submitted for round "
                    f"{rec.round} yet: with every player's default it would be resolved as shown")
            return ResolveResult("dry-run", said + "; nothing was written", rec, m, warnings=warnings)
        ld.saved.pop(str(rec.round), None)   # entries kept by an undo for this round were used
        if typed_late is not None:
            remember_lock(ld, typed_late)
        ld.locked = None                      # the next round's forms open unlocked
        ld.opens_round = True
        if request_id:
            ld.handled.append(request_id)
        # Compute everything before the first write (a player's first picture file: made, empty, to be linked).
        prepare_picture_files(ld)
        writes = _plan(ld, books)
        written = [_commit(ld, progress)]
        written += _write_all(ld, writes, progress, checked=True)
        skipped = [b.location for b in books.values() if b.location not in written]
        return ResolveResult("resolved", f"round {rec.round} resolved and published", rec, m, written, skipped,
                             warnings)


# ------------------------------------------------------------ undo

def undo(store: Store, progress: Progress | None = None, request_id: str | None = None,
         round_no: int | None = None, from_menu: bool = False) -> ResolveResult:
    """Roll back the last resolved round by replaying the record up to the round before.

    Entries players had already typed for the next round are kept in the master and put
    back in their Submission tabs when that round opens again. With `round_no`, only that
    round is undone: run again once it is undone, the undo changes nothing (see undo_guard;
    `from_menu`: the round of a menu request, which older menus sent differently).
    """
    with store.lock("undo"):
        ld, done = _load_for(store, request_id)
        if done:
            return done
        m = ld.match
        round_no = menu_round(m, round_no) if from_menu else round_no
        already = undo_target(m, round_no)
        books = _read_every_book(ld, "undo")
        pending = _plan(ld, books)
        if pending:
            # An earlier run (often an undo) was cut off while publishing: finish it instead of undoing
            # one more round, which is what a host re-running a failed undo means.
            written = _write_all(ld, pending, progress)
            then = (f"Round {round_no} is undone" if already else "Nothing was undone: run undo again to undo "
                    f"round {m.rounds[-1].round if m.rounds else '-'}")
            return ResolveResult("published", f"an earlier run was cut off while publishing; finished publishing to "
                                 f"{_unpublished_message(pending)}. {then}", None, m, written, [], ld.warnings)
        if already:
            return ResolveResult("nothing", already, None, m, warnings=ld.warnings)
        typed = {b.player: b.raw for b in books.values() if b.player and b.raw and _has_entries(b.raw)}
        next_round = m.round
        last = m.undo()
        if typed:
            ld.saved[str(next_round)] = {**ld.saved.get(str(next_round), {}), **typed}
        # The undone round's entries go back into the Submission tabs (kept in the record, so a
        # run cut off after the master write puts them back too).
        ld.saved[str(last.round)] = {p: raw for p, raw in last.raw.items() if raw}
        lifted = ld.locked if _is_locked(ld) else None
        ld.locked = None
        kept_late = restore_lock(ld, last)   # a round resolved from a lock is locked again, late entries shown
        ld.opens_round = ld.locked is None   # (a round locked again keeps the opening its deadline was judged by)
        if request_id:
            ld.handled.append(request_id)
        writes = _plan(ld, books, redraw=m.players)
        written = [_commit(ld, progress)]
        written += _write_all(ld, writes, progress, checked=True)
        msg = (f"round {last.round} undone: state, ledger and tabs recomputed by replay; players' submissions for it "
               "are back in their Submission tabs")
        if typed:
            msg += (f"; entries {', '.join(typed)} had typed for round {next_round} are kept in the master and will "
                    f"be put back when round {next_round} opens again")
        if lifted:
            msg += f"; round {next_round}'s lock is lifted (its deadline snapshot dropped, what players typed kept)"
        msg += kept_late
        return ResolveResult("undone", msg, last, m, written, [], ld.warnings)


def _has_entries(raw: Mapping[str, Any]) -> bool:
    return any(str(v).strip() for rows in raw.values() for row in rows for v in row.values())


# ------------------------------------------------------------ repair

@dataclass
class RepairResult:
    written: list[str]
    notes: list[str]


def repair(store: Store, players: Sequence[str] | None = None, board: bool | None = None) -> RepairResult:
    """Redraw players' books (and the board) from the record; re-create missing or unreadable ones.

    Entries a player typed for the open round are kept: read from the Submission tab, or from a
    tab with the Submission layout under another name (a renamed tab, which is then removed).
    """
    with store.lock("repair"):
        _cleanup(store)
        ld = load(store)
        m = ld.match
        names = list(players or m.players)
        for p in names:
            if p not in m.players:
                raise UsageError(f"{p!r} is not a player of this game; players are {', '.join(m.players)}")
        with_board = (not players) if board is None else board
        books = read_books(ld, names, board=with_board)
        before = dict(ld.identities)
        notes = _give_identities(ld, names, with_board and BOARD in books)
        writes: list[Write] = []
        emails = {pi.name: pi.email for pi in ld.players}
        for p in names:
            st = books[player_key(p)]
            prefill, renamed = st.raw, None
            if st.foreign:   # never salvaged: nothing of another's file goes into this one
                prefill = None
            elif st.error:
                prefill, renamed, note = _salvage(ld, p, st)
                notes.append(note)
            tabs = ID.with_identity(player_tabs(m, p, prefill if prefill is not None else _fresh_prefill(ld, p),
                                                picture=ld.store.embeds_pictures, picture_link=picture_link_of(ld, p)),
                                    st.key, ld.identities)
            if st.foreign:
                writes.append(_replace_foreign(ld, st, tabs, notes))
                continue
            exists = st.error == "" or renamed is not None or _opens(ld, st)
            writes.append(Write(st.key, st.location, tabs, create=not exists, remove=[renamed] if renamed else []))
        if with_board and BOARD in books:
            st = books[BOARD]
            tabs = ID.with_identity(board_tabs(m, ld.store.embeds_pictures), BOARD, ld.identities)
            if st.foreign:
                writes.append(_replace_foreign(ld, st, tabs, notes))
            else:
                writes.append(Write(BOARD, st.location, tabs, create=bool(st.error)))
                if st.error:
                    notes.append(f"the public board could not be read ({st.error}): re-created")
        elif with_board and not ld.board_location:
            notes.append("this game has no public board book")
        written: list[str] = []
        moved = False
        _check_revision(ld)
        for w in writes:
            if w.key.startswith("player:"):   # the picture its Results tab links, put first (Google)
                upload(store, picture_uploads(ld, w.key.split(":", 1)[1]))
            if w.create:
                p = w.key.split(":", 1)[1] if w.key.startswith("player:") else ""
                title = f"{m.game.spec.name}: {p}" if p else f"{m.game.spec.name}: public board"
                if p:
                    info = store.recreate(w.key, w.location, title, w.tabs, writer_email=emails.get(p) or None)
                else:
                    readers = ",".join([e for e in emails.values() if e] + ld.cohosts) or None
                    info = store.recreate(w.key, w.location, title, w.tabs, reader_email=readers)
                if info.location != w.location:
                    moved = True
                    if p:
                        ld.locations[p] = info.location
                    else:
                        ld.board_location = info.location
                written.append(info.location)
            else:
                book = store.open(w.key, w.location)
                book.write(w.tabs)
                if w.remove:
                    book.remove_tabs(w.remove)
                written.append(w.location)
        if moved or ld.identities != before:
            written.append(_commit(ld))
        for picture in plan_pictures(m, game_folder(store)):   # missing or wrong pictures are drawn again
            picture.publish()
            written.append(picture.location)
        return RepairResult(written, notes)


def _give_identities(ld: Loaded, players: Sequence[str], board: bool) -> list[str]:
    """A game made before identities: the books repair redraws get theirs now (recorded at its commit)."""
    m = ld.match
    keys = [k for k in ID.book_keys(players, board) if k not in ld.identities]
    if not keys:
        return []
    ld.identities.update(ID.file_ids(m.seed, m.name, m.players, keys))
    return [f"gave {len(keys)} file(s) their identity (a hidden Identity tab, recorded in the master): from now on "
            "a file saved in another's place is refused by name"]


def _replace_foreign(ld: Loaded, st: BookState, tabs: Mapping[str, TabData], notes: list[str]) -> Write:
    """Redraw a book that held another's file. A file in a folder is moved aside into broken/ (nothing is
    lost) and drawn anew; a Google spreadsheet is overwritten in place, its other tabs removed, so whoever
    it is shared with no longer sees the other file's content."""
    who = ID.owner_name(st.key)
    if isinstance(ld.store, XlsxStore):
        notes.append(f"{st.error}: it was moved aside into broken/ and {who}'s file was drawn anew")
        return Write(st.key, st.location, dict(tabs), create=True)
    others = [t for t in ld.store.open(st.key, st.location).tab_names() if t not in tabs]
    removed = " and its other tabs removed" if others else ""
    notes.append(f"{st.error}: it was overwritten with {who}'s file{removed}")
    return Write(st.key, st.location, dict(tabs), remove=others)


def _opens(ld: Loaded, st: BookState) -> bool:
    """The book exists and opens (only a tab is missing or damaged): redraw it in place."""
    try:
        ld.store.open(st.key, st.location).tab_names()
        return True
    except (WorkbookError, NotImplementedError):
        return False


def _salvage(ld: Loaded, player: str, st: BookState) -> tuple[Mapping[str, Any] | None, str | None, str]:
    """After a failed read: find the player's entries in a renamed Submission tab, if the book opens."""
    book = ld.store.open(st.key, st.location)
    try:
        names = book.tab_names()
    except (WorkbookError, NotImplementedError):
        return None, None, f"{player}'s file could not be read ({st.error}): re-created from the record"
    sub = L.tab_name("submission")
    form = None if ld.match.finished else ld.match.form(player)
    if sub in names:
        # Often only another tab is missing (a deleted Results or Board tab): keep what the player typed.
        readable, kept = _entries_in(book, sub, form, player)
        if readable:
            what = (f"the entries in its Submission tab for round {ld.match.round} were kept" if kept
                    else "its Submission tab held no entries for the open round")
            return kept, None, f"{player}'s file could not be read ({st.error}): redrawn from the record; {what}"
        return None, None, (f"{player}'s Submission tab could not be read ({st.error}): redrawn; the player "
                            "re-enters this round's entries")
    for name in names:
        if name in _player_tab_names():
            continue
        try:
            rect = book.read([name])[name]
            raw = L.read_form(form, rect, name) if form is not None else None
        except WorkbookError:
            continue
        if raw is not None and len(rect) > 2 and len(rect[2]) > 1 and rect[2][1] == player:
            return raw, name, (f"{player}'s Submission tab had been renamed to {name!r}: the entries in it were "
                               f"moved back into a new Submission tab and {name!r} was removed")
    return None, None, (f"{player}'s file had no Submission tab ({st.error}): a new one was drawn; the player "
                        "re-enters this round's entries")


def _entries_in(book: Book, tab: str, form: Any, player: str) -> tuple[bool, Mapping[str, Any] | None]:
    """Whether a Submission tab still reads, and the open round's entries in it (None: it shows
    another round, or nothing is typed)."""
    if form is None:   # the game is over: a closed form holds no entries
        return True, None
    try:
        raw = L.read_form(form, book.read([tab])[tab], f"{player}'s {tab} tab")
    except WorkbookError:
        return False, None
    return True, raw if raw is not None and _has_entries(raw) else None


def accept_ledger_edits(store: Store) -> list[str]:
    """Accept hand edits of the Ledger tab (or the Record tab): book correcting rows, never rewrite a row.

    Each accepted edit becomes a correcting row (the recorded row is put back as it
    was) and a line in the Host log until the next command rewrites it; the master is
    written once, the record re-sealed. Returns those lines (none: the Ledger tab matched
    the record and nothing was written).
    """
    with store.lock("repair --accept-ledger-edits"):
        ld = load(store, accept_ledger_edits=True)
        if ld.accepted:
            _commit(ld)
        return ld.accepted


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


# ------------------------------------------------------------ decisions

def _apply_typed_decisions(ld: Loaded) -> list[str]:
    """Enter the values the host typed in the Decisions tab that differ from the record."""
    notes = []
    m = ld.match
    asked = {r.key: r for r in m.requests()}
    for key, text in ld.typed_decisions.items():
        req = asked.get(key)
        if req is None:
            raise ConfigError(f"{ld.master.location}, tab {DECISIONS_TAB}: no decision {key!r} is asked for; "
                              "leave the key column as sheetbridge wrote it")
        try:
            value = req.read(text)
        except ValueError as e:
            raise ConfigError(f"{ld.master.location}, tab {DECISIONS_TAB}: {e}") from None
        value = list(value) if isinstance(value, tuple) else value
        if m.decisions.get(key) != value:
            m.decide(key, text)
            notes.append(f"decision {key} entered from the {DECISIONS_TAB} tab: {text}")
    return notes


@dataclass
class DecideResult:
    entered: list[str]
    pending: list[Any]
    match: Match
    written: list[str]


def decide(store: Store, key: str | None = None, value: str | None = None, *,
           progress: Progress | None = None) -> DecideResult:
    """Enter a decision the rules leave to the host (or the values typed in the Decisions tab), then
    publish what changed: the outcome, the ledger and every report that depends on it."""
    with store.lock("decide"):
        ld, _ = _load_for(store, None)
        m = ld.match
        books = _read_every_book(ld, "enter a decision")
        entered = _apply_typed_decisions(ld)
        if key is not None:
            if value is None:
                raise UsageError(f"decide {key}: give the value too, e.g. `sheetbridge decide DIR {key} VALUE`")
            req = m.decide(key, value)
            entered.append(f"decision {req.key} entered: {value}")
        if not entered:
            return DecideResult([], m.pending(), m, [])
        writes = _plan(ld, books)
        written = [_commit(ld, progress)]
        written += _write_all(ld, writes, progress, checked=True)
        return DecideResult(entered, m.pending(), m, written)


# ------------------------------------------------------------ pictures and announcements

def game_folder(store: Store) -> Path | None:
    """The host's folder of this game (xlsx files, or a Google game's pointer file), if any."""
    folder = getattr(store, "folder", None)
    if folder is None and getattr(store, "cache_file", None) is not None:
        folder = store.cache_file.parent
    return Path(folder) if folder is not None else None


@dataclass
class Announcement:
    round: int
    public: list[str]                       # Discord messages, in order
    private: dict[str, list[str]]           # player -> their messages (for confessionals)
    pictures: dict[str, bytes]              # "board" or player -> PNG


def announcement(store: Store, round_no: int | None = None) -> Announcement:
    """The round's public announcement and each player's private results as Discord Markdown,
    drawn from the same facts as the public board and the Results tabs."""
    from .announce import markdown, split_messages
    from .pictures import render_png
    ld = load(store)
    m = ld.match
    if not m.rounds:
        raise UsageError(f"no round has been resolved yet; the opening post of round {m.round} is ready: "
                         f"`sheetbridge announce {_folder_hint(store)} --opening`")
    rec = m.rounds[-1] if round_no is None else next((r for r in m.rounds if r.round == round_no), None)
    if rec is None:
        raise UsageError(f"round {round_no} is not resolved; resolved rounds: "
                         + ", ".join(str(r.round) for r in m.rounds))
    public = split_messages(markdown(rec.public)) if rec.public is not None else []
    if m.finished and rec is m.rounds[-1]:
        from .core.types import Report
        public += split_messages(markdown(Report(f"{m.game.spec.name}: the end", m._outcome_blocks())))
    private = {p: split_messages(markdown(rec.private[p])) for p in m.players if p in rec.private}
    pictures = {k: render_png(v) for k, v in round_pictures(m, rec.round).items()}
    return Announcement(rec.round, public, private, pictures)


# ------------------------------------------------------------ the deadline: lock and reopen

def _entries(raw: Mapping[str, Any] | None) -> str:
    """A submission's typed entries, canonical (blank cells are no entry), for comparing two reads."""
    if not raw:
        return ""
    clean = {sec: [{k: str(v).strip() for k, v in row.items() if str(v).strip()} for row in rows]
             for sec, rows in sorted(raw.items())}
    return json.dumps(clean, sort_keys=True) if any(r for rows in clean.values() for r in rows) else ""


def lock_submissions(store: Store, *, request_id: str | None = None, progress: Progress | None = None,
                     why: str = "locked by the host", due_at: str | None = None) -> ResolveResult:
    """Take the deadline snapshot of every player's Submission tab into the master's record: `resolve`
    uses it, and later edits are named by `status` and never counted. On Google the Submission tabs
    are also protected, so only the host can edit them until `reopen_submissions` or the next round.
    With `due_at` (watch's clock) only if the deadline is due for the round open now, under the lock:
    a round resolved or undone since watch read the game is never locked by that read."""
    with store.lock("lock"):
        ld, done = _load_for(store, request_id)
        if done:
            return done
        m = ld.match
        if due_at is not None and not deadline_due(ld, due_at):
            return ResolveResult("nothing", f"round {m.round}'s deadline is not due; nothing to lock", None, m)
        early = [w for w in [deadline_warning(ld, utc_now())] if w and due_at is None]
        if m.finished:
            return ResolveResult("nothing", f"{m.game.spec.name} is over; nothing to lock", None, m)
        if _is_locked(ld):
            return ResolveResult("nothing", f"round {m.round} is already locked (since {ld.locked['at']})", None, m)
        books = _read_every_book(ld, "lock submissions", board=False)
        stale = [b.player for b in books.values() if b.stale]
        if stale:
            raise UsageError(f"{', '.join(stale)}'s file(s) still show another round: run `sheetbridge resolve` to "
                             "finish publishing before locking")
        ld.locked = {"round": m.round, "at": utc_now(), "why": why,
                     "raw": {b.player: b.raw for b in books.values() if _entries(b.raw)}}
        if request_id:
            ld.handled.append(request_id)
        writes = _plan(ld, books, redraw=m.players if getattr(store, "locks_forms", False) else ())
        written = [_commit(ld, progress)]
        written += _write_all(ld, writes, progress, checked=True)
        got = len(ld.locked["raw"])
        return ResolveResult("locked", f"round {m.round} locked ({why}): {got} of {len(m.players)} player(s) had "
                             "entries; resolve uses this snapshot", None, m, written, [], ld.warnings + early)


def reopen_submissions(store: Store, *, request_id: str | None = None,
                       progress: Progress | None = None) -> ResolveResult:
    """Drop the deadline snapshot: the players' Submission tabs are open again, with their entries."""
    with store.lock("reopen"):
        ld, done = _load_for(store, request_id)
        if done:
            return done
        m = ld.match
        if not _is_locked(ld):
            return ResolveResult("nothing", f"round {m.round} is not locked", None, m)
        books = read_books(ld, board=False)
        foreign = [b for b in books.values() if b.foreign]
        if foreign:
            raise _broken_error(ld, foreign, "reopen submissions")
        snapshot = ld.locked["raw"]
        ld.locked = None
        after = _spend_passed_deadline(ld, utc_now())
        if request_id:
            ld.handled.append(request_id)
        redraw = m.players if getattr(store, "locks_forms", False) else ()
        writes = _plan(ld, books, redraw=redraw, prefill={p: snapshot.get(p) for p in m.players})
        written = [_commit(ld, progress)]
        written += _write_all(ld, writes, progress, checked=True)
        return ResolveResult("reopened", f"round {m.round} reopened: players can edit their submissions again{after}",
                             None, m, written, [], ld.warnings)


def _spend_passed_deadline(ld: Loaded, now: str) -> str:
    """A reopened round stays open: the deadline it was reopened past is spent for it (recorded, so no
    `watch` poll locks it again). Returns what the host should know, as the end of reopen's line."""
    from . import deadlines as D
    try:
        state = deadline_state(ld, now)
    except ConfigError as e:   # the round is reopened all the same; the host is told what to fix
        return f"; {e}"
    if state is None or state.at is None:
        return "; it has no deadline now (type one in the Config tab, or run `sheetbridge extend` with a time)"
    if not state.due:
        return f"; its deadline {D.shown(state.at)} ({D.discord(state.at)}) still applies"
    ld.deadlines.spent[str(ld.match.round)] = D.iso(state.at)
    return (f"; its deadline {D.shown(state.at)} has passed and will not lock it again. To set a new one run "
            f"`sheetbridge extend {_folder_hint(ld.store)} 2h` (a grace period) or "
            f"`sheetbridge extend {_folder_hint(ld.store)} \"YYYY-MM-DD HH:MM\"`")


def deadline_state(ld: Loaded, now: str):
    """The open round's deadline judged at `now` (deadlines.Due): the moment that locks it, whether it is due,
    and why the Config tab's deadline does not apply to it (a warning), if so. None when the game is over."""
    from . import deadlines as D
    if ld.match.finished:
        return None
    return D.judge(ld.deadline, ld.match.round, ld.opened_at.get(str(ld.match.round)), ld.deadlines,
                   D.parse_time(now), f"{ld.master.location}, tab {L.tab_name('config')}")


def deadline_due(ld: Loaded, now: str) -> bool:
    """Whether the open round's deadline has passed and it is not locked yet.

    "2026-11-24 15:00" (UTC) is one moment; "15:00" (or "3pm") is every day at that time, due once
    the round has been open across it. A deadline belongs to a round (see deadlines.py): `extend` moves it,
    one earlier than the round's opening or reopened past never locks it.
    """
    if not ld.deadline and str(ld.match.round) not in ld.deadlines.extended or _is_locked(ld):
        return False
    state = deadline_state(ld, now)
    return state is not None and state.due


def deadline_warning(ld: Loaded, now: str) -> str:
    """Why the Config tab's deadline does not lock the open round, or ""."""
    try:
        state = deadline_state(ld, now) if ld.deadline else None
    except ConfigError as e:   # a deadline that is not a time: said, and the command goes on
        return str(e)
    return state.ignored.replace("GAME_FOLDER", _folder_hint(ld.store)) if state is not None else ""


# ------------------------------------------------------------ what the menu shows the host

PREVIEW_TAB = "Preview"
ANNOUNCEMENT_TAB = "Announcement"


def preview_lines(res: ResolveResult) -> list[str]:
    """The dry run as lines: public report, every private report, ledger entries, problems (host only)."""
    lines = [res.message]
    lines += [f"warning: {w}" for w in res.warnings]
    rec, m = res.record, res.match
    if rec is None or m is None:
        return lines
    lines += ["", f"== Public report, round {rec.round}"] + (rec.public.text().splitlines() if rec.public else [])
    for p in m.players:
        if p in rec.private:
            lines += ["", f"== Private to {p}"] + rec.private[p].text().splitlines()
    lines += ["", "== Ledger entries"] + [f"{r.player}: {r.change:+d} {r.reason}" for r in rec.ledger]
    problems = rec.problems()
    if problems:
        lines += ["", "== Submission problems (the rules' defaults apply)"] + problems
    return lines


def write_preview(store: Store, res: ResolveResult) -> None:
    """Put a dry run in the master's Preview tab (the master is shared with no one), under the game's
    lock: on xlsx writing one tab saves the whole master, which must never put back an older round."""
    from .sheets.model import CellData
    rows = [[CellData(line)] for line in preview_lines(res)]
    with store.lock("preview"):
        store.open(MASTER, store.master_location()).write({PREVIEW_TAB: TabData(rows=rows, col_widths={0: 120.0})})


def post_announcement(store: Store, webhook: str | None = None, request_id: str | None = None) -> str:
    """The last round's announcement: posted to the Discord webhook (given, or the Config tab's "webhook"
    setting) at most once per request, or written to the master's Announcement tab to copy by hand."""
    from .announce import Attachment, post_webhook
    from .sheets.model import CellData
    with store.lock("announce"):
        ld = load(store)
        if request_id and request_id in ld.handled:
            return f"request {request_id} was already done"
        ann = announcement(store)
        url = webhook or _read_setting(ld.master.read([L.tab_name("config")])[L.tab_name("config")], "webhook")
        if url:
            files = [Attachment(f"round-{ann.round}-board.png", ann.pictures["board"])] if "board" in ann.pictures else []
            n = post_webhook(url, ann.public, files)
            if request_id:
                ld.handled.append(request_id)
                _commit(ld)
            return f"posted round {ann.round}'s announcement ({n} message(s)) to Discord"
        rows = [[CellData(line)] for msg in ann.public for line in msg.splitlines() + ["", "-----", ""]]
        ld.master.write({ANNOUNCEMENT_TAB: TabData(rows=rows, col_widths={0: 120.0})})
        return (f"round {ann.round}'s announcement is in the master's {ANNOUNCEMENT_TAB} tab, ready to paste "
                "(no webhook set in the Config tab)")
