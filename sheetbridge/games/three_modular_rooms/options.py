"""Three Modular Rooms, the host options parsed once into typed fields (``Options``; the spec,
``spec.py``, names them with their rulings)."""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Literal, Mapping

from ...core.parsed_options import ParsedOnce


@dataclass(frozen=True)
class Options:
    """The host options of one game, typed (the state keeps them as the plain values the host chose)."""
    rounds: int
    cards_consumed: bool
    two_ignore_timing: Literal["in_order", "before_all_effects"]
    four_total_basis: Literal["current_values", "face_values"]
    five_empty_condition: Literal["at_least_one", "exactly_one"]
    six_conditions: Literal["same_sum", "sequential"]
    nine_without_match: Literal["no_multiplier", "2x"]
    minus10_random_card_collects: bool
    minus11_inclusive: bool
    room_effect_basis: Literal["final_cards", "faces_played"]
    empty_room_policy: Literal["zero_included", "excluded"]
    announce_nonsubmission: bool
    invalid_submission_policy: Literal["treat_as_missing", "hold_for_host"]
    max_card_purchases_per_round: int
    final_round_card_purchase: Literal["reject", "allow"]
    announce_buyer: bool
    unaffordable_purchases: Literal["reject_all", "in_listed_order"]
    hide_scope: Literal["all_rooms", "buyer_only"]
    private_round_points: bool
    missing_player_counts_for_opal: bool
    ec_garnet_tiebreak: Literal["fewest_goes", "most_goes"]
    ec_garnet_timing: Literal["after_payouts", "before_payouts"]

    @classmethod
    def parse(cls, raw: Mapping[str, Any]) -> "Options":
        """The typed options from the values the host's options hold (every option named)."""
        values = {name: raw[name] for name in _NAMES}
        values["max_card_purchases_per_round"] = int(values["max_card_purchases_per_round"])
        return cls(**values)


_NAMES = tuple(f.name for f in fields(Options))
_PARSED = ParsedOnce(Options.parse)


def options_of(state: Mapping[str, Any]) -> Options:
    """The state's host options, typed (parsed once per options dict: see core/parsed_options.py)."""
    return _PARSED(state["options"])
