"""The rounds' pictures in the game folder, as part of the publication (issue 25, point 5).

``pictures/round-N-board.png`` and ``pictures/private/<player>-round-N.png`` are drawn from
the record like every book: :func:`plan_pictures` compares the folder with what the record
says (every resolved round's pictures present, the last round's byte for byte, none of a
round that is not resolved, such as an undone one) and returns the file changes that make
them agree. The round transaction publishes them with the books after the master's commit, so a
re-run after a cut-off run finishes the pictures exactly as it finishes the books.

Each file is written atomically (a ``.tmp-*.png`` beside it, renamed into place);
:func:`remove_leftovers` deletes the temporary files a killed run left, under the game's lock.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from ..core.errors import WorkbookError
from ..core.match import Match
from ..sheets.xlsx import replace_atomically

PICTURES_KEY = "pictures"        # the key of a picture file in a publication plan (books have theirs)
PICTURES_DIR = "pictures"
PRIVATE_DIR = "private"
BOARD_VIEWER = "board"
_TMP_PREFIX = ".tmp-"   # what replace_atomically names its temporary files
_PRIVATE_NAME = re.compile(r"(?P<viewer>.+)-round-(?P<round>\d+)\.png")
_BOARD_NAME = re.compile(r"round-(?P<round>\d+)-board\.png")


def round_pictures(m: Match, round_no: int, viewers: Sequence[str] | None = None) -> dict[str, Any]:
    """The round's pictures drawn from its facts: "board" (public) and one per player that has one.
    `viewers`: only these ("board" and player names; default: all)."""
    rec = next((r for r in m.rounds if r.round == round_no), None)
    if rec is None or not rec.facts:
        return {}
    from ..core.facts import visible_by_viewer
    wanted = {BOARD_VIEWER, *m.players} if viewers is None else set(viewers)
    ctx = m.context(round_no)
    out = {}
    players = [p for p in m.players if p in wanted]
    seen = visible_by_viewer(rec.facts, ([None] if BOARD_VIEWER in wanted else []) + players)
    if BOARD_VIEWER in wanted:
        pic = m.game.picture(seen[None], None, ctx)   # (tabs.board_picture: the public facts)
        if pic is not None:
            out[BOARD_VIEWER] = pic
    for p in players:
        pic = m.game.picture(seen[p], p, ctx)
        if pic is not None:
            out[p] = pic
    return out


def picture_path(folder: Path, round_no: int, viewer: str) -> Path:
    private, name = _file_name(round_no, viewer)
    return folder / PICTURES_DIR / PRIVATE_DIR / name if private else folder / PICTURES_DIR / name


def _file_name(round_no: int, viewer: str) -> tuple[bool, str]:
    """Whether the viewer's picture of the round is in the private folder, and its file name."""
    if viewer == BOARD_VIEWER:
        return False, f"round-{round_no}-board.png"
    return True, f"{viewer}-round-{round_no}.png"


@dataclass(frozen=True)
class PictureWrite:
    """One picture file brought to what the record says: written with ``data``, or removed (None)."""
    path: Path
    data: bytes | None
    key: str = PICTURES_KEY

    @property
    def location(self) -> str:
        return str(self.path)

    def publish(self) -> None:
        try:
            if self.data is None:
                self.path.unlink(missing_ok=True)
            else:
                write_atomically(self.path, self.data)
        except OSError as e:
            raise WorkbookError(f"cannot write {self.path}: {e.strerror or e}; free the folder (space, "
                                "permissions) and run the command again: it finishes the pictures") from None


def write_atomically(path: Path, data: bytes) -> None:
    """Put ``data`` at ``path`` through a temporary ``.tmp-*`` file beside it renamed into place, so
    a reader (or a kill) never sees half a PNG; leftovers are cleaned by :func:`remove_leftovers`."""
    replace_atomically(path, data)


def plan_pictures(m: Match, folder: Path | None) -> list[PictureWrite]:
    """The picture files to write or remove so that ``folder`` shows the record: every resolved
    round's pictures (the last round's compared byte for byte: a decision may redraw it; older
    ones only when missing, not to draw every round on every command) and no picture of a
    round that is not resolved, or of a viewer the round draws none for."""
    if folder is None:
        return []
    from .pictures import png_bytes
    resolved = [r.round for r in m.rounds]
    last = resolved[-1] if resolved else None
    present = _present(m, folder)
    there = {(path.parent.name == PRIVATE_DIR, path.name) for path, _ in present}   # (names: a Path is slow to make)
    drawn: set[Path] = set()
    out: list[PictureWrite] = []
    for round_no in resolved:
        # An earlier round's picture is drawn only when its file is missing (each round's would be
        # drawn at every command otherwise: a whole game's, growing with the rounds).
        viewers = None if round_no == last else \
            [v for v in (BOARD_VIEWER, *m.players) if _file_name(round_no, v) not in there]
        for viewer, pic in round_pictures(m, round_no, viewers).items():   # (shapes only: PNGs are made below)
            path = picture_path(folder, round_no, viewer)
            drawn.add(path)
            data = png_bytes(pic)
            if round_no != last or _read(path) != data:
                out.append(PictureWrite(path, data))
    out += [PictureWrite(path, None) for path, round_no in present
            if round_no not in resolved or (round_no == last and path not in drawn)]
    return out


def _present(m: Match, folder: Path) -> list[tuple[Path, int]]:
    """The round pictures in ``folder`` (the board's and the players'), with their round numbers."""
    found = []
    board_dir = folder / PICTURES_DIR
    for path in sorted(board_dir.glob("round-*-board.png")) if board_dir.is_dir() else []:
        match = _BOARD_NAME.fullmatch(path.name)
        if match:
            found.append((path, int(match["round"])))
    private_dir = board_dir / PRIVATE_DIR
    players = set(m.players)
    for path in sorted(private_dir.glob("*-round-*.png")) if private_dir.is_dir() else []:
        match = _PRIVATE_NAME.fullmatch(path.name)
        if match and match["viewer"] in players:   # a file of someone else's is not ours to remove
            found.append((path, int(match["round"])))
    return found


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except OSError:
        return None


def remove_leftovers(folder: Path | None) -> None:
    """Delete the temporary picture files a killed run left (call holding the game's lock)."""
    if folder is None:
        return
    for where in (folder / PICTURES_DIR, folder / PICTURES_DIR / PRIVATE_DIR):
        for path in where.glob(f"{_TMP_PREFIX}*.png") if where.is_dir() else []:
            try:
                path.unlink()
            except OSError:
                pass
