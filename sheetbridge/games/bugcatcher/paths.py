"""The path engine: one round's actions step by step for every player at once, with the
collisions (R29, R37-R47, A4-A14), and the same walk for one player alone (the warnings at intake).

The two must agree (tests/test_fast_paths.py runs both on many plans): they stand together here.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from .board import DIRS, GSWAP, IDLE, SWAP, _board_labels, fine_label, is_path, other
from .board import BLUE, cell_fine, point_fine  # noqa: F401  (the docstring examples use these)
from .options import Options, options_of  # noqa: F401
from .spec import DEFAULTS  # noqa: F401

Point = tuple[int, int]   # a fine point (board.py)


def _point(xy: Sequence[int]) -> Point:
    return (xy[0], xy[1])


@dataclass(slots=True)   # a few hundred a round: slots make them quicker to make
class Event:
    """What one step did for one player; the game turns these into ActionStep facts."""
    step: int
    code: str
    result: str          # placed, swap, idle, stopped, offboard, blocked, collision
    case: int = 0        # the lowest collision case (0: none)
    others: tuple[str, ...] = ()          # everyone it collided with (the player too, for a self-collision)
    frm: tuple[int, int] | None = None    # fine points
    to: tuple[int, int] | None = None
    colour: str = ""                      # the path's colour; for a swap, the border node's new colour
    hits: tuple[tuple[int, str], ...] = ()   # (case, other player) pairs
    counted: int = 0                      # collisions caused by this action (A13)

    @property
    def node(self) -> str:
        return self.code[0] if is_path(self.code) else ""


@dataclass(slots=True)
class Segment:
    player: str
    node: str
    frm: tuple[int, int]
    to: tuple[int, int]
    colour: str
    step: int

    @property
    def mid(self) -> tuple[int, int]:
        return ((self.frm[0] + self.to[0]) // 2, (self.frm[1] + self.to[1]) // 2)


@dataclass
class PathResult:
    segments: list[Segment]
    ends: dict[str, dict[str, tuple[int, int]]]
    border_colour: dict[str, str]
    paths: dict[str, int]
    collisions: dict[str, int]
    moves: dict[str, dict[str, str]]
    events: dict[str, list[Event]]
    log: list[str] = field(default_factory=list)
    steps: dict[str, dict[str, list[int]]] = field(default_factory=dict)   # the step of each successful move


def _slots(codes: Sequence[str], gswap_takes_step: bool) -> list[tuple[int, str | None]]:
    """(colour flips before the action, action) per step (A14)."""
    if gswap_takes_step:
        return [(0, c) for c in codes]
    out: list[tuple[int, str | None]] = []
    pending = 0
    for c in codes:
        if c == GSWAP:
            pending += 1
            continue
        out.append((pending, c))
        pending = 0
    if pending:
        out.append((pending, None))
    return out


def run_paths(starts: Mapping[str, Mapping[str, Sequence[int]]], border_colour: Mapping[str, str],
              plans: Mapping[str, Sequence[str]], options: Mapping[str, Any] | Options) -> PathResult:
    """Resolve one round's actions step by step for all players at once (R29, reference order (f)).

    `starts` maps player -> {"B": fine point, "C": fine point}; `plans` the cleaned codes.
    """
    # Over 80 lines on purpose: the hot loop of every round, kept whole so that each step's four phases
    # (proposals, crossings, arrivals, apply) share its locals without a call per phase.
    opts = options if isinstance(options, Options) else options_of(options)
    cols, rows = opts.columns, opts.rows
    blocked = opts.blocked
    players = sorted(starts)
    pos: dict[str, dict[str, Point]] = {p: {n: _point(starts[p][n]) for n in "BC"} for p in players}
    colour = {p: border_colour[p] for p in players}
    stopped = {p: {"B": False, "C": False} for p in players}
    claimed: dict[tuple[int, int], str] = {}
    if opts.start_nodes_claimed:
        for p in players:
            for n in "BC":
                claimed.setdefault(pos[p][n], p)
    placed_at: dict[tuple[int, int], list[Segment]] = {}
    segments: list[Segment] = []
    paths = {p: 0 for p in players}
    collisions = {p: 0 for p in players}
    moves = {p: {"B": "", "C": ""} for p in players}
    move_steps: dict[str, dict[str, list[int]]] = {p: {"B": [], "C": []} for p in players}
    events: dict[str, list[Event]] = {p: [] for p in players}
    log: list[str] = []
    slots = {p: _slots(plans.get(p, ()), opts.gswap_takes_step) for p in players}
    steps = max((len(s) for s in slots.values()), default=0)

    labels = _board_labels(cols, rows)

    def lbl(f: tuple[int, int]) -> str:
        return labels.get(f) or fine_label(f, cols, rows)

    crossing_first = opts.crossing_before_arrival
    stop_offboard = opts.offboard_policy == "stop_node"
    per_action = opts.collision_count_mode == "per_action"
    for k in range(1, steps + 1):
        # A proposal: [player, node, code, segment, its midpoint, hits (case, other player)].
        proposals: list[list[Any]] = []
        for p in players:
            if k > len(slots[p]):
                continue
            flips, code = slots[p][k - 1]
            if flips:
                for _ in range(flips):
                    colour[p] = other(colour[p])
            if code is None:
                continue
            if code == SWAP or code == GSWAP:
                colour[p] = other(colour[p])
                events[p].append(Event(k, code, "swap", 0, (), None, None, colour[p]))
                continue
            if code == IDLE:
                events[p].append(Event(k, code, "idle"))
                continue
            n, d = code[0], DIRS[code[1]]
            frm = pos[p][n]
            to = (frm[0] + 2 * d[0], frm[1] + 2 * d[1])
            node_col = colour[p] if n == "B" else other(colour[p])
            if stopped[p][n]:
                events[p].append(Event(k, code, "stopped", 0, (), frm, to, node_col))
                continue
            off = not (0 <= to[0] <= 2 * cols and 0 <= to[1] <= 2 * rows)   # on_board, inlined
            if off or (n == "C" and to in blocked):     # E5; a blocked cell is no gray square (A36)
                if stop_offboard:
                    stopped[p][n] = True
                events[p].append(Event(k, code, "offboard" if off else "blocked", 0, (), frm, to, node_col))
                continue
            proposals.append([p, n, code, Segment(p, n, frm, to, node_col, k),
                              ((frm[0] + to[0]) // 2, (frm[1] + to[1]) // 2), []])
        if not proposals:
            continue
        # half-step: crossings of a central and a border path of the same colour (cases 3, 4)
        by_mid: dict[tuple[int, int], list[list[Any]]] = {}
        for pr in proposals:
            by_mid.setdefault(pr[4], []).append(pr)
        for pr in proposals:
            seg, mid, hits = pr[3], pr[4], pr[5]
            for old in placed_at.get(mid, ()):
                if old.node != seg.node and old.colour == seg.colour:
                    hits.append((4, old.player))
            same_mid = by_mid[mid]
            if len(same_mid) > 1:   # nearly always the proposal alone
                for o in same_mid:
                    s2 = o[3]
                    if o is not pr and s2.node != seg.node and s2.colour == seg.colour:
                        hits.append((3, o[0]))
        # arrivals (cases 1, 2)
        pool = [pr for pr in proposals if not pr[5]] if crossing_first else proposals
        by_target: dict[tuple[int, int], list[list[Any]]] = {}
        for pr in pool:
            owner = claimed.get(pr[3].to)
            if owner is not None:
                pr[5].append((1, owner))
            else:
                by_target.setdefault(pr[3].to, []).append(pr)
        for group in by_target.values():
            if len(group) > 1:
                for pr in group:
                    pr[5].extend((2, o[0]) for o in group if o is not pr)
        # apply
        for p, n, code, seg, mid, found in proposals:
            if found:
                stopped[p][n] = True
                count = 1 if per_action else len(found)
                collisions[p] += count
                hits = tuple(sorted(found))
                events[p].append(Event(k, code, "collision", hits[0][0], tuple(sorted({o for _, o in hits})),
                                       seg.frm, seg.to, seg.colour, hits, count))
                log.append(f"step {k}: {p} {code} {lbl(seg.frm)} -> {lbl(seg.to)} ({seg.colour}): "
                           + "; ".join(f"case {c} with {o}" for c, o in hits))
            else:
                segments.append(seg)
                placed_at.setdefault(mid, []).append(seg)
                claimed[seg.to] = p
                pos[p][n] = seg.to
                paths[p] += 1
                moves[p][n] += code[1]
                move_steps[p][n].append(k)
                events[p].append(Event(k, code, "placed", 0, (), seg.frm, seg.to, seg.colour))
    return PathResult(segments, {p: {n: pos[p][n] for n in "BC"} for p in players}, colour, paths,
                      collisions, moves, events, log, move_steps)


def walk_alone(start: Mapping[str, Sequence[int]], border_colour: str, codes: Sequence[str],
               options: Mapping[str, Any] | Options) -> list[Event]:
    """The steps of one player's plan that fail with nobody else on the board (offboard, blocked,
    collision: a self-collision), as :func:`run_paths` finds them for that player alone. Every
    submission is walked like this to warn the player, so it skips the bookkeeping of a whole
    round; the rules are the same (tests/test_fast_paths.py runs both on many plans).

    >>> [(e.step, e.code, e.result) for e in walk_alone({"B": point_fine(0, 0), "C": cell_fine(0, 0)}, BLUE,
    ...                                                    ["BU", "CD", "CU", "CU"], DEFAULTS)]
    [(1, 'BU', 'offboard'), (3, 'CU', 'collision')]
    """
    opts = options if isinstance(options, Options) else options_of(options)
    cols, rows = opts.columns, opts.rows
    blocked = opts.blocked
    colour = border_colour
    pos = {"B": _point(start["B"]), "C": _point(start["C"])}
    stopped = {"B": False, "C": False}
    claimed = {pos["B"], pos["C"]} if opts.start_nodes_claimed else set()
    placed: dict[tuple[int, int], list[tuple[str, str]]] = {}   # midpoint -> (node, colour) of placed paths
    stop_node = opts.offboard_policy == "stop_node"
    out: list[Event] = []
    for k, (flips, code) in enumerate(_slots(codes, opts.gswap_takes_step), start=1):
        if flips:
            for _ in range(flips):
                colour = other(colour)
        if code is None or code == IDLE:
            continue
        if code == SWAP or code == GSWAP:
            colour = other(colour)
            continue
        n, (dx, dy) = code[0], DIRS[code[1]]
        if stopped[n]:
            continue
        frm = pos[n]
        to = (frm[0] + 2 * dx, frm[1] + 2 * dy)
        off = not (0 <= to[0] <= 2 * cols and 0 <= to[1] <= 2 * rows)   # on_board, inlined
        if off or (n == "C" and to in blocked):
            if stop_node:
                stopped[n] = True
            out.append(Event(k, code, "offboard" if off else "blocked", frm=frm, to=to))
            continue
        seg_colour = colour if n == "B" else other(colour)
        mid = ((frm[0] + to[0]) // 2, (frm[1] + to[1]) // 2)
        # a crossing of the other node's earlier path of the same colour (case 4), else an arrival on a
        # claimed point (case 1); alone, nothing else can happen (cases 2 and 3 need two paths at once)
        here = placed.get(mid)
        if to in claimed or (here and any(node != n and c == seg_colour for node, c in here)):
            stopped[n] = True
            out.append(Event(k, code, "collision", frm=frm, to=to))
            continue
        placed.setdefault(mid, []).append((n, seg_colour))
        claimed.add(to)
        pos[n] = to
    return out

