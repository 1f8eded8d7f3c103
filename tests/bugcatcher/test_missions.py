"""Bugcatcher: missions (R48-R62) and manual missions as decisions (A21)."""
from sheetbridge.core.facts import HOST_ONLY, of_type
from sheetbridge.games import bugcatcher as bc
from sheetbridge.games.bugcatcher import GAME

from .helpers import acts, mission, names_in, start, tables


# ------------------------------------------------------------------ missions (R48-R62)

JELLY_VARIANTS = sorted("DDRDL DDLDR UURUL UULUR RRDRU RRURD LLDLU LLULD "
                        "RULUU LURUU RDLDD LDRDD URDRR DRURR ULDLL DLULL".split())  # rulings A22


def test_jellyfish_variants():
    assert bc.shape_variants("DDRDL") == JELLY_VARIANTS
    assert bc.matches("LDDRDLU", JELLY_VARIANTS, True)      # R61: anywhere in the path
    assert not bc.matches("LDDRDLU", JELLY_VARIANTS, False)
    assert not bc.matches("DDRDR", JELLY_VARIANTS, True)


def test_jellyfish_rotated_and_reflected_completes_and_penalises_other_acceptor():
    # Ann builds LLULD (rotated and reflected) from corner (5,3): (4,3),(3,3),(3,2),(2,2),(2,3).
    # 5 paths + 6 reward = 11. Bo accepted and failed while Ann completed: -3 now (R56).
    tbl = tables(mission(1, "J1", "border", "DDRDL", 6, -3, 2, name="Cheerful Jellyfish"))
    m = start({"Ann": ("A1", "E3", "bottom right"), "Bo": ("F5", "A5", "bottom left")}, tbl)
    rec = m.resolve({"Ann": acts("BL", "BL", "BU", "BL", "BD", accept=["yes"]),
                     "Bo": acts("CU", accept=["yes"])})
    assert m.state["fireflies"] == {"Ann": 11, "Bo": 1 - 3}
    assert m.state["missions_completed"] == {"Ann": 1, "Bo": 0}
    pub = rec.public.text()
    assert "Mission J1 (Cheerful Jellyfish) has been completed" in pub
    assert not names_in(pub, ["Ann", "Bo"])                  # R62: not who
    assert "+6" in rec.private["Ann"].text() and "-3" in rec.private["Bo"].text()


def test_shape_built_without_accepting_earns_nothing():
    # A18: Ann builds RR with her central node without accepting: 2 paths only.
    tbl = tables(mission(1, "A1", "any", "RR", 4))
    m = start({"Ann": ("A1", "A5", "bottom left"), "Bo": ("F5", "F1", "upper right")}, tbl)
    m.resolve({"Ann": acts("CR", "CR", accept=["no"])})
    assert m.state["fireflies"]["Ann"] == 2 and m.state["missions"][0]["status"] == "open"


def test_split_reward_rounds_up():
    # R53/A24: reward 5 split between Ann and Bo: ceil(5/2) = 3 each, plus 2 paths each = 5.
    # Cy accepted but did not build it (no penalty on this mission); Dee built it unaccepted: 2.
    tbl = tables(mission(1, "S", "any", "RR", 5))
    m = start({"Ann": ("A1", "A5", "bottom left"), "Bo": ("A3", "A3", "bottom left"),
               "Cy": ("F5", "F1", "upper right"), "Dee": ("A5", "E1", "upper left")}, tbl)
    m.resolve({"Ann": acts("CR", "CR", accept=["yes"]), "Bo": acts("CR", "CR", accept=["yes"]),
               "Cy": acts("CU", accept=["yes"]), "Dee": acts("CR", "CR", accept=["no"])})
    assert m.state["fireflies"] == {"Ann": 5, "Bo": 5, "Cy": 1, "Dee": 2}
    assert m.state["missions"][0]["completers"] == ["Ann", "Bo"]


def test_penalty_at_the_end_of_the_window_and_mission_closes():
    # R57/A19: presented in round 1 with Failure (2 rounds): window rounds 1-2. Ann accepts and
    # never completes: 0 after round 1, -2 after round 2; in round 3 RR no longer completes it.
    tbl = tables(mission(1, "W", "central", "RR", 4, -2, 2))
    m = start({"Ann": ("A1", "A5", "bottom left"), "Bo": ("F5", "F1", "upper right")}, tbl,
              options={"rounds": "3"})
    m.resolve({"Ann": acts("CD", accept=["yes"])})      # A1 -> A2: 1 path
    assert m.state["fireflies"]["Ann"] == 1
    m.resolve({"Ann": acts("CD")})                      # A2 -> A3: 1 path, then -2
    assert m.state["fireflies"]["Ann"] == 1 + 1 - 2
    assert m.state["missions"][0]["status"] == "closed"
    m.resolve({"Ann": acts("CR", "CR")})                # 2 paths, no reward any more
    assert m.state["fireflies"]["Ann"] == 0 + 2


def test_accepting_is_only_for_this_rounds_board_and_tables_change_between_rounds():
    tbl = tables(mission(1, "A", "central", "RR", 4), mission(2, "B", "central", "DD", 3))
    m = start({"Ann": ("A1", "A5", "bottom left"), "Bo": ("F5", "F1", "upper right")}, tbl)
    assert [s.row_labels for s in m.form("Ann").sections if s.name == "missions"] == [("A: Mission A",)]
    # the host replaces round 2's mission before round 1 is resolved; round 1's stays as presented
    new = tables(mission(1, "A", "central", "LL", 9), mission(2, "C", "border", "RRR", 2))
    m.resolve({}, tables=new)
    assert [x["id"] for x in m.state["missions"]] == ["A", "C"]
    assert m.state["missions"][0]["shape"] == "RR"
    assert m.form("Ann").section("missions").row_labels == ("C: Mission C",)


def test_check_tables_explains_problems():
    bad = tables(mission(1, "X", "border", "DDRDL", 6), mission(1, "X", "border", "DDR", 2),
                 mission(1, "Y", "border", "RDLU", 2), mission(1, "Z", "middle", "DQ", 1),
                 mission(1, "P", "border", "RR", 1, -2, ""))
    msgs = GAME.check_tables(bad)
    joined = " | ".join(msgs)
    assert "id 'X' is also used on row 2" in joined
    assert "comes back to a point" in joined              # RDLU returns to its start
    assert "node 'middle'" in joined and "shape 'DQ'" in joined
    assert "needs failure_rounds" in joined
    assert GAME.check_tables(tables(mission(1, "J", "border", "down down right down left", 6))) == []


# ------------------------------------------------------------------ decisions: manual missions (A21)

def manual_table():
    row = mission(1, "X", "", "manual", 4, -2, 2, name="Firefly Dance")
    row[-1] = "Post a firefly dance in the lounge."
    return tables(row)


def test_manual_mission_is_a_decision_and_entering_it_re_resolves_the_round():
    # Ann and Bo accept manual mission X (+4, failure 2 rounds -2). Round 1 and 2 are played. Until the
    # host enters who completed it (in round 1), it counts as not completed: no reward, and at the end
    # of its window (round 2) both pay -2. Entering "Ann" for round 1 re-resolves rounds 1 and 2: Ann
    # gets 4, and Bo pays -2 in round 1 (Ann completed it, R56), not again in round 2.
    m = start({"Ann": ("A1", "A5", "bottom left"), "Bo": ("F5", "F1", "upper right")}, manual_table(),
              options={"rounds": "2"})
    rec = m.resolve({"Ann": acts("CD", accept=["yes"]), "Bo": acts(accept=["yes"])})
    (req,) = m.pending()
    assert (req.key, req.kind, req.choices, req.round) == ("r1:mission:X", bc.DecisionKind.SUBSET, ("Ann", "Bo"), 1)
    assert "Post a firefly dance" in req.question and "not completed" in req.default
    assert of_type(rec.facts, bc.ManualMissionPending)[0].audience == HOST_ONLY
    assert "the host has not entered who completed it yet" in rec.private["Ann"].text()
    m.resolve({"Ann": acts("CD")})
    assert m.state["fireflies"] == {"Ann": 2 - 2, "Bo": -2}
    out = m.outcome()
    assert out.winners == () and out.elimination_candidate is None          # provisional: nothing final
    assert out.ending == "manual_pending"
    assert any("mission X" in line for line in out.pending) and out.reasons[0].startswith("Provisional")
    assert [r.reason for r in m.rounds[-1].ledger] == []
    assert {r.key for r in m.pending()} == {"r1:mission:X", "r2:mission:X"}
    m.decide("r1:mission:X", "ann")
    assert m.state["fireflies"] == {"Ann": 1 + 4 + 1, "Bo": -2}
    assert m.state["missions"][0]["completers"] == ["Ann"] and not m.pending()
    out = m.outcome()
    assert out.winners == ("Ann",) and out.elimination_candidate == "Bo" and out.pending == ()
    assert [(f.player, f.share) for f in of_type(m.rounds[1].facts, bc.MissionReward)] == [("Ann", 4)]
    m.decide("r1:mission:X", "none")                  # the host changes their mind: back to nobody
    assert m.state["fireflies"] == {"Ann": 0, "Bo": -2} and [r.key for r in m.pending()] == ["r2:mission:X"]
