"""Skeld: round results as data (typed facts)."""
from sheetbridge.core.facts import of_type
from sheetbridge.core.types import ProblemKind
from sheetbridge.games import skeld

from .helpers import BOARD_CSV, crew, new_match, place, row, sub


# ------------------------------------------------------------------ round results as data (typed facts)

GRID = tuple(tuple(r[1:]) for r in BOARD_CSV[1:])


def problem(player, field, value, allowed, reason, default, kind=ProblemKind.ILLEGAL, label=""):
    from sheetbridge.core.types import Problem
    return Problem(kind, player, field, value, allowed, reason, default, label=label)


def test_every_fact_of_a_hand_computed_round():
    """The ruleset's examples in one round, every fact read from the typed results.

    - 1A: Marcer's Crew1 bids 2, uri's CrewA 2, Spadez's CrewN (moved from 2A, 1 tile) 1: the tied
      2s are nullified and Spadez's 1 activates (R27, the ruleset's example).
    - Ann: the ruleset's example submission. Red (4B, 4 Energy, Summoner's Meme) moves to 3C
      (1 tile), activates 3C with 2 and walls its east side; Blue (10B, 3 Energy, Yellow Banana)
      eats it (3 + 3 = 6), moves to 10A (1 tile) and activates it with 4.
    - uri's CrewB (4A, 5 Energy, Take Back Toe, Urgot) moves to P (1 tile), steps west to 4B (1)
      and bids 1 there; Urgot beats Spadez's CrewM bid of 3 (R69).
    - Marcer's Crew2 (5A, 6 Energy, Yellow Banana) eats it: 9 is over the cap 7, so 2 are lost
      (A10); its move to 9C is off its row and column (refused), so its activation of 9C is
      dropped (E11) and costs nothing.
    """
    from sheetbridge.core.facts import HOST_ONLY, PUBLIC
    S = skeld
    m = new_match()
    place(m, "Marcer", 0, "1A", energy=5)
    place(m, "Marcer", 1, "5A", energy=6, items=[("Y", 1)])
    place(m, "uri", 0, "1A", energy=5)
    place(m, "uri", 1, "4A", energy=5, items=[("T", None), ("U", 1)])
    place(m, "Spadez", 0, "2A", energy=5)
    place(m, "Spadez", 1, "4B", energy=5)
    place(m, "Ann", 0, "4B", energy=4, items=[("S", 1)])
    place(m, "Ann", 1, "10B", energy=3, items=[("Y", 1)])
    rec = m.resolve({
        "Marcer": sub(row(room="1A", energy="2"), row(item="Eat Yellow Banana", move="9C", room="9C", energy="3")),
        "uri": sub(row(room="1A", energy="2"), row(move="P", toe="W", room="4B", energy="1")),
        "Spadez": sub(row(move="1A", room="1A", energy="1"), row(room="4B", energy="3")),
        "Ann": sub(row(move="3C", room="3C", energy="2", item="Summoner wall E"),
                   row(item="Eat Yellow Banana", move="10A", room="10A", energy="4")),
    })
    M, U, SP, A = ("Marcer",), ("uri",), ("Spadez",), ("Ann",)

    def account(p, c, room, start, end, nxt, banana=0, move=0, toe=0, bid=0):
        return S.EnergyAccount(p, c, room, start, banana, move, toe, bid, 0, end, nxt, 7, audience=(p,))

    def at_end(p, c, end, nxt):
        return S.EndOfRoundEnergy(p, c, 0, 0, end, nxt - end, audience=HOST_ONLY)

    def contest(room, bids, winner, how):
        return S.ActivationContest(room, tuple(S.RoomBid(*b) for b in bids), (S.RoomBid(*winner),), how, audience=HOST_ONLY)

    expected = (
        # each named as the player's Submission tab names the cell
        S.SubmissionProblem("Marcer", problem("Marcer", "Crew2 move_to", "9C", "a room in the same row or column as 5A",
                                              "9C is not in the same row or column as 5A", "Crew2 stays in 5A",
                                              label="Crew2: Move to"), audience=M),
        S.SubmissionProblem("Marcer", problem("Marcer", "Crew2 activate_room", "9C", "the room Crew2 ends in (5A)",
                                              "the move to 9C was refused, so Crew2 stays in 5A",
                                              "no activation; no Energy spent", label="Crew2: Activate room"),
                            audience=M),
        S.BonusUsed("Marcer", "Crew2", "Y", 0, audience=M),
        S.EnergyLost("Marcer", "Crew2", "banana", 2, 7, audience=M),
        S.CrewMove("Marcer", "Crew2", "move", "5A", "9C", (), 0, "9C is not in the same row or column as 5A", audience=M),
        S.CrewMove("uri", "CrewB", "move", "4A", "P", ("P",), 1, audience=U),
        S.CrewMove("uri", "CrewB", "toe", "P", "4B", ("4B",), 1, audience=U),
        S.CrewMove("Spadez", "CrewN", "move", "2A", "1A", ("1A",), 1, audience=SP),
        S.CrewMove("Ann", "Red", "move", "4B", "3C", ("3C",), 1, audience=A),
        S.BonusUsed("Ann", "Blue", "Y", 0, audience=A),
        S.CrewMove("Ann", "Blue", "move", "10B", "10A", ("10A",), 1, audience=A),
        # 1A: 2, 2 and 1: the ties are nullified, the 1 wins (R27)
        contest("1A", [("Marcer", "Crew1", 2), ("Spadez", "CrewN", 1), ("uri", "CrewA", 2)], ("Spadez", "CrewN", 1),
                "highest untied bid"),
        S.ActivationAttempt("Marcer", "Crew1", "1A", 2, False, audience=M),
        S.ActivationAttempt("Spadez", "CrewN", "1A", 1, True, audience=SP),
        S.ActivationAttempt("uri", "CrewA", "1A", 2, False, audience=U),
        S.ComponentGained("Spadez", "CrewN", "1A", "A", 1, audience=SP),
        contest("10A", [("Ann", "Blue", 4)], ("Ann", "Blue", 4), "only bid"),
        S.ActivationAttempt("Ann", "Blue", "10A", 4, True, audience=A),
        S.ComponentGained("Ann", "Blue", "10A", "A", 10, audience=A),
        S.BonusUsed("uri", "CrewB", "U", 0, "4B", audience=U),
        contest("4B", [("Spadez", "CrewM", 3), ("uri", "CrewB", 1)], ("uri", "CrewB", 1), "Urgot Peraphernalia"),
        S.ActivationAttempt("Spadez", "CrewM", "4B", 3, False, audience=SP),
        S.ActivationAttempt("uri", "CrewB", "4B", 1, True, audience=U),
        S.ComponentGained("uri", "CrewB", "4B", "B", 4, audience=U),
        contest("3C", [("Ann", "Red", 2)], ("Ann", "Red", 2), "only bid"),
        S.ActivationAttempt("Ann", "Red", "3C", 2, True, audience=A),
        S.ComponentGained("Ann", "Red", "3C", "C", 3, audience=A),
        S.RoomActivated("1A"), S.RoomActivated("10A"), S.RoomActivated("4B"), S.RoomActivated("3C"),
        S.BonusUsed("Ann", "Red", "S", 0, "east wall of 3C", audience=A),
        S.WallPlaced("3C", "E", "4B"),
        # Energy: start, spending, what is left, next start (income 3, cap 7)
        account("Marcer", "Crew1", "1A", 5, 3, 6, bid=2),
        account("Marcer", "Crew2", "5A", 6, 7, 7, banana=1),            # 6 + 3 = 9, capped at 7: 2 lost
        account("uri", "CrewA", "1A", 5, 3, 6, bid=2),
        account("uri", "CrewB", "4B", 5, 2, 5, move=1, toe=1, bid=1),
        account("Spadez", "CrewN", "1A", 5, 3, 6, move=1, bid=1),
        account("Spadez", "CrewM", "4B", 5, 2, 5, bid=3),             # spent though it failed (R29)
        account("Ann", "Red", "3C", 4, 1, 4, move=1, bid=2),
        account("Ann", "Blue", "10A", 3, 1, 4, banana=3, move=1, bid=4),
        # the end of the round before income, with drains (none here): the host's (A16)
        at_end("Marcer", "Crew1", 3, 6), at_end("Marcer", "Crew2", 7, 7), at_end("uri", "CrewA", 3, 6),
        at_end("uri", "CrewB", 2, 5), at_end("Spadez", "CrewN", 3, 6), at_end("Spadez", "CrewM", 2, 5),
        at_end("Ann", "Red", 1, 4), at_end("Ann", "Blue", 1, 4),
        # R37, R40 (end-of-round rooms and what is carried), R38 (who activated), to those present
        S.RoomOccupants("1A", (S.CrewInRoom("Marcer", "Crew1", (), False), S.CrewInRoom("uri", "CrewA", (), False),
                               S.CrewInRoom("Spadez", "CrewN", (), False)), audience=("Marcer", "uri", "Spadez")),
        S.ActivatorsSeen("1A", ("Spadez",), audience=("Marcer", "uri", "Spadez")),
        S.RoomOccupants("5A", (S.CrewInRoom("Marcer", "Crew2", (S.BonusHeld("Y", 0),), False),), audience=M),
        S.RoomOccupants("10A", (S.CrewInRoom("Ann", "Blue", (S.BonusHeld("Y", 0),), False),), audience=A),
        S.ActivatorsSeen("10A", ("Ann",), audience=A),
        S.RoomOccupants("4B", (S.CrewInRoom("uri", "CrewB", (S.BonusHeld("T", None), S.BonusHeld("U", 0)), False),
                               S.CrewInRoom("Spadez", "CrewM", (), False)), audience=("uri", "Spadez")),
        S.ActivatorsSeen("4B", ("uri",), audience=("uri", "Spadez")),
        S.RoomOccupants("3C", (S.CrewInRoom("Ann", "Red", (S.BonusHeld("S", 0),), False),), audience=A),
        S.ActivatorsSeen("3C", ("Ann",), audience=A),
        S.ShipBoard(GRID, ("1A", "10A", "4B", "3C"), ("3C|4B",)),
        S.MainMatchStatus(1, 2),
    )
    assert rec.facts == expected
    assert all(f.audience == PUBLIC for f in expected if isinstance(f, (S.RoomActivated, S.WallPlaced, S.ShipBoard)))
    # The reports say the same, each public fact once, and name no ruling.
    assert rec.public.text().splitlines() == [
        "Skeld round 1", "Round 1",
        "Rooms activated this round: 1A (Machine Learning), 10A (Capacitor), 4B (Hyacinth), 3C (Debussy)",
        "Wall placed: east wall of 3C (between 3C and 4B)", "The Main Match continues with round 2."]
    marcer = rec.private["Marcer"].text()
    assert "1A (Machine Learning) was activated by Spadez" in marcer
    assert "Crew2 ate the Yellow Banana over its Energy cap of 7: 2 Energy lost." in marcer
    assert ("Crew2: Activate room = '9C' (the move to 9C was refused, so Crew2 stays in 5A); allowed: the "
            "room Crew2 ends in (5A); applied: no activation; no Energy spent") in marcer


def test_a_refused_move_no_longer_activates_the_start_room():
    # E11: the bid names 4C; the move 4B -> 4C crosses a wall, so CrewA stays in 4B. Before the fix the
    # "activate here" field activated 4B, the room the player never asked for, and spent the 2 Energy.
    m = new_match()
    m.state["walls"].append("4B|4C")
    place(m, "uri", 0, "4B", energy=2)
    place(m, "uri", 1, "1B", energy=5)
    raw = sub(row(move="4C", room="4C", energy="2"), row(room="2B", energy="1"))
    rec = m.resolve({"uri": raw})
    assert "4B" not in m.state["activated"] and m.state["components"]["uri"] == []
    assert crew(m, "uri", 0)["energy"] == 5 and crew(m, "uri", 1)["energy"] == 7   # nothing spent: 2 + 3, 5 + 3 -> 7
    assert of_type(rec.facts, skeld.ActivationAttempt) == [] and of_type(rec.facts, skeld.RoomActivated) == []
    probs = [f.problem for f in of_type(rec.facts, skeld.SubmissionProblem)]
    assert [(p.field, p.value, p.reason) for p in probs] == [
        ("CrewA move_to", "4C", "the way from 4B to 4C crosses a wall"),
        ("CrewA activate_room", "4C", "the move to 4C was refused, so CrewA stays in 4B"),
        ("CrewB activate_room", "2B", "CrewB ends its movement in 1B, not 2B")]
    assert all(p.default == "no activation; no Energy spent" for p in probs[1:])
    (move,) = of_type(rec.facts, skeld.CrewMove)
    assert (move.start, move.to, move.refused) == ("4B", "4C", "the way from 4B to 4C crosses a wall")
    assert "the move to 4C was refused, so CrewA stays in 4B" in rec.private["uri"].text()   # told why
    # The same for a disable: it names its room (E11), and an activation or a disable alone is incomplete.
    s = m.parse("uri", sub(row(disable="4C"), row(room="1B")))
    assert [(p.kind, p.field) for p in s.problems] == [(ProblemKind.MISSING, "CrewB energy"),
                                                       (ProblemKind.ILLEGAL, "CrewA disable_room")]
    s = m.parse("uri", sub(row(energy="2")))
    assert [(p.kind, p.field, p.reason) for p in s.problems] == [
        (ProblemKind.MISSING, "CrewA activate_room", "an activation names its room")]


def test_two_activations_for_one_crewmate_are_against_the_rules_not_unreadable():
    # E18 (R30): two rooms, or two amounts, for one crewmate: every activation of it is dropped.
    m = new_match()
    place(m, "uri", 0, "4B", energy=5)
    place(m, "uri", 1, "1B", energy=5)
    raw = sub(row(room="4B, 3C", energy="2"), row(room="1B", energy="2 3"))
    s = m.parse("uri", raw)
    assert [(p.kind, p.field, p.value, p.reason) for p in s.problems] == [
        (ProblemKind.ILLEGAL, "CrewA activate_room", "4B, 3C", "a crewmate activates at most one room a round"),
        (ProblemKind.ILLEGAL, "CrewB energy", "2 3", "a crewmate activates at most one room a round")]
    rec = m.resolve({"uri": raw})
    assert m.state["activated"] == [] and of_type(rec.facts, skeld.ActivationContest) == []
    assert m.parse("uri", sub(row(room="4B and 3C", energy="2"))).problems[0].kind is ProblemKind.ILLEGAL


def test_banana_energy_over_the_cap_is_lost_and_the_player_is_warned():
    # A10: 6 + 3 = 9 over the cap of 7: 2 Energy are lost; the player is told. 7 + 3 -> 7 next round.
    m = new_match()
    place(m, "uri", 0, "1A", energy=6, items=[("Y", 1)])
    rec = m.resolve({"uri": sub(row(item="Eat Yellow Banana"))})
    assert of_type(rec.facts, skeld.EnergyLost) == [skeld.EnergyLost("uri", "CrewA", "banana", 2, 7, audience=("uri",))]
    assert "CrewA ate the Yellow Banana over its Energy cap of 7: 2 Energy lost." in rec.private["uri"].text()
    assert "Energy lost" not in rec.public.text() and "Energy lost" not in rec.private["Ann"].text()
    acc = [f for f in of_type(rec.facts, skeld.EnergyAccount) if f.crewmate == "CrewA"][0]
    assert (acc.start, acc.banana, acc.left, acc.next_start) == (6, 1, 7, 7)
    # Under banana_can_exceed_cap nothing is lost: 9 this round, then 9 + 3 -> 7 at the cap.
    m2 = new_match(options={"banana_can_exceed_cap": "on"})
    place(m2, "uri", 0, "1A", energy=6, items=[("Y", 1)])
    rec2 = m2.resolve({"uri": sub(row(item="Eat Yellow Banana", move="13C", room="13C", energy="3"))})
    assert of_type(rec2.facts, skeld.EnergyLost) == []
    assert crew(m2, "uri", 0)["energy"] == 3   # 9 - 6 tiles - 3 = 0, + 3


def test_contests_say_which_tie_break_decided():
    m = new_match()
    for p in ("Marcer", "uri"):
        place(m, p, 0, "1A", energy=5)
    place(m, "Ann", 0, "P", energy=5)
    place(m, "Spadez", 0, "P", energy=5)
    rec = m.resolve({"Marcer": sub(row(room="1A", energy="2")), "uri": sub(row(room="1A", energy="2")),
                     "Ann": sub(row(room="P", energy="3")), "Spadez": sub(row(room="P", energy="1"))})
    contests = {f.room: (f.winners, f.decided_by) for f in of_type(rec.facts, skeld.ActivationContest)}
    assert contests == {"1A": ((), "all tied"), "P": ((skeld.RoomBid("Ann", "Red", 3),), "highest bid")}
    assert [f.room for f in of_type(rec.facts, skeld.RoomActivated)] == ["P"]
