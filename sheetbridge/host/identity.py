"""Each book's identity: which player's file (or the public board) it is, in which game.

A file saved under another player's name (the host attached Ann's file as ``players/Bo.xlsx``,
or pasted Ann's spreadsheet into Bo's) would otherwise be read as Bo's: Ann's entries applied
as Bo's moves, and Bo's next report drawn over Ann's secret tabs. So every book carries a
hidden, protected Identity tab (a plain tab: both xlsx readers, calamine and openpyxl, and
Google read it like any other) naming its owner and a file id, and the master's record keeps
each book's file id. A book whose identity is not the recorded one is refused before anything
in it is read: nothing of its content reaches a report, a status line, the host log, a
picture or a repair's salvage.

The file id is drawn from the game's seed, its name, its players and the book's key (a hash:
players never see the seed), so the same inputs and seed give the same bytes, and a file from
an earlier game in the same folder (another seed) is refused like another player's.
"""
from __future__ import annotations

import hashlib
import json
from typing import Mapping, Sequence

from ..core.errors import WorkbookError
from ..sheets.model import CellData, Rect, TabData
from ..sheets.store import BOARD, player_key

IDENTITY_TAB = "Identity"
_OWNER, _FILE_ID = "this file belongs to", "file id"


class ForeignFile(WorkbookError):
    """A book whose identity is not the one the master's record holds for its place."""


def file_ids(seed: object, game_name: str, players: Sequence[str], keys: Sequence[str]) -> dict[str, str]:
    """Every book's file id (16 hex digits), keyed by book key ("player:Ann", "board")."""
    base = json.dumps([str(seed), game_name, list(players)], ensure_ascii=False)
    return {key: hashlib.sha256(f"{base}\n{key}".encode("utf-8")).hexdigest()[:16] for key in keys}


def book_keys(players: Sequence[str], board: bool) -> list[str]:
    return [player_key(p) for p in players] + ([BOARD] if board else [])


def owner_name(key: str) -> str:
    return key.split(":", 1)[1] if key.startswith("player:") else "the public board"


def identity_tab(key: str, file_id: str) -> TabData:
    """The hidden, protected tab that says whose book this is."""
    who = owner_name(key)
    rows = [[CellData(_OWNER, bold=True), CellData(who)],
            [CellData(_FILE_ID, bold=True), CellData(file_id)],
            [CellData("sheetbridge checks this tab to make sure a file is in its right place; "
                      "leave it as it is")]]
    return TabData(rows=rows, hidden=True, protected=True, col_widths={0: 20.0, 1: 24.0})


def with_identity(tabs: Mapping[str, TabData], key: str, identities: Mapping[str, str]) -> dict[str, TabData]:
    """``tabs`` plus the book's Identity tab, last, when the game records one for it (a game made
    before identities has none until `repair`). Writing it with the other tabs keeps a whole-book
    write whole (the xlsx fast path)."""
    out = dict(tabs)
    if key in identities:
        out[IDENTITY_TAB] = identity_tab(key, identities[key])
    return out


def _recorded_id(rect: Rect) -> str:
    for row in rect:
        if len(row) > 1 and row[0].strip() == _FILE_ID:
            return row[1].strip()
    return ""


def refusal(key: str, location: str, rect: Rect | None, identities: Mapping[str, str]) -> str:
    """Why the book read at ``location`` for ``key`` is not that book ("" if it is). Names the
    owner only from the record (never quoting the file), and says what to do."""
    expected = identities[key]
    found = _recorded_id(rect) if rect is not None else ""
    if found == expected:
        return ""
    owner = next((k for k, fid in identities.items() if fid == found and found), None)
    if owner is not None:
        what = f"is {owner_name(owner)}'s file" if owner.startswith("player:") else "is the public board's file"
    elif rect is None:
        what = "has no Identity tab: it is not this game's file (or the tab was deleted)"
    else:
        what = "is another game's file (or its Identity tab was changed)"
    return f"{where(location)} {what}"


def where(location: str) -> str:
    return location if location.endswith(".xlsx") else f"spreadsheet {location}"


def fix(key: str, location: str, folder_hint: str) -> str:
    """What the host does about a refused book."""
    if key.startswith("player:"):
        name = owner_name(key)
        return (f"put {name}'s own file back at {where(location)}, or run `sheetbridge repair {folder_hint} "
                f"--player {name}` to redraw {name}'s file ({name} then re-enters this round's entries)")
    return f"put the public board's own file back, or run `sheetbridge repair {folder_hint}` to redraw it"


def refused_error(doing: str, refused: Sequence[tuple[str, str, str]], folder_hint: str,
                  unreadable: str = "") -> WorkbookError:
    """One line for a command that stops on refused books: (key, location, why) each, then the fix."""
    whys = "; ".join(why for _k, _l, why in refused)
    fixes = "; ".join(fix(k, loc, folder_hint) for k, loc, _w in refused)
    return ForeignFile(f"cannot {doing}: {whys}. Nothing was read from it and nothing was written. "
                       f"To go on, {fixes}{'; ' + unreadable if unreadable else ''}")
