"""Bugcatcher (designer uriquack, "The Genius: House of Larks"): Main Match 5, 9 players.

Rules in brief (R and A numbers from shared/rulings/bugcatcher.md):

- The board is 6 columns (A-F) x 5 rows (1-5) of cells; A1 is upper left (R3, R4, A1,
  A2). Border nodes sit on the 7x6 lattice of cell corners and move along cell edges;
  central nodes sit in cells and move between cell centres (R5-R9, A3).
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
  board, a shape in the ruleset's notation for the border or central node, a reward and
  an optional failure penalty with its window. Players accept missions from the current
  board; a successful path containing the shape (any rotation, reflection or direction
  of travel) completes it; rewards are split rounding up; acceptors who fail pay the
  penalty when someone else completes it or when the window ends. Completions are
  announced without names (R62).
- Information (R63-R68, A33-A35): the public board shows every path in its colour,
  unlabelled; each player learns their own firefly total each round; all totals at
  the end. The most fireflies wins 1 garnet and 2 Tokens of Life, the fewest is the
  Elimination Candidate; ties by missions completed, fewest collisions caused, then the
  Gamewide Tiebreak (a host table; a seeded draw if it is blank) (R69-R72, A32). Every
  player earns 1 garnet per 30 fireflies (R73, A31).

The ruleset's example submission (R35, R36) from C3 and C1 bottom right:

>>> res = run_paths({"p": {"B": point_fine(3, 1), "C": cell_fine(2, 2)}}, {"p": "blue"},
...                 {"p": ["BD", "BL", "CL", "BD", "swap", "BL", "CD"]}, DEFAULTS)
>>> res.moves["p"], res.paths["p"], res.border_colour["p"]
({'B': 'DLDL', 'C': 'LD'}, 6, 'black')
"""
from __future__ import annotations

import copy
import enum
import math
import re
from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from ..core.errors import ConfigError
from ..core.game import GameRules
from ..core.parsing import MAX_DIGITS, YES_NO_HELP, clean, host_flag, int_reason, is_formula, parse_int, yes_no
from ..core.rng import Rng
from ..core.types import (Award, Block, Cell, Field, FieldKind, Form, GameSpec, LedgerEntry,
                          Option, Outcome, Problem, ProblemKind, RawSubmission, Report,
                          RoundInput, RoundResult, Section, State, Submission, TableSpec, Tables)

# --------------------------------------------------------------------- spec

MISSIONS_TABLE = "Missions"
TIEBREAK_TABLE = "Gamewide Tiebreak"
ENERGY = 7            # R12
LIST_LENGTH = 9       # R17
ACTION_ROWS = 8       # 7 energy actions + one garnet swap (E9)

SPEC = GameSpec(
    id="bugcatcher",
    name="Bugcatcher",
    min_players=2, max_players=12, recommended_players=9, rounds=7,
    summary="Steer a border node and a central node across a 6x5 grid, dodge collisions, "
            "complete missions and collect fireflies.",
    options=(
        Option("rounds", 7, "Number of rounds after the pregame (R27).", ruling="A43"),
        Option("columns", 6, "Board columns, lettered A.. left to right (R3).", ruling="A1"),
        Option("rows", 5, "Board rows, numbered 1.. top to bottom (R3).", ruling="A1"),
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
        Option("offboard_policy", "stop_node", "A path off the board is invalid and stops that node for "
               "the round, or only that action is skipped.", ("stop_node", "skip_action"), "E5"),
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
               ruling="A33"),
        Option("public_step_order", False, "Write each path's step number on the public board.",
               ruling="A33"),
        Option("private_breakdown", True, "Private reports include the breakdown (actions, collisions, "
               "missions); false: the firefly total and nodes only.", ruling="A34"),
        Option("reveal_all_stats", False, "At the end reveal everyone's missions and collisions, not only "
               "for players whose tie used them.", ruling="A35"),
    ),
    tables=(
        TableSpec(MISSIONS_TABLE, "missions.csv",
                  "Each round's mission board (R48): round, id, name, node (border/central/any), shape "
                  "(e.g. DDRDL), reward, penalty, failure_rounds, rotate, reflect, either_end, anywhere, "
                  "expires_after_round, text. Future rounds can be edited between rounds."),
        TableSpec(TIEBREAK_TABLE, "gamewide_tiebreak.csv",
                  "The Gamewide Tiebreak (R71): rank (1 = best) and player. Fill it before the last "
                  "round; players not listed are ordered by a seeded draw if it is needed."),
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


SWAP, GSWAP, IDLE = "swap", "gswap", "idle"
PATH_CODES: tuple[str, ...] = tuple(n + d for n in "BC" for d in "UDLR")
ACTION_CHOICES: tuple[str, ...] = PATH_CODES + (SWAP, GSWAP)
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


def other(colour: str) -> str:
    return BLACK if colour == BLUE else BLUE


# ------------------------------------------------------------- coordinates
# Everything is kept on one "fine" grid of (2*columns+1) x (2*rows+1) points: lattice
# corner (x, y) is (2x, 2y), the centre of cell (c, r) is (2c+1, 2r+1), and a path of
# either kind moves 2 fine units; its midpoint is where it crosses the other lattice (A4).

def point_fine(x: int, y: int) -> tuple[int, int]:
    return (2 * x, 2 * y)


def cell_fine(c: int, r: int) -> tuple[int, int]:
    return (2 * c + 1, 2 * r + 1)


def on_board(fine: Sequence[int], cols: int, rows: int) -> bool:
    return 0 <= fine[0] <= 2 * cols and 0 <= fine[1] <= 2 * rows


def cell_label(c: int, r: int) -> str:
    return f"{chr(ord('A') + c)}{r + 1}"


def parse_cell(text: str, cols: int, rows: int) -> tuple[int, int] | None:
    """'C3' -> (2, 2); None when it is not a cell of this board."""
    m = re.fullmatch(r"([A-Za-z])\s*(\d{1,2})", clean(text))
    if not m:
        return None
    c, r = ord(m.group(1).upper()) - ord("A"), int(m.group(2)) - 1
    return (c, r) if 0 <= c < cols and 0 <= r < rows else None


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
    if X % 2 == 0:
        return point_label(X // 2, Y // 2, cols, rows)
    return cell_label(X // 2, Y // 2)


def parse_corner(text: str) -> str | None:
    s = re.sub(r"[^a-z ]", " ", clean(text).casefold())
    s = " ".join(s.split())
    return CORNER_ALIASES.get(s) or CORNER_ALIASES.get(s.replace(" ", ""))


def key_of(fine: Sequence[int]) -> str:
    return f"{fine[0]},{fine[1]}"


# ------------------------------------------------------------- action codes

def parse_action(text: str) -> str | None:
    """A code from the shorthand or the long form: 'BD', 'border node path down', 'color swap'
    (R30, R33, R36); 'gswap' / 'garnet swap' for the garnet swap (R15). None if unreadable."""
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


def costs_energy(code: str) -> bool:
    return is_path(code) or code == SWAP


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
    return sorted(forms)


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


def matches(moves: str, variants: Sequence[str], anywhere: bool) -> bool:
    """A22/A25: the successful moves contain a variant as consecutive moves (or equal it)."""
    if anywhere:
        return any(v in moves for v in variants)
    return moves in variants


# ------------------------------------------------------------- the path engine

@dataclass
class Event:
    """What one step did for one player (private reports and the host log)."""
    step: int
    code: str
    result: str          # placed, swap, idle, stopped, offboard, collision
    text: str
    case: int = 0
    others: tuple[str, ...] = ()


@dataclass
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
    events: dict[str, list[Event]] = {p: [] for p in players}
    log: list[str] = []
    slots = {p: _slots(plans.get(p, ()), opts["gswap_takes_step"]) for p in players}
    steps = max((len(s) for s in slots.values()), default=0)

    def node_colour(p: str, n: str) -> str:
        return colour[p] if n == "B" else other(colour[p])

    def lbl(f: Sequence[int]) -> str:
        return fine_label(f, cols, rows)

    for k in range(1, steps + 1):
        proposals: list[dict[str, Any]] = []
        for p in players:
            if k > len(slots[p]):
                continue
            flips, code = slots[p][k - 1]
            for _ in range(flips):
                colour[p] = other(colour[p])
            if code is None:
                continue
            if code in (SWAP, GSWAP):
                colour[p] = other(colour[p])
                events[p].append(Event(k, code, "swap", f"colour swap: border now {colour[p]}, "
                                                        f"central now {other(colour[p])}"))
                continue
            if code == IDLE:
                events[p].append(Event(k, code, "idle", "idle step (blank row)"))
                continue
            n, d = code[0], DIRS[code[1]]
            if stopped[p][n]:
                events[p].append(Event(k, code, "stopped", f"invalidated: your {Node(n).word} node stopped "
                                                           "earlier this round"))
                continue
            frm = pos[p][n]
            to = (frm[0] + 2 * d[0], frm[1] + 2 * d[1])
            if not on_board(to, cols, rows):
                if opts["offboard_policy"] == "stop_node":
                    stopped[p][n] = True
                    tail = "; this node places no more paths this round"  # E5
                else:
                    tail = "; only this action is skipped"  # E5
                events[p].append(Event(k, code, "offboard", f"invalid: from {lbl(frm)} it would leave the "
                                                            f"board{tail}"))
                continue
            proposals.append({"p": p, "n": n, "code": code, "seg": Segment(p, n, frm, to, node_colour(p, n), k),
                              "hits": []})
        # half-step: crossings of a central and a border path of the same colour (cases 3, 4)
        for pr in proposals:
            seg = pr["seg"]
            for old in placed_at.get(seg.mid, []):
                if old.node != seg.node and old.colour == seg.colour:
                    pr["hits"].append((4, old.player))
            for o in proposals:
                s2 = o["seg"]
                if o is not pr and s2.mid == seg.mid and s2.node != seg.node and s2.colour == seg.colour:
                    pr["hits"].append((3, o["p"]))
        # arrivals (cases 1, 2)
        pool = [pr for pr in proposals if not pr["hits"]] if opts["crossing_before_arrival"] else proposals
        free = []
        for pr in pool:
            owner = claimed.get(pr["seg"].to)
            if owner is not None:
                pr["hits"].append((1, owner))
            else:
                free.append(pr)
        by_target: dict[tuple[int, int], list[dict[str, Any]]] = {}
        for pr in free:
            by_target.setdefault(pr["seg"].to, []).append(pr)
        for group in by_target.values():
            if len(group) > 1:
                for pr in group:
                    pr["hits"].extend((2, o["p"]) for o in group if o is not pr)
        # apply
        for pr in proposals:
            p, n, seg = pr["p"], pr["n"], pr["seg"]
            if pr["hits"]:
                stopped[p][n] = True
                count = 1 if opts["collision_count_mode"] == "per_action" else len(pr["hits"])
                collisions[p] += count
                cases = sorted({c for c, _ in pr["hits"]})
                others = tuple(sorted({o for _, o in pr["hits"]}))
                events[p].append(Event(k, pr["code"], "collision", _collision_text(cases, pr["hits"], p, seg, lbl),
                                       cases[0], others))
                log.append(f"step {k}: {p} {pr['code']} {lbl(seg.frm)} -> {lbl(seg.to)} ({seg.colour}): "
                           + "; ".join(f"case {c} with {o}" for c, o in sorted(pr["hits"])))
            else:
                segments.append(seg)
                placed_at.setdefault(seg.mid, []).append(seg)
                claimed[seg.to] = p
                pos[p][n] = seg.to
                paths[p] += 1
                moves[p][n] += pr["code"][1]
                events[p].append(Event(k, pr["code"], "placed", f"placed {seg.colour} path {lbl(seg.frm)} -> "
                                                                f"{lbl(seg.to)}"))
    return PathResult(segments, {p: {n: pos[p][n] for n in "BC"} for p in players}, colour, paths,
                      collisions, moves, events, log)


def _collision_text(cases: Sequence[int], hits: Sequence[tuple[int, str]], p: str, seg: Segment, lbl) -> str:
    parts = []
    for c in cases:
        selfish = any(o == p for cc, o in hits if cc == c)
        mine = selfish and all(o == p for cc, o in hits if cc == c)
        whose = "your own node or path" if mine else "another node or path"
        crossed = "your own path" if mine else "another path"
        parts.append({
            1: f"case 1: {lbl(seg.to)} was already claimed by {whose}",
            2: f"case 2: another path reached {lbl(seg.to)} at the same step",
            3: f"case 3: a {seg.colour} path of the other kind crossed it at the same step",
            4: f"case 4: it crossed a {seg.colour} path placed earlier by {crossed}",
        }[c])
    return (f"collision ({'; '.join(parts)}): invalidated, and this node places no more paths "
            "this round")


# ------------------------------------------------------------- intake (E1-E4)

def clean_plan(codes: Sequence[str], has_garnet: bool, options: Mapping[str, Any]) -> tuple[list[str], bool, list[str]]:
    """The list that runs: (codes, garnet swap used, notes). E3, E4 then E1."""
    opts = {**DEFAULTS, **options}
    out: list[str] = []
    notes: list[str] = []
    used = False
    for i, c in enumerate(codes, 1):
        if c == GSWAP:
            if used:
                if opts["extra_gswap"] == "as_swap":
                    out.append(SWAP)
                    notes.append(f"action {i}: a second garnet swap counts as a normal swap (1 energy)")  # E3
                else:
                    notes.append(f"action {i}: a second garnet swap is dropped")  # E3
                continue
            if not has_garnet:
                if opts["gswap_no_garnet"] == "as_swap":
                    out.append(SWAP)
                    notes.append(f"action {i}: garnet swap without a garnet counts as a normal swap "
                                 "(1 energy)")  # E4
                else:
                    notes.append(f"action {i}: garnet swap without a garnet is dropped")  # E4
                continue
            used = True
        out.append(c)
    energy = sum(1 for c in out if costs_energy(c))
    if energy > ENERGY:
        if opts["energy_overflow"] == "reject_all":
            notes.append(f"{energy} energy of actions is more than {ENERGY}: the whole list is rejected")  # E1
            return [], False, notes
        kept, spent, dropped = [], 0, []
        for c in out:
            if costs_energy(c):
                spent += 1
                if spent > ENERGY:
                    dropped.append(c)
                    continue
            kept.append(c)
        notes.append(f"{energy} energy of actions is more than {ENERGY}: the last {len(dropped)} "
                     f"energy action(s) ({', '.join(dropped)}) are dropped")  # E1
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
        node = _cell(row, idx, "node").casefold()
        node = {"b": "border", "c": "central", "center": "central", "centre": "central", "either": "any",
                "both": "any"}.get(node, node)
        if node not in ("border", "central", "any"):
            bad.append(f"node {_cell(row, idx, 'node')!r} must be border, central or any")
        shape = parse_shape(_cell(row, idx, "shape"))
        if shape is None:
            bad.append(f"shape {_cell(row, idx, 'shape')!r} is not a list of moves such as DDRDL or "
                       "'down down right down left'")
        elif len(shape) > ENERGY:
            bad.append(f"shape {shape} has {len(shape)} moves; a round has only {ENERGY} energy")
        elif shape_revisits(shape):
            bad.append(f"shape {shape} comes back to a point it already passed, a self-collision, so "
                       "nobody can build it")
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
        out.append({"id": mid, "round": rnd, "name": name, "node": node, "shape": shape, "reward": reward,
                    "penalty": -abs(penalty or 0), "failure_rounds": failure, "expires": expires,
                    **flags, "text": text, "accepted": [], "status": "open", "completed_round": None,
                    "completers": [], "penalized": []})
    return out, problems


def mission_text(m: Mapping[str, Any]) -> str:
    """The mission as on the board, in the ruleset's style (R59, R60)."""
    words = " ".join(DIR_WORDS[c] for c in m["shape"])
    node = {"border": "your border node", "central": "your central node", "any": "either node"}[m["node"]]
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
    return (f"[{m['id']}] {m['name']}: {m['node']} {m['shape']}, +{m['reward']}"
            + (f", {m['penalty']} on failure" if m["penalty"] else "")
            + (f", until the end of round {end}" if end else ", until completed"))


def read_tiebreak(table: Sequence[Sequence[str]] | None) -> tuple[list[str], list[str]]:
    """The Gamewide Tiebreak ranking (best first) and sentences for what is wrong."""
    if not table:
        return [], []
    idx = _header(table)
    if "player" not in idx:
        return [], [f"the {TIEBREAK_TABLE} table needs a header row 'rank,player'"]
    rows, problems, seen = [], [], {}
    for n, row in enumerate(table[1:], start=2):
        name = _cell(row, idx, "player")
        if not name:
            continue
        rank_text = _cell(row, idx, "rank") if "rank" in idx else str(n - 1)
        rank = parse_int(rank_text)
        if rank is None:
            problems.append(f"{TIEBREAK_TABLE} row {n}: rank {rank_text!r} must be a whole number (1 = best)")
            continue
        if name.casefold() in seen:
            problems.append(f"{TIEBREAK_TABLE} row {n}: {name} is already ranked on row {seen[name.casefold()]}")
            continue
        seen[name.casefold()] = n
        rows.append((rank, n, name))
    ranks = [r for r, _, _ in rows]
    for r in sorted(set(ranks)):
        if ranks.count(r) > 1:
            problems.append(f"{TIEBREAK_TABLE}: rank {r} is given to more than one player; ranks must differ")
    return [name for _, _, name in sorted(rows)], problems


# ------------------------------------------------------------- pregame (A26-A30)

def assign_nodes(lists: Mapping[str, Sequence[str | None]], bids: Mapping[str, int], universe: Sequence[str],
                 rng: Rng, mode: str, what: str) -> tuple[dict[str, str], dict[str, str], set[str], list[str]]:
    """Pass-by-pass assignment of one node type (R22-R25, A27, A30).

    Returns (player -> key, player -> how it was got, players who were in a tie, log lines)."""
    players = sorted(lists)
    taken: dict[str, str] = {}
    got: dict[str, str] = {}
    how: dict[str, str] = {}
    contested: set[str] = set()
    log: list[str] = []
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
            if len(cands) == 1:
                winner = names[0]
            else:
                contested.update(names)
                top = max(bids.get(c, 0) for c in names)
                tops = sorted(c for c in names if bids.get(c, 0) == top)
                if len(tops) == 1:
                    winner = tops[0]
                    log.append(f"{what} pass {k + 1}: {key} wanted by {', '.join(sorted(names))}; "
                               f"{winner} bid most ({top})")
                else:
                    winner = rng.choice(tops)
                    log.append(f"{what} pass {k + 1}: {key} wanted by {', '.join(sorted(names))}; "
                               f"bids tied at {top} among {', '.join(tops)}; seeded draw: {winner}")
            taken[key] = winner
            got[winner] = key
            choice = dict(cands)[winner]
            how[winner] = f"your {ORDINALS[choice] if choice < len(ORDINALS) else str(choice + 1)} choice"
    for p in players:
        if p not in got:
            free = sorted(k for k in universe if k not in taken)
            key = rng.choice(free)
            taken[key] = p
            got[p] = key
            how[p] = "a random free coordinate (no entry of your list could be given)"  # A27
            log.append(f"{what}: {p} got no listed coordinate; seeded draw among free ones: {key}")
    return got, how, contested, log


# ------------------------------------------------------------- drawing

FILL = {BLUE: "2E75B6", BLACK: "000000"}
GRAY, POINT, LABEL = "D9D9D9", "F2F2F2", "FFFFFF"


def draw_board(cols: int, rows: int, segments: Sequence[Mapping[str, Any]], starts: Sequence[Mapping[str, Any]],
               ends: Sequence[Mapping[str, Any]], step_order: bool = False) -> tuple[tuple[Cell, ...], ...]:
    """The board on a (2*cols+1) x (2*rows+1) grid of cells, plus a label row and column.

    Odd/odd cells are the gray squares (cell centres), even/even cells the corner points,
    the others the cell edges, which are also where a central path crosses from one cell
    to the next (A4). segments: {"node", "frm", "to", "colour", "step"}; starts/ends:
    {"at", "colour" or None}. Border paths are drawn ─ │, central paths ═ ║, each filled
    in its colour; S marks a node at the start of the round, E at the end (A33)."""
    W, H = 2 * cols + 1, 2 * rows + 1
    fill: dict[tuple[int, int], str] = {}
    text: dict[tuple[int, int], str] = {}
    font: dict[tuple[int, int], str] = {}
    border_at: dict[tuple[int, int], Mapping[str, Any]] = {}
    central_at: dict[tuple[int, int], Mapping[str, Any]] = {}
    for s in sorted(segments, key=lambda s: (s["step"], s["node"], tuple(s["frm"]))):
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
            fc = font.get(at) or ("FFFFFF" if f in (FILL[BLUE], FILL[BLACK]) else None)
            row.append(Cell(t, f, at in marks, fc))
        out.append(tuple(row))
    return tuple(out)


def _path_counts(segs: Sequence[Mapping[str, Any]]) -> str:
    def n(node: str, col: str) -> int:
        return sum(1 for s in segs if s["node"] == node and s["colour"] == col)
    return (f"Paths placed: {len(segs)} (border: {n('B', BLUE)} blue, {n('B', BLACK)} black; "
            f"central: {n('C', BLUE)} blue, {n('C', BLACK)} black).")


LEGEND = (("blue path", FILL[BLUE]), ("black path", FILL[BLACK]), ("cell (gray square)", GRAY),
          ("border paths are drawn ─ │ along the edges, central paths ═ ║ from cell to cell", LABEL),
          ("corner point (border nodes move along the lines between them)", POINT),
          ("S = a node at the start of the round, E = at the end, SE = did not move", LABEL))


# ------------------------------------------------------------- the game

class Bugcatcher(GameRules):
    spec = SPEC

    # ---- setup ------------------------------------------------------------
    def setup(self, players, options, tables, rng: Rng) -> State:
        opts = {**DEFAULTS, **options}
        if not 2 <= opts["columns"] <= 26 or not 2 <= opts["rows"] <= 26 or opts["rounds"] < 1:
            raise ConfigError("options columns and rows must be 2 to 26, and rounds at least 1")
        if len(players) > opts["columns"] * opts["rows"]:
            raise ConfigError(f"{len(players)} players do not fit on {opts['columns'] * opts['rows']} cells")
        missions, _ = read_missions(tables.get(MISSIONS_TABLE))
        return {"round": 0, "finished": False, "options": opts, "players": list(players),
                "nodes": {}, "border_colour": {p: BLUE for p in players},
                "fireflies": {p: 0 for p in players}, "missions_completed": {p: 0 for p in players},
                "collisions": {p: 0 for p in players}, "missions": missions, "board": None,
                "history": {p: [] for p in players}, "final": None}

    def check_tables(self, tables: Tables) -> list[str]:
        out = []
        if MISSIONS_TABLE not in tables:
            out.append(f"the {MISSIONS_TABLE} table is missing: add a tab named {MISSIONS_TABLE!r} "
                       "(the default is templates/bugcatcher/missions.csv)")
        else:
            out += read_missions(tables[MISSIONS_TABLE])[1]
        if TIEBREAK_TABLE in tables:
            out += read_tiebreak(tables[TIEBREAK_TABLE])[1]
        return out

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
        return tuple(cell_label(c, r) for r in range(rows) for c in range(cols))

    def _node_text(self, state: State, player: str) -> list[str]:
        cols, rows = self._dims(state)
        nodes = state["nodes"].get(player)
        if not nodes:
            return []
        bc = state["border_colour"][player]
        return [f"Border node: {fine_label(nodes['B'], cols, rows)} ({bc} paths)",
                f"Central node: {fine_label(nodes['C'], cols, rows)} ({other(bc)} paths)"]

    # ---- forms ------------------------------------------------------------
    def form(self, state: State, player: str) -> Form:
        opts = state["options"]
        last = opts["rounds"]
        if state["round"] == 0:
            cells = self._cells(state)
            central = Section("central", "Central node priority list (black in Round 1)",
                              (Field("cell", "Cell", FieldKind.CHOICE, cells, required=False,
                                     help="a cell such as C3"),),
                              rows=LIST_LENGTH, row_labels=ORDINALS[:LIST_LENGTH],
                              help="9 different cells, best first")  # R17, R18
            border = Section("border", "Border node priority list (blue in Round 1)",
                             (Field("cell", "Cell", FieldKind.CHOICE, cells, required=False,
                                    help="a cell such as C1"),
                              Field("corner", "Corner", FieldKind.CHOICE, CORNERS, required=False,
                                    help="the corner of that cell")),
                             rows=LIST_LENGTH, row_labels=ORDINALS[:LIST_LENGTH],
                             help="9 different corners, best first; C1 bottom right = D2 upper left")  # R19, R20
            if opts["bid_scope"] == "shared":
                bid_fields = (Field("bid", "Garnets bid (both lists)", FieldKind.INTEGER, minimum=0,
                                    required=False, help="garnets spent to win ties"),)  # R21, R25
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
                                    help="Only this round's missions can be accepted; accepting is free."))  # R52
        return Form(r, f"Round {r} of {last}", tuple(sections), help=(
            f"Round {r} of {last}: list up to {ENERGY} energy of actions in order; all players' k-th actions "
            "happen at the same time.",
            *self._node_text(state, player),
            "B = border node (moves along cell edges), C = central node (moves between cell centres); "
            "U D L R = up, down, left, right.",
            "swap swaps the colours of both your nodes (1 energy); gswap does the same for 1 garnet, once a round.",
            "A path onto a claimed point or crossing a same-coloured path collides: it and that node's later "
            "paths fail this round.",
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
        cells_allowed = f"a cell A1 to {cell_label(cols - 1, rows - 1)}"
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
                                        "a formula" if is_formula(text) else "not a cell of the board",  # E-P2
                                        "entry skipped: no claim in that pass"))
                central.append(None)
                continue
            key = key_of(cell_fine(*cell))
            if key in seen:
                problems.append(Problem(ProblemKind.ILLEGAL, player, fieldname, text, "a cell not listed before",
                                        f"already your {ORDINALS[seen[key]]} choice",  # E-P3
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
                                        shown, corner_allowed, "not a cell of the board",  # E-P2
                                        "entry skipped: no claim in that pass"))
                border.append(None)
                continue
            if corner is None:
                problems.append(Problem(ProblemKind.MISSING if not (ktext or extra) else ProblemKind.SYNTAX,
                                        player, fieldname, shown, corner_allowed,
                                        "no corner given" if not (ktext or extra) else "not a corner",  # E-P6, E-P2
                                        "entry skipped: no claim in that pass"))
                border.append(None)
                continue
            key = key_of(point_fine(*corner_point(cell[0], cell[1], corner)))
            if key in seen:
                problems.append(Problem(ProblemKind.ILLEGAL, player, fieldname, shown, "a corner not listed before",
                                        f"the same point as your {ORDINALS[seen[key]]} choice",  # E-P3, A28
                                        "entry skipped: no claim in that pass"))
                border.append(None)
                continue
            seen[key] = i
            border.append(key)
        for name, lst in (("central list", central), ("border list", border)):
            filled = sum(1 for k in lst if k is not None)
            if filled == 0:
                problems.append(Problem(ProblemKind.MISSING, player, name, "", f"{LIST_LENGTH} entries",
                                        "no usable entry", "a random free coordinate after all passes"))  # E-P4
            elif filled < LIST_LENGTH and not any(p.field.startswith(name.split()[0]) for p in problems):
                problems.append(Problem(ProblemKind.MISSING, player, name, f"{filled} entries",
                                        f"{LIST_LENGTH} entries", "short list",  # E-P1
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
                                                "not a whole number", f"bid {n}"))  # E-P5
                    else:
                        reason = int_reason(text)
                        problems.append(Problem(ProblemKind.SYNTAX, player, name, text, "a whole number 0 or more",
                                                "not a number" if reason == "not a whole number" else reason, "bid 0"))
                        n = 0
                elif n < 0:
                    problems.append(Problem(ProblemKind.ILLEGAL, player, name, text, "a whole number 0 or more",
                                            "negative", "bid 0"))  # E-P5
                    n = 0
                bid = n
            values[name] = bid
        return Submission(player, values, tuple(problems), raw)

    def _parse_round(self, state: State, player: str, raw: RawSubmission) -> Submission:
        opts = state["options"]
        problems: list[Problem] = []
        allowed = "one of " + ", ".join(ACTION_CHOICES) + " (or the long form, e.g. 'border node path down')"
        rows_ = list(raw.get("actions") or [])
        last_filled = max((i for i, row in enumerate(rows_) if clean(row.get("action", ""))), default=-1)
        codes: list[tuple[int, str]] = []   # (sheet row, code)
        for i, row in enumerate(rows_[:last_filled + 1]):
            text = clean(row.get("action", ""))
            fieldname = f"action {i + 1}"
            gap = "an idle step" if opts["blank_policy"] == "idle" else "row skipped; later actions move up"
            if text == "":
                if opts["blank_policy"] == "idle":
                    codes.append((i + 1, IDLE))
                problems.append(Problem(ProblemKind.MISSING, player, fieldname, "", allowed,
                                        "blank row between actions", gap))  # E2
                continue
            code = None if is_formula(text) else parse_action(text)
            if code is None:
                problems.append(Problem(ProblemKind.SYNTAX, player, fieldname, text, allowed,
                                        "a formula" if is_formula(text) else "unknown action code", gap))  # E2
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
            label = f"action {row_no}"
            if c == GSWAP:
                if seen_g:
                    if opts["extra_gswap"] == "as_swap":
                        problems.append(Problem(ProblemKind.ILLEGAL, player, label, "gswap",
                                                "one garnet swap per round", "a second garnet swap",  # E3
                                                "a normal swap costing 1 energy"))
                        c = SWAP
                    else:
                        problems.append(Problem(ProblemKind.ILLEGAL, player, label, "gswap",
                                                "one garnet swap per round", "a second garnet swap",  # E3
                                                "dropped"))
                        continue
                else:
                    seen_g = True
            if costs_energy(c):
                energy += 1
                if energy > ENERGY and opts["energy_overflow"] == "drop_excess":
                    problems.append(Problem(ProblemKind.ILLEGAL, player, label, c,
                                            f"at most {ENERGY} energy of actions",
                                            f"energy {energy} of {ENERGY}", "dropped: it never runs"))  # E1
                    continue
            kept.append(c)
            kept_rows.append(row_no)
        if energy > ENERGY and opts["energy_overflow"] == "reject_all":
            problems.append(Problem(ProblemKind.ILLEGAL, player, "actions", f"{energy} energy",
                                    f"at most {ENERGY} energy of actions", "too much energy",  # E1
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
                                            "only this round's missions", "no mission on this row", "ignored"))  # E7
                continue
            m = board[i]
            fieldname = f"accept {m['id']}"
            v = None if is_formula(text) else yes_no(text)
            if v is None:
                problems.append(Problem(ProblemKind.SYNTAX, player, fieldname, text, YES_NO_HELP,
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
        res = run_paths({player: nodes}, {player: state["border_colour"][player]}, {player: list(codes)}, opts)
        step_rows = list(code_rows) if opts["gswap_takes_step"] else \
            [r for r, c in zip(code_rows, codes) if c != GSWAP]
        out = []
        for ev in res.events[player]:
            where = f"action {step_rows[ev.step - 1]}" if ev.step - 1 < len(step_rows) else f"step {ev.step}"
            if ev.result == "offboard":
                out.append(Problem(ProblemKind.ILLEGAL, player, where, ev.code,
                                   "a path that stays on the board", "the path would leave the board",  # E5
                                   "invalid at resolution; " + ("this node places no more paths this round"
                                                               if opts["offboard_policy"] == "stop_node"
                                                               else "only this action is skipped")))
            elif ev.result == "collision":
                out.append(Problem(ProblemKind.ILLEGAL, player, where, ev.code,
                                   "a path onto a point your paths have not claimed",
                                   "it collides with your own path or node (self-collision)",  # R45, A7, E6
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
        st = copy.deepcopy(state)
        if st["round"] == 0:
            return self._resolve_pregame(st, round_input, rng)
        return self._resolve_round(st, round_input, rng)

    def _refresh_missions(self, st: State, tables: Tables, after: int, host_log: list[str]) -> None:
        """Missions of rounds after `after` come from the host's table (A21); earlier ones are kept."""
        table = tables.get(MISSIONS_TABLE) if tables else None
        if table is None:
            return
        loaded, problems = read_missions(table)
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
        vals: dict[str, Mapping[str, Any]] = {}
        for p in players:
            sub = ri.submissions.get(p)
            vals[p] = sub.values if sub is not None else self.default_submission(st, p, rng)
            if sub is None:
                host_log.append(f"{p}: no pregame submission; random free coordinates (E-P4)")
        # bids, capped by the balance (E-P5)
        bids_c: dict[str, int] = {}
        bids_b: dict[str, int] = {}
        notes: dict[str, list[str]] = {p: [] for p in players}
        for p in players:
            bal = max(0, int(ri.balances.get(p, 0)))
            if opts["bid_scope"] == "shared":
                want = int(vals[p].get("bid", 0) or 0)
                b = min(want, bal)
                if b < want:
                    notes[p].append(f"your bid of {want} is more than your {bal} garnet(s): capped at {b}")  # E-P5
                bids_c[p] = bids_b[p] = b
            else:
                wc, wb = int(vals[p].get("central_bid", 0) or 0), int(vals[p].get("border_bid", 0) or 0)
                c = min(wc, bal)
                b = min(wb, bal - c)
                if c < wc or b < wb:
                    notes[p].append(f"your bids ({wc} central, {wb} border) are more than your {bal} garnet(s): "
                                    f"capped at {c} and {b}")  # E-P5
                bids_c[p], bids_b[p] = c, b
        cells = [key_of(cell_fine(c, r)) for r in range(rows) for c in range(cols)]
        points = [key_of(point_fine(x, y)) for y in range(rows + 1) for x in range(cols + 1)]
        if len(players) > len(cells):
            raise ConfigError("more players than cells")
        got_c, how_c, con_c, log_c = assign_nodes({p: list(vals[p]["central"]) for p in players}, bids_c, cells,
                                                  rng.fork("pregame", "central"), opts["pregame_mode"], "central")
        got_b, how_b, con_b, log_b = assign_nodes({p: list(vals[p]["border"]) for p in players}, bids_b, points,
                                                  rng.fork("pregame", "border"), opts["pregame_mode"], "border")
        host_log += log_c + log_b
        for p in players:
            st["nodes"][p] = {"B": [int(v) for v in got_b[p].split(",")], "C": [int(v) for v in got_c[p].split(",")]}
            st["border_colour"][p] = BLUE   # R11
        # charges (A26)
        charged: dict[str, int] = {}
        for p in players:
            if opts["bid_scope"] == "shared":
                pay = bids_c[p] if (opts["bid_charge"] == "always" or p in con_c or p in con_b) else 0
                if pay:
                    ledger.append(LedgerEntry(p, -pay, "PREGAME_BID", "pregame tiebreak bid (both lists)"))
                charged[p] = pay
            else:
                pc = bids_c[p] if (opts["bid_charge"] == "always" or p in con_c) else 0
                pb = bids_b[p] if (opts["bid_charge"] == "always" or p in con_b) else 0
                if pc:
                    ledger.append(LedgerEntry(p, -pc, "PREGAME_BID_CENTRAL", "pregame tiebreak bid (central list)"))
                if pb:
                    ledger.append(LedgerEntry(p, -pb, "PREGAME_BID_BORDER", "pregame tiebreak bid (border list)"))
                charged[p] = pc + pb
        self._refresh_missions(st, ri.tables, 0, host_log)
        st["round"] = 1
        st["board"] = {"round": 0, "segments": [],
                       "starts": [{"at": st["nodes"][p][n], "colour": BLUE if n == "B" else BLACK}
                                  for p in sorted(players) for n in "BC"], "ends": []}
        grid = draw_board(cols, rows, [], st["board"]["starts"], [])
        public = Report("Pregame: starting nodes", (
            Block("Starting nodes for Round 1", (  # R26
                "Every player's starting nodes, unlabelled: black cells are central nodes, blue corners border "
                "nodes.",), grid, LEGEND),  # R11
            Block("Mission board, round 1", tuple(mission_text(m) for m in self._board(st, 1))
                  or ("No missions this round.",)),
        ))
        private = {}
        for p in players:
            sub = ri.submissions.get(p)
            lines = [f"Central node (black): {fine_label(st['nodes'][p]['C'], cols, rows)}, {how_c[p]}.",
                     f"Border node (blue): {fine_label(st['nodes'][p]['B'], cols, rows)}, {how_b[p]}."]
            if opts["bid_scope"] == "shared":
                lines.append(f"Tiebreak bid: {bids_c[p]}; garnets charged: {charged[p]}.")
            else:
                lines.append(f"Tiebreak bids: central {bids_c[p]}, border {bids_b[p]}; garnets charged: {charged[p]}.")
            lines += notes[p]
            if sub is None:
                lines.append("You submitted no priority lists: you were given random free coordinates.")  # E-P4
            else:
                lines += [f"Note: {pr.message}" for pr in sub.problems]
            private[p] = Report("Pregame", (Block("Your starting nodes", tuple(lines)),))
        return RoundResult(st, public, private, tuple(ledger), tuple(host_log))

    def _resolve_round(self, st: State, ri: RoundInput, rng: Rng) -> RoundResult:
        opts, players = st["options"], st["players"]
        cols, rows = self._dims(st)
        r = st["round"]
        host_log: list[str] = []
        ledger: list[LedgerEntry] = []
        plans: dict[str, list[str]] = {}
        flags: dict[str, list[str]] = {p: [] for p in players}
        gswap_used: dict[str, bool] = {}
        accept: dict[str, list[str]] = {}
        for p in players:
            sub = ri.submissions.get(p)
            vals = sub.values if sub is not None else self.default_submission(st, p, rng)
            if sub is None:
                flags[p].append("You submitted nothing this round: no actions and no new missions; your nodes "
                                "stay where they are.")  # E11
                host_log.append(f"{p}: no submission (E11)")
            else:
                flags[p] += [pr.message for pr in sub.problems]
            codes = [c for c in vals.get("actions", []) if c in ACTION_CHOICES or c == IDLE]
            plan, used, notes = clean_plan(codes, int(ri.balances.get(p, 0)) >= 1, opts)
            flags[p] += notes
            host_log += [f"{p}: {n}" for n in notes]
            plans[p] = plan
            gswap_used[p] = used
            if used:
                ledger.append(LedgerEntry(p, -1, "GARNET_SWAP", f"round {r} garnet colour swap (R15)"))
            accept[p] = list(vals.get("accept", []))
        starts = {p: {n: tuple(st["nodes"][p][n]) for n in "BC"} for p in players}
        start_colour = dict(st["border_colour"])
        res = run_paths(starts, start_colour, plans, opts)
        host_log += res.log
        # fireflies for paths (R32)
        gained = {p: res.paths[p] for p in players}
        for p in players:
            st["collisions"][p] += res.collisions[p]
        # missions (R48-R62)
        announce, closed_now, mission_notes = self._missions(st, r, accept, res, gained, flags, host_log)
        for p in players:
            st["fireflies"][p] += gained[p]
            st["nodes"][p] = {n: list(res.ends[p][n]) for n in "BC"}
            st["border_colour"][p] = res.border_colour[p]
            st["history"][p].append(gained[p])
        segs = [{"node": s.node, "frm": list(s.frm), "to": list(s.to), "colour": s.colour, "step": s.step}
                for s in res.segments]
        show_col = opts["public_node_colors"]
        st["board"] = {"round": r, "segments": segs,
                       "starts": [{"at": list(starts[p][n]),
                                   "colour": (start_colour[p] if n == "B" else other(start_colour[p])) if show_col else None}
                                  for p in sorted(players) for n in "BC"],
                       "ends": [{"at": list(res.ends[p][n]),
                                 "colour": (res.border_colour[p] if n == "B" else other(res.border_colour[p]))
                                 if show_col else None} for p in sorted(players) for n in "BC"]}
        final = r >= opts["rounds"]
        self._refresh_missions(st, ri.tables, r, host_log)
        st["round"] = r + 1
        public_blocks = [Block(f"Round {r}: all paths", (  # R63-R65
            "Every successful path in its colour; nodes are not labelled and swaps are not shown.",
            _path_counts(segs)),
            draw_board(cols, rows, segs, st["board"]["starts"], st["board"]["ends"], opts["public_step_order"]),
            LEGEND)]
        mlines = [f"Mission {m['id']} ({m['name']}) has been completed." for m in announce]  # R62
        mlines += [f"Mission {m['id']} ({m['name']}) is closed: its window has ended." for m in closed_now]
        public_blocks.append(Block(f"Round {r}: missions", tuple(mlines) or ("No mission was completed this round.",)))
        if final:
            st["finished"] = True
            final_ledger, final_lines = self._finish(st, ri, rng, host_log)
            ledger += final_ledger
            public_blocks.append(Block("Final firefly counts", tuple(final_lines)))  # R68
        elif st["round"] <= opts["rounds"]:
            public_blocks.append(Block(f"Mission board, round {st['round']}",
                                       tuple(mission_text(m) for m in self._board(st)) or ("No missions this round.",)))
        public = Report(f"Round {r}", tuple(public_blocks))
        private = {p: self._private(st, p, r, res, gained, gswap_used[p], flags[p], mission_notes[p], plans[p])
                   for p in players}
        return RoundResult(st, public, private, tuple(ledger), tuple(host_log))

    def _missions(self, st: State, r: int, accept: Mapping[str, Sequence[str]], res: PathResult,
                  gained: dict[str, int], flags: dict[str, list[str]], host_log: list[str]):
        """Acceptances, completions with split rewards, penalties and windows (R48-R62, A18-A24)."""
        opts, players = st["options"], st["players"]
        notes: dict[str, list[str]] = {p: [] for p in players}
        board_ids = {m["id"]: m for m in st["missions"] if m["round"] == r}
        for p in players:
            for mid in accept.get(p, []):
                m = board_ids.get(mid)
                if m is None or m["status"] != "open":
                    flags[p].append(f"mission {mid}: not on this round's board; ignored")  # E7
                    continue
                if p not in m["accepted"]:
                    m["accepted"].append(p)
                    notes[p].append(f"You accepted mission {m['id']} ({m['name']}).")
        announce, closed_now = [], []
        for m in st["missions"]:
            if m["round"] > r or m["status"] != "open":
                continue
            cands = players if not opts["mission_requires_acceptance"] else m["accepted"]
            variants = shape_variants(m["shape"], m["rotate"], m["reflect"], m["either_end"])
            nodes = {"border": "B", "central": "C", "any": "BC"}[m["node"]]
            completers = sorted(p for p in cands
                                if any(matches(res.moves[p][n], variants, m["anywhere"]) for n in nodes))
            window_end = m["round"] + m["failure_rounds"] - 1 if m["failure_rounds"] else None
            if completers:
                share = math.ceil(m["reward"] / len(completers))   # R53, A24
                for p in completers:
                    gained[p] += share
                    st["missions_completed"][p] += 1
                    notes[p].append(f"You completed mission {m['id']} ({m['name']}): +{share} fireflies"
                                    + (f" (reward {m['reward']} split {len(completers)} ways, rounded up)"
                                       if len(completers) > 1 else "") + ".")
                m["status"], m["completed_round"], m["completers"] = "completed", r, completers
                announce.append(m)
                host_log.append(f"mission {m['id']} completed by {', '.join(completers)} (+{share} each)")
                if m["penalty"]:   # R56
                    for p in sorted(m["accepted"]):
                        if p not in completers and p not in m["penalized"]:
                            self._penalize(st, m, p, gained, notes, host_log, "another player completed it")  # R56
            elif window_end is not None and r >= window_end:
                if m["penalty"]:
                    for p in sorted(m["accepted"]):
                        if p not in m["penalized"]:
                            self._penalize(st, m, p, gained, notes, host_log, "its window has ended")  # A19
                if not m["expires"] or r >= m["expires"]:
                    m["status"] = "closed"
                    closed_now.append(m)
            elif m["expires"] and r >= m["expires"]:
                m["status"] = "closed"
                closed_now.append(m)
        return announce, closed_now, notes

    @staticmethod
    def _penalize(st, m, p, gained, notes, host_log, why) -> None:
        gained[p] += m["penalty"]
        m["penalized"].append(p)
        notes[p].append(f"You failed mission {m['id']} ({m['name']}): {m['penalty']} fireflies, {why}.")
        host_log.append(f"mission {m['id']}: {p} penalised {m['penalty']} ({why})")

    def _private(self, st: State, p: str, r: int, res: PathResult, gained: Mapping[str, int], gswap: bool,
                 flags: Sequence[str], mnotes: Sequence[str], plan: Sequence[str]) -> Report:
        opts = st["options"]
        total = st["fireflies"][p]
        lines = [f"Your fireflies: {total} (this round {gained[p]:+d})."]  # R67
        lines += self._node_text(st, p)
        blocks = []
        if opts["private_breakdown"]:
            mission_sum = gained[p] - res.paths[p]
            lines.insert(1, f"Paths placed: {res.paths[p]} (+{res.paths[p]}); missions: {mission_sum:+d}.")
            lines.insert(2, f"Collisions caused this round: {res.collisions[p]}; this game: {st['collisions'][p]}.")
            if gswap:
                lines.append("Garnet swap: 1 garnet spent.")
            blocks.append(Block(f"Round {r}: your result", tuple(lines)))
            acts = tuple(f"{e.step}. {e.code}: {e.text}" for e in res.events[p]) or ("No actions.",)
            blocks.append(Block(f"Round {r}: your actions", acts))
            if mnotes:
                blocks.append(Block(f"Round {r}: your missions", tuple(mnotes)))
        else:
            blocks.append(Block(f"Round {r}: your result", tuple(lines)))
        if flags:
            blocks.append(Block(f"Round {r}: submission notes", tuple(flags)))
        if st["finished"] and st["final"]:
            blocks.append(Block("Final result", tuple(st["final"]["lines"])))
        return Report(f"Round {r}", tuple(blocks))

    # ---- end of game (R69-R73) ---------------------------------------------------
    def _finish(self, st: State, ri: RoundInput, rng: Rng, host_log: list[str]) -> tuple[list[LedgerEntry], list[str]]:
        opts, players = st["options"], st["players"]
        ff, mc, co = st["fireflies"], st["missions_completed"], st["collisions"]
        ranking, problems = read_tiebreak((ri.tables or {}).get(TIEBREAK_TABLE))
        host_log += [f"gamewide tiebreak: {pr}" for pr in problems]
        rank = {}
        for i, name in enumerate(ranking):
            match = [p for p in players if p.casefold() == name.casefold()]
            if match:
                rank[match[0]] = i
            else:
                host_log.append(f"gamewide tiebreak: {name} is not a player; ignored")
        draw_rng = rng.fork("gamewide tiebreak")
        groups: dict[tuple[int, int, int], list[str]] = {}
        for p in players:
            groups.setdefault((-ff[p], -mc[p], co[p]), []).append(p)
        order: list[str] = []
        pending: list[tuple[list[str], str]] = []
        used_stats: set[str] = set()
        used_gamewide: set[str] = set()
        for key in sorted(groups):
            g = sorted(groups[key])
            if len(g) > 1:
                used_gamewide.update(g)
                ranked = sorted((p for p in g if p in rank), key=lambda p: rank[p])
                unranked = [p for p in g if p not in rank]
                if len(unranked) > 1 or (unranked and ranked):
                    drawn = draw_rng.shuffled(unranked)
                    host_log.append(f"gamewide tiebreak: {', '.join(unranked)} tied on fireflies, missions and "
                                    f"collisions and are not ranked in the {TIEBREAK_TABLE} table; seeded draw: "
                                    f"{', '.join(drawn)}")
                    pending.append((g, f"{', '.join(unranked)} were ordered by a seeded draw because the {TIEBREAK_TABLE} "
                                   f"table does not rank them ({', '.join(drawn)}); the host may enter the ranking "
                                   "and undo/redo the last round"))
                    unranked = drawn
                order += ranked + unranked
            else:
                order += g
        for p in players:   # which players' ties used the missions/collisions figures (A35)
            same_ff = [q for q in players if ff[q] == ff[p]]
            if len(same_ff) > 1:
                used_stats.update(same_ff)
        winner, ec = order[0], order[-1]
        ledger = [LedgerEntry(winner, 1, "MM_WINNER", "the single player with the most fireflies (R69)")]
        for p in players:
            g = max(ff[p], 0) // 30
            if g:
                ledger.append(LedgerEntry(p, g, "FIREFLY_CONVERSION", f"{ff[p]} fireflies: 1 garnet per 30 (R73)"))
        show_all = opts["reveal_all_stats"]
        lines = []
        for i, p in enumerate(order, 1):
            extra = ""
            if show_all or p in used_stats:
                extra = f" ({mc[p]} mission(s) completed, {co[p]} collision(s) caused)"
            lines.append(f"{i}. {p}: {ff[p]} fireflies{extra}")
        reasons = [f"Winner: {winner} with {ff[winner]} fireflies: 1 garnet and 2 Tokens of Life.",  # R69
                   f"Elimination Candidate: {ec} with {ff[ec]} fireflies."]  # R70
        for who in (winner, ec):
            tied = [q for q in players if ff[q] == ff[who]]
            if len(tied) > 1:
                how = ("missions completed" if len({mc[q] for q in tied}) > 1 else
                       "collisions caused" if len({(mc[q], co[q]) for q in tied}) > 1 else "the Gamewide Tiebreak")
                reasons.append(f"{', '.join(sorted(tied))} tied on {ff[who]} fireflies; the tie-break chain "
                               f"(missions completed, fewest collisions caused, Gamewide Tiebreak) ended at "
                               f"{how}.")  # R71
        st["final"] = {"order": order, "winner": winner, "ec": ec, "lines": lines, "reasons": reasons,
                       "pending": [text for g, text in pending if winner in g or ec in g],
                       "used_stats": sorted(used_stats)}
        return ledger, lines + reasons

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
        if b and not state["finished"]:
            nodes = [{"at": s["at"], "colour": s.get("colour") if r == 1 else None} for s in
                     (b["starts"] if b["round"] == 0 else b["ends"])]
            if b["round"] != 0 and opts["public_node_colors"]:
                nodes = b["ends"]
            blocks.append(Block(f"Nodes at the start of round {r}", (
                # R11
                "Every node, unlabelled (S)." + (" Round 1 colours: central black, border blue." if r == 1 else ""),),
                draw_board(cols, rows, [], nodes, []), LEGEND))
        if state["finished"] and state["final"]:
            blocks.append(Block("Final firefly counts", tuple(state["final"]["lines"])))  # R68
        return Report(f"{SPEC.name}: board", tuple(blocks))

    def outcome(self, state: State, decisions=None) -> Outcome | None:
        if not state["finished"] or not state["final"]:
            return None
        f = state["final"]
        ff = state["fireflies"]
        used = set(f["used_stats"])
        show_all = state["options"]["reveal_all_stats"]
        standings = tuple((p, f"{ff[p]} fireflies" + (
            f", {state['missions_completed'][p]} missions, {state['collisions'][p]} collisions caused"
            if show_all or p in used else "")) for p in f["order"])
        awards = (Award(f["winner"], "Token of Life", 2, "the single player with the most fireflies"),)  # R69
        return Outcome((f["winner"],), (f["ec"],), f["ec"], standings, tuple(f["reasons"]), awards,
                       tuple(f["pending"]))

    # ---- demo ----------------------------------------------------------------
    def random_submission(self, state: State, player: str, rng: Rng) -> RawSubmission:
        opts = state["options"]
        cols, rows = self._dims(state)
        if state["round"] == 0:
            cells = [(c, r) for r in range(rows) for c in range(cols)]
            central = rng.sample(cells, LIST_LENGTH)
            pts = rng.sample([(x, y) for y in range(rows + 1) for x in range(cols + 1)], LIST_LENGTH)
            border = []
            for x, y in pts:
                opts_c = [(c, r, k) for c, r, k in ((x - 1, y - 1, "bottom right"), (x, y - 1, "bottom left"),
                                                   (x - 1, y, "upper right"), (x, y, "upper left"))
                          if 0 <= c < cols and 0 <= r < rows]
                c, r, k = rng.choice(opts_c)
                border.append({"cell": cell_label(c, r), "corner": k})
            names = ("bid",) if opts["bid_scope"] == "shared" else ("central_bid", "border_bid")
            bids = {n: str(rng.choice((0, 0, 0, 1))) for n in names}
            return {"central": [{"cell": cell_label(*c)} for c in central], "border": border, "bids": [bids]}
        nodes = state["nodes"][player]
        pos = {n: tuple(nodes[n]) for n in "BC"}
        own = {tuple(v) for q in sorted(state["nodes"]) for v in state["nodes"][q].values()}  # every node is public
        codes: list[str] = []
        board = self._board(state)
        accept = []
        # sometimes try a mission's shape
        if board and rng.random() < 0.5:
            m = rng.choice(board)
            n = "B" if m["node"] == "border" else "C" if m["node"] == "central" else rng.choice("BC")
            for v in rng.shuffled(shape_variants(m["shape"], m["rotate"], m["reflect"], m["either_end"])):
                at, ok, seen = pos[n], True, set(own)
                for d in v:
                    nxt = (at[0] + 2 * DIRS[d][0], at[1] + 2 * DIRS[d][1])
                    if not on_board(nxt, cols, rows) or nxt in seen:
                        ok = False
                        break
                    seen.add(nxt)
                    at = nxt
                if ok:
                    codes = [n + d for d in v]
                    own |= seen
                    pos[n] = at
                    accept.append(m["id"])
                    break
        while len(codes) < ENERGY:
            x = rng.random()
            if x < 0.08:
                codes.append(SWAP)
                continue
            if x < 0.1:
                break
            n = rng.choice("BC")
            dirs = [d for d in "UDLR" if on_board((pos[n][0] + 2 * DIRS[d][0], pos[n][1] + 2 * DIRS[d][1]), cols, rows)
                    and (pos[n][0] + 2 * DIRS[d][0], pos[n][1] + 2 * DIRS[d][1]) not in own]
            if not dirs:
                continue
            d = rng.choice(dirs)
            pos[n] = (pos[n][0] + 2 * DIRS[d][0], pos[n][1] + 2 * DIRS[d][1])
            own.add(pos[n])
            codes.append(n + d)
        if rng.random() < 0.1:
            codes.insert(rng.below(len(codes) + 1), GSWAP)
        for m in board:
            if m["id"] not in accept and rng.random() < 0.2:
                accept.append(m["id"])
        out: dict[str, list[dict[str, str]]] = {"actions": [{"action": c} for c in codes]}
        if board:
            out["missions"] = [{"accept": "yes" if m["id"] in accept else "no"} for m in board]
        return out


GAME = Bugcatcher()
