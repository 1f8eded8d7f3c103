"""Bugcatcher: the round as typed facts."""
import re
from sheetbridge.core.facts import HOST_ONLY, PUBLIC, of_type
from sheetbridge.games import bugcatcher as bc

from .helpers import example_round, names_in


# ------------------------------------------------------------------ the round as typed facts

def test_every_fact_of_the_ruleset_example_round():
    m, rec = example_round()
    F = rec.facts
    ann, bo = ("Ann",), ("Bo",)
    # Every step, with what it became and what it cost (energy, garnet, collisions caused).
    steps = [(f.player, f.step, f.action, f.node, f.result, f.frm, f.to, f.frm_label, f.to_label, f.colour,
              f.cases, f.self_cases, f.energy, f.garnet, f.collisions) for f in of_type(F, bc.ActionStep)]
    assert steps == [
        ("Ann", 1, "BD", "border", "placed", (3, 1), (3, 2), "C1 bottom right", "C2 bottom right", "blue", (), (), 1, 0, 0),
        ("Ann", 2, "BL", "border", "placed", (3, 2), (2, 2), "C2 bottom right", "B2 bottom right", "blue", (), (), 1, 0, 0),
        ("Ann", 3, "CL", "central", "placed", (2, 2), (1, 2), "C3", "B3", "black", (), (), 1, 0, 0),
        ("Ann", 4, "BD", "border", "placed", (2, 2), (2, 3), "B2 bottom right", "B3 bottom right", "blue", (), (), 1, 0, 0),
        ("Ann", 5, "swap", "", "swap", None, None, "", "", "black", (), (), 1, 0, 0),
        ("Ann", 6, "BL", "border", "placed", (2, 3), (1, 3), "B3 bottom right", "A3 bottom right", "black", (), (), 1, 0, 0),
        ("Ann", 7, "CD", "central", "placed", (1, 2), (1, 3), "B3", "B4", "blue", (), (), 1, 0, 0),
        ("Bo", 1, "CU", "central", "placed", (5, 4), (5, 3), "F5", "F4", "black", (), (), 1, 0, 0),
        ("Bo", 2, "CU", "central", "placed", (5, 3), (5, 2), "F4", "F3", "black", (), (), 1, 0, 0),
        ("Bo", 3, "BR", "border", "collision", (1, 2), (2, 2), "A2 bottom right", "B2 bottom right", "blue", (1,), (), 1, 0, 1),
        ("Bo", 4, "BD", "border", "stopped", (1, 2), (1, 3), "A2 bottom right", "A3 bottom right", "blue", (), (), 1,
         0, 0),
        ("Bo", 5, "gswap", "", "swap", None, None, "", "", "black", (), (), 0, 1, 0),
        ("Bo", 6, "CU", "central", "placed", (5, 2), (5, 1), "F3", "F2", "blue", (), (), 1, 0, 0),
        ("Bo", 7, "CU", "central", "placed", (5, 1), (5, 0), "F2", "F1", "blue", (), (), 1, 0, 0)]
    assert all(f.audience == (f.player,) for f in of_type(F, bc.ActionStep))
    # Who collided with whom is the host's alone (section (c)).
    assert of_type(F, bc.CollisionRecord) == [bc.CollisionRecord(3, "Bo", "BR", "border", "B2 bottom right",
                                                                  (bc.CollisionHit(1, "Ann"),), 1, audience=HOST_ONLY)]
    paths = {(f.player, f.node): (f.start, f.end, f.start_label, f.end_label, f.moves, f.steps)
             for f in of_type(F, bc.NodePath)}
    assert paths == {("Ann", "border"): ((3, 1), (1, 3), "C1 bottom right", "A3 bottom right", "DLDL", (1, 2, 4, 6)),
                     ("Ann", "central"): ((2, 2), (1, 3), "C3", "B4", "LD", (3, 7)),
                     ("Bo", "border"): ((1, 2), (1, 2), "A2 bottom right", "A2 bottom right", "", ()),
                     ("Bo", "central"): ((5, 4), (5, 0), "F5", "F1", "UUUU", (1, 2, 6, 7))}
    energy = {f.player: (f.energy, f.limit, f.paths, f.swaps, f.garnet_swaps) for f in of_type(F, bc.EnergyUsed)}
    assert energy == {"Ann": (7, 7, 6, 1, 0), "Bo": (6, 7, 6, 0, 1)}
    # Missions: acceptances, the checks with the matched window, the reward, the penalty, the announcement.
    assert of_type(F, bc.MissionAccepted) == [bc.MissionAccepted("Ann", "M1", "Little Hook", audience=ann),
                                              bc.MissionAccepted("Bo", "M1", "Little Hook", audience=bo)]
    assert of_type(F, bc.MissionCheck) == [
        bc.MissionCheck("Ann", "M1", "Little Hook", "shape", True, "central", "LD", "LD", (3, 7), 1, 1, audience=ann),
        bc.MissionCheck("Bo", "M1", "Little Hook", "shape", False, "central", "UUUU", "", (), 1, 1, audience=bo)]
    assert of_type(F, bc.MissionReward) == [bc.MissionReward("Ann", "M1", "Little Hook", 3, 1, 3, audience=ann)]
    assert of_type(F, bc.MissionPenalty) == [bc.MissionPenalty("Bo", "M1", "Little Hook", -1, "completed_by_others",
                                                               audience=bo)]
    assert of_type(F, bc.MissionCompleters) == [bc.MissionCompleters("M1", ("Ann",), 3, audience=HOST_ONLY)]
    assert of_type(F, bc.MissionCompleted) == [bc.MissionCompleted("M1", "Little Hook")]   # never who (R62)
    assert of_type(F, bc.MissionClosed) == []
    # Fireflies gained and lost, and why; totals, collisions, next nodes.
    assert {f.player: (f.paths, f.rewards, f.penalties) for f in of_type(F, bc.FireflyBreakdown)} == {
        "Ann": (6, 3, 0), "Bo": (4, 0, -1)}
    assert {f.player: (f.before, f.change, f.total) for f in of_type(F, bc.FireflyTotal)} == {
        "Ann": (0, 9, 9), "Bo": (0, 3, 3)}
    assert {f.player: (f.this_round, f.total) for f in of_type(F, bc.CollisionsCaused)} == {"Ann": (0, 0), "Bo": (1, 1)}
    assert of_type(F, bc.NextNodes) == [
        bc.NextNodes("Ann", (1, 3), (1, 3), "A3 bottom right", "B4", "black", audience=ann),
        bc.NextNodes("Bo", (1, 2), (5, 0), "A2 bottom right", "F1", "black", audience=bo)]
    # The public board: the 10 paths unowned and in board order (not step order, A33), the node points.
    assert of_type(F, bc.BugcatcherBoard) == [bc.BugcatcherBoard(1, 6, 5, ())]
    placed = [(f.node, f.frm, f.to, f.colour, f.step) for f in of_type(F, bc.PathPlaced)]
    assert placed == [("border", (3, 1), (3, 2), "blue", 0), ("border", (2, 2), (2, 3), "blue", 0),
                      ("border", (3, 2), (2, 2), "blue", 0), ("border", (2, 3), (1, 3), "black", 0),
                      ("central", (5, 1), (5, 0), "blue", 0), ("central", (1, 2), (1, 3), "blue", 0),
                      ("central", (2, 2), (1, 2), "black", 0), ("central", (5, 2), (5, 1), "blue", 0),
                      ("central", (5, 3), (5, 2), "black", 0), ("central", (5, 4), (5, 3), "black", 0)]
    marks = [(f.phase, f.node, f.at, f.colour) for f in of_type(F, bc.NodeMarker)]
    assert marks == [("start", "border", (3, 1), ""), ("start", "border", (1, 2), ""),
                     ("start", "central", (2, 2), ""), ("start", "central", (5, 4), ""),
                     ("end", "border", (1, 2), ""), ("end", "border", (1, 3), ""),
                     ("end", "central", (5, 0), ""), ("end", "central", (1, 3), "")]
    assert of_type(F, bc.MissionPresented) == []          # no mission for round 2 in this table
    public = [f for f in F if f.audience == PUBLIC]
    assert not any(hasattr(f, "player") for f in public)  # nothing public names anyone during the game
    # Every fact of the round was read above.
    assert {type(f) for f in F} == {bc.ActionStep, bc.CollisionRecord, bc.NodePath, bc.EnergyUsed,
                                    bc.MissionAccepted, bc.MissionCheck, bc.MissionReward, bc.MissionPenalty,
                                    bc.MissionCompleters, bc.MissionCompleted, bc.FireflyBreakdown, bc.FireflyTotal,
                                    bc.CollisionsCaused, bc.NextNodes, bc.BugcatcherBoard, bc.PathPlaced,
                                    bc.NodeMarker}
    assert m.state["fireflies"] == {"Ann": 9, "Bo": 3}
    assert [(r.player, r.change, r.reason) for r in rec.ledger] == [("Bo", -1, "GARNET_SWAP")]


def test_reports_say_it_once_and_without_ruling_numbers():
    m, rec = example_round()
    pub = rec.public
    assert [b.title for b in pub.blocks] == ["Round 1: all paths", "Round 1: missions", "Mission board, round 2"]
    assert "Mission M1 (Little Hook) has been completed." in pub.blocks[1].lines
    ann = rec.private["Ann"].text()
    assert "Your fireflies: 9 (this round +9)." in ann and "Energy used: 7 of 7." in ann
    assert "You completed mission M1 (Little Hook) with your central node (steps 3, 7): +3 fireflies." in ann
    bo = rec.private["Bo"].text()
    assert ("3. BR: collision (case 1: B2 bottom right was already claimed by another node or path): invalidated, "
            "and this node places no more paths this round") in bo
    assert "You failed mission M1 (Little Hook): -1 fireflies, another player completed it." in bo
    assert not names_in(bo, ["Ann"]) and not names_in(ann, ["Bo"])
    # A ruling reference as the code wrote them: "(R62)", "(E-P5)", "(R45, A7, E6)", "(R63-R65)".
    ruling = re.compile(r"\((?:\s*(?:R|A|E|E-P)\d+(?:-[RAE]?\d+)?\s*,?)+\)")
    assert ruling.search("announced (R45, A7, E6)") and ruling.search("capped (E-P5)")
    from sheetbridge.api import play_random
    g = play_random("bugcatcher", ["Ann", "Bo", "Cy", "Dee"], seed=2)
    texts = [g.public_report().text()] + [g.player_report(p).text() for p in g.players]
    texts += [r.public.text() for r in g.rounds] + [t.text() for r in g.rounds for t in r.private.values()]
    for text in texts + [m.public_report().text(), m.player_report("Bo").text()]:
        assert not ruling.search(text), text[max(0, ruling.search(text).start() - 80):ruling.search(text).end()]


def test_fact_classes_rebuild_as_themselves():
    # Facts are rebuilt from the record by their registered tag: each of ours must be registered, and
    # as itself (a record that rebuilt another class would replay differently).
    from sheetbridge.api import games
    from sheetbridge.core.types import _TYPES, type_tag
    games()
    for cls in bc.FACT_TYPES:
        assert _TYPES[type_tag(cls)] is cls, cls.__name__
