"""Skeld's plans: each crewmate's intents checked step by step in the order of a round (A9 steps
1-6), against the player's own and the public state only (A38). An invalid step is dropped with a
problem (deadline fallback, section e); the rest stands. Parsing (intake.py) and the resolution
(rules.py) both plan: the form shows the problems, the round applies the plans."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...core.types import State
from .content import (BANANA_ENERGY, BANANA_USE, PARASITE_ROOM, SIDE_WORDS, VAULT, VAULT_MIN, WIWAXIA_USE, Board,
                      carries, edge, path_crosses_wall, room_kind, usable)
from .options import Options

Prob = tuple  # (field, value, allowed, reason, default)


def not_here(name: str, room: str, pos: str, plan: Mapping[str, Any]) -> str:
    """Why `room` is not where the crewmate ends (E11), in the player's terms."""
    refused = plan.get("move_refused")
    if refused and refused[0] == room:
        return f"the move to {room} was refused, so {name} stays in {pos}"
    toe = plan.get("toe_refused")
    if toe and len(toe) > 2 and toe[2] == room:
        return f"the Take Back Toe step to {room} was refused, so {name} ends in {pos}"
    return f"{name} ends its movement in {pos}, not {room}"


def plan_player(state: State, player: str, intents: Sequence[Mapping[str, Any]], caps: Sequence[int],
                opts: Options) -> tuple[list[dict], list[Prob]]:
    """Check one player's intents step by step (banana, move, Toe, activation or disable,
    end-of-round items) against their own and public state only (A38), dropping each
    invalid step (deadline fallback, section e). Returns the plans and the problems."""
    # Each step is called only when the crewmate asks for it, and `e` and `pos` (its Energy and room
    # as it goes) are passed along: planning runs for every submission and again at resolution.
    r = state["round"]
    board = Board.of(state)
    walls = state["walls"]
    activated = set(state["activated"])
    probs: list[Prob] = []
    plans: list[dict] = []
    for i, crew in enumerate(state["crew"][player]):
        it = intents[i] if i < len(intents) else {}
        name = crew["name"]
        e, pos, cap = crew["energy"], crew["pos"], caps[i]
        plan: dict[str, Any] = {"start": pos, "energy_start": e, "cap": cap, "banana": False, "banana_gain": 0,
                                "banana_lost": 0, "move": None, "move_path": [], "move_refused": it.get("refused_move"),
                                "toe": None, "toe_from": None, "toe_refused": it.get("refused_toe"), "room": None,
                                "bid": None, "plant": None, "disable": None, "disable_energy": 0, "wiwaxia": False,
                                "wall": None, "xcomm": None}
        if it.get("banana"):
            e = eat_banana(plan, crew, r, e, cap, opts, probs)
        dst = it.get("move_to")
        if dst and dst != pos:
            e, pos = move(plan, name, pos, dst, e, board, walls, probs)
        side = it.get("toe")
        if side:
            e, pos = toe_step(plan, crew, pos, side, e, r, board, walls, opts, probs)
        plan["final"] = pos
        plan["energy_after_moves"] = e
        room, bid, dis = it.get("room"), it.get("energy"), it.get("disable")
        if bid is not None and dis and not opts.remote_disable:   # A7: one or the other
            probs.append((f"{name} disable_room", dis, "either an activation or a disable",
                          "a crewmate cannot activate and disable in one round", "no disable; the activation stands"))
            dis = None
        if room is not None and bid is not None:
            e = activate(plan, state, player, crew, it, pos, room, bid, e, activated, opts, probs)
        plan["energy_after_bid"] = e
        if dis:
            e = disable(plan, state, player, name, pos, dis, e, activated, opts, probs)
        plan["energy_left"] = e
        if it.get("wiwaxia") or it.get("wall") or it.get("xcomm"):
            end_of_round_items(plan, state, crew, it, pos, r, board, walls, opts, probs)
        plans.append(plan)
    _one_disable(state, player, plans, probs)
    return plans, probs


def eat_banana(plan: dict, crew: Mapping[str, Any], r: int, e: int, cap: int, opts: Options,
               probs: list[Prob]) -> int:
    """A9 step 3, R72, E10: +3 Energy; the excess over the cap is lost (A10). Returns the Energy."""
    if not usable(crew, "Y", r):
        probs.append((f"{crew['name']} item", BANANA_USE, "items this crewmate carries",
                      f"{crew['name']} carries no uneaten Yellow Banana (won before this round)", "not eaten"))
        return e
    plan["banana"] = True
    full = e + BANANA_ENERGY
    now = full if opts.banana_can_exceed_cap else min(cap, full)
    plan["banana_gain"], plan["banana_lost"] = now - e, full - now
    return now


def move(plan: dict, name: str, pos: str, dst: str, e: int, board: Board, walls: Sequence[str],
         probs: list[Prob]) -> tuple[int, str]:
    """R19-R21, A3-A5 (E04-E06): one straight move along a row or column, 1 Energy a tile, no wall
    crossed. Returns the Energy and the room."""
    path = board.line(pos, dst)
    refusal = None
    if path is None:
        refusal = (f"a room in the same row or column as {pos}", f"{dst} is not in the same row or column as {pos}")
    elif path_crosses_wall(board, pos, path, walls):
        refusal = ("a room reached without crossing a wall", f"the way from {pos} to {dst} crosses a wall")
    elif len(path) > e:
        refusal = (f"a room at most {e} tiles away (1 Energy a tile)",
                   f"the move costs {len(path)} Energy and {name} has {e}")
    if refusal or path is None:
        assert refusal is not None
        probs.append((f"{name} move_to", dst, refusal[0], refusal[1], f"{name} stays in {pos}"))
        plan["move_refused"] = [dst, refusal[1]]
        return e, pos
    plan["move"], plan["move_path"] = dst, list(path)
    return e - len(path), dst


def toe_step(plan: dict, crew: Mapping[str, Any], pos: str, side: str, e: int, r: int, board: Board,
             walls: Sequence[str], opts: Options, probs: list[Prob]) -> tuple[int, str]:
    """R68, A18 (E07-E09): the Take Back Toe's extra step of one tile, 1 Energy. Returns the Energy and the room."""
    name = crew["name"]
    nxt = board.neighbour(pos, side)
    refusal = None
    if not usable(crew, "T", r):
        refusal = ("blank (only a Take Back Toe carrier steps)", f"{name} does not carry the Take Back Toe")
    elif opts.toe_requires_real_move and plan["move"] is None:
        refusal = ("a step after a normal move", "the Toe step needs a normal move first (host option)")
    elif nxt is None or edge(pos, nxt) in walls:
        refusal = ("a direction that stays on the ship without a wall",
                   f"{SIDE_WORDS[side]} of {pos} is {'a wall' if nxt else 'the hull'}")
    elif e < 1:
        refusal = ("a step with 1 Energy left", f"{name} has no Energy left for the step")
    if refusal or nxt is None:
        assert refusal is not None
        probs.append((f"{name} toe_step", side, refusal[0], refusal[1], "no extra step"))
        plan["toe_refused"] = [side, refusal[1], nxt or ""]
        return e, pos
    plan["toe"], plan["toe_from"] = side, pos
    return e - 1, nxt


def activate(plan: dict, state: State, player: str, crew: Mapping[str, Any], it: Mapping[str, Any], pos: str,
             room: str, bid: int, e: int, activated: set[str], opts: Options, probs: list[Prob]) -> int:
    """A6 (E11-E19): an activation names the room the crewmate ends in, with at least 1 Energy (3 at V,
    R55), once per room (P and V: once per player). Returns the Energy left."""
    name = crew["name"]
    need = VAULT_MIN if room == VAULT else 1
    span = f"a whole number from {need} to {e}" if e >= need else f"blank ({name} has {e} Energy left)"
    bad: tuple[str, ...] | None = None
    if room != pos:  # E11
        bad = ("activate_room", room, f"the room {name} ends in ({pos})", not_here(name, room, pos, plan),
               "no activation; no Energy spent")
    elif bid < need:
        bad = ("energy", str(bid), span, f"at least {need} Energy is needed to activate {pos}",
               f"no activation of {pos}")
    elif bid > e:
        bad = ("energy", str(bid), span, f"{name} has {e} Energy in {pos} after moving", f"no activation of {pos}")
    elif room_kind(pos) in ("component", "bonus") and pos in activated:
        bad = ("activate_room", pos, "a room not activated yet",
               f"{pos} was already activated and cannot be activated again", f"no activation of {pos}")
    elif pos == PARASITE_ROOM and state["claimed"][player]:
        bad = ("activate_room", pos, "a room other than P",
               "you have already claimed your parasite (once per game)", f"no activation of {pos}")
    elif pos == VAULT and (not crew["parasite"] or state["vault_used"][player]):
        bad = ("activate_room", pos, "a room other than V",
               f"{name} carries no parasite" if not crew["parasite"]
               else "you have already activated the Vault (once per game)", f"no activation of {pos}")
    elif pos == VAULT and opts.plant_requires_target and not it.get("plant"):
        bad = ("plant_sequence", "", "Frontier, Greenhouse or Conductor", "a plant must name its Sequence",
               f"no activation of {pos}")
    if bad:
        probs.append((f"{name} {bad[0]}",) + bad[1:])
        return e
    plan["room"], plan["bid"] = pos, bid
    plan["plant"] = it.get("plant") if pos == VAULT else None
    return e - bid


def disable(plan: dict, state: State, player: str, name: str, pos: str, dis: str, e: int, activated: set[str],
            opts: Options, probs: list[Prob]) -> int:
    """R31-R34, A15 (E11, E20, E22): once per game, the room the crewmate ends in (anywhere with
    remote_disable), not P or V, all Energy left. Returns the Energy left."""
    bad = None
    if not opts.remote_disable and dis != pos:  # E11
        bad = (f"the room {name} ends in ({pos})", not_here(name, dis, pos, plan))
    elif state["disable_used"][player]:
        bad = ("blank", "you have already used your once-per-game disable")
    elif dis in (PARASITE_ROOM, VAULT):
        bad = ("a room other than P and V", "the Parasite Room and the Vault cannot be disabled")
    elif dis in activated:
        bad = ("a room not activated yet", f"{dis} is already activated")
    elif e < 1:
        bad = ("blank", "disabling needs at least 1 Energy")
    if bad:
        probs.append((f"{name} disable_room", dis, bad[0], bad[1], "no disable"))
        return e
    plan["disable"], plan["disable_energy"] = dis, e
    return 0


def end_of_round_items(plan: dict, state: State, crew: Mapping[str, Any], it: Mapping[str, Any], pos: str, r: int,
                       board: Board, walls: Sequence[str], opts: Options, probs: list[Prob]) -> None:
    """E25, E26, E28: the Wiwaxia (R70), a Summoner wall (R67) and the XComm (A19)."""
    name = crew["name"]
    if it.get("wiwaxia"):
        if usable(crew, "W", r) or _winnable(state, crew, "W", pos, plan, opts):
            plan["wiwaxia"] = True
        else:
            probs.append((f"{name} item", WIWAXIA_USE, "items this crewmate carries",
                          f"{name} carries no Wiwaxia with a use left (won before this round)", "no drain"))
    side = it.get("wall")
    if side:
        nxt = board.neighbour(pos, side)
        if not (usable(crew, "S", r) or _winnable(state, crew, "S", pos, plan, opts)):
            probs.append((f"{name} item", f"Summoner wall {side}", "items this crewmate carries",
                          f"{name} carries no unused Summoner's Meme (won before this round)", "no wall"))
        elif nxt is None:
            probs.append((f"{name} item", f"Summoner wall {side}", "a side of the room inside the ship",
                          f"the {SIDE_WORDS[side]} side of {pos} is the hull", "no wall"))
        elif edge(pos, nxt) in walls:
            probs.append((f"{name} item", f"Summoner wall {side}", "a side without a wall",
                          f"the {SIDE_WORDS[side]} side of {pos} already has a wall", "no wall"))
        else:
            plan["wall"] = side
    other = it.get("xcomm")
    if other:
        here = [c for c in state["crew"].get(other, []) if c["pos"] == crew["pos"]]
        if not usable(crew, "X", r):
            probs.append((f"{name} item", f"XComm with {other}", "items this crewmate carries",
                          f"{name} carries no unused XCommunications Device", "no XComm"))
        elif not here:
            probs.append((f"{name} item", f"XComm with {other}", "a player whose crewmate shares the room",
                          f"no crewmate of {other} shared {crew['pos']} with {name} at the start of the round",
                          "no XComm"))
        else:
            plan["xcomm"] = other


def _winnable(state: State, crew: Mapping[str, Any], letter: str, pos: str, plan: Mapping[str, Any],
              opts: Options) -> bool:
    """Under same_round_bonus_use (A12), an end-of-round use of S or W by a crewmate that
    bids on that bonus room this round; it only happens if the crewmate wins it."""
    return (opts.same_round_bonus_use and pos == letter and plan["bid"] is not None
            and letter not in state["activated"] and not carries(crew, letter))


def _one_disable(state: State, player: str, plans: list[dict], probs: list[Prob]) -> None:
    """E21: both crewmates disabling in one round: neither does (a player disables once per game)."""
    if len(plans) == 2 and plans[0]["disable"] and plans[1]["disable"]:
        for i, plan in enumerate(plans):
            name = state["crew"][player][i]["name"]
            probs.append((f"{name} disable_room", plan["disable"], "a disable by one crewmate only",
                          "a player disables once per game and both crewmates asked", "no disable"))
            plan["disable"] = None
            plan["disable_energy"] = 0
            plan["energy_left"] = plan["energy_after_bid"]


def intent_from_plan(plan: Mapping[str, Any]) -> dict:
    """What a submission keeps of a plan: the steps that stand and the refusals to tell again."""
    return {"banana": plan["banana"], "move_to": plan["move"], "toe": plan["toe"], "room": plan["room"],
            "energy": plan["bid"], "disable": plan["disable"], "wiwaxia": plan["wiwaxia"], "wall": plan["wall"],
            "xcomm": plan["xcomm"], "plant": plan["plant"], "refused_move": plan["move_refused"],
            "refused_toe": plan["toe_refused"]}


def caps_of(state: State, player: str) -> list[int]:
    """Each of the player's crewmates' Energy cap."""
    return [c["cap"] for c in state["crew"][player]]
