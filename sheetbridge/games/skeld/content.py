"""Skeld's content: the ship's rooms and Sequences (R4-R7), the bonuses (R65-R73), the numbers of
the rules, the host-editable board (A1) read into a `Board` and checked, and the crewmate helpers
every chapter shares."""
from __future__ import annotations

import enum
import functools
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ...core.parsing import clean
from ...core.types import State, Tables
from .spec import BOARD_TABLE


SEQUENCES: dict[str, str] = {"A": "Frontier", "B": "Greenhouse", "C": "Conductor"}  # R7, A35
COMPONENT_NAMES: dict[str, tuple[str, ...]] = {  # flavour only (R6)
    "A": ("Machine Learning", "Boot Sequence", "Streamline", "Beam Cell", "Compile Driver", "Recursion",
          "Hologram", "Aggregate", "Auto-Shields", "Capacitor", "Defragment", "Cognitive Bias", "Stack"),
    "B": ("Manjusaka", "Orchid", "Edelweiss", "Hyacinth", "Plumeria", "Lotus", "Wisteria", "Iris",
          "Morning Glory", "Hibiscus", "Chrysanthemum", "Lilac", "Jasmine"),
    "C": ("Ravel", "Scriabin", "Debussy", "Saint-Saens", "Medtner", "Chopin", "Beethoven", "Bach",
          "Mozart", "Tchaikovsky", "Haydn", "Schubert", "Mendelssohn"),
}
COMPONENTS: tuple[str, ...] = tuple(f"{n}{s}" for s in "ABC" for n in range(1, 14))  # R5


class Bonus(enum.Enum):
    """The eight bonus items (R65-R73) with their uses (A13; None = unlimited or passive)."""
    R = ("R", "Rosé Tteokbokki", None)
    S = ("S", "Summoner's Meme", 1)
    T = ("T", "Take Back Toe", None)
    U = ("U", "Urgot Peraphernalia", 1)
    W = ("W", "Wiwaxia", 2)
    X = ("X", "XCommunications Device", 1)
    Y = ("Y", "Yellow Banana", 1)
    Z = ("Z", "Zurich Is Stained Vinyl Record", None)

    def __init__(self, letter: str, title: str, uses: int | None) -> None:
        self.letter = letter
        self.title = title
        self.uses = uses


BONUSES: tuple[str, ...] = tuple(b.letter for b in Bonus)
PARASITE_ROOM, VAULT = "P", "V"
ROOMS: tuple[str, ...] = COMPONENTS + BONUSES + (PARASITE_ROOM, VAULT)  # 39 + 8 + 1 + 1 = 49 (R5)
SIZE = 7  # R4
START_ENERGY, BASE_CAP, INCOME, MAX_CAP = 5, 7, 3, 9  # R13-R15, R17
CAP_PRICE = 3  # R17
VAULT_MIN = 3  # R55
BANANA_ENERGY = 3  # R72
DIRECTIONS: dict[str, tuple[int, int]] = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}  # A2
SIDE_WORDS = {"N": "north", "E": "east", "S": "south", "W": "west"}
BANANA_USE, WIWAXIA_USE = "Eat Yellow Banana", "Wiwaxia drain"
WALL_USES = tuple(f"Summoner wall {d}" for d in DIRECTIONS)
GT_WINNER, GT_EC, GT_RUNNER_UP = "gt-winner", "gt-ec", "gt-runner-up"   # Gamewide Tiebreak decisions (R49, A29)


def room_kind(label: str) -> str:
    if label in BONUSES:
        return "bonus"
    if label in (PARASITE_ROOM, VAULT):
        return label
    return "component"



def room_title(label: str) -> str:
    if label in BONUSES:
        return f"{label} ({Bonus[label].title})"
    if label == PARASITE_ROOM:
        return "P (Parasite Room)"
    if label == VAULT:
        return "V (Vault)"
    return f"{label} ({COMPONENT_NAMES[label[-1]][int(label[:-1]) - 1]})"


def number(label: str) -> int:
    return int(label[:-1])


def sequence_value(components: Sequence[str], seq: str) -> int:
    """Sum of the numbers of the components of `seq` held (R46)."""
    return sum(number(c) for c in components if c[-1] == seq)


def pieces(components: Sequence[str], seq: str) -> int:
    return sum(1 for c in components if c[-1] == seq)


def total_value(components: Sequence[str]) -> int:
    """Sequence Value over all components, all sequences (R50, A31)."""
    return sum(number(c) for c in components)


def counted(n: int, word: str) -> str:
    """ "1 garnet", "2 garnets". """
    return f"{n} {word}" + ("" if n == 1 else "s")


def and_names(names: Sequence[str]) -> str:
    """ "Ann", "Ann and Bo", "Ann, Bo and Cy". """
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# --------------------------------------------------------------------- the board (A1)

def read_board(rect: Sequence[Sequence[str]]) -> tuple[list[list[str]], list[str]]:
    """The 7x7 grid of labels from the host's table, and sentences about what is wrong."""
    problems: list[str] = []
    rows = [list(r) for r in rect]
    if rows:
        rows = rows[1:]  # header row
    rows = [r for r in rows if any(clean(v) for v in r)]
    grid: list[list[str]] = []
    for i, r in enumerate(rows, start=1):
        cells = [clean(v).upper() for v in r]
        while cells and cells[-1] == "":
            cells.pop()
        labels = cells[1:]  # the first column is the row number
        if len(labels) != SIZE or any(not v for v in labels):
            problems.append(f"{BOARD_TABLE}: data row {i} has {len([v for v in labels if v])} room labels; "
                            f"each of the {SIZE} rows needs a row number then exactly {SIZE} labels")
        grid.append(labels)
    if len(rows) != SIZE:
        problems.append(f"{BOARD_TABLE}: {len(rows)} data rows found; the ship needs exactly {SIZE} rows of "
                        f"{SIZE} rooms under the header row")
    where: dict[str, list[str]] = {}
    for i, r in enumerate(grid, start=1):
        for j, v in enumerate(r, start=1):
            if v:
                where.setdefault(v, []).append(f"row {i} column {j}")
    unknown = sorted(v for v in where if v not in ROOMS)
    if unknown:
        problems.append(f"{BOARD_TABLE}: unknown room label(s) {', '.join(unknown)}; use only 1A..13C, "
                        f"R, S, T, U, W, X, Y, Z, P and V")
    doubled = [v for v in ROOMS if len(where.get(v, ())) > 1]
    if doubled:
        problems.append(f"{BOARD_TABLE}: doubled room(s): " + "; ".join(
            f"{v} at {' and '.join(where[v])}" for v in doubled) + "; each room appears exactly once")
    missing = [v for v in ROOMS if v not in where]
    if missing:
        problems.append(f"{BOARD_TABLE}: missing room(s) {', '.join(missing)}; put each in one cell "
                        "(39 component rooms, 8 bonus rooms, P and V)")
    return grid, problems


@dataclass(frozen=True)
class Board:
    grid: tuple[tuple[str, ...], ...]

    @classmethod
    def of(cls, state: State) -> "Board":
        return _board(tuple(tuple(r) for r in state["board"]))

    @functools.cached_property
    def _where(self) -> dict[str, tuple[int, int]]:
        """Each label's cell (the first, reading row by row): every move and plan looks rooms up."""
        where: dict[str, tuple[int, int]] = {}
        for i, r in enumerate(self.grid):
            for j, v in enumerate(r):
                where.setdefault(v, (i, j))
        return where

    @functools.cached_property
    def _lines(self) -> dict[tuple[str, str], list[str] | None]:
        # Every way walked, kept: moves are planned for each submission and again at resolution, and
        # random play tries every room in line. It saves 10% of a game's instructions (play_random, callgrind).
        return {}

    def pos(self, label: str) -> tuple[int, int]:
        return self._where[label]

    def at(self, i: int, j: int) -> str | None:
        if 0 <= i < SIZE and 0 <= j < SIZE:
            return self.grid[i][j]
        return None

    def neighbour(self, label: str, side: str) -> str | None:
        i, j = self.pos(label)
        di, dj = DIRECTIONS[side]
        return self.at(i + di, j + dj)

    def line(self, src: str, dst: str) -> list[str] | None:
        """Rooms stepped through from src to dst along a row or column (dst included), or None."""
        try:
            found = self._lines[(src, dst)]
        except KeyError:
            found = self._lines[(src, dst)] = self._line(src, dst)
        return None if found is None else list(found)

    def _line(self, src: str, dst: str) -> list[str] | None:
        (a, b), (c, d) = self.pos(src), self.pos(dst)
        if a != c and b != d:
            return None
        if (a, b) == (c, d):
            return []
        di = (c > a) - (c < a)
        dj = (d > b) - (d < b)
        out, i, j = [], a, b
        while (i, j) != (c, d):
            i, j = i + di, j + dj
            out.append(self.grid[i][j])
        return out

    def same_line(self, label: str) -> list[str]:
        i, j = self.pos(label)
        return [self.grid[i][k] for k in range(SIZE) if k != j] + [self.grid[k][j] for k in range(SIZE) if k != i]


# The same ship every round: its lookups are kept with it (7% of a game's instructions, play_random, callgrind).
@functools.lru_cache(maxsize=8)
def _board(grid: tuple[tuple[str, ...], ...]) -> Board:
    return Board(grid)



def edge(a: str, b: str) -> str:
    """A wall is stored as the shared edge of two rooms (A2)."""
    return "|".join(sorted((a, b)))


def path_crosses_wall(board: Board, src: str, path: Sequence[str], walls: Sequence[str]) -> bool:
    prev = src
    ws = set(walls)
    for room in path:
        if edge(prev, room) in ws:
            return True
        prev = room
    return False


def check_tables(tables: Tables) -> list[str]:
    """What is wrong with the host's board table (A1), in sentences; [] when it is good."""
    if BOARD_TABLE not in tables:
        return [f"the {BOARD_TABLE} table is missing; copy templates/skeld/board.csv into a tab named "
                f"{BOARD_TABLE!r}"]
    return read_board(tables[BOARD_TABLE])[1]


# --------------------------------------------------------------------- crewmates' bonuses

def usable(crew: Mapping[str, Any], letter: str, r: int) -> bool:
    """The crewmate carries bonus `letter`, won before round r (A12), with a use left (A13)."""
    for it in crew["items"]:
        if it["item"] == letter and it["got"] < r and (it["uses"] is None or it["uses"] > 0):
            return True
    return False


def carries(crew: Mapping[str, Any], letter: str) -> bool:
    return any(it["item"] == letter for it in crew["items"])


def use_bonus(crew: dict, letter: str) -> None:
    for it in crew["items"]:
        if it["item"] == letter and it["uses"] is not None and it["uses"] > 0:
            it["uses"] -= 1
            return


def uses_left(crew: Mapping[str, Any], letter: str) -> int | None:
    for it in crew["items"]:
        if it["item"] == letter:
            return it["uses"]
    return None


def item_uses(players: Sequence[str], player: str) -> tuple[str, ...]:
    """Every item-use text a player can type (the dropdown's full vocabulary)."""
    return (BANANA_USE, WIWAXIA_USE) + WALL_USES + tuple(f"XComm with {p}" for p in players if p != player)

