"""Skeld's facade: `Skeld`, the GameRules the host and the core call, each method handing over to
its chapter, and `GAME`. The names other modules read as ``skeld.X`` are re-exported here (the
package's lazy ``__getattr__`` finds them)."""
from __future__ import annotations

from typing import Any, Mapping, Sequence, cast

from ...core.facts import HOST_ONLY, PUBLIC, RenderContext
from ...core.game import GameRules
from ...core.picture import Picture
from ...core.rng import Rng
from ...core.standings import RoundScore
from ...core.types import (Form, Outcome, RawSubmission, Report, RoundInput, RoundResult, State, Submission,
                           Tables)
from . import content, ending, intake, play, render, rules
from .content import (BANANA_ENERGY, BANANA_USE, BASE_CAP, BOARD_TABLE, BONUSES, CAP_PRICE, COMPONENT_NAMES,
                      COMPONENTS, DIRECTIONS, GT_EC, GT_RUNNER_UP, GT_WINNER, INCOME, MAX_CAP, PARASITE_ROOM, ROOMS,
                      SEQUENCES, SIDE_WORDS, SIZE, START_ENERGY, VAULT, VAULT_MIN, WALL_USES, WIWAXIA_USE,
                      Board, Bonus, edge, item_uses, number, path_crosses_wall, pieces, read_board, room_kind,
                      room_title, sequence_value, total_value)
from .ending import decide, gt_pick
from .facts import (EC_RULES, ActivationAttempt, ActivationContest, ActivatorsSeen, BonusGained, BonusHeld,
                    BonusNotUsed, BonusUsed, ComponentGained, CrewInRoom, CrewInventory, CrewMove, CrewRef, CrewStart,
                    CrewStartAssigned, DisablesAnnounced, EndOfMatchGarnets, EndOfRoundEnergy, EnergyAccount,
                    EnergyCapRaise, EnergyLost, Ending, LedgerReason, MainMatchResult, MainMatchStatus,
                    MultiSequenceStanding, NoSubmission, ParasiteClaimed, ParasitePlant, RoomActivated, RoomBid,
                    RoomDisabled, RoomOccupants, RoundLimitReached, SequenceCompleted, SequenceStanding, ShipBoard,
                    SubmissionProblem, TotalStanding, WallPlaced, WiwaxiaDrain, XCommOpened)
from .options import DEFAULT_OPTIONS, Options, options_of
from .plans import plan_player
from .position import POSITION_KEYS, from_position as opened_at
from .render import (CELL_H, CELL_W, CREW_COLOUR, DARK_FILLS, FILL_LEGEND, GRID_X, GRID_Y, NEW_THIS_ROUND,
                     PLANT_WORDS, ROOM_FILL, WALL_COLOUR, cell_xy, room_fill, room_text_colour)
from .rules import contention, contention_winner, plant_verdicts
from .spec import DEFAULTS, SPEC, START_CELLS
from .state import STATE_VERSION, SkeldState, upgrade


class Skeld(GameRules):
    spec = SPEC
    state_version = STATE_VERSION

    # ---- standings, read from the facts (core/standings.py) -----------------
    score_unit = "Sequence Value"
    tie_rule = ("most pieces of the activated Sequence, then its Sequence Value; several at once: the best "
                "Sequence Value, then the sum; then the Gamewide Tiebreak (R45-R48); no Sequence after the "
                "last round: the total Sequence Value (R50)")

    outcome_scores_are_totals = False   # the outcome's score is the deciding Sequence's value, not the total

    def round_scores(self, facts: Sequence[Any]) -> list[RoundScore]:
        return render.round_scores(facts)

    # ---- setup -------------------------------------------------------------
    def check_tables(self, tables: Tables) -> list[str]:
        return content.check_tables(tables)

    def setup(self, players: Sequence[str], options: Mapping[str, Any] | None, tables: Tables, rng: Rng) -> State:
        return cast(State, rules.set_up(players, options, tables))

    def upgrade_state(self, state: State, version: int) -> State:
        return upgrade(state, version)

    # ---- forms and parsing -------------------------------------------------
    def form(self, state: State, player: str) -> Form:
        return intake.form(state, player)

    def parse(self, state: State, player: str, raw: RawSubmission) -> Submission:
        return intake.parse(state, player, raw)

    def default_submission(self, state: State, player: str, rng: Rng) -> Mapping[str, Any]:
        return intake.default_submission(state)

    # ---- resolution and the end ----------------------------------------------
    def resolve(self, state: State, round_input: RoundInput, rng: Rng) -> RoundResult:
        return rules.resolve(state, round_input, rng)

    def outcome(self, state: State, decisions: Mapping[str, Any] | None = None) -> Outcome | None:
        """Winner, Token of Life and EC (section d); a tie waits for the Gamewide Tiebreak (R49, A29)."""
        return ending.outcome(state, decisions)

    # ---- reports, pictures and views, drawn from the facts ---------------------
    def render(self, facts: Sequence[Any], viewer: str | None, ctx: RenderContext) -> Report:
        return render.render(facts, viewer, ctx)

    def picture(self, facts: Sequence[Any], viewer: str | None, ctx: RenderContext) -> Picture | None:
        return render.picture(facts, viewer, ctx)

    def player_view(self, state: State, player: str) -> Report:
        return render.player_view(state, player)

    def public_view(self, state: State) -> Report:
        return render.public_view(state)

    # ---- starting from a position, and random play -----------------------------
    def from_position(self, players: Sequence[str], options: Mapping[str, Any] | None, tables: Tables,
                      position: Mapping[str, Any], rng: Rng) -> State:
        """The Main Match opened at round `round` with a given position (keys on the docs page):
        every crewmate's name, room, Energy, bonuses and parasite, the caps, the components, the
        walls, disables and plants. The rooms activated so far follow from what is held.

        >>> pos = {"round": 3, "crew": {p: [{"room": "1A", "energy": 7}, {"room": "4B", "energy": 6}] for p in "ABCD"},
        ...        "components": {"A": ["3C"]}}
        >>> from sheetbridge.templates import default_tables
        >>> st = GAME.from_position(list("ABCD"), DEFAULTS, default_tables(GAME), pos, Rng(1))
        >>> st["round"], st["crew"]["A"][1]["pos"], st["crew"]["A"][1]["energy"], st["activated"]
        (3, '4B', 6, ['3C'])
        """
        return opened_at(self.setup(players, options, tables, rng), position)

    def random_submission(self, state: State, player: str, rng: Rng) -> RawSubmission:
        return play.random_submission(state, player, rng)


GAME = Skeld()

# What code outside the package reads as skeld.X (tests, strategies, the board tab, docs): the
# facade and the names re-exported above.
__all__ = [
    "GAME", "Skeld", "HOST_ONLY", "PUBLIC", "BANANA_ENERGY", "BANANA_USE", "BASE_CAP", "BOARD_TABLE", "BONUSES",
    "CAP_PRICE", "COMPONENT_NAMES", "COMPONENTS", "DIRECTIONS", "GT_EC", "GT_RUNNER_UP", "GT_WINNER", "INCOME",
    "MAX_CAP", "PARASITE_ROOM", "ROOMS", "SEQUENCES", "SIDE_WORDS", "SIZE", "START_CELLS", "START_ENERGY",
    "VAULT", "VAULT_MIN", "WALL_USES", "WIWAXIA_USE", "Board", "Bonus", "edge", "item_uses", "number",
    "path_crosses_wall", "pieces", "read_board", "room_kind", "room_title", "sequence_value", "total_value",
    "decide", "gt_pick", "EC_RULES", "ActivationAttempt", "ActivationContest", "ActivatorsSeen", "BonusGained",
    "BonusHeld", "BonusNotUsed", "BonusUsed", "ComponentGained", "CrewInRoom", "CrewInventory", "CrewMove",
    "CrewRef", "CrewStart", "CrewStartAssigned", "DisablesAnnounced", "EndOfMatchGarnets", "EndOfRoundEnergy",
    "EnergyAccount", "EnergyCapRaise", "EnergyLost", "Ending", "LedgerReason", "MainMatchResult",
    "MainMatchStatus", "MultiSequenceStanding", "NoSubmission", "ParasiteClaimed", "ParasitePlant",
    "RoomActivated", "RoomBid", "RoomDisabled", "RoomOccupants", "RoundLimitReached", "SequenceCompleted",
    "SequenceStanding", "ShipBoard", "SubmissionProblem", "TotalStanding", "WallPlaced", "WiwaxiaDrain",
    "XCommOpened", "plan_player", "POSITION_KEYS", "CELL_H", "CELL_W", "CREW_COLOUR", "DARK_FILLS", "FILL_LEGEND",
    "GRID_X", "GRID_Y", "NEW_THIS_ROUND", "PLANT_WORDS", "ROOM_FILL", "WALL_COLOUR", "cell_xy", "room_fill",
    "room_text_colour", "contention", "contention_winner", "plant_verdicts", "DEFAULT_OPTIONS", "DEFAULTS",
    "SPEC", "Options", "options_of", "STATE_VERSION", "SkeldState"
]
