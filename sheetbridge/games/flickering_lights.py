"""Flickering Lights (designer pseudonam, "The Genius: Variations on a Theme", MM6):
a Main Match for 7 players with hidden teams, hidden roles and area control.

Rules in brief (R and A numbers from shared/rulings/flickering_lights.md):

- Five rounds (R1). Each round the players are split at random into Red (3), Blue (3)
  and White (1) (R2, A20); each knows only their own team (R3). Both teams get the same
  three of the five roles Coordinator, Sniper, Demolitionist, Blocker, Saboteur (R4,
  A41); White is the Mediator (R6). The draw happens when the round opens, so each
  player is briefed privately before submitting.
- Each round has its own 8x8 grid with as many red as blue squares, the red squares
  mapping onto the blue ones by a mirror or a rotation (R7, R8, A16, A17); the host may
  enter grids (table Grids) or leave them to the seed. Every value starts at 0 (R9).
  Items (table Items, A18) may be placed symmetrically: note, lock, bonus, value, and
  manual, whose effect the host rules on after the round (decisions of that round).
- A Red/Blue player submits up to 2 distinct spaces of their own colour: the first +2,
  the others +1 (R11, R12, R14); White submits one red and one blue space, +1 each
  (R13, R15, A39). Increases add up (R16, A5).
- Roles: Coordinator learns an unlabelled list of its two teammates plus the other
  team's Saboteur (R23, R29, A19); Sniper's first space +4 (R24); Demolitionist up to
  4 pairwise non-adjacent spaces (R25, R26, A14, A15); Blocker blocks up to 2
  opposite-colour spaces, -1 each (R27, R28, A12); Saboteur flips one opposite-colour
  space after values, before recolouring (R30, R31, A10, A11); Mediator knows the
  three roles in play (R32).
- Resolution (R17-R20, A2-A9): final X = max(0, increases - blocks/defends); flips; then
  every space with X >= 1 recolours all squares within distance X (Manhattan by
  default) to its colour, at the same time. A square reached by both colours takes
  the colour with the lowest X; equal lowest X keeps its colour (after flips).
- Scoring (R33-R36, A28, A29): each Red/Blue player scores their colour's tile count,
  +8 if their team has strictly more. White scores the winning team's points if the
  difference is at most 7, else the losing team's; on a tie, the common value.
- Variations (R38-R55): 2 Blockade (no Blocker; each Red/Blue player may defend one
  opposite-colour space, -1 each, stacking); 3 Disconnected Connection (+4 tiles for the
  strictly largest connected group, A21, A22); 4 Fog of War (no Coordinator; board
  hidden but the centre four; 10 known tiles per Red/Blue player, 12 for White sharing
  2 with each; wrong-colour entries replaced by a seeded random square of the needed
  colour; nothing revealed until the end, A23-A25); 5 Three-in-a-Row (+1 tile per
  single-colour line of three, after the Mediator's check, A26, A27).
- Information (A35, section (c)): the resulting grid is public after rounds 1, 2, 3, 5;
  scores are private; alignments are revealed at the end of the game (R22).
- The end of the match is not in the ruleset (A30): by default the highest five-round
  total wins and the lowest is the Elimination Candidate; ties are the host's decisions
  ("winner-tie", "ec-tie"). No garnets move unless the host sets an option (A31).
- Results as data: `resolve` returns the round as facts (the classes after the spec),
  each with its audience; `render` and `picture` draw every report and board from them.
  `from_position` opens the game at a round (keys: round, teams, grids, results, points).

A worked example (A7): a red square reached by red X = 3 and blue X = 1 turns blue.

>>> g = parse_grid(["........"] * 3 + ["...RB..."] + ["........"] * 4)
>>> fin = recolor(g, {(3, 3): 3, (4, 3): 1}, DEFAULT_OPTIONS)
>>> fin[(3, 3)], fin[(4, 3)], fin[(0, 3)], fin[(5, 3)]
('B', 'B', 'R', 'B')
"""
from __future__ import annotations

import enum
import functools
from dataclasses import dataclass, replace
from typing import Any, Callable, Mapping, Sequence

from ..core.decisions import DecisionKind, DecisionRequest
from ..core.errors import ConfigError, PositionError
from ..core.facts import HOST_ONLY, PUBLIC, Fact, RenderContext, fact, of_type
from ..core.game import GameRules
from ..core.outcome_text import plural, plural_noun
from ..core.parsing import clean, is_formula, parse_int, split_list, table_key
from ..core.picture import Box, Dot, Label, Picture
from ..core.rng import Rng
from ..core.standings import Place, RoundScore
from ..core.types import (Block, Cell, Field, FieldKind, Form, GameSpec, LedgerEntry, Option,
                          Outcome, Problem, ProblemKind, RawSubmission, Report, RoundInput,
                          RoundResult, Section, State, Submission, TableSpec, Tables, from_json,
                          to_json)

# --------------------------------------------------------------------- closed sets

COLS = "ABCDEFGH"
SIZE = 8
ROUNDS = 5
RED, BLUE, GRAY = "R", "B", "."
COLOR_NAME = {RED: "red", BLUE: "blue", GRAY: "gray"}
FILL = {RED: "E06666", BLUE: "6FA8DC", GRAY: "BFBFBF", "?": "404040"}
CENTER = ((3, 3), (4, 3), (3, 4), (4, 4))  # D4, E4, D5, E5 (R48)


class Team(enum.Enum):
    RED = "Red"
    BLUE = "Blue"
    WHITE = "White"

    @property
    def color(self) -> str:
        return {Team.RED: RED, Team.BLUE: BLUE, Team.WHITE: ""}[self]

    @property
    def other(self) -> "Team":
        return {Team.RED: Team.BLUE, Team.BLUE: Team.RED, Team.WHITE: Team.WHITE}[self]


class Role(enum.Enum):
    COORDINATOR = "Coordinator"
    SNIPER = "Sniper"
    DEMOLITIONIST = "Demolitionist"
    BLOCKER = "Blocker"
    SABOTEUR = "Saboteur"
    MEDIATOR = "Mediator"


TEAM_ROLES = (Role.COORDINATOR, Role.SNIPER, Role.DEMOLITIONIST, Role.BLOCKER, Role.SABOTEUR)


class Variation(enum.Enum):
    THEME = 1
    BLOCKADE = 2
    CONNECTION = 3
    FOG = 4
    TRIPLES = 5

    @property
    def title(self) -> str:
        return {1: "Theme", 2: "Blockade", 3: "Disconnected Connection", 4: "Fog of War",
                5: "Three-in-a-Row"}[self.value]

    @property
    def text(self) -> str:
        return {
            1: "No variation.",
            2: "There is no Blocker. Each Red/Blue player may defend one space of the other team's "
               "colour: its value drops by 1 if above 0; defends stack.",
            3: "Game talk only in pair chats. The team with the strictly largest connected group of "
               "its colour adds four tiles (they count toward the +8 bonus); a tie gives no bonus.",
            4: "There is no Coordinator. The board is hidden except the centre four tiles (D4, E4, "
               "D5, E5); each Red/Blue player knows 10 tiles, White 12. Any tile may be submitted; a "
               "tile of the wrong colour is replaced by a random tile of the right colour. Nothing "
               "is revealed until the end of the game.",
            5: "Each team adds one tile for each three-in-a-row (horizontal, vertical or diagonal) "
               "of only its colour; the Mediator's at-most-7 check uses the counts before these.",
        }[self.value]


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
STANDARD_TRANSFORMS = ("mirror_lr", "mirror_tb", "rot90", "rot180", "rot270")


def allowed_transforms(options: Mapping[str, Any]) -> tuple[str, ...]:
    if options.get("diagonal_symmetry", False):
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
def _squares_of_colour(rows: tuple[str, ...], color: str) -> tuple[str, ...]:
    g = _parsed_grid(rows)
    return tuple(sq_name(s) for s in ALL_SQUARES if g[s] == color)


@functools.lru_cache(maxsize=64)
def _allowed_colour_text(rows: tuple[str, ...], color: str) -> str:
    return f"a {COLOR_NAME[color]} square of this round's grid: {' '.join(_squares_of_colour(rows, color))}"


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


# --------------------------------------------------------------------- options and tables

GRID_CELL = {"R": RED, "RED": RED, "B": BLUE, "BLUE": BLUE, "G": GRAY, "GRAY": GRAY, "GREY": GRAY,
             ".": GRAY, "-": GRAY}
ITEM_KINDS = ("note", "lock", "bonus", "value", "manual")

SPEC = GameSpec(
    id="flickering-lights",
    name="Flickering Lights",
    min_players=7, max_players=7, recommended_players=7, rounds=ROUNDS,
    summary="Hidden teams and roles each round; claim squares of an 8x8 grid for a team you only half know.",
    options=(
        Option("row_one", "top", "Where row 1 is drawn on boards: top (spreadsheet style) or bottom "
               "(chess style). Display only; A1 is always column A, row 1.", ("top", "bottom"), "A1",
               kind="display"),
        Option("distance", "manhattan", "How 'within X spaces' is measured: orthogonal steps (manhattan) "
               "or king moves (chebyshev).", ("manhattan", "chebyshev"), "A2"),
        Option("tie_keeps", "after_flip", "In an equal-X tie a square keeps its colour as it is after the "
               "Saboteurs' flips (after_flip) or as at round start (round_start).",
               ("after_flip", "round_start"), "A8"),
        Option("flip_spreads", True, "A flipped space with X >= 1 spreads its new colour (true) or its "
               "original colour (false, the flip changes only that square).", ruling="A10"),
        Option("white_defends", False, "Round 2: the White player may also defend one red or blue space.",
               ruling="A13"),
        Option("adjacency", "orthogonal", "Demolitionist spaces may not share an edge (orthogonal) or may "
               "not touch at all (eight).", ("orthogonal", "eight"), "A14"),
        Option("grid_red_count", 16, "Red squares (= blue squares) in a generated grid (1-32; at most 28 "
               "with a diagonal mirror).", ruling="A16", kind="content"),
        Option("grid_symmetry", "random", "The symmetry of generated grids: random (seeded among the "
               "allowed ones) or one of them.", ("random",) + tuple(TRANSFORMS), "A16", kind="content"),
        Option("diagonal_symmetry", False, "Also allow the two diagonal mirrors (not in the ruleset's "
               "list).", ruling="A17", kind="content"),
        Option("coordinator_list", "sorted", "Order of the Coordinator's list: sorted by name or a seeded "
               "shuffle; either way unlabelled.", ("sorted", "shuffled"), "A19"),
        Option("connectivity", 4, "Round 3 connected groups: 4 (edges) or 8 (edges and corners).",
               (4, 8), "A21"),
        Option("mediator_counts_connection_bonus", True, "Round 3: the Mediator's difference includes "
               "the +4 connection tiles.", ruling="A22"),
        Option("fog_overlap", False, "Round 4: the six Red/Blue players' ten known tiles may overlap "
               "(drawn independently) instead of splitting the 60 non-centre tiles.", ruling="A24"),
        Option("three_in_a_row", "windows", "Round 5: count every window of three in a line (a line of "
               "four counts 2) or each maximal run of three or more once.", ("windows", "runs"), "A26"),
        Option("mediator_winner_by", "final", "Round 5: the Mediator's 'winning team' is the one with the "
               "higher final total (final) or higher count before three-in-a-rows (raw).",
               ("final", "raw"), "A27"),
        Option("end_of_match", "total", "Winner and Elimination Candidate: highest / lowest five-round "
               "total with ties left to the host (total), or ties broken by rounds won (total_rounds_won).",
               ("total", "total_rounds_won"), "A30"),
        Option("invalid_entries", "drop_and_renumber", "A dropped space: later spaces move up so the "
               "first remaining one gets +2/+4 (drop_and_renumber), or each keeps its slot "
               "(drop_keep_slots).", ("drop_and_renumber", "drop_keep_slots"), "A33"),
        Option("publish_counts", False, "Also print red/blue/gray counts under the public grid.",
               ruling="A35", kind="display"),
        Option("reveal_roles_at_end", False, "At the end of the game publish every round's roles with "
               "the alignments.", ruling="A35", kind="display"),
        Option("reveal_play_at_end", False, "At the end of the game publish every round's space values, "
               "flips and everyone's submissions as applied (Round 4 replacements included).", ruling="A35",
               kind="display"),
        Option("white_missing_penalty", 0, "Points the White player loses in a round where they leave out "
               "(or give an unusable) red or blue space; never below 0 for the round (0: no penalty, as in "
               "the ruleset).", ruling="A32"),
        Option("round2_roles", "Coordinator,Sniper,Demolitionist,Saboteur", "Round 2 role pool (no "
               "Blocker): three are drawn.", ruling="A41"),
        Option("round4_roles", "Sniper,Demolitionist,Blocker,Saboteur", "Round 4 role pool (no "
               "Coordinator): three are drawn.", ruling="A41"),
        Option("garnets_per_points", 0, "At the end, 1 garnet per this many total points (0: none; the "
               "ruleset names no garnets).", ruling="A31"),
        Option("winner_garnets", 0, "Garnets paid to a sole winner at the end (0: none).", ruling="A31"),
        Option("ec_garnets", 0, "Garnets paid to (or, if negative, taken from, never below 0) a sole "
               "Elimination Candidate at the end.", ruling="A31"),
    ),
    tables=(
        TableSpec("Grids", "grids.csv", "Each round's 8x8 grid: one line per round and row (1-8), columns "
                  "A-H holding R, B or G (gray). Leave a round's 64 cells blank to generate it from the seed."),
        TableSpec("Items", "items.csv", "Round items: round, item (name), kind (note, lock, bonus, value, "
                  "manual), "
                  "squares (e.g. 'D4 E5'), amount, explanation. Each item's squares must be symmetric."),
        TableSpec("Assignments", "assignments.csv", "Optional fixed teams and roles: round, player, team "
                  "(Red, Blue, White), role. Leave a round out to draw it from the seed."),
    ),
)
DEFAULT_OPTIONS = SPEC.default_options()


def _header_index(rect: Sequence[Sequence[str]], names: Sequence[str]) -> dict[str, int]:
    if not rect:
        return {}
    head = [clean(h).casefold() for h in rect[0]]
    return {n: head.index(n.casefold()) for n in names if n.casefold() in head}


def _cell(row: Sequence[str], idx: int | None) -> str:
    if idx is None or idx >= len(row):
        return ""
    return clean(row[idx])


def read_grids(tables: Tables, allowed: Sequence[str] = STANDARD_TRANSFORMS) -> tuple[dict[int, Grid], list[str]]:
    """Host grids by round from the Grids table, each checked against the `allowed` symmetries
    (A17), and problems (sentences). Read once per distinct content (every round opening and every
    load reads it); the caller gets its own copies."""
    grids, probs = _read_grids_cached(table_key(tables.get("Grids") or []), tuple(allowed))
    return {rd: dict(g) for rd, g in grids.items()}, list(probs)


@functools.lru_cache(maxsize=8)
def _read_grids_cached(rect: tuple[tuple[str, ...], ...], allowed: tuple[str, ...]) -> tuple[dict[int, Grid], tuple[str, ...]]:
    grids, probs = _read_grids(rect, allowed)
    return grids, tuple(probs)


def _read_grids(rect: Sequence[Sequence[str]], allowed: Sequence[str]) -> tuple[dict[int, Grid], list[str]]:
    probs: list[str] = []
    if not rect:
        return {}, probs
    idx = _header_index(rect, ("round", "row") + tuple(COLS))
    missing = [n for n in ("round", "row") + tuple(COLS) if n not in idx]
    if missing:
        return {}, [f"Grids: the header row needs columns round, row, A-H; missing {', '.join(missing)}"]
    cells: dict[int, dict[int, list[str]]] = {}
    for i, row in enumerate(rect[1:], start=2):
        if not any(clean(v) for v in row):
            continue
        rd, rw = parse_int(_cell(row, idx["round"])), parse_int(_cell(row, idx["row"]))
        if rd is None or not 1 <= rd <= ROUNDS:
            probs.append(f"Grids line {i}: round {_cell(row, idx['round'])!r} is not 1-5")
            continue
        if rw is None or not 1 <= rw <= SIZE:
            probs.append(f"Grids line {i}: row {_cell(row, idx['row'])!r} is not 1-8")
            continue
        if rw in cells.setdefault(rd, {}):
            probs.append(f"Grids line {i}: round {rd} row {rw} is given twice; keep one line")
            continue
        cells[rd][rw] = [_cell(row, idx[c]).upper() for c in COLS]
    out: dict[int, Grid] = {}
    for rd in sorted(cells):
        rows = cells[rd]
        flat = [v for rw in rows for v in rows[rw]]
        if not any(flat):
            continue
        g: Grid = {}
        bad, blank = [], 0
        for r in range(SIZE):
            vals = rows.get(r + 1, [""] * SIZE)
            for c in range(SIZE):
                v = vals[c]
                if not v:
                    blank += 1
                elif v not in GRID_CELL:
                    bad.append(f"{COLS[c]}{r + 1}={v!r}")
                else:
                    g[(c, r)] = GRID_CELL[v]
        if bad:
            probs.append(f"Grids, round {rd}: {', '.join(bad[:5])} not allowed; write R, B or G (gray)")
            continue
        if blank:
            probs.append(f"Grids, round {rd}: {blank} of the 64 squares are blank; fill every square of "
                         "rows 1-8 with R, B or G, or clear the whole round to have it generated")
            continue
        p = grid_problem(g, allowed, f"Grids, round {rd}")
        if p:
            probs.append(p)
            continue
        out[rd] = g
    return out, probs


def read_items(tables: Tables) -> tuple[dict[int, list[dict]], list[str]]:
    """Items by round from the Items table (A18), and problems. Read once per distinct content
    (every round opening reads it); the caller gets its own copies."""
    items, probs = _read_items_cached(table_key(tables.get("Items") or []))
    return ({rd: [{**it, "squares": [list(sq) for sq in it["squares"]]} for it in lst] for rd, lst in items.items()},
            list(probs))


@functools.lru_cache(maxsize=8)
def _read_items_cached(rect: tuple[tuple[str, ...], ...]) -> tuple[dict[int, list[dict]], tuple[str, ...]]:
    items, probs = _read_items(rect)
    return items, tuple(probs)


def _read_items(rect: Sequence[Sequence[str]]) -> tuple[dict[int, list[dict]], list[str]]:
    probs: list[str] = []
    out: dict[int, list[dict]] = {}
    if not rect:
        return out, probs
    names = ("round", "item", "kind", "squares", "amount", "explanation")
    idx = _header_index(rect, names)
    if any(n not in idx for n in names[:4]):
        return out, ["Items: the header row needs columns round, item, kind, squares, amount, explanation"]
    for i, row in enumerate(rect[1:], start=2):
        if not any(clean(v) for v in row):
            continue
        rd = parse_int(_cell(row, idx["round"]))
        name = _cell(row, idx["item"])
        kind = _cell(row, idx["kind"]).lower()
        if rd is None or not 1 <= rd <= ROUNDS:
            probs.append(f"Items line {i}: round {_cell(row, idx['round'])!r} is not 1-5")
            continue
        if not name:
            probs.append(f"Items line {i}: the item has no name")
            continue
        if kind not in ITEM_KINDS:
            probs.append(f"Items line {i}: kind {kind!r} is not supported; use one of {', '.join(ITEM_KINDS)} "
                         "(describe any other effect as a note and apply it by hand)")
            continue
        sqs = []
        for t in split_list(_cell(row, idx["squares"])):
            s = parse_square(t)
            if s is None:
                probs.append(f"Items line {i}: square {t!r} is not A1-H8")
                break
            if s in sqs:
                probs.append(f"Items line {i}: square {t} is listed twice")
                break
            sqs.append(s)
        else:
            if kind != "note" and not sqs:
                probs.append(f"Items line {i}: a {kind} item needs at least one square")
                continue
            amount = 1
            text = _cell(row, idx.get("amount"))
            if text:
                a = parse_int(text)
                if a is None or a < 1:
                    probs.append(f"Items line {i}: amount {text!r} is not a whole number of 1 or more")
                    continue
                amount = a
            out.setdefault(rd, []).append({"name": name, "kind": kind, "squares": [list(s) for s in sqs],
                                           "amount": amount, "text": _cell(row, idx.get("explanation"))})
    return out, probs


def items_symmetric(items: Sequence[dict], name: str) -> bool:
    """Each item name's squares map onto themselves under the transform (A18)."""
    by: dict[str, set] = {}
    for it in items:
        by.setdefault(it["name"], set()).update(tuple(s) for s in it["squares"])
    return all({apply_t(name, s) for s in sqs} == sqs for sqs in by.values())


def read_assignments(tables: Tables) -> tuple[dict[int, dict[str, tuple[str, str]]], list[str]]:
    """Host-fixed teams and roles by round (A20), checked for shape, and problems. Read once per
    distinct content (every round opening reads it); the caller gets its own copies."""
    fixed, probs = _read_assignments_cached(table_key(tables.get("Assignments") or []))
    return {rd: dict(a) for rd, a in fixed.items()}, list(probs)


@functools.lru_cache(maxsize=8)
def _read_assignments_cached(rect: tuple[tuple[str, ...], ...]
                             ) -> tuple[dict[int, dict[str, tuple[str, str]]], tuple[str, ...]]:
    fixed, probs = _read_assignments(rect)
    return fixed, tuple(probs)


def _read_assignments(rect: Sequence[Sequence[str]]) -> tuple[dict[int, dict[str, tuple[str, str]]], list[str]]:
    probs: list[str] = []
    out: dict[int, dict[str, tuple[str, str]]] = {}
    if not rect:
        return out, probs
    idx = _header_index(rect, ("round", "player", "team", "role"))
    if len(idx) < 4:
        return out, ["Assignments: the header row needs columns round, player, team, role"]
    for i, row in enumerate(rect[1:], start=2):
        if not any(clean(v) for v in row):
            continue
        rd = parse_int(_cell(row, idx["round"]))
        p, team, role = _cell(row, idx["player"]), _cell(row, idx["team"]).title(), _cell(row, idx["role"]).title()
        if rd is None or not 1 <= rd <= ROUNDS:
            probs.append(f"Assignments line {i}: round {_cell(row, idx['round'])!r} is not 1-5")
            continue
        if team not in ("Red", "Blue", "White"):
            probs.append(f"Assignments line {i}: team {team!r} is not Red, Blue or White")
            continue
        if team == "White":
            role = "Mediator"
        if role not in [r.value for r in Role]:
            probs.append(f"Assignments line {i}: role {role!r} is not one of "
                         + ", ".join(r.value for r in TEAM_ROLES))
            continue
        if p in out.setdefault(rd, {}):
            probs.append(f"Assignments line {i}: {p} is given twice for round {rd}")
            continue
        out[rd][p] = (team, role)
    for rd, a in sorted(out.items()):
        problem = assignment_problem(rd, a)
        if problem:
            probs.append(f"Assignments, round {rd}: {problem}")
    return out, probs


def assignment_problem(rd: int, a: Mapping[str, tuple[str, str]]) -> str | None:
    """Why a round's (team, role) by player cannot happen (R2, R4, R39, R47), or None."""
    teams = [t for t, _ in a.values()]
    red = sorted(r for t, r in a.values() if t == "Red")
    blue = sorted(r for t, r in a.values() if t == "Blue")
    if (len(a), teams.count("Red"), teams.count("Blue"), teams.count("White")) != (7, 3, 3, 1):
        return "give all 7 players, 3 Red, 3 Blue and 1 White (R2)"
    if red != blue or len(set(red)) != 3 or "Mediator" in red:
        return (f"both teams need the same three different roles (R4); Red has {', '.join(red)}, "
                f"Blue has {', '.join(blue)}")
    if rd == 2 and "Blocker" in red or rd == 4 and "Coordinator" in red:
        return f"{'Blocker' if rd == 2 else 'Coordinator'} is not in play this round (R39, R47)"
    return None


def role_pool(round_no: int, options: Mapping[str, Any]) -> list[Role]:
    """The roles a round draws its three from (A41)."""
    if round_no == 2:
        text = options.get("round2_roles", DEFAULT_OPTIONS["round2_roles"])
    elif round_no == 4:
        text = options.get("round4_roles", DEFAULT_OPTIONS["round4_roles"])
    else:
        return list(TEAM_ROLES)
    names = [clean(t).title() for t in split_list(text, (",", ";"))]
    pool = [r for r in TEAM_ROLES if r.value in names]
    unknown = [n for n in names if n not in [r.value for r in TEAM_ROLES]]
    banned = Role.BLOCKER if round_no == 2 else Role.COORDINATOR
    if unknown or len(pool) < 3 or banned in pool:
        raise ConfigError(f"option round{round_no}_roles: {text!r} must name at least three of "
                          + ", ".join(r.value for r in TEAM_ROLES if r is not banned)
                          + f", without {banned.value} (R39, R47)")
    return pool


# --------------------------------------------------------------------- the rules as functions

def distance(a: Square, b: Square, metric: str) -> int:
    dc, dr = abs(a[0] - b[0]), abs(a[1] - b[1])
    return max(dc, dr) if metric == "chebyshev" else dc + dr


def adjacent(a: Square, b: Square, mode: str) -> bool:
    dc, dr = abs(a[0] - b[0]), abs(a[1] - b[1])
    return (max(dc, dr) == 1) if mode == "eight" else (dc + dr == 1)


def recolor(colors: Grid, values: Mapping[Square, int], options: Mapping[str, Any],
            spread: Grid | None = None, tie: Grid | None = None) -> Grid:
    """R17-R20, A3, A4, A7-A9: every space with X >= 1 whose colour (in `spread`, by default
    `colors`, the grid after flips) is red or blue reaches the squares within X; per colour
    the lowest X counts and the lower wins; an equal lowest X keeps the colour in `tie`
    (default `colors`, A8). Squares nobody reaches keep their `colors` colour. No chaining."""
    metric = options.get("distance", "manhattan")
    spread = colors if spread is None else spread
    tie = colors if tie is None else tie
    sources = [(s, x, spread[s]) for s, x in sorted(values.items()) if x >= 1 and spread[s] in (RED, BLUE)]
    out: Grid = {}
    chebyshev = metric == "chebyshev"
    for sq in ALL_SQUARES:
        best: dict[str, int] = {}
        c, r = sq
        for (sc, sr), x, col in sources:   # distance(), inlined: 64 squares times every source
            dc, dr = abs(sc - c), abs(sr - r)
            if ((dc if dc > dr else dr) if chebyshev else dc + dr) <= x:
                best[col] = min(best.get(col, x), x)
        if len(best) == 1:
            out[sq] = next(iter(best))
        elif len(best) == 2 and best[RED] != best[BLUE]:
            out[sq] = RED if best[RED] < best[BLUE] else BLUE
        elif len(best) == 2:
            out[sq] = tie[sq]
        else:
            out[sq] = colors[sq]
    return out


def largest_group(g: Grid, color: str, connectivity: int) -> int:
    """Size of the largest connected group of `color` (A21)."""
    steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    if connectivity == 8:
        steps += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    seen: set = set()
    best = 0
    for s in ALL_SQUARES:
        if g[s] != color or s in seen:
            continue
        stack, size = [s], 0
        seen.add(s)
        while stack:
            c, r = stack.pop()
            size += 1
            for dc, dr in steps:
                t = (c + dc, r + dr)
                if t in g and t not in seen and g[t] == color:
                    seen.add(t)
                    stack.append(t)
        best = max(best, size)
    return best


def three_in_a_rows(g: Grid, color: str, mode: str) -> int:
    """Lines of three of only `color` (R53, A26): every window, or each maximal run of 3+ once."""
    count = 0
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        for s in ALL_SQUARES:
            prev = (s[0] - dc, s[1] - dr)
            if prev in g and g[prev] == color:
                continue  # not the start of a run
            run, t = 0, s
            while t in g and g[t] == color:
                run += 1
                t = (t[0] + dc, t[1] + dr)
            if run >= 3:
                count += (run - 2) if mode == "windows" else 1
    return count


def score_round(variation: Variation, final: Grid, options: Mapping[str, Any],
                bonus_items: Sequence[dict] = (), host_tiles: Mapping[str, int] | None = None) -> dict[str, Any]:
    """Tiles, bonuses and points of one round (R33-R36, R44-R46, R53-R55, A21, A22, A26-A29).

    `host_tiles` are the tiles the host's rulings on manual items add per colour (A18); like bonus
    items they count for the +8 and the Mediator's difference. A side's total is never below 0."""
    tiles = {c: sum(1 for s in ALL_SQUARES if final[s] == c) for c in (RED, BLUE)}
    items = {RED: 0, BLUE: 0}
    for it in bonus_items:
        for s in it["squares"]:
            col = final[tuple(s)]
            if col in items:
                items[col] += it["amount"]
    host = {RED: 0, BLUE: 0}
    host.update(host_tiles or {})
    conn = {RED: 0, BLUE: 0}
    groups = {RED: 0, BLUE: 0}
    if variation is Variation.CONNECTION:
        groups = {c: largest_group(final, c, int(options.get("connectivity", 4))) for c in (RED, BLUE)}
        if groups[RED] != groups[BLUE]:
            conn[RED if groups[RED] > groups[BLUE] else BLUE] = 4
    triples = {RED: 0, BLUE: 0}
    if variation is Variation.TRIPLES:
        triples = {c: three_in_a_rows(final, c, options.get("three_in_a_row", "windows")) for c in (RED, BLUE)}
    total = {c: max(0, tiles[c] + items[c] + host[c] + conn[c] + triples[c]) for c in (RED, BLUE)}
    points = {c: total[c] + (8 if total[c] > total[other(c)] else 0) for c in (RED, BLUE)}
    counts_conn = options.get("mediator_counts_connection_bonus", True)
    base = {c: max(0, tiles[c] + items[c] + host[c] + (conn[c] if counts_conn else 0)) for c in (RED, BLUE)}
    diff = abs(base[RED] - base[BLUE])
    by = total
    if variation is Variation.TRIPLES and options.get("mediator_winner_by", "final") == "raw" \
            and base[RED] != base[BLUE]:
        by = base
    if by[RED] == by[BLUE]:
        winner = None
        white = points[RED] if points[RED] == points[BLUE] else min(points.values())
    else:
        winner = RED if by[RED] > by[BLUE] else BLUE
        white = points[winner] if diff <= 7 else points[other(winner)]
    return {"tiles": tiles, "items": items, "host": host, "groups": groups, "conn": conn, "triples": triples,
            "total": total, "points": points, "base": base, "diff": diff, "winner": winner,
            "white": white}


def other(color: str) -> str:
    return BLUE if color == RED else RED


# --------------------------------------------------------------------- round results as data
# Every report and picture is drawn from these facts (render, picture). `round` is the round a fact
# is about: the last round re-states Round 4's hidden facts for the end-of-game reveal (R52, A35).
# Colours are "red", "blue" and "gray"; a grid is 8 strings of R, B and "." (gray), row 1 first.

@fact
@dataclass(frozen=True)
class SpaceRaise:
    """A space a player raised, and by how much: +4 (a Sniper's first), +2 (a first space), +1."""
    square: str
    amount: int


@fact
@dataclass(frozen=True)
class FogReplacement:
    """Round 4: an entry of the wrong colour and the square drawn in its slot (A23); `placed` is ""
    when no square qualified and the entry was dropped."""
    field: str      # spaces, block, flip, red_space or blue_space
    typed: str
    placed: str
    needed: str     # the colour the field needs: red or blue


@fact
@dataclass(frozen=True)
class SeenTile:
    """A square and its colour as someone saw it (Round 4 knowledge)."""
    square: str
    colour: str


@fact
@dataclass(frozen=True)
class TeamRole(Fact):
    """A player's team (Red, Blue, White) and role this round (R3, R5): theirs alone until the end."""
    round: int
    player: str
    team: str
    role: str


@fact
@dataclass(frozen=True)
class CoordinatorList(Fact):
    """The unlabelled names a Coordinator learnt when the round opened (R23, R29, A19)."""
    round: int
    player: str
    names: tuple[str, ...]


@fact
@dataclass(frozen=True)
class RolesInPlay(Fact):
    """The three roles both teams hold this round, told to the Mediator (R32)."""
    round: int
    roles: tuple[str, ...]


@fact
@dataclass(frozen=True)
class BoardItem(Fact):
    """An item announced with the round (A18): kind note, lock, bonus, value or manual."""
    round: int
    name: str
    kind: str
    squares: tuple[str, ...]
    amount: int
    text: str


@fact
@dataclass(frozen=True)
class FogCentre(Fact):
    """Round 4: the centre four, the only tiles everyone sees (R48)."""
    round: int
    tiles: tuple[SeenTile, ...]


@fact
@dataclass(frozen=True)
class FogTiles(Fact):
    """Round 4: the tiles a player learnt at the start, 10 for Red/Blue and 12 for White (R49, R50, A24)."""
    round: int
    player: str
    tiles: tuple[SeenTile, ...]


@fact
@dataclass(frozen=True)
class NoSpacesSubmitted(Fact):
    """The player submitted nothing: no spaces and no abilities (A32, case 12)."""
    round: int
    player: str


@fact
@dataclass(frozen=True)
class SpacesProblem(Fact):
    """Something wrong with a player's submission and the default applied (A33, A37)."""
    round: int
    player: str
    problem: Problem


@fact
@dataclass(frozen=True)
class FogReceived(Fact):
    """Round 4: the squares a player typed, all the round itself tells them (A23)."""
    round: int
    player: str
    squares: tuple[str, ...]


@fact
@dataclass(frozen=True)
class SpacesApplied(Fact):
    """A player's submission as the rules applied it: raised spaces in order (White: red, then blue),
    blocks, defends, the flip, and in Round 4 the replacements (A23, A33)."""
    round: int
    player: str
    submitted: bool
    spaces: tuple[SpaceRaise, ...] = ()
    blocks: tuple[str, ...] = ()
    defends: tuple[str, ...] = ()
    flip: str = ""
    replacements: tuple[FogReplacement, ...] = ()


@fact
@dataclass(frozen=True)
class MediatorPenalty(Fact):
    """The A32 penalty hook (option white_missing_penalty): points the White player lost for a field
    left out or unusable."""
    round: int
    player: str
    missing: tuple[str, ...]   # red_space and/or blue_space
    points: int


@fact
@dataclass(frozen=True)
class SpaceValue(Fact):
    """A space's value: `raised` (every increase, value items included), `reduced` (blocks and defends)
    and `value`, the X that recolours: max(0, raised - reduced) (R16, R28, R41, R42, A5, A6)."""
    round: int
    square: str
    raised: int
    reduced: int
    value: int


@fact
@dataclass(frozen=True)
class SaboteurFlip(Fact):
    """A Saboteur's flip (R30, R31): the colour before and after; a locked square keeps it (A18)."""
    round: int
    player: str
    square: str
    before: str
    after: str


@fact
@dataclass(frozen=True)
class BoardGrid(Fact):
    """The board at a stage of the round: "start", "after_flips" (before recolouring) or "final"."""
    round: int
    stage: str
    rows: tuple[str, ...]


@fact
@dataclass(frozen=True)
class ManualItemRuling(Fact):
    """An item the module cannot apply (A18, kind manual), as the host ruled it: the colour its squares
    end the round with ("" as resolved) and the tiles it adds per team. Until every ruling is entered,
    `pending` names the missing decisions and the defaults (as resolved, 0, 0) apply."""
    round: int
    name: str
    squares: tuple[str, ...]
    colour: str
    red_tiles: int
    blue_tiles: int
    pending: tuple[str, ...] = ()


@fact
@dataclass(frozen=True)
class ColourCounts(Fact):
    """Squares of each colour on the resulting grid (A35: anyone can count them on the public grid)."""
    round: int
    red: int
    blue: int
    gray: int


@fact
@dataclass(frozen=True)
class SideScore(Fact):
    """A side's score (R33, R34, R44-R46, R53, R54, A18, A21, A29): its tiles, the bonus tiles, the total
    compared for the +8 and the points each of its players scores."""
    round: int
    colour: str
    tiles: int
    item_tiles: int = 0         # bonus items (A18)
    host_tiles: int = 0         # manual items, as the host ruled
    largest_group: int = 0      # Round 3 (A21)
    connection_tiles: int = 0   # Round 3: +4 for the strictly largest group (R44-R46)
    lines: int = 0              # Round 5: three-in-a-rows (R53, A26)
    total: int = 0
    more: bool = False          # strictly more than the other side: +8 (R34, A29)
    points: int = 0


@fact
@dataclass(frozen=True)
class MediatorCheck(Fact):
    """The White player's points (R35, R36, A22, A27, A28): the tile difference, the winning colour
    ("" when the totals tie) and the points it gives, before any penalty."""
    round: int
    player: str
    difference: int
    winner: str
    points: int


@fact
@dataclass(frozen=True)
class PlayerPoints(Fact):
    """A player's points this round and their total so far, this round included (A36). Round 4's are
    the host's until the end of the game, when each player learns theirs (R52)."""
    round: int
    player: str
    points: int
    total: int


@fact
@dataclass(frozen=True)
class TeamsRevealed(Fact):
    """A player's team in every round, published at the end (R22); roles only with reveal_roles_at_end."""
    player: str
    teams: tuple[str, ...]
    roles: tuple[str, ...] = ()


@fact
@dataclass(frozen=True)
class FinalTotal(Fact):
    """The end of the match (A30): a player's five-round total and the rounds their side won."""
    player: str
    total: int
    rounds_won: int


# Facts a Round 4 player may not see until the end of the game (R52, A23, A35): re-stated then.
FOG_HIDDEN = (BoardGrid, ColourCounts, SideScore, MediatorCheck, MediatorPenalty, SpacesApplied,
              SpacesProblem, PlayerPoints, ManualItemRuling, SpaceValue, SaboteurFlip)
# The play nobody sees (section (c)); published at the end with the option reveal_play_at_end (A35).
PLAY = (SpaceValue, SaboteurFlip, SpacesApplied)


def _round_copy(state: State) -> State:
    """The state a round resolves into. Only what a round writes in place is copied (a JSON round trip
    of the whole state cost more): the totals and the lists it appends to. The open round ("current")
    and the log are replaced, never written in place; options and players are only read."""
    st = dict(state)
    st["totals"] = dict(state["totals"])
    st["history"] = list(state["history"])
    st["used_grids"] = list(state["used_grids"])
    return st


def _is_play(f: Any) -> bool:
    return isinstance(f, PLAY) or (isinstance(f, BoardGrid) and f.stage == "after_flips")


def _rows(g: Grid) -> tuple[str, ...]:
    return tuple(grid_rows(g))


def _colour_word(letter: str) -> str:
    return COLOR_NAME[letter]


def _letter(word: str) -> str:
    return {"red": RED, "blue": BLUE, "gray": GRAY}[word]


# Decisions (A18 manual items, A30 ties)
AS_RESOLVED = "as resolved"
SHARED = "shared"
WINNER_TIE, EC_TIE = "winner-tie", "ec-tie"


def item_keys(rd: int, name: str) -> tuple[str, str, str]:
    """The decision keys of a manual item: its squares' colour, Red's tiles, Blue's tiles."""
    return (f"r{rd}:item:{name}:squares", f"r{rd}:item:{name}:red-tiles", f"r{rd}:item:{name}:blue-tiles")


# --------------------------------------------------------------------- the game

SECTIONS = ("spaces", "block", "flip", "defend", "mediator")


class FlickeringLights(GameRules):
    spec = SPEC

    # ---- standings, read from the facts (core/standings.py) -----------------
    score_unit = "points"
    tie_rule = "a tie for the highest or the lowest total is left to the host (`sheetbridge decide`)"

    def round_scores(self, facts):
        return ([RoundScore(f.player, f.points, f.total, round=f.round) for f in of_type(facts, PlayerPoints)]
                + [RoundScore(f.player, None, f.total) for f in of_type(facts, FinalTotal)])

    # ---- setup and the opening of a round ---------------------------------
    def check_tables(self, tables: Tables) -> list[str]:
        """The content tables checked with the default options (diagonal mirrors rejected, A17)."""
        return self.check_content(tables, DEFAULT_OPTIONS)

    def check_content(self, tables: Tables, options: Mapping[str, Any]) -> list[str]:
        """Every round's grid against the symmetries the options allow (A16, A17), the items against
        the grid's symmetry (A18) and the assignments (A20): at `new`, at every load, at every edit."""
        allowed = allowed_transforms(options)
        grids, probs = read_grids(tables, allowed)
        items, p2 = read_items(tables)
        _, p3 = read_assignments(tables)
        probs += p2 + p3
        ways = ", ".join(TRANSFORM_TEXT[n] for n in allowed)
        for rd, its in sorted(items.items()):
            if rd in grids:
                ok = [n for n in symmetries(grids[rd], allowed) if items_symmetric(its, n)]
                if not ok:
                    probs.append(f"Items, round {rd}: the items are not symmetric under the transform that "
                                 "maps the round's red squares onto its blue squares (A18); place each "
                                 "item's squares on mirror or rotation images of each other")
            elif not any(items_symmetric(its, n) for n in allowed):
                probs.append(f"Items, round {rd}: the items are not symmetric under {ways} (A18); place "
                             "each item's squares on images of each other")
        return probs

    def setup(self, players: Sequence[str], options: Mapping[str, Any], tables: Tables, rng: Rng) -> State:
        st = self._blank_state(players, options)
        fixed, _ = read_assignments(tables)
        for rd, a in sorted(fixed.items()):
            if sorted(a) != sorted(players):
                raise ConfigError(f"Assignments, round {rd}: the players named ({', '.join(sorted(a))}) are not "
                                  f"this game's players ({', '.join(sorted(players))})")
        st["log"] = self._open_round(st, 1, tables, rng.fork("open", 1))
        return st

    def _blank_state(self, players: Sequence[str], options: Mapping[str, Any]) -> State:
        opts = dict(DEFAULT_OPTIONS)
        opts.update(options)
        for rd in (2, 4):
            role_pool(rd, opts)  # raises ConfigError on a bad pool
        return {"round": 1, "finished": False, "players": list(players), "options": opts,
                "totals": {p: 0 for p in players}, "history": [], "used_grids": [], "log": []}

    def _open_round(self, st: State, rd: int, tables: Tables, rng: Rng, grid: Grid | None = None,
                    assign: dict[str, dict[str, str]] | None = None) -> list[str]:
        """Draw teams and roles, pick the grid, brief the Coordinators and (round 4) the fog tiles.
        `grid` and `assign` come from a position; otherwise the tables, else the seed. A host grid or
        assignment that does not fit is a ConfigError, never silently replaced (the tables are
        checked at every load, so this only guards against a bypass)."""
        opts = st["options"]
        players = list(st["players"])
        log: list[str] = []
        # Items (A18)
        items_by, iprobs = read_items(tables)
        if iprobs:
            raise ConfigError("; ".join(iprobs))
        items = items_by.get(rd, [])
        # Grid (A16, A17)
        allowed = allowed_transforms(opts)
        if grid is None:
            host, gprobs = read_grids(tables, allowed)
            if gprobs:
                raise ConfigError("; ".join(gprobs))
            grid = host.get(rd)
            source = "entered by the host"
        else:
            source = "given by the position"
        transform = ""
        if grid is not None:
            ok = [n for n in symmetries(grid, allowed) if items_symmetric(items, n)]
            if not ok:
                raise ConfigError(grid_problem(grid, allowed, f"Grids, round {rd}")
                                  or f"Items, round {rd}: the items are not symmetric under the grid's symmetry (A18)")
            transform = ok[0]
            log.append(f"Round {rd} grid: {source} (symmetric under {TRANSFORM_TEXT[transform]})")
            if grid_rows(grid) in st["used_grids"]:
                log.append(f"Warning: the round {rd} grid is the same as an earlier round's (R7 wants a "
                           "different grid each round)")
        else:
            cands = [n for n in allowed if items_symmetric(items, n)]
            if not cands:
                raise ConfigError(f"Items, round {rd}: the items are not symmetric under any allowed mirror or "
                                  "rotation (A18); place each item's squares on images of each other")
            want = opts.get("grid_symmetry", "random")
            grng = rng.fork("grid")
            transform = want if want in cands else grng.choice(cands)
            count = int(opts.get("grid_red_count", 16))
            if not 1 <= count <= capacity(transform):
                log.append(f"grid_red_count {count} is outside 1-{capacity(transform)} for "
                           f"{TRANSFORM_TEXT[transform]}; clamped")
            count = max(1, min(count, capacity(transform)))
            for _ in range(50):
                grid = generate_grid(grng, transform, count)
                if grid_rows(grid) not in st["used_grids"]:
                    break
            log.append(f"Round {rd} grid: generated from the seed, {count} red and {count} blue squares, "
                       f"symmetric under {TRANSFORM_TEXT[transform]}")
        assert grid is not None
        st["used_grids"].append(grid_rows(grid))
        # Teams and roles (R2, R4, R6, A20, A41)
        roles: list[str] = []
        if assign is None:
            fixed, aprobs = read_assignments(tables)
            if aprobs:
                raise ConfigError("; ".join(aprobs))
            chosen = fixed.get(rd)
            if chosen is not None:
                if sorted(chosen) != sorted(players):
                    raise ConfigError(f"Assignments, round {rd}: the players named ({', '.join(sorted(chosen))}) "
                                      f"are not this game's players ({', '.join(sorted(players))})")
                assign = {p: {"team": t, "role": r} for p, (t, r) in chosen.items()}
                log.append(f"Round {rd} teams and roles: entered by the host")
        else:
            log.append(f"Round {rd} teams and roles: given by the position")
        if assign is not None:
            roles = [r.value for r in TEAM_ROLES if any(a["role"] == r.value for a in assign.values())]
        else:
            assign = {}
            trng = rng.fork("teams")
            order = trng.shuffled(sorted(players))
            pool = role_pool(rd, opts)
            drawn = sorted(trng.sample(pool, 3), key=TEAM_ROLES.index)
            roles = [r.value for r in drawn]
            for team, members in ((Team.RED, order[0:3]), (Team.BLUE, order[3:6])):
                for p, role in zip(members, trng.shuffled(roles)):
                    assign[p] = {"team": team.value, "role": role}
            assign[order[6]] = {"team": Team.WHITE.value, "role": Role.MEDIATOR.value}
            log.append(f"Round {rd} teams drawn: Red {', '.join(sorted(order[0:3]))}; Blue "
                       f"{', '.join(sorted(order[3:6]))}; White {order[6]}; roles in play {', '.join(roles)}")
        for p in sorted(assign):
            log.append(f"  {p}: {assign[p]['team']} {assign[p]['role']}")
        # Coordinator lists (R23, R29, A19)
        lists: dict[str, list[str]] = {}
        crng = rng.fork("lists")
        for p in sorted(assign):
            if assign[p]["role"] != Role.COORDINATOR.value:
                continue
            team = assign[p]["team"]
            names = [q for q in assign if q != p and assign[q]["team"] == team]
            names += [q for q in assign if assign[q]["team"] not in (team, "White")
                      and assign[q]["role"] == Role.SABOTEUR.value]
            names = sorted(names)
            if opts.get("coordinator_list") == "shuffled":
                names = crng.shuffled(names)
            lists[p] = names
        # Fog of war tiles (R48-R50, A24)
        fog: dict[str, list[str]] = {}
        if rd == Variation.FOG.value:
            frng = rng.fork("fog")
            outer = [s for s in ALL_SQUARES if s not in CENTER]
            rb = sorted(p for p in assign if assign[p]["team"] != "White")
            white = [p for p in assign if assign[p]["team"] == "White"][0]
            sets: dict[str, list[Square]] = {}
            if opts.get("fog_overlap"):
                for p in rb:
                    sets[p] = frng.sample(outer, 10)
            else:
                shuffled = frng.shuffled(outer)
                for i, p in enumerate(rb):
                    sets[p] = shuffled[10 * i:10 * i + 10]
            wset: list[Square] = []
            for p in rb:
                wset += frng.sample([s for s in sets[p] if s not in wset], 2)
            sets[white] = wset
            for p in sorted(sets):
                fog[p] = sorted(sq_name(s) for s in sets[p])
                log.append(f"  fog tiles of {p}: {' '.join(fog[p])}")
        st["current"] = {"grid": grid_rows(grid), "transform": transform, "assign": assign, "roles": roles,
                         "lists": lists, "fog": fog, "items": items}
        return log

    # ---- forms --------------------------------------------------------------
    def _me(self, state: State, player: str) -> tuple[Team, Role]:
        a = state["current"]["assign"][player]
        return Team(a["team"]), Role(a["role"])

    def _squares_of(self, state: State, color: str | None) -> tuple[str, ...]:
        """Choices for a field: squares of `color` on the round-start grid (A34); all 64 in round 4."""
        if state["round"] == Variation.FOG.value or color is None:
            return ALL_SQUARE_NAMES
        return _squares_of_colour(tuple(state["current"]["grid"]), color)

    def _sections(self, state: State, player: str) -> dict[str, dict]:
        """The lists this player may submit: name -> {cap, color, label}."""
        team, role = self._me(state, player)
        rd = state["round"]
        out: dict[str, dict] = {}
        if team is Team.WHITE:
            out["mediator"] = {"cap": 1, "color": None, "label": "your red and blue space"}
            if rd == 2 and state["options"].get("white_defends"):
                out["defend"] = {"cap": 1, "color": "any", "label": "a red or blue space to defend"}
            return out
        mine, theirs = team.color, team.other.color
        cap = 4 if role is Role.DEMOLITIONIST else 2
        out["spaces"] = {"cap": cap, "color": mine, "label": f"your {COLOR_NAME[mine]} spaces"}
        if role is Role.BLOCKER and rd != 2:
            out["block"] = {"cap": 2, "color": theirs, "label": f"{COLOR_NAME[theirs]} spaces to block"}
        if role is Role.SABOTEUR:
            out["flip"] = {"cap": 1, "color": theirs, "label": f"a {COLOR_NAME[theirs]} space to flip"}
        if rd == 2:
            out["defend"] = {"cap": 1, "color": theirs, "label": f"a {COLOR_NAME[theirs]} space to defend"}
        return out

    def form(self, state: State, player: str) -> Form:
        rd = state["round"]
        var = Variation(rd)
        team, role = self._me(state, player)
        fog = var is Variation.FOG
        secs = []
        help_lines = [f"Round {rd}: {var.title}. {var.text}",
                      f"You are {team.value}, {role.value}. Write squares as A1-H8 (column letter, row number)."]
        for name, info in self._sections(state, player).items():
            if name == "mediator":
                fields = (
                    Field("red_space", "Red space (+1)", FieldKind.CHOICE, self._squares_of(state, RED),
                          help="exactly one red space"),
                    Field("blue_space", "Blue space (+1)", FieldKind.CHOICE, self._squares_of(state, BLUE),
                          help="exactly one blue space"))
                secs.append(Section("mediator", "Mediator: one red and one blue space", fields,
                                    help="You must submit one red and one blue space; each gets +1."))  # R13, R15
                continue
            color = info["color"]
            choices = self._squares_of(state, None if color == "any" else color)
            if color == "any" and not fog:
                g = parse_grid(state["current"]["grid"])
                choices = tuple(sq_name(s) for s in ALL_SQUARES if g[s] != GRAY)
            if name == "spaces":
                first = 4 if role is Role.SNIPER else 2
                labels = tuple([f"1st (+{first})"] + [f"{n} (+1)" for n in ("2nd", "3rd", "4th")][:info["cap"] - 1])
                extra = " None may share an edge." if role is Role.DEMOLITIONIST else ""
                secs.append(Section("spaces", f"Your spaces ({info['label']})",
                                    (Field("space", "Space", FieldKind.CHOICE, choices, required=False),),
                                    rows=info["cap"], row_labels=labels,
                                    help=f"Up to {info['cap']} distinct {info['label'].split()[1]} spaces, in order."
                                    + extra))
            else:
                title = {"block": "Block (-1 each)", "flip": "Flip (Saboteur)",
                         "defend": "Defend (-1, stacks)"}[name]
                secs.append(Section(name, title, (Field("space", "Space", FieldKind.CHOICE, choices,
                                                        required=False),),
                                    rows=info["cap"], help=f"Up to {info['cap']}: {info['label']}."))
        if fog:
            help_lines.append("Fog of War: any square may be chosen; one of the wrong colour is replaced by "
                              "a random square of the right colour.")
        return Form(round=rd, round_label=f"Round {rd}: {var.title}", sections=tuple(secs),
                    help=tuple(help_lines))

    # ---- parsing --------------------------------------------------------------
    def parse(self, state: State, player: str, raw: RawSubmission) -> Submission:
        rd = state["round"]
        fog = rd == Variation.FOG.value
        team, role = self._me(state, player)
        g = parse_grid(state["current"]["grid"])
        opts = state["options"]
        allowed_secs = self._sections(state, player)
        problems: list[Problem] = []
        values: dict[str, Any] = {}

        def prob(kind: ProblemKind, fld: str, value: str, allowed: str, reason: str, default: str) -> None:
            problems.append(Problem(kind, player, fld, value, allowed, reason, default))

        for sec in sorted(raw):
            if sec in allowed_secs:
                continue
            texts = [clean(v) for row in raw[sec] for v in row.values() if clean(v)]
            if texts:
                why = {"block": "only the Blocker may block, and there is no Blocker in round 2",
                       "flip": "only the Saboteur may flip", "defend": "defends exist only in round 2",
                       "mediator": "only the White player submits a red and a blue space",
                       "spaces": "the White player submits red_space and blue_space instead"}.get(
                           sec, "this is not part of the form")
                prob(ProblemKind.ILLEGAL, sec, ", ".join(texts), "nothing", why, "ignored")  # A37
        for sec, info in allowed_secs.items():
            rows = list(raw.get(sec, []))
            if sec == "mediator":
                row = rows[0] if rows else {}
                for fld, color in (("red_space", RED), ("blue_space", BLUE)):
                    text = clean(row.get(fld, ""))
                    allowed = self._allowed_text(state, color)
                    if not text:
                        prob(ProblemKind.MISSING, fld, "", allowed, "the White player must submit one red "
                             "and one blue space", "no +1 from this field")  # R13, A32
                        continue
                    s = None if is_formula(text) else parse_square(text)
                    if s is None:
                        prob(ProblemKind.SYNTAX, fld, text, allowed, "not a square A1-H8",
                             "no +1 from this field")
                    elif not fog and g[s] != color:
                        prob(ProblemKind.ILLEGAL, fld, text, allowed, f"{sq_name(s)} is {COLOR_NAME[g[s]]}, not "
                             f"{COLOR_NAME[color]}", "no +1 from this field")
                    else:
                        values[fld] = sq_name(s)
                continue
            color = info["color"]
            need = None if fog else (color if color != "any" else "any")
            adj = opts.get("adjacency", "orthogonal") if (sec == "spaces" and role is Role.DEMOLITIONIST) else None
            values[sec] = self._read_list(player, sec, rows, info["cap"], need, g, adj,
                                          self._allowed_text(state, None if color == "any" else color), prob)
        return Submission(player=player, values=values, problems=tuple(problems), raw=raw)

    def _allowed_text(self, state: State, color: str | None) -> str:
        if state["round"] == Variation.FOG.value:
            return "any square A1-H8 (Fog of War: a wrong colour is replaced at random)"
        if color is None:
            return "a red or blue square"
        return _allowed_colour_text(tuple(state["current"]["grid"]), color)

    def _read_list(self, player: str, sec: str, rows: Sequence[Mapping[str, str]], cap: int, need: str | None,
                   g: Grid, adj: str | None, allowed: str, prob: Callable) -> list:
        """A33: drop unreadable, then repeats, keep the first `cap`, drop wrong colours, then
        Demolitionist spaces adjacent to an earlier kept one. Dropped entries stay as None
        (their slot), so resolve can renumber or keep slots."""
        first = "the rest move up" if sec == "spaces" else "not used"
        read: list[tuple[str, str, Square]] = []
        for i, row in enumerate(rows, start=1):
            text = clean(row.get("space", "")) if isinstance(row, Mapping) else ""
            if not text:
                continue
            fld = f"{sec} row {i}"
            s = None if is_formula(text) else parse_square(text)
            if s is None:
                prob(ProblemKind.SYNTAX, fld, text, allowed, "not a square A1-H8", f"dropped; {first}")
                continue
            if any(s == t for _, _, t in read):
                prob(ProblemKind.ILLEGAL, fld, text, allowed, f"{sq_name(s)} is already in this list",
                     "the repeat is dropped")
                continue
            read.append((fld, text, s))
        slots: list = []
        for n, (fld, text, s) in enumerate(read):
            if n >= cap:
                prob(ProblemKind.ILLEGAL, fld, text, allowed, f"at most {cap} for your role this round",
                     f"only the first {cap} are used")
                continue
            if need is not None and need != "any" and g[s] != need:
                prob(ProblemKind.ILLEGAL, fld, text, allowed, f"{sq_name(s)} is {COLOR_NAME[g[s]]}, not "
                     f"{COLOR_NAME[need]}", f"dropped; {first}")
                slots.append(None)
                continue
            if need == "any" and g[s] == GRAY:
                prob(ProblemKind.ILLEGAL, fld, text, allowed, f"{sq_name(s)} is gray", "dropped")
                slots.append(None)
                continue
            if adj and any(t is not None and adjacent(parse_square(t), s, adj) for t in slots):
                near = next(t for t in slots if t is not None and adjacent(parse_square(t), s, adj))
                prob(ProblemKind.ILLEGAL, fld, text, allowed, f"{sq_name(s)} is adjacent to your space {near}; "
                     "a Demolitionist's spaces may not be adjacent", f"dropped; {first}")  # R26
                slots.append(None)
                continue
            slots.append(sq_name(s))
        return slots

    def default_submission(self, state: State, player: str, rng: Rng) -> Mapping[str, Any]:
        """Nothing submitted: no spaces and no abilities (A32, case 12)."""
        return {}

    # ---- resolution -----------------------------------------------------------
    def resolve(self, state: State, round_input: RoundInput, rng: Rng) -> RoundResult:
        """The round as facts (section (c) decides each one's audience), then the next round opened."""
        st = _round_copy(state)   # the input state is never changed
        rd = int(st["round"])
        var = Variation(rd)
        opts = st["options"]
        cur = st["current"]
        players = list(st["players"])
        assign = cur["assign"]
        g0 = parse_grid(cur["grid"])
        fog = var is Variation.FOG
        finished = rd == ROUNDS
        white = next(p for p in players if assign[p]["team"] == Team.WHITE.value)
        log: list[str] = [f"Round {rd} ({var.title}) resolution"]
        if st.get("log"):
            log = list(st["log"]) + log
        st["log"] = []
        renumber = opts.get("invalid_entries", "drop_and_renumber") == "drop_and_renumber"
        facts: list[Any] = []     # each with the audience it has in an ordinary round (settled below)

        # What everyone, or each player, knew when the round opened.
        for p in players:
            facts.append(TeamRole(rd, p, assign[p]["team"], assign[p]["role"], audience=(p,)))
        for p, names in sorted(cur["lists"].items()):
            facts.append(CoordinatorList(rd, p, tuple(names), audience=(p,)))
        facts.append(RolesInPlay(rd, tuple(cur["roles"]), audience=(white,)))
        for it in cur["items"]:
            facts.append(BoardItem(rd, it["name"], it["kind"], tuple(sq_name(tuple(s)) for s in it["squares"]),
                                   it["amount"], it["text"]))
        facts.append(BoardGrid(rd, "start", tuple(cur["grid"])))
        if fog:
            centre, known = fog_knowledge(rd, cur)
            facts.append(centre)
            facts += [known[p] for p in players]

        # Submissions: normalised (A33; A23 in Round 4), then increases, reductions and flips.
        inc: dict[Square, int] = {}
        reductions: dict[Square, int] = {}
        flips: list[tuple[str, Square]] = []
        missing_white: tuple[str, ...] = ()

        def add(s: Square, n: int) -> None:
            inc[s] = inc.get(s, 0) + n

        for p in players:
            team, role = Team(assign[p]["team"]), Role(assign[p]["role"])
            sub = round_input.submissions.get(p)
            if sub is None:
                vals: Mapping[str, Any] = self.default_submission(st, p, rng)
                facts.append(NoSpacesSubmitted(rd, p, audience=(p,)))
                if team is Team.WHITE:
                    log.append(f"{p} (White) submitted nothing; the White player 'must' submit two spaces "
                               "(R13): flagged (A32)")
            else:
                vals = sub.values
                for pr in sub.problems:
                    log.append("problem: " + pr.message)
                    facts.append(SpacesProblem(rd, p, pr, audience=(p,)))
            sections = self._sections(st, p)
            lists: dict[str, list] = {sec: list(vals.get(sec, [])) for sec in sections if sec != "mediator"}
            red_sq = vals.get("red_space") if "mediator" in sections else None
            blue_sq = vals.get("blue_space") if "mediator" in sections else None
            replaced: list[FogReplacement] = []
            if fog:  # A23, A25: replace wrong colours in their slots, seeded
                frng = rng.fork("fog-replace", p)
                mine = team.color
                for sec, lst in lists.items():
                    need = mine if sec == "spaces" else team.other.color
                    adj = opts.get("adjacency", "orthogonal") if (sec == "spaces" and role is Role.DEMOLITIONIST) else None
                    for i, v in enumerate(lst):
                        if v is None or g0[parse_square(v)] == need:
                            continue
                        taken = {parse_square(t) for j, t in enumerate(lst) if t is not None and j != i}
                        cands = [s for s in ALL_SQUARES if g0[s] == need and s not in taken
                                 and not (adj and any(adjacent(s, t, adj) for t in taken))]
                        new = sq_name(frng.choice(cands)) if cands else None
                        lst[i] = new
                        replaced.append(FogReplacement(sec, v, new or "", COLOR_NAME[need]))
                        log.append(f"{p}: round 4 {sec}: {v} was not {COLOR_NAME[need]}; "
                                   + (f"replaced by {new} at random (A23)" if new else "nothing qualified; dropped"))
                for fld, need in (("red_space", RED), ("blue_space", BLUE)):
                    v = red_sq if fld == "red_space" else blue_sq
                    if v is None or g0[parse_square(v)] == need:
                        continue
                    new = sq_name(frng.choice([s for s in ALL_SQUARES if g0[s] == need]))
                    replaced.append(FogReplacement(fld, v, new, COLOR_NAME[need]))
                    log.append(f"{p}: {fld} {v} replaced by {new} (A23)")
                    if fld == "red_space":
                        red_sq = new
                    else:
                        blue_sq = new
            # increases (R14, R15, R24, A5, A15, A33)
            raised: list[SpaceRaise] = []
            if "spaces" in lists:
                slots = lists["spaces"]
                if renumber:
                    slots = [v for v in slots if v is not None]
                for i, v in enumerate(slots):
                    if v is None:
                        continue
                    n = (4 if role is Role.SNIPER else 2) if i == 0 else 1
                    add(parse_square(v), n)
                    raised.append(SpaceRaise(v, n))
            for v in (red_sq, blue_sq):
                if v is not None:
                    add(parse_square(v), 1)
                    raised.append(SpaceRaise(v, 1))
            if team is Team.WHITE:
                missing_white = tuple(f for f, v in (("red_space", red_sq), ("blue_space", blue_sq)) if v is None)
            cut = {sec: tuple(v for v in lists.get(sec, []) if v is not None) for sec in ("block", "defend", "flip")}
            for sec in ("block", "defend"):
                for v in cut[sec]:
                    s = parse_square(v)
                    reductions[s] = reductions.get(s, 0) + 1
            for v in cut["flip"]:
                flips.append((p, parse_square(v)))
            if fog and sub is not None:
                typed = [v for sec in ("spaces", "block", "flip") for v in (vals.get(sec) or []) if v]
                typed += [v for v in (vals.get("red_space"), vals.get("blue_space")) if v]
                facts.append(FogReceived(rd, p, tuple(typed), audience=(p,)))
            facts.append(SpacesApplied(rd, p, sub is not None, tuple(raised), cut["block"], cut["defend"],
                                       cut["flip"][0] if cut["flip"] else "", tuple(replaced), audience=(p,)))
            abil = [f"{sec} {v}" for sec in ("block", "defend", "flip") for v in cut[sec]]
            log.append(f"{p} ({team.value} {role.value}): spaces "
                       + (", ".join(f"{r.square} (+{r.amount})" for r in raised) or "none")
                       + (f"; {', '.join(abil)}" if abil else ""))
        # items (A18)
        locks = {tuple(s) for it in cur["items"] if it["kind"] == "lock" for s in it["squares"]}
        for it in cur["items"]:
            if it["kind"] == "value":
                for s in it["squares"]:
                    add(tuple(s), it["amount"])
        # values, flips, recolouring (R16-R20, R28, R31, R41, R42, A6-A11)
        values = {s: max(0, n - reductions.get(s, 0)) for s, n in inc.items()}
        for s in sorted(set(inc) | set(reductions)):
            facts.append(SpaceValue(rd, sq_name(s), inc.get(s, 0), reductions.get(s, 0), values.get(s, 0),
                                    audience=HOST_ONLY))
        g1 = dict(g0)
        for p, s in flips:
            before = g1[s]
            if s in locks:
                log.append(f"flip of {sq_name(s)} has no effect: the square is locked")
            elif g1[s] in (RED, BLUE):
                g1[s] = other(g1[s])
            facts.append(SaboteurFlip(rd, p, sq_name(s), COLOR_NAME[before], COLOR_NAME[g1[s]], audience=HOST_ONLY))
        facts.append(BoardGrid(rd, "after_flips", _rows(g1), audience=HOST_ONLY))
        spread = g1 if opts.get("flip_spreads", True) else g0
        keep = g1 if opts.get("tie_keeps", "after_flip") == "after_flip" else g0
        final = recolor(g1, values, opts, spread, keep)
        for s in locks:
            final[s] = g0[s]
        log.append("values: " + (", ".join(f"{sq_name(s)}={x}" for s, x in sorted(values.items()) if x) or "none"))
        if flips:
            log.append("flips: " + ", ".join(sq_name(s) for _, s in flips))
        # manual items: the host's rulings, decisions of this round (A18)
        requests: list[DecisionRequest] = []
        host_tiles = {RED: 0, BLUE: 0}
        for it in cur["items"]:
            if it["kind"] != "manual":
                continue
            sqs = tuple(sq_name(tuple(s)) for s in it["squares"])
            reqs = self._item_requests(rd, it)
            requests += reqs
            got = {r.key: round_input.decisions.get(r.key) for r in reqs}
            colour_word = got[reqs[0].key] if got[reqs[0].key] not in (None, AS_RESOLVED) else ""
            red_n, blue_n = int(got[reqs[1].key] or 0), int(got[reqs[2].key] or 0)
            if colour_word:
                for s in it["squares"]:
                    final[tuple(s)] = _letter(colour_word)
            host_tiles[RED] += red_n
            host_tiles[BLUE] += blue_n
            pending = tuple(k for k, v in got.items() if v is None)
            facts.append(ManualItemRuling(rd, it["name"], sqs, colour_word, red_n, blue_n, pending))
            log.append(f"manual item {it['name']}: " + ("pending the host's rulings " + ", ".join(pending)
                                                       if pending else "ruled by the host")
                       + f"; squares {colour_word or AS_RESOLVED}, tiles red {red_n:+d}, blue {blue_n:+d}")
        facts.append(BoardGrid(rd, "final", _rows(final)))
        bonus_items = [it for it in cur["items"] if it["kind"] == "bonus"]
        sc = score_round(var, final, opts, bonus_items, host_tiles)
        pts: dict[str, int] = {}
        for p in players:
            t = assign[p]["team"]
            pts[p] = sc["white"] if t == "White" else sc["points"][Team(t).color]
        penalty = int(opts.get("white_missing_penalty", 0))
        if penalty > 0 and missing_white:   # the A32 hook: off (0) by default
            lost = min(penalty, pts[white])
            pts[white] -= lost
            facts.append(MediatorPenalty(rd, white, missing_white, lost, audience=(white,)))
            log.append(f"{white} (White) left out {', '.join(missing_white)}: -{lost} point(s) (A32 penalty hook)")
        for p in players:
            st["totals"][p] += pts[p]
        log.append(f"tiles red {sc['tiles'][RED]}, blue {sc['tiles'][BLUE]}; totals red {sc['total'][RED]}, "
                   f"blue {sc['total'][BLUE]}; points " + ", ".join(f"{p} {pts[p]}" for p in players))
        st["history"].append({"round": rd, "grid_start": cur["grid"], "grid_end": grid_rows(final),
                              "assign": assign, "roles": cur["roles"], "points": pts,
                              "score": {"tiles": [sc["tiles"][RED], sc["tiles"][BLUE]],
                                        "total": [sc["total"][RED], sc["total"][BLUE]]}})
        facts += self._score_facts(st, rd, final, sc, pts, white)

        # Who may know what (section (c)): Round 4 hides the board, the scores and what was applied until
        # the end (R52, A23); the play itself is the host's unless reveal_play_at_end (A35). What a
        # later audience may learn is kept in the state and re-stated in the last round.
        out: list[Any] = []
        later: list[Any] = []
        for f in facts:
            at_end = PUBLIC if (_is_play(f) and opts.get("reveal_play_at_end")) else f.audience
            now = HOST_ONLY if fog and isinstance(f, FOG_HIDDEN) else f.audience
            if finished:
                now = at_end
            if at_end != now or (fog and isinstance(f, TeamRole)):
                later.append(replace(f, audience=at_end))
            out.append(f if now == f.audience else replace(f, audience=now))
        st["history"][-1]["end_facts"] = to_json(later)

        ledger: list[LedgerEntry] = []
        if finished:
            st["finished"] = True
            for h in st["history"][:-1]:
                out += [f for f in from_json(h.get("end_facts") or [])]
            roles = opts.get("reveal_roles_at_end")
            out += [TeamsRevealed(p, tuple(h["assign"][p]["team"] for h in st["history"]),
                                  tuple(h["assign"][p]["role"] for h in st["history"]) if roles else ())
                    for p in sorted(players)]
            requests += self._tie_requests(st)
            ledger = self._end_ledger(st, round_input.balances, round_input.decisions)
        else:
            st["round"] = rd + 1
            log += self._open_round(st, rd + 1, round_input.tables, rng.fork("open", rd + 1))
        return RoundResult(st, ledger=tuple(ledger), host_log=tuple(log), facts=tuple(out),
                           requests=tuple(requests))

    def _score_facts(self, st: State, rd: int, final: Grid, sc: Mapping[str, Any], pts: Mapping[str, int],
                     white: str) -> list[Any]:
        """The tile counts, both sides' scores, the Mediator's check and every player's points, with
        the audience of an ordinary round (R33-R37, A35)."""
        gray = sum(1 for s in ALL_SQUARES if final[s] == GRAY)
        out: list[Any] = [ColourCounts(rd, sc["tiles"][RED], sc["tiles"][BLUE], gray)]
        for c in (RED, BLUE):
            out.append(SideScore(rd, COLOR_NAME[c], sc["tiles"][c], sc["items"][c], sc["host"][c], sc["groups"][c],
                                 sc["conn"][c], sc["triples"][c], sc["total"][c],
                                 sc["total"][c] > sc["total"][other(c)], sc["points"][c]))
        out.append(MediatorCheck(rd, white, sc["diff"], COLOR_NAME[sc["winner"]] if sc["winner"] else "",
                                 sc["white"], audience=(white,)))
        out += [PlayerPoints(rd, p, pts[p], st["totals"][p], audience=(p,)) for p in st["players"]]
        return out

    def _item_requests(self, rd: int, it: Mapping[str, Any]) -> list[DecisionRequest]:
        """A18: a manual item stops for the host's rulings, one per thing the host may override."""
        k_sq, k_red, k_blue = item_keys(rd, it["name"])
        sqs = " ".join(sq_name(tuple(s)) for s in it["squares"])
        what = f"Round {rd}, item {it['name']} on {sqs}" + (f" ({it['text']})" if it["text"] else "")
        return [
            DecisionRequest(k_sq, f"{what}: which colour do its squares end the round with?", DecisionKind.CHOICE,
                            (AS_RESOLVED, "red", "blue", "gray"), round=rd, default=AS_RESOLVED),
            DecisionRequest(k_red, f"{what}: tiles it adds to Red's count (0 for none, negative to take away)",
                            DecisionKind.NUMBER, round=rd, default="0 tiles"),
            DecisionRequest(k_blue, f"{what}: tiles it adds to Blue's count (0 for none, negative to take away)",
                            DecisionKind.NUMBER, round=rd, default="0 tiles"),
        ]

    def _visible_total(self, st: State, p: str, finished: bool) -> int:
        total = st["totals"][p]
        if not finished:
            total -= sum(h["points"][p] for h in st["history"] if h["round"] == 4)
        return total

    # ---- reports, drawn from the facts --------------------------------------------
    def render(self, facts: Sequence[Any], viewer: str | None, ctx: RenderContext) -> Report:
        """The public post (the resulting grid; at the end the Round 4 reveal and the alignments) or one
        player's confessional (section (c)), from the facts that viewer may know."""
        rd = ctx.round
        var = Variation(rd)
        row_one = ctx.options.get("row_one", "top")
        blocks = (self._public_blocks(facts, rd, ctx.options, row_one) if viewer is None
                  else self._private_blocks(facts, viewer, rd, row_one))
        return Report(f"Round {rd}: {var.title}", tuple(blocks))

    def _public_blocks(self, facts: Sequence[Any], rd: int, opts: Mapping[str, Any], row_one: str) -> list[Block]:
        var = Variation(rd)
        blocks: list[Block] = []
        grids = {(f.round, f.stage): f for f in of_type(facts, BoardGrid)}
        counts = {f.round: f for f in of_type(facts, ColourCounts)}

        def count_lines(r: int) -> tuple[str, ...]:
            c = counts.get(r)
            return (f"Red {c.red}, blue {c.blue}, gray {c.gray} squares.",) if c and opts.get("publish_counts") else ()

        if (rd, "final") in grids:
            lines = tuple(_manual_item_text(f) for f in of_type(facts, ManualItemRuling) if f.round == rd) + count_lines(rd)
            blocks.append(board_block(f"Round {rd} ({var.title}): resulting grid", parse_grid(grids[rd, "final"].rows),
                                      None, row_one, lines))
        elif of_type(facts, FogCentre):
            blocks.append(Block(f"Round {rd}: {var.title}", ("The board and the scores of this round stay hidden "
                                                             "until the end of the game.",)))
        for r in sorted({f.round for f in grids.values() if f.round != rd}):   # the end: Round 4 revealed
            title = f"Round {r} ({Variation(r).title})"
            if (r, "start") in grids:
                blocks.append(board_block(f"{title} grid at the start, now revealed",
                                          parse_grid(grids[r, "start"].rows), None, row_one))
            if (r, "final") in grids:
                blocks.append(board_block(f"{title} resulting grid, now revealed", parse_grid(grids[r, "final"].rows),
                                          None, row_one, count_lines(r)))
        aligned = of_type(facts, TeamsRevealed)
        if aligned:
            n = max(len(a.teams) for a in aligned)
            head = (Cell("Player", bold=True),) + tuple(Cell(f"Round {i + 1}", bold=True) for i in range(n))
            fills = {"Red": FILL[RED], "Blue": FILL[BLUE], "White": "FFFFFF"}
            rows = [head] + [(Cell(a.player),) + tuple(
                Cell(t + (f" {a.roles[i]}" if a.roles else ""), fill=fills[t]) for i, t in enumerate(a.teams))
                for a in aligned]
            blocks.append(Block("Alignments, revealed at the end of the game", grid=tuple(rows)))
        played = [f for f in facts if isinstance(f, (SpacesApplied, SpaceValue, SaboteurFlip))]
        if played:
            blocks.append(Block("Every round's play, revealed at the end of the game", tuple(_play_lines(played))))
        return blocks

    def _private_blocks(self, facts: Sequence[Any], p: str, rd: int, row_one: str) -> list[Block]:
        var = Variation(rd)
        mine = [f for f in facts if getattr(f, "player", p) == p]
        now = [f for f in mine if getattr(f, "round", rd) == rd]

        def one(cls: type, r: int = rd) -> Any:
            return next((f for f in mine if isinstance(f, cls) and f.round == r), None)

        lines: list[str] = []
        a = one(TeamRole)
        if a is not None:
            lines.append(f"You were {a.team}, {a.role} this round.")
        if one(NoSpacesSubmitted) is not None:
            lines.append("You submitted nothing: no spaces and no abilities (the rules' default).")
        lines += ["Problem: " + f.problem.text_for(p) for f in now if isinstance(f, SpacesProblem)]
        got, applied = one(FogReceived), one(SpacesApplied)
        if got is not None:
            lines.append("Received: " + (", ".join(got.squares) if got.squares else "no squares")
                         + ". What became of them is disclosed at the end of the game.")
        elif applied is not None and applied.submitted:
            lines.append("Your spaces as read: " + _applied_text(applied) + ".")
        # one heading per round in the Results tab, where every round's blocks stand one under another
        blocks = [Block(f"Round {rd}: {var.title}", tuple(lines + self._score_lines(facts, p, rd, var)))]
        known = one(FogTiles)
        if known is not None:
            centre = next((f for f in facts if isinstance(f, FogCentre) and f.round == rd), None)
            blocks.append(tiles_block("Your Fog of War tiles (round 4)", known, centre, row_one))
        if rd == ROUNDS:
            blocks.append(Block("End of the game", tuple(self._end_lines(facts, p))))
        return blocks

    def _score_lines(self, facts: Sequence[Any], p: str, rd: int, var: Variation) -> list[str]:
        counts = next((f for f in facts if isinstance(f, ColourCounts) and f.round == rd), None)
        points = next((f for f in facts if isinstance(f, PlayerPoints) and f.round == rd and f.player == p), None)
        if counts is None or points is None:
            return []
        side = {f.colour: f for f in of_type(facts, SideScore) if f.round == rd}
        red, blue = side["red"], side["blue"]
        lines = [f"Red tiles {counts.red}, blue tiles {counts.blue}."]
        if var is Variation.CONNECTION:
            to = "red" if red.connection_tiles else "blue" if blue.connection_tiles else "neither team"
            lines.append(f"Largest connected groups: red {red.largest_group}, blue {blue.largest_group}; +4 tiles to {to}.")
        if var is Variation.TRIPLES:
            lines.append(f"Three-in-a-rows: red {red.lines}, blue {blue.lines}.")
        if red.item_tiles or blue.item_tiles:
            lines.append(f"Bonus items: red +{red.item_tiles}, blue +{blue.item_tiles}.")
        if red.host_tiles or blue.host_tiles:
            lines.append(f"Items ruled by the host: red {red.host_tiles:+d}, blue {blue.host_tiles:+d}.")
        if (red.total, blue.total) != (counts.red, counts.blue):   # said once: only when bonuses change them
            lines.append(f"Team totals: red {red.total}, blue {blue.total}.")
        for f in facts:
            if isinstance(f, MediatorCheck) and f.round == rd and f.player == p:
                lines.append(f"Difference for the Mediator: {f.difference} ("
                             + ("at most 7: the winning" if f.difference <= 7 else "over 7: the losing")
                             + " team's points" + ("" if f.winner else "; the teams tied") + ").")
            elif isinstance(f, MediatorPenalty) and f.round == rd and f.player == p:
                lines.append(_penalty_text(f))
        lines.append(f"Your points this round: {points.points}.")
        if rd != ROUNDS:
            lines.append(f"Running total: {points.total}")
        return lines

    def _end_lines(self, facts: Sequence[Any], p: str) -> list[str]:
        """The end of the game for one player: their Round 4, now disclosed (R52, A23), and their total."""
        mine = [f for f in facts if getattr(f, "player", p) == p]
        fog = Variation.FOG.value
        lines: list[str] = []
        a4 = next((f for f in mine if isinstance(f, TeamRole) and f.round == fog), None)
        pts4 = next((f for f in mine if isinstance(f, PlayerPoints) and f.round == fog), None)
        if pts4 is not None:
            who = f"you were {a4.team} {a4.role} and " if a4 is not None else ""
            lines.append(f"Round 4 (Fog of War): {who}scored {pts4.points}.")
            applied = next((f for f in mine if isinstance(f, SpacesApplied) and f.round == fog), None)
            if applied is not None and applied.submitted:
                lines.append("Your round 4 submission as applied: " + _applied_text(applied) + ".")
            lines += ["Round 4 problem: " + f.problem.text_for(p) for f in mine
                      if isinstance(f, SpacesProblem) and f.round == fog]
            reps = applied.replacements if applied is not None else ()
            lines += [f"Round 4 {r.field}: {r.typed} was not {r.needed}; "
                      + (f"replaced by {r.placed} at random." if r.placed else "nothing qualified; dropped.")
                      for r in reps] or ["None of your round 4 squares was replaced."]
            lines += [_penalty_text(f) for f in mine if isinstance(f, MediatorPenalty) and f.round == fog]
        last = next((f for f in mine if isinstance(f, PlayerPoints) and f.round == ROUNDS), None)
        if last is not None:
            lines.append(f"Final total: {last.total}")
        return lines

    def picture(self, facts: Sequence[Any], viewer: str | None, ctx: RenderContext) -> Picture | None:
        """The round's grid as the public sees it after the round: the resulting grid (Rounds 1, 2, 3, 5;
        at the end beside Round 4's, now revealed) or, in Round 4, the centre four alone. A player's
        picture only in Round 4, the one round the rules give players a board of their own (R49, R50)."""
        rd = ctx.round
        row_one = ctx.options.get("row_one", "top")
        marks = {s for f in of_type(facts, BoardItem) if f.round == rd for s in f.squares}
        boards: list[tuple[str, dict[str, str], set]] = []
        centre = next((f for f in of_type(facts, FogCentre) if f.round == rd), None)
        if viewer is not None:
            known = next((f for f in of_type(facts, FogTiles) if f.round == rd and f.player == viewer), None)
            if known is None:
                return None
            tiles = {t.square: _letter(t.colour) for t in (centre.tiles if centre else ()) + known.tiles}
            boards.append((f"{viewer}: the tiles you know at the start", tiles, marks))
        else:
            finals = {f.round: f for f in of_type(facts, BoardGrid) if f.stage == "final"}
            if rd in finals:
                boards.append((f"Round {rd}: resulting grid", _square_colours(finals[rd].rows), marks))
            elif centre is not None:
                boards.append((f"Round {rd}: hidden until the end of the game",
                               {t.square: _letter(t.colour) for t in centre.tiles}, marks))
            for r in sorted(r for r in finals if r != rd):
                boards.append((f"Round {r} ({Variation(r).title}), now revealed",
                               _square_colours(finals[r].rows), set()))
        if not boards:
            return None
        return board_picture(f"{ctx.game_name or SPEC.name}: round {rd} ({Variation(rd).title})", boards, row_one)

    # ---- views ------------------------------------------------------------------
    def player_view(self, state: State, player: str) -> Report:
        rd = state["round"]
        var = Variation(rd)
        if state["finished"]:
            lines = [f"Round {h['round']}: {h['assign'][player]['team']} {h['assign'][player]['role']}, "
                     f"{h['points'][player]} points" for h in state["history"]]
            lines.append(f"Final total: {state['totals'][player]}")
            return Report(f"Flickering Lights: {player}", (Block("Your game", tuple(lines)),))
        team, role = self._me(state, player)
        cur = state["current"]
        lines = [f"Round {rd} of {ROUNDS}: {var.title}. {var.text}",
                 f"Your team this round: {team.value}. Your role: {role.value}.",
                 ROLE_TEXT[role]]
        if team is Team.WHITE:
            lines.append("The three roles in play on both teams: " + ", ".join(cur["roles"]) + ".")
        if player in cur["lists"]:
            lines.append("Your list: " + ", ".join(cur["lists"][player])
                         + " (your two teammates and, if in play, the other team's Saboteur; unlabelled).")
        done = len(state["history"])
        if done:
            lines.append(f"Your points so far: {self._visible_total(state, player, False)}"
                         + (" (round 4 is added at the end of the game)" if done >= 4 else "") + ".")
        blocks = [Block(f"Your briefing for round {rd}", tuple(lines))]
        if rd == Variation.FOG.value:
            centre, known = fog_knowledge(rd, cur)
            blocks.append(tiles_block("The tiles you know this round", known[player], centre,
                                      state["options"].get("row_one", "top")))
        return Report(f"Flickering Lights: {player}", tuple(blocks))

    def public_view(self, state: State) -> Report:
        blocks: list[Block] = []
        rd = state["round"]
        if state["finished"]:
            last = state["history"][-1]
            blocks.append(board_block(f"Round {last['round']}: resulting grid", parse_grid(last["grid_end"]),
                                      None, state["options"].get("row_one", "top")))
            return Report("Flickering Lights: public board", tuple(blocks))
        var = Variation(rd)
        cur = state["current"]
        g = parse_grid(cur["grid"])
        lines = [f"Round {rd} of {ROUNDS}: {var.title}. {var.text}"]
        for it in cur["items"]:
            lines.append(f"Item {it['name']} ({it['kind']}) on {' '.join(sq_name(tuple(s)) for s in it['squares'])}"
                         f": {it['text'] or ITEM_TEXT[it['kind']].format(n=it['amount'])}")
        visible = set(CENTER) if var is Variation.FOG else None
        marks = {tuple(s) for it in cur["items"] for s in it["squares"]}
        blocks.append(board_block(f"Round {rd} grid" + (" (Fog of War: only the centre four shown)"
                                                         if visible else ""), g, visible, state["options"].get("row_one", "top"),
                                  tuple(lines), marks))
        return Report("Flickering Lights: public board", tuple(blocks))


    # ---- the end of the match (A30, A31) -------------------------------------------
    def _rounds_won(self, st: State) -> dict[str, int]:
        return {p: sum(1 for h in st["history"] if self._won(h, p)) for p in st["players"]}

    def _ranking(self, st: State) -> tuple[list[str], list[str], list[str]]:
        """Players best first, those tied for the highest and for the lowest (A30)."""
        totals = st["totals"]
        won = self._rounds_won(st)
        if st["options"].get("end_of_match") == "total_rounds_won":
            key = lambda p: (-totals[p], -won[p], p)  # noqa: E731
            val = lambda p: (totals[p], won[p])  # noqa: E731
        else:
            key = lambda p: (-totals[p], p)  # noqa: E731
            val = lambda p: (totals[p],)  # noqa: E731
        order = sorted(st["players"], key=key)
        top = [p for p in order if val(p) == val(order[0])]
        low = [p for p in order if val(p) == val(order[-1])]
        return order, top, low

    def _won(self, h: dict, p: str) -> bool:
        """A round 'won' by the player's side: their team had strictly more (the +8), or the
        Mediator scored the winning team's points (the A30 tiebreak)."""
        red, blue = h["score"]["total"]
        t = h["assign"][p]["team"]
        if t == "Red":
            return red > blue
        if t == "Blue":
            return blue > red
        return red != blue and h["points"][p] == max(
            h["points"][q] for q in h["assign"] if h["assign"][q]["team"] != "White")

    def _tie_requests(self, st: State) -> list[DecisionRequest]:
        """A30: ties for the win or the Elimination Candidate go to the host, with what the rounds each
        player's side won would say. They belong to the last round, whose ledger pays the winner and the
        EC (A31), so entering one re-resolves it."""
        _, top, low = self._ranking(st)
        totals, won = st["totals"], self._rounds_won(st)
        out = []

        def hint(tied: list[str], pick: Callable) -> str:
            edge = pick(won[p] for p in tied)
            by = [p for p in tied if won[p] == edge]
            shown = ", ".join(f"{p} {won[p]}" for p in tied)
            return (f"the rounds each side won would pick {by[0]} ({shown})" if len(by) == 1
                    else f"the rounds each side won are tied too ({shown})")

        if len(top) > 1:
            out.append(DecisionRequest(
                WINNER_TIE, f"{', '.join(top)} tie for the highest total ({totals[top[0]]}): who wins the Main "
                f"Match? ('{SHARED}' for a joint win)", DecisionKind.CHOICE, tuple(top) + (SHARED,), round=ROUNDS,
                default=f"no winner yet; {hint(top, max)}"))
        if len(low) > 1:
            out.append(DecisionRequest(
                EC_TIE, f"{', '.join(low)} tie for the lowest total ({totals[low[0]]}): who goes to the Elimination "
                "Candidate?", DecisionKind.CHOICE, tuple(low), round=ROUNDS,
                default=f"no Elimination Candidate yet; {hint(low, min)}"))
        return out

    def _decided(self, st: State, decisions: Mapping[str, Any]) -> tuple[tuple[str, ...], str | None]:
        """The winners and the EC once the host's tie decisions apply; while a tie waits for the host,
        no winner (empty) or no EC (None)."""
        _, top, low = self._ranking(st)
        pick = decisions.get(WINNER_TIE)
        if len(top) == 1 or pick == SHARED:
            winners = tuple(top)
        else:
            winners = (pick,) if pick in top else ()
        ec_pick = decisions.get(EC_TIE)
        ec = low[0] if len(low) == 1 else (ec_pick if ec_pick in low else None)
        return winners, ec

    def outcome(self, state: State, decisions: Mapping[str, Any] | None = None) -> Outcome | None:
        """Winner(s) and EC by five-round totals (A30); a tie is a decision of the host (requests
        "winner-tie", "ec-tie"), pending until entered: no winner or no EC meanwhile."""
        if not state["finished"]:
            return None
        decisions = decisions or {}
        order, top, low = self._ranking(state)
        totals, won = state["totals"], self._rounds_won(state)
        winners, ec = self._decided(state, decisions)
        reasons = ["The ruleset does not say how the match is won: the highest five-round total wins and "
                   "the lowest goes to the Elimination Candidate."]
        if state["options"].get("end_of_match") == "total_rounds_won":
            reasons.append("Equal totals are broken by the number of rounds the player's side won.")
        if len(top) == 1:
            reasons.append(f"{top[0]} has the highest total ({totals[top[0]]}).")
        elif decisions.get(WINNER_TIE) == SHARED:
            reasons.append(f"{', '.join(top)} tie for the highest total ({totals[top[0]]}); the host made it a "
                           "joint win.")
        elif len(winners) == 1:
            reasons.append(f"{', '.join(top)} tie for the highest total ({totals[top[0]]}); the host chose "
                           f"{winners[0]}.")
        else:
            reasons.append(f"{', '.join(top)} tie for the highest total ({totals[top[0]]}).")
        if len(low) == 1:
            reasons.append(f"{ec} has the lowest total ({totals[ec]}) and goes to the Elimination Candidate.")
        elif ec is not None:
            reasons.append(f"{', '.join(low)} tie for the lowest total ({totals[low[0]]}); the host chose {ec} "
                           "for the Elimination Candidate.")
        else:
            reasons.append(f"{', '.join(low)} tie for the lowest total ({totals[low[0]]}).")
        requests = tuple(self._tie_requests(state))
        standings = tuple((p, f"{totals[p]} points") for p in order)
        facts = tuple(FinalTotal(p, totals[p], won[p]) for p in order)
        pick = decisions.get(WINNER_TIE)
        ending = ("single_winner" if len(top) == 1 else "shared_win" if pick == SHARED
                  else "tie_decided" if len(winners) == 1 else "tie_pending")
        return Outcome(winners=winners, losers=tuple(low), elimination_candidate=ec, standings=standings,
                       reasons=tuple(reasons), requests=requests, facts=facts,
                       scores={p: float(totals[p]) for p in state["players"]}, ending=ending)

    def _end_ledger(self, st: State, balances: Mapping[str, int], decisions: Mapping[str, Any]) -> list[LedgerEntry]:
        """A31: no garnets unless the host set an option; never below 0."""
        opts = st["options"]
        out: list[LedgerEntry] = []
        bal = dict(balances)
        per = int(opts.get("garnets_per_points", 0))
        if per > 0:
            for p in st["players"]:
                n = max(0, st["totals"][p]) // per
                if n:
                    out.append(LedgerEntry(p, n, f"Flickering Lights: {st['totals'][p]} points, 1 garnet per {per}"))
                    bal[p] = bal.get(p, 0) + n
        winners, ec = self._decided(st, decisions)
        if int(opts.get("winner_garnets", 0)) and len(winners) == 1:
            n = max(int(opts["winner_garnets"]), -bal.get(winners[0], 0))
            if n:
                out.append(LedgerEntry(winners[0], n, "Flickering Lights: Main Match winner"))
                bal[winners[0]] = bal.get(winners[0], 0) + n
        if int(opts.get("ec_garnets", 0)) and ec is not None:
            n = max(int(opts["ec_garnets"]), -bal.get(ec, 0))
            if n:
                out.append(LedgerEntry(ec, n, "Flickering Lights: Elimination Candidate"))
        return out

    # ---- starting from a position -------------------------------------------------
    def from_position(self, players: Sequence[str], options: Mapping[str, Any], tables: Tables,
                      position: Mapping[str, Any], rng: Rng) -> State:
        """The game opened at round `round`: every earlier round's `teams`, start grid (`grids`) and
        resulting grid (`results`), and optionally `points` (checked against the results); the open
        round's teams and grid may be given too, else they come from the tables or the seed.

        >>> rows = ["RR....BB"] + ["........"] * 7
        >>> t1 = {"Ann": "Red Coordinator", "Bo": "Red Sniper", "Cy": "Red Demolitionist", "Dee": "Blue Coordinator",
        ...       "Eli": "Blue Sniper", "Fay": "Blue Demolitionist", "Gus": "White"}
        >>> st = GAME.from_position(["Ann", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus"], DEFAULT_OPTIONS, {},
        ...                         {"round": 2, "teams": {"1": t1}, "grids": {"1": rows}, "results": {"1": rows}},
        ...                         Rng(1))
        >>> st["round"], st["totals"]["Ann"], st["totals"]["Gus"]
        (2, 2, 2)
        """
        try:
            st = self._blank_state(players, options)
        except ConfigError as e:
            raise PositionError(str(e)) from None
        opts = st["options"]
        extra = sorted(set(position) - set(POSITION_KEYS))
        if extra:
            raise PositionError(f"unknown position key(s) {', '.join(map(str, extra))}; a Flickering Lights position "
                                f"has {', '.join(POSITION_KEYS)}")
        r = position.get("round", 1)
        if not isinstance(r, int) or isinstance(r, bool) or not 1 <= r <= ROUNDS:
            raise PositionError(f"round {r!r}: a position opens a round from 1 to {ROUNDS}")
        teams = _by_round(position.get("teams", {}), "teams", r, r)
        grids = _by_round(position.get("grids", {}), "grids", r, r)
        results = _by_round(position.get("results", {}), "results", r, r - 1)
        points = position.get("points", {})
        if not isinstance(points, Mapping):
            raise PositionError("points: give each player's list of points per round played, e.g. {\"Ann\": [14, 6]}")
        unknown = sorted(set(points) - set(players))
        if unknown:
            raise PositionError(f"points: {', '.join(unknown)} is not a player (players: {', '.join(players)})")
        allowed = allowed_transforms(opts)
        items_by, _ = read_items(tables)
        for rd in range(1, r):
            for what, table in (("teams", teams), ("grids", grids), ("results", results)):
                if rd not in table:
                    raise PositionError(f"{what}: round {rd} is missing; a position at round {r} gives the {what} "
                                        "of every round before it")
            assign = _position_assign(rd, teams[rd], players)
            start = _position_grid(grids[rd], f"grids, round {rd}", allowed)
            final = _position_grid(results[rd], f"results, round {rd}", None)
            bonus = [it for it in items_by.get(rd, []) if it["kind"] == "bonus"]
            sc = score_round(Variation(rd), final, opts, bonus)
            pts = {p: sc["white"] if a["team"] == "White" else sc["points"][Team(a["team"]).color]
                   for p, a in assign.items()}
            penalty = int(opts.get("white_missing_penalty", 0))
            for p in players:
                given = points.get(p)
                if given is None:
                    continue
                if not isinstance(given, (list, tuple)) or len(given) != r - 1:
                    raise PositionError(f"points: {p} needs one number per round played (rounds 1 to {r - 1})")
                got = given[rd - 1]
                ok = {pts[p]} | ({max(0, pts[p] - penalty)} if assign[p]["team"] == "White" else set())
                if got not in ok:
                    team = assign[p]["team"]
                    raise PositionError(f"points: {p} has {got!r} in round {rd}, but on that round's resulting grid "
                                        f"a {team} player scores {pts[p]}")
                pts[p] = got
            for p in players:
                st["totals"][p] += pts[p]
            st["used_grids"].append(grid_rows(start))
            st["history"].append({"round": rd, "grid_start": grid_rows(start), "grid_end": grid_rows(final),
                                  "assign": assign, "roles": [x.value for x in TEAM_ROLES
                                                              if any(a["role"] == x.value for a in assign.values())],
                                  "points": pts, "score": {"tiles": [sc["tiles"][RED], sc["tiles"][BLUE]],
                                                           "total": [sc["total"][RED], sc["total"][BLUE]]},
                                  "end_facts": []})
            if rd == Variation.FOG.value:   # what the end of the game reveals of a Round 4 given by the position
                white = next(p for p in players if assign[p]["team"] == "White")
                later = [BoardGrid(rd, "start", tuple(grid_rows(start))), BoardGrid(rd, "final", tuple(grid_rows(final)))]
                later += [TeamRole(rd, p, assign[p]["team"], assign[p]["role"], audience=(p,)) for p in players]
                later += self._score_facts(st, rd, final, sc, pts, white)
                st["history"][-1]["end_facts"] = to_json(later)
        grid = _position_grid(grids[r], f"grids, round {r}", allowed) if r in grids else None
        assign = _position_assign(r, teams[r], players) if r in teams else None
        if grid is not None and not any(items_symmetric(items_by.get(r, []), n) for n in symmetries(grid, allowed)):
            raise PositionError(f"grids, round {r}: the round's items (Items tab) are not symmetric under the grid's "
                                "symmetry; move the items or give another grid")
        try:
            st["log"] = self._open_round(st, r, tables, rng.fork("open", r), grid=grid, assign=assign)
        except ConfigError as e:
            raise PositionError(str(e)) from None
        st["round"] = r
        return st

    # ---- demo -------------------------------------------------------------------
    def random_submission(self, state: State, player: str, rng: Rng) -> RawSubmission:
        team, role = self._me(state, player)
        g = parse_grid(state["current"]["grid"])
        fog = state["round"] == Variation.FOG.value
        opts = state["options"]
        known = {parse_square(t) for t in state["current"]["fog"].get(player, [])} | set(CENTER)

        def pool(color: str | None) -> list[Square]:
            sqs = [s for s in ALL_SQUARES if (g[s] == color if color else g[s] != GRAY)]
            if fog:
                mine = [s for s in sqs if s in known]
                return mine if mine and rng.below(4) else list(ALL_SQUARES)
            return sqs

        out: dict[str, list[dict[str, str]]] = {}
        for sec, info in self._sections(state, player).items():
            if sec == "mediator":
                out[sec] = [{"red_space": sq_name(rng.choice(pool(RED))),
                             "blue_space": sq_name(rng.choice(pool(BLUE)))}]
                continue
            color = None if info["color"] == "any" else info["color"]
            k = rng.randint(0, info["cap"]) if sec != "spaces" else rng.randint(1, info["cap"])
            chosen: list[Square] = []
            adj = opts.get("adjacency", "orthogonal") if (sec == "spaces" and role is Role.DEMOLITIONIST) else None
            for s in rng.shuffled(pool(color)):
                if len(chosen) >= k:
                    break
                if s in chosen or (adj and any(adjacent(s, t, adj) for t in chosen)):
                    continue
                chosen.append(s)
            rows = [{"space": sq_name(s)} for s in chosen]
            rows += [{"space": ""}] * (info["cap"] - len(rows))
            out[sec] = rows
        return out




ROLE_TEXT = {
    Role.COORDINATOR: "Coordinator: you learn the list below at the start of the round.",  # R23
    Role.SNIPER: "Sniper: your first space gets +4 instead of +2.",  # R24
    Role.DEMOLITIONIST: "Demolitionist: you may submit up to four spaces (first +2, others +1), none of them "
                        "adjacent.",  # R25, R26
    Role.BLOCKER: "Blocker: you may also block up to two spaces of the other colour; each loses 1 value, "
                  "to a minimum of 0.",  # R27, R28
    Role.SABOTEUR: "Saboteur: you may also flip one space of the other colour; it flips after values are "
                   "counted and before recolouring. You appear on both Coordinators' lists.",  # R29-R31
    Role.MEDIATOR: "Mediator (White): submit one red and one blue space, +1 each. You score the winning "
                   "team's points if the tile difference is at most 7, else the losing team's.",  # R13, R35, R36
}

ITEM_TEXT = {
    "note": "see the host's explanation",
    "lock": "a locked square keeps its round-start colour: it cannot be flipped or recoloured",
    "bonus": "at the end of the round the team whose colour holds this square adds {n} tile(s)",
    "value": "this square starts the round with value {n} added to it",
    "manual": "its effect is applied by the host after the round",
}


def board_block(title: str, g: Grid, visible: set | None, row_one: str, lines: tuple = (),
                marks: set | None = None) -> Block:
    """The 8x8 board in red, blue and gray (hidden squares dark), with column and row labels."""
    head = (Cell("", bold=True),) + tuple(Cell(c, bold=True) for c in COLS)
    rows = [head]
    order = range(SIZE) if row_one == "top" else range(SIZE - 1, -1, -1)
    for r in order:
        cells = [Cell(str(r + 1), bold=True)]
        for c in range(SIZE):
            s = (c, r)
            if visible is not None and s not in visible:
                cells.append(Cell("?", fill=FILL["?"], font="FFFFFF"))
                continue
            text = {RED: "R", BLUE: "B", GRAY: "-"}[g[s]] + ("*" if marks and s in marks else "")
            cells.append(Cell(text, fill=FILL[g[s]]))
        rows.append(tuple(cells))
    legend = (("Red", FILL[RED]), ("Blue", FILL[BLUE]), ("Gray", FILL[GRAY]))
    if visible is not None:
        legend += (("Hidden", FILL["?"]),)
    return Block(title, lines, tuple(rows), legend)




# --------------------------------------------------------------------- positions

POSITION_KEYS = ("round", "teams", "grids", "results", "points")


def _by_round(value: Any, what: str, r: int, last: int) -> dict[int, Any]:
    """A position table keyed by round ("1" or 1), each round at most `last`."""
    if not isinstance(value, Mapping):
        raise PositionError(f"{what}: give a table by round, e.g. {{\"1\": ...}}")
    out: dict[int, Any] = {}
    for k, v in value.items():
        rd = parse_int(k)
        if rd is None or not 1 <= rd <= ROUNDS:
            raise PositionError(f"{what}: {k!r} is not a round from 1 to {ROUNDS}")
        if rd > last:
            raise PositionError(f"{what}: round {rd} is not played yet in a position that opens round {r}")
        out[rd] = v
    return out


def _position_assign(rd: int, given: Any, players: Sequence[str]) -> dict[str, dict[str, str]]:
    """A round's teams and roles from {"Ann": "Red Sniper", ..., "Gus": "White"}, checked (R2, R4, A41)."""
    where = f"teams, round {rd}"
    if not isinstance(given, Mapping):
        raise PositionError(f"{where}: give each player's team and role, e.g. {{\"Ann\": \"Red Sniper\", \"Gus\": \"White\"}}")
    unknown = sorted(set(given) - set(players))
    if unknown:
        raise PositionError(f"{where}: {', '.join(map(str, unknown))} is not a player (players: {', '.join(players)})")
    missing = [p for p in players if p not in given]
    if missing:
        raise PositionError(f"{where}: {', '.join(missing)} has no team; give all 7 players")
    out: dict[str, tuple[str, str]] = {}
    for p in players:
        words = clean(given[p]).title().split()
        team = words[0] if words else ""
        role = "Mediator" if team == "White" else " ".join(words[1:])
        if team not in ("Red", "Blue", "White") or role not in [r.value for r in Role]:
            raise PositionError(f"{where}: {p} is {given[p]!r}; write a team and a role, e.g. \"Red Sniper\", "
                                "or \"White\" for the Mediator")
        out[p] = (team, role)
    problem = assignment_problem(rd, out)
    if problem:
        raise PositionError(f"{where}: {problem}")
    return {p: {"team": t, "role": r} for p, (t, r) in out.items()}


def _position_grid(rows: Any, where: str, allowed: Sequence[str] | None) -> Grid:
    """8 rows of 8 squares (R, B, or . / G / - for gray), row 1 first; a start grid is checked against
    the `allowed` symmetries (R7, R8, A17)."""
    shape = f"{where}: give 8 rows of 8 squares, R, B or . for gray, row 1 first"
    if not isinstance(rows, (list, tuple)) or len(rows) != SIZE or not all(isinstance(x, str) for x in rows):
        raise PositionError(shape)
    g: Grid = {}
    for r, row in enumerate(rows):
        cells = row.strip().upper().replace(" ", "")
        if len(cells) != SIZE or any(ch not in GRID_CELL for ch in cells):
            raise PositionError(f"{shape}; row {r + 1} is {row!r}")
        for c, ch in enumerate(cells):
            g[(c, r)] = GRID_CELL[ch]
    if allowed is not None:
        problem = grid_problem(g, allowed, where)
        if problem:
            raise PositionError(problem.replace(". Fix the grid, or clear all its cells to have it generated from the seed", ""))
    return g


# --------------------------------------------------------------------- text and pictures of the facts

def _applied_text(f: SpacesApplied) -> str:
    """'G4 (+2), A6 (+1); block F1, flip D4'."""
    kept = [f"{r.square} (+{r.amount})" for r in f.spaces]
    abil = [f"block {b}" for b in f.blocks] + [f"defend {d}" for d in f.defends] + ([f"flip {f.flip}"] if f.flip else [])
    return (", ".join(kept) or "none") + (("; " + ", ".join(abil)) if abil else "")


def _penalty_text(f: MediatorPenalty) -> str:
    names = " and ".join(m.replace("_space", " space") for m in f.missing)
    return f"No usable {names} from you: {plural(f.points, 'point')} off, as the host's rules for this game say."


def _manual_item_text(f: ManualItemRuling) -> str:
    if f.pending:
        return (f"Item {f.name} on {' '.join(f.squares)}: the host has not ruled on its effect yet; this grid and "
                "the scores leave it out until then.")
    parts = ([f"its squares end {f.colour}"] if f.colour else []) + \
        [f"{team} {n:+d} {plural_noun('tile', abs(n))}" for team, n in (("Red", f.red_tiles), ("Blue", f.blue_tiles)) if n]
    return f"Item {f.name}, as the host ruled: " + ("; ".join(parts) or "no effect") + "."


def _play_lines(played: Sequence[Any]) -> list[str]:
    """Everyone's play, round by round (the A35 reveal at the end of the game)."""
    lines = []
    for r in sorted({f.round for f in played}):
        subs = [f for f in played if isinstance(f, SpacesApplied) and f.round == r]
        if subs:
            lines.append(f"Round {r}: " + "; ".join(
                f"{f.player} " + (_applied_text(f) if f.submitted else "submitted nothing")
                + "".join(f" ({x.typed} replaced by {x.placed or 'nothing'})" for x in f.replacements)
                for f in subs) + ".")
        vals = [f for f in played if isinstance(f, SpaceValue) and f.round == r]
        if vals:
            lines.append(f"Round {r} values: " + ", ".join(
                f"{v.square} {v.value}" + (f" (raised {v.raised}, reduced {v.reduced})" if v.reduced else "")
                for v in vals) + ".")
        flips = [f for f in played if isinstance(f, SaboteurFlip) and f.round == r]
        if flips:
            lines.append(f"Round {r} flips: " + ", ".join(f"{x.square} {x.before} to {x.after}" for x in flips) + ".")
    return lines


def _square_colours(rows: Sequence[str]) -> dict[str, str]:
    g = parse_grid(rows)
    return {sq_name(s): g[s] for s in ALL_SQUARES}


def tiles_block(title: str, known: FogTiles, centre: FogCentre | None, row_one: str) -> Block:
    """Round 4: the centre four and one player's known tiles only (R48-R50)."""
    g: Grid = {s: GRAY for s in ALL_SQUARES}
    shown = set()
    for t in (centre.tiles if centre else ()) + known.tiles:
        s = parse_square(t.square)
        g[s] = _letter(t.colour)
        shown.add(s)
    lines = (f"You know {len(known.tiles)} tiles besides the centre four: "
             + " ".join(sorted(t.square for t in known.tiles)),)
    return board_block(title, g, shown, row_one, lines)


def _ink(fill: str) -> str:
    """Black or white, whichever reads better on `fill` (WCAG relative luminance)."""
    def lin(v: int) -> float:
        x = v / 255
        return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4
    r, g, b = (int(fill[i:i + 2], 16) for i in (0, 2, 4))
    lum = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
    return "000000" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "FFFFFF"


CELL, LABEL_W, GAP = 34, 22, 24
BOARD_W = LABEL_W + SIZE * CELL
BOARD_TOP = 36 + 22       # the caption, then the column letters
LEGEND = (("Red", RED), ("Blue", BLUE), ("Gray", GRAY), ("Hidden", "?"))


def square_box(board: int, square: str, row_one: str = "top") -> tuple[float, float]:
    """The centre of `square` on the `board`-th board of a picture (for tests and overlays)."""
    c, r = parse_square(square)
    i = r if row_one == "top" else SIZE - 1 - r
    return (10 + board * (BOARD_W + GAP) + LABEL_W + c * CELL + CELL / 2, BOARD_TOP + 16 + i * CELL + CELL / 2)


def board_picture(title: str, boards: Sequence[tuple[str, Mapping[str, str], set]], row_one: str) -> Picture:
    """Boards side by side, squares in their colours (hidden ones dark), item squares dotted, and a
    legend whose labels are written in black or white, whichever reads on the fill."""
    shapes: list[Any] = [Label(10, 8, title, size=16, bold=True)]
    used: set[str] = set()
    for k, (caption, colours, marks) in enumerate(boards):
        x0 = 10 + k * (BOARD_W + GAP)
        shapes.append(Label(x0, 36, caption, size=13))
        for c in range(SIZE):
            shapes.append(Label(x0 + LABEL_W + c * CELL + CELL / 2, BOARD_TOP + 7, COLS[c], size=12, bold=True,
                                anchor="mm"))
        order = range(SIZE) if row_one == "top" else range(SIZE - 1, -1, -1)
        for i, r in enumerate(order):
            y = BOARD_TOP + 16 + i * CELL
            shapes.append(Label(x0 + LABEL_W / 2, y + CELL / 2, str(r + 1), size=12, bold=True, anchor="mm"))
            for c in range(SIZE):
                name = sq_name((c, r))
                col = colours.get(name, "?")
                used.add(col)
                x = x0 + LABEL_W + c * CELL
                shapes.append(Box(x, y, CELL, CELL, fill=FILL[col], outline="FFFFFF"))
                if name in marks:
                    shapes.append(Dot(x + CELL - 7, y + 7, 3, fill=_ink(FILL[col])))
    legend_y = BOARD_TOP + 16 + SIZE * CELL + 12
    entries = [(text, key) for text, key in LEGEND if key != "?" or "?" in used]
    for i, (text, key) in enumerate(entries):
        x = 10 + i * 78
        shapes.append(Box(x, legend_y, 72, 24, fill=FILL[key], outline="000000"))
        shapes.append(Label(x + 36, legend_y + 12, text, colour=_ink(FILL[key]), size=13, anchor="mm"))
    if any(marks for _, _, marks in boards):
        shapes.append(Label(10 + len(entries) * 78, legend_y + 5, "dot: an item's square", size=13))
    width = max(10 + len(boards) * (BOARD_W + GAP) - GAP + 10, 480)
    return Picture(width, legend_y + 24 + 10, tuple(shapes), title=title)


def fog_knowledge(rd: int, cur: Mapping[str, Any]) -> tuple[FogCentre, dict[str, FogTiles]]:
    """Round 4 at its start: the public centre four and each player's known tiles (R48-R50, A24)."""
    g = parse_grid(cur["grid"])
    centre = FogCentre(rd, tuple(SeenTile(sq_name(s), COLOR_NAME[g[s]]) for s in sorted(CENTER)))
    known = {p: FogTiles(rd, p, tuple(SeenTile(t, COLOR_NAME[g[parse_square(t)]]) for t in sorted(tiles)), audience=(p,))
             for p, tiles in sorted(cur["fog"].items())}
    return centre, known


GAME = FlickeringLights()
