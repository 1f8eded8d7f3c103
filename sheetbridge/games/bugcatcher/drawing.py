"""The board drawn from a round's facts: as a grid of cells in a report (``draw_board``) and as a
picture (``board_picture``, a PNG drawn by sheetbridge.pictures) (R3-R9, R63-R65, A33, A36).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...core.facts import of_type
from ...core.picture import Box, Dot, Label, Line, Picture
from ...core.types import Cell
from .board import BLACK, BLUE, cell_fine, fine_of
from .facts import ActionStep, BugcatcherBoard, NodeMarker, NodePath, PathPlaced, StartingNode
from .options import parse_cell

# ------------------------------------------------------------- the board as a grid of cells (reports)

FILL = {BLUE: "2E75B6", BLACK: "000000"}
GRAY, POINT, LABEL, BLOCKED = "BFBFBF", "F2F2F2", "FFFFFF", "843C0C"


def draw_board(cols: int, rows: int, segments: Sequence[Mapping[str, Any]], starts: Sequence[Mapping[str, Any]],
               ends: Sequence[Mapping[str, Any]], step_order: bool = False,
               blocked: Sequence[Sequence[int]] = ()) -> tuple[tuple[Cell, ...], ...]:
    """The board on a (2*cols+1) x (2*rows+1) grid of cells, plus a label row and column.

    Odd/odd cells are the gray squares (cell centres), even/even cells the corner points,
    the others the cell edges, which are also where a central path crosses from one cell
    to the next (A4). segments: {"node", "frm", "to", "colour", "step"} in fine points;
    starts/ends: {"at", "colour" or None}; blocked: fine cells (A36, drawn X). Border paths
    are drawn ─ │, central paths ═ ║, each filled in its colour; S marks a node at the start
    of the round, E at the end (A33). Segments are drawn in the order given."""
    W, H = 2 * cols + 1, 2 * rows + 1
    fill: dict[tuple[int, ...], str] = {}
    text: dict[tuple[int, ...], str] = {}
    font: dict[tuple[int, ...], str] = {}
    border_at: dict[tuple[int, ...], Mapping[str, Any]] = {}
    central_at: dict[tuple[int, ...], Mapping[str, Any]] = {}
    for at in blocked:
        fill[tuple(at)] = BLOCKED
        text[tuple(at)] = "X"
    for s in segments:
        (x0, y0), (x1, y1) = s["frm"], s["to"]
        (border_at if s["node"] == "B" else central_at)[((x0 + x1) // 2, (y0 + y1) // 2)] = s
        for pt in ((x0, y0), (x1, y1)):
            if pt not in fill:
                fill[pt] = FILL[s["colour"]]
                text[pt] = "•"
    for mid in sorted(set(border_at) | set(central_at)):
        b, c = border_at.get(mid), central_at.get(mid)
        parts = []
        if b is not None:
            parts.append(str(b["step"]) if step_order else ("─" if b["frm"][1] == b["to"][1] else "│"))
        if c is not None:
            parts.append(str(c["step"]) if step_order else ("═" if c["frm"][1] == c["to"][1] else "║"))
        text[mid] = "".join(parts) if not step_order else "|".join(parts)
        base = b if b is not None else c
        assert base is not None   # mid is a key of one of them
        fill[mid] = FILL[base["colour"]]
        if b is not None and c is not None:   # different colours, or it would have collided
            font[mid] = "9DC3E6" if c["colour"] == BLUE else "000000"
    marks: dict[tuple[int, ...], str] = {}
    for s in starts:
        at = tuple(s["at"])
        marks[at] = "S"
        if s.get("colour"):
            fill[at] = FILL[s["colour"]]
    for e in ends:
        at = tuple(e["at"])
        marks[at] = marks.get(at, "") + ("E" if "E" not in marks.get(at, "") else "")
        if e.get("colour"):
            fill[at] = FILL[e["colour"]]
    text.update(marks)
    out = [tuple([Cell("")] + [Cell(chr(ord("A") + X // 2) if X % 2 else "", None, True) for X in range(W)])]
    for Y in range(H):
        row = [Cell(str(Y // 2 + 1) if Y % 2 else "", None, True)]
        for X in range(W):
            at = (X, Y)
            shade = GRAY if (X % 2 and Y % 2) else (POINT if (X % 2 == 0 and Y % 2 == 0) else None)
            f = fill.get(at, shade)
            t = text.get(at, "·" if (X % 2 == 0 and Y % 2 == 0) else "")
            fc = font.get(at) or ("FFFFFF" if f in (FILL[BLUE], FILL[BLACK], BLOCKED) else None)
            row.append(Cell(t, f, at in marks, fc))
        out.append(tuple(row))
    return tuple(out)


LEGEND = (("blue path", FILL[BLUE]), ("black path", FILL[BLACK]), ("cell (gray square)", GRAY),
          ("border paths are drawn ─ │ along the edges, central paths ═ ║ from cell to cell", LABEL),
          ("corner point (border nodes move along the lines between them)", POINT),
          ("S = a node at the start of the round, E = at the end, SE = did not move", LABEL))
LEGEND_BLOCKED = (("X = a blocked cell: no central node starts in it or enters it", BLOCKED),)


def _grid_from_facts(facts: Sequence[Any], step_order: bool) -> tuple[tuple[tuple[Cell, ...], ...], tuple]:
    """The report grid and legend of a round's public facts (board, paths, node markers)."""
    board = of_type(facts, BugcatcherBoard)[0]
    segs = [{"node": "B" if f.node == "border" else "C", "frm": fine_of(f.node, f.frm), "to": fine_of(f.node, f.to),
             "colour": f.colour, "step": f.step} for f in of_type(facts, PathPlaced)]
    marks = of_type(facts, NodeMarker)
    starts = [{"at": fine_of(m.node, m.at), "colour": m.colour or None} for m in marks if m.phase == "start"]
    ends = [{"at": fine_of(m.node, m.at), "colour": m.colour or None} for m in marks if m.phase == "end"]
    cells = (parse_cell(label, board.columns, board.rows) for label in board.blocked)
    blocked = [cell_fine(*c) for c in cells if c is not None]   # every label is a cell of the board
    grid = draw_board(board.columns, board.rows, segs, starts, ends, step_order, blocked)
    drawn = {s["colour"] for s in segs}   # the legend names only the paths drawn
    legend = tuple(x for x in LEGEND if not x[0].endswith(" path") or x[0].split()[0] in drawn)
    return grid, legend + (LEGEND_BLOCKED if blocked else ())


# ------------------------------------------------------------- the picture (PNG, drawn by sheetbridge.pictures)

PIC_CELL, PIC_LEFT, PIC_TOP = 64, 40, 64
PIC_LANE, PIC_START_RING, PIC_END = "BFBFBF", "404040", "FFC000"
PIC_MINE, PIC_FAILED = "00B050", "C00000"


def _px(fine: Sequence[int]) -> tuple[float, float]:
    """Pixel centre of a fine point: corners on the cell lines, cell centres in the middle."""
    return (PIC_LEFT + fine[0] * PIC_CELL / 2, PIC_TOP + fine[1] * PIC_CELL / 2)


def board_picture(facts: Sequence[Any], title: str, viewer: str | None = None) -> Picture | None:
    """The round's board: gray cells, blocked cells, every path in its colour, start and end nodes
    (unlabelled) and a legend. For a player (`viewer`), their own nodes are ringed and their own
    failed paths drawn dashed, from their own facts only."""
    boards = of_type(facts, BugcatcherBoard)
    if not boards:
        return None
    board = boards[0]
    cols, rows = board.columns, board.rows
    S = PIC_CELL
    shapes: list[Any] = [Label(10, 10, title, size=18, bold=True)]
    for c in range(cols):
        shapes.append(Label(PIC_LEFT + (c + 0.5) * S, PIC_TOP - 16, chr(ord("A") + c), size=14, anchor="mm"))
    for r in range(rows):
        shapes.append(Label(PIC_LEFT - 20, PIC_TOP + (r + 0.5) * S, str(r + 1), size=14, anchor="mm"))
    for x in range(cols + 1):     # the lanes border nodes move along
        shapes.append(Line(((PIC_LEFT + x * S, PIC_TOP), (PIC_LEFT + x * S, PIC_TOP + rows * S)), PIC_LANE, 1))
    for y in range(rows + 1):
        shapes.append(Line(((PIC_LEFT, PIC_TOP + y * S), (PIC_LEFT + cols * S, PIC_TOP + y * S)), PIC_LANE, 1))
    blocked = {parse_cell(label, cols, rows) for label in board.blocked}
    for r in range(rows):
        for c in range(cols):
            x, y = PIC_LEFT + c * S + 8, PIC_TOP + r * S + 8
            if (c, r) in blocked:
                shapes.append(Box(x, y, S - 16, S - 16, fill=BLOCKED, outline=None))
                shapes.append(Line(((x + 10, y + 10), (x + S - 26, y + S - 26)), "FFFFFF", 3))
                shapes.append(Line(((x + 10, y + S - 26), (x + S - 26, y + 10)), "FFFFFF", 3))
            else:
                shapes.append(Box(x, y, S - 16, S - 16, fill=GRAY, outline=None))
    paths = of_type(facts, PathPlaced)
    for f in paths:
        shapes.append(Line((_px(fine_of(f.node, f.frm)), _px(fine_of(f.node, f.to))), FILL[f.colour], 6))
    mine = []
    failed = []
    if viewer is not None:
        for f in of_type(facts, StartingNode):
            if f.player == viewer:
                mine.append(fine_of(f.node, f.at))
        for f in of_type(facts, NodePath):
            if f.player == viewer:
                mine += [fine_of(f.node, f.start), fine_of(f.node, f.end)]
        for f in of_type(facts, ActionStep):
            if f.player == viewer and f.result in ("collision", "offboard", "blocked") and f.frm is not None:
                failed.append((fine_of(f.node, f.frm), fine_of(f.node, f.to)))
        if not mine and not failed:
            return None
    for a, b in failed:
        shapes.append(Line((_px(a), _px(b)), PIC_FAILED, 3, dashed=True))
    for at in dict.fromkeys(mine):
        cx, cy = _px(at)
        shapes.append(Dot(cx, cy, 14, PIC_MINE))
    for m in of_type(facts, NodeMarker):
        cx, cy = _px(fine_of(m.node, m.at))
        if m.phase == "start":
            shapes.append(Dot(cx, cy, 9, FILL[m.colour] if m.colour else "FFFFFF", PIC_START_RING))
        else:
            shapes.append(Dot(cx, cy, 5, FILL[m.colour] if m.colour else PIC_END, PIC_END))
    for f in paths:
        if f.step:
            (x0, y0), (x1, y1) = _px(fine_of(f.node, f.frm)), _px(fine_of(f.node, f.to))
            shapes.append(Box((x0 + x1) / 2 - 8, (y0 + y1) / 2 - 8, 16, 16, fill="FFFFFF", outline="404040"))
            shapes.append(Label((x0 + x1) / 2, (y0 + y1) / 2, str(f.step), size=11, anchor="mm"))
    legend = _picture_legend(facts, paths, bool(blocked), viewer, bool(failed))
    y = PIC_TOP + rows * S + 18
    for text, colour, ring in legend:
        shapes.append(Box(PIC_LEFT, y, 22, 14, fill=colour, outline=ring or "404040"))
        shapes.append(Label(PIC_LEFT + 30, y, text, size=13))
        y += 20
    width = max(PIC_LEFT + cols * S + 24, 360)
    return Picture(int(width), int(y + 8), tuple(shapes), title=title)


def _picture_legend(facts: Sequence[Any], paths: Sequence[PathPlaced], blocked: bool, viewer: str | None,
                    failed: bool) -> list[tuple[str, str, str | None]]:
    """The picture's legend: (text, fill, ring) of only what the picture draws."""
    drawn = {f.colour for f in paths}
    phases = {m.phase for m in of_type(facts, NodeMarker)}
    legend: list[tuple[str, str, str | None]] = [(f"{c} path", FILL[c], None) for c in (BLUE, BLACK) if c in drawn]
    legend.append(("cell (gray square)", GRAY, None))
    if blocked:
        legend.append(("blocked cell", BLOCKED, None))
    legend += [(text, fill, ring) for phase, text, fill, ring in (
        ("start", "a node where the round starts", "FFFFFF", PIC_START_RING),
        ("end", "a node where the round ends", PIC_END, PIC_END)) if phase in phases]
    if viewer is not None:
        legend += [("your nodes", PIC_MINE, None)] + ([("your path that failed", PIC_FAILED, None)] if failed else [])
    return legend
