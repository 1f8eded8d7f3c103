"""The Big Machine's round results as data: the fact classes every report and picture is drawn
from, the ledger's reasons and the game's endings.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Mapping

from ...core.facts import Fact, fact
from ...core.types import Problem
from .content import FAULTY, SABOTAGE_COGS, node_order
from .machine import connector_points, connector_status
from .state import Machine

# --------------------------------------------------------------------- round results as data
# Every report and picture is drawn from these (render.py, picture.py). `audience` follows the
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


class LedgerReason(enum.StrEnum):
    """Every reason the game books in the garnet ledger (LedgerEntry.reason holds the .value)."""
    JUMP = "jump"                       # R24, A7: 5 garnets for a jump
    MACHINE_SCORE = "machine score"     # R59, A13: 1 garnet per 2 points


class Ending(enum.StrEnum):
    """Every Outcome.ending the game gives (Outcome.ending holds the .value)."""
    SINGLE_WINNER = "single_winner"     # a sole top score: Token of Life and cosmos (R57, R60)
    SHARED_WIN = "shared_win"           # the top score is shared: neither (R57, A12)


def as_part(part: Any) -> MachinePart | None:
    """The state's node content as a MachinePart (None: empty)."""
    if part is None:
        return None
    if part == FAULTY:
        return FAULTY_PART
    return MachinePart(part["color"], int(part["power"]))


def as_given_part(part: Any) -> MachinePart:
    """A part being installed (never empty) as a MachinePart."""
    return FAULTY_PART if part == FAULTY else MachinePart(part["color"], int(part["power"]))


def machine_facts(machine: Machine, relation: Mapping[str, str], final: bool = False,
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
