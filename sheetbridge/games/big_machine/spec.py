"""The Big Machine's identity and host options: the `GameSpec` (id, players, options with their
ruling numbers, content tables) and `Options`, the host's options read once into typed fields.

Light on purpose: it imports only sheetbridge.core, so listing the games reads this chapter alone.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping

from ...core.parsed_options import ParsedOnce
from ...core.spec import GameSpec, Option, TableSpec

if TYPE_CHECKING:   # (State is dict: the annotations only)
    from ...core.types import State

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
