"""`new`: a game's books created (master, one per player, the public board), filled, and only
then shared; resumable after a failure, and replacing a game already in the folder."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

from ..core.errors import SheetbridgeError
from ..api import get_game, new_match
from ..core.match import Match
from ..sheets import layout as L
from ..sheets.store import BOARD, MASTER, NEW_PROGRESS_FILE, Store, player_key
from ..sheets.xlsx import XlsxStore
from ..templates import default_tables
from . import identity as ID
from . import session
from .config import CONFIG_FILE, read_config, write_config
from .players import PlayerInfo
from .record import read_head
from .session import Progress
from .tabs import board_tabs, master_tabs, player_tabs


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
        cfg = {"backend": store.backend, "game": game_id,
               "master": master_info.location, "files": files}
        cfg.update(store.config_extra())
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
        elif store.backend == "google":
            old = store                               # the same Google account reads the old master
        else:
            old = session.open_store(folder)   # (through the module: tests replace it there)
        master = cfg.get("master") or old.master_location()
        rect = old.open(MASTER, master).read([L.tab_name("record")])[L.tab_name("record")]
        record = read_head(rect, f"{master}, tab {L.tab_name('record')}")
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


