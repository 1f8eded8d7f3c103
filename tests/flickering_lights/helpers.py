"""Flickering Lights tests' shared helpers: grids, role tables, a match and its submissions."""
from sheetbridge.api import new_match
from sheetbridge.games import flickering_lights as fl


P = ["Ann", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus"]
RED_P, BLUE_P = ["Ann", "Bo", "Cy"], ["Dee", "Eli", "Fay"]



def rows_of(squares):
    """8 strings (row 1 first) from {"D4": "R", ...}; everything else gray."""
    g = [["."] * 8 for _ in range(8)]
    for name, col in squares.items():
        g[int(name[1]) - 1]["ABCDEFGH".index(name[0])] = col
    return ["".join(r) for r in g]


def grid_table(by_round):
    rect = [["round", "row"] + list("ABCDEFGH")]
    for rd in range(1, 6):
        rows = by_round.get(rd)
        for i in range(8):
            cells = [{"R": "R", "B": "B", ".": "G"}[ch] for ch in rows[i]] if rows else [""] * 8
            rect.append([str(rd), str(i + 1)] + cells)
    return rect


def assign_table(by_round):
    """by_round: {rd: (red roles for Ann, Bo, Cy; blue roles for Dee, Eli, Fay)}; Gus is White."""
    rect = [["round", "player", "team", "role"]]
    for rd, (red, blue) in sorted(by_round.items()):
        for p, role in zip(RED_P, red):
            rect.append([str(rd), p, "Red", role])
        for p, role in zip(BLUE_P, blue):
            rect.append([str(rd), p, "Blue", role])
        rect.append([str(rd), "Gus", "White", "Mediator"])
    return rect


CSB = ("Coordinator", "Sniper", "Blocker")
CSD = ("Coordinator", "Sniper", "Demolitionist")
CSS = ("Coordinator", "Sniper", "Saboteur")
SBS = ("Sniper", "Blocker", "Saboteur")


def new(grids, roles, options=None, items=None, seed=1):
    tables = {"Grids": grid_table(grids), "Assignments": assign_table(roles),
              "Items": [["round", "item", "kind", "squares", "amount", "explanation"]] + (items or [])}
    return new_match("flickering-lights", P, seed=seed, options=options, tables=tables)


def sp(*squares, **extra):
    """A raw submission: own spaces in order, plus block/flip/defend lists."""
    raw = {"spaces": [{"space": s} for s in squares]}
    for sec, sqs in extra.items():
        raw[sec] = [{"space": s} for s in (sqs if isinstance(sqs, (list, tuple)) else [sqs])]
    return raw


def white(red="", blue=""):
    return {"mediator": [{"red_space": red, "blue_space": blue}]}


def final_grid(m):
    return fl.parse_grid(m.state["history"][-1]["grid_end"])


def count(m, color):
    g = final_grid(m)
    return sum(1 for s in fl.ALL_SQUARES if g[s] == color)


def points(m):
    return m.state["history"][-1]["points"]


# D4 red, E4 blue: the left-right mirror maps D (column 4) onto E (column 5).
DUO = rows_of({"D4": "R", "E4": "B"})
# Row 1: A-D red, E-H blue (left-right mirror).
ROW1 = rows_of({"A1": "R", "B1": "R", "C1": "R", "D1": "R", "E1": "B", "F1": "B", "G1": "B", "H1": "B"})
CORNERS = rows_of({"A1": "R", "H1": "B"})


def _to_round_four(grid4, roles4=SBS, **kw):
    roles = {1: (CSD, CSD), 2: (CSS, CSS), 3: (CSD, CSD), 4: (roles4, roles4)}
    m = new({1: CORNERS, 2: DUO, 3: CORNERS, 4: grid4}, roles, **kw)
    for _ in range(3):
        m.resolve({})
    return m
