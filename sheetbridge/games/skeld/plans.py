"""Skeld's plans: each crewmate's intents checked step by step in the order of a round (A9 steps
1-6), against the player's own and the public state only (A38). An invalid step is dropped with a
problem (deadline fallback, section e); the rest stands. Parsing (intake.py) and the resolution
(rules.py) both plan: the form shows the problems, the round applies the plans."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...core.types import State
from .content import (BANANA_ENERGY, BANANA_USE, PARASITE_ROOM, SIDE_WORDS, VAULT, VAULT_MIN, WIWAXIA_USE, Board,
                      carries, edge, path_crosses_wall, room_kind, usable)
from .spec import Options

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
    planner = _Planner(state, player, opts)
    plans = [planner.plan(i, crew, intents[i] if i < len(intents) else {}, caps[i])
             for i, crew in enumerate(state["crew"][player])]
    _one_disable(state, player, plans, planner.probs)
    return plans, planner.probs


class _Planner:
    """One player's crewmates planned in turn: `e` and `pos` follow the crewmate through its steps."""

    def __init__(self, state: State, player: str, opts: Options) -> None:
        self.state, self.player, self.opts = state, player, opts
        self.r = state["round"]
        self.board = Board.of(state)
        self.walls = state["walls"]
        self.activated = set(state["activated"])
        self.probs: list[Prob] = []

    def plan(self, i: int, crew: Mapping[str, Any], it: Mapping[str, Any], cap: int) -> dict:
        self.crew, self.it, self.name = crew, it, crew["name"]
        self.e, self.pos = crew["energy"], crew["pos"]
        plan: dict[str, Any] = {"start": self.pos, "energy_start": self.e, "cap": cap, "banana": False,
                                "banana_gain": 0, "banana_lost": 0, "move": None, "move_path": [],
                                "move_refused": it.get("refused_move"), "toe": None, "toe_from": None,
                                "toe_refused": it.get("refused_toe"), "room": None, "bid": None, "plant": None,
                                "disable": None, "disable_energy": 0, "wiwaxia": False, "wall": None, "xcomm": None}
        self.eat_banana(plan, cap)
        self.move(plan)
        self.toe_step(plan)
        plan["final"] = self.pos
        plan["energy_after_moves"] = self.e
        dis = self.activate(plan)
        plan["energy_after_bid"] = self.e
        if dis:
            self.disable(plan, dis)
        plan["energy_left"] = self.e
        self.end_of_round_items(plan)
        return plan

    def eat_banana(self, plan: dict, cap: int) -> None:
        """A9 step 3, R72, E10: +3 Energy; the excess over the cap is lost (A10)."""
        if not self.it.get("banana"):
            return
        if usable(self.crew, "Y", self.r):
            plan["banana"] = True
            full = self.e + BANANA_ENERGY
            now = full if self.opts.banana_can_exceed_cap else min(cap, full)
            plan["banana_gain"], plan["banana_lost"] = now - self.e, full - now
            self.e = now
        else:
            self.probs.append((f"{self.name} item", BANANA_USE, "items this crewmate carries",
                               f"{self.name} carries no uneaten Yellow Banana (won before this round)", "not eaten"))

    def move(self, plan: dict) -> None:
        """R19-R21, A3-A5 (E04-E06): one straight move along a row or column, 1 Energy a tile, no wall."""
        dst, pos, e, name = self.it.get("move_to"), self.pos, self.e, self.name
        if not dst or dst == pos:
            return
        path = self.board.line(pos, dst)
        refusal = None
        if path is None:
            refusal = (f"a room in the same row or column as {pos}",
                       f"{dst} is not in the same row or column as {pos}")
        elif path_crosses_wall(self.board, pos, path, self.walls):
            refusal = ("a room reached without crossing a wall", f"the way from {pos} to {dst} crosses a wall")
        elif len(path) > e:
            refusal = (f"a room at most {e} tiles away (1 Energy a tile)",
                       f"the move costs {len(path)} Energy and {name} has {e}")
        if refusal or path is None:
            assert refusal is not None
            self.probs.append((f"{name} move_to", dst, refusal[0], refusal[1], f"{name} stays in {pos}"))
            plan["move_refused"] = [dst, refusal[1]]
        else:
            plan["move"], plan["move_path"] = dst, list(path)
            self.e -= len(path)
            self.pos = dst

    def toe_step(self, plan: dict) -> None:
        """R68, A18 (E07-E09): the Take Back Toe's extra step of one tile, 1 Energy."""
        side, pos, name = self.it.get("toe"), self.pos, self.name
        if not side:
            return
        nxt = self.board.neighbour(pos, side)
        refusal = None
        if not usable(self.crew, "T", self.r):
            refusal = ("blank (only a Take Back Toe carrier steps)", f"{name} does not carry the Take Back Toe")
        elif self.opts.toe_requires_real_move and plan["move"] is None:
            refusal = ("a step after a normal move", "the Toe step needs a normal move first (host option)")
        elif nxt is None or edge(pos, nxt) in self.walls:
            refusal = ("a direction that stays on the ship without a wall",
                       f"{SIDE_WORDS[side]} of {pos} is {'a wall' if nxt else 'the hull'}")
        elif self.e < 1:
            refusal = ("a step with 1 Energy left", f"{name} has no Energy left for the step")
        if refusal or nxt is None:
            assert refusal is not None
            self.probs.append((f"{name} toe_step", side, refusal[0], refusal[1], "no extra step"))
            plan["toe_refused"] = [side, refusal[1], nxt or ""]
        else:
            plan["toe"], plan["toe_from"] = side, pos
            self.e -= 1
            self.pos = nxt

    def activate(self, plan: dict) -> str | None:
        """A6, A7 (E11-E19): an activation names the room the crewmate ends in; R55 at V. Returns the
        room to disable, None when an activation rules it out (without remote_disable)."""
        it, name, pos, e, player = self.it, self.name, self.pos, self.e, self.player
        room, bid, dis = it.get("room"), it.get("energy"), it.get("disable")
        if bid is not None and dis and not self.opts.remote_disable:
            self.probs.append((f"{name} disable_room", dis, "either an activation or a disable",
                               "a crewmate cannot activate and disable in one round",
                               "no disable; the activation stands"))
            dis = None
        if room is None or bid is None:
            return dis
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
            bad = ("energy", str(bid), span, f"{name} has {e} Energy in {pos} after moving",
                   f"no activation of {pos}")
        elif room_kind(pos) in ("component", "bonus") and pos in self.activated:
            bad = ("activate_room", pos, "a room not activated yet",
                   f"{pos} was already activated and cannot be activated again", f"no activation of {pos}")
        elif pos == PARASITE_ROOM and self.state["claimed"][player]:
            bad = ("activate_room", pos, "a room other than P",
                   "you have already claimed your parasite (once per game)", f"no activation of {pos}")
        elif pos == VAULT and (not self.crew["parasite"] or self.state["vault_used"][player]):
            bad = ("activate_room", pos, "a room other than V",
                   f"{name} carries no parasite" if not self.crew["parasite"]
                   else "you have already activated the Vault (once per game)", f"no activation of {pos}")
        elif pos == VAULT and self.opts.plant_requires_target and not it.get("plant"):
            bad = ("plant_sequence", "", "Frontier, Greenhouse or Conductor", "a plant must name its Sequence",
                   f"no activation of {pos}")
        if bad:
            self.probs.append((f"{name} {bad[0]}",) + bad[1:])
        else:
            plan["room"], plan["bid"] = pos, bid
            plan["plant"] = it.get("plant") if pos == VAULT else None
            self.e -= bid
        return dis

    def disable(self, plan: dict, dis: str) -> None:
        """R31-R34, A15 (E11, E20-E22): once per game, the room the crewmate ends in, all Energy left."""
        name, pos = self.name, self.pos
        bad = None
        if not self.opts.remote_disable and dis != pos:  # E11
            bad = (f"the room {name} ends in ({pos})", not_here(name, dis, pos, plan))
        elif self.state["disable_used"][self.player]:
            bad = ("blank", "you have already used your once-per-game disable")
        elif dis in (PARASITE_ROOM, VAULT):
            bad = ("a room other than P and V", "the Parasite Room and the Vault cannot be disabled")
        elif dis in self.activated:
            bad = ("a room not activated yet", f"{dis} is already activated")
        elif self.e < 1:
            bad = ("blank", "disabling needs at least 1 Energy")
        if bad:
            self.probs.append((f"{name} disable_room", dis, bad[0], bad[1], "no disable"))
        else:
            plan["disable"], plan["disable_energy"] = dis, self.e
            self.e = 0

    def end_of_round_items(self, plan: dict) -> None:
        """E25, E26, E28: the Wiwaxia (R70), a Summoner wall (R67) and the XComm (A19)."""
        crew, name, pos, r, it = self.crew, self.name, self.pos, self.r, self.it
        if it.get("wiwaxia"):
            if usable(crew, "W", r) or self.winnable("W", plan):
                plan["wiwaxia"] = True
            else:
                self.probs.append((f"{name} item", WIWAXIA_USE, "items this crewmate carries",
                                   f"{name} carries no Wiwaxia with a use left (won before this round)", "no drain"))
        side = it.get("wall")
        if side:
            nxt = self.board.neighbour(pos, side)
            if not (usable(crew, "S", r) or self.winnable("S", plan)):
                self.probs.append((f"{name} item", f"Summoner wall {side}", "items this crewmate carries",
                                   f"{name} carries no unused Summoner's Meme (won before this round)", "no wall"))
            elif nxt is None:
                self.probs.append((f"{name} item", f"Summoner wall {side}", "a side of the room inside the ship",
                                   f"the {SIDE_WORDS[side]} side of {pos} is the hull", "no wall"))
            elif edge(pos, nxt) in self.walls:
                self.probs.append((f"{name} item", f"Summoner wall {side}", "a side without a wall",
                                   f"the {SIDE_WORDS[side]} side of {pos} already has a wall", "no wall"))
            else:
                plan["wall"] = side
        other = it.get("xcomm")
        if other:
            here = [c for c in self.state["crew"].get(other, []) if c["pos"] == crew["pos"]]
            if not usable(crew, "X", r):
                self.probs.append((f"{name} item", f"XComm with {other}", "items this crewmate carries",
                                   f"{name} carries no unused XCommunications Device", "no XComm"))
            elif not here:
                self.probs.append((f"{name} item", f"XComm with {other}", "a player whose crewmate shares the room",
                                   f"no crewmate of {other} shared {crew['pos']} with {name} at the start of the "
                                   "round", "no XComm"))
            else:
                plan["xcomm"] = other

    def winnable(self, letter: str, plan: Mapping[str, Any]) -> bool:
        """Under same_round_bonus_use (A12), an end-of-round use of S or W by a crewmate that
        bids on that bonus room this round; it only happens if the crewmate wins it."""
        return (self.opts.same_round_bonus_use and self.pos == letter and plan["bid"] is not None
                and letter not in self.state["activated"] and not carries(self.crew, letter))


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
