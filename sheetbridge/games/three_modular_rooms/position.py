"""Three Modular Rooms, a game set up from a described position: the round open, each player's
hand and points, and the opal challenges completed so far, each checked against what can happen.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...core.errors import PositionError
from .content import CARDS
from .options import options_of
from .rules import setup
from .state import TmrState


def from_position(players: Sequence[str], options: Mapping[str, Any], position: Mapping[str, Any]) -> TmrState:
    """A game at round `round` with the players' `hands` and `points` (and `opal`: [[round, player]])."""
    st = setup(players, options)
    opts = options_of(st)
    known = {"round", "hands", "points", "opal"}
    extra = sorted(set(position) - known)
    if extra:
        raise PositionError(f"unknown position key(s) {', '.join(extra)}; a Three Modular Rooms position has "
                            "round, hands, points and opal")
    r = position.get("round", 1)
    if not isinstance(r, int) or not 1 <= r <= opts.rounds:
        raise PositionError(f"round {r!r}: a position opens a round from 1 to {opts.rounds}")
    left = opts.rounds - r + 1
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
        if opts.cards_consumed and len(hand) < left:
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
