"""Standings (issue 27, point 2): each player's score per round and in total in the game's own units,
rank and tie-break state, drawn from the facts, with each viewer seeing only what the rules make public.

The figures below were read by hand from the golden playthroughs (tests/golden/<game>.txt: seed 1, the
same game `play_random` plays here): each player's private "Points gained this round" lines, the
PlayerPoints, FireflyTotal, ComponentGained and MachineNow facts, and the outcome's final order."""
from __future__ import annotations

import pytest

from sheetbridge.api import new_match, play_random
from sheetbridge.host.demo import fill_submission
from sheetbridge.host.new import new_game
from sheetbridge.host.players import PlayerInfo
from sheetbridge.host.resolve import resolve
from sheetbridge.host.session import load
from sheetbridge.core.facts import HOST
from sheetbridge.core.standings import standings
from sheetbridge.sheets import layout as L
from sheetbridge.host.tabs import STANDINGS_TAB
from tests.conftest import players_for
from tests.fake_google import FakeGoogle
from tests.test_cli_xlsx import run, tab_text, type_submission

# game -> (unit, Ann's score per scored round, Ann's total), hand-read from tests/golden/<game>.txt
ANN = {
    "three-modular-rooms": ("points", (0, 0, 0, 1, 0, 1, 0, 1, 1, 0, 1), 5),     # "Points gained this round"
    "flickering-lights": ("points", (21, 41, 26, 44, 61), 193),                  # PlayerPoints, round 4 restated
    "bugcatcher": ("fireflies", (5, -2, 2, 2, -1, 0, -1), 5),                    # FireflyTotal.change
    "skeld": ("Sequence Value", (1, 6, 7, 13, 23, 0, 0, 4), 54),                 # 1B; 6B; 7C; 2A+11C; 11A+12A; 4B
}
_GAMES: dict[str, object] = {}


def played(game_id):
    if game_id not in _GAMES:
        _GAMES[game_id] = play_random(game_id, players_for(game_id), seed=1)
    return _GAMES[game_id]


def row(st, player):
    return next(r for r in st.rows if r.player == player)


@pytest.mark.parametrize("game_id", sorted(ANN))
def test_host_standings_add_up_each_players_score_from_the_facts(game_id):
    unit, rounds, total = ANN[game_id]
    st = played(game_id).standings()
    ann = row(st, "Ann")
    assert (st.unit, ann.rounds, ann.total) == (unit, rounds, total)
    assert st.final and [r.rank for r in st.rows] == sorted(r.rank for r in st.rows)


def test_three_modular_rooms_ties_share_a_rank_and_say_so():
    st = played("three-modular-rooms").standings()
    assert [(r.player, r.total, r.rank) for r in st.rows[:3]] == [("Ann", 5, 1), ("Bo", 5, 1), ("Cy", 3, 3)]
    assert row(st, "Ann").tie == "tied with Bo" and "winners' vote" in st.tie_rule


def test_bugcatcher_final_order_and_the_step_that_broke_each_tie():
    st = played("bugcatcher").standings()
    assert [(r.player, r.total, r.rank) for r in st.rows[:3]] == [("Gus", 29, 1), ("Bo", 23, 2), ("Ivy", 23, 3)]
    assert row(st, "Bo").tie == "ahead of Ivy on collisions (4 to 9)"
    assert row(st, "Ivy").tie == "behind Bo on collisions (9 to 4)"
    assert row(st, "Dee").tie == "behind Fay on collisions (8 to 3)"
    assert "R71" in st.tie_rule


def test_big_machine_scores_each_team_by_its_machine_points():
    st = played("big-machine").standings()
    assert st.unit == "machine points"
    for p in ("Eli", "Fay"):   # Team 3: MachineNow points_if_ended 0, 5, 5, 5, 5, 5, then MachineScored 5
        assert (row(st, p).rounds, row(st, p).total, row(st, p).rank) == ((0, 5, 5, 5, 5, 5, 5), 5, 1)


@pytest.mark.parametrize("game_id", sorted(ANN))
def test_public_and_player_standings_show_only_what_the_rules_make_public(game_id):
    m = played(game_id)
    unit, rounds, total = ANN[game_id]
    middle = m.rounds[:3]
    public = standings(m.game, middle, m.players, None)
    assert all(v is None for r in public.rows for v in r.rounds)      # every round's score is private
    assert all(r.total is None and r.rank is None for r in public.rows)
    own = standings(m.game, middle, m.players, "Ann")
    assert all(v is None for r in own.rows if r.player != "Ann" for v in r.rounds)
    host = standings(m.game, middle, m.players, HOST)
    scored = len(host.rounds)
    assert scored >= 2                                                   # (a pregame round scores nothing)
    assert row(own, "Ann").rounds == rounds[:scored] == row(host, "Ann").rounds   # her own, as the host sees them
    assert row(own, "Ann").rank is None                                # no rank among totals one cannot see
    end = m.standings(None)                                            # the end reveals the totals
    assert row(end, "Ann").total == total and all(v is None for v in row(end, "Ann").rounds)


def test_flickering_lights_round_4_stays_hidden_from_its_player_until_the_end():
    m = played("flickering-lights")
    before_end = standings(m.game, m.rounds[:4], m.players, "Ann")
    assert row(before_end, "Ann").rounds == (21, 41, 26, None)        # R52: round 4's points are the host's
    assert row(before_end, "Ann").total == 88
    assert row(m.standings("Ann"), "Ann").rounds == (21, 41, 26, 44, 61)


# ------------------------------------------------------------------ the master's tab and the command

def points_told(results_text: str) -> int:
    line = next(x for x in results_text.splitlines() if "Points gained this round:" in x)
    return int(line.rsplit(":", 1)[1].strip(" .|"))


def test_master_standings_tab_on_xlsx_matches_what_each_player_was_told(tmp_path):
    game = tmp_path / "game"
    run("new", "three-modular-rooms", "--players", "Ann,Bo,Cy", "--out", game, "--garnets", "10",
        "--option", "rounds=3", "--seed", "11")
    assert "no round has been scored yet" in run("standings", game).output
    type_submission(game / "players" / "Ann.xlsx", "Your play", [3, "Null"])
    type_submission(game / "players" / "Bo.xlsx", "Your play", [-10, "Duel"])
    type_submission(game / "players" / "Cy.xlsx", "Your play", [2, "Solitary"])
    run("resolve", game)
    told = {p: points_told(tab_text(game / "players" / f"{p}.xlsx", "Results")) for p in ("Ann", "Bo", "Cy")}
    assert sorted(told.values()) == [0, 0, 1]                            # one room scored, one player in it
    tab = tab_text(game / "master.xlsx", STANDINGS_TAB).splitlines()
    assert tab[1] == "rank | player | round 1 | total points | tie-break"
    winner = next(p for p, n in told.items() if n == 1)
    assert tab[2] == f"1 | {winner} | 1 | 1 | "
    host = run("standings", game).output
    assert f"1     {winner}" in host
    public = run("standings", game, "--public").output
    assert all(line.split()[2:4] == ["?", "?"] for line in public.splitlines()[2:5])


def test_master_standings_tab_on_google():
    fake = FakeGoogle(seed=5)
    store = fake.store("host@example.com")
    players = [PlayerInfo(n, f"{n.lower()}@example.com", 10) for n in ("Ann", "Bo", "Cy")]
    new_game("three-modular-rooms", players, store, seed=11, options={"rounds": 3})
    ld = load(store)
    for p, play in {"Ann": ("3", "Null"), "Bo": ("-10", "Duel"), "Cy": ("2", "Solitary")}.items():
        fill_submission(store, ld, p, {"play": [{"card": play[0], "room": play[1]}]})
    resolve(store)
    m = load(store).match
    tab = store.open("master", store.master_location()).read([STANDINGS_TAB])[STANDINGS_TAB]
    cells = [[c for c in r if c != ""] for r in tab]
    expected = m.standings().table()
    assert [str(c) for c in cells[1]] == expected[0][:-1] + [expected[0][-1]]
    assert sorted(int(r[3]) for r in cells[2:5]) == [0, 0, 1]
    assert L.tab_name("record") in store.open("master", store.master_location()).tab_names()


def test_the_host_ranks_a_player_who_has_scored_nothing_yet_at_zero():
    """Found by the scripted week (tests/test_host_week.py): in Skeld a player who has gained no component
    has no score row; the host saw 0 in the round's column but "?" as the total, and so nobody was ranked."""
    from sheetbridge.core.match import random_submissions
    from sheetbridge.core.rng import Rng
    m = new_match("skeld", ["Ann", "Bo", "Cy", "Dee"], seed=7)
    for r in range(2):
        m.resolve(random_submissions(m, Rng.from_seed(7, f"r{r}"), 0.0))
    assert "Bo" not in {s.player for s in m.game.round_scores(m.rounds[-1].facts)}    # Bo gained nothing
    st = m.standings(HOST)
    assert [(r.player, r.rounds, r.total, r.rank) for r in st.rows] == [
        ("Cy", (10,), 10, 1), ("Ann", (6,), 6, 2), ("Dee", (5,), 5, 3), ("Bo", (0,), 0, 4)]
    public = m.standings(None)                                         # the public still knows no total
    assert all(r.total is None and r.rank is None for r in public.rows)
