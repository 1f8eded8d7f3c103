"""The Big Machine: bad input."""
from sheetbridge.api import new_match
from sheetbridge.core.types import ProblemKind
from sheetbridge.games import big_machine as bm

from .helpers import ROSTER, _round_two, parts, start, text, turn


# ------------------------------------------------------------------ bad input

def test_bid_plus_power_above_cogs_means_bid_0_and_power_0():
    m = start()
    rec = m.resolve({"Ann": turn("White", 10, 5, "L1"), "Bo": turn("Blue", 0, 0, "R1"),
                     "Cy": turn("Red", 0, 0, "L1"), "Dee": turn("Green", 0, 0, "R1")})
    t = text(rec.private["Ann"])
    # the message names the player, the field, the value, what is allowed and the default
    assert "Problem: Bid + power-up = '10 + 5'" in t and "at most 12 in total" in t
    assert "applied: bid 0 and power-up 0" in t
    # alone in White with bid 0 she still wins: White 1 + 0 = 1, nothing paid
    assert parts(m, "Team 1")["L1"] == {"color": "White", "power": 1}
    assert m.state["cogs"]["Ann"] == 12


def test_overspend_clamp_option_lowers_power_then_bid():
    m = start(options={"overspend": "clamp"})
    m.resolve({"Ann": turn("White", 10, 5, "L1"), "Bo": turn("Blue", 0, 0, "R1"),
               "Cy": turn("Red", 0, 0, "L1"), "Dee": turn("Green", 0, 0, "R1")})
    # cap 12: power-up 5 -> 2, bid 10 kept; alone: White 1 + 2 = 3; 12 - 10 - 2 = 0
    assert parts(m, "Team 1")["L1"] == {"color": "White", "power": 3}
    assert m.state["cogs"]["Ann"] == 0


def test_sabotage_cogs_usable_the_same_round():
    m = start()
    # cap 12 + 2 = 14: bid 10 + power 4 is allowed (R19, R26, A6)
    m.resolve({"Ann": turn("White", 10, 4, "L1", sabotage="L5"), "Bo": turn("Blue", 0, 0, "R1"),
               "Cy": turn("Red", 0, 0, "L1"), "Dee": turn("Green", 0, 0, "R1")})
    assert parts(m, "Team 1")["L5"] == "faulty"
    assert parts(m, "Team 1")["L1"] == {"color": "White", "power": 5}  # 1 person + 4
    assert m.state["cogs"]["Ann"] == 12 + 2 - 10 - 4


def test_both_teammates_sabotage_the_same_node():
    m = start()
    m.resolve({"Ann": turn("White", 0, 0, "L1", sabotage="M3"), "Bo": turn("Blue", 0, 0, "R1", sabotage="M3"),
               "Cy": turn("Red", 0, 0, "L1"), "Dee": turn("Green", 0, 0, "R1")})
    assert parts(m, "Team 1")["M3"] == "faulty"                  # R28
    assert m.state["cogs"]["Ann"] == 14 and m.state["cogs"]["Bo"] == 14


def test_sabotage_on_a_node_that_is_not_empty():
    m = start()
    m.resolve({"Ann": turn("White", 0, 0, "L1"), "Bo": turn("Blue", 0, 0, "R1"),
               "Cy": turn("Red", 0, 0, "L1"), "Dee": turn("Green", 0, 0, "R1")})
    sub = m.parse("Ann", turn("White", 0, 0, "L2", sabotage="L1"))
    prob = next(p for p in sub.problems if p.field == "sabotage")
    assert prob.kind is ProblemKind.ILLEGAL and prob.player == "Ann" and prob.value == "L1"
    assert "not empty" in prob.reason and "no sabotage, no cogs" in prob.default
    assert "L1" not in prob.allowed.split(", ")
    assert "sabotage" not in sub.values
    # and the cap is then checked without the +2 (V6): 12 + 1 > 12
    rec = m.resolve({"Ann": turn("White", 12, 1, "L2", sabotage="L1"), "Bo": turn("Blue", 0, 0, "R2"),
                     "Cy": turn("Red", 0, 0, "M1"), "Dee": turn("Green", 0, 0, "M1")})
    assert m.state["cogs"]["Ann"] == 12 and "applied: bid 0 and power-up 0" in text(rec.private["Ann"])


def test_two_sabotage_nodes_are_ignored():
    m = start()
    sub = m.parse("Ann", turn("White", 0, 0, "L1", sabotage="L2, L3"))
    assert any(p.field == "sabotage" and "only one" in p.reason for p in sub.problems)
    assert "sabotage" not in sub.values


def test_unknown_meadow_stays():
    m = start()
    sub = m.parse("Cy", turn("Purple", 0, 0, "L1"))
    prob = next(p for p in sub.problems if p.field == "meadow")
    assert prob.player == "Cy" and prob.value == "Purple" and "White" in prob.allowed
    assert prob.default == "stay in the Red Meadow"
    m.resolve({"Cy": turn("Purple", 0, 0, "L1")})
    assert m.state["meadow"]["Cy"] == "Red"


def test_meadow_accepts_case_and_the_word_meadow():
    m = start()
    assert m.parse("Cy", turn("blue meadow", 0, 0, "L1")).values["meadow"] == "Blue"


def test_formula_and_unreadable_numbers_are_syntax_problems():
    m = start()
    sub = m.parse("Ann", turn("White", "=1+1", "seven", "L1"))
    kinds = {p.field: p for p in sub.problems}
    assert kinds["bid"].kind is ProblemKind.SYNTAX and kinds["bid"].default == "bid 0"
    assert kinds["power"].kind is ProblemKind.SYNTAX and kinds["power"].value == "seven"
    neg = m.parse("Ann", turn("White", "-3", "1.5", "L1"))
    assert {p.field for p in neg.problems} == {"bid", "power"}


def test_node_not_adjacent_without_jump_gets_a_random_neighbour():
    m = _round_two()
    sub = m.parse("Ann", turn("White", 0, 0, "R5"))
    prob = next(p for p in sub.problems if p.field == "node")
    assert prob.kind is ProblemKind.ILLEGAL and prob.player == "Ann" and prob.value == "R5"
    assert prob.allowed.startswith("L1, L2") and "random node joined to L4" in prob.default
    m.resolve({"Ann": turn("White", 0, 0, "R5")})
    assert m.state["prev"]["Ann"] in ("L1", "L2")
    # the previous node itself is not allowed either (R22)
    again = m.parse("Ann", turn("White", 0, 0, m.state["prev"]["Ann"]))
    assert any("previous node" in p.reason for p in again.problems)


def test_jump_without_5_garnets_is_void_and_not_charged():
    m = _round_two(garnets={"Ann": 3, "Bo": 0, "Cy": 0, "Dee": 0})
    rec = m.resolve({"Ann": turn("White", 0, 0, "R5", jump="yes")})
    t = text(rec.private["Ann"])
    assert "Problem: Jump (5 garnets) = 'yes'" in t and "at least 5 garnets" in t and "you have 3" in t
    assert not [r for r in rec.ledger if r.player == "Ann"]
    assert m.state["prev"]["Ann"] in ("L1", "L2")  # then checked as if no jump: random neighbour


def test_jump_with_garnets_goes_anywhere_and_costs_5():
    m = _round_two(garnets={"Ann": 10, "Bo": 0, "Cy": 0, "Dee": 0})
    rec = m.resolve({"Ann": turn("White", 0, 0, "R5", jump="yes"), "Bo": turn("Blue", 0, 0, "R1"),
                     "Cy": turn("Red", 0, 0, "M1"), "Dee": turn("Green", 0, 0, "M1")})
    assert [(r.player, r.change) for r in rec.ledger] == [("Ann", -5)]
    assert m.state["prev"]["Ann"] == "R5" and parts(m, "Team 1")["R5"] == {"color": "White", "power": 1}
    assert m.ledger.balance("Ann") == 5


def test_jump_in_round_one_is_void():
    m = start()
    sub = m.parse("Ann", turn("White", 0, 0, "L1", jump="yes"))
    assert any(p.field == "jump" and p.kind is ProblemKind.ILLEGAL for p in sub.problems)
    assert sub.values["jump"] is False


def test_no_submission_stays_bids_0_and_takes_a_random_neighbour():
    m = _round_two()
    rec = m.resolve({})
    assert m.state["meadow"]["Ann"] == "White" and m.state["cogs"]["Ann"] == 12
    assert m.state["prev"]["Ann"] in ("L1", "L2")
    assert "You did not submit" in text(rec.private["Ann"])
    assert any(line.startswith("Ann: random install node") for line in rec.host_log)


def test_round_zero_missing_meadow_is_random_and_logged():
    m = new_match("big-machine", ROSTER, seed=3)
    rec = m.resolve({"Ann": {"start": [{"meadow": "Teal"}]}})
    assert all(m.state["start"][p] in bm.MEADOWS for p in ROSTER)
    assert "Problem: Starting meadow = 'Teal'" in text(rec.private["Ann"])
    assert any("random starting meadow" in line for line in rec.host_log)
