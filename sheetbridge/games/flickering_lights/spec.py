"""The game's identity for the registry: the `GameSpec` (players, rounds, host options with their
ruling numbers, content tables).

Light on purpose: the registry imports this chapter alone to list the games, so it imports only
from `sheetbridge.core`, never from the other chapters, and defines no class (the options typed are
the next chapter's, `options.py`).
"""
from __future__ import annotations

from ...core.spec import GameSpec, Option, TableSpec

ROUNDS = 5
# The mirrors and rotations a grid may be symmetric under (A16, A17); board.py maps each name to
# its function, in this order.
TRANSFORM_NAMES = ("mirror_lr", "mirror_tb", "rot90", "rot180", "rot270", "diagonal", "antidiagonal")

SPEC = GameSpec(
    id="flickering-lights",
    name="Flickering Lights",
    min_players=7, max_players=7, recommended_players=7, rounds=ROUNDS,
    summary="Hidden teams and roles each round; claim squares of an 8x8 grid for a team you only half know.",
    options=(
        Option("row_one", "top", "Where row 1 is drawn on boards: top (spreadsheet style) or bottom "
               "(chess style). Display only; A1 is always column A, row 1.", ("top", "bottom"), "A1",
               kind="display"),
        Option("distance", "manhattan", "How 'within X spaces' is measured: orthogonal steps (manhattan) "
               "or king moves (chebyshev).", ("manhattan", "chebyshev"), "A2"),
        Option("tie_keeps", "after_flip", "In an equal-X tie a square keeps its colour as it is after the "
               "Saboteurs' flips (after_flip) or as at round start (round_start).",
               ("after_flip", "round_start"), "A8"),
        Option("flip_spreads", True, "A flipped space with X >= 1 spreads its new colour (true) or its "
               "original colour (false, the flip changes only that square).", ruling="A10"),
        Option("white_defends", False, "Round 2: the White player may also defend one red or blue space.",
               ruling="A13"),
        Option("adjacency", "orthogonal", "Demolitionist spaces may not share an edge (orthogonal) or may "
               "not touch at all (eight).", ("orthogonal", "eight"), "A14"),
        Option("grid_red_count", 16, "Red squares (= blue squares) in a generated grid (1-32; at most 28 "
               "with a diagonal mirror).", ruling="A16", kind="content"),
        Option("grid_symmetry", "random", "The symmetry of generated grids: random (seeded among the "
               "allowed ones) or one of them.", ("random",) + TRANSFORM_NAMES, "A16", kind="content"),
        Option("diagonal_symmetry", False, "Also allow the two diagonal mirrors (not in the ruleset's "
               "list).", ruling="A17", kind="content"),
        Option("coordinator_list", "sorted", "Order of the Coordinator's list: sorted by name or a seeded "
               "shuffle; either way unlabelled.", ("sorted", "shuffled"), "A19"),
        Option("connectivity", 4, "Round 3 connected groups: 4 (edges) or 8 (edges and corners).",
               (4, 8), "A21"),
        Option("mediator_counts_connection_bonus", True, "Round 3: the Mediator's difference includes "
               "the +4 connection tiles.", ruling="A22"),
        Option("fog_overlap", False, "Round 4: the six Red/Blue players' ten known tiles may overlap "
               "(drawn independently) instead of splitting the 60 non-centre tiles.", ruling="A24"),
        Option("three_in_a_row", "windows", "Round 5: count every window of three in a line (a line of "
               "four counts 2) or each maximal run of three or more once.", ("windows", "runs"), "A26"),
        Option("mediator_winner_by", "final", "Round 5: the Mediator's 'winning team' is the one with the "
               "higher final total (final) or higher count before three-in-a-rows (raw).",
               ("final", "raw"), "A27"),
        Option("end_of_match", "total", "Winner and Elimination Candidate: highest / lowest five-round "
               "total with ties left to the host (total), or ties broken by rounds won (total_rounds_won).",
               ("total", "total_rounds_won"), "A30"),
        Option("invalid_entries", "drop_and_renumber", "A dropped space: later spaces move up so the "
               "first remaining one gets +2/+4 (drop_and_renumber), or each keeps its slot "
               "(drop_keep_slots).", ("drop_and_renumber", "drop_keep_slots"), "A33"),
        Option("publish_counts", False, "Also print red/blue/gray counts under the public grid.",
               ruling="A35", kind="display"),
        Option("reveal_roles_at_end", False, "At the end of the game publish every round's roles with "
               "the alignments.", ruling="A35", kind="display"),
        Option("reveal_play_at_end", False, "At the end of the game publish every round's space values, "
               "flips and everyone's submissions as applied (Round 4 replacements included).", ruling="A35",
               kind="display"),
        Option("white_missing_penalty", 0, "Points the White player loses in a round where they leave out "
               "(or give an unusable) red or blue space; never below 0 for the round (0: no penalty, as in "
               "the ruleset).", ruling="A32"),
        Option("round2_roles", "Coordinator,Sniper,Demolitionist,Saboteur", "Round 2 role pool (no "
               "Blocker): three are drawn.", ruling="A41"),
        Option("round4_roles", "Sniper,Demolitionist,Blocker,Saboteur", "Round 4 role pool (no "
               "Coordinator): three are drawn.", ruling="A41"),
        Option("garnets_per_points", 0, "At the end, 1 garnet per this many total points (0: none; the "
               "ruleset names no garnets).", ruling="A31"),
        Option("winner_garnets", 0, "Garnets paid to a sole winner at the end (0: none).", ruling="A31"),
        Option("ec_garnets", 0, "Garnets paid to (or, if negative, taken from, never below 0) a sole "
               "Elimination Candidate at the end.", ruling="A31"),
    ),
    tables=(
        TableSpec("Grids", "grids.csv", "Each round's 8x8 grid: one line per round and row (1-8), columns "
                  "A-H holding R, B or G (gray). Leave a round's 64 cells blank to generate it from the seed."),
        TableSpec("Items", "items.csv", "Round items: round, item (name), kind (note, lock, bonus, value, "
                  "manual), "
                  "squares (e.g. 'D4 E5'), amount, explanation. Each item's squares must be symmetric."),
        TableSpec("Assignments", "assignments.csv", "Optional fixed teams and roles: round, player, team "
                  "(Red, Blue, White), role. Leave a round out to draw it from the seed."),
    ),
)
DEFAULT_OPTIONS = SPEC.default_options()
