"""The Big Machine: auctions, installing, free connectors (A8) and cog trades (R12, A16)."""
import json

import pytest

from sheetbridge.api import load_match, new_match
from sheetbridge.core.facts import of_type
from sheetbridge.games import big_machine as bm

from .helpers import ROSTER, _round_two, parts, start, text, turn


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
