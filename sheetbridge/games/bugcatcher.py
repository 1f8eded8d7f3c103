"""Bugcatcher (designer uriquack, "The Genius: House of Larks"): Main Match 5, 9 players.

Rules in brief (R and A numbers from shared/rulings/bugcatcher.md):

- The board is 6 columns (A-F) x 5 rows (1-5) of cells; A1 is upper left (R3, R4, A1,
  A2). Border nodes sit on the 7x6 lattice of cell corners and move along cell edges;
  central nodes sit in cells and move between cell centres (R5-R9, A3). The host may
  block cells (A36): no central node starts in or enters one.
- Pregame (round 0): two 9-entry priority lists per player, central cells and border
  corners (any alias: C1 bottom right = D2 upper left), plus a garnet bid per list.
  Pass k gives each unassigned player their k-th choice; a contested coordinate goes to
  the highest bid, then a seeded draw (R16-R25, A26-A30). Bids are charged in full.
- 7 rounds (R27) of 7 energy (R12): an ordered list of actions, one per step, all
  players' k-th actions at once (R28, R29). BU/BD/BL/BR and CU/CD/CL/CR place one path
  from the border or central node (1 energy, +1 firefly if it succeeds, R30-R32);
  ``swap`` swaps both nodes' colours (1 energy, R33, R34); ``gswap`` is the once-a-round
  swap for 1 garnet instead of energy (R15, A17). Round 1: central black, border blue
  (R11); colours carry over (A15). Border and central colours are always opposite (R10).
- Collisions (R37-R47, A4-A13), checked each step: crossings first (a central path and a
  border path of the same colour through the same edge midpoint: case 3 if both are new
  this step, case 4 for the later one if the other was placed earlier), then arrivals
  (case 1: the point was claimed earlier, start nodes included; case 2: several arrive at
  once). The colliding action and all later path actions of that node are invalidated;
  swaps still go through (R44). Players collide with themselves too (R45, A7). Paths do
  not carry over (R46); a node's end point is next round's node (R6, A11).
- Missions (R48-R62, A18-A25, A37-A40) are data (the "Missions" table): each round's
  board, a shape in the ruleset's notation for the border or central node (or ``manual``:
  the host enters who completed it, a decision), a reward and an optional failure penalty
  with its window. Players accept missions from the current board; a successful path
  containing the shape (any rotation, reflection or direction of travel) completes it;
  rewards are split rounding up; acceptors who fail pay the penalty when someone else
  completes it or when the window ends. Completions are announced without names (R62).
- Information (R63-R68, A33-A35): the public board shows every path in its colour,
  unlabelled; each player learns their own firefly total each round; all totals at
  the end. The most fireflies wins 1 garnet and 2 Tokens of Life, the fewest is the
  Elimination Candidate; ties by missions completed, fewest collisions caused, then the
  Gamewide Tiebreak (a ranking the host enters as a decision) (R69-R72, A32). Every
  player earns 1 garnet per 30 fireflies (R73, A31).

A round's results are typed facts (the classes after the engine); every report and
picture is drawn from them (``render``, ``picture``).

The ruleset's example submission (R35, R36) from C3 and C1 bottom right:

>>> res = run_paths({"p": {"B": point_fine(3, 1), "C": cell_fine(2, 2)}}, {"p": "blue"},
...                 {"p": ["BD", "BL", "CL", "BD", "swap", "BL", "CD"]}, DEFAULTS)
>>> res.moves["p"], res.paths["p"], res.border_colour["p"]
({'B': 'DLDL', 'C': 'LD'}, 6, 'black')
"""
from __future__ import annotations

import enum
import functools
import math
import operator
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from ..core.decisions import DecisionKind, DecisionRequest
from ..core.errors import ConfigError, PositionError
from ..core.facts import HOST_ONLY, Fact, RenderContext, fact, of_type
from ..core.game import GameRules
from ..core.outcome_text import plural
from ..core.parsing import (MAX_DIGITS, YES_NO_HELP, clean, host_flag, int_reason, is_formula, parse_int,
                            table_key, yes_no)
from ..core.picture import Box, Dot, Label, Line, Picture
from ..core.rng import Rng
from ..core.standings import Place, RoundScore
from ..core.types import (Award, Block, Cell, Field, FieldKind, Form, GameSpec, LedgerEntry,
                          Option, Outcome, Problem, ProblemKind, RawSubmission, Report,
                          RoundInput, RoundResult, Section, State, Submission, TableSpec, Tables)

# --------------------------------------------------------------------- spec

MISSIONS_TABLE = "Missions"
ENERGY = 7            # R12
LIST_LENGTH = 9       # R17
ACTION_ROWS = 8       # 7 energy actions + one garnet swap (E9)
MANUAL = "manual"     # the shape of a mission whose completers the host enters (A21)

SPEC = GameSpec(
    id="bugcatcher",
    name="Bugcatcher",
    min_players=2, max_players=12, recommended_players=9, rounds=7,
    summary="Steer a border node and a central node across a 6x5 grid, dodge collisions, "
            "complete missions and collect fireflies.",
    options=(
        Option("rounds", 7, "Number of rounds after the pregame (R27).", ruling="A43"),
        Option("columns", 6, "Board columns, lettered A.. left to right (R3).", ruling="A1", kind="content"),
        Option("rows", 5, "Board rows, numbered 1.. top to bottom (R3).", ruling="A1", kind="content"),
        Option("blocked_cells", "", "Cells that are not gray squares, e.g. 'C3, D4': no central node starts "
               "in one or moves into one (such a move fails like a move off the board); border nodes are not "
               "affected. Blank: every cell is usable.", ruling="A36", kind="content"),
        Option("start_nodes_claimed", True, "Every node's start point counts as claimed from step 0, "
               "so a path onto any node (own or another's) is a case-1 collision.", ruling="A8"),
        Option("crossing_before_arrival", True, "Crossings (cases 3/4) are checked at the half-step, before "
               "arrivals; a path stopped at a crossing cannot cause a case 2. false: all at once.",
               ruling="A12"),
        Option("collision_count_mode", "per_action", "Collisions caused (tie-break 2): one per colliding "
               "action, or one per other party involved.", ("per_action", "per_pair"), "A13"),
        Option("gswap_takes_step", True, "A garnet swap occupies a step like any action; false: it "
               "applies just before the next action without using a step.", ruling="A14"),
        Option("blank_policy", "compress", "A blank or unreadable row between actions is removed "
               "(later actions move up) or kept as an idle step.", ("compress", "idle"), "A14"),
        Option("energy_overflow", "drop_excess", "More than 7 energy: drop the actions after the 7th, or "
               "reject the whole list.", ("drop_excess", "reject_all"), "E1"),
        Option("extra_gswap", "as_swap", "A second garnet swap in a round becomes a normal swap "
               "(1 energy) or is dropped.", ("as_swap", "drop"), "E3"),
        Option("gswap_no_garnet", "as_swap", "A garnet swap without a garnet becomes a normal swap or is "
               "dropped.", ("as_swap", "drop"), "E4"),
        Option("offboard_policy", "stop_node", "A path off the board (or into a blocked cell) is invalid and "
               "stops that node for the round, or only that action is skipped.", ("stop_node", "skip_action"),
               "E5"),
        Option("missing_policy", "no_actions", "A player who submits nothing takes no actions (nodes stay; "
               "missions accepted earlier still count), or repeats their last submitted actions (without a "
               "garnet swap and without accepting missions).", ("no_actions", "repeat_last"), "E11"),
        Option("mission_requires_acceptance", True, "Only players who accepted a mission can complete it; "
               "false: anyone who builds it earns the reward (penalties still need acceptance).",
               ruling="A18"),
        Option("bid_scope", "per_list", "One garnet bid per priority list, or one bid for both.",
               ("per_list", "shared"), "A26"),
        Option("bid_charge", "always", "Bids are charged in full, or only when the bidder was in a tie.",
               ("always", "only_if_contested"), "A26"),
        Option("pregame_mode", "strict", "Pass k uses each player's k-th entry (strict), or their best "
               "entry still free (next_available).", ("strict", "next_available"), "A27"),
        Option("public_node_colors", False, "Colour node markers on the public board (shows swaps).",
               ruling="A33", kind="display"),
        Option("public_step_order", False, "Write each path's step number on the public board.",
               ruling="A33", kind="display"),
        Option("private_breakdown", True, "Private reports include the breakdown (actions, energy, "
               "collisions, paths and mission fireflies); false: the firefly total, nodes and missions only.",
               ruling="A34", kind="display"),
        Option("reveal_all_stats", False, "At the end reveal everyone's missions and collisions, not only "
               "for players whose tie used them.", ruling="A35", kind="display"),
    ),
    tables=(
        TableSpec(MISSIONS_TABLE, "missions.csv",
                  "Each round's mission board (R48): round, id, name, node (border/central/any), shape "
                  "(e.g. DDRDL, or manual: the host enters who completed it), reward, penalty, "
                  "failure_rounds, rotate, reflect, either_end, anywhere, expires_after_round, text. "
                  "Future rounds can be edited between rounds."),
    ),
)

DEFAULTS: dict[str, Any] = SPEC.default_options()

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


def cell_label(c: int, r: int) -> str:
    return f"{chr(ord('A') + c)}{r + 1}"


def parse_cell(text: str, cols: int, rows: int) -> tuple[int, int] | None:
    """'C3' -> (2, 2); None when it is not a cell of this board."""
    return _parse_cell(text if type(text) is str else clean(text), cols, rows)


@functools.lru_cache(maxsize=2048)   # every pregame list and label is read this way
def _parse_cell(text: str, cols: int, rows: int) -> tuple[int, int] | None:
    m = _CELL.fullmatch(clean(text))
    if not m:
        return None
    c, r = ord(m.group(1).upper()) - ord("A"), int(m.group(2)) - 1
    return (c, r) if 0 <= c < cols and 0 <= r < rows else None


def parse_blocked(text: Any, cols: int, rows: int) -> tuple[list[tuple[int, int]], list[str]]:
    """The option blocked_cells: ('C3, d4' -> [(2, 2), (3, 3)], words that are not cells)."""
    cells: list[tuple[int, int]] = []
    bad: list[str] = []
    for word in re.split(r"[\s,;]+", clean(text)):
        if not word:
            continue
        cell = parse_cell(word, cols, rows)
        if cell is None:
            bad.append(word)
        elif cell not in cells:
            cells.append(cell)
    return sorted(cells, key=lambda c: (c[1], c[0])), bad


def blocked_fine(options: Mapping[str, Any]) -> frozenset[tuple[int, int]]:
    text = options.get("blocked_cells", "")
    return _blocked_fine(text if isinstance(text, str) else clean(text), options["columns"], options["rows"])


@functools.lru_cache(maxsize=64)   # read at every step of every round: parsed once per option value
def _blocked_fine(text: str, cols: int, rows: int) -> frozenset[tuple[int, int]]:
    cells, _ = parse_blocked(text, cols, rows)
    return frozenset(cell_fine(*c) for c in cells)


@functools.lru_cache(maxsize=64)
def _blocked_labels(text: Any, cols: int, rows: int) -> tuple[str, ...]:
    """The blocked cells' labels, in board order (the board fact of every round)."""
    cells, _ = parse_blocked(text, cols, rows)
    return tuple(cell_label(*c) for c in cells)


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


@functools.lru_cache(maxsize=16)
def _pregame_choices(cols: int, rows: int, blocked: frozenset[tuple[int, int]]
                     ) -> tuple[list[tuple[str, str]], list[tuple[str, tuple[tuple[tuple[str, str], ...], ...]]]]:
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


_CELL = re.compile(r"([A-Za-z])\s*(\d{1,2})")
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

def parse_action(text: str) -> str | None:
    """A code from the shorthand or the long form: 'BD', 'border node path down', 'color swap'
    (R30, R33, R36); 'gswap' / 'garnet swap' for the garnet swap (R15). None if unreadable."""
    return _parse_action(text) if isinstance(text, str) else _parse_action(clean(text))


@functools.lru_cache(maxsize=1024)   # players type the same few codes over and over
def _parse_action(text: str) -> str | None:
    s = clean(text).casefold()
    s = re.sub(r"^\d+\s*[.):]\s*", "", s)          # "1. BD"
    s = re.sub(r"[^a-z ]", " ", s)
    words = [w for w in s.split() if w not in ("node", "path", "move", "the", "a", "place", "to", "go")]
    if not words:
        return None
    joined = "".join(words)
    if joined in ("swap", "colorswap", "colourswap", "s", "cswap", "swapcolor", "swapcolour",
                  "swapcolors", "swapcolours"):
        return SWAP
    if joined in ("gswap", "garnetswap", "swapgarnet", "gs", "freeswap", "garnetcolorswap",
                  "garnetcolourswap", "colorswapgarnet", "colourswapgarnet"):
        return GSWAP
    if len(joined) == 2 and joined[0] in "bc" and joined[1] in "udlr":
        return joined.upper()
    if len(words) == 2:
        node = {"border": "B", "b": "B", "central": "C", "center": "C", "centre": "C", "c": "C"}.get(words[0])
        d = {"up": "U", "u": "U", "down": "D", "d": "D", "left": "L", "l": "L", "right": "R",
             "r": "R"}.get(words[1])
        if node and d:
            return node + d
    return None


def is_path(code: str) -> bool:
    return code in PATH_CODES


# The cells a submission nearly always holds, already read: what parse_action and yes_no read them as
# (tests/test_fast_paths.py checks that the rules read each so).
_EXACT_CODES = {c: c for c in ACTION_CHOICES}
_EXACT_YES_NO = {"yes": True, "no": False}


def costs_energy(code: str) -> bool:
    return code in _ENERGY_CODES


_ENERGY_CODES = frozenset(PATH_CODES + (SWAP,))


# ------------------------------------------------------------- shapes (A22)

def parse_shape(text: str) -> str | None:
    """'DDRDL', 'D D R D L' or 'down down right down left' -> 'DDRDL'; None if unreadable."""
    words = re.findall(r"[a-z]+", clean(text).casefold())
    if len(words) == 1 and words[0] and set(words[0]) <= set("udlr"):
        return words[0].upper()
    out = []
    for w in words:
        d = {"up": "U", "u": "U", "down": "D", "d": "D", "left": "L", "l": "L", "right": "R", "r": "R"}.get(w)
        if d is None:
            return None
        out.append(d)
    return "".join(out) or None


def shape_variants(shape: str, rotate: bool = True, reflect: bool = True, either_end: bool = True) -> list[str]:
    """Every way the shape may be built (R59): rotations, reflections, both directions of travel."""
    return list(_shape_variants(shape, bool(rotate), bool(reflect), bool(either_end)))


@functools.lru_cache(maxsize=256)   # every mission is checked for every player every round
def _shape_variants(shape: str, rotate: bool, reflect: bool, either_end: bool) -> tuple[str, ...]:
    forms = {shape}
    if reflect:
        forms |= {"".join(MIRROR[m] for m in f) for f in forms}
    if rotate:
        more = set()
        for f in forms:
            g = f
            for _ in range(3):
                g = "".join(ROTATE[m] for m in g)
                more.add(g)
        forms |= more
    if reflect:
        forms |= {"".join(MIRROR[m] for m in f) for f in forms}
    if either_end:
        forms |= {"".join(INVERSE[m] for m in reversed(f)) for f in forms}
    return tuple(sorted(forms))


def shape_revisits(shape: str) -> bool:
    """True if the shape comes back to a point it passed (a self-collision, A7)."""
    x = y = 0
    seen = {(0, 0)}
    for m in shape:
        dx, dy = DIRS[m]
        x, y = x + dx, y + dy
        if (x, y) in seen:
            return True
        seen.add((x, y))
    return False


def find_shape(moves: str, variants: Sequence[str], anywhere: bool) -> tuple[str, int] | None:
    """Where the successful moves contain a variant (A22, A25): (variant, index of its first
    move), the earliest start first; None if no variant is there.

    >>> find_shape("LDDRDLU", shape_variants("DDRDL"), True)
    ('DDRDL', 1)
    """
    if not anywhere:
        return (moves, 0) if moves in variants else None
    best: tuple[int, str] | None = None
    for v in variants:
        i = moves.find(v)
        if i >= 0 and (best is None or (i, v) < best):
            best = (i, v)
    return (best[1], best[0]) if best else None


# find_shape for the variants tuple of _shape_variants: every mission is checked for every player every
# round, and a round's moves are short strings of U D L R that come back again and again.
_found_shape = functools.lru_cache(maxsize=1 << 14)(find_shape)


def matches(moves: str, variants: Sequence[str], anywhere: bool) -> bool:
    """A22/A25: the successful moves contain a variant as consecutive moves (or equal it)."""
    return find_shape(moves, variants, anywhere) is not None


# ------------------------------------------------------------- the path engine

@dataclass(slots=True)   # a few hundred a round: slots make them quicker to make
class Event:
    """What one step did for one player; the game turns these into ActionStep facts."""
    step: int
    code: str
    result: str          # placed, swap, idle, stopped, offboard, blocked, collision
    case: int = 0        # the lowest collision case (0: none)
    others: tuple[str, ...] = ()          # everyone it collided with (the player too, for a self-collision)
    frm: tuple[int, int] | None = None    # fine points
    to: tuple[int, int] | None = None
    colour: str = ""                      # the path's colour; for a swap, the border node's new colour
    hits: tuple[tuple[int, str], ...] = ()   # (case, other player) pairs
    counted: int = 0                      # collisions caused by this action (A13)

    @property
    def node(self) -> str:
        return self.code[0] if is_path(self.code) else ""


@dataclass(slots=True)
class Segment:
    player: str
    node: str
    frm: tuple[int, int]
    to: tuple[int, int]
    colour: str
    step: int

    @property
    def mid(self) -> tuple[int, int]:
        return ((self.frm[0] + self.to[0]) // 2, (self.frm[1] + self.to[1]) // 2)


@dataclass
class PathResult:
    segments: list[Segment]
    ends: dict[str, dict[str, tuple[int, int]]]
    border_colour: dict[str, str]
    paths: dict[str, int]
    collisions: dict[str, int]
    moves: dict[str, dict[str, str]]
    events: dict[str, list[Event]]
    log: list[str] = field(default_factory=list)
    steps: dict[str, dict[str, list[int]]] = field(default_factory=dict)   # the step of each successful move


def _slots(codes: Sequence[str], gswap_takes_step: bool) -> list[tuple[int, str | None]]:
    """(colour flips before the action, action) per step (A14)."""
    if gswap_takes_step:
        return [(0, c) for c in codes]
    out: list[tuple[int, str | None]] = []
    pending = 0
    for c in codes:
        if c == GSWAP:
            pending += 1
            continue
        out.append((pending, c))
        pending = 0
    if pending:
        out.append((pending, None))
    return out


def run_paths(starts: Mapping[str, Mapping[str, Sequence[int]]], border_colour: Mapping[str, str],
              plans: Mapping[str, Sequence[str]], options: Mapping[str, Any]) -> PathResult:
    """Resolve one round's actions step by step for all players at once (R29, reference order (f)).

    `starts` maps player -> {"B": fine point, "C": fine point}; `plans` the cleaned codes.
    """
    opts = {**DEFAULTS, **options}
    cols, rows = opts["columns"], opts["rows"]
    blocked = blocked_fine(opts)
    players = sorted(starts)
    pos = {p: {n: tuple(starts[p][n]) for n in "BC"} for p in players}
    colour = {p: border_colour[p] for p in players}
    stopped = {p: {"B": False, "C": False} for p in players}
    claimed: dict[tuple[int, int], str] = {}
    if opts["start_nodes_claimed"]:
        for p in players:
            for n in "BC":
                claimed.setdefault(pos[p][n], p)
    placed_at: dict[tuple[int, int], list[Segment]] = {}
    segments: list[Segment] = []
    paths = {p: 0 for p in players}
    collisions = {p: 0 for p in players}
    moves = {p: {"B": "", "C": ""} for p in players}
    move_steps: dict[str, dict[str, list[int]]] = {p: {"B": [], "C": []} for p in players}
    events: dict[str, list[Event]] = {p: [] for p in players}
    log: list[str] = []
    slots = {p: _slots(plans.get(p, ()), opts["gswap_takes_step"]) for p in players}
    steps = max((len(s) for s in slots.values()), default=0)

    labels = _board_labels(cols, rows)

    def lbl(f: tuple[int, int]) -> str:
        return labels.get(f) or fine_label(f, cols, rows)

    crossing_first = opts["crossing_before_arrival"]
    stop_offboard = opts["offboard_policy"] == "stop_node"
    per_action = opts["collision_count_mode"] == "per_action"
    for k in range(1, steps + 1):
        # A proposal: [player, node, code, segment, its midpoint, hits (case, other player)].
        proposals: list[list[Any]] = []
        for p in players:
            if k > len(slots[p]):
                continue
            flips, code = slots[p][k - 1]
            if flips:
                for _ in range(flips):
                    colour[p] = other(colour[p])
            if code is None:
                continue
            if code == SWAP or code == GSWAP:
                colour[p] = other(colour[p])
                events[p].append(Event(k, code, "swap", 0, (), None, None, colour[p]))
                continue
            if code == IDLE:
                events[p].append(Event(k, code, "idle"))
                continue
            n, d = code[0], DIRS[code[1]]
            frm = pos[p][n]
            to = (frm[0] + 2 * d[0], frm[1] + 2 * d[1])
            node_col = colour[p] if n == "B" else other(colour[p])
            if stopped[p][n]:
                events[p].append(Event(k, code, "stopped", 0, (), frm, to, node_col))
                continue
            off = not (0 <= to[0] <= 2 * cols and 0 <= to[1] <= 2 * rows)   # on_board, inlined
            if off or (n == "C" and to in blocked):     # E5; a blocked cell is no gray square (A36)
                if stop_offboard:
                    stopped[p][n] = True
                events[p].append(Event(k, code, "offboard" if off else "blocked", 0, (), frm, to, node_col))
                continue
            proposals.append([p, n, code, Segment(p, n, frm, to, node_col, k),
                              ((frm[0] + to[0]) // 2, (frm[1] + to[1]) // 2), []])
        if not proposals:
            continue
        # half-step: crossings of a central and a border path of the same colour (cases 3, 4)
        by_mid: dict[tuple[int, int], list[list[Any]]] = {}
        for pr in proposals:
            by_mid.setdefault(pr[4], []).append(pr)
        for pr in proposals:
            seg, mid, hits = pr[3], pr[4], pr[5]
            for old in placed_at.get(mid, ()):
                if old.node != seg.node and old.colour == seg.colour:
                    hits.append((4, old.player))
            same_mid = by_mid[mid]
            if len(same_mid) > 1:   # nearly always the proposal alone
                for o in same_mid:
                    s2 = o[3]
                    if o is not pr and s2.node != seg.node and s2.colour == seg.colour:
                        hits.append((3, o[0]))
        # arrivals (cases 1, 2)
        pool = [pr for pr in proposals if not pr[5]] if crossing_first else proposals
        by_target: dict[tuple[int, int], list[list[Any]]] = {}
        for pr in pool:
            owner = claimed.get(pr[3].to)
            if owner is not None:
                pr[5].append((1, owner))
            else:
                by_target.setdefault(pr[3].to, []).append(pr)
        for group in by_target.values():
            if len(group) > 1:
                for pr in group:
                    pr[5].extend((2, o[0]) for o in group if o is not pr)
        # apply
        for p, n, code, seg, mid, found in proposals:
            if found:
                stopped[p][n] = True
                count = 1 if per_action else len(found)
                collisions[p] += count
                hits = tuple(sorted(found))
                events[p].append(Event(k, code, "collision", hits[0][0], tuple(sorted({o for _, o in hits})),
                                       seg.frm, seg.to, seg.colour, hits, count))
                log.append(f"step {k}: {p} {code} {lbl(seg.frm)} -> {lbl(seg.to)} ({seg.colour}): "
                           + "; ".join(f"case {c} with {o}" for c, o in hits))
            else:
                segments.append(seg)
                placed_at.setdefault(mid, []).append(seg)
                claimed[seg.to] = p
                pos[p][n] = seg.to
                paths[p] += 1
                moves[p][n] += code[1]
                move_steps[p][n].append(k)
                events[p].append(Event(k, code, "placed", 0, (), seg.frm, seg.to, seg.colour))
    return PathResult(segments, {p: {n: pos[p][n] for n in "BC"} for p in players}, colour, paths,
                      collisions, moves, events, log, move_steps)


_ACTIONS_ALLOWED = "one of " + ", ".join(ACTION_CHOICES) + " (or the long form, e.g. 'border node path down')"


def walk_alone(start: Mapping[str, Sequence[int]], border_colour: str, codes: Sequence[str],
               options: Mapping[str, Any]) -> list[Event]:
    """The steps of one player's plan that fail with nobody else on the board (offboard, blocked,
    collision: a self-collision), as :func:`run_paths` finds them for that player alone. Every
    submission is walked like this to warn the player, so it skips the bookkeeping of a whole
    round; the rules are the same (tests/test_fast_paths.py runs both on many plans).

    >>> [(e.step, e.code, e.result) for e in walk_alone({"B": point_fine(0, 0), "C": cell_fine(0, 0)}, BLUE,
    ...                                                    ["BU", "CD", "CU", "CU"], DEFAULTS)]
    [(1, 'BU', 'offboard'), (3, 'CU', 'collision')]
    """
    opts = {**DEFAULTS, **options}
    cols, rows = opts["columns"], opts["rows"]
    blocked = blocked_fine(opts)
    colour = border_colour
    pos = {"B": tuple(start["B"]), "C": tuple(start["C"])}
    stopped = {"B": False, "C": False}
    claimed = {pos["B"], pos["C"]} if opts["start_nodes_claimed"] else set()
    placed: dict[tuple[int, int], list[tuple[str, str]]] = {}   # midpoint -> (node, colour) of placed paths
    stop_node = opts["offboard_policy"] == "stop_node"
    out: list[Event] = []
    for k, (flips, code) in enumerate(_slots(codes, opts["gswap_takes_step"]), start=1):
        if flips:
            for _ in range(flips):
                colour = other(colour)
        if code is None or code == IDLE:
            continue
        if code == SWAP or code == GSWAP:
            colour = other(colour)
            continue
        n, (dx, dy) = code[0], DIRS[code[1]]
        if stopped[n]:
            continue
        frm = pos[n]
        to = (frm[0] + 2 * dx, frm[1] + 2 * dy)
        off = not (0 <= to[0] <= 2 * cols and 0 <= to[1] <= 2 * rows)   # on_board, inlined
        if off or (n == "C" and to in blocked):
            if stop_node:
                stopped[n] = True
            out.append(Event(k, code, "offboard" if off else "blocked", frm=frm, to=to))
            continue
        seg_colour = colour if n == "B" else other(colour)
        mid = ((frm[0] + to[0]) // 2, (frm[1] + to[1]) // 2)
        # a crossing of the other node's earlier path of the same colour (case 4), else an arrival on a
        # claimed point (case 1); alone, nothing else can happen (cases 2 and 3 need two paths at once)
        here = placed.get(mid)
        if to in claimed or (here and any(node != n and c == seg_colour for node, c in here)):
            stopped[n] = True
            out.append(Event(k, code, "collision", frm=frm, to=to))
            continue
        placed.setdefault(mid, []).append((n, seg_colour))
        claimed.add(to)
        pos[n] = to
    return out


# ------------------------------------------------------------- intake (E1-E4)

def clean_plan(codes: Sequence[str], has_garnet: bool, options: Mapping[str, Any],
               player: str = "") -> tuple[list[str], bool, list[Problem]]:
    """The list that runs: (codes, garnet swap used, problems found at resolution). E3, E4 then E1."""
    opts = {**DEFAULTS, **options}
    out: list[str] = []
    notes: list[Problem] = []
    used = False
    for i, c in enumerate(codes, 1):
        if c == GSWAP:
            if used:
                keep = opts["extra_gswap"] == "as_swap"
                notes.append(Problem(ProblemKind.ILLEGAL, player, f"action {i}", GSWAP, "one garnet swap per round",
                                     "a second garnet swap", "a normal swap costing 1 energy" if keep else "dropped"))
                if keep:
                    out.append(SWAP)
                continue
            if not has_garnet:
                keep = opts["gswap_no_garnet"] == "as_swap"
                notes.append(Problem(ProblemKind.ILLEGAL, player, f"action {i}", GSWAP,
                                     "a garnet swap only with a garnet to pay for it", "you have no garnet",
                                     "a normal swap costing 1 energy" if keep else "dropped"))
                if keep:
                    out.append(SWAP)
                continue
            used = True
        out.append(c)
    energy = sum(1 for c in out if c in _ENERGY_CODES)   # costs_energy
    if energy > ENERGY:
        if opts["energy_overflow"] == "reject_all":
            notes.append(Problem(ProblemKind.ILLEGAL, player, "actions", f"{energy} energy",
                                 f"at most {ENERGY} energy of actions", "too much energy",
                                 "the whole list is rejected: no actions this round"))
            return [], False, notes
        kept, spent, dropped = [], 0, []
        for c in out:
            if costs_energy(c):
                spent += 1
                if spent > ENERGY:
                    dropped.append(c)
                    continue
            kept.append(c)
        notes.append(Problem(ProblemKind.ILLEGAL, player, "actions", f"{energy} energy",
                             f"at most {ENERGY} energy of actions", "too much energy",
                             f"the last {len(dropped)} energy action(s) ({', '.join(dropped)}) are dropped"))
        out = kept
    return out, used, notes


# ------------------------------------------------------------- missions (content)

MISSION_COLUMNS = ("round", "id", "name", "node", "shape", "reward", "penalty", "failure_rounds",
                   "rotate", "reflect", "either_end", "anywhere", "expires_after_round", "text")
REQUIRED_COLUMNS = ("round", "id", "name", "node", "shape", "reward")


def _header(table: Sequence[Sequence[str]]) -> dict[str, int]:
    if not table:
        return {}
    return {clean(h).casefold().replace(" ", "_"): i for i, h in enumerate(table[0]) if clean(h)}


def _cell(row: Sequence[str], idx: dict[str, int], name: str) -> str:
    i = idx.get(name)
    return clean(row[i]) if i is not None and i < len(row) else ""


def _flag(text: str, default: bool) -> bool | None:
    if text == "":
        return default
    return host_flag(text)


def read_missions(table: Sequence[Sequence[str]] | None) -> tuple[list[dict[str, Any]], list[str]]:
    """The missions table, read once per distinct content (it is read every round): a fresh copy."""
    missions, problems = _read_missions_cached(table_key(table))
    return [_mission_copy(m) for m in missions], list(problems)


def _mission_copy(m: Mapping[str, Any]) -> dict[str, Any]:
    """A mission record to write into: its lists (accepted, completers, penalized) are its only containers."""
    out = dict(m)
    for key in _MISSION_LISTS:
        if key in out:
            out[key] = list(out[key])
    return out


_MISSION_LISTS = ("accepted", "completers", "penalized")


@functools.lru_cache(maxsize=8)
def _read_missions_cached(table: tuple[tuple[str, ...], ...] | None) -> tuple[list[dict[str, Any]], tuple[str, ...]]:
    """The missions read once per distinct table, shared by every game's state: never written
    (_round_copy copies a mission before its round writes to it; tests/test_fast_paths.py checks)."""
    missions, problems = _read_missions(table)
    return missions, tuple(problems)


def _read_missions(table: Sequence[Sequence[str]] | None) -> tuple[list[dict[str, Any]], list[str]]:
    """Mission records from the Missions table and sentences for what is wrong (A21)."""
    out: list[dict[str, Any]] = []
    problems: list[str] = []
    if not table:
        return out, [f"the {MISSIONS_TABLE} table is empty: it needs a header row "
                     f"({', '.join(MISSION_COLUMNS)}) and one row per mission"]
    idx = _header(table)
    missing = [c for c in REQUIRED_COLUMNS if c not in idx]
    if missing:
        return out, [f"the {MISSIONS_TABLE} table lacks the column(s) {', '.join(missing)}; its header row "
                     f"must hold {', '.join(MISSION_COLUMNS)}"]
    seen: dict[str, int] = {}
    for n, row in enumerate(table[1:], start=2):
        if not any(clean(v) for v in row):
            continue
        where = f"{MISSIONS_TABLE} row {n}"
        mid = _cell(row, idx, "id")
        bad: list[str] = []
        if not mid:
            bad.append("the id is blank; give every mission a short unique id")
        elif mid.casefold() in seen:
            bad.append(f"id {mid!r} is also used on row {seen[mid.casefold()]}; ids must be unique")
        rnd = parse_int(_cell(row, idx, "round"))
        if rnd is None or rnd < 1:
            bad.append(f"round {_cell(row, idx, 'round')!r} is not a round number (1, 2, ...)")
        manual = _cell(row, idx, "shape").casefold() == MANUAL
        node = _cell(row, idx, "node").casefold()
        node = {"b": "border", "c": "central", "center": "central", "centre": "central", "either": "any",
                "both": "any", "": "any" if manual else ""}.get(node, node)
        if node not in ("border", "central", "any"):
            bad.append(f"node {_cell(row, idx, 'node')!r} must be border, central or any")
        shape = "" if manual else parse_shape(_cell(row, idx, "shape"))
        if shape is None:
            bad.append(f"shape {_cell(row, idx, 'shape')!r} is not a list of moves such as DDRDL or "
                       f"'down down right down left' (or {MANUAL}: the host enters who completed it)")
        elif len(shape) > ENERGY:
            bad.append(f"shape {shape} has {len(shape)} moves; a round has only {ENERGY} energy")
        elif shape_revisits(shape):
            bad.append(f"shape {shape} comes back to a point it already passed, a self-collision, so "
                       "nobody can build it")
        if manual and not _cell(row, idx, "text"):
            bad.append("a manual mission needs its text: the players read what to do there")
        reward = parse_int(_cell(row, idx, "reward"))
        if reward is None or reward < 0:
            bad.append(f"reward {_cell(row, idx, 'reward')!r} must be a whole number 0 or more")
        ptext = _cell(row, idx, "penalty")
        penalty = 0 if ptext == "" else parse_int(ptext)
        if penalty is None:
            bad.append(f"penalty {ptext!r} must be a whole number such as -3 (or blank for none)")
        ftext = _cell(row, idx, "failure_rounds")
        failure = None if ftext == "" else parse_int(ftext)
        if ftext and (failure is None or failure < 1):
            bad.append(f"failure_rounds {ftext!r} must be a whole number 1 or more (or blank)")
        if penalty and failure is None and not (ftext and failure is None):
            bad.append("a mission with a penalty needs failure_rounds, the window it must be completed in")
        etext = _cell(row, idx, "expires_after_round")
        expires = None if etext == "" else parse_int(etext)
        if etext and (expires is None or (rnd is not None and expires < rnd)):
            bad.append(f"expires_after_round {etext!r} must be a round number not before the mission's round")
        flags = {}
        for name in ("rotate", "reflect", "either_end", "anywhere"):
            v = _flag(_cell(row, idx, name), True)
            if v is None:
                bad.append(f"{name} {_cell(row, idx, name)!r} must be yes or no (blank means yes)")
            flags[name] = bool(v)
        if bad:
            problems.extend(f"{where}: {b}" for b in bad)
            if mid and mid.casefold() not in seen:
                seen[mid.casefold()] = n
            continue
        seen[mid.casefold()] = n
        name = _cell(row, idx, "name") or mid
        text = _cell(row, idx, "text")
        out.append({"id": mid, "round": rnd, "name": name, "node": node, "shape": shape, "manual": manual,
                    "reward": reward, "penalty": -abs(penalty or 0), "failure_rounds": failure, "expires": expires,
                    **flags, "text": text, "accepted": [], "status": "open", "completed_round": None,
                    "completers": [], "penalized": []})
    return out, problems


def mission_window(m: Mapping[str, Any]) -> tuple[int, int | None]:
    """The rounds in which the mission can be completed: (presented, last or None = until completed) (A19)."""
    last = m["round"] + m["failure_rounds"] - 1 if m["failure_rounds"] else None
    if m.get("expires") and (last is None or m["expires"] > last):
        last = m["expires"]
    return m["round"], last


def mission_text(m: Mapping[str, Any]) -> str:
    """The mission as on the board, in the ruleset's style (R59, R60)."""
    node = {"border": "your border node", "central": "your central node", "any": "either node"}[m["node"]]
    if m.get("manual"):
        desc = m["text"]
    else:
        words = " ".join(DIR_WORDS[c] for c in m["shape"])
        ways = []
        if m["either_end"]:
            ways.append("you may begin at either endpoint")
        turn = [w for w, f in (("rotated", m["rotate"]), ("reflected", m["reflect"])) if f]
        if turn:
            ways.append("the shape may be " + " or ".join(turn))
        if not m["anywhere"]:
            ways.append("the whole round's path must be exactly this shape")
        desc = m["text"] or (f"In a single round, successfully build a path in the shape of {words} with {node}"
                             + ("; " + "; ".join(ways) if ways else "") + ".")
    fail = (f" Failure ({m['failure_rounds']} round{'s' if m['failure_rounds'] != 1 else ''}): "
            f"{m['penalty']} fireflies." if m["penalty"] and m["failure_rounds"] else "")
    if not m["penalty"] and m["failure_rounds"]:
        fail = f" Closes after {m['failure_rounds']} round(s)."
    exp = f" Open until the end of round {m['expires']}." if m["expires"] else ""
    return f"[{m['id']}] {m['name']}: {desc} Success: +{m['reward']} fireflies.{fail}{exp}"


def mission_short(m: Mapping[str, Any]) -> str:
    end = m["round"] + m["failure_rounds"] - 1 if m["failure_rounds"] else m["expires"]
    what = "decided by the host" if m.get("manual") else f"{m['node']} {m['shape']}"
    return (f"[{m['id']}] {m['name']}: {what}, +{m['reward']}"
            + (f", {m['penalty']} on failure" if m["penalty"] else "")
            + (f", until the end of round {end}" if end else ", until completed"))


def _round_copy(state: State) -> State:
    """The state a round resolves into. Only what a round writes in place is copied (a JSON round trip
    of the whole state cost more than the round): the per-player dicts whose values it replaces, the
    histories it appends to, the missions it updates. Options, players, the board and the final result
    are never written in place (the board and the result are replaced)."""
    st = dict(state)
    for key in ("nodes", "border_colour", "fireflies", "missions_completed", "collisions", "last_actions"):
        if key in st:
            st[key] = dict(st[key])
    if "history" in st:
        st["history"] = {p: list(h) for p, h in st["history"].items()}
    if "pending_manual" in st:
        st["pending_manual"] = list(st["pending_manual"])
    # A round writes only open missions presented by now (acceptances, completions, penalties,
    # closing); later ones are replaced from the table, finished ones are only read.
    r = st["round"]
    st["missions"] = [_mission_copy(m) if m["status"] == "open" and m["round"] <= r else m
                      for m in st["missions"]]
    return st


# ------------------------------------------------------------- pregame (A26-A30)

def assign_nodes(lists: Mapping[str, Sequence[str | None]], bids: Mapping[str, int], universe: Sequence[str],
                 rng: Rng, mode: str, what: str, records: list[dict[str, Any]] | None = None,
                 label: Callable[[str], str] = str) -> tuple[dict[str, str], dict[str, str], set[str], list[str]]:
    """Pass-by-pass assignment of one node type (R22-R25, A27, A30).

    Returns (player -> key, player -> how it was got, players who were in a tie, log lines).
    `records`, when given, receives one dict per coordinate given out: pass, key, claimants
    [(player, choice, bid)], winner, decided_by ("alone", "bid", "draw", "fallback"), drawn_among.
    `label` names a key in the log as players type it ("C3", "C1 bottom right")."""
    players = sorted(lists)
    taken: dict[str, str] = {}
    got: dict[str, str] = {}
    how: dict[str, str] = {}
    contested: set[str] = set()
    log: list[str] = []
    records = records if records is not None else []
    passes = LIST_LENGTH if mode == "strict" else len(universe)
    for k in range(passes):
        claims: dict[str, list[tuple[str, int]]] = {}
        for p in players:
            if p in got:
                continue
            if mode == "strict":
                entries = list(lists[p])
                key = entries[k] if k < len(entries) else None
                if key is None or key in taken:
                    continue
                claims.setdefault(key, []).append((p, k))
            else:
                for i, key in enumerate(lists[p]):
                    if key is not None and key not in taken:
                        claims.setdefault(key, []).append((p, i))
                        break
        if not claims:
            if mode == "strict":
                continue
            break
        for key in sorted(claims):
            cands = claims[key]
            names = [c for c, _ in cands]
            drawn: list[str] = []
            if len(cands) == 1:
                winner, by = names[0], "alone"
            else:
                contested.update(names)
                top = max(bids.get(c, 0) for c in names)
                tops = sorted(c for c in names if bids.get(c, 0) == top)
                if len(tops) == 1:
                    winner, by = tops[0], "bid"
                    log.append(f"{what} pass {k + 1}: {label(key)} wanted by {', '.join(sorted(names))}; "
                               f"{winner} bid most ({top})")
                else:
                    winner, by, drawn = rng.choice(tops), "draw", tops
                    log.append(f"{what} pass {k + 1}: {label(key)} wanted by {', '.join(sorted(names))}; "
                               f"bids tied at {top} among {', '.join(tops)}; seeded draw: {winner}")
            taken[key] = winner
            got[winner] = key
            choice = dict(cands)[winner]
            how[winner] = f"your {ordinal(choice + 1)} choice"
            records.append({"pass": k + 1, "key": key, "claimants": [(c, i + 1, bids.get(c, 0)) for c, i in cands],
                            "winner": winner, "decided_by": by, "drawn_among": drawn})
    for p in players:
        if p not in got:
            free = sorted(k for k in universe if k not in taken)
            key = rng.choice(free)
            taken[key] = p
            got[p] = key
            how[p] = "a random free coordinate (no entry of your list could be given)"
            log.append(f"{what}: {p} got no listed coordinate; seeded draw among free ones: {label(key)} (A27)")
            records.append({"pass": 0, "key": key, "claimants": [], "winner": p, "decided_by": "fallback",
                            "drawn_among": [], "free": len(free)})
    return got, how, contested, log


# ------------------------------------------------------------- round results as data
# Every report and picture is drawn from these (render, picture below). Coordinates are each
# node's own: a border node on corner (x, y), x = 0..columns, y = 0..rows; a central node in
# cell (c, r), 0-based (A3); labels are as players write them ("C3", "C1 bottom right").
# Audiences follow the rulings' information model (section (c)): the board, completions and
# the end are public; a player's own actions, nodes, missions and totals are theirs; who is
# who, who collided with whom, other players' lists, bids and draws are the host's alone.

@fact
@dataclass(frozen=True)
class BugcatcherBoard(Fact):
    """The board the round was played on (R3, A1, A36): size and blocked cells (labels)."""
    round: int
    columns: int
    rows: int
    blocked: tuple[str, ...] = ()


@fact
@dataclass(frozen=True)
class NodeMarker(Fact):
    """A node on the public board, unlabelled (R26, R64, A33): where a round starts ("start") or
    ends ("end"). `colour` is "" unless colours are public (Round 1's start, public_node_colors)."""
    phase: str          # start or end
    node: str           # border or central
    at: tuple[int, int]
    label: str
    colour: str = ""


@fact
@dataclass(frozen=True)
class PathPlaced(Fact):
    """A successful path on the public board (R63, R65), unowned; `step` is 0 unless the step order
    is public (public_step_order)."""
    node: str           # border or central
    frm: tuple[int, int]
    to: tuple[int, int]
    frm_label: str
    to_label: str
    colour: str
    step: int = 0


@fact
@dataclass(frozen=True)
class MissionPresented(Fact):
    """A mission on a round's board (R48, A37), as the players read it."""
    round: int
    mission: str
    name: str
    node: str
    shape: str          # "" for a manual mission
    manual: bool
    reward: int
    penalty: int
    failure_rounds: int | None
    expires_after_round: int | None
    text: str           # the board's wording


@fact
@dataclass(frozen=True)
class MissionCompleted(Fact):
    """R62: a mission was completed this round (never who)."""
    mission: str
    name: str


@fact
@dataclass(frozen=True)
class MissionClosed(Fact):
    """A mission nobody can complete any more: its window ended (A19)."""
    mission: str
    name: str


@fact
@dataclass(frozen=True)
class PriorityClaim:
    """One player's claim in a pregame pass: their `choice`-th entry, with their bid."""
    player: str
    choice: int
    bid: int


@fact
@dataclass(frozen=True)
class PriorityPass(Fact):
    """A coordinate given out in pass `pass_no` of one priority list (R22-R25, A27, A30): who claimed
    it, who got it and how: "alone", "bid" (the highest bid) or "draw" (a seeded draw among
    `drawn_among`, the top bids). The host's alone."""
    list: str           # central or border
    pass_no: int
    coordinate: str
    claimants: tuple[PriorityClaim, ...]
    winner: str
    decided_by: str
    drawn_among: tuple[str, ...] = ()


@fact
@dataclass(frozen=True)
class PriorityFallback(Fact):
    """A player no listed entry could be given: a seeded draw among the `free` coordinates (A27)."""
    list: str
    player: str
    coordinate: str
    free: int


@fact
@dataclass(frozen=True)
class PriorityBid(Fact):
    """A player's tiebreak bid on a list (R21, A26, E-P5): as typed, after the cap, and charged."""
    player: str
    list: str           # central, border, or both (bid_scope shared)
    wanted: int
    bid: int
    charged: int


@fact
@dataclass(frozen=True)
class StartingNode(Fact):
    """Where a player's node starts Round 1 (R23, R24, R11): `choice` is the entry of the list
    that got it (1 = first), 0 for a random free coordinate (A27)."""
    player: str
    node: str
    at: tuple[int, int]
    label: str
    choice: int
    colour: str


@fact
@dataclass(frozen=True)
class IntakeProblem(Fact):
    """Something wrong with a player's submission, and what was done (E1-E7, E-P1-E-P6)."""
    player: str
    problem: Problem


@fact
@dataclass(frozen=True)
class NoSubmission(Fact):
    """The player submitted nothing this round (E11): `repeated` holds the actions repeated from
    their last submission (missing_policy repeat_last), else nothing happened."""
    player: str
    policy: str
    repeated: tuple[str, ...] = ()


@fact
@dataclass(frozen=True)
class ActionStep(Fact):
    """One step of a player's round (R29): the action, what became of it and what it cost.

    result: placed, swap, idle, stopped (its node stopped earlier), offboard, blocked (a blocked
    cell, A36) or collision. `cases` are the collision cases it met (R37-R43), `self_cases` those
    met only with the player's own paths or nodes (R45). `energy`/`garnet` are what it cost (R13-R15,
    A16) and `collisions` how many "collisions caused" it counts (R72, A13). For a swap, `colour` is
    the border node's new colour."""
    player: str
    step: int
    action: str
    node: str           # border, central or "" for a swap
    result: str
    frm: tuple[int, int] | None = None
    to: tuple[int, int] | None = None
    frm_label: str = ""
    to_label: str = ""
    colour: str = ""
    cases: tuple[int, ...] = ()
    self_cases: tuple[int, ...] = ()
    energy: int = 0
    garnet: int = 0
    collisions: int = 0


@fact
@dataclass(frozen=True)
class CollisionHit:
    """One party of a collision: the case (1-4) and the other player (the same player: themselves)."""
    case: int
    other: str


@fact
@dataclass(frozen=True)
class CollisionRecord(Fact):
    """Who collided with whom (R37-R45): the host's alone (never published, section (c))."""
    step: int
    player: str
    action: str
    node: str
    at: str             # the point it tried to reach
    hits: tuple[CollisionHit, ...]
    counted: int


@fact
@dataclass(frozen=True)
class NodePath(Fact):
    """A node's successful path this round (R6, R31, A11): its moves and the step of each move."""
    player: str
    node: str
    start: tuple[int, int]
    end: tuple[int, int]
    start_label: str
    end_label: str
    moves: str
    steps: tuple[int, ...]


@fact
@dataclass(frozen=True)
class EnergyUsed(Fact):
    """Energy a player spent this round (R12-R15, A16): paths and swaps that ran, of `limit`;
    a garnet swap costs a garnet instead."""
    player: str
    energy: int
    limit: int
    paths: int
    swaps: int
    garnet_swaps: int


@fact
@dataclass(frozen=True)
class MissionAccepted(Fact):
    """A player's acceptance (R51, R52, A18, E7): `ok` False when it was ignored, with the reason."""
    player: str
    mission: str
    name: str
    ok: bool = True
    reason: str = ""


@fact
@dataclass(frozen=True)
class MissionCheck(Fact):
    """A mission checked for a player this round (A22-A25): by shape (the node, the variant found,
    the steps whose moves matched) or by the host (manual, A21; `pending` until entered). The
    window is the rounds in which it can be completed (A19); `window_last` 0 = until completed."""
    player: str
    mission: str
    name: str
    how: str            # shape or host
    matched: bool
    node: str = ""
    moves: str = ""
    variant: str = ""
    steps: tuple[int, ...] = ()
    window_first: int = 0
    window_last: int = 0
    pending: bool = False


@fact
@dataclass(frozen=True)
class MissionReward(Fact):
    """A player's share of a mission reward (R53, R54, A24): ceil(reward / completers)."""
    player: str
    mission: str
    name: str
    reward: int
    completers: int
    share: int


@fact
@dataclass(frozen=True)
class MissionPenalty(Fact):
    """A failed mission's penalty (R56, A19, A20): why is "completed_by_others" or "window_ended"."""
    player: str
    mission: str
    name: str
    penalty: int
    why: str


@fact
@dataclass(frozen=True)
class MissionCompleters(Fact):
    """Who completed a mission and the share each got: the host's alone (R62)."""
    mission: str
    players: tuple[str, ...]
    share: int


@fact
@dataclass(frozen=True)
class ManualMissionPending(Fact):
    """A manual mission whose completers the host has not entered (A21): counts as not completed."""
    mission: str
    name: str
    round: int
    candidates: tuple[str, ...]
    decision: str       # the decision's key


@fact
@dataclass(frozen=True)
class FireflyBreakdown(Fact):
    """Where a player's fireflies came from this round: paths (R32), rewards, penalties (A34)."""
    player: str
    paths: int
    rewards: int
    penalties: int


@fact
@dataclass(frozen=True)
class FireflyTotal(Fact):
    """The player's own firefly count at the end of the round, told privately (R66, R67)."""
    player: str
    before: int
    change: int
    total: int


@fact
@dataclass(frozen=True)
class CollisionsCaused(Fact):
    """A player's collisions caused this round and over the game (R72, A13)."""
    player: str
    this_round: int
    total: int


@fact
@dataclass(frozen=True)
class NextNodes(Fact):
    """A player's nodes and colours for the next round (R6, A11, A15)."""
    player: str
    border: tuple[int, int]
    central: tuple[int, int]
    border_label: str
    central_label: str
    border_colour: str


@fact
@dataclass(frozen=True)
class FinalCount(Fact):
    """R68, A35: a player's final fireflies and place; missions and collisions only where a tie
    used them (or reveal_all_stats), else None."""
    place: int
    player: str
    fireflies: int
    missions: int | None = None
    collisions: int | None = None


@fact
@dataclass(frozen=True)
class TieBreakStep(Fact):
    """Two players tied on fireflies, next to each other in the final order, and the step of R71
    that separated them: "missions", "collisions", "gamewide", or "pending" (the Gamewide
    Tiebreak is not entered) / "not needed" (a full tie nowhere near the winner or the EC)."""
    above: str
    below: str
    fireflies: int
    by: str
    above_value: int = 0
    below_value: int = 0


@fact
@dataclass(frozen=True)
class MainMatchResult(Fact):
    """The winner and the Elimination Candidate (R69, R70); None while a decision is pending."""
    winner: str | None
    ec: str | None
    pending: tuple[str, ...] = ()   # the keys of the decisions still missing


@fact
@dataclass(frozen=True)
class FireflyGarnets(Fact):
    """R73, A31: garnets for every 30 fireflies."""
    player: str
    fireflies: int
    garnets: int


@fact
@dataclass(frozen=True)
class FinalStats(Fact):
    """Every player's final figures, the host's alone (A35 reveals them only where ties used them)."""
    player: str
    fireflies: int
    missions: int
    collisions: int


FACT_TYPES = (BugcatcherBoard, NodeMarker, PathPlaced, MissionPresented, MissionCompleted, MissionClosed,
              PriorityClaim, PriorityPass, PriorityFallback, PriorityBid, StartingNode, IntakeProblem,
              NoSubmission, ActionStep, CollisionHit, CollisionRecord, NodePath, EnergyUsed, MissionAccepted,
              MissionCheck, MissionReward, MissionPenalty, MissionCompleters, ManualMissionPending,
              FireflyBreakdown, FireflyTotal, CollisionsCaused, NextNodes, FinalCount, TieBreakStep,
              MainMatchResult, FireflyGarnets, FinalStats)


# ------------------------------------------------------------- drawing: the board as a grid of cells

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
    fill: dict[tuple[int, int], str] = {}
    text: dict[tuple[int, int], str] = {}
    font: dict[tuple[int, int], str] = {}
    border_at: dict[tuple[int, int], Mapping[str, Any]] = {}
    central_at: dict[tuple[int, int], Mapping[str, Any]] = {}
    for at in blocked:
        fill[tuple(at)] = BLOCKED
        text[tuple(at)] = "X"
    for s in segments:
        (x0, y0), (x1, y1) = s["frm"], s["to"]
        mid = ((x0 + x1) // 2, (y0 + y1) // 2)
        (border_at if s["node"] == "B" else central_at)[mid] = s
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
        fill[mid] = FILL[base["colour"]]
        if b is not None and c is not None:   # different colours, or it would have collided
            font[mid] = "9DC3E6" if c["colour"] == BLUE else "000000"
    marks: dict[tuple[int, int], str] = {}
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
            base = GRAY if (X % 2 and Y % 2) else (POINT if (X % 2 == 0 and Y % 2 == 0) else None)
            f = fill.get(at, base)
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
    blocked = [cell_fine(*parse_cell(label, board.columns, board.rows)) for label in board.blocked]
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
        x, y = _px(at)
        shapes.append(Dot(x, y, 14, PIC_MINE))
    for m in of_type(facts, NodeMarker):
        x, y = _px(fine_of(m.node, m.at))
        if m.phase == "start":
            shapes.append(Dot(x, y, 9, FILL[m.colour] if m.colour else "FFFFFF", PIC_START_RING))
        else:
            shapes.append(Dot(x, y, 5, FILL[m.colour] if m.colour else PIC_END, PIC_END))
    for f in paths:
        if f.step:
            (x0, y0), (x1, y1) = _px(fine_of(f.node, f.frm)), _px(fine_of(f.node, f.to))
            shapes.append(Box((x0 + x1) / 2 - 8, (y0 + y1) / 2 - 8, 16, 16, fill="FFFFFF", outline="404040"))
            shapes.append(Label((x0 + x1) / 2, (y0 + y1) / 2, str(f.step), size=11, anchor="mm"))
    drawn = {f.colour for f in paths}   # the legend names only what the picture draws
    phases = {m.phase for m in of_type(facts, NodeMarker)}
    legend = [(f"{c} path", FILL[c], None) for c in (BLUE, BLACK) if c in drawn] + [("cell (gray square)", GRAY, None)]
    if blocked:
        legend.append(("blocked cell", BLOCKED, None))
    legend += [(text, fill, ring) for phase, text, fill, ring in (
        ("start", "a node where the round starts", "FFFFFF", PIC_START_RING),
        ("end", "a node where the round ends", PIC_END, PIC_END)) if phase in phases]
    if viewer is not None:
        legend += [("your nodes", PIC_MINE, None)] + ([("your path that failed", PIC_FAILED, None)] if failed else [])
    y = PIC_TOP + rows * S + 18
    for text, colour, ring in legend:
        shapes.append(Box(PIC_LEFT, y, 22, 14, fill=colour, outline=ring or "404040"))
        shapes.append(Label(PIC_LEFT + 30, y, text, size=13))
        y += 20
    width = max(PIC_LEFT + cols * S + 24, 360)
    return Picture(int(width), int(y + 8), tuple(shapes), title=title)


# ------------------------------------------------------------- texts drawn from the facts

# The public board's facts repeat from round to round and game to game (the same point, node and
# colour): being frozen values, one object serves them all, made once (each a few hundred a game),
# together with its place in the board's order (_PATH_ORDER, _MARKER_ORDER), so sorting computes none.
@functools.lru_cache(maxsize=1 << 14)
def _node_marker(phase: str, node: str, at: tuple[int, int], colour: str, cols: int,
                 rows: int) -> tuple[tuple, NodeMarker]:
    f = NodeMarker(phase, _NODE_WORDS[node], own_xy(at), fine_label(at, cols, rows), colour)
    return _MARKER_ORDER(f), f


@functools.lru_cache(maxsize=1 << 15)
def _path_placed(node: str, frm: tuple[int, int], to: tuple[int, int], colour: str, step: int,
                 cols: int, rows: int) -> tuple[tuple, PathPlaced]:
    f = PathPlaced(_NODE_WORDS[node], own_xy(frm), own_xy(to), fine_label(frm, cols, rows),
                   fine_label(to, cols, rows), colour, step)
    return _PATH_ORDER(f), f


_ORDER_KEY = operator.itemgetter(0)   # of a (board order, fact) pair


# The same holds for a player's acceptance of a mission and a shape not found in their moves (most
# checks): the same few player, mission and moves come back game after game.
@functools.lru_cache(maxsize=1 << 12)
def _accepted(player: str, mission: str, name: str) -> MissionAccepted:
    return MissionAccepted(player, mission, name, audience=(player,))


@functools.lru_cache(maxsize=1 << 14)
def _not_found(player: str, mission: str, name: str, node: str, moves: str, first: int, last: int) -> MissionCheck:
    return MissionCheck(player, mission, name, "shape", False, node, moves, "", (), first, last, audience=(player,))


# What a mission's board entry is drawn from (mission_text reads no other key).
_PRESENTED_KEYS = ("id", "name", "node", "shape", "manual", "reward", "penalty", "failure_rounds", "expires",
                   "text", "rotate", "reflect", "either_end", "anywhere")


@functools.lru_cache(maxsize=1024)   # the same table's missions are presented in every game
def _mission_presented(r: int, *values: Any) -> MissionPresented:
    m = dict(zip(_PRESENTED_KEYS, values))
    return MissionPresented(r, m["id"], m["name"], m["node"], m["shape"], bool(m["manual"]), m["reward"],
                            m["penalty"], m["failure_rounds"], m["expires"], mission_text(m))


def _PATH_ORDER(f: PathPlaced) -> tuple:   # the public board order of paths (no owner, no step)
    return (f.node, f.frm[1], f.frm[0], f.to[1], f.to[0])


def _MARKER_ORDER(f: NodeMarker) -> tuple:   # the public board order of node markers
    return (f.phase != "start", f.node, f.at[1], f.at[0], f.colour)


def _steps_text(steps: Sequence[int]) -> str:
    """(1, 2, 3) -> 'steps 1-3'; (1, 3, 4) -> 'steps 1, 3, 4'."""
    if not steps:
        return ""
    if list(steps) == list(range(steps[0], steps[0] + len(steps))) and len(steps) > 1:
        return f"steps {steps[0]}-{steps[-1]}"
    return ("step " if len(steps) == 1 else "steps ") + ", ".join(map(str, steps))


def _action_text(f: ActionStep, offboard_policy: str) -> str:
    tail = ("; this node places no more paths this round" if offboard_policy == "stop_node"
            else "; only this action is skipped")
    if f.result == "placed":
        return f"placed {f.colour} path {f.frm_label} -> {f.to_label}"
    if f.result == "swap":
        return f"colour swap: border now {f.colour}, central now {other(f.colour)}"
    if f.result == "idle":
        return "idle step (blank row)"
    if f.result == "stopped":
        return f"invalidated: your {f.node} node stopped earlier this round"
    if f.result == "offboard":
        return f"invalid: from {f.frm_label} it would leave the board{tail}"
    if f.result == "blocked":
        return f"invalid: {f.to_label} is a blocked cell{tail}"
    parts = []
    for c in f.cases:
        mine = c in f.self_cases
        whose = "your own node or path" if mine else "another node or path"
        crossed = "your own path" if mine else "another path"
        parts.append({
            1: f"case 1: {f.to_label} was already claimed by {whose}",
            2: f"case 2: another path reached {f.to_label} at the same step",
            3: f"case 3: a {f.colour} path of the other kind crossed it at the same step",
            4: f"case 4: it crossed a {f.colour} path placed earlier by {crossed}",
        }[c])
    return f"collision ({'; '.join(parts)}): invalidated, and this node places no more paths this round"


# ------------------------------------------------------------- the game

class Bugcatcher(GameRules):
    spec = SPEC

    # ---- standings, read from the facts (core/standings.py) -----------------
    score_unit = "fireflies"
    tie_rule = "more missions completed, then fewer collisions caused, then the Gamewide Tiebreak (R71)"

    def round_scores(self, facts):
        return ([RoundScore(f.player, f.change, f.total) for f in of_type(facts, FireflyTotal)]
                + [RoundScore(f.player, None, f.fireflies) for f in of_type(facts, FinalCount)])

    def final_places(self, facts):
        """R68-R71: the final order, with the step that separated each tie."""
        said: dict[str, str] = {}
        for s in of_type(facts, TieBreakStep):
            how = (f"ahead of {s.below} on {s.by} ({s.above_value} to {s.below_value})"
                   if s.by in ("missions", "collisions") else
                   f"ahead of {s.below} by the Gamewide Tiebreak" if s.by == "gamewide" else
                   f"tied with {s.below}: waits for the Gamewide Tiebreak" if s.by == "pending" else
                   f"tied with {s.below} (not needed to decide)")
            said[s.above] = "; ".join(x for x in (said.get(s.above, ""), how) if x)
            if s.by in ("missions", "collisions", "gamewide"):
                said[s.below] = "; ".join(x for x in (said.get(s.below, ""), f"behind {s.above} on " + (
                    f"{s.by} ({s.below_value} to {s.above_value})" if s.by != "gamewide" else "the Gamewide Tiebreak")) if x)
        return [Place(f.player, f.place, said.get(f.player, "")) for f in of_type(facts, FinalCount)]

    # ---- setup ------------------------------------------------------------
    def setup(self, players, options, tables, rng: Rng) -> State:
        opts = {**DEFAULTS, **options}
        if not 2 <= opts["columns"] <= 26 or not 2 <= opts["rows"] <= 26 or opts["rounds"] < 1:
            raise ConfigError("options columns and rows must be 2 to 26, and rounds at least 1")
        blocked, bad = parse_blocked(opts["blocked_cells"], opts["columns"], opts["rows"])
        if bad:
            raise ConfigError(f"option blocked_cells: {', '.join(bad)} is not a cell of the "
                              f"{opts['columns']}x{opts['rows']} board; list cells such as C3, D4")
        opts["blocked_cells"] = ", ".join(cell_label(*c) for c in blocked)
        usable = opts["columns"] * opts["rows"] - len(blocked)
        if len(players) > usable:
            raise ConfigError(f"{len(players)} players do not fit on {usable} usable cells; "
                              "block fewer cells (option blocked_cells) or use a larger board")
        # As read, shared with every game of this table: a round copies a mission before writing to it.
        missions = list(_read_missions_cached(table_key(tables.get(MISSIONS_TABLE)))[0])
        return {"round": 0, "finished": False, "options": opts, "players": list(players),
                "nodes": {}, "border_colour": {p: BLUE for p in players},
                "fireflies": {p: 0 for p in players}, "missions_completed": {p: 0 for p in players},
                "collisions": {p: 0 for p in players}, "missions": missions, "board": None,
                "history": {p: [] for p in players}, "last_actions": {p: [] for p in players},
                "pending_manual": [], "final": None}

    def check_tables(self, tables: Tables) -> list[str]:
        if MISSIONS_TABLE not in tables:
            return [f"the {MISSIONS_TABLE} table is missing: add a tab named {MISSIONS_TABLE!r} "
                    "(the default is templates/bugcatcher/missions.csv)"]
        return list(_read_missions_cached(table_key(tables[MISSIONS_TABLE]))[1])

    # ---- helpers ----------------------------------------------------------
    @staticmethod
    def _board(state: State, r: int | None = None) -> list[dict[str, Any]]:
        r = state["round"] if r is None else r
        return [m for m in state["missions"] if m["round"] == r]

    @staticmethod
    def _dims(state: State) -> tuple[int, int]:
        return state["options"]["columns"], state["options"]["rows"]

    def _cells(self, state: State) -> tuple[str, ...]:
        cols, rows = self._dims(state)
        blocked = blocked_fine(state["options"])
        return tuple(cell_label(c, r) for r in range(rows) for c in range(cols) if cell_fine(c, r) not in blocked)

    def _node_text(self, state: State, player: str) -> list[str]:
        cols, rows = self._dims(state)
        nodes = state["nodes"].get(player)
        if not nodes:
            return []
        bc = state["border_colour"][player]
        return [f"Border node: {fine_label(nodes['B'], cols, rows)} ({bc} paths)",
                f"Central node: {fine_label(nodes['C'], cols, rows)} ({other(bc)} paths)"]

    def _presented(self, st: State, r: int) -> list[MissionPresented]:
        return [_mission_presented(r, *(m.get(k) for k in _PRESENTED_KEYS)) for m in self._board(st, r)]

    def _board_fact(self, st: State, r: int) -> BugcatcherBoard:
        return BugcatcherBoard(r, st["options"]["columns"], st["options"]["rows"],
                               _blocked_labels(st["options"]["blocked_cells"], *self._dims(st)))

    # ---- forms ------------------------------------------------------------
    def form(self, state: State, player: str) -> Form:
        opts = state["options"]
        last = opts["rounds"]
        if state["round"] == 0:
            cells = self._cells(state)
            all_cells = tuple(cell_label(c, r) for r in range(self._dims(state)[1])
                              for c in range(self._dims(state)[0]))
            blocked_note = ((f"Blocked cells (no central node there): {opts['blocked_cells']}.",)
                            if opts["blocked_cells"] else ())
            central = Section("central", "Central node priority list (black in Round 1)",
                              (Field("cell", "Cell", FieldKind.CHOICE, cells, required=False,
                                     help="a cell such as C3"),),
                              rows=LIST_LENGTH, row_labels=ORDINALS[:LIST_LENGTH],
                              help="9 different cells, best first")
            border = Section("border", "Border node priority list (blue in Round 1)",
                             (Field("cell", "Cell", FieldKind.CHOICE, all_cells, required=False,
                                    help="a cell such as C1"),
                              Field("corner", "Corner", FieldKind.CHOICE, CORNERS, required=False,
                                    help="the corner of that cell")),
                             rows=LIST_LENGTH, row_labels=ORDINALS[:LIST_LENGTH],
                             help="9 different corners, best first; C1 bottom right = D2 upper left")
            if opts["bid_scope"] == "shared":
                bid_fields = (Field("bid", "Garnets bid (both lists)", FieldKind.INTEGER, minimum=0,
                                    required=False, help="garnets spent to win ties"),)
            else:
                bid_fields = (Field("central_bid", "Garnets bid: central list", FieldKind.INTEGER, minimum=0,
                                    required=False, help="garnets spent to win ties on your central list"),
                              Field("border_bid", "Garnets bid: border list", FieldKind.INTEGER, minimum=0,
                                    required=False, help="garnets spent to win ties on your border list"))
            bids = Section("bids", "Tiebreak bids (optional)", bid_fields,
                           help="Ties go to the highest bid, then a random draw. Bids are charged "
                                + ("in full." if opts["bid_charge"] == "always" else "only if you were in a tie."))
            return Form(0, "Pregame", (central, border, bids), help=(
                "Pregame: list 9 cells for your central node and 9 corners for your border node, best first.",
                "Pass 1 gives everyone their 1st choice, pass 2 the 2nd choice to those still without, and so on.",
                "A coordinate wanted by several players in one pass goes to the highest bid, then a seeded draw.",
                "Blank, unknown or repeated entries are skipped; a player left without a coordinate gets a "
                "random free one.",
                *blocked_note,
            ))
        r = state["round"]
        acts = Section("actions", "Actions, in order (one per row)",
                       (Field("action", "Action", FieldKind.CHOICE, ACTION_CHOICES, required=False,
                              help="BU BD BL BR (border node), CU CD CL CR (central node), swap, gswap"),),
                       rows=ACTION_ROWS, row_labels=tuple(str(i) for i in range(1, ACTION_ROWS + 1)),
                       help="Row k is your step k. Paths and swaps cost 1 energy (7 per round); "
                            "gswap (once a round) costs 1 garnet instead.")
        sections = [acts]
        board = self._board(state)
        if board:
            sections.append(Section("missions", f"Missions of round {r} (accept: yes/no)",
                                    (Field("accept", "Accept?", FieldKind.YESNO, ("yes", "no"), required=False,
                                           help="yes to take on this mission"),),
                                    rows=len(board),
                                    row_labels=tuple(f"{m['id']}: {m['name']}" for m in board),
                                    help="Only this round's missions can be accepted; accepting is free."))
        return Form(r, f"Round {r} of {last}", tuple(sections), help=(
            f"Round {r} of {last}: list up to {ENERGY} energy of actions in order; all players' k-th actions "
            "happen at the same time.",
            *self._node_text(state, player),
            "B = border node (moves along cell edges), C = central node (moves between cell centres); "
            "U D L R = up, down, left, right.",
            "swap swaps the colours of both your nodes (1 energy); gswap does the same for 1 garnet, once a round.",
            "A path onto a claimed point or crossing a same-coloured path collides: it and that node's later "
            "paths fail this round.",
            *((f"Blocked cells (no central node may enter): {opts['blocked_cells']}.",)
              if opts["blocked_cells"] else ()),
        ))

    # ---- parsing ----------------------------------------------------------
    def parse(self, state: State, player: str, raw: RawSubmission) -> Submission:
        if state["round"] == 0:
            return self._parse_pregame(state, player, raw)
        return self._parse_round(state, player, raw)

    def _parse_pregame(self, state: State, player: str, raw: RawSubmission) -> Submission:
        opts = state["options"]
        cols, rows = self._dims(state)
        problems: list[Problem] = []
        blocked = blocked_fine(opts)
        cells_allowed = f"a cell A1 to {cell_label(cols - 1, rows - 1)}" + (
            f" except the blocked {opts['blocked_cells']}" if blocked else "")
        values: dict[str, Any] = {}

        # central list (R18)
        central: list[str | None] = []
        seen: dict[str, int] = {}
        for i, row in enumerate(list(raw.get("central") or [])[:LIST_LENGTH]):
            text = clean(row.get("cell", ""))
            fieldname = f"central {ORDINALS[i]}"
            if text == "":
                central.append(None)
                continue
            cell = None if is_formula(text) else parse_cell(text, cols, rows)
            if cell is None:
                kind = ProblemKind.SYNTAX if is_formula(text) or not re.fullmatch(r"[A-Za-z]\s*\d+", text) \
                    else ProblemKind.ILLEGAL
                problems.append(Problem(kind, player, fieldname, text, cells_allowed,
                                        "a formula" if is_formula(text) else "not a cell of the board",
                                        "entry skipped: no claim in that pass"))
                central.append(None)
                continue
            key = key_of(cell_fine(*cell))
            if cell_fine(*cell) in blocked:
                problems.append(Problem(ProblemKind.ILLEGAL, player, fieldname, text, cells_allowed,
                                        "a blocked cell: no central node can be there",
                                        "entry skipped: no claim in that pass"))
                central.append(None)
                continue
            if key in seen:
                problems.append(Problem(ProblemKind.ILLEGAL, player, fieldname, text, "a cell not listed before",
                                        f"already your {ORDINALS[seen[key]]} choice",
                                        "entry skipped: no claim in that pass"))
                central.append(None)
                continue
            seen[key] = i
            central.append(key)
        # border list (R19, R20)
        border: list[str | None] = []
        seen = {}
        corner_allowed = "a cell and its corner (upper left, upper right, bottom left, bottom right)"
        for i, row in enumerate(list(raw.get("border") or [])[:LIST_LENGTH]):
            ctext, ktext = clean(row.get("cell", "")), clean(row.get("corner", ""))
            fieldname = f"border {ORDINALS[i]}"
            if ctext == "" and ktext == "":
                border.append(None)
                continue
            if is_formula(ctext) or is_formula(ktext):
                problems.append(Problem(ProblemKind.SYNTAX, player, fieldname, ctext or ktext, corner_allowed,
                                        "a formula", "entry skipped: no claim in that pass"))
                border.append(None)
                continue
            m = re.fullmatch(r"([A-Za-z]\s*\d{1,2})\s*(.*)", ctext)
            cell_part, extra = (m.group(1), m.group(2)) if m else (ctext, "")
            cell = parse_cell(cell_part, cols, rows)
            corner = parse_corner(ktext or extra)
            shown = " ".join(x for x in (ctext, ktext) if x)
            if cell is None:
                problems.append(Problem(ProblemKind.SYNTAX if not m else ProblemKind.ILLEGAL, player, fieldname,
                                        shown, corner_allowed, "not a cell of the board",
                                        "entry skipped: no claim in that pass"))
                border.append(None)
                continue
            if corner is None:
                problems.append(Problem(ProblemKind.MISSING if not (ktext or extra) else ProblemKind.SYNTAX,
                                        player, fieldname, shown, corner_allowed,
                                        "no corner given" if not (ktext or extra) else "not a corner",
                                        "entry skipped: no claim in that pass"))
                border.append(None)
                continue
            key = key_of(point_fine(*corner_point(cell[0], cell[1], corner)))
            if key in seen:
                problems.append(Problem(ProblemKind.ILLEGAL, player, fieldname, shown, "a corner not listed before",
                                        f"the same point as your {ORDINALS[seen[key]]} choice",
                                        "entry skipped: no claim in that pass"))
                border.append(None)
                continue
            seen[key] = i
            border.append(key)
        for name, lst in (("central list", central), ("border list", border)):
            filled = sum(1 for k in lst if k is not None)
            if filled == 0:
                problems.append(Problem(ProblemKind.MISSING, player, name, "", f"{LIST_LENGTH} entries",
                                        "no usable entry", "a random free coordinate after all passes"))
            elif filled < LIST_LENGTH and not any(p.field.startswith(name.split()[0]) for p in problems):
                problems.append(Problem(ProblemKind.MISSING, player, name, f"{filled} {'entry' if filled == 1 else 'entries'}",
                                        f"{LIST_LENGTH} entries", "short list",
                                        "you sit out the passes of the blank entries; if still without a "
                                        "coordinate, a random free one"))
        values["central"] = central + [None] * (LIST_LENGTH - len(central))
        values["border"] = border + [None] * (LIST_LENGTH - len(border))
        # bids (R21, A26, E-P5)
        bid_row = (list(raw.get("bids") or [{}]) or [{}])[0]
        names = ("bid",) if opts["bid_scope"] == "shared" else ("central_bid", "border_bid")
        for name in names:
            text = clean(bid_row.get(name, ""))
            bid = 0
            if text == "":
                pass
            elif is_formula(text):
                problems.append(Problem(ProblemKind.SYNTAX, player, name, text, "a whole number 0 or more",
                                        "a formula", "bid 0"))
            else:
                n = parse_int(text)
                if n is None:
                    try:
                        f = float(text.replace(",", "."))
                        ok = math.isfinite(f) and abs(f) < 10 ** MAX_DIGITS  # never a 300-digit bid
                    except ValueError:
                        ok = False
                    if ok:
                        n = max(0, math.floor(f))
                        problems.append(Problem(ProblemKind.ILLEGAL, player, name, text, "a whole number 0 or more",
                                                "not a whole number", f"bid {n}"))
                    else:
                        reason = int_reason(text)
                        problems.append(Problem(ProblemKind.SYNTAX, player, name, text, "a whole number 0 or more",
                                                "not a number" if reason == "not a whole number" else reason, "bid 0"))
                        n = 0
                elif n < 0:
                    problems.append(Problem(ProblemKind.ILLEGAL, player, name, text, "a whole number 0 or more",
                                            "negative", "bid 0"))
                    n = 0
                bid = n
            values[name] = bid
        return Submission(player, values, tuple(problems), raw)

    def _parse_round(self, state: State, player: str, raw: RawSubmission) -> Submission:
        opts = state["options"]
        problems: list[Problem] = []
        allowed = _ACTIONS_ALLOWED
        texts = [clean(row.get("action", "")) for row in (raw.get("actions") or [])]
        while texts and not texts[-1]:   # rows after the last filled one are not read
            texts.pop()
        codes: list[tuple[int, str]] = []   # (sheet row, code)
        gap = "an idle step" if opts["blank_policy"] == "idle" else "row skipped; later actions move up"
        for i, text in enumerate(texts):
            code = _EXACT_CODES.get(text)   # as nearly every cell is typed; read by the rule otherwise
            if code is not None:
                codes.append((i + 1, code))
                continue
            fieldname = f"action {i + 1}"
            if text == "":
                if opts["blank_policy"] == "idle":
                    codes.append((i + 1, IDLE))
                problems.append(Problem(ProblemKind.MISSING, player, fieldname, "", allowed,
                                        "blank row between actions", gap))
                continue
            code = None if is_formula(text) else parse_action(text)
            if code is None:
                problems.append(Problem(ProblemKind.SYNTAX, player, fieldname, text, allowed,
                                        "a formula" if is_formula(text) else "unknown action code", gap))
                if opts["blank_policy"] == "idle":
                    codes.append((i + 1, IDLE))
                continue
            codes.append((i + 1, code))
        # E3 and E1 (a garnet is assumed for the first gswap; E4 is checked at resolution)
        seen_g = False
        energy = 0
        kept: list[str] = []
        kept_rows: list[int] = []
        for row_no, c in codes:
            if c == GSWAP:
                label = f"action {row_no}"
                if seen_g:
                    if opts["extra_gswap"] == "as_swap":
                        problems.append(Problem(ProblemKind.ILLEGAL, player, label, "gswap",
                                                "one garnet swap per round", "a second garnet swap",
                                                "a normal swap costing 1 energy"))
                        c = SWAP
                    else:
                        problems.append(Problem(ProblemKind.ILLEGAL, player, label, "gswap",
                                                "one garnet swap per round", "a second garnet swap",
                                                "dropped"))
                        continue
                else:
                    seen_g = True
            if c in _ENERGY_CODES:   # costs_energy
                energy += 1
                if energy > ENERGY and opts["energy_overflow"] == "drop_excess":
                    problems.append(Problem(ProblemKind.ILLEGAL, player, f"action {row_no}", c,
                                            f"at most {ENERGY} energy of actions",
                                            f"energy {energy} of {ENERGY}", "dropped: it never runs"))
                    continue
            kept.append(c)
            kept_rows.append(row_no)
        if energy > ENERGY and opts["energy_overflow"] == "reject_all":
            problems.append(Problem(ProblemKind.ILLEGAL, player, "actions", f"{energy} energy",
                                    f"at most {ENERGY} energy of actions", "too much energy",
                                    "the whole list is rejected: no actions this round"))
            kept, kept_rows = [], []
        # E5 / E6 warnings: walk the plan without other players
        problems += self._walk_warnings(state, player, kept, kept_rows)
        # missions (R51, R52, A18)
        accept: list[str] = []
        board = self._board(state)
        for i, row in enumerate(list(raw.get("missions") or [])):
            text = clean(row.get("accept", ""))
            if i >= len(board):
                if text and yes_no(text):
                    problems.append(Problem(ProblemKind.ILLEGAL, player, f"mission row {i + 1}", text,
                                            "only this round's missions", "no mission on this row", "ignored"))
                continue
            m = board[i]
            v = _EXACT_YES_NO.get(text)   # as nearly every cell is typed; read by the rule otherwise
            if v is None:
                v = None if is_formula(text) else yes_no(text)
            if v is None:
                problems.append(Problem(ProblemKind.SYNTAX, player, f"accept {m['id']}", text, YES_NO_HELP,
                                        "a formula" if is_formula(text) else "not yes or no",
                                        "not accepted"))
            elif v:
                accept.append(m["id"])
        return Submission(player, {"actions": kept, "accept": accept}, tuple(problems), raw)

    def _walk_warnings(self, state: State, player: str, codes: Sequence[str],
                       code_rows: Sequence[int]) -> list[Problem]:
        opts = state["options"]
        nodes = state["nodes"].get(player)
        if not nodes:
            return []
        step_rows = list(code_rows) if opts["gswap_takes_step"] else \
            [r for r, c in zip(code_rows, codes) if c != GSWAP]
        out = []
        for ev in walk_alone(nodes, state["border_colour"][player], codes, opts):
            where = f"action {step_rows[ev.step - 1]}" if ev.step - 1 < len(step_rows) else f"step {ev.step}"
            if ev.result == "offboard":
                out.append(Problem(ProblemKind.ILLEGAL, player, where, ev.code,
                                   "a path that stays on the board", "the path would leave the board",
                                   "invalid at resolution; " + ("this node places no more paths this round"
                                                               if opts["offboard_policy"] == "stop_node"
                                                               else "only this action is skipped")))
            elif ev.result == "blocked":
                out.append(Problem(ProblemKind.ILLEGAL, player, where, ev.code,
                                   "a path into a cell that is not blocked",
                                   f"{fine_label(ev.to, *self._dims(state))} is a blocked cell",
                                   "invalid at resolution; " + ("this node places no more paths this round"
                                                               if opts["offboard_policy"] == "stop_node"
                                                               else "only this action is skipped")))
            elif ev.result == "collision":
                out.append(Problem(ProblemKind.ILLEGAL, player, where, ev.code,
                                   "a path onto a point your paths have not claimed",
                                   "it collides with your own path or node (a self-collision)",
                                   "invalidated at resolution, counted as a collision caused; this node "
                                   "places no more paths this round"))
        return out

    def default_submission(self, state: State, player: str, rng: Rng) -> Mapping[str, Any]:
        """E-P4 / E11: no lists (random free coordinates after the passes); no actions, no acceptances."""
        if state["round"] == 0:
            names = ("bid",) if state["options"]["bid_scope"] == "shared" else ("central_bid", "border_bid")
            return {"central": [None] * LIST_LENGTH, "border": [None] * LIST_LENGTH, **{n: 0 for n in names}}
        return {"actions": [], "accept": []}


    # ---- resolution ---------------------------------------------------------
    def resolve(self, state: State, round_input: RoundInput, rng: Rng) -> RoundResult:
        st = _round_copy(state)
        if st["round"] == 0:
            return self._resolve_pregame(st, round_input, rng)
        return self._resolve_round(st, round_input, rng)

    def _refresh_missions(self, st: State, tables: Tables, after: int, host_log: list[str]) -> None:
        """Missions of rounds after `after` come from the host's table (A21); earlier ones are kept."""
        table = tables.get(MISSIONS_TABLE) if tables else None
        if table is None:
            return
        # Shared with every game that reads the same table, and kept so: a mission of a later round
        # is written only once its round has come, and _round_copy copies it first.
        loaded, problems = _read_missions_cached(table_key(table))
        for p in problems:
            host_log.append(f"missions table: {p}; that mission is left out")
        kept = [m for m in st["missions"] if m["round"] <= after]
        ids = {m["id"].casefold() for m in kept}
        for m in loaded:
            if m["round"] <= after:
                continue
            if m["id"].casefold() in ids:
                host_log.append(f"missions table: id {m['id']} was already used by an earlier mission; "
                                "the new one is left out")
                continue
            kept.append(m)
        st["missions"] = kept
        nxt = after + 1
        if nxt <= st["options"]["rounds"]:
            count = sum(1 for m in kept if m["round"] == nxt)
            if count != 5:
                host_log.append(f"round {nxt} has {count} mission(s) on its board (the ruleset's boards have 5, R48)")

    def _resolve_pregame(self, st: State, ri: RoundInput, rng: Rng) -> RoundResult:
        opts, players = st["options"], st["players"]
        cols, rows = self._dims(st)
        host_log: list[str] = []
        ledger: list[LedgerEntry] = []
        facts: list[Any] = []
        vals: dict[str, Mapping[str, Any]] = {}
        for p in players:
            sub = ri.submissions.get(p)
            vals[p] = sub.values if sub is not None else self.default_submission(st, p, rng)
            if sub is None:
                host_log.append(f"{p}: no pregame submission; random free coordinates (E-P4)")
                facts.append(NoSubmission(p, "pregame", audience=(p,)))
            else:
                facts.extend(IntakeProblem(p, pr, audience=(p,)) for pr in sub.problems)
        # bids, capped by the balance (E-P5)
        wanted_c: dict[str, int] = {}
        wanted_b: dict[str, int] = {}
        bids_c: dict[str, int] = {}
        bids_b: dict[str, int] = {}
        for p in players:
            bal = max(0, int(ri.balances.get(p, 0)))
            if opts["bid_scope"] == "shared":
                want = int(vals[p].get("bid", 0) or 0)
                wanted_c[p] = wanted_b[p] = want
                bids_c[p] = bids_b[p] = min(want, bal)
            else:
                wc, wb = int(vals[p].get("central_bid", 0) or 0), int(vals[p].get("border_bid", 0) or 0)
                wanted_c[p], wanted_b[p] = wc, wb
                bids_c[p] = min(wc, bal)
                bids_b[p] = min(wb, bal - bids_c[p])
            if (bids_c[p], bids_b[p]) != (wanted_c[p], wanted_b[p]):
                host_log.append(f"{p}: bids capped at the balance {bal} (E-P5)")
        blocked = blocked_fine(opts)
        cells = [key_of(cell_fine(c, r)) for r in range(rows) for c in range(cols) if cell_fine(c, r) not in blocked]
        points = [key_of(point_fine(x, y)) for y in range(rows + 1) for x in range(cols + 1)]
        if len(players) > len(cells):
            raise ConfigError("more players than usable cells; block fewer cells (option blocked_cells)")
        rec_c: list[dict[str, Any]] = []
        rec_b: list[dict[str, Any]] = []

        def label_of(key: str) -> str:
            return fine_label([int(v) for v in key.split(",")], cols, rows)

        got_c, how_c, con_c, log_c = assign_nodes({p: list(vals[p]["central"]) for p in players}, bids_c, cells,
                                                  rng.fork("pregame", "central"), opts["pregame_mode"], "central",
                                                  rec_c, label_of)
        got_b, how_b, con_b, log_b = assign_nodes({p: list(vals[p]["border"]) for p in players}, bids_b, points,
                                                  rng.fork("pregame", "border"), opts["pregame_mode"], "border",
                                                  rec_b, label_of)
        host_log += log_c + log_b

        for what, records in (("central", rec_c), ("border", rec_b)):
            for rec in records:
                if rec["decided_by"] == "fallback":
                    facts.append(PriorityFallback(what, rec["winner"], label_of(rec["key"]), rec["free"],
                                                  audience=HOST_ONLY))
                else:
                    facts.append(PriorityPass(what, rec["pass"], label_of(rec["key"]),
                                              tuple(PriorityClaim(*c) for c in rec["claimants"]), rec["winner"],
                                              rec["decided_by"], tuple(rec["drawn_among"]), audience=HOST_ONLY))
        choice_of: dict[tuple[str, str], int] = {}
        for what, records in (("C", rec_c), ("B", rec_b)):
            for rec in records:
                choice_of[(what, rec["winner"])] = dict((c, i) for c, i, _ in rec["claimants"]).get(rec["winner"], 0)
        for p in players:
            st["nodes"][p] = {"B": [int(v) for v in got_b[p].split(",")], "C": [int(v) for v in got_c[p].split(",")]}
            st["border_colour"][p] = BLUE   # R11
            for n in "CB":
                at = st["nodes"][p][n]
                facts.append(StartingNode(p, node_word(n), own_xy(at), fine_label(at, cols, rows), choice_of[(n, p)],
                                          BLUE if n == "B" else BLACK, audience=(p,)))
        # charges (A26)
        for p in players:
            if opts["bid_scope"] == "shared":
                pay = bids_c[p] if (opts["bid_charge"] == "always" or p in con_c or p in con_b) else 0
                if pay:
                    ledger.append(LedgerEntry(p, -pay, "PREGAME_BID", "pregame tiebreak bid (both lists)"))
                facts.append(PriorityBid(p, "both", wanted_c[p], bids_c[p], pay, audience=(p,)))
            else:
                pc = bids_c[p] if (opts["bid_charge"] == "always" or p in con_c) else 0
                pb = bids_b[p] if (opts["bid_charge"] == "always" or p in con_b) else 0
                if pc:
                    ledger.append(LedgerEntry(p, -pc, "PREGAME_BID_CENTRAL", "pregame tiebreak bid (central list)"))
                if pb:
                    ledger.append(LedgerEntry(p, -pb, "PREGAME_BID_BORDER", "pregame tiebreak bid (border list)"))
                facts.append(PriorityBid(p, "central", wanted_c[p], bids_c[p], pc, audience=(p,)))
                facts.append(PriorityBid(p, "border", wanted_b[p], bids_b[p], pb, audience=(p,)))
        self._refresh_missions(st, ri.tables, 0, host_log)
        st["round"] = 1
        st["board"] = {"round": 0, "segments": [], "in_post": True,   # the pregame's post shows it
                       "starts": [{"at": st["nodes"][p][n], "colour": BLUE if n == "B" else BLACK}
                                  for p in sorted(players) for n in "BC"], "ends": []}
        # The public board: every starting node, unlabelled, in its Round 1 colour (R26, R11), in
        # board order so that nothing pairs a border node with its central node.
        facts.append(self._board_fact(st, 0))
        facts += sorted((NodeMarker("start", node_word(n), own_xy(st["nodes"][p][n]),
                                    fine_label(st["nodes"][p][n], cols, rows), BLUE if n == "B" else BLACK)
                         for p in players for n in "BC"), key=lambda f: (f.node, f.at[1], f.at[0]))
        facts += self._presented(st, 1)
        return RoundResult(st, ledger=tuple(ledger), host_log=tuple(host_log), facts=tuple(facts))

    def _resolve_round(self, st: State, ri: RoundInput, rng: Rng) -> RoundResult:
        opts, players = st["options"], st["players"]
        cols, rows = self._dims(st)
        r = st["round"]
        host_log: list[str] = []
        ledger: list[LedgerEntry] = []
        facts: list[Any] = []
        requests: list[DecisionRequest] = []
        breakdown = (lambda p: (p,)) if opts["private_breakdown"] else (lambda p: HOST_ONLY)
        st.setdefault("last_actions", {p: [] for p in players})     # states recorded before these keys
        st.setdefault("pending_manual", [])

        # Every point of the board with its own coordinates and label, looked up rather than computed:
        # a round's facts name about a hundred points. A point off the board is computed.
        labels, coords = _board_labels(cols, rows), _board_coords(cols, rows)
        get_label, get_xy = labels.get, coords.get

        def lbl(fine: Sequence[int]) -> str:
            try:
                return labels[fine]
            except (KeyError, TypeError):   # a point off the board, or a list
                return fine_label(fine, cols, rows)

        def xy(fine: Sequence[int]) -> tuple[int, int]:
            try:
                return coords[fine]
            except (KeyError, TypeError):
                return own_xy(fine)

        # 1. Intake (E1-E4, E11): the list that runs for each player.
        plans: dict[str, list[str]] = {}
        gswap_used: dict[str, bool] = {}
        accept: dict[str, list[str]] = {}
        for p in players:
            sub = ri.submissions.get(p)
            if sub is None:
                repeated = ([c for c in st["last_actions"].get(p, []) if c != GSWAP]   # a garnet is never spent
                            if opts["missing_policy"] == "repeat_last" else [])        # for a player (A17)
                vals: Mapping[str, Any] = {"actions": repeated, "accept": []}
                facts.append(NoSubmission(p, opts["missing_policy"], tuple(repeated), audience=(p,)))
                host_log.append(f"{p}: no submission (E11)" + (f"; repeating {' '.join(repeated)}" if repeated else ""))
            else:
                vals = sub.values
                facts.extend(IntakeProblem(p, pr, audience=(p,)) for pr in sub.problems)
                st["last_actions"][p] = [c for c in vals.get("actions", []) if c != IDLE]
            codes = [c for c in vals.get("actions", []) if c in ACTION_CHOICES or c == IDLE]
            plan, used, notes = clean_plan(codes, int(ri.balances.get(p, 0)) >= 1, opts, p)
            facts.extend(IntakeProblem(p, n, audience=(p,)) for n in notes)
            host_log += [f"{n.message} (E1, E3, E4)" for n in notes]
            plans[p] = plan
            gswap_used[p] = used
            if used:
                ledger.append(LedgerEntry(p, -1, "GARNET_SWAP", f"round {r} garnet colour swap (R15)"))
            accept[p] = list(vals.get("accept", []))

        # 2-3. Every step of every path (reference order (f)).
        starts = {p: {n: tuple(st["nodes"][p][n]) for n in "BC"} for p in players}
        start_colour = dict(st["border_colour"])
        res = run_paths(starts, start_colour, plans, opts)
        host_log += res.log
        for p in players:
            aud = breakdown(p)
            for ev in res.events[p]:
                code, frm, to, hits, result = ev.code, ev.frm, ev.to, ev.hits, ev.result
                if hits:
                    cases = tuple(sorted({c for c, _ in hits}))
                    self_cases = tuple(sorted({c for c, _ in hits} - {c for c, o in hits if o != p}))
                else:
                    cases = self_cases = ()
                facts.append(ActionStep(
                    p, ev.step, code, _PATH_NODE_WORDS.get(code, ""), result,
                    (get_xy(frm) or xy(frm)) if frm else None, (get_xy(to) or xy(to)) if to else None,
                    (get_label(frm) or lbl(frm)) if frm else "",
                    (get_label(to) or lbl(to)) if to and result != "offboard" else "", ev.colour, cases, self_cases,
                    _STEP_ENERGY.get(code, 0), 1 if code == GSWAP else 0, ev.counted,
                    audience=aud))
                if result == "collision":
                    node = _PATH_NODE_WORDS.get(code, "")
                    facts.append(CollisionRecord(ev.step, p, ev.code, node, lbl(ev.to),
                                                 tuple(CollisionHit(c, o) for c, o in ev.hits), ev.counted,
                                                 audience=HOST_ONLY))
            for n in "BC":
                start, end = starts[p][n], res.ends[p][n]
                facts.append(NodePath(p, _NODE_WORDS[n], get_xy(start) or xy(start), get_xy(end) or xy(end),
                                      get_label(start) or lbl(start), get_label(end) or lbl(end), res.moves[p][n],
                                      tuple(res.steps[p][n]), audience=aud))
            n_paths = sum(1 for c in plans[p] if c in _PATH_NODE_WORDS)   # the path codes
            n_swaps = plans[p].count(SWAP)
            facts.append(EnergyUsed(p, n_paths + n_swaps, ENERGY, n_paths, n_swaps, 1 if gswap_used[p] else 0,
                                    audience=aud))
            st["collisions"][p] += res.collisions[p]

        # 4. Missions (R48-R62).
        rewards = {p: 0 for p in players}
        penalties = {p: 0 for p in players}
        public_missions = self._missions(st, r, accept, res, ri.decisions, rewards, penalties, facts, requests,
                                         host_log)

        # Fireflies (R32, R67), nodes for next round (R6, A11).
        for p in players:
            before = st["fireflies"][p]
            change = res.paths[p] + rewards[p] + penalties[p]
            st["fireflies"][p] = before + change
            st["nodes"][p] = {n: list(res.ends[p][n]) for n in "BC"}
            st["border_colour"][p] = res.border_colour[p]
            st["history"][p].append(change)
            facts.append(FireflyBreakdown(p, res.paths[p], rewards[p], penalties[p], audience=breakdown(p)))
            facts.append(FireflyTotal(p, before, change, st["fireflies"][p], audience=(p,)))
            facts.append(CollisionsCaused(p, res.collisions[p], st["collisions"][p], audience=breakdown(p)))
            facts.append(NextNodes(p, xy(res.ends[p]["B"]), xy(res.ends[p]["C"]), lbl(res.ends[p]["B"]),
                                   lbl(res.ends[p]["C"]), res.border_colour[p], audience=(p,)))

        # The public board (R63-R65, A33): paths and node points, unowned and in board order
        # unless the step order is public, so the record says no more than the drawing.
        show_col = opts["public_node_colors"]
        st["board"] = {"round": r,
                       "segments": [{"node": s.node, "frm": list(s.frm), "to": list(s.to), "colour": s.colour,
                                     "step": s.step} for s in res.segments],
                       "starts": [{"at": list(starts[p][n]),
                                   "colour": (start_colour[p] if n == "B" else other(start_colour[p])) if show_col
                                   else None} for p in sorted(players) for n in "BC"],
                       "ends": [{"at": list(res.ends[p][n]),
                                 "colour": (res.border_colour[p] if n == "B" else other(res.border_colour[p]))
                                 if show_col else None} for p in sorted(players) for n in "BC"]}
        facts.append(self._board_fact(st, r))
        step_order = opts["public_step_order"]
        paths = [_path_placed(s.node, s.frm, s.to, s.colour, s.step if step_order else 0, cols, rows)
                 for s in res.segments]
        if not step_order:
            paths.sort(key=_ORDER_KEY)
        facts += [f for _, f in paths]
        marks = []
        for phase, where, colours in (("start", starts, start_colour), ("end", res.ends, res.border_colour)):
            for p in players:
                for n in "BC":
                    colour = (colours[p] if n == "B" else other(colours[p])) if show_col else ""
                    marks.append(_node_marker(phase, n, where[p][n], colour, cols, rows))
        marks.sort(key=_ORDER_KEY)
        facts += [f for _, f in marks]
        facts += public_missions

        final = r >= opts["rounds"]
        self._refresh_missions(st, ri.tables, r, host_log)
        st["round"] = r + 1
        if final:
            st["finished"] = True
            self._finish(st, ri.decisions, facts, ledger, requests, host_log)
        else:
            facts += self._presented(st, r + 1)
        return RoundResult(st, ledger=tuple(ledger), host_log=tuple(host_log), facts=tuple(facts),
                           requests=tuple(requests))

    def _missions(self, st: State, r: int, accept: Mapping[str, Sequence[str]], res: PathResult,
                  decisions: Mapping[str, Any], rewards: dict[str, int], penalties: dict[str, int],
                  facts: list[Any], requests: list[DecisionRequest], host_log: list[str]) -> list[Any]:
        """Acceptances, checks, completions with split rewards, penalties and windows (R48-R62,
        A18-A24); manual missions ask the host who completed them (A21). Returns the public facts."""
        opts, players = st["options"], st["players"]
        public: list[Any] = []
        board_ids = {m["id"]: m for m in st["missions"] if m["round"] == r}
        for p in players:
            for mid in accept.get(p, []):
                m = board_ids.get(mid)
                if m is None or m["status"] != "open":
                    facts.append(MissionAccepted(p, mid, m["name"] if m else mid, False,
                                                 "not on this round's board" if m is None else
                                                 "already completed or closed", audience=(p,)))
                    host_log.append(f"{p}: acceptance of {mid} ignored (E7)")
                    continue
                if p not in m["accepted"]:
                    m["accepted"].append(p)
                    facts.append(_accepted(p, m["id"], m["name"]))
        for m in st["missions"]:
            if m["round"] > r or m["status"] != "open":
                continue
            cands = ([p for p in players if p in m["accepted"]] if opts["mission_requires_acceptance"]
                     else list(players))
            first, last = mission_window(m)
            completers: list[str] = []
            if m.get("manual"):
                key = f"r{r}:mission:{m['id']}"
                entered = decisions.get(key)
                if cands:
                    requests.append(DecisionRequest(
                        key, f"Round {r}: who completed mission {m['id']} ({m['name']})? {m['text']}",
                        DecisionKind.SUBSET, tuple(cands), round=r,
                        default="nobody: the mission counts as not completed", who="the host"))
                    if entered is None:
                        facts.append(ManualMissionPending(m["id"], m["name"], r, tuple(cands), key, audience=HOST_ONLY))
                        st["pending_manual"].append({"key": key, "mission": m["id"], "name": m["name"], "round": r})
                        host_log.append(f"mission {m['id']}: manual, completers not entered (decision {key}, A21)")
                completers = [p for p in cands if p in (entered or ())]
                for p in cands:
                    facts.append(MissionCheck(p, m["id"], m["name"], "host", p in completers, window_first=first,
                                              window_last=last or 0, pending=entered is None, audience=(p,)))
            else:
                variants = _shape_variants(m["shape"], bool(m["rotate"]), bool(m["reflect"]), bool(m["either_end"]))
                size = len(m["shape"])   # every variant's length: fewer moves cannot hold one
                nodes = {"border": "B", "central": "C", "any": "BC"}[m["node"]]
                for p in cands:
                    found = None
                    for n in nodes:
                        hit = _found_shape(res.moves[p][n], variants, m["anywhere"]) if len(res.moves[p][n]) >= size \
                            else None
                        if hit:
                            found = (n, *hit)
                            break
                    if found:
                        n, variant, i = found
                        completers.append(p)
                        facts.append(MissionCheck(p, m["id"], m["name"], "shape", True, node_word(n), res.moves[p][n],
                                                  variant, tuple(res.steps[p][n][i:i + len(variant)]), first,
                                                  last or 0, audience=(p,)))
                    else:
                        moves = res.moves[p][nodes] if len(nodes) == 1 else ""
                        facts.append(_not_found(p, m["id"], m["name"], m["node"] if len(nodes) == 1 else "", moves,
                                                first, last or 0))
            window_end = m["round"] + m["failure_rounds"] - 1 if m["failure_rounds"] else None
            if completers:
                share = math.ceil(m["reward"] / len(completers))   # R53, A24
                for p in completers:
                    rewards[p] += share
                    st["missions_completed"][p] += 1
                    facts.append(MissionReward(p, m["id"], m["name"], m["reward"], len(completers), share,
                                               audience=(p,)))
                m["status"], m["completed_round"], m["completers"] = "completed", r, completers
                public.append(MissionCompleted(m["id"], m["name"]))
                facts.append(MissionCompleters(m["id"], tuple(completers), share, audience=HOST_ONLY))
                host_log.append(f"mission {m['id']} completed by {', '.join(completers)} (+{share} each)")
                if m["penalty"]:   # R56
                    for p in [q for q in players if q in m["accepted"]]:
                        if p not in completers and p not in m["penalized"]:
                            self._penalize(m, p, penalties, facts, host_log, "completed_by_others")
            elif window_end is not None and r >= window_end:
                if m["penalty"]:
                    for p in [q for q in players if q in m["accepted"]]:
                        if p not in m["penalized"]:
                            self._penalize(m, p, penalties, facts, host_log, "window_ended")
                if not m["expires"] or r >= m["expires"]:
                    m["status"] = "closed"
                    public.append(MissionClosed(m["id"], m["name"]))
            elif m["expires"] and r >= m["expires"]:
                m["status"] = "closed"
                public.append(MissionClosed(m["id"], m["name"]))
        return public

    @staticmethod
    def _penalize(m, p, penalties, facts, host_log, why) -> None:
        penalties[p] += m["penalty"]
        m["penalized"].append(p)
        facts.append(MissionPenalty(p, m["id"], m["name"], m["penalty"], why, audience=(p,)))
        host_log.append(f"mission {m['id']}: {p} penalised {m['penalty']} ({why}, "
                        + ("R56" if why == "completed_by_others" else "A19") + ")")

    # ---- end of game (R69-R73) ---------------------------------------------------
    def _finish(self, st: State, decisions: Mapping[str, Any], facts: list[Any], ledger: list[LedgerEntry],
                requests: list[DecisionRequest], host_log: list[str]) -> None:
        """The final order, the winner and the EC with R71's tie-breaks, and the end-of-game garnets.

        Players are ordered by fireflies, then more missions completed, then fewer collisions caused
        (R71, A32). A full tie at the top or the bottom asks the host for the Gamewide Tiebreak (a
        RANKING decision of this round); until it is entered that winner or EC is pending. While a
        manual mission's completers are not entered the whole result is provisional: nobody is
        named and no end-of-game garnet is paid."""
        opts, players = st["options"], st["players"]
        r = st["round"] - 1
        ff, mc, co = st["fireflies"], st["missions_completed"], st["collisions"]
        stat = {p: (-ff[p], -mc[p], co[p]) for p in players}
        ordered = sorted(players, key=lambda p: (stat[p], players.index(p)))
        groups: list[list[str]] = []
        for p in ordered:
            if groups and stat[groups[-1][0]] == stat[p]:
                groups[-1].append(p)
            else:
                groups.append([p])
        top, bottom = groups[0], groups[-1]
        ranked: dict[int, list[str]] = {}       # group index -> the entered ranking
        pending: list[str] = []
        manual = [x["key"] for x in st["pending_manual"]]
        provisional = bool(manual)      # the order may still change: no tie-break is asked yet
        for gi, g in dict.fromkeys(((0, tuple(top)), (len(groups) - 1, tuple(bottom)))):
            if len(g) < 2 or provisional:
                continue
            key = "gamewide:" + ",".join(g)
            what = ("the winner and the Elimination Candidate" if len(groups) == 1 else
                    "the winner" if gi == 0 else "the Elimination Candidate")
            requests.append(DecisionRequest(
                key, f"Gamewide Tiebreak: rank {', '.join(g)}, best first. They are tied on fireflies "
                     f"({ff[g[0]]}), missions completed ({mc[g[0]]}) and collisions caused ({co[g[0]]}); "
                     f"the ranking decides {what}.",
                DecisionKind.RANKING, tuple(g), round=r,
                default=f"{what} is not decided" + (": the winner's garnet and Tokens of Life wait for it"
                                                    if gi == 0 else ""), who="the host"))
            entered = decisions.get(key)
            if entered is not None and sorted(entered) == sorted(g):
                ranked[gi] = list(entered)
                groups[gi] = list(entered)
                host_log.append(f"gamewide tiebreak ({key}): {', '.join(entered)} (R71, A32)")
            else:
                pending.append(key)
                host_log.append(f"gamewide tiebreak among {', '.join(g)}: not entered yet (decision {key})")
        order = [p for g in groups for p in g]
        winner = None if provisional or (len(groups[0]) > 1 and 0 not in ranked) else order[0]
        last = len(groups) - 1
        ec = None if provisional or (len(groups[-1]) > 1 and last not in ranked) else order[-1]
        # The tie-break step that separated each pair of neighbours tied on fireflies (R71).
        steps = []
        for gi, g in enumerate(groups):
            for a, b in zip(g, g[1:]):
                # a full tie at the top or the bottom waits for the ranking; one in between needs none
                by = "gamewide" if gi in ranked else "pending" if gi in (0, last) else "not needed"
                steps.append({"above": a, "below": b, "by": by, "above_value": 0, "below_value": 0})
            if gi + 1 < len(groups):
                a, b = g[-1], groups[gi + 1][0]
                if ff[a] == ff[b]:
                    if mc[a] != mc[b]:
                        steps.append({"above": a, "below": b, "by": "missions", "above_value": mc[a],
                                      "below_value": mc[b]})
                    else:
                        steps.append({"above": a, "below": b, "by": "collisions", "above_value": co[a],
                                      "below_value": co[b]})
        # A35: missions figures where a fireflies tie used them, collisions where missions tied too.
        show_all = opts["reveal_all_stats"]
        shown = {p: {"missions": show_all or any(q != p and ff[q] == ff[p] for q in players),
                     "collisions": show_all or any(q != p and (ff[q], mc[q]) == (ff[p], mc[p]) for q in players)}
                 for p in players}
        places: dict[str, int] = {}     # players still fully tied share their place
        for gi, g in enumerate(groups):
            for p in g:
                places[p] = order.index(g[0] if len(g) > 1 and gi not in ranked else p) + 1
        conversions = {p: max(ff[p], 0) // 30 for p in players}
        if not provisional:
            if winner is not None:
                ledger.append(LedgerEntry(winner, 1, "MM_WINNER", "the single player with the most fireflies (R69)"))
            for p in players:
                if conversions[p]:
                    ledger.append(LedgerEntry(p, conversions[p], "FIREFLY_CONVERSION",
                                              f"{ff[p]} fireflies: 1 garnet per 30 (R73)"))
        st["final"] = {"order": order, "places": places, "winner": winner, "ec": ec, "pending": pending,
                       "manual_pending": manual, "steps": steps, "shown": shown, "conversions": conversions,
                       "questions": {q.key: q.question for q in requests if q.key in pending}}
        facts += self._final_facts(st)

    def _final_facts(self, st: State) -> list[Any]:
        f = st["final"]
        ff, mc, co = st["fireflies"], st["missions_completed"], st["collisions"]
        out: list[Any] = []
        for p in f["order"]:
            out.append(FinalCount(f["places"][p], p, ff[p], mc[p] if f["shown"][p]["missions"] else None,
                                  co[p] if f["shown"][p]["collisions"] else None))
        out += [TieBreakStep(s["above"], s["below"], ff[s["above"]], s["by"], s["above_value"], s["below_value"])
                for s in f["steps"]]
        out.append(MainMatchResult(f["winner"], f["ec"], tuple(f["manual_pending"]) + tuple(f["pending"])))
        if not f["manual_pending"]:
            out += [FireflyGarnets(p, ff[p], f["conversions"][p]) for p in f["order"] if f["conversions"][p]]
        out += [FinalStats(p, ff[p], mc[p], co[p], audience=HOST_ONLY) for p in f["order"]]
        return out

    # ---- reports, drawn from the facts ---------------------------------------
    def render(self, facts: Sequence[Any], viewer: str | None, ctx: RenderContext) -> Report:
        """The public post or one player's confessional of a round, from the facts that viewer may know."""
        opts = {**DEFAULTS, **dict(ctx.options)}
        r = ctx.round
        if r == 0:
            return self._render_pregame(facts, viewer, opts)
        if viewer is None:
            grid, legend = _grid_from_facts(facts, opts["public_step_order"])
            blocks = [Block(f"Round {r}: all paths", (
                "Every successful path in its colour; nodes are not labelled and swaps are not shown.",),
                grid, legend)]
            mlines = [f"Mission {f.mission} ({f.name}) has been completed." for f in of_type(facts, MissionCompleted)]
            mlines += [f"Mission {f.mission} ({f.name}) is closed: its window has ended."
                       for f in of_type(facts, MissionClosed)]
            blocks.append(Block(f"Round {r}: missions", tuple(mlines) or ("No mission was completed this round.",)))
            if r < opts["rounds"]:
                board = [f.text for f in of_type(facts, MissionPresented)]
                blocks.append(Block(f"Mission board, round {r + 1}", tuple(board) or ("No missions this round.",)))
            return Report(f"Round {r}", tuple(blocks))
        return self._render_private(facts, viewer, r, opts)

    def _render_pregame(self, facts: Sequence[Any], viewer: str | None, opts: Mapping[str, Any]) -> Report:
        if viewer is None:
            grid, legend = _grid_from_facts(facts, False)
            return Report("Pregame: starting nodes", (
                Block("Starting nodes for Round 1", (
                    "Every player's starting nodes, unlabelled: black cells are central nodes, blue corners "
                    "border nodes.",), grid, legend),
                Block("Mission board, round 1", tuple(f.text for f in of_type(facts, MissionPresented))
                      or ("No missions this round.",)),
            ))
        lines: list[str] = []
        for f in of_type(facts, StartingNode):
            if f.player == viewer:
                how = (f"your {ordinal(f.choice)} choice" if f.choice else
                       "a random free coordinate (no entry of your list could be given)")
                lines.append(f"{f.node.capitalize()} node ({f.colour}): {f.label}, {how}.")
        bids = {f.list: f for f in of_type(facts, PriorityBid) if f.player == viewer}
        if "both" in bids:
            b = bids["both"]
            lines.append(f"Tiebreak bid: {b.bid}; garnets charged: {b.charged}.")
            if b.wanted != b.bid:
                lines.append(f"Your bid of {b.wanted} is more than your garnets: capped at {b.bid}.")
        elif bids:
            c, b = bids["central"], bids["border"]
            lines.append(f"Tiebreak bids: central {c.bid}, border {b.bid}; garnets charged: {c.charged + b.charged}.")
            if (c.wanted, b.wanted) != (c.bid, b.bid):
                lines.append(f"Your bids ({c.wanted} central, {b.wanted} border) are more than your garnets: "
                             f"capped at {c.bid} and {b.bid}.")
        for f in facts:
            if isinstance(f, NoSubmission) and f.player == viewer:
                lines.append("You submitted no priority lists: you were given random free coordinates.")
            elif isinstance(f, IntakeProblem) and f.player == viewer:
                lines.append(f"Note: {f.problem.text_for(viewer)}")
        return Report("Pregame", (Block("Your starting nodes", tuple(lines)),))

    def _render_private(self, facts: Sequence[Any], viewer: str, r: int, opts: Mapping[str, Any]) -> Report:
        mine = [f for f in facts if getattr(f, "player", None) == viewer]
        result: list[str] = []
        for f in of_type(mine, FireflyTotal):
            result.append(f"Your fireflies: {f.total} (this round {f.change:+d}).")
        for f in of_type(mine, FireflyBreakdown):
            result.append(f"Paths placed: {f.paths} (+{f.paths}); missions: {f.rewards + f.penalties:+d}.")
        for f in of_type(mine, CollisionsCaused):
            result.append(f"Collisions caused this round: {f.this_round}; this game: {f.total}.")
        for f in of_type(mine, EnergyUsed):
            result.append(f"Energy used: {f.energy} of {f.limit}.")
        for f in of_type(mine, NextNodes):
            result += [f"Border node: {f.border_label} ({f.border_colour} paths)",
                       f"Central node: {f.central_label} ({other(f.border_colour)} paths)"]
        for f in of_type(mine, EnergyUsed):
            if f.garnet_swaps:
                result.append("Garnet swap: 1 garnet spent.")
        blocks = [Block(f"Round {r}: your result", tuple(result))]
        steps = of_type(mine, ActionStep)
        if steps or of_type(mine, EnergyUsed):
            blocks.append(Block(f"Round {r}: your actions", tuple(
                f"{f.step}. {f.action}: {_action_text(f, opts['offboard_policy'])}" for f in steps) or ("No actions.",)))
        mlines: list[str] = []
        for f in mine:
            if isinstance(f, MissionAccepted) and f.ok:
                mlines.append(f"You accepted mission {f.mission} ({f.name}).")
            elif isinstance(f, MissionCheck) and f.pending:
                mlines.append(f"Mission {f.mission} ({f.name}): the host has not entered who completed it yet; "
                              "until then it counts as not completed.")
            elif isinstance(f, MissionReward):
                check = next((c for c in of_type(mine, MissionCheck) if c.mission == f.mission), None)
                how = (f" with your {check.node} node ({_steps_text(check.steps)})"
                       if check is not None and check.how == "shape" else "")
                mlines.append(f"You completed mission {f.mission} ({f.name}){how}: +{f.share} fireflies"
                              + (f" (reward {f.reward} split {f.completers} ways, rounded up)"
                                 if f.completers > 1 else "") + ".")
            elif isinstance(f, MissionPenalty):
                why = "another player completed it" if f.why == "completed_by_others" else "its window has ended"
                mlines.append(f"You failed mission {f.mission} ({f.name}): {f.penalty} fireflies, {why}.")
        if mlines:
            blocks.append(Block(f"Round {r}: your missions", tuple(mlines)))
        notes: list[str] = []
        for f in mine:
            if isinstance(f, NoSubmission):
                notes.append("You submitted nothing this round: " + (
                    f"your last actions were repeated ({' '.join(f.repeated)}); no new missions."
                    if f.repeated else "no actions and no new missions; your nodes stay where they are."))
            elif isinstance(f, IntakeProblem):
                notes.append(f.problem.text_for(viewer))
            elif isinstance(f, MissionAccepted) and not f.ok:
                notes.append(f"mission {f.mission}: {f.reason}; ignored")
        if notes:
            blocks.append(Block(f"Round {r}: submission notes", tuple(notes)))
        return Report(f"Round {r}", tuple(blocks))

    def picture(self, facts: Sequence[Any], viewer: str | None, ctx: RenderContext) -> Picture | None:
        """The round's board (public) and, for each player, the same board with their own nodes ringed
        and their own failed paths dashed (their view differs: they know which nodes are theirs)."""
        title = (f"{ctx.game_name or SPEC.name}: " + ("starting nodes" if ctx.round == 0 else f"round {ctx.round}")
                 + (f" ({viewer})" if viewer else ""))
        return board_picture(facts, title, viewer)

    # ---- views ---------------------------------------------------------------
    def player_view(self, state: State, player: str) -> Report:
        opts = state["options"]
        r = state["round"]
        lines: list[str] = []
        if state["finished"]:
            lines.append(f"The match is over. Your fireflies: {state['fireflies'][player]}.")
        elif r == 0:
            lines.append("Pregame is open: submit your two priority lists (and optional tiebreak bids).")
        else:
            lines.append(f"Round {r} of {opts['rounds']} is open. Energy: {ENERGY}. "
                         f"Your fireflies: {state['fireflies'][player]}.")
        lines += self._node_text(state, player)
        mine = [m for m in state["missions"] if player in m["accepted"]]
        for m in mine:
            if m["status"] == "completed" and player in m["completers"]:
                st = f"completed in round {m['completed_round']}"
            elif player in m["penalized"]:
                st = "failed (penalty taken)" + ("; still open" if m["status"] == "open" else "")
            elif m["status"] == "completed":
                st = f"completed by someone else in round {m['completed_round']}"
            elif m["status"] == "closed":
                st = "closed"
            else:
                end = m["round"] + m["failure_rounds"] - 1 if m["failure_rounds"] else None
                st = "open" + (f", complete it by the end of round {end}" if end else "")
            lines.append(f"Mission {m['id']} ({m['name']}): {st}.")
        blocks = [Block("Now", tuple(lines))]
        if not state["finished"] and r >= 1:
            blocks.append(Block(f"Mission board, round {r}",
                                tuple(mission_text(m) for m in self._board(state)) or ("No missions this round.",)))
        return Report(f"{SPEC.name}: {player}", tuple(blocks))

    def public_view(self, state: State) -> Report:
        opts = state["options"]
        cols, rows = self._dims(state)
        r = state["round"]
        blocks = []
        if state["finished"]:
            blocks.append(Block("Status", ("The match is over.",)))
        elif r == 0:
            blocks.append(Block("Status", ("Pregame: priority lists are open.",)))
            blocks.append(Block("Mission board, round 1",
                                tuple(mission_text(m) for m in self._board(state, 1)) or ("No missions.",)))
        else:
            blocks.append(Block("Status", (f"Round {r} of {opts['rounds']} is open.",)))
            blocks.append(Block(f"Mission board, round {r}",
                                tuple(mission_text(m) for m in self._board(state)) or ("No missions this round.",)))
        running = [m for m in state["missions"] if m["round"] < r and m["status"] == "open"]
        if running and not state["finished"]:
            blocks.append(Block("Earlier missions still open (for those who accepted them)",
                                tuple(mission_short(m) for m in running)))
        done = [m for m in state["missions"] if m["status"] == "completed"]
        if done:
            blocks.append(Block("Missions completed so far", tuple(
                f"{m['id']} ({m['name']}): completed in round {m['completed_round']}" for m in done)))
        b = state.get("board")
        if b and not state["finished"] and not b.get("in_post"):   # (the pregame's board: shown once, in its post)
            nodes = [{"at": s["at"], "colour": s.get("colour") if r == 1 else None} for s in
                     (b["starts"] if b["round"] == 0 else b["ends"])]
            if b["round"] != 0 and opts["public_node_colors"]:
                nodes = b["ends"]
            blocked = sorted(blocked_fine(opts))
            blocks.append(Block(f"Nodes at the start of round {r}", (
                "Every node, unlabelled (S)." + (" Round 1 colours: central black, border blue." if r == 1 else ""),),
                draw_board(cols, rows, [], nodes, [], blocked=blocked), LEGEND + (LEGEND_BLOCKED if blocked else ())))
        return Report(f"{SPEC.name}: board", tuple(blocks))

    def outcome(self, state: State, decisions: Mapping[str, Any] | None = None) -> Outcome | None:
        """The end (R68-R73, A31-A35) as the last round computed it with the decisions entered then:
        a decision entered later re-resolves that round, so the state is always current."""
        if not state["finished"] or not state["final"]:
            return None
        f = state["final"]
        ff, mc, co = state["fireflies"], state["missions_completed"], state["collisions"]

        def score(p: str) -> str:
            text = f"{ff[p]} fireflies"
            if f["shown"][p]["missions"]:
                text += f", {plural(mc[p], 'mission')} completed"
            if f["shown"][p]["collisions"]:
                text += f", {plural(co[p], 'collision')} caused"
            return text

        winner, ec = f["winner"], f["ec"]
        reasons: list[str] = []
        pending: list[str] = []
        if f["manual_pending"]:
            reasons.append(f"Provisional: the host has not entered who completed "
                           f"{plural(len(f['manual_pending']), 'manual mission')}; until then they count as not completed, nobody is named winner or "
                           "Elimination Candidate, and no end-of-game garnets are paid.")
            for x in state["pending_manual"]:
                pending.append(f"for the host: who completed mission {x['mission']} ({x['name']}) in round "
                               f"{x['round']}. Until it is entered: nobody, it counts as not completed.")
        top = [p for p in f["order"] if f["places"][p] == 1]
        if winner:
            reasons.append(f"Winner: {winner} with {ff[winner]} fireflies: 1 garnet and 2 Tokens of Life.")
        elif not f["manual_pending"]:
            reasons.append(f"Winner: pending: {', '.join(top)} are tied on {ff[top[0]]} fireflies, missions "
                           "completed and collisions caused; the Gamewide Tiebreak decides.")
        if ec:
            reasons.append(f"Elimination Candidate: {ec} with {ff[ec]} fireflies.")
        elif not f["manual_pending"]:
            last_place = f["places"][f["order"][-1]]
            bottom = [p for p in f["order"] if f["places"][p] == last_place]
            reasons.append(f"Elimination Candidate: pending: {', '.join(bottom)} are tied on {ff[bottom[0]]} "
                           "fireflies, missions completed and collisions caused; the Gamewide Tiebreak decides.")
        for key in f["pending"]:
            pending.append(f"for the host: {f['questions'][key]} Until it is entered: nobody is named.")
        by_text = {"missions": "more missions completed", "collisions": "fewer collisions caused",
                   "gamewide": "the Gamewide Tiebreak"}
        for who in dict.fromkeys(x for x in (f["order"][0], f["order"][-1])):
            tied = [q for q in f["order"] if ff[q] == ff[who]]
            if len(tied) < 2:
                continue
            parts = []
            for s in f["steps"]:
                if s["above"] in tied and s["below"] in tied:
                    if s["by"] in ("missions", "collisions"):
                        parts.append(f"{s['above']} above {s['below']} by {by_text[s['by']]} "
                                     f"({s['above_value']} to {s['below_value']})")
                    elif s["by"] == "gamewide":
                        parts.append(f"{s['above']} above {s['below']} by the Gamewide Tiebreak")
                    else:
                        parts.append(f"{s['above']} and {s['below']} still tied")
            reasons.append(f"{', '.join(tied)} tied on {ff[who]} fireflies: " + "; ".join(parts) + ".")
        standings = tuple((p, score(p)) for p in f["order"])
        awards = (Award(winner, "Token of Life", 2, "the single player with the most fireflies"),) if winner else ()
        return Outcome((winner,) if winner else (), (ec,) if ec else (), ec, standings, tuple(reasons), awards,
                       tuple(pending), facts=tuple(x for x in self._final_facts(state) if x.audience != HOST_ONLY),
                       scores={p: float(ff[p]) for p in f["order"]}, ending=self._ending(f))

    @staticmethod
    def _ending(f: Mapping[str, Any]) -> str:
        """What settled the winner, a short code: "fireflies" (most fireflies alone), "missions",
        "collisions" or "gamewide" (the R71 step that separated the top two), "winner_pending" (the
        Gamewide Tiebreak not entered yet) or "manual_pending" (a manual mission not entered yet)."""
        if f["manual_pending"]:
            return "manual_pending"
        if not f["winner"]:
            return "winner_pending"
        first = f["order"][0]
        step = next((s for s in f["steps"] if s["above"] == first), None)
        return step["by"] if step and step["by"] in ("missions", "collisions", "gamewide") else "fireflies"

    # ---- starting from a position -------------------------------------------
    POSITION_KEYS = ("round", "nodes", "border_colour", "fireflies", "missions_completed", "collisions", "missions")

    def from_position(self, players, options, tables, position, rng: Rng) -> State:
        """A game opened at round `round` (1..rounds) with every player's nodes, and optionally their
        colours, fireflies, missions completed, collisions caused and the missions presented before.

        >>> st = GAME.from_position(["A", "B"], DEFAULTS, {}, {"round": 3, "nodes": {
        ...     "A": {"border": "C1 bottom right", "central": "C3"}, "B": {"border": [0, 0], "central": [5, 4]}},
        ...     "fireflies": {"A": 9}}, Rng(1))
        >>> st["round"], st["nodes"]["A"], st["fireflies"]
        (3, {'B': [6, 2], 'C': [5, 5]}, {'A': 9, 'B': 0})
        """
        st = self.setup(players, options, tables, rng)
        st["missions"] = [_mission_copy(m) for m in st["missions"]]   # written below: never the shared ones
        opts = st["options"]
        cols, rows = self._dims(st)
        extra = sorted(set(position) - set(self.POSITION_KEYS))
        if extra:
            raise PositionError(f"unknown position key(s) {', '.join(extra)}; a Bugcatcher position has "
                                + ", ".join(self.POSITION_KEYS))
        r = position.get("round", 1)
        if not isinstance(r, int) or isinstance(r, bool) or not 1 <= r <= opts["rounds"]:
            raise PositionError(f"round {r!r}: a position opens a round from 1 to {opts['rounds']}")
        done = r - 1
        for key in self.POSITION_KEYS[1:6]:
            table = position.get(key, {})
            if not isinstance(table, Mapping):
                raise PositionError(f"{key}: give a mapping of player to value")
            unknown = sorted(set(table) - set(players))
            if unknown:
                raise PositionError(f"{key}: {', '.join(unknown)} is not a player (players: {', '.join(players)})")
        nodes = position.get("nodes", {})
        blocked = blocked_fine(opts)
        seen: dict[tuple[int, int], str] = {}
        for p in players:
            given = nodes.get(p)
            if not isinstance(given, Mapping) or set(given) != {"border", "central"}:
                raise PositionError(f"nodes: {p} needs both nodes, e.g. {{\"border\": \"C1 bottom right\", "
                                    f"\"central\": \"C3\"}}")
            st["nodes"][p] = {}
            for n, word in (("B", "border"), ("C", "central")):
                at = parse_point(n, given[word], cols, rows)
                if at is None:
                    raise PositionError(f"nodes: {p}'s {word} node {given[word]!r} is not a "
                                        + ("corner" if n == "B" else "cell") + f" of the {cols}x{rows} board")
                if n == "C" and at in blocked:
                    raise PositionError(f"nodes: {p}'s central node {fine_label(at, cols, rows)} is a blocked cell")
                if at in seen:   # A8: two nodes never share a point
                    raise PositionError(f"nodes: {p}'s {word} node and {seen[at]} are both on "
                                        f"{fine_label(at, cols, rows)}; two nodes never share a point")
                seen[at] = f"{p}'s {word} node"
                st["nodes"][p][n] = list(at)
        for p, colour in position.get("border_colour", {}).items():
            if colour not in (BLUE, BLACK):
                raise PositionError(f"border_colour: {p} has {colour!r}; a border node is blue or black")
            st["border_colour"][p] = colour
        earlier = [m for m in st["missions"] if m["round"] < r]
        by_id = {m["id"].casefold(): m for m in earlier}
        for mid, given in (position.get("missions") or {}).items():
            m = by_id.get(str(mid).casefold())
            if m is None:
                raise PositionError(f"missions: {mid!r} is not a mission presented before round {r} "
                                    f"(earlier missions: {', '.join(x['id'] for x in earlier) or 'none'})")
            if not isinstance(given, Mapping) or set(given) - {"accepted", "completed_by", "completed_round",
                                                                 "penalized"}:
                raise PositionError(f"missions: {m['id']} takes accepted, completed_by, completed_round and penalized")
            for key in ("accepted", "completed_by", "penalized"):
                names = list(given.get(key, []))
                unknown = [x for x in names if x not in players]
                if unknown:
                    raise PositionError(f"missions: {m['id']} {key}: {unknown[0]!r} is not a player")
            accepted = [p for p in players if p in given.get("accepted", [])]
            completers = [p for p in players if p in given.get("completed_by", [])]
            penalized = [p for p in players if p in given.get("penalized", [])]
            if opts["mission_requires_acceptance"] and set(completers) - set(accepted):
                raise PositionError(f"missions: {m['id']} was completed by someone who did not accept it "
                                    "(accepting is required)")
            if set(penalized) - set(accepted) or set(penalized) & set(completers) or (penalized and not m["penalty"]):
                raise PositionError(f"missions: {m['id']} penalized: only players who accepted it, did not "
                                    "complete it, and a mission with a penalty")
            first, last = mission_window(m)
            cr = given.get("completed_round")
            if completers:
                if not isinstance(cr, int) or not first <= cr < r or (last is not None and cr > last):
                    raise PositionError(f"missions: {m['id']} completed_round {cr!r} must be a round from {first} "
                                        f"to {min(r - 1, last) if last else r - 1} (when it could be completed)")
            elif cr is not None:
                raise PositionError(f"missions: {m['id']} has a completed_round but nobody in completed_by")
            m.update(accepted=accepted, completers=completers, penalized=penalized,
                     completed_round=cr if completers else None)
        for m in earlier:
            if m["completers"]:
                m["status"] = "completed"
            elif mission_window(m)[1] is not None and mission_window(m)[1] < r:
                m["status"] = "closed"
        done_missions = {p: sum(1 for m in earlier if p in m["completers"]) for p in players}
        # What r - 1 rounds can have given: 7 paths a round, the rewards of missions presented so far.
        most_fireflies = ENERGY * done + sum(m["reward"] for m in earlier)
        most_collisions = ENERGY * done * (1 if opts["collision_count_mode"] == "per_action" else len(players))
        least_fireflies = sum(m["penalty"] for m in earlier)    # every penalty taken, no path placed
        for key, low, high, what in (("fireflies", least_fireflies, most_fireflies, "fireflies"),
                                     ("missions_completed", 0, len(earlier), "missions completed"),
                                     ("collisions", 0, most_collisions, "collisions caused")):
            for p in players:
                v = position.get(key, {}).get(p, done_missions[p] if key == "missions_completed" else 0)
                if not isinstance(v, int) or isinstance(v, bool) or not low <= v <= high:
                    raise PositionError(f"{key}: {p} has {v!r}; after {done} round(s) a player has {low} to "
                                        f"{high} {what}")
                st[key][p] = v
            if key == "missions_completed":
                for p in players:
                    if st[key][p] < done_missions[p]:
                        raise PositionError(f"missions_completed: {p} has {st[key][p]} but completed "
                                            f"{done_missions[p]} of the missions listed")
        st["round"] = r
        if r == 1:
            st["board"] = {"round": 0, "segments": [], "ends": [],
                           "starts": [{"at": st["nodes"][p][n], "colour": st["border_colour"][p] if n == "B"
                                       else other(st["border_colour"][p])} for p in sorted(players) for n in "BC"]}
        else:
            st["board"] = {"round": done, "segments": [], "starts": [],
                           "ends": [{"at": st["nodes"][p][n], "colour": None} for p in sorted(players) for n in "BC"]}
        st["history"] = {p: [] for p in players}
        return st

    # ---- demo ----------------------------------------------------------------
    def random_submission(self, state: State, player: str, rng: Rng) -> RawSubmission:
        return self.random_play(state, player, rng)[0]

    def random_play(self, state: State, player: str, rng: Rng) -> tuple[RawSubmission, dict[str, Any] | None]:
        """The random play and, where it is sure to read without a problem, the values parse reads
        from it (None: it may not, e.g. a path that may cross the player's own: parse walks it)."""
        opts = state["options"]
        cols, rows = self._dims(state)
        blocked = blocked_fine(opts)
        if state["round"] == 0:
            cells, points = _pregame_choices(cols, rows, blocked)
            central = rng.pick(cells, LIST_LENGTH)   # (label, key) of a cell
            pts = rng.pick(points, LIST_LENGTH)      # (key, the cell corners naming it)
            border = [dict(rng.choice(corners)) for _, corners in pts]
            names = ("bid",) if opts["bid_scope"] == "shared" else ("central_bid", "border_bid")
            bid_values = {n: rng.choice((0, 0, 0, 1)) for n in names}
            raw = {"central": [{"cell": label} for label, _ in central], "border": border,
                   "bids": [{n: str(v) for n, v in bid_values.items()}]}
            if len(central) < LIST_LENGTH:   # a short list is a problem to report: parse says so
                return raw, None
            return raw, {"central": [key for _, key in central], "border": [key for key, _ in pts], **bid_values}
        nodes = state["nodes"][player]
        pos = {n: tuple(nodes[n]) for n in "BC"}
        own = {tuple(v) for q in state["nodes"].values() for v in q.values()}  # every node is public
        codes: list[str] = []
        board = self._board(state)
        accept = []
        table = _legal_steps(cols, rows, blocked)
        # Twice the midpoints of each node's paths: a border and a central path with the same midpoint
        # cross, and whether that is a self-collision depends on colours, which parse works out (E6).
        crossings: dict[str, set[tuple[int, int]]] = {"B": set(), "C": set()}

        def legal_steps(n: str, at: tuple[int, int]) -> dict[str, tuple[int, int]]:
            return table[n].get(at) or steps_from(n, at, cols, rows, blocked)
        # Few draws: a simulated game makes thousands, and each costs as much as a step of the rules.
        # Half the time, try a mission's shape: its variants in turn from a random one.
        shaped = [m for m in board if not m.get("manual")]
        if shaped and (k := rng.below(2 * len(shaped))) < len(shaped):
            m = shaped[k]
            n = "B" if m["node"] == "border" else "C" if m["node"] == "central" else rng.choice("BC")
            variants = _shape_variants(m["shape"], bool(m["rotate"]), bool(m["reflect"]), bool(m["either_end"]))
            first = rng.below(len(variants))
            for v in variants[first:] + variants[:first]:
                at, ok, seen = pos[n], True, set()   # the points this variant adds to `own`
                mids = []
                for d in v:
                    nxt = legal_steps(n, at).get(d)
                    if nxt is None or nxt in own or nxt in seen:
                        ok = False
                        break
                    seen.add(nxt)
                    mids.append((at[0] + nxt[0], at[1] + nxt[1]))
                    at = nxt
                if ok:
                    codes = [n + d for d in v]
                    own |= seen
                    crossings[n].update(mids)
                    pos[n] = at
                    accept.append(m["id"])
                    break
        while len(codes) < ENERGY:
            x = rng.below(400)   # one draw a step: a swap (8%), stop (2%), or a node and a direction
            if x < 32:
                codes.append(SWAP)
                continue
            if x < 40:
                break
            x -= 40              # 0-359: the node from its parity, the direction from the rest (180 of them,
            n = "BC"[x & 1]      # a multiple of 1, 2, 3 and 4, so each free direction is as likely)
            steps = table[n].get(pos[n]) or legal_steps(n, pos[n])   # the table's answer, without a call
            dirs = [(d, step) for d, step in steps.items() if step not in own]   # U D L R
            if not dirs:
                continue
            frm = pos[n]
            d, pos[n] = dirs[(x >> 1) % len(dirs)]
            own.add(pos[n])
            crossings[n].add((frm[0] + pos[n][0], frm[1] + pos[n][1]))
            codes.append(n + d)
        at = rng.below(10 * (len(codes) + 1))   # a garnet swap one time in ten, anywhere in the list
        if at <= len(codes):
            codes.insert(at, GSWAP)
        for i in range(0, len(board), 20):   # each mission accepted one time in five: a base-5 digit
            group = board[i:i + 20]            # each, twenty to a draw (5 ** 20 < 2 ** 64)
            x = rng.below(5 ** len(group))
            for m in group:
                x, digit = divmod(x, 5)
                if digit == 0 and m["id"] not in accept:
                    accept.append(m["id"])
        out: dict[str, list[dict[str, str]]] = {"actions": [{"action": c} for c in codes]}
        if board:
            out["missions"] = [{"accept": "yes" if m["id"] in accept else "no"} for m in board]
        # Every step is on the board, out of blocked cells and onto an unclaimed point (`own` holds
        # every node and every point reached), so parse finds nothing to say, unless a border and a
        # central path cross in the same colour (walked as parse walks them, E6), the energy runs
        # over (a long shape) or there is nothing to read.
        if sum(c in _ENERGY_CODES for c in codes) > ENERGY or not (codes or board) or (
                crossings["B"] & crossings["C"] and walk_alone(nodes, state["border_colour"][player], codes, opts)):
            return out, None
        return out, {"actions": codes, "accept": [m["id"] for m in board if m["id"] in accept]}


GAME = Bugcatcher()
