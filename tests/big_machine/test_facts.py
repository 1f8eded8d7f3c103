"""The Big Machine: the round as typed facts, the docs page's options and facts."""
import re
from collections import Counter

from sheetbridge.api import new_match
from sheetbridge.core.facts import HOST_ONLY, of_type
from sheetbridge.core.types import Problem, ProblemKind
from sheetbridge.games import big_machine as bm

from .helpers import P6, _round_two, start, text, turn


# ------------------------------------------------------------------ the round as typed facts

def test_every_fact_of_a_hand_computed_round():
    """Round 2 of a 3-team game, every fact read from the typed results and computed by hand.

    Machines: Team 1 White left + White right, Team 2 Red left + Blue right, Team 3 White + White.
    Red left half: M1-L1 enemies, M2-L1 (M2 >), M3-L1 enemies, L1-L3 free, L2-L3 (L3 >), L3-L4 (L3 >),
    L3-L5 free, L2-L1 allies. Blue right half: M1-R1 (M1 >), M2-R2 free, M3-R3 (M3 >), R1-R2 allies,
    R2-R3 enemies, R2-R4 (R2 >), R4-R5 (R5 >), R5-R1 free. White: see the top of this file.

    Round 1, everyone alone but Eli and Fay (Green: Eli 1 unique, Fay 0): Ann White 1 on L2, Bo Black 1
    on R2, Cy Red 1 on L1, Dee Blue 1 on R1, Eli Green 2 (2 people + 0) on L1, Fay faulty on R5; Eli 11.
    Round 2: the host's table moves 3 cogs Dee -> Cy before the checks (Cy 15, Dee 9).
      Blue: Ann 3 (+2), Cy 1, Dee 1 (+4): 3 is the highest unique bid, Ann gets Blue 3 people + 2 = 5,
            the ruleset's own example; Cy and Dee tied at 1 ("not unique"), faulty, Dee's 4 not taken.
      Black: Bo alone, bid 0 (+3): Black 1 + 3 = 4. His jump is void (0 garnets); M2 is joined to R2 anyway.
      Green: Eli 2 (+1), Fay (no submission: stays, bids 0) "outbid": Eli gets Green 2 + 1 = 3.
    Ann and Bo both install on M2: ascending power, Black 4 first, then Blue 5 > 4 replaces it (R46).
    Ann sabotages L5 (+2 cogs). Fay's default node is the only one joined to R5: R3.
    Cogs: Ann 12 + 2 - 3 - 2 = 9; Bo 12 - 3 = 9; Cy 15 - 1 - 2 (gift to Fay) = 12; Dee 9 - 1 = 8;
    Eli 11 - 2 - 1 = 8; Fay 12 + 2 = 14.
    """
    tables = {k: [list(r) for r in v] for k, v in new_match("big-machine", P6, seed=0).tables.items()}
    tables[bm.TRADES_TABLE] = [["Round", "From", "To", "Cogs"], ["2", "Dee", "Cy", "3"]]
    m = start(meadows=("White", "White", "Red", "Blue", "White", "White"), players=P6, tables=tables)
    m.resolve({"Ann": turn("White", 0, 0, "L2"), "Bo": turn("Black", 0, 0, "R2"), "Cy": turn("Red", 0, 0, "L1"),
               "Dee": turn("Blue", 0, 0, "R1"), "Eli": turn("Green", 1, 0, "L1"), "Fay": turn("Green", 0, 0, "R5")})
    rec = m.resolve({"Ann": turn("Blue", 3, 2, "M2", sabotage="L5"), "Bo": turn("Black", 0, 3, "M2", jump="yes"),
                     "Cy": turn("Blue", 1, 0, "L3", give=[("Fay", 2)]), "Dee": turn("Blue", 1, 4, "M1"),
                     "Eli": turn("Green", 2, 1, "M1")})
    F = rec.facts
    c = bm.MachinePart
    X = bm.FAULTY_PART
    t1, t2, t3 = ("Ann", "Bo"), ("Cy", "Dee"), ("Eli", "Fay")
    assert of_type(F, bm.CogsGiven) == [
        bm.CogsGiven("Dee", "Cy", 3, "host", giver_had=12, audience=("Dee", "Cy")),
        bm.CogsGiven("Cy", "Fay", 2, "submission", giver_had=14, audience=("Cy", "Fay"))]
    assert of_type(F, bm.NodeJump) == [bm.NodeJump("Bo", "R2", "M2", "no_garnets", 0, audience=("Bo",))]
    (problem,) = of_type(F, bm.SubmissionProblem)
    assert (problem.participant, problem.problem.field, problem.problem.value, problem.audience) == \
        ("Bo", "jump", "yes", ("Bo",))
    assert "no jump, nothing charged" in problem.problem.default
    assert of_type(F, bm.MeadowMove) == [
        bm.MeadowMove("Ann", "Team 1", "White", "Blue", 3, 2, "L2", "M2", audience=("Ann",)),
        bm.MeadowMove("Bo", "Team 1", "Black", "Black", 0, 3, "R2", "M2", audience=("Bo",)),
        bm.MeadowMove("Cy", "Team 2", "Red", "Blue", 1, 0, "L1", "L3", audience=("Cy",)),
        bm.MeadowMove("Dee", "Team 2", "Blue", "Blue", 1, 4, "R1", "M1", audience=("Dee",)),
        bm.MeadowMove("Eli", "Team 3", "Green", "Green", 2, 1, "L1", "M1", audience=("Eli",)),
        bm.MeadowMove("Fay", "Team 3", "Green", "Green", 0, 0, "R5", "R3", submitted=False, random_node=True,
                      audience=("Fay",))]
    assert of_type(F, bm.SelfSabotage) == [bm.SelfSabotage("Ann", "Team 1", "L5", 2, audience=t1)]
    assert of_type(F, bm.MeadowPosition) == [bm.MeadowPosition(p, md) for p, md in (
        ("Ann", "Blue"), ("Bo", "Black"), ("Cy", "Blue"), ("Dee", "Blue"), ("Eli", "Green"), ("Fay", "Green"))]
    # "show the calculation": every meadow's bids and why each lost, for the host alone (R66, R67)
    assert of_type(F, bm.MeadowAuction) == [
        bm.MeadowAuction("Blue", 3, (bm.MeadowBid("Ann", 3, 2, "won", c("Blue", 5)),
                                     bm.MeadowBid("Cy", 1, 0, "not unique", X),
                                     bm.MeadowBid("Dee", 1, 4, "not unique", X)), "Ann", c("Blue", 5),
                         audience=HOST_ONLY),
        bm.MeadowAuction("Black", 1, (bm.MeadowBid("Bo", 0, 3, "won", c("Black", 4)),), "Bo", c("Black", 4),
                         audience=HOST_ONLY),
        bm.MeadowAuction("Green", 2, (bm.MeadowBid("Eli", 2, 1, "won", c("Green", 3)),
                                      bm.MeadowBid("Fay", 0, 0, "outbid", X)), "Eli", c("Green", 3),
                         audience=HOST_ONLY)]
    assert of_type(F, bm.PartInstalled) == [
        bm.PartInstalled("Ann", "Team 1", "M2", c("Blue", 5), audience=t1),
        bm.PartInstalled("Bo", "Team 1", "M2", c("Black", 4), audience=t1),
        bm.PartInstalled("Cy", "Team 2", "L3", X, audience=t2),
        bm.PartInstalled("Dee", "Team 2", "M1", X, audience=t2),
        bm.PartInstalled("Eli", "Team 3", "M1", c("Green", 3), audience=t3),
        bm.PartInstalled("Fay", "Team 3", "R3", X, audience=t3)]
    assert of_type(F, bm.NodeInstalls) == [
        bm.NodeInstalls("Team 1", "M2", None, (c("Black", 4), c("Blue", 5)), ("Bo", "Ann"), c("Blue", 5), audience=t1),
        bm.NodeInstalls("Team 2", "L3", None, (X,), ("Cy",), X, audience=t2),
        bm.NodeInstalls("Team 2", "M1", None, (X,), ("Dee",), X, audience=t2),
        bm.NodeInstalls("Team 3", "M1", None, (c("Green", 3),), ("Eli",), c("Green", 3), audience=t3),
        bm.NodeInstalls("Team 3", "R3", None, (X,), ("Fay",), X, audience=t3)]
    # moves along connectors in round 2 (A8): free ones are no longer excellent; Fay's forced move counts
    assert of_type(F, bm.ConnectorTraversed) == [
        bm.ConnectorTraversed("Team 1", "Ann", "L2", "M2", "free", audience=t1),
        bm.ConnectorTraversed("Team 1", "Bo", "R2", "M2", "free", audience=t1),
        bm.ConnectorTraversed("Team 2", "Cy", "L1", "L3", "free", audience=t2),
        bm.ConnectorTraversed("Team 2", "Dee", "R1", "M1", "greater", audience=t2),
        bm.ConnectorTraversed("Team 3", "Eli", "L1", "M1", "allies", audience=t3),
        bm.ConnectorTraversed("Team 3", "Fay", "R5", "R3", "free", audience=t3)]
    # after the host's trade, what the checks used (A16): only Cy and Dee differ from before
    assert of_type(F, bm.CogsNow) == [bm.CogsNow(p, b, a, t, audience=(p,)) for p, b, t, a in (
        ("Ann", 12, 12, 9), ("Bo", 12, 12, 9), ("Cy", 12, 15, 12), ("Dee", 12, 9, 8), ("Eli", 11, 11, 8),
        ("Fay", 12, 12, 14))]
    assert m.state["cogs"] == {"Ann": 9, "Bo": 9, "Cy": 12, "Dee": 8, "Eli": 8, "Fay": 14}
    # each team's machine after the round (R63): its parts, the connectors with both ends filled, and the
    # points if the game ended now. Team 1: M2 Blue 5 - L2 White 1 and M2 - R2 Black 1 are free but used:
    # working, 1 each = 2. Team 2: every filled node touches a faulty or empty one: 0. Team 3: M1 Green 3 -
    # L1 Green 2 allies, same colour: only working (A14) = 1.
    now = {f.team: f for f in of_type(F, bm.MachineNow)}
    assert [f.audience for f in now.values()] == [t1, t2, t3]
    assert {t: {n.node: n.part for n in f.nodes if n.part} for t, f in now.items()} == {
        "Team 1": {"L2": c("White", 1), "M2": c("Blue", 5), "R2": c("Black", 1), "L5": X},
        "Team 2": {"L1": c("Red", 1), "R1": c("Blue", 1), "L3": X, "M1": X},
        "Team 3": {"L1": c("Green", 2), "M1": c("Green", 3), "R3": X, "R5": X}}
    assert {t: {(k.a, k.b): (k.status, k.points, k.traversed) for k in f.connectors if k.status != "waiting"}
            for t, f in now.items()} == {
        "Team 1": {("M2", "L2"): ("working", 1, True), ("M2", "R2"): ("working", 1, True),
                   ("L3", "L5"): ("dead", 0, False)},
        "Team 2": {("M1", "L1"): ("dead", 0, False), ("L1", "L3"): ("dead", 0, True), ("L2", "L3"): ("dead", 0, False),
                   ("L3", "L4"): ("dead", 0, False), ("L3", "L5"): ("dead", 0, False), ("M1", "R1"): ("dead", 0, True)},
        "Team 3": {("M1", "L1"): ("working", 1, True), ("M3", "R3"): ("dead", 0, False),
                   ("R2", "R3"): ("dead", 0, False), ("R3", "R5"): ("dead", 0, True)}}
    assert {t: f.points_if_ended for t, f in now.items()} == {"Team 1": 2, "Team 2": 0, "Team 3": 1}
    # nothing else was emitted, and the round stays open for round 3
    assert Counter(type(f).__name__ for f in F) == Counter(
        CogsGiven=2, NodeJump=1, SubmissionProblem=1, MeadowMove=6, SelfSabotage=1, MeadowPosition=6, MeadowAuction=3,
        PartInstalled=6, NodeInstalls=5, ConnectorTraversed=6, CogsNow=6, MachineNow=3)
    assert not rec.ledger and m.state["round"] == 3


def test_the_reports_say_what_the_facts_say():
    m = start()
    rec = m.resolve({"Ann": turn("Blue", 3, 2, "L1"), "Bo": turn("Blue", 1, 4, "R1"),
                     "Cy": turn("Blue", 1, 0, "L3"), "Dee": turn("Red", 0, 0, "R2")})
    ann = rec.private["Ann"].blocks
    assert ann[0].title == "Round 1: you" and ann[0].lines == (
        "You moved to the Blue Meadow, bid 3 and powered up 2.",
        "You won the part: Blue 5, installed on L1; you paid 3 + 2 cogs.",
        "Cogs: 12 before the round, 7 now.")
    assert ann[1].lines == ("Ann installed Blue 5 on L1; the node now holds Blue 5.",
                            "Bo installed faulty on R1; the node now holds faulty.",
                            "Nobody on your team sabotaged this round.")
    assert text(rec.private["Bo"]).count("You did not win the part: a faulty part was installed on R1; "
                                         "you paid your bid of 1.") == 1
    # no ruling number in anything a participant or the public reads
    for rep in [rec.public, *rec.private.values()]:
        assert not re.search(r"\([RAV]\d|\boption ", text(rep))


def test_no_submission_is_told_without_a_ruling_number():
    m = _round_two()
    rec = m.resolve({})
    assert "You did not submit: you stayed, bid 0 and powered up 0." in rec.private["Ann"].blocks[0].lines
    (mv,) = [f for f in rec.facts if isinstance(f, bm.MeadowMove) and f.participant == "Ann"]
    assert not mv.submitted and mv.random_node and mv.node in ("L1", "L2")


# ------------------------------------------------------------------ the docs page and the fact types

def test_the_docs_page_lists_every_host_option_and_fact():
    from conftest import ROOT
    page = (ROOT / "docs" / "games" / "big-machine.md").read_text(encoding="utf-8")
    for opt in bm.SPEC.options:
        assert f"| `{opt.name}` | " in page, opt.name
    from sheetbridge.core.facts import Fact
    for name in dir(bm):
        obj = getattr(bm, name)
        if isinstance(obj, type) and issubclass(obj, Fact) and obj is not Fact:
            assert f"| `{name}` |" in page, name


def test_facts_read_back_as_this_games_types():
    # Three Modular Rooms has a SubmissionProblem too: a record must still read back the Big Machine's.
    from sheetbridge.core.types import from_json, to_json
    from sheetbridge.games import three_modular_rooms as tmr
    prob = Problem(ProblemKind.MISSING, "Ann", "node", "", "L1, L2", "no install node", "a random node")
    mine = bm.SubmissionProblem("Ann", prob, audience=("Ann",))
    assert type(from_json(to_json(mine))) is bm.SubmissionProblem
    assert type(from_json(to_json(tmr.SubmissionProblem("Ann", prob)))) is tmr.SubmissionProblem
