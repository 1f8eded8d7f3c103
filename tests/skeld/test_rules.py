"""Skeld: a round's rules by hand: energy and movement, activation contention, disable, bonuses,
cap raises and the parasite."""
from sheetbridge.core.facts import of_type, visible
from sheetbridge.core.types import ProblemKind
from sheetbridge.games import skeld
from sheetbridge.games.skeld import GAME, contention_winner

from .helpers import PLAYERS, crew, give, new_match, place, row, sub, text


# ------------------------------------------------------------------ energy and movement (R13-R21, A3, A8)

def test_income_and_cap():
    m = new_match()
    m.resolve({})  # nobody acts: 5 + 3 = 8, capped at 7 (R14, R15)
    assert all(c["energy"] == 7 for p in PLAYERS for c in m.state["crew"][p])


def test_move_cost_and_leftover_energy():
    m = new_match()
    place(m, "uri", 0, "1A", energy=5)
    # 1A -> 11A along row 1: 4 tiles (2A, 3A, S, 11A) = 4 Energy (A3); 5 - 4 = 1 left; next 1 + 3 = 4
    m.resolve({"uri": sub(row(move="11A"))})
    assert crew(m, "uri", 0)["pos"] == "11A"
    assert crew(m, "uri", 0)["energy"] == 4


def test_move_off_row_or_column_is_refused_and_the_crewmate_stays():
    m = new_match()
    place(m, "uri", 0, "1A", energy=5)
    s = m.parse("uri", sub(row(move="2B")))  # 2B is diagonal from 1A
    (p,) = s.problems
    assert p.kind is ProblemKind.ILLEGAL and p.player == "uri" and p.field == "CrewA move_to"
    assert p.value == "2B" and "same row or column as 1A" in p.allowed and "stays in 1A" in p.default
    m.resolve({"uri": sub(row(move="2B"))})
    assert crew(m, "uri", 0)["pos"] == "1A"
    assert crew(m, "uri", 0)["energy"] == 7  # nothing spent: 5 + 3 = 8 -> cap 7
    (told,) = of_type(m.rounds[-1].facts, skeld.SubmissionProblem)  # the problem is reported privately
    assert told.audience == ("uri",) and told.problem.value == "2B"
    assert told.problem.text in text(m.rounds[-1].private["uri"])   # uri's own: not named to uri


def test_move_beyond_energy_is_refused():
    m = new_match()
    place(m, "uri", 0, "1A", energy=3)
    s = m.parse("uri", sub(row(move="11A")))  # 4 tiles, 3 Energy
    (p,) = s.problems
    assert p.kind is ProblemKind.ILLEGAL and "costs 4 Energy" in p.reason and "has 3" in p.reason


def test_unreadable_move_and_formula_are_syntax():
    m = new_match()
    s = m.parse("uri", sub(row(move="seven", energy="=1+1")))
    assert [(p.field, p.kind) for p in s.problems] == [("CrewA move_to", ProblemKind.SYNTAX),
                                                         ("CrewA energy", ProblemKind.SYNTAX)]


def test_banana_then_move_uses_the_extra_energy_and_cap_still_applies():
    m = new_match()
    place(m, "uri", 0, "1A", energy=3, items=[("Y", 1)])
    # 3 + 3 = 6 (<= cap 7); 1A -> 13C is 6 tiles: 6 - 6 = 0 left; next round 0 + 3 = 3
    m.resolve({"uri": sub(row(move="13C", item="Eat Yellow Banana"))})
    c = crew(m, "uri", 0)
    assert c["pos"] == "13C" and c["energy"] == 3
    assert c["items"][0]["uses"] == 0
    m2 = new_match()
    place(m2, "uri", 0, "1A", energy=6, items=[("Y", 1)])
    m2.resolve({"uri": sub(row(item="Eat Yellow Banana"))})  # 6 + 3 = 9 -> cap 7 (A10); 7 + 3 -> 7
    assert crew(m2, "uri", 0)["energy"] == 7


# ------------------------------------------------------------------ activation contention (R22-R30)

def test_ruleset_example_tied_energy_three_bidders():
    """'Marcer's Crew1 submits 2, uri's CrewA submits 2, and Spadez's CrewN submits 1, then
    Spadez's CrewN will activate the room.'"""
    m = new_match()
    for p in ("Marcer", "uri", "Spadez"):
        place(m, p, 0, "1A", energy=5)
    m.resolve({"Marcer": sub(row(room="1A", energy="2")), "uri": sub(row(room="1A", energy="2")), "Spadez": sub(row(room="1A", energy="1"))})
    assert m.state["components"]["Spadez"] == ["1A"]
    assert m.state["components"]["Marcer"] == [] and m.state["components"]["uri"] == []
    # every bid is paid (R29): Marcer 5 - 2 = 3 -> 6; uri 3 -> 6; Spadez 5 - 1 = 4 -> 7
    assert [crew(m, p, 0)["energy"] for p in ("Marcer", "uri", "Spadez")] == [6, 6, 7]
    facts = m.rounds[-1].facts
    assert of_type(facts, skeld.RoomActivated) == [skeld.RoomActivated("1A")]
    (contest,) = of_type(facts, skeld.ActivationContest)
    assert contest.decided_by == "highest untied bid" and [b.player for b in contest.winners] == ["Spadez"]
    # R38: everyone present learns who activated
    (seen,) = of_type(facts, skeld.ActivatorsSeen)
    assert seen.players == ("Spadez",) and set(seen.audience) == set(PLAYERS)  # Ann's Red starts in 1A too
    assert "1A (Machine Learning) was activated by Spadez" in text(m.rounds[-1].private["Marcer"])


def test_ruleset_example_tied_energy_two_bidders_nobody_activates():
    """'Marcer's Crew1 and uri's CrewA ... both submit 2, then nobody activated the room.'"""
    m = new_match()
    for p in ("Marcer", "uri"):
        place(m, p, 0, "1A", energy=5)
    m.resolve({"Marcer": sub(row(room="1A", energy="2")), "uri": sub(row(room="1A", energy="2"))})
    assert "1A" not in m.state["activated"]
    assert of_type(m.rounds[-1].facts, skeld.RoomActivated) == []
    assert of_type(m.rounds[-1].facts, skeld.ActivationContest)[0].decided_by == "all tied"
    assert "Rooms activated this round: none" in text(m.rounds[-1].public)
    assert crew(m, "Marcer", 0)["energy"] == 6  # 5 - 2 = 3, not refunded; + 3 = 6
    priv = text(m.rounds[-1].private["uri"])
    assert "No room holding your crewmates was activated this round." in priv
    assert "tied" not in priv  # A37: no reason given, not even in the player's facts
    assert [f.reason for f in of_type(m.rounds[-1].facts, skeld.ActivationAttempt)] == ["", ""]
    m2 = new_match(options={"reveal_failure_reasons": "on"})
    for p in ("Marcer", "uri"):
        place(m2, p, 0, "1A", energy=5)
    m2.resolve({"Marcer": sub(row(room="1A", energy="2")), "uri": sub(row(room="1A", energy="2"))})
    assert [(f.player, f.reason) for f in of_type(m2.rounds[-1].facts, skeld.ActivationAttempt)] == [
        ("Marcer", "tied with another bid"), ("uri", "tied with another bid")]
    assert "CrewA's attempt on 1A failed: tied with another bid" in text(m2.rounds[-1].private["uri"])


def test_same_players_two_crewmates_can_cancel_out():
    m = new_match()  # A43: bids 3, 3 (both uri) and 1 (Ann): Ann wins
    place(m, "uri", 0, "4B", energy=5)
    place(m, "uri", 1, "4B", energy=5)
    place(m, "Ann", 0, "4B", energy=5)
    m.resolve({"uri": sub(row(room="4B", energy="3"), row(room="4B", energy="3")), "Ann": sub(row(room="4B", energy="1"))})
    assert m.state["components"]["Ann"] == ["4B"]


def test_contention_winner_helper():
    assert contention_winner([("a", 5), ("b", 4), ("c", 4)]) == "a"
    assert contention_winner([("a", 5), ("b", 5), ("c", 4), ("d", 4), ("e", 3)]) == "e"
    assert contention_winner([("a", 1)]) == "a"
    assert contention_winner([]) is None


def test_room_already_activated_and_energy_over_held():
    m = new_match()
    give(m, "Ann", ["1A"])
    place(m, "uri", 0, "1A", energy=5)
    place(m, "uri", 1, "1B", energy=2)
    s = m.parse("uri", sub(row(room="1A", energy="1"), row(room="1B", energy="3")))
    p1, p2 = s.problems
    assert p1.field == "CrewA activate_room" and "already activated" in p1.reason  # R25
    assert p2.field == "CrewB energy" and p2.value == "3" and "has 2 Energy" in p2.reason  # A40
    assert p2.allowed == "a whole number from 1 to 2" and p2.default == "no activation of 1B"
    m.resolve({"uri": sub(row(room="1A", energy="1"), row(room="1B", energy="3"))})
    assert crew(m, "uri", 1)["energy"] == 5  # the bid was dropped: 2 + 3


def test_bonus_room_gives_item_to_the_crewmate_not_the_teammate():
    m = new_match()
    place(m, "uri", 0, "T", energy=5)
    place(m, "uri", 1, "2B", energy=5)
    m.resolve({"uri": sub(row(room="T", energy="1"))})
    assert [it["item"] for it in crew(m, "uri", 0)["items"]] == ["T"]
    # R35: bonuses are not shared; the teammate may not step with the Toe (E07)
    s = m.parse("uri", sub(None, row(toe="N")))
    (p,) = s.problems
    assert p.field == "CrewB toe_step" and "does not carry" in p.reason


def test_bonus_works_from_the_next_round():
    m = new_match()  # A12: the Toe won in round 1 cannot step in round 1
    place(m, "uri", 0, "T", energy=5)
    s = m.parse("uri", sub(row(room="T", energy="1", toe="N")))
    assert [p.field for p in s.problems] == ["CrewA toe_step"]


# ------------------------------------------------------------------ disable (R31-R34, A15)

def test_disable_blocks_this_round_and_the_next_and_uses_all_energy():
    m = new_match()
    place(m, "uri", 0, "4B", energy=4)
    place(m, "Ann", 0, "4B", energy=5)
    m.resolve({"uri": sub(row(disable="4B")), "Ann": sub(row(room="4B", energy="1"))})  # round 1
    assert crew(m, "uri", 0)["energy"] == 3  # 4 -> 0 (R33), + 3
    assert "4B" not in m.state["activated"] and crew(m, "Ann", 0)["energy"] == 7  # 5 - 1 + 3
    assert of_type(m.rounds[-1].facts, skeld.RoomDisabled) == [
        skeld.RoomDisabled("uri", "CrewA", "4B", 4, 2, audience=("uri",))]   # blocks rounds 1 and 2, all 4 Energy
    assert of_type(m.rounds[-1].facts, skeld.DisablesAnnounced) == []        # A15: not announced
    assert "disabled" not in text(m.rounds[-1].public)
    m.resolve({"Ann": sub(row(room="4B", energy="1"))})  # round 2: still blocked (R32)
    assert "4B" not in m.state["activated"]
    m.resolve({"Ann": sub(row(room="4B", energy="1"))})  # round 3: open again
    assert m.state["components"]["Ann"] == ["4B"]


def test_second_disable_and_disable_of_p_or_v_are_refused():
    m = new_match()
    place(m, "uri", 0, "4B", energy=4)
    m.resolve({"uri": sub(row(disable="4B"))})
    place(m, "uri", 0, "5A", energy=4)
    s = m.parse("uri", sub(row(disable="5A")))
    (p,) = s.problems
    assert p.field == "CrewA disable_room" and "already used" in p.reason and p.default == "no disable"
    m2 = new_match()
    place(m2, "Ann", 0, "P", energy=4)
    place(m2, "Ann", 1, "V", energy=4)
    s = m2.parse("Ann", sub(row(disable="P")))
    assert "cannot be disabled" in s.problems[0].reason  # R34
    s = m2.parse("Ann", sub(None, row(disable="V")))
    assert "cannot be disabled" in s.problems[0].reason


def test_both_crewmates_disabling_in_one_round_are_both_dropped():
    m = new_match()
    place(m, "uri", 0, "4B", energy=4)
    place(m, "uri", 1, "5A", energy=4)
    s = m.parse("uri", sub(row(disable="4B"), row(disable="5A")))
    assert [p.field for p in s.problems] == ["CrewA disable_room", "CrewB disable_room"]
    m.resolve({"uri": sub(row(disable="4B"), row(disable="5A"))})
    assert not m.state["disable_used"]["uri"] and m.state["disabled"] == {}
    assert crew(m, "uri", 0)["energy"] == 7  # nothing spent


def test_activate_and_disable_by_one_crewmate_keeps_the_activation():
    m = new_match()
    place(m, "uri", 0, "4B", energy=4)
    s = m.parse("uri", sub(row(room="4B", energy="2", disable="4B")))
    (p,) = s.problems  # A7, E19
    assert p.field == "CrewA disable_room" and "activation stands" in p.default
    m.resolve({"uri": sub(row(room="4B", energy="2", disable="4B"))})
    assert m.state["components"]["uri"] == ["4B"] and not m.state["disable_used"]["uri"]


# ------------------------------------------------------------------ bonuses (R66-R73)

def test_urgot_beats_a_higher_bid_and_is_used_up():
    m = new_match()
    place(m, "uri", 0, "4B", energy=5, items=[("U", 1)])
    place(m, "Ann", 0, "4B", energy=5)
    m.resolve({"uri": sub(row(room="4B", energy="1")), "Ann": sub(row(room="4B", energy="5"))})
    assert m.state["components"]["uri"] == ["4B"]
    assert crew(m, "uri", 0)["items"][0]["uses"] == 0


def test_urgot_does_not_beat_a_disable_and_is_kept():
    m = new_match()
    place(m, "uri", 0, "4B", energy=5, items=[("U", 1)])
    place(m, "Ann", 0, "4B", energy=5)
    m.resolve({"uri": sub(row(room="4B", energy="1")), "Ann": sub(row(disable="4B"))})
    assert "4B" not in m.state["activated"]
    assert crew(m, "uri", 0)["items"][0]["uses"] == 1  # A14


def test_urgot_does_not_apply_to_bonus_rooms():
    m = new_match()
    place(m, "uri", 0, "S", energy=5, items=[("U", 1)])
    place(m, "Ann", 0, "S", energy=5)
    m.resolve({"uri": sub(row(room="S", energy="1")), "Ann": sub(row(room="S", energy="2"))})
    assert [it["item"] for it in crew(m, "Ann", 0)["items"]] == ["S"]
    assert crew(m, "uri", 0)["items"][0]["uses"] == 1


def test_rose_adds_one_energy_each_round():
    m = new_match()
    place(m, "uri", 0, "1A", energy=2, items=[("R", None)])
    m.resolve({})
    assert crew(m, "uri", 0)["energy"] == 6  # 2 + 3 + 1


def test_take_back_toe_step_costs_one():
    m = new_match()
    place(m, "uri", 0, "1A", energy=5, items=[("T", None)])
    # 1A -> 3A (2 tiles), Toe step south to 5A (1): 5 - 2 - 1 = 2; activate 5A with 2 -> 0
    m.resolve({"uri": sub(row(move="3A", toe="S", room="5A", energy="2"))})
    assert crew(m, "uri", 0)["pos"] == "5A"
    assert m.state["components"]["uri"] == ["5A"]
    assert crew(m, "uri", 0)["energy"] == 3  # 0 + 3
    s = m.parse("uri", sub(row(toe="N")))  # north of 5A is 3A: allowed
    assert s.problems == ()
    place(m, "uri", 0, "1A")
    s = m.parse("uri", sub(row(toe="W")))
    assert "the hull" in s.problems[0].reason


def test_ruleset_example_submission_with_summoner_wall_and_banana():
    """The ruleset's example: crewmate 1 at 4B (4 Energy, Summoner's Meme) moves to 3C,
    activates 3C with 2 and walls the east side of 3C; crewmate 2 at 10B (3 Energy, Yellow
    Banana) eats it, moves to 10A and activates 10A with 4."""
    m = new_match()
    place(m, "uri", 0, "4B", energy=4, items=[("S", 1)])
    place(m, "uri", 1, "10B", energy=3, items=[("Y", 1)])
    raw = sub(row(move="3C", room="3C", energy="2", item="Summoner wall E"),
              row(move="10A", room="10A", energy="4", item="Eat Yellow Banana"))
    assert m.parse("uri", raw).problems == ()
    m.resolve({"uri": raw})
    assert sorted(m.state["components"]["uri"]) == ["10A", "3C"]
    # crewmate 1: 4 - 1 (move) - 2 = 1 -> 4; crewmate 2: 3 + 3 - 1 - 4 = 1 -> 4
    assert crew(m, "uri", 0)["energy"] == 4 and crew(m, "uri", 1)["energy"] == 4
    assert m.state["walls"] == ["3C|4B"]
    assert of_type(m.rounds[-1].facts, skeld.WallPlaced) == [skeld.WallPlaced("3C", "E", "4B")]  # R67: public
    assert "east wall of 3C (between 3C and 4B)" in text(m.rounds[-1].public)
    # the wall blocks movement through it (A5), for everyone
    place(m, "Ann", 0, "1C", energy=5)
    s = m.parse("Ann", sub(row(move="P")))  # 1C -> 2C -> 3C -> |wall| -> 4B -> P
    assert "crosses a wall" in s.problems[0].reason
    # and the public board marks it on both cells
    grid = GAME.public_view(m.state).blocks[0].grid
    assert grid[2][2].text == "3C |E" and grid[2][3].text == "4B |W"
    assert grid[2][2].fill == "595959"  # an activated room: dark grey, whatever its Sequence


def test_wiwaxia_drains_everyone_else_in_the_room_two_uses():
    m = new_match()
    place(m, "uri", 0, "W", energy=5, items=[("W", 2)])
    place(m, "uri", 1, "W", energy=2)
    place(m, "Ann", 0, "W", energy=0)
    place(m, "Spadez", 0, "W", energy=4)
    m.resolve({"uri": sub(row(item="Wiwaxia drain"))})
    # end of round: teammate 2 -> 1, Ann 0 stays 0, Spadez 4 -> 3; then income +3 (cap 7)
    assert crew(m, "uri", 1)["energy"] == 4
    assert crew(m, "Ann", 0)["energy"] == 3
    assert crew(m, "Spadez", 0)["energy"] == 6
    assert crew(m, "uri", 0)["energy"] == 7  # not transferred (A16): 5 + 3 -> 7
    assert crew(m, "uri", 0)["items"][0]["uses"] == 1
    m.resolve({"uri": sub(row(item="Wiwaxia drain"))})
    assert crew(m, "uri", 0)["items"][0]["uses"] == 0
    s = m.parse("uri", sub(row(item="Wiwaxia drain")))
    assert "no Wiwaxia with a use left" in s.problems[0].reason
    # R40: a used-up bonus is still reported to crewmates in the same room
    (room,) = [f for f in visible(m.rounds[-1].facts, "Ann") if isinstance(f, skeld.RoomOccupants) and f.room == "W"]
    assert room.occupants[0].items == (skeld.BonusHeld("W", 0),)
    assert "Wiwaxia (used up)" in text(m.rounds[-1].private["Ann"])
    # who was drained is the host's alone (A16)
    assert [(f.player, f.drained, f.end) for f in of_type(m.rounds[1].facts, skeld.EndOfRoundEnergy)
            if f.drained] == [("uri", 1, 1), ("Spadez", 1, 3)]
    assert all(f.audience == () for f in of_type(m.rounds[1].facts, skeld.EndOfRoundEnergy))
    (drain,) = of_type(m.rounds[1].facts, skeld.WiwaxiaDrain)   # round 1: Ann had 0 Energy to lose
    assert drain.audience == () and [(d.player, d.crewmate) for d in drain.drained] == [("uri", "CrewB"),
                                                                                         ("Spadez", "CrewN")]


def test_item_not_carried_is_refused_with_a_message():
    m = new_match()
    place(m, "uri", 0, "1A", energy=5)
    s = m.parse("uri", sub(row(item="Eat Yellow Banana", item_2="Summoner wall E")))
    p1, p2 = s.problems
    assert p1.player == "uri" and p1.field == "CrewA item" and p1.value == "Eat Yellow Banana"
    assert "no uneaten Yellow Banana" in p1.reason and p1.default == "not eaten"
    assert p2.value == "Summoner wall E" and p2.default == "no wall"
    s = m.parse("uri", sub(row(item="Fly")))
    assert s.problems[0].kind is ProblemKind.SYNTAX


def test_xcomm_tells_both_players_privately():
    m = new_match()
    place(m, "uri", 0, "2A", energy=5, items=[("X", 1)])
    place(m, "Ann", 1, "2A", energy=5)
    m.resolve({"uri": sub(row(item="XComm with Ann"))})
    assert of_type(m.rounds[-1].facts, skeld.XCommOpened) == [skeld.XCommOpened("uri", "CrewA", "Ann",
                                                                                   audience=("uri", "Ann"))]
    assert "talk freely with Ann" in text(m.rounds[-1].private["uri"])
    assert "uri used the XCommunications Device with you" in text(m.rounds[-1].private["Ann"])
    assert "XComm" not in text(m.rounds[-1].public) and "XCommunications" not in text(m.rounds[-1].public)
    assert crew(m, "uri", 0)["items"][0]["uses"] == 0


# ------------------------------------------------------------------ garnets: cap raises (R17, A11, E27)

def test_cap_raise_costs_three_garnets_and_raises_both_crewmates():
    m = new_match(garnets={p: 10 for p in PLAYERS})
    m.resolve({"uri": sub(upgrades="2")})
    assert [c["cap"] for c in m.state["crew"]["uri"]] == [9, 9]
    rows = [r for r in m.ledger.rows if r.player == "uri" and r.round == 1]
    assert [(r.change, r.reason) for r in rows] == [(-3, "Skeld energy cap raise (now 8)"),
                                                    (-3, "Skeld energy cap raise (now 9)")]
    assert m.ledger.balance("uri") == 4
    # 5 + 3 = 8 <= 9 for both crewmates
    assert [c["energy"] for c in m.state["crew"]["uri"]] == [8, 8]
    s = m.parse("uri", sub(upgrades="1"))
    assert s.problems[0].field == "cap_upgrades" and s.problems[0].kind is ProblemKind.ILLEGAL
    assert of_type(m.rounds[-1].facts, skeld.EnergyCapRaise) == [
        skeld.EnergyCapRaise("uri", 2, 6, ("CrewA", "CrewB"), (9, 9), True, audience=("uri",))]   # private (A39)
    assert "cap_upgrades" not in text(m.rounds[-1].public) and "9" not in text(m.rounds[-1].public)


def test_two_raises_are_two_ledger_rows_in_the_masters_ledger_tab(tmp_path):
    """Section (d), garnet-flow table: "Energy cap upgrade (R17, A11) | -3 per upgrade | ... (cap 8,
    then 9)". Ann (10 garnets) buys 2 raises in round 1: two -3 rows, "now 8" then "now 9", balance
    10 - 3 - 3 = 4, read back from the master.xlsx the resolve wrote."""
    import openpyxl
    from test_cli_xlsx import run, type_submission
    folder = tmp_path / "game"
    run("new", "skeld", "--players", "Ann,Bo,Cy,Dee", "--out", folder, "--garnets", "10", "--seed", "3")
    run("resolve", folder, "--allow-empty")                       # the pregame: default starts
    type_submission(folder / "players" / "Ann.xlsx", "Garnet purchases", [2])
    run("resolve", folder, "--allow-empty")
    book = openpyxl.load_workbook(folder / "master.xlsx")
    rows = [r[:7] for r in book["Ledger"].iter_rows(min_row=2, values_only=True) if r[0] is not None]
    ann = [(change, reason) for _, rnd, who, change, reason, _, _ in rows if who == "Ann" and rnd == 1]
    assert ann == [(-3, "Skeld energy cap raise (now 8)"), (-3, "Skeld energy cap raise (now 9)")]
    balances = {r[0]: r[3] for r in book["Players"].iter_rows(min_row=3, values_only=True)}
    assert balances["Ann"] == 4


def test_per_crewmate_raises_are_one_row_each_naming_the_crewmate():
    """A11 option cap_upgrade_scope = crewmate: 3 garnets per crewmate per +1; CrewA +2, CrewB +1 is
    three -3 rows, each naming the crewmate and the cap it reached."""
    m = new_match(options={"cap_upgrade_scope": "crewmate"}, garnets={p: 10 for p in PLAYERS})
    m.resolve({"uri": {"crew": [row(), row()], "garnets": [{"cap_upgrades": "2"}, {"cap_upgrades": "1"}]}})
    rows = [(r.change, r.reason) for r in m.ledger.rows if r.player == "uri" and r.round == 1]
    assert rows == [(-3, "Skeld energy cap raise (CrewA now 8)"), (-3, "Skeld energy cap raise (CrewA now 9)"),
                    (-3, "Skeld energy cap raise (CrewB now 8)")]
    assert m.ledger.balance("uri") == 1


def test_cap_raise_without_enough_garnets_is_refused():
    m = new_match(garnets={"uri": 5})
    m.resolve({"uri": sub(upgrades="2")})  # needs 6, has 5: whole request dropped
    assert [c["cap"] for c in m.state["crew"]["uri"]] == [7, 7] and m.ledger.balance("uri") == 5
    (refused,) = of_type(m.rounds[-1].facts, skeld.EnergyCapRaise)
    assert (refused.accepted, refused.reason, refused.cost, refused.balance) == (False, "garnets", 6, 5)
    assert "Cap raise refused: it costs 6 garnets and you have 5." in text(m.rounds[-1].private["uri"])


# ------------------------------------------------------------------ parasite (R52-R57)

def test_parasite_claim_once_per_player_and_vault_needs_three():
    m = new_match()
    place(m, "uri", 0, "P", energy=5)
    m.resolve({"uri": sub(row(room="P", energy="1"))})
    assert crew(m, "uri", 0)["parasite"] and m.state["claimed"]["uri"]
    s = m.parse("uri", sub(row(room="P", energy="1")))  # again at P: E15
    assert "already claimed" in s.problems[0].reason
    place(m, "uri", 0, "V", energy=5)
    s = m.parse("uri", sub(row(room="V", energy="2")))  # R55
    assert s.problems[0].allowed == "a whole number from 3 to 5"
    place(m, "uri", 1, "V", energy=5)
    s = m.parse("uri", sub(None, row(room="V", energy="3")))  # R54: only the claiming crewmate
    assert "carries no parasite" in s.problems[0].reason


def test_improper_plant_does_not_end_the_game_and_makes_the_planter_ec():
    m = new_match(options={"max_rounds": "2"})
    place(m, "uri", 0, "V", energy=5, parasite=True)
    m.resolve({"uri": sub(row(room="V", energy="3"))})
    assert not m.finished  # R62
    assert of_type(m.rounds[-1].facts, skeld.RoomActivated) == [skeld.RoomActivated("V")]
    assert of_type(m.rounds[-1].facts, skeld.ParasitePlant) == [
        skeld.ParasitePlant("uri", "CrewA", 1, 3, None, "no_sequence", True, audience=("uri",))]
    assert not crew(m, "uri", 0)["parasite"] and m.state["vault_used"]["uri"]
    give(m, "uri", ["13A", "13B"])  # uri: total 26
    give(m, "Ann", ["1A"])          # Ann: total 1
    give(m, "Marcer", ["12A"])      # Marcer: 12
    give(m, "Spadez", ["2A"])       # Spadez: 2
    m.resolve({})
    out = m.outcome()
    # R50: highest total uri 26 wins; EC: improper planters minus the winner is empty (A26), so R51:
    # lowest total among the others: Ann 1
    assert out.winners == ("uri",) and out.elimination_candidate == "Ann"
    m2 = new_match(options={"max_rounds": "2"})
    place(m2, "Spadez", 0, "V", energy=5, parasite=True)
    m2.resolve({"Spadez": sub(row(room="V", energy="3"))})
    give(m2, "uri", ["13A", "13B"])
    give(m2, "Ann", ["1A"])
    give(m2, "Marcer", ["12A"])
    give(m2, "Spadez", ["2A"])
    m2.resolve({})
    # R61/A31: the only improper planter Spadez (2) is EC although Ann (1) is lower
    assert m2.outcome().elimination_candidate == "Spadez"
