"""Three Modular Rooms, the facts: a round as typed records, each with its audience.

Every report is drawn from these (render.py); ``audience`` keeps each one where it belongs: the
public post says only R38's "who went where and each room's score" (A28). Also the words the game
books garnets and ends a match with (``LedgerReason``, ``Ending``), stored as their plain text.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

from ...core.facts import Fact, fact
from ...core.types import Problem


@fact
@dataclass(frozen=True)
class CardPlayed(Fact):
    """The card and room a player's round used; assigned at random where missing or invalid (R33, A24)."""
    player: str
    card: int
    room: str
    submitted: bool = True
    random_card: bool = False
    random_room: bool = False


@fact
@dataclass(frozen=True)
class SubmissionProblem(Fact):
    """Something wrong with a player's submission, and the default applied."""
    player: str
    problem: Problem


@fact
@dataclass(frozen=True)
class Purchase(Fact):
    """One card copy or hide bought (or refused: "unaffordable", "over_limit"), A26, A27."""
    player: str
    kind: str                 # "card" or "hide"
    card: int                 # the face bought (0 for hide)
    price: int
    accepted: bool
    reason: str = ""
    arrives: int | None = None
    balance: int | None = None
    limit: int | None = None


@fact
@dataclass(frozen=True)
class PurchasesRefused(Fact):
    """All of a player's purchases refused: they cost more than the balance (A26 reject_all)."""
    player: str
    cost: int
    balance: int


@fact
@dataclass(frozen=True)
class RoomScored(Fact):
    """A room as announced (R38): the names shown, how many are not named, and its final score."""
    room: str
    players: tuple[str, ...]
    hidden: int
    score: float
    counts_only: bool = False   # someone paid to hide: counts instead of names (A27)


@fact
@dataclass(frozen=True)
class CardInRoom:
    owner: str
    face: int
    ignored: bool


@fact
@dataclass(frozen=True)
class RoomCalculation(Fact):
    """The host's calculation of a room (R47): cards, final values, base, multiplier, score, steps."""
    room: str
    cards: tuple[CardInRoom, ...]
    final_values: tuple[int, ...]
    base: int
    multiplier: float
    score: float
    criterion_met: bool
    steps: tuple[str, ...]


@fact
@dataclass(frozen=True)
class RoomsScoring(Fact):
    """The rooms whose players gain a point (R30-R32); never announced (A28)."""
    rooms: tuple[str, ...]


@fact
@dataclass(frozen=True)
class CardBoughtAnnounced(Fact):
    """R36: a card was bought, with its value mod 3 (the buyer only with announce_buyer)."""
    mod3: int
    buyer: str = ""


@fact
@dataclass(frozen=True)
class NonSubmitters(Fact):
    """Who did not submit, announced only with announce_nonsubmission (A24)."""
    players: tuple[str, ...]


@fact
@dataclass(frozen=True)
class GarnetsLost(Fact):
    """Card -10: a payer loses this many garnets and is not told to whom (R27)."""
    player: str
    garnets: int


@fact
@dataclass(frozen=True)
class GarnetsGained(Fact):
    """Card -10: every player of a -10 learns what it gained, possibly 0, and from whom (R27, A16)."""
    player: str
    garnets: int
    payers: tuple[str, ...]


@fact
@dataclass(frozen=True)
class CardsSeen(Fact):
    """Card -12: the sorted faces played in the other two rooms; None when the card was ignored (A18)."""
    player: str
    cards: tuple[int, ...] | None


@fact
@dataclass(frozen=True)
class OpalChallengeCompleted(Fact):
    """The only player without the room bonus this round (R45, A30); settled at the end."""
    player: str


@fact
@dataclass(frozen=True)
class PointsGained(Fact):
    """Points a player gained this round, all sources (A29); 0 when they could not score (R34)."""
    player: str
    points: int
    forfeited: bool = False


NO_MAJORITY = "no majority"


@fact
@dataclass(frozen=True)
class WinnersVote(Fact):
    """The winners' vote on tied losers (A31), host only: entered as `ballots` (each winner's
    (winner, tied loser), in the winners' order) with their `tally` per tied loser, or as the
    result alone (`ballots` empty). `majority`: the votes a tied loser needs, strictly more than
    half of the winners; `result`: the tied loser it sends to the EC, or "no majority"."""
    winners: tuple[str, ...]
    tied: tuple[str, ...]
    ballots: tuple[tuple[str, str], ...]
    tally: tuple[tuple[str, int], ...]
    majority: int
    result: str
    entered_as: str                  # "ballots" or "result"


class LedgerReason(enum.StrEnum):
    """Why a garnet row is booked (its text is what ledgers have always held)."""
    CARD_PURCHASE = "card purchase"              # R35, A26
    HIDE_ROOMS = "hide rooms"                    # R37, A27
    MINUS10_PAYMENT = "card -10 payment"         # R25-R27, A16
    MINUS10_COLLECTION = "card -10 collection"   # R25-R27, A16
    POINTS_PAYOUT = "points payout"              # R44
    OPAL_CHALLENGE = "opal challenge"            # R46: shared, 3 garnets each


class Ending(enum.StrEnum):
    """How a match ended (``Outcome.ending``)."""
    SINGLE_WINNER = "single_winner"   # R41: 2 ToL and an opal
    SHARED_WIN = "shared_win"         # R40: a ToL each
