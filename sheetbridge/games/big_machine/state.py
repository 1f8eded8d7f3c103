"""The Big Machine's state as the record keeps it (JSON), typed: every key and what it holds.

A node's content (`Part`) is None (empty), the string "faulty" (R9) or {"color": ..., "power": ...}
(R8). The shape is version 1; `upgrade` brings an older saved state to it.
"""
from __future__ import annotations

from typing import Any, TypedDict, cast

from ...core.types import State

STATE_VERSION = 1

Part = Any   # None (empty), "faulty", or a PartDict: the record's JSON, read with content.FAULTY in hand


class PartDict(TypedDict):
    """A working part in a node (R8)."""
    color: str
    power: int


class TeamRow(TypedDict):
    """A team: one player and one guest (R1); ids are "Team 1", "Team 2"..."""
    id: str
    player: str
    guest: str


class HalfConnector(TypedDict):
    """A connector of a meadow's half, as the host's table gives it (M1, R7)."""
    a: str
    b: str
    cond: str        # allies, enemies, greater or free
    greater: str     # cond greater: the end whose power must be greater (A15); else ""


class Half(TypedDict):
    """One side of a meadow's machine half: node -> [row, column] from the table, and connectors."""
    nodes: dict[str, list[int]]
    connectors: list[HalfConnector]


class Connector(TypedDict):
    """A machine's connector: its ends (L/R-prefixed or M1-M3), condition, and `used`: the team
    moved along it in rounds 2-7 (A8)."""
    a: str
    b: str
    cond: str
    greater: str
    used: bool


class Machine(TypedDict):
    """A team's machine (R4, R5): the two halves' meadows, node -> [row, column] in the drawing,
    connectors and node -> Part."""
    left: str
    right: str
    nodes: dict[str, list[int]]
    connectors: list[Connector]
    parts: dict[str, Part]


class BigMachineState(TypedDict):
    """Every key the state holds, version 1."""
    round: int                          # 0: meadow selection; 1-7 the rounds open
    finished: bool
    options: dict[str, Any]             # as the host gave them (options.options_of reads them typed)
    roster: list[str]
    teams: list[TeamRow]
    team_of: dict[str, str]             # participant -> team id
    role: dict[str, str]                # participant -> "player" or "guest"
    catalog: dict[str, dict[str, Half]]  # meadow -> "Left"/"Right" -> its half (M1)
    relation: dict[str, str]            # "Blue|Red" (sorted) -> allies / enemies / neither (M2, A14)
    meadow: dict[str, str | None]       # where each participant is (None before meadow selection)
    start: dict[str, str | None]        # each participant's starting meadow (R3)
    cogs: dict[str, int]
    prev: dict[str, str | None]         # the previous install node (None before round 1's)
    machines: dict[str, Machine]        # team id -> machine, from meadow selection
    scores: dict[str, int]              # team id -> machine points, at the end


def upgrade(state: State, version: int) -> State:
    """A state saved by `version` in today's shape. Identity: there is only version 1.

    A change to the shape raises STATE_VERSION and adds a step here, e.g.
    ``if version < 2: state = {**state, "new_key": default}``, each step taking the state one
    version forward, so a record of any age replays."""
    return state


def team_row(state: BigMachineState, player: str) -> TeamRow:
    """The team a participant is in."""
    tid = state["team_of"][player]
    return next(t for t in state["teams"] if t["id"] == tid)


def mates(state: BigMachineState, player: str) -> tuple[str, str]:
    """A participant's team as (player, guest)."""
    t = team_row(state, player)
    return t["player"], t["guest"]


def machine_of(state: BigMachineState, player: str) -> Machine:
    """A participant's team machine."""
    return state["machines"][state["team_of"][player]]


# meadow, start and prev are None until set (JSON null); these read them where the rules know they are.

def start_of(state: BigMachineState, player: str) -> str:
    """A participant's starting meadow, once meadow selection has resolved (R3)."""
    return cast(str, state["start"][player])


def meadow_now(state: BigMachineState, player: str) -> str:
    """Where a participant is, from meadow selection on (R30)."""
    return cast(str, state["meadow"][player])


def previous_node(state: BigMachineState, player: str) -> str:
    """A participant's previous install node, from round 2 on (A18)."""
    return cast(str, state["prev"][player])


def round_copy(state: BigMachineState) -> BigMachineState:
    """The state a round resolves into. Only what a round writes in place is copied (a JSON round trip
    of the whole state, the meadows' catalog included, cost more than the round): the per-participant
    dicts, the scores, each machine's parts and connectors. The catalog and relation are replaced when
    changed, never written in place; teams, roster and options are only read."""
    st = state.copy()
    st["meadow"], st["start"], st["prev"] = dict(st["meadow"]), dict(st["start"]), dict(st["prev"])
    st["cogs"], st["scores"] = dict(st["cogs"]), dict(st["scores"])
    machines = {}
    for tid, m in state["machines"].items():
        machine = m.copy()
        machine["parts"] = dict(m["parts"])
        machine["connectors"] = [c.copy() for c in m["connectors"]]
        machines[tid] = machine
    st["machines"] = machines
    return st
