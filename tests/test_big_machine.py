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

import pytest

from sheetbridge.core.errors import ConfigError
from sheetbridge.core.match import Match
from sheetbridge.core.rng import Rng
from sheetbridge.core.types import ProblemKind
from sheetbridge.games import big_machine as bm

ROSTER = ["Ann", "Bo", "Cy", "Dee"]  # default pairing: Team 1 = Ann (player) + Bo (guest), Team 2 = Cy + Dee


def start(meadows=("White", "White", "Red", "Blue"), garnets=None, options=None, players=ROSTER, tables=None):
    """A match after meadow selection (round 0), round 1 open."""
    m = Match.new("big-machine", players, seed=5, garnets=garnets or {p: 0 for p in players},
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
    m = Match.new("big-machine", ROSTER, seed=1, options={"teams": "Cy+Ann; Dee+Bo"})
    assert [(t["player"], t["guest"]) for t in m.state["teams"]] == [("Cy", "Ann"), ("Dee", "Bo")]
    assert m.game.viewers(m.state, "Ann") == ("Cy", "Ann")


def test_teams_option_errors_and_odd_roster():
    with pytest.raises(ConfigError, match="Zed"):
        Match.new("big-machine", ROSTER, seed=1, options={"teams": "Zed+Ann"})
    with pytest.raises(ConfigError, match="twice"):
        Match.new("big-machine", ROSTER, seed=1, options={"teams": "Ann+Bo; Ann+Cy"})
    with pytest.raises(ConfigError, match="even"):
        Match.new("big-machine", ["Ann", "Bo", "Cy", "Dee", "Eli"], seed=1)


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
    assert "Ann: bid + power-up = '10 + 5'" in t and "at most 12 in total" in t
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
    assert "Ann: jump = 'yes'" in t and "at least 5 garnets" in t and "you have 3" in t
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
    m = Match.new("big-machine", ROSTER, seed=3)
    rec = m.resolve({"Ann": {"start": [{"meadow": "Teal"}]}})
    assert all(m.state["start"][p] in bm.MEADOWS for p in ROSTER)
    assert "Ann: Starting meadow = 'Teal'" in text(rec.private["Ann"])
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
    tables = {k: [list(r) for r in v] for k, v in Match.new("big-machine", ROSTER, seed=0).tables.items()}
    tables[bm.TRADES_TABLE] = [["Round", "From", "To", "Cogs"], ["1", "Cy", "Ann", "5"]]
    m = start(tables=tables)
    # Ann holds 12 + 5 = 17 after the host trade: bid 17 is allowed
    m.resolve({"Ann": turn("White", 17, 0, "L1"), "Bo": turn("Blue", 0, 0, "R1", give=[("Dee", 4)]),
               "Cy": turn("Red", 0, 0, "L1"), "Dee": turn("Green", 0, 0, "R1")})
    assert m.state["cogs"]["Ann"] == 0 and m.state["cogs"]["Cy"] == 7
    assert m.state["cogs"]["Bo"] == 8 and m.state["cogs"]["Dee"] == 16


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
    assert out.elimination_candidate is None and "vote among Cy, Eli" in out.pending[0]
    assert "winners (Ann)" in out.pending[0]


# ------------------------------------------------------------------ information (R62-R69)

def test_information_model():
    m = start()
    rec = m.resolve({
        "Ann": turn("Blue", 3, 2, "L1", sabotage="L5"), "Bo": turn("Blue", 1, 4, "R1"),
        "Cy": turn("Blue", 1, 0, "L3"), "Dee": turn("Red", 0, 0, "R2")})
    pub = text(rec.public)
    # public: where everyone is, nothing else (no bids, winners, parts or sabotage)
    assert "Blue Meadow: Ann, Bo, Cy" in pub and "Red Meadow: Dee" in pub
    for secret in ("bid", "won", "Blue 5", "sabot", "faulty", "cogs"):
        assert secret not in pub.lower() if secret.islower() else secret not in pub
    ann, bo, cy = text(rec.private["Ann"]), text(rec.private["Bo"]), text(rec.private["Cy"])
    # the team learns its machine, both installs and the sabotage (R63-R65)
    for t in (ann, bo):
        assert "Ann installed Blue 5 on L1" in t and "Bo installed faulty on R1" in t
        assert "Ann sabotaged L5." in t
    # own bid and cogs only to oneself (R67, A19); nothing of the other team
    assert "bid 3 and powered up 2" in ann and "bid 3" not in bo
    assert "Cogs: 12 before the round, 9 now." in ann and "Cogs: 12 before the round, 11 now." in bo
    for name in ("Cy", "Dee"):
        assert name not in ann and name not in bo
    for name in ("Ann", "Bo"):
        assert name not in cy
    # the other team's parts never appear: Dee's Red 1 is only in Team 2's reports
    assert "Red 1" not in ann and "Red 1" in cy


def test_share_notices_option_shows_the_teammates_block():
    m = start(options={"share_notices": "yes"})
    rec = m.resolve({"Ann": turn("Blue", 3, 2, "L1"), "Bo": turn("Blue", 1, 4, "R1")})
    assert "bid 3 and powered up 2" in text(rec.private["Bo"])


def test_public_board_is_a_grid_of_meadows_and_results_draw_the_machine():
    m = start()
    rec = m.resolve({"Ann": turn("Blue", 3, 2, "L1")})  # Dee stays in Blue: 2 people + 2 = Blue 4
    board = m.game.public_view(m.state)
    where = next(b for b in board.blocks if b.grid)
    assert [c.text for c in where.grid[0]] == [f"{x} Meadow" for x in bm.MEADOWS]
    assert where.grid[0][1].fill == bm.COLOR_FILL["Blue"]
    mach = next(b for b in rec.private["Ann"].blocks if b.grid)
    cells = {c.text: c for row in mach.grid for c in row}
    assert cells["L1: Blue 4"].fill == bm.COLOR_FILL["Blue"]
    assert cells["M2: empty"].fill == bm.EMPTY_FILL
    # a connector cell: L1-L2 is vertical with L1 greater, drawn "v"
    assert any(c.text == "|v" for c in cells.values())


# ------------------------------------------------------------------ content tables

def _tables():
    return {k: [list(r) for r in v] for k, v in Match.new("big-machine", ROSTER, seed=0).tables.items()}


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
        Match.new("big-machine", ROSTER, seed=0, tables=t)


# ------------------------------------------------------------------ whole games

def test_random_games_keep_cogs_and_garnets_non_negative():
    from sheetbridge.core.match import play_random
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
    m = Match.new("big-machine", ROSTER, seed=1)
    ann = text(m.player_report("Ann"))   # the player: left halves
    bo = text(m.player_report("Bo"))     # the guest: right halves
    assert "The Blue Meadow's left half" in ann and "Meadow's right half" not in ann
    assert "The Blue Meadow's right half" in bo
    # the White half as listed at the top of this file, own nodes named L1..L5
    assert "L1-L2 L1 > L2" in ann and "L4-L2 enemies" in ann
    form = m.form("Ann")
    assert form.section("start").fields[0].choices == tuple(bm.MEADOWS)
