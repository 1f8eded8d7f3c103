"""The Big Machine: whole random games and the options they exercise."""
import json

from sheetbridge.api import new_match
from sheetbridge.core.rng import Rng
from sheetbridge.games import big_machine as bm

from .helpers import ROSTER, _round_two, start, text, turn


# ------------------------------------------------------------------ whole games

def test_random_games_keep_cogs_and_garnets_non_negative():
    from sheetbridge.api import play_random
    for seed in range(4):
        m = play_random("big-machine", ["Ann", "Bo", "Cy", "Dee", "Eli", "Fay"], seed=seed, skip_chance=0.3)
        assert all(v >= 0 for v in m.state["cogs"].values())
        assert len(m.rounds) == 8  # meadow selection + 7 rounds (R13)
        assert json.loads(json.dumps(m.state)) == m.state


def test_random_submission_is_legal():
    m = start()
    rng = Rng.from_seed(1)
    for _ in range(20):
        for p in ROSTER:
            sub = m.parse(p, bm.GAME.random_submission(m.state, p, rng))
            assert not sub.problems, [x.message for x in sub.problems]


def test_gift_larger_than_what_is_left_is_not_made_and_cross_team_option():
    m = start()
    # Ann bids 10 and is alone in White: 12 - 10 = 2 left, a gift of 3 is not made (A16)
    rec = m.resolve({"Ann": turn("White", 10, 0, "L1", give=[("Bo", 3)])})
    assert m.state["cogs"]["Ann"] == 2 and m.state["cogs"]["Bo"] == 12
    assert "applied: nothing given" in text(rec.private["Ann"])
    assert "Ann: Give cogs rows total 3, more than the 2 cogs left after the auction: nothing given (A16)" \
        in rec.host_log
    m = start(options={"cross_team_trades": "false"})
    sub = m.parse("Ann", turn("White", 0, 0, "L1", give=[("Cy", 1)]))
    prob = next(p for p in sub.problems if p.field == "give row 1 to")
    assert prob.value == "Cy" and "not on your team" in prob.reason and prob.allowed == "Bo"
    assert sub.values["gifts"] == []


def test_jump_without_balance_check_is_logged_not_charged():
    m = _round_two(options={"enforce_garnets": "false"})
    rec = m.resolve({"Ann": turn("White", 0, 0, "R5", jump="yes")})
    assert not rec.ledger and m.state["prev"]["Ann"] == "R5"
    assert any("Ann: jump L4 -> R5 accepted without a balance check" in line for line in rec.host_log)


def test_meadow_selection_view_shows_the_halves_of_ones_side():
    m = new_match("big-machine", ROSTER, seed=1)
    ann = text(m.player_report("Ann"))   # the player: left halves
    bo = text(m.player_report("Bo"))     # the guest: right halves
    assert "The Blue Meadow's left half" in ann and "Meadow's right half" not in ann
    assert "The Blue Meadow's right half" in bo
    # the White half as listed at the top of this file, own nodes named L1..L5
    assert "L1-L2 L1 > L2" in ann and "L4-L2 enemies" in ann
    form = m.form("Ann")
    assert form.section("start").fields[0].choices == tuple(bm.MEADOWS)
