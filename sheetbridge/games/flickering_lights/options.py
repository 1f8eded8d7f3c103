"""The host's options parsed once into a typed `Options` (the spec, `spec.py`, names them with
their ruling numbers)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from ...core.parsed_options import ParsedOnce


@dataclass(frozen=True, slots=True)
class Options:
    """The host's options, typed (the state keeps them as the host gave them: records replay).
    Choice options keep their text; the spec's choices list the values each may take."""
    row_one: str = "top"                        # A1: top, bottom
    distance: str = "manhattan"                 # A2: manhattan, chebyshev
    tie_keeps: str = "after_flip"               # A8: after_flip, round_start
    flip_spreads: bool = True                   # A10
    white_defends: bool = False                 # A13
    adjacency: str = "orthogonal"               # A14: orthogonal, eight
    grid_red_count: int = 16                    # A16
    grid_symmetry: str = "random"               # A16: random or a transform name
    diagonal_symmetry: bool = False             # A17
    coordinator_list: str = "sorted"            # A19: sorted, shuffled
    connectivity: int = 4                       # A21: 4, 8
    mediator_counts_connection_bonus: bool = True   # A22
    fog_overlap: bool = False                   # A24
    three_in_a_row: str = "windows"             # A26: windows, runs
    mediator_winner_by: str = "final"           # A27: final, raw
    end_of_match: str = "total"                 # A30: total, total_rounds_won
    invalid_entries: str = "drop_and_renumber"  # A33: drop_and_renumber, drop_keep_slots
    publish_counts: bool = False                # A35
    reveal_roles_at_end: bool = False           # A35
    reveal_play_at_end: bool = False            # A35
    white_missing_penalty: int = 0              # A32
    round2_roles: str = "Coordinator,Sniper,Demolitionist,Saboteur"   # A41, checked by content.role_pool
    round4_roles: str = "Sniper,Demolitionist,Blocker,Saboteur"       # A41
    garnets_per_points: int = 0                 # A31
    winner_garnets: int = 0                     # A31
    ec_garnets: int = 0                         # A31

    @classmethod
    def of(cls, options: Mapping[str, Any]) -> "Options":
        """The options a state (or a render context) holds, typed; an option left out takes its
        default. Parsed once per options mapping (core/parsed_options.py): every form, parse and
        round step reads them."""
        return _PARSED(options)


_BOOLS = frozenset(("flip_spreads", "white_defends", "diagonal_symmetry", "mediator_counts_connection_bonus",
                    "fog_overlap", "publish_counts", "reveal_roles_at_end", "reveal_play_at_end"))
_INTS = frozenset(("grid_red_count", "connectivity", "white_missing_penalty", "garnets_per_points",
                   "winner_garnets", "ec_garnets"))
_NAMES = frozenset(Options.__dataclass_fields__)


def _parse_options(items: tuple[tuple[str, Any], ...]) -> Options:
    typed: dict[str, Any] = {}
    for name, value in items:
        if name not in _NAMES:
            continue
        typed[name] = bool(value) if name in _BOOLS else int(value) if name in _INTS else str(value)
    return Options(**typed)


_PARSED = ParsedOnce(lambda options: _parse_options(tuple(options.items())))


def options_of(state: Mapping[str, Any]) -> Options:
    """A state's options, typed (see `Options.of`)."""
    return Options.of(state["options"])


def as_options(options: Options | Mapping[str, Any]) -> Options:
    """`options` typed: the rules' functions take an `Options` or the host's mapping."""
    return options if isinstance(options, Options) else Options.of(options)
