"""Skeld tests' shared helpers: the roster, the default board, a match and its submissions."""
from sheetbridge.api import new_match as api_new_match


PLAYERS = ["Marcer", "uri", "Spadez", "Ann"]
NAMES = {"Marcer": ("Crew1", "Crew2"), "uri": ("CrewA", "CrewB"), "Spadez": ("CrewN", "CrewM"),
         "Ann": ("Red", "Blue")}
BOARD_CSV = [["row", "1", "2", "3", "4", "5", "6", "7"],
             ["1", "1A", "2A", "3A", "S", "11A", "12B", "13C"],
             ["2", "1B", "2B", "5A", "4C", "6A", "7B", "8C"],
             ["3", "1C", "2C", "3C", "4B", "P", "9A", "10C"],
             ["4", "R", "T", "3B", "V", "4A", "W", "10B"],
             ["5", "5B", "6B", "7A", "8A", "U", "9B", "10A"],
             ["6", "5C", "6C", "7C", "8B", "X", "9C", "11B"],
             ["7", "Y", "Z", "11C", "12A", "12C", "13A", "13B"]]


def new_match(options=None, garnets=None, starts=None, seed=1):
    """A match past the pregame: every crewmate named as in the ruleset's examples."""
    m = api_new_match("skeld", PLAYERS, seed=seed, options=options,
                  garnets=garnets if garnets is not None else {p: 10 for p in PLAYERS})
    starts = starts or {p: ("1A", "1B") for p in PLAYERS}
    m.resolve({p: {"crew": [{"name": NAMES[p][i], "start": starts[p][i]} for i in range(2)]}
               for p in PLAYERS})
    assert m.state["round"] == 1
    return m


def place(m, player, idx, room, energy=None, items=(), parasite=None):
    c = m.state["crew"][player][idx]
    c["pos"] = room
    if energy is not None:
        c["energy"] = energy
    for letter, uses in items:
        c["items"].append({"item": letter, "uses": uses, "got": 0})
    if parasite is not None:
        c["parasite"] = parasite
        if parasite:
            m.state["claimed"][player] = True


def give(m, player, labels):
    """Components already claimed (shared inventory, R35) and their rooms activated (R25)."""
    for lab in labels:
        m.state["components"][player].append(lab)
        m.state["activated"].append(lab)


def row(move="", energy="", disable="", item="", item_2="", toe="", room=""):
    """One crewmate's row: `room` and `energy` are the activation ("Activate Room 3C with 2 Energy")."""
    return {"move_to": move, "toe_step": toe, "activate_room": room, "energy": energy, "disable_room": disable,
            "item": item, "item_2": item_2}


def sub(c1=None, c2=None, upgrades=""):
    return {"crew": [c1 or row(), c2 or row()], "garnets": [{"cap_upgrades": upgrades}]}


def crew(m, player, idx):
    return m.state["crew"][player][idx]


def text(report):
    return report.text()


CONDUCTOR_EXAMPLE = {  # the ruleset's 30 vs 29 example; 12C is left for the last round
    "uri": ["1C", "3C", "5C", "7C", "13C"],     # 1 + 3 + 5 + 7 + 13 = 29
    "Marcer": ["2C", "4C", "6C", "8C", "10C"],  # 2 + 4 + 6 + 8 + 10 = 30
    "Spadez": ["9C", "11C"],                     # 20
    "Ann": [],                                   # 12C this round: 12
}


def conductor_match(**kw):
    m = new_match(**kw)
    for p, labs in CONDUCTOR_EXAMPLE.items():
        give(m, p, labs)
    place(m, "Ann", 0, "12C", energy=5)
    return m
