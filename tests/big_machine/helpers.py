"""The Big Machine tests' shared helpers: the roster, a match and a team's turn."""
from sheetbridge.api import new_match


ROSTER = ["Ann", "Bo", "Cy", "Dee"]  # default pairing: Team 1 = Ann (player) + Bo (guest), Team 2 = Cy + Dee


def start(meadows=("White", "White", "Red", "Blue"), garnets=None, options=None, players=ROSTER, tables=None):
    """A match after meadow selection (round 0), round 1 open."""
    m = new_match("big-machine", players, seed=5, garnets=garnets or {p: 0 for p in players},
                  options=options, tables=tables)
    m.resolve({p: {"start": [{"meadow": md}]} for p, md in zip(players, meadows)})
    assert m.state["round"] == 1
    return m


def turn(meadow="", bid="", power="", node="", sabotage="", jump="", give=()):
    row = {"meadow": meadow, "bid": str(bid), "power": str(power), "node": node, "sabotage": sabotage,
           "jump": jump}
    gifts = [{"to": t, "cogs": str(n)} for t, n in give] + [{"to": "", "cogs": ""}] * 2
    return {"turn": [row], "give": gifts[:2]}


def parts(m, team):
    return m.state["machines"][team]["parts"]


def text(report):
    return report.text()


def _round_two(garnets=None, options=None):
    """Round 1 played with Ann on L4 (White half: joined to L1 and L2), round 2 open."""
    m = start(garnets=garnets, options=options)
    m.resolve({"Ann": turn("White", 0, 0, "L4"), "Bo": turn("Blue", 0, 0, "R4"),
               "Cy": turn("Red", 0, 0, "M2"), "Dee": turn("Green", 0, 0, "M2")})
    return m


P6 = ["Ann", "Bo", "Cy", "Dee", "Eli", "Fay"]  # Team 1 Ann + Bo, Team 2 Cy + Dee, Team 3 Eli + Fay


def machine_50_position():
    """The ruleset's 50-point example (see _machine_50) at round 7, L5 and R5 still empty."""
    parts = {"M1": "White 3", "M2": "Blue 2", "M3": "Blue 4", "L1": "Blue 5", "L2": "Blue 1", "L3": "Green 3",
             "L4": "Red 2", "R1": "Black 4", "R2": "White 2", "R3": "White 3", "R4": "Green 2"}
    return {"round": 7, "start": {"Ann": "White", "Bo": "White", "Cy": "Red", "Dee": "Blue"},
            "previous": {"Ann": "L3", "Bo": "R3", "Cy": "L1", "Dee": "R1"},
            "parts": {"Team 1": parts, "Team 2": {"L1": "faulty", "R1": "faulty"}},
            "traversed": {"Team 1": [["L1", "L4"], ["R1", "R4"]]},
            "cogs": {"Ann": 3, "Bo": 3, "Cy": 5, "Dee": 5}}
