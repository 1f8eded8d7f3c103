"""The round-open post (issue 27, point 3): what a host used to type when a round opens.

The post names the round, says what every player must do this round (only what the forms of
all players have in common: a role or a secret in one player's form never reaches the post),
shows the public board as it stands (for Flickering Lights the new grid and its variation), and
gives the deadline as Discord timestamps, which every reader sees in their own time zone. The
picture is the public board's grid drawn with its labels, or the last round's board, or, before
any board exists (Bugcatcher's pregame), a labelled map of the coordinates players choose from.

Pure: the clock comes in as ``now``; the caller renders the pictures and posts.
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any, Sequence

from ..core.errors import UsageError
from ..core.picture import Box, Dot, Label, Picture
from ..core.types import Block, FieldKind, Form, Report
from .deadlines import discord

COORDINATE = re.compile(r"^([A-Z])(\d{1,2})$")
CELL_PX = 40


@dataclass(frozen=True)
class Opening:
    round: int
    label: str
    report: Report
    picture: Picture | None
    picture_name: str
    deadline: dt.datetime | None


def opening(m: Any, deadline: dt.datetime | None, last_board: Picture | None = None) -> Opening:
    """The open round's post for `m` (a Match), with `last_board` the last round's public picture if any."""
    if m.finished:
        raise UsageError(f"{m.game.spec.name} is over: there is no round to open")
    forms = [m.form(p) for p in m.players]
    label = forms[0].round_label if forms else f"Round {m.round}"
    board = m.game.public_view(m.state)
    when = (f"Submissions close {discord(deadline)}." if deadline is not None else
            "No deadline is set yet; the host will tell you.")
    blocks = [Block("What to do this round", tuple(_common_instructions(forms))), Block("Deadline", (when,))]
    blocks += [b for b in board.blocks if b.lines or b.grid]
    picture = _grid_picture(board) or last_board or _coordinate_map(forms)
    name = f"round-{m.round}-opening.png"
    report = Report(f"{m.game.spec.name}: {label} is open", tuple(blocks))
    return Opening(m.round, label, report, picture, name, deadline)


def _common_instructions(forms: Sequence[Form]) -> list[str]:
    """Help lines and sections every player's form shares (anything only some forms hold may be a secret)."""
    first, rest = forms[0], forms[1:]
    lines = [h for h in first.help if all(h in f.help for f in rest)]
    for sec in first.sections:
        same = all(any(s.title == sec.title and s.help == sec.help for s in f.sections) for f in rest)
        if same:
            lines.append(f"{sec.title}: {sec.help}" if sec.help else sec.title)
    lines.append("Type your entries in the yellow boxes of the Submission tab of your own file.")
    return lines


def _grid_picture(board: Report) -> Picture | None:
    """The first grid of the public board drawn as labelled squares in their colours, with its key."""
    block = next((b for b in board.blocks if b.grid), None)
    if block is None:
        return None
    rows, cols = len(block.grid), max(len(r) for r in block.grid)
    widest = max(len(c.text) for r in block.grid for c in r)
    w = max(CELL_PX, 9 * widest + 12)
    shapes: list[Any] = [Label(10, 8, block.title, size=16, bold=True)]
    for y, row in enumerate(block.grid):
        for x, c in enumerate(row):
            left, top = 10 + x * w, 34 + y * CELL_PX
            shapes.append(Box(left, top, w, CELL_PX, fill=c.fill, outline="808080" if c.fill or c.text else None))
            if c.text:
                shapes.append(Label(left + w / 2, top + CELL_PX / 2, c.text, colour=c.font or "000000",
                                    size=14, anchor="mm"))
    top = 44 + rows * CELL_PX
    legend = [(t, f) for t, f in block.legend if f and f.upper() != "FFFFFF"]   # white ones are notes for text
    for i, (text, fill) in enumerate(legend):
        shapes += [Box(10, top + i * 24, 18, 18, fill=fill), Label(36, top + i * 24 + 2, text, size=13)]
    width = max(20 + cols * w, 40 + 8 * max((len(t) for t, _ in legend), default=0))
    return Picture(int(width), int(top + 24 * len(legend) + 10), tuple(shapes), title=block.title)


def _coordinate_map(forms: Sequence[Form]) -> Picture | None:
    """Before any board exists: every coordinate players may choose (A1, B1...) as a labelled square,
    its corners marked (corners are named from their cell: "C1 bottom right")."""
    coords = {v for f in forms for s in f.sections for fld in s.fields if fld.kind is FieldKind.CHOICE
              for v in fld.choices if COORDINATE.match(v)}
    if not coords:
        return None
    cols = sorted({COORDINATE.match(c).group(1) for c in coords})
    rows = sorted({int(COORDINATE.match(c).group(2)) for c in coords})
    shapes: list[Any] = [Label(10, 8, "The board: the coordinates you choose from", size=16, bold=True)]
    top, left = 40, 40
    for x, col in enumerate(cols):
        shapes.append(Label(left + x * CELL_PX * 2 + CELL_PX, top - 4, col, size=14, bold=True, anchor="mm"))
    for y, row in enumerate(rows):
        shapes.append(Label(left - 16, top + 10 + y * CELL_PX * 2 + CELL_PX, str(row), size=14, bold=True,
                            anchor="mm"))
        for x, col in enumerate(cols):
            if f"{col}{row}" in coords:
                bx, by = left + x * CELL_PX * 2, top + 10 + y * CELL_PX * 2
                shapes += [Box(bx, by, CELL_PX * 2, CELL_PX * 2, fill="D9D9D9", outline="404040"),
                           Label(bx + CELL_PX, by + CELL_PX, f"{col}{row}", size=16, anchor="mm")]
                shapes += [Dot(cx, cy, 4) for cx in (bx, bx + 2 * CELL_PX) for cy in (by, by + 2 * CELL_PX)]
    width = left + len(cols) * CELL_PX * 2 + 20
    height = top + 10 + len(rows) * CELL_PX * 2 + 40
    if any(fld.name == "corner" for f in forms for s in f.sections for fld in s.fields):
        shapes.append(Label(10, height - 28, "Dots are corners, named from a cell: C1 bottom right = D2 upper left.",
                            size=12))
    return Picture(width, height, tuple(shapes), title="coordinates")
