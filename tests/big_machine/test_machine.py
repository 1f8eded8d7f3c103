"""The Big Machine: scoring the machines, and the Elimination Candidate vote (R58)."""
import copy

import pytest

from sheetbridge.api import match_from_position
from sheetbridge.games import big_machine as bm

from .helpers import P6, start, text, turn


# ------------------------------------------------------------------ scoring

def _machine_50():
    """White left + White right (default halves) with parts giving 9 excellent + 5 working.

    Left:  M1 White3 - L1 Blue5 allies (W-U allies): excellent 5
           M2 Blue2 - L2 Blue1 free, unused: excellent 5
           M3 Blue4 - L3 Green3 allies (U-G enemies): working 1
           L1 5 > L2 1: excellent 5;  L3 3 > L2 1: excellent 5
           L1-L4 free, used: working 1;  L3-L5: L5 faulty: 0
           L4 Red2 - L2 Blue1 enemies (R-U enemies): excellent 5    -> 5 excellent, 2 working
    Right: M1 White3 - R1 Black4 allies (W-B enemies): working 1
           M2-R2 free unused: excellent;  M3 Blue4 - R3 White3 allies (U-W): excellent
           R1 4 > R2 2: excellent;  R3 3 > R2 2: excellent
           R1-R4 free, used: working 1;  R3-R5: R5 faulty: 0
           R4 Green2 - R2 White2 enemies (G-W allies): working 1    -> 4 excellent, 3 working
    Total 9 x 5 + 5 x 1 = 50.
    """
    m = start(meadows=("White", "White", "Red", "Blue"))
    mach = copy.deepcopy(m.state["machines"]["Team 1"])
    c = lambda color, power: {"color": color, "power": power}  # noqa: E731
    mach["parts"].update({"M1": c("White", 3), "M2": c("Blue", 2), "M3": c("Blue", 4),
                          "L1": c("Blue", 5), "L2": c("Blue", 1), "L3": c("Green", 3), "L4": c("Red", 2),
                          "L5": "faulty", "R1": c("Black", 4), "R2": c("White", 2), "R3": c("White", 3),
                          "R4": c("Green", 2), "R5": "faulty"})
    bm.find_connector(mach, "L1", "L4")["used"] = True
    bm.find_connector(mach, "R1", "R4")["used"] = True
    return m, mach


def test_machine_scoring_9_excellent_and_5_working_is_50_points():
    m, mach = _machine_50()
    total, statuses = bm.score_machine(mach, m.state["relation"])
    assert statuses.count("excellent") == 9 and statuses.count("working") == 5 and statuses.count("dead") == 2
    assert total == 50


def test_same_colour_pair_is_only_working_and_greater_than_is_strict():
    m, mach = _machine_50()
    rel = m.state["relation"]
    mach["parts"]["L1"] = {"color": "White", "power": 5}      # M1 White - L1 White: neither (A14)
    conn = bm.find_connector(mach, "M1", "L1")
    assert bm.connector_status(conn, mach["parts"], rel) == "working"
    mach["parts"]["L2"] = {"color": "Blue", "power": 5}       # L1 5 > L2 5 fails (A15)
    assert bm.connector_status(bm.find_connector(mach, "L1", "L2"), mach["parts"], rel) == "working"


def test_final_round_fills_empty_nodes_scores_and_pays():
    m, mach = _machine_50()
    # Put the 50-point machine in place (with L5, R5 still empty) and jump to round 7.
    mach["parts"]["L5"] = mach["parts"]["R5"] = None
    st = copy.deepcopy(m.state)
    st["machines"]["Team 1"] = mach
    st["round"] = 7
    st["prev"].update({"Ann": "L3", "Bo": "R3", "Cy": "L1", "Dee": "R1"})
    m.state = st
    # Everyone in Red, Ann and Bo bid 1, Cy and Dee bid 2: no unique bid, all install faulty (A3):
    # Ann on L5 and Bo on R5 (their last empty nodes): the same as the R48 end-of-game fill.
    rec = m.resolve({"Ann": turn("Red", 1, 0, "L5"), "Bo": turn("Red", 1, 0, "R5"),
                     "Cy": turn("Red", 2, 0, "M1"), "Dee": turn("Red", 2, 0, "M1")})
    assert m.finished
    assert m.state["scores"] == {"Team 1": 50, "Team 2": 0}
    assert all(p is not None for p in m.state["machines"]["Team 2"]["parts"].values())  # R48
    # R59, A13: floor(50 / 2) = 25 garnets to Ann and Bo; 0 points pay nothing
    assert sorted((r.player, r.change) for r in rec.ledger) == [("Ann", 25), ("Bo", 25)]
    out = m.outcome()
    assert out.winners == ("Ann",) and out.elimination_candidate == "Cy"      # A11: players only
    assert {(a.player, a.kind, a.count) for a in out.awards} == {("Ann", "Token of Life", 1), ("Ann", "cosmos", 1)}
    # R68: all machines and scores public at the end
    assert "Team 1 (Ann + Bo): 50 points" in text(rec.public)
    assert "Team 2's final machine" in text(rec.public)


def test_tied_top_gives_no_token_and_tied_bottom_needs_a_vote():
    m = start(players=["Ann", "Bo", "Cy", "Dee", "Eli", "Fay"], meadows=("White",) * 6)
    st = copy.deepcopy(m.state)
    st["finished"] = True
    st["scores"] = {"Team 1": 20, "Team 2": 20, "Team 3": 5}
    out = m.game.outcome(st)
    assert out.winners == ("Ann", "Cy") and not out.awards and out.elimination_candidate == "Eli"
    st["scores"] = {"Team 1": 30, "Team 2": 5, "Team 3": 5}
    out = m.game.outcome(st)
    # R58: Cy and Eli share the lowest score; the winner (Ann) votes; until then the EC is pending
    (vote,) = out.requests
    assert out.elimination_candidate is None and vote.key == "ec-vote" and vote.choices == ("Cy", "Eli")
    assert vote.who == "the winner, Ann"
    assert m.game.outcome(st, {"ec-vote": "Eli"}).elimination_candidate == "Eli"


# ------------------------------------------------------------------ the Elimination Candidate vote (R58)

def _final_three_teams(scoring_team_1=True):
    """Round 7 from a position: Team 1 holds M1 White 3 - L1 Blue 5 (allies, W-U: excellent, 5 points)
    if `scoring_team_1`; everything else ends faulty, so Teams 2 and 3 score 0. Everyone bids in Red in
    tied pairs (1, 1, 2, 2, 3, 3): nobody wins, everyone installs faulty."""
    t1 = {"M1": "White 3", "L1": "Blue 5"} if scoring_team_1 else {"M1": "faulty", "L1": "faulty"}
    pos = {"round": 7, "start": {p: "White" for p in P6},
           "previous": {"Ann": "M1", "Bo": "L1", "Cy": "L1", "Dee": "R1", "Eli": "L1", "Fay": "R1"},
           "parts": {"Team 1": t1, "Team 2": {"L1": "faulty", "R1": "faulty"},
                     "Team 3": {"L1": "faulty", "R1": "faulty"}}}
    m = match_from_position("big-machine", P6, pos, seed=1)
    m.resolve({"Ann": turn("Red", 1, 0, "R1"), "Bo": turn("Red", 1, 0, "L4"), "Cy": turn("Red", 2, 0, "M1"),
               "Dee": turn("Red", 2, 0, "M1"), "Eli": turn("Red", 3, 0, "M1"), "Fay": turn("Red", 3, 0, "M1")})
    return m


def test_a_shared_lowest_score_waits_for_the_winners_vote():
    m = _final_three_teams()
    assert m.state["scores"] == {"Team 1": 5, "Team 2": 0, "Team 3": 0}
    out = m.outcome()
    # A11: players compete: Ann 5, Cy 0, Eli 0. Ann alone on top: Token of Life and cosmos; Cy and Eli share
    # the lowest, so the winner votes (R58); until the vote is entered the EC is pending.
    assert out.winners == ("Ann",) and out.losers == ("Cy", "Eli") and out.elimination_candidate is None
    (vote,) = m.pending()
    assert (vote.key, vote.choices, vote.who, vote.round) == ("ec-vote", ("Cy", "Eli"), "the winner, Ann", None)
    board = text(m.public_report())
    assert "The Elimination Candidate will be announced after the winner's choice." in board and "Pending" not in board
    m.decide("ec-vote", "eli")
    assert m.outcome().elimination_candidate == "Eli" and not m.pending()
    assert "The vote chose Eli for the Elimination Candidate." in m.outcome().reasons[-1]
    m.decide("ec-vote", "Cy")                                   # a corrected vote changes the outcome
    assert m.outcome().elimination_candidate == "Cy"
    with pytest.raises(Exception, match="not allowed"):
        m.decide("ec-vote", "Ann")                              # only the tied lowest can be named


def test_everyone_tied_leaves_the_candidate_to_the_host():
    m = _final_three_teams(scoring_team_1=False)
    out = m.outcome()
    # all three players score 0: the voters would be the candidates themselves (A12), the host decides
    assert out.winners == ("Ann", "Cy", "Eli") == out.losers and not out.awards
    assert out.ending == "shared_win" and out.elimination_candidate is None
    (req,) = m.pending()
    assert (req.key, req.who, req.choices) == ("ec-host", "the host", ("Ann", "Cy", "Eli"))
    m.decide("ec-host", "Cy")
    assert m.outcome().elimination_candidate == "Cy"
