"""Bugcatcher's spec: the game's identity, host options with their ruling numbers and content tables.

Light on purpose: the registry imports this chapter alone to list the games, so it imports only
from :mod:`sheetbridge.core` and defines no class (the options typed, and the cells of the
blocked_cells option, are the next chapter's: ``options.py``).
"""
from __future__ import annotations

from typing import Any

from ...core.spec import GameSpec, Option, TableSpec

MISSIONS_TABLE = "Missions"
ENERGY = 7            # R12
LIST_LENGTH = 9       # R17
ACTION_ROWS = 8       # 7 energy actions + one garnet swap (E9)
MANUAL = "manual"     # the shape of a mission whose completers the host enters (A21)

SPEC = GameSpec(
    id="bugcatcher",
    name="Bugcatcher",
    min_players=2, max_players=12, recommended_players=9, rounds=7,
    summary="Steer a border node and a central node across a 6x5 grid, dodge collisions, "
            "complete missions and collect fireflies.",
    options=(
        Option("rounds", 7, "Number of rounds after the pregame (R27).", ruling="A43"),
        Option("columns", 6, "Board columns, lettered A.. left to right (R3).", ruling="A1", kind="content"),
        Option("rows", 5, "Board rows, numbered 1.. top to bottom (R3).", ruling="A1", kind="content"),
        Option("blocked_cells", "", "Cells that are not gray squares, e.g. 'C3, D4': no central node starts "
               "in one or moves into one (such a move fails like a move off the board); border nodes are not "
               "affected. Blank: every cell is usable.", ruling="A36", kind="content"),
        Option("start_nodes_claimed", True, "Every node's start point counts as claimed from step 0, "
               "so a path onto any node (own or another's) is a case-1 collision.", ruling="A8"),
        Option("crossing_before_arrival", True, "Crossings (cases 3/4) are checked at the half-step, before "
               "arrivals; a path stopped at a crossing cannot cause a case 2. false: all at once.",
               ruling="A12"),
        Option("collision_count_mode", "per_action", "Collisions caused (tie-break 2): one per colliding "
               "action, or one per other party involved.", ("per_action", "per_pair"), "A13"),
        Option("gswap_takes_step", True, "A garnet swap occupies a step like any action; false: it "
               "applies just before the next action without using a step.", ruling="A14"),
        Option("blank_policy", "compress", "A blank or unreadable row between actions is removed "
               "(later actions move up) or kept as an idle step.", ("compress", "idle"), "A14"),
        Option("energy_overflow", "drop_excess", "More than 7 energy: drop the actions after the 7th, or "
               "reject the whole list.", ("drop_excess", "reject_all"), "E1"),
        Option("extra_gswap", "as_swap", "A second garnet swap in a round becomes a normal swap "
               "(1 energy) or is dropped.", ("as_swap", "drop"), "E3"),
        Option("gswap_no_garnet", "as_swap", "A garnet swap without a garnet becomes a normal swap or is "
               "dropped.", ("as_swap", "drop"), "E4"),
        Option("offboard_policy", "stop_node", "A path off the board (or into a blocked cell) is invalid and "
               "stops that node for the round, or only that action is skipped.", ("stop_node", "skip_action"),
               "E5"),
        Option("missing_policy", "no_actions", "A player who submits nothing takes no actions (nodes stay; "
               "missions accepted earlier still count), or repeats their last submitted actions (without a "
               "garnet swap and without accepting missions).", ("no_actions", "repeat_last"), "E11"),
        Option("mission_requires_acceptance", True, "Only players who accepted a mission can complete it; "
               "false: anyone who builds it earns the reward (penalties still need acceptance).",
               ruling="A18"),
        Option("bid_scope", "per_list", "One garnet bid per priority list, or one bid for both.",
               ("per_list", "shared"), "A26"),
        Option("bid_charge", "always", "Bids are charged in full, or only when the bidder was in a tie.",
               ("always", "only_if_contested"), "A26"),
        Option("pregame_mode", "strict", "Pass k uses each player's k-th entry (strict), or their best "
               "entry still free (next_available).", ("strict", "next_available"), "A27"),
        Option("public_node_colors", False, "Colour node markers on the public board (shows swaps).",
               ruling="A33", kind="display"),
        Option("public_step_order", False, "Write each path's step number on the public board.",
               ruling="A33", kind="display"),
        Option("private_breakdown", True, "Private reports include the breakdown (actions, energy, "
               "collisions, paths and mission fireflies); false: the firefly total, nodes and missions only.",
               ruling="A34", kind="display"),
        Option("reveal_all_stats", False, "At the end reveal everyone's missions and collisions, not only "
               "for players whose tie used them.", ruling="A35", kind="display"),
    ),
    tables=(
        TableSpec(MISSIONS_TABLE, "missions.csv",
                  "Each round's mission board (R48): round, id, name, node (border/central/any), shape "
                  "(e.g. DDRDL, or manual: the host enters who completed it), reward, penalty, "
                  "failure_rounds, rotate, reflect, either_end, anywhere, expires_after_round, text. "
                  "Future rounds can be edited between rounds."),
    ),
)

DEFAULTS: dict[str, Any] = SPEC.default_options()
