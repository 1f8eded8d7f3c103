"""Three Modular Rooms, the intake: a player's Submission form and how it is read.

Each bad entry becomes a Problem naming the field, the value and what is allowed, and the rules'
default applies: a random card or room, and no score that round (R33, R34, A24, A25); a purchase
that cannot be made is not made and not charged (A26).
"""
from __future__ import annotations

from typing import Any, Mapping

from ...core.parsing import YES_NO_HELP, clean, is_formula, parse_int, split_list, yes_no
from ...core.rng import Rng
from ...core.types import (Field, FieldKind, Form, Problem, ProblemKind, RawSubmission, Section,
                           Submission)
from .content import CARD_PRICE, CARDS, HIDE_PRICE, ROOMS, card_text
from .options import options_of
from .state import TmrState

RANDOM_CARD = "a random card from your hand; you cannot score this round"
RANDOM_ROOM = "a random room; you cannot score this round"
ROOM_CHOICES = "Null, Solitary or Duel"
BUY_ALLOWED = "card values 1 to 9, -10, -11, -12, separated by commas"


def hand_choices(state: TmrState, player: str) -> tuple[str, ...]:
    """The cards a player may play: their hand, in resolution order."""
    hand = set(state["hands"][player])
    return tuple(card_text(c) for c in CARDS if c in hand)


def form(state: TmrState, player: str) -> Form:
    """One card and one room (R3), and the optional purchases (R35, R37)."""
    r, last = state["round"], options_of(state).rounds
    card = Field("card", "Card", FieldKind.CHOICE, hand_choices(state, player),
                 help="one card from your hand")
    room = Field("room", "Room", FieldKind.CHOICE, ROOMS, help=ROOM_CHOICES)
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


def parse(state: TmrState, player: str, raw: RawSubmission) -> Submission:
    """A player's card, room and purchases; every problem listed, the default left to the rules."""
    play = _first_row(raw, "play")
    buy = _first_row(raw, "buy")
    problems: list[Problem] = []
    values: dict[str, Any] = {"card": None, "room": None, "buy_cards": [], "buy_hide": False}
    values["card"] = _read_card(state, player, clean(play.get("card", "")), problems)
    values["room"] = _read_room(player, clean(play.get("room", "")), problems)
    values["buy_cards"] = _read_card_purchases(state, player, buy.get("buy_cards", ""), problems)
    hide_text = clean(buy.get("buy_hide", ""))
    hide = yes_no(hide_text)
    if hide is None:
        problems.append(Problem(ProblemKind.SYNTAX, player, "buy_hide", hide_text, YES_NO_HELP,
                                "not yes or no", "rooms not hidden, nothing charged"))
    else:
        values["buy_hide"] = hide
    return Submission(player, values, tuple(problems), raw)


def _read_card(state: TmrState, player: str, text: str, problems: list[Problem]) -> int | None:
    """The card played, if it is one in the player's hand (R3, A1)."""
    allowed = ", ".join(hand_choices(state, player))
    if text == "":
        problems.append(Problem(ProblemKind.MISSING, player, "card", "", allowed, "no card chosen", RANDOM_CARD))
        return None
    if is_formula(text):
        problems.append(Problem(ProblemKind.SYNTAX, player, "card", text, allowed,
                                "a formula, not a card; type the card's number", RANDOM_CARD))
        return None
    face = parse_int(text)
    if face is None:
        reason = "two cards in one cell" if len(split_list(text)) > 1 else "not a card number"
        problems.append(Problem(ProblemKind.SYNTAX, player, "card", text, allowed, reason, RANDOM_CARD))
    elif face not in CARDS:
        problems.append(Problem(ProblemKind.ILLEGAL, player, "card", text, allowed,
                                "no such card in this game", RANDOM_CARD))
    elif face not in state["hands"][player]:
        problems.append(Problem(ProblemKind.ILLEGAL, player, "card", text, allowed,
                                "not in your hand (already played, or bought and not yet arrived)", RANDOM_CARD))
    else:
        return face
    return None


def _read_room(player: str, text: str, problems: list[Problem]) -> str | None:
    """The room chosen, in any case (R3)."""
    room = next((r for r in ROOMS if r.casefold() == text.casefold()), None)
    if text == "":
        problems.append(Problem(ProblemKind.MISSING, player, "room", "", ROOM_CHOICES, "no room chosen",
                                RANDOM_ROOM))
    elif room is None:
        reason = "a formula, not a room" if is_formula(text) else (
            "two rooms in one cell" if len(split_list(text)) > 1 else "no such room")
        problems.append(Problem(ProblemKind.SYNTAX, player, "room", text, ROOM_CHOICES, reason, RANDOM_ROOM))
    return room


def _read_card_purchases(state: TmrState, player: str, text: str, problems: list[Problem]) -> list[int]:
    """The card copies to buy (R35); none in the final round unless the host allows it (A26)."""
    opts = options_of(state)
    final = state["round"] == opts.rounds
    reject_final = opts.final_round_card_purchase == "reject"
    faces: list[int] = []
    for item in split_list(text):
        face = parse_int(item)
        if face is None or face not in CARDS:
            kind = ProblemKind.SYNTAX if face is None else ProblemKind.ILLEGAL
            problems.append(Problem(kind, player, "buy_cards", item, BUY_ALLOWED, "not a card",
                                    "that item is not bought"))
        elif final and reject_final:
            problems.append(Problem(ProblemKind.ILLEGAL, player, "buy_cards", item, "no purchases",
                                    "no card can be bought in the final round (it would never arrive)",
                                    "not bought, not charged"))
        else:
            faces.append(face)
    return faces


def default_submission(state: TmrState, player: str, rng: Rng) -> Mapping[str, Any]:
    """R33/A24: a random card from the hand and a random room; no purchases."""
    return {"card": rng.choice(sorted(state["hands"][player], key=CARDS.index)),
            "room": rng.choice(ROOMS), "buy_cards": [], "buy_hide": False}


def _first_row(raw: RawSubmission, section: str) -> Mapping[str, str]:
    rows = raw.get(section) or [{}]
    return rows[0] if rows else {}
