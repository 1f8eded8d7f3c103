"""The Big Machine: the "builder" picks the meadow colour and the node that make its team's
connectors excellent, and spreads its cogs over the rounds left."""
from __future__ import annotations

from typing import Any, Sequence

from ...core.rng import Rng
from ...core.types import RawSubmission
from ...games.big_machine import ROUNDS, CogsNow, MachineLayout, MachineNow, MachineTeam, MeadowMove
from ..view import PlayerView, strategy
from .reading import choices, has

START_COGS = 12
# The rules' colour wheel (#rules-addenda, the shipped colour_relation table): neighbours are
# allies, the others enemies, a colour with itself neither.
WHEEL = ("White", "Blue", "Black", "Red", "Green")
# An empty neighbour may still become excellent: what a connector to it is worth now, on average.
OPEN_END_WORTH = 1.5
# Moving along a free connector makes it merely working (R55): the 4 points it loses.
FREE_BROKEN_COST = 4.0


def relation(a: str, b: str) -> str:
    if a == b:
        return "neither"
    i, j = WHEEL.index(a), WHEEL.index(b)
    return "allies" if (i - j) % 5 in (1, 4) else "enemies"


def _mine(view: PlayerView) -> tuple[str, str]:
    """(team id, role) of the player, from the public teams."""
    for f in view.facts:
        if isinstance(f, MachineTeam) and view.player in (f.player, f.guest):
            return f.team, "player" if f.player == view.player else "guest"
    return "", "player"


def _machine(facts: Sequence[Any], team: str) -> Any:
    """The team's machine as last told: its latest MachineNow, else its empty layout."""
    found = None
    for f in facts:
        if isinstance(f, (MachineNow, MachineLayout)) and f.team == team:
            found = f
    return found


def _last_own(facts: Sequence[Any], cls: type, player: str) -> Any:
    found = None
    for f in facts:
        if isinstance(f, cls) and f.participant == player:
            found = f
    return found


def _node_worth(machine: Any, node: str, colour: str, prev: str) -> float:
    """What installing a part of `colour` on `node` adds to the machine's connectors."""
    parts = {n.node: n.part for n in machine.nodes}
    worth = 0.0
    for c in machine.connectors:
        if node not in (c.a, c.b):
            continue
        other = parts.get(c.b if c.a == node else c.a)
        if c.kind == "free" and prev and {c.a, c.b} == {node, prev}:
            worth -= FREE_BROKEN_COST
        if other is None:
            worth += OPEN_END_WORTH
        elif other.faulty:
            continue
        elif c.kind in ("allies", "enemies"):
            worth += 5 if relation(colour, other.colour) == c.kind else 1
        elif c.kind == "free":
            worth += 1 if c.traversed else 5
        else:   # greater: a fresh part is weak; it meets the condition when the other end is to be smaller
            worth += 3 if c.greater == node and other.power <= 2 else 1
    return worth


def _home(team: str, role: str, teams: int) -> str:
    """A meadow of its own for each seat, players first then guests (the teams are public, so
    this is a convention any builder can follow): builders then rarely bid against each other."""
    digits = "".join(ch for ch in team if ch.isdigit())
    seat = int(digits or 1) - 1 + (0 if role == "player" else max(teams, 1))
    return WHEEL[seat % len(WHEEL)]


def _neighbours(machine: Any, node: str) -> set[str]:
    return {c.b if c.a == node else c.a for c in machine.connectors if node in (c.a, c.b)}


@strategy("builder", "big-machine")
def big_machine_builder(view: PlayerView, rng: Rng) -> RawSubmission:
    """Each participant keeps to a meadow of its own (players of teams 1, 2, ... take White, Blue,
    ... in wheel order, then the guests: a convention read from the public teams, so builders do
    not bid against each other), bids its cogs spread evenly over the rounds left (no power-up),
    and installs on the empty node joined to its previous one whose connectors that colour would
    make best (excellent with an installed neighbour, never moving along a free connector if it
    can help it). Never sabotages, jumps or gives."""
    if has(view, "start"):
        return {"start": [{"meadow": rng.choice(choices(view, "start", "meadow"))}]}
    team, role = _mine(view)
    facts = view.facts
    machine = _machine(facts, team)
    move = _last_own(facts, MeadowMove, view.player)
    prev = move.node if move else ""
    cogs_fact = _last_own(facts, CogsNow, view.player)
    cogs = cogs_fact.after if cogs_fact else START_COGS
    home = _home(team, role, sum(isinstance(f, MachineTeam) for f in facts))
    parts = {n.node: n.part for n in machine.nodes}
    allowed = sorted(_neighbours(machine, prev)) if prev else sorted(parts)
    empty = [n for n in allowed if parts.get(n) is None]
    if not empty:   # every node in reach is filled: whatever lands there ruins it, so spend nothing
        return {"turn": [{"meadow": home, "bid": "0", "power": "0", "node": rng.choice(allowed), "sabotage": ""}]}
    node = max(empty, key=lambda n: _node_worth(machine, n, home, prev) + rng.random() * 0.1)
    left = ROUNDS - view.round + 1
    bid = cogs if left <= 1 else min(cogs, -(-cogs // left))
    row = {"meadow": home, "bid": str(bid), "power": "0", "node": node, "sabotage": ""}
    if view.round >= 2:
        row["jump"] = "no"
    return {"turn": [row]}
