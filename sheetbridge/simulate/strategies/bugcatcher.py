"""Bugcatcher: the "pathfinder" spends all 7 Energy on paths that stay on the board and off every
known node, builds one mission shape when it fits, and accepts no mission it does not build."""
from __future__ import annotations

from typing import Any, Sequence

from ...core.rng import Rng
from ...core.types import RawSubmission
from ...games.bugcatcher import (DIRS, ENERGY, BugcatcherBoard, MissionPresented, NextNodes, NodeMarker,
                                StartingNode, blocked_fine, fine_of, shape_variants)
from ..view import PlayerView, strategy
from .reading import choices, has, section

Point = tuple[int, int]
# A step next to another player's node is likelier to meet one of their paths (an arrival or a
# crossing ends the rest of that node's round): worth this fraction of a firefly less.
CROWD_RISK = 0.3


class _Ground:
    """What the player knows of this round's board: its size, blocked cells, where every node starts."""

    def __init__(self, view: PlayerView) -> None:
        facts = view.facts
        last_board = max(i for i, f in enumerate(facts) if isinstance(f, BugcatcherBoard))
        board: BugcatcherBoard = facts[last_board]
        self.cols, self.rows = board.columns, board.rows
        self.blocked = blocked_fine({"columns": board.columns, "rows": board.rows,
                                     "blocked_cells": ",".join(board.blocked)})
        markers = [f for f in facts[last_board:] if isinstance(f, NodeMarker)]
        phase = "end" if any(m.phase == "end" for m in markers) else "start"
        self.taken: set[Point] = {fine_of(m.node, m.at) for m in markers if m.phase == phase}
        self.mine = _own_nodes(facts, view.player)
        self.others = self.taken - set(self.mine.values())

    def step(self, node: str, at: Point, d: str) -> Point | None:
        """Where a path of `node` from `at` goes, or None when it leaves the board or enters a blocked cell."""
        dx, dy = DIRS[d]
        to = (at[0] + 2 * dx, at[1] + 2 * dy)
        if not (0 <= to[0] <= 2 * self.cols and 0 <= to[1] <= 2 * self.rows):
            return None
        if node == "C" and to in self.blocked:
            return None
        return to

    def risk(self, p: Point) -> float:
        return CROWD_RISK * sum(abs(p[0] - q[0]) + abs(p[1] - q[1]) <= 2 for q in self.others)


def _own_nodes(facts: Sequence[Any], player: str) -> dict[str, Point]:
    """The player's nodes for this round: their latest NextNodes, or their starting nodes."""
    nodes: dict[str, Point] = {}
    for f in facts:
        if isinstance(f, StartingNode) and f.player == player:
            nodes[f.node[0].upper()] = fine_of(f.node, f.at)
        elif isinstance(f, NextNodes) and f.player == player:
            nodes = {"B": fine_of("B", f.border), "C": fine_of("C", f.central)}
    return nodes


def _walk(ground: _Ground, node: str, at: Point, moves: str, used: set[Point]) -> list[Point] | None:
    """The points a fixed run of moves reaches, or None if one leaves the board or lands on a used point."""
    out = []
    for d in moves:
        nxt = ground.step(node, at, d)
        if nxt is None or nxt in used or nxt in out:
            return None
        out.append(nxt)
        at = nxt
    return out


def _extend(ground: _Ground, node: str, at: Point, n: int, used: set[Point], rng: Rng) -> str:
    """Up to n more moves, each to the free point with the most free points around it (so the walk
    does not trap itself), the least crowded first."""
    moves = ""
    for _ in range(n):
        best, best_d = None, ""
        for d in "UDLR":
            nxt = ground.step(node, at, d)
            if nxt is None or nxt in used:
                continue
            room = sum(1 for e in "UDLR" if (q := ground.step(node, nxt, e)) and q not in used and q != at)
            score = room - ground.risk(nxt) + rng.random() * 0.01
            if best is None or score > best:
                best, best_d = score, d
        if best is None:
            break
        at = ground.step(node, at, best_d)
        used.add(at)
        moves += best_d
    return moves


def _mission_plan(ground: _Ground, board: Sequence[MissionPresented], rng: Rng) -> tuple[str, str, str] | None:
    """(mission id, node, moves) of the best-paying mission shape the player's node can build from
    where it stands, or None."""
    best, found = 0.0, None
    for m in board:
        if m.manual or not m.shape or len(m.shape) > ENERGY:
            continue
        for node in {"border": ("B",), "central": ("C",)}.get(m.node, ("B", "C")):
            for v in shape_variants(m.shape):
                pts = _walk(ground, node, ground.mine[node], v, ground.taken)
                if pts is None:
                    continue
                worth = m.reward - sum(map(ground.risk, pts)) + rng.random() * 0.01
                if worth > best:
                    best, found = worth, (m.mission, node, v)
    return found


def _interleave(first: list[str], rest: dict[str, str]) -> list[str]:
    """The mission's moves first (finished as early as possible), then the two nodes' other moves in turn."""
    out = list(first)
    queues = {n: [n + d for d in moves] for n, moves in rest.items()}
    while any(queues.values()):
        for n in "CB":
            if queues.get(n):
                out.append(queues[n].pop(0))
    return out


def _pregame(view: PlayerView, rng: Rng) -> RawSubmission:
    cells = list(choices(view, "central", "cell"))
    corner_cells = list(choices(view, "border", "cell"))
    corners = choices(view, "border", "corner")
    rows = section(view, "central").rows
    return {"central": [{"cell": c} for c in rng.sample(cells, min(rows, len(cells)))],
            "border": [{"cell": c, "corner": rng.choice(corners)}
                       for c in rng.sample(corner_cells, min(rows, len(corner_cells)))],
            "bids": [{f.name: "0" for f in section(view, "bids").fields}]}


@strategy("pathfinder", "bugcatcher")
def bugcatcher_pathfinder(view: PlayerView, rng: Rng) -> RawSubmission:
    """Spend all 7 Energy on paths (never a swap): first the best-paying mission shape on this round's
    board that its node can build from where it stands without leaving the board or landing on a
    node (every node's start is public), then walks that never run into their own path or a known
    node, preferring open and uncrowded ground. Accepts that mission and every mission without a
    penalty; never one with a penalty it does not build."""
    if has(view, "central"):
        return _pregame(view, rng)
    ground = _Ground(view)
    labels = section(view, "missions").row_labels if has(view, "missions") else ()
    ids = [label.split(":")[0] for label in labels]
    board = [f for f in view.facts if isinstance(f, MissionPresented) and f.round == view.round and f.mission in ids]
    plan = _mission_plan(ground, board, rng)
    used = set(ground.taken)
    first: list[str] = []
    ends = dict(ground.mine)
    if plan:
        _, node, moves = plan
        pts = _walk(ground, node, ends[node], moves, used)
        used.update(pts)
        ends[node] = pts[-1]
        first = [node + d for d in moves]
    left = ENERGY - len(first)
    share = {"C": (left + 1) // 2, "B": left // 2}
    rest = {n: _extend(ground, n, ends[n], share[n], used, rng) for n in "CB"}
    for n in "CB":   # a node boxed in hands its moves to the other
        short = share[n] - len(rest[n])
        other = "B" if n == "C" else "C"
        if short > 0:
            rest[other] += _extend(ground, other, _end(ground, other, ends[other], rest[other]), short, used, rng)
    actions = _interleave(first, rest)
    accepted = {plan[0]} if plan else set()
    accepted |= {m.mission for m in board if not m.penalty}
    out: RawSubmission = {"actions": [{"action": a} for a in actions]}
    if labels:
        out["missions"] = [{"accept": "yes" if i in accepted else "no"} for i in ids]
    return out


def _end(ground: _Ground, node: str, at: Point, moves: str) -> Point:
    for d in moves:
        at = ground.step(node, at, d)
    return at
