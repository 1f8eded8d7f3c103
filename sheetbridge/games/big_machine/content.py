"""The Big Machine's content: the closed sets and numbers of the ruleset, and the host-editable
tables (machine halves, colour relation, cog trades) read into typed data and checked; the
machine of two halves assembled with the drawing's coordinates (R4-R6, M1-M3).
"""
from __future__ import annotations

import enum
import functools
from typing import Any, Mapping, Sequence

from ...core.parsing import clean, parse_int, table_key
from ...core.types import Tables, fresh
from .spec import CONNECTORS_TABLE, NODES_TABLE, RELATION_TABLE, ROUNDS, TRADES_TABLE
from .state import Connector, Half, Machine

Catalog = dict[str, dict[str, Half]]   # meadow -> "Left"/"Right" -> its half (M1)


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
JUMP_COST = 5          # R24
SABOTAGE_COGS = 2      # R25
WORKING_POINTS = 1     # R51
EXCELLENT_POINTS = 5   # R52: 1 + 4
FAULTY = "faulty"


def cogs_text(n: int) -> str:
    return f"{n} cog" if n == 1 else f"{n} cogs"


def points_text(n: int) -> str:
    return f"{n} point" if n == 1 else f"{n} points"


def relation_key(a: str, b: str) -> str:
    return "|".join(sorted((a, b)))


def node_order(machine: Machine) -> list[str]:
    """The nodes in drawing order: by column, then row."""
    return sorted(machine["nodes"], key=lambda n: (machine["nodes"][n][1], machine["nodes"][n][0], n))


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


def meadow_named(text: str) -> str | None:
    """The meadow a text names ("blue", "Blue Meadow"), or None."""
    t = _norm(text)
    if t.endswith(" meadow"):
        t = t[: -len(" meadow")].strip()
    return next((m for m in MEADOWS if m.casefold() == t), None)


def _keys(tables: Tables, *names: str) -> tuple:
    """The named tables' contents as one hashable key (what their readers are cached by)."""
    return tuple(table_key(tables.get(n)) for n in names)


def read_catalog(tables: Tables) -> tuple[Catalog, list[str]]:
    """The five meadows' halves per side from the two half tables (M1), and problems."""
    catalog, problems = _read_catalog_cached(_keys(tables, NODES_TABLE, CONNECTORS_TABLE))
    return fresh(catalog), list(problems)


@functools.lru_cache(maxsize=8)   # read at every new game and its first round: once per content
def _read_catalog_cached(key: tuple) -> tuple[Catalog, tuple[str, ...]]:
    nodes, connectors = key
    tables = {n: t for n, t in ((NODES_TABLE, nodes), (CONNECTORS_TABLE, connectors)) if t is not None}
    catalog, problems = _read_catalog(tables)
    return catalog, tuple(problems)


def _read_catalog(tables: Tables) -> tuple[Catalog, list[str]]:
    problems: list[str] = []
    catalog: Catalog = {m: {s.value: {"nodes": {}, "connectors": []} for s in Side} for m in MEADOWS}
    nrect = tables.get(NODES_TABLE)
    crect = tables.get(CONNECTORS_TABLE)
    if nrect is None or crect is None:
        missing = [t for t, r in ((NODES_TABLE, nrect), (CONNECTORS_TABLE, crect)) if r is None]
        return catalog, [f"Table {t!r} is missing; copy it from templates/big-machine." for t in missing]
    nidx = _columns(nrect, NODES_TABLE, ("Meadow", "Side", "Node", "Row", "Column"), problems)
    cidx = _columns(crect, CONNECTORS_TABLE, ("Meadow", "Side", "From", "To", "Condition"), problems)
    if nidx is None or cidx is None:
        return catalog, problems
    _read_half_nodes(nrect, nidx, catalog, problems)
    _read_half_connectors(crect, cidx, catalog, problems)
    _check_halves(catalog, problems)
    return catalog, problems


def _sides(text: str, table: str, n: int, problems: list[str]) -> list[str]:
    """The sides a row is for: Both (or blank), Left or Right."""
    t = _norm(text)
    if t in ("both", ""):
        return [s.value for s in Side]
    for s in Side:
        if s.value.casefold() == t:
            return [s.value]
    problems.append(f"Table {table!r} row {n}: Side {text!r} is not Both, Left or Right.")
    return []


def _read_half_nodes(nrect: Sequence[Sequence[str]], nidx: Mapping[str, int], catalog: Catalog,
                     problems: list[str]) -> None:
    """M1: each half's own nodes and where they are drawn."""
    for n, v in _rows(nrect, nidx):
        m = meadow_named(v["Meadow"])
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
        for s in _sides(v["Side"], NODES_TABLE, n, problems):
            half = catalog[m][s]
            if label in half["nodes"]:
                problems.append(f"Table {NODES_TABLE!r} row {n}: node {label} of the {m} {s.lower()} half is "
                                "listed twice; remove one row.")
            elif [row, col] in half["nodes"].values():
                problems.append(f"Table {NODES_TABLE!r} row {n}: node {label} of the {m} {s.lower()} half is at "
                                f"Row {row}, Column {col}, where another node already is; move one.")
            else:
                half["nodes"][label] = [row, col]


def _read_half_connectors(crect: Sequence[Sequence[str]], cidx: Mapping[str, int], catalog: Catalog,
                          problems: list[str]) -> None:
    """M1, R7: each half's connectors and their conditions."""
    for n, v in _rows(crect, cidx):
        m = meadow_named(v["Meadow"])
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
        for s in _sides(v["Side"], CONNECTORS_TABLE, n, problems):
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


def _check_halves(catalog: Catalog, problems: list[str]) -> None:
    """Every half has connectors and every node of its own is joined to one."""
    for m in MEADOWS:
        for side in Side:
            half = catalog[m][side.value]
            if not half["connectors"]:
                problems.append(f"The {m} {side.value.lower()} half has no connectors; add rows for it (Side "
                                f"{side.value} or Both) to {CONNECTORS_TABLE!r}.")
                continue
            linked = {x for c in half["connectors"] for x in (c["a"], c["b"])}
            lonely = [x for x in half["nodes"] if x not in linked]  # middles: checked per machine
            if lonely:
                problems.append(f"The {m} {side.value.lower()} half: node {', '.join(lonely)} has no connector; "
                                f"join it to the machine in {CONNECTORS_TABLE!r}.")


def assemble(catalog: Catalog, left: str, right: str) -> tuple[Machine, list[str]]:
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

    conns: list[Connector] = []
    seen: dict[frozenset, Connector] = {}
    for prefix, half, name in (("L", lh, f"{left} left"), ("R", rh, f"{right} right")):
        for c in half["connectors"]:
            a, b = nid(prefix, c["a"]), nid(prefix, c["b"])
            g = nid(prefix, c["greater"]) if c["greater"] else ""
            new: Connector = {"a": a, "b": b, "cond": c["cond"], "greater": g, "used": False}
            key = frozenset((a, b))
            if key in seen:
                old = seen[key]
                if (old["cond"], old["greater"]) != (new["cond"], new["greater"]):
                    problems.append(f"The {left} left half and the {right} right half both join {a} and {b} but "
                                    f"with different conditions; make the shared connector the same in both.")
                continue
            seen[key] = new
            conns.append(new)
    machine: Machine = {"left": left, "right": right, "nodes": nodes, "connectors": conns,
               "parts": {n: None for n in nodes}}
    # every node reachable (M1 validation)
    adj: dict[str, set[str]] = {n: set() for n in nodes}
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
        a, b = meadow_named(v["Colour A"]), meadow_named(v["Colour B"])
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


def half_machine(half: Half, side: str) -> Machine:
    """One half alone, drawn on its side of the middle nodes (for meadow selection)."""
    left = side == Side.LEFT.value
    prefix = "L" if left else "R"
    w = max([c for _, c in half["nodes"].values()] or [0])
    nodes = {prefix + label: [row - 1, (w - col) if left else col] for label, (row, col) in half["nodes"].items()}
    for i, mid in enumerate(MIDDLE):
        nodes[mid] = [i, w if left else 0]

    def nid(x: str) -> str:
        return x if x in MIDDLE or not x else prefix + x
    conns: list[Connector] = [{"a": nid(c["a"]), "b": nid(c["b"]), "cond": c["cond"], "greater": nid(c["greater"]),
                               "used": False} for c in half["connectors"]]
    return {"left": "", "right": "", "nodes": nodes, "connectors": conns, "parts": {n: None for n in nodes}}
