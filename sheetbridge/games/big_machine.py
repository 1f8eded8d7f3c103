"""The Big Machine (designer chaotic_iak, Main Match 10 of "Blooming Genius: The Elder
Tree"): teams of a player and a guest bid cogs in five meadows for machine parts.

Rules in brief (R and A numbers from shared/rulings/big_machine.md):

- Roster and teams: every participant (player or guest) is a roster member; a team is one
  player and one guest (R1). Option ``teams`` names the pairs ("Ann+Bo; Cy+Dee", player
  first); by default the roster is paired in order, the first of each pair being the
  player. 2 to 4 teams (A1).
- Round 0 is meadow selection (M6): each participant picks a starting meadow (R3). The
  player's meadow gives the machine's left half, the guest's the right half; the halves
  share the three middle nodes M1, M2, M3 (R4, R5, M3). The halves, their connectors and
  conditions, and the allies/enemies relation are host tables (M1, M2).
- Everyone starts with 12 cogs (R11); cogs may be given freely (R12, A16): a "Give cogs"
  row in the submission (applied after this round's auctions) or a host row in the
  "Cog trades" table (applied before this round's checks).
- Rounds 1-7 (R13). Each participant submits a meadow, a bid, a power-up and an install
  node, optionally a sabotage node and a jump (R15, R16). Bid + power-up may not exceed the
  cogs held, counting this round's sabotage (R18, R19, A6, A22). Round 1: any node (R20,
  A10); later: a node joined to one's own previous node, not the same (R21-R23, A18), or any
  node for 5 garnets (R24, A7). Sabotage puts a faulty part on a node empty at the start
  of the round for +2 cogs, once per round (R25-R28, A5).
- Resolution (the rulings' proposed order): trades, validation, sabotage, jump charges,
  movement (R30), then in each meadow the highest unique bid wins (R31-R34, A23): a part of
  the meadow's colour with power = people in the meadow + power-up (R35, R36, A2);
  everybody else there installs a faulty part (R38, A3). Bids are always paid, power-ups
  only by the winner (R39, R40). Installs: empty node takes the part (R41); a greater power
  replaces (R42); otherwise the node is ruined (R43-R45); teammates on one node install in
  ascending power, faulty first (R46, R47, A4).
- Missing submission: stay, bid 0, power-up 0, a random node joined to the previous node
  (round 1: any node) (R29, A9). Invalid parts fall back field by field (A17, section e).
- End (R48-R61): empty nodes become faulty; a connector with two non-faulty ends is working
  (1 point); if it also meets its condition it is excellent (5 points): allies/enemies on
  the colours (A14: a colour with itself is neither), greater-than strictly in the drawn
  direction (A15), free unless the team moved along it in rounds 2-7 (A8). Among the
  players (A11) the sole top score wins a Token of Life and 1 cosmos; the lowest is the
  Elimination Candidate (ties: the winners' vote, entered as decision "ec-vote"; "ec-host"
  when everyone is tied, A12). Everyone gets floor(points / 2) garnets (A13).
- Results as data: `resolve` returns the round as facts (below) with their audience:
  positions public every round (R62), starting meadows and the empty layouts public from
  meadow selection (A24, option ``public_layouts``), the machine, installs and sabotage to
  the team (R63-R65), bids, cogs and notices to the participant (R67, A19), every meadow's
  auction to the host alone (R66), every machine and connector's points public at the end
  (R68). `render` and `picture` draw every report and board from them.

The ruleset's example: 3 people in the Blue Meadow, the winner powers up 2:

>>> part_power(3, 2)
5
>>> highest_unique_bid({"a": 5, "b": 5, "c": 3, "d": 3, "e": 1})
'e'
"""
from __future__ import annotations

import enum
import functools
from collections import Counter
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..core.decisions import DecisionKind, DecisionRequest
from ..core.errors import ConfigError, PositionError
from ..core.facts import HOST_ONLY, PUBLIC, Fact, RenderContext, fact, of_type
from ..core.game import GameRules
from ..core.outcome_text import plural
from ..core.parsing import YES_NO_HELP, clean, int_reason, is_formula, parse_int, split_list, table_key, yes_no
from ..core.picture import Box, Dot, Label, Line, Picture
from ..core.rng import Rng
from ..core.standings import Place, RoundScore
from ..core.types import (fresh, Award, Block, Cell, Field, FieldKind, Form, GameSpec, LedgerEntry,
                          Option, Outcome, Problem, ProblemKind, RawSubmission, Report,
                          RoundInput, RoundResult, Section, State, Submission, TableSpec, Tables)


# --------------------------------------------------------------------- closed sets

class Color(enum.Enum):
    """The five meadows and part colours (R2, R8)."""
    WHITE = "White"
    BLUE = "Blue"
    BLACK = "Black"
    RED = "Red"
    GREEN = "Green"


class Cond(enum.Enum):
    """A connector's condition (R7)."""
    ALLIES = "allies"
    ENEMIES = "enemies"
    GREATER = "greater"
    FREE = "free"


class Side(enum.Enum):
    LEFT = "Left"
    RIGHT = "Right"


MEADOWS: tuple[str, ...] = tuple(c.value for c in Color)
MIDDLE: tuple[str, ...] = ("M1", "M2", "M3")  # M3: matched by position, top to bottom
START_COGS = 12        # R11
ROUNDS = 7             # R13
JUMP_COST = 5          # R24
SABOTAGE_COGS = 2      # R25
WORKING_POINTS = 1     # R51
EXCELLENT_POINTS = 5   # R52: 1 + 4
FAULTY = "faulty"

COLOR_FILL = {"White": "FFFFFF", "Blue": "5B9BD5", "Black": "404040", "Red": "E06666", "Green": "70AD47"}
COLOR_FONT = {"Black": "FFFFFF"}
EMPTY_FILL, FAULTY_FILL = "FFE699", "808000"   # yellow circle, olive X (black text reads on both)
STATE_FILL = {"excellent": "C6EFCE", "working": "BDD7EE", "waiting": "D0D0D0", "dead": "F8CBAD"}
STATE_HELP = {"excellent": "5 points", "working": "1 point", "waiting": "an end is empty", "dead": "a faulty end"}

NODES_TABLE, CONNECTORS_TABLE, RELATION_TABLE, TRADES_TABLE = (
    "Half nodes", "Half connectors", "Allies and enemies", "Cog trades")

SPEC = GameSpec(
    id="big-machine",
    name="The Big Machine",
    min_players=4, max_players=8, recommended_players=8, rounds=ROUNDS,
    summary="Teams of a player and a guest bid cogs in five meadows for machine parts, then score "
            "their machine's connectors.",
    options=(
        Option("teams", "", "Pairs as 'Player+Guest; Player+Guest' (player first). Anyone not named is "
               "paired in roster order, the first of each pair being the player.", ruling="A1", kind="content"),
        Option("overspend", "zero", "Bid + power-up above the cogs held: both become 0, or clamp (lower "
               "the power-up, then the bid).", ("zero", "clamp"), "A17"),
        Option("no_winner", "faulty", "When nobody wins a meadow, everyone there installs a faulty part, or "
               "nothing is installed.", ("faulty", "nothing"), "A3"),
        Option("jump_to_previous", True, "A jump may target the previous node itself.", ruling="A7"),
        Option("adjacent_jump", "charge", "A jump to a node joined to the previous one is charged and keeps "
               "free connectors intact, or is free and counts as a normal move.",
               ("charge", "free_move"), "A7"),
        Option("enforce_garnets", True, "A jump needs 5 garnets in the jumper's balance; off: accept every "
               "jump and log it for the host to reconcile (no ledger row).", ruling="A7"),
        Option("forced_moves_break_free", True, "Default and fallback moves also break free connectors.",
               ruling="A8"),
        Option("guests_compete", False, "Guests also compete for the Token of Life, cosmos and Elimination "
               "Candidate.", ruling="A11"),
        Option("garnet_rounding", "floor", "Garnets per 2 points: rounded down or up.", ("floor", "ceil"), "A13"),
        Option("pay_guests", True, "Guests also receive the garnets per 2 points.", ruling="A13"),
        Option("cross_team_trades", True, "Cogs may be given to members of other teams.", ruling="A16"),
        Option("share_notices", False, "Each teammate's personal notices, bids and cog balance are also "
               "shown to the other teammate.", ruling="A19", kind="display"),
        Option("public_layouts", True, "Starting meadows, and so every team's empty machine, are public from "
               "meadow selection; off: only the team knows them (positions from round 1 are public either way). "
               "Parts are never public before the end.", ruling="A24", kind="display"),
    ),
    tables=(
        TableSpec(NODES_TABLE, "half_nodes.csv",
                  "Each meadow's machine half: its own nodes (not M1-M3) with Row and Column in the drawing "
                  "(Column 1 is next to the middle). Side is Both, Left or Right (M1)."),
        TableSpec(CONNECTORS_TABLE, "half_connectors.csv",
                  "Each meadow's connectors: From, To (own nodes or M1, M2, M3) and Condition: allies, "
                  "enemies, free, '>' (From must be greater) or '<' (To must be greater) (M1, R7)."),
        TableSpec(RELATION_TABLE, "colour_relation.csv",
                  "Every pair of different colours once: allies or enemies (M2, #rules-addenda). A colour "
                  "with itself is neither unless a row says otherwise (A14)."),
        TableSpec(TRADES_TABLE, "cog_trades.csv",
                  "Cog trades the host records: Round, From, To, Cogs. Applied before that round's "
                  "submissions are checked (A16)."),
    ),
)

DEFAULTS: dict[str, Any] = SPEC.default_options()


# --------------------------------------------------------------------- round results as data
# Every report and picture is drawn from these (render, picture below). `audience` follows the
# rulings' information model (section c): positions public every round (R62); the machine,
# installs and sabotage to the team (R63-R65); bids, cogs and notices to the participant alone
# (R67, A19; the team with share_notices); who won a meadow and every bid to nobody but the host
# (R66, R67); all machines and scores public at the end (R68). Starting meadows and the empty
# layouts are public from meadow selection (A24, option public_layouts).

@fact
@dataclass(frozen=True)
class MachinePart:
    """A machine part: a colour and a power (R8), or faulty, with no colour and no power (R9)."""
    colour: str = ""
    power: int = 0
    faulty: bool = False

    def text(self) -> str:
        return "faulty" if self.faulty else f"{self.colour} {self.power}"


FAULTY_PART = MachinePart(faulty=True)


@fact
@dataclass(frozen=True)
class MachineNode:
    """A node of a machine, where it is drawn (row and column from the top left) and what it holds."""
    node: str
    row: int
    column: int
    part: MachinePart | None = None      # None: empty


@fact
@dataclass(frozen=True)
class MachineConnector:
    """A connector: its ends, its kind (R7) and, with parts in, its state and points (R50-R55)."""
    a: str
    b: str
    kind: str                     # allies, enemies, greater or free
    greater: str = ""             # kind greater: the end whose power must be greater (A15)
    traversed: bool = False       # the team moved along it in rounds 2-7 (a free one is no longer excellent, A8)
    status: str = ""              # excellent, working, waiting (an end empty), dead (a faulty end); "" in a layout
    points: int = 0               # what it scores (if the game ended now, before the end)


@fact
@dataclass(frozen=True)
class MachineTeam(Fact):
    """A team: one player and one guest sharing a machine (R1). Public from the start."""
    team: str
    player: str
    guest: str


@fact
@dataclass(frozen=True)
class StartingMeadow(Fact):
    """A participant's starting meadow; the player's gives the left half, the guest's the right (R3, R4)."""
    participant: str
    team: str
    role: str                     # player or guest
    meadow: str


@fact
@dataclass(frozen=True)
class StartingMeadowDrawn(Fact):
    """No valid starting meadow was chosen: one was drawn at random (told to the participant only)."""
    participant: str
    meadow: str


@fact
@dataclass(frozen=True)
class MachineLayout(Fact):
    """A team's empty machine as assembled from its two halves (R4-R6); public by default (A24)."""
    team: str
    left: str
    right: str
    nodes: tuple[MachineNode, ...]
    connectors: tuple[MachineConnector, ...]


@fact
@dataclass(frozen=True)
class SubmissionProblem(Fact):
    """Something wrong with a participant's submission, and the default applied (section e)."""
    participant: str
    problem: Problem


@fact
@dataclass(frozen=True)
class CogsGiven(Fact):
    """Cogs given (R12, A16): from the host's Cog trades table before the round's checks (source
    "host"), or from a submission's Give cogs rows after the auctions (source "submission")."""
    giver: str
    receiver: str
    cogs: int
    source: str
    made: bool = True
    giver_had: int = 0            # the giver's cogs when it was tried (why a trade was refused)


@fact
@dataclass(frozen=True)
class MeadowMove(Fact):
    """A participant's effective move after defaults and fallbacks (R15-R29, section e)."""
    participant: str
    team: str
    from_meadow: str
    meadow: str
    bid: int
    power_up: int
    previous_node: str            # "" in round 1
    node: str
    submitted: bool = True        # False: nothing submitted, the rules' default was used (R29)
    random_node: bool = False     # the install node was drawn at random (R29, V15-V17)
    jump: bool = False            # a jump was honoured (charged, or left to the host to charge)


@fact
@dataclass(frozen=True)
class NodeJump(Fact):
    """A jump asked for in rounds 2-7 (R24, A7): result "charged", "host_charges" (enforce_garnets
    off), "not_needed" (adjacent_jump = free_move: a normal move, free) or "no_garnets" (void)."""
    participant: str
    from_node: str
    to_node: str
    result: str
    garnets: int = 0              # charged: the cost; no_garnets: the balance that was too small


@fact
@dataclass(frozen=True)
class SelfSabotage(Fact):
    """A faulty part put on an empty node for +2 cogs (R25-R28, A5); known to the team (R65)."""
    participant: str
    team: str
    node: str
    cogs: int = SABOTAGE_COGS


@fact
@dataclass(frozen=True)
class MeadowPosition(Fact):
    """Where a participant is after this round's movement (R30); public every round (R62)."""
    participant: str
    meadow: str


@fact
@dataclass(frozen=True)
class MeadowBid:
    """One bid in a meadow and why it won or lost: "won", "not unique" (someone bid the same) or
    "outbid" (unique but below the winning bid) (R31-R34, A23)."""
    participant: str
    bid: int
    power_up: int
    result: str
    got: MachinePart | None              # the part installed (None: nothing, option no_winner)


@fact
@dataclass(frozen=True)
class MeadowAuction(Fact):
    """A meadow's auction as the host would show the calculation: the people there (R36, A2), every
    bid with its result, the winner and the part (power = people + power-up). Host only (R66, R67)."""
    meadow: str
    people: int
    bids: tuple[MeadowBid, ...]
    winner: str = ""
    part: MachinePart | None = None


@fact
@dataclass(frozen=True)
class PartInstalled(Fact):
    """The part a participant installed this round and where (R37, R38, A20); known to the team (R64)."""
    participant: str
    team: str
    node: str
    part: MachinePart | None             # None: nothing installed (option no_winner)


@fact
@dataclass(frozen=True)
class NodeInstalls(Fact):
    """A node that received parts this round: what it held (after any sabotage), the parts in the
    order applied (ascending power, faulty first, R46, A4), by whom, and what it holds now (R41-R47)."""
    team: str
    node: str
    before: MachinePart | None
    parts: tuple[MachinePart, ...]
    by: tuple[str, ...]
    after: MachinePart | None


@fact
@dataclass(frozen=True)
class ConnectorTraversed(Fact):
    """A move along a connector in rounds 2-7 (A8); `counted` False: a forced move that does not
    count with forced_moves_break_free off. A jump is not a move along a connector (A7)."""
    team: str
    participant: str
    from_node: str
    to_node: str
    kind: str
    counted: bool = True


@fact
@dataclass(frozen=True)
class CogsNow(Fact):
    """A participant's cogs before and after the round (R39, R40), and after the host's recorded
    trades (A16): the balance the round's checks used (bid + power-up, V10); their own business (A19)."""
    participant: str
    before: int
    after: int
    after_trades: int | None = None   # None: recorded before sheetbridge kept it (issue 29)


@fact
@dataclass(frozen=True)
class MachineNow(Fact):
    """A team's machine after a round, before the end (R63): every node and connector, and what it
    would score if the game ended now (empty nodes faulty, R48)."""
    team: str
    left: str
    right: str
    nodes: tuple[MachineNode, ...]
    connectors: tuple[MachineConnector, ...]
    points_if_ended: int


@fact
@dataclass(frozen=True)
class MachineScored(Fact):
    """A team's final machine, public at the end (R68): empty nodes made faulty (`filled`, R48),
    each connector's state and points (R50-R55) and the total (R56)."""
    team: str
    player: str
    guest: str
    left: str
    right: str
    nodes: tuple[MachineNode, ...]
    connectors: tuple[MachineConnector, ...]
    filled: tuple[str, ...]
    total: int


@fact
@dataclass(frozen=True)
class MachinePayout(Fact):
    """Garnets for the machine's points at the end, 1 per 2 (R59, A13); public."""
    participant: str
    team: str
    points: int
    garnets: int


# --------------------------------------------------------------------- pure rules

def part_power(people_in_meadow: int, power_up: int) -> int:
    """R36, A2: the number of people in the meadow (winner included) plus the power-up."""
    return people_in_meadow + power_up


def highest_unique_bid(bids: Mapping[str, int]) -> str | None:
    """R31-R34, A23: the bidder of the highest value bid by exactly one person, or None."""
    counts = Counter(bids.values())
    unique = [v for v, n in counts.items() if n == 1]
    if not unique:
        return None
    top = max(unique)
    return next(p for p in sorted(bids) if bids[p] == top)


def _power_key(part: Any) -> int:
    return -1 if part == FAULTY else int(part["power"])


def install(current: Any, part: Any) -> Any:
    """R41-R45: the node's content after installing `part` (None empty, "faulty", or a dict)."""
    if current is None:
        return part
    if current == FAULTY or part == FAULTY:
        return FAULTY
    return part if part["power"] > current["power"] else FAULTY


def install_all(current: Any, parts: Sequence[Any]) -> Any:
    """R46, R47, A4: several parts onto one node, ascending power, faulty first."""
    for part in sorted(parts, key=_power_key):
        current = install(current, part)
    return current


def relation_key(a: str, b: str) -> str:
    return "|".join(sorted((a, b)))


def connector_status(conn: Mapping[str, Any], parts: Mapping[str, Any], relation: Mapping[str, str],
                     final: bool = True) -> str:
    """excellent / working / dead (a faulty end) / waiting (an empty end, before the end) (R50-R55)."""
    a, b = parts.get(conn["a"]), parts.get(conn["b"])
    if a == FAULTY or b == FAULTY or (final and (a is None or b is None)):
        return "dead"
    if a is None or b is None:
        return "waiting"
    cond = conn["cond"]
    if cond in (Cond.ALLIES.value, Cond.ENEMIES.value):
        good = relation.get(relation_key(a["color"], b["color"]), "neither") == cond
    elif cond == Cond.GREATER.value:
        big, small = (a, b) if conn["greater"] == conn["a"] else (b, a)
        good = big["power"] > small["power"]  # A15: strict
    else:
        good = not conn["used"]  # R55, A8
    return "excellent" if good else "working"


def connector_points(status: str) -> int:
    return {"excellent": EXCELLENT_POINTS, "working": WORKING_POINTS}.get(status, 0)


def score_machine(machine: Mapping[str, Any], relation: Mapping[str, str]) -> tuple[int, list[str]]:
    """R50-R56: total points and one status per connector (in the machine's order)."""
    statuses = [connector_status(c, machine["parts"], relation, final=True) for c in machine["connectors"]]
    return sum(connector_points(s) for s in statuses), statuses


# --------------------------------------------------------------------- content tables

def _norm(text: Any) -> str:
    return clean(text).casefold()


def _columns(rect: Sequence[Sequence[str]], table: str, wanted: Sequence[str], problems: list[str]):
    """Index of each wanted header in the table's first row, or None with a problem."""
    if not rect:
        problems.append(f"Table {table!r} is empty; it needs a header row: {', '.join(wanted)}.")
        return None
    head = [_norm(h) for h in rect[0]]
    idx = {}
    for w in wanted:
        if w.casefold() not in head:
            problems.append(f"Table {table!r} has no column {w!r} in its header row; the header must be: "
                            f"{', '.join(wanted)}.")
            return None
        idx[w] = head.index(w.casefold())
    return idx


def _rows(rect: Sequence[Sequence[str]], idx: Mapping[str, int]):
    """(sheet row number, {column: text}) for each non-blank data row."""
    for n, row in enumerate(rect[1:], start=2):
        vals = {k: clean(row[i]) if i < len(row) else "" for k, i in idx.items()}
        if any(vals.values()):
            yield n, vals


def _meadow(text: str) -> str | None:
    t = _norm(text)
    if t.endswith(" meadow"):
        t = t[: -len(" meadow")].strip()
    return next((m for m in MEADOWS if m.casefold() == t), None)


def _keys(tables: Tables, *names: str) -> tuple:
    """The named tables' contents as one hashable key (what their readers are cached by)."""
    return tuple(table_key(tables.get(n)) for n in names)


def read_catalog(tables: Tables) -> tuple[dict, list[str]]:
    """The five meadows' halves per side from the two half tables (M1), and problems."""
    catalog, problems = _read_catalog_cached(_keys(tables, NODES_TABLE, CONNECTORS_TABLE))
    return fresh(catalog), list(problems)


@functools.lru_cache(maxsize=8)   # read at every new game and its first round: once per content
def _read_catalog_cached(key: tuple) -> tuple[dict, tuple[str, ...]]:
    nodes, connectors = key
    tables = {n: t for n, t in ((NODES_TABLE, nodes), (CONNECTORS_TABLE, connectors)) if t is not None}
    catalog, problems = _read_catalog(tables)
    return catalog, tuple(problems)


def _read_catalog(tables: Tables) -> tuple[dict, list[str]]:
    problems: list[str] = []
    catalog: dict[str, dict[str, dict]] = {m: {s.value: {"nodes": {}, "connectors": []} for s in Side}
                                           for m in MEADOWS}
    nrect = tables.get(NODES_TABLE)
    crect = tables.get(CONNECTORS_TABLE)
    if nrect is None or crect is None:
        missing = [t for t, r in ((NODES_TABLE, nrect), (CONNECTORS_TABLE, crect)) if r is None]
        return catalog, [f"Table {t!r} is missing; copy it from templates/big-machine." for t in missing]
    nidx = _columns(nrect, NODES_TABLE, ("Meadow", "Side", "Node", "Row", "Column"), problems)
    cidx = _columns(crect, CONNECTORS_TABLE, ("Meadow", "Side", "From", "To", "Condition"), problems)
    if nidx is None or cidx is None:
        return catalog, problems

    def sides(text: str, table: str, n: int) -> list[str]:
        t = _norm(text)
        if t in ("both", ""):
            return [s.value for s in Side]
        for s in Side:
            if s.value.casefold() == t:
                return [s.value]
        problems.append(f"Table {table!r} row {n}: Side {text!r} is not Both, Left or Right.")
        return []

    for n, v in _rows(nrect, nidx):
        m = _meadow(v["Meadow"])
        if m is None:
            problems.append(f"Table {NODES_TABLE!r} row {n}: Meadow {v['Meadow']!r} is not one of "
                            f"{', '.join(MEADOWS)}.")
            continue
        label = v["Node"].upper()
        row, col = parse_int(v["Row"]), parse_int(v["Column"])
        if not label or " " in label or label in MIDDLE:
            problems.append(f"Table {NODES_TABLE!r} row {n}: Node {v['Node']!r} must be a short name without "
                            "spaces, other than M1, M2, M3 (the middle nodes are implied).")
            continue
        if row is None or row < 1 or col is None or col < 1:
            problems.append(f"Table {NODES_TABLE!r} row {n}: Row {v['Row']!r} and Column {v['Column']!r} must "
                            "be whole numbers from 1 (Column 1 is next to the middle nodes).")
            continue
        for s in sides(v["Side"], NODES_TABLE, n):
            half = catalog[m][s]
            if label in half["nodes"]:
                problems.append(f"Table {NODES_TABLE!r} row {n}: node {label} of the {m} {s.lower()} half is "
                                "listed twice; remove one row.")
            elif [row, col] in half["nodes"].values():
                problems.append(f"Table {NODES_TABLE!r} row {n}: node {label} of the {m} {s.lower()} half is at "
                                f"Row {row}, Column {col}, where another node already is; move one.")
            else:
                half["nodes"][label] = [row, col]

    for n, v in _rows(crect, cidx):
        m = _meadow(v["Meadow"])
        if m is None:
            problems.append(f"Table {CONNECTORS_TABLE!r} row {n}: Meadow {v['Meadow']!r} is not one of "
                            f"{', '.join(MEADOWS)}.")
            continue
        a, b, ctext = v["From"].upper(), v["To"].upper(), _norm(v["Condition"])
        cond, greater = None, ""
        if ctext in (Cond.ALLIES.value, Cond.ENEMIES.value, Cond.FREE.value):
            cond = ctext
        elif ctext in (">", "<"):
            cond, greater = Cond.GREATER.value, (a if ctext == ">" else b)
        else:
            problems.append(f"Table {CONNECTORS_TABLE!r} row {n}: Condition {v['Condition']!r} is not allies, "
                            "enemies, free, '>' (From greater) or '<' (To greater).")
            continue
        if a == b:
            problems.append(f"Table {CONNECTORS_TABLE!r} row {n}: a connector joins two different nodes, "
                            f"not {a} to itself.")
            continue
        for s in sides(v["Side"], CONNECTORS_TABLE, n):
            half = catalog[m][s]
            known = set(half["nodes"]) | set(MIDDLE)
            bad = [x for x in (a, b) if x not in known]
            if bad:
                problems.append(f"Table {CONNECTORS_TABLE!r} row {n}: node {', '.join(bad)} is not a node of the "
                                f"{m} {s.lower()} half; add it to {NODES_TABLE!r} or fix the name.")
                continue
            if any({c["a"], c["b"]} == {a, b} for c in half["connectors"]):
                problems.append(f"Table {CONNECTORS_TABLE!r} row {n}: {a} and {b} of the {m} {s.lower()} half are "
                                "joined twice; keep one connector.")
                continue
            half["connectors"].append({"a": a, "b": b, "cond": cond, "greater": greater})

    for m in MEADOWS:
        for s in Side:
            half = catalog[m][s.value]
            if not half["connectors"]:
                problems.append(f"The {m} {s.value.lower()} half has no connectors; add rows for it (Side "
                                f"{s.value} or Both) to {CONNECTORS_TABLE!r}.")
                continue
            linked = {x for c in half["connectors"] for x in (c["a"], c["b"])}
            lonely = [x for x in half["nodes"] if x not in linked]  # middles: checked per machine
            if lonely:
                problems.append(f"The {m} {s.value.lower()} half: node {', '.join(lonely)} has no connector; "
                                f"join it to the machine in {CONNECTORS_TABLE!r}.")
    return catalog, problems


def assemble(catalog: Mapping[str, Any], left: str, right: str) -> tuple[dict, list[str]]:
    """R4, R5, M3: the machine of a left half and a right half sharing M1-M3, and problems."""
    problems: list[str] = []
    lh, rh = catalog[left][Side.LEFT.value], catalog[right][Side.RIGHT.value]
    wl = max([c for _, c in lh["nodes"].values()] or [0])
    nodes: dict[str, list[int]] = {}
    for label, (row, col) in sorted(lh["nodes"].items(), key=lambda kv: (kv[1][1] * -1, kv[1][0])):
        nodes["L" + label] = [row - 1, wl - col]
    for i, mid in enumerate(MIDDLE):
        nodes[mid] = [i, wl]
    for label, (row, col) in sorted(rh["nodes"].items(), key=lambda kv: (kv[1][1], kv[1][0])):
        nodes["R" + label] = [row - 1, wl + col]

    def nid(prefix: str, x: str) -> str:
        return x if x in MIDDLE else prefix + x

    conns: list[dict] = []
    seen: dict[frozenset, dict] = {}
    for prefix, half, name in (("L", lh, f"{left} left"), ("R", rh, f"{right} right")):
        for c in half["connectors"]:
            a, b = nid(prefix, c["a"]), nid(prefix, c["b"])
            g = nid(prefix, c["greater"]) if c["greater"] else ""
            new = {"a": a, "b": b, "cond": c["cond"], "greater": g, "used": False}
            key = frozenset((a, b))
            if key in seen:
                old = seen[key]
                if (old["cond"], old["greater"]) != (new["cond"], new["greater"]):
                    problems.append(f"The {left} left half and the {right} right half both join {a} and {b} but "
                                    f"with different conditions; make the shared connector the same in both.")
                continue
            seen[key] = new
            conns.append(new)
    machine = {"left": left, "right": right, "nodes": nodes, "connectors": conns,
               "parts": {n: None for n in nodes}}
    # every node reachable (M1 validation)
    adj = {n: set() for n in nodes}
    for c in conns:
        adj[c["a"]].add(c["b"])
        adj[c["b"]].add(c["a"])
    start = sorted(nodes)[0]
    todo, reach = [start], {start}
    while todo:
        for nb in sorted(adj[todo.pop()]):
            if nb not in reach:
                reach.add(nb)
                todo.append(nb)
    if len(reach) != len(nodes):
        cut = sorted(set(nodes) - reach)
        problems.append(f"A machine of the {left} left half and the {right} right half falls apart: "
                        f"{', '.join(cut)} cannot be reached from {start}; add connectors.")
    return machine, problems


def read_relation(tables: Tables) -> tuple[dict[str, str], list[str]]:
    """M2, A14: the allies/enemies relation per unordered colour pair."""
    (rect,) = _keys(tables, RELATION_TABLE)
    relation, problems = _read_relation_cached(rect)
    return dict(relation), list(problems)


@functools.lru_cache(maxsize=8)
def _read_relation_cached(rect: tuple | None) -> tuple[dict[str, str], tuple[str, ...]]:
    relation, problems = _read_relation({} if rect is None else {RELATION_TABLE: rect})
    return relation, tuple(problems)


def _read_relation(tables: Tables) -> tuple[dict[str, str], list[str]]:
    problems: list[str] = []
    rect = tables.get(RELATION_TABLE)
    if rect is None:
        return {}, [f"Table {RELATION_TABLE!r} is missing; copy it from templates/big-machine."]
    idx = _columns(rect, RELATION_TABLE, ("Colour A", "Colour B", "Relation"), problems)
    if idx is None:
        return {}, problems
    rel: dict[str, str] = {}
    for n, v in _rows(rect, idx):
        a, b = _meadow(v["Colour A"]), _meadow(v["Colour B"])
        r = _norm(v["Relation"])
        if a is None or b is None:
            bad = v["Colour A"] if a is None else v["Colour B"]
            problems.append(f"Table {RELATION_TABLE!r} row {n}: {bad!r} is not one of {', '.join(MEADOWS)}.")
            continue
        if r not in ("allies", "enemies", "neither"):
            problems.append(f"Table {RELATION_TABLE!r} row {n}: Relation {v['Relation']!r} is not allies, "
                            "enemies or neither.")
            continue
        key = relation_key(a, b)
        if key in rel:
            problems.append(f"Table {RELATION_TABLE!r} row {n}: the pair {a}-{b} is listed twice; keep one row.")
            continue
        rel[key] = r
    for i, a in enumerate(MEADOWS):
        for b in MEADOWS[i + 1:]:
            if relation_key(a, b) not in rel:
                problems.append(f"Table {RELATION_TABLE!r} has no row for {a} and {b}; add one saying allies "
                                "or enemies.")
    return rel, problems


def read_trades(tables: Tables) -> tuple[list[dict], list[str]]:
    """A16: host-recorded trades (round, from, to, cogs); names are checked when applied."""
    (rect,) = _keys(tables, TRADES_TABLE)
    trades, problems = _read_trades_cached(rect)
    return [dict(t) for t in trades], list(problems)


@functools.lru_cache(maxsize=8)   # read every round
def _read_trades_cached(rect: tuple | None) -> tuple[list[dict], tuple[str, ...]]:
    trades, problems = _read_trades({} if rect is None else {TRADES_TABLE: rect})
    return trades, tuple(problems)


def _read_trades(tables: Tables) -> tuple[list[dict], list[str]]:
    problems: list[str] = []
    rect = tables.get(TRADES_TABLE)
    if rect is None:
        return [], []  # optional: no trades recorded
    idx = _columns(rect, TRADES_TABLE, ("Round", "From", "To", "Cogs"), problems)
    if idx is None:
        return [], problems
    out = []
    for n, v in _rows(rect, idx):
        r, c = parse_int(v["Round"]), parse_int(v["Cogs"])
        if r is None or not 0 <= r <= ROUNDS or c is None or c < 1:
            problems.append(f"Table {TRADES_TABLE!r} row {n}: Round must be 0 to {ROUNDS} and Cogs a whole "
                            f"number from 1 (found Round {v['Round']!r}, Cogs {v['Cogs']!r}).")
            continue
        out.append({"row": n, "round": r, "from": v["From"], "to": v["To"], "cogs": c})
    return out, problems


def check_all_tables(tables: Tables) -> list[str]:
    return list(_check_all_cached(_keys(tables, NODES_TABLE, CONNECTORS_TABLE, RELATION_TABLE, TRADES_TABLE)))


@functools.lru_cache(maxsize=8)   # checked at every new game: the 25 machines are assembled once per content
def _check_all_cached(key: tuple) -> tuple[str, ...]:
    names = (NODES_TABLE, CONNECTORS_TABLE, RELATION_TABLE, TRADES_TABLE)
    return tuple(_check_all({n: t for n, t in zip(names, key) if t is not None}))


def _check_all(tables: Tables) -> list[str]:
    catalog, problems = read_catalog(tables)
    if not problems:
        found: list[str] = []
        for left in MEADOWS:
            for right in MEADOWS:
                for p in assemble(catalog, left, right)[1]:
                    if p not in found:
                        found.append(p)
        problems += found
    problems += read_relation(tables)[1]
    problems += read_trades(tables)[1]
    return problems


# --------------------------------------------------------------------- machine helpers

def part_text(part: Any) -> str:
    """A node's content as the state holds it (None, "faulty" or a dict) in words."""
    if part is None:
        return "empty"
    if part == FAULTY:
        return "faulty"
    return f"{part['color']} {part['power']}"


def as_part(part: Any) -> MachinePart | None:
    """The state's node content as a MachinePart (None: empty)."""
    if part is None:
        return None
    if part == FAULTY:
        return FAULTY_PART
    return MachinePart(part["color"], int(part["power"]))


def _ptext(part: MachinePart | None) -> str:
    return "empty" if part is None else part.text()


def node_order(machine: Mapping[str, Any]) -> list[str]:
    return sorted(machine["nodes"], key=lambda n: (machine["nodes"][n][1], machine["nodes"][n][0], n))


def neighbours(machine: Mapping[str, Any], node: str) -> list[str]:
    found = {c["b"] for c in machine["connectors"] if c["a"] == node} | \
            {c["a"] for c in machine["connectors"] if c["b"] == node}
    return [n for n in node_order(machine) if n in found]


def find_connector(machine: Mapping[str, Any], a: str, b: str) -> dict | None:
    for c in machine["connectors"]:
        if {c["a"], c["b"]} == {a, b}:
            return c
    return None


def machine_facts(machine: Mapping[str, Any], relation: Mapping[str, str], final: bool = False,
                  layout: bool = False) -> tuple[tuple[MachineNode, ...], tuple[MachineConnector, ...]]:
    """A machine of the state as fact data: its nodes (in drawing order) and connectors with their
    state and points now (`final`: empty ends count as faulty); `layout`: the bare structure."""
    nodes = tuple(MachineNode(n, machine["nodes"][n][0], machine["nodes"][n][1],
                              None if layout else as_part(machine["parts"][n])) for n in node_order(machine))
    conns = []
    for c in machine["connectors"]:
        if layout:
            conns.append(MachineConnector(c["a"], c["b"], c["cond"], c["greater"]))
            continue
        status = connector_status(c, machine["parts"], relation, final=final)
        conns.append(MachineConnector(c["a"], c["b"], c["cond"], c["greater"], bool(c["used"]), status,
                                      connector_points(status)))
    return nodes, tuple(conns)


def kind_text(conn: MachineConnector) -> str:
    """A connector's condition in words: allies, enemies, free, or "L1 > L2" (the greater end first)."""
    if conn.kind == Cond.GREATER.value:
        small = conn.b if conn.greater == conn.a else conn.a
        return f"{conn.greater} > {small}"
    return conn.kind


def _conn_symbol(conn: MachineConnector, first: str, dy: int, dx: int) -> str:
    """Short text for a connector's drawing cell; `first` is the upper/left end."""
    kind = conn.kind
    if kind in (Cond.ALLIES.value, Cond.ENEMIES.value):
        sym = kind
    elif kind == Cond.FREE.value:
        sym = "free" + (" (used)" if conn.traversed else "")
    elif dy == 0:
        sym = ">" if conn.greater == first else "<"
    elif dx == 0:
        sym = "v" if conn.greater == first else "^"
    else:
        sym = f"{conn.greater} >"
    line = "-" if dy == 0 else "|" if dx == 0 else ("\\" if dy == dx else "/")
    return f"{line} {sym} {line}" if dy == 0 else f"{line}{sym}"


def machine_blocks(nodes: Sequence[MachineNode], connectors: Sequence[MachineConnector], title: str,
                   caption: str = "", final: bool = False, plan: bool = False,
                   summary: str = "") -> tuple[Block, Block]:
    """A machine as a grid (nodes coloured by part, connectors by state) and its connector list.

    `plan` draws an empty layout: conditions only, no state or points. `summary` ends the list
    (the total, or the points if the game ended now)."""
    pos = {n.node: (n.row, n.column) for n in nodes}
    h = max(y for y, _ in pos.values()) + 1
    w = max(x for _, x in pos.values()) + 1
    grid = [[Cell("") for _ in range(2 * w - 1)] for _ in range(2 * h - 1)]
    for n in nodes:
        y, x = pos[n.node]
        part, middle = n.part, n.node in MIDDLE
        if part is None:
            cell = Cell(f"{n.node}: empty", fill=EMPTY_FILL, bold=middle)
        elif part.faulty:
            cell = Cell(f"{n.node}: X faulty", fill=FAULTY_FILL, bold=middle, font="000000")
        else:
            cell = Cell(f"{n.node}: {part.text()}", fill=COLOR_FILL[part.colour], bold=middle,
                        font=COLOR_FONT.get(part.colour))
        grid[2 * y][2 * x] = cell
    lines = []
    for c in connectors:
        (y1, x1), (y2, x2) = pos[c.a], pos[c.b]
        if abs(y1 - y2) <= 1 and abs(x1 - x2) <= 1:
            first, other = sorted((c.a, c.b), key=lambda n: pos[n])
            (fy, fx), (oy, ox) = pos[first], pos[other]
            if grid[y1 + y2][x1 + x2].text == "":
                grid[y1 + y2][x1 + x2] = Cell(_conn_symbol(c, first, oy - fy, ox - fx),
                                              fill=STATE_FILL["waiting" if plan else c.status])
        used = " (used: no longer excellent)" if c.kind == Cond.FREE.value and c.traversed else ""
        where = f"{c.a}-{c.b} {kind_text(c)}"
        if plan:
            lines.append(where)
        elif final:
            lines.append(f"{where}{used}: {c.status}, {plural(c.points, 'point')}")
        else:
            lines.append(f"{where}{used}: {c.status} now")
    rows = tuple(tuple(r) for r in grid)
    if plan:
        return (Block(title, (caption,) if caption else (), rows, (("empty node", EMPTY_FILL),)),
                Block(f"{title}: connectors", tuple(lines)))
    legend = tuple((m, COLOR_FILL[m]) for m in MEADOWS) + (("empty", EMPTY_FILL), ("faulty", FAULTY_FILL)) + \
        tuple((f"connector {k}: {STATE_HELP[k]}", v) for k, v in STATE_FILL.items() if not final or k != "waiting")
    return (Block(title, (caption,) if caption else (), rows, legend),
            Block(f"{title}: connectors", tuple(lines) + ((summary,) if summary else ())))


def half_machine(half: Mapping[str, Any], side: str) -> dict:
    """One half alone, drawn on its side of the middle nodes (for meadow selection)."""
    left = side == Side.LEFT.value
    prefix = "L" if left else "R"
    w = max([c for _, c in half["nodes"].values()] or [0])
    nodes = {prefix + label: [row - 1, (w - col) if left else col] for label, (row, col) in half["nodes"].items()}
    for i, mid in enumerate(MIDDLE):
        nodes[mid] = [i, w if left else 0]

    def nid(x: str) -> str:
        return x if x in MIDDLE or not x else prefix + x
    conns = [{"a": nid(c["a"]), "b": nid(c["b"]), "cond": c["cond"], "greater": nid(c["greater"]), "used": False}
             for c in half["connectors"]]
    return {"left": "", "right": "", "nodes": nodes, "connectors": conns, "parts": {n: None for n in nodes}}


def _filled(machine: Mapping[str, Any]) -> dict:
    """R48: the machine with every empty node made faulty (a new machine sharing what it does not change)."""
    return {**machine, "parts": {n: (FAULTY if p is None else p) for n, p in machine["parts"].items()}}


def _round_copy(state: State) -> State:
    """The state a round resolves into. Only what a round writes in place is copied (a JSON round trip
    of the whole state, the meadows' catalog included, cost more than the round): the per-participant
    dicts, the scores, each machine's parts and connectors. The catalog and relation are replaced when
    changed, never written in place; teams, roster and options are only read."""
    st = dict(state)
    for key in ("meadow", "start", "cogs", "prev", "scores"):
        if key in st:
            st[key] = dict(st[key])
    st["machines"] = {tid: {**m, "parts": dict(m["parts"]), "connectors": [dict(c) for c in m["connectors"]]}
                      for tid, m in state["machines"].items()}
    return st


# --------------------------------------------------------------------- pictures
# Drawn from the facts alone (core.picture); the renderer is sheetbridge.pictures. Nodes are
# circles in the part's colour with the power inside (faulty: olive with an X, empty: yellow, as
# the ruleset draws them); connectors are thick black lines labelled as the ruleset marks them:
# red text for allies/enemies, a blue greater-than, green "free" (R7).

KIND_COLOUR = {"allies": "C00000", "enemies": "C00000", "greater": "0070C0", "free": "007A33"}
DEAD_LINE = "A6A6A6"            # a connector with a faulty end, at the end: no points
CELL_W, CELL_H, NODE_R = 140, 90, 20
MEADOW_W, MEADOW_HEAD, NAME_H = 130, 26, 16


def _kind_label(conn: MachineConnector, final: bool) -> str:
    text = f"{conn.greater}>{conn.b if conn.greater == conn.a else conn.a}" if conn.kind == Cond.GREATER.value \
        else conn.kind + (" (used)" if conn.kind == Cond.FREE.value and conn.traversed else "")
    return f"{text} +{conn.points}" if final and conn.points else text


def node_centre(x0: float, y0: float, node: MachineNode) -> tuple[float, float]:
    """Where a node's circle is drawn in a machine drawn from (x0, y0)."""
    return x0 + 40 + node.column * CELL_W, y0 + 54 + node.row * CELL_H


def machine_shapes(x0: float, y0: float, title: str, nodes: Sequence[MachineNode],
                   connectors: Sequence[MachineConnector], final: bool = False) -> tuple[list, float, float]:
    """One machine: shapes, width, height."""
    shapes: list[Any] = [Label(x0, y0, title, size=15, bold=True)]
    centre = {n.node: node_centre(x0, y0, n) for n in nodes}
    for c in connectors:
        dead = final and c.status == "dead"
        shapes.append(Line((centre[c.a], centre[c.b]), colour=DEAD_LINE if dead else "000000", width=4, dashed=dead))
    for c in connectors:
        (ax, ay), (bx, by) = centre[c.a], centre[c.b]
        mx, my = (ax + bx) / 2, (ay + by) / 2
        text = _kind_label(c, final)
        w = 7 * len(text) + 8
        shapes.append(Box(mx - w / 2, my - 9, w, 18, fill="FFFFFF", outline=None))
        shapes.append(Label(mx, my, text, colour=KIND_COLOUR[c.kind], size=12, anchor="mm"))
    for n in nodes:
        cx, cy = centre[n.node]
        part = n.part
        fill = EMPTY_FILL if part is None else FAULTY_FILL if part.faulty else COLOR_FILL[part.colour]
        shapes.append(Dot(cx, cy, NODE_R, fill=fill, outline="000000"))
        if part is not None and part.faulty:
            shapes.append(Line(((cx - 11, cy - 11), (cx + 11, cy + 11)), colour="000000", width=3))
            shapes.append(Line(((cx - 11, cy + 11), (cx + 11, cy - 11)), colour="000000", width=3))
        elif part is not None:
            shapes.append(Label(cx, cy, str(part.power), colour=COLOR_FONT.get(part.colour, "000000"), size=15,
                                bold=True, anchor="mm"))
        shapes.append(Box(cx - 4 * len(n.node) - 3, cy + NODE_R + 2, 8 * len(n.node) + 6, 14, fill="FFFFFF",
                          outline=None))
        shapes.append(Label(cx, cy + NODE_R + 9, n.node, size=11, bold=n.node in MIDDLE, anchor="mm"))
    width = 80 + max(n.column for n in nodes) * CELL_W
    height = 54 + max(n.row for n in nodes) * CELL_H + NODE_R + 22
    return shapes, width, height


def board_shapes(x0: float, y0: float, title: str, where: Sequence[tuple[str, str]]) -> tuple[list, float, float]:
    """The five meadows and who is in each (names in the order given): shapes, width, height."""
    occupants = {m: [p for p, at in where if at == m] for m in MEADOWS}
    depth = max([len(v) for v in occupants.values()] + [1])
    shapes: list[Any] = [Label(x0, y0, title, size=15, bold=True)]
    top = y0 + 24
    for i, m in enumerate(MEADOWS):
        x = x0 + i * MEADOW_W
        shapes.append(Box(x, top, MEADOW_W, MEADOW_HEAD, fill=COLOR_FILL[m], outline="000000"))
        shapes.append(Label(x + 6, top + 6, f"{m} Meadow", colour=COLOR_FONT.get(m, "000000"), size=13))
        shapes.append(Box(x, top + MEADOW_HEAD, MEADOW_W, depth * NAME_H + 10, fill="FFFFFF", outline="000000"))
        for j, name in enumerate(occupants[m] or ["nobody"]):
            shapes.append(Label(x + 6, top + MEADOW_HEAD + 5 + j * NAME_H, name, size=12,
                                colour="000000" if occupants[m] else "7F7F7F"))
    return shapes, 5 * MEADOW_W, 24 + MEADOW_HEAD + depth * NAME_H + 10


LEGEND: tuple[tuple[str, str, str], ...] = (
    tuple((f"{m} part", COLOR_FILL[m], "fill") for m in MEADOWS)
    + (("empty node", EMPTY_FILL, "fill"), ("faulty part", FAULTY_FILL, "fill"),
       ("allies / enemies: the colours", KIND_COLOUR["allies"], "text"),
       ("A>B: A's power greater", KIND_COLOUR["greater"], "text"),
       ("free: unless moved along", KIND_COLOUR["free"], "text")))


def legend_shapes(x0: float, y0: float, final: bool = False) -> tuple[list, float, float]:
    """The key of a machine picture: every fill and every connector colour, two rows."""
    items = LEGEND + ((("grey dashed: a faulty end, 0 points", DEAD_LINE, "text"),) if final else ())
    shapes: list[Any] = []
    x, y, row_w = x0, y0, 0.0
    for i, (label, colour, how) in enumerate(items):
        if i == len(MEADOWS) + 2:   # connector kinds on a second row
            x, y = x0, y + 22
        if how == "fill":
            shapes.append(Box(x, y, 14, 14, fill=colour, outline="000000"))
            shapes.append(Label(x + 18, y + 1, label, size=11))
            x += 18 + 7 * len(label) + 14
        else:
            shapes.append(Label(x, y + 1, label, colour=colour, size=12))
            x += 7 * len(label) + 18
        row_w = max(row_w, x - x0)
    return shapes, row_w, y - y0 + 18


# --------------------------------------------------------------------- teams

def form_teams(roster: Sequence[str], spec_text: str) -> list[dict]:
    """A1, M6: teams from the option (player first) and the rest of the roster in order."""
    if len(roster) % 2:
        raise ConfigError(f"The Big Machine needs an even roster (a player and a guest per team); "
                          f"{len(roster)} names given: {', '.join(roster)}.")
    by_fold = {n.casefold(): n for n in roster}
    named: list[tuple[str, str]] = []
    used: set[str] = set()
    for chunk in split_list(spec_text, (";", ",")):
        parts = [clean(x) for x in chunk.replace("&", "+").replace("/", "+").split("+") if clean(x)]
        if len(parts) != 2:
            raise ConfigError(f"option teams: {chunk!r} is not a pair; write Player+Guest, pairs separated by ';'.")
        pair = []
        for x in parts:
            name = by_fold.get(x.casefold())
            if name is None:
                raise ConfigError(f"option teams: {x!r} is not on the roster ({', '.join(roster)}).")
            if name in used:
                raise ConfigError(f"option teams: {name} is named twice; everyone is in exactly one team.")
            used.add(name)
            pair.append(name)
        named.append((pair[0], pair[1]))
    rest = [n for n in roster if n not in used]
    named += [(rest[i], rest[i + 1]) for i in range(0, len(rest), 2)]
    return [{"id": f"Team {i + 1}", "player": p, "guest": g} for i, (p, g) in enumerate(named)]


# --------------------------------------------------------------------- the game

@dataclass
class Turn:
    """One participant's effective move for the round, after defaults and fallbacks (working data)."""
    meadow: str
    bid: int
    power: int
    node: str
    jump: bool
    forced: bool
    sabotage: str | None
    submitted: bool = True


class BigMachine(GameRules):
    spec = SPEC

    # ---- standings, read from the facts (core/standings.py) -----------------
    score_unit = "machine points"
    tie_rule = ("a shared highest score gives nobody the Token of Life (R57); a shared lowest goes to the "
                "vote (R58)")

    def round_scores(self, facts):
        """A team's points if the game ended now (empty nodes faulty, R48), each round; the final score
        at the end (R56). A level, not a gain: the total is the last one."""
        now = [RoundScore(p, f.points_if_ended, f.points_if_ended)
               for f in of_type(facts, MachineNow) for p in f.audience if p]
        final = [RoundScore(p, f.total, f.total) for f in of_type(facts, MachineScored)
                 for p in (f.player, f.guest) if p]
        return now + final

    # ---- setup -----------------------------------------------------------
    def check_tables(self, tables: Tables) -> list[str]:
        return check_all_tables(tables)

    def setup(self, players: Sequence[str], options: Mapping[str, Any], tables: Tables, rng: Rng) -> State:
        opts = dict(DEFAULTS)
        opts.update(options)
        roster = list(players)
        teams = form_teams(roster, str(opts.get("teams") or ""))
        if not 2 <= len(teams) <= 4:
            raise ConfigError(f"The Big Machine is for 2 to 4 teams; {len(teams)} would be formed.")
        catalog, problems = read_catalog(tables)
        relation, more = read_relation(tables)
        if problems or more:
            raise ConfigError("; ".join(problems + more))
        team_of, role = {}, {}
        for t in teams:
            team_of[t["player"]], role[t["player"]] = t["id"], "player"
            team_of[t["guest"]], role[t["guest"]] = t["id"], "guest"
        return {
            "round": 0, "finished": False, "options": opts, "roster": roster, "teams": teams,
            "team_of": team_of, "role": role, "catalog": catalog, "relation": relation,
            "meadow": {p: None for p in roster}, "start": {p: None for p in roster},
            "cogs": {p: START_COGS for p in roster}, "prev": {p: None for p in roster},
            "machines": {}, "scores": {},
        }

    # ---- helpers ---------------------------------------------------------
    @staticmethod
    def team(state: State, player: str) -> dict:
        tid = state["team_of"][player]
        return next(t for t in state["teams"] if t["id"] == tid)

    def mates(self, state: State, player: str) -> tuple[str, str]:
        t = self.team(state, player)
        return t["player"], t["guest"]

    def machine(self, state: State, player: str) -> dict:
        return state["machines"][state["team_of"][player]]

    def viewers(self, state: State, player: str) -> tuple[str, ...]:
        """R63-R65: a team shares its machine, installs and sabotage."""
        return self.mates(state, player)

    def _allowed_nodes(self, state: State, player: str) -> list[str]:
        m = self.machine(state, player)
        prev = state["prev"][player]
        return node_order(m) if prev is None else neighbours(m, prev)

    def _gift_targets(self, state: State, player: str) -> list[str]:
        if state["options"]["cross_team_trades"]:
            return [p for p in state["roster"] if p != player]
        return [p for p in self.mates(state, player) if p != player]

    # ---- form ------------------------------------------------------------
    def form(self, state: State, player: str) -> Form:
        r = state["round"]
        if r == 0:
            t = self.team(state, player)
            side = "left" if state["role"][player] == "player" else "right"
            meadow = Field("meadow", "Starting meadow", FieldKind.CHOICE, MEADOWS,
                           help=f"your meadow gives your team's machine its {side} half")
            return Form(0, "Meadow selection", (Section("start", "Meadow selection", (meadow,)),), help=(
                f"Meadow selection: you are the {state['role'][player]} of {t['id']} ({t['player']} + {t['guest']}).",
                f"Your starting meadow gives the {side} half of your machine; the halves are on your Results tab.",
                "Blank: a random meadow is chosen for you."))
        m = self.machine(state, player)
        allnodes = node_order(m)
        prev = state["prev"][player]
        adj = self._allowed_nodes(state, player)
        cogs = state["cogs"][player]
        cap = cogs + SABOTAGE_COGS
        where = "any node of your machine" if prev is None else \
            f"a node joined to {prev}: {', '.join(adj)} (other nodes need Jump = yes, 5 garnets)"
        empty = [n for n in allnodes if m["parts"][n] is None]
        fields = [
            Field("meadow", "Meadow", FieldKind.CHOICE, MEADOWS, required=False,
                  help=f"blank: stay in the {state['meadow'][player]} Meadow"),
            Field("bid", "Bid (cogs)", FieldKind.INTEGER, minimum=0, maximum=cap, required=False,
                  help=f"bid + power-up at most your {cogs} cogs (+2 with a sabotage); always paid"),
            Field("power", "Power-up (cogs)", FieldKind.INTEGER, minimum=0, maximum=cap, required=False,
                  help="paid only if you win the part"),
            Field("node", "Install node", FieldKind.CHOICE, tuple(allnodes), help=where),
            Field("sabotage", "Sabotage node", FieldKind.CHOICE, tuple(empty), required=False,
                  help="optional: an empty node gets a faulty part, +2 cogs usable now"),
        ]
        if r >= 2:
            fields.append(Field("jump", "Jump (5 garnets)", FieldKind.YESNO, ("yes", "no"), required=False,
                                help="yes: pay 5 garnets to install on any node"))
        give = Section("give", "Give cogs (optional)", (
            Field("to", "To", FieldKind.CHOICE, tuple(self._gift_targets(state, player)), required=False),
            Field("cogs", "Cogs", FieldKind.INTEGER, minimum=1, maximum=max(1, cogs), required=False)),
            rows=2, help="given after this round's auctions from the cogs you have left")
        return Form(r, f"Round {r} of {ROUNDS}", (Section("turn", "Your move", tuple(fields)), give), help=(
            f"Round {r} of {ROUNDS}. You are in the {state['meadow'][player]} Meadow with {_cogs(cogs)}.",
            "Move, then the highest unique bid in each meadow wins a part of the meadow's colour with power "
            "= people there + power-up; everyone else there installs a faulty part.",
            f"Install node: {where}.",
            "Blank: stay, bid 0, power-up 0, a random node next to your previous one."))

    # ---- parse -----------------------------------------------------------
    def parse(self, state: State, player: str, raw: RawSubmission) -> Submission:
        if state["round"] == 0:
            return self._parse_start(state, player, raw)
        r = state["round"]
        opts = state["options"]
        row = _first_row(raw, "turn")
        problems: list[Problem] = []
        values: dict[str, Any] = {"gifts": []}
        m = self.machine(state, player)
        allnodes = node_order(m)
        prev = state["prev"][player]
        adj = self._allowed_nodes(state, player)
        here = state["meadow"][player]
        rand_node = ("a random node of your machine" if prev is None
                     else f"a random node joined to {prev}: {', '.join(adj)}")

        # meadow (V11, V12)
        text = clean(row.get("meadow", ""))
        if text == "":
            problems.append(Problem(ProblemKind.MISSING, player, "meadow", "", ", ".join(MEADOWS),
                                    "no meadow chosen", f"stay in the {here} Meadow"))
        else:
            meadow = None if is_formula(text) else _meadow(text)
            if meadow is None:
                problems.append(Problem(ProblemKind.SYNTAX, player, "meadow", text, ", ".join(MEADOWS),
                                        "a formula" if is_formula(text) else "no such meadow",
                                        f"stay in the {here} Meadow"))
            else:
                values["meadow"] = meadow

        # bid and power-up (V8, V9); the cap is checked in resolve, after trades (V10, A16)
        for name, label in (("bid", "bid"), ("power", "power-up")):
            text = clean(row.get(name, ""))
            if text == "":
                continue  # V8: blank is 0
            n = None if is_formula(text) else parse_int(text)
            if n is None:
                problems.append(Problem(ProblemKind.SYNTAX, player, name, text, "a whole number from 0",
                                        int_reason(text).replace("whole number", "whole number of cogs"),
                                        f"{label} 0"))
            elif n < 0:
                problems.append(Problem(ProblemKind.ILLEGAL, player, name, text, "a whole number from 0",
                                        "negative", f"{label} 0"))
            else:
                values[name] = n

        # jump (R24, A7, V13)
        jtext = clean(row.get("jump", ""))
        jump = yes_no(jtext) if not is_formula(jtext) else None
        if jump is None:
            problems.append(Problem(ProblemKind.SYNTAX, player, "jump", jtext, YES_NO_HELP, "not yes or no",
                                    "no jump, nothing charged"))
            jump = False
        elif jump and r == 1:
            problems.append(Problem(ProblemKind.ILLEGAL, player, "jump", jtext, "no (any node is allowed in round 1)",
                                    "no jump in round 1", "no jump, nothing charged"))
            jump = False

        # node (V15-V17)
        text = clean(row.get("node", ""))
        node = None
        if text == "":
            problems.append(Problem(ProblemKind.MISSING, player, "node", "", ", ".join(allnodes),
                                    "no install node", rand_node + ("; no jump, nothing charged" if jump else "")))
            jump = False
        else:
            node = None if is_formula(text) else next((n for n in allnodes if n.casefold() == text.casefold()), None)
            if node is None:
                problems.append(Problem(ProblemKind.SYNTAX, player, "node", text, ", ".join(allnodes),
                                        "a formula" if is_formula(text) else "not a node of your machine",
                                        rand_node + ("; no jump, nothing charged" if jump else "")))
                jump = False
            elif jump:
                if node == prev and not opts["jump_to_previous"]:
                    problems.append(Problem(ProblemKind.ILLEGAL, player, "node", text,
                                            "any node but your previous one, with a jump",
                                            f"{node} is your previous node", rand_node + "; no jump, nothing charged"))
                    node, jump = None, False
            elif prev is not None and node not in adj:
                reason = (f"{node} is your previous node; choose a different one" if node == prev
                          else f"{node} is not joined to your previous node {prev} and no jump was asked")
                problems.append(Problem(ProblemKind.ILLEGAL, player, "node", text,
                                        f"{', '.join(adj)} (or any node with Jump = yes)", reason, rand_node))
                node = None
        if node is not None:
            values["node"] = node
        values["jump"] = jump

        # sabotage (V5-V7)
        text = clean(row.get("sabotage", ""))
        if text:
            empty = [n for n in allnodes if m["parts"][n] is None]
            items = split_list(text)
            target = None if is_formula(text) else next((n for n in allnodes if n.casefold() == text.casefold()), None)
            allowed = ", ".join(empty) or "none (no empty node)"
            if len(items) > 1:
                problems.append(Problem(ProblemKind.ILLEGAL, player, "sabotage", text, "one empty node",
                                        "only one sabotage per round", "no sabotage, no cogs"))
            elif target is None:
                problems.append(Problem(ProblemKind.SYNTAX, player, "sabotage", text, allowed,
                                        "a formula" if is_formula(text) else "not a node of your machine",
                                        "no sabotage, no cogs"))
            elif m["parts"][target] is not None:
                problems.append(Problem(ProblemKind.ILLEGAL, player, "sabotage", text, allowed,
                                        f"{target} is not empty (it holds {part_text(m['parts'][target])})",
                                        "no sabotage, no cogs"))
            else:
                values["sabotage"] = target

        # gifts (R12, A16)
        targets = self._gift_targets(state, player)
        for i, g in enumerate(raw.get("give") or []):
            to_text, n_text = clean(g.get("to", "")), clean(g.get("cogs", ""))
            if not to_text and not n_text:
                continue
            fname = f"give row {i + 1}"
            to = None if is_formula(to_text) else next((p for p in targets if p.casefold() == to_text.casefold()), None)
            n = None if is_formula(n_text) else parse_int(n_text)
            if to is None:
                reason = "yourself" if to_text.casefold() == player.casefold() else (
                    "not on your team (option cross_team_trades is off)"
                    if to_text.casefold() in {p.casefold() for p in state["roster"]} else "not a participant")
                problems.append(Problem(ProblemKind.ILLEGAL if to_text else ProblemKind.MISSING, player,
                                        f"{fname} to", to_text, ", ".join(targets), reason, "nothing given"))
            elif n is None or n < 1:
                problems.append(Problem(ProblemKind.SYNTAX if n is None else ProblemKind.ILLEGAL, player,
                                        f"{fname} cogs", n_text, "a whole number from 1",
                                        "not a positive whole number", "nothing given"))
            else:
                values["gifts"].append([to, n])
        return Submission(player, values, tuple(problems), raw)

    def _parse_start(self, state: State, player: str, raw: RawSubmission) -> Submission:
        text = clean(_first_row(raw, "start").get("meadow", ""))
        meadow = None if is_formula(text) else _meadow(text)
        if meadow is None:
            kind = ProblemKind.MISSING if text == "" else ProblemKind.SYNTAX
            reason = "no meadow chosen" if text == "" else ("a formula" if is_formula(text) else "no such meadow")
            return Submission(player, {}, (Problem(kind, player, "meadow", text, ", ".join(MEADOWS), reason,
                                                   "a random meadow"),), raw)
        return Submission(player, {"meadow": meadow}, (), raw)

    def default_submission(self, state: State, player: str, rng: Rng) -> Mapping[str, Any]:
        """R29, A9: stay, bid 0, power-up 0, a random node joined to the previous one."""
        if state["round"] == 0:
            return {"meadow": rng.choice(MEADOWS)}
        return {"meadow": state["meadow"][player], "bid": 0, "power": 0,
                "node": rng.choice(self._allowed_nodes(state, player)), "jump": False, "gifts": []}

    # ---- resolve ---------------------------------------------------------
    def resolve(self, state: State, round_input: RoundInput, rng: Rng) -> RoundResult:
        st = _round_copy(state)
        if st["round"] == 0:
            return self._resolve_start(st, round_input, rng)
        return self._resolve_round(st, round_input, rng)

    def _private(self, st: State, *participants: str) -> tuple[str, ...]:
        """Who may know a participant's own notices, bids and cogs: themselves (A19), or their team
        with share_notices; several participants: everyone any of them may tell."""
        out: list[str] = []
        for p in participants:
            for q in (self.mates(st, p) if st["options"]["share_notices"] else (p,)):
                if q not in out:
                    out.append(q)
        return tuple(out)

    def _apply_host_trades(self, st: State, round_input: RoundInput, log: list) -> list[Fact]:
        """A16: the host's recorded trades for this round, before the checks; an overdraft is rejected."""
        trades, _ = read_trades(round_input.tables)
        fold = {p.casefold(): p for p in st["roster"]}
        facts: list[Fact] = []
        for t in trades:
            if t["round"] != st["round"]:
                continue
            a, b = fold.get(t["from"].casefold()), fold.get(t["to"].casefold())
            where = f"{TRADES_TABLE} row {t['row']}"
            if a is None or b is None or a == b:
                log.append(f"{where}: {t['from']} -> {t['to']} ignored: both must be different participants")
            elif not st["options"]["cross_team_trades"] and st["team_of"][a] != st["team_of"][b]:
                log.append(f"{where}: {a} -> {b} ignored: cross-team trades are off (A16)")
            elif st["cogs"][a] < t["cogs"]:
                log.append(f"{where}: {a} has {st['cogs'][a]} cogs, cannot give {t['cogs']}: rejected (A16)")
                facts.append(CogsGiven(a, b, t["cogs"], "host", made=False, giver_had=st["cogs"][a],
                                       audience=self._private(st, a)))
            else:
                facts.append(CogsGiven(a, b, t["cogs"], "host", giver_had=st["cogs"][a],
                                       audience=self._private(st, a, b)))
                st["cogs"][a] -= t["cogs"]
                st["cogs"][b] += t["cogs"]
                log.append(f"{where}: {a} gave {b} {t['cogs']} cogs")
        return facts

    def _resolve_start(self, st: State, round_input: RoundInput, rng: Rng) -> RoundResult:
        """M6, R3-R6, A24: starting meadows, machines assembled; layouts public by default."""
        log: list[str] = [f"round seed {rng.state} (random draws: missing meadows)"]
        facts: list[Fact] = [MachineTeam(t["id"], t["player"], t["guest"]) for t in st["teams"]]
        # the halves "given during meadow selection": the host's tables as they are now (M1, M2)
        catalog, problems = read_catalog(round_input.tables)
        relation, more = read_relation(round_input.tables)
        if not problems and not more:
            st["catalog"], st["relation"] = catalog, relation
        for p in st["roster"]:
            sub = round_input.submissions.get(p)
            meadow = sub.values.get("meadow") if sub else None
            if sub:
                facts.extend(SubmissionProblem(p, pr, audience=self._private(st, p)) for pr in sub.problems)
            if meadow is None:
                meadow = rng.fork("start", p).choice(MEADOWS)
                log.append(f"{p}: {'no valid submission' if sub else 'no submission'}; random starting meadow {meadow}")
                facts.append(StartingMeadowDrawn(p, meadow, audience=self._private(st, p)))
            st["start"][p] = st["meadow"][p] = meadow
        public = st["options"]["public_layouts"]
        for p in st["roster"]:
            facts.append(StartingMeadow(p, st["team_of"][p], st["role"][p], st["start"][p],
                                        audience=PUBLIC if public else self.mates(st, p)))
        for t in st["teams"]:
            machine, problems = assemble(st["catalog"], st["start"][t["player"]], st["start"][t["guest"]])
            if problems:
                raise ConfigError("; ".join(problems))
            st["machines"][t["id"]] = machine
            nodes, conns = machine_facts(machine, st["relation"], layout=True)
            facts.append(MachineLayout(t["id"], machine["left"], machine["right"], nodes, conns,
                                       audience=PUBLIC if public else (t["player"], t["guest"])))
        facts += self._apply_host_trades(st, round_input, log)
        st["round"] = 1
        return RoundResult(st, host_log=tuple(log), facts=tuple(facts))

    def _effective_moves(self, st: State, round_input: RoundInput, rng: Rng, log: list,
                         ledger: list) -> tuple[dict[str, "Turn"], list[Fact]]:
        """Section (e): each participant's move after defaults and fallbacks, jumps charged (A7)."""
        r, opts = st["round"], st["options"]
        turns: dict[str, Turn] = {}
        facts: list[Fact] = []
        for p in st["roster"]:
            sub = round_input.submissions.get(p)
            prev = st["prev"][p]
            adj = self._allowed_nodes(st, p)
            told = self._private(st, p)
            vals: Mapping[str, Any] = sub.values if sub else {}
            if sub is not None:
                facts.extend(SubmissionProblem(p, pr, audience=told) for pr in sub.problems)
            meadow = vals.get("meadow", st["meadow"][p])
            sabotage = vals.get("sabotage")
            node = vals.get("node")
            jump = bool(vals.get("jump", False)) and r >= 2
            forced = False
            if jump and node is not None:
                bal = int(round_input.balances.get(p, 0))
                if opts["adjacent_jump"] == "free_move" and node in adj:   # A7.4 alternative
                    jump = False
                    facts.append(NodeJump(p, prev, node, "not_needed", audience=told))
                elif opts["enforce_garnets"] and bal < JUMP_COST:           # A7.6, V14
                    jump = False
                    facts.append(NodeJump(p, prev, node, "no_garnets", bal, audience=told))
                    facts.append(SubmissionProblem(p, Problem(
                        ProblemKind.ILLEGAL, p, "jump", "yes", f"yes only with at least {JUMP_COST} garnets",
                        f"you have {plural(bal, 'garnet')}", f"no jump, nothing charged; the node must be joined to {prev}",
                        label="Jump (5 garnets)"), audience=told))
                    if node not in adj:
                        facts.append(SubmissionProblem(p, Problem(
                            ProblemKind.ILLEGAL, p, "node", node, ", ".join(adj),
                            f"{node} is not joined to your previous node {prev} without a jump",
                            f"a random node joined to {prev}", label="Install node"), audience=told))
                        node = None
                elif opts["enforce_garnets"]:
                    ledger.append(LedgerEntry(p, -JUMP_COST, "jump", memo=f"round {r}: {prev} -> {node}"))
                    facts.append(NodeJump(p, prev, node, "charged", JUMP_COST, audience=told))
                else:
                    facts.append(NodeJump(p, prev, node, "host_charges", audience=told))
                    log.append(f"{p}: jump {prev} -> {node} accepted without a balance check; charge "
                               f"{JUMP_COST} garnets by hand (A7)")
            elif jump:
                jump = False
            if node is None:
                node = rng.fork("node", r, p).choice(adj)
                forced = True
                log.append(f"{p}: random install node {node} (from {', '.join(adj)}; R29, A9, A17)")
            bid, power = int(vals.get("bid", 0)), int(vals.get("power", 0))
            cap = st["cogs"][p] + (SABOTAGE_COGS if sabotage else 0)
            if bid + power > cap:                                            # V10, A17, A22
                if opts["overspend"] == "clamp":
                    power = max(0, min(power, cap - bid))
                    bid = min(bid, cap - power)
                    applied = f"bid {bid}, power-up {power} (clamped)"
                else:
                    applied = "bid 0 and power-up 0"
                    bid = power = 0
                log.append(_overspend_note(p, vals, st["cogs"][p], sabotage, applied))
                facts.append(SubmissionProblem(p, Problem(
                    ProblemKind.ILLEGAL, p, "bid + power-up", f"{vals.get('bid', 0)} + {vals.get('power', 0)}",
                    f"at most {cap} in total", f"you hold {st['cogs'][p]} cogs"
                    + (f" + {SABOTAGE_COGS} from sabotage" if sabotage else ""), applied, label="Bid + power-up"),
                    audience=told))
            turns[p] = Turn(meadow, bid, power, node, jump, forced, sabotage, sub is not None)
        return turns, facts

    def _resolve_round(self, st: State, round_input: RoundInput, rng: Rng) -> RoundResult:
        r, opts = st["round"], st["options"]
        roster, teams = st["roster"], st["teams"]
        log: list[str] = [f"round seed {rng.state} (random draws: default install nodes)"]
        ledger: list[LedgerEntry] = []
        cogs_before = dict(st["cogs"])

        # 1-2. trades before the deadline, then validation (A16, section e); 4. jump charges
        facts = self._apply_host_trades(st, round_input, log)
        cogs_checked = dict(st["cogs"])    # what the checks below use (A16)
        turns, more = self._effective_moves(st, round_input, rng, log, ledger)
        facts += more

        # 3. sabotage (R25-R28, A5, A6), before the auctions
        sabotages: list[Fact] = []
        for t in teams:
            for q in (t["player"], t["guest"]):
                if turns[q].sabotage:
                    st["cogs"][q] += SABOTAGE_COGS
                    self.machine(st, q)["parts"][turns[q].sabotage] = FAULTY
                    log.append(f"{q}: sabotaged {turns[q].sabotage} (+{SABOTAGE_COGS} cogs)")
                    sabotages.append(SelfSabotage(q, t["id"], turns[q].sabotage, audience=(t["player"], t["guest"])))

        # 5. movement (R30): public positions (R62)
        for p in roster:
            mv = turns[p]
            facts.append(MeadowMove(p, st["team_of"][p], st["meadow"][p], mv.meadow, mv.bid, mv.power,
                                    st["prev"][p] or "", mv.node, mv.submitted, mv.forced, mv.jump,
                                    audience=self._private(st, p)))
            st["meadow"][p] = mv.meadow
        facts += sabotages
        facts += [MeadowPosition(p, st["meadow"][p]) for p in roster]

        # 6. auctions (R31-R40, A2, A3, A23): the calculation is the host's alone (R66, R67)
        incoming: dict[str, dict[str, list]] = {t["id"]: {} for t in teams}
        installed: dict[str, Any] = {}
        for meadow in MEADOWS:
            here = [p for p in roster if st["meadow"][p] == meadow]
            if not here:
                continue
            bids = {p: turns[p].bid for p in here}
            winner = highest_unique_bid(bids)
            counts = Counter(bids.values())
            log.append(f"{meadow}: bids " + ", ".join(f"{p} {bids[p]}" for p in here)
                       + f"; winner {winner or 'nobody'}")
            results, won_part = [], None
            for p in here:
                st["cogs"][p] -= turns[p].bid  # R39
                if p == winner:
                    st["cogs"][p] -= turns[p].power  # R40
                    part = won_part = {"color": meadow, "power": part_power(len(here), turns[p].power)}
                elif winner is None and opts["no_winner"] == "nothing":
                    part = None
                else:
                    part = FAULTY
                installed[p] = part
                if part is not None:
                    incoming[st["team_of"][p]].setdefault(turns[p].node, []).append((p, part))
                why = "won" if p == winner else "not unique" if counts[bids[p]] > 1 else "outbid"
                results.append(MeadowBid(p, bids[p], turns[p].power, why, as_part(part)))
            facts.append(MeadowAuction(meadow, len(here), tuple(results), winner or "", as_part(won_part),
                                       audience=HOST_ONLY))
        for t in teams:
            for q in (t["player"], t["guest"]):
                facts.append(PartInstalled(q, t["id"], turns[q].node, as_part(installed[q]),
                                           audience=(t["player"], t["guest"])))

        # 7. installs per team and node, ascending power, faulty first (R41-R47, A4, A5)
        for t in teams:
            machine = st["machines"][t["id"]]
            for node in sorted(incoming[t["id"]]):
                ordered = sorted(incoming[t["id"]][node], key=lambda wp: _power_key(wp[1]))   # as install_all does
                before = machine["parts"][node]
                machine["parts"][node] = install_all(before, [part for _, part in ordered])
                facts.append(NodeInstalls(t["id"], node, as_part(before), tuple(as_part(x) for _, x in ordered),
                                          tuple(w for w, _ in ordered), as_part(machine["parts"][node]),
                                          audience=(t["player"], t["guest"])))

        # 8-9. traversal (A8; a jump is no move along a connector, A7.4) and previous nodes (A18)
        for p in roster:
            mv, prev = turns[p], st["prev"][p]
            if r >= 2 and prev is not None and not mv.jump:
                conn = find_connector(self.machine(st, p), prev, mv.node)
                if conn is not None:
                    counted = opts["forced_moves_break_free"] or not mv.forced
                    conn["used"] = conn["used"] or counted
                    facts.append(ConnectorTraversed(st["team_of"][p], p, prev, mv.node, conn["cond"], counted,
                                                    audience=self.mates(st, p)))
            st["prev"][p] = mv.node

        # gifts from submissions, after the auctions, simultaneous (R12, A16)
        after = dict(st["cogs"])
        for p in roster:
            sub = round_input.submissions.get(p)
            gifts = list(sub.values.get("gifts", [])) if sub else []
            total = sum(n for _, n in gifts)
            if not gifts:
                continue
            if total > after[p]:
                log.append(f"{p}: Give cogs rows total {total}, more than the {after[p]} cogs left after the "
                           "auction: nothing given (A16)")
                facts.append(SubmissionProblem(p, Problem(
                    ProblemKind.ILLEGAL, p, "give cogs", str(total), f"at most {after[p]}",
                    f"you had {after[p]} cogs after the auction", "nothing given", label="Give cogs"),
                    audience=self._private(st, p)))
                continue
            for to, n in gifts:
                facts.append(CogsGiven(p, to, n, "submission", giver_had=st["cogs"][p],
                                       audience=self._private(st, p, to)))
                st["cogs"][p] -= n
                st["cogs"][to] += n
                log.append(f"{p} gave {to} {n} cogs")
        facts += [CogsNow(p, cogs_before[p], st["cogs"][p], cogs_checked[p], audience=self._private(st, p))
                  for p in roster]

        if r == ROUNDS:
            # R48: empty nodes faulty; R50-R56: every connector scored; all machines public (R68)
            for t in teams:
                m = st["machines"][t["id"]]
                filled = tuple(n for n in node_order(m) if m["parts"][n] is None)
                m["parts"] = {n: (FAULTY if part is None else part) for n, part in m["parts"].items()}
                st["scores"][t["id"]] = score_machine(m, st["relation"])[0]
                nodes, conns = machine_facts(m, st["relation"], final=True)
                facts.append(MachineScored(t["id"], t["player"], t["guest"], m["left"], m["right"], nodes, conns,
                                           filled, st["scores"][t["id"]]))
            st["finished"] = True
            paid, payouts = self._payouts(st)
            ledger += paid
            facts += payouts
        else:
            for t in teams:
                m = st["machines"][t["id"]]
                nodes, conns = machine_facts(m, st["relation"])
                facts.append(MachineNow(t["id"], m["left"], m["right"], nodes, conns,
                                        score_machine(_filled(m), st["relation"])[0],
                                        audience=(t["player"], t["guest"])))
            st["round"] = r + 1
        return RoundResult(st, ledger=tuple(ledger), host_log=tuple(log), facts=tuple(facts))

    def _payouts(self, st: State) -> tuple[list[LedgerEntry], list[Fact]]:
        """R59, A13: garnets per 2 points, to each participant (guests per option)."""
        ledger, facts = [], []
        for p in st["roster"]:
            if st["role"][p] == "guest" and not st["options"]["pay_guests"]:
                continue
            pts = st["scores"][st["team_of"][p]]
            n = pts // 2 if st["options"]["garnet_rounding"] == "floor" else -(-pts // 2)
            facts.append(MachinePayout(p, st["team_of"][p], pts, n))
            if n:
                ledger.append(LedgerEntry(p, n, "machine score", memo=f"{pts} points, 1 garnet per 2"))
        return ledger, facts

    # ---- reports, drawn from the facts --------------------------------------
    def render(self, facts: Sequence[Any], viewer: str | None, ctx: RenderContext) -> Report:
        """The public post (positions, R62; at the end every machine, R68) or one participant's
        confessional (their own notices, R67, A19; their team's installs, sabotage and machine,
        R63-R65), from the facts that viewer may know."""
        if ctx.round == 0:
            return self._render_start(facts, viewer)
        r = ctx.round
        if viewer is None:
            blocks = [Block(f"Round {r}: where everyone is", (),
                            where_grid([(f.participant, f.meadow) for f in of_type(facts, MeadowPosition)]))]
            scored = of_type(facts, MachineScored)
            if scored:
                paid: dict[str, list[str]] = {}
                for g in of_type(facts, MachinePayout):
                    paid.setdefault(g.team, []).append(f"{g.participant} {g.garnets}")
                blocks.append(Block("Final scores", tuple(
                    f"{m.team} ({m.player} + {m.guest}): {_pts(m.total)}"
                    + (f"; garnets (1 per 2 points): {', '.join(paid[m.team])}" if m.team in paid else "")
                    for m in scored)))
                for m in scored:
                    blocks += machine_blocks(m.nodes, m.connectors,
                                             f"{m.team}'s final machine ({m.player} + {m.guest})",
                                             _final_caption(m), final=True)
            return Report(f"Round {r}", tuple(blocks))
        moves = {f.participant: f for f in of_type(facts, MeadowMove)}
        me = moves.get(viewer)
        if me is None:
            return Report(f"Round {r}", (Block(f"Round {r}: you", ()),))
        team = me.team
        blocks = [Block(f"Round {r}: you", _personal_lines(facts, viewer))]
        blocks += [Block(f"Round {r}: {q}", _personal_lines(facts, q)) for q, mv in moves.items()
                   if q != viewer and mv.team == team]
        now = next((f for f in of_type(facts, MachineNow, MachineScored) if f.team == team), None)
        holds = {n.node: n.part for n in now.nodes} if now is not None else {}
        lines = [f"{i.participant} installed {_ptext(i.part) if i.part is not None else 'nothing'} on {i.node}; "
                 f"the node now holds {_ptext(holds.get(i.node))}."
                 for i in of_type(facts, PartInstalled) if i.team == team]
        lines += [f"{s.participant} sabotaged {s.node}." for s in of_type(facts, SelfSabotage) if s.team == team] \
            or ["Nobody on your team sabotaged this round."]
        blocks.append(Block(f"Round {r}: {team}'s installs and sabotage", tuple(lines)))
        if isinstance(now, MachineNow):
            blocks += machine_blocks(now.nodes, now.connectors, f"{team}'s machine after round {r}",
                                     f"{now.left} left half + {now.right} right half.", summary=(
                                         "Points if the game ended now (empty nodes become faulty): "
                                         f"{now.points_if_ended}"))
        elif isinstance(now, MachineScored):
            blocks += machine_blocks(now.nodes, now.connectors, f"{team}'s final machine", _final_caption(now),
                                     final=True, summary=f"Total: {plural(now.total, 'point')}")
        return Report(f"Round {r}", tuple(blocks))

    def _render_start(self, facts: Sequence[Any], viewer: str | None) -> Report:
        """Meadow selection: starting meadows and the empty machines (public by default, A24)."""
        starts = of_type(facts, StartingMeadow)
        teams = {f.team: f for f in of_type(facts, MachineTeam)}
        layouts = {f.team: f for f in of_type(facts, MachineLayout)}
        if viewer is None:
            if starts:
                blocks = [Block("Starting meadows", (), where_grid([(f.participant, f.meadow) for f in starts]))]
            else:
                blocks = [Block("Meadow selection", ("Meadow selection is over. Each team knows its own starting "
                                                     "meadows and machine; they are not announced.",))]
            for lay in layouts.values():
                t = teams.get(lay.team)
                title = f"{lay.team}'s machine" + (f" ({t.player} + {t.guest})" if t else "")
                blocks += machine_blocks(lay.nodes, lay.connectors, title,
                                         f"{lay.left} left half + {lay.right} right half; every node empty.", plan=True)
            return Report("Meadow selection", tuple(blocks))
        mine = next((f for f in starts if f.participant == viewer), None)
        if mine is None:
            return Report("Meadow selection", (Block("Meadow selection", ()),))
        lines = [f"Your starting meadow: {mine.meadow}."]
        lines += [f"Problem: {f.problem.text_for(viewer)}" for f in of_type(facts, SubmissionProblem) if f.participant == viewer]
        lines += [f"No valid meadow was chosen: the {f.meadow} Meadow was picked at random for you."
                  for f in of_type(facts, StartingMeadowDrawn) if f.participant == viewer]
        lines += _trade_lines(facts, viewer, "host")
        team = sorted((f for f in starts if f.team == mine.team), key=lambda f: f.role != "player")
        lines.append(f"{mine.team}: " + ", ".join(f"{f.participant} ({f.role}) chose {f.meadow}" for f in team) + ".")
        lay = layouts.get(mine.team)
        blocks = [Block("Meadow selection", tuple(lines))]
        if lay is not None:
            blocks[0] = Block("Meadow selection", tuple(lines) + (
                f"Your machine has {len(lay.nodes)} nodes and {len(lay.connectors)} connectors; in round 1 you may "
                "install on any node.",))
            blocks += machine_blocks(lay.nodes, lay.connectors, f"{mine.team}'s machine",
                                     f"{lay.left} left half + {lay.right} right half; every node empty.", plan=True)
        return Report("Meadow selection", tuple(blocks))

    def picture(self, facts: Sequence[Any], viewer: str | None, ctx: RenderContext) -> Picture | None:
        """The public board (where everyone is; the empty machines at meadow selection when public,
        A24; every final machine at the end, R68) or the viewer's team machine after the round."""
        sections: list[tuple[list, float, float]] = []
        pad, gap = 12, 18
        y = pad + 30
        final = bool(of_type(facts, MachineScored))
        machines = False   # a machine is drawn: the picture gets the key of its colours

        def add(made: tuple[list, float, float], machine: bool = False) -> None:
            nonlocal y, machines
            sections.append(made)
            y += made[2] + gap
            machines = machines or machine

        if viewer is None:
            where = [(f.participant, f.meadow) for f in of_type(facts, MeadowPosition)] or \
                [(f.participant, f.meadow) for f in of_type(facts, StartingMeadow)]
            if where:
                add(board_shapes(pad, y, "Starting meadows" if ctx.round == 0 else "Where everyone is", where))
            teams = {f.team: f for f in of_type(facts, MachineTeam)}
            for lay in of_type(facts, MachineLayout):
                t = teams.get(lay.team)
                title = f"{lay.team}" + (f" ({t.player} + {t.guest})" if t else "") + \
                    f": {lay.left} left + {lay.right} right, empty"
                add(machine_shapes(pad, y, title, lay.nodes, lay.connectors), machine=True)
            for m in of_type(facts, MachineScored):
                add(machine_shapes(pad, y, f"{m.team} ({m.player} + {m.guest}): {_pts(m.total)}", m.nodes,
                                   m.connectors, final=True), machine=True)
        else:
            team = next((f.team for f in of_type(facts, MeadowMove, StartingMeadow) if f.participant == viewer), None)
            mach = next((f for f in of_type(facts, MachineNow, MachineScored, MachineLayout) if f.team == team), None)
            if mach is not None:
                what = ("final machine: " + _pts(mach.total) if isinstance(mach, MachineScored) else
                        "empty machine" if isinstance(mach, MachineLayout) else f"machine after round {ctx.round}")
                add(machine_shapes(pad, y, f"{team}'s {what}", mach.nodes, mach.connectors,
                                   final=isinstance(mach, MachineScored)), machine=True)
        if not sections:
            return None
        if machines:
            add(legend_shapes(pad, y, final=final))
        title = f"{ctx.game_name}: " + ("meadow selection" if ctx.round == 0 else f"round {ctx.round}")
        shapes: list[Any] = [Label(pad, pad, title, size=17, bold=True)]
        for s, _, _ in sections:
            shapes += s
        width = max(w for _, w, _ in sections) + 2 * pad
        return Picture(int(width), int(y - gap + pad), tuple(shapes), title=title)

    # ---- views -----------------------------------------------------------
    def _teams_block(self, st: State) -> Block:
        return Block("Teams", tuple(f"{t['id']}: {t['player']} (player) + {t['guest']} (guest)" for t in st["teams"]))

    def _machine_blocks(self, state: State, machine: Mapping[str, Any], title: str) -> tuple[Block, Block]:
        final = bool(state["finished"])
        nodes, conns = machine_facts(machine, state["relation"], final=final)
        summary = (f"Total: {plural(score_machine(machine, state['relation'])[0], 'point')}" if final else
                   "Points if the game ended now (empty nodes become faulty): "
                   f"{score_machine(_filled(machine), state['relation'])[0]}")
        return machine_blocks(nodes, conns, title, f"{machine['left']} left half + {machine['right']} right half.",
                              final=final, summary=summary)

    def player_view(self, state: State, player: str) -> Report:
        t = self.team(state, player)
        mate = t["guest"] if player == t["player"] else t["player"]
        lines = [f"You are the {state['role'][player]} of {t['id']}; your teammate is {mate}."]
        blocks: list[Block] = []
        if state["round"] == 0:
            side = Side.LEFT.value if state["role"][player] == "player" else Side.RIGHT.value
            lines.append(f"Meadow selection is open: your meadow gives the {side.lower()} half of your machine. "
                         "The five halves follow; M1, M2, M3 are shared with your teammate's half.")
            blocks.append(Block("Now", tuple(lines)))
            for meadow in MEADOWS:
                half = state["catalog"][meadow][side]
                nodes, conns = machine_facts(half_machine(half, side), state["relation"], layout=True)
                blocks.extend(machine_blocks(nodes, conns, f"The {meadow} Meadow's {side.lower()} half",
                                             f"Drawn as the {side.lower()} half; M1, M2, M3 are the shared middle "
                                             "nodes.", plan=True))
            return Report(f"{SPEC.name}: {player}", tuple(blocks))
        if state["finished"]:
            lines.append(f"The game is over. {t['id']} scored {_pts(state['scores'][t['id']])}.")
        else:
            prev = state["prev"][player]
            adj = self._allowed_nodes(state, player)
            lines.append(f"Round {state['round']} of {ROUNDS} is open. You are in the {state['meadow'][player]} "
                         f"Meadow with {_cogs(state['cogs'][player])}.")
            lines.append("Install on any node this round." if prev is None else
                         f"Your previous node is {prev}: install on {', '.join(adj)}, or jump for 5 garnets.")
        blocks.append(Block("Now", tuple(lines)))
        blocks.extend(self._machine_blocks(state, self.machine(state, player), f"{t['id']}'s machine"))
        return Report(f"{SPEC.name}: {player}", tuple(blocks))

    def public_view(self, state: State) -> Report:
        """The top of the public board: the status and the teams (public from the start). Positions,
        layouts and the final machines are in the round reports below it, each once."""
        if state["round"] == 0:
            status = "Meadow selection is open."
        elif state["finished"]:
            status = "The game is over."
        else:
            status = f"Round {state['round']} of {ROUNDS} is open."
        return Report(f"{SPEC.name}: board", (Block("Status", (status,)), self._teams_block(state)))

    def outcome(self, state: State, decisions: Mapping[str, Any] | None = None) -> Outcome | None:
        """R56-R60, A11, A12. A shared lowest score asks for the winners' vote (request "ec-vote";
        "ec-host" when every player is tied, so the voters are the candidates); until it is entered
        the Elimination Candidate is pending."""
        if not state["finished"]:
            return None
        decisions = decisions or {}
        opts = state["options"]
        roster = state["roster"]
        score = {p: state["scores"][state["team_of"][p]] for p in roster}
        comp = [p for p in roster if opts["guests_compete"] or state["role"][p] == "player"]
        top, low = max(score[p] for p in comp), min(score[p] for p in comp)
        winners = tuple(p for p in comp if score[p] == top)
        lowest = tuple(p for p in comp if score[p] == low)
        reasons = [f"Highest score: {_pts(top)} ({', '.join(winners)})."]
        awards: list[Award] = []
        if len(winners) == 1:
            awards += [Award(winners[0], "Token of Life", 1, "sole highest score"),  # R57
                       Award(winners[0], "cosmos", 1, "sole winner")]  # R60
        else:
            reasons.append("The highest score is shared: nobody gets a Token of Life or the cosmos.")  # R57, A12
        ec, requests = None, []
        if len(lowest) == 1:
            ec = lowest[0]
            reasons.append(f"Lowest score: {_pts(low)} ({ec}), the Elimination Candidate.")
        else:
            if top == low:
                # A12 leaves this to the host; the ruleset (which wins) still has the winners, here every
                # player, vote: the host enters that vote's result, or decides when it is split.
                req = DecisionRequest("ec-host", f"Every player is tied on {_pts(low)}: who goes to the Elimination "
                                      "Candidate? (The winners vote, here every player; enter the result of that "
                                      "vote, or your own choice if it is split.)", DecisionKind.CHOICE, lowest,
                                      default="no Elimination Candidate yet", who="the host")
            else:            # R58: the sole winner, or all players tied for the top, vote
                voters = f"the winner, {winners[0]}" if len(winners) == 1 else \
                    f"the winners by vote ({', '.join(winners)})"
                req = DecisionRequest("ec-vote", f"The lowest score, {_pts(low)}, is shared by {', '.join(lowest)}: "
                                      "which of them goes to the Elimination Candidate?", DecisionKind.CHOICE, lowest,
                                      default="no Elimination Candidate yet", who=voters)
            requests.append(req)
            entered = decisions.get(req.key)
            ec = entered if entered in lowest else None
            reasons.append(f"Lowest score: {_pts(low)}, shared by {', '.join(lowest)}."
                           + ("" if ec is None else f" {'The host' if top == low else 'The vote'} chose {ec} "
                                                    "for the Elimination Candidate."))
        standings = tuple((p, f"{_pts(score[p])} ({state['team_of'][p]}, {state['role'][p]})")
                          for p in sorted(roster, key=lambda p: (-score[p], roster.index(p))))
        return Outcome(winners, lowest, ec, standings, tuple(reasons), tuple(awards), requests=tuple(requests),
                       scores={p: float(score[p]) for p in roster},
                       ending="single_winner" if len(winners) == 1 else "shared_win")

    # ---- starting from a position -------------------------------------------
    def from_position(self, players: Sequence[str], options: Mapping[str, Any], tables: Tables,
                      position: Mapping[str, Any], rng: Rng) -> State:
        """A game at round `round` (1-7) from a position: every participant's starting meadow
        (`start`), where they are (`meadows`), `cogs`, previous install node (`previous`, from round
        2), each team's installed parts (`parts`: {"Team 1": {"L1": "Blue 5", "M2": "faulty"}}) and the
        connectors it moved along (`traversed`: {"Team 1": [["L1", "L4"]]}). Validated: a PositionError
        names what cannot happen.

        Example (the keys are documented on the docs page)::

            Match.from_position("big-machine", ["Ann", "Bo", "Cy", "Dee"], {"round": 2,
                "start": {"Ann": "White", "Bo": "White", "Cy": "Red", "Dee": "Blue"},
                "previous": {"Ann": "L1", "Bo": "R1", "Cy": "L1", "Dee": "R1"},
                "parts": {"Team 1": {"L1": "Blue 5", "R1": "faulty"}, "Team 2": {"L1": "faulty", "R1": "Red 1"}},
                "cogs": {"Ann": 7}})
        """
        st = self.setup(players, options, tables, rng)
        opts, roster = st["options"], st["roster"]
        known = ("round", "start", "meadows", "cogs", "previous", "parts", "traversed")
        extra = sorted(set(position) - set(known))
        if extra:
            raise PositionError(f"unknown position key(s) {', '.join(map(str, extra))}; a Big Machine position has "
                                + ", ".join(known))
        r = position.get("round", 1)
        if not isinstance(r, int) or isinstance(r, bool) or not 1 <= r <= ROUNDS:
            raise PositionError(f"round {r!r}: a position opens a round from 1 to {ROUNDS} (round 0, meadow "
                                "selection, is a new game)")
        team_ids = [t["id"] for t in st["teams"]]
        teams_text = "; ".join(f"{t['id']} = {t['player']} + {t['guest']}" for t in st["teams"])

        def table(key: str, keys: Sequence[str], what: str) -> Mapping[str, Any]:
            value = position.get(key, {})
            if not isinstance(value, Mapping):
                raise PositionError(f"{key}: expected a table of {what}, not {value!r}")
            unknown = [k for k in value if k not in keys]
            if unknown:
                raise PositionError(f"{key}: {unknown[0]!r} is not " + (
                    f"a participant (participants: {', '.join(roster)})" if what == "participants"
                    else f"a team ({teams_text})"))
            return value

        start = table("start", roster, "participants")
        for p in roster:
            if p not in start:
                raise PositionError(f"start: {p}'s starting meadow is missing (it gives the machine's halves)")
            m = _meadow(str(start[p]))
            if m is None:
                raise PositionError(f"start: {p}'s {start[p]!r} is not a meadow ({', '.join(MEADOWS)})")
            st["start"][p] = st["meadow"][p] = m
        for p, text in table("meadows", roster, "participants").items():
            m = _meadow(str(text))
            if m is None:
                raise PositionError(f"meadows: {p}'s {text!r} is not a meadow ({', '.join(MEADOWS)})")
            st["meadow"][p] = m
        for t in st["teams"]:
            machine, problems = assemble(st["catalog"], st["start"][t["player"]], st["start"][t["guest"]])
            if problems:
                raise PositionError("; ".join(problems))
            st["machines"][t["id"]] = machine

        limit = START_COGS * len(roster) + SABOTAGE_COGS * len(roster) * (r - 1)
        for p, n in table("cogs", roster, "participants").items():
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                raise PositionError(f"cogs: {p} has {n!r}; cogs are a whole number from 0")
            st["cogs"][p] = n
        if sum(st["cogs"].values()) > limit:
            raise PositionError(f"cogs: {sum(st['cogs'].values())} in all, but {len(roster)} participants start with "
                                f"{START_COGS} each and sabotage adds at most {SABOTAGE_COGS} each a round: at most "
                                f"{limit} after {r - 1} round(s)")

        for tid, nodes in table("parts", team_ids, "teams").items():
            machine = st["machines"][tid]
            if not isinstance(nodes, Mapping):
                raise PositionError(f"parts: {tid} should be a table of node -> part, not {nodes!r}")
            for node, text in nodes.items():
                if node not in machine["nodes"]:
                    raise PositionError(f"parts: {tid} has no node {node!r} (nodes: {', '.join(node_order(machine))})")
                part = _part_from_text(text)
                if part == "bad":
                    raise PositionError(f"parts: {tid} {node} = {text!r}; a part is a colour and a power from 1 "
                                        "(\"Blue 5\"), \"faulty\", or blank for empty")
                machine["parts"][node] = part
            filled = sum(1 for v in machine["parts"].values() if v is not None)
            if filled > 4 * (r - 1):
                raise PositionError(f"parts: {tid} has {filled} node(s) filled after {r - 1} round(s); a team fills "
                                    "at most 4 a round (two installs, two sabotages)")

        previous = table("previous", roster, "participants")
        for p in roster:
            node = previous.get(p)
            machine = self.machine(st, p)
            if r == 1:
                if node:
                    raise PositionError(f"previous: round 1 has no previous node (found {p}: {node!r})")
                continue
            if not node:
                raise PositionError(f"previous: {p}'s previous node is missing (needed from round 2: the next "
                                    "install must be joined to it)")
            if node not in machine["nodes"]:
                raise PositionError(f"previous: {node!r} is not a node of {p}'s machine")
            if machine["parts"][node] is None and opts["no_winner"] != "nothing":
                raise PositionError(f"previous: {p} installed on {node} last round, so it cannot be empty")
            st["prev"][p] = node

        for tid, pairs in table("traversed", team_ids, "teams").items():
            machine = st["machines"][tid]
            pairs = list(pairs) if isinstance(pairs, (list, tuple)) else [pairs]
            if len(pairs) > 2 * max(0, r - 2):
                raise PositionError(f"traversed: {tid} lists {len(pairs)} connector(s) before round {r}; moves along "
                                    f"connectors start in round 2, at most 2 a round")
            for pair in pairs:
                conn = (find_connector(machine, str(pair[0]), str(pair[1]))
                        if isinstance(pair, (list, tuple)) and len(pair) == 2 else None)
                if conn is None:
                    raise PositionError(f"traversed: {tid} has no connector {pair!r}; give its two ends, e.g. "
                                        "[\"L1\", \"L4\"]")
                conn["used"] = True
        st["round"] = r
        return st

    # ---- demo ------------------------------------------------------------
    def random_submission(self, state: State, player: str, rng: Rng) -> RawSubmission:
        if state["round"] == 0:
            return {"start": [{"meadow": rng.choice(MEADOWS)}]}
        m = self.machine(state, player)
        cogs = state["cogs"][player]
        empty = [n for n in node_order(m) if m["parts"][n] is None]
        sabotage = rng.choice(empty) if empty and rng.random() < 0.1 else ""
        cap = cogs + (SABOTAGE_COGS if sabotage else 0)
        bid = rng.randint(0, min(cap, 4))
        power = rng.randint(0, cap - bid) if rng.random() < 0.5 else 0
        jump = state["round"] >= 2 and rng.random() < 0.05
        options = node_order(m) if jump else self._allowed_nodes(state, player)
        fresh = [n for n in options if m["parts"][n] is None and n != sabotage]
        node = rng.choice(fresh if fresh and rng.random() < 0.8 else options)
        give = [{"to": "", "cogs": ""}, {"to": "", "cogs": ""}]
        targets = self._gift_targets(state, player)
        if rng.random() < 0.05 and targets and cogs - bid - power >= 1:
            give[0] = {"to": rng.choice(targets), "cogs": "1"}
        row = {"meadow": rng.choice(MEADOWS), "bid": str(bid), "power": str(power), "node": node,
               "sabotage": sabotage}
        if state["round"] >= 2:
            row["jump"] = "yes" if jump else "no"
        return {"turn": [row], "give": give}




def _overspend_note(p: str, vals: Mapping[str, Any], held: int, sabotage: Any, applied: str) -> str:
    """The host log's line for a bid + power-up over the cogs (V10): the balance checked is the one
    after this round's recorded trades (A16), plus a sabotage's cogs (A22)."""
    bid, power = int(vals.get("bid", 0)), int(vals.get("power", 0))
    extra = f" + {SABOTAGE_COGS} from sabotage" if sabotage else ""
    return (f"{p}: bid {bid} + power-up {power} = {bid + power} is more than the {_cogs(held)} held after this "
            f"round's recorded trades{extra}: {applied} (A16, A17)")


def _cogs_line(c: CogsNow) -> str:
    if c.after_trades is None or c.after_trades == c.before:
        return f"Cogs: {c.before} before the round, {c.after} now."
    return (f"Cogs: {c.before} before the round, {c.after_trades} after the recorded trades (what your bid and "
            f"power-up were checked against), {c.after} now.")


def _cogs(n: int) -> str:
    return f"{n} cog" if n == 1 else f"{n} cogs"


def _pts(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def _first_row(raw: RawSubmission, section: str) -> Mapping[str, str]:
    rows = raw.get(section) or [{}]
    return rows[0] if rows else {}


def _part_from_text(text: Any) -> Any:
    """A position's part: "Blue 5" -> the state's dict, "faulty"/"X" -> FAULTY, blank -> None; "bad" otherwise."""
    if text is None:
        return None
    t = clean(text)
    if t == "" or t.casefold() == "empty":
        return None
    if t.casefold() in ("faulty", "x"):
        return FAULTY
    words = t.split()
    colour = _meadow(words[0]) if len(words) == 2 else None
    power = parse_int(words[1]) if len(words) == 2 else None
    if colour is None or power is None or power < 1:   # R8: a positive power
        return "bad"
    return {"color": colour, "power": power}


def where_grid(where: Sequence[tuple[str, str]]) -> tuple[tuple[Cell, ...], ...]:
    """The five meadows as columns (coloured headers) and who is in each, in the order given (R62)."""
    occupants = {m: [p for p, at in where if at == m] for m in MEADOWS}
    depth = max([len(v) for v in occupants.values()] + [1])
    rows = [tuple(Cell(f"{m} Meadow", fill=COLOR_FILL[m], bold=True, font=COLOR_FONT.get(m)) for m in MEADOWS)]
    for i in range(depth):
        rows.append(tuple(Cell(occupants[m][i] if i < len(occupants[m]) else ("nobody" if i == 0 else ""))
                          for m in MEADOWS))
    return tuple(rows)


def _final_caption(m: MachineScored) -> str:
    filled = f" Empty at the end, made faulty: {', '.join(m.filled)}." if m.filled else ""
    return f"{m.left} left half + {m.right} right half.{filled}"


def _trade_lines(facts: Sequence[Any], who: str, source: str) -> list[str]:
    """What `who` is told about cogs given (the host's table before the round, or Give cogs after it)."""
    lines = []
    for f in of_type(facts, CogsGiven):
        if f.source != source or who not in (f.giver, f.receiver):
            continue
        if source == "host":
            if not f.made:
                if f.giver == who:
                    lines.append(f"A recorded trade of {f.cogs} cogs to {f.receiver} was rejected: you had "
                                 f"{f.giver_had}.")
            elif f.giver == who:
                lines.append(f"Recorded trade: you gave {_cogs(f.cogs)} to {f.receiver}.")
            else:
                lines.append(f"Recorded trade: {f.giver} gave you {_cogs(f.cogs)}.")
        elif f.giver == who:
            lines.append(f"You gave {_cogs(f.cogs)} to {f.receiver}.")
        else:
            lines.append(f"{f.giver} gave you {_cogs(f.cogs)}.")
    return lines


def _personal_lines(facts: Sequence[Any], who: str) -> tuple[str, ...]:
    """A participant's own round (A19): move, bid, notices, sabotage, the part, cogs."""
    mv = next(f for f in of_type(facts, MeadowMove) if f.participant == who)
    went = "stayed in" if mv.meadow == mv.from_meadow else "moved to"
    lines = [f"You {went} the {mv.meadow} Meadow, bid {mv.bid} and powered up {mv.power_up}."]
    lines += _trade_lines(facts, who, "host")
    if not mv.submitted:
        lines.append("You did not submit: you stayed, bid 0 and powered up 0.")
    lines += [f"Problem: {f.problem.text_for(who)}" for f in of_type(facts, SubmissionProblem) if f.participant == who]
    for j in of_type(facts, NodeJump):
        if j.participant != who:
            continue
        if j.result == "charged":
            lines.append(f"You paid {j.garnets} garnets to jump from {j.from_node} to {j.to_node}.")
        elif j.result == "host_charges":
            lines.append(f"Your jump from {j.from_node} to {j.to_node} is recorded; the host charges "
                         f"{JUMP_COST} garnets.")
        elif j.result == "not_needed":
            lines.append(f"Your jump to {j.to_node} was not needed ({j.to_node} is joined to {j.from_node}): "
                         "no charge, a normal move.")
    if mv.random_node:
        lines.append(f"Your install node was chosen at random: {mv.node}.")
    lines += _trade_lines(facts, who, "submission")
    lines += [f"You sabotaged {s.node}: +{s.cogs} cogs." for s in of_type(facts, SelfSabotage) if s.participant == who]
    for i in of_type(facts, PartInstalled):
        if i.participant != who:
            continue
        if i.part is not None and not i.part.faulty:
            lines.append(f"You won the part: {i.part.text()}, installed on {i.node}; "
                         f"you paid {mv.bid} + {mv.power_up} cogs.")
        elif i.part is None:
            lines.append(f"You did not win the part; nothing was installed on {i.node}.")
        else:
            lines.append(f"You did not win the part: a faulty part was installed on {i.node}; you paid "
                         f"your bid of {mv.bid}.")
    lines += [_cogs_line(c) for c in of_type(facts, CogsNow) if c.participant == who]
    return tuple(lines)


GAME = BigMachine()
