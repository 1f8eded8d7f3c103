"""Three Modular Rooms, the rules: one round resolved as the steps of A33, in its order.

``resolve_round`` reads as the list of steps; each step is a function citing its R/A numbers once.
The card effects (R13-R29) are the room engine, ``resolve_rooms``, which the host's dry-run
calculator (``calculate``, R47) shares. The match's end is in ending.py.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence, cast

from ...core.errors import SheetbridgeError
from ...core.facts import HOST_ONLY
from ...core.rng import Rng
from ...core.types import LedgerEntry, ProblemKind, RoundInput, RoundResult, State
from .content import CARD_PRICE, CARDS, HIDE_PRICE, ROOMS, Room
from .facts import (CardBoughtAnnounced, CardInRoom, CardPlayed, CardsSeen, GarnetsGained, GarnetsLost,
                    LedgerReason, NonSubmitters, OpalChallengeCompleted, PointsGained, Purchase,
                    PurchasesRefused, RoomCalculation, RoomScored, RoomsScoring, SubmissionProblem)
from .options import Options, options_of
from .spec import DEFAULTS
from .state import TmrState

# ------------------------------------------------------------- the room engine (R6-R29)


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


def resolve_rooms(rooms: Mapping[str, Sequence[tuple[str, int]]], options: Options | Mapping[str, Any],
                  random_owners: frozenset[str] = frozenset()) -> dict[str, RoomResult]:
    """All three rooms' card steps and room effects (the rulings' default procedure).

    `rooms` maps a room name to its (owner, face) pairs in roster order. Missing
    rooms are empty. Pure and used both by `resolve` and by the dry-run calculator.
    `options`: the typed options, or the host's options as a mapping (every option named).
    """
    opts = options if isinstance(options, Options) else Options.parse(options)
    res = {r: RoomResult(r, [PlayedCard(o, f) for o, f in rooms.get(r, ())],
                         [f for _, f in rooms.get(r, ())]) for r in ROOMS}
    empty_rooms = sum(1 for r in res.values() if r.people == 0)
    twos_everywhere = any(sum(1 for c in r.played if c.face == 2) >= 2 for r in res.values())  # R15, A7
    if opts.two_ignore_timing == "before_all_effects":
        for r in res.values():
            ignore_duplicates(r, twos_everywhere)
    for step in CARDS:  # R6; every room finishes a step before the next (A4)
        for r in res.values():
            if step == 2:
                if opts.two_ignore_timing == "in_order":
                    ignore_duplicates(r, twos_everywhere)
                continue
            for card in [c for c in r.played if c.face == step]:
                if card.ignored:
                    continue
                before = list(r.values)
                CARD_EFFECTS[step](card, r, opts, empty_rooms)
                if r.values != before:
                    r.trace.append(f"{step}: {before} -> {r.values}")
    for r in res.values():
        apply_room_effect(r, opts)
    return res


def ignore_duplicates(r: RoomResult, twos_everywhere: bool) -> None:
    """Card 2: duplicated faces (other than 2) in the room are ignored (R14, R15, A3, A7)."""
    if not (twos_everywhere or any(c.face == 2 and not c.ignored for c in r.played)):
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


def negate_the_highest(card: PlayedCard, r: RoomResult, opts: Options, empty_rooms: int) -> None:
    """Card 1: every value equal to the maximum is negated (R13, A5)."""
    top = max(r.values)
    r.values = [-v if v == top else v for v in r.values]


def alone_becomes_30(card: PlayedCard, r: RoomResult, opts: Options, empty_rooms: int) -> None:
    """Card 3: alone in the room, the values become [30] (R16, A8)."""
    if r.people == 1:
        r.values = [30]


def ignore_the_totals_digit(card: PlayedCard, r: RoomResult, opts: Options, empty_rooms: int) -> None:
    """Card 4: cards whose face ends in the room total's last digit are ignored (R17, A9)."""
    total = sum(r.values) if opts.four_total_basis == "current_values" else sum(c.face for c in r.played)
    digit = abs(total) % 10
    hit = [c for c in r.played if abs(c.face) % 10 == digit and not c.ignored]
    for c in hit:
        c.ignored = True
    if hit:
        r.trace.append(f"4: total {total} ends in {digit}: {', '.join(str(c.face) for c in hit)} ignored")


def point_for_an_empty_room(card: PlayedCard, r: RoomResult, opts: Options, empty_rooms: int) -> None:
    """Card 5: a point when a room is empty (R18, A10)."""
    ok = empty_rooms >= 1 if opts.five_empty_condition == "at_least_one" else empty_rooms == 1
    if ok:
        r.five_scorers.append(card.owner)


def add_15_or_minus_14(card: PlayedCard, r: RoomResult, opts: Options, empty_rooms: int) -> None:
    """Card 6: a 15 on a multiple of 5, a -14 on a multiple of 7 (R19, R20, A11)."""
    s = sum(r.values)
    if s % 5 == 0:
        r.values.append(15)
    if opts.six_conditions == "sequential":
        s = sum(r.values)
    if s % 7 == 0:
        r.values.append(-14)


def all_become_7(card: PlayedCard, r: RoomResult, opts: Options, empty_rooms: int) -> None:
    """Card 7: positive values become 7, negative ones -7 (R21, A13)."""
    r.values = [7 if v > 0 else -7 if v < 0 else 0 for v in r.values]


def max_times_min(card: PlayedCard, r: RoomResult, opts: Options, empty_rooms: int) -> None:
    """Card 8: the values become one, the largest times the smallest (R22, R23, A14)."""
    if len(r.values) > 1:
        r.values = [max(r.values) * min(r.values)]


def double_for_three(card: PlayedCard, r: RoomResult, opts: Options, empty_rooms: int) -> None:
    """Card 9: exactly three people make the room's multiplier 2x (R24, A15)."""
    if r.people == 3:
        r.bonus = Fraction(2)


def collect_garnets(card: PlayedCard, r: RoomResult, opts: Options, empty_rooms: int) -> None:
    """Card -10: its owner collects from the room, after scoring (R25-R27; transfer_minus10_garnets)."""
    r.collectors.append(card.owner)


def point_for_a_low_score(card: PlayedCard, r: RoomResult, opts: Options, empty_rooms: int) -> None:
    """Card -11: its owner may score on the final room score (R28, A17; score_points)."""
    r.minus11.append(card.owner)


def learn_other_rooms(card: PlayedCard, r: RoomResult, opts: Options, empty_rooms: int) -> None:
    """Card -12: its owner learns the other rooms' cards (R29, A18; show_minus12_cards)."""
    r.learners.append(card.owner)


CardEffect = Callable[[PlayedCard, RoomResult, Options, int], None]
CARD_EFFECTS: dict[int, CardEffect] = {
    1: negate_the_highest, 3: alone_becomes_30, 4: ignore_the_totals_digit, 5: point_for_an_empty_room,
    6: add_15_or_minus_14, 7: all_become_7, 8: max_times_min, 9: double_for_three,
    -10: collect_garnets, -11: point_for_a_low_score, -12: learn_other_rooms,
}   # card 2 is ignore_duplicates, run for every room at its step


def apply_room_effect(r: RoomResult, opts: Options) -> None:
    """The room's score: its values' sum, times its multiplier when the sum meets its residue (R8-R12, A19-A21)."""
    base = sum(r.values)
    basis = base if opts.room_effect_basis == "final_cards" else sum(c.face for c in r.played)
    r.criterion_met = r.people > 0 and basis % 3 == Room(r.room).residue  # A20: Python's % is mathematical
    if r.criterion_met:
        r.multiplier = r.bonus
    elif r.people > 0 and r.bonus == 2 and opts.nine_without_match == "2x":
        r.multiplier = Fraction(2)
    r.score = Fraction(base) * r.multiplier
    if r.people:
        r.trace.append(f"base {base}, {basis} mod 3 = {basis % 3}: multiplier {_fmt(r.multiplier)}, "
                       f"score {_fmt(r.score)}")


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
    opts = Options.parse({**DEFAULTS, **(options or {})})
    named = {r: [(f"card{i + 1}", f) for i, f in enumerate(rooms.get(r, ()))] for r in ROOMS}
    res = resolve_rooms(named, opts)
    lines = []
    for r in ROOMS:
        rr = res[r]
        lines.append(f"{r}: cards {[c.face for c in rr.played]}")
        lines.extend(f"  {t}" for t in rr.trace)
        lines.append(f"  final cards {rr.values}, score {_fmt(rr.score)}")
    lines.append("Scoring room(s): " + (", ".join(room_scoring(res, opts.empty_room_policy)) or "none"))
    return lines


# ------------------------------------------------------------- the match's start


def setup(players: Sequence[str], options: Mapping[str, Any]) -> TmrState:
    """Everyone holds the twelve cards and no points; with cards used up, at most 12 rounds (R1, R2, A1)."""
    opts = {**DEFAULTS, **options}
    if opts["cards_consumed"] and not 1 <= opts["rounds"] <= len(CARDS):
        raise SheetbridgeError(f"option rounds = {opts['rounds']}: with cards used up, a game has 1 to "
                               f"{len(CARDS)} rounds")
    return {"round": 1, "finished": False, "options": opts, "players": list(players),
            "hands": {p: list(CARDS) for p in players}, "points": {p: 0 for p in players},
            "opal": [], "final_balances": {}, "payouts": {}}


# ------------------------------------------------------------- one round, the steps of A33


@dataclass
class RoundWork:
    """What a round's steps share while they run: the new state, the choices made, what is told and booked."""
    state: TmrState
    opts: Options
    given: RoundInput
    facts: list[Any] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    ledger: list[LedgerEntry] = field(default_factory=list)
    plays: dict[str, tuple[int, str]] = field(default_factory=dict)        # player -> (card, room)
    buys: dict[str, tuple[list[int], bool]] = field(default_factory=dict)  # player -> (cards, hide)
    forfeit: set[str] = field(default_factory=set)       # given a random card or room: no score (R34)
    random_card: set[str] = field(default_factory=set)
    balance: dict[str, int] = field(default_factory=dict)
    bought: list[tuple[str, int]] = field(default_factory=list)
    hiders: list[str] = field(default_factory=list)
    by_room: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    rooms: dict[str, RoomResult] = field(default_factory=dict)
    scoring: list[str] = field(default_factory=list)
    gained: dict[str, int] = field(default_factory=dict)

    @property
    def players(self) -> list[str]:
        return self.state["players"]


def resolve_round(state: TmrState, given: RoundInput, rng: Rng) -> RoundResult:
    """One round, step by step (A33)."""
    # A new state; only what a round changes is copied (options and players are never written).
    st: TmrState = {**state, "hands": {p: list(h) for p, h in state["hands"].items()},
                    "points": dict(state["points"]), "opal": [list(x) for x in state["opal"]]}
    work = RoundWork(st, options_of(state), given)
    hold_invalid_for_host(work)
    play_cards(work, rng)
    charge_purchases(work)
    resolve_card_steps(work)
    score_points(work)
    announce_rooms(work)
    transfer_minus10_garnets(work)
    show_minus12_cards(work)
    check_opal_challenge(work)
    tell_points(work)
    deliver_hands(work)
    end_match_or_open_next(work)
    return RoundResult(cast(State, st), ledger=tuple(work.ledger), host_log=tuple(work.log), facts=tuple(work.facts))


def hold_invalid_for_host(work: RoundWork) -> None:
    """With hold_for_host, an invalid card or room stops the round until the host fixes it (A25)."""
    if work.opts.invalid_submission_policy == "hold_for_host":
        bad = [p.message for s in work.given.submissions.values() if s for p in s.problems
               if p.kind is not ProblemKind.MISSING and p.field in ("card", "room")]
        if bad:
            raise SheetbridgeError("invalid submissions are held for the host (option "
                                   "invalid_submission_policy, A25): " + "; ".join(bad))


def play_cards(work: RoundWork, rng: Rng) -> None:
    """Every player's card and room; a random one where missing or invalid, and no score (R33, R34, A24)."""
    hands = work.state["hands"]
    for p in work.players:
        sub = work.given.submissions.get(p)
        vals = dict(sub.values) if sub else {"card": None, "room": None, "buy_cards": [], "buy_hide": False}
        rand_card = rand_room = False
        if vals["card"] is None:
            vals["card"] = rng.choice(sorted(hands[p], key=CARDS.index))
            work.forfeit.add(p)
            work.random_card.add(p)
            rand_card = True
            work.log.append(f"{p}: random card {vals['card']} (R33, A24)")
        if vals["room"] is None:
            vals["room"] = rng.choice(ROOMS)
            work.forfeit.add(p)
            rand_room = True
            work.log.append(f"{p}: random room {vals['room']} (R33, A24)")
        work.plays[p] = (vals["card"], vals["room"])
        work.facts.append(CardPlayed(p, vals["card"], vals["room"], submitted=sub is not None,
                                     random_card=rand_card, random_room=rand_room, audience=(p,)))
        if sub is not None:
            work.facts.extend(SubmissionProblem(p, pr, audience=(p,)) for pr in sub.problems)
        work.buys[p] = (list(vals["buy_cards"]), bool(vals["buy_hide"])) if sub else ([], False)


def charge_purchases(work: RoundWork) -> None:
    """Card copies and hiding bought, charged before any -10 check (R35, R37, A26, A27)."""
    balance = work.balance = {p: int(work.given.balances.get(p, 0)) for p in work.players}
    limit = work.opts.max_card_purchases_per_round
    r = work.state["round"]
    for p in work.players:
        cards, hide = work.buys[p]
        if limit and len(cards) > limit:
            work.facts.extend(Purchase(p, "card", c, CARD_PRICE, False, "over_limit", limit=limit, audience=(p,))
                              for c in cards[limit:])
            cards = cards[:limit]
        items = [("card", c, CARD_PRICE) for c in cards] + ([("hide", 0, HIDE_PRICE)] if hide else [])
        cost = sum(i[2] for i in items)
        if cost > balance[p] and work.opts.unaffordable_purchases == "reject_all":
            if items:
                work.facts.append(PurchasesRefused(p, cost, balance[p], audience=(p,)))
            items = []
        for kind, face, price in items:
            if price > balance[p]:
                work.facts.append(Purchase(p, kind, face, price, False, "unaffordable", balance=balance[p],
                                           audience=(p,)))
                continue
            balance[p] -= price
            work.facts.append(Purchase(p, kind, face, price, True, arrives=r + 1 if kind == "card" else None,
                                       audience=(p,)))
            if kind == "card":
                work.bought.append((p, face))
                work.ledger.append(LedgerEntry(p, -CARD_PRICE, LedgerReason.CARD_PURCHASE.value, memo=f"card {face}"))
            else:
                work.hiders.append(p)
                work.ledger.append(LedgerEntry(p, -HIDE_PRICE, LedgerReason.HIDE_ROOMS.value))


def resolve_card_steps(work: RoundWork) -> None:
    """The card steps 1 to -12 in every room, then the room effects (R6-R29; resolve_rooms)."""
    work.by_room = {room: [(p, work.plays[p][0]) for p in work.players if work.plays[p][1] == room]
                    for room in ROOMS}
    work.rooms = resolve_rooms(work.by_room, work.opts)
    for room in ROOMS:
        for t in work.rooms[room].trace:
            work.log.append(f"{room}: {t}")


def score_points(work: RoundWork) -> None:
    """The scoring rooms' points, card 5 and -11 points; none for a random card or room (R30-R32, R18, R28, R34)."""
    res, players = work.rooms, work.players
    work.scoring = room_scoring(res, work.opts.empty_room_policy)
    gained = work.gained = {p: 0 for p in players}
    for room in work.scoring:
        for c in res[room].played:
            gained[c.owner] += 1
    for room in ROOMS:
        rr = res[room]
        for owner in rr.five_scorers:
            gained[owner] += 1
        for owner in rr.minus11:
            lo, hi = Fraction(-15), Fraction(-5)
            inside = lo <= rr.score <= hi if work.opts.minus11_inclusive else lo < rr.score < hi
            if inside and rr.people >= 2:
                gained[owner] += 1
    for p in work.forfeit:
        gained[p] = 0
    for p in players:
        work.state["points"][p] += gained[p]


def announce_rooms(work: RoundWork) -> None:
    """The rooms as the public sees them and as the host does, and the purchases announced (R36, R38, R47, A24, A27, A28)."""
    opts, players, res = work.opts, work.players, work.rooms
    hide_all = bool(work.hiders) and opts.hide_scope == "all_rooms"
    for room in ROOMS:
        rr = res[room]
        owners = tuple(c.owner for c in rr.played)
        shown = () if hide_all else tuple(o for o in owners if o not in work.hiders)
        work.facts.append(RoomScored(room, shown, len(owners) - len(shown), float(rr.score), counts_only=hide_all))
        work.facts.append(RoomCalculation(room, tuple(CardInRoom(c.owner, c.face, c.ignored) for c in rr.played),
                                          tuple(rr.values), sum(rr.values), float(rr.multiplier), float(rr.score),
                                          rr.criterion_met, tuple(rr.trace), audience=HOST_ONLY))
    work.facts.append(RoomsScoring(tuple(work.scoring), audience=HOST_ONLY))
    work.facts.extend(CardBoughtAnnounced(face % 3, p if opts.announce_buyer else "")
                      for p, face in sorted(work.bought, key=lambda b: (b[1] % 3, players.index(b[0]))))
    missing = tuple(p for p in players if work.given.submissions.get(p) is None)
    if opts.announce_nonsubmission and missing:
        work.facts.append(NonSubmitters(missing))


def transfer_minus10_garnets(work: RoundWork) -> None:
    """Card -10 transfers, simultaneous, against balances after purchases (R25-R27, A16)."""
    balance = work.balance
    for room in ROOMS:
        rr = work.rooms[room]
        collectors = [o for o in rr.collectors
                      if work.opts.minus10_random_card_collects or o not in work.random_card]
        got: dict[str, list[str]] = {c.owner: [] for c in rr.played if c.face == -10}
        for c in rr.played:
            payees = [o for o in collectors if o != c.owner]
            if payees and balance[c.owner] >= len(payees):
                for o in payees:
                    got[o].append(c.owner)
                    work.ledger.append(LedgerEntry(c.owner, -1, LedgerReason.MINUS10_PAYMENT.value, counterparty=o))
                    work.ledger.append(LedgerEntry(o, 1, LedgerReason.MINUS10_COLLECTION.value,
                                                   counterparty=c.owner))
                work.facts.append(GarnetsLost(c.owner, len(payees), audience=(c.owner,)))
        # A16: every -10 player is told what they gained, possibly 0, even when the card was
        # ignored, so the notice never reveals whether it was.
        for owner, payers in got.items():
            for payer in payers:
                balance[payer] -= 1
                balance[owner] += 1
            work.facts.append(GarnetsGained(owner, len(payers), tuple(payers), audience=(owner,)))


def show_minus12_cards(work: RoundWork) -> None:
    """Card -12: the pooled, sorted faces of the other two rooms (R29, A18)."""
    for room in ROOMS:
        for c in work.rooms[room].played:
            if c.face == -12:
                active = c.owner in work.rooms[room].learners
                others = (tuple(sorted(f for o in ROOMS if o != room for _, f in work.by_room[o])) if active
                          else None)
                work.facts.append(CardsSeen(c.owner, others, audience=(c.owner,)))


def check_opal_challenge(work: RoundWork) -> None:
    """The only player without the room bonus completes the opal challenge (R45, A30)."""
    res = work.rooms
    counted = [c for room in ROOMS for c in res[room].played
               if work.opts.missing_player_counts_for_opal or c.owner not in work.forfeit]
    without = [c.owner for c in counted if not res[_room_of(res, c.owner)].got_bonus]
    if len(without) == 1:
        work.state["opal"].append([work.state["round"], without[0]])
        work.facts.append(OpalChallengeCompleted(without[0], audience=HOST_ONLY))
        work.log.append(f"opal challenge completed by {without[0]} (R45)")


def tell_points(work: RoundWork) -> None:
    """Each player's points this round, told privately or kept for the host (A29)."""
    private = work.opts.private_round_points
    work.facts.extend(PointsGained(p, work.gained[p], forfeited=p in work.forfeit,
                                   audience=(p,) if private else HOST_ONLY) for p in work.players)


def deliver_hands(work: RoundWork) -> None:
    """The played card is used up, bought copies arrive next round (A1, R35)."""
    hands = work.state["hands"]
    for p in work.players:
        if work.opts.cards_consumed:
            hands[p].remove(work.plays[p][0])
    for p, face in work.bought:
        hands[p].append(face)
    for p in work.players:
        hands[p].sort(key=CARDS.index)


def end_match_or_open_next(work: RoundWork) -> None:
    """After the last round, 1 garnet per point and the shared opal's 3 garnets (R44, R46, A31, A32)."""
    st, balance, players = work.state, work.balance, work.players
    if st["round"] != work.opts.rounds:
        st["round"] += 1
        return
    st["finished"] = True
    before = dict(balance)
    for p in players:
        if st["points"][p]:
            work.ledger.append(LedgerEntry(p, st["points"][p], LedgerReason.POINTS_PAYOUT.value,
                                           memo="1 garnet per point"))
            balance[p] += st["points"][p]
    completers = sorted({pl for _, pl in st["opal"]}, key=players.index)
    if len(completers) >= 2:
        for p in completers:
            work.ledger.append(LedgerEntry(p, 3, LedgerReason.OPAL_CHALLENGE.value,
                                           memo="shared: 3 garnets instead of an opal"))
            balance[p] += 3
    st["final_balances"] = dict(balance)
    st["balances_before_payouts"] = before


def _room_of(res: Mapping[str, RoomResult], owner: str) -> str:
    for room in ROOMS:
        if any(c.owner == owner for c in res[room].played):
            return room
    raise KeyError(owner)
