"""Files that come back from players: filed by the identity each carries, the last one saved kept.

Players send their workbook back as a Discord attachment; the host's Downloads then hold
``Ann.xlsx``, ``Ann (1).xlsx`` (a re-download), a file Bo sent under Ann's name... The name
says nothing reliable, so a file is filed by its hidden Identity tab (identity.py) and only
there: never under another player's name, never from another game.

Which copy is newest: the workbook's own saved time (``docProps/core.xml``, dcterms:modified,
stamped by Excel, LibreOffice or Google's export when the player saves) when it has one, else
the file's modification time. Not the mtime first: a browser or Discord download stamps the
time of the download, so re-downloading an older attachment would make it look newest. Files
sheetbridge writes carry a fixed stamp (2000-01-01, so the same inputs give the same bytes),
which counts as no stamp. Among the files sent, one a program saved beats a copy none saved (its
file time is only when it was downloaded); against the file in place, the later time to the second wins.

Nothing is lost: a file replaced is moved to ``players/replaced/``; a file sent but not used is
left where it was (outside the game folder) or moved to ``players/set-aside/`` (inside it).
"""
from __future__ import annotations

import datetime as dt
import os
import re
import shutil
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from ..core.errors import UsageError
from . import identity as ID
from .session import load as load_game

REPLACED, SET_ASIDE = "replaced", "set-aside"
_MODIFIED = re.compile(rb"<dcterms:modified[^>]*>([^<]+)</dcterms:modified>")
_FIXED_STAMP = dt.datetime(2000, 1, 1, tzinfo=dt.timezone.utc)   # xlsx_fast.FIXED_DATE: no stamp


@dataclass(frozen=True)
class Returned:
    """One file as read: whose book its Identity tab says it is (key, "" if none of this game)."""
    path: Path
    key: str
    why: str          # why it is no player's file of this game ("" when it is one)
    saved: float      # the time compared (seconds since the epoch)
    stamped: bool     # True: the workbook's own saved time; False: the file's mtime


@dataclass(frozen=True)
class CollectNote:
    """What collect did with one file, for the host."""
    path: str
    action: str       # "filed", "kept aside", "refused", "unchanged"
    player: str
    message: str


def saved_time(path: Path) -> tuple[float, bool]:
    """The workbook's own saved time when a program stamped one, else the file's mtime."""
    try:
        with zipfile.ZipFile(path) as z:
            found = _MODIFIED.search(z.read("docProps/core.xml"))
        if found:
            when = dt.datetime.fromisoformat(found.group(1).decode().strip().replace("Z", "+00:00"))
            when = when if when.tzinfo else when.replace(tzinfo=dt.timezone.utc)
            if when > _FIXED_STAMP:
                return when.timestamp(), True
    except (OSError, KeyError, ValueError, zipfile.BadZipFile):
        pass
    return path.stat().st_mtime, False


def read_returned(store, identities: dict[str, str], path: Path) -> Returned:
    """Whose book ``path`` is, by its Identity tab alone (nothing else of it is read)."""
    owner = {fid: key for key, fid in identities.items()}
    try:
        book = store.open("returned", str(path.resolve()))   # folder / an absolute path is that path
        names = book.tab_names()
        rect = book.read([ID.IDENTITY_TAB])[ID.IDENTITY_TAB] if ID.IDENTITY_TAB in names else None
    except Exception as e:   # noqa: BLE001 - any unreadable file is the host's to see, named, not a crash
        return Returned(path, "", f"cannot be read as a workbook ({type(e).__name__})", 0.0, False)
    found = ID._recorded_id(rect) if rect is not None else ""
    key = owner.get(found, "") if found else ""
    if not key:
        why = ("has no Identity tab: not a file of this game" if rect is None
               else "is another game's file (its Identity tab names no book of this game)")
        return Returned(path, "", why, 0.0, False)
    if not key.startswith("player:"):
        return Returned(path, "", "is the public board's file, not a player's", 0.0, False)
    saved, stamped = saved_time(path)
    return Returned(path, key, "", saved, stamped)


def _newer(r: Returned, current: Returned) -> bool:
    """Whether ``r`` was saved after ``current``, to the second (the stamp's precision). A player's save
    in the same second as sheetbridge wrote the file in place (no stamp of its own) counts as later:
    a program saved it after the file existed."""
    return _order(r) > _order(current)


def _order(r: Returned) -> tuple[int, bool]:
    return int(r.saved), r.stamped


def _when(r: Returned) -> str:
    stamp = dt.datetime.fromtimestamp(r.saved, dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    return f"saved {stamp}" if r.stamped else f"file time {stamp}"


def plan(store, identities: dict[str, str], locations: dict[str, str], files: Iterable[Path]) -> list[tuple[Returned, str, str]]:
    """(file, action, message) for each file, best first per player: computed before anything moves."""
    folder = Path(store.folder)
    out: list[tuple[Returned, str, str]] = []
    newest: dict[str, Returned] = {}
    got = [read_returned(store, identities, Path(f)) for f in files]
    for r in got:
        # Among the files sent, one a program saved beats a copy no program saved (whose file time is only
        # when it was downloaded); then the later time.
        if r.key and (r.key not in newest or (r.stamped, _order(r)) > (newest[r.key].stamped, _order(newest[r.key]))):
            newest[r.key] = r
    for r in got:
        if not r.key:
            out.append((r, "refused", f"{r.path.name} {r.why}: not filed"))
            continue
        name = r.key.split(":", 1)[1]
        place = folder / locations[name]
        if r is not newest[r.key]:
            out.append((r, "kept aside", f"{r.path.name} is {name}'s file, older than {newest[r.key].path.name} "
                        f"({_when(r)}): not used"))
        elif place.exists() and (place.resolve() == r.path.resolve() or place.read_bytes() == r.path.read_bytes()):
            out.append((r, "unchanged", f"{r.path.name} is {name}'s file, the same as the one in place"))
        else:
            current = read_returned(store, identities, place) if place.exists() else None
            if current is not None and current.key == r.key and not _newer(r, current):
                out.append((r, "kept aside", f"{r.path.name} is {name}'s file ({_when(r)}), not newer than the one "
                            f"in place ({_when(current)}): not used"))
            else:
                out.append((r, "filed", f"{r.path.name} filed as {name}'s file ({_when(r)}){_misnamed(r, name)}"
                            + (f"; the one it replaces was moved to players/{REPLACED}/" if place.exists() else "")))
    return out


def _misnamed(r: Returned, name: str) -> str:
    """A warning when the file's name says another player (Bo sent his file as "Ann.xlsx")."""
    stem = re.sub(r"\s*\(\d+\)$", "", r.path.stem)   # "Ann (1)": a re-download of "Ann"
    return "" if stem.casefold() in (name.casefold(), "") else f"; its name is {stem}'s but it carries {name}'s identity"


def _aside(path: Path, folder: Path, sub: str) -> Path:
    """A free name in players/<sub>/ for ``path`` (stamped, never overwriting)."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime())
    target_dir = folder / "players" / sub
    target_dir.mkdir(parents=True, exist_ok=True)
    target, n = target_dir / f"{path.stem}-{stamp}{path.suffix}", 1
    while target.exists():
        n += 1
        target = target_dir / f"{path.stem}-{stamp}-{n}{path.suffix}"
    return target


def _inside(path: Path, folder: Path) -> bool:
    return folder.resolve() in path.resolve().parents


def collect(store, files: Sequence[str | os.PathLike], *, load=None) -> list[CollectNote]:
    """File returned player workbooks by their identity, holding the game's lock; see the module."""
    if store.folder is None:
        raise UsageError("collect files returned xlsx files into a game folder; a Google game's players "
                         "type into their own spreadsheets, so there is nothing to collect")
    folder = Path(store.folder)
    paths = list(dict.fromkeys(Path(f) for f in files))
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        raise UsageError(f"no such file: {', '.join(missing)}; give the files players sent back (or --from FOLDER)")
    with store.lock("collect"):
        ld = (load or load_game)(store)
        if not ld.identities:
            raise UsageError("this game's files carry no identity yet (a game made before identities): run "
                             f"`sheetbridge repair {folder}` first, then send players their new files")
        steps = plan(store, ld.identities, ld.locations, paths)
        notes = []
        for r, action, message in steps:
            _carry_out(r, action, folder, ld.locations, store.tmp_dir)
            name = r.key.split(":", 1)[1] if r.key else ""
            notes.append(CollectNote(str(r.path), action, name, message))
        return notes


def _carry_out(r: Returned, action: str, folder: Path, locations: dict[str, str], tmp_dir: Path) -> None:
    """Move or copy one file as planned: the file replaced goes to players/replaced/, never deleted.
    The copy is made in the store's temporary folder first (cleaned by the next command if killed)."""
    if action == "filed":
        place = folder / locations[r.key.split(":", 1)[1]]
        tmp_dir.mkdir(parents=True, exist_ok=True)
        tmp = tmp_dir / f"collect-{place.name}"
        shutil.copy2(r.path, tmp)
        if place.exists():
            os.replace(place, _aside(place, folder, REPLACED))
        os.replace(tmp, place)
        if _inside(r.path, folder):
            r.path.unlink()   # its copy is in place now: a second copy in players/ would be named by status
    elif action in ("kept aside", "refused") and _inside(r.path, folder / "players") \
            and r.path.parent == folder / "players":
        os.replace(r.path, _aside(r.path, folder, SET_ASIDE))


def unused_files(folder: Path, locations: dict[str, str]) -> list[Path]:
    """Files in players/ that sheetbridge does not read (a re-download "Ann (1).xlsx", a stray file)."""
    players = folder / "players"
    if not players.is_dir():
        return []
    used = {(folder / loc).resolve() for loc in locations.values()}
    return sorted(p for p in players.iterdir()
                  if p.is_file() and not p.name.startswith(".") and p.resolve() not in used)


def unused_lines(store, identities: dict[str, str], locations: dict[str, str]) -> list[tuple[str, str]]:
    """(owner, warning) per unused file in players/: whose file it is ("" if no player's of this game)
    and what to run. Only its Identity tab is read: nothing a player typed is shown."""
    folder = Path(store.folder)
    out = []
    for p in unused_files(folder, locations):
        rel = p.relative_to(folder)
        r = read_returned(store, identities, p) if p.suffix.lower() == ".xlsx" and identities else None
        if r is not None and r.key:
            name = r.key.split(":", 1)[1]
            out.append((name, f"{rel} is not used: it is {name}'s file under another name; `sheetbridge collect "
                              f"{folder} '{rel}'` files it if it is the newer one"))
        else:
            out.append(("", f"{rel} is not used: it {r.why if r is not None else 'is not a workbook of this game'}"))
    return out
