"""Three Modular Rooms: "greedy" takes the most it can this round, never buying."""
from __future__ import annotations

from ...core.rng import Rng
from ...core.types import RawSubmission
from ..view import PlayerView, strategy

TMR_ROOM_FOR_RESIDUE = {0: "Null", 1: "Solitary", 2: "Duel"}


@strategy("greedy", "three-modular-rooms")
def tmr_greedy(view: PlayerView, rng: Rng) -> RawSubmission:
    """Play the highest card left, into the room whose mod-3 bonus it would meet alone; never buy."""
    hand = [int(c) for c in view.form.section("play").fields[0].choices]
    card = max(hand)
    return {"play": [{"card": str(card), "room": TMR_ROOM_FOR_RESIDUE[card % 3]}],
            "buy": [{"buy_cards": "", "buy_hide": "no"}]}
