"""The game's state as typed dictionaries: the JSON a record saves, key for key, and how a state
saved by an older version is brought up to today's shape.

The state is plain JSON (records replay from it): squares are [column, row] lists, grids are 8
strings of R, B and "." (gray), row 1 first.
"""
from __future__ import annotations

from typing import Any, NotRequired, TypedDict

STATE_VERSION = 1


class Seat(TypedDict):
    """A player's team ("Red", "Blue", "White") and role ("Sniper", ..., "Mediator") in a round."""
    team: str
    role: str


class Item(TypedDict):
    """A round's item from the Items table (A18)."""
    name: str
    kind: str                   # note, lock, bonus, value, manual
    squares: list[list[int]]    # [column, row] pairs
    amount: int
    text: str


class OpenRound(TypedDict):
    """The round open for submissions, as drawn when it opened."""
    grid: list[str]                 # the round-start grid
    transform: str                  # the symmetry mapping its red squares onto its blue ones (R8)
    assign: dict[str, Seat]         # by player
    roles: list[str]                # the three roles in play (R4)
    lists: dict[str, list[str]]     # each Coordinator's unlabelled list (R23, R29)
    fog: dict[str, list[str]]       # Round 4: each player's known tiles (R49, R50)
    items: list[Item]


class RoundScoreRecord(TypedDict):
    tiles: list[int]    # red, blue
    total: list[int]    # red, blue, bonuses included


class PlayedRound(TypedDict):
    """A resolved round, as the end of the match and the views read it."""
    round: int
    grid_start: list[str]
    grid_end: list[str]
    assign: dict[str, Seat]
    roles: list[str]
    points: dict[str, int]
    score: RoundScoreRecord
    end_facts: NotRequired[list[Any]]   # facts (as JSON) the end of the game re-states (R52, A35)


class FlickeringState(TypedDict):
    """The whole state between rounds."""
    round: int
    finished: bool
    players: list[str]
    options: dict[str, Any]     # as the host gave them, defaults filled in (typed once: options.Options)
    totals: dict[str, int]
    history: list[PlayedRound]
    used_grids: list[list[str]]
    log: list[str]              # the host log of the round opening, carried into its resolution
    current: NotRequired[OpenRound]


def upgrade(state: dict[str, Any], version: int) -> dict[str, Any]:
    """A state saved by `version` in today's shape (today: every saved state is version 1).

    A change to the state's shape raises STATE_VERSION and adds a step here, e.g.
    ``if version < 2: state = {**state, "new_key": default}``, so records saved before it replay."""
    return state
