"""Skeld (designer uriquack, "The Genius: House of Larks"): a Main Match for 4 players.

Rules in brief (R and A numbers from shared/rulings/skeld.md):

- A 7x7 ship of 49 rooms (R4, R5): 39 Component Rooms 1A..13C (component n of the
  Frontier A, Greenhouse B or Conductor C Sequence, R6, R7), 8 Bonus Rooms R S T U W X
  Y Z, the Parasite room P and the Vault V. The diagram is missing, so the layout is a
  host-editable table (A1), validated for its inventory.
- Pregame (round 0, R8-R11): each player names two crewmates (R12) and picks their
  start cells among 1A-C, 2A-C, 3A, 5A; a missing cell is drawn at random (A33).
- Rounds 1..8. Crewmates start with 5 Energy (R13), cap 7 (R14), earn 3 a round
  (R15, A8), keep the rest (R16). A player may buy up to two cap raises for 3 garnets
  each (R17, A11: per player by default, per crewmate as an option).
- Order of a round (A9): cap raises; bananas (+3, R72, the excess over the cap lost,
  A10); one straight move along the row or column at 1 Energy a tile (R19-R21,
  A3-A5), walls block; Take Back Toe step (R68, A18); disables (R31-R34, A15);
  activations. A submission names the room it activates and the Energy ("Activate
  Room 3C with 2 Energy", R42); the room must be the one the crewmate ends in (A6,
  E11), once per crewmate (R30, E18). The bid is always spent (R29, A40). Ties are
  nullified and the highest untied bid wins (R26-R28); Urgot wins a Component Room
  outright (R69, A14); a disabled room blocks everyone. P and V can be activated again
  (R25); V only by a crewmate carrying its player's parasite, with 3+ Energy, once per
  player, every valid plant happens (R55, R57, A23). P follows contention (A20).
- Components are shared by the player's crewmates; bonuses and parasites belong to one
  crewmate (R35). Bonus uses: S 1, W 2, X 1, Y 1, U 1; a bonus works from the round
  after it is won (A12, A13).
- End of round: Wiwaxia drains (R70, A16), Summoner walls (R67, A17), income.
- The MM ends when all 13 components of a Sequence are claimed (R44) or after round 8
  (R50, A31). Winner: most pieces then Sequence Value (R45, R46); several Sequences at
  once: best Sequence Value, then the sum (R47, R48); at the limit the total value
  (R50); then the Gamewide Tiebreak (R49, A29), a ranking the host enters as a
  decision. A unique top plant in the round a Sequence is activated wins instead
  (R53, R58, R59, A22, A24).
- EC (R51, R60, R61, R63, A25-A28, A31): the would-be winner after a winning plant;
  otherwise the improper planter with the lowest metric; otherwise the non-winner
  with the lowest metric. 1 garnet per 3 components, +4 for Zurich (R64, R73).
- Private each round (R37-R40): crewmates sharing your rooms, who activated those
  rooms, your energy next round, the items of crewmates in your rooms; public: the
  rooms activated this round (R41) and walls placed (R67).

Every round is returned as typed facts (see the classes below); the public post, each
confessional and the pictures are drawn from them (`render`, `picture`).

Worked examples from the ruleset (the Composer Sequence is the Conductor Sequence, A35):

>>> contention_winner([("Marcer", 2), ("uri", 2), ("Spadez", 1)])
'Spadez'
>>> contention_winner([("Marcer", 2), ("uri", 2)]) is None
True
>>> sequence_value(["1C", "3C", "5C", "7C", "13C"], "C"), sequence_value(["2C", "4C", "6C", "8C", "10C"], "C")
(29, 30)
"""
from __future__ import annotations

import enum
import functools
import re
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..core.decisions import DecisionKind, DecisionRequest
from ..core.errors import ConfigError, PositionError
from ..core.facts import HOST_ONLY, PUBLIC, Fact, RenderContext, fact, of_type
from ..core.game import GameRules
from ..core.outcome_text import plural
from ..core.parsing import clean, int_reason, is_formula, match_choice, parse_int, yes_no
from ..core.picture import Box, Label, Line, Picture
from ..core.rng import Rng
from ..core.standings import Place, RoundScore
from ..core.types import (Award, Block, Cell, Field, FieldKind, Form, GameSpec, LedgerEntry,
                          Option, Outcome, Problem, ProblemKind, RawSubmission, Report,
                          RoundInput, RoundResult, Section, State, Submission, TableSpec)

# --------------------------------------------------------------------- content

SEQUENCES: dict[str, str] = {"A": "Frontier", "B": "Greenhouse", "C": "Conductor"}  # R7, A35
COMPONENT_NAMES: dict[str, tuple[str, ...]] = {  # flavour only (R6)
    "A": ("Machine Learning", "Boot Sequence", "Streamline", "Beam Cell", "Compile Driver", "Recursion",
          "Hologram", "Aggregate", "Auto-Shields", "Capacitor", "Defragment", "Cognitive Bias", "Stack"),
    "B": ("Manjusaka", "Orchid", "Edelweiss", "Hyacinth", "Plumeria", "Lotus", "Wisteria", "Iris",
          "Morning Glory", "Hibiscus", "Chrysanthemum", "Lilac", "Jasmine"),
    "C": ("Ravel", "Scriabin", "Debussy", "Saint-Saens", "Medtner", "Chopin", "Beethoven", "Bach",
          "Mozart", "Tchaikovsky", "Haydn", "Schubert", "Mendelssohn"),
}
COMPONENTS: tuple[str, ...] = tuple(f"{n}{s}" for s in "ABC" for n in range(1, 14))  # R5


class Bonus(enum.Enum):
    """The eight bonus items (R65-R73) with their uses (A13; None = unlimited or passive)."""
    R = ("R", "Rosé Tteokbokki", None)
    S = ("S", "Summoner's Meme", 1)
    T = ("T", "Take Back Toe", None)
    U = ("U", "Urgot Peraphernalia", 1)
    W = ("W", "Wiwaxia", 2)
    X = ("X", "XCommunications Device", 1)
    Y = ("Y", "Yellow Banana", 1)
    Z = ("Z", "Zurich Is Stained Vinyl Record", None)

    def __init__(self, letter: str, title: str, uses: int | None) -> None:
        self.letter = letter
        self.title = title
        self.uses = uses


BONUSES: tuple[str, ...] = tuple(b.letter for b in Bonus)
PARASITE_ROOM, VAULT = "P", "V"
ROOMS: tuple[str, ...] = COMPONENTS + BONUSES + (PARASITE_ROOM, VAULT)  # 39 + 8 + 1 + 1 = 49 (R5)
START_CELLS: tuple[str, ...] = ("1A", "1B", "1C", "2A", "2B", "2C", "3A", "5A")  # R10
SIZE = 7  # R4
START_ENERGY, BASE_CAP, INCOME, MAX_CAP = 5, 7, 3, 9  # R13-R15, R17
CAP_PRICE = 3  # R17
VAULT_MIN = 3  # R55
BANANA_ENERGY = 3  # R72
DIRECTIONS: dict[str, tuple[int, int]] = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}  # A2
SIDE_WORDS = {"N": "north", "E": "east", "S": "south", "W": "west"}
BANANA_USE, WIWAXIA_USE = "Eat Yellow Banana", "Wiwaxia drain"
WALL_USES = tuple(f"Summoner wall {d}" for d in DIRECTIONS)
BOARD_TABLE = "Skeld board"
GT_WINNER, GT_EC, GT_RUNNER_UP = "gt-winner", "gt-ec", "gt-runner-up"   # Gamewide Tiebreak decisions (R49, A29)

# Colours of the ship, shared by the board tab and the pictures. Every legend colour is clearly
# distinct from every other (CIEDE2000 difference of 10 or more, tested), and the text drawn on a
# fill is black on the light ones and white on the dark ones (room_text_colour).
ROOM_FILL: dict[str, str] = {
    "A": "BDD7EE",          # Frontier rooms: light blue
    "B": "C6E0B4",          # Greenhouse rooms: light green
    "C": "FFE699",          # Conductor rooms: light yellow
    "bonus": "F4B6E8",      # bonus rooms: light pink
    "activated": "595959",  # any room activated for good: dark grey
    "P": "C00000",          # the Parasite room is red (ruleset)
    "V": "2F5597",          # the Vault is blue (ruleset)
}
DARK_FILLS = frozenset({ROOM_FILL["activated"], ROOM_FILL["P"], ROOM_FILL["V"]})
NEW_THIS_ROUND = "FFC000"   # border of a room activated this round (pictures)
WALL_COLOUR = "E6007E"      # a Summoner wall (pictures)
CREW_COLOUR = "00B050"      # the border of your own crewmates' tags (private pictures)
FILL_LEGEND: tuple[tuple[str, str], ...] = (
    ("Frontier room (A)", ROOM_FILL["A"]), ("Greenhouse room (B)", ROOM_FILL["B"]),
    ("Conductor room (C)", ROOM_FILL["C"]), ("Bonus room", ROOM_FILL["bonus"]),
    ("Activated room", ROOM_FILL["activated"]), ("Parasite room P", ROOM_FILL["P"]), ("Vault V", ROOM_FILL["V"]))


def room_text_colour(fill: str) -> str:
    """Black on pale fills, white on dark ones (contrast at least 4.5:1, tested)."""
    return "FFFFFF" if fill in DARK_FILLS else "000000"


def room_kind(label: str) -> str:
    if label in BONUSES:
        return "bonus"
    if label in (PARASITE_ROOM, VAULT):
        return label
    return "component"


def room_fill(label: str, activated: bool) -> str:
    """The fill of a room: its kind's colour, dark grey once activated for good (P and V never are)."""
    kind = room_kind(label)
    if kind in (PARASITE_ROOM, VAULT):
        return ROOM_FILL[kind]
    if activated:
        return ROOM_FILL["activated"]
    return ROOM_FILL["bonus"] if kind == "bonus" else ROOM_FILL[label[-1]]


def room_title(label: str) -> str:
    if label in BONUSES:
        return f"{label} ({Bonus[label].title})"
    if label == PARASITE_ROOM:
        return "P (Parasite Room)"
    if label == VAULT:
        return "V (Vault)"
    return f"{label} ({COMPONENT_NAMES[label[-1]][int(label[:-1]) - 1]})"


def number(label: str) -> int:
    return int(label[:-1])


def sequence_value(components: Sequence[str], seq: str) -> int:
    """Sum of the numbers of the components of `seq` held (R46)."""
    return sum(number(c) for c in components if c[-1] == seq)


def pieces(components: Sequence[str], seq: str) -> int:
    return sum(1 for c in components if c[-1] == seq)


def total_value(components: Sequence[str]) -> int:
    """Sequence Value over all components, all sequences (R50, A31)."""
    return sum(number(c) for c in components)


def contention(bids: Sequence[tuple[Any, int]]) -> tuple[Any, str]:
    """R26-R28: tied bids are nullified; the highest untied bid wins. Returns the winner (None
    if nobody) and what decided it: "only bid", "highest bid", "highest untied bid" or "all tied".

    >>> contention([("a", 3), ("b", 3), ("c", 2), ("d", 2), ("e", 1)])
    ('e', 'highest untied bid')
    >>> contention([("a", 2), ("b", 1)])
    ('a', 'highest bid')
    """
    counts: dict[int, int] = {}
    for _, amount in bids:
        counts[amount] = counts.get(amount, 0) + 1
    untied = [(amount, who) for who, amount in bids if counts[amount] == 1]
    if not untied:
        return None, "all tied"
    amount, who = max(untied, key=lambda t: t[0])
    if len(bids) == 1:
        return who, "only bid"
    return who, "highest bid" if amount == max(counts) else "highest untied bid"


def contention_winner(bids: Sequence[tuple[Any, int]]) -> Any:
    """R26-R28: tied bids are nullified; the highest untied bid wins; None if none.

    >>> contention_winner([("a", 3), ("b", 3), ("c", 2), ("d", 2), ("e", 1)])
    'e'
    """
    return contention(bids)[0]


# ------------------------------------------------------------- round results as data
# Every report and picture is drawn from these (render, picture below). Audiences follow the
# rulings' information model (section c): public, the players concerned, or the host alone.

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


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _held_text(items: Sequence[BonusHeld], parasite: bool) -> str:
    parts = []
    for it in sorted(items, key=lambda x: BONUSES.index(x.bonus)):
        b = Bonus[it.bonus]
        t = b.title
        if b.uses is not None:
            t += " (used up)" if it.uses_left == 0 else f" ({_plural(it.uses_left or 0, 'use')} left)"
        parts.append(t)
    if parasite:
        parts.append("a Parasite")
    return ", ".join(parts) if parts else "no bonus and no parasite"


def _held(crew: Mapping[str, Any]) -> tuple[BonusHeld, ...]:
    return tuple(BonusHeld(it["item"], it["uses"]) for it in sorted(crew["items"], key=lambda x: BONUSES.index(x["item"])))


def _items_text(crew: Mapping[str, Any]) -> str:
    return _held_text(_held(crew), crew["parasite"])


def _crew_id(player: str, crew: Mapping[str, Any]) -> str:
    return f"{player}.{crew['name']}"


PLANT_WORDS = {"correct": "correct, with the most Energy: wins",
               "outbid": "outbid by a higher plant",
               "tied": "tied at the top: the planting fails",
               "wrong_target": "the Sequence named was not activated",
               "no_sequence": "no Sequence was activated that round"}


# --------------------------------------------------------------------- spec

SPEC = GameSpec(
    id="skeld",
    name="Skeld",
    min_players=4, max_players=4, recommended_players=4, rounds=8,
    summary="Move two crewmates around a 7x7 ship, bid Energy to activate rooms and complete a Sequence.",
    options=(
        Option("max_rounds", 8, "Rounds after the pregame; the MM ends after this round (R50).", ruling="A31"),
        Option("income_before_round_1", False, "Crewmates also earn 3 Energy before round 1 (round 1 starts "
               "at 7 instead of 5).", ruling="A8"),
        Option("banana_can_exceed_cap", False, "Eating the Yellow Banana may take Energy above the cap.",
               ruling="A10"),
        Option("remote_disable", False, "A crewmate may disable any room, not only the one it ends in; it may "
               "then also activate (the bid is paid first, the disable takes the rest).", ruling="A6"),
        Option("cap_upgrade_scope", "player", "A cap raise (3 garnets) raises both crewmates of the player, or "
               "one crewmate.", ("player", "crewmate"), "A11"),
        Option("same_round_bonus_use", False, "The Summoner's Meme and the Wiwaxia may be used at the end of "
               "the round they are won.", ruling="A12"),
        Option("urgot_consumed_on_blocked_attempt", False, "Urgot Peraphernalia is used up even when its "
               "attempt hits a disabled room.", ruling="A14"),
        Option("announce_disables", False, "Name disabled rooms in the public report.", ruling="A15",
               kind="display"),
        Option("wiwaxia_transfers", False, "Energy drained by the Wiwaxia goes to its carrier (capped).",
               ruling="A16"),
        Option("toe_requires_real_move", False, "The Take Back Toe step needs a normal move first.",
               ruling="A18"),
        Option("parasite_room_contention", True, "Claims at P follow the contention rule (one claimant a "
               "round); off: every valid claim succeeds, one per player.", ruling="A20"),
        Option("plant_requires_target", False, "A Vault activation names a Sequence and is correct only if "
               "that Sequence is activated the same round.", ruling="A22"),
        Option("tied_plants_are_improper", True, "Plants that fail by a tie count as improper plants for "
               "the EC.", ruling="A25"),
        Option("winner_can_be_ec", False, "The winner may also be the Elimination Candidate.", ruling="A26"),
        Option("multi_seq_ec_metric", "sum", "EC metric when several Sequences are activated at once: sum "
               "of the Sequence Values or the best one.", ("sum", "best"), "A27"),
        Option("planter_was_winner_ec", "fallback", "EC when the winning planter would have won anyway: "
               "the usual EC rules without that plant, the runner-up, or the planter (literal).",
               ("fallback", "runner_up", "literal"), "A28"),
        Option("multi_seq_use_piece_count", False, "With several Sequences activated at once, compare the "
               "most pieces held in one of them before the Sequence Values.", ruling="A30"),
        Option("pregame_fallback", "random", "Start cell of a crewmate without a valid one: random (seeded) "
               "or one fixed cell.", ("random",) + START_CELLS, "A33"),
        Option("reveal_start_positions", False, "Publish the start cells after the pregame.", ruling="A34",
               kind="display"),
        Option("reveal_activator_crewmate", False, "Name the activating crewmate, not only the player.",
               ruling="A36", kind="display"),
        Option("reveal_failure_reasons", False, "Tell a player why their own attempt failed (tie, disable, "
               "Urgot, outbid).", ruling="A37", kind="display"),
        Option("public_garnets", False, "Publish cap purchases in the public report.", ruling="A39",
               kind="display"),
        Option("endgame_full_reveal", False, "Publish every inventory at the end of the MM.", ruling="(c)",
               kind="display"),
    ),
    tables=(TableSpec(BOARD_TABLE, "board.csv",
                      "The 7x7 ship (A1): a header row, then 7 rows of a row number and 7 room labels: "
                      "1A..13C, R S T U W X Y Z, P and V, each exactly once."),),
)
DEFAULTS: dict[str, Any] = SPEC.default_options()


# --------------------------------------------------------------------- board

def read_board(rect: Sequence[Sequence[str]]) -> tuple[list[list[str]], list[str]]:
    """The 7x7 grid of labels from the host's table, and sentences about what is wrong."""
    problems: list[str] = []
    rows = [list(r) for r in rect]
    if rows:
        rows = rows[1:]  # header row
    rows = [r for r in rows if any(clean(v) for v in r)]
    grid: list[list[str]] = []
    for i, r in enumerate(rows, start=1):
        cells = [clean(v).upper() for v in r]
        while cells and cells[-1] == "":
            cells.pop()
        labels = cells[1:]  # the first column is the row number
        if len(labels) != SIZE or any(not v for v in labels):
            problems.append(f"{BOARD_TABLE}: data row {i} has {len([v for v in labels if v])} room labels; "
                            f"each of the {SIZE} rows needs a row number then exactly {SIZE} labels")
        grid.append(labels)
    if len(rows) != SIZE:
        problems.append(f"{BOARD_TABLE}: {len(rows)} data rows found; the ship needs exactly {SIZE} rows of "
                        f"{SIZE} rooms under the header row")
    where: dict[str, list[str]] = {}
    for i, r in enumerate(grid, start=1):
        for j, v in enumerate(r, start=1):
            if v:
                where.setdefault(v, []).append(f"row {i} column {j}")
    unknown = sorted(v for v in where if v not in ROOMS)
    if unknown:
        problems.append(f"{BOARD_TABLE}: unknown room label(s) {', '.join(unknown)}; use only 1A..13C, "
                        f"R, S, T, U, W, X, Y, Z, P and V")
    doubled = [v for v in ROOMS if len(where.get(v, ())) > 1]
    if doubled:
        problems.append(f"{BOARD_TABLE}: doubled room(s): " + "; ".join(
            f"{v} at {' and '.join(where[v])}" for v in doubled) + "; each room appears exactly once")
    missing = [v for v in ROOMS if v not in where]
    if missing:
        problems.append(f"{BOARD_TABLE}: missing room(s) {', '.join(missing)}; put each in one cell "
                        "(39 component rooms, 8 bonus rooms, P and V)")
    return grid, problems


@dataclass(frozen=True)
class Board:
    grid: tuple[tuple[str, ...], ...]

    @classmethod
    def of(cls, state: State) -> "Board":
        return _board(tuple(tuple(r) for r in state["board"]))

    @functools.cached_property
    def _where(self) -> dict[str, tuple[int, int]]:
        """Each label's cell (the first, reading row by row): every move and plan looks rooms up."""
        where: dict[str, tuple[int, int]] = {}
        for i, r in enumerate(self.grid):
            for j, v in enumerate(r):
                where.setdefault(v, (i, j))
        return where

    @functools.cached_property
    def _lines(self) -> dict[tuple[str, str], list[str] | None]:
        return {}

    def pos(self, label: str) -> tuple[int, int]:
        return self._where[label]

    def at(self, i: int, j: int) -> str | None:
        if 0 <= i < SIZE and 0 <= j < SIZE:
            return self.grid[i][j]
        return None

    def neighbour(self, label: str, side: str) -> str | None:
        i, j = self.pos(label)
        di, dj = DIRECTIONS[side]
        return self.at(i + di, j + dj)

    def line(self, src: str, dst: str) -> list[str] | None:
        """Rooms stepped through from src to dst along a row or column (dst included), or None."""
        try:
            found = self._lines[(src, dst)]
        except KeyError:
            found = self._lines[(src, dst)] = self._line(src, dst)
        return None if found is None else list(found)

    def _line(self, src: str, dst: str) -> list[str] | None:
        (a, b), (c, d) = self.pos(src), self.pos(dst)
        if a != c and b != d:
            return None
        if (a, b) == (c, d):
            return []
        di = (c > a) - (c < a)
        dj = (d > b) - (d < b)
        out, i, j = [], a, b
        while (i, j) != (c, d):
            i, j = i + di, j + dj
            out.append(self.grid[i][j])
        return out

    def same_line(self, label: str) -> list[str]:
        i, j = self.pos(label)
        return [self.grid[i][k] for k in range(SIZE) if k != j] + [self.grid[k][j] for k in range(SIZE) if k != i]


@functools.lru_cache(maxsize=8)   # the same ship every round: its lookups are kept with it
def _board(grid: tuple[tuple[str, ...], ...]) -> Board:
    return Board(grid)


def _round_copy(state: State) -> State:
    """The state a round resolves into. Only what a round writes in place is copied (a JSON round trip of
    the whole state cost more): the crewmates and their items, the per-player lists and flags, the
    lists it appends to. The board, options and players are only read; balances and the end are replaced."""
    st = dict(state)
    st["crew"] = {p: [{**c, "items": [dict(it) for it in c["items"]]} for c in crew]
                  for p, crew in state["crew"].items()}
    st["components"] = {p: list(v) for p, v in state["components"].items()}
    for key in ("activated", "history", "walls", "plants"):
        if key in st:
            st[key] = list(st[key])
    for key in ("disabled", "disable_used", "claimed", "vault_used"):
        if key in st:
            st[key] = dict(st[key])
    return st


def edge(a: str, b: str) -> str:
    """A wall is stored as the shared edge of two rooms (A2)."""
    return "|".join(sorted((a, b)))


def path_crosses_wall(board: Board, src: str, path: Sequence[str], walls: Sequence[str]) -> bool:
    prev = src
    ws = set(walls)
    for room in path:
        if edge(prev, room) in ws:
            return True
        prev = room
    return False


# --------------------------------------------------------------------- crew helpers

def _usable(crew: Mapping[str, Any], letter: str, r: int) -> bool:
    """The crewmate carries bonus `letter`, won before round r (A12), with a use left (A13)."""
    for it in crew["items"]:
        if it["item"] == letter and it["got"] < r and (it["uses"] is None or it["uses"] > 0):
            return True
    return False


def _carries(crew: Mapping[str, Any], letter: str) -> bool:
    return any(it["item"] == letter for it in crew["items"])


def _use(crew: dict, letter: str) -> None:
    for it in crew["items"]:
        if it["item"] == letter and it["uses"] is not None and it["uses"] > 0:
            it["uses"] -= 1
            return


def _uses_left(crew: Mapping[str, Any], letter: str) -> int | None:
    for it in crew["items"]:
        if it["item"] == letter:
            return it["uses"]
    return None


def item_uses(players: Sequence[str], player: str) -> tuple[str, ...]:
    """Every item-use text a player can type (the dropdown's full vocabulary)."""
    return (BANANA_USE, WIWAXIA_USE) + WALL_USES + tuple(f"XComm with {p}" for p in players if p != player)


def _and(names: Sequence[str]) -> str:
    """ "Ann", "Ann and Bo", "Ann, Bo and Cy". """
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


_ENERGY_WORDS = tuple(str(n) for n in range(0, 100))   # what an Energy cell may hold, for _several
_SEPARATORS = re.compile(r"\s*(?:,|;|/|&|\+|\band\b|\s)\s*", re.IGNORECASE)


def _several(text: str, choices: Sequence[str]) -> list[str]:
    """The items of a cell that names two or more of `choices` ("3C, 4B", "2 and 3"); [] otherwise."""
    parts = [x for x in _SEPARATORS.split(text) if x]
    if len(parts) < 2:
        return []
    hits = [match_choice(x, choices) for x in parts]
    return [h for h in hits if h] if all(hits) else []


# --------------------------------------------------------------------- planning (validation, A9 steps 1-6)

_Prob = tuple  # (field, value, allowed, reason, default)


def _not_here(name: str, room: str, pos: str, plan: Mapping[str, Any]) -> str:
    """Why `room` is not where the crewmate ends (E11), in the player's terms."""
    refused = plan.get("move_refused")
    if refused and refused[0] == room:
        return f"the move to {room} was refused, so {name} stays in {pos}"
    toe = plan.get("toe_refused")
    if toe and len(toe) > 2 and toe[2] == room:
        return f"the Take Back Toe step to {room} was refused, so {name} ends in {pos}"
    return f"{name} ends its movement in {pos}, not {room}"


def plan_player(state: State, player: str, intents: Sequence[Mapping[str, Any]], caps: Sequence[int],
                opts: Mapping[str, Any]) -> tuple[list[dict], list[_Prob]]:
    """Check one player's intents step by step (banana, move, Toe, activation or disable,
    end-of-round items) against their own and public state only (A38), dropping each
    invalid step (deadline fallback, section e). Returns the plans and the problems."""
    r = state["round"]
    board = Board.of(state)
    walls = state["walls"]
    activated = set(state["activated"])
    probs: list[_Prob] = []
    plans: list[dict] = []
    for i, crew in enumerate(state["crew"][player]):
        it = intents[i] if i < len(intents) else {}
        name = crew["name"]
        e, pos, cap = crew["energy"], crew["pos"], caps[i]
        plan: dict[str, Any] = {"start": pos, "energy_start": e, "cap": cap, "banana": False, "banana_gain": 0,
                                "banana_lost": 0, "move": None, "move_path": [], "move_refused": it.get("refused_move"),
                                "toe": None, "toe_from": None, "toe_refused": it.get("refused_toe"), "room": None,
                                "bid": None, "plant": None, "disable": None, "disable_energy": 0, "wiwaxia": False,
                                "wall": None, "xcomm": None}
        # banana (A9 step 3, R72, E10); the excess over the cap is lost (A10)
        if it.get("banana"):
            if _usable(crew, "Y", r):
                plan["banana"] = True
                full = e + BANANA_ENERGY
                now = full if opts["banana_can_exceed_cap"] else min(cap, full)
                plan["banana_gain"], plan["banana_lost"] = now - e, full - now
                e = now
            else:
                probs.append((f"{name} item", BANANA_USE, "items this crewmate carries",
                              f"{name} carries no uneaten Yellow Banana (won before this round)", "not eaten"))
        # move (R19-R21, A3-A5; E04-E06)
        dst = it.get("move_to")
        if dst and dst != pos:
            path = board.line(pos, dst)
            refusal = None
            if path is None:
                refusal = (f"a room in the same row or column as {pos}",
                           f"{dst} is not in the same row or column as {pos}")
            elif path_crosses_wall(board, pos, path, walls):
                refusal = ("a room reached without crossing a wall", f"the way from {pos} to {dst} crosses a wall")
            elif len(path) > e:
                refusal = (f"a room at most {e} tiles away (1 Energy a tile)",
                           f"the move costs {len(path)} Energy and {name} has {e}")
            if refusal:
                probs.append((f"{name} move_to", dst, refusal[0], refusal[1], f"{name} stays in {pos}"))
                plan["move_refused"] = [dst, refusal[1]]
            else:
                plan["move"], plan["move_path"] = dst, list(path)
                e -= len(path)
                pos = dst
        # Take Back Toe (R68, A18; E07-E09)
        side = it.get("toe")
        if side:
            nxt = board.neighbour(pos, side)
            refusal = None
            if not _usable(crew, "T", r):
                refusal = ("blank (only a Take Back Toe carrier steps)", f"{name} does not carry the Take Back Toe")
            elif opts["toe_requires_real_move"] and plan["move"] is None:
                refusal = ("a step after a normal move", "the Toe step needs a normal move first (host option)")
            elif nxt is None or edge(pos, nxt) in walls:
                refusal = ("a direction that stays on the ship without a wall",
                           f"{SIDE_WORDS[side]} of {pos} is {'a wall' if nxt else 'the hull'}")
            elif e < 1:
                refusal = ("a step with 1 Energy left", f"{name} has no Energy left for the step")
            if refusal:
                probs.append((f"{name} toe_step", side, refusal[0], refusal[1], "no extra step"))
                plan["toe_refused"] = [side, refusal[1], nxt or ""]
            else:
                plan["toe"], plan["toe_from"] = side, pos
                e -= 1
                pos = nxt
        plan["final"] = pos
        plan["energy_after_moves"] = e
        # activation xor disable (A6, A7; E11-E19): each names its room
        room, bid, dis = it.get("room"), it.get("energy"), it.get("disable")
        if bid is not None and dis and not opts["remote_disable"]:
            probs.append((f"{name} disable_room", dis, "either an activation or a disable",
                          "a crewmate cannot activate and disable in one round", "no disable; the activation stands"))
            dis = None
        if room is not None and bid is not None:
            need = VAULT_MIN if room == VAULT else 1
            span = f"a whole number from {need} to {e}" if e >= need else f"blank ({name} has {e} Energy left)"
            bad = None
            if room != pos:  # E11
                bad = ("activate_room", room, f"the room {name} ends in ({pos})", _not_here(name, room, pos, plan),
                       "no activation; no Energy spent")
            elif bid < need:
                bad = ("energy", str(bid), span, f"at least {need} Energy is needed to activate {pos}",
                       f"no activation of {pos}")
            elif bid > e:
                bad = ("energy", str(bid), span, f"{name} has {e} Energy in {pos} after moving",
                       f"no activation of {pos}")
            elif room_kind(pos) in ("component", "bonus") and pos in activated:
                bad = ("activate_room", pos, "a room not activated yet",
                       f"{pos} was already activated and cannot be activated again", f"no activation of {pos}")
            elif pos == PARASITE_ROOM and state["claimed"][player]:
                bad = ("activate_room", pos, "a room other than P",
                       "you have already claimed your parasite (once per game)", f"no activation of {pos}")
            elif pos == VAULT and (not crew["parasite"] or state["vault_used"][player]):
                bad = ("activate_room", pos, "a room other than V",
                       f"{name} carries no parasite" if not crew["parasite"]
                       else "you have already activated the Vault (once per game)", f"no activation of {pos}")
            elif pos == VAULT and opts["plant_requires_target"] and not it.get("plant"):
                bad = ("plant_sequence", "", "Frontier, Greenhouse or Conductor", "a plant must name its Sequence",
                       f"no activation of {pos}")
            if bad:
                probs.append((f"{name} {bad[0]}",) + bad[1:])
            else:
                plan["room"], plan["bid"] = pos, bid
                plan["plant"] = it.get("plant") if pos == VAULT else None
                e -= bid
        plan["energy_after_bid"] = e
        if dis:
            bad = None
            if not opts["remote_disable"] and dis != pos:  # E11
                bad = (f"the room {name} ends in ({pos})", _not_here(name, dis, pos, plan))
            elif state["disable_used"][player]:
                bad = ("blank", "you have already used your once-per-game disable")
            elif dis in (PARASITE_ROOM, VAULT):
                bad = ("a room other than P and V", "the Parasite Room and the Vault cannot be disabled")
            elif dis in activated:
                bad = ("a room not activated yet", f"{dis} is already activated")
            elif e < 1:
                bad = ("blank", "disabling needs at least 1 Energy")
            if bad:
                probs.append((f"{name} disable_room", dis, bad[0], bad[1], "no disable"))
            else:
                plan["disable"], plan["disable_energy"] = dis, e
                e = 0
        plan["energy_left"] = e
        # end-of-round and out-of-band items (E25, E26, E28)
        if it.get("wiwaxia"):
            if _usable(crew, "W", r) or _winnable(state, crew, "W", pos, plan, opts):
                plan["wiwaxia"] = True
            else:
                probs.append((f"{name} item", WIWAXIA_USE, "items this crewmate carries",
                              f"{name} carries no Wiwaxia with a use left (won before this round)", "no drain"))
        side = it.get("wall")
        if side:
            nxt = board.neighbour(pos, side)
            if not (_usable(crew, "S", r) or _winnable(state, crew, "S", pos, plan, opts)):
                probs.append((f"{name} item", f"Summoner wall {side}", "items this crewmate carries",
                              f"{name} carries no unused Summoner's Meme (won before this round)", "no wall"))
            elif nxt is None:
                probs.append((f"{name} item", f"Summoner wall {side}", "a side of the room inside the ship",
                              f"the {SIDE_WORDS[side]} side of {pos} is the hull", "no wall"))
            elif edge(pos, nxt) in walls:
                probs.append((f"{name} item", f"Summoner wall {side}", "a side without a wall",
                              f"the {SIDE_WORDS[side]} side of {pos} already has a wall", "no wall"))
            else:
                plan["wall"] = side
        other = it.get("xcomm")
        if other:
            here = [c for c in state["crew"].get(other, []) if c["pos"] == crew["pos"]]
            if not _usable(crew, "X", r):
                probs.append((f"{name} item", f"XComm with {other}", "items this crewmate carries",
                              f"{name} carries no unused XCommunications Device", "no XComm"))
            elif not here:
                probs.append((f"{name} item", f"XComm with {other}", "a player whose crewmate shares the room",
                              f"no crewmate of {other} shared {crew['pos']} with {name} at the start of the round",
                              "no XComm"))
            else:
                plan["xcomm"] = other
        plans.append(plan)
    # both crewmates disabling in one round (E21)
    if len(plans) == 2 and plans[0]["disable"] and plans[1]["disable"]:
        for i, plan in enumerate(plans):
            name = state["crew"][player][i]["name"]
            probs.append((f"{name} disable_room", plan["disable"], "a disable by one crewmate only",
                          "a player disables once per game and both crewmates asked", "no disable"))
            plan["disable"] = None
            plan["disable_energy"] = 0
            plan["energy_left"] = plan["energy_after_bid"]
    return plans, probs


def _winnable(state: State, crew: Mapping[str, Any], letter: str, pos: str, plan: Mapping[str, Any],
              opts: Mapping[str, Any]) -> bool:
    """Under same_round_bonus_use (A12), an end-of-round use of S or W by a crewmate that
    bids on that bonus room this round; it only happens if the crewmate wins it."""
    return (bool(opts["same_round_bonus_use"]) and pos == letter and plan["bid"] is not None
            and letter not in state["activated"] and not _carries(crew, letter))


def _intent_from_plan(plan: Mapping[str, Any]) -> dict:
    return {"banana": plan["banana"], "move_to": plan["move"], "toe": plan["toe"], "room": plan["room"],
            "energy": plan["bid"], "disable": plan["disable"], "wiwaxia": plan["wiwaxia"], "wall": plan["wall"],
            "xcomm": plan["xcomm"], "plant": plan["plant"], "refused_move": plan["move_refused"],
            "refused_toe": plan["toe_refused"]}


def _caps(state: State, player: str) -> list[int]:
    return [c["cap"] for c in state["crew"][player]]


# --------------------------------------------------------------------- end of the MM (section d)

def plant_verdicts(plants: Sequence[Mapping[str, Any]], seqs: Sequence[str],
                   opts: Mapping[str, Any]) -> list[tuple[str, bool]]:
    """The verdict and improper flag of each plant of one round (R53, R58, R59, R62; A22, A24, A25).

    >>> plant_verdicts([{"player": "a", "energy": 4, "seq": None}, {"player": "b", "energy": 3, "seq": None}],
    ...                ["C"], DEFAULTS)
    [('correct', False), ('outbid', True)]
    >>> plant_verdicts([{"player": "a", "energy": 4, "seq": None}], [], DEFAULTS)
    [('no_sequence', True)]
    """
    if not seqs:
        return [("no_sequence", True)] * len(plants)
    on_target = [not opts["plant_requires_target"] or pl.get("seq") in seqs for pl in plants]
    energies = [pl["energy"] for pl, ok in zip(plants, on_target) if ok]
    top = max(energies) if energies else None
    at_top = energies.count(top) if energies else 0
    out = []
    for pl, ok in zip(plants, on_target):
        if not ok:
            verdict = "wrong_target"
        elif pl["energy"] == top:
            verdict = "correct" if at_top == 1 else "tied"
        else:
            verdict = "outbid"
        improper = verdict != "correct" and not (verdict == "tied" and not opts["tied_plants_are_improper"])
        out.append((verdict, improper))
    return out


def _normal_ranking(comps: Mapping[str, Sequence[str]], seqs: Sequence[str], opts: Mapping[str, Any]):
    """The normal winner's key (higher is better) and its description (R45-R48, R50, A30)."""
    if not seqs:
        return (lambda p: (total_value(comps[p]),)), "the highest total Sequence Value after the last round"
    if len(seqs) == 1:
        s = seqs[0]
        return ((lambda p: (pieces(comps[p], s), sequence_value(comps[p], s))),
                f"most {SEQUENCES[s]} pieces, then {SEQUENCES[s]} Sequence Value")

    def key(p):
        vals = [sequence_value(comps[p], s) for s in seqs]
        if opts["multi_seq_use_piece_count"]:
            return (max(pieces(comps[p], s) for s in seqs), max(vals), sum(vals))
        return (max(vals), sum(vals))
    basis = "the highest single Sequence Value, then the sum over the activated Sequences"
    if opts["multi_seq_use_piece_count"]:
        basis = "most pieces in one activated Sequence, then " + basis
    return key, basis


def _ec_metric(comps: Mapping[str, Sequence[str]], seqs: Sequence[str], opts: Mapping[str, Any]):
    """The EC metric, lower goes (R51, R61, A27, A31), and its description."""
    if not seqs:
        return (lambda p: total_value(comps[p])), "total Sequence Value"
    if len(seqs) == 1 or opts["multi_seq_ec_metric"] == "sum":
        name = ("Sequence Value in the activated Sequence" if len(seqs) == 1
                else "sum of Sequence Values over the activated Sequences")
        return (lambda p: sum(sequence_value(comps[p], s) for s in seqs)), name
    return (lambda p: max(sequence_value(comps[p], s) for s in seqs)), "best Sequence Value among the activated Sequences"


def _group(players: Sequence[str], key, best: bool) -> list[str]:
    """The players with the best (or worst) key, in the given order."""
    if not players:
        return []
    keys = {p: key(p) for p in players}
    target = max(keys.values()) if best else min(keys.values())
    return [p for p in players if keys[p] == target]


def gt_pick(group: Sequence[str], ranking: Sequence[str] | None, best: bool) -> str | None:
    """The Gamewide Tiebreak's pick in `group` from the host's ranking (best first): the first
    for a win, the last for the Elimination Candidate; None if the ranking does not rank them all.

    >>> gt_pick(["Bo", "Ann"], ["Ann", "Bo"], best=True), gt_pick(["Bo", "Ann"], ["Ann", "Bo"], best=False)
    ('Ann', 'Bo')
    """
    if not ranking:
        return None
    order = [p for p in ranking if p in group]
    if sorted(order) != sorted(group):
        return None
    return order[0] if best else order[-1]


def _elimination(players: Sequence[str], pw: str | None, nw: str, improper: Sequence[str], metric, mname: str,
                 nw_key, opts: Mapping[str, Any],
                 decisions: Mapping[str, Any]) -> tuple[str | None, str, Any, str]:
    """The EC once the normal winner `nw` is known (section d step 5): (EC or None, the rule
    that chose them, the DecisionRequest of the Gamewide Tiebreak when a tie needs it, the rule's
    code in EC_RULES)."""
    winner = pw or nw
    if pw and pw != nw:  # R60
        return nw, "the player who would have won without the Parasite", None, "would_have_won"
    if pw and pw == nw:  # A28
        mode = opts["planter_was_winner_ec"]
        if mode == "literal":
            return pw, "the planter, who would have won anyway", None, "planter_anyway"
        if mode == "runner_up":
            group = _group([p for p in players if p != pw], nw_key, best=True)
            if len(group) == 1:
                return group[0], "the runner-up", None, "runner_up"
            req = DecisionRequest(
                GT_RUNNER_UP, f"Gamewide Tiebreak: {_and(group)} are tied for runner-up. Rank them, best first: "
                "the first goes to the Elimination Candidate.", DecisionKind.RANKING, tuple(group),
                default="no Elimination Candidate yet")
            pick = gt_pick(group, decisions.get(GT_RUNNER_UP), best=True)
            return (pick, "the runner-up, by the Gamewide Tiebreak", req, "runner_up") if pick else (None, "", req, "")
    excluded = set() if opts["winner_can_be_ec"] else {winner}
    candidates = [p for p in improper if p not in excluded]
    if candidates:  # R61, R63, A25
        rule, code = f"the improper planter with the lowest {mname}", "improper_planter"
    else:  # R51, A26
        candidates = [p for p in players if p not in excluded]
        rule, code = f"the lowest {mname}" + (" among the other players" if excluded else ""), "lowest_metric"
    group = _group(candidates, metric, best=False)
    if len(group) == 1:
        return group[0], rule, None, code
    # Asked while the tie stands, entered or not, so that an entered ranking can still be corrected.
    req = DecisionRequest(
        GT_EC, f"Gamewide Tiebreak: {_and(group)} are tied for the Elimination Candidate ({rule}). Rank them, best "
        "first: the last goes to the Elimination Candidate.", DecisionKind.RANKING, tuple(group),
        default="no Elimination Candidate yet")
    pick = gt_pick(group, decisions.get(GT_EC), best=False)
    return (pick, rule + ", then the Gamewide Tiebreak", req, code) if pick else (None, "", req, "")


def decide(players: Sequence[str], comps: Mapping[str, Sequence[str]], seqs: Sequence[str],
           plants: Sequence[Mapping[str, Any]], opts: Mapping[str, Any],
           decisions: Mapping[str, Any] | None = None) -> dict:
    """Winner, Token of Life and EC (section d). `seqs`: letters of the Sequences activated in the
    final round (empty: the round limit). `plants`: every plant of the match with its verdict
    (plant_verdicts). `decisions`: the Gamewide Tiebreak rankings entered so far (R49, A29);
    a tie they do not settle leaves the result pending and asks for one in "requests"."""
    decisions = decisions or {}
    players = sorted(players)
    reasons: list[str] = []
    requests: list[DecisionRequest] = []
    nw_key, basis = _normal_ranking(comps, seqs, opts)
    nw_group = _group(players, nw_key, best=True)
    nw = nw_group[0] if len(nw_group) == 1 else gt_pick(nw_group, decisions.get(GT_WINNER), best=True)
    pw_plant = next((pl for pl in plants if pl.get("verdict") == "correct"), None)
    pw = pw_plant["player"] if pw_plant else None
    if len(nw_group) > 1:
        tied = _and(nw_group)
        if pw:
            requests.append(DecisionRequest(
                GT_WINNER, f"Gamewide Tiebreak: {tied} are tied for who would have won without the Parasite "
                f"({basis}). Rank them, best first: the first would have won and goes to the Elimination Candidate.",
                DecisionKind.RANKING, tuple(nw_group), default="no Elimination Candidate yet"))
        else:
            requests.append(DecisionRequest(
                GT_WINNER, f"Gamewide Tiebreak: {tied} are tied for the win ({basis}). Rank them, best first: the "
                "first wins the Main Match and its Token of Life.", DecisionKind.RANKING, tuple(nw_group),
                default=f"no winner yet: {tied} are tied at the top and no Token of Life is given"))
    tied_plants = [pl for pl in plants if pl.get("verdict") == "tied"]
    if tied_plants:
        reasons.append(f"Plants tied at {tied_plants[0]['energy']} Energy by "
                       f"{_and(sorted(pl['player'] for pl in tied_plants))}: the planting fails.")
    if pw:
        winner, method = pw, "parasite"
        reasons.append(f"{pw} planted the Parasite with the most Energy ({pw_plant['energy']}) in the round the "
                       "Sequence was activated and wins the Main Match.")
        if len(nw_group) > 1:
            reasons.append(f"Without the Parasite, {_and(nw_group)} are tied on {basis}: "
                           + (f"the Gamewide Tiebreak puts {nw} first." if nw else "the Gamewide Tiebreak decides."))
    else:
        winner, method = nw, "normal"
        if nw and len(nw_group) > 1:
            reasons.append(f"{_and(nw_group)} are tied on {basis}; the Gamewide Tiebreak puts {nw} first: {nw} wins.")
        elif nw:
            reasons.append(f"{nw} wins by {basis}.")
        else:
            reasons.append(f"{_and(nw_group)} are tied on {basis}: the Gamewide Tiebreak decides the winner.")
    winners = [winner] if winner else []   # a tie waiting for the Gamewide Tiebreak names nobody yet
    improper = sorted({pl["player"] for pl in plants if pl.get("improper")})
    metric, mname = _ec_metric(comps, seqs, opts)
    if nw is not None:
        ec, ec_rule, req, ec_code = _elimination(players, pw, nw, improper, metric, mname, nw_key, opts, decisions)
        ec_by_gt = ec is not None and req is not None   # the ranking is asked for exactly while a tie stands
        if req is not None:
            requests.append(req)
    else:  # the EC may not depend on who wins the tie: settle it if every outcome agrees
        found = [_elimination(players, pw, cand, improper, metric, mname, nw_key, opts, decisions)
                 for cand in nw_group]
        ec, ec_rule, req, ec_code = found[0] if len({f[0] for f in found}) == 1 else (None, "", None, "")
        ec_by_gt = ec is not None and req is not None
        if ec is None:
            reasons.append("The Elimination Candidate is known once the Gamewide Tiebreak settles the tie above.")
    if ec:
        reasons.append(f"Elimination Candidate: {ec}, {ec_rule}.")
    numbers = {p: _numbers_text(comps[p], seqs) for p in players}
    gt = {p: i for i, p in enumerate(decisions.get(GT_WINNER) or [])}
    order = sorted(players, key=lambda p: (p not in (winners or nw_group), tuple(-x for x in nw_key(p)),
                                           gt.get(p, 99), p))
    return {"winners": winners, "winner": winner, "method": method, "normal_winner": nw, "normal_group": nw_group,
            "ec": ec, "ec_rule": ec_rule, "ec_code": ec_code if ec else "", "ec_by_gt": ec_by_gt,
            "parasite_winner": pw, "parasite_energy": pw_plant["energy"] if pw_plant else None,
            "no_parasite_winner": _no_parasite_winner(plants, seqs) if not pw else "",
            "tied_planters": sorted(pl["player"] for pl in tied_plants), "reasons": reasons, "requests": requests,
            "numbers": numbers, "order": order, "improper": improper, "sequences": list(seqs)}


def _numbers_text(held: Sequence[str], seqs: Sequence[str]) -> str:
    """The numbers behind the result for one player's components (section c)."""
    if not seqs:
        return f"total Sequence Value {total_value(held)} ({len(held)} components)"
    text = "; ".join(f"{SEQUENCES[s]}: {_plural(pieces(held, s), 'piece')}, value {sequence_value(held, s)}"
                     for s in seqs)
    return text + (f"; sum {sum(sequence_value(held, s) for s in seqs)}" if len(seqs) > 1 else "")


def _no_parasite_winner(plants: Sequence[Mapping[str, Any]], seqs: Sequence[str]) -> str:
    """Why no plant won (section d step 3): "round_limit" (no Sequence, so no Parasite win), "tied"
    (the top V Energy tied: every plant fails, A24), "wrong_target" (A22) or "no_plant"."""
    if not seqs:
        return "round_limit"
    verdicts = {pl.get("verdict") for pl in plants}
    return "tied" if "tied" in verdicts else "wrong_target" if "wrong_target" in verdicts else "no_plant"


# --------------------------------------------------------------------- the game

class Skeld(GameRules):
    spec = SPEC

    # ---- standings, read from the facts (core/standings.py) -----------------
    score_unit = "Sequence Value"
    tie_rule = ("most pieces of the activated Sequence, then its Sequence Value; several at once: the best "
                "Sequence Value, then the sum; then the Gamewide Tiebreak (R45-R48); no Sequence after the "
                "last round: the total Sequence Value (R50)")

    outcome_scores_are_totals = False   # the outcome's score is the deciding Sequence's value, not the total

    def round_scores(self, facts):
        """A component's number is what it adds to its holder's Sequence Value (R45, R50)."""
        return ([RoundScore(f.player, f.number) for f in of_type(facts, ComponentGained)]
                + [RoundScore(t.player, None, t.value) for f in of_type(facts, RoundLimitReached) for t in f.standings])

    # ---- setup -------------------------------------------------------------
    def check_tables(self, tables) -> list[str]:
        if BOARD_TABLE not in tables:
            return [f"the {BOARD_TABLE} table is missing; copy templates/skeld/board.csv into a tab named "
                    f"{BOARD_TABLE!r}"]
        return read_board(tables[BOARD_TABLE])[1]

    def setup(self, players, options, tables, rng: Rng) -> State:
        opts = dict(DEFAULTS)
        opts.update(options or {})
        grid, problems = read_board(tables[BOARD_TABLE])
        if problems:
            raise ConfigError("; ".join(problems))
        players = list(players)
        return {
            "round": 0, "finished": False, "players": players, "options": opts, "board": grid,
            "crew": {p: [{"name": f"Crewmate {i + 1}", "pos": None, "energy": START_ENERGY, "items": [],
                          "parasite": False, "cap": BASE_CAP, "raises": 0} for i in range(2)] for p in players},
            "components": {p: [] for p in players}, "activated": [], "history": [],
            "walls": [], "disabled": {}, "disable_used": {p: False for p in players},
            "claimed": {p: False for p in players}, "vault_used": {p: False for p in players},
            "plants": [], "balances": {p: 0 for p in players}, "end": None,
        }

    # ---- forms ---------------------------------------------------------------
    def form(self, state: State, player: str) -> Form:
        crew = state["crew"][player]
        if state["round"] == 0:
            name = Field("name", "Crewmate name", FieldKind.TEXT, required=False,
                         help="up to 30 visible characters without . , or | (blank keeps Crewmate 1 / Crewmate 2)")
            start = Field("start", "Start cell", FieldKind.CHOICE, START_CELLS,
                          help="crewmates start only in these cells")
            return Form(0, "Pregame", (Section("crew", "Your two crewmates", (name, start), rows=2,
                                               row_labels=("Crewmate 1", "Crewmate 2"),
                                               help="Name each crewmate and pick its start cell."),),
                        help=("No room is activated in the pregame.",
                              "A missing start cell is drawn at random."))
        board = Board.of(state)
        opts = state["options"]
        r = state["round"]
        activated = set(state["activated"])
        moves: list[str] = []
        ends: list[str] = []     # every room a crewmate can end its movement in
        for c in crew:
            line = [c["pos"]] + board.same_line(c["pos"])
            moves += [x for x in line if x not in moves]
            ends += [x for x in line if x not in ends]
            if _usable(c, "T", r):
                for x in line:
                    ends += [n for d in DIRECTIONS if (n := board.neighbour(x, d)) and n not in ends]
        moves.sort(key=board.pos)
        ends.sort(key=board.pos)
        can_activate = tuple(x for x in ends if room_kind(x) in ("P", "V") or x not in activated)
        disable_any = tuple(x for x in sorted(ROOMS, key=board.pos) if room_kind(x) not in ("P", "V")
                            and x not in activated)
        uses = ["none"]
        for c in crew:
            if _usable(c, "Y", r) and BANANA_USE not in uses:
                uses.append(BANANA_USE)
            if _usable(c, "W", r) and WIWAXIA_USE not in uses:
                uses.append(WIWAXIA_USE)
            if _usable(c, "S", r):
                uses += [w for w in WALL_USES if w not in uses]
            if _usable(c, "X", r):
                uses += [f"XComm with {p}" for p in state["players"] if p != player and f"XComm with {p}" not in uses]
        top = max(_caps(state, player)) + (BANANA_ENERGY if opts["banana_can_exceed_cap"] else 0)
        fields = [
            Field("move_to", "Move to", FieldKind.CHOICE, tuple(moves), required=False,
                  help="a room in the same row or column; 1 Energy per tile; blank = stay"),
            Field("toe_step", "Take Back Toe step", FieldKind.CHOICE, tuple(DIRECTIONS), required=False,
                  help="N/E/S/W after moving, 1 Energy (Take Back Toe carriers only)"),
            Field("activate_room", "Activate room", FieldKind.CHOICE, can_activate, required=False,
                  help="the room this crewmate ends its movement in; any other room is not activated"),
            Field("energy", "with Energy", FieldKind.INTEGER, minimum=1, maximum=top, required=False,
                  help="spent even if the activation fails; at least 3 at V"),
            (Field("disable_room", "Disable room", FieldKind.CHOICE, disable_any, required=False,
                   help="any room, once per game; uses all Energy left after the activation; not P or V")
             if opts["remote_disable"] else
             Field("disable_room", "Disable room", FieldKind.CHOICE,
                   tuple(x for x in can_activate if room_kind(x) not in ("P", "V")), required=False,
                   help="once per game: the room this crewmate ends in; uses all its Energy; not P or V")),
            Field("item", "Use item", FieldKind.CHOICE, tuple(uses), required=False,
                  help="a bonus this crewmate carries; Energy over the cap from the Yellow Banana is lost"),
            Field("item_2", "Use another item", FieldKind.CHOICE, tuple(uses), required=False,
                  help="a second bonus use this round"),
        ]
        if opts["plant_requires_target"]:
            fields.append(Field("plant_sequence", "Plant on Sequence", FieldKind.CHOICE,
                                tuple(SEQUENCES.values()), required=False, help="needed when activating V"))
        labels = tuple(f"{c['name']} (in {c['pos']}, {c['energy']} Energy)" for c in crew)
        if opts["cap_upgrade_scope"] == "crewmate":
            left = max(2 - c["raises"] for c in crew)
            garn = Section("garnets", "Garnet purchases", (Field(
                "cap_upgrades", "Energy cap raises (3 garnets each)", FieldKind.INTEGER, minimum=0, maximum=left,
                required=False, help="raises this crewmate's cap by 1 each, up to 9"),), rows=2,
                row_labels=tuple(f"{c['name']} (cap {c['cap']})" for c in crew),
                help="Raises one crewmate's cap.")
        else:
            left = 2 - crew[0]["raises"]
            garn = Section("garnets", "Garnet purchases", (Field(
                "cap_upgrades", "Energy cap raises (3 garnets each)", FieldKind.INTEGER, minimum=0, maximum=left,
                required=False, help=f"cap now {crew[0]['cap']}; at most {left} more (cap 9 max)"),),
                help="Raises the cap of both crewmates.")
        return Form(r, f"Round {r}", (
            Section("crew", "Your crewmates", tuple(fields), rows=2, row_labels=labels,
                    help="Order: item (banana) > move > Toe step > activate or disable > drains and walls."),
            garn,
        ), help=(f"Round {r} of {opts['max_rounds']}.",
                 "Name the room you activate (or disable): the room the crewmate ends its movement in. If the "
                 "crewmate ends elsewhere (a refused move), nothing is activated and no Energy is spent.",
                 "Energy over what is left after moving, or a move through a wall, is refused."))

    # ---- parsing -------------------------------------------------------------
    def parse(self, state: State, player: str, raw: RawSubmission) -> Submission:
        if state["round"] == 0:
            return self._parse_pregame(state, player, raw)
        opts = state["options"]
        problems: list[Problem] = []
        crew = state["crew"][player]
        rows = list(raw.get("crew", []) or [])
        intents: list[dict] = []
        all_uses = item_uses(state["players"], player)

        def syn(field, value, allowed, reason, default):
            problems.append(Problem(ProblemKind.SYNTAX, player, field, value, allowed, reason, default))

        for i, c in enumerate(crew):
            row = rows[i] if i < len(rows) and rows[i] else {}
            name = c["name"]
            it: dict[str, Any] = {"banana": False, "move_to": None, "toe": None, "room": None, "energy": None,
                                  "disable": None, "wiwaxia": False, "wall": None, "xcomm": None, "plant": None}
            text = clean(row.get("move_to", ""))
            if text:
                hit = match_choice(text, ROOMS)
                if is_formula(text) or hit is None:
                    syn(f"{name} move_to", text, "a room label of the ship (1A..13C, R..Z, P, V)",
                        "a formula" if is_formula(text) else "not a room of the ship", f"{name} stays in {c['pos']}")
                else:
                    it["move_to"] = hit
            text = clean(row.get("toe_step", ""))
            if text:
                hit = match_choice(text[:1] if text.casefold() in ("north", "east", "south", "west") else text,
                                   DIRECTIONS)
                if is_formula(text) or hit is None:
                    syn(f"{name} toe_step", text, "N, E, S or W", "not a direction", "no extra step")
                else:
                    it["toe"] = hit
            # activation: a room and an Energy ("Activate Room 3C with 2 Energy", R42), one per crewmate (R30)
            room_text, energy_text = clean(row.get("activate_room", "")), clean(row.get("energy", ""))
            room = energy = None
            several = False
            if room_text:
                if is_formula(room_text):
                    syn(f"{name} activate_room", room_text, "a room of the ship", "a formula", "no activation")
                elif (room := match_choice(room_text, ROOMS)) is None:
                    if _several(room_text, ROOMS):
                        several = True
                        problems.append(Problem(ProblemKind.ILLEGAL, player, f"{name} activate_room", room_text,
                                                f"one room: the room {name} ends in",
                                                "a crewmate activates at most one room a round", "no activation"))
                    else:
                        syn(f"{name} activate_room", room_text, "a room of the ship", "not a room of the ship",
                            "no activation")
            if energy_text:
                energy = None if is_formula(energy_text) else parse_int(energy_text)
                if not is_formula(energy_text) and _several(energy_text, _ENERGY_WORDS):
                    energy = None
                    if not several:
                        problems.append(Problem(ProblemKind.ILLEGAL, player, f"{name} energy", energy_text,
                                                "one whole number of Energy",
                                                "a crewmate activates at most one room a round", "no activation"))
                    several = True
                elif energy is None:
                    syn(f"{name} energy", energy_text, "a whole number of Energy", int_reason(energy_text),
                        "no activation")
            if several:
                pass   # every activation of this crewmate is dropped (E18)
            elif room is not None and energy is not None:
                it["room"], it["energy"] = room, energy
            elif room is not None and not energy_text:
                problems.append(Problem(ProblemKind.MISSING, player, f"{name} energy", "",
                                        "a whole number of Energy (at least 1, 3 at V)",
                                        f"activating {room} needs its Energy", "no activation"))
            elif energy is not None and not room_text:
                problems.append(Problem(ProblemKind.MISSING, player, f"{name} activate_room", "",
                                        f"the room {name} ends in",
                                        "an activation names its room", "no activation; no Energy spent"))
            text = clean(row.get("disable_room", ""))
            if text and text.casefold() not in ("no", "none", "-"):
                room = None if is_formula(text) else match_choice(text, ROOMS)
                if room is not None:
                    it["disable"] = room
                elif not is_formula(text) and yes_no(text):
                    problems.append(Problem(ProblemKind.ILLEGAL, player, f"{name} disable_room", text,
                                            "the room to disable", "a disable names its room", "no disable"))
                else:
                    syn(f"{name} disable_room", text, "a room of the ship",
                        "a formula" if is_formula(text) else "not a room of the ship", "no disable")
            for key in ("item", "item_2"):
                text = clean(row.get(key, ""))
                if not text or text.casefold() == "none":
                    continue
                hit = None if is_formula(text) else match_choice(text, all_uses)
                if hit is None and not is_formula(text):
                    alias = {"banana": BANANA_USE, "yellow banana": BANANA_USE, "eat banana": BANANA_USE,
                             "wiwaxia": WIWAXIA_USE}
                    hit = alias.get(text.casefold())
                if hit is None:
                    syn(f"{name} {key}", text, "one of " + ", ".join(all_uses),
                        "a formula" if is_formula(text) else "not an item use", "no item used")
                    continue
                dup = ((hit == BANANA_USE and it["banana"]) or (hit == WIWAXIA_USE and it["wiwaxia"])
                       or (hit in WALL_USES and it["wall"]) or (hit.startswith("XComm") and it["xcomm"]))
                if dup:
                    problems.append(Problem(ProblemKind.ILLEGAL, player, f"{name} {key}", text,
                                            "a different item use", "that item is already used this round "
                                            "by this crewmate (single use per round)", "ignored"))
                elif hit == BANANA_USE:
                    it["banana"] = True
                elif hit == WIWAXIA_USE:
                    it["wiwaxia"] = True
                elif hit in WALL_USES:
                    it["wall"] = hit[-1]
                else:
                    it["xcomm"] = hit[len("XComm with "):]
            if opts["plant_requires_target"]:
                text = clean(row.get("plant_sequence", ""))
                if text:
                    hit = None if is_formula(text) else match_choice(text, list(SEQUENCES.values()))
                    if hit is None:
                        hit_letter = None if is_formula(text) else match_choice(text, list(SEQUENCES))
                        hit = SEQUENCES[hit_letter] if hit_letter else None
                    if hit is None:
                        syn(f"{name} plant_sequence", text, "Frontier, Greenhouse or Conductor",
                            "not a Sequence", "no Sequence named")
                    else:
                        it["plant"] = [k for k, v in SEQUENCES.items() if v == hit][0]
            intents.append(it)
        # cap raises (R17, A11; E27: the balance is checked at resolution)
        grow = list(raw.get("garnets", []) or [])
        per_crew = opts["cap_upgrade_scope"] == "crewmate"
        upgrades = [0, 0]
        for i in range(2 if per_crew else 1):
            text = clean(grow[i].get("cap_upgrades", "")) if i < len(grow) and grow[i] else ""
            left = 2 - crew[i]["raises"]
            field = f"{crew[i]['name']} cap_upgrades" if per_crew else "cap_upgrades"
            if not text:
                continue
            n = None if is_formula(text) else parse_int(text)
            if n is None:
                syn(field, text, f"a whole number from 0 to {left}", int_reason(text), "no cap raise")
            elif not 0 <= n <= left:
                problems.append(Problem(ProblemKind.ILLEGAL, player, field, text, f"a whole number from 0 to {left}",
                                        f"the cap can rise to 9 at most (now {crew[i]['cap']})", "no cap raise"))
            elif per_crew:
                upgrades[i] = n
            else:
                upgrades = [n, n]
        caps = [c["cap"] + n for c, n in zip(crew, upgrades)]
        plans, probs = plan_player(state, player, intents, caps, opts)
        for field, value, allowed, reason, default in probs:
            problems.append(Problem(ProblemKind.ILLEGAL, player, field, value, allowed, reason, default))
        values = {"upgrades": upgrades, "crew": [_intent_from_plan(p) for p in plans]}
        return Submission(player, values, tuple(problems), raw)

    def _parse_pregame(self, state: State, player: str, raw: RawSubmission) -> Submission:
        problems: list[Problem] = []
        rows = list(raw.get("crew", []) or [])
        out = []
        names_seen: list[str] = []
        fallback = state["options"]["pregame_fallback"]
        dflt = "a random allowed cell" if fallback == "random" else fallback  # A33
        for i in range(2):
            row = rows[i] if i < len(rows) and rows[i] else {}
            item: dict[str, Any] = {"name": None, "start": None}
            name = clean(row.get("name", ""))
            if name:
                bad = (is_formula(name) or len(name) > 30 or any(ch in name for ch in ".,|")
                       or not name.isprintable())  # a name is shown on every board: no invisible characters
                if bad:
                    problems.append(Problem(ProblemKind.SYNTAX, player, f"crewmate {i + 1} name", name,
                                            "a name up to 30 visible characters without . , | or a leading =",
                                            "not a usable name", f"Crewmate {i + 1}"))
                elif name.casefold() in names_seen:
                    problems.append(Problem(ProblemKind.ILLEGAL, player, f"crewmate {i + 1} name", name,
                                            "a name different from your other crewmate's",
                                            "both crewmates have this name", f"Crewmate {i + 1}"))
                else:
                    item["name"] = name
                    names_seen.append(name.casefold())
            cell = clean(row.get("start", ""))
            label = f"crewmate {i + 1} start"
            if not cell:
                problems.append(Problem(ProblemKind.MISSING, player, label, "", ", ".join(START_CELLS),
                                        "no start cell", dflt))
            else:
                hit = None if is_formula(cell) else match_choice(cell, START_CELLS)
                if hit is None:
                    on_board = not is_formula(cell) and match_choice(cell, ROOMS) is not None
                    problems.append(Problem(ProblemKind.ILLEGAL if on_board else ProblemKind.SYNTAX, player, label,
                                            cell, ", ".join(START_CELLS),
                                            "crewmates start only in 1A-C, 2A-C, 3A or 5A" if on_board
                                            else "not a room label", dflt))
                else:
                    item["start"] = hit
            out.append(item)
        if not out[0]["name"] and out[1]["name"] and out[1]["name"].casefold() == "crewmate 1":
            out[1]["name"] = None
        return Submission(player, {"crew": out}, tuple(problems), raw)

    def default_submission(self, state: State, player: str, rng: Rng) -> Mapping[str, Any]:
        if state["round"] == 0:
            return {"crew": [{"name": None, "start": None}, {"name": None, "start": None}]}
        return {"upgrades": [0, 0], "crew": [{}, {}]}  # A33: stay and do nothing

    # ---- resolution ----------------------------------------------------------
    def resolve(self, state: State, round_input: RoundInput, rng: Rng) -> RoundResult:
        st = _round_copy(state)   # the input state is never changed
        if st["round"] == 0:
            return self._resolve_pregame(st, round_input, rng)
        return self._resolve_round(st, round_input, state)

    def _resolve_pregame(self, st: State, rin: RoundInput, rng: Rng) -> RoundResult:
        opts = st["options"]
        log: list[str] = []
        facts: list[Fact] = []
        for p in st["players"]:
            mine = (p,)
            sub = rin.submissions.get(p)
            vals = sub.values if sub is not None else self.default_submission(st, p, rng)
            if sub is None:
                facts.append(NoSubmission(p, audience=mine))
            else:
                facts += [SubmissionProblem(p, pr, audience=mine) for pr in sub.problems]
            for i, c in enumerate(st["crew"][p]):
                item = vals["crew"][i] if i < len(vals["crew"]) else {}
                if item.get("name"):
                    c["name"] = item["name"]
                cell = item.get("start")
                if not cell:
                    drawn = opts["pregame_fallback"] == "random"
                    cell = rng.choice(START_CELLS) if drawn else opts["pregame_fallback"]
                    log.append(f"pregame: {p}.{c['name']} had no valid start cell; "
                               + (f"drew {cell} at random (A33)" if drawn else f"placed in {cell} (A33)"))
                    facts.append(CrewStartAssigned(p, c["name"], cell, drawn, audience=mine))
                c["pos"] = cell
            if st["crew"][p][0]["name"] == st["crew"][p][1]["name"]:
                st["crew"][p][1]["name"] = st["crew"][p][1]["name"] + " 2"
        for p in st["players"]:
            for c in st["crew"][p]:
                facts.append(CrewStart(p, c["name"], c["pos"],
                                       audience=PUBLIC if opts["reveal_start_positions"] else (p,)))
        for p in st["players"]:
            for c in st["crew"][p]:
                start = c["energy"]
                if opts["income_before_round_1"]:  # A8
                    c["energy"] = min(c["cap"], c["energy"] + INCOME)
                facts.append(EnergyAccount(p, c["name"], c["pos"], start, 0, 0, 0, 0, 0, start, c["energy"],
                                           c["cap"], audience=(p,)))
                facts.append(EndOfRoundEnergy(p, c["name"], 0, 0, start, c["energy"] - start, audience=HOST_ONLY))
        st["balances"] = dict(rin.balances)
        st["round"] = 1
        facts += self._room_facts(st, {})
        facts.append(self._ship(st))
        facts.append(MainMatchStatus(0, 1))
        return RoundResult(st, ledger=(), host_log=tuple(log), facts=tuple(facts))

    def _ship(self, st: State) -> ShipBoard:
        return ShipBoard(tuple(tuple(r) for r in st["board"]), tuple(sorted(st["activated"], key=ROOMS.index)),
                         tuple(st["walls"]))

    def _room_facts(self, st: State, activators: Mapping[str, list]) -> list[Fact]:
        """R37, R40 (every crewmate's end room, with what it carries) and R38 (who activated the
        rooms), each told to the players with a crewmate in that room."""
        opts = st["options"]
        rooms: dict[str, list[tuple[str, int]]] = {}
        for p in st["players"]:
            for i, c in enumerate(st["crew"][p]):
                rooms.setdefault(c["pos"], []).append((p, i))
        out: list[Fact] = []
        for room in sorted(rooms, key=ROOMS.index):
            here = rooms[room]
            present = tuple(dict.fromkeys(p for p, _ in here))
            out.append(RoomOccupants(room, tuple(CrewInRoom(p, st["crew"][p][i]["name"], _held(st["crew"][p][i]),
                                                          st["crew"][p][i]["parasite"]) for p, i in here),
                                     audience=present))
            if activators.get(room):
                who = tuple(dict.fromkeys(p for p, _ in activators[room]))
                crew = (tuple(_crew_id(p, st["crew"][p][i]) for p, i in activators[room])
                        if opts["reveal_activator_crewmate"] else ())
                out.append(ActivatorsSeen(room, who, crew, audience=present))
        return out

    def _resolve_round(self, st: State, rin: RoundInput, state: State) -> RoundResult:
        """Round r (A9); `st` is the copy resolved, `state` the round's state as the forms showed it."""
        opts = st["options"]
        r = st["round"]
        players = st["players"]
        board = Board.of(st)
        log: list[str] = []
        facts: list[Fact] = []
        ledger: list[LedgerEntry] = []
        balances = dict(rin.balances)
        # 1-2: submissions, cap raises (R17, A11, E27)
        plans: dict[str, list[dict]] = {}
        forms: dict[str, Form] = {}
        for p in players:
            mine = (p,)
            sub = rin.submissions.get(p)
            if sub is None:
                vals = self.default_submission(st, p, Rng(0))
                facts.append(NoSubmission(p, audience=mine))
                log.append(f"round {r}: {p} did not submit; crewmates stay and do nothing (A33)")
            else:
                vals = sub.values
                facts += [SubmissionProblem(p, pr, audience=mine) for pr in sub.problems]
            ups = list(vals.get("upgrades") or [0, 0])
            crew_p = st["crew"][p]
            per_crew = opts["cap_upgrade_scope"] == "crewmate"
            raises = sum(ups) if per_crew else ups[0]
            cost = CAP_PRICE * raises
            if cost:
                caps_now = tuple(c["cap"] for c in crew_p)
                names = tuple(c["name"] for c in crew_p)
                if any(c["raises"] + n > 2 for c, n in zip(crew_p, ups)):
                    facts.append(EnergyCapRaise(p, raises, cost, names, caps_now, False, "over_cap", audience=mine))
                elif balances.get(p, 0) < cost:
                    facts.append(EnergyCapRaise(p, raises, cost, names, caps_now, False, "garnets", balances.get(p, 0),
                                          audience=mine))
                    log.append(f"round {r}: {p}'s cap raise refused for lack of garnets (E27)")
                else:
                    ledger += _cap_raise_rows(p, crew_p, ups, per_crew, r)
                    balances[p] -= cost
                    facts.append(EnergyCapRaise(p, raises, cost, names, tuple(c["cap"] for c in crew_p), True,
                                          audience=PUBLIC if opts["public_garnets"] else mine))
            pl, probs = plan_player(st, p, vals.get("crew") or [{}, {}], _caps(st, p), opts)
            for field, value, allowed, reason, default in probs:   # named as the player's form names them
                label = forms.setdefault(p, self.form(state, p)).label_for(field)
                facts.append(SubmissionProblem(p, Problem(ProblemKind.ILLEGAL, p, field, value, allowed, reason,
                                                          default, label=label), audience=mine))
                log.append(f"round {r}: {p} {field}={value!r} dropped at resolution: {reason}")
            plans[p] = pl
        # 3-5: banana, movement, Toe (energy already computed by the plans)
        for p in players:
            mine = (p,)
            for c, plan in zip(st["crew"][p], plans[p]):
                name = c["name"]
                if plan["banana"]:
                    _use(c, "Y")
                    facts.append(BonusUsed(p, name, "Y", _uses_left(c, "Y"), audience=mine))
                    if plan["banana_lost"]:  # A10
                        facts.append(EnergyLost(p, name, "banana", plan["banana_lost"], plan["cap"], audience=mine))
                        log.append(f"round {r}: {p}.{name} loses {plan['banana_lost']} banana Energy over the cap (A10)")
                if plan["move"]:
                    facts.append(CrewMove(p, name, "move", plan["start"], plan["move"], tuple(plan["move_path"]),
                                      len(plan["move_path"]), audience=mine))
                elif plan["move_refused"]:
                    dst, why = plan["move_refused"][:2]
                    facts.append(CrewMove(p, name, "move", plan["start"], dst, tuple(board.line(plan["start"], dst) or ()),
                                      0, why, audience=mine))
                if plan["toe"]:
                    facts.append(CrewMove(p, name, "toe", plan["toe_from"], plan["final"], (plan["final"],), 1,
                                      audience=mine))
                elif plan["toe_refused"]:
                    side, why, nxt = (list(plan["toe_refused"]) + ["", ""])[:3]
                    facts.append(CrewMove(p, name, "toe", plan["move"] or plan["start"], nxt or "",
                                      (nxt,) if nxt else (), 0, why, audience=mine))
                c["pos"] = plan["final"]
                c["energy"] = plan["energy_left"]
        # 6: disables (R31-R34, A15)
        disabled_now: list[str] = []
        for p in players:
            for c, plan in zip(st["crew"][p], plans[p]):
                if plan["disable"]:
                    room = plan["disable"]
                    st["disable_used"][p] = True
                    st["disabled"][room] = max(st["disabled"].get(room, 0), r + 1)
                    disabled_now.append(room)
                    facts.append(RoomDisabled(p, c["name"], room, plan["disable_energy"], r + 1, audience=(p,)))
                    log.append(f"round {r}: {_crew_id(p, c)} disabled {room} (rounds {r} and {r + 1})")
        if disabled_now and opts["announce_disables"]:
            facts.append(DisablesAnnounced(tuple(sorted(set(disabled_now), key=ROOMS.index))))
        # 7-8: activations, room by room
        bids: dict[str, list[tuple[str, int, int]]] = {}  # room -> (player, crew index, bid)
        for p in players:
            for i, plan in enumerate(plans[p]):
                if plan["bid"] is not None:
                    bids.setdefault(plan["final"], []).append((p, i, plan["bid"]))
                    log.append(f"round {r}: {p}.{st['crew'][p][i]['name']} bids {plan['bid']} on {plan['final']}")
        activators: dict[str, list[tuple[str, int]]] = {}
        plants_now: list[dict] = []
        for room in sorted(bids, key=ROOMS.index):
            entries = sorted(bids[room])

            def bid_of(p: str, i: int, b: int) -> RoomBid:
                return RoomBid(p, st["crew"][p][i]["name"], b)
            failed: dict[tuple[str, int], str] = {}
            winners: list[tuple[str, int]] = []
            if room == VAULT:  # every valid plant happens (A23)
                for p, i, b in entries:
                    st["crew"][p][i]["parasite"] = False
                    st["vault_used"][p] = True
                    plants_now.append({"player": p, "crew": i, "energy": b, "round": r, "seq": plans[p][i]["plant"]})
                    winners.append((p, i))
                how = "every plant"
            elif st["disabled"].get(room, 0) >= r:  # a disabled room blocks everyone (A15)
                for p, i, b in entries:
                    failed[(p, i)] = "the room was disabled"
                    c = st["crew"][p][i]
                    if (opts["urgot_consumed_on_blocked_attempt"] and room_kind(room) == "component"
                            and _usable(c, "U", r)):
                        _use(c, "U")
                        facts.append(BonusUsed(p, c["name"], "U", _uses_left(c, "U"), room, audience=(p,)))
                how = "disabled"
                log.append(f"round {r}: {room} is disabled; bids fail (A15)")
            else:
                urgot = ([(p, i) for p, i, b in entries if _usable(st["crew"][p][i], "U", r)]
                         if room_kind(room) == "component" else [])
                if urgot:  # R69, A14: beats every bid (one Urgot in the game)
                    winners, how = [urgot[0]], "Urgot Peraphernalia"
                    c = st["crew"][urgot[0][0]][urgot[0][1]]
                    _use(c, "U")
                    facts.append(BonusUsed(urgot[0][0], c["name"], "U", _uses_left(c, "U"), room,
                                          audience=(urgot[0][0],)))
                    log.append(f"round {r}: Urgot Peraphernalia wins {room} for {urgot[0][0]} (R69)")
                elif room == PARASITE_ROOM and not opts["parasite_room_contention"]:
                    how = "one claim per player"   # A20 off: the higher of a player's two bids
                    for p in sorted({e[0] for e in entries}):
                        w = contention_winner([(i, b) for q, i, b in entries if q == p])
                        if w is not None:
                            winners.append((p, w))
                else:
                    w, how = contention([((p, i), b) for p, i, b in entries])
                    winners = [w] if w is not None else []
                for p, i, b in entries:
                    if (p, i) in winners:
                        continue
                    failed[(p, i)] = ("the room went to Urgot Peraphernalia" if how == "Urgot Peraphernalia" else
                                      "tied with another bid" if sum(1 for e in entries if e[2] == b) > 1 else
                                      "outbid")
            facts.append(ActivationContest(room, tuple(bid_of(*e) for e in entries),
                                           tuple(bid_of(*e) for e in entries if (e[0], e[1]) in winners), how,
                                           audience=HOST_ONLY))
            for p, i, b in entries:
                why = failed.get((p, i), "")
                facts.append(ActivationAttempt(p, st["crew"][p][i]["name"], room, b, (p, i) in winners,
                                               why if opts["reveal_failure_reasons"] else "", audience=(p,)))
            for p, i in winners:
                c = st["crew"][p][i]
                activators.setdefault(room, []).append((p, i))
                kind = room_kind(room)
                if kind == "component":
                    st["components"][p].append(room)
                    st["activated"].append(room)
                    facts.append(ComponentGained(p, c["name"], room, room[-1], number(room), audience=(p,)))
                elif kind == "bonus":
                    c["items"].append({"item": room, "uses": Bonus[room].uses, "got": r})
                    st["activated"].append(room)
                    facts.append(BonusGained(p, c["name"], room, audience=(p,)))
                elif kind == PARASITE_ROOM:
                    c["parasite"] = True
                    st["claimed"][p] = True
                    facts.append(ParasiteClaimed(p, c["name"], audience=(p,)))
                log.append(f"round {r}: {p}.{c['name']} activates {room} ({how})")
        activated_now = sorted(activators, key=ROOMS.index)
        facts += [RoomActivated(room) for room in activated_now]
        st["history"].append({"round": r, "activated": activated_now})
        # 9: Sequence completion (R44, A32); 10: the plants' verdicts (R53, R58, R59, R62)
        claimed = {c for p in players for c in st["components"][p]}
        seqs = [s for s in SEQUENCES if all(f"{n}{s}" in claimed for n in range(1, 14))]
        ended = bool(seqs) or r >= int(opts["max_rounds"])
        for pl, (verdict, improper) in zip(plants_now, plant_verdicts(plants_now, seqs, opts)):
            pl["verdict"], pl["improper"] = verdict, improper
        st["plants"] += plants_now
        if not ended:   # told to the planter; every plant is published at the end of the Main Match
            facts += [self._plant_fact(st, pl, (pl["player"],)) for pl in plants_now]
        # 11: end of round (skipped once the MM is over, A32)
        drained: dict[tuple[str, int], int] = {}
        gained: dict[tuple[str, int], int] = {}
        if not ended:
            for p in players:  # Wiwaxia (R70, A16)
                for i, (c, plan) in enumerate(zip(st["crew"][p], plans[p])):
                    if not plan["wiwaxia"]:
                        continue
                    if not _usable(c, "W", r + 1):  # a same-round use (A12 option) of a Wiwaxia not won
                        facts.append(BonusNotUsed(p, c["name"], "W", "not won", audience=(p,)))
                        continue
                    _use(c, "W")
                    facts.append(BonusUsed(p, c["name"], "W", _uses_left(c, "W"), audience=(p,)))
                    victims = []
                    for q in players:
                        for j, d in enumerate(st["crew"][q]):
                            if (q, j) != (p, i) and d["pos"] == c["pos"] and d["energy"] > 0:
                                d["energy"] -= 1
                                drained[(q, j)] = drained.get((q, j), 0) + 1
                                victims.append(CrewRef(q, d["name"]))
                                log.append(f"round {r}: Wiwaxia drains 1 from {q}.{d['name']} (R70)")
                    facts.append(WiwaxiaDrain(p, c["name"], c["pos"], tuple(victims), audience=HOST_ONLY))
                    if opts["wiwaxia_transfers"]:
                        before = c["energy"]
                        c["energy"] = min(c["cap"], c["energy"] + len(victims))
                        gained[(p, i)] = c["energy"] - before
            for p in players:  # Summoner's Meme (R67, A17)
                for c, plan in zip(st["crew"][p], plans[p]):
                    if plan["wall"] and not _usable(c, "S", r + 1):
                        facts.append(BonusNotUsed(p, c["name"], "S", "not won", audience=(p,)))
                    elif plan["wall"]:
                        other = board.neighbour(c["pos"], plan["wall"])
                        key = edge(c["pos"], other)
                        if key not in st["walls"]:
                            st["walls"].append(key)
                            _use(c, "S")
                            facts.append(BonusUsed(p, c["name"], "S", _uses_left(c, "S"),
                                                  f"{SIDE_WORDS[plan['wall']]} wall of {c['pos']}", audience=(p,)))
                            facts.append(WallPlaced(c["pos"], plan["wall"], other))
        # XComm (A19): told to both players privately
        for p in players:
            for c, plan in zip(st["crew"][p], plans[p]):
                if plan["xcomm"]:
                    _use(c, "X")
                    facts.append(BonusUsed(p, c["name"], "X", _uses_left(c, "X"), plan["xcomm"], audience=(p,)))
                    facts.append(XCommOpened(p, c["name"], plan["xcomm"], audience=(p, plan["xcomm"])))
                    log.append(f"round {r}: XComm {p} <-> {plan['xcomm']} (A19)")
        end_energy = {(p, i): c["energy"] for p in players for i, c in enumerate(st["crew"][p])}
        # 12-13: end or income
        if ended:
            st["finished"] = True
            st["end"] = {"round": r, "sequences": seqs}
            for p in players:
                held = len(st["components"][p])
                n = held // 3
                if n:
                    ledger.append(LedgerEntry(p, n, f"Skeld: {held} components", "1 garnet per 3 components (R64)"))
                    facts.append(EndOfMatchGarnets(p, n, "components", held, audience=(p,)))
                for c in st["crew"][p]:
                    if _carries(c, "Z"):
                        ledger.append(LedgerEntry(p, 4, "Skeld: Zurich Is Stained Vinyl Record", "R73"))
                        facts.append(EndOfMatchGarnets(p, 4, "zurich", audience=(p,)))
        else:
            for p in players:
                for c in st["crew"][p]:
                    rose = 1 if _carries(c, "R") else 0
                    c["energy"] = min(c["cap"], c["energy"] + INCOME + rose)
            st["round"] = r + 1
        for p in players:
            balances[p] = balances.get(p, 0) + sum(e.change for e in ledger if e.player == p and e.change > 0)
        st["balances"] = balances
        for p in players:
            for i, (c, plan) in enumerate(zip(st["crew"][p], plans[p])):
                facts.append(EnergyAccount(
                    p, c["name"], c["pos"], plan["energy_start"], plan["banana_gain"], len(plan["move_path"]),
                    1 if plan["toe"] else 0, plan["bid"] or 0, plan["disable_energy"], plan["energy_left"],
                    None if ended else c["energy"], c["cap"], audience=(p,)))
        for p in players:
            for i, c in enumerate(st["crew"][p]):
                facts.append(EndOfRoundEnergy(p, c["name"], drained.get((p, i), 0), gained.get((p, i), 0),
                                              end_energy[(p, i)], 0 if ended else c["energy"] - end_energy[(p, i)],
                                              audience=HOST_ONLY))
        facts += self._room_facts(st, activators)
        if ended:
            facts += self._end_facts(st, r, seqs)
        facts.append(self._ship(st))
        facts.append(MainMatchStatus(r, None if ended else r + 1))
        return RoundResult(st, ledger=tuple(ledger), host_log=tuple(log), facts=tuple(facts))

    def _plant_fact(self, st: State, pl: Mapping[str, Any], audience: tuple[str, ...]) -> ParasitePlant:
        name = st["crew"][pl["player"]][pl["crew"]]["name"]
        return ParasitePlant(pl["player"], name, pl["round"], pl["energy"], pl.get("seq"), pl["verdict"], pl["improper"],
                     audience=audience)

    def _end_facts(self, st: State, r: int, seqs: Sequence[str]) -> list[Fact]:
        """What the end of the Main Match reveals (section c): public, and the inventories."""
        players, comps, opts = st["players"], st["components"], st["options"]
        out: list[Fact] = []
        for s in seqs:
            out.append(SequenceCompleted(s, SEQUENCES[s], r, tuple(
                SequenceStanding(p, pieces(comps[p], s), sequence_value(comps[p], s)) for p in players)))
        if len(seqs) > 1:
            for p in players:
                vals = {s: sequence_value(comps[p], s) for s in seqs}
                best = max(vals.values())
                out.append(MultiSequenceStanding(p, best, tuple(s for s in seqs if vals[s] == best), sum(vals.values())))
        if not seqs:
            out.append(RoundLimitReached(r, tuple(TotalStanding(p, total_value(comps[p]), len(comps[p]))
                                                  for p in players)))
        out += [self._plant_fact(st, pl, PUBLIC) for pl in st["plants"]]
        for p in players:
            crew = st["crew"][p]
            out.append(CrewInventory(p, tuple(sorted(comps[p], key=COMPONENTS.index)),
                                      tuple(CrewInRoom(p, c["name"], _held(c), c["parasite"]) for c in crew),
                                      tuple(c["pos"] for c in crew),
                                      audience=PUBLIC if opts["endgame_full_reveal"] else HOST_ONLY))
        return out

    # ---- reports, drawn from the facts ------------------------------------
    def render(self, facts: Sequence[Any], viewer: str | None, ctx: RenderContext) -> Report:
        """The public post (R41, R67, section c) or one player's confessional (R37-R40 and notes
        about their own sheet), from the facts that viewer may know."""
        if viewer is None:
            return self._render_public(facts, ctx.round)
        return self._render_private(facts, viewer, ctx.round)

    def _render_public(self, facts: Sequence[Any], r: int) -> Report:
        if r == 0:
            lines = ["The pregame is over; round 1 is open. No room was activated."]
            starts: dict[str, list[str]] = {}
            for f in of_type(facts, CrewStart):
                starts.setdefault(f.player, []).append(f"{f.crewmate} in {f.room}")
            lines += [f"{p}: {', '.join(where)}" for p, where in starts.items()]
            return Report("Skeld pregame", (Block("Pregame results", tuple(lines)),))
        rooms = [f.room for f in of_type(facts, RoomActivated)]
        lines = ["Rooms activated this round: " + (", ".join(room_title(x) for x in rooms) if rooms else "none")]
        lines += [f"Wall placed: {SIDE_WORDS[f.side]} wall of {f.room} (between {f.room} and {f.neighbour})"
                  for f in of_type(facts, WallPlaced)]
        lines += ["Disabled this round: " + ", ".join(f.rooms) + "." for f in of_type(facts, DisablesAnnounced)]
        lines += [f"{f.player} raised their energy cap (now {_caps_text(f)})." for f in of_type(facts, EnergyCapRaise)
                  if f.accepted]
        closed = of_type(facts, MainMatchStatus)
        if closed and closed[0].next_round is not None:
            lines.append(f"The Main Match continues with round {closed[0].next_round}.")
            return Report(f"Skeld round {r}", (Block(f"Round {r}", tuple(lines)),))
        blocks = [Block(f"Round {r}", tuple(lines))]
        seqs = of_type(facts, SequenceCompleted)
        end = [f"{' and '.join(f.name + ' Sequence' for f in seqs)} activated in round {r}: the Main Match is over."
               if seqs else f"Round {r} was the last: no Sequence was completed."]
        # The numbers behind the result are the final standings (drawn from the outcome), not repeated here.
        end += [f"{f.player} planted in round {f.round} with {f.energy} Energy: {PLANT_WORDS[f.verdict]}"
                + (" (an improper plant)." if f.improper else ".") for f in of_type(facts, ParasitePlant)]
        blocks.append(Block("End of the Main Match", tuple(end)))
        inventories = of_type(facts, CrewInventory)
        if inventories:
            inv = []
            for f in inventories:
                inv.append(f"{f.player}: components {', '.join(f.components) or 'none'}")
                inv += [f"  {o.crewmate} in {room}: {_held_text(o.items, o.parasite)}"
                        for o, room in zip(f.crewmates, f.rooms)]
            blocks.append(Block("All inventories", tuple(inv)))
        return Report(f"Skeld round {r}", tuple(blocks))

    def _render_private(self, facts: Sequence[Any], viewer: str, r: int) -> Report:
        pregame = r == 0
        accounts = [f for f in of_type(facts, EnergyAccount) if f.player == viewer]
        rooms = {f.room: f for f in of_type(facts, RoomOccupants)}
        seen = {f.room: f for f in of_type(facts, ActivatorsSeen)}
        blocks: list[Block] = []
        # 1. co-location (R37)
        lines1: list[str] = []
        mine: list[str] = []
        others: list[tuple[CrewInRoom, str]] = []
        for a in accounts:
            with_ = []
            for o in (rooms[a.room].occupants if a.room in rooms else ()):
                if (o.player, o.crewmate) == (viewer, a.crewmate):
                    continue
                with_.append(f"{o.player}.{o.crewmate}" + (" (yours)" if o.player == viewer else ""))
                if o.player != viewer and all(x is not o for x, _ in others):
                    others.append((o, a.room))
            lines1.append(f"{a.crewmate} is in {a.room}: " + (("with " + ", ".join(with_)) if with_ else "alone"))
            if a.room not in mine:
                mine.append(a.room)
        blocks.append(Block("1. Crewmates sharing your rooms", tuple(lines1)))
        # 2. activators (R38, A36)
        lines2 = []
        for room in mine:
            if room in seen:
                who = seen[room].crewmates or seen[room].players
                verb = "planted in by" if room == VAULT else "activated by"
                lines2.append(f"{room_title(room)} was {verb} {', '.join(who)}")
        if pregame:
            lines2 = ["No room is activated in the pregame."]
        blocks.append(Block("2. Activations of rooms you are in", tuple(lines2) or
                            ("No room holding your crewmates was activated this round.",)))
        # 3. next energy (R39), omitted once the Main Match is over
        if accounts and accounts[0].next_start is not None:
            blocks.append(Block(f"3. Energy at the start of round {r + 1}",
                                tuple(f"{a.crewmate}: {a.next_start}" for a in accounts)))
        # 4. items of co-located crewmates (R40)
        lines4 = [f"{o.player}.{o.crewmate} in {room}: {_held_text(o.items, o.parasite)}" for o, room in others]
        blocks.append(Block("4. Bonuses and parasites of crewmates in your rooms",
                            tuple(lines4) or ("No other player's crewmate is in your rooms.",)))
        # Only what concerns the player's own sheet: problems and the defaults applied, garnet flows
        # (A39), lost Energy (A10), XComm permissions (A19); the current standing is in player_view.
        notes = [t for f in facts if (t := _note(f, viewer, pregame))]
        if notes:
            blocks.append(Block("Notes for you", tuple(notes)))
        title = "Pregame" if pregame else f"Round {r}"
        return Report(f"{title}: private to {viewer}", tuple(blocks))

    # ---- pictures, drawn from the facts -----------------------------------
    def picture(self, facts: Sequence[Any], viewer: str | None, ctx: RenderContext) -> Picture | None:
        """The ship after the round: every room in its colour (grey once activated, this round's
        activations framed in amber), the walls, and on a player's picture their own crewmates and
        who activated the rooms they are in. Drawn only from the facts the viewer may know."""
        ships = of_type(facts, ShipBoard)
        if not ships:
            return None
        ship = ships[-1]
        activated = set(ship.activated)
        new = {f.room for f in of_type(facts, RoomActivated)}
        where = {label: (i, j) for i, row in enumerate(ship.grid) for j, label in enumerate(row)}
        title = f"Skeld, {'pregame' if ctx.round == 0 else f'round {ctx.round}'}"
        shapes: list[Any] = [Label(GRID_X, 12, title + (f": {viewer}" if viewer else ""), size=16, bold=True)]
        for label, (i, j) in where.items():
            x, y = cell_xy(i, j)
            fill = room_fill(label, label in activated)
            shapes.append(Box(x, y, CELL_W, CELL_H, fill=fill, outline="000000"))
            if label in new:   # activated this round: an amber frame inside the cell
                shapes.append(Box(x + 1, y + 1, CELL_W - 2, CELL_H - 2, fill=None, outline=NEW_THIS_ROUND, width=4))
            shapes.append(Label(x + 8, y + 7, label, colour=room_text_colour(fill), size=14, bold=True))
        for wall in ship.walls:
            (i1, j1), (i2, j2) = (where[x] for x in wall.split("|"))
            if i1 == i2:   # side by side: a vertical wall between the two columns
                x, y = cell_xy(i1, max(j1, j2))
                shapes.append(Line(((x, y - 2), (x, y + CELL_H + 2)), colour=WALL_COLOUR, width=6))
            else:          # one above the other: a horizontal wall
                x, y = cell_xy(max(i1, i2), j1)
                shapes.append(Line(((x - 2, y), (x + CELL_W + 2, y)), colour=WALL_COLOUR, width=6))
        legend = list(FILL_LEGEND) + [("Activated this round", NEW_THIS_ROUND), ("Wall", WALL_COLOUR)]
        if viewer is not None:
            for f in of_type(facts, ActivatorsSeen):
                x, y = cell_xy(*where[f.room])
                text = "by " + ", ".join(f.crewmates or f.players)
                shapes.append(Label(x + 8, y + 25, text[:16], size=11,
                                    colour=room_text_colour(room_fill(f.room, f.room in activated))))
            tags: dict[str, list[str]] = {}
            for a in of_type(facts, EnergyAccount):
                if a.player == viewer:
                    tags.setdefault(a.room, []).append(a.crewmate)
            for room, names in tags.items():
                x, y = cell_xy(*where[room])
                w = (CELL_W - 12) // len(names[:2])     # one tag per crewmate, side by side
                for k, name in enumerate(names[:2]):
                    tx = x + 6 + k * w
                    shapes.append(Box(tx, y + CELL_H - 24, w - 4, 18, fill="FFFFFF", outline=CREW_COLOUR, width=2))
                    shapes.append(Label(tx + 4, y + CELL_H - 21, name[:max(3, (w - 12) // 7)], colour="000000",
                                        size=11))
            legend.append(("Your crewmate", CREW_COLOUR))
        top = GRID_Y + SIZE * CELL_H + 12
        for k, (text, colour) in enumerate(legend):
            x, y = GRID_X + (k % 3) * 224, top + (k // 3) * 22
            shapes.append(Box(x, y, 18, 14, fill=colour, outline="000000"))
            shapes.append(Label(x + 24, y, text, size=12))
        height = top + ((len(legend) + 2) // 3) * 22 + 8
        return Picture(GRID_X * 2 + SIZE * CELL_W, height, tuple(shapes), title=title)

    # ---- views ---------------------------------------------------------------
    def player_view(self, state: State, player: str) -> Report:
        crew = state["crew"][player]
        if state["round"] == 0 and not state["finished"]:
            return Report(f"Skeld: {player}", (Block("Pregame", (
                "Name your two crewmates and pick their start cells among " + ", ".join(START_CELLS) + ".",
                f"Each crewmate starts with {START_ENERGY} Energy (cap {BASE_CAP}).")),))
        lines = []
        for c in crew:
            lines.append(f"{c['name']}: in {c['pos']}, {c['energy']} Energy, carries {_items_text(c)}")
        comps = sorted(state["components"][player], key=COMPONENTS.index)
        lines.append(f"Components ({len(comps)}): {', '.join(comps) if comps else 'none'}")
        for s, nm in SEQUENCES.items():
            if pieces(comps, s):
                lines.append(f"  {nm}: {pieces(comps, s)} pieces, Sequence Value {sequence_value(comps, s)}")
        lines.append("Energy cap " + ", ".join(f"{c['name']} {c['cap']} ({plural(2 - c['raises'], 'raise')} left)"
                                               for c in crew) + "; a raise costs 3 garnets")
        lines.append(f"Disable {'used' if state['disable_used'][player] else 'available (once per game)'}; "
                     f"parasite {'claimed' if state['claimed'][player] else 'not claimed'}; "
                     f"Vault {'used' if state['vault_used'][player] else 'unused'}")
        title = "Final standing" if state["finished"] else f"Before round {state['round']}"
        return Report(f"Skeld: {player}", (Block(title, tuple(lines)),))

    def public_view(self, state: State) -> Report:
        board = Board.of(state)
        activated = set(state["activated"])
        walls = set(state["walls"])
        grid = []
        for i in range(SIZE):
            row = []
            for j in range(SIZE):
                label = board.grid[i][j]
                sides = [d for d in DIRECTIONS if (n := board.neighbour(label, d)) and edge(label, n) in walls]
                text = label + (" |" + "".join(sides) if sides else "")
                fill = room_fill(label, label in activated)
                dark = fill in DARK_FILLS
                font = ("FFFF00" if dark else "C00000") if sides else room_text_colour(fill)
                row.append(Cell(text, fill, bold=bool(sides) or label in activated, font=font))
            grid.append(tuple(row))
        claimed = set(state["activated"])
        lines = [f"{nm} Sequence: {sum(1 for n in range(1, 14) if f'{n}{s}' in claimed)}/13 components claimed"
                 for s, nm in SEQUENCES.items()]
        lines.append("Walls: " + (", ".join(w.replace("|", "/") for w in state["walls"]) or "none")
                     + " (a cell's |NESW marks its walled sides)")
        done = [x for x in BONUSES if x in claimed]
        lines.append("Bonus rooms activated: " + (", ".join(done) if done else "none"))
        status = ("The Main Match is over." if state["finished"] else
                  "Pregame: crewmates are being placed." if state["round"] == 0 else
                  f"Round {state['round']} of {state['options']['max_rounds']} is open.")
        return Report("Skeld: the ship", (Block("The ship", (status,), tuple(grid), FILL_LEGEND),
                                          Block("Progress", tuple(lines))))

    def outcome(self, state: State, decisions: Mapping[str, Any] | None = None) -> Outcome | None:
        """Winner, Token of Life and EC (section d). A tie the rules leave to the Gamewide Tiebreak
        (R49, A29) asks the host for a ranking ("gt-winner", "gt-ec", "gt-runner-up"); until it
        is entered the tied result is pending: no Token of Life, or no EC."""
        if not state["finished"] or not state.get("end"):
            return None
        end = state["end"]
        res = decide(state["players"], state["components"], end["sequences"], state["plants"],
                     state["options"], decisions)
        winners = tuple(res["winners"])
        contenders = winners or tuple(res["normal_group"])   # while the winner is pending: the tied players
        losers = tuple(p for p in res["order"] if p not in contenders)
        awards = ((Award(res["winner"], "Token of Life", 1, "Skeld winner" if res["method"] == "normal"
                         else "Skeld winner by planting the Parasite"),) if res["winner"] else ())
        standings = tuple((p, res["numbers"][p]) for p in res["order"])
        seqs, comps = end["sequences"], state["components"]
        if not seqs:    # the Sequence Value the end is judged on (R46, R47, R50)
            scores = {p: float(total_value(comps[p])) for p in state["players"]}
        else:
            scores = {p: float(max(sequence_value(comps[p], s) for s in seqs)) for p in state["players"]}
        ending = ("parasite" if res["method"] == "parasite" else "rounds_out" if not seqs
                  else "sequence" if len(seqs) == 1 else "sequences")
        if res["method"] == "normal" and len(res["normal_group"]) > 1:
            ending += "_tiebreak"   # decided (or still to be decided) by the Gamewide Tiebreak
        result = MainMatchResult(res["normal_winner"], tuple(res["normal_group"]) if len(res["normal_group"]) > 1
                                 else (), res["parasite_winner"], res["parasite_energy"], res["no_parasite_winner"],
                                 tuple(res["tied_planters"]), res["winner"], res["method"], res["ec"],
                                 res["ec_code"], res["ec_by_gt"])
        return Outcome(winners, losers, res["ec"], standings, tuple(res["reasons"]), awards,
                       requests=tuple(res["requests"]), facts=(result,), scores=scores, ending=ending)

    # ---- starting from a position -------------------------------------------
    def from_position(self, players, options, tables, position, rng: Rng) -> State:
        """The Main Match opened at round `round` with a given position (keys on the docs page):
        every crewmate's name, room, Energy, bonuses and parasite, the caps, the components, the
        walls, disables and plants. The rooms activated so far follow from what is held.

        >>> pos = {"round": 3, "crew": {p: [{"room": "1A", "energy": 7}, {"room": "4B", "energy": 6}] for p in "ABCD"},
        ...        "components": {"A": ["3C"]}}
        >>> from sheetbridge.templates import default_tables
        >>> st = GAME.from_position(list("ABCD"), DEFAULTS, default_tables(GAME), pos, Rng(1))
        >>> st["round"], st["crew"]["A"][1]["pos"], st["crew"]["A"][1]["energy"], st["activated"]
        (3, '4B', 6, ['3C'])
        """
        st = self.setup(players, options, tables, rng)
        opts = st["options"]
        board = Board.of(st)
        extra = sorted(set(position) - set(POSITION_KEYS))
        if extra:
            raise PositionError(f"unknown position key(s) {', '.join(extra)}; a Skeld position has "
                                + ", ".join(POSITION_KEYS))
        r = position.get("round", 1)
        last = int(opts["max_rounds"])
        if not isinstance(r, int) or isinstance(r, bool) or not 1 <= r <= last:
            raise PositionError(f"round {r!r}: a position opens a round from 1 to {last}")
        for key in ("crew", "cap", "components"):
            table = position.get(key) or {}
            if not isinstance(table, Mapping):
                raise PositionError(f"{key}: give a mapping from player to value")
            unknown = sorted(set(table) - set(players))
            if unknown:
                raise PositionError(f"{key}: {', '.join(map(str, unknown))} is not a player "
                                    f"(players: {', '.join(players)})")
        for key in ("disable_used", "parasite_claimed"):
            unknown = sorted(set(position.get(key) or ()) - set(players))
            if unknown:
                raise PositionError(f"{key}: {', '.join(map(str, unknown))} is not a player "
                                    f"(players: {', '.join(players)})")
        crew_in = position.get("crew") or {}
        caps_in = position.get("cap") or {}
        carried: dict[str, str] = {}
        for p in players:
            entries = crew_in.get(p)
            if not isinstance(entries, (list, tuple)) or len(entries) != 2:
                raise PositionError(f"crew: {p} needs a list of exactly two crewmates (each with its room)")
            names: list[str] = []
            for i, (e, c) in enumerate(zip(entries, st["crew"][p])):
                who = f"{p}'s crewmate {i + 1}"
                if not isinstance(e, Mapping):
                    raise PositionError(f"crew: {who} should be a mapping with room, energy, items, parasite")
                bad_keys = sorted(set(e) - {"name", "room", "energy", "items", "parasite", "cap"})
                if bad_keys:
                    raise PositionError(f"crew: {who} has unknown key(s) {', '.join(bad_keys)}; a crewmate has "
                                        "name, room, energy, items, parasite and cap")
                name = clean(e.get("name", c["name"]))
                if (not name or len(name) > 30 or any(ch in name for ch in ".,|") or not name.isprintable()
                        or is_formula(name)):
                    raise PositionError(f"crew: {who} is named {name!r}; a name has 1 to 30 visible characters "
                                        "without . , | or a leading =")
                if name.casefold() in names:
                    raise PositionError(f"crew: both of {p}'s crewmates are named {name!r}")
                names.append(name.casefold())
                c["name"] = name
                who = f"{p}.{name}"
                room = clean(e.get("room", "")).upper()
                if room not in ROOMS:
                    raise PositionError(f"crew: {who} is in {e.get('room')!r}, which is not a room of the ship")
                c["pos"] = room
                cap = e.get("cap", caps_in.get(p, BASE_CAP))
                if not isinstance(cap, int) or isinstance(cap, bool) or not BASE_CAP <= cap <= MAX_CAP:
                    raise PositionError(f"cap: {who} has cap {cap!r}; a cap is {BASE_CAP} to {MAX_CAP}")
                c["cap"], c["raises"] = cap, cap - BASE_CAP
                start = min(cap, START_ENERGY + (INCOME if opts["income_before_round_1"] else 0))
                energy = e.get("energy", start if r == 1 else None)
                low = min(cap, INCOME)
                if r == 1:
                    if energy != start:
                        raise PositionError(f"crew: {who} has {energy!r} Energy; every crewmate starts round 1 "
                                            f"with {start}")
                elif not isinstance(energy, int) or isinstance(energy, bool) or not low <= energy <= cap:
                    raise PositionError(f"crew: {who} has {energy!r} Energy; after a round a crewmate starts with "
                                        f"{low} to its cap {cap} (income is 3 a round)")
                c["energy"] = energy
                c["items"] = []
                items = e.get("items") or {}
                if isinstance(items, (list, tuple)):
                    items = {x: Bonus[x].uses if x in BONUSES else None for x in items}
                if not isinstance(items, Mapping):
                    raise PositionError(f"crew: {who}'s items should be bonus letters or a mapping letter -> uses left")
                for letter, uses in items.items():
                    if letter not in BONUSES:
                        raise PositionError(f"crew: {who} carries {letter!r}, which is not a bonus "
                                            f"({', '.join(BONUSES)})")
                    if letter in carried:
                        raise PositionError(f"crew: {letter} ({Bonus[letter].title}) is carried by {carried[letter]} "
                                            f"and {who}; each bonus room is activated once")
                    carried[letter] = who
                    most = Bonus[letter].uses
                    if most is None and uses is not None:
                        raise PositionError(f"crew: {who}'s {Bonus[letter].title} has no uses to count; give null")
                    if most is not None and (not isinstance(uses, int) or isinstance(uses, bool)
                                             or not 0 <= uses <= most):
                        raise PositionError(f"crew: {who}'s {Bonus[letter].title} has {uses!r} uses left; "
                                            f"it has 0 to {most}")
                    c["items"].append({"item": letter, "uses": uses, "got": 0})
                parasite = e.get("parasite", False)
                if not isinstance(parasite, bool):
                    raise PositionError(f"crew: {who}'s parasite should be true or false")
                c["parasite"] = parasite
            if opts["cap_upgrade_scope"] == "player" and st["crew"][p][0]["cap"] != st["crew"][p][1]["cap"]:
                raise PositionError(f"cap: {p}'s crewmates have caps {st['crew'][p][0]['cap']} and "
                                    f"{st['crew'][p][1]['cap']}; a cap raise covers both crewmates (cap_upgrade_scope "
                                    "is player)")
        held: dict[str, str] = {}
        for p in players:
            comps = position.get("components", {}).get(p, [])
            if not isinstance(comps, (list, tuple)):
                raise PositionError(f"components: {p}'s components should be a list of rooms like 3C")
            for lab in comps:
                lab = clean(lab).upper()
                if lab not in COMPONENTS:
                    raise PositionError(f"components: {p} holds {lab!r}, which is not a component (1A..13C)")
                if lab in held:
                    raise PositionError(f"components: {lab} is held by {held[lab]} and {p}; each component is unique")
                held[lab] = p
                st["components"][p].append(lab)
        for s, nm in SEQUENCES.items():
            if all(f"{n}{s}" in held for n in range(1, 14)):
                raise PositionError(f"components: all 13 {nm} components are claimed, so the Main Match would "
                                    "already be over")
        claimed = set(position.get("parasite_claimed") or ())
        plants = position.get("plants") or []
        if not isinstance(plants, (list, tuple)):
            raise PositionError("plants: give a list of {player, round, energy}")
        for pl in plants:
            if (not isinstance(pl, Mapping) or pl.get("player") not in players or not isinstance(pl.get("round"), int)
                    or not 1 <= pl["round"] < r or not isinstance(pl.get("energy"), int) or pl["energy"] < VAULT_MIN):
                raise PositionError(f"plants: {pl!r} should be {{player, round before {r}, energy of at least "
                                    f"{VAULT_MIN}}}")
            p = pl["player"]
            if st["vault_used"][p]:
                raise PositionError(f"plants: {p} plants twice; a player activates the Vault once")
            if any(c["parasite"] for c in st["crew"][p]):
                raise PositionError(f"plants: {p} planted and still carries a parasite; a player claims one once")
            st["vault_used"][p] = True
            claimed.add(p)
            crew = pl.get("crewmate", 1)
            st["plants"].append({"player": p, "crew": 1 if crew in (2, st["crew"][p][1]["name"]) else 0,
                                 "energy": pl["energy"], "round": pl["round"], "seq": None,
                                 "verdict": "no_sequence", "improper": True})
        for p in players:
            if any(c["parasite"] for c in st["crew"][p]):
                if sum(c["parasite"] for c in st["crew"][p]) > 1:
                    raise PositionError(f"crew: both of {p}'s crewmates carry a parasite; a player claims one once")
                claimed.add(p)
            st["claimed"][p] = p in claimed
        for p in position.get("disable_used") or ():
            st["disable_used"][p] = True
        st["activated"] = sorted(list(held) + list(carried), key=ROOMS.index)
        for p in players:
            acts = (len(st["components"][p]) + sum(len(c["items"]) for c in st["crew"][p])
                    + st["claimed"][p] + st["vault_used"][p])
            if acts > 2 * (r - 1):
                raise PositionError(f"{p} has made {acts} activations (components, bonuses, parasite, Vault) but "
                                    f"two crewmates make at most {2 * (r - 1)} in {r - 1} round(s)")
        walls = position.get("walls") or []
        for w in walls:
            a, b = _wall_rooms(board, w)
            key = edge(a, b)
            if key in st["walls"]:
                raise PositionError(f"walls: {w!r} is given twice")
            st["walls"].append(key)
        meme = next((it for p in players for c in st["crew"][p] for it in c["items"] if it["item"] == "S"), None)
        used = 0 if meme is None else Bonus.S.uses - meme["uses"]
        if len(st["walls"]) != used:
            raise PositionError(f"walls: {len(st['walls'])} wall(s) but the Summoner's Meme (single use) has been "
                                f"used {used} time(s); each wall is one use")
        disabled = position.get("disabled") or {}
        if not isinstance(disabled, Mapping):
            raise PositionError("disabled: give a mapping from room to the last round it is blocked")
        if len(disabled) > sum(st["disable_used"].values()):
            raise PositionError(f"disabled: {len(disabled)} room(s) disabled but only "
                                f"{sum(st['disable_used'].values())} player(s) in disable_used")
        for room, until in disabled.items():
            if room not in ROOMS or room in (PARASITE_ROOM, VAULT) or room in st["activated"]:
                raise PositionError(f"disabled: {room!r} cannot be disabled (a room of the ship, not P, V or an "
                                    "activated room)")
            if until != r or r == 1:
                raise PositionError(f"disabled: {room} blocked until round {until!r}; a disable made in round "
                                    f"{r - 1} blocks rounds {r - 1} and {r}, so give {r}")
            st["disabled"][room] = until
        st["round"] = r
        return st

    # ---- demo ----------------------------------------------------------------
    def random_submission(self, state: State, player: str, rng: Rng) -> RawSubmission:
        if state["round"] == 0:
            rows = []
            for i in range(2):
                rows.append({"name": rng.choice(["", "Red", "Blue", "Lime", "Cyan"]) + ("" if i == 0 else "2"),
                             "start": rng.choice(START_CELLS)})
            if rows[0]["name"] == "" and rows[1]["name"] == "2":
                rows[1]["name"] = ""
            return {"crew": rows}
        opts = state["options"]
        board = Board.of(state)
        r = state["round"]
        activated = set(state["activated"])
        rows = []
        disable_taken = state["disable_used"][player]
        for c in state["crew"][player]:
            row = {"move_to": "", "toe_step": "", "activate_room": "", "energy": "", "disable_room": "",
                   "item": "", "item_2": ""}
            e = c["energy"]
            uses = []
            if _usable(c, "Y", r) and rng.random() < 0.5:
                uses.append(BANANA_USE)
                e = e + BANANA_ENERGY if opts["banana_can_exceed_cap"] else min(c["cap"], e + BANANA_ENERGY)
            pos = c["pos"]

            def wanted(room):
                k = room_kind(room)
                if k in ("component", "bonus"):
                    return room not in activated
                if k == PARASITE_ROOM:
                    return not state["claimed"][player]
                return c["parasite"] and not state["vault_used"][player]
            options = []
            for room in board.same_line(pos):
                path = board.line(pos, room)
                if path is not None and len(path) <= e - 1 and not path_crosses_wall(board, pos, path, state["walls"]):
                    options.append(room)
            good = [x for x in options if wanted(x)]
            if good and rng.random() < 0.8:
                dst = rng.choice(good)
            elif options and rng.random() < 0.5:
                dst = rng.choice(options)
            else:
                dst = pos
            if dst != pos:
                row["move_to"] = dst
                e -= len(board.line(pos, dst))
                pos = dst
            if _usable(c, "T", r) and e >= 2 and rng.random() < 0.3:
                side = rng.choice(list(DIRECTIONS))
                nxt = board.neighbour(pos, side)
                if nxt and edge(pos, nxt) not in state["walls"] and (
                        not opts["toe_requires_real_move"] or row["move_to"]):
                    row["toe_step"] = side
                    e -= 1
                    pos = nxt
            need = VAULT_MIN if pos == VAULT else 1
            if wanted(pos) and e >= need and rng.random() < 0.9:
                row["activate_room"], row["energy"] = pos, str(rng.randint(need, e))
            elif (not disable_taken and e >= 1 and pos not in (PARASITE_ROOM, VAULT) and pos not in activated
                  and rng.random() < 0.15):
                row["disable_room"] = pos
                disable_taken = True
            if _usable(c, "W", r) and rng.random() < 0.5:
                uses.append(WIWAXIA_USE)
            if _usable(c, "S", r) and rng.random() < 0.6:
                sides = [d for d in DIRECTIONS if (n := board.neighbour(pos, d)) and edge(pos, n) not in state["walls"]]
                if sides:
                    uses.append(f"Summoner wall {rng.choice(sides)}")
            for k, u in zip(("item", "item_2"), uses[:2]):
                row[k] = u
            if opts["plant_requires_target"] and pos == VAULT and row["energy"]:
                row["plant_sequence"] = rng.choice(list(SEQUENCES.values()))
            rows.append(row)
        n = ""
        if (state["crew"][player][0]["raises"] < 2 and state["crew"][player][1]["raises"] < 2
                and state["balances"].get(player, 0) >= 2 * CAP_PRICE and rng.random() < 0.1):
            n = "1"
        garn = [{"cap_upgrades": n}] + ([{"cap_upgrades": ""}] if opts["cap_upgrade_scope"] == "crewmate" else [])
        return {"crew": rows, "garnets": garn}


POSITION_KEYS = ("round", "crew", "cap", "components", "walls", "disable_used", "disabled", "parasite_claimed",
                 "plants")


def _wall_rooms(board: Board, wall: Any) -> tuple[str, str]:
    """A wall given as "3C E", ["3C", "E"] or "3C|4B": the two rooms it separates (A2)."""
    text = "|".join(wall) if isinstance(wall, (list, tuple)) else str(wall)
    parts = [clean(x).upper() for x in re.split(r"[|/ ]+", text) if clean(x)]
    if len(parts) == 2 and parts[0] in ROOMS and parts[1] in DIRECTIONS:
        other = board.neighbour(parts[0], parts[1])
        if other is None:
            raise PositionError(f"walls: {wall!r} is on the hull; a wall separates two rooms")
        return parts[0], other
    if len(parts) == 2 and parts[0] in ROOMS and parts[1] in ROOMS:
        (a, b), (c, d) = board.pos(parts[0]), board.pos(parts[1])
        if abs(a - c) + abs(b - d) == 1:
            return parts[0], parts[1]
        raise PositionError(f"walls: {parts[0]} and {parts[1]} are not side by side; a wall separates two "
                            "neighbouring rooms")
    raise PositionError(f"walls: {wall!r} should be a room and a side (\"3C E\") or two neighbouring rooms (\"3C|4B\")")


# --------------------------------------------------------------------- drawing helpers

CELL_W, CELL_H, GRID_X, GRID_Y = 96, 64, 16, 44


def cell_xy(i: int, j: int) -> tuple[int, int]:
    """The top-left corner of the room in row i, column j (0-based) in a picture."""
    return GRID_X + j * CELL_W, GRID_Y + i * CELL_H


def _cap_raise_rows(player: str, crew: Sequence[dict], ups: Sequence[int], per_crew: bool,
                    r: int) -> list[LedgerEntry]:
    """Raise the caps (a player-wide raise covers both crewmates) and book one -3 row per raise,
    each saying the cap it reached ("now 8", then "now 9"): the rulings' garnet-flow table lists a
    flow per raise, so the ledger reconciles row by row with the submissions (A11, section d)."""
    rows = []
    if per_crew:
        for c, n in zip(crew, ups):
            for _ in range(n):
                c["raises"] += 1
                c["cap"] += 1
                rows.append(LedgerEntry(player, -CAP_PRICE, f"Skeld energy cap raise ({c['name']} now {c['cap']})",
                                        f"round {r} (R17)"))
        return rows
    for _ in range(ups[0]):
        for c in crew:
            c["raises"] += 1
            c["cap"] += 1
        rows.append(LedgerEntry(player, -CAP_PRICE, f"Skeld energy cap raise (now {crew[0]['cap']})",
                                f"round {r} (R17)"))
    return rows


def _caps_text(f: EnergyCapRaise) -> str:
    if len(set(f.caps)) == 1:
        return str(f.caps[0])
    return " and ".join(f"{n} {c}" for n, c in zip(f.crewmates, f.caps))


def _note(f: Any, viewer: str, pregame: bool) -> str:
    """A line of "Notes for you": what concerns the player's own sheet (or "" for none)."""
    if isinstance(f, NoSubmission) and f.player == viewer:
        return ("No pregame submission: start cells were assigned." if pregame else
                "No submission: your crewmates stayed put and did nothing.")
    if isinstance(f, SubmissionProblem) and f.player == viewer:
        return f.problem.text_for(viewer)
    if isinstance(f, CrewStartAssigned) and f.player == viewer:
        return f"{f.crewmate} starts in {f.room} (assigned)."
    if isinstance(f, EnergyCapRaise) and f.player == viewer:
        if f.accepted:
            return f"You paid {f.cost} garnets: your energy cap is now {_caps_text(f)}."
        if f.reason == "over_cap":
            return "Cap raise refused: the cap can reach 9 at most."
        return f"Cap raise refused: it costs {f.cost} garnets and you have {f.balance}."
    if isinstance(f, EnergyLost) and f.player == viewer:
        return f"{f.crewmate} ate the Yellow Banana over its Energy cap of {f.cap}: {f.amount} Energy lost."
    if isinstance(f, BonusNotUsed) and f.player == viewer:
        return (f"{f.crewmate} did not win the Wiwaxia: no drain." if f.item == "W" else
                f"{f.crewmate} did not win the Summoner's Meme: no wall.")
    if isinstance(f, ActivationAttempt) and f.player == viewer and f.reason:
        return f"{f.crewmate}'s attempt on {f.room} failed: {f.reason} (the Energy is spent)."
    if isinstance(f, XCommOpened) and f.player == viewer:
        return f"{f.crewmate} used the XCommunications Device: you may talk freely with {f.partner} this round."
    if isinstance(f, XCommOpened) and f.partner == viewer:
        return f"{f.player} used the XCommunications Device with you: you may talk freely with {f.player} this round."
    if isinstance(f, EndOfMatchGarnets) and f.player == viewer:
        if f.reason == "zurich":
            return "You earn 4 garnets for the Zurich Is Stained Vinyl Record."
        return f"You earn {_plural(f.garnets, 'garnet')} for {f.components} components."
    return ""


GAME = Skeld()
