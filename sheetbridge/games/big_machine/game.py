"""The Big Machine's facade: `BigMachine`, the GameRules the host calls, each method handing over
to its chapter, and `GAME`. Also every name code outside the package reads as
``sheetbridge.games.big_machine.X`` (the package's ``__getattr__`` finds them here).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence, cast

from ...core.facts import RenderContext
from ...core.game import GameRules
from ...core.picture import Picture
from ...core.rng import Rng
from ...core.standings import RoundScore
from ...core.types import (Form, Outcome, RawSubmission, Report, RoundInput, RoundResult, State, Submission,
                           Tables)
from . import intake, picture, play, render, rules
from .content import (EXCELLENT_POINTS, FAULTY, JUMP_COST, MEADOWS, MIDDLE, SABOTAGE_COGS, START_COGS,
                      WORKING_POINTS, Color, Cond, Side, assemble, check_all_tables, half_machine, node_order,
                      read_catalog, read_relation, read_trades, relation_key)
from .facts import (FAULTY_PART, CogsGiven, CogsNow, ConnectorTraversed, Ending, LedgerReason,
                    MachineConnector, MachineLayout, MachineNode, MachineNow, MachinePart, MachinePayout,
                    MachineScored, MachineTeam, MeadowAuction, MeadowBid, MeadowMove, MeadowPosition, NodeInstalls,
                    NodeJump, PartInstalled, SelfSabotage, StartingMeadow, StartingMeadowDrawn, SubmissionProblem,
                    as_part, machine_facts)
from .intake import allowed_nodes, gift_targets
from .machine import (connector_points, connector_status, find_connector, install, install_all,
                      neighbours, part_text, score_machine)
from .options import Options, options_of
from .picture import (CELL_H, CELL_W, DEAD_LINE, KIND_COLOUR, LEGEND, MEADOW_HEAD, MEADOW_W, NAME_H,
                      NODE_R, board_shapes, legend_shapes, machine_shapes, node_centre)
from .render import (COLOR_FILL, COLOR_FONT, EMPTY_FILL, FAULTY_FILL, STATE_FILL, STATE_HELP,
                     kind_text, machine_blocks, where_grid)
from .position import from_position
from .rules import Turn, form_teams, highest_unique_bid, part_power
from .spec import CONNECTORS_TABLE, DEFAULTS, NODES_TABLE, RELATION_TABLE, ROUNDS, SPEC, TRADES_TABLE
from .state import STATE_VERSION, BigMachineState, mates, upgrade

# What code outside the package reads as sheetbridge.games.big_machine.X (tests, strategies, docs).
__all__ = [
    "GAME", "BigMachine", "SPEC", "DEFAULTS", "Options", "options_of", "STATE_VERSION", "BigMachineState",
    "ROUNDS", "NODES_TABLE", "CONNECTORS_TABLE", "RELATION_TABLE", "TRADES_TABLE",
    "Color", "Cond", "Side", "MEADOWS", "MIDDLE", "START_COGS", "JUMP_COST", "SABOTAGE_COGS", "WORKING_POINTS",
    "EXCELLENT_POINTS", "FAULTY", "read_catalog", "read_relation", "read_trades", "check_all_tables", "assemble",
    "half_machine", "node_order", "relation_key",
    "install", "install_all", "connector_status", "connector_points", "score_machine", "part_text", "neighbours",
    "find_connector",
    "MachinePart", "FAULTY_PART", "MachineNode", "MachineConnector", "MachineTeam", "StartingMeadow",
    "StartingMeadowDrawn", "MachineLayout", "SubmissionProblem", "CogsGiven", "MeadowMove", "NodeJump",
    "SelfSabotage", "MeadowPosition", "MeadowBid", "MeadowAuction", "PartInstalled", "NodeInstalls",
    "ConnectorTraversed", "CogsNow", "MachineNow", "MachineScored", "MachinePayout", "LedgerReason", "Ending",
    "as_part", "machine_facts",
    "allowed_nodes", "gift_targets", "form_teams", "Turn", "part_power", "highest_unique_bid", "from_position",
    "COLOR_FILL", "COLOR_FONT", "EMPTY_FILL", "FAULTY_FILL", "STATE_FILL", "STATE_HELP", "kind_text",
    "machine_blocks", "where_grid",
    "KIND_COLOUR", "DEAD_LINE", "CELL_W", "CELL_H", "NODE_R", "MEADOW_W", "MEADOW_HEAD", "NAME_H", "LEGEND",
    "node_centre", "machine_shapes", "board_shapes", "legend_shapes",
]


def _typed(state: State) -> BigMachineState:
    """The host's state dict read as this game's state (the same dict: no copy)."""
    return cast(BigMachineState, state)


class BigMachine(GameRules):
    spec = SPEC
    state_version = STATE_VERSION

    # ---- standings, read from the facts (core/standings.py) -----------------
    score_unit = "machine points"
    tie_rule = ("a shared highest score gives nobody the Token of Life (R57); a shared lowest goes to the "
                "vote (R58)")

    def round_scores(self, facts: Sequence[Any]) -> list[RoundScore]:
        return render.round_scores(facts)

    # ---- setup -----------------------------------------------------------
    def upgrade_state(self, state: State, version: int) -> State:
        return upgrade(state, version)

    def check_tables(self, tables: Tables) -> list[str]:
        return check_all_tables(tables)

    def setup(self, players: Sequence[str], options: Mapping[str, Any], tables: Tables, rng: Rng) -> State:
        return cast(State, rules.setup(players, options, tables, rng))

    def viewers(self, state: State, player: str) -> tuple[str, ...]:
        """R63-R65: a team shares its machine, installs and sabotage."""
        return mates(_typed(state), player)

    # ---- a round -----------------------------------------------------------
    def form(self, state: State, player: str) -> Form:
        return intake.form(_typed(state), player)

    def parse(self, state: State, player: str, raw: RawSubmission) -> Submission:
        return intake.parse(_typed(state), player, raw)

    def default_submission(self, state: State, player: str, rng: Rng) -> Mapping[str, Any]:
        return intake.default_submission(_typed(state), player, rng)

    def resolve(self, state: State, round_input: RoundInput, rng: Rng) -> RoundResult:
        return rules.resolve(_typed(state), round_input, rng)

    def outcome(self, state: State, decisions: Mapping[str, Any] | None = None) -> Outcome | None:
        return rules.outcome(_typed(state), decisions)

    # ---- reports, drawn from the facts --------------------------------------
    def render(self, facts: Sequence[Any], viewer: str | None, ctx: RenderContext) -> Report:
        return render.render(facts, viewer, ctx)

    def picture(self, facts: Sequence[Any], viewer: str | None, ctx: RenderContext) -> Picture | None:
        return picture.picture(facts, viewer, ctx)

    def player_view(self, state: State, player: str) -> Report:
        return render.player_view(_typed(state), player)

    def public_view(self, state: State) -> Report:
        return render.public_view(_typed(state))

    # ---- starting from a position, random play -----------------------------------
    def from_position(self, players: Sequence[str], options: Mapping[str, Any], tables: Tables,
                      position: Mapping[str, Any], rng: Rng) -> State:
        return cast(State, from_position(players, options, tables, position, rng))

    def random_submission(self, state: State, player: str, rng: Rng) -> RawSubmission:
        return play.random_submission(_typed(state), player, rng)


GAME = BigMachine()
