"""Three Modular Rooms, the spec: identity, player counts and host options (with their ruling numbers).

Light on purpose: it imports only from ``sheetbridge.core`` and defines no class, so listing the games
reads this file alone and no rule (the options typed are the next chapter's, ``options.py``).
"""
from __future__ import annotations

from typing import Any

from ...core.spec import GameSpec, Option

SPEC = GameSpec(
    id="three-modular-rooms",
    name="Three Modular Rooms",
    min_players=1, max_players=None, recommended_players=9, rounds=11,   # any number (R1 names 9, no limit)
    summary="Play one numbered card a round into one of three rooms; the highest-scoring room scores.",
    options=(
        Option("rounds", 11, "Number of rounds (R1). At most 12 while cards are used up.", ruling="R1"),
        Option("cards_consumed", True, "A played card leaves the hand.", ruling="A1"),
        Option("two_ignore_timing", "in_order", "Card 2 ignores only effects not yet resolved, or is checked "
               "before all effects (silencing duplicated 1s too).", ("in_order", "before_all_effects"), "A3"),
        Option("four_total_basis", "current_values", "Card 4 compares with the room total of current values "
               "or of the faces played.", ("current_values", "face_values"), "A9"),
        Option("five_empty_condition", "at_least_one", "Card 5 scores when at least one room, or exactly one "
               "room, is empty.", ("at_least_one", "exactly_one"), "A10"),
        Option("six_conditions", "same_sum", "Card 6 checks 5 and 7 against the same sum, or checks 7 after "
               "adding the 15.", ("same_sum", "sequential"), "A11"),
        Option("nine_without_match", "no_multiplier", "A 9 with three people but no mod-3 match gives no "
               "multiplier, or 2x anyway.", ("no_multiplier", "2x"), "A15"),
        Option("minus10_random_card_collects", True, "A randomly assigned -10 still collects garnets.",
               ruling="A16"),
        Option("minus11_inclusive", True, "Card -11's range -15..-5 includes its ends.", ruling="A17"),
        Option("room_effect_basis", "final_cards", "The mod-3 check uses the final cards or the faces "
               "played.", ("final_cards", "faces_played"), "A19"),
        Option("empty_room_policy", "zero_included", "An empty room scores 0 and takes part in the "
               "comparison, or is left out.", ("zero_included", "excluded"), "A22"),
        Option("announce_nonsubmission", False, "Name the players who did not submit in the public post.",
               ruling="A24", kind="display"),
        Option("invalid_submission_policy", "treat_as_missing", "An invalid card or room is replaced at "
               "random, or resolution stops until the host fixes the sheet.",
               ("treat_as_missing", "hold_for_host"), "A25"),
        Option("max_card_purchases_per_round", 0, "Card copies one player may buy per round (0: no limit).",
               ruling="A26"),
        Option("final_round_card_purchase", "reject", "A card bought in the final round is rejected "
               "(not charged) or allowed.", ("reject", "allow"), "A26"),
        Option("announce_buyer", False, "Name the buyer in the card-purchase announcement.", ruling="A26",
               kind="display"),
        Option("unaffordable_purchases", "reject_all", "Purchases costing more than the balance are all "
               "rejected, or accepted in listed order while affordable.", ("reject_all", "in_listed_order"),
               "A26"),
        Option("hide_scope", "all_rooms", "Hiding replaces every name with counts, or hides only the buyer.",
               ("all_rooms", "buyer_only"), "A27"),
        Option("private_round_points", True, "Tell each player privately the points gained this round.",
               ruling="A29", kind="display"),
        Option("missing_player_counts_for_opal", True, "Players who did not submit count for the opal "
               "challenge.", ruling="A30"),
        Option("ec_garnet_tiebreak", "fewest_goes", "Among tied losers with no vote majority, the fewest "
               "(or most) garnets goes to the EC.", ("fewest_goes", "most_goes"), "A31"),
        Option("ec_garnet_timing", "after_payouts", "Garnets for the EC tie-break are counted after or "
               "before the end-of-match payouts.", ("after_payouts", "before_payouts"), "A31"),
    ),
)

DEFAULTS: dict[str, Any] = SPEC.default_options()
