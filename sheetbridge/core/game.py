"""The contract every game module follows (the registry of games is sheetbridge.games.registry).

A game is a set of pure functions over plain data. It never touches files,
the network, the clock or global randomness: the orchestrator hands it the
state, the parsed submissions, the garnet balances, the host's tables and a
seeded :class:`~sheetbridge.core.rng.Rng`, and writes what it returns.

Lifecycle, as the orchestrator drives it::

    state = game.setup(players, options, tables, rng)          # round 0 or 1
    while not state["finished"]:
        form = game.form(state, player)                         # per player
        sub = game.parse(state, player, raw)                    # per player
        result = game.resolve(state, RoundInput(...), rng)      # pure
        state = result.state
    game.outcome(state)
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Mapping, Sequence

from .rng import Rng
from .types import (Form, GameSpec, Outcome, RawSubmission, Report, RoundInput,
                    RoundResult, State, Submission, Tables)


class GameRules(ABC):
    """Base class of a game module's rules. Subclasses set ``spec``."""

    spec: GameSpec
    # The shape of this game's state. A record saved with an older version is passed through
    # upgrade_state once when it is loaded (records from before versions existed are version 1).
    state_version: int = 1
    # The words reports use for a fact class (by class name) where its name split into words would
    # not read well; the rest are named by splitting ("ActionStep": "action step").
    fact_names: Mapping[str, str] = {}

    # ---- setup -----------------------------------------------------------
    @abstractmethod
    def setup(self, players: Sequence[str], options: Mapping[str, Any],
              tables: Tables, rng: Rng) -> State:
        """A new game's state. Must hold "round" (the round now open for
        submissions; 0 for a pregame) and "finished" (False)."""

    def upgrade_state(self, state: State, version: int) -> State:
        """A state saved by this game's `version` (older than `state_version`) in today's shape."""
        return state

    def default_tables(self) -> Tables | None:
        """A plugin game's default content tables (None: sheetbridge's templates/<game-id>/ CSVs)."""
        return None

    def check_tables(self, tables: Tables) -> list[str]:
        """Problems with the host's content tables, each a sentence saying
        what is wrong and how to fix it. Empty when they are fine."""
        return []

    def check_content(self, tables: Tables, options: Mapping[str, Any]) -> list[str]:
        """check_tables for a game whose checks depend on its host options (which symmetries a
        grid may have). Called at `new`, at every load and when tables change; default: check_tables."""
        return self.check_tables(tables)

    # ---- one round -------------------------------------------------------
    @abstractmethod
    def form(self, state: State, player: str) -> Form:
        """What `player` may submit in the open round (fields and dropdowns)."""

    @abstractmethod
    def parse(self, state: State, player: str, raw: RawSubmission) -> Submission:
        """Read one player's raw text. Never raises for player input: each bad
        part becomes a Problem (SYNTAX for unreadable, ILLEGAL for against the
        rules) and is left out of ``values`` so the rules' default applies."""

    @abstractmethod
    def default_submission(self, state: State, player: str, rng: Rng) -> Mapping[str, Any]:
        """The rules' default for a player who submitted nothing (parsed values)."""

    @abstractmethod
    def resolve(self, state: State, round_input: RoundInput, rng: Rng) -> RoundResult:
        """Resolve the open round. Pure: the input state is not modified."""

    # ---- views -----------------------------------------------------------
    @abstractmethod
    def player_view(self, state: State, player: str) -> Report:
        """What `player` privately knows now (hand, energy, team and role...).
        The single source of every private tab, with the round reports."""

    @abstractmethod
    def public_view(self, state: State) -> Report:
        """The public board now, as blocks with grids (drawn in colour)."""

    @abstractmethod
    def outcome(self, state: State, decisions: Mapping[str, Any] | None = None) -> Outcome | None:
        """The end of the game once ``state["finished"]``; None before. ``decisions`` holds what the
        host entered for the outcome's requests (a vote, a ranking); a request not entered yet is
        listed in ``Outcome.requests`` and its ``default`` applies meanwhile."""

    # ---- results as data -----------------------------------------------------
    def render(self, facts: Sequence[Any], viewer: str | None, ctx: Any) -> Report | None:
        """The report of one round for `viewer` (None: the public), drawn from `facts`, which
        already hold only what `viewer` may know (core.facts.visible). None: the game still
        returns finished reports in RoundResult (the older contract)."""
        return None

    def picture(self, facts: Sequence[Any], viewer: str | None, ctx: Any) -> Any:
        """The round's board as a core.picture.Picture drawn from the visible `facts`; None: no board."""
        return None

    # ---- standings (core/standings.py) ------------------------------------------
    score_unit: str = ""     # what a player's score is counted in ("fireflies", "points")
    tie_rule: str = ""       # how the rules break a tie for first (or last), with the ruling numbers
    outcome_scores_are_totals = True   # Outcome.scores counts in score_unit (public at the end)

    def round_scores(self, facts: Sequence[Any]) -> Sequence[Any]:
        """Each player's score in one round (core.standings.RoundScore rows), read from the round's
        `facts`, which already hold only what the viewer may know. Default: none (no standings)."""
        return ()

    def final_places(self, facts: Sequence[Any]) -> Sequence[Any]:
        """The places the rules decided at the end (core.standings.Place rows), when a tie-break
        other than the score settled them; default: none (ranked by the totals)."""
        return ()

    def from_position(self, players: Sequence[str], options: Mapping[str, Any], tables: Tables,
                      position: Mapping[str, Any], rng: Rng) -> State:
        """A game's state at a given round and position (hands, points, grids...), validated:
        a PositionError names what is impossible. Documented per game in its docs page."""
        from .errors import UsageError
        raise UsageError(f"{self.spec.name} cannot start from a position yet")

    # ---- demo ------------------------------------------------------------
    @abstractmethod
    def random_submission(self, state: State, player: str, rng: Rng) -> RawSubmission:
        """A random legal submission as a player would type it (for demos and tests)."""

    def random_play(self, state: State, player: str, rng: Rng) -> tuple[RawSubmission, Mapping[str, Any] | None]:
        """:meth:`random_submission` with what :meth:`parse` reads from it, when the game knows that
        without reading its own text back: ``(raw, values)``, values None where it does not (the
        text is then read as any other). Same draws, same text as ``random_submission``.

        A simulation hands the values to :meth:`Match.resolve` (``known=``) and skips the reading,
        a sixth of a simulated Bugcatcher game; with the match's checks on, the values are compared
        with what parse reads, so a game whose claim is wrong fails its tests."""
        return self.random_submission(state, player, rng), None

    # ---- helpers shared by all games --------------------------------------
    def viewers(self, state: State, player: str) -> tuple[str, ...]:
        """Players who may read `player`'s private reports (a team shares them)."""
        return (player,)

