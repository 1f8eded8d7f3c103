"""The Big Machine's identity and host options: the `GameSpec` (id, players, options with their
ruling numbers, content tables).

Light on purpose: it imports only sheetbridge.core and defines no class, so listing the games reads
this chapter alone (the options typed are the next chapter's, ``options.py``).
"""
from __future__ import annotations

from typing import Any

from ...core.spec import GameSpec, Option, TableSpec

ROUNDS = 7             # R13

NODES_TABLE, CONNECTORS_TABLE, RELATION_TABLE, TRADES_TABLE = (
    "Half nodes", "Half connectors", "Allies and enemies", "Cog trades")

SPEC = GameSpec(
    id="big-machine",
    name="The Big Machine",
    min_players=4, max_players=8, recommended_players=8, rounds=ROUNDS,
    summary="Teams of a player and a guest bid cogs in five meadows for machine parts, then score "
            "their machine's connectors.",
    options=(
        Option("teams", "", "Pairs as 'Player+Guest; Player+Guest' (player first). Anyone not named is "
               "paired in roster order, the first of each pair being the player.", ruling="A1", kind="content"),
        Option("overspend", "zero", "Bid + power-up above the cogs held: both become 0, or clamp (lower "
               "the power-up, then the bid).", ("zero", "clamp"), "A17"),
        Option("no_winner", "faulty", "When nobody wins a meadow, everyone there installs a faulty part, or "
               "nothing is installed.", ("faulty", "nothing"), "A3"),
        Option("jump_to_previous", True, "A jump may target the previous node itself.", ruling="A7"),
        Option("adjacent_jump", "charge", "A jump to a node joined to the previous one is charged and keeps "
               "free connectors intact, or is free and counts as a normal move.",
               ("charge", "free_move"), "A7"),
        Option("enforce_garnets", True, "A jump needs 5 garnets in the jumper's balance; off: accept every "
               "jump and log it for the host to reconcile (no ledger row).", ruling="A7"),
        Option("forced_moves_break_free", True, "Default and fallback moves also break free connectors.",
               ruling="A8"),
        Option("guests_compete", False, "Guests also compete for the Token of Life, cosmos and Elimination "
               "Candidate.", ruling="A11"),
        Option("garnet_rounding", "floor", "Garnets per 2 points: rounded down or up.", ("floor", "ceil"), "A13"),
        Option("pay_guests", True, "Guests also receive the garnets per 2 points.", ruling="A13"),
        Option("cross_team_trades", True, "Cogs may be given to members of other teams.", ruling="A16"),
        Option("share_notices", False, "Each teammate's personal notices, bids and cog balance are also "
               "shown to the other teammate.", ruling="A19", kind="display"),
        Option("public_layouts", True, "Starting meadows, and so every team's empty machine, are public from "
               "meadow selection; off: only the team knows them (positions from round 1 are public either way). "
               "Parts are never public before the end.", ruling="A24", kind="display"),
    ),
    tables=(
        TableSpec(NODES_TABLE, "half_nodes.csv",
                  "Each meadow's machine half: its own nodes (not M1-M3) with Row and Column in the drawing "
                  "(Column 1 is next to the middle). Side is Both, Left or Right (M1)."),
        TableSpec(CONNECTORS_TABLE, "half_connectors.csv",
                  "Each meadow's connectors: From, To (own nodes or M1, M2, M3) and Condition: allies, "
                  "enemies, free, '>' (From must be greater) or '<' (To must be greater) (M1, R7)."),
        TableSpec(RELATION_TABLE, "colour_relation.csv",
                  "Every pair of different colours once: allies or enemies (M2, #rules-addenda). A colour "
                  "with itself is neither unless a row says otherwise (A14)."),
        TableSpec(TRADES_TABLE, "cog_trades.csv",
                  "Cog trades the host records: Round, From, To, Cogs. Applied before that round's "
                  "submissions are checked (A16)."),
    ),
)

DEFAULTS: dict[str, Any] = SPEC.default_options()
