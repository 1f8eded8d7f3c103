"""Skeld's random legal play: a submission a player could make (used by the demo, `simulate`
and the conformance checks), drawn from the seeded Rng."""
from __future__ import annotations

from typing import Any, Callable, Mapping

from ...core.rng import Rng
from ...core.types import RawSubmission, State
from .content import (BANANA_ENERGY, BANANA_USE, CAP_PRICE, DIRECTIONS, PARASITE_ROOM, SEQUENCES, VAULT, VAULT_MIN,
                      WIWAXIA_USE, Board, edge, path_crosses_wall, room_kind, usable)
from .options import CapScope, Options, options_of
from .spec import START_CELLS


def random_submission(state: State, player: str, rng: Rng) -> RawSubmission:
    """A random legal submission: names and cells in the pregame; then each crewmate's orders and
    now and then a cap raise."""
    if state["round"] == 0:
        return _random_pregame(rng)
    opts = options_of(state)
    board = Board.of(state)
    rows = []
    disable_taken = state["disable_used"][player]
    for c in state["crew"][player]:
        row, disable_taken = _random_orders(state, player, c, disable_taken, opts, board, rng)
        rows.append(row)
    n = ""
    if (state["crew"][player][0]["raises"] < 2 and state["crew"][player][1]["raises"] < 2
            and state["balances"].get(player, 0) >= 2 * CAP_PRICE and rng.random() < 0.1):
        n = "1"
    garn = [{"cap_upgrades": n}] + ([{"cap_upgrades": ""}] if opts.cap_upgrade_scope == CapScope.CREWMATE else [])
    return {"crew": rows, "garnets": garn}


def _random_pregame(rng: Rng) -> RawSubmission:
    rows = []
    for i in range(2):
        rows.append({"name": rng.choice(["", "Red", "Blue", "Lime", "Cyan"]) + ("" if i == 0 else "2"),
                     "start": rng.choice(START_CELLS)})
    if rows[0]["name"] == "" and rows[1]["name"] == "2":
        rows[1]["name"] = ""
    return {"crew": rows}


def _random_orders(state: State, player: str, c: Mapping[str, Any], disable_taken: bool, opts: Options,
                   board: Board, rng: Rng) -> tuple[dict[str, str], bool]:
    """One crewmate's row: maybe the banana, a move (mostly to a room it wants), maybe the Toe step,
    an activation or now and then the player's disable, end-of-round items; and whether the disable is taken."""
    r = state["round"]
    activated = set(state["activated"])
    row = {"move_to": "", "toe_step": "", "activate_room": "", "energy": "", "disable_room": "",
           "item": "", "item_2": ""}
    e = c["energy"]
    uses = []
    if usable(c, "Y", r) and rng.random() < 0.5:
        uses.append(BANANA_USE)
        e = e + BANANA_ENERGY if opts.banana_can_exceed_cap else min(c["cap"], e + BANANA_ENERGY)
    pos = c["pos"]

    def wanted(room: str) -> bool:
        k = room_kind(room)
        if k in ("component", "bonus"):
            return room not in activated
        if k == PARASITE_ROOM:
            return not state["claimed"][player]
        return c["parasite"] and not state["vault_used"][player]
    dst = _random_destination(state, board, pos, e, wanted, rng)
    if dst != pos:
        row["move_to"] = dst
        e -= len(board.line(pos, dst) or ())
        pos = dst
    if usable(c, "T", r) and e >= 2 and rng.random() < 0.3:
        side = rng.choice(list(DIRECTIONS))
        nxt = board.neighbour(pos, side)
        if nxt and edge(pos, nxt) not in state["walls"] and (not opts.toe_requires_real_move or row["move_to"]):
            row["toe_step"] = side
            e -= 1
            pos = nxt
    need = VAULT_MIN if pos == VAULT else 1
    if wanted(pos) and e >= need and rng.random() < 0.9:
        row["activate_room"], row["energy"] = pos, str(rng.randint(need, e))
    elif (not disable_taken and e >= 1 and pos not in (PARASITE_ROOM, VAULT) and pos not in activated
          and rng.random() < 0.15):
        row["disable_room"] = pos
        disable_taken = True
    if usable(c, "W", r) and rng.random() < 0.5:
        uses.append(WIWAXIA_USE)
    if usable(c, "S", r) and rng.random() < 0.6:
        sides = [d for d in DIRECTIONS if (n := board.neighbour(pos, d)) and edge(pos, n) not in state["walls"]]
        if sides:
            uses.append(f"Summoner wall {rng.choice(sides)}")
    for k, u in zip(("item", "item_2"), uses[:2]):
        row[k] = u
    if opts.plant_requires_target and pos == VAULT and row["energy"]:
        row["plant_sequence"] = rng.choice(list(SEQUENCES.values()))
    return row, disable_taken


def _random_destination(state: State, board: Board, pos: str, e: int, wanted: Callable[[str], bool],
                        rng: Rng) -> str:
    """Where to move: mostly a reachable room it wants, else sometimes any reachable room, else stay."""
    options = []
    for room in board.same_line(pos):
        path = board.line(pos, room)
        if path is not None and len(path) <= e - 1 and not path_crosses_wall(board, pos, path, state["walls"]):
            options.append(room)
    good = [x for x in options if wanted(x)]
    if good and rng.random() < 0.8:
        return rng.choice(good)
    if options and rng.random() < 0.5:
        return rng.choice(options)
    return pos
