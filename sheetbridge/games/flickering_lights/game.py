"""The game as the core sees it: `FlickeringLights`, a thin facade whose methods delegate to the
chapters, and `GAME`. Also the names code outside the package reads as `flickering_lights.X`
(strategies, tests), re-exported here and reached through the package's lazy `__getattr__`.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence, cast

from ...core.facts import HOST_ONLY, PUBLIC, RenderContext
from ...core.game import GameRules
from ...core.picture import Picture
from ...core.rng import Rng
from ...core.standings import RoundScore
from ...core.types import (Form, Outcome, RawSubmission, Report, RoundInput, RoundResult, State, Submission,
                           Tables)
from . import content, ending, intake, opening, play, render, rules
from .board import (ALL_SQUARE_NAMES, ALL_SQUARES, BLUE, CENTER, COLOR_NAME, COLS, FILL, GRAY, GRID_CELL, RED,
                    SIZE, STANDARD_TRANSFORMS, TRANSFORM_TEXT, TRANSFORMS, Grid, Square, adjacent,
                    allowed_transforms, apply_t, capacity, distance, generate_grid, grid_problem, grid_rows,
                    orbits, parse_grid, parse_square, sq_name, symmetries)
from .content import (ITEM_KINDS, TEAM_ROLES, Role, Team, Variation, assignment_problem, items_symmetric,
                      read_assignments, read_grids, read_items, role_pool)
from .facts import (AS_RESOLVED, EC_TIE, FOG_HIDDEN, PLAY, SHARED, WINNER_TIE, BoardGrid, BoardItem,
                    ColourCounts, CoordinatorList, Ending, FinalTotal, FogCentre, FogReceived, FogReplacement,
                    FogTiles, LedgerReason, ManualItemRuling, MediatorCheck, MediatorPenalty, NoSpacesSubmitted,
                    PlayerPoints, RolesInPlay, SaboteurFlip, SeenTile, SideScore, SpaceRaise, SpacesApplied,
                    SpacesProblem, SpaceValue, TeamRole, TeamsRevealed, item_keys)
from .intake import SECTIONS
from .opening import fog_knowledge
from .options import Options, options_of
from .position import POSITION_KEYS, from_position
from .render import (BOARD_TOP, BOARD_W, CELL, GAP, ITEM_TEXT, LABEL_W, LEGEND, ROLE_TEXT, board_block,
                     board_picture, square_box, tiles_block)
from .rules import largest_group, other, recolor, score_round, three_in_a_rows
from .spec import DEFAULT_OPTIONS, ROUNDS, SPEC
from .state import STATE_VERSION, FlickeringState, upgrade

__all__ = [
    "GAME", "FlickeringLights", "SPEC", "DEFAULT_OPTIONS", "ROUNDS", "Options", "options_of", "STATE_VERSION",
    "FlickeringState", "HOST_ONLY", "PUBLIC",
    # the board
    "COLS", "SIZE", "RED", "BLUE", "GRAY", "COLOR_NAME", "FILL", "CENTER", "Square", "Grid", "ALL_SQUARES",
    "ALL_SQUARE_NAMES", "sq_name", "parse_square", "TRANSFORMS", "TRANSFORM_TEXT", "STANDARD_TRANSFORMS",
    "allowed_transforms", "apply_t", "parse_grid", "grid_rows", "symmetries", "grid_problem", "orbits",
    "capacity", "generate_grid", "GRID_CELL", "distance", "adjacent",
    # content
    "Team", "Role", "TEAM_ROLES", "Variation", "ITEM_KINDS", "read_grids", "read_items", "items_symmetric",
    "read_assignments", "assignment_problem", "role_pool",
    # facts
    "SpaceRaise", "FogReplacement", "SeenTile", "TeamRole", "CoordinatorList", "RolesInPlay", "BoardItem",
    "FogCentre", "FogTiles", "NoSpacesSubmitted", "SpacesProblem", "FogReceived", "SpacesApplied",
    "MediatorPenalty", "SpaceValue", "SaboteurFlip", "BoardGrid", "ManualItemRuling", "ColourCounts",
    "SideScore", "MediatorCheck", "PlayerPoints", "TeamsRevealed", "FinalTotal", "FOG_HIDDEN", "PLAY",
    "AS_RESOLVED", "SHARED", "WINNER_TIE", "EC_TIE", "item_keys", "LedgerReason", "Ending",
    # intake, rules, render, position
    "SECTIONS", "recolor", "largest_group", "three_in_a_rows", "score_round", "other", "fog_knowledge",
    "ROLE_TEXT", "ITEM_TEXT", "board_block", "tiles_block", "CELL", "LABEL_W", "GAP", "BOARD_W", "BOARD_TOP",
    "LEGEND", "square_box", "board_picture", "POSITION_KEYS",
]


class FlickeringLights(GameRules):
    spec = SPEC
    state_version = STATE_VERSION

    # ---- standings, read from the facts (core/standings.py) -----------------
    score_unit = "points"
    tie_rule = "a tie for the highest or the lowest total is left to the host (`sheetbridge decide`)"

    def round_scores(self, facts: Sequence[Any]) -> list[RoundScore]:
        return render.round_scores(facts)

    # ---- setup, content and saved states ------------------------------------
    def upgrade_state(self, state: State, version: int) -> State:
        return upgrade(state, version)

    def check_tables(self, tables: Tables) -> list[str]:
        """The content tables checked with the default options (diagonal mirrors rejected, A17)."""
        return content.check_content(tables, Options.of(DEFAULT_OPTIONS))

    def check_content(self, tables: Tables, options: Mapping[str, Any]) -> list[str]:
        return content.check_content(tables, Options.of(options))

    def setup(self, players: Sequence[str], options: Mapping[str, Any], tables: Tables, rng: Rng) -> State:
        return cast(State, opening.setup(players, options, tables, rng))

    def from_position(self, players: Sequence[str], options: Mapping[str, Any], tables: Tables,
                      position: Mapping[str, Any], rng: Rng) -> State:
        return cast(State, from_position(players, options, tables, position, rng))

    # ---- a round: the form, the parse, the resolution --------------------------
    def form(self, state: State, player: str) -> Form:
        return intake.form(cast(FlickeringState, state), player)

    def parse(self, state: State, player: str, raw: RawSubmission) -> Submission:
        return intake.parse(cast(FlickeringState, state), player, raw)

    def default_submission(self, state: State, player: str, rng: Rng) -> Mapping[str, Any]:
        return intake.default_submission(cast(FlickeringState, state), player, rng)

    def resolve(self, state: State, round_input: RoundInput, rng: Rng) -> RoundResult:
        return rules.resolve_round(cast(FlickeringState, state), round_input, rng)

    def outcome(self, state: State, decisions: Mapping[str, Any] | None = None) -> Outcome | None:
        return ending.outcome(cast(FlickeringState, state), decisions)

    # ---- what each viewer reads and sees ------------------------------------------
    def render(self, facts: Sequence[Any], viewer: str | None, ctx: RenderContext) -> Report:
        return render.render(facts, viewer, ctx)

    def picture(self, facts: Sequence[Any], viewer: str | None, ctx: RenderContext) -> Picture | None:
        return render.picture(facts, viewer, ctx)

    def player_view(self, state: State, player: str) -> Report:
        return render.player_view(cast(FlickeringState, state), player)

    def public_view(self, state: State) -> Report:
        return render.public_view(cast(FlickeringState, state))

    # ---- demo -------------------------------------------------------------------
    def random_submission(self, state: State, player: str, rng: Rng) -> RawSubmission:
        return play.random_submission(cast(FlickeringState, state), player, rng)


GAME = FlickeringLights()
