"""Skeld's round results as data: the fact classes (every report and picture is drawn from them,
render.py), the ledger reasons the game books and the endings it gives.

Audiences follow the rulings' information model (section c): public, the players concerned, or the
host alone. The classes keep their order: the balance report lists facts as they are defined.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Mapping

from ...core.facts import Fact, fact
from ...core.types import Problem
from .content import BONUSES


@fact
@dataclass(frozen=True)
class ShipBoard(Fact):
    """The ship after the round (public): the layout (A1), every room activated so far (R41) and
    every wall (R67, as shared edges "3C|4B")."""
    grid: tuple[tuple[str, ...], ...]
    activated: tuple[str, ...]
    walls: tuple[str, ...]


@fact
@dataclass(frozen=True)
class RoomActivated(Fact):
    """A room activated this round (R41): public, without who or with how much."""
    room: str


@fact
@dataclass(frozen=True)
class WallPlaced(Fact):
    """A Summoner wall placed this round (R67): public, not who placed it."""
    room: str
    side: str          # N, E, S or W of `room`
    neighbour: str     # the room on the other side


@fact
@dataclass(frozen=True)
class DisablesAnnounced(Fact):
    """Rooms disabled this round, public only with the host option announce_disables (A15)."""
    rooms: tuple[str, ...]


@fact
@dataclass(frozen=True)
class MainMatchStatus(Fact):
    """The round is over: the Main Match continues with `next_round`, or ends (None)."""
    round: int
    next_round: int | None


@fact
@dataclass(frozen=True)
class CrewStart(Fact):
    """Where a crewmate starts (pregame): its player's, public with reveal_start_positions (A34)."""
    player: str
    crewmate: str
    room: str


@fact
@dataclass(frozen=True)
class CrewStartAssigned(Fact):
    """A start cell the player did not give validly, drawn or fixed by the host option (A33)."""
    player: str
    crewmate: str
    room: str
    drawn: bool        # True: drawn at random (seeded); False: the host's fixed cell


@fact
@dataclass(frozen=True)
class SubmissionProblem(Fact):
    """Something wrong in a player's submission and the default applied (section e)."""
    player: str
    problem: Problem


@fact
@dataclass(frozen=True)
class NoSubmission(Fact):
    """The player submitted nothing: crewmates stay put and do nothing (A33)."""
    player: str


@fact
@dataclass(frozen=True)
class EnergyCapRaise(Fact):
    """Energy cap raises bought (or refused, E27) at the start of the round (R17, A11)."""
    player: str
    raises: int
    cost: int
    crewmates: tuple[str, ...]
    caps: tuple[int, ...]      # each crewmate's cap after it (unchanged when refused)
    accepted: bool
    reason: str = ""           # "over_cap" or "garnets" when refused
    balance: int | None = None # the garnets held, when refused for lack of them


@fact
@dataclass(frozen=True)
class CrewMove(Fact):
    """A crewmate's move ("move") or Take Back Toe step ("toe"), made or refused and why."""
    player: str
    crewmate: str
    step: str                  # "move" or "toe"
    start: str
    to: str
    path: tuple[str, ...]      # rooms stepped through, `to` included
    cost: int
    refused: str = ""          # why it was refused ("" = made)


@fact
@dataclass(frozen=True)
class EnergyLost(Fact):
    """Energy over the cap that is lost (A10): the Yellow Banana eaten near the cap."""
    player: str
    crewmate: str
    source: str                # "banana"
    amount: int
    cap: int


@fact
@dataclass(frozen=True)
class RoomBid:
    """One bid in an activation contest."""
    player: str
    crewmate: str
    energy: int


@fact
@dataclass(frozen=True)
class ActivationContest(Fact):
    """Every activation attempt on one room this round (host only, A37): the bids, who
    activated, and what decided it: "only bid", "highest bid", "highest untied bid" (ties
    nullified, R27), "all tied" (nobody, R28), "Urgot Peraphernalia" (R69), "disabled"
    (nobody, A15), "every plant" (V, A23), "one claim per player" (P, A20 off)."""
    room: str
    bids: tuple[RoomBid, ...]
    winners: tuple[RoomBid, ...]
    decided_by: str


@fact
@dataclass(frozen=True)
class ActivationAttempt(Fact):
    """A player's own attempt and whether it activated (section c 5). `reason` (why it failed)
    is filled only with the host option reveal_failure_reasons (A37)."""
    player: str
    crewmate: str
    room: str
    energy: int
    activated: bool
    reason: str = ""


@fact
@dataclass(frozen=True)
class RoomDisabled(Fact):
    """A disable (R31-R34): the room blocked for rounds `round` and `round + 1`, all Energy spent."""
    player: str
    crewmate: str
    room: str
    energy: int
    until_round: int


@fact
@dataclass(frozen=True)
class ComponentGained(Fact):
    """A component claimed (R24): shared by the player's crewmates (R35)."""
    player: str
    crewmate: str
    component: str
    sequence: str
    number: int


@fact
@dataclass(frozen=True)
class BonusGained(Fact):
    """A bonus won by the crewmate (R23); it works from the next round (A12)."""
    player: str
    crewmate: str
    bonus: str


@fact
@dataclass(frozen=True)
class ParasiteClaimed(Fact):
    """A parasite claimed at P by this crewmate (R52, R56)."""
    player: str
    crewmate: str


@fact
@dataclass(frozen=True)
class ParasitePlant(Fact):
    """A parasite planted at V (R55) with its verdict: "correct" (the unique top plant of the
    round a Sequence is activated: it wins, R58), "outbid", "tied" (R59, A24), "wrong_target"
    (plant_requires_target, A22) or "no_sequence" (no Sequence activated that round, R62).
    `improper` (A25) is what the EC rules use; with tied_plants_are_improper off a tie is not.
    Private to the planter in its round; every plant is public at the end of the Main Match."""
    player: str
    crewmate: str
    round: int
    energy: int
    sequence: str | None       # the Sequence named (plant_requires_target), else None
    verdict: str
    improper: bool


@fact
@dataclass(frozen=True)
class BonusUsed(Fact):
    """A bonus used: "Y" banana, "U" Urgot (detail: the room), "W" Wiwaxia, "S" Summoner (detail:
    the wall), "X" XComm (detail: the other player)."""
    player: str
    crewmate: str
    item: str
    uses_left: int | None
    detail: str = ""


@fact
@dataclass(frozen=True)
class BonusNotUsed(Fact):
    """An end-of-round use that did not happen: the bonus was bid for this round and not won
    (same_round_bonus_use, A12)."""
    player: str
    crewmate: str
    item: str
    reason: str


@fact
@dataclass(frozen=True)
class CrewRef:
    player: str
    crewmate: str


@fact
@dataclass(frozen=True)
class WiwaxiaDrain(Fact):
    """Who a Wiwaxia drained (host only: the amounts are never told, A16)."""
    player: str
    crewmate: str
    room: str
    drained: tuple[CrewRef, ...]


@fact
@dataclass(frozen=True)
class XCommOpened(Fact):
    """The XCommunications Device: the two players may talk this round (A19); told to both."""
    player: str
    crewmate: str
    partner: str


@fact
@dataclass(frozen=True)
class EnergyAccount(Fact):
    """A crewmate's Energy through its own actions, told to its player: the start, each spending,
    what is `left` after them, and the start of the next round (R39; None once the Main Match is
    over). Drains are not in it (EndOfRoundEnergy): the player is never told of them (A16)."""
    player: str
    crewmate: str
    room: str                  # where it ends the round
    start: int
    banana: int                # gained from the Yellow Banana (after the cap)
    move: int
    toe: int
    bid: int
    disable: int
    left: int                  # after its own actions
    next_start: int | None
    cap: int


@fact
@dataclass(frozen=True)
class EndOfRoundEnergy(Fact):
    """A crewmate's Energy at the end of the round, before income (host only): Wiwaxia drains
    (R70, A16) and what a carrier gained under wiwaxia_transfers, then the income (3, + 1 with
    Rosé, capped; 0 once the Main Match is over)."""
    player: str
    crewmate: str
    drained: int
    gained: int
    end: int
    income: int


@fact
@dataclass(frozen=True)
class BonusHeld:
    bonus: str
    uses_left: int | None


@fact
@dataclass(frozen=True)
class CrewInRoom:
    """A crewmate in a room at the end of the round, with what it carries (R40)."""
    player: str
    crewmate: str
    items: tuple[BonusHeld, ...]
    parasite: bool


@fact
@dataclass(frozen=True)
class RoomOccupants(Fact):
    """Every crewmate in a room at the end of the round (R37, R40), told to the players present."""
    room: str
    occupants: tuple[CrewInRoom, ...]


@fact
@dataclass(frozen=True)
class ActivatorsSeen(Fact):
    """Who activated a room this round (R38, A36), told to the players with a crewmate in it.
    `crewmates` is filled only with reveal_activator_crewmate."""
    room: str
    players: tuple[str, ...]
    crewmates: tuple[str, ...] = ()


@fact
@dataclass(frozen=True)
class EndOfMatchGarnets(Fact):
    """End of the Main Match: "components" (1 per 3 held, R64) or "zurich" (4, R73)."""
    player: str
    garnets: int
    reason: str
    components: int = 0


@fact
@dataclass(frozen=True)
class SequenceStanding:
    player: str
    pieces: int
    value: int


@fact
@dataclass(frozen=True)
class SequenceCompleted(Fact):
    """A Sequence whose 13 components are all claimed (R44), with every player's pieces and
    Sequence Value in it (R45, R46): public."""
    sequence: str
    name: str
    round: int
    standings: tuple[SequenceStanding, ...]


@fact
@dataclass(frozen=True)
class MultiSequenceStanding(Fact):
    """Several Sequences activated at once (R47, R48): a player's best single Sequence Value, in
    which Sequence(s), and the sum over the activated Sequences: public."""
    player: str
    best_value: int
    best_sequences: tuple[str, ...]
    total: int


@fact
@dataclass(frozen=True)
class TotalStanding:
    player: str
    value: int
    components: int


@fact
@dataclass(frozen=True)
class RoundLimitReached(Fact):
    """The last round ended with no Sequence complete (R50, A31): each total Sequence Value."""
    round: int
    standings: tuple[TotalStanding, ...]


EC_RULES = {   # MainMatchResult.ec_rule: the rule that chose the Elimination Candidate (section d step 5)
    "would_have_won": "R60", "planter_anyway": "A28", "runner_up": "A28",
    "improper_planter": "R61, R63, A25", "lowest_metric": "R51, A26"}


@fact
@dataclass(frozen=True)
class MainMatchResult(Fact):
    """Who won and who goes to the EC, and why (section d steps 2-5), public (section c): the
    normal winner NW (None while a tie waits for the Gamewide Tiebreak; `normal_tied` names the
    tied), the Parasite winner PW with its V Energy, or why there is none (`no_parasite_winner`:
    "round_limit", "tied" per A24 with `tied_planters`, "wrong_target", "no_plant"), the winner,
    and the EC with the rule that chose them (a key of EC_RULES; `ec_by_gt`: a tie settled by the
    Gamewide Tiebreak). Made by the outcome, so an entered ranking shows at once."""
    normal_winner: str | None
    normal_tied: tuple[str, ...]
    parasite_winner: str | None
    parasite_energy: int | None
    no_parasite_winner: str
    tied_planters: tuple[str, ...]
    winner: str | None
    method: str                      # "normal" or "parasite"
    elimination_candidate: str | None
    ec_rule: str                     # "" while the EC is pending
    ec_by_gt: bool = False


@fact
@dataclass(frozen=True)
class CrewInventory(Fact):
    """A player's whole inventory at the end (host only unless endgame_full_reveal)."""
    player: str
    components: tuple[str, ...]
    crewmates: tuple[CrewInRoom, ...]
    rooms: tuple[str, ...]


def held_items(crew: Mapping[str, Any]) -> tuple[BonusHeld, ...]:
    """A crewmate's bonuses as facts hold them, in bonus order."""
    return tuple(BonusHeld(it["item"], it["uses"])
                 for it in sorted(crew["items"], key=lambda x: BONUSES.index(x["item"])))


class LedgerReason(enum.StrEnum):
    """Every reason Skeld books in the ledger; a reason with numbers is a template (`text`)."""
    CAP_RAISE = "Skeld energy cap raise (now {cap})"                          # R17, A11: both crewmates
    CAP_RAISE_CREWMATE = "Skeld energy cap raise ({crewmate} now {cap})"      # R17, A11: one crewmate
    COMPONENTS = "Skeld: {held} components"                                   # R64
    ZURICH = "Skeld: Zurich Is Stained Vinyl Record"                          # R73

    def text(self, **values: Any) -> str:
        """The reason as the ledger writes it (a plain str, so records stay as they are)."""
        return self.value.format(**values) if values else self.value


class Ending(enum.StrEnum):
    """How the Main Match ended (Outcome.ending): a planted Parasite, one or several Sequences
    completed, or the round limit; `_tiebreak` when the Gamewide Tiebreak decides the winner."""
    PARASITE = "parasite"
    SEQUENCE = "sequence"
    SEQUENCES = "sequences"
    ROUNDS_OUT = "rounds_out"
    SEQUENCE_TIEBREAK = "sequence_tiebreak"
    SEQUENCES_TIEBREAK = "sequences_tiebreak"
    ROUNDS_OUT_TIEBREAK = "rounds_out_tiebreak"

    def with_tiebreak(self) -> "Ending":
        return Ending(self.value + "_tiebreak")
