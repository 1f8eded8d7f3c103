"""Skeld's state: the JSON-able dict a round reads and returns, typed key by key, its version and
the upgrade of saved records. The shape is what records hold: change it only with a version step."""
from __future__ import annotations

from typing import Any, TypedDict

from ...core.types import State

STATE_VERSION = 1


class ItemState(TypedDict):
    """A bonus a crewmate carries (R35): its letter, uses left (None: unlimited or passive, A13)
    and the round it was won (it works from the next one, A12; 0 in a position)."""
    item: str
    uses: int | None
    got: int


class CrewState(TypedDict):
    """One crewmate: its name, room (None until the pregame places it), Energy, bonuses, parasite,
    cap and the cap raises bought for it (R13-R17)."""
    name: str
    pos: str | None
    energy: int
    items: list[ItemState]
    parasite: bool
    cap: int
    raises: int


class PlantState(TypedDict):
    """A parasite planted at V (R55): who, which crewmate (index), the Energy, the round, the
    Sequence named (plant_requires_target) and the verdict (rules.plant_verdicts)."""
    player: str
    crew: int
    energy: int
    round: int
    seq: str | None
    verdict: str
    improper: bool


class RoundHistory(TypedDict):
    round: int
    activated: list[str]


class EndState(TypedDict):
    """How the Main Match ended: its last round and the Sequences completed in it (empty: the limit)."""
    round: int
    sequences: list[str]


class SkeldState(TypedDict):
    """Everything a Skeld game holds between rounds (round 0 is the pregame)."""
    round: int
    finished: bool
    players: list[str]
    options: dict[str, Any]          # as the host gave them; read typed with options.options_of
    board: list[list[str]]           # the 7x7 ship (A1)
    crew: dict[str, list[CrewState]]
    components: dict[str, list[str]]
    activated: list[str]             # rooms activated for good, in activation order (R41)
    history: list[RoundHistory]
    walls: list[str]                 # shared edges "3C|4B" (R67, A2)
    disabled: dict[str, int]         # room -> last round it is blocked (R31-R34, A15)
    disable_used: dict[str, bool]
    claimed: dict[str, bool]         # parasite claimed (once per game)
    vault_used: dict[str, bool]
    plants: list[PlantState]
    balances: dict[str, int]         # garnets held, as the round was given them
    end: EndState | None


def upgrade(state: State, version: int) -> State:
    """A state saved by `version` in today's shape. Identity: every saved state is version 1.
    A future change of shape raises STATE_VERSION to n and adds a step here,
    `if version < n: state = <the step from n - 1 to n>(state)`, oldest first."""
    return state


def round_copy(state: State) -> State:
    """The state a round resolves into. Only what a round writes in place is copied (a deep copy of the
    whole state costs 15% more instructions a game, play_random under callgrind): the crewmates and their
    items, the per-player lists and flags, the lists it appends to. The board, options and players are only
    read; balances and the end are replaced."""
    st = dict(state)
    st["crew"] = {p: [{**c, "items": [dict(it) for it in c["items"]]} for c in crew]
                  for p, crew in state["crew"].items()}
    st["components"] = {p: list(v) for p, v in state["components"].items()}
    for key in ("activated", "history", "walls", "plants"):
        if key in st:
            st[key] = list(st[key])
    for key in ("disabled", "disable_used", "claimed", "vault_used"):
        if key in st:
            st[key] = dict(st[key])
    return st
