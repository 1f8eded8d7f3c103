"""The board: its cells, corners and the fine grid points are kept on, directions, node kinds,
colours and the action codes, with the labels players type (R3-R11, A1-A3, A36).

Everything is read here, once; the rules and the reports use these names.
"""
from __future__ import annotations

import enum
import functools
import re
from typing import Any, Mapping, Sequence

from ...core.parsing import clean
from ...core.types import State
from .options import cell_label, options_of, parse_cell

DIRS: dict[str, tuple[int, int]] = {"U": (0, -1), "D": (0, 1), "L": (-1, 0), "R": (1, 0)}
DIR_WORDS = {"U": "up", "D": "down", "L": "left", "R": "right"}
INVERSE = {"U": "D", "D": "U", "L": "R", "R": "L"}
ROTATE = {"U": "R", "R": "D", "D": "L", "L": "U"}   # a quarter turn clockwise
MIRROR = {"U": "U", "D": "D", "L": "R", "R": "L"}   # reflection in a vertical line


class Node(enum.Enum):
    BORDER = "B"
    CENTRAL = "C"

    @property
    def word(self) -> str:
        return "border" if self is Node.BORDER else "central"


def node_word(n: str) -> str:
    """'B' -> 'border', 'C' -> 'central'."""
    return _NODE_WORDS.get(n) or Node(n).word


_NODE_WORDS = {"B": "border", "C": "central"}   # node_word is called for every step: no Enum lookup


SWAP, GSWAP, IDLE = "swap", "gswap", "idle"
PATH_CODES: tuple[str, ...] = tuple(n + d for n in "BC" for d in "UDLR")
ACTION_CHOICES: tuple[str, ...] = PATH_CODES + (SWAP, GSWAP)
# Looked up for every step of a round: a path's node word ("" for any other code), the energy a code costs.
_PATH_NODE_WORDS = {c: _NODE_WORDS[c[0]] for c in PATH_CODES}
_STEP_ENERGY = {**{c: 1 for c in PATH_CODES}, SWAP: 1}
BLUE, BLACK = "blue", "black"
CORNERS = ("upper left", "upper right", "bottom left", "bottom right")
CORNER_ALIASES = {
    "upper left": "UL", "top left": "UL", "ul": "UL", "tl": "UL", "upperleft": "UL", "topleft": "UL",
    "upper right": "UR", "top right": "UR", "ur": "UR", "tr": "UR", "upperright": "UR", "topright": "UR",
    "bottom left": "BL", "lower left": "BL", "bl": "BL", "ll": "BL", "bottomleft": "BL", "lowerleft": "BL",
    "bottom right": "BR", "lower right": "BR", "br": "BR", "lr": "BR", "bottomright": "BR",
    "lowerright": "BR",
}
CORNER_WORD = {"UL": "upper left", "UR": "upper right", "BL": "bottom left", "BR": "bottom right"}
ORDINALS = ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th")


def ordinal(n: int) -> str:
    """1 -> '1st' ... 9 -> '9th'; beyond, '10th'."""
    return ORDINALS[n - 1] if 1 <= n <= len(ORDINALS) else f"{n}th"


def other(colour: str) -> str:
    return BLACK if colour == BLUE else BLUE


# ------------------------------------------------------------- coordinates
# Everything is kept on one "fine" grid of (2*columns+1) x (2*rows+1) points: lattice
# corner (x, y) is (2x, 2y), the centre of cell (c, r) is (2c+1, 2r+1), and a path of
# either kind moves 2 fine units; its midpoint is where it crosses the other lattice (A4).
# Facts use each node's own coordinates instead: a corner (x, y) or a cell (c, r), 0-based.

def point_fine(x: int, y: int) -> tuple[int, int]:
    return (2 * x, 2 * y)


def cell_fine(c: int, r: int) -> tuple[int, int]:
    return (2 * c + 1, 2 * r + 1)


def own_xy(fine: Sequence[int]) -> tuple[int, int]:
    """The node's own coordinates of a fine point: corner (x, y) or cell (c, r)."""
    return (int(fine[0]) // 2, int(fine[1]) // 2)


def fine_of(node: str, xy: Sequence[int]) -> tuple[int, int]:
    """Inverse of own_xy: node 'B'/'border' on a corner, 'C'/'central' in a cell."""
    return point_fine(*xy) if node in ("B", "border") else cell_fine(*xy)


def on_board(fine: Sequence[int], cols: int, rows: int) -> bool:
    return 0 <= fine[0] <= 2 * cols and 0 <= fine[1] <= 2 * rows


@functools.lru_cache(maxsize=16)
def _board_labels(cols: int, rows: int) -> dict[tuple[int, int], str]:
    """Every point of the fine grid and its label: a round's facts name a few hundred of them."""
    return {(X, Y): fine_label((X, Y), cols, rows) for X in range(2 * cols + 1) for Y in range(2 * rows + 1)}


@functools.lru_cache(maxsize=16)
def _board_coords(cols: int, rows: int) -> dict[tuple[int, int], tuple[int, int]]:
    """Every point of the fine grid and its node's own coordinates (own_xy)."""
    return {(X, Y): own_xy((X, Y)) for X in range(2 * cols + 1) for Y in range(2 * rows + 1)}


def steps_from(node: str, at: tuple[int, int], cols: int, rows: int,
               blocked: frozenset[tuple[int, int]]) -> dict[str, tuple[int, int]]:
    """Direction -> the point a path of this node ("B" or "C") from `at` reaches, in DIRS order (U D L
    R), for the paths that stay on the board and, for a central node, out of blocked cells."""
    out = {}
    for d, (dx, dy) in DIRS.items():
        step = (at[0] + 2 * dx, at[1] + 2 * dy)
        if on_board(step, cols, rows) and not (node == "C" and step in blocked):
            out[d] = step
    return out


@functools.lru_cache(maxsize=16)
def _legal_steps(cols: int, rows: int, blocked: frozenset[tuple[int, int]]
                 ) -> dict[str, dict[tuple[int, int], dict[str, tuple[int, int]]]]:
    """steps_from of every node and point of the board, looked up by the simulated players rather than
    computed for every action they try (shared: never written)."""
    points = [(X, Y) for X in range(2 * cols + 1) for Y in range(2 * rows + 1)]
    return {n: {at: steps_from(n, at, cols, rows, blocked) for at in points} for n in "BC"}


CornerRow = tuple[tuple[str, str], tuple[str, str]]   # a Border row naming a point: (("cell", "C1"), ("corner", ...))


@functools.lru_cache(maxsize=16)
def _pregame_choices(cols: int, rows: int, blocked: frozenset[tuple[int, int]]
                     ) -> tuple[list[tuple[str, str]], list[tuple[str, tuple[CornerRow, ...]]]]:
    """What the simulated players draw their pregame lists from, in board order: every usable cell as
    (label, key), and every lattice point as (key, the cell corners naming it, as Border rows)."""
    cells = [(cell_label(c, r), key_of(cell_fine(c, r)))
             for r in range(rows) for c in range(cols) if cell_fine(c, r) not in blocked]
    points = []
    for y in range(rows + 1):
        for x in range(cols + 1):
            corners = tuple((("cell", cell_label(c, r)), ("corner", k))
                            for c, r, k in ((x - 1, y - 1, "bottom right"), (x, y - 1, "bottom left"),
                                            (x - 1, y, "upper right"), (x, y, "upper left"))
                            if 0 <= c < cols and 0 <= r < rows)
            points.append((key_of(point_fine(x, y)), corners))
    return cells, points


def corner_point(c: int, r: int, corner: str) -> tuple[int, int]:
    """The lattice point of a cell corner (A3): C1 BR = D1 BL = C2 UR = D2 UL = (3, 1)."""
    return (c + (1 if corner in ("UR", "BR") else 0), r + (1 if corner in ("BL", "BR") else 0))


def point_label(x: int, y: int, cols: int, rows: int) -> str:
    """One display alias of a lattice point: the first valid of BR, BL, UR, UL (A3)."""
    if x >= 1 and y >= 1:
        return f"{cell_label(x - 1, y - 1)} bottom right"
    if x < cols and y >= 1:
        return f"{cell_label(x, y - 1)} bottom left"
    if x >= 1 and y < rows:
        return f"{cell_label(x - 1, y)} upper right"
    return f"{cell_label(x, y)} upper left"


def fine_label(fine: Sequence[int], cols: int, rows: int) -> str:
    X, Y = fine
    return _fine_label(X, Y, cols, rows)


@functools.lru_cache(maxsize=4096)   # every fact names its points: a board has a few hundred labels
def _fine_label(X: int, Y: int, cols: int, rows: int) -> str:
    if X % 2 == 0:
        return point_label(X // 2, Y // 2, cols, rows)
    return cell_label(X // 2, Y // 2)


_NOT_LOWER = re.compile(r"[^a-z ]")


def parse_corner(text: str) -> str | None:
    return _parse_corner(text if type(text) is str else clean(text))


@functools.lru_cache(maxsize=1024)
def _parse_corner(text: str) -> str | None:
    s = _NOT_LOWER.sub(" ", clean(text).casefold())
    s = " ".join(s.split())
    return CORNER_ALIASES.get(s) or CORNER_ALIASES.get(s.replace(" ", ""))


def key_of(fine: Sequence[int]) -> str:
    return f"{fine[0]},{fine[1]}"


def parse_point(node: str, value: Any, cols: int, rows: int) -> tuple[int, int] | None:
    """A position's node: [x, y] (a corner or a cell, 0-based), or a label such as 'C3' or
    'C1 bottom right'. The fine point, or None if it is not one of this board's points."""
    if isinstance(value, (list, tuple)) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool)
                                                                   for v in value):
        fine = fine_of(node, value)
        limit_x, limit_y = (cols, rows) if node == "B" else (cols - 1, rows - 1)
        return fine if 0 <= value[0] <= limit_x and 0 <= value[1] <= limit_y else None
    if not isinstance(value, str):
        return None
    if node == "C":
        cell = parse_cell(value, cols, rows)
        return cell_fine(*cell) if cell else None
    m = re.fullmatch(r"([A-Za-z]\s*\d{1,2})\s*(.*)", clean(value))
    if not m:
        return None
    cell, corner = parse_cell(m.group(1), cols, rows), parse_corner(m.group(2))
    return point_fine(*corner_point(cell[0], cell[1], corner)) if cell and corner else None


# ------------------------------------------------------------- action codes

def is_path(code: str) -> bool:
    return code in PATH_CODES


def costs_energy(code: str) -> bool:
    return code in _ENERGY_CODES


_ENERGY_CODES = frozenset(PATH_CODES + (SWAP,))


def blocked_fine(options: Mapping[str, Any]) -> frozenset[tuple[int, int]]:
    """The fine points of the blocked cells (A36), read once per set of options (options.options_of)."""
    return options_of(options).blocked


def dims(state: State) -> tuple[int, int]:
    """The board's columns and rows."""
    opts = options_of(state["options"])
    return opts.columns, opts.rows


def usable_cells(state: State) -> tuple[str, ...]:
    """The labels of the cells a central node may stand in, in board order."""
    opts = options_of(state["options"])
    return tuple(cell_label(c, r) for r in range(opts.rows) for c in range(opts.columns)
                 if cell_fine(c, r) not in opts.blocked)


def node_lines(state: State, player: str) -> list[str]:
    """Where the player's nodes are now and the colour of the paths each places."""
    opts = options_of(state["options"])
    nodes = state["nodes"].get(player)
    if not nodes:
        return []
    bc = state["border_colour"][player]
    return [f"Border node: {fine_label(nodes['B'], opts.columns, opts.rows)} ({bc} paths)",
            f"Central node: {fine_label(nodes['C'], opts.columns, opts.rows)} ({other(bc)} paths)"]
