"""Three Modular Rooms, the state: what a game holds between rounds, typed, and how a saved one is upgraded.

The JSON shape is the one records have always held; a key added or changed is a new
``STATE_VERSION`` with a step in :func:`upgrade`.
"""
from __future__ import annotations

from typing import Any, NotRequired, TypedDict

STATE_VERSION = 1


class TmrState(TypedDict):
    """A Three Modular Rooms state (a plain JSON-able dict)."""
    round: int                            # the round open for submissions (1..rounds)
    finished: bool
    options: dict[str, Any]               # the host's options as chosen (typed by options.options_of)
    players: list[str]                    # the roster, in seat order
    hands: dict[str, list[int]]           # each player's cards, in resolution order (R2, R6)
    points: dict[str, int]                # points so far (R30-R34)
    opal: list[list[Any]]                 # [round, player] for each opal challenge completed (R45)
    final_balances: dict[str, int]        # garnets after the end-of-match payouts (A31)
    payouts: dict[str, int]               # kept empty; held by every record since the first
    balances_before_payouts: NotRequired[dict[str, int]]   # set at the end (A31 before_payouts)


def upgrade(state: dict[str, Any], version: int) -> dict[str, Any]:
    """A state saved at `version` in today's shape: the identity while there is one version.

    A change to the state's shape raises STATE_VERSION to N and adds here a step
    ``if version < N: state = {...state with the change...}``, oldest first, so a record saved by
    any earlier version loads and replays.
    """
    return state
