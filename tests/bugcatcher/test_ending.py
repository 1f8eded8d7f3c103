"""Bugcatcher: the end of the game (R69-R73) and the tie-break reasons (R71)."""
from sheetbridge.api import match_from_position, new_match
from sheetbridge.core.facts import of_type
from sheetbridge.core.types import ProblemKind
from sheetbridge.games import bugcatcher as bc

from .helpers import acts, mission, start, tables


def last_round(fireflies, missions=None, collisions=None, **kw):
    """A match opened at round 7 of 7 (the default mission catalogue) with these totals: the next
    resolve is the last round. Each player's nodes are apart: border (i, 0), central cell (i, 4)."""
    players = list(fireflies)
    nodes = {p: {"border": [i, 0], "central": [i % 6, 4 - i // 6]} for i, p in enumerate(players)}
    pos = {"round": 7, "nodes": nodes, "fireflies": fireflies, "missions_completed": missions or {},
           "collisions": collisions or {}}
    return match_from_position("bugcatcher", players, pos, seed=1, **kw)


# ------------------------------------------------------------------ end of game (R69-R73)

def test_final_ranking_tiebreaks_and_payouts():
    m = last_round({"Ann": 65, "Bo": 65, "Cy": 10, "Dee": -5, "Eli": -5, "Fay": 30},
                   {"Ann": 2, "Bo": 1, "Cy": 0, "Dee": 0, "Eli": 0, "Fay": 0},
                   {"Ann": 9, "Bo": 0, "Cy": 0, "Dee": 3, "Eli": 5, "Fay": 0})
    rec = m.resolve({})
    out = m.outcome()
    # Ann and Bo tie on 65: Ann completed more missions (R71 1) and wins.
    # Dee and Eli tie on -5 and on missions: Eli caused more collisions (R71 2): Eli is the EC.
    assert out.winners == ("Ann",) and out.elimination_candidate == "Eli"
    assert [p for p, _ in out.standings] == ["Ann", "Bo", "Fay", "Cy", "Dee", "Eli"]
    # R69 +1 to Ann; R73 floor(65/30) = 2 for Ann and Bo, floor(30/30) = 1 for Fay, nothing below 30
    assert sorted((r.player, r.change, r.reason) for r in rec.ledger) == [
        ("Ann", 1, "MM_WINNER"), ("Ann", 2, "FIREFLY_CONVERSION"), ("Bo", 2, "FIREFLY_CONVERSION"),
        ("Fay", 1, "FIREFLY_CONVERSION")]
    assert [(a.player, a.kind, a.count) for a in out.awards] == [("Ann", "Token of Life", 2)]
    # the outcome as data: Ann's win was settled by missions (R71 step 1); scores are the fireflies
    assert out.ending == "missions"
    assert out.scores == {"Ann": 65, "Bo": 65, "Fay": 30, "Cy": 10, "Dee": -5, "Eli": -5}
    # R68: every count revealed, once, in the outcome (not again in the last round's post); A35:
    # missions figures for those whose fireflies tied, collisions only where missions tied too.
    assert dict(out.standings) == {"Ann": "65 fireflies, 2 missions completed", "Bo": "65 fireflies, "
                                   "1 mission completed", "Fay": "30 fireflies", "Cy": "10 fireflies",
                                   "Dee": "-5 fireflies, 0 missions completed, 3 collisions caused",
                                   "Eli": "-5 fireflies, 0 missions completed, 5 collisions caused"}
    counts = {f.player: (f.place, f.fireflies, f.missions, f.collisions) for f in of_type(rec.facts, bc.FinalCount)}
    assert counts["Ann"] == (1, 65, 2, None) and counts["Eli"] == (6, -5, 0, 5) and counts["Fay"] == (3, 30, None, None)
    assert "65 fireflies" not in rec.public.text()
    assert [(f.above, f.below, f.by, f.above_value, f.below_value) for f in of_type(rec.facts, bc.TieBreakStep)] == [
        ("Ann", "Bo", "missions", 2, 1), ("Dee", "Eli", "collisions", 3, 5)]
    assert out.reasons[2:] == ("Ann, Bo tied on 65 fireflies: Ann above Bo by more missions completed (2 to 1).",
                               "Dee, Eli tied on -5 fireflies: Dee above Eli by fewer collisions caused (3 to 5).")


def test_gamewide_tiebreak_is_a_ranking_decision_for_the_winner_and_the_ec():
    # R71 (3), A32: Ann, Bo and Cy end tied on fireflies (5), missions (0) and collisions (0). The
    # Gamewide Tiebreak is a ranking the host enters. Until then nobody wins or goes to the EC and
    # the winner's garnet is not paid; the ranking Cy > Bo > Ann makes Cy the winner, Ann the EC.
    m = last_round({"Ann": 5, "Bo": 5, "Cy": 5})
    rec = m.resolve({})
    out = m.outcome()
    assert out.winners == () and out.elimination_candidate is None and out.awards == ()
    (req,) = m.pending()
    assert (req.key, req.kind, req.choices, req.round) == ("gamewide:Ann,Bo,Cy", bc.DecisionKind.RANKING,
                                                           ("Ann", "Bo", "Cy"), 7)
    assert "the winner and the Elimination Candidate" in req.question
    assert [r.reason for r in rec.ledger] == []                           # MM_WINNER waits for the ranking
    assert any("Gamewide Tiebreak" in line for line in out.pending)
    assert of_type(rec.facts, bc.MainMatchResult) == [bc.MainMatchResult(None, None, ("gamewide:Ann,Bo,Cy",))]
    public = m.public_report().text()   # players read what waits, never the host's instruction (issue 27)
    assert "The winner will be announced after the tiebreak." in public and "Winner: pending" in public
    assert "Winner(s)" not in public and "for the host" not in public and "none" not in public
    assert out.ending == "winner_pending"
    m.decide("gamewide", "cy, bo, ann")       # the start of the one pending key; re-resolves the last round
    out = m.outcome()
    assert out.winners == ("Cy",) and out.elimination_candidate == "Ann" and out.pending == () and not m.pending()
    assert out.ending == "gamewide"
    assert [(r.player, r.change, r.reason) for r in m.rounds[-1].ledger] == [("Cy", 1, "MM_WINNER")]
    assert m.ledger.balance("Cy") == 1
    assert [(f.above, f.below, f.by) for f in of_type(m.rounds[-1].facts, bc.TieBreakStep)] == [
        ("Cy", "Bo", "gamewide"), ("Bo", "Ann", "gamewide")]


def test_gamewide_tiebreak_separate_rankings_for_the_top_and_the_bottom():
    # Ann and Bo tie at the top (9, no missions, no collisions), Dee and Eli at the bottom (1): two
    # rankings. Entering the bottom one names the EC; the winner stays pending until the top one.
    m = last_round({"Ann": 9, "Bo": 9, "Cy": 4, "Dee": 1, "Eli": 1})
    m.resolve({})
    assert sorted(r.key for r in m.pending()) == ["gamewide:Ann,Bo", "gamewide:Dee,Eli"]
    m.decide("gamewide:Dee,Eli", "Eli, Dee")
    out = m.outcome()
    assert out.elimination_candidate == "Dee" and out.winners == ()
    assert [r.key for r in m.pending()] == ["gamewide:Ann,Bo"]
    m.decide("gamewide:Ann,Bo", "Bo, Ann")
    assert m.outcome().winners == ("Bo",) and m.outcome().elimination_candidate == "Dee"
    assert [p for p, _ in m.outcome().standings] == ["Bo", "Ann", "Cy", "Eli", "Dee"]


def test_penalty_is_charged_once_and_expiry_keeps_the_reward_open():
    # A19/A20: window 1 round (round 1 only) but expires_after_round 2. Ann and Bo accept in round 1;
    # nobody completes it: both -2 at the end of round 1, and it stays open for the reward.
    # Round 2: Ann builds RR with her central node: reward 4 (alone), +2 paths; Bo is not charged
    # again. Ann: -2 + 4 + 2 = 4. Bo: -2.
    tbl = tables(mission(1, "E", "central", "RR", 4, -2, 1, expires=2))
    m = start({"Ann": ("A1", "A5", "bottom left"), "Bo": ("F5", "F1", "upper right")}, tbl, options={"rounds": "2"})
    m.resolve({"Ann": acts(accept=["yes"]), "Bo": acts(accept=["yes"])})
    assert m.state["fireflies"] == {"Ann": -2, "Bo": -2}        # R58: negative totals are fine
    m.resolve({"Ann": acts("CR", "CR")})
    assert m.state["fireflies"] == {"Ann": 4, "Bo": -2}
    assert m.state["missions"][0]["completers"] == ["Ann"]


def test_round1_public_board_shows_starting_nodes_in_colour():
    # R26, R11: the starting nodes are revealed at the start of Round 1, central black, border blue.
    m = start({"Ann": ("C3", "C1", "bottom right"), "Bo": ("F5", "F5", "bottom right")})
    board = next(b for b in m.public_report().blocks if b.grid)   # shown once: in the pregame's post (issue 27)
    grid = board.grid
    # C3 is fine (5,5) -> grid[6][6]; C1 bottom right is fine (6,2) -> grid[3][7]
    assert grid[6][6].text == "S" and grid[6][6].fill == bc.FILL["black"]
    assert grid[3][7].text == "S" and grid[3][7].fill == bc.FILL["blue"]


def test_random_submissions_are_legal_as_typed():
    from sheetbridge.core.match import random_submissions
    from sheetbridge.core.rng import Rng
    m = new_match("bugcatcher", ["Ann", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy"], seed=4,
                  garnets={p: 5 for p in ["Ann", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy"]})
    rng = Rng.from_seed(4, "t")
    while not m.finished:
        raw = random_submissions(m, rng)
        for p, r in raw.items():
            sub = m.parse(p, r)
            bad = [x for x in sub.problems if x.kind is ProblemKind.SYNTAX or "leave the board" in x.reason
                   or "energy" in x.reason or "garnet swap" in x.reason]  # E1, E3
            assert not bad, [x.message for x in bad]
        m.resolve(raw)
    assert m.outcome() is not None


# ------------------------------------------------------------------ tie-break reasons (R71)

def test_tie_break_reason_names_the_step_that_separated_each_pair():
    # Ann, Bo and Cy tie on 10 fireflies, below Dee's 20. Missions: Ann 2, Bo 1, Cy 1 -> Ann above Bo
    # by missions. Bo and Cy tie on missions too; collisions 1 and 3 -> Bo above Cy by collisions.
    # Cy is the EC because of collisions, not missions (the chain "ended at missions" was wrong).
    m = last_round({"Dee": 20, "Ann": 10, "Bo": 10, "Cy": 10}, {"Dee": 0, "Ann": 2, "Bo": 1, "Cy": 1},
                   {"Dee": 0, "Ann": 5, "Bo": 1, "Cy": 3})
    rec = m.resolve({})
    out = m.outcome()
    assert out.winners == ("Dee",) and out.elimination_candidate == "Cy"
    assert out.ending == "fireflies"                # Dee's 20 alone: no tie-break at the top
    assert [(f.above, f.below, f.by, f.above_value, f.below_value) for f in of_type(rec.facts, bc.TieBreakStep)] == [
        ("Ann", "Bo", "missions", 2, 1), ("Bo", "Cy", "collisions", 1, 3)]
    assert ("Ann, Bo, Cy tied on 10 fireflies: Ann above Bo by more missions completed (2 to 1); Bo above Cy by "
            "fewer collisions caused (1 to 3).") in out.reasons
    # A35: Ann's collisions figure was never used (her missions separated her); Bo's and Cy's were.
    assert dict(out.standings)["Ann"] == "10 fireflies, 2 missions completed"
    assert dict(out.standings)["Cy"] == "10 fireflies, 1 mission completed, 3 collisions caused"
