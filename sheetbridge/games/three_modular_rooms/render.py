"""Three Modular Rooms, the reports: the public post, each player's confessional, the round's
picture and the views, all drawn from the facts the viewer may see.
"""
from __future__ import annotations

from typing import Any, Sequence

from ...core.facts import RenderContext, of_type
from ...core.outcome_text import plural
from ...core.picture import Box, Label, Picture
from ...core.standings import RoundScore
from ...core.types import Block, Cell, Report
from .content import ROOMS, Room
from .facts import (CardBoughtAnnounced, CardPlayed, CardsSeen, GarnetsGained, GarnetsLost, NonSubmitters,
                    PointsGained, Purchase, PurchasesRefused, RoomScored, SubmissionProblem)
from .options import options_of
from .spec import SPEC
from .state import TmrState

ROOM_FILL = {"Null": "D9D9D9", "Solitary": "BDD7EE", "Duel": "F8CBAD"}


def round_scores(facts: Sequence[Any]) -> list[RoundScore]:
    """Each player's points this round, as standings read them (A29)."""
    return [RoundScore(f.player, f.points) for f in of_type(facts, PointsGained)]


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


def render(facts: Sequence[Any], viewer: str | None, ctx: RenderContext) -> Report:
    """The public post (R38, A27, A28) or one player's confessional (section (c)), from the facts."""
    return public_post(facts, ctx) if viewer is None else confessional(facts, viewer, ctx)


def public_post(facts: Sequence[Any], ctx: RenderContext) -> Report:
    """Who went where and each room's score, the cards bought (mod 3) and who did not submit (R36, R38, A24, A27)."""
    r = ctx.round
    rooms = of_type(facts, RoomScored)
    counts = any(f.counts_only for f in rooms)
    head = (Cell("Room", bold=True),) + tuple(Cell(f.room, fill=ROOM_FILL[f.room], bold=True) for f in rooms)
    who = (Cell("Players (count)" if counts else "Players"),) + tuple(Cell(_who(f)) for f in rooms)
    score = (Cell("Score"),) + tuple(Cell(_num(f.score)) for f in rooms)
    lines = [(f"{f.buyer} bought a card" if f.buyer else "A card was bought")
             + f"; its value mod 3 is {f.mod3}." for f in of_type(facts, CardBoughtAnnounced)]
    lines += [f"Did not submit: {', '.join(f.players)}" for f in of_type(facts, NonSubmitters)]
    return Report(f"Round {r}", (Block(f"Round {r}: rooms", tuple(lines), (head, who, score)),))


def confessional(facts: Sequence[Any], viewer: str, ctx: RenderContext) -> Report:
    """One player's own round: their card and room, problems, purchases, garnets, -12 and points."""
    r = ctx.round
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

def picture(facts: Sequence[Any], viewer: str | None, ctx: RenderContext) -> Picture | None:
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

def player_view(state: TmrState, player: str) -> Report:
    hand = ", ".join(map(str, state["hands"][player])) or "none"
    lines = [f"Your hand: {hand}"]
    if not state["finished"]:
        lines.insert(0, f"Round {state['round']} of {options_of(state).rounds} is open for submissions.")
    else:
        lines.insert(0, f"The match is over. Your points: {state['points'][player]}.")
    return Report(f"{SPEC.name}: {player}", (Block("Now", tuple(lines)),))

def public_view(state: TmrState) -> Report:
    status = (f"Round {state['round']} of {options_of(state).rounds} is open." if not state["finished"]
              else "The match is over.")
    legend = tuple((f"{room}: x1.5 when cards sum to {Room(room).residue} mod 3", ROOM_FILL[room]) for room in ROOMS)
    return Report(f"{SPEC.name}: board", (Block("Status", (status,), legend=legend),))
