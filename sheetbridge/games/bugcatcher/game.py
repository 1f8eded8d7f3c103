"""The game: a thin facade over the chapters (the GameRules contract, core/game.py), and the names
code outside the package reads as ``sheetbridge.games.bugcatcher.X``."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...core.facts import RenderContext
from ...core.game import GameRules
from ...core.picture import Picture
from ...core.rng import Rng
from ...core.standings import Place, RoundScore
from ...core.types import (Form, Outcome, RawSubmission, Report, RoundInput, RoundResult, State, Submission,
                           Tables)
from . import content, intake, play, pregame, render, rules
from .spec import SPEC
from .state import STATE_VERSION, upgrade

# Names read from outside the package as sheetbridge.games.bugcatcher.X (the strategies, tests and
# docs; the package's __getattr__ finds them here), beyond the ones the facade uses.
from ...core.decisions import DecisionKind
from ...core.parsing import clean
from ...core.picture import Box, Label
from .board import (BLACK, BLUE, DIRS, GSWAP, IDLE, PATH_CODES, SWAP, _legal_steps, blocked_fine, cell_fine,
                    corner_point, fine_label, fine_of, on_board, point_fine, point_label, steps_from)
from .content import (_found_shape, _read_missions_cached, _shape_variants, find_shape, matches, mission_text,
                      read_missions, shape_variants)
from .drawing import BLOCKED, FILL, GRAY, PIC_FAILED, PIC_LANE, PIC_LEFT, PIC_MINE
from .facts import (_mission_presented, _PRESENTED_KEYS, ActionStep, BugcatcherBoard, CollisionHit,
                    CollisionRecord, CollisionsCaused, Ending, EnergyUsed, FACT_TYPES, FinalCount, FinalStats,
                    FireflyBreakdown, FireflyGarnets, FireflyTotal, IntakeProblem, LedgerReason, MainMatchResult,
                    ManualMissionPending, MissionAccepted, MissionCheck, MissionClosed, MissionCompleted,
                    MissionCompleters, MissionPenalty, MissionPresented, MissionReward, NextNodes, NodeMarker,
                    NodePath, NoSubmission, PathPlaced, PriorityBid, PriorityClaim, PriorityFallback, PriorityPass,
                    StartingNode, TieBreakStep)
from .intake import _EXACT_CODES, _EXACT_YES_NO, parse_action
from .options import Options, options_of, parse_cell
from .paths import run_paths, walk_alone
from .position import POSITION_KEYS
from .position import from_position as start_from_position
from .pregame import assign_nodes
from .spec import DEFAULTS, ENERGY, MISSIONS_TABLE


class Bugcatcher(GameRules):
    spec = SPEC
    state_version = STATE_VERSION
    score_unit = render.SCORE_UNIT
    tie_rule = render.TIE_RULE
    POSITION_KEYS = POSITION_KEYS

    def upgrade_state(self, state: State, version: int) -> State:
        return upgrade(state, version)

    def setup(self, players: Sequence[str], options: Mapping[str, Any], tables: Tables, rng: Rng) -> State:
        return pregame.setup(players, options, tables, rng)

    def check_tables(self, tables: Tables) -> list[str]:
        return content.check_tables(tables)

    def form(self, state: State, player: str) -> Form:
        return intake.form(state, player)

    def parse(self, state: State, player: str, raw: RawSubmission) -> Submission:
        return intake.parse(state, player, raw)

    def default_submission(self, state: State, player: str, rng: Rng) -> Mapping[str, Any]:
        return intake.default_submission(state, player, rng)

    def resolve(self, state: State, round_input: RoundInput, rng: Rng) -> RoundResult:
        return rules.resolve(state, round_input, rng)

    def round_scores(self, facts: Sequence[Any]) -> list[RoundScore]:
        return render.round_scores(facts)

    def final_places(self, facts: Sequence[Any]) -> list[Place]:
        return render.final_places(facts)

    def render(self, facts: Sequence[Any], viewer: str | None, ctx: RenderContext) -> Report:
        return render.render(facts, viewer, ctx)

    def picture(self, facts: Sequence[Any], viewer: str | None, ctx: RenderContext) -> Picture | None:
        return render.picture(facts, viewer, ctx)

    def player_view(self, state: State, player: str) -> Report:
        return render.player_view(state, player)

    def public_view(self, state: State) -> Report:
        return render.public_view(state)

    def outcome(self, state: State, decisions: Mapping[str, Any] | None = None) -> Outcome | None:
        return render.outcome(state, decisions)

    def from_position(self, players: Sequence[str], options: Mapping[str, Any], tables: Tables,
                      position: Mapping[str, Any], rng: Rng) -> State:
        return start_from_position(players, options, tables, position, rng)

    def random_submission(self, state: State, player: str, rng: Rng) -> RawSubmission:
        return play.random_submission(state, player, rng)

    def random_play(self, state: State, player: str, rng: Rng) -> tuple[RawSubmission, dict[str, Any] | None]:
        return play.random_play(state, player, rng)


GAME = Bugcatcher()

