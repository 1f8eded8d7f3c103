"""Skeld's spec: the GameSpec (id, players, host options with their ruling numbers, the board table).

Light on purpose: it imports only the core and defines no class, so listing the games reads this file
alone (the options typed are the next chapter's, ``options.py``).
"""
from __future__ import annotations

from typing import Any

from ...core.spec import GameSpec, Option, TableSpec

START_CELLS: tuple[str, ...] = ("1A", "1B", "1C", "2A", "2B", "2C", "3A", "5A")  # R10
BOARD_TABLE = "Skeld board"

SPEC = GameSpec(
    id="skeld",
    name="Skeld",
    min_players=4, max_players=4, recommended_players=4, rounds=8,
    summary="Move two crewmates around a 7x7 ship, bid Energy to activate rooms and complete a Sequence.",
    options=(
        Option("max_rounds", 8, "Rounds after the pregame; the MM ends after this round (R50).", ruling="A31"),
        Option("income_before_round_1", False, "Crewmates also earn 3 Energy before round 1 (round 1 starts "
               "at 7 instead of 5).", ruling="A8"),
        Option("banana_can_exceed_cap", False, "Eating the Yellow Banana may take Energy above the cap.",
               ruling="A10"),
        Option("remote_disable", False, "A crewmate may disable any room, not only the one it ends in; it may "
               "then also activate (the bid is paid first, the disable takes the rest).", ruling="A6"),
        Option("cap_upgrade_scope", "player", "A cap raise (3 garnets) raises both crewmates of the player, or "
               "one crewmate.", ("player", "crewmate"), "A11"),
        Option("same_round_bonus_use", False, "The Summoner's Meme and the Wiwaxia may be used at the end of "
               "the round they are won.", ruling="A12"),
        Option("urgot_consumed_on_blocked_attempt", False, "Urgot Peraphernalia is used up even when its "
               "attempt hits a disabled room.", ruling="A14"),
        Option("announce_disables", False, "Name disabled rooms in the public report.", ruling="A15",
               kind="display"),
        Option("wiwaxia_transfers", False, "Energy drained by the Wiwaxia goes to its carrier (capped).",
               ruling="A16"),
        Option("toe_requires_real_move", False, "The Take Back Toe step needs a normal move first.",
               ruling="A18"),
        Option("parasite_room_contention", True, "Claims at P follow the contention rule (one claimant a "
               "round); off: every valid claim succeeds, one per player.", ruling="A20"),
        Option("plant_requires_target", False, "A Vault activation names a Sequence and is correct only if "
               "that Sequence is activated the same round.", ruling="A22"),
        Option("tied_plants_are_improper", True, "Plants that fail by a tie count as improper plants for "
               "the EC.", ruling="A25"),
        Option("winner_can_be_ec", False, "The winner may also be the Elimination Candidate.", ruling="A26"),
        Option("multi_seq_ec_metric", "sum", "EC metric when several Sequences are activated at once: sum "
               "of the Sequence Values or the best one.", ("sum", "best"), "A27"),
        Option("planter_was_winner_ec", "fallback", "EC when the winning planter would have won anyway: "
               "the usual EC rules without that plant, the runner-up, or the planter (literal).",
               ("fallback", "runner_up", "literal"), "A28"),
        Option("multi_seq_use_piece_count", False, "With several Sequences activated at once, compare the "
               "most pieces held in one of them before the Sequence Values.", ruling="A30"),
        Option("pregame_fallback", "random", "Start cell of a crewmate without a valid one: random (seeded) "
               "or one fixed cell.", ("random",) + START_CELLS, "A33"),
        Option("reveal_start_positions", False, "Publish the start cells after the pregame.", ruling="A34",
               kind="display"),
        Option("reveal_activator_crewmate", False, "Name the activating crewmate, not only the player.",
               ruling="A36", kind="display"),
        Option("reveal_failure_reasons", False, "Tell a player why their own attempt failed (tie, disable, "
               "Urgot, outbid).", ruling="A37", kind="display"),
        Option("public_garnets", False, "Publish cap purchases in the public report.", ruling="A39",
               kind="display"),
        Option("endgame_full_reveal", False, "Publish every inventory at the end of the MM.", ruling="(c)",
               kind="display"),
    ),
    tables=(TableSpec(BOARD_TABLE, "board.csv",
                      "The 7x7 ship (A1): a header row, then 7 rows of a row number and 7 room labels: "
                      "1A..13C, R S T U W X Y Z, P and V, each exactly once."),),
)
DEFAULTS: dict[str, Any] = SPEC.default_options()
