"""Three Modular Rooms, the game: the ``GameRules`` facade over the chapters, and ``GAME``.

Each method hands its work to the chapter that holds it; the names other code imports from
``sheetbridge.games.three_modular_rooms`` are re-exported here.
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
from . import ending, intake, play, render, rules
from .content import CARD_PRICE, CARDS, HIDE_PRICE, ROOMS, Room, card_text
from .facts import (NO_MAJORITY, CardBoughtAnnounced, CardInRoom, CardPlayed, CardsSeen, Ending, GarnetsGained,
                    GarnetsLost, LedgerReason, NonSubmitters, OpalChallengeCompleted, PointsGained, Purchase,
                    PurchasesRefused, RoomCalculation, RoomScored, RoomsScoring, SubmissionProblem, WinnersVote)
from .options import Options, options_of
from .position import from_position
from .render import ROOM_FILL
from .rules import PlayedCard, RoomResult, calculate, resolve_rooms, room_scoring
from .spec import DEFAULTS, SPEC
from .state import STATE_VERSION, TmrState, upgrade

__all__ = [
    "CARD_PRICE", "CARDS", "DEFAULTS", "GAME", "HIDE_PRICE", "NO_MAJORITY", "ROOM_FILL", "ROOMS", "SPEC",
    "STATE_VERSION", "CardBoughtAnnounced", "CardInRoom", "CardPlayed", "CardsSeen", "Ending", "GarnetsGained",
    "GarnetsLost", "LedgerReason", "NonSubmitters", "OpalChallengeCompleted", "Options", "PlayedCard",
    "PointsGained", "Purchase", "PurchasesRefused", "Room", "RoomCalculation", "RoomResult", "RoomScored",
    "RoomsScoring", "SubmissionProblem", "ThreeModularRooms", "TmrState", "WinnersVote", "calculate",
    "card_text", "options_of", "resolve_rooms", "room_scoring",
]


class ThreeModularRooms(GameRules):
    """Each method hands its work to a chapter; ``cast`` reads the engine's plain state dict as this
    game's typed state (the same object, nothing copied)."""
    spec = SPEC
    state_version = STATE_VERSION

    # ---- standings, read from the facts (core/standings.py) -----------------
    score_unit = "points"
    tie_rule = ("players tied for the most points share the win; a tie for the fewest goes to the winners' "
                "vote, then to garnets (A31)")

    def round_scores(self, facts: Sequence[Any]) -> list[RoundScore]:
        return render.round_scores(facts)

    def setup(self, players: Sequence[str], options: Mapping[str, Any], tables: Tables, rng: Rng) -> State:
        return cast(State, rules.setup(players, options))

    def upgrade_state(self, state: State, version: int) -> State:
        return upgrade(state, version)

    # ---- one round ----------------------------------------------------------
    def form(self, state: State, player: str) -> Form:
        return intake.form(cast(TmrState, state), player)

    def parse(self, state: State, player: str, raw: RawSubmission) -> Submission:
        return intake.parse(cast(TmrState, state), player, raw)

    def default_submission(self, state: State, player: str, rng: Rng) -> Mapping[str, Any]:
        return intake.default_submission(cast(TmrState, state), player, rng)

    def resolve(self, state: State, round_input: RoundInput, rng: Rng) -> RoundResult:
        return rules.resolve_round(cast(TmrState, state), round_input, rng)

    # ---- reports, drawn from the facts ----------------------------------------
    def render(self, facts: Sequence[Any], viewer: str | None, ctx: RenderContext) -> Report:
        return render.render(facts, viewer, ctx)

    def picture(self, facts: Sequence[Any], viewer: str | None, ctx: RenderContext) -> Picture | None:
        return render.picture(facts, viewer, ctx)

    def player_view(self, state: State, player: str) -> Report:
        return render.player_view(cast(TmrState, state), player)

    def public_view(self, state: State) -> Report:
        return render.public_view(cast(TmrState, state))

    # ---- the end, a position, random play ---------------------------------------
    def outcome(self, state: State, decisions: Mapping[str, Any] | None = None) -> Outcome | None:
        return ending.outcome(cast(TmrState, state), decisions)

    def from_position(self, players: Sequence[str], options: Mapping[str, Any], tables: Tables,
                      position: Mapping[str, Any], rng: Rng) -> State:
        """A game at round `round` with the players' `hands` and `points` (and `opal`: [[round, player]]).

        >>> st = GAME.from_position(["A", "B"], DEFAULTS, {}, {"round": 11, "hands": {"A": [3, -10], "B": [5]},
        ...                          "points": {"A": 4, "B": 2}}, Rng(1))
        >>> st["round"], st["hands"]["A"]
        (11, [3, -10])
        """
        return cast(State, from_position(players, options, position))

    def random_submission(self, state: State, player: str, rng: Rng) -> RawSubmission:
        return play.random_submission(cast(TmrState, state), player, rng)


GAME = ThreeModularRooms()
