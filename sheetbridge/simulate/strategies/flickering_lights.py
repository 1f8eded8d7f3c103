"""Flickering Lights: the "painter" raises the squares of its colour whose reach covers the most
squares not yet of its colour, and aims its block, flip or defend at the other side's best square."""
from __future__ import annotations

from typing import Iterable

from ...core.rng import Rng
from ...core.types import RawSubmission
from ...games.flickering_lights import ALL_SQUARES, Square, parse_square, sq_name
from ..view import PlayerView, strategy
from .reading import choices, has, section

# Round 4 hides the board: the centre four are the only squares anyone is shown, and a square
# of the wrong colour is replaced at random, so aim at the centre, where a raise reaches most.
FOG_AIM = ("D4", "E5", "E4", "D5")


def _squares(names: Iterable[str]) -> set[Square]:
    return {s for n in names if (s := parse_square(n)) is not None}


def _reach(s: Square, x: int) -> set[Square]:
    """The squares within x steps (Manhattan) of s on the 8x8 board."""
    return {q for q in ALL_SQUARES if abs(q[0] - s[0]) + abs(q[1] - s[1]) <= x}


def _raise_of(label: str) -> int:
    """+2 from a row label "1st (+2)"."""
    digits = "".join(ch for ch in label[label.rfind("+"):] if ch.isdigit())
    return int(digits or 1)


def _best(candidates: set[Square], own: set[Square], x: int, covered: set[Square], rng: Rng) -> Square | None:
    """The candidate whose reach at x takes in the most squares not of `own` colour and not yet covered."""
    best, best_gain = None, -1.0
    for s in sorted(candidates):
        gain = len(_reach(s, x) - own - covered) + rng.random() * 0.01
        if gain > best_gain:
            best, best_gain = s, gain
    return best


def _spaces(view: PlayerView, mine: set[Square], rng: Rng) -> list[str]:
    sec = section(view, "spaces")
    spread = len(sec.row_labels) > 2   # a Demolitionist: no two spaces may share an edge
    chosen: list[Square] = []
    covered: set[Square] = set()
    for label in sec.row_labels:
        x = _raise_of(label)
        free = {s for s in mine - set(chosen)
                if not spread or all(abs(s[0] - c[0]) + abs(s[1] - c[1]) != 1 for c in chosen)}
        pick = _best(free, mine, x, covered, rng)
        if pick is None:
            break
        chosen.append(pick)
        covered |= _reach(pick, x)
    return [sq_name(s) for s in chosen]


def _their_targets(theirs: set[Square], n: int, rng: Rng) -> list[str]:
    """The other side's squares they would most like to raise first (the same reckoning, from their side)."""
    ranked = sorted(theirs, key=lambda s: (-len(_reach(s, 2) - theirs), rng.random()))
    return [sq_name(s) for s in ranked[:n]]


@strategy("painter", "flickering-lights")
def flickering_painter(view: PlayerView, rng: Rng) -> RawSubmission:
    """Raise, in the order of its rows (+2 or +4 first, then +1 each), the square of its colour whose
    reach (Manhattan, as far as the raise) takes in the most squares not of its colour and not
    already reached by its earlier picks; a Demolitionist's picks never share an edge. A block,
    flip or defend goes to the other colour's squares the other side would most like to raise.
    The Mediator raises the best red and the best blue square alike. In the fog (Round 4) it
    names the centre squares. Reads only its form: the squares each dropdown offers and the row labels."""
    fog = len(choices(view, "spaces", "space") or choices(view, "mediator", "red_space")) == len(ALL_SQUARES)
    if has(view, "mediator"):
        if fog:
            return {"mediator": [{"red_space": FOG_AIM[0], "blue_space": FOG_AIM[1]}]}
        picks = {}
        for name in ("red_space", "blue_space"):
            own = _squares(choices(view, "mediator", name))
            best = _best(own, own, 1, set(), rng)
            picks[name] = sq_name(best) if best else ""
        return {"mediator": [picks]}
    out: RawSubmission = {}
    if has(view, "spaces"):
        rows = section(view, "spaces").rows
        picks = list(FOG_AIM[:rows]) if fog else _spaces(view, _squares(choices(view, "spaces", "space")), rng)
        out["spaces"] = [{"space": s} for s in picks]
    for name in ("block", "flip", "defend"):
        if has(view, name):
            theirs = _squares(choices(view, name, "space"))
            n = section(view, name).rows
            targets = [] if fog else _their_targets(theirs, n, rng)
            out[name] = [{"space": s} for s in targets]
    return out
