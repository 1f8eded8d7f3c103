"""Skeld: Sequences and the end (R44-R51, R58-R61), and the Gamewide Tiebreak decisions (R49)."""
from sheetbridge.core.decisions import DecisionKind
from sheetbridge.core.facts import of_type
from sheetbridge.games import skeld
from sheetbridge.games.skeld import decide, sequence_value

from .helpers import PLAYERS, conductor_match, give, new_match, place, row, sub, text


# ------------------------------------------------------------------ Sequences and the end (R44-R51, R58-R61)

def test_ruleset_example_sequence_value_tiebreak_30_vs_29():
    m = conductor_match()
    m.resolve({"Ann": sub(row(room="12C", energy="1"))})
    assert m.finished
    out = m.outcome()
    # both hold 5 pieces (R45), Marcer's value 30 beats uri's 29 (R46)
    assert out.winners == ("Marcer",)
    assert [a.kind for a in out.awards] == ["Token of Life"] and out.awards[0].player == "Marcer"
    # R51: no plant ever; lowest Conductor value among the others: Ann 12 (Spadez 20, uri 29)
    assert out.elimination_candidate == "Ann"
    assert "Conductor Sequence activated in round 1" in text(m.rounds[-1].public)
    # the numbers behind the result are in the final standings, once
    pub = text(m.public_report())
    assert "Marcer: Conductor: 5 pieces, value 30" in pub and "uri: Conductor: 5 pieces, value 29" in pub
    assert pub.count("Marcer: Conductor: 5 pieces, value 30") == 1
    (done,) = of_type(m.rounds[-1].facts, skeld.SequenceCompleted)
    assert {(f.player, f.pieces, f.value) for f in done.standings} == {
        ("Marcer", 5, 30), ("uri", 5, 29), ("Spadez", 2, 20), ("Ann", 1, 12)}
    # R64: 1 garnet per 3 components: uri 5 -> 1, Marcer 5 -> 1, Spadez 2 -> 0, Ann 1 -> 0
    paid = {r.player: r.change for r in m.rounds[-1].ledger}
    assert paid == {"uri": 1, "Marcer": 1}
    assert m.ledger.balance("uri") == 11 and m.ledger.balance("Ann") == 10


def test_decide_ruleset_example_three_sequences_77_to_75():
    comps = {
        # Frontier: Spadez 13+12+11+10+3 = 49, Marcer 9, uri 8+7+2 = 17, Ann 1+4+5+6 = 16 (sum 91)
        # Greenhouse: Marcer 49, Spadez 8, uri 9+7+6 = 22, Ann 1+2+4+5 = 12 (sum 91)
        # Conductor: uri 13+12+7 = 32, Spadez 11+6+1 = 18, Marcer 10+9 = 19, Ann 2+3+4+5+8 = 22 (91)
        "Spadez": ["13A", "12A", "11A", "10A", "3A", "8B", "11C", "6C", "1C"],
        "Marcer": ["9A", "13B", "12B", "11B", "10B", "3B", "10C", "9C"],
        "uri": ["8A", "7A", "2A", "9B", "7B", "6B", "13C", "12C", "7C"],
        "Ann": ["1A", "4A", "5A", "6A", "1B", "2B", "4B", "5B", "2C", "3C", "4C", "5C", "8C"],
    }
    assert sorted(c for v in comps.values() for c in v) == sorted(skeld.COMPONENTS)
    assert sequence_value(comps["Spadez"], "A") == 49 and sequence_value(comps["Marcer"], "B") == 49
    assert sequence_value(comps["uri"], "C") == 32
    res = decide(PLAYERS, comps, ["A", "B", "C"], [], skeld.DEFAULTS)
    # best single values: Spadez 49, Marcer 49, uri 32, Ann 22 -> tie 49; sums Marcer 77 > Spadez 75
    assert res["winners"] == ["Marcer"]
    # EC (A27 sum): Spadez 75, uri 17 + 22 + 32 = 71, Ann 16 + 12 + 22 = 50 -> Ann
    assert res["ec"] == "Ann"
    assert "sum 77" in res["numbers"]["Marcer"] and "sum 75" in res["numbers"]["Spadez"]


def test_three_sequences_completed_in_one_round_end_to_end():
    comps = {
        "Spadez": ["13A", "12A", "11A", "10A", "8B", "11C", "6C", "1C"],  # 3A left
        "Marcer": ["9A", "13B", "12B", "11B", "10B", "10C", "9C"],         # 3B left
        "uri": ["8A", "7A", "2A", "9B", "7B", "6B", "13C", "12C"],         # 7C left
        "Ann": ["1A", "4A", "5A", "6A", "1B", "2B", "4B", "5B", "2C", "3C", "4C", "5C", "8C"],
    }
    m = new_match()
    for p, labs in comps.items():
        give(m, p, labs)
    place(m, "Spadez", 0, "3A", energy=5)
    place(m, "Marcer", 0, "3B", energy=5)
    place(m, "uri", 0, "7C", energy=5)
    m.resolve({p: sub(row(room=room, energy="1")) for p, room in (("Spadez", "3A"), ("Marcer", "3B"), ("uri", "7C"))})
    out = m.outcome()
    assert out.winners == ("Marcer",) and out.elimination_candidate == "Ann"
    facts = m.rounds[-1].facts
    assert [f.name for f in of_type(facts, skeld.SequenceCompleted)] == ["Frontier", "Greenhouse", "Conductor"]
    best = {f.player: (f.best_value, f.best_sequences, f.total) for f in of_type(facts, skeld.MultiSequenceStanding)}
    assert best == {"Marcer": (49, ("B",), 77), "uri": (32, ("C",), 71), "Spadez": (49, ("A",), 75),
                    "Ann": (22, ("C",), 50)}
    assert "Frontier Sequence and Greenhouse Sequence and Conductor Sequence activated" in text(m.rounds[-1].public)


def test_correct_plant_wins_and_the_would_be_winner_is_ec():
    m = conductor_match()
    place(m, "Spadez", 0, "V", energy=5, parasite=True)
    m.resolve({"Ann": sub(row(room="12C", energy="1")), "Spadez": sub(row(room="V", energy="3"))})
    out = m.outcome()
    assert out.winners == ("Spadez",)  # R53, R58
    assert out.awards[0].player == "Spadez" and out.awards[0].kind == "Token of Life"
    assert out.elimination_candidate == "Marcer"  # R60: would have won with 30


def test_tied_plants_fail_and_the_tied_planter_with_the_lowest_value_is_ec():
    m = conductor_match()
    place(m, "Spadez", 0, "V", energy=5, parasite=True)
    place(m, "uri", 0, "V", energy=5, parasite=True)
    m.resolve({"Ann": sub(row(room="12C", energy="1")), "Spadez": sub(row(room="V", energy="4")), "uri": sub(row(room="V", energy="4"))})
    out = m.outcome()
    assert out.winners == ("Marcer",)  # R59: normal winner
    # A25: both tied plants are improper; lowest Conductor value among uri 29, Spadez 20: Spadez
    assert out.elimination_candidate == "Spadez"


def test_higher_planter_wins_over_a_lower_one():
    m = conductor_match()
    place(m, "Spadez", 0, "V", energy=5, parasite=True)
    place(m, "uri", 0, "V", energy=5, parasite=True)
    m.resolve({"Ann": sub(row(room="12C", energy="1")), "Spadez": sub(row(room="V", energy="3")), "uri": sub(row(room="V", energy="5"))})
    out = m.outcome()
    assert out.winners == ("uri",) and out.elimination_candidate == "Marcer"


def test_planter_who_would_have_won_anyway_falls_back():
    m = conductor_match()
    place(m, "Marcer", 0, "V", energy=5, parasite=True)
    m.resolve({"Ann": sub(row(room="12C", energy="1")), "Marcer": sub(row(room="V", energy="3"))})
    out = m.outcome()
    # A28 fallback: no improper planters, so R51 among the others: Ann 12
    assert out.winners == ("Marcer",) and out.elimination_candidate == "Ann"
    m2 = conductor_match(options={"planter_was_winner_ec": "runner_up"})
    place(m2, "Marcer", 0, "V", energy=5, parasite=True)
    m2.resolve({"Ann": sub(row(room="12C", energy="1")), "Marcer": sub(row(room="V", energy="3"))})
    assert m2.outcome().elimination_candidate == "uri"  # 5 pieces, 29


def _result(m):
    (res,) = of_type(m.outcome().facts, skeld.MainMatchResult)
    assert res.audience == skeld.PUBLIC      # section (c): winner, method and the EC's rule are revealed
    return (res.normal_winner, res.parasite_winner, res.parasite_energy, res.no_parasite_winner, res.tied_planters,
            res.winner, res.method, res.elimination_candidate, res.ec_rule, res.ec_by_gt)


def test_end_facts_name_the_normal_winner_beside_the_parasite_winner():
    """Section (d), steps 2-5, on the ruleset's 30 vs 29 Conductor example (Marcer 30, uri 29, Spadez
    20, Ann 12 after taking 12C). Step 2: NW = Marcer (5 pieces, 30 beats 29). Step 3: PW = the unique
    top V Energy of the round's plants, none if the top is tied (A24). Step 4: winner = PW, else NW.
    Step 5: (a) PW != NW: EC = NW (R60); PW == NW: A28 fallback, the lowest among the others (R51): Ann
    12; (b) improper planters: the lowest of them (R61, A25); (c) else R51."""
    # Marcer plants (3 Energy) and would have won anyway: NW and PW are both Marcer (A28 fallback)
    m = conductor_match()
    place(m, "Marcer", 0, "V", energy=5, parasite=True)
    m.resolve({"Ann": sub(row(room="12C", energy="1")), "Marcer": sub(row(room="V", energy="3"))})
    assert _result(m) == ("Marcer", "Marcer", 3, "", (), "Marcer", "parasite", "Ann", "lowest_metric", False)
    # the same with planter_was_winner_ec = runner_up: uri (5 pieces, 29) goes
    m = conductor_match(options={"planter_was_winner_ec": "runner_up"})
    place(m, "Marcer", 0, "V", energy=5, parasite=True)
    m.resolve({"Ann": sub(row(room="12C", energy="1")), "Marcer": sub(row(room="V", energy="3"))})
    assert _result(m) == ("Marcer", "Marcer", 3, "", (), "Marcer", "parasite", "uri", "runner_up", False)
    # Spadez plants: PW Spadez != NW Marcer, so Marcer goes to the EC (R60)
    m = conductor_match()
    place(m, "Spadez", 0, "V", energy=5, parasite=True)
    m.resolve({"Ann": sub(row(room="12C", energy="1")), "Spadez": sub(row(room="V", energy="3"))})
    assert _result(m) == ("Marcer", "Spadez", 3, "", (), "Spadez", "parasite", "Marcer", "would_have_won", False)
    # Spadez and uri both plant with 4: tied top, no Parasite winner (A24); both improper (A25): Spadez 20
    m = conductor_match()
    place(m, "Spadez", 0, "V", energy=5, parasite=True)
    place(m, "uri", 0, "V", energy=5, parasite=True)
    m.resolve({"Ann": sub(row(room="12C", energy="1")), "Spadez": sub(row(room="V", energy="4")),
               "uri": sub(row(room="V", energy="4"))})
    assert _result(m) == ("Marcer", None, None, "tied", ("Spadez", "uri"), "Marcer", "normal", "Spadez",
                          "improper_planter", False)
    # no plant at all: NW wins, R51 among the others: Ann 12
    m = conductor_match()
    m.resolve({"Ann": sub(row(room="12C", energy="1"))})
    assert _result(m) == ("Marcer", None, None, "no_plant", (), "Marcer", "normal", "Ann", "lowest_metric", False)


def test_tie_after_all_tiebreaks_goes_to_gamewide_tiebreak():
    comps = {"Marcer": ["1A", "12A"], "uri": ["13A"], "Spadez": ["2A"], "Ann": ["3A"]}
    res = decide(PLAYERS, comps, [], [], skeld.DEFAULTS)  # totals 13, 13, 2, 3
    assert res["winners"] == [] and res["winner"] is None and res["normal_group"] == ["Marcer", "uri"]  # pending
    (req,) = res["requests"]
    assert req.key == "gt-winner" and req.kind is DecisionKind.RANKING and req.choices == ("Marcer", "uri")
    # whoever wins the tie, the lowest total among the others is Spadez's 2: the EC is settled already
    assert res["ec"] == "Spadez"
    res = decide(PLAYERS, comps, [], [], skeld.DEFAULTS, {"gt-winner": ["uri", "Marcer"]})
    assert res["winners"] == ["uri"] and res["winner"] == "uri"
    assert [r.key for r in res["requests"]] == ["gt-winner"]   # still asked (it can be changed), now applied


def test_game_ends_after_round_8_with_highest_total():
    m = new_match()
    give(m, "uri", ["13A", "1B"])     # 14
    give(m, "Ann", ["12C"])           # 12
    give(m, "Marcer", ["5A", "4C"])   # 9
    give(m, "Spadez", ["1A", "2A", "3A"])  # 6, 3 components -> 1 garnet
    for r in range(1, 9):
        assert not m.finished
        m.resolve({})
    assert m.finished and m.state["round"] == 8
    out = m.outcome()
    assert out.winners == ("uri",) and out.elimination_candidate == "Spadez"
    assert {r.player: r.change for r in m.rounds[-1].ledger} == {"Spadez": 1}
    assert all(f.next_start is None for f in of_type(m.rounds[-1].facts, skeld.EnergyAccount))  # R39 omitted
    (limit,) = of_type(m.rounds[-1].facts, skeld.RoundLimitReached)
    assert {(t.player, t.value) for t in limit.standings} == {("uri", 14), ("Ann", 12), ("Marcer", 9), ("Spadez", 6)}
    assert "Energy at the start" not in text(m.rounds[-1].private["uri"])


def test_zurich_is_worth_four_garnets_at_the_end():
    m = new_match(options={"max_rounds": "1"})
    place(m, "Ann", 0, "Z", energy=5)
    m.resolve({"Ann": sub(row(room="Z", energy="1"))})
    assert {r.player: r.change for r in m.rounds[-1].ledger} == {"Ann": 4}


# ------------------------------------------------------------------ decisions: the Gamewide Tiebreak (R49)

TIED_CONDUCTOR = {  # 5 pieces and value 30 each: tied on both (R45, R46); 12C is left for the last round
    "uri": ["1C", "2C", "6C", "8C", "13C"],     # 1 + 2 + 6 + 8 + 13 = 30
    "Marcer": ["3C", "4C", "5C", "7C", "11C"],  # 3 + 4 + 5 + 7 + 11 = 30
    "Spadez": ["9C", "10C"],                    # 19
    "Ann": [],                                  # 12C this round: 12
}


def tied_match(**kw):
    m = new_match(**kw)
    for p, labs in TIED_CONDUCTOR.items():
        give(m, p, labs)
    place(m, "Ann", 0, "12C", energy=5)
    return m


def test_a_tie_for_the_win_waits_for_the_gamewide_tiebreak():
    m = tied_match()
    m.resolve({"Ann": sub(row(room="12C", energy="1"))})
    out = m.outcome()
    # Pending: nobody is named winner and nobody gets the Token of Life yet. Whoever wins, the EC is the
    # lowest Conductor value among the others: Ann 12 (Spadez 19, the other tied player 30).
    assert out.winners == () and out.awards == () and out.elimination_candidate == "Ann"
    assert out.losers == ("Spadez", "Ann") and [p for p, _ in out.standings] == ["Marcer", "uri", "Spadez", "Ann"]
    (req,) = m.pending()
    assert (req.key, req.kind, req.choices) == ("gt-winner", DecisionKind.RANKING, ("Marcer", "uri"))
    assert "no Token of Life" in req.default
    board = m.public_report().text()
    assert "The winner will be announced after the tiebreak." in board and "for the host" not in board
    assert out.ending == "sequence_tiebreak" and out.scores == {"Marcer": 30.0, "uri": 30.0, "Spadez": 19.0,
                                                                 "Ann": 12.0}
    m.decide("gt-winner", "uri, Marcer")
    out = m.outcome()
    assert out.winners == ("uri",) and [(a.player, a.kind) for a in out.awards] == [("uri", "Token of Life")]
    assert out.losers[0] == "Marcer" and not m.pending()
    m.decide("gt-winner", "Marcer, uri")   # a ranking can be corrected
    assert m.outcome().winners == ("Marcer",)


def test_a_tie_for_the_elimination_candidate_waits_for_the_gamewide_tiebreak():
    # Round limit (max_rounds 1): totals Marcer 13, uri 12, Spadez 5, Ann 5: Marcer wins (R50); the
    # lowest total is tied between Spadez and Ann (A29): pending until the host ranks them.
    m = new_match(options={"max_rounds": "1"})
    for p, lab in (("Marcer", "13A"), ("uri", "12A"), ("Spadez", "5A"), ("Ann", "5B")):
        give(m, p, [lab])
    m.resolve({})
    out = m.outcome()
    assert out.winners == ("Marcer",) and out.elimination_candidate is None
    (req,) = m.pending()
    assert req.key == "gt-ec" and req.choices == ("Ann", "Spadez") and req.default == "no Elimination Candidate yet"
    assert "The Elimination Candidate will be announced after the tiebreak." in m.public_report().text()
    m.decide("gt-ec", "Spadez, Ann")       # best first: the last goes to the EC
    assert m.outcome().elimination_candidate == "Ann"
    m.decide("gt-ec", "Ann, Spadez")
    assert m.outcome().elimination_candidate == "Spadez"


def test_after_a_winning_plant_the_tied_would_be_winners_wait_for_the_gamewide_tiebreak():
    # Spadez plants alone in the round Conductor is activated: Spadez wins (R58). The EC is who would
    # have won without the Parasite (R60): Marcer and uri are tied, so the GT decides who.
    m = tied_match()
    place(m, "Spadez", 0, "V", energy=5, parasite=True)
    rec = m.resolve({"Ann": sub(row(room="12C", energy="1")), "Spadez": sub(row(room="V", energy="3"))})
    out = m.outcome()
    assert out.winners == ("Spadez",) and out.awards[0].player == "Spadez" and out.elimination_candidate is None
    assert out.ending == "parasite"
    (req,) = m.pending()
    assert req.key == "gt-winner" and "would have won without the Parasite" in req.question
    (res,) = of_type(out.facts, skeld.MainMatchResult)    # NW pending: the tied are named, no EC yet
    assert (res.normal_winner, res.normal_tied, res.parasite_winner, res.elimination_candidate, res.ec_rule) == \
        (None, ("Marcer", "uri"), "Spadez", None, "")
    m.decide("gt-winner", "uri, Marcer")
    assert m.outcome().elimination_candidate == "uri" and m.outcome().winners == ("Spadez",)
    (res,) = of_type(m.outcome().facts, skeld.MainMatchResult)
    assert (res.normal_winner, res.normal_tied, res.winner, res.elimination_candidate, res.ec_rule) == \
        ("uri", ("Marcer", "uri"), "Spadez", "uri", "would_have_won")
    (plant,) = of_type(rec.facts, skeld.ParasitePlant)
    assert (plant.player, plant.verdict, plant.improper, plant.audience) == ("Spadez", "correct", False, ("*",))


def test_a_runner_up_tie_waits_for_the_gamewide_tiebreak():
    # planter_was_winner_ec = runner_up: Marcer planted and would have won anyway (30); runner-up
    # uri and Spadez tied at 2 pieces, value 13 (13C vs 6C + 7C).
    comps = {"Marcer": ["1C", "2C", "3C", "4C", "5C", "8C", "9C"], "uri": ["13C", "10C"], "Spadez": ["6C", "7C"],
             "Ann": ["11C", "12C"]}
    plants = [{"player": "Marcer", "energy": 3, "verdict": "correct", "improper": False}]
    opts = dict(skeld.DEFAULTS, planter_was_winner_ec="runner_up")
    # uri 2 pieces 23, Spadez 2 pieces 13, Ann 2 pieces 23: uri and Ann tie for runner-up
    res = decide(PLAYERS, comps, ["C"], plants, opts)
    assert res["winners"] == ["Marcer"] and res["ec"] is None
    assert [(r.key, r.choices) for r in res["requests"]] == [("gt-runner-up", ("Ann", "uri"))]
    res = decide(PLAYERS, comps, ["C"], plants, opts, {"gt-runner-up": ["uri", "Ann"]})
    assert res["ec"] == "uri"
