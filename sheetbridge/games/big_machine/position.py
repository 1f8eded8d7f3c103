"""The Big Machine from a described position: a game set up at round 1-7 with its starting
meadows, positions, cogs, previous nodes, installed parts and used connectors, checked.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from ...core.errors import PositionError
from ...core.parsing import clean, parse_int
from ...core.rng import Rng
from ...core.types import Tables
from .content import FAULTY, MEADOWS, SABOTAGE_COGS, START_COGS, assemble, meadow_named, node_order
from .machine import find_connector
from .options import NoWinner, options_of
from .rules import setup
from .spec import ROUNDS
from .state import BigMachineState, machine_of, start_of


def from_position(players: Sequence[str], options: Mapping[str, Any], tables: Tables,
                  position: Mapping[str, Any], rng: Rng) -> BigMachineState:
    """A game at round `round` (1-7) from a position: every participant's starting meadow
    (`start`), where they are (`meadows`), `cogs`, previous install node (`previous`, from round
    2), each team's installed parts (`parts`: {"Team 1": {"L1": "Blue 5", "M2": "faulty"}}) and the
    connectors it moved along (`traversed`: {"Team 1": [["L1", "L4"]]}). Validated: a PositionError
    names what cannot happen.

    Example (the keys are documented on the docs page)::

        match_from_position("big-machine", ["Ann", "Bo", "Cy", "Dee"], {"round": 2,
            "start": {"Ann": "White", "Bo": "White", "Cy": "Red", "Dee": "Blue"},
            "previous": {"Ann": "L1", "Bo": "R1", "Cy": "L1", "Dee": "R1"},
            "parts": {"Team 1": {"L1": "Blue 5", "R1": "faulty"}, "Team 2": {"L1": "faulty", "R1": "Red 1"}},
            "cogs": {"Ann": 7}})
    """
    st = setup(players, options, tables, rng)
    known = ("round", "start", "meadows", "cogs", "previous", "parts", "traversed")
    extra = sorted(set(position) - set(known))
    if extra:
        raise PositionError(f"unknown position key(s) {', '.join(map(str, extra))}; a Big Machine position has "
                            + ", ".join(known))
    r = position.get("round", 1)
    if not isinstance(r, int) or isinstance(r, bool) or not 1 <= r <= ROUNDS:
        raise PositionError(f"round {r!r}: a position opens a round from 1 to {ROUNDS} (round 0, meadow "
                            "selection, is a new game)")
    table = _table_reader(st, position)
    _place(st, table)
    _set_cogs(st, table, r)
    _set_parts(st, table, r)
    _set_previous(st, table, r)
    _set_traversed(st, table, r)
    st["round"] = r
    return st


Table = Callable[[str, Sequence[str], str], Mapping[str, Any]]


def _table_reader(st: BigMachineState, position: Mapping[str, Any]) -> Table:
    """Reads one key of the position: a table whose keys are participants or teams."""
    roster = st["roster"]
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
    return table


def _place(st: BigMachineState, table: Table) -> None:
    """Starting meadows (every participant's: they give the machines, R3-R5) and where each is now."""
    roster = st["roster"]
    start = table("start", roster, "participants")
    for p in roster:
        if p not in start:
            raise PositionError(f"start: {p}'s starting meadow is missing (it gives the machine's halves)")
        m = meadow_named(str(start[p]))
        if m is None:
            raise PositionError(f"start: {p}'s {start[p]!r} is not a meadow ({', '.join(MEADOWS)})")
        st["start"][p] = st["meadow"][p] = m
    for p, text in table("meadows", roster, "participants").items():
        m = meadow_named(str(text))
        if m is None:
            raise PositionError(f"meadows: {p}'s {text!r} is not a meadow ({', '.join(MEADOWS)})")
        st["meadow"][p] = m
    for t in st["teams"]:
        machine, problems = assemble(st["catalog"], start_of(st, t["player"]), start_of(st, t["guest"]))
        if problems:
            raise PositionError("; ".join(problems))
        st["machines"][t["id"]] = machine


def _set_cogs(st: BigMachineState, table: Table, r: int) -> None:
    """Cogs held: at most what the start and the sabotages so far could give (R11, R25)."""
    roster = st["roster"]
    limit = START_COGS * len(roster) + SABOTAGE_COGS * len(roster) * (r - 1)
    for p, n in table("cogs", roster, "participants").items():
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise PositionError(f"cogs: {p} has {n!r}; cogs are a whole number from 0")
        st["cogs"][p] = n
    if sum(st["cogs"].values()) > limit:
        raise PositionError(f"cogs: {sum(st['cogs'].values())} in all, but {len(roster)} participants start with "
                            f"{START_COGS} each and sabotage adds at most {SABOTAGE_COGS} each a round: at most "
                            f"{limit} after {r - 1} round(s)")


def _set_parts(st: BigMachineState, table: Table, r: int) -> None:
    """Each team's installed parts: at most 4 nodes filled a round (two installs, two sabotages)."""
    team_ids = [t["id"] for t in st["teams"]]
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


def _set_previous(st: BigMachineState, table: Table, r: int) -> None:
    """Previous install nodes, from round 2 (A18): filled unless option no_winner is nothing."""
    opts, roster = options_of(st), st["roster"]
    previous = table("previous", roster, "participants")
    for p in roster:
        node = previous.get(p)
        machine = machine_of(st, p)
        if r == 1:
            if node:
                raise PositionError(f"previous: round 1 has no previous node (found {p}: {node!r})")
            continue
        if not node:
            raise PositionError(f"previous: {p}'s previous node is missing (needed from round 2: the next "
                                "install must be joined to it)")
        if node not in machine["nodes"]:
            raise PositionError(f"previous: {node!r} is not a node of {p}'s machine")
        if machine["parts"][node] is None and opts.no_winner is not NoWinner.NOTHING:
            raise PositionError(f"previous: {p} installed on {node} last round, so it cannot be empty")
        st["prev"][p] = node


def _set_traversed(st: BigMachineState, table: Table, r: int) -> None:
    """Connectors each team moved along (A8), from round 2, at most 2 a round."""
    team_ids = [t["id"] for t in st["teams"]]
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
    colour = meadow_named(words[0]) if len(words) == 2 else None
    power = parse_int(words[1]) if len(words) == 2 else None
    if colour is None or power is None or power < 1:   # R8: a positive power
        return "bad"
    return {"color": colour, "power": power}
