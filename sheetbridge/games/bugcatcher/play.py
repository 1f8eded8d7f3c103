"""Random legal play, for demos, tests and simulations: a random submission as a player would type
it and, where it is sure to read without a problem, the values parse reads from it.

Few draws: a simulated game makes thousands, and each costs as much as a step of the rules.
"""
from __future__ import annotations

from typing import Any, Sequence

from ...core.rng import Rng
from ...core.types import RawSubmission, State
from .board import _ENERGY_CODES, GSWAP, SWAP, _legal_steps, _pregame_choices, steps_from
from .content import _shape_variants, board_missions
from .options import Options, options_of
from .paths import walk_alone
from .spec import ENERGY, LIST_LENGTH

Point = tuple[int, int]
StepTable = dict[str, dict[Point, dict[str, Point]]]


def random_submission(state: State, player: str, rng: Rng) -> RawSubmission:
    return random_play(state, player, rng)[0]


def random_play(state: State, player: str, rng: Rng) -> tuple[RawSubmission, dict[str, Any] | None]:
    """The random play and, where it is sure to read without a problem, the values parse reads
    from it (None: it may not, e.g. a path that may cross the player's own: parse walks it)."""
    opts = options_of(state["options"])
    if state["round"] == 0:
        return _random_lists(opts, rng)
    return _random_round(state, player, opts, rng)


def _random_lists(opts: Options, rng: Rng) -> tuple[RawSubmission, dict[str, Any] | None]:
    """The pregame: nine random cells, nine random corners (each under one of its names), a bid of 0 or 1."""
    cells, points = _pregame_choices(opts.columns, opts.rows, opts.blocked)
    central = rng.pick(cells, LIST_LENGTH)   # (label, key) of a cell
    pts = rng.pick(points, LIST_LENGTH)      # (key, the cell corners naming it)
    border = [dict(rng.choice(corners)) for _, corners in pts]
    names = ("bid",) if opts.bid_scope == "shared" else ("central_bid", "border_bid")
    bid_values = {n: rng.choice((0, 0, 0, 1)) for n in names}
    raw = {"central": [{"cell": label} for label, _ in central], "border": border,
           "bids": [{n: str(v) for n, v in bid_values.items()}]}
    if len(central) < LIST_LENGTH:   # a short list is a problem to report: parse says so
        return raw, None
    return raw, {"central": [key for _, key in central], "border": [key for key, _ in pts], **bid_values}


def _random_round(state: State, player: str, opts: Options, rng: Rng) -> tuple[RawSubmission, dict[str, Any] | None]:
    """A round: maybe a mission's shape, then random steps onto unclaimed points, a garnet swap one
    time in ten, and each mission accepted one time in five."""
    nodes = state["nodes"][player]
    pos = {n: tuple(nodes[n]) for n in "BC"}
    own = {tuple(v) for q in state["nodes"].values() for v in q.values()}  # every node is public
    board = board_missions(state)
    accept: list[str] = []
    table = _legal_steps(opts.columns, opts.rows, opts.blocked)
    # Twice the midpoints of each node's paths: a border and a central path with the same midpoint
    # cross, and whether that is a self-collision depends on colours, which parse works out (E6).
    crossings: dict[str, set[Point]] = {"B": set(), "C": set()}
    codes = _try_a_shape(board, pos, own, crossings, accept, table, opts, rng)
    _random_steps(codes, pos, own, crossings, table, opts, rng)
    at = rng.below(10 * (len(codes) + 1))   # a garnet swap one time in ten, anywhere in the list
    if at <= len(codes):
        codes.insert(at, GSWAP)
    for i in range(0, len(board), 20):   # each mission accepted one time in five: a base-5 digit
        group = board[i:i + 20]            # each, twenty to a draw (5 ** 20 < 2 ** 64)
        x = rng.below(5 ** len(group))
        for m in group:
            x, digit = divmod(x, 5)
            if digit == 0 and m["id"] not in accept:
                accept.append(m["id"])
    out: dict[str, list[dict[str, str]]] = {"actions": [{"action": c} for c in codes]}
    if board:
        out["missions"] = [{"accept": "yes" if m["id"] in accept else "no"} for m in board]
    # Every step is on the board, out of blocked cells and onto an unclaimed point (`own` holds
    # every node and every point reached), so parse finds nothing to say, unless a border and a
    # central path cross in the same colour (walked as parse walks them, E6), the energy runs
    # over (a long shape) or there is nothing to read.
    if sum(c in _ENERGY_CODES for c in codes) > ENERGY or not (codes or board) or (
            crossings["B"] & crossings["C"] and walk_alone(nodes, state["border_colour"][player], codes, opts)):
        return out, None
    return out, {"actions": codes, "accept": [m["id"] for m in board if m["id"] in accept]}


def _legal(table: StepTable, n: str, at: Point, opts: Options) -> dict[str, Point]:
    return table[n].get(at) or steps_from(n, at, opts.columns, opts.rows, opts.blocked)


def _try_a_shape(board: Sequence[dict[str, Any]], pos: dict[str, Point], own: set[Point],
                 crossings: dict[str, set[Point]], accept: list[str], table: StepTable, opts: Options,
                 rng: Rng) -> list[str]:
    """Half the time, try a mission's shape: its variants in turn from a random one. The codes of the
    shape built (accepting its mission), else none."""
    shaped = [m for m in board if not m.get("manual")]
    if shaped and (k := rng.below(2 * len(shaped))) < len(shaped):
        m = shaped[k]
        n = "B" if m["node"] == "border" else "C" if m["node"] == "central" else rng.choice("BC")
        variants = _shape_variants(m["shape"], bool(m["rotate"]), bool(m["reflect"]), bool(m["either_end"]))
        first = rng.below(len(variants))
        for v in variants[first:] + variants[:first]:
            at, ok, seen = pos[n], True, set()   # the points this variant adds to `own`
            mids = []
            for d in v:
                nxt = _legal(table, n, at, opts).get(d)
                if nxt is None or nxt in own or nxt in seen:
                    ok = False
                    break
                seen.add(nxt)
                mids.append((at[0] + nxt[0], at[1] + nxt[1]))
                at = nxt
            if ok:
                own |= seen
                crossings[n].update(mids)
                pos[n] = at
                accept.append(m["id"])
                return [n + d for d in v]
    return []


def _random_steps(codes: list[str], pos: dict[str, Point], own: set[Point], crossings: dict[str, set[Point]],
                  table: StepTable, opts: Options, rng: Rng) -> None:
    """Random steps onto unclaimed points until the energy is spent, with swaps and an early stop."""
    while len(codes) < ENERGY:
        x = rng.below(400)   # one draw a step: a swap (8%), stop (2%), or a node and a direction
        if x < 32:
            codes.append(SWAP)
            continue
        if x < 40:
            break
        x -= 40              # 0-359: the node from its parity, the direction from the rest (180 of them,
        n = "BC"[x & 1]      # a multiple of 1, 2, 3 and 4, so each free direction is as likely)
        steps = table[n].get(pos[n]) or _legal(table, n, pos[n], opts)   # the table's answer, without a call
        dirs = [(d, step) for d, step in steps.items() if step not in own]   # U D L R
        if not dirs:
            continue
        frm = pos[n]
        d, pos[n] = dirs[(x >> 1) % len(dirs)]
        own.add(pos[n])
        crossings[n].add((frm[0] + pos[n][0], frm[1] + pos[n][1]))
        codes.append(n + d)
