"""Scripted strategies for simulations: plain functions of what a player may see.

Each takes a :class:`~sheetbridge.simulate.PlayerView` (the player's form, the facts they were
told) and a seeded rng, and returns a submission as the player would type it. They never read
the hidden state. A designer adds one with ``@strategy("name", "game-id")``.
"""
from __future__ import annotations

from ..core.rng import Rng
from ..core.types import RawSubmission
from ..simulate import PlayerView, strategy

TMR_ROOM_FOR_RESIDUE = {0: "Null", 1: "Solitary", 2: "Duel"}


@strategy("greedy", "three-modular-rooms")
def tmr_greedy(view: PlayerView, rng: Rng) -> RawSubmission:
    """Play the highest card left, into the room whose mod-3 bonus it would meet alone; never buy."""
    hand = [int(c) for c in view.form.section("play").fields[0].choices]
    card = max(hand)
    return {"play": [{"card": str(card), "room": TMR_ROOM_FOR_RESIDUE[card % 3]}],
            "buy": [{"buy_cards": "", "buy_hide": "no"}]}


def _choices(view: PlayerView, section: str, field_name: str) -> tuple[str, ...]:
    for sec in view.form.sections:
        if sec.name == section:
            for fld in sec.fields:
                if fld.name == field_name:
                    return tuple(fld.choices)
    return ()


def _has(view: PlayerView, section: str) -> bool:
    return any(sec.name == section for sec in view.form.sections)


@strategy("greedy", "bugcatcher")
def bugcatcher_greedy(view: PlayerView, rng: Rng) -> RawSubmission:
    """Ask for the cells in list order with a modest bid, then run both nodes straight in one direction
    (long paths score) and accept every mission offered."""
    if _has(view, "central"):
        cells = _choices(view, "central", "cell")
        start = rng.below(max(1, len(cells) - 9))
        pick = cells[start:start + 9]
        corners = _choices(view, "border", "corner") or ("upper left",)
        bids = {f.name: "1" for sec in view.form.sections if sec.name == "bids" for f in sec.fields}
        return {"central": [{"cell": c} for c in pick], "border": [{"cell": c, "corner": corners[0]} for c in pick],
                "bids": [bids]}
    moves = [a for a in _choices(view, "actions", "action") if len(a) == 2]
    direction = rng.choice("UDLR")
    actions = [f"{node}{direction}" for node in "BC" for _ in range(3) if f"{node}{direction}" in moves]
    rows = next(sec.rows for sec in view.form.sections if sec.name == "actions")
    missions = next((sec.rows for sec in view.form.sections if sec.name == "missions"), 0)
    return {"actions": [{"action": a} for a in actions[:rows]], "missions": [{"accept": "yes"}] * missions}


@strategy("greedy", "big-machine")
def big_machine_greedy(view: PlayerView, rng: Rng) -> RawSubmission:
    """Go where the fewest went last time is unknowable: stay in the first meadow offered, bid high for
    the part (3 cogs, power-up 1) and install it on the first free node; never sabotage or give."""
    meadows = _choices(view, "start", "meadow") or _choices(view, "turn", "meadow")
    if _has(view, "start"):
        return {"start": [{"meadow": meadows[0]}]}
    nodes = _choices(view, "turn", "node")
    return {"turn": [{"meadow": rng.choice(meadows), "bid": "3", "power": "1", "node": nodes[0] if nodes else "",
                      "sabotage": ""}]}


@strategy("greedy", "flickering-lights")
def flickering_greedy(view: PlayerView, rng: Rng) -> RawSubmission:
    """Spread out: the two spaces furthest apart in the offered list, flip and defend the first offered."""
    out: RawSubmission = {}
    for sec in view.form.sections:
        choices = _choices(view, sec.name, "space")
        if not choices:
            continue
        if sec.rows >= 2:
            out[sec.name] = [{"space": choices[0]}, {"space": choices[-1]}] + [{"space": ""}] * (sec.rows - 2)
        else:
            out[sec.name] = [{"space": choices[rng.below(len(choices))]}]
    return out


@strategy("greedy", "skeld")
def skeld_greedy(view: PlayerView, rng: Rng) -> RawSubmission:
    """Start both crewmates in different rooms; then each stays where it is and activates its room with
    all its Energy (read from its row label, "Blue (in 1A, 5 Energy)"): the most bid wins a contest."""
    crew = next(sec for sec in view.form.sections if sec.name == "crew")
    starts = _choices(view, "crew", "start")
    if starts:
        picks = rng.sample(list(starts), min(crew.rows, len(starts)))
        return {"crew": [{"name": "", "start": picks[i % len(picks)]} for i in range(crew.rows)]}
    rows = []
    for label in crew.row_labels:
        inside = label[label.find("(") + 1:label.rfind(")")] if "(" in label else ""
        room = inside.split(",")[0].removeprefix("in ").strip()
        energy = next((w for w in inside.replace(",", " ").split() if w.isdigit()), "0")
        rows.append({"move_to": "", "toe_step": "", "activate_room": room, "energy": energy, "disable_room": "",
                     "item": "", "item_2": ""})
    return {"crew": rows}


from . import big_machine, bugcatcher, flickering_lights, skeld  # noqa: E402,F401  (registers the games' strategies)
