"""Flickering Lights: the end of the match, and the host's decisions (manual items, ties)."""
from sheetbridge.core.facts import of_type
from sheetbridge.games import flickering_lights as fl

from .helpers import BLUE_P, CORNERS, CSD, CSS, DUO, P, RED_P, ROW1, SBS, count, final_grid, new, points, sp


# ------------------------------------------------------------------ the end of the match

def test_outcome_totals_ties_go_to_the_host_and_garnet_option():
    # A30 end to end. Round 1 CORNERS, nothing: 1 red = 1 blue, a tie: 1 point each.
    # Round 2 DUO: the same, 1 each. Round 3 CORNERS, Ann (Red Coordinator) A1 +2: red 6
    # (A1, B1, C1, A2, B2, A3; one group of 6) vs blue 1: +4 connection tiles -> 10 > 1:
    # red 18, blue 1; Mediator difference 10 - 1 = 9 > 7: White gets the loser's 1.
    # Round 4 DUO: 1 each. Round 5 ROW1, Dee (Blue Coordinator) H1 +2: blue E1-H1 + H2, G2,
    # H3 = 7, red A1-D1 = 4; blue lines: row 1 EFG, FGH (2), column H (1), F1-G2-H3 (1) = 4
    # -> 11; red lines ABC, BCD = 2 -> 6. Blue 11 + 8 = 19, red 6; raw difference 3 <= 7:
    # White 19.
    # Totals: Ann, Bo, Cy 1+1+18+1+6 = 27; Dee, Eli, Fay 1+1+1+1+19 = 23; Gus 1+1+1+1+19 = 23.
    roles = {1: (CSD, CSD), 2: (CSS, CSS), 3: (CSD, CSD), 4: (SBS, SBS), 5: (CSD, CSD)}
    m = new({1: CORNERS, 2: DUO, 3: CORNERS, 4: DUO, 5: ROW1}, roles,
            options={"garnets_per_points": "10", "winner_garnets": "5"})
    for raw in ({}, {}, {"Ann": sp("A1")}, {}, {"Dee": sp("H1")}):
        m.resolve(raw)
    assert m.state["totals"] == {"Ann": 27, "Bo": 27, "Cy": 27, "Dee": 23, "Eli": 23, "Fay": 23, "Gus": 23}
    out = m.outcome()
    assert out.winners == () and out.elimination_candidate is None
    # A30: both ties go to the host as decisions; meanwhile no winner and no EC.
    assert [(r.key, r.choices) for r in out.requests] == [
        ("winner-tie", ("Ann", "Bo", "Cy", "shared")), ("ec-tie", ("Dee", "Eli", "Fay", "Gus"))]
    assert out.standings[0] == ("Ann", "27 points")
    # A31 options: 27 // 10 = 2 and 23 // 10 = 2 garnets; no sole winner, so no winner_garnets.
    assert all(m.ledger.balance(p) == 2 for p in P)
    assert not any("winner" in r.reason for r in m.ledger.rows)
    # Default: no garnets at all.
    m0 = new({1: CORNERS, 2: DUO, 3: CORNERS, 4: DUO, 5: ROW1}, roles)
    for raw in ({}, {}, {"Ann": sp("A1")}, {}, {"Dee": sp("H1")}):
        m0.resolve(raw)
    assert not m0.ledger.rows


def _ended(totals, option):
    """A finished state of one recorded round that Red won (5 tiles to 3)."""
    assign = {p: {"team": "Red" if p in RED_P else "Blue" if p in BLUE_P else "White", "role": "Sniper"}
              for p in P}
    assign["Gus"]["role"] = "Mediator"
    hist = [{"round": 1, "assign": assign, "points": {p: 0 for p in P},
             "score": {"tiles": [5, 3], "total": [5, 3]}}]
    opts = dict(fl.DEFAULT_OPTIONS, end_of_match=option)
    return {"round": 5, "finished": True, "players": P, "totals": totals, "history": hist, "options": opts}


def test_outcome_single_winner_and_ec_and_rounds_won_tiebreak():
    totals = {"Ann": 30, "Bo": 20, "Cy": 10, "Dee": 30, "Eli": 20, "Fay": 20, "Gus": 20}
    out = fl.GAME.outcome(_ended(totals, "total"))
    assert out.winners == () and out.elimination_candidate == "Cy"      # the tie for the win is pending
    assert [r.key for r in out.requests] == ["winner-tie"]
    # total_rounds_won: Ann's side (Red) won round 1 (5 > 3), Dee's (Blue) did not: Ann wins.
    out2 = fl.GAME.outcome(_ended(totals, "total_rounds_won"))
    assert out2.winners == ("Ann",) and out2.elimination_candidate == "Cy" and not out2.requests


# ------------------------------------------------------------------ decisions

STORM = [["1", "storm", "manual", "D4 E4", "", "the host decides what the storm does"]]


def test_a_manual_item_stops_for_the_host_and_each_ruling_changes_the_round():
    # A18: an item of kind manual cannot be applied by the module: the round asks the host, and until every
    # ruling is entered the item counts nothing and the round says so. Round 1 DUO, Ann (Red Coordinator)
    # D4 +2: the radius-2 diamond, 13 squares, goes red (E4 included); blue 0. Red 13 + 8 = 21, blue 0;
    # difference 13 > 7: White the losers' 0.
    m = new({1: DUO}, {1: (CSD, CSD)}, items=STORM)
    raw = {"Ann": sp("D4")}
    rec = m.resolve(raw)
    keys = ("r1:item:storm:squares", "r1:item:storm:red-tiles", "r1:item:storm:blue-tiles")
    assert [r.key for r in m.pending()] == list(keys)
    assert all(r.round == 1 for r in m.pending())
    (item,) = of_type(rec.facts, fl.ManualItemRuling)
    assert item == fl.ManualItemRuling(1, "storm", ("D4", "E4"), "", 0, 0, keys)
    assert "the host has not ruled on its effect yet" in rec.public.text()
    assert points(m)["Ann"] == 21 and points(m)["Gus"] == 0
    # The storm's squares end blue: D4 and E4 blue, red 11, blue 2: red 19, blue 2; difference 9: White 2.
    m.decide(keys[0], "Blue")
    assert final_grid(m)[(3, 3)] == "B" and count(m, "R") == 11 and count(m, "B") == 2
    assert points(m) == {"Ann": 19, "Bo": 19, "Cy": 19, "Dee": 2, "Eli": 2, "Fay": 2, "Gus": 2}
    # It also takes 5 tiles from Red: red 11 - 5 = 6 > 2: red 14, blue 2; difference 4 <= 7: White 14.
    m.decide(keys[1], "-5")
    assert points(m) == {"Ann": 14, "Bo": 14, "Cy": 14, "Dee": 2, "Eli": 2, "Fay": 2, "Gus": 14}
    assert m.pending()[0].key == keys[2]
    # Blue: 0 tiles. Every ruling entered: nothing pending, and the post says what the host ruled.
    m.decide(keys[2], "0")
    assert not m.pending()
    (item,) = of_type(m.rounds[-1].facts, fl.ManualItemRuling)
    assert item == fl.ManualItemRuling(1, "storm", ("D4", "E4"), "blue", -5, 0)
    assert "Item storm, as the host ruled: its squares end blue; Red -5 tiles." in m.rounds[-1].public.text()
    side = {f.colour: f for f in of_type(m.rounds[-1].facts, fl.SideScore)}
    assert (side["red"].tiles, side["red"].host_tiles, side["red"].total) == (11, -5, 6)


def test_a_note_item_asks_nothing():
    m = new({1: DUO}, {1: (CSD, CSD)}, items=[["1", "lamp", "note", "D4 E4", "", "just a lamp"]])
    m.resolve({"Ann": sp("D4")})
    assert not m.pending() and not of_type(m.rounds[-1].facts, fl.ManualItemRuling)


def _tied_game(**options):
    # The A30 scenario of test_outcome_totals_ties...: totals Ann, Bo, Cy 27; Dee, Eli, Fay, Gus 23.
    # Rounds each side won: Ann, Bo, Cy only round 3 (red 18 > 1); Dee, Eli, Fay round 5; Gus, White,
    # won round 5 too (19 is the winners' points) but not round 3 (he scored the losers' 1).
    roles = {1: (CSD, CSD), 2: (CSS, CSS), 3: (CSD, CSD), 4: (SBS, SBS), 5: (CSD, CSD)}
    m = new({1: CORNERS, 2: DUO, 3: CORNERS, 4: DUO, 5: ROW1}, roles, options=options)
    for raw in ({}, {}, {"Ann": sp("A1")}, {}, {"Dee": sp("H1")}):
        m.resolve(raw)
    return m


def test_ties_for_the_win_and_the_ec_are_the_hosts_decisions():
    m = _tied_game(winner_garnets="5", ec_garnets="-1", garnets_per_points="10")
    out = m.outcome()
    # Pending: no winner, no EC, both decisions listed with what the rounds won would say.
    assert out.winners == () and out.elimination_candidate is None and out.ending == "tie_pending"
    win, ec = m.pending()
    assert (win.key, win.round, ec.key, ec.round) == ("winner-tie", 5, "ec-tie", 5)
    assert ec.default == "no Elimination Candidate yet; the rounds each side won are tied too (Dee 1, Eli 1, Fay 1, Gus 1)"
    board = m.public_report().text()
    # players read what waits; the host's question is the host's alone (issue 27)
    assert "The winner will be announced after the tiebreak." in board
    assert "The Elimination Candidate will be announced after the tiebreak." in board
    assert "Pending" not in board and "for the host" not in board
    # 27 // 10 = 2 and 23 // 10 = 2 garnets each (A31); no winner or EC garnets while the ties are open.
    assert all(m.ledger.balance(p) == 2 for p in P)
    # The host names Bo the winner: Bo alone wins and gets the 5 winner garnets (round 5 is re-resolved).
    m.decide("winner-tie", "bo")
    assert m.outcome().winners == ("Bo",) and m.ledger.balance("Bo") == 7 and m.ledger.balance("Ann") == 2
    assert "the host chose Bo" in " ".join(m.outcome().reasons)
    # and Gus for the EC, who loses 1 garnet.
    m.decide("ec-tie", "Gus")
    out = m.outcome()
    assert out.elimination_candidate == "Gus" and m.ledger.balance("Gus") == 1 and not m.pending()
    # A joint win instead: all three win, nobody is the sole winner, so no winner garnets.
    m.decide("winner-tie", "shared")
    assert m.outcome().winners == ("Ann", "Bo", "Cy") and m.ledger.balance("Bo") == 2
