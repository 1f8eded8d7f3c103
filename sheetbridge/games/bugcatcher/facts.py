"""A round's results as typed facts, each with its audience, in the order the game defines them
(the simulation's verdict lists them so), then the ledger's reasons and the outcome's endings.

Every report and picture is drawn from these (render.py, drawing.py). Coordinates are each node's
own: a border node on corner (x, y), x = 0..columns, y = 0..rows; a central node in cell (c, r),
0-based (A3); labels are as players write them ("C3", "C1 bottom right"). Audiences follow the
rulings' information model (section (c)): the board, completions and the end are public; a player's
own actions, nodes, missions and totals are theirs; who is who, who collided with whom, other
players' lists, bids and draws are the host's alone.
"""
from __future__ import annotations

import enum
import functools
import operator
from dataclasses import dataclass
from typing import Any

from ...core.facts import Fact, fact
from ...core.types import Problem, State
from .board import _NODE_WORDS, fine_label, own_xy
from .content import board_missions, mission_text
from .options import options_of


@fact
@dataclass(frozen=True)
class BugcatcherBoard(Fact):
    """The board the round was played on (R3, A1, A36): size and blocked cells (labels)."""
    round: int
    columns: int
    rows: int
    blocked: tuple[str, ...] = ()


@fact
@dataclass(frozen=True)
class NodeMarker(Fact):
    """A node on the public board, unlabelled (R26, R64, A33): where a round starts ("start") or
    ends ("end"). `colour` is "" unless colours are public (Round 1's start, public_node_colors)."""
    phase: str          # start or end
    node: str           # border or central
    at: tuple[int, int]
    label: str
    colour: str = ""


@fact
@dataclass(frozen=True)
class PathPlaced(Fact):
    """A successful path on the public board (R63, R65), unowned; `step` is 0 unless the step order
    is public (public_step_order)."""
    node: str           # border or central
    frm: tuple[int, int]
    to: tuple[int, int]
    frm_label: str
    to_label: str
    colour: str
    step: int = 0


@fact
@dataclass(frozen=True)
class MissionPresented(Fact):
    """A mission on a round's board (R48, A37), as the players read it."""
    round: int
    mission: str
    name: str
    node: str
    shape: str          # "" for a manual mission
    manual: bool
    reward: int
    penalty: int
    failure_rounds: int | None
    expires_after_round: int | None
    text: str           # the board's wording


@fact
@dataclass(frozen=True)
class MissionCompleted(Fact):
    """R62: a mission was completed this round (never who)."""
    mission: str
    name: str


@fact
@dataclass(frozen=True)
class MissionClosed(Fact):
    """A mission nobody can complete any more: its window ended (A19)."""
    mission: str
    name: str


@fact
@dataclass(frozen=True)
class PriorityClaim:
    """One player's claim in a pregame pass: their `choice`-th entry, with their bid."""
    player: str
    choice: int
    bid: int


@fact
@dataclass(frozen=True)
class PriorityPass(Fact):
    """A coordinate given out in pass `pass_no` of one priority list (R22-R25, A27, A30): who claimed
    it, who got it and how: "alone", "bid" (the highest bid) or "draw" (a seeded draw among
    `drawn_among`, the top bids). The host's alone."""
    list: str           # central or border
    pass_no: int
    coordinate: str
    claimants: tuple[PriorityClaim, ...]
    winner: str
    decided_by: str
    drawn_among: tuple[str, ...] = ()


@fact
@dataclass(frozen=True)
class PriorityFallback(Fact):
    """A player no listed entry could be given: a seeded draw among the `free` coordinates (A27)."""
    list: str
    player: str
    coordinate: str
    free: int


@fact
@dataclass(frozen=True)
class PriorityBid(Fact):
    """A player's tiebreak bid on a list (R21, A26, E-P5): as typed, after the cap, and charged."""
    player: str
    list: str           # central, border, or both (bid_scope shared)
    wanted: int
    bid: int
    charged: int


@fact
@dataclass(frozen=True)
class StartingNode(Fact):
    """Where a player's node starts Round 1 (R23, R24, R11): `choice` is the entry of the list
    that got it (1 = first), 0 for a random free coordinate (A27)."""
    player: str
    node: str
    at: tuple[int, int]
    label: str
    choice: int
    colour: str


@fact
@dataclass(frozen=True)
class IntakeProblem(Fact):
    """Something wrong with a player's submission, and what was done (E1-E7, E-P1-E-P6)."""
    player: str
    problem: Problem


@fact
@dataclass(frozen=True)
class NoSubmission(Fact):
    """The player submitted nothing this round (E11): `repeated` holds the actions repeated from
    their last submission (missing_policy repeat_last), else nothing happened."""
    player: str
    policy: str
    repeated: tuple[str, ...] = ()


@fact
@dataclass(frozen=True)
class ActionStep(Fact):
    """One step of a player's round (R29): the action, what became of it and what it cost.

    result: placed, swap, idle, stopped (its node stopped earlier), offboard, blocked (a blocked
    cell, A36) or collision. `cases` are the collision cases it met (R37-R43), `self_cases` those
    met only with the player's own paths or nodes (R45). `energy`/`garnet` are what it cost (R13-R15,
    A16) and `collisions` how many "collisions caused" it counts (R72, A13). For a swap, `colour` is
    the border node's new colour."""
    player: str
    step: int
    action: str
    node: str           # border, central or "" for a swap
    result: str
    frm: tuple[int, int] | None = None
    to: tuple[int, int] | None = None
    frm_label: str = ""
    to_label: str = ""
    colour: str = ""
    cases: tuple[int, ...] = ()
    self_cases: tuple[int, ...] = ()
    energy: int = 0
    garnet: int = 0
    collisions: int = 0


@fact
@dataclass(frozen=True)
class CollisionHit:
    """One party of a collision: the case (1-4) and the other player (the same player: themselves)."""
    case: int
    other: str


@fact
@dataclass(frozen=True)
class CollisionRecord(Fact):
    """Who collided with whom (R37-R45): the host's alone (never published, section (c))."""
    step: int
    player: str
    action: str
    node: str
    at: str             # the point it tried to reach
    hits: tuple[CollisionHit, ...]
    counted: int


@fact
@dataclass(frozen=True)
class NodePath(Fact):
    """A node's successful path this round (R6, R31, A11): its moves and the step of each move."""
    player: str
    node: str
    start: tuple[int, int]
    end: tuple[int, int]
    start_label: str
    end_label: str
    moves: str
    steps: tuple[int, ...]


@fact
@dataclass(frozen=True)
class EnergyUsed(Fact):
    """Energy a player spent this round (R12-R15, A16): paths and swaps that ran, of `limit`;
    a garnet swap costs a garnet instead."""
    player: str
    energy: int
    limit: int
    paths: int
    swaps: int
    garnet_swaps: int


@fact
@dataclass(frozen=True)
class MissionAccepted(Fact):
    """A player's acceptance (R51, R52, A18, E7): `ok` False when it was ignored, with the reason."""
    player: str
    mission: str
    name: str
    ok: bool = True
    reason: str = ""


@fact
@dataclass(frozen=True)
class MissionCheck(Fact):
    """A mission checked for a player this round (A22-A25): by shape (the node, the variant found,
    the steps whose moves matched) or by the host (manual, A21; `pending` until entered). The
    window is the rounds in which it can be completed (A19); `window_last` 0 = until completed."""
    player: str
    mission: str
    name: str
    how: str            # shape or host
    matched: bool
    node: str = ""
    moves: str = ""
    variant: str = ""
    steps: tuple[int, ...] = ()
    window_first: int = 0
    window_last: int = 0
    pending: bool = False


@fact
@dataclass(frozen=True)
class MissionReward(Fact):
    """A player's share of a mission reward (R53, R54, A24): ceil(reward / completers)."""
    player: str
    mission: str
    name: str
    reward: int
    completers: int
    share: int


@fact
@dataclass(frozen=True)
class MissionPenalty(Fact):
    """A failed mission's penalty (R56, A19, A20): why is "completed_by_others" or "window_ended"."""
    player: str
    mission: str
    name: str
    penalty: int
    why: str


@fact
@dataclass(frozen=True)
class MissionCompleters(Fact):
    """Who completed a mission and the share each got: the host's alone (R62)."""
    mission: str
    players: tuple[str, ...]
    share: int


@fact
@dataclass(frozen=True)
class ManualMissionPending(Fact):
    """A manual mission whose completers the host has not entered (A21): counts as not completed."""
    mission: str
    name: str
    round: int
    candidates: tuple[str, ...]
    decision: str       # the decision's key


@fact
@dataclass(frozen=True)
class FireflyBreakdown(Fact):
    """Where a player's fireflies came from this round: paths (R32), rewards, penalties (A34)."""
    player: str
    paths: int
    rewards: int
    penalties: int


@fact
@dataclass(frozen=True)
class FireflyTotal(Fact):
    """The player's own firefly count at the end of the round, told privately (R66, R67)."""
    player: str
    before: int
    change: int
    total: int


@fact
@dataclass(frozen=True)
class CollisionsCaused(Fact):
    """A player's collisions caused this round and over the game (R72, A13)."""
    player: str
    this_round: int
    total: int


@fact
@dataclass(frozen=True)
class NextNodes(Fact):
    """A player's nodes and colours for the next round (R6, A11, A15)."""
    player: str
    border: tuple[int, int]
    central: tuple[int, int]
    border_label: str
    central_label: str
    border_colour: str


@fact
@dataclass(frozen=True)
class FinalCount(Fact):
    """R68, A35: a player's final fireflies and place; missions and collisions only where a tie
    used them (or reveal_all_stats), else None."""
    place: int
    player: str
    fireflies: int
    missions: int | None = None
    collisions: int | None = None


@fact
@dataclass(frozen=True)
class TieBreakStep(Fact):
    """Two players tied on fireflies, next to each other in the final order, and the step of R71
    that separated them: "missions", "collisions", "gamewide", or "pending" (the Gamewide
    Tiebreak is not entered) / "not needed" (a full tie nowhere near the winner or the EC)."""
    above: str
    below: str
    fireflies: int
    by: str
    above_value: int = 0
    below_value: int = 0


@fact
@dataclass(frozen=True)
class MainMatchResult(Fact):
    """The winner and the Elimination Candidate (R69, R70); None while a decision is pending."""
    winner: str | None
    ec: str | None
    pending: tuple[str, ...] = ()   # the keys of the decisions still missing


@fact
@dataclass(frozen=True)
class FireflyGarnets(Fact):
    """R73, A31: garnets for every 30 fireflies."""
    player: str
    fireflies: int
    garnets: int


@fact
@dataclass(frozen=True)
class FinalStats(Fact):
    """Every player's final figures, the host's alone (A35 reveals them only where ties used them)."""
    player: str
    fireflies: int
    missions: int
    collisions: int


FACT_TYPES = (BugcatcherBoard, NodeMarker, PathPlaced, MissionPresented, MissionCompleted, MissionClosed,
              PriorityClaim, PriorityPass, PriorityFallback, PriorityBid, StartingNode, IntakeProblem,
              NoSubmission, ActionStep, CollisionHit, CollisionRecord, NodePath, EnergyUsed, MissionAccepted,
              MissionCheck, MissionReward, MissionPenalty, MissionCompleters, ManualMissionPending,
              FireflyBreakdown, FireflyTotal, CollisionsCaused, NextNodes, FinalCount, TieBreakStep,
              MainMatchResult, FireflyGarnets, FinalStats)


class LedgerReason(enum.StrEnum):
    """Every reason the game books in the garnet ledger (LedgerEntry.reason holds the value)."""
    PREGAME_BID = "PREGAME_BID"                   # a shared tiebreak bid (A26)
    PREGAME_BID_CENTRAL = "PREGAME_BID_CENTRAL"   # the central list's bid (A26)
    PREGAME_BID_BORDER = "PREGAME_BID_BORDER"     # the border list's bid (A26)
    GARNET_SWAP = "GARNET_SWAP"                   # a garnet colour swap (R15)
    MM_WINNER = "MM_WINNER"                       # the Main Match winner's garnet (R69)
    FIREFLY_CONVERSION = "FIREFLY_CONVERSION"     # 1 garnet per 30 fireflies (R73)


class Ending(enum.StrEnum):
    """What settled the winner (Outcome.ending holds the value): the most fireflies alone, the R71
    step that separated the top two, or what is still pending."""
    FIREFLIES = "fireflies"
    MISSIONS = "missions"
    COLLISIONS = "collisions"
    GAMEWIDE = "gamewide"
    WINNER_PENDING = "winner_pending"     # the Gamewide Tiebreak is not entered yet
    MANUAL_PENDING = "manual_pending"     # a manual mission's completers are not entered yet


# ------------------------------------------------------------- facts made once

# The public board's facts repeat from round to round and game to game (the same point, node and
# colour): being frozen values, one object serves them all, made once (each a few hundred a game),
# together with its place in the board's order (_PATH_ORDER, _MARKER_ORDER), so sorting computes none.
@functools.lru_cache(maxsize=1 << 14)
def _node_marker(phase: str, node: str, at: tuple[int, int], colour: str, cols: int,
                 rows: int) -> tuple[tuple, NodeMarker]:
    f = NodeMarker(phase, _NODE_WORDS[node], own_xy(at), fine_label(at, cols, rows), colour)
    return _MARKER_ORDER(f), f


@functools.lru_cache(maxsize=1 << 15)
def _path_placed(node: str, frm: tuple[int, int], to: tuple[int, int], colour: str, step: int,
                 cols: int, rows: int) -> tuple[tuple, PathPlaced]:
    f = PathPlaced(_NODE_WORDS[node], own_xy(frm), own_xy(to), fine_label(frm, cols, rows),
                   fine_label(to, cols, rows), colour, step)
    return _PATH_ORDER(f), f


_ORDER_KEY = operator.itemgetter(0)   # of a (board order, fact) pair


# The same holds for a player's acceptance of a mission and a shape not found in their moves (most
# checks): the same few player, mission and moves come back game after game.
@functools.lru_cache(maxsize=1 << 12)
def _accepted(player: str, mission: str, name: str) -> MissionAccepted:
    return MissionAccepted(player, mission, name, audience=(player,))


@functools.lru_cache(maxsize=1 << 14)
def _not_found(player: str, mission: str, name: str, node: str, moves: str, first: int, last: int) -> MissionCheck:
    return MissionCheck(player, mission, name, "shape", False, node, moves, "", (), first, last, audience=(player,))


# What a mission's board entry is drawn from (mission_text reads no other key).
_PRESENTED_KEYS = ("id", "name", "node", "shape", "manual", "reward", "penalty", "failure_rounds", "expires",
                   "text", "rotate", "reflect", "either_end", "anywhere")


@functools.lru_cache(maxsize=1024)   # the same table's missions are presented in every game
def _mission_presented(r: int, *values: Any) -> MissionPresented:
    m = dict(zip(_PRESENTED_KEYS, values))
    return MissionPresented(r, m["id"], m["name"], m["node"], m["shape"], bool(m["manual"]), m["reward"],
                            m["penalty"], m["failure_rounds"], m["expires"], mission_text(m))


def _PATH_ORDER(f: PathPlaced) -> tuple:   # the public board order of paths (no owner, no step)
    return (f.node, f.frm[1], f.frm[0], f.to[1], f.to[0])


def _MARKER_ORDER(f: NodeMarker) -> tuple:   # the public board order of node markers
    return (f.phase != "start", f.node, f.at[1], f.at[0], f.colour)


def presented_facts(st: State, r: int) -> list[MissionPresented]:
    """The missions on round `r`'s board, as the players read them (R48)."""
    return [_mission_presented(r, *(m.get(k) for k in _PRESENTED_KEYS)) for m in board_missions(st, r)]


def board_fact(st: State, r: int) -> BugcatcherBoard:
    """The board round `r` is played on (R3, A1, A36)."""
    opts = options_of(st["options"])
    return BugcatcherBoard(r, opts.columns, opts.rows, opts.blocked_labels)
