"""Rules tests for The Big Machine, outcomes computed by hand from the ruleset text.

R and A numbers refer to the team's rulings (shared/rulings/big_machine.md). The default
content (templates/big-machine) is used unless a test builds its own tables; the
half diagrams the tests rely on are copied below so a reader can check the arithmetic:

White half (left side; the right side mirrors it, own nodes prefixed L / R):
    M1-1 allies, M2-2 free, M3-3 allies, 1-2 ">" (1 greater), 2-3 "<" (3 greater),
    1-4 free, 3-5 free, 4-2 enemies.
Colour wheel (M2): allies W-U, U-B, B-R, R-G, G-W; enemies W-B, W-R, U-R, U-G, B-G.
"""
import copy
import json
import re
from collections import Counter

import pytest

from sheetbridge.api import load_match, match_from_position, new_match
from sheetbridge.core.errors import ConfigError, PositionError
from sheetbridge.core.facts import HOST_ONLY, PUBLIC, of_type, visible
from sheetbridge.core.picture import Dot, Label
from sheetbridge.core.rng import Rng
from sheetbridge.core.types import Problem, ProblemKind
from sheetbridge.games import big_machine as bm

ROSTER = ["Ann", "Bo", "Cy", "Dee"]  # default pairing: Team 1 = Ann (player) + Bo (guest), Team 2 = Cy + Dee


def start(meadows=("White", "White", "Red", "Blue"), garnets=None, options=None, players=ROSTER, tables=None):
    """A match after meadow selection (round 0), round 1 open."""
    m = new_match("big-machine", players, seed=5, garnets=garnets or {p: 0 for p in players},
                  options=options, tables=tables)
    m.resolve({p: {"start": [{"meadow": md}]} for p, md in zip(players, meadows)})
    assert m.state["round"] == 1
    return m


def turn(meadow="", bid="", power="", node="", sabotage="", jump="", give=()):
    row = {"meadow": meadow, "bid": str(bid), "power": str(power), "node": node, "sabotage": sabotage,
           "jump": jump}
    gifts = [{"to": t, "cogs": str(n)} for t, n in give] + [{"to": "", "cogs": ""}] * 2
    return {"turn": [row], "give": gifts[:2]}


def parts(m, team):
    return m.state["machines"][team]["parts"]


def text(report):
    return report.text()


# ------------------------------------------------------------------ teams and setup

def test_default_pairing_in_roster_order_and_machines_from_halves():
    m = start()
    st = m.state
    assert [(t["player"], t["guest"]) for t in st["teams"]] == [("Ann", "Bo"), ("Cy", "Dee")]
    assert st["role"]["Ann"] == "player" and st["role"]["Bo"] == "guest"
    # R4, R5: Team 2 = Cy's Red left half + Dee's Blue right half, sharing M1-M3.
    t2 = st["machines"]["Team 2"]
    assert (t2["left"], t2["right"]) == ("Red", "Blue")
    # 5 own nodes per half + 3 shared middle nodes = 13, every node empty (R6)
    assert len(t2["nodes"]) == 13 and all(v is None for v in t2["parts"].values())
    assert sorted(n for n in t2["nodes"] if n.startswith("M")) == ["M1", "M2", "M3"]
    # 8 connectors per default half, none between middle nodes: 16
    assert len(t2["connectors"]) == 16
    assert st["cogs"] == {p: 12 for p in ROSTER}  # R11


def test_teams_option_names_pairs_player_first():
    m = new_match("big-machine", ROSTER, seed=1, options={"teams": "Cy+Ann; Dee+Bo"})
    assert [(t["player"], t["guest"]) for t in m.state["teams"]] == [("Cy", "Ann"), ("Dee", "Bo")]
    assert m.game.viewers(m.state, "Ann") == ("Cy", "Ann")


def test_teams_option_errors_and_odd_roster():
    with pytest.raises(ConfigError, match="Zed"):
        new_match("big-machine", ROSTER, seed=1, options={"teams": "Zed+Ann"})
    with pytest.raises(ConfigError, match="twice"):
        new_match("big-machine", ROSTER, seed=1, options={"teams": "Ann+Bo; Ann+Cy"})
    with pytest.raises(ConfigError, match="even"):
        new_match("big-machine", ["Ann", "Bo", "Cy", "Dee", "Eli"], seed=1)


def test_viewers_is_the_team():
    m = start()
    assert m.game.viewers(m.state, "Bo") == ("Ann", "Bo")
    assert m.game.viewers(m.state, "Cy") == ("Cy", "Dee")


# ------------------------------------------------------------------ auctions

def test_rulesets_example_three_in_blue_power_up_2_gives_blue_5():
    m = start()
    rec = m.resolve({
        "Ann": turn("Blue", 3, 2, "L1"),   # the unique highest bid
        "Bo": turn("Blue", 1, 4, "R1"),    # ties with Cy: loses, power-up not charged
        "Cy": turn("Blue", 1, 0, "L3"),
        "Dee": turn("Red", 0, 0, "R2"),    # alone in Red: wins with 0
    })
    # R36: 3 people in the Blue Meadow + 2 power-up = 5, colour Blue (R35)
    assert parts(m, "Team 1")["L1"] == {"color": "Blue", "power": 5}
    assert parts(m, "Team 1")["R1"] == "faulty"           # R38
    assert parts(m, "Team 2")["L3"] == "faulty"
    # A23: a lone participant wins even with 0: Red, 1 person + 0
    assert parts(m, "Team 2")["R2"] == {"color": "Red", "power": 1}
    # R39, R40: 12 - 3 - 2 = 7; 12 - 1 = 11 (power-up 4 not taken); 11; 12
    assert m.state["cogs"] == {"Ann": 7, "Bo": 11, "Cy": 11, "Dee": 12}
    assert "You won the part: Blue 5, installed on L1" in text(rec.private["Ann"])
    assert "You did not win the part" in text(rec.private["Bo"])


@pytest.mark.parametrize("bids, winner", [
    ({"a": 5, "b": 5, "c": 3}, "c"),                    # tied top ignored
    ({"a": 5, "b": 5, "c": 3, "d": 3, "e": 1}, "e"),    # the rulings' A23 example
    ({"a": 2, "b": 2, "c": 0}, "c"),                    # a winning bid of 0 (R33)
    ({"a": 4, "b": 4, "c": 2, "d": 2}, None),           # nobody wins (R34)
    ({"a": 0}, "a"),                                    # alone, bidding 0
    ({"a": 0, "b": 0}, None),
    ({"a": 7, "b": 1, "c": 7, "d": 1, "e": 7, "f": 6}, "f"),
])
def test_highest_unique_bid(bids, winner):
    assert bm.highest_unique_bid(bids) == winner


def test_winning_bid_of_zero_end_to_end():
    m = start()
    # Blue: Ann 2, Bo 2, Cy 0 -> 2 is tied, 0 is unique: Cy wins Blue 3 + 1 = 4
    m.resolve({"Ann": turn("Blue", 2, 0, "L1"), "Bo": turn("Blue", 2, 0, "R1"),
               "Cy": turn("Blue", 0, 1, "L1"), "Dee": turn("Green", 5, 0, "R1")})
    assert parts(m, "Team 2")["L1"] == {"color": "Blue", "power": 4}
    assert m.state["cogs"]["Cy"] == 12 - 0 - 1
    # Dee alone in Green with bid 5: Green 1 + 0 = 1; both bids of 2 are taken (R39)
    assert parts(m, "Team 2")["R1"] == {"color": "Green", "power": 1}
    assert m.state["cogs"]["Ann"] == 10 and m.state["cogs"]["Bo"] == 10 and m.state["cogs"]["Dee"] == 7


def test_nobody_wins_everyone_installs_faulty_by_default_or_nothing_by_option():
    subs = {"Ann": turn("Red", 3, 0, "L1"), "Bo": turn("Red", 3, 0, "R1"),
            "Cy": turn("Red", 1, 0, "L1"), "Dee": turn("Red", 1, 0, "R1")}
    m = start()
    m.resolve(subs)
    assert parts(m, "Team 1")["L1"] == "faulty" and parts(m, "Team 2")["R1"] == "faulty"   # A3
    assert m.state["cogs"] == {"Ann": 9, "Bo": 9, "Cy": 11, "Dee": 11}                       # R39
    m = start(options={"no_winner": "nothing"})
    m.resolve(subs)
    assert parts(m, "Team 1")["L1"] is None and parts(m, "Team 2")["R1"] is None


# ------------------------------------------------------------------ installing

@pytest.mark.parametrize("current, incoming, result", [
    (None, [{"color": "Red", "power": 3}], {"color": "Red", "power": 3}),                         # R41
    ({"color": "Red", "power": 3}, [{"color": "Blue", "power": 4}], {"color": "Blue", "power": 4}),  # R42
    ({"color": "Red", "power": 3}, [{"color": "Blue", "power": 3}], "faulty"),                    # R43 equal
    ({"color": "Red", "power": 3}, [{"color": "Blue", "power": 2}], "faulty"),                    # R43 less
    ({"color": "Red", "power": 3}, ["faulty"], "faulty"),                                         # R44
    ("faulty", [{"color": "Blue", "power": 9}], "faulty"),                                        # R45
    (None, ["faulty"], "faulty"),
    # R46, A4: a=2 then b=5 on an empty node: 2 occupies, 5 > 2 replaces
    (None, [{"color": "Blue", "power": 5}, {"color": "Red", "power": 2}], {"color": "Blue", "power": 5}),
    # on a node holding 3: the lower 2 goes first and ruins it, even though 5 > 3
    ({"color": "Green", "power": 3}, [{"color": "Blue", "power": 5}, {"color": "Red", "power": 2}], "faulty"),
    # a=4 > P=3, then b=5 > 4
    ({"color": "Green", "power": 3}, [{"color": "Blue", "power": 5}, {"color": "Red", "power": 4}],
     {"color": "Blue", "power": 5}),
    # R47: equal powers ruin the node in any order
    (None, [{"color": "Blue", "power": 4}, {"color": "Red", "power": 4}], "faulty"),
    # A4: a faulty part goes in first, so the pair leaves the node faulty
    (None, [{"color": "Blue", "power": 4}, "faulty"], "faulty"),
])
def test_install_rules(current, incoming, result):
    assert bm.install_all(current, incoming) == result


def test_teammates_on_one_node_lesser_power_first():
    m = start()
    # Ann alone in White: White 1 + 3 = 4; Bo alone in Blue: Blue 1 + 1 = 2; both on M2.
    # Ascending: Blue 2 occupies the empty node, then White 4 > 2 replaces it (R46).
    m.resolve({"Ann": turn("White", 0, 3, "M2"), "Bo": turn("Blue", 0, 1, "M2"),
               "Cy": turn("Red", 0, 0, "L1"), "Dee": turn("Green", 0, 0, "R1")})
    assert parts(m, "Team 1")["M2"] == {"color": "White", "power": 4}


def test_round_one_allows_any_node_and_later_rounds_need_adjacency():
    m = start()
    form = m.form("Ann")
    node = form.section("turn").fields[3]
    assert node.name == "node" and len(node.choices) == 13
    m.resolve({"Ann": turn("White", 0, 0, "L4"), "Bo": turn("Blue", 0, 0, "R5"),
               "Cy": turn("Red", 0, 0, "M2"), "Dee": turn("Green", 0, 0, "M2")})
    # White half: L4 is joined to L1 (free) and L2 (enemies)
    assert bm.neighbours(m.state["machines"]["Team 1"], "L4") == ["L1", "L2"]
    assert "L1, L2" in " ".join(m.form("Ann").help)


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


def _round_two(garnets=None, options=None):
    """Round 1 played with Ann on L4 (White half: joined to L1 and L2), round 2 open."""
    m = start(garnets=garnets, options=options)
    m.resolve({"Ann": turn("White", 0, 0, "L4"), "Bo": turn("Blue", 0, 0, "R4"),
               "Cy": turn("Red", 0, 0, "M2"), "Dee": turn("Green", 0, 0, "M2")})
    return m


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


# ------------------------------------------------------------------ free connectors (A8)

def test_moving_along_a_free_connector_breaks_it_but_a_jump_does_not():
    m = _round_two(garnets={"Ann": 10, "Bo": 5, "Cy": 0, "Dee": 0})
    # Ann: L4 -> L1 along the free connector L1-L4. Bo: R4 -> R1 by a jump: R1 is joined to R4
    # anyway, but the jump is charged and keeps the free connector intact (A7.4).
    m.resolve({"Ann": turn("White", 0, 0, "L1"), "Bo": turn("Blue", 0, 0, "R1", jump="yes"),
               "Cy": turn("Red", 0, 0, "M1"), "Dee": turn("Green", 0, 0, "M1")})
    mach = m.state["machines"]["Team 1"]
    assert bm.find_connector(mach, "L1", "L4")["used"] is True
    assert bm.find_connector(mach, "R1", "R4")["used"] is False
    assert m.ledger.balance("Bo") == 0


def test_adjacent_jump_free_move_option():
    m = _round_two(garnets={"Ann": 10, "Bo": 5, "Cy": 0, "Dee": 0}, options={"adjacent_jump": "free_move"})
    rec = m.resolve({"Bo": turn("Blue", 0, 0, "R1", jump="yes")})
    assert not rec.ledger and m.ledger.balance("Bo") == 5
    assert bm.find_connector(m.state["machines"]["Team 1"], "R1", "R4")["used"] is True


# ------------------------------------------------------------------ cog trades (R12, A16)

def test_gift_in_submission_after_the_auction_and_host_trade_before():
    tables = {k: [list(r) for r in v] for k, v in new_match("big-machine", ROSTER, seed=0).tables.items()}
    tables[bm.TRADES_TABLE] = [["Round", "From", "To", "Cogs"], ["1", "Cy", "Ann", "5"]]
    m = start(tables=tables)
    # Ann holds 12 + 5 = 17 after the host trade: bid 17 is allowed
    m.resolve({"Ann": turn("White", 17, 0, "L1"), "Bo": turn("Blue", 0, 0, "R1", give=[("Dee", 4)]),
               "Cy": turn("Red", 0, 0, "L1"), "Dee": turn("Green", 0, 0, "R1")})
    assert m.state["cogs"]["Ann"] == 0 and m.state["cogs"]["Cy"] == 7
    assert m.state["cogs"]["Bo"] == 8 and m.state["cogs"]["Dee"] == 16


def test_cogs_the_checks_used_after_the_host_trades_are_in_the_facts_and_the_host_log():
    """A16: "A trade recorded before the deadline counts for this round's validation; ... A trade
    that would overdraw the giver is rejected." V10/A17 (default overspend = zero): a bid + power-up
    above the cogs held makes both 0. Round 1, the host's table moves 10 cogs Dee -> Cy (both hold 12,
    R11). Cy: 12 + 10 = 22 after the trade, bid 15 allowed (it would not be against 12); paid: 22 - 15 = 7.
    Dee: 12 - 10 = 2 after the trade, bid 3 > 2: bid 0 and power-up 0, keeps 2. Ann and Bo: no trade,
    bid 0: 12 throughout."""
    tables = {k: [list(r) for r in v] for k, v in new_match("big-machine", ROSTER, seed=0).tables.items()}
    tables[bm.TRADES_TABLE] = [["Round", "From", "To", "Cogs"], ["1", "Dee", "Cy", "10"]]
    m = start(tables=tables)
    rec = m.resolve({"Ann": turn("White", 0, 0, "L1"), "Bo": turn("Blue", 0, 0, "R1"),
                     "Cy": turn("Red", 15, 0, "L1"), "Dee": turn("Green", 3, 0, "R1")})
    assert [(f.participant, f.before, f.after_trades, f.after) for f in of_type(rec.facts, bm.CogsNow)] == [
        ("Ann", 12, 12, 12), ("Bo", 12, 12, 12), ("Cy", 12, 22, 7), ("Dee", 12, 2, 2)]
    assert "Dee: bid 3 + power-up 0 = 3 is more than the 2 cogs held after this round's recorded trades: " \
           "bid 0 and power-up 0 (A16, A17)" in rec.host_log
    assert not [line for line in rec.host_log if line.startswith("Cy: bid")]
    assert "Cogs: 12 before the round, 2 after the recorded trades (what your bid and power-up were checked " \
           "against), 2 now." in text(rec.private["Dee"])
    assert "Cogs: 12 before the round, 12 now." in text(rec.private["Ann"])


def test_a_record_written_before_cogs_after_trades_still_replays_and_undoes():
    """Old records (CogsNow without after_trades) must load, and undo must replay them: the added
    field, absent from the old record, does not count as a different result."""
    m = start()
    m.resolve({"Ann": turn("White", 2, 0, "L1")})
    m.resolve({"Ann": turn("White", 1, 0, "L2")})
    data = json.loads(json.dumps(m.to_json()))
    for rnd in data["rounds"]:
        for f in rnd["facts"]:
            if f["__t"].endswith("CogsNow"):
                del f["after_trades"]
    old = load_match(data, list(m.ledger.rows))
    assert of_type(old.rounds[1].facts, bm.CogsNow)[0].after_trades is None
    old.undo()                                           # replays rounds 0 and 1 from the old record
    assert old.state["round"] == 2 and old.state["cogs"]["Ann"] == 10


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


# ------------------------------------------------------------------ information (R62-R69)

def test_information_model():
    m = start()
    rec = m.resolve({
        "Ann": turn("Blue", 3, 2, "L1", sabotage="L5"), "Bo": turn("Blue", 1, 4, "R1"),
        "Cy": turn("Blue", 1, 0, "L3"), "Dee": turn("Red", 0, 0, "R2")})
    # public: where everyone is, nothing else (no bids, winners, parts or sabotage) (R62, R66, R67)
    public = visible(rec.facts, None)
    assert {type(f) for f in public} == {bm.MeadowPosition}
    assert [(f.participant, f.meadow) for f in public] == [("Ann", "Blue"), ("Bo", "Blue"), ("Cy", "Blue"),
                                                           ("Dee", "Red")]
    pub = text(rec.public)
    for secret in ("bid", "won", "Blue 5", "sabot", "faulty", "cogs"):
        assert secret not in pub.lower() if secret.islower() else secret not in pub
    ann, bo, cy = (visible(rec.facts, p) for p in ("Ann", "Bo", "Cy"))
    # the team learns its machine, both installs and the sabotage (R63-R65)
    for mine in (ann, bo):
        assert [(f.participant, f.node, f.part) for f in of_type(mine, bm.PartInstalled)] == [
            ("Ann", "L1", bm.MachinePart("Blue", 5)), ("Bo", "R1", bm.FAULTY_PART)]
        assert [(f.participant, f.node) for f in of_type(mine, bm.SelfSabotage)] == [("Ann", "L5")]
        assert [f.team for f in of_type(mine, bm.MachineNow)] == ["Team 1"]
    for t in (text(rec.private["Ann"]), text(rec.private["Bo"])):
        assert "Ann installed Blue 5 on L1" in t and "Bo installed faulty on R1" in t and "Ann sabotaged L5." in t
    # own bid and cogs only to oneself (R67, A19); nothing of the other team; the auction to nobody
    assert [(f.participant, f.bid, f.power_up) for f in of_type(ann, bm.MeadowMove)] == [("Ann", 3, 2)]
    assert [(f.participant, f.before, f.after) for f in of_type(ann, bm.CogsNow)] == [("Ann", 12, 9)]
    assert [(f.participant, f.before, f.after) for f in of_type(bo, bm.CogsNow)] == [("Bo", 12, 11)]
    assert not of_type(ann + bo + cy, bm.MeadowAuction)
    assert not [f for f in ann + bo if getattr(f, "team", "Team 1") != "Team 1"]
    assert not [f for f in cy if getattr(f, "team", "Team 2") != "Team 2"]
    ann_t, cy_t = text(rec.private["Ann"]), text(rec.private["Cy"])
    assert "bid 3 and powered up 2" in ann_t and "bid 3" not in text(rec.private["Bo"])
    assert "Cy" not in ann_t and "Dee" not in ann_t and "Ann" not in cy_t
    # the other team's parts never appear: Dee's Red 1 is only in Team 2's reports
    assert "Red 1" not in ann_t and "Red 1" in cy_t


def test_share_notices_option_shows_the_teammates_block():
    m = start(options={"share_notices": "yes"})
    rec = m.resolve({"Ann": turn("Blue", 3, 2, "L1"), "Bo": turn("Blue", 1, 4, "R1")})
    assert "bid 3 and powered up 2" in text(rec.private["Bo"])


def test_public_board_is_a_grid_of_meadows_and_results_draw_the_machine():
    m = start()
    rec = m.resolve({"Ann": turn("Blue", 3, 2, "L1")})  # Dee stays in Blue: 2 people + 2 = Blue 4
    # the public round report gives the positions once, as the board of the five meadows (R62)
    (where,) = rec.public.blocks
    assert [c.text for c in where.grid[0]] == [f"{x} Meadow" for x in bm.MEADOWS]
    assert where.grid[0][1].fill == bm.COLOR_FILL["Blue"]
    # Bo stayed in White, Ann joined Dee in Blue, Cy stayed in Red
    assert [[c.text for c in row] for row in where.grid[1:]] == [["Bo", "Ann", "nobody", "Cy", "nobody"],
                                                                 ["", "Dee", "", "", ""]]
    assert not where.lines
    mach = next(b for b in rec.private["Ann"].blocks if b.grid)
    cells = {c.text: c for row in mach.grid for c in row}
    assert cells["L1: Blue 4"].fill == bm.COLOR_FILL["Blue"]
    assert cells["M2: empty"].fill == bm.EMPTY_FILL
    # a connector cell: L1-L2 is vertical with L1 greater, drawn "v"
    assert any(c.text == "|v" for c in cells.values())


# ------------------------------------------------------------------ content tables

def _tables():
    return {k: [list(r) for r in v] for k, v in new_match("big-machine", ROSTER, seed=0).tables.items()}


def test_default_tables_are_valid():
    assert bm.GAME.check_tables(_tables()) == []


def test_table_errors_say_what_is_wrong():
    t = _tables()
    t[bm.RELATION_TABLE] = [r for r in t[bm.RELATION_TABLE] if r[:2] != ["Blue", "Green"]]
    t[bm.RELATION_TABLE].append(["Black", "Blue", "allies"])  # Blue-Black is already there
    t[bm.NODES_TABLE].append(["White", "Both", "1", "3", "3"])  # doubled node
    t[bm.CONNECTORS_TABLE].append(["Green", "Both", "5", "9", "free"])  # unknown end
    t[bm.CONNECTORS_TABLE].append(["Red", "Left", "2", "5", "sideways"])
    probs = " ".join(bm.GAME.check_tables(t))
    assert "no row for Blue and Green" in probs
    assert "Black-Blue is listed twice" in probs or "Blue-Black is listed twice" in probs
    assert "node 1 of the White left half is listed twice" in probs
    assert "node 9 is not a node of the Green left half" in probs
    assert "Condition 'sideways'" in probs


def test_table_errors_conflicting_middle_connector_and_disconnected_machine():
    t = _tables()
    t[bm.CONNECTORS_TABLE].append(["White", "Both", "M1", "M2", "free"])
    t[bm.CONNECTORS_TABLE].append(["Blue", "Both", "M1", "M2", "allies"])
    probs = " ".join(bm.GAME.check_tables(t))
    assert "both join M1 and M2 but with different conditions" in probs
    t = _tables()
    t[bm.NODES_TABLE].append(["Green", "Left", "6", "3", "3"])
    t[bm.CONNECTORS_TABLE].append(["Green", "Left", "6", "5", "free"])
    assert bm.GAME.check_tables(t) == []  # an extra node joined in is fine
    t = _tables()
    t[bm.CONNECTORS_TABLE] = [r for r in t[bm.CONNECTORS_TABLE] if r[:4] != ["Red", "Both", "M2", "1"]]
    t[bm.CONNECTORS_TABLE] = [r for r in t[bm.CONNECTORS_TABLE] if r[2:4] not in (["M1", "1"], ["M3", "1"])
                              or r[0] != "Red"]
    probs = " ".join(bm.GAME.check_tables(t))
    # the Red half's own nodes are then cut off from M1-M3
    assert "A machine of the Red left half and the White right half falls apart" in probs
    t = _tables()
    t[bm.NODES_TABLE].append(["Blue", "Right", "7", "3", "3"])  # a node with no connector
    assert "The Blue right half: node 7 has no connector" in " ".join(bm.GAME.check_tables(t))


def test_match_refuses_bad_tables():
    t = _tables()
    del t[bm.RELATION_TABLE]
    with pytest.raises(ConfigError, match="Allies and enemies"):
        new_match("big-machine", ROSTER, seed=0, tables=t)


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


# ------------------------------------------------------------------ the round as typed facts

P6 = ["Ann", "Bo", "Cy", "Dee", "Eli", "Fay"]  # Team 1 Ann + Bo, Team 2 Cy + Dee, Team 3 Eli + Fay


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


# ------------------------------------------------------------------ A24: what the public knows of the machines

def test_a24_empty_layouts_and_starting_meadows_are_public_but_parts_never_before_the_end():
    m = new_match("big-machine", ROSTER, seed=5)
    rec = m.resolve({p: {"start": [{"meadow": md}]} for p, md in zip(ROSTER, ("White", "White", "Red", "Blue"))})
    public = visible(rec.facts, None)
    layouts = of_type(public, bm.MachineLayout)
    # Team 2 = Cy's Red left half + Dee's Blue right half: 13 nodes, 16 connectors, every node empty (R4-R6)
    assert [(f.team, f.left, f.right, len(f.nodes), len(f.connectors)) for f in layouts] == [
        ("Team 1", "White", "White", 13, 16), ("Team 2", "Red", "Blue", 13, 16)]
    assert all(n.part is None for f in layouts for n in f.nodes)
    # the Red left half's M2-L1 "greater" connector is drawn with M2 greater
    red = {(k.a, k.b): k for k in layouts[1].connectors}
    assert (red["M2", "L1"].kind, red["M2", "L1"].greater) == ("greater", "M2")
    assert [(f.participant, f.role, f.meadow) for f in of_type(public, bm.StartingMeadow)] == [
        ("Ann", "player", "White"), ("Bo", "guest", "White"), ("Cy", "player", "Red"), ("Dee", "guest", "Blue")]
    assert "Team 2's machine (Cy + Dee)" in [b.title for b in rec.public.blocks]
    assert "Red left half + Blue right half; every node empty." in text(rec.public)
    # rounds 1-6: the public learns positions only, never a part (R62, A24)
    for _ in range(6):
        r = m.resolve({p: turn("White", 0, 0, bm.allowed_nodes(m.state, p)[0]) for p in ROSTER})
        assert {type(f) for f in visible(r.facts, None)} == {bm.MeadowPosition}
    last = m.resolve({})
    assert {f.team for f in of_type(visible(last.facts, None), bm.MachineScored)} == {"Team 1", "Team 2"}


def test_a24_option_keeps_layouts_and_starting_meadows_within_the_team():
    m = new_match("big-machine", ROSTER, seed=5, options={"public_layouts": "false"})
    rec = m.resolve({p: {"start": [{"meadow": md}]} for p, md in zip(ROSTER, ("White", "White", "Red", "Blue"))})
    assert not of_type(visible(rec.facts, None), bm.MachineLayout, bm.StartingMeadow)
    assert [f.team for f in of_type(visible(rec.facts, "Cy"), bm.MachineLayout)] == ["Team 2"]
    assert [f.participant for f in of_type(visible(rec.facts, "Cy"), bm.StartingMeadow)] == ["Cy", "Dee"]
    pub = text(rec.public)
    assert "not announced" in pub and "Red" not in pub and "White" not in pub
    assert "Cy (player) chose Red, Dee (guest) chose Blue." in text(rec.private["Dee"])
    from sheetbridge.host.picture_files import round_pictures
    assert set(round_pictures(m, 0)) == set(ROSTER)          # no public picture: nothing public to draw


# ------------------------------------------------------------------ the end, from a position

def machine_50_position():
    """The ruleset's 50-point example (see _machine_50) at round 7, L5 and R5 still empty."""
    parts = {"M1": "White 3", "M2": "Blue 2", "M3": "Blue 4", "L1": "Blue 5", "L2": "Blue 1", "L3": "Green 3",
             "L4": "Red 2", "R1": "Black 4", "R2": "White 2", "R3": "White 3", "R4": "Green 2"}
    return {"round": 7, "start": {"Ann": "White", "Bo": "White", "Cy": "Red", "Dee": "Blue"},
            "previous": {"Ann": "L3", "Bo": "R3", "Cy": "L1", "Dee": "R1"},
            "parts": {"Team 1": parts, "Team 2": {"L1": "faulty", "R1": "faulty"}},
            "traversed": {"Team 1": [["L1", "L4"], ["R1", "R4"]]},
            "cogs": {"Ann": 3, "Bo": 3, "Cy": 5, "Dee": 5}}


def test_the_rulesets_50_point_machine_scored_connector_by_connector():
    m = match_from_position("big-machine", ROSTER, machine_50_position(), seed=2, garnets={p: 0 for p in ROSTER})
    # everyone in Red, bids 1, 1, 2, 2: no unique bid, everyone installs faulty (A3)
    rec = m.resolve({"Ann": turn("Red", 1, 0, "L5"), "Bo": turn("Red", 1, 0, "R5"),
                     "Cy": turn("Red", 2, 0, "M1"), "Dee": turn("Red", 2, 0, "M1")})
    scored = {f.team: f for f in of_type(rec.facts, bm.MachineScored)}
    assert all(f.audience == PUBLIC for f in scored.values())          # R68: all machines public at the end
    t1 = scored["Team 1"]
    points = {(k.a, k.b): (k.status, k.points) for k in t1.connectors}
    # as computed in _machine_50's docstring: 9 excellent x 5 + 5 working x 1 = 50
    assert points == {
        ("M1", "L1"): ("excellent", 5), ("M2", "L2"): ("excellent", 5), ("M3", "L3"): ("working", 1),
        ("L1", "L2"): ("excellent", 5), ("L2", "L3"): ("excellent", 5), ("L1", "L4"): ("working", 1),
        ("L3", "L5"): ("dead", 0), ("L4", "L2"): ("excellent", 5),
        ("M1", "R1"): ("working", 1), ("M2", "R2"): ("excellent", 5), ("M3", "R3"): ("excellent", 5),
        ("R1", "R2"): ("excellent", 5), ("R2", "R3"): ("excellent", 5), ("R1", "R4"): ("working", 1),
        ("R3", "R5"): ("dead", 0), ("R4", "R2"): ("working", 1)}
    assert t1.total == 50 and (t1.player, t1.guest) == ("Ann", "Bo") and t1.filled == ()
    # Team 2: every node but the two faulty ones was empty at the end and is made faulty (R48): 0
    assert scored["Team 2"].total == 0 and len(scored["Team 2"].filled) == 10
    assert [(g.participant, g.points, g.garnets) for g in of_type(rec.facts, bm.MachinePayout)] == [
        ("Ann", 50, 25), ("Bo", 50, 25), ("Cy", 0, 0), ("Dee", 0, 0)]
    assert sorted((r.player, r.change) for r in rec.ledger) == [("Ann", 25), ("Bo", 25)]
    assert "Team 1 (Ann + Bo): 50 points; garnets (1 per 2 points): Ann 25, Bo 25" in text(rec.public)
    out = m.outcome()
    assert out.winners == ("Ann",) and out.elimination_candidate == "Cy" and not out.requests
    assert out.scores == {"Ann": 50.0, "Bo": 50.0, "Cy": 0.0, "Dee": 0.0} and out.ending == "single_winner"
    assert not any(re.search(r"\b[RA]\d+\b", x) for x in out.reasons + tuple(a.reason for a in out.awards))


def test_a_position_plays_on_and_replays():
    pos = {"round": 2, "start": {"Ann": "White", "Bo": "White", "Cy": "Red", "Dee": "Blue"},
           "meadows": {"Ann": "Blue"}, "previous": {"Ann": "L4", "Bo": "R4", "Cy": "L1", "Dee": "R1"},
           "parts": {"Team 1": {"L4": "Red 2", "R4": "faulty"}, "Team 2": {"L1": "green 1", "R1": "X"}},
           "cogs": {"Ann": 7}}
    m = match_from_position("big-machine", ROSTER, pos, seed=4, garnets={p: 5 for p in ROSTER})
    assert m.round == 2 and m.state["meadow"]["Ann"] == "Blue" and m.state["meadow"]["Bo"] == "White"
    assert parts(m, "Team 2")["L1"] == {"color": "Green", "power": 1} and parts(m, "Team 2")["R1"] == "faulty"
    # Round 2: Ann stays in Blue alone and powers up 3: Blue 1 + 3 = 4 on L1 (joined to L4 by a free
    # connector, now used); 7 - 0 - 3 = 4 cogs.
    m.resolve({"Ann": turn("Blue", 0, 3, "L1"), "Bo": turn("White", 0, 0, "R1"),
               "Cy": turn("Red", 0, 0, "L3"), "Dee": turn("Green", 0, 0, "R2")})
    assert parts(m, "Team 1")["L1"] == {"color": "Blue", "power": 4} and m.state["cogs"]["Ann"] == 4
    assert bm.find_connector(m.state["machines"]["Team 1"], "L1", "L4")["used"] is True
    back = load_match(json.loads(json.dumps(m.to_json())), m.ledger.rows)
    back.replay()                                            # replay starts from the position
    assert back.state == m.state


@pytest.mark.parametrize("change, message", [
    ({"round": 9}, "a position opens a round from 1 to 7"),
    ({"round": 0}, "round 0, meadow selection, is a new game"),
    ({"colour": "x"}, "unknown position key(s) colour"),
    ({"start": {"Ann": "White", "Bo": "White", "Cy": "Red"}}, "start: Dee's starting meadow is missing"),
    ({"start": {"Ann": "Purple", "Bo": "White", "Cy": "Red", "Dee": "Blue"}}, "'Purple' is not a meadow"),
    ({"meadows": {"Zed": "Blue"}}, "meadows: 'Zed' is not a participant"),
    ({"cogs": {"Ann": -1}}, "cogs: Ann has -1"),
    ({"cogs": {"Ann": 40, "Bo": 40}}, "at most 56 after 1 round(s)"),
    ({"parts": {"Team 9": {}}}, "parts: 'Team 9' is not a team (Team 1 = Ann + Bo; Team 2 = Cy + Dee)"),
    ({"parts": {"Team 1": {"Q7": "Red 1"}}}, "parts: Team 1 has no node 'Q7'"),
    ({"parts": {"Team 1": {"L4": "Red 0"}}}, "a part is a colour and a power from 1"),
    ({"parts": {"Team 1": {"L4": "Red 2", "R4": "faulty", "L1": "faulty", "L2": "faulty", "L3": "faulty"}}},
     "Team 1 has 5 node(s) filled after 1 round(s); a team fills at most 4 a round"),
    ({"previous": {"Ann": "L4", "Bo": "R4", "Cy": "L1"}}, "previous: Dee's previous node is missing"),
    ({"previous": {"Ann": "L5", "Bo": "R4", "Cy": "L1", "Dee": "R1"}}, "Ann installed on L5 last round, so it "
                                                                        "cannot be empty"),
    ({"round": 1, "parts": {}}, "round 1 has no previous node"),
    ({"traversed": {"Team 1": [["L1", "L4"]]}}, "moves along connectors start in round 2"),
    ({"round": 3, "traversed": {"Team 1": [["L1", "L5"]]}}, "traversed: Team 1 has no connector"),
])
def test_impossible_positions_are_refused_in_one_line(change, message):
    pos = {"round": 2, "start": {"Ann": "White", "Bo": "White", "Cy": "Red", "Dee": "Blue"},
           "previous": {"Ann": "L4", "Bo": "R4", "Cy": "L1", "Dee": "R1"},
           "parts": {"Team 1": {"L4": "Red 2", "R4": "faulty"}, "Team 2": {"L1": "Green 1", "R1": "faulty"}}}
    pos.update(change)
    with pytest.raises(PositionError, match=re.escape(message)) as err:
        match_from_position("big-machine", ROSTER, pos)
    assert "\n" not in str(err.value)


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


# ------------------------------------------------------------------ pictures

def _contrast(a, b):
    def lum(hex_rgb):
        def ch(v):
            v /= 255
            return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
        r, g, b_ = (int(hex_rgb[i:i + 2], 16) for i in (0, 2, 4))
        return 0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b_)
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_legend_colours_are_distinct_and_text_is_readable_on_them():
    colours = [c for _, c, _ in bm.LEGEND] + [bm.DEAD_LINE]
    rgb = [tuple(int(c[i:i + 2], 16) for i in (0, 2, 4)) for c in colours]
    kinds = {c for _, c, how in bm.LEGEND if how == "text"}
    for i in range(len(rgb)):
        for j in range(i + 1, len(rgb)):
            if {colours[i], colours[j]} <= kinds and colours[i] == colours[j]:
                continue
            assert sum((a - b) ** 2 for a, b in zip(rgb[i], rgb[j])) ** 0.5 > 60, (colours[i], colours[j])
    for m in bm.MEADOWS:      # the power on a part, the meadow's name on its header
        assert _contrast(bm.COLOR_FILL[m], bm.COLOR_FONT.get(m, "000000")) >= 4.5, m
    assert _contrast(bm.EMPTY_FILL, "000000") >= 4.5 and _contrast(bm.FAULTY_FILL, "000000") >= 4.5
    for c in set(bm.KIND_COLOUR.values()):   # connector labels on white
        assert _contrast(c, "FFFFFF") >= 4.5, c


def test_pictures_draw_the_team_machine_and_the_public_board():
    from sheetbridge.host.picture_files import round_pictures
    from sheetbridge.host.pictures import draw
    m = start()
    # Round 1, each alone: Ann Red 1 on L1, Bo Green 1 on R1; Ann sabotages L5 (faulty).
    m.resolve({"Ann": turn("Red", 0, 0, "L1", sabotage="L5"), "Bo": turn("Green", 0, 0, "R1"),
               "Cy": turn("White", 0, 0, "L1"), "Dee": turn("Black", 0, 0, "R1")})
    pics = round_pictures(m, 1)
    assert set(pics) == {"board", *ROSTER}
    rgb = lambda h: tuple(int(h[i:i + 2], 16) for i in (0, 2, 4))  # noqa: E731
    # Ann's picture: Team 1's machine drawn from (12, 42); a node at row y, column x has its centre at
    # (52 + 140 x, 96 + 90 y). White left half: L1 at row 0, column 1; L5 at row 2, column 0; M2 at row 1,
    # column 2; R1 at row 0, column 3. Sample 13 px left of the centre, inside the circle, off the text.
    img = draw(pics["Ann"])
    assert img.getpixel((192 - 13, 96)) == rgb(bm.COLOR_FILL["Red"])       # L1: Red 1
    assert img.getpixel((472 - 13, 96)) == rgb(bm.COLOR_FILL["Green"])     # R1: Green 1
    assert img.getpixel((52 - 13, 276)) == rgb(bm.FAULTY_FILL)             # L5: faulty
    assert img.getpixel((332 - 13, 186)) == rgb(bm.EMPTY_FILL)             # M2: empty
    assert img.getpixel((5, 5)) == (255, 255, 255)
    assert draw(pics["Bo"]).tobytes() == img.tobytes()                      # the team shares one machine
    labels = [s.text for s in pics["Ann"].shapes if isinstance(s, Label)]
    assert "Team 1's machine after round 1" in labels and "L1>L2" in labels and "free" in labels
    assert "1" in labels                                                    # the powers are written
    # the public board: where everyone is, no machine (parts are never public before the end, A24)
    board = pics["board"]
    assert not [s for s in board.shapes if isinstance(s, Dot)]
    bimg = draw(board)
    # the meadows' headers from x = 12, 130 wide, at y = 66: sample near each header's right end
    for i, md in enumerate(bm.MEADOWS):
        assert bimg.getpixel((12 + 130 * i + 120, 70)) == rgb(bm.COLOR_FILL[md]), md
    assert {"Ann", "Bo", "Cy", "Dee", "nobody"} <= {s.text for s in board.shapes if isinstance(s, Label)}


def test_the_final_board_draws_every_machine_with_its_points():
    from sheetbridge.host.picture_files import round_pictures
    m = match_from_position("big-machine", ROSTER, machine_50_position(), seed=2)
    m.resolve({"Ann": turn("Red", 1, 0, "L5"), "Bo": turn("Red", 1, 0, "R5"),
               "Cy": turn("Red", 2, 0, "M1"), "Dee": turn("Red", 2, 0, "M1")})
    board = round_pictures(m, 7)["board"]
    labels = [s.text for s in board.shapes if isinstance(s, Label)]
    assert "Team 1 (Ann + Bo): 50 points" in labels and "Team 2 (Cy + Dee): 0 points" in labels
    assert "allies +5" in labels and "free (used) +1" in labels    # M1-L1 excellent; L1-L4 used, working
    assert len([s for s in board.shapes if isinstance(s, Dot)]) == 26   # both machines, 13 nodes each


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
