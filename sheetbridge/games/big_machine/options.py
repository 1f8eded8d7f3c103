"""The Big Machine's host options read once into typed fields: `Options` and the choices' enums
(the spec, ``spec.py``, names the options with their ruling numbers)."""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping

from ...core.parsed_options import ParsedOnce
from .spec import DEFAULTS

if TYPE_CHECKING:   # (State is dict: the annotations only)
    from ...core.types import State


class Overspend(enum.StrEnum):
    """Option overspend (A17): bid + power-up above the cogs held."""
    ZERO = "zero"        # both become 0
    CLAMP = "clamp"      # lower the power-up, then the bid


class NoWinner(enum.StrEnum):
    """Option no_winner (A3): a meadow where nobody wins."""
    FAULTY = "faulty"    # everyone there installs a faulty part
    NOTHING = "nothing"  # nothing is installed


class AdjacentJump(enum.StrEnum):
    """Option adjacent_jump (A7): a jump to a node joined to the previous one."""
    CHARGE = "charge"
    FREE_MOVE = "free_move"


class GarnetRounding(enum.StrEnum):
    """Option garnet_rounding (A13): garnets per 2 points."""
    FLOOR = "floor"
    CEIL = "ceil"


@dataclass(frozen=True)
class Options:
    """The host's options as typed fields (the state keeps them as the host gave them, in JSON)."""
    teams: str
    overspend: Overspend
    no_winner: NoWinner
    jump_to_previous: bool
    adjacent_jump: AdjacentJump
    enforce_garnets: bool
    forced_moves_break_free: bool
    guests_compete: bool
    garnet_rounding: GarnetRounding
    pay_guests: bool
    cross_team_trades: bool
    share_notices: bool
    public_layouts: bool

    @classmethod
    def parse(cls, given: Mapping[str, Any]) -> Options:
        """The options from the values Match.parse_options checked (defaults for any not given)."""
        o = {**DEFAULTS, **given}
        return cls(
            teams=str(o["teams"] or ""),
            overspend=Overspend(o["overspend"]),
            no_winner=NoWinner(o["no_winner"]),
            jump_to_previous=bool(o["jump_to_previous"]),
            adjacent_jump=AdjacentJump(o["adjacent_jump"]),
            enforce_garnets=bool(o["enforce_garnets"]),
            forced_moves_break_free=bool(o["forced_moves_break_free"]),
            guests_compete=bool(o["guests_compete"]),
            garnet_rounding=GarnetRounding(o["garnet_rounding"]),
            pay_guests=bool(o["pay_guests"]),
            cross_team_trades=bool(o["cross_team_trades"]),
            share_notices=bool(o["share_notices"]),
            public_layouts=bool(o["public_layouts"]),
        )


_PARSED = ParsedOnce(Options.parse)


def options_of(state: State | Mapping[str, Any]) -> Options:
    """The state's host options, typed (parsed once per options dict: see core/parsed_options.py)."""
    return _PARSED(state["options"])
