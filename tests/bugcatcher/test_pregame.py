"""Bugcatcher: the pregame (R16-R26, A26-A30)."""
from sheetbridge.api import new_match
from sheetbridge.core.facts import of_type
from sheetbridge.core.types import ProblemKind
from sheetbridge.games import bugcatcher as bc

from .helpers import tables


# ------------------------------------------------------------------ pregame (R16-R26, A26-A30)

def test_pregame_passes_and_bid_tiebreak():
    # Pass 1: X wanted by a (bid 1) and b (bid 0) -> a; Y -> c. Pass 2: b's 2nd choice W -> b.
    got, how, contested, log = bc.assign_nodes({"a": ["X", "Z"], "b": ["X", "W"], "c": ["Y"]},
                                               {"a": 1, "b": 0, "c": 0}, ["W", "X", "Y", "Z"],
                                               bc.Rng(1), "strict", "central")
    assert got == {"a": "X", "b": "W", "c": "Y"}
    assert how["b"] == "your 2nd choice" and contested == {"a", "b"}


def test_pregame_strict_taken_entry_means_no_claim_then_fallback():
    # A27: a (bid 2), d (bid 1) and b (bid 0) want X; a wins. c gets Y. Pass 2: b's Y is taken
    # (no claim), d gets W. Pass 3: b's W is taken. b's list is used up: random free coordinate.
    got, how, _, log = bc.assign_nodes({"a": ["X"], "b": ["X", "Y", "W"], "c": ["Y"], "d": ["X", "W"]},
                                       {"a": 2, "b": 0, "c": 0, "d": 1}, ["V", "W", "X", "Y", "Z"],
                                       bc.Rng(5), "strict", "central")
    assert got["a"] == "X" and got["c"] == "Y" and got["d"] == "W"
    assert got["b"] in ("V", "Z") and "random free" in how["b"]


def test_pregame_equal_bids_seeded_draw():
    # R25(2): equal bids -> a seeded draw; the loser takes its 2nd choice in pass 2.
    lists = {"a": ["X", "A"], "b": ["X", "B"]}
    r1 = bc.assign_nodes(lists, {"a": 0, "b": 0}, ["A", "B", "X"], bc.Rng(7), "strict", "central")
    r2 = bc.assign_nodes(lists, {"a": 0, "b": 0}, ["A", "B", "X"], bc.Rng(7), "strict", "central")
    assert r1[0] == r2[0]
    winner = [p for p in "ab" if r1[0][p] == "X"]
    assert len(winner) == 1
    loser = "b" if winner == ["a"] else "a"
    assert r1[0][loser] == loser.upper()
    assert any("seeded draw" in line for line in r1[3])


def test_pregame_end_to_end_bids_aliases_and_ledger():
    m = new_match("bugcatcher", ["Ann", "Bo", "Cy"], seed=3, tables=tables(), garnets={"Ann": 3, "Bo": 2, "Cy": 5})
    raw = {
        # Ann: bids 2 + 5 with 3 garnets -> central 2, border capped at 3 - 2 = 1 (E-P5)
        "Ann": {"central": [{"cell": "C3"}], "border": [{"cell": "C1", "corner": "bottom right"},
                                                         {"cell": "D2", "corner": "upper left"}],
                "bids": [{"central_bid": "2", "border_bid": "5"}]},
        # Bo wants C3 too (bid 1 < 2): gets B2; border: D2 upper left = Ann's point, so G1 and "seven"
        "Bo": {"central": [{"cell": "C3"}, {"cell": "B2"}],
               "border": [{"cell": "G1", "corner": "upper left"}, {"cell": "seven"}, {"cell": "F5", "corner": "bottom right"}],
               "bids": [{"central_bid": "1", "border_bid": "-4"}]},
        "Cy": None,
    }
    sub = m.parse("Ann", raw["Ann"])
    assert any(p.field == "border 2nd" and p.reason == "the same point as your 1st choice"   # alias
               for p in sub.problems)                                                        # duplicate, E-P3
    sub = m.parse("Bo", raw["Bo"])
    fields = {p.field: p for p in sub.problems}
    assert fields["border 1st"].kind is ProblemKind.ILLEGAL and fields["border 2nd"].kind is ProblemKind.SYNTAX
    assert fields["border_bid"].default == "bid 0"
    rec = m.resolve(raw)
    cols, rows = 6, 5
    assert bc.fine_label(m.state["nodes"]["Ann"]["C"], cols, rows) == "C3"
    assert bc.fine_label(m.state["nodes"]["Bo"]["C"], cols, rows) == "B2"   # 2nd choice in pass 2
    assert bc.fine_label(m.state["nodes"]["Ann"]["B"], cols, rows) == "C1 bottom right"
    assert bc.fine_label(m.state["nodes"]["Bo"]["B"], cols, rows) == "F5 bottom right"
    assert sorted((r.player, r.change, r.reason) for r in rec.ledger) == [
        ("Ann", -2, "PREGAME_BID_CENTRAL"), ("Ann", -1, "PREGAME_BID_BORDER"), ("Bo", -1, "PREGAME_BID_CENTRAL")]
    assert "random free" in rec.private["Cy"].text()          # E-P4
    # The pregame as data. Central pass 1: C3 wanted by Ann (bid 2) and Bo (bid 1): Ann by bid. Bo's
    # 2nd choice B2 in pass 2 alone. Cy listed nothing: a seeded draw among the free cells (A27).
    passes = {(f.list, f.pass_no, f.coordinate): f for f in of_type(rec.facts, bc.PriorityPass)}
    c3 = passes[("central", 1, "C3")]
    assert (c3.winner, c3.decided_by, c3.claimants) == ("Ann", "bid", (bc.PriorityClaim("Ann", 1, 2),
                                                                         bc.PriorityClaim("Bo", 1, 1)))
    assert passes[("central", 2, "B2")].decided_by == "alone"
    assert {(f.list, f.player) for f in of_type(rec.facts, bc.PriorityFallback)} == {("central", "Cy"),
                                                                                      ("border", "Cy")}
    assert all(f.audience == () for f in of_type(rec.facts, bc.PriorityPass, bc.PriorityFallback))
    starts = {(f.player, f.node): (f.label, f.choice, f.colour) for f in of_type(rec.facts, bc.StartingNode)}
    assert starts[("Bo", "central")] == ("B2", 2, "black") and starts[("Ann", "border")] == ("C1 bottom right", 1, "blue")
    assert starts[("Bo", "border")] == ("F5 bottom right", 3, "blue") and starts[("Cy", "central")][1] == 0
    bids = {(f.player, f.list): (f.wanted, f.bid, f.charged) for f in of_type(rec.facts, bc.PriorityBid)}
    assert bids[("Ann", "border")] == (5, 1, 1) and bids[("Bo", "border")] == (0, 0, 0)
    assert "capped at 2 and 1" in rec.private["Ann"].text()
    # The public board: six starting nodes, unowned, in Round 1's colours (R26, R11).
    marks = of_type(rec.facts, bc.NodeMarker)
    assert len(marks) == 6 and all(not hasattr(f, "player") and f.audience == ("*",) for f in marks)
    assert {f.colour for f in marks if f.node == "central"} == {"black"}
    assert m.state["border_colour"] == {"Ann": "blue", "Bo": "blue", "Cy": "blue"}   # R11


def test_bids_charged_only_if_contested_option():
    m = new_match("bugcatcher", ["Ann", "Bo"], seed=3, tables=tables(), garnets={"Ann": 3, "Bo": 3},
                  options={"bid_charge": "only_if_contested"})
    rec = m.resolve({"Ann": {"central": [{"cell": "C3"}], "border": [{"cell": "A1", "corner": "upper left"}],
                             "bids": [{"central_bid": "2", "border_bid": "2"}]},
                     "Bo": {"central": [{"cell": "C3"}, {"cell": "D3"}], "border": [{"cell": "F5", "corner": "bottom right"}],
                            "bids": [{"central_bid": "0", "border_bid": "1"}]}})
    # only the central list was contested: Ann pays 2; nobody pays for the border list
    assert [(r.player, r.change) for r in rec.ledger] == [("Ann", -2)]
