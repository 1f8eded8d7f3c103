"""Three Modular Rooms (designer Zero, "Zero's Gambit"): a Main Match for 9 players.

Rules in brief (R numbers from shared/rulings/three_modular_rooms.md):

- 11 rounds (R1). Everyone holds the cards 1..9, -10, -11, -12 (R2) and each round
  plays one card into one of three rooms, Null, Solitary or Duel (R3). Played cards
  are used up (A1).
- In every room the card effects resolve in order of absolute value (R6), one step
  at a time across all rooms (A4); a replaced card still resolves (R7, A2); only
  cards 2 and 4 "ignore" effects, and only effects not yet resolved (A3).
- The room's score is the sum of its cards (R8), multiplied by 1.5 when that sum is
  0, 1 or 2 mod 3 for Null, Solitary, Duel (R9-R12; 2x with a 9 and exactly three
  people, R24).
- The room with the highest score scores a point for everyone in it; a two-room tie
  gives the point to the third room, a three-way tie to everyone (R30-R32).
- A missing or invalid card or room is replaced at random and the player cannot
  score that round (R33, R34, A24, A25).
- 5 garnets buy a copy of a card for next round, announced with its value mod 3
  (R35, R36); 3 garnets hide who went where (R37). Card -10 takes a garnet from
  everyone in the room (R25-R27).
- After 11 rounds the most points win (ToL each; a single winner 2 ToL and an
  opal), the fewest points lose; 1 garnet per point (R40-R44). The opal challenge:
  be the only player without the room bonus in a round (R45, R46).

Worked examples from the ruleset:

>>> resolve_rooms({"Null": [("a", 1), ("b", 5), ("c", 6), ("d", 6)]}, DEFAULTS)["Null"].values
[1, 5, -6, -6]
>>> resolve_rooms({"Null": [("a", 3)]}, DEFAULTS)["Null"].values
[30]
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Mapping, Sequence

from ..core.decisions import DecisionKind, DecisionRequest
from ..core.errors import PositionError, SheetbridgeError
from ..core.facts import HOST_ONLY, Fact, RenderContext, fact, of_type
from ..core.game import GameRules
from ..core.outcome_text import plural
from ..core.parsing import YES_NO_HELP, clean, is_formula, parse_int, split_list, yes_no
from ..core.picture import Box, Label, Picture
from ..core.rng import Rng
from ..core.standings import Place, RoundScore
from ..core.types import (Award, Block, Cell, Field, FieldKind, Form, GameSpec, LedgerEntry,
                          Option, Outcome, Problem, ProblemKind, RawSubmission, Report,
                          RoundInput, RoundResult, Section, State, Submission)

# --------------------------------------------------------------------- spec

CARDS: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9, -10, -11, -12)  # R2, in resolution order (R6)


class Room(enum.Enum):
    NULL = "Null"
    SOLITARY = "Solitary"
    DUEL = "Duel"

    @property
    def residue(self) -> int:
        """The sum mod 3 that earns this room's multiplier (R10-R12)."""
        return {"Null": 0, "Solitary": 1, "Duel": 2}[self.value]


ROOMS: tuple[str, ...] = tuple(r.value for r in Room)
CARD_PRICE, HIDE_PRICE = 5, 3  # R35, R37

SPEC = GameSpec(
    id="three-modular-rooms",
    name="Three Modular Rooms",
    min_players=1, max_players=None, recommended_players=9, rounds=11,   # any number (R1 names 9, no limit)
    summary="Play one numbered card a round into one of three rooms; the highest-scoring room scores.",
    options=(
        Option("rounds", 11, "Number of rounds (R1). At most 12 while cards are used up.", ruling="R1"),
        Option("cards_consumed", True, "A played card leaves the hand.", ruling="A1"),
        Option("two_ignore_timing", "in_order", "Card 2 ignores only effects not yet resolved, or is checked "
               "before all effects (silencing duplicated 1s too).", ("in_order", "before_all_effects"), "A3"),
        Option("four_total_basis", "current_values", "Card 4 compares with the room total of current values "
               "or of the faces played.", ("current_values", "face_values"), "A9"),
        Option("five_empty_condition", "at_least_one", "Card 5 scores when at least one room, or exactly one "
               "room, is empty.", ("at_least_one", "exactly_one"), "A10"),
        Option("six_conditions", "same_sum", "Card 6 checks 5 and 7 against the same sum, or checks 7 after "
               "adding the 15.", ("same_sum", "sequential"), "A11"),
        Option("nine_without_match", "no_multiplier", "A 9 with three people but no mod-3 match gives no "
               "multiplier, or 2x anyway.", ("no_multiplier", "2x"), "A15"),
        Option("minus10_random_card_collects", True, "A randomly assigned -10 still collects garnets.",
               ruling="A16"),
        Option("minus11_inclusive", True, "Card -11's range -15..-5 includes its ends.", ruling="A17"),
        Option("room_effect_basis", "final_cards", "The mod-3 check uses the final cards or the faces "
               "played.", ("final_cards", "faces_played"), "A19"),
        Option("empty_room_policy", "zero_included", "An empty room scores 0 and takes part in the "
               "comparison, or is left out.", ("zero_included", "excluded"), "A22"),
        Option("announce_nonsubmission", False, "Name the players who did not submit in the public post.",
               ruling="A24", kind="display"),
        Option("invalid_submission_policy", "treat_as_missing", "An invalid card or room is replaced at "
               "random, or resolution stops until the host fixes the sheet.",
               ("treat_as_missing", "hold_for_host"), "A25"),
        Option("max_card_purchases_per_round", 0, "Card copies one player may buy per round (0: no limit).",
               ruling="A26"),
        Option("final_round_card_purchase", "reject", "A card bought in the final round is rejected "
               "(not charged) or allowed.", ("reject", "allow"), "A26"),
        Option("announce_buyer", False, "Name the buyer in the card-purchase announcement.", ruling="A26",
               kind="display"),
        Option("unaffordable_purchases", "reject_all", "Purchases costing more than the balance are all "
               "rejected, or accepted in listed order while affordable.", ("reject_all", "in_listed_order"),
               "A26"),
        Option("hide_scope", "all_rooms", "Hiding replaces every name with counts, or hides only the buyer.",
               ("all_rooms", "buyer_only"), "A27"),
        Option("private_round_points", True, "Tell each player privately the points gained this round.",
               ruling="A29", kind="display"),
        Option("missing_player_counts_for_opal", True, "Players who did not submit count for the opal "
               "challenge.", ruling="A30"),
        Option("ec_garnet_tiebreak", "fewest_goes", "Among tied losers with no vote majority, the fewest "
               "(or most) garnets goes to the EC.", ("fewest_goes", "most_goes"), "A31"),
        Option("ec_garnet_timing", "after_payouts", "Garnets for the EC tie-break are counted after or "
               "before the end-of-match payouts.", ("after_payouts", "before_payouts"), "A31"),
    ),
)

DEFAULTS: dict[str, Any] = SPEC.default_options()


# ------------------------------------------------------------- round results as data
# Every report is drawn from these (render below); `audience` keeps each one where it belongs:
# the public post says only R38's "who went where and each room's score" (A28).

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


def _num(x: float) -> str:
    """25.5 for 25.5, 12 for 12.0 (A21: exact halves, no rounding)."""
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def _who(f: RoomScored) -> str:
    if f.counts_only:
        return plural(f.hidden, "player")
    who = ", ".join(f.players) or ("nobody" if not f.hidden else "")
    if f.hidden:
        who = (who + ", " if who else "") + plural(f.hidden, "hidden player")
    return who


def _purchase_text(f: Purchase) -> str:
    what = f"card {f.card}" if f.kind == "card" else "hiding"
    if f.accepted and f.kind == "card":
        return f"You bought a copy of card {f.card} for {f.price} garnets; it arrives at the start of round {f.arrives}."
    if f.accepted:
        return f"You paid {f.price} garnets to hide who went to each room this round."
    if f.reason == "over_limit":
        return f"Only {f.limit} card copies may be bought per round: card {f.card} not bought."
    return f"Not enough garnets for {what} ({f.price} needed, {f.balance} left): not bought."

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


def card_text(face: int) -> str:
    return str(face)


# ------------------------------------------------------------- room engine

@dataclass
class PlayedCard:
    owner: str
    face: int
    ignored: bool = False


@dataclass
class RoomResult:
    """One room after all card steps and the room effect."""
    room: str
    played: list[PlayedCard]
    values: list[int]
    bonus: Fraction = Fraction(3, 2)
    criterion_met: bool = False
    multiplier: Fraction = Fraction(1)
    score: Fraction = Fraction(0)
    five_scorers: list[str] = field(default_factory=list)
    collectors: list[str] = field(default_factory=list)     # active -10 owners
    minus11: list[str] = field(default_factory=list)        # active -11 owners
    learners: list[str] = field(default_factory=list)       # active -12 owners
    trace: list[str] = field(default_factory=list)

    @property
    def people(self) -> int:
        return len(self.played)

    @property
    def got_bonus(self) -> bool:
        return self.multiplier != 1


def _fmt(x: Fraction | int) -> str:
    """25.5 for 51/2, 12 for 12 (A21: exact, no rounding)."""
    x = Fraction(x)
    if x.denominator == 1:
        return str(x.numerator)
    return f"{float(x):g}"


def resolve_rooms(rooms: Mapping[str, Sequence[tuple[str, int]]], options: Mapping[str, Any],
                  random_owners: frozenset[str] = frozenset()) -> dict[str, RoomResult]:
    """All three rooms' card steps and room effects (the rulings' default procedure).

    `rooms` maps a room name to its (owner, face) pairs in roster order. Missing
    rooms are empty. Pure and used both by `resolve` and by the dry-run calculator.
    """
    res = {r: RoomResult(r, [PlayedCard(o, f) for o, f in rooms.get(r, ())],
                         [f for _, f in rooms.get(r, ())]) for r in ROOMS}
    empty_rooms = sum(1 for r in res.values() if r.people == 0)
    twos_global = any(sum(1 for c in r.played if c.face == 2) >= 2 for r in res.values())  # R15, A7

    def apply_two(r: RoomResult) -> None:
        if not (twos_global or any(c.face == 2 and not c.ignored for c in r.played)):
            return
        counts: dict[int, int] = {}
        for c in r.played:
            counts[c.face] = counts.get(c.face, 0) + 1
        hit = sorted({c.face for c in r.played if c.face != 2 and counts[c.face] >= 2}, key=CARDS.index)
        for c in r.played:
            if c.face in hit:
                c.ignored = True
        if hit:
            r.trace.append(f"2: duplicated {', '.join(map(str, hit))} ignored")

    if options["two_ignore_timing"] == "before_all_effects":
        for r in res.values():
            apply_two(r)

    for step in CARDS:  # R6; every room finishes a step before the next (A4)
        for r in res.values():
            if step == 2:
                if options["two_ignore_timing"] == "in_order":
                    apply_two(r)
                continue
            for card in [c for c in r.played if c.face == step]:
                if card.ignored:
                    continue
                _apply(step, card, r, options, empty_rooms)

    for r in res.values():
        base = sum(r.values)
        basis = base if options["room_effect_basis"] == "final_cards" else sum(c.face for c in r.played)
        r.criterion_met = r.people > 0 and basis % 3 == Room(r.room).residue  # A20: Python's % is mathematical
        if r.criterion_met:
            r.multiplier = r.bonus
        elif r.people > 0 and r.bonus == 2 and options["nine_without_match"] == "2x":
            r.multiplier = Fraction(2)
        r.score = Fraction(base) * r.multiplier
        if r.people:
            r.trace.append(f"base {base}, {basis} mod 3 = {basis % 3}: multiplier {_fmt(r.multiplier)}, "
                           f"score {_fmt(r.score)}")
    return res


def _apply(step: int, card: PlayedCard, r: RoomResult, options: Mapping[str, Any], empty_rooms: int) -> None:
    """One card's effect in its room (R13-R29 with A5-A18)."""
    before = list(r.values)
    if step == 1:  # R13, A5: every value equal to the maximum is negated
        top = max(r.values)
        r.values = [-v if v == top else v for v in r.values]
    elif step == 3:  # R16, A8
        if r.people == 1:
            r.values = [30]
    elif step == 4:  # R17, A9
        total = sum(r.values) if options["four_total_basis"] == "current_values" else sum(c.face for c in r.played)
        digit = abs(total) % 10
        hit = [c for c in r.played if abs(c.face) % 10 == digit and not c.ignored]
        for c in hit:
            c.ignored = True
        if hit:
            r.trace.append(f"4: total {total} ends in {digit}: {', '.join(str(c.face) for c in hit)} ignored")
    elif step == 5:  # R18, A10
        ok = empty_rooms >= 1 if options["five_empty_condition"] == "at_least_one" else empty_rooms == 1
        if ok:
            r.five_scorers.append(card.owner)
    elif step == 6:  # R19, R20, A11
        s = sum(r.values)
        if s % 5 == 0:
            r.values.append(15)
        if options["six_conditions"] == "sequential":
            s = sum(r.values)
        if s % 7 == 0:
            r.values.append(-14)
    elif step == 7:  # R21, A13
        r.values = [7 if v > 0 else -7 if v < 0 else 0 for v in r.values]
    elif step == 8:  # R22, R23, A14
        if len(r.values) > 1:
            r.values = [max(r.values) * min(r.values)]
    elif step == 9:  # R24, A15
        if r.people == 3:
            r.bonus = Fraction(2)
    elif step == -10:
        r.collectors.append(card.owner)
    elif step == -11:
        r.minus11.append(card.owner)
    elif step == -12:
        r.learners.append(card.owner)
    if r.values != before:
        r.trace.append(f"{step}: {before} -> {r.values}")


def room_scoring(res: Mapping[str, RoomResult], policy: str) -> list[str]:
    """The rooms whose players gain a point (R30-R32, A22, A23)."""
    compared = [r for r in ROOMS if policy == "zero_included" or res[r].people > 0]
    if not compared:
        return []
    top = max(res[r].score for r in compared)
    best = [r for r in compared if res[r].score == top]
    if len(best) == 1:
        return best
    if len(best) == len(compared):
        return list(compared)  # all compared rooms tie: everyone scores
    if len(best) == 2 and len(compared) == 3:
        return [r for r in compared if r not in best]  # R31: the third room scores
    return best


def calculate(rooms: Mapping[str, Sequence[int]], options: Mapping[str, Any] | None = None) -> list[str]:
    """The host's dry-run calculator (R47): a step-by-step trace for hypothetical cards.

    >>> calculate({"Null": [3]})[-1]
    'Scoring room(s): Null'
    """
    opts = {**DEFAULTS, **(options or {})}
    named = {r: [(f"card{i + 1}", f) for i, f in enumerate(rooms.get(r, ()))] for r in ROOMS}
    res = resolve_rooms(named, opts)
    lines = []
    for r in ROOMS:
        rr = res[r]
        lines.append(f"{r}: cards {[c.face for c in rr.played]}")
        lines.extend(f"  {t}" for t in rr.trace)
        lines.append(f"  final cards {rr.values}, score {_fmt(rr.score)}")
    lines.append("Scoring room(s): " + (", ".join(room_scoring(res, opts["empty_room_policy"])) or "none"))
    return lines


# ------------------------------------------------------------- the game

class ThreeModularRooms(GameRules):
    spec = SPEC

    # ---- standings, read from the facts (core/standings.py) -----------------
    score_unit = "points"
    tie_rule = ("players tied for the most points share the win; a tie for the fewest goes to the winners' "
                "vote, then to garnets (A31)")

    def round_scores(self, facts):
        return [RoundScore(f.player, f.points) for f in of_type(facts, PointsGained)]

    def setup(self, players, options, tables, rng: Rng) -> State:
        opts = {**DEFAULTS, **options}
        if opts["cards_consumed"] and not 1 <= opts["rounds"] <= len(CARDS):
            raise SheetbridgeError(f"option rounds = {opts['rounds']}: with cards used up, a game has 1 to "
                                   f"{len(CARDS)} rounds")
        return {"round": 1, "finished": False, "options": opts, "players": list(players),
                "hands": {p: list(CARDS) for p in players}, "points": {p: 0 for p in players},
                "opal": [], "final_balances": {}, "payouts": {}}

    # ---- the form ---------------------------------------------------------
    def _hand_choices(self, state: State, player: str) -> tuple[str, ...]:
        hand = set(state["hands"][player])
        return tuple(card_text(c) for c in CARDS if c in hand)

    def form(self, state: State, player: str) -> Form:
        r, last = state["round"], state["options"]["rounds"]
        card = Field("card", "Card", FieldKind.CHOICE, self._hand_choices(state, player),
                     help="one card from your hand")
        room = Field("room", "Room", FieldKind.CHOICE, ROOMS, help="Null, Solitary or Duel")
        buy = Field("buy_cards", "Buy card copies", FieldKind.TEXT, required=False,
                    help=f"card values to buy at {CARD_PRICE} garnets each, e.g. 7, -10 (arrive next round)")
        hide = Field("buy_hide", "Hide rooms", FieldKind.YESNO, ("yes", "no"), required=False,
                     help=f"yes to pay {HIDE_PRICE} garnets to hide who went to each room this round")
        help_lines = (
            f"Round {r} of {last}: choose one card from your hand and one room.",
            "Cards resolve in the order 1, 2, ..., 9, -10, -11, -12; played cards are used up.",
            "Null scores 1.5x when its cards sum to 0 mod 3, Solitary 1 mod 3, Duel 2 mod 3.",
            "A blank or invalid card or room is replaced at random and you cannot score this round.",
        ) + (("No card copies can be bought in the final round.",) if r == last else ())
        return Form(round=r, round_label=f"Round {r} of {last}",
                    sections=(Section("play", "Your play", (card, room)),
                              Section("buy", "Purchases (optional)", (buy, hide))),
                    help=help_lines)

    # ---- parsing ----------------------------------------------------------
    def parse(self, state: State, player: str, raw: RawSubmission) -> Submission:
        opts = state["options"]
        play = _first_row(raw, "play")
        buy = _first_row(raw, "buy")
        problems: list[Problem] = []
        values: dict[str, Any] = {"card": None, "room": None, "buy_cards": [], "buy_hide": False}
        hand = state["hands"][player]
        allowed_cards = ", ".join(self._hand_choices(state, player))
        rand_card = "a random card from your hand; you cannot score this round"
        rand_room = "a random room; you cannot score this round"

        text = clean(play.get("card", ""))
        if text == "":
            problems.append(Problem(ProblemKind.MISSING, player, "card", "", allowed_cards, "no card chosen", rand_card))
        elif is_formula(text):
            problems.append(Problem(ProblemKind.SYNTAX, player, "card", text, allowed_cards,
                                    "a formula, not a card; type the card's number", rand_card))
        else:
            face = parse_int(text)
            if face is None:
                reason = "two cards in one cell" if len(split_list(text)) > 1 else "not a card number"
                problems.append(Problem(ProblemKind.SYNTAX, player, "card", text, allowed_cards, reason, rand_card))
            elif face not in CARDS:
                problems.append(Problem(ProblemKind.ILLEGAL, player, "card", text, allowed_cards,
                                        "no such card in this game", rand_card))
            elif face not in hand:
                problems.append(Problem(ProblemKind.ILLEGAL, player, "card", text, allowed_cards,
                                        "not in your hand (already played, or bought and not yet arrived)",
                                        rand_card))
            else:
                values["card"] = face

        text = clean(play.get("room", ""))
        room = next((r for r in ROOMS if r.casefold() == text.casefold()), None)
        if text == "":
            problems.append(Problem(ProblemKind.MISSING, player, "room", "", "Null, Solitary or Duel",
                                    "no room chosen", rand_room))
        elif room is None:
            reason = "a formula, not a room" if is_formula(text) else (
                "two rooms in one cell" if len(split_list(text)) > 1 else "no such room")
            problems.append(Problem(ProblemKind.SYNTAX, player, "room", text, "Null, Solitary or Duel",
                                    reason, rand_room))
        else:
            values["room"] = room

        final = state["round"] == opts["rounds"]
        for item in split_list(buy.get("buy_cards", "")):
            face = parse_int(item)
            allowed = "card values 1 to 9, -10, -11, -12, separated by commas"
            if face is None or face not in CARDS:
                kind = ProblemKind.SYNTAX if face is None else ProblemKind.ILLEGAL
                problems.append(Problem(kind, player, "buy_cards", item, allowed, "not a card", "that item is not bought"))
            elif final and opts["final_round_card_purchase"] == "reject":
                problems.append(Problem(ProblemKind.ILLEGAL, player, "buy_cards", item, "no purchases",
                                        "no card can be bought in the final round (it would never arrive)",
                                        "not bought, not charged"))
            else:
                values["buy_cards"].append(face)
        hide_text = clean(buy.get("buy_hide", ""))
        hide = yes_no(hide_text)
        if hide is None:
            problems.append(Problem(ProblemKind.SYNTAX, player, "buy_hide", hide_text, YES_NO_HELP,
                                    "not yes or no", "rooms not hidden, nothing charged"))
        else:
            values["buy_hide"] = hide
        return Submission(player, values, tuple(problems), raw)

    def default_submission(self, state: State, player: str, rng: Rng) -> Mapping[str, Any]:
        """R33/A24: a random card from the hand and a random room; no purchases."""
        return {"card": rng.choice(sorted(state["hands"][player], key=CARDS.index)),
                "room": rng.choice(ROOMS), "buy_cards": [], "buy_hide": False}

    # ---- resolution -------------------------------------------------------
    def resolve(self, state: State, round_input: RoundInput, rng: Rng) -> RoundResult:
        # A new state; only what a round changes is copied (options and players are never written).
        st = {**state, "hands": {p: list(h) for p, h in state["hands"].items()}, "points": dict(state["points"]),
              "opal": [list(x) for x in state["opal"]]}
        opts, players, r = st["options"], st["players"], st["round"]
        final = r == opts["rounds"]
        facts: list[Any] = []
        log: list[str] = []

        # 1. Normalise submissions; random card and room where missing or invalid (A24, A25).
        plays: dict[str, tuple[int, str]] = {}
        buys: dict[str, tuple[list[int], bool]] = {}
        forfeit: set[str] = set()
        random_card: set[str] = set()
        if opts["invalid_submission_policy"] == "hold_for_host":
            bad = [p.message for s in round_input.submissions.values() if s for p in s.problems
                   if p.kind is not ProblemKind.MISSING and p.field in ("card", "room")]
            if bad:
                raise SheetbridgeError("invalid submissions are held for the host (option "
                                       "invalid_submission_policy, A25): " + "; ".join(bad))
        for p in players:
            sub = round_input.submissions.get(p)
            vals = dict(sub.values) if sub else {"card": None, "room": None, "buy_cards": [], "buy_hide": False}
            rand_card = rand_room = False
            if vals["card"] is None:
                vals["card"] = rng.choice(sorted(st["hands"][p], key=CARDS.index))
                forfeit.add(p)
                random_card.add(p)
                rand_card = True
                log.append(f"{p}: random card {vals['card']} (R33, A24)")
            if vals["room"] is None:
                vals["room"] = rng.choice(ROOMS)
                forfeit.add(p)
                rand_room = True
                log.append(f"{p}: random room {vals['room']} (R33, A24)")
            plays[p] = (vals["card"], vals["room"])
            facts.append(CardPlayed(p, vals["card"], vals["room"], submitted=sub is not None,
                                    random_card=rand_card, random_room=rand_room, audience=(p,)))
            if sub is not None:
                facts.extend(SubmissionProblem(p, pr, audience=(p,)) for pr in sub.problems)
            buys[p] = (list(vals["buy_cards"]), bool(vals["buy_hide"])) if sub else ([], False)

        # 2. Purchases, charged before any -10 check (A26, A27, A33).
        ledger: list[LedgerEntry] = []
        balance = {p: int(round_input.balances.get(p, 0)) for p in players}
        bought: list[tuple[str, int]] = []
        hiders: list[str] = []
        limit = int(opts["max_card_purchases_per_round"])
        for p in players:
            cards, hide = buys[p]
            if limit and len(cards) > limit:
                facts.extend(Purchase(p, "card", c, CARD_PRICE, False, "over_limit", limit=limit, audience=(p,))
                             for c in cards[limit:])
                cards = cards[:limit]
            items = [("card", c, CARD_PRICE) for c in cards] + ([("hide", 0, HIDE_PRICE)] if hide else [])
            cost = sum(i[2] for i in items)
            if cost > balance[p] and opts["unaffordable_purchases"] == "reject_all":
                if items:
                    facts.append(PurchasesRefused(p, cost, balance[p], audience=(p,)))
                items = []
            for kind, face, price in items:
                if price > balance[p]:
                    facts.append(Purchase(p, kind, face, price, False, "unaffordable", balance=balance[p],
                                          audience=(p,)))
                    continue
                balance[p] -= price
                facts.append(Purchase(p, kind, face, price, True, arrives=r + 1 if kind == "card" else None,
                                      audience=(p,)))
                if kind == "card":
                    bought.append((p, face))
                    ledger.append(LedgerEntry(p, -CARD_PRICE, "card purchase", memo=f"card {face}"))
                else:
                    hiders.append(p)
                    ledger.append(LedgerEntry(p, -HIDE_PRICE, "hide rooms"))

        # 3-4. Card steps and room effects.
        by_room = {room: [(p, plays[p][0]) for p in players if plays[p][1] == room] for room in ROOMS}
        res = resolve_rooms(by_room, opts)
        for room in ROOMS:
            for t in res[room].trace:
                log.append(f"{room}: {t}")

        # 5-6. Room scoring, card 5 and -11 points; non-submitters score nothing (R34).
        scoring = room_scoring(res, opts["empty_room_policy"])
        gained = {p: 0 for p in players}
        for room in scoring:
            for c in res[room].played:
                gained[c.owner] += 1
        for room in ROOMS:
            rr = res[room]
            for owner in rr.five_scorers:
                gained[owner] += 1
            for owner in rr.minus11:
                lo, hi = Fraction(-15), Fraction(-5)
                inside = lo <= rr.score <= hi if opts["minus11_inclusive"] else lo < rr.score < hi
                if inside and rr.people >= 2:
                    gained[owner] += 1
        for p in forfeit:
            gained[p] = 0
        for p in players:
            st["points"][p] += gained[p]

        # The rooms, as the host sees them (R47: the calculation) and as the public sees them (R38, A27, A28).
        hide_all = bool(hiders) and opts["hide_scope"] == "all_rooms"
        for room in ROOMS:
            rr = res[room]
            owners = tuple(c.owner for c in rr.played)
            shown = () if hide_all else tuple(o for o in owners if o not in hiders)
            facts.append(RoomScored(room, shown, len(owners) - len(shown), float(rr.score), counts_only=hide_all))
            facts.append(RoomCalculation(room, tuple(CardInRoom(c.owner, c.face, c.ignored) for c in rr.played),
                                         tuple(rr.values), sum(rr.values), float(rr.multiplier), float(rr.score),
                                         rr.criterion_met, tuple(rr.trace), audience=HOST_ONLY))
        facts.append(RoomsScoring(tuple(scoring), audience=HOST_ONLY))
        facts.extend(CardBoughtAnnounced(face % 3, p if opts["announce_buyer"] else "")
                     for p, face in sorted(bought, key=lambda b: (b[1] % 3, players.index(b[0]))))
        missing = tuple(p for p in players if round_input.submissions.get(p) is None)
        if opts["announce_nonsubmission"] and missing:
            facts.append(NonSubmitters(missing))

        # 7. Card -10 transfers, simultaneous, against balances after purchases (A16).
        for room in ROOMS:
            rr = res[room]
            collectors = [o for o in rr.collectors
                          if opts["minus10_random_card_collects"] or o not in random_card]
            got: dict[str, list[str]] = {c.owner: [] for c in rr.played if c.face == -10}
            for c in rr.played:
                payees = [o for o in collectors if o != c.owner]
                if payees and balance[c.owner] >= len(payees):
                    for o in payees:
                        got[o].append(c.owner)
                        ledger.append(LedgerEntry(c.owner, -1, "card -10 payment", counterparty=o))
                        ledger.append(LedgerEntry(o, 1, "card -10 collection", counterparty=c.owner))
                    facts.append(GarnetsLost(c.owner, len(payees), audience=(c.owner,)))
            # A16: every -10 player is told what they gained, possibly 0, even when the card was
            # ignored, so the notice never reveals whether it was.
            for owner, payers in got.items():
                for payer in payers:
                    balance[payer] -= 1
                    balance[owner] += 1
                facts.append(GarnetsGained(owner, len(payers), tuple(payers), audience=(owner,)))

        # Card -12 (R29, A18): pooled, sorted faces from the other two rooms.
        for room in ROOMS:
            for c in res[room].played:
                if c.face == -12:
                    active = c.owner in res[room].learners
                    others = tuple(sorted(f for o in ROOMS if o != room for _, f in by_room[o])) if active else None
                    facts.append(CardsSeen(c.owner, others, audience=(c.owner,)))

        # 8. Opal challenge (R45, R46, A30).
        counted = [c for room in ROOMS for c in res[room].played
                   if opts["missing_player_counts_for_opal"] or c.owner not in forfeit]
        without = [c.owner for c in counted if not res[_room_of(res, c.owner)].got_bonus]
        if len(without) == 1:
            st["opal"].append([r, without[0]])
            facts.append(OpalChallengeCompleted(without[0], audience=HOST_ONLY))
            log.append(f"opal challenge completed by {without[0]} (R45)")

        facts.extend(PointsGained(p, gained[p], forfeited=p in forfeit,
                                  audience=(p,) if opts["private_round_points"] else HOST_ONLY) for p in players)

        # Hands: the played card is used up, bought copies arrive next round (A1, R35).
        for p in players:
            if opts["cards_consumed"]:
                st["hands"][p].remove(plays[p][0])
        for p, face in bought:
            st["hands"][p].append(face)
        for p in players:
            st["hands"][p].sort(key=CARDS.index)

        # End of the match (R40-R46, A30-A32).
        if final:
            st["finished"] = True
            before = dict(balance)
            for p in players:
                if st["points"][p]:
                    ledger.append(LedgerEntry(p, st["points"][p], "points payout", memo="1 garnet per point"))
                    balance[p] += st["points"][p]
            completers = sorted({pl for _, pl in st["opal"]}, key=players.index)
            if len(completers) >= 2:
                for p in completers:
                    ledger.append(LedgerEntry(p, 3, "opal challenge", memo="shared: 3 garnets instead of an opal"))
                    balance[p] += 3
            st["final_balances"] = dict(balance)
            st["balances_before_payouts"] = before
        else:
            st["round"] = r + 1
        return RoundResult(st, ledger=tuple(ledger), host_log=tuple(log), facts=tuple(facts))

    # ---- reports, drawn from the facts ------------------------------------
    def render(self, facts: Sequence[Any], viewer: str | None, ctx: RenderContext) -> Report:
        """The public post (R38, A27, A28) or one player's confessional (section (c)), from the facts."""
        r = ctx.round
        if viewer is None:
            rooms = of_type(facts, RoomScored)
            counts = any(f.counts_only for f in rooms)
            head = (Cell("Room", bold=True),) + tuple(Cell(f.room, fill=ROOM_FILL[f.room], bold=True) for f in rooms)
            who = (Cell("Players (count)" if counts else "Players"),) + tuple(Cell(_who(f)) for f in rooms)
            score = (Cell("Score"),) + tuple(Cell(_num(f.score)) for f in rooms)
            lines = [(f"{f.buyer} bought a card" if f.buyer else "A card was bought")
                     + f"; its value mod 3 is {f.mod3}." for f in of_type(facts, CardBoughtAnnounced)]
            lines += [f"Did not submit: {', '.join(f.players)}" for f in of_type(facts, NonSubmitters)]
            return Report(f"Round {r}", (Block(f"Round {r}: rooms", tuple(lines), (head, who, score)),))
        lines: list[str] = []
        for f in facts:
            if isinstance(f, CardPlayed) and f.player == viewer:
                lines.append(f"You played card {f.card} in {f.room}.")
                if not f.submitted:
                    lines.append("You did not submit this round: a random card and room were used, and you "
                                 "cannot score points this round.")
                if f.submitted and f.random_card:
                    lines.append(f"Your card was chosen at random: {f.card}. You cannot score this round.")
                if f.submitted and f.random_room:
                    lines.append(f"Your room was chosen at random: {f.room}. You cannot score this round.")
            elif isinstance(f, SubmissionProblem) and f.player == viewer:
                lines.append(f"Problem: {f.problem.text_for(viewer)}")
            elif isinstance(f, Purchase) and f.player == viewer:
                lines.append(_purchase_text(f))
            elif isinstance(f, PurchasesRefused) and f.player == viewer:
                lines.append(f"Your purchases cost {f.cost} garnets but you have {f.balance}: none were made and "
                             "nothing was charged.")
            elif isinstance(f, GarnetsLost) and f.player == viewer:
                lines.append(f"You lost {plural(f.garnets, 'garnet')}.")
            elif isinstance(f, GarnetsGained) and f.player == viewer:
                lines.append(f"Card -10: you gained {plural(f.garnets, 'garnet')}"
                             + (f" from {', '.join(f.payers)}." if f.payers else "."))
            elif isinstance(f, CardsSeen) and f.player == viewer:
                lines.append("Card -12: no information." if f.cards is None else
                             "Card -12: cards played in the other two rooms: "
                             + (", ".join(map(str, f.cards)) if f.cards else "none"))
            elif isinstance(f, PointsGained) and f.player == viewer:
                lines.append(f"Points gained this round: {f.points}.")
        return Report(f"Round {r}", (Block(f"Round {r}: your result", tuple(lines)),))

    def picture(self, facts: Sequence[Any], viewer: str | None, ctx: RenderContext) -> Picture | None:
        """The round's room table: three rooms with who went there (or how many) and the score."""
        if viewer is not None:
            return None
        rooms = of_type(facts, RoomScored)
        if not rooms:
            return None
        w, h, pad = 180, 150, 10
        shapes: list[Any] = [Label(pad, 8, f"{ctx.game_name}: round {ctx.round}", size=16, bold=True)]
        for i, f in enumerate(rooms):
            x, y = pad + i * (w + pad), 36
            shapes.append(Box(x, y, w, h, fill=ROOM_FILL[f.room], outline="000000"))
            shapes.append(Label(x + 8, y + 6, f.room, size=16, bold=True))
            shapes.append(Label(x + 8, y + 30, f"score {_num(f.score)}", size=14))
            people = [_who(f)] if f.counts_only else (list(f.players) + ([f"{f.hidden} hidden"] if f.hidden else [])
                                                      or ["nobody"])
            for j, name in enumerate(people[:6]):
                shapes.append(Label(x + 8, y + 54 + j * 15, name, size=12))
            if len(people) > 6:
                shapes.append(Label(x + 8, y + 54 + 6 * 15, f"+{len(people) - 6} more", size=12))
        return Picture(pad + 3 * (w + pad), 36 + h + pad, tuple(shapes), title=f"Round {ctx.round}")

    # ---- views ------------------------------------------------------------
    def player_view(self, state: State, player: str) -> Report:
        hand = ", ".join(map(str, state["hands"][player])) or "none"
        lines = [f"Your hand: {hand}"]
        if not state["finished"]:
            lines.insert(0, f"Round {state['round']} of {state['options']['rounds']} is open for submissions.")
        else:
            lines.insert(0, f"The match is over. Your points: {state['points'][player]}.")
        return Report(f"{SPEC.name}: {player}", (Block("Now", tuple(lines)),))

    def public_view(self, state: State) -> Report:
        status = (f"Round {state['round']} of {state['options']['rounds']} is open." if not state["finished"]
                  else "The match is over.")
        legend = tuple((f"{room}: x1.5 when cards sum to {Room(room).residue} mod 3", ROOM_FILL[room]) for room in ROOMS)
        return Report(f"{SPEC.name}: board", (Block("Status", (status,), legend=legend),))

    def outcome(self, state: State, decisions: Mapping[str, Any] | None = None) -> Outcome | None:
        """Winners, losers, awards and the EC (R40-R46, A30-A32). A tie for fewest points asks for
        the winners' vote (request "ec-vote"); until it is entered the garnet tie-break is only
        what would apply, and the EC is left pending."""
        if not state["finished"]:
            return None
        decisions = decisions or {}
        opts, players, pts = state["options"], state["players"], state["points"]
        top, bottom = max(pts.values()), min(pts.values())
        winners = tuple(p for p in players if pts[p] == top)
        losers = tuple(p for p in players if pts[p] == bottom)
        awards, reasons = [], [f"Most points: {top} ({', '.join(winners)})."]
        requests: list[DecisionRequest] = []
        facts: list[Fact] = []
        host_log: list[str] = []
        if len(winners) == 1:
            awards += [Award(winners[0], "Token of Life", 2, "single winner"),
                       Award(winners[0], "opal", 1, "single winner")]
        else:
            awards += [Award(w, "Token of Life", 1, "joint winner") for w in winners]
        completers = sorted({pl for _, pl in state["opal"]}, key=players.index)
        if len(completers) == 1:
            awards.append(Award(completers[0], "opal", 1, "opal challenge"))
            reasons.append(f"Opal challenge: {completers[0]} alone completed it and receives an opal.")
        elif completers:
            reasons.append(f"Opal challenge: completed by {', '.join(completers)}; 3 garnets each instead of an opal.")
        else:
            reasons.append("Opal challenge: nobody completed it.")
        ec = None
        if len(losers) == 1:
            ec = losers[0]
            reasons.append(f"Fewest points: {bottom} ({ec}), who goes to the Elimination Candidate.")
        elif set(losers) == set(players):
            req = DecisionRequest("ec-host", "Every player is tied on points: who goes to the Elimination "
                                  "Candidate?", DecisionKind.CHOICE, losers, default="no Elimination Candidate yet")
            requests.append(req)
            ec = decisions.get(req.key)
            reasons.append(f"Every player is tied on {bottom} points" + (f"; the host chose {ec} for the "
                                                                           "Elimination Candidate." if ec else "."))
        else:
            reasons.append(f"Fewest points: {bottom}, tied between {', '.join(losers)}.")
            bal = state["final_balances"] if opts["ec_garnet_timing"] == "after_payouts" else state["balances_before_payouts"]
            ec = _ec_among_tied(winners, losers, bal, opts, decisions, reasons, requests, facts, host_log)
        standings = tuple((p, plural(pts[p], "point")) for p in sorted(players, key=lambda p: (-pts[p], players.index(p))))
        ending = "single_winner" if len(winners) == 1 else "shared_win"
        return Outcome(winners, losers, ec, standings, tuple(reasons), tuple(awards), requests=tuple(requests),
                       facts=tuple(facts), scores={p: float(pts[p]) for p in players}, ending=ending,
                       host_log=tuple(host_log))

    # ---- starting from a position -------------------------------------------
    def from_position(self, players, options, tables, position, rng: Rng) -> State:
        """A game at round `round` with the players' `hands` and `points` (and `opal`: [[round, player]]).

        >>> st = GAME.from_position(["A", "B"], DEFAULTS, {}, {"round": 11, "hands": {"A": [3, -10], "B": [5]},
        ...                          "points": {"A": 4, "B": 2}}, Rng(1))
        >>> st["round"], st["hands"]["A"]
        (11, [3, -10])
        """
        st = self.setup(players, options, tables, rng)
        opts = st["options"]
        known = {"round", "hands", "points", "opal"}
        extra = sorted(set(position) - known)
        if extra:
            raise PositionError(f"unknown position key(s) {', '.join(extra)}; a Three Modular Rooms position has "
                                "round, hands, points and opal")
        r = position.get("round", 1)
        if not isinstance(r, int) or not 1 <= r <= opts["rounds"]:
            raise PositionError(f"round {r!r}: a position opens a round from 1 to {opts['rounds']}")
        left = opts["rounds"] - r + 1
        hands = position.get("hands", {})
        points = position.get("points", {})
        for what, table in (("hands", hands), ("points", points)):
            unknown = sorted(set(table) - set(players))
            if unknown:
                raise PositionError(f"{what}: {', '.join(unknown)} is not a player (players: {', '.join(players)})")
        for p in players:
            hand = hands.get(p, st["hands"][p] if r == 1 else None)
            if hand is None:
                raise PositionError(f"hands: {p}'s hand is missing (a position after round 1 gives every hand)")
            bad = [c for c in hand if c not in CARDS]
            if bad:
                raise PositionError(f"hands: {p} holds {bad[0]!r}, which is not a card (cards: 1-9, -10, -11, -12)")
            if opts["cards_consumed"] and len(hand) < left:
                raise PositionError(f"hands: {p} holds {len(hand)} card(s) but {left} round(s) remain; cards are "
                                    "used up, so that position cannot happen")
            st["hands"][p] = sorted(hand, key=CARDS.index)
            pt = points.get(p, 0)
            if not isinstance(pt, int) or not 0 <= pt <= 2 * (r - 1):
                raise PositionError(f"points: {p} has {pt!r}; after {r - 1} round(s) a player has 0 to {2 * (r - 1)} "
                                    "(one room point and one card point a round at most)")
            st["points"][p] = pt
        opal = position.get("opal", [])
        for item in opal:
            if (not isinstance(item, (list, tuple)) or len(item) != 2 or item[1] not in players
                    or not isinstance(item[0], int) or not 1 <= item[0] < r):
                raise PositionError(f"opal: {item!r} should be [round before {r}, player]")
        st["opal"] = [list(x) for x in opal]
        st["round"] = r
        return st

    def random_submission(self, state: State, player: str, rng: Rng) -> RawSubmission:
        card = rng.choice(sorted(state["hands"][player], key=CARDS.index))
        room = rng.choice(ROOMS)
        buy, hide = "", "no"
        x = rng.random()
        if x < 0.05 and state["round"] < state["options"]["rounds"]:
            buy = str(rng.choice(CARDS))
        elif x < 0.08:
            hide = "yes"
        return {"play": [{"card": str(card), "room": room}], "buy": [{"buy_cards": buy, "buy_hide": hide}]}


ROOM_FILL = {"Null": "D9D9D9", "Solitary": "BDD7EE", "Duel": "F8CBAD"}


def _ec_among_tied(winners: tuple[str, ...], losers: tuple[str, ...], bal: Mapping[str, int],
                   opts: Mapping[str, Any], decisions: Mapping[str, Any], reasons: list[str],
                   requests: list[DecisionRequest], facts: list[Fact], host_log: list[str]) -> str | None:
    """A31 for tied losers: the winners' vote (decision "ec-vote": each winner's ballot, or the
    result alone as a host may prefer), a majority being strictly more than half of the winners;
    without one, the garnet tie-break; garnets tied too, the host ("ec-host"). None while pending."""
    pick = min if opts["ec_garnet_tiebreak"] == "fewest_goes" else max
    edge = pick(bal[p] for p in losers)
    by_garnets = tuple(p for p in losers if bal[p] == edge)
    counts = ", ".join(f"{p} {bal[p]}" for p in losers)
    would = (f"garnets would decide ({counts}): {by_garnets[0]}" if len(by_garnets) == 1
             else f"garnets are tied too ({counts}): the host decides among {', '.join(by_garnets)}")
    majority = len(winners) // 2 + 1
    vote = DecisionRequest(
        "ec-vote", f"The winners' vote: each winner ({', '.join(winners)}) names one of {', '.join(losers)} to go "
        f"to the Elimination Candidate; {majority} of {len(winners)} vote(s) is a majority, otherwise the garnets "
        f"decide. Enter the ballots, or the result alone ('{NO_MAJORITY}' if none).", DecisionKind.BALLOTS,
        losers, default=would, who="the winners by vote", voters=winners, results_alone=(NO_MAJORITY,))
    requests.append(vote)
    cast = _vote_entered(decisions.get(vote.key), winners, losers, majority, host_log)
    if cast is None:
        return None
    facts.append(cast)
    if cast.entered_as == "ballots":
        tally = ", ".join(f"{p} {n}" for p, n in cast.tally)
        host_log.append(f"EC vote (A31): ballots {'; '.join(f'{w}: {c}' for w, c in cast.ballots)}; tally {tally}; "
                        f"a majority is {majority} of {len(winners)}: {cast.result}")
        reasons.append(f"The winners' vote ({tally}; a majority is {majority} of {len(winners)}): "
                       + (f"{cast.result} goes to the Elimination Candidate." if cast.result != NO_MAJORITY
                          else "no majority."))
    else:
        host_log.append(f"EC vote (A31): the host entered the result alone, {cast.result}; no ballots recorded")
        if cast.result != NO_MAJORITY:
            reasons.append(f"The winners' vote: {cast.result} goes to the Elimination Candidate.")
        else:
            reasons.append("No majority in the winners' vote.")
    if cast.result != NO_MAJORITY:
        return cast.result
    if len(by_garnets) == 1:
        reasons.append(f"Garnets decide ({counts}): {by_garnets[0]} goes to the Elimination Candidate.")
        return by_garnets[0]
    host = DecisionRequest("ec-host", f"No majority and garnets tied ({counts}): who goes to the "
                           "Elimination Candidate?", DecisionKind.CHOICE, by_garnets,
                           default="no Elimination Candidate yet")
    requests.append(host)
    ec = decisions.get(host.key)
    reasons.append(f"Garnets are tied too ({counts})"
                   + (f"; the host chose {ec} for the Elimination Candidate." if ec else "."))
    return ec


def _vote_entered(entered: Any, winners: tuple[str, ...], losers: tuple[str, ...], majority: int,
                  host_log: list[str]) -> WinnersVote | None:
    """The entered "ec-vote" as a WinnersVote: ballots ({winner: tied loser}) counted, or the result
    alone (a string, also how records before issue 29 hold it). None if nothing usable is entered."""
    if isinstance(entered, str) and entered:
        return WinnersVote(winners, losers, (), (), majority, entered, "result", audience=HOST_ONLY)
    if not isinstance(entered, Mapping) or not entered:
        return None
    if sorted(entered) != sorted(winners) or any(c not in losers for c in entered.values()):
        host_log.append("EC vote (A31): the ballots entered no longer match the winners and tied losers; "
                        "enter them again")
        return None
    ballots = tuple((w, entered[w]) for w in winners)
    tally = tuple((p, sum(1 for _, c in ballots if c == p)) for p in losers)
    won = [p for p, n in tally if n >= majority]     # at most one: a majority is more than half
    return WinnersVote(winners, losers, ballots, tally, majority, won[0] if won else NO_MAJORITY, "ballots",
                       audience=HOST_ONLY)


def _first_row(raw: RawSubmission, section: str) -> Mapping[str, str]:
    rows = raw.get(section) or [{}]
    return rows[0] if rows else {}


def _room_of(res: Mapping[str, RoomResult], owner: str) -> str:
    for room in ROOMS:
        if any(c.owner == owner for c in res[room].played):
            return room
    raise KeyError(owner)


GAME = ThreeModularRooms()
