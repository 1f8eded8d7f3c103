"""Skeld's host options read once into typed fields: `Options` and the choices' enums (the spec,
``spec.py``, names the options with their ruling numbers)."""
from __future__ import annotations

import enum
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Callable, Mapping

from ...core.parsed_options import ParsedOnce
from .spec import DEFAULTS

if TYPE_CHECKING:   # (State is dict: the annotations only)
    from ...core.types import State


class CapScope(enum.StrEnum):
    """Who a cap raise raises (A11)."""
    PLAYER = "player"
    CREWMATE = "crewmate"


class EcMetric(enum.StrEnum):
    """The EC metric when several Sequences are activated at once (A27)."""
    SUM = "sum"
    BEST = "best"


class PlanterWasWinnerEc(enum.StrEnum):
    """The EC when the winning planter would have won anyway (A28)."""
    FALLBACK = "fallback"
    RUNNER_UP = "runner_up"
    LITERAL = "literal"


@dataclass(frozen=True, slots=True)
class Options:
    """The host options, typed (one field per Option of SPEC, same names). The state keeps them as
    the host gave them (records replay unchanged); `options_of` reads them once per set of values."""
    max_rounds: int
    income_before_round_1: bool
    banana_can_exceed_cap: bool
    remote_disable: bool
    cap_upgrade_scope: CapScope
    same_round_bonus_use: bool
    urgot_consumed_on_blocked_attempt: bool
    announce_disables: bool
    wiwaxia_transfers: bool
    toe_requires_real_move: bool
    parasite_room_contention: bool
    plant_requires_target: bool
    tied_plants_are_improper: bool
    winner_can_be_ec: bool
    multi_seq_ec_metric: EcMetric
    planter_was_winner_ec: PlanterWasWinnerEc
    multi_seq_use_piece_count: bool
    pregame_fallback: str           # "random" or one of START_CELLS (A33)
    reveal_start_positions: bool
    reveal_activator_crewmate: bool
    reveal_failure_reasons: bool
    public_garnets: bool
    endgame_full_reveal: bool

    @classmethod
    def of(cls, given: Mapping[str, Any]) -> "Options":
        """The typed options from the host's values (defaults for any not given)."""
        merged = {**DEFAULTS, **given}
        return cls(**{name: convert(merged[name]) for name, convert in _FIELDS})


# How each field is read from the host's value, by its annotation (a string under PEP 563).
_CONVERT: dict[str, Callable[[Any], Any]] = {"int": int, "bool": bool, "str": str, "CapScope": CapScope,
                                             "EcMetric": EcMetric, "PlanterWasWinnerEc": PlanterWasWinnerEc}
_FIELDS = tuple((f.name, _CONVERT[str(f.type)]) for f in fields(Options))


_PARSED = ParsedOnce(Options.of)


def options_of(state: State) -> Options:
    """The game's typed options, from the state's `options` (parsed once per options dict: see
    core/parsed_options.py)."""
    return _PARSED(state["options"])


DEFAULT_OPTIONS = Options.of(DEFAULTS)
