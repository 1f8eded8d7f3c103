"""The board: squares and their names (A1), colours, the mirrors and rotations (A16, A17), grids
as data, their checks (R7, R8) and their seeded generation, and the distances the rules measure
(A2, A14).

A grid is a dict square -> "R" | "B" | "." in play, and 8 strings row 1 first in the state.
"""
from __future__ import annotations

import functools
from typing import Callable, Sequence

from ...core.parsing import clean
from ...core.rng import Rng
from .options import Options
from .spec import TRANSFORM_NAMES

COLS = "ABCDEFGH"
SIZE = 8
RED, BLUE, GRAY = "R", "B", "."
COLOR_NAME = {RED: "red", BLUE: "blue", GRAY: "gray"}
FILL = {RED: "E06666", BLUE: "6FA8DC", GRAY: "BFBFBF", "?": "404040"}
CENTER = ((3, 3), (4, 3), (3, 4), (4, 4))  # D4, E4, D5, E5 (R48)


Square = tuple  # (column 0-7, row 0-7); row 0 is row "1"
ALL_SQUARES: tuple[Square, ...] = tuple((c, r) for c in range(SIZE) for r in range(SIZE))  # A1, A2, ..., H8


def sq_name(s: Square) -> str:
    return f"{COLS[s[0]]}{s[1] + 1}"


def parse_square(text: str) -> Square | None:
    """'c5' -> (2, 4); None for anything that is not a column A-H then a row 1-8 (A1)."""
    t = clean(text).upper().replace(" ", "")
    if len(t) != 2 or t[0] not in COLS or t[1] not in "12345678":
        return None
    return (COLS.index(t[0]), int(t[1]) - 1)


def square_of(name: str) -> Square:
    """The square of a name already read (a submission's values, a fact's squares)."""
    s = parse_square(name)
    if s is None:
        raise ValueError(f"{name!r} is not a square A1-H8")
    return s


# --------------------------------------------------------------------- symmetries (A17)

def _mirror_lr(c: int, r: int) -> Square:
    return (7 - c, r)


def _mirror_tb(c: int, r: int) -> Square:
    return (c, 7 - r)


def _rot90(c: int, r: int) -> Square:
    return (7 - r, c)


def _rot180(c: int, r: int) -> Square:
    return (7 - c, 7 - r)


def _rot270(c: int, r: int) -> Square:
    return (r, 7 - c)


def _diag(c: int, r: int) -> Square:
    return (r, c)


def _antidiag(c: int, r: int) -> Square:
    return (7 - r, 7 - c)


TRANSFORMS: dict[str, Callable[[int, int], Square]] = {
    "mirror_lr": _mirror_lr, "mirror_tb": _mirror_tb, "rot90": _rot90, "rot180": _rot180,
    "rot270": _rot270, "diagonal": _diag, "antidiagonal": _antidiag,
}
TRANSFORM_TEXT = {
    "mirror_lr": "the left-right mirror", "mirror_tb": "the top-bottom mirror",
    "rot90": "a rotation by 90 degrees", "rot180": "a rotation by 180 degrees",
    "rot270": "a rotation by 270 degrees", "diagonal": "the A1-H8 diagonal mirror",
    "antidiagonal": "the H1-A8 diagonal mirror",
}
assert tuple(TRANSFORMS) == TRANSFORM_NAMES   # the spec lists the same names (grid_symmetry's choices)
STANDARD_TRANSFORMS = ("mirror_lr", "mirror_tb", "rot90", "rot180", "rot270")


def allowed_transforms(options: Options) -> tuple[str, ...]:
    """The symmetries a grid may have: the ruleset's five, and the diagonal mirrors if the host allows them (A17)."""
    if options.diagonal_symmetry:
        return tuple(TRANSFORMS)
    return STANDARD_TRANSFORMS


def apply_t(name: str, s: Square) -> Square:
    return TRANSFORMS[name](s[0], s[1])


Grid = dict  # Square -> "R" | "B" | "."


def parse_grid(rows: Sequence[str]) -> Grid:
    """8 strings of R/B/. , row 1 first, column A first (a fresh dict the caller may change)."""
    return dict(_parsed_grid(tuple(rows)))


@functools.lru_cache(maxsize=32)
def _parsed_grid(rows: tuple[str, ...]) -> Grid:
    # Forms, parsing and resolution read the same round grid many times a round.
    return {(c, r): rows[r][c] for c in range(SIZE) for r in range(SIZE)}


ALL_SQUARE_NAMES: tuple[str, ...] = tuple(sq_name(s) for s in ALL_SQUARES)


@functools.lru_cache(maxsize=64)   # every form and parse of a round lists the same grid's squares
def squares_of_colour(rows: tuple[str, ...], color: str) -> tuple[str, ...]:
    g = _parsed_grid(rows)
    return tuple(sq_name(s) for s in ALL_SQUARES if g[s] == color)


@functools.lru_cache(maxsize=64)
def allowed_colour_text(rows: tuple[str, ...], color: str) -> str:
    return f"a {COLOR_NAME[color]} square of this round's grid: {' '.join(squares_of_colour(rows, color))}"


def grid_rows(g: Grid) -> list[str]:
    return ["".join(g[(c, r)] for c in range(SIZE)) for r in range(SIZE)]


def symmetries(g: Grid, names: Sequence[str]) -> list[str]:
    """The transforms among `names` that map the red squares exactly onto the blue ones (R8)."""
    reds = {s for s in ALL_SQUARES if g[s] == RED}
    blues = {s for s in ALL_SQUARES if g[s] == BLUE}
    if not reds or len(reds) != len(blues):
        return []
    return [n for n in names if {apply_t(n, s) for s in reds} == blues]


def grid_problem(g: Grid, names: Sequence[str], where: str) -> str | None:
    """A sentence saying why the grid breaks R7/R8 under the allowed transforms `names` (A17),
    naming only those, or None if it is fine."""
    reds = sorted(s for s in ALL_SQUARES if g[s] == RED)
    blues = {s for s in ALL_SQUARES if g[s] == BLUE}
    if not reds:
        return f"{where}: the grid has no red square; it needs as many red as blue squares, at least one of each"
    if len(reds) != len(blues):
        return (f"{where}: the grid has {len(reds)} red and {len(blues)} blue squares; the numbers "
                "must be equal (R7)")
    if symmetries(g, names):
        return None
    ways = ", ".join(TRANSFORM_TEXT[n] for n in names)
    n0 = names[0]
    bad = next(s for s in reds if apply_t(n0, s) not in blues)
    land = apply_t(n0, bad)
    text = (f"{where}: the red squares do not map onto the blue squares under {ways} (R8); "
            f"e.g. under {TRANSFORM_TEXT[n0]} red {sq_name(bad)} lands on {sq_name(land)}, which is "
            f"{COLOR_NAME[g[land]]}")
    others = [n for n in symmetries(g, tuple(TRANSFORMS)) if n not in names]
    if others:   # the host meant a diagonal mirror: say how to allow it rather than list it as allowed
        text += (f". It is symmetric under {TRANSFORM_TEXT[others[0]]}, which the ruleset does not list "
                 "(A17); set the option diagonal_symmetry to true to allow it")
    return text + ". Fix the grid, or clear all its cells to have it generated from the seed"


def orbits(name: str) -> list[list[Square]]:
    return [list(o) for o in _orbits(name)]


@functools.lru_cache(maxsize=16)   # every generated grid walks the orbits of its symmetry
def _orbits(name: str) -> tuple[tuple[Square, ...], ...]:
    seen: set = set()
    out = []
    for s in ALL_SQUARES:
        if s in seen:
            continue
        orb = [s]
        t = apply_t(name, s)
        while t != s:
            orb.append(t)
            t = apply_t(name, t)
        seen.update(orb)
        out.append(tuple(orb))
    return tuple(out)


@functools.lru_cache(maxsize=16)
def capacity(name: str) -> int:
    """The most red squares a grid symmetric under `name` can hold."""
    return sum({1: 0, 2: 1, 4: 2}[len(o)] for o in _orbits(name))


def generate_grid(rng: Rng, name: str, red_count: int) -> Grid:
    """A seeded grid whose `red_count` red squares map onto the blue ones under `name` (A16)."""
    g: Grid = {s: GRAY for s in ALL_SQUARES}
    left = min(red_count, capacity(name))
    orbs = rng.shuffled([o for o in _orbits(name) if len(o) > 1])
    singles = []
    for o in orbs:
        if left <= 0:
            break
        k = rng.below(len(o))
        a, b = o[k], o[(k + 1) % len(o)]
        g[a], g[b] = RED, BLUE
        left -= 1
        if len(o) == 4:
            if left >= 1 and rng.below(2):
                g[o[(k + 2) % 4]], g[o[(k + 3) % 4]] = RED, BLUE
                left -= 1
            else:
                singles.append((o, k))
    for o, k in singles:  # not enough orbits left: complete some 4-orbits (red, blue, red, blue)
        if left <= 0:
            break
        g[o[(k + 2) % 4]], g[o[(k + 3) % 4]] = RED, BLUE
        left -= 1
    return g



GRID_CELL = {"R": RED, "RED": RED, "B": BLUE, "BLUE": BLUE, "G": GRAY, "GRAY": GRAY, "GREY": GRAY,
             ".": GRAY, "-": GRAY}


def distance(a: Square, b: Square, metric: str) -> int:
    dc, dr = abs(a[0] - b[0]), abs(a[1] - b[1])
    return max(dc, dr) if metric == "chebyshev" else dc + dr


def adjacent(a: Square, b: Square, mode: str) -> bool:
    dc, dr = abs(a[0] - b[0]), abs(a[1] - b[1])
    return (max(dc, dr) == 1) if mode == "eight" else (dc + dr == 1)



def rows_of(g: Grid) -> tuple[str, ...]:
    """A grid as a fact holds it: 8 strings, row 1 first."""
    return tuple(grid_rows(g))


def colour_letter(word: str) -> str:
    """"red" -> "R", "blue" -> "B", "gray" -> "." (a fact's colour back on a grid)."""
    return {"red": RED, "blue": BLUE, "gray": GRAY}[word]
