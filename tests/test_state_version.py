"""A game's state has a version (GameRules.state_version): a record saved with an older one is passed
once through the game's upgrade_state when it is loaded, then replays (issue 26, point 4)."""
from __future__ import annotations

import json
from typing import Any, Mapping, Sequence

import pytest

from sheetbridge.core.errors import ConfigError
from sheetbridge.core.game import GameRules
from sheetbridge.core.match import Match
from sheetbridge.core.rng import Rng
from sheetbridge.core.types import (Field, FieldKind, Form, GameSpec, Outcome, RawSubmission, Report, RoundInput,
                                    RoundResult, Section, State, Submission, Tables)

PLAYERS = ["Ann", "Bo"]


class Tally(GameRules):
    """Three rounds; each player adds the number they type (1 to 3, default 1) to their tally.
    Version 1 kept the tallies under "points"; version 2 (Tally2) keeps them under "tally"."""
    spec = GameSpec(id="tally", name="Tally", min_players=1, max_players=4, rounds=3, summary="add numbers")
    key = "points"

    def setup(self, players: Sequence[str], options: Mapping[str, Any], tables: Tables, rng: Rng) -> State:
        return {"round": 1, "finished": False, self.key: {p: 0 for p in players}}

    def form(self, state: State, player: str) -> Form:
        return Form(state["round"], f"Round {state['round']}",
                    (Section("add", "Add", (Field("n", "Number", FieldKind.INTEGER),)),))

    def parse(self, state: State, player: str, raw: RawSubmission) -> Submission:
        text = (raw.get("add") or [{}])[0].get("n", "")
        values = {"n": int(text)} if text in ("1", "2", "3") else {}
        return Submission(player, values, (), raw, ())

    def default_submission(self, state: State, player: str, rng: Rng) -> Mapping[str, Any]:
        return {"n": 1}

    def resolve(self, state: State, round_input: RoundInput, rng: Rng) -> RoundResult:
        tallies = dict(state[self.key])
        for p in tallies:
            sub = round_input.submissions.get(p)
            tallies[p] += (sub.values if sub is not None else {}).get("n", 1)
        done = state["round"] >= self.spec.rounds
        new = {"round": state["round"] + (0 if done else 1), "finished": done, self.key: tallies}
        return RoundResult(new, Report("Round"), {p: Report(p) for p in tallies})

    def player_view(self, state: State, player: str) -> Report:
        return Report(f"{player}: {state[self.key][player]}")

    def public_view(self, state: State) -> Report:
        return Report("Tallies")

    def outcome(self, state: State, decisions: Mapping[str, Any] | None = None) -> Outcome | None:
        if not state["finished"]:
            return None
        best = max(state[self.key].values())
        return Outcome(winners=tuple(p for p, n in state[self.key].items() if n == best), losers=(),
                       elimination_candidate=None, reasons=(),
                       standings=tuple((p, str(n)) for p, n in state[self.key].items()))

    def random_submission(self, state: State, player: str, rng: Rng) -> RawSubmission:
        return {"add": [{"n": str(rng.randint(1, 3))}]}


class Tally2(Tally):
    state_version = 2
    key = "tally"
    upgrades: list[int] = []

    def upgrade_state(self, state: State, version: int) -> State:
        self.upgrades.append(version)
        out = {k: v for k, v in state.items() if k != "points"}
        out["tally"] = state["points"]
        return out


def _old_record() -> dict:
    m = Match.new(Tally(), PLAYERS, tables={}, seed=3)
    m.resolve({"Ann": {"add": [{"n": "3"}]}, "Bo": {"add": [{"n": "2"}]}})
    m.resolve({"Ann": {"add": [{"n": "2"}]}})
    return json.loads(json.dumps(m.to_json()))


@pytest.mark.parametrize("written", ["with its version", "before versions were written"])
def test_an_older_state_is_upgraded_once_on_load_and_replays(written):
    record = _old_record()
    assert record["state_version"] == 1 and record["state"]["points"] == {"Ann": 5, "Bo": 3}
    if written != "with its version":
        del record["state_version"]                     # a record from before: version 1
    game = Tally2()
    game.upgrades.clear()
    m = Match.from_json(game, record)
    assert game.upgrades == [1]                         # once, from the version it was saved in
    assert m.state == {"round": 3, "finished": False, "tally": {"Ann": 5, "Bo": 3}}
    m.replay()                                          # today's rules, from setup: the same rounds again
    assert m.state["tally"] == {"Ann": 5, "Bo": 3} and game.upgrades == [1]
    m.resolve({"Bo": {"add": [{"n": "3"}]}})
    assert m.finished and m.outcome().winners == ("Ann", "Bo")
    saved = json.loads(json.dumps(m.to_json()))
    assert saved["state_version"] == 2 and "points" not in saved["state"]
    Match.from_json(game, saved)
    assert game.upgrades == [1]                         # today's records are not upgraded again


def test_a_state_from_a_newer_sheetbridge_is_refused():
    record = _old_record()
    record["state_version"] = 3
    with pytest.raises(ConfigError, match="version 3"):
        Match.from_json(Tally2(), record)
