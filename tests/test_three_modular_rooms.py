"""Three Modular Rooms: outcomes computed by hand from the ruleset (R/A numbers from the rulings)."""
import re
from fractions import Fraction

import pytest

from sheetbridge.api import load_match, match_from_position, new_match
from sheetbridge.core.errors import UsageError
from sheetbridge.core.types import ProblemKind
from sheetbridge.core.facts import of_type
from sheetbridge.games.three_modular_rooms import (DEFAULTS, RoomScored, WinnersVote, calculate, resolve_rooms,
                                                  room_scoring)


def rooms(**by_room):
    """rooms(Null=[("A", 1), ...]) with owners in roster order."""
    return resolve_rooms(by_room, DEFAULTS)


def play(card, room, buy="", hide="no"):
    return {"play": [{"card": str(card), "room": room}], "buy": [{"buy_cards": buy, "buy_hide": hide}]}


def game(players, garnets=0, **options):
    return new_match("three-modular-rooms", players, seed=1, options=options,
                     garnets={p: garnets for p in players})


# ---- the ruleset's own examples -------------------------------------------

def test_card_1_example():
    # R13: [1,5,6,6] -> [1,5,-6,-6]: the two 6s are the highest and both flip.
    assert rooms(Null=[("a", 1), ("b", 5), ("c", 6), ("d", 6)])["Null"].values == [1, 5, -6, -6]


def test_card_3_example():
    # R16: [3] -> [30]; 30 is 0 mod 3 so Null gives 1.5x: 45.
    r = rooms(Null=[("a", 3)])["Null"]
    assert r.values == [30] and r.score == 45


def test_card_4_example_total_16_ignores_the_6():
    # R17: cards 4, 6, 6 total 16 at step 4, so the 6s (ending in 6) are ignored.
    r = rooms(Null=[("a", 4), ("b", 6), ("c", 6)])["Null"]
    assert [c.ignored for c in r.played] == [False, True, True]


def test_card_4_silences_the_5_point_but_not_the_value():
    # [4,5,6] totals 15 at step 4: the 5 is ignored (no point though rooms are empty).
    # The 6 still acts: 15 is a multiple of 5, so a 15 is added -> 30; Null 30 mod 3 = 0 -> 45.
    r = rooms(Null=[("a", 4), ("b", 5), ("c", 6)])["Null"]
    assert r.five_scorers == []
    assert r.values == [4, 5, 6, 15] and r.score == 45


# ---- every card --------------------------------------------------------------

def test_card_1_flips_back_with_two_ones():
    # A5: [1,1]: first 1 flips the highest (both 1s) -> [-1,-1]; second flips them back -> [1,1].
    assert rooms(Null=[("a", 1), ("b", 1)])["Null"].values == [1, 1]


def test_card_2_ignores_duplicates_in_its_room():
    # [2,8,8,5]: the 8s are ignored, so no collapse: 2+8+8+5 = 23; 23 mod 3 = 2, Null needs 0 -> 23.
    r = rooms(Null=[("a", 2), ("b", 8), ("c", 8), ("d", 5)])["Null"]
    assert r.score == 23
    assert r.five_scorers == ["d"]  # the 5 is no duplicate and two rooms are empty (R18)
    # Without the 2: [3,8,8,5] -> first 8 collapses to 8*3 = 24; 24 mod 3 = 0 -> 36.
    assert rooms(Null=[("a", 3), ("b", 8), ("c", 8), ("d", 5)])["Null"].score == 36


def test_two_twos_in_one_room_apply_in_every_room():
    # R15, A7: Solitary holds two 2s, so Null's duplicated 7s are ignored too.
    # Null [7,7,1]: step 1 -> [-7,-7,1]; the 7s are ignored so step 7 does nothing: -13.
    # -13 mod 3 = 2, Null needs 0 -> -13. Solitary [2,2] = 4, 4 mod 3 = 1 -> 6.
    res = rooms(Null=[("a", 7), ("b", 7), ("c", 1)], Solitary=[("d", 2), ("e", 2)])
    assert res["Null"].score == -13
    assert res["Solitary"].score == 6
    # With one 2 only in Solitary, Null's 7s act: [-7,-7,1] -> [-7,-7,7] = -7; -7 mod 3 = 2 -> -7.
    res = rooms(Null=[("a", 7), ("b", 7), ("c", 1)], Solitary=[("d", 2), ("e", 3)])
    assert res["Null"].score == -7


def test_two_before_all_effects_option_silences_duplicated_ones():
    # A3: [2,1,1,5]. in_order: first 1: max 5 -> [2,1,1,-5]; second 1: max 2 -> [-2,1,1,-5]
    # = -5; -5 mod 3 = 1, Null needs 0 -> -5. before_all_effects: the 1s are silenced: 2+1+1+5 = 9 -> 13.5.
    cards = dict(Null=[("a", 2), ("b", 1), ("c", 1), ("d", 5)])
    assert resolve_rooms(cards, DEFAULTS)["Null"].score == -5
    alt = {**DEFAULTS, "two_ignore_timing": "before_all_effects"}
    assert resolve_rooms(cards, alt)["Null"].score == Fraction(27, 2)


def test_card_3_not_alone_does_nothing():
    assert rooms(Null=[("a", 3), ("b", 4)])["Null"].values == [3, 4]


def test_card_5_needs_an_empty_room():
    # All rooms occupied: no point for the 5 (R18).
    res = rooms(Null=[("a", 5)], Solitary=[("b", 4)], Duel=[("c", 7)])
    assert res["Null"].five_scorers == []
    assert rooms(Null=[("a", 5)])["Null"].five_scorers == ["a"]


def test_card_6_adds_15_and_minus_14():
    # [6,4]: sum 10 -> +15 -> [6,4,15] = 25; 25 mod 3 = 1, Null -> 25.
    assert rooms(Null=[("a", 6), ("b", 4)])["Null"].values == [6, 4, 15]
    # [6,1]: step 1 flips the 6 -> [-6,1] = -5 -> +15 -> [-6,1,15] = 10.
    assert rooms(Null=[("a", 6), ("b", 1)])["Null"].values == [-6, 1, 15]
    # [6,8] (A12): sum 14 is a multiple of 7 -> -14 added; then 8 collapses: 8 * -14 = -112.
    # -112 mod 3 = 2, so in Duel it is multiplied: -168.
    r = rooms(Duel=[("a", 8), ("b", 6)])["Duel"]
    assert r.values == [-112] and r.score == -168


def test_card_6_multiple_of_35_adds_both_and_sequential_option():
    # A sum of 0 is a multiple of 35 (A11): [6,-6] is impossible; [6,4,-10] = 0 -> +15 and -14.
    assert rooms(Null=[("a", 6), ("b", 4), ("c", -10)])["Null"].values == [6, 4, -10, 15, -14]
    # Sequential: after +15 the sum is 15, not a multiple of 7: only the 15.
    seq = {**DEFAULTS, "six_conditions": "sequential"}
    assert resolve_rooms({"Null": [("a", 6), ("b", 4), ("c", -10)]}, seq)["Null"].values == [6, 4, -10, 15]


def test_card_7_makes_sevens():
    # [7,5,-10] -> [7,7,-7] = 7; 7 mod 3 = 1, Null -> 7.
    r = rooms(Null=[("a", 7), ("b", 5), ("c", -10)])["Null"]
    assert r.values == [7, 7, -7] and r.score == 7


def test_card_8_collapse_and_single_card():
    # [8,3,4] -> max 8 * min 3 = 24; 24 mod 3 = 0 -> Null 36.
    assert rooms(Null=[("a", 8), ("b", 3), ("c", 4)])["Null"].score == 36
    # A lone 8 has no effect (R23): 8 mod 3 = 2 -> Duel 12.
    assert rooms(Duel=[("a", 8)])["Duel"].score == 12


def test_card_9_doubles_with_three_people():
    # [9,3,6]: sum 18 (no 6 effect); three people -> 2x; 18 mod 3 = 0 in Null -> 36.
    assert rooms(Null=[("a", 9), ("b", 3), ("c", 6)])["Null"].score == 36
    # In Solitary 18 mod 3 = 0 != 1: no multiplier (A15) -> 18; with nine_without_match=2x -> 36.
    assert rooms(Solitary=[("a", 9), ("b", 3), ("c", 6)])["Solitary"].score == 18
    alt = {**DEFAULTS, "nine_without_match": "2x"}
    assert resolve_rooms({"Solitary": [("a", 9), ("b", 3), ("c", 6)]}, alt)["Solitary"].score == 36
    # Two people: 1.5x. [9,3] = 12 -> Null 18.
    assert rooms(Null=[("a", 9), ("b", 3)])["Null"].score == 18


def test_minus_11_scores_in_range_with_half_points():
    # Duel [-11,4]: step 4: total -7, last digit 7: nothing ignored. -7 mod 3 = 2 -> Duel 1.5x = -10.5.
    # -15 <= -10.5 <= -5 and two people: the -11 scores (R28).
    m = game(["A", "B"], rounds=1)
    m.resolve({"A": play(-11, "Duel"), "B": play(4, "Duel")})
    # Duel -10.5 vs two empty rooms at 0: the empty rooms tie for highest, so Duel, the third room, scores.
    assert m.state["points"] == {"A": 2, "B": 1}
    duel = next(f for f in of_type(m.rounds[0].facts, RoomScored) if f.room == "Duel")
    assert (duel.players, duel.score) == (("A", "B"), -10.5)
    assert "A, B | Score" not in m.rounds[0].public.text() and "-10.5" in m.rounds[0].public.text()


def test_minus_11_alone_scores_nothing():
    # Alone in Duel: -11 mod 3 = 1 -> no bonus -> -11, in range but only one person: no -11 point.
    # Null and Solitary tie at 0 for the highest, so Duel, the third room, scores: A gets 1 point, not 2.
    res = rooms(Duel=[("a", -11)])
    assert res["Duel"].score == -11 and room_scoring(res, "zero_included") == ["Duel"]
    m = game(["A"], rounds=1)
    m.resolve({"A": play(-11, "Duel")})
    assert m.state["points"]["A"] == 1


# ---- room scoring and ties --------------------------------------------------

def test_two_room_tie_gives_the_point_to_the_third_room():
    # Null [1] -> [-1]; -1 mod 3 = 2 -> -1. Solitary [4]: 4 mod 3 = 1 -> 6. Duel [6]: 6 mod 3 = 0 -> 6.
    # Solitary and Duel tie at 6: Null scores (R31), even though it is lowest.
    m = game(["A", "B", "C"], rounds=1)
    m.resolve({"A": play(1, "Null"), "B": play(4, "Solitary"), "C": play(6, "Duel")})
    assert m.state["points"] == {"A": 1, "B": 0, "C": 0}


def test_three_way_tie_everyone_scores():
    # Null [6] -> 6*1.5 = 9. Solitary [9] -> 9 (0 mod 3). Duel [4,5]: total 9 at step 4 ignores no
    # played card; the 5 scores nothing since no room is empty; 9 mod 3 = 0 -> 9. All tie at 9 (R32).
    m = game(["A", "B", "C", "D"], rounds=1)
    m.resolve({"A": play(6, "Null"), "B": play(9, "Solitary"), "C": play(4, "Duel"), "D": play(5, "Duel")})
    assert m.state["points"] == {"A": 1, "B": 1, "C": 1, "D": 1}


def test_single_highest_room_scores_and_card_5_adds_a_point():
    # Null [3] alone -> 30 -> 45 (A scores). Solitary [5,2]: 7, 7 mod 3 = 1 -> 10.5; Duel empty: the 5 scores.
    m = game(["A", "B", "C"], rounds=1)
    m.resolve({"A": play(3, "Null"), "B": play(5, "Solitary"), "C": play(2, "Solitary")})
    assert m.state["points"] == {"A": 1, "B": 1, "C": 0}


def test_empty_room_policy_excluded():
    # Only Null occupied, score -1 ([1] -> [-1]). zero_included: the two empty rooms tie at 0 -> Null
    # scores as the third room. excluded: Null is the only room compared -> it scores as well.
    res = rooms(Null=[("a", 1)])
    assert room_scoring(res, "zero_included") == ["Null"]
    # Null [3] -> 45 alone among compared rooms; Solitary [-12] -> -12 (0 mod 3 != 1). An empty Duel at 0
    # would be a middle room; excluded compares only Null and Solitary: Null scores.
    res = rooms(Null=[("a", 3)], Solitary=[("b", -12)])
    assert room_scoring(res, "excluded") == ["Null"]
    # Tie between all occupied rooms with excluded: Null [6] = 9, Solitary [9] = 9 -> both score.
    res = rooms(Null=[("a", 6)], Solitary=[("b", 9)])
    assert room_scoring(res, "excluded") == ["Null", "Solitary"]
    assert room_scoring(res, "zero_included") == ["Duel"]  # two-room tie: the empty Duel "scores" nobody


# ---- garnets -----------------------------------------------------------------

def test_minus_10_takes_a_garnet_from_each_other_player_who_has_one():
    # R25-R27: A plays -10 in Null with B and C. B has 2 garnets and pays 1; C has 0 and pays nothing.
    m = new_match("three-modular-rooms", ["A", "B", "C"], seed=1, options={"rounds": 2},
                  garnets={"A": 0, "B": 2, "C": 0})
    rec = m.resolve({"A": play(-10, "Null"), "B": play(3, "Null"), "C": play(4, "Null")})
    assert m.ledger.balances(["A", "B", "C"]) == {"A": 1, "B": 1, "C": 0}
    assert "Card -10: you gained 1 garnet from B." in rec.private["A"].text()
    assert "You lost 1 garnet." in rec.private["B"].text()
    assert "A" not in rec.private["B"].text().replace("card", "")  # the payer is not told who took it
    assert "lost" not in rec.private["C"].text()


def test_two_minus_10s_take_only_from_those_who_can_pay_both():
    # A7-free room [-10,-10,3] (no 2): k = 2. C owes 2 but has 1: pays nothing (R26).
    # A and D owe each other 1 and both can pay: net zero.
    m = new_match("three-modular-rooms", ["A", "C", "D"], seed=1, options={"rounds": 2},
                  garnets={"A": 5, "C": 1, "D": 5})
    m.resolve({"A": play(-10, "Duel"), "C": play(3, "Duel"), "D": play(-10, "Duel")})
    assert m.ledger.balances(["A", "C", "D"]) == {"A": 5, "C": 1, "D": 5}
    assert len(m.rounds[0].ledger) == 4  # two payments, two collections


def test_card_purchase_is_charged_announced_mod_3_and_arrives_next_round():
    m = game(["A", "B"], garnets=10, rounds=3)
    rec = m.resolve({"A": play(7, "Null", buy="7"), "B": play(3, "Duel")})
    assert m.ledger.balance("A") == 5
    assert "A card was bought; its value mod 3 is 1." in rec.public.text()  # 7 mod 3 = 1 (R36)
    assert "A bought" not in rec.public.text()  # the buyer is never named (A26)
    assert m.state["hands"]["A"].count(7) == 1  # the played 7 is gone, the copy has arrived
    # -10 mod 3 = 2 (A20: mathematical remainder)
    rec = m.resolve({"A": play(7, "Null", buy="-10"), "B": play(4, "Duel")})
    assert "its value mod 3 is 2." in rec.public.text()


def test_unaffordable_purchases_are_all_rejected():
    m = game(["A", "B"], garnets=7, rounds=3)
    rec = m.resolve({"A": play(1, "Null", buy="7", hide="yes"), "B": play(3, "Duel")})  # 5 + 3 > 7
    assert m.ledger.balance("A") == 7
    assert "none were made and nothing was charged" in rec.private["A"].text()
    assert "bought" not in rec.public.text()


def test_hiding_shows_counts_only():
    m = game(["A", "B", "C"], garnets=5, rounds=3)
    rec = m.resolve({"A": play(1, "Null", hide="yes"), "B": play(3, "Null"), "C": play(4, "Duel")})
    text = rec.public.text()
    shown = {f.room: (f.players, f.hidden, f.counts_only) for f in of_type(rec.facts, RoomScored)}
    assert shown == {"Null": ((), 2, True), "Solitary": ((), 0, True), "Duel": ((), 1, True)}
    assert "Players (count) | 2 players | 0 players | 1 player" in text
    assert "B" not in text.split("Round 1: rooms")[1].replace("bought", "")
    assert m.ledger.balance("A") == 2


def test_final_round_card_purchase_rejected():
    m = game(["A", "B"], garnets=10, rounds=1)
    sub = m.parse("A", play(1, "Null", buy="5"))
    assert [p.field for p in sub.problems] == ["buy_cards"]
    assert sub.problems[0].kind is ProblemKind.ILLEGAL


# ---- submissions: missing and invalid -----------------------------------------

@pytest.mark.parametrize("card,kind,reason", [
    ("seven", ProblemKind.SYNTAX, "not a card number"),
    ("=1+1", ProblemKind.SYNTAX, "a formula"),
    ("13", ProblemKind.ILLEGAL, "no such card"),
    ("3, 5", ProblemKind.SYNTAX, "two cards"),
])
def test_bad_card_is_a_clear_problem(card, kind, reason):
    m = game(["Ann", "Bo"])
    sub = m.parse("Ann", play(card, "Null"))
    (prob,) = sub.problems
    assert prob.kind is kind and reason in prob.reason
    assert prob.label == "Card" and prob.message.startswith(f"Ann: Card = {card!r}")  # the label the player sees
    assert "allowed: 1, 2, 3" in prob.message and "random card" in prob.message
    assert sub.values["room"] == "Null"  # the valid part is kept (A24)


def test_card_already_played_and_unknown_room():
    m = game(["Ann", "Bo"])
    m.resolve({"Ann": play(3, "Null"), "Bo": play(4, "Duel")})
    sub = m.parse("Ann", play(3, "Lobby"))
    kinds = {p.field: p.kind for p in sub.problems}
    assert kinds == {"card": ProblemKind.ILLEGAL, "room": ProblemKind.SYNTAX}
    assert "already played" in sub.problems[0].reason
    assert "allowed: Null, Solitary or Duel" in sub.problems[1].message


def test_unicode_minus_and_case_are_accepted():
    m = game(["Ann", "Bo"])
    sub = m.parse("Ann", play("\u221210", " duel "))
    assert sub.valid and sub.values["card"] == -10 and sub.values["room"] == "Duel"


def test_missing_player_gets_random_play_and_cannot_score():
    # Bo submits nothing (R33, R34): a random card and room, no points whatever happens.
    m = game(["Ann", "Bo"], rounds=2)
    rec = m.resolve({"Ann": play(3, "Null")})
    assert m.state["points"]["Bo"] == 0
    assert len(m.state["hands"]["Bo"]) == 11  # the random card was used up (A1, A24)
    assert "You did not submit" in rec.private["Bo"].text()
    assert "Bo" in rec.public.text()  # still placed in a room, with no marker (A24)
    assert "did not submit" not in rec.public.text().lower()


def test_invalid_room_is_random_and_forfeits_points():
    # Ann alone would score 45 in Null with her 3; with an invalid room she cannot score.
    m = game(["Ann"], rounds=2)
    rec = m.resolve({"Ann": play(3, "Lobby")})
    assert m.state["points"]["Ann"] == 0
    assert "Your room was chosen at random" in rec.private["Ann"].text()


def test_minus_12_learns_pooled_faces():
    m = game(["A", "B", "C", "D"], rounds=2)
    rec = m.resolve({"A": play(-12, "Null"), "B": play(7, "Solitary"), "C": play(-11, "Duel"),
                     "D": play(2, "Null")})
    assert "Card -12: cards played in the other two rooms: -11, 7" in rec.private["A"].text()
    assert "-12" not in rec.private["B"].text()


# ---- end of game ---------------------------------------------------------------

def test_opal_challenge_single_completer_and_payouts():
    # Null [3] alone -> 45 (bonus). Solitary [4] -> 6 (4 mod 3 = 1, bonus). Duel [7] -> 7 mod 3 = 1: no
    # bonus. C is the only player without the bonus: opal challenge (R45). Null scores: A +1.
    m = game(["A", "B", "C"], rounds=1)
    rec = m.resolve({"A": play(3, "Null"), "B": play(4, "Solitary"), "C": play(7, "Duel")})
    out = m.outcome()
    assert out.winners == ("A",)
    assert {(a.player, a.kind, a.count) for a in out.awards} == {("A", "Token of Life", 2), ("A", "opal", 1),
                                                                 ("C", "opal", 1)}
    # 1 garnet per point at the end (R44): A +1.
    assert [(r.player, r.change, r.reason) for r in rec.ledger] == [("A", 1, "points payout")]


def test_loser_tie_broken_by_fewest_garnets():
    # A scores (Null 45); B and C tie on 0 points. Garnets after payouts: B 3, C 1 -> C to the EC (A31).
    m = new_match("three-modular-rooms", ["A", "B", "C"], seed=1, options={"rounds": 1},
                  garnets={"A": 0, "B": 3, "C": 1})
    m.resolve({"A": play(3, "Null"), "B": play(4, "Solitary"), "C": play(7, "Duel")})
    out = m.outcome()
    # R43: the winners vote first; until the host enters the vote the EC is pending, not a provisional pick.
    assert out.losers == ("B", "C") and out.elimination_candidate is None
    (vote,) = m.pending()
    assert (vote.key, vote.choices, vote.voters, vote.results_alone) == ("ec-vote", ("B", "C"), ("A",),
                                                                        ("no majority",))
    assert vote.default == "garnets would decide (B 3, C 1): C"
    # players read what waits; the question and its default are the host's (master host log, decide)
    assert "The Elimination Candidate will be announced after the winners' vote." in m.public_report().text()
    assert "Pending" not in m.public_report().text()
    # the result alone, as records before the ballots hold it, and as a host may still prefer
    m.decide("ec-vote", "no majority")                   # no majority: garnets decide, C has fewer
    assert m.outcome().elimination_candidate == "C" and not m.pending()
    assert "EC vote (A31): the host entered the result alone, no majority; no ballots recorded" in \
        m.outcome().host_log
    m.decide("ec-vote", "b")                             # a majority named B: B goes, whatever the garnets
    assert m.outcome().elimination_candidate == "B"
    assert "The winners' vote: B goes to the Elimination Candidate." in m.public_report().text()
    (cast,) = of_type(m.outcome().facts, WinnersVote)
    assert (cast.entered_as, cast.ballots, cast.result) == ("result", (), "B")


def _tied_end(points, garnets):
    """The last round (11) opened from a position, nobody submitting: nobody can score (R21), so the
    points stay as given; each gets +1 garnet per point at the end (A32)."""
    players = list(points)
    m = match_from_position("three-modular-rooms", players, {"round": 11, "hands": {p: [1, 2] for p in players},
                                                             "points": points}, garnets=garnets)
    m.resolve({})
    assert m.finished and {p: m.state["points"][p] for p in players} == points
    return m


def test_winners_ballots_decide_by_a_strict_majority_of_the_winners():
    """A31: "If losers tie, the host enters the winners' votes (each winner names one tied loser). A
    majority is strictly more than half of the winners. A single winner's vote decides. With no
    majority, the tied loser with the fewest garnets goes. Garnets are counted after the end-of-match
    payouts." Ruleset: "If there is a tie, the winners will decide the EC through majority vote. If
    there is no consensus, garnet counts will break the tie."
    Winners A, B, C (5 points), D, E, F tied on 1: a majority is 2 of 3 (strictly more than 1.5)."""
    m = _tied_end({"A": 5, "B": 5, "C": 5, "D": 1, "E": 1, "F": 1}, {"A": 0, "B": 0, "C": 0, "D": 1, "E": 5, "F": 3})
    bal = m.ledger.balances(m.players)
    assert m.outcome().losers == ("D", "E", "F")
    # A: E, B: D, C: E -> E 2 of 3: a majority, E goes whatever the garnets
    m.decide("ec-vote", "A: E; b: d, C : e")
    out = m.outcome()
    assert out.elimination_candidate == "E" and not m.pending()
    (cast,) = of_type(out.facts, WinnersVote)
    assert cast == WinnersVote(("A", "B", "C"), ("D", "E", "F"), (("A", "E"), ("B", "D"), ("C", "E")),
                               (("D", 1), ("E", 2), ("F", 0)), 2, "E", "ballots", audience=())
    assert "EC vote (A31): ballots A: E; B: D; C: E; tally D 1, E 2, F 0; a majority is 2 of 3: E" in out.host_log
    assert "The winners' vote (D 1, E 2, F 0; a majority is 2 of 3): E goes to the Elimination Candidate." \
        in out.reasons
    assert m.decisions["ec-vote"] == {"A": "E", "B": "D", "C": "E"}
    # A: D, B: E, C: F -> 1 each: no majority; the fewest garnets after the payouts goes
    m.decide("ec-vote", "A: D; B: E; C: F")
    fewest = min(("D", "E", "F"), key=lambda p: bal[p])
    assert [p for p in "DEF" if bal[p] == bal[fewest]] == [fewest]        # the position makes it unique
    assert m.outcome().elimination_candidate == fewest
    (cast,) = of_type(m.outcome().facts, WinnersVote)
    assert (cast.tally, cast.result) == ((("D", 1), ("E", 1), ("F", 1)), "no majority")
    assert f"Garnets decide ({', '.join(f'{p} {bal[p]}' for p in 'DEF')}): {fewest} goes to the Elimination " \
           "Candidate." in m.outcome().reasons
    # an old record's decision, the result alone, still works
    m.decisions["ec-vote"] = "F"
    assert m.outcome().elimination_candidate == "F"


def test_a_single_winners_ballot_decides_and_every_ballot_is_checked():
    """A31: "A single winner's vote decides" (1 of 1 is more than half). Each ballot must come from a
    winner and name a tied loser, once per winner."""
    m = _tied_end({"A": 6, "B": 2, "C": 1, "D": 1}, {p: 0 for p in "ABCD"})
    (vote,) = m.pending()
    assert vote.voters == ("A",) and vote.choices == ("C", "D")
    m.decide("ec-vote", "A: D")
    assert m.outcome().elimination_candidate == "D"
    (cast,) = of_type(m.outcome().facts, WinnersVote)
    assert (cast.majority, cast.tally, cast.result) == (1, (("C", 0), ("D", 1)), "D")
    m2 = _tied_end({"A": 5, "B": 5, "C": 1, "D": 1}, {p: 0 for p in "ABCD"})
    for typed, message in [("A: C", "no ballot from B"), ("A: C; B: B", "B names 'B', not one of C, D"),
                           ("A: C; C: D", "'C' is not a voter (voters: A, B)"), ("A: C; A: D", "A votes twice"),
                           ("A C; B: D", "'A C' is not a ballot 'voter: choice'")]:
        with pytest.raises(UsageError) as err:
            m2.decide("ec-vote", typed)
        assert message in str(err.value) and "\n" not in str(err.value)
    assert "ec-vote" not in m2.decisions
    # two winners split 1-1: no majority (2 of 2 needed); garnets after payouts C 1, D 1 tied: the host
    m2.decide("ec-vote", "A: C; B: D")
    assert [r.key for r in m2.pending()] == ["ec-host"] and m2.outcome().elimination_candidate is None


def test_ballots_typed_in_the_decisions_tab_of_a_real_master(tmp_path):
    """End to end on xlsx files: 5 players, 1 round; Ann, Bo and Cy play 9 in Solitary and score, Dee
    and Eli do not submit (no score, R21): Dee and Eli tie on 0 with 10 garnets each. The host types
    the three ballots in the master's Decisions tab; `decide` applies A31 (Eli 2 of 3) and writes the
    outcome, the tab (reading back the same) and the ballots with the tally in the host's Log tab."""
    import openpyxl
    from test_cli_xlsx import run, type_submission
    folder = tmp_path / "game"
    run("new", "three-modular-rooms", "--players", "Ann,Bo,Cy,Dee,Eli", "--out", folder, "--garnets", "10",
        "--option", "rounds=1", "--seed", "0")
    for p in ("Ann", "Bo", "Cy"):
        type_submission(folder / "players" / f"{p}.xlsx", "Your play", ["9", "Solitary"])
    run("resolve", folder, "--allow-empty")
    wb = openpyxl.load_workbook(folder / "master.xlsx")
    ws = wb["Decisions"]
    (row,) = [r for r in range(1, ws.max_row + 1) if ws.cell(r, 1).value == "ec-vote"]
    ws.cell(row, 5).value = "Ann: Eli; Bo: Dee; Cy: Eli"
    wb.save(folder / "master.xlsx")
    assert "decision ec-vote entered from the Decisions tab" in run("decide", folder).output
    book = openpyxl.load_workbook(folder / "master.xlsx")
    assert book["Decisions"].cell(row, 5).value == "Ann: Eli; Bo: Dee; Cy: Eli"
    board = "\n".join(str(v) for r in book["Board"].iter_rows(values_only=True) for v in r if v is not None)
    assert "Elimination Candidate: Eli" in board
    assert "The winners' vote (Dee 1, Eli 2; a majority is 2 of 3): Eli goes to the Elimination Candidate." in board
    log = [tuple(r[:2]) for r in book["Host log"].iter_rows(values_only=True)]
    assert ("end", "EC vote (A31): ballots Ann: Eli; Bo: Dee; Cy: Eli; tally Dee 1, Eli 2; a majority is 2 of 3: "
                   "Eli") in log
    assert "No decision is pending." in run("decide", folder).output          # the tab reads back the same
    bad = run("decide", folder, "ec-vote", "Ann: Eli; Bo: Zed; Cy: Eli", ok=False)
    assert bad.exit_code != 0 and "Bo names 'Zed', not one of Dee, Eli" in bad.output
    assert "Traceback" not in bad.output and len(bad.output.strip().splitlines()) == 1
    run("decide", folder, "ec-vote", "Dee")         # the result alone, as a host may prefer: recorded as such
    book = openpyxl.load_workbook(folder / "master.xlsx")
    assert book["Decisions"].cell(row, 5).value == "Dee"
    assert ("end", "EC vote (A31): the host entered the result alone, Dee; no ballots recorded") in \
        [tuple(r[:2]) for r in book["Host log"].iter_rows(values_only=True)]


def test_calculator_trace_never_touches_a_game():
    lines = calculate({"Null": [1, 5, 6, 6]})
    assert "Null: cards [1, 5, 6, 6]" in lines[0]
    assert lines[-1] == "Scoring room(s): Null"


# ---- round results as data (typed facts), pictures, positions ---------------------

def test_every_fact_of_a_hand_computed_round():
    # Null: A 1, B 5 -> step 1 negates the maximum 5: [1, -5]; base -4, -4 mod 3 = 2: no Null bonus -> -4.
    # Solitary: C 3 alone -> [30]; 30 mod 3 = 0: no Solitary bonus -> 30. Duel: D -10 alone -> -10,
    # -10 mod 3 = 2 -> Duel 1.5x = -15. Highest: Solitary 30 -> C scores 1 (R30). Card 5: no empty room, no point.
    # D's -10 collects from nobody (alone): told "0 garnets" (A16). B bought a 7 for 5 (7 mod 3 = 1, R36).
    m = game(["A", "B", "C", "D"], garnets=6, rounds=3)
    rec = m.resolve({"A": play(1, "Null"), "B": play(5, "Null", buy="7"), "C": play(3, "Solitary"),
                     "D": play(-10, "Duel")})
    from sheetbridge.games import three_modular_rooms as T
    scored = {f.room: (f.players, f.hidden, f.score) for f in of_type(rec.facts, T.RoomScored)}
    assert scored == {"Null": (("A", "B"), 0, -4.0), "Solitary": (("C",), 0, 30.0), "Duel": (("D",), 0, -15.0)}
    calc = {f.room: f for f in of_type(rec.facts, T.RoomCalculation)}
    assert calc["Null"].final_values == (1, -5) and calc["Null"].base == -4 and calc["Null"].multiplier == 1.0
    assert calc["Solitary"].final_values == (30,) and not calc["Solitary"].criterion_met
    assert calc["Duel"].multiplier == 1.5 and calc["Duel"].score == -15.0 and calc["Duel"].criterion_met
    assert [(c.owner, c.face, c.ignored) for c in calc["Null"].cards] == [("A", 1, False), ("B", 5, False)]
    assert of_type(rec.facts, T.RoomsScoring)[0].rooms == ("Solitary",)
    assert {f.player: f.points for f in of_type(rec.facts, T.PointsGained)} == {"A": 0, "B": 0, "C": 1, "D": 0}
    assert [(f.player, f.card, f.room) for f in of_type(rec.facts, T.CardPlayed)] == [
        ("A", 1, "Null"), ("B", 5, "Null"), ("C", 3, "Solitary"), ("D", -10, "Duel")]
    assert [(f.player, f.kind, f.card, f.accepted, f.arrives) for f in of_type(rec.facts, T.Purchase)] == [
        ("B", "card", 7, True, 2)]
    assert [f.mod3 for f in of_type(rec.facts, T.CardBoughtAnnounced)] == [1]
    assert [(f.player, f.garnets, f.payers) for f in of_type(rec.facts, T.GarnetsGained)] == [("D", 0, ())]
    # Who may know what: the calculation and the scoring rooms are the host's alone (A28).
    for f in of_type(rec.facts, T.RoomCalculation, T.RoomsScoring):
        assert f.audience == ()
    assert all(f.audience == ("B",) for f in of_type(rec.facts, T.Purchase))


def test_an_ignored_minus_10_is_told_it_gained_0_like_any_other(monkeypatch):
    # Null: A 2, B -10, C -10. Card 2 ignores duplicated faces (R14): both -10s are ignored and take
    # nothing. A16: every -10 player is still told what they gained, 0, so the notice hides the ignore.
    m = game(["A", "B", "C"], garnets=3, rounds=2)
    rec = m.resolve({"A": play(2, "Null"), "B": play(-10, "Null"), "C": play(-10, "Null")})
    assert m.ledger.balances(m.players) == {"A": 3, "B": 3, "C": 3}
    for p in ("B", "C"):
        assert "Card -10: you gained 0 garnets." in rec.private[p].text()
    assert "Card -10" not in rec.private["A"].text() and "lost" not in rec.private["A"].text()


def test_the_board_picture_shows_each_room_in_its_colour():
    from sheetbridge.host.picture_files import round_pictures
    from sheetbridge.host.pictures import draw
    m = game(["A", "B", "C"], rounds=2)
    m.resolve({"A": play(1, "Null"), "B": play(5, "Solitary"), "C": play(3, "Duel")})
    pics = round_pictures(m, 1)
    assert set(pics) == {"board"}                          # no private picture in this game
    img = draw(pics["board"])
    # Boxes are 180 wide from x = 10, 200, 390 at y = 36: a point inside each, away from the text.
    assert img.getpixel((150, 170)) == (0xD9, 0xD9, 0xD9)   # Null
    assert img.getpixel((340, 170)) == (0xBD, 0xD7, 0xEE)   # Solitary
    assert img.getpixel((530, 170)) == (0xF8, 0xCB, 0xAD)   # Duel
    assert img.getpixel((5, 100)) == (255, 255, 255)        # the background
    labels = [s.text for s in pics["board"].shapes if hasattr(s, "text")]
    # A's 1 alone negates itself: -1. B's 5 (no empty room): 5. C's 3 alone -> 30, 0 mod 3: no Duel bonus.
    assert {"Null", "A", "score -1", "score 5", "score 30"} <= set(labels)


def test_a_game_opened_from_a_position_plays_on_and_replays():
    from sheetbridge.core.errors import PositionError
    pos = {"round": 10, "hands": {"A": [3, 9], "B": [-10, 5]}, "points": {"A": 7, "B": 9}}
    m = match_from_position("three-modular-rooms", ["A", "B"], pos, garnets={"A": 4, "B": 4})
    assert m.round == 10 and m.state["hands"]["A"] == [3, 9]
    # Round 10: A's 3 alone in Null -> [30], 0 mod 3 -> 45, the highest room: A +1. B's 5 alone in Duel
    # while Solitary is empty: card 5 scores (R18): B +1.
    m.resolve({"A": play(3, "Null"), "B": play(5, "Duel")})
    assert m.state["points"] == {"A": 8, "B": 10}
    back = load_match(m.to_json(), m.ledger.rows)
    back.replay()                                            # replay starts from the position
    assert back.state == m.state
    for bad, message in [({"round": 13}, "a position opens a round from 1 to 11"),
                         ({"round": 10, "hands": {"A": [3], "B": [1, 2]}}, "A holds 1 card(s) but 2 round(s)"),
                         ({"round": 2, "hands": {"A": [13] * 11, "B": [1] * 11}}, "13"),
                         ({"round": 2, "hands": {"A": [1] * 11, "B": [1] * 11}, "points": {"A": 3}},
                          "0 to 2"),
                         ({"round": 1, "cards": []}, "unknown position key"),
                         ({"round": 3, "hands": {"A": [1] * 9, "Zed": [1] * 9}}, "Zed is not a player")]:
        with pytest.raises(PositionError, match=re.escape(message)):
            match_from_position("three-modular-rooms", ["A", "B"], bad)


def test_preview_shows_a_round_without_touching_the_game():
    m = game(["A", "B"], garnets=5, rounds=3)
    before = (m.to_json(), [r.as_list() for r in m.ledger.rows])
    rec = m.preview({"A": play(3, "Null", buy="7"), "B": play(-10, "Null")})
    assert rec.round == 1 and any(r.change == -5 for r in rec.ledger)
    assert (m.to_json(), [r.as_list() for r in m.ledger.rows]) == before


def test_any_number_of_players_plays_as_the_rules_name_no_limit():
    """R1 designs the game for 9 and names no limit: 31 and 100 players set up and resolve a round (the
    spec used to stop at 30); the one limit left is at least one player."""
    from sheetbridge.core.errors import UsageError
    from sheetbridge.core.match import random_submissions
    from sheetbridge.core.rng import Rng
    for n in (31, 100):
        m = new_match("three-modular-rooms", [f"P{i}" for i in range(n)], seed=1)
        rec = m.resolve(random_submissions(m, Rng.from_seed(2, "players")))
        assert rec.round == 1 and len(rec.private) == n
    with pytest.raises(UsageError, match="takes at least 1 player; 0 given"):
        new_match("three-modular-rooms", [], seed=1)
