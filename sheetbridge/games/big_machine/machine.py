"""The Big Machine's machine: what a node holds after installs (R41-R47) and how its connectors
score (R48-R56), over the state's machines (node contents as in state.Part).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from .content import EXCELLENT_POINTS, FAULTY, WORKING_POINTS, Cond, node_order, relation_key
from .state import Connector, Machine, Part


def power_key(part: Part) -> int:
    """R46, A4: the order parts are installed in, faulty first, then ascending power."""
    return -1 if part == FAULTY else int(part["power"])


def install(current: Part, part: Part) -> Part:
    """R41-R45: the node's content after installing `part` (None empty, "faulty", or a dict)."""
    if current is None:
        return part
    if current == FAULTY or part == FAULTY:
        return FAULTY
    return part if part["power"] > current["power"] else FAULTY


def install_all(current: Part, parts: Sequence[Part]) -> Part:
    """R46, R47, A4: several parts onto one node, ascending power, faulty first."""
    for part in sorted(parts, key=power_key):
        current = install(current, part)
    return current


def connector_status(conn: Connector, parts: Mapping[str, Any], relation: Mapping[str, str],
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
    """R51, R52: 5 points excellent, 1 working, else none."""
    return {"excellent": EXCELLENT_POINTS, "working": WORKING_POINTS}.get(status, 0)


def score_machine(machine: Machine, relation: Mapping[str, str]) -> tuple[int, list[str]]:
    """R50-R56: total points and one status per connector (in the machine's order)."""
    statuses = [connector_status(c, machine["parts"], relation, final=True) for c in machine["connectors"]]
    return sum(connector_points(s) for s in statuses), statuses


def part_text(part: Part) -> str:
    """A node's content as the state holds it (None, "faulty" or a dict) in words."""
    if part is None:
        return "empty"
    if part == FAULTY:
        return "faulty"
    return f"{part['color']} {part['power']}"


def neighbours(machine: Machine, node: str) -> list[str]:
    """The nodes joined to `node` by a connector, in drawing order."""
    found = {c["b"] for c in machine["connectors"] if c["a"] == node} | \
            {c["a"] for c in machine["connectors"] if c["b"] == node}
    return [n for n in node_order(machine) if n in found]


def find_connector(machine: Machine, a: str, b: str) -> Connector | None:
    """The connector joining a and b, if any."""
    for c in machine["connectors"]:
        if {c["a"], c["b"]} == {a, b}:
            return c
    return None


def filled_machine(machine: Machine) -> Machine:
    """R48: the machine with every empty node made faulty (a new machine sharing what it does not change)."""
    return {**machine, "parts": {n: (FAULTY if p is None else p) for n, p in machine["parts"].items()}}
