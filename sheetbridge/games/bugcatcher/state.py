"""Bugcatcher's state, typed: every key a game's state holds, with its JSON shape.

The state is a plain JSON dict (records keep it as it is); these TypedDicts name its keys. Points
are fine-grid points ``[X, Y]`` (see board.py); players are named by their seat.

Versions: ``STATE_VERSION`` is the shape this code writes. A record saved with an older version is
passed through :func:`upgrade` once when it is loaded. To change the shape, raise STATE_VERSION to
N and add a step ``if version < N: state = <the state in shape N>`` at the end of :func:`upgrade`
(each step takes the shape before it), so a record of any age arrives in today's shape.
"""
from __future__ import annotations

from typing import Any, TypedDict

from ...core.types import State

STATE_VERSION = 1


class Mission(TypedDict):
    """A mission read from the Missions table (content.py) and its progress in this game (R48-R62)."""
    id: str
    round: int                  # the round whose board presents it
    name: str
    node: str                   # border, central or any
    shape: str                  # moves such as "DDRDL"; "" for a manual mission
    manual: bool                # the host enters who completed it (A21)
    reward: int
    penalty: int                # 0 or negative
    failure_rounds: int | None
    expires: int | None         # expires_after_round
    rotate: bool
    reflect: bool
    either_end: bool
    anywhere: bool
    text: str
    accepted: list[str]
    status: str                 # open, completed or closed
    completed_round: int | None
    completers: list[str]
    penalized: list[str]


class BoardSegment(TypedDict):
    node: str                   # "B" or "C"
    frm: list[int]
    to: list[int]
    colour: str
    step: int


class BoardNode(TypedDict):
    at: list[int]
    colour: str | None          # None unless colours are public


class PublicBoard(TypedDict, total=False):
    """The public board of the last round resolved (R63-R65, A33), drawn by public_view."""
    round: int
    segments: list[BoardSegment]
    starts: list[BoardNode]
    ends: list[BoardNode]
    in_post: bool               # the pregame's board: shown once, in its post


class PendingManual(TypedDict):
    """A manual mission whose completers the host has not entered (A21)."""
    key: str                    # the decision's key
    mission: str
    name: str
    round: int


class TieStep(TypedDict):
    """The R71 step that separated two neighbours tied on fireflies."""
    above: str
    below: str
    by: str
    above_value: int
    below_value: int


class Final(TypedDict):
    """The end of the game (R68-R73) as the last round computed it."""
    order: list[str]
    places: dict[str, int]
    winner: str | None
    ec: str | None
    pending: list[str]          # keys of the Gamewide Tiebreak decisions not entered
    manual_pending: list[str]   # keys of the manual missions not entered
    steps: list[TieStep]
    shown: dict[str, dict[str, bool]]    # player -> {"missions": ..., "collisions": ...} (A35)
    conversions: dict[str, int]          # garnets for fireflies (R73)
    questions: dict[str, str]            # pending key -> its question


class BugcatcherState(TypedDict):
    """A Bugcatcher game's state."""
    round: int                  # the round open for submissions (0: the pregame)
    finished: bool
    options: dict[str, Any]     # the host's options as given (options.options_of reads them)
    players: list[str]
    nodes: dict[str, dict[str, list[int]]]      # player -> {"B": point, "C": point}
    border_colour: dict[str, str]               # player -> blue or black (central: the other)
    fireflies: dict[str, int]
    missions_completed: dict[str, int]
    collisions: dict[str, int]                  # collisions caused (R72, A13)
    missions: list[Mission]
    board: PublicBoard | None
    history: dict[str, list[int]]               # player -> fireflies gained each round
    last_actions: dict[str, list[str]]          # player -> last submitted actions (E11 repeat_last)
    pending_manual: list[PendingManual]
    final: Final | None


def upgrade(state: State, version: int) -> State:
    """A state saved by `version` of this game in today's shape (STATE_VERSION). Identity today:
    version 1 is the only shape there has been."""
    return state
