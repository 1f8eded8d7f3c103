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
  Items (table Items, A18) may be placed symmetrically: note, lock, bonus, value.
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
  total wins and the lowest is the Elimination Candidate; ties go to the host. No
  garnets move unless the host sets an option (A31).

A worked example (A7): a red square reached by red X = 3 and blue X = 1 turns blue.

>>> g = parse_grid(["........"] * 3 + ["...RB..."] + ["........"] * 4)
>>> fin = recolor(g, {(3, 3): 3, (4, 3): 1}, DEFAULT_OPTIONS)
>>> fin[(3, 3)], fin[(4, 3)], fin[(0, 3)], fin[(5, 3)]
('B', 'B', 'R', 'B')
"""
from __future__ import annotations

import copy
import enum
from typing import Any, Callable, Mapping, Sequence

from ..core.errors import ConfigError
from ..core.game import GameRules
from ..core.parsing import clean, is_formula, parse_int, split_list
from ..core.rng import Rng
from ..core.types import (Block, Cell, Field, FieldKind, Form, GameSpec, LedgerEntry, Option,
                          Outcome, Problem, ProblemKind, RawSubmission, Report, RoundInput,
                          RoundResult, Section, State, Submission, TableSpec, Tables)

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
    """8 strings of R/B/. , row 1 first, column A first."""
    return {(c, r): rows[r][c] for c in range(SIZE) for r in range(SIZE)}


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
    """A sentence saying why the grid breaks R7/R8, or None if it is fine."""
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
    return (f"{where}: the red squares do not map onto the blue squares under any of {ways} (R8); "
            f"e.g. under {TRANSFORM_TEXT[n0]} red {sq_name(bad)} lands on {sq_name(land)}, which is "
            f"{COLOR_NAME[g[land]]}. Fix the grid, or clear all its cells to have it generated from the seed")


def orbits(name: str) -> list[list[Square]]:
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
        out.append(orb)
    return out


def capacity(name: str) -> int:
    """The most red squares a grid symmetric under `name` can hold."""
    return sum({1: 0, 2: 1, 4: 2}[len(o)] for o in orbits(name))


def generate_grid(rng: Rng, name: str, red_count: int) -> Grid:
    """A seeded grid whose `red_count` red squares map onto the blue ones under `name` (A16)."""
    g: Grid = {s: GRAY for s in ALL_SQUARES}
    left = min(red_count, capacity(name))
    orbs = rng.shuffled([o for o in orbits(name) if len(o) > 1])
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
ITEM_KINDS = ("note", "lock", "bonus", "value")

SPEC = GameSpec(
    id="flickering-lights",
    name="Flickering Lights",
    min_players=7, max_players=7, recommended_players=7, rounds=ROUNDS,
    summary="Hidden teams and roles each round; claim squares of an 8x8 grid for a team you only half know.",
    options=(
        Option("row_one", "top", "Where row 1 is drawn on boards: top (spreadsheet style) or bottom "
               "(chess style). Display only; A1 is always column A, row 1.", ("top", "bottom"), "A1"),
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
               "with a diagonal mirror).", ruling="A16"),
        Option("grid_symmetry", "random", "The symmetry of generated grids: random (seeded among the "
               "allowed ones) or one of them.", ("random",) + tuple(TRANSFORMS), "A16"),
        Option("diagonal_symmetry", False, "Also allow the two diagonal mirrors (not in the ruleset's "
               "list).", ruling="A17"),
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
               ruling="A35"),
        Option("reveal_roles_at_end", False, "At the end of the game publish every round's roles with "
               "the alignments.", ruling="A35"),
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
        TableSpec("Items", "items.csv", "Round items: round, item (name), kind (note, lock, bonus, value), "
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


def read_grids(tables: Tables) -> tuple[dict[int, Grid], list[str]]:
    """Host grids by round from the Grids table, and problems (sentences)."""
    rect = tables.get("Grids") or []
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
        p = grid_problem(g, tuple(TRANSFORMS), f"Grids, round {rd}")
        if p:
            probs.append(p)
            continue
        out[rd] = g
    return out, probs


def read_items(tables: Tables) -> tuple[dict[int, list[dict]], list[str]]:
    """Items by round from the Items table (A18), and problems."""
    rect = tables.get("Items") or []
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
    """Host-fixed teams and roles by round (A20), checked for shape, and problems."""
    rect = tables.get("Assignments") or []
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
        teams = [t for t, _ in a.values()]
        red = sorted(r for t, r in a.values() if t == "Red")
        blue = sorted(r for t, r in a.values() if t == "Blue")
        if (len(a), teams.count("Red"), teams.count("Blue"), teams.count("White")) != (7, 3, 3, 1):
            probs.append(f"Assignments, round {rd}: give all 7 players, 3 Red, 3 Blue and 1 White (R2)")
        elif red != blue or len(set(red)) != 3 or "Mediator" in red:
            probs.append(f"Assignments, round {rd}: both teams need the same three different roles (R4); "
                         f"Red has {', '.join(red)}, Blue has {', '.join(blue)}")
        elif rd == 2 and "Blocker" in red or rd == 4 and "Coordinator" in red:
            probs.append(f"Assignments, round {rd}: {'Blocker' if rd == 2 else 'Coordinator'} is not in play "
                         "this round (R39, R47)")
    return out, probs


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
    for sq in ALL_SQUARES:
        best: dict[str, int] = {}
        for s, x, col in sources:
            if distance(s, sq, metric) <= x:
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
                bonus_items: Sequence[dict] = ()) -> dict[str, Any]:
    """Tiles, bonuses and points of one round (R33-R36, R44-R46, R53-R55, A21, A22, A26-A29)."""
    tiles = {c: sum(1 for s in ALL_SQUARES if final[s] == c) for c in (RED, BLUE)}
    items = {RED: 0, BLUE: 0}
    for it in bonus_items:
        for s in it["squares"]:
            col = final[tuple(s)]
            if col in items:
                items[col] += it["amount"]
    conn = {RED: 0, BLUE: 0}
    groups = {RED: 0, BLUE: 0}
    if variation is Variation.CONNECTION:
        groups = {c: largest_group(final, c, int(options.get("connectivity", 4))) for c in (RED, BLUE)}
        if groups[RED] != groups[BLUE]:
            conn[RED if groups[RED] > groups[BLUE] else BLUE] = 4
    triples = {RED: 0, BLUE: 0}
    if variation is Variation.TRIPLES:
        triples = {c: three_in_a_rows(final, c, options.get("three_in_a_row", "windows")) for c in (RED, BLUE)}
    total = {c: tiles[c] + items[c] + conn[c] + triples[c] for c in (RED, BLUE)}
    points = {c: total[c] + (8 if total[c] > total[other(c)] else 0) for c in (RED, BLUE)}
    counts_conn = options.get("mediator_counts_connection_bonus", True)
    base = {c: tiles[c] + items[c] + (conn[c] if counts_conn else 0) for c in (RED, BLUE)}
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
    return {"tiles": tiles, "items": items, "groups": groups, "conn": conn, "triples": triples,
            "total": total, "points": points, "base": base, "diff": diff, "winner": winner,
            "white": white}


def other(color: str) -> str:
    return BLUE if color == RED else RED


# --------------------------------------------------------------------- the game

SECTIONS = ("spaces", "block", "flip", "defend", "mediator")


class FlickeringLights(GameRules):
    spec = SPEC

    # ---- setup and the opening of a round ---------------------------------
    def check_tables(self, tables: Tables) -> list[str]:
        grids, probs = read_grids(tables)
        items, p2 = read_items(tables)
        _, p3 = read_assignments(tables)
        probs += p2 + p3
        for rd, its in sorted(items.items()):
            if rd in grids:
                ok = [n for n in symmetries(grids[rd], tuple(TRANSFORMS)) if items_symmetric(its, n)]
                if not ok:
                    probs.append(f"Items, round {rd}: the items are not symmetric under the transform that "
                                 "maps the round's red squares onto its blue squares (A18); place each "
                                 "item's squares on mirror or rotation images of each other")
            elif not any(items_symmetric(its, n) for n in TRANSFORMS):
                probs.append(f"Items, round {rd}: the items are not symmetric under any mirror or rotation "
                             "(A18); place each item's squares on images of each other")
        return probs

    def setup(self, players: Sequence[str], options: Mapping[str, Any], tables: Tables, rng: Rng) -> State:
        opts = dict(DEFAULT_OPTIONS)
        opts.update(options)
        for rd in (2, 4):
            role_pool(rd, opts)  # raises ConfigError on a bad pool
        st: State = {"round": 1, "finished": False, "players": list(players), "options": opts,
                     "totals": {p: 0 for p in players}, "history": [], "used_grids": [], "log": []}
        log = self._open_round(st, 1, tables, rng.fork("open", 1), strict=True)
        st["log"] = log
        return st

    def _open_round(self, st: State, rd: int, tables: Tables, rng: Rng, strict: bool = False) -> list[str]:
        """Draw teams and roles, pick the grid, brief the Coordinators and (round 4) the fog tiles."""
        opts = st["options"]
        players = list(st["players"])
        log: list[str] = []
        # Items (A18)
        items_by, iprobs = read_items(tables)
        items = items_by.get(rd, []) if not iprobs else []
        if iprobs:
            log.append("Items table has problems, so no items this round: " + "; ".join(iprobs))
        # Grid (A16, A17)
        allowed = allowed_transforms(opts)
        host, gprobs = read_grids(tables)
        grid = host.get(rd)
        transform = ""
        if grid is not None:
            ok = [n for n in symmetries(grid, allowed) if items_symmetric(items, n)]
            if not ok:
                msg = grid_problem(grid, allowed, f"Grids, round {rd}") or \
                    f"Grids, round {rd}: the items are not symmetric under the grid's symmetry (A18)"
                if strict:
                    raise ConfigError(msg)
                log.append(msg + "; a grid was generated instead")
                grid = None
            else:
                transform = ok[0]
                log.append(f"Round {rd} grid: entered by the host (symmetric under {TRANSFORM_TEXT[transform]})")
                if grid_rows(grid) in st["used_grids"]:
                    log.append(f"Warning: the round {rd} grid is the same as an earlier round's (R7 wants a "
                               "different grid each round)")
        if grid is None:
            cands = [n for n in allowed if items_symmetric(items, n)]
            if not cands:
                cands = list(allowed)
                log.append(f"Round {rd}: no allowed symmetry keeps the items symmetric; items ignored")
                items = []
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
        fixed, aprobs = read_assignments(tables)
        assign: dict[str, dict[str, str]] = {}
        roles: list[str] = []
        chosen = fixed.get(rd) if not aprobs else None
        if chosen is not None and sorted(chosen) != sorted(players):
            if strict:
                raise ConfigError(f"Assignments, round {rd}: the players named ({', '.join(sorted(chosen))}) "
                                  f"are not this game's players ({', '.join(sorted(players))})")
            log.append(f"Assignments, round {rd}: the players named are not this game's players; drawn instead")
            chosen = None
        if chosen is not None:
            assign = {p: {"team": t, "role": r} for p, (t, r) in chosen.items()}
            roles = [r.value for r in TEAM_ROLES if any(a["role"] == r.value for a in assign.values())]
            log.append(f"Round {rd} teams and roles: entered by the host")
        else:
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
        g = parse_grid(state["current"]["grid"])
        if state["round"] == Variation.FOG.value or color is None:
            return tuple(sq_name(s) for s in ALL_SQUARES)
        return tuple(sq_name(s) for s in ALL_SQUARES if g[s] == color)

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
        sqs = self._squares_of(state, color)
        return f"a {COLOR_NAME[color]} square of this round's grid: {' '.join(sqs)}"

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
        st = copy.deepcopy(state)
        rd = int(st["round"])
        var = Variation(rd)
        opts = st["options"]
        cur = st["current"]
        players = list(st["players"])
        assign = cur["assign"]
        g0 = parse_grid(cur["grid"])
        log: list[str] = [f"Round {rd} ({var.title}) resolution"]
        if rd == 1 and st.get("log"):
            log = list(st["log"]) + log
        st["log"] = []
        echo: dict[str, list[str]] = {p: [] for p in players}
        r4_detail: dict[str, list[str]] = {p: [] for p in players}
        renumber = opts.get("invalid_entries", "drop_and_renumber") == "drop_and_renumber"
        inc: dict[Square, int] = {}
        red_by: dict[Square, int] = {}
        flips: list[Square] = []
        fog = var is Variation.FOG

        def add(s: Square, n: int) -> None:
            inc[s] = inc.get(s, 0) + n

        for p in players:
            team, role = Team(assign[p]["team"]), Role(assign[p]["role"])
            sub = round_input.submissions.get(p)
            if sub is None:
                vals: Mapping[str, Any] = self.default_submission(st, p, rng)
                echo[p].append("You submitted nothing: no spaces and no abilities (the rules' default).")  # A32
                if team is Team.WHITE:
                    log.append(f"{p} (White) submitted nothing; the White player 'must' submit two spaces "
                               "(R13): flagged, no penalty applied (A32)")
            else:
                vals = sub.values
                for pr in sub.problems:
                    log.append("problem: " + pr.message)
                if not fog:
                    echo[p] += ["Problem: " + pr.message for pr in sub.problems]
            sections = self._sections(st, p)
            lists: dict[str, list] = {}
            for sec in sections:
                if sec == "mediator":
                    continue
                lists[sec] = [v for v in vals.get(sec, [])]
            red_sq = vals.get("red_space") if "mediator" in sections else None
            blue_sq = vals.get("blue_space") if "mediator" in sections else None
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
                        line = (f"Round 4 {sec}: {v} was not {COLOR_NAME[need]}; "
                                + (f"replaced by {new} at random" if new else "nothing qualified; dropped"))  # A23
                        r4_detail[p].append(line)
                        log.append(f"{p}: {line}")
                for fld, need in (("red_space", RED), ("blue_space", BLUE)):
                    v = red_sq if fld == "red_space" else blue_sq
                    if v is None or g0[parse_square(v)] == need:
                        continue
                    new = sq_name(frng.choice([s for s in ALL_SQUARES if g0[s] == need]))
                    r4_detail[p].append(f"Round 4 {fld}: {v} was not {COLOR_NAME[need]}; replaced by {new} "
                                        "at random")  # A23
                    log.append(f"{p}: {fld} {v} replaced by {new}")
                    if fld == "red_space":
                        red_sq = new
                    else:
                        blue_sq = new
            # increases (R14, R15, R24, A5, A15, A33)
            kept: list[str] = []
            if "spaces" in lists:
                slots = lists["spaces"]
                if renumber:
                    slots = [v for v in slots if v is not None]
                for i, v in enumerate(slots):
                    if v is None:
                        continue
                    n = (4 if role is Role.SNIPER else 2) if i == 0 else 1
                    add(parse_square(v), n)
                    kept.append(f"{v} (+{n})")
            for v in (red_sq, blue_sq):
                if v is not None:
                    add(parse_square(v), 1)
                    kept.append(f"{v} (+1)")
            abil = []
            for sec in ("block", "defend"):
                for v in lists.get(sec, []):
                    if v is not None:
                        s = parse_square(v)
                        red_by[s] = red_by.get(s, 0) + 1
                        abil.append(f"{sec} {v}")
            for v in lists.get("flip", []):
                if v is not None:
                    flips.append(parse_square(v))
                    abil.append(f"flip {v}")
            if fog:
                typed = [v for sec in ("spaces", "block", "flip") for v in (vals.get(sec) or []) if v]
                typed += [v for v in (vals.get("red_space"), vals.get("blue_space")) if v]
                if sub is not None:
                    echo[p].append("Received: " + (", ".join(typed) if typed else "no squares")
                                   + ". What became of them is disclosed at the end of the game.")  # R52, A23
            elif sub is not None:
                echo[p].append("Your spaces as read: " + (", ".join(kept) if kept else "none")
                               + (("; " + ", ".join(abil)) if abil else "") + ".")
            log.append(f"{p} ({team.value} {role.value}): spaces {', '.join(kept) or 'none'}"
                       + (f"; {', '.join(abil)}" if abil else ""))
        # items (A18)
        locks = {tuple(s) for it in cur["items"] if it["kind"] == "lock" for s in it["squares"]}
        for it in cur["items"]:
            if it["kind"] == "value":
                for s in it["squares"]:
                    add(tuple(s), it["amount"])
        # values, flips, recolouring (R16-R20, R28, R31, R41, R42, A6-A11)
        values = {s: max(0, n - red_by.get(s, 0)) for s, n in inc.items()}
        g1 = dict(g0)
        for s in flips:
            if s in locks:
                log.append(f"flip of {sq_name(s)} has no effect: the square is locked")
                continue
            g1[s] = other(g1[s]) if g1[s] in (RED, BLUE) else g1[s]
        spread = g1 if opts.get("flip_spreads", True) else g0
        keep = g1 if opts.get("tie_keeps", "after_flip") == "after_flip" else g0
        final = recolor(g1, values, opts, spread, keep)
        for s in locks:
            final[s] = g0[s]
        log.append("values: " + (", ".join(f"{sq_name(s)}={x}" for s, x in sorted(values.items(), key=lambda kv: sq_name(kv[0])) if x)
                                 or "none"))
        if flips:
            log.append("flips: " + ", ".join(sq_name(s) for s in flips))
        bonus_items = [it for it in cur["items"] if it["kind"] == "bonus"]
        sc = score_round(var, final, opts, bonus_items)
        pts: dict[str, int] = {}
        for p in players:
            t = assign[p]["team"]
            pts[p] = sc["white"] if t == "White" else sc["points"][Team(t).color]
            st["totals"][p] += pts[p]
        log.append(f"tiles red {sc['tiles'][RED]}, blue {sc['tiles'][BLUE]}; totals red {sc['total'][RED]}, "
                   f"blue {sc['total'][BLUE]}; points " + ", ".join(f"{p} {pts[p]}" for p in players))
        st["history"].append({"round": rd, "grid_start": cur["grid"], "grid_end": grid_rows(final),
                              "assign": assign, "roles": cur["roles"], "points": pts,
                              "score": {"tiles": [sc["tiles"][RED], sc["tiles"][BLUE]],
                                        "total": [sc["total"][RED], sc["total"][BLUE]]},
                              "r4": r4_detail if fog else {}})
        # reports
        row_one = opts.get("row_one", "top")
        public_blocks: list[Block] = []
        if fog:
            public_blocks.append(Block("Round 4: Fog of War", (
                "The board and the scores of this round stay hidden until the end of the game.",)))  # R52
        else:
            lines = ()
            if opts.get("publish_counts"):
                gray = 64 - sc["tiles"][RED] - sc["tiles"][BLUE]
                lines = (f"Red {sc['tiles'][RED]}, blue {sc['tiles'][BLUE]}, gray {gray} squares.",)
            public_blocks.append(board_block(f"Round {rd} ({var.title}): resulting grid", final, None,
                                             row_one, lines))
        private: dict[str, Report] = {}
        finished = rd == ROUNDS
        for p in players:
            t = assign[p]["team"]
            blocks = [Block("Your submission", (f"You were {t}, {assign[p]['role']} this round.",)
                            + tuple(echo[p]))]
            if fog:
                blocks.append(fog_block(st, cur, p, row_one, "Your Fog of War tiles (round 4)"))
            else:
                blocks.append(Block("Your score", tuple(self._score_lines(sc, t, pts[p], var))
                                    + (f"Running total: {self._visible_total(st, p, finished)}"
                                       + ("" if finished or len(st["history"]) < 4 else
                                          " (round 4 is added at the end of the game)"),)))
            private[p] = Report(f"Round {rd}: {var.title}", tuple(blocks))
        ledger: list[LedgerEntry] = []
        if finished:
            st["finished"] = True
            public_blocks += self._end_public(st, row_one)
            for p in players:
                h4 = next((h for h in st["history"] if h["round"] == 4), None)
                lines = []
                if h4 is not None:
                    lines.append(f"Round 4 (Fog of War): you were {h4['assign'][p]['team']} "
                                 f"{h4['assign'][p]['role']} and scored {h4['points'][p]}.")
                    lines += h4["r4"].get(p, []) or ["None of your round 4 squares was replaced."]
                lines.append(f"Final total: {st['totals'][p]}")
                private[p] = Report(private[p].title, private[p].blocks + (Block("End of the game", tuple(lines)),))
            ledger = self._end_ledger(st, round_input.balances)
        else:
            st["round"] = rd + 1
            log += self._open_round(st, rd + 1, round_input.tables, rng.fork("open", rd + 1))
        public = Report(f"Round {rd}: {var.title}", tuple(public_blocks))
        return RoundResult(st, public, private, tuple(ledger), tuple(log))

    def _score_lines(self, sc: dict, team: str, pts: int, var: Variation) -> list[str]:
        t, tot = sc["tiles"], sc["total"]
        lines = [f"Red tiles {t[RED]}, blue tiles {t[BLUE]}."]
        if var is Variation.CONNECTION:
            lines.append(f"Largest connected groups: red {sc['groups'][RED]}, blue {sc['groups'][BLUE]}; "
                         f"+4 tiles to {'red' if sc['conn'][RED] else 'blue' if sc['conn'][BLUE] else 'neither team'}.")
        if var is Variation.TRIPLES:
            lines.append(f"Three-in-a-rows: red {sc['triples'][RED]}, blue {sc['triples'][BLUE]}.")
        if sc["items"][RED] or sc["items"][BLUE]:
            lines.append(f"Bonus items: red +{sc['items'][RED]}, blue +{sc['items'][BLUE]}.")
        lines.append(f"Team totals: red {tot[RED]}, blue {tot[BLUE]}.")
        if team == "White":
            lines.append(f"Difference for the Mediator: {sc['diff']} ({'at most 7: the winning' if sc['diff'] <= 7 else 'over 7: the losing'} "
                         f"team's points{'' if sc['winner'] else '; the teams tied'}).")
        lines.append(f"Your points this round: {pts}.")
        return lines

    def _visible_total(self, st: State, p: str, finished: bool) -> int:
        total = st["totals"][p]
        if not finished:
            total -= sum(h["points"][p] for h in st["history"] if h["round"] == 4)
        return total

    def _end_public(self, st: State, row_one: str) -> list[Block]:
        opts = st["options"]
        blocks: list[Block] = []
        h4 = next((h for h in st["history"] if h["round"] == 4), None)
        if h4 is not None:
            blocks.append(board_block("Round 4 (Fog of War) grid at the start, now revealed",
                                      parse_grid(h4["grid_start"]), None, row_one))
            blocks.append(board_block("Round 4 (Fog of War) resulting grid, now revealed",
                                      parse_grid(h4["grid_end"]), None, row_one))
        head = (Cell("Player", bold=True),) + tuple(Cell(f"Round {h['round']}", bold=True) for h in st["history"])
        rows = [head]
        fills = {"Red": FILL[RED], "Blue": FILL[BLUE], "White": "FFFFFF"}
        for p in sorted(st["players"]):
            cells = [Cell(p)]
            for h in st["history"]:
                a = h["assign"][p]
                text = a["team"] + (f" {a['role']}" if opts.get("reveal_roles_at_end") else "")
                cells.append(Cell(text, fill=fills[a["team"]]))
            rows.append(tuple(cells))
        blocks.append(Block("Alignments, revealed at the end of the game", grid=tuple(rows)))  # R22
        return blocks

    def _ranking(self, st: State) -> tuple[list[str], list[str], list[str]]:
        """Players best first, the winners, the EC candidates (A30)."""
        totals = st["totals"]
        won = {p: sum(1 for h in st["history"] if self._won(h, p)) for p in st["players"]}
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

    def _end_ledger(self, st: State, balances: Mapping[str, int]) -> list[LedgerEntry]:
        opts = st["options"]
        out: list[LedgerEntry] = []
        bal = dict(balances)
        per = int(opts.get("garnets_per_points", 0))
        if per > 0:
            for p in st["players"]:
                n = st["totals"][p] // per
                if n:
                    out.append(LedgerEntry(p, n, f"Flickering Lights: {st['totals'][p]} points, 1 garnet per {per}"))
                    bal[p] = bal.get(p, 0) + n
        _, top, low = self._ranking(st)
        if int(opts.get("winner_garnets", 0)) and len(top) == 1:
            n = int(opts["winner_garnets"])
            n = max(n, -bal.get(top[0], 0))
            if n:
                out.append(LedgerEntry(top[0], n, "Flickering Lights: Main Match winner"))
                bal[top[0]] = bal.get(top[0], 0) + n
        if int(opts.get("ec_garnets", 0)) and len(low) == 1:
            n = max(int(opts["ec_garnets"]), -bal.get(low[0], 0))
            if n:
                out.append(LedgerEntry(low[0], n, "Flickering Lights: Elimination Candidate"))
        return out

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
            lines.append("The three roles in play on both teams: " + ", ".join(cur["roles"]) + ".")  # R32
        if player in cur["lists"]:
            lines.append("Your list: " + ", ".join(cur["lists"][player])
                         + " (your two teammates and, if in play, the other team's Saboteur; unlabelled).")
        done = len(state["history"])
        if done:
            lines.append(f"Your points so far: {self._visible_total(state, player, False)}"
                         + (" (round 4 is added at the end of the game)" if done >= 4 else "") + ".")
        blocks = [Block(f"Your briefing for round {rd}", tuple(lines))]
        if rd == Variation.FOG.value:
            blocks.append(fog_block(state, cur, player, state["options"].get("row_one", "top"), "The tiles you know this round"))
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

    def outcome(self, state: State, decisions=None) -> Outcome | None:
        if not state["finished"]:
            return None
        order, top, low = self._ranking(state)
        totals = state["totals"]
        pending = []
        reasons = ["The ruleset does not say how the match is won; by default the highest "  # A30
                   "five-round total wins and the lowest is the Elimination Candidate."]
        if state["options"].get("end_of_match") == "total_rounds_won":
            reasons.append("Equal totals are broken by the number of rounds the player's side won (host option).")
        if len(top) > 1:
            pending.append("The winners tie on " + ", ".join(top) + "; the host decides.")  # A30
        ec = low[0] if len(low) == 1 else None
        if ec is None:
            pending.append("The lowest totals tie: " + ", ".join(low) + "; the host chooses the "
                           "Elimination Candidate.")  # A30
        else:
            reasons.append(f"{ec} has the lowest total ({totals[ec]}).")
        reasons.append(", ".join(top) + f" {'has' if len(top) == 1 else 'have'} the highest total ({totals[top[0]]}).")
        losers = tuple(low)
        standings = tuple((p, f"{totals[p]} points") for p in order)
        return Outcome(winners=tuple(top), losers=losers, elimination_candidate=ec,
                       standings=standings, reasons=tuple(reasons), pending=tuple(pending))

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


def fog_block(state: State, cur: Mapping[str, Any], player: str, row_one: str, title: str) -> Block:
    """Round 4: the centre four and this player's known tiles only (R48-R50)."""
    g = parse_grid(cur["grid"])
    known = {parse_square(t) for t in cur["fog"].get(player, [])}
    lines = (f"You know {len(known)} tiles besides the centre four: " + " ".join(sorted(cur['fog'].get(player, []))),)
    return board_block(title, g, set(CENTER) | known, row_one, lines)


GAME = FlickeringLights()
