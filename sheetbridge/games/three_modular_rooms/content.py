"""Three Modular Rooms, the content: the cards, the rooms and the prices, fixed by the ruleset.

The game reads no host tables (its whole content is the twelve cards and three rooms below), so
there is nothing to check here: ``GameRules.check_tables`` keeps its default (no problems).
"""
from __future__ import annotations

import enum

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


def card_text(face: int) -> str:
    return str(face)
