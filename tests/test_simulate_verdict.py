"""The designer's balance report (issue 30): progress and the total announced, no option sweep unless
asked, the verdict first and right on cases whose answer is known, option kinds, every figure in JSON."""
import fcntl
import json
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from sheetbridge.cli import main
from sheetbridge.api import games
from sheetbridge.simulate import balance_report, strategy
from sheetbridge.simulate.verdict import seat_balance

PLAYERS = ["A", "B", "C"]


@strategy("forfeit-test", "three-modular-rooms")
def forfeit(view, rng):
    """Always an unreadable card: the rules play one at random and the player cannot score (R33, R34)."""
    return {"play": [{"card": "none", "room": "Null"}]}


def _cli(*args: str):
    res = CliRunner().invoke(main, ["simulate", *args])
    assert res.exit_code == 0, res.output
    return res


def test_progress_shows_on_a_terminal_with_the_total_announced_first():
    """Run as a designer would, stderr on a pseudo-terminal: the total first, then a bar per phase."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))   # a 100-column terminal
    cmd = [sys.executable, "-m", "sheetbridge.cli", "simulate", "three-modular-rooms", "--games", "40",
           "--players", "3", "--workers", "1", "--options", "announce_buyer", "--option-games", "10"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    err = b""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 1)
        if ready:
            try:
                chunk = os.read(master, 4096)
            except OSError:          # the child closed the terminal
                break
            if not chunk:
                break
            err += chunk
        elif proc.poll() is not None:
            break
    out = proc.communicate(timeout=60)[0].decode()
    os.close(master)
    err_text = err.decode(errors="replace")
    assert proc.returncode == 0, err_text
    assert err_text.startswith("Playing 40 games of three-modular-rooms (3 players) + 1 option value(s) x 10 "
                               "= 10 more: 50 in all")
    assert "\rthree-modular-rooms games:   0%|" in err_text and "| 0/40 [" in err_text   # the games' bar
    assert "\roption values:   0%|" in err_text and "| 0/10 [" in err_text               # the sweep's bar
    assert err_text.index("| 0/40 [") < err_text.index("| 0/10 [")
    assert out.splitlines()[1] == "Verdict" and "Win and EC rates by seat" in out and "40/40" not in out


def test_quiet_when_not_a_terminal_and_no_option_sweep_unless_asked():
    res = _cli("three-modular-rooms", "--games", "20", "--players", "3", "--workers", "1", "--json")
    assert res.stderr.strip() == "Playing 20 games of three-modular-rooms (3 players): 20 in all, on 1 local process(es)."
    rep = json.loads(res.stdout)
    assert rep["verdict"]["options_swept"] is False and rep["tables"]["options"] == []
    assert any("Host options: not compared (ask with --options all" in line for line in rep["verdict"]["lines"])
    asked = json.loads(_cli("three-modular-rooms", "--games", "20", "--players", "3", "--workers", "1", "--json",
                            "--options", "hide_scope,cards_consumed", "--option-games", "8").stdout)
    assert [(r["option"], r["value"], r["games"]) for r in asked["tables"]["options"]] == [
        ("hide_scope", "buyer_only", 8), ("cards_consumed", "false", 8)]


def test_the_verdict_comes_first_and_names_what_is_known():
    """Two random seats (the same player twice: balanced), a seat that never scores (weakest, and by a
    clear margin), an option that only changes what is announced (changes nothing)."""
    rep = balance_report("three-modular-rooms", PLAYERS, games=60, seed=7, strategies=["random", "forfeit-test"],
                         workers=1, option_games=30, sweep="announce_buyer")
    lines = rep.text().splitlines()
    assert lines[:2] == [rep.title(), "Verdict"]
    seats, strongest, nothing = lines[2], lines[3], lines[4]
    assert seats.startswith("- Seats (random): balanced: 2 seats win")
    assert strongest.startswith("- Strongest strategy: random, ahead of forfeit-test by +")
    assert "a clear lead); weakest: forfeit-test." in strongest
    v = rep.verdict
    assert v.strategies.order == ("random", "forfeit-test") and v.strategies.win_rates[1] == 0 and v.strategies.clear
    assert v.strategies.lead == pytest.approx(rep.by_strategy.loc["random", "win rate"], abs=1e-3)
    assert nothing == ("- Options that change nothing in 30 games (every game ends the same): announce_buyer=true "
                       "[display: changes only what is shown or told].")
    assert v.options[0].identical and not v.options[0].beyond_noise and v.options[0].winners_changed == 0
    never = {f.fact for f in v.never}
    assert "NonSubmitters" in never and "CardPlayed" not in never     # nobody ever fails to submit here
    assert any(line.startswith("- Happened in every game: card played,") for line in lines)
    page = rep.to_dict()
    assert page["verdict"]["lines"] == lines[2:2 + len(page["verdict"]["lines"])]


def test_an_unbalanced_seat_is_named():
    """Seat 1 wins every game of the four seats that play the same strategy: it is named, the others not."""
    n = 200
    games = pd.DataFrame({f"won:{i}": [i == 0] * n for i in range(4)})
    seats = ["seat 1", "seat 2", "seat 3", "seat 4"]
    got = seat_balance(games, seats, ["random"] * 4)[0]
    assert not got.balanced and got.outliers == tuple(seats) and got.spread == 1.0
    even = pd.DataFrame({f"won:{i}": [g % 4 == i for g in range(n)] for i in range(4)})
    fair = seat_balance(even, seats, ["random"] * 4)[0]
    assert fair.balanced and fair.win_rates == (0.25,) * 4 and fair.spread == 0


def test_a_content_option_is_labelled_content_and_a_rule_change_is_told_from_noise():
    rep = balance_report("flickering-lights", [f"P{i}" for i in range(1, 8)], games=24, seed=3, workers=1,
                         option_games=24, sweep="grid_symmetry=rot90,distance")
    table = rep.options.reset_index().set_index("option")
    assert table.loc["grid_symmetry", "kind"] == "content" and table.loc["distance", "kind"] == "rule"
    text = rep.text()
    assert "grid_symmetry=rot90 [content: a different board or grid, not a rule change]" in text
    assert "distance=chebyshev [" not in text
    for e in rep.verdict.options:
        assert not e.identical and e.biggest is not None and e.biggest.games_to_tell >= 2


def test_json_holds_every_figure_of_the_text(tmp_path):
    args = ["three-modular-rooms", "--games", "30", "--players", "3", "--workers", "1", "--strategy", "random",
            "--strategy", "forfeit-test", "--options", "cards_consumed,announce_buyer", "--option-games", "15"]
    text = _cli(*args).stdout
    rep = json.loads(_cli(*args, "--json").stdout)

    numbers: set[float] = set()

    def walk(x):
        if isinstance(x, bool) or x is None:
            return
        if isinstance(x, (int, float)):
            numbers.add(round(float(x), 3))
        elif isinstance(x, dict):
            for k, v in x.items():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    walk(rep)
    shown = {round(float(m.replace(",", "")), 3) for m in re.findall(r"(?<![\w.])[-+]?\d[\d,]*\.\d+", text)}
    assert shown and shown <= numbers, sorted(shown - numbers)[:10]
    assert rep["verdict"]["lines"] == text.splitlines()[2:2 + len(rep["verdict"]["lines"])]
    assert len(rep["tables"]["by_seat"]) == 3 and rep["tables"]["facts"][0]["fact"] == "card played"


def test_the_same_seed_gives_the_same_report_and_the_html_starts_with_the_verdict(tmp_path):
    a = balance_report("three-modular-rooms", PLAYERS, games=16, seed=5, workers=1)
    b = balance_report("three-modular-rooms", PLAYERS, games=16, seed=5, workers=2)
    assert a.text() == b.text() and a.to_json() == b.to_json()
    out = tmp_path / "r.html"
    _cli("three-modular-rooms", "--games", "16", "--players", "3", "--seed", "5", "--workers", "1",
         "--html", str(out))
    page = out.read_text()
    assert page.index("<ul id='verdict'><li>Seats (random): ") < page.index("<img") < page.index("By strategy")


@pytest.mark.parametrize("game_id", sorted(games()))
def test_an_option_marked_display_changes_no_game_of_random_players(game_id):
    """The kinds are checked against the games: a display option only changes what is shown or told,
    so random players (who read nothing) play exactly the same games under either value."""
    game = games()[game_id]
    shown = [o.name for o in game.spec.options if o.kind == "display"]
    assert shown, f"{game_id} has no display option"
    players = [f"P{i + 1}" for i in range(game.spec.recommended_players or game.spec.min_players)]
    rep = balance_report(game_id, players, games=3, seed=2, workers=1, option_games=3, sweep=shown)
    assert {e.option for e in rep.verdict.options} == set(shown)
    assert [e.option for e in rep.verdict.options if not e.identical] == []


@pytest.mark.parametrize("asked, said", [
    ("nope", "error: --options: three-modular-rooms has no option 'nope'; use all or some of: rounds,"),
    ("rounds", "error: --options: rounds has no list of values; name one other than the 11 played"),
    ("rounds=11", "error: --options: rounds=11 is the value every game already plays"),
    ("hide_scope=sideways", "error: --options: option hide_scope: 'sideways' is not allowed; use one of"),
])
def test_an_option_asked_for_wrongly_is_one_line_before_any_game(asked, said):
    res = CliRunner().invoke(main, ["simulate", "three-modular-rooms", "--games", "5", "--options", asked])
    assert res.exit_code != 0 and "Traceback" not in res.output
    assert res.stderr.startswith(said) and len(res.stderr.strip().splitlines()) == 1
    assert "Playing" not in res.stderr


def test_a_fact_of_the_games_end_is_counted_once_a_game():
    """Skeld's MainMatchResult lives in the outcome, not in a round: every whole game has exactly one,
    so the verdict says it happened in every game, not that it never happened."""
    rep = balance_report("skeld", ["A", "B", "C", "D"], games=6, seed=3, strategies=["random"], workers=1)
    assert (rep.data["fact:MainMatchResult"] == 1).all()
    assert "MainMatchResult" not in {f.fact for f in rep.verdict.never}
    assert "MainMatchResult" in {f.fact for f in rep.verdict.always}
