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
  Elimination Candidate (ties: the winners vote, A12). Everyone gets floor(points / 2)
  garnets (A13).

The ruleset's example: 3 people in the Blue Meadow, the winner powers up 2:

>>> part_power(3, 2)
5
>>> highest_unique_bid({"a": 5, "b": 5, "c": 3, "d": 3, "e": 1})
'e'
"""
from __future__ import annotations

import copy
import enum
from collections import Counter
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..core.errors import ConfigError
from ..core.game import GameRules
from ..core.parsing import YES_NO_HELP, clean, int_reason, is_formula, parse_int, split_list, yes_no
from ..core.rng import Rng
from ..core.types import (Award, Block, Cell, Field, FieldKind, Form, GameSpec, LedgerEntry,
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
EMPTY_FILL, FAULTY_FILL = "FFE699", "808000"   # yellow circle, olive X
STATE_FILL = {"excellent": "C6EFCE", "working": "FFEB9C", "waiting": "EDEDED", "dead": "F8CBAD"}
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
               "paired in roster order, the first of each pair being the player.", ruling="A1"),
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
               "shown to the other teammate.", ruling="A19"),
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


def read_catalog(tables: Tables) -> tuple[dict, list[str]]:
    """The five meadows' halves per side from the two half tables (M1), and problems."""
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
    if part is None:
        return "empty"
    if part == FAULTY:
        return "faulty"
    return f"{part['color']} {part['power']}"


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


def cond_text(conn: Mapping[str, Any]) -> str:
    if conn["cond"] == Cond.GREATER.value:
        small = conn["b"] if conn["greater"] == conn["a"] else conn["a"]
        return f"{conn['greater']} > {small}"
    return conn["cond"]


def _conn_symbol(conn: Mapping[str, Any], first: str, dy: int, dx: int) -> str:
    """Short text for a connector's drawing cell; `first` is the upper/left end."""
    cond = conn["cond"]
    if cond == Cond.ALLIES.value:
        sym = "allies"
    elif cond == Cond.ENEMIES.value:
        sym = "enemies"
    elif cond == Cond.FREE.value:
        sym = "free" + (" (used)" if conn["used"] else "")
    elif dy == 0:
        sym = ">" if conn["greater"] == first else "<"
    elif dx == 0:
        sym = "v" if conn["greater"] == first else "^"
    else:
        sym = f"{conn['greater']} >"
    line = "-" if dy == 0 else "|" if dx == 0 else ("\\" if dy == dx else "/")
    return f"{line} {sym} {line}" if dy == 0 else f"{line}{sym}"


def machine_blocks(machine: Mapping[str, Any], relation: Mapping[str, str], title: str,
                   final: bool = False, caption: str = "", plan: bool = False) -> tuple[Block, Block]:
    """The machine as a grid (nodes coloured by part, connectors by state) and its connector list.

    `plan` draws an empty half for meadow selection: conditions only, no state or points.
    """
    nodes, parts = machine["nodes"], machine["parts"]
    h = max(y for y, _ in nodes.values()) + 1
    w = max(x for _, x in nodes.values()) + 1
    grid = [[Cell("") for _ in range(2 * w - 1)] for _ in range(2 * h - 1)]
    for n, (y, x) in nodes.items():
        part = parts[n]
        if part is None:
            cell = Cell(f"{n}: empty", fill=EMPTY_FILL, bold=n in MIDDLE)
        elif part == FAULTY:
            cell = Cell(f"{n}: X faulty", fill=FAULTY_FILL, bold=n in MIDDLE, font="FFFFFF")
        else:
            cell = Cell(f"{n}: {part_text(part)}", fill=COLOR_FILL[part["color"]], bold=n in MIDDLE,
                        font=COLOR_FONT.get(part["color"]))
        grid[2 * y][2 * x] = cell
    lines = []
    total = 0
    for c in machine["connectors"]:
        status = connector_status(c, parts, relation, final=final)
        pts = connector_points(status)
        total += pts
        (y1, x1), (y2, x2) = nodes[c["a"]], nodes[c["b"]]
        if abs(y1 - y2) <= 1 and abs(x1 - x2) <= 1:
            first, other = sorted((c["a"], c["b"]), key=lambda n: nodes[n])
            (fy, fx), (oy, ox) = nodes[first], nodes[other]
            gy, gx = y1 + y2, x1 + x2
            if grid[gy][gx].text == "":
                grid[gy][gx] = Cell(_conn_symbol(c, first, oy - fy, ox - fx),
                                    fill=STATE_FILL["waiting" if plan else status])
        used = " (used: no longer excellent)" if c["cond"] == Cond.FREE.value and c["used"] else ""
        where = f"{c['a']}-{c['b']}"
        if plan:
            lines.append(f"{where} {cond_text(c)}")
        elif final:
            lines.append(f"{where} {cond_text(c)}{used}: {status}, {pts} point(s)")
        else:
            lines.append(f"{where} {cond_text(c)}{used}: {status} now")
    head = f"Total: {total} point(s)" if final else f"Points if the game ended now (empty nodes become faulty): " \
        f"{score_machine(_filled(machine), relation)[0]}"
    if plan:
        return (Block(title, (caption,), tuple(tuple(r) for r in grid), (("empty node", EMPTY_FILL),)),
                Block(f"{title}: connectors", tuple(lines)))
    legend = tuple((m, COLOR_FILL[m]) for m in MEADOWS) + (("empty", EMPTY_FILL), ("faulty", FAULTY_FILL)) + \
        tuple((f"connector {k}: {STATE_HELP[k]}", v) for k, v in STATE_FILL.items() if not final or k != "waiting")
    caption = caption or f"{machine['left']} left half + {machine['right']} right half."
    grid_block = Block(title, (caption,),
                       tuple(tuple(r) for r in grid), legend)
    return grid_block, Block(f"{title}: connectors", tuple(lines) + (head,))


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
    """R48: the machine with every empty node made faulty."""
    m = copy.deepcopy(dict(machine))
    m["parts"] = {n: (FAULTY if p is None else p) for n, p in m["parts"].items()}
    return m


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
class Move:
    """One participant's effective move for the round, after defaults and fallbacks."""
    meadow: str
    bid: int
    power: int
    node: str
    jump: bool
    forced: bool
    sabotage: str | None


class BigMachine(GameRules):
    spec = SPEC

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
        st = copy.deepcopy(state)
        if st["round"] == 0:
            return self._resolve_start(st, round_input, rng)
        return self._resolve_round(st, round_input, rng)

    def _apply_host_trades(self, st: State, round_input: RoundInput, notes: dict, log: list) -> None:
        """A16: the host's recorded trades for this round, before the checks; an overdraft is rejected."""
        trades, _ = read_trades(round_input.tables)
        fold = {p.casefold(): p for p in st["roster"]}
        for t in trades:
            if t["round"] != st["round"]:
                continue
            a, b = fold.get(t["from"].casefold()), fold.get(t["to"].casefold())
            where = f"{TRADES_TABLE} row {t['row']}"
            if a is None or b is None or a == b:
                log.append(f"{where}: {t['from']} -> {t['to']} ignored: both must be different participants")
            elif not st["options"]["cross_team_trades"] and st["team_of"][a] != st["team_of"][b]:
                log.append(f"{where}: {a} -> {b} ignored: cross-team trades are off")
            elif st["cogs"][a] < t["cogs"]:
                log.append(f"{where}: {a} has {st['cogs'][a]} cogs, cannot give {t['cogs']}: rejected")
                notes[a].append(f"A recorded trade of {t['cogs']} cogs to {b} was rejected: you had {st['cogs'][a]}.")
            else:
                st["cogs"][a] -= t["cogs"]
                st["cogs"][b] += t["cogs"]
                log.append(f"{where}: {a} gave {b} {t['cogs']} cogs")
                notes[a].append(f"Recorded trade: you gave {_cogs(t['cogs'])} to {b}.")
                notes[b].append(f"Recorded trade: {a} gave you {_cogs(t['cogs'])}.")

    def _resolve_start(self, st: State, round_input: RoundInput, rng: Rng) -> RoundResult:
        """M6, R3-R6, A24: starting meadows, machines assembled, positions public."""
        log: list[str] = [f"round seed {rng.state} (random draws: missing meadows)"]
        notes: dict[str, list[str]] = {p: [] for p in st["roster"]}
        # the halves "given during meadow selection": the host's tables as they are now (M1, M2)
        catalog, problems = read_catalog(round_input.tables)
        relation, more = read_relation(round_input.tables)
        if not problems and not more:
            st["catalog"], st["relation"] = catalog, relation
        for p in st["roster"]:
            sub = round_input.submissions.get(p)
            meadow = sub.values.get("meadow") if sub else None
            if sub:
                notes[p].extend(f"Problem: {pr.message}" for pr in sub.problems)
            if meadow is None:
                meadow = rng.fork("start", p).choice(MEADOWS)
                log.append(f"{p}: {'no valid submission' if sub else 'no submission'}; random starting meadow {meadow}")
                notes[p].append(f"No valid meadow was chosen: the {meadow} Meadow was picked at random for you.")
            st["start"][p] = st["meadow"][p] = meadow
        for t in st["teams"]:
            machine, problems = assemble(st["catalog"], st["start"][t["player"]], st["start"][t["guest"]])
            if problems:
                raise ConfigError("; ".join(problems))
            st["machines"][t["id"]] = machine
        self._apply_host_trades(st, round_input, notes, log)
        private = {}
        for p in st["roster"]:
            t = self.team(st, p)
            m = self.machine(st, p)
            lines = [f"Your starting meadow: {st['start'][p]}."] + notes[p] + [
                f"{t['id']}: {t['player']} (player) chose {st['start'][t['player']]}, "
                f"{t['guest']} (guest) chose {st['start'][t['guest']]}.",
                f"Your machine has {len(m['nodes'])} nodes and {len(m['connectors'])} connectors; "
                "in round 1 you may install on any node."]
            private[p] = Report("Meadow selection", (Block("Meadow selection", tuple(lines)),) +
                                machine_blocks(m, st["relation"], f"{t['id']}'s machine"))
        st["round"] = 1
        public = Report("Meadow selection", (self._where_block(st, "Starting meadows"), self._teams_block(st)))
        return RoundResult(st, public, private, (), tuple(log))

    def _effective_moves(self, st: State, round_input: RoundInput, rng: Rng, notes: dict, log: list,
                         ledger: list) -> dict[str, Move]:
        """Section (e): each participant's move after defaults and fallbacks, jumps charged (A7)."""
        r, opts = st["round"], st["options"]
        moves: dict[str, Move] = {}
        for p in st["roster"]:
            sub = round_input.submissions.get(p)
            prev = st["prev"][p]
            adj = self._allowed_nodes(st, p)
            vals: Mapping[str, Any] = sub.values if sub else {}
            if sub is None:
                notes[p].append("You did not submit: you stayed, bid 0 and powered up 0.")  # R29
            else:
                notes[p].extend(f"Problem: {pr.message}" for pr in sub.problems)
            meadow = vals.get("meadow", st["meadow"][p])
            sabotage = vals.get("sabotage")
            node = vals.get("node")
            jump = bool(vals.get("jump", False)) and r >= 2
            forced = False
            if jump and node is not None:
                bal = int(round_input.balances.get(p, 0))
                free_move = opts["adjacent_jump"] == "free_move" and node in adj
                if free_move:
                    jump = False
                    notes[p].append(f"Your jump to {node} was not needed ({node} is joined to {prev}): "
                                    "no charge, a normal move (option adjacent_jump).")
                elif opts["enforce_garnets"] and bal < JUMP_COST:
                    pr = Problem(ProblemKind.ILLEGAL, p, "jump", "yes", f"yes only with at least {JUMP_COST} garnets",
                                 f"you have {bal} garnet(s)", "no jump, nothing charged; the node must be joined "
                                 f"to {prev}")
                    notes[p].append(f"Problem: {pr.message}")
                    jump = False
                    if node not in adj:
                        pr = Problem(ProblemKind.ILLEGAL, p, "node", node, ", ".join(adj),
                                     f"{node} is not joined to your previous node {prev} without a jump",
                                     f"a random node joined to {prev}")
                        notes[p].append(f"Problem: {pr.message}")
                        node = None
                elif opts["enforce_garnets"]:
                    ledger.append(LedgerEntry(p, -JUMP_COST, "jump", memo=f"round {r}: {prev} -> {node}"))
                    notes[p].append(f"You paid {JUMP_COST} garnets to jump from {prev} to {node}.")
                else:
                    notes[p].append(f"Your jump from {prev} to {node} is recorded; the host charges "
                                    f"{JUMP_COST} garnets.")
                    log.append(f"{p}: jump {prev} -> {node} accepted without a balance check; charge "
                               f"{JUMP_COST} garnets by hand")
            elif jump:
                jump = False
            if node is None:
                node = rng.fork("node", r, p).choice(adj)
                forced = True
                log.append(f"{p}: random install node {node} (from {', '.join(adj)})")
                notes[p].append(f"Your install node was chosen at random: {node}.")
            bid, power = int(vals.get("bid", 0)), int(vals.get("power", 0))
            cap = st["cogs"][p] + (SABOTAGE_COGS if sabotage else 0)
            if bid + power > cap:
                if opts["overspend"] == "clamp":
                    power = max(0, min(power, cap - bid))
                    bid = min(bid, cap - power)
                    applied = f"bid {bid}, power-up {power} (clamped)"
                else:
                    applied = "bid 0 and power-up 0"
                pr = Problem(ProblemKind.ILLEGAL, p, "bid + power-up", f"{vals.get('bid', 0)} + {vals.get('power', 0)}",
                             f"at most {cap} in total", f"you hold {st['cogs'][p]} cogs"
                             + (f" + {SABOTAGE_COGS} from sabotage" if sabotage else ""), applied)
                notes[p].append(f"Problem: {pr.message}")
                if opts["overspend"] != "clamp":
                    bid = power = 0
            moves[p] = Move(meadow, bid, power, node, jump, forced, sabotage)
        return moves

    def _resolve_round(self, st: State, round_input: RoundInput, rng: Rng) -> RoundResult:
        r, opts = st["round"], st["options"]
        roster = st["roster"]
        notes: dict[str, list[str]] = {p: [] for p in roster}
        log: list[str] = [f"round seed {rng.state} (random draws: default install nodes)"]
        ledger: list[LedgerEntry] = []
        cogs_before = dict(st["cogs"])

        # 1-2. trades before the deadline, then validation (A16, section e)
        self._apply_host_trades(st, round_input, notes, log)
        moves = self._effective_moves(st, round_input, rng, notes, log, ledger)

        # 3. sabotage (R25-R28, A5, A6)
        for p in roster:
            mv = moves[p]
            if mv.sabotage:
                st["cogs"][p] += SABOTAGE_COGS
                self.machine(st, p)["parts"][mv.sabotage] = FAULTY
                log.append(f"{p}: sabotaged {mv.sabotage} (+{SABOTAGE_COGS} cogs)")

        # 5. movement (R30)
        before_meadow = dict(st["meadow"])
        for p in roster:
            st["meadow"][p] = moves[p].meadow

        # 6. auctions (R31-R40, A2, A3, A23)
        incoming: dict[str, dict[str, list]] = {t["id"]: {} for t in st["teams"]}
        installed: dict[str, Any] = {}
        won: dict[str, bool] = {}
        for meadow in MEADOWS:
            here = [p for p in roster if st["meadow"][p] == meadow]
            if not here:
                continue
            bids = {p: moves[p].bid for p in here}
            winner = highest_unique_bid(bids)
            log.append(f"{meadow}: bids " + ", ".join(f"{p} {bids[p]}" for p in here)
                       + f"; winner {winner or 'nobody'}")
            for p in here:
                st["cogs"][p] -= moves[p].bid  # R39
                won[p] = p == winner
                if p == winner:
                    st["cogs"][p] -= moves[p].power  # R40
                    part = {"color": meadow, "power": part_power(len(here), moves[p].power)}
                elif winner is None and opts["no_winner"] == "nothing":
                    part = None
                else:
                    part = FAULTY
                installed[p] = part
                if part is not None:
                    incoming[st["team_of"][p]].setdefault(moves[p].node, []).append(part)

        # 7. installs per team and node (R41-R47, A4, A5)
        for tid, per_node in incoming.items():
            machine = st["machines"][tid]
            for node in sorted(per_node):
                machine["parts"][node] = install_all(machine["parts"][node], per_node[node])

        # 8-9. traversal (A8) and previous nodes (A18)
        for p in roster:
            mv = moves[p]
            prev = st["prev"][p]
            if r >= 2 and prev is not None and not mv.jump and (opts["forced_moves_break_free"] or not mv.forced):
                conn = find_connector(self.machine(st, p), prev, mv.node)
                if conn is not None:
                    conn["used"] = True
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
                notes[p].append(f"Problem: {p}: give cogs = {total} (you had {after[p]} cogs after the auction); "
                                f"allowed: at most {after[p]}; applied: nothing given")
                continue
            for to, n in gifts:
                st["cogs"][p] -= n
                st["cogs"][to] += n
                notes[p].append(f"You gave {_cogs(n)} to {to}.")
                notes[to].append(f"{p} gave you {_cogs(n)}.")
                log.append(f"{p} gave {to} {n} cogs")

        # reports
        final = r == ROUNDS
        if final:
            for t in st["teams"]:
                m = st["machines"][t["id"]]
                m["parts"] = {n: (FAULTY if part is None else part) for n, part in m["parts"].items()}  # R48
                st["scores"][t["id"]] = score_machine(m, st["relation"])[0]
        personal: dict[str, list[str]] = {}
        for p in roster:
            mv = moves[p]
            part = installed.get(p)
            went = "stayed in" if mv.meadow == before_meadow[p] else "moved to"
            lines = [f"You {went} the {mv.meadow} Meadow, bid {mv.bid} and powered up {mv.power}."] + notes[p]
            if mv.sabotage:
                lines.append(f"You sabotaged {mv.sabotage}: +{SABOTAGE_COGS} cogs.")
            if won.get(p):
                lines.append(f"You won the part: {part_text(part)}, installed on {mv.node}; "
                             f"you paid {mv.bid} + {mv.power} cogs.")
            elif part is None:
                lines.append(f"You did not win the part; nothing was installed on {mv.node} (option no_winner).")
            else:
                lines.append(f"You did not win the part: a faulty part was installed on {mv.node}; you paid "
                             f"your bid of {mv.bid}.")
            lines.append(f"Cogs: {cogs_before[p]} before the round, {st['cogs'][p]} now.")
            personal[p] = lines
        private = {}
        for p in roster:
            t = self.team(st, p)
            m = self.machine(st, p)
            team_lines = []
            for q in (t["player"], t["guest"]):
                part = installed.get(q)
                team_lines.append(f"{q} installed {part_text(part) if part is not None else 'nothing'} on "
                                  f"{moves[q].node}; the node now holds {part_text(m['parts'][moves[q].node])}.")
            sab = [f"{q} sabotaged {moves[q].sabotage}." for q in (t["player"], t["guest"]) if moves[q].sabotage]
            team_lines += sab or ["Nobody on your team sabotaged this round."]
            blocks = [Block(f"Round {r}: you", tuple(personal[p]))]
            if opts["share_notices"]:
                q = t["guest"] if p == t["player"] else t["player"]
                blocks.append(Block(f"Round {r}: {q}", tuple(personal[q])))
            blocks.append(Block(f"Round {r}: {t['id']}'s installs and sabotage", tuple(team_lines)))
            title = f"{t['id']}'s machine after round {r}" if not final else f"{t['id']}'s final machine"
            blocks.extend(machine_blocks(m, st["relation"], title, final=final))
            private[p] = Report(f"Round {r}", tuple(blocks))
        pub_blocks = [self._where_block(st, f"Round {r}: where everyone is")]
        if final:
            st["finished"] = True
            pub_blocks += self._final_blocks(st)
            ledger += self._payouts(st)
        else:
            st["round"] = r + 1
        return RoundResult(st, Report(f"Round {r}", tuple(pub_blocks)), private, tuple(ledger), tuple(log))

    def _payouts(self, st: State) -> list[LedgerEntry]:
        """R59, A13: garnets per 2 points, to each participant (guests per option)."""
        out = []
        for p in st["roster"]:
            if st["role"][p] == "guest" and not st["options"]["pay_guests"]:
                continue
            pts = st["scores"][st["team_of"][p]]
            n = pts // 2 if st["options"]["garnet_rounding"] == "floor" else -(-pts // 2)
            if n:
                out.append(LedgerEntry(p, n, "machine score", memo=f"{pts} points, 1 garnet per 2"))
        return out

    # ---- views -----------------------------------------------------------
    def _where_block(self, st: State, title: str) -> Block:
        """R62: where everyone is; the board of the five meadows."""
        occupants = {m: [p for p in st["roster"] if st["meadow"][p] == m] for m in MEADOWS}
        depth = max([len(v) for v in occupants.values()] + [1])
        head = tuple(Cell(f"{m} Meadow", fill=COLOR_FILL[m], bold=True, font=COLOR_FONT.get(m)) for m in MEADOWS)
        rows = [head]
        for i in range(depth):
            rows.append(tuple(Cell(occupants[m][i] if i < len(occupants[m]) else "") for m in MEADOWS))
        lines = tuple(f"{m} Meadow: {', '.join(occupants[m]) or 'nobody'}" for m in MEADOWS)
        return Block(title, lines, tuple(rows))

    def _teams_block(self, st: State) -> Block:
        lines = []
        for t in st["teams"]:
            line = f"{t['id']}: {t['player']} (player) + {t['guest']} (guest)"
            if st["start"][t["player"]]:
                line += (f"; machine: {st['start'][t['player']]} left half + "
                         f"{st['start'][t['guest']]} right half")
            lines.append(line)
        return Block("Teams", tuple(lines))

    def _final_blocks(self, st: State) -> list[Block]:
        """R68: all machines and scores at the end."""
        out = [Block("Final scores", tuple(f"{t['id']} ({t['player']} + {t['guest']}): "
                                            f"{_pts(st['scores'][t['id']])}" for t in st["teams"]))]
        for t in st["teams"]:
            out.extend(machine_blocks(st["machines"][t["id"]], st["relation"],
                                      f"{t['id']}'s final machine ({t['player']} + {t['guest']})", final=True))
        return out

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
                blocks.extend(self._half_blocks(state, meadow, side, half))
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
        blocks.extend(machine_blocks(self.machine(state, player), state["relation"], f"{t['id']}'s machine",
                                     final=state["finished"]))
        return Report(f"{SPEC.name}: {player}", tuple(blocks))

    def _half_blocks(self, state: State, meadow: str, side: str, half: Mapping[str, Any]) -> tuple[Block, Block]:
        return machine_blocks(half_machine(half, side), state["relation"],
                              f"The {meadow} Meadow's {side.lower()} half", caption=(
                                  f"Drawn as the {side.lower()} half; M1, M2, M3 are the shared middle nodes."),
                              plan=True)

    def public_view(self, state: State) -> Report:
        if state["round"] == 0:
            status = "Meadow selection is open."
        elif state["finished"]:
            status = "The game is over."
        else:
            status = f"Round {state['round']} of {ROUNDS} is open."
        blocks = [Block("Status", (status,)), self._teams_block(state)]
        if state["round"] > 0 or state["finished"]:
            blocks.insert(1, self._where_block(state, "Where everyone is"))
        if state["finished"]:
            blocks += self._final_blocks(state)
        return Report(f"{SPEC.name}: board", tuple(blocks))

    def outcome(self, state: State, decisions=None) -> Outcome | None:
        """R56-R60, A11, A12."""
        if not state["finished"]:
            return None
        opts = state["options"]
        roster = state["roster"]
        score = {p: state["scores"][state["team_of"][p]] for p in roster}
        comp = [p for p in roster if opts["guests_compete"] or state["role"][p] == "player"]
        top, low = max(score[p] for p in comp), min(score[p] for p in comp)
        winners = tuple(p for p in comp if score[p] == top)
        lowest = tuple(p for p in comp if score[p] == low)
        reasons = [f"Highest score: {top} ({', '.join(winners)})."]
        awards, pending = [], []
        if len(winners) == 1:
            awards += [Award(winners[0], "Token of Life", 1, "sole highest score"),  # R57
                       Award(winners[0], "cosmos", 1, "sole winner")]  # R60
        else:
            reasons.append("The highest score is shared: nobody gets a Token of Life or the cosmos.")  # R57, A12
        ec = None
        if len(lowest) == 1:
            ec = lowest[0]
            reasons.append(f"Lowest score: {low} ({ec}), the Elimination Candidate.")  # R58
        else:
            voters = ", ".join(winners)
            reasons.append(f"Lowest score: {low}, shared by {', '.join(lowest)}.")
            pending.append(f"the winners ({voters}) vote among {', '.join(lowest)} for the Elimination Candidate"
                           + ("; everyone is tied, so the host decides" if set(lowest) == set(winners)  # R58, A12
                              else ""))
        standings = tuple((p, f"{_pts(score[p])} ({state['team_of'][p]}, {state['role'][p]})")
                          for p in sorted(roster, key=lambda p: (-score[p], roster.index(p))))
        return Outcome(winners, lowest, ec, standings, tuple(reasons), tuple(awards), tuple(pending))

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


def _cogs(n: int) -> str:
    return f"{n} cog" if n == 1 else f"{n} cogs"


def _pts(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def _first_row(raw: RawSubmission, section: str) -> Mapping[str, str]:
    rows = raw.get(section) or [{}]
    return rows[0] if rows else {}


GAME = BigMachine()
