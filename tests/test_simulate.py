"""Simulation and the balance report: reproducible, parallel, computed from real games."""
import pytest
from click.testing import CliRunner

from sheetbridge.cli import main
from sheetbridge.core.errors import UsageError
from sheetbridge.simulate import balance_report, html_report, play_games, strategy, wilson

PLAYERS = ["A", "B", "C"]


def test_the_same_seed_gives_the_same_games_with_any_number_of_workers():
    one = play_games("three-modular-rooms", PLAYERS, games=12, seed=4, workers=1)
    two = play_games("three-modular-rooms", PLAYERS, games=12, seed=4, workers=2)
    assert one.equals(two)
    other = play_games("three-modular-rooms", PLAYERS, games=12, seed=5, workers=1)
    assert not one.equals(other)


def test_rates_come_from_the_games_played():
    rep = balance_report("three-modular-rooms", PLAYERS, games=30, seed=2, strategies=["random", "greedy"],
                         workers=1, option_games=5, sweep="all")
    df = rep.data
    # Seat 1 plays random: its win rate is the share of games whose winners include A.
    assert rep.by_seat["win rate"].iloc[0] == pytest.approx(round(sum("A" in w for w in df["winners"]) / 30, 3))
    assert rep.by_seat["games"].tolist() == [30, 30, 30]
    assert rep.by_strategy.loc["greedy", "games"] == 30 and rep.by_strategy.loc["random", "games"] == 60
    assert rep.lengths["games"].sum() == 30 and rep.endings["games"].sum() == 30
    assert rep.facts.loc["card played", "per game"] == 3 * 11      # one card a player a round
    assert {"two_ignore_timing", "hide_scope"} <= set(rep.options.index.get_level_values(0))
    page = html_report(rep)
    assert page.count("data:image/png;base64,") == 2 and "By strategy" in page


def test_a_designer_writes_a_strategy_in_a_few_lines():
    @strategy("always-null-test", "three-modular-rooms")
    def always_null(view, rng):
        assert not hasattr(view, "state")                         # the view holds no hidden state
        hand = view.form.section("play").fields[0].choices
        return {"play": [{"card": hand[0], "room": "Null"}]}
    df = play_games("three-modular-rooms", PLAYERS, games=3, seed=1, strategies=["always-null-test"], workers=1)
    assert (df["fact:RoomScored"] == 33).all()
    with pytest.raises(UsageError, match="no strategy 'nope'"):
        play_games("three-modular-rooms", PLAYERS, games=1, strategies=["nope"])


def test_wilson_interval_by_hand():
    lo, hi = wilson(0, 10)
    assert lo == 0 and hi == pytest.approx(0.2775, abs=1e-3)


def test_simulate_command_prints_the_report(tmp_path):
    out = tmp_path / "r.html"
    res = CliRunner().invoke(main, ["simulate", "three-modular-rooms", "--games", "6", "--players", "3",
                                    "--strategy", "greedy", "--workers", "1",
                                    "--html", str(out)])
    assert res.exit_code == 0, res.output
    assert "Win and EC rates by seat" in res.output and out.read_text().startswith("<!doctype html>")
