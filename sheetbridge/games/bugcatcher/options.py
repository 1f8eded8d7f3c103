"""Bugcatcher's host options read once into typed fields (:class:`Options`), and the cells the
blocked_cells option names (the spec, ``spec.py``, names the options with their ruling numbers)."""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Mapping

from ...core.parsing import clean
from ...core.parsed_options import ParsedOnce
from .spec import DEFAULTS, SPEC

if TYPE_CHECKING:   # (State is dict: the annotations only)
    from ...core.types import State


# ------------------------------------------------------------- cells (the blocked_cells option)

def cell_label(c: int, r: int) -> str:
    return f"{chr(ord('A') + c)}{r + 1}"


def parse_cell(text: str, cols: int, rows: int) -> tuple[int, int] | None:
    """'C3' -> (2, 2); None when it is not a cell of this board."""
    return _parse_cell(text if type(text) is str else clean(text), cols, rows)


_CELL = re.compile(r"([A-Za-z])\s*(\d{1,2})")


@functools.lru_cache(maxsize=2048)   # every pregame list and label is read this way
def _parse_cell(text: str, cols: int, rows: int) -> tuple[int, int] | None:
    m = _CELL.fullmatch(clean(text))
    if not m:
        return None
    c, r = ord(m.group(1).upper()) - ord("A"), int(m.group(2)) - 1
    return (c, r) if 0 <= c < cols and 0 <= r < rows else None


def parse_blocked(text: Any, cols: int, rows: int) -> tuple[list[tuple[int, int]], list[str]]:
    """The option blocked_cells: ('C3, d4' -> [(2, 2), (3, 3)], words that are not cells)."""
    cells: list[tuple[int, int]] = []
    bad: list[str] = []
    for word in re.split(r"[\s,;]+", clean(text)):
        if not word:
            continue
        cell = parse_cell(word, cols, rows)
        if cell is None:
            bad.append(word)
        elif cell not in cells:
            cells.append(cell)
    return sorted(cells, key=lambda c: (c[1], c[0])), bad


# ------------------------------------------------------------- the options, typed

CollisionCountMode = Literal["per_action", "per_pair"]
BlankPolicy = Literal["compress", "idle"]
EnergyOverflow = Literal["drop_excess", "reject_all"]
GswapFallback = Literal["as_swap", "drop"]
OffboardPolicy = Literal["stop_node", "skip_action"]
MissingPolicy = Literal["no_actions", "repeat_last"]
BidScope = Literal["per_list", "shared"]
BidCharge = Literal["always", "only_if_contested"]
PregameMode = Literal["strict", "next_available"]


@dataclass(frozen=True, slots=True)
class Options:
    """The host's options of one game (the SPEC's, ruling numbers there), read once.

    The state keeps them as the host gave them (``state["options"]``, unchanged so records replay);
    :func:`options_of` reads them into this, once per distinct set of values. ``blocked_cells`` is
    the option's text; ``blocked`` the fine points of those cells (A36) and ``blocked_labels`` their
    labels in board order."""
    rounds: int
    columns: int
    rows: int
    blocked_cells: str
    start_nodes_claimed: bool
    crossing_before_arrival: bool
    collision_count_mode: CollisionCountMode
    gswap_takes_step: bool
    blank_policy: BlankPolicy
    energy_overflow: EnergyOverflow
    extra_gswap: GswapFallback
    gswap_no_garnet: GswapFallback
    offboard_policy: OffboardPolicy
    missing_policy: MissingPolicy
    mission_requires_acceptance: bool
    bid_scope: BidScope
    bid_charge: BidCharge
    pregame_mode: PregameMode
    public_node_colors: bool
    public_step_order: bool
    private_breakdown: bool
    reveal_all_stats: bool
    blocked: frozenset[tuple[int, int]]
    blocked_labels: tuple[str, ...]

    @classmethod
    def of(cls, options: Mapping[str, Any]) -> Options:
        """The options given (the defaults for those left out), with blocked_cells read (A36)."""
        opts = {**DEFAULTS, **options}
        text = opts["blocked_cells"]
        text = text if isinstance(text, str) else clean(text)
        cells, _ = parse_blocked(text, opts["columns"], opts["rows"])
        named = {name: opts[name] for name in _NAMES if name != "blocked_cells"}
        return cls(blocked_cells=text, blocked=frozenset((2 * c + 1, 2 * r + 1) for c, r in cells),
                   blocked_labels=tuple(cell_label(*c) for c in cells), **named)


_NAMES = tuple(o.name for o in SPEC.options)
_PARSED = ParsedOnce(Options.of)


def options_of(options: Mapping[str, Any]) -> Options:
    """:meth:`Options.of`, parsed once per options mapping (see core/parsed_options.py): a game in
    progress asks about its state's options at every parse, walk, random play and round."""
    return _PARSED(options)


def state_options(state: State) -> Options:
    """The options of a game in progress."""
    return options_of(state["options"])
