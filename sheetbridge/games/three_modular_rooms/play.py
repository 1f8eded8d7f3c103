"""Three Modular Rooms, random play: a legal submission as a player would type it (the simulator's
``random`` strategy and the conformance checks use it).
"""
from __future__ import annotations

from ...core.rng import Rng
from ...core.types import RawSubmission
from .content import CARDS, ROOMS
from .options import options_of
from .state import TmrState


def random_submission(state: TmrState, player: str, rng: Rng) -> RawSubmission:
    card = rng.choice(sorted(state["hands"][player], key=CARDS.index))
    room = rng.choice(ROOMS)
    buy, hide = "", "no"
    x = rng.random()
    if x < 0.05 and state["round"] < options_of(state).rounds:
        buy = str(rng.choice(CARDS))
    elif x < 0.08:
        hide = "yes"
    return {"play": [{"card": str(card), "room": room}], "buy": [{"buy_cards": buy, "buy_hide": hide}]}
