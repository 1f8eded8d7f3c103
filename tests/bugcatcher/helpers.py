"""Bugcatcher tests' shared helpers: mission tables, a match and its actions."""
import re

from sheetbridge.api import new_match


HEADER = ["round", "id", "name", "node", "shape", "reward", "penalty", "failure_rounds", "rotate",
          "reflect", "either_end", "anywhere", "expires_after_round", "text"]


def mission(rnd, mid, node, shape, reward, penalty="", failure="", expires="", name=None):
    return [str(rnd), mid, name or f"Mission {mid}", node, shape, str(reward), str(penalty), str(failure),
            "", "", "", "", str(expires), ""]


def tables(*rows, ranking=()):
    return {"Missions": [HEADER] + [list(r) for r in rows],
            "Gamewide Tiebreak": [["rank", "player"]] + [[str(i + 1), p] for i, p in enumerate(ranking)]}


def start(nodes, tbl=None, options=None, garnets=None, seed=1):
    """A match after a pregame in which everyone got their (uncontested) 1st choices.
    nodes: player -> (central cell, border cell, border corner)."""
    players = list(nodes)
    m = new_match("bugcatcher", players, seed=seed, tables=tbl or tables(), options=options,
                  garnets=garnets or {})
    raw = {p: {"central": [{"cell": c}], "border": [{"cell": b, "corner": k}]} for p, (c, b, k) in nodes.items()}
    m.resolve(raw)
    assert m.round == 1
    return m


def acts(*codes, accept=None):
    raw = {"actions": [{"action": c} for c in codes]}
    if accept is not None:
        raw["missions"] = [{"accept": a} for a in accept]
    return raw


def names_in(text, names):
    return [n for n in names if re.search(rf"\b{re.escape(n)}\b", text)]


def example_round():
    """The ruleset's example (R35, R36) for Ann from C3 and C1 bottom right (A42), with Bo meeting her
    path. Mission M1 (central, shape LD, +3, failure 1 round -1) accepted by both.

    Ann: BD (3,1)->(3,2) blue, BL ->(2,2) blue, CL C3->B3 black, BD (2,2)->(2,3) blue, swap (border
    black, central blue), BL (2,3)->(1,3) black, CD B3->B4 blue: 6 paths. Her CL at step 3 crosses the
    edge (2,2)-(2,3) her blue BD uses at step 4, and her CD at step 7 crosses the edge (1,3)-(2,3) of
    her black BL of step 6: different colours, no collision (A4).
    Bo (border corner (1,2) = A2 bottom right, central F5, 1 garnet): CU F5->F4, CU ->F3 (black);
    BR (1,2)->(2,2) at step 3: Ann claimed (2,2) at step 2, so case 1 for Bo, the later arrival (R37,
    R38): 1 collision caused; BD at step 4 is invalidated (its node stopped) but still costs energy
    (A16); gswap at step 5 (a garnet, no energy); CU F3->F2, CU ->F1 in blue: 4 paths.
    M1: Ann's central moves are L, D at steps 3 and 7: the shape itself: +3. Bo's central moves
    UUUU hold no turn: not completed, so Bo pays -1 now that Ann completed it (R56).
    Ann 6 + 3 = 9 fireflies; Bo 4 - 1 = 3; Bo's garnet swap costs 1 garnet."""
    m = start({"Ann": ("C3", "C1", "bottom right"), "Bo": ("F5", "A2", "bottom right")},
              tables(mission(1, "M1", "central", "LD", 3, -1, 1, name="Little Hook")), garnets={"Bo": 1})
    rec = m.resolve({"Ann": acts("BD", "BL", "CL", "BD", "swap", "BL", "CD", accept=["yes"]),
                     "Bo": acts("CU", "CU", "BR", "BD", "gswap", "CU", "CU", accept=["yes"])})
    return m, rec
