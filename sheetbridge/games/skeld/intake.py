"""Skeld's intake: the Submission form (pregame and rounds), a submission parsed cell by cell into
each crewmate's intents with the problems found (section e), then planned (plans.py), and the
default submission of a player who sends nothing (A33)."""
from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

from ...core.parsing import clean, int_reason, is_formula, match_choice, parse_int, yes_no
from ...core.types import (Field, FieldKind, Form, Problem, ProblemKind, RawSubmission, Section, State,
                           Submission)
from .content import (BANANA_ENERGY, BANANA_USE, DIRECTIONS, ROOMS, SEQUENCES, WALL_USES, WIWAXIA_USE, Board,
                      item_uses, room_kind, usable)
from .options import CapScope, Options, options_of
from .plans import caps_of, intent_from_plan, plan_player
from .spec import START_CELLS

_ENERGY_WORDS = tuple(str(n) for n in range(0, 100))   # what an Energy cell may hold, for _several
_SEPARATORS = re.compile(r"\s*(?:,|;|/|&|\+|\band\b|\s)\s*", re.IGNORECASE)
_ITEM_ALIASES = {"banana": BANANA_USE, "yellow banana": BANANA_USE, "eat banana": BANANA_USE,
                 "wiwaxia": WIWAXIA_USE}


def _several(text: str, choices: Sequence[str]) -> list[str]:
    """The items of a cell that names two or more of `choices` ("3C, 4B", "2 and 3"); [] otherwise."""
    parts = [x for x in _SEPARATORS.split(text) if x]
    if len(parts) < 2:
        return []
    hits = [match_choice(x, choices) for x in parts]
    return [h for h in hits if h] if all(hits) else []


# --------------------------------------------------------------------- forms

def form(state: State, player: str) -> Form:
    """The player's Submission form: the pregame's names and start cells, or a round's orders."""
    if state["round"] == 0:
        return _pregame_form()
    return _round_form(state, player)


def _pregame_form() -> Form:
    name = Field("name", "Crewmate name", FieldKind.TEXT, required=False,
                 help="up to 30 visible characters without . , or | (blank keeps Crewmate 1 / Crewmate 2)")
    start = Field("start", "Start cell", FieldKind.CHOICE, START_CELLS,
                  help="crewmates start only in these cells")
    return Form(0, "Pregame", (Section("crew", "Your two crewmates", (name, start), rows=2,
                                       row_labels=("Crewmate 1", "Crewmate 2"),
                                       help="Name each crewmate and pick its start cell."),),
                help=("No room is activated in the pregame.",
                      "A missing start cell is drawn at random."))


def _round_form(state: State, player: str) -> Form:
    crew = state["crew"][player]
    board = Board.of(state)
    opts = options_of(state)
    r = state["round"]
    activated = set(state["activated"])
    moves, ends = _reachable(board, crew, r)
    can_activate = tuple(x for x in ends if room_kind(x) in ("P", "V") or x not in activated)
    disable_any = tuple(x for x in sorted(ROOMS, key=board.pos) if room_kind(x) not in ("P", "V")
                        and x not in activated)
    uses = _item_choices(state, player, r)
    top = max(caps_of(state, player)) + (BANANA_ENERGY if opts.banana_can_exceed_cap else 0)
    fields = [
        Field("move_to", "Move to", FieldKind.CHOICE, tuple(moves), required=False,
              help="a room in the same row or column; 1 Energy per tile; blank = stay"),
        Field("toe_step", "Take Back Toe step", FieldKind.CHOICE, tuple(DIRECTIONS), required=False,
              help="N/E/S/W after moving, 1 Energy (Take Back Toe carriers only)"),
        Field("activate_room", "Activate room", FieldKind.CHOICE, can_activate, required=False,
              help="the room this crewmate ends its movement in; any other room is not activated"),
        Field("energy", "with Energy", FieldKind.INTEGER, minimum=1, maximum=top, required=False,
              help="spent even if the activation fails; at least 3 at V"),
        (Field("disable_room", "Disable room", FieldKind.CHOICE, disable_any, required=False,
               help="any room, once per game; uses all Energy left after the activation; not P or V")
         if opts.remote_disable else
         Field("disable_room", "Disable room", FieldKind.CHOICE,
               tuple(x for x in can_activate if room_kind(x) not in ("P", "V")), required=False,
               help="once per game: the room this crewmate ends in; uses all its Energy; not P or V")),
        Field("item", "Use item", FieldKind.CHOICE, tuple(uses), required=False,
              help="a bonus this crewmate carries; Energy over the cap from the Yellow Banana is lost"),
        Field("item_2", "Use another item", FieldKind.CHOICE, tuple(uses), required=False,
              help="a second bonus use this round"),
    ]
    if opts.plant_requires_target:
        fields.append(Field("plant_sequence", "Plant on Sequence", FieldKind.CHOICE,
                            tuple(SEQUENCES.values()), required=False, help="needed when activating V"))
    labels = tuple(f"{c['name']} (in {c['pos']}, {c['energy']} Energy)" for c in crew)
    return Form(r, f"Round {r}", (
        Section("crew", "Your crewmates", tuple(fields), rows=2, row_labels=labels,
                help="Order: item (banana) > move > Toe step > activate or disable > drains and walls."),
        _garnet_section(crew, opts),
    ), help=(f"Round {r} of {opts.max_rounds}.",
             "Name the room you activate (or disable): the room the crewmate ends its movement in. If the "
             "crewmate ends elsewhere (a refused move), nothing is activated and no Energy is spent.",
             "Energy over what is left after moving, or a move through a wall, is refused."))


def _reachable(board: Board, crew: Sequence[Mapping[str, Any]], r: int) -> tuple[list[str], list[str]]:
    """The rooms the crewmates can move to, and every room one can end its movement in (Toe step included)."""
    moves: list[str] = []
    ends: list[str] = []
    for c in crew:
        line = [c["pos"]] + board.same_line(c["pos"])
        moves += [x for x in line if x not in moves]
        ends += [x for x in line if x not in ends]
        if usable(c, "T", r):
            for x in line:
                ends += [n for d in DIRECTIONS if (n := board.neighbour(x, d)) and n not in ends]
    moves.sort(key=board.pos)
    ends.sort(key=board.pos)
    return moves, ends


def _item_choices(state: State, player: str, r: int) -> list[str]:
    """The item uses the player's crewmates can make this round (the Use item dropdown)."""
    uses = ["none"]
    for c in state["crew"][player]:
        if usable(c, "Y", r) and BANANA_USE not in uses:
            uses.append(BANANA_USE)
        if usable(c, "W", r) and WIWAXIA_USE not in uses:
            uses.append(WIWAXIA_USE)
        if usable(c, "S", r):
            uses += [w for w in WALL_USES if w not in uses]
        if usable(c, "X", r):
            uses += [f"XComm with {p}" for p in state["players"] if p != player and f"XComm with {p}" not in uses]
    return uses


def _garnet_section(crew: Sequence[Mapping[str, Any]], opts: Options) -> Section:
    """Cap raises for 3 garnets each (R17): for both crewmates, or each its own (A11)."""
    if opts.cap_upgrade_scope == CapScope.CREWMATE:
        left = max(2 - c["raises"] for c in crew)
        return Section("garnets", "Garnet purchases", (Field(
            "cap_upgrades", "Energy cap raises (3 garnets each)", FieldKind.INTEGER, minimum=0, maximum=left,
            required=False, help="raises this crewmate's cap by 1 each, up to 9"),), rows=2,
            row_labels=tuple(f"{c['name']} (cap {c['cap']})" for c in crew),
            help="Raises one crewmate's cap.")
    left = 2 - crew[0]["raises"]
    return Section("garnets", "Garnet purchases", (Field(
        "cap_upgrades", "Energy cap raises (3 garnets each)", FieldKind.INTEGER, minimum=0, maximum=left,
        required=False, help=f"cap now {crew[0]['cap']}; at most {left} more (cap 9 max)"),),
        help="Raises the cap of both crewmates.")


# --------------------------------------------------------------------- parsing

def parse(state: State, player: str, raw: RawSubmission) -> Submission:
    """The player's cells read into intents, then planned; every problem names its cell (section e)."""
    if state["round"] == 0:
        return parse_pregame(state, player, raw)
    opts = options_of(state)
    crew = state["crew"][player]
    rows = list(raw.get("crew", []) or [])
    reader = _Reader(player, item_uses(state["players"], player))
    intents = [reader.crewmate(c, rows[i] if i < len(rows) and rows[i] else {}, opts) for i, c in enumerate(crew)]
    upgrades = reader.cap_raises(crew, list(raw.get("garnets", []) or []), opts)
    caps = [c["cap"] + n for c, n in zip(crew, upgrades)]
    plans, probs = plan_player(state, player, intents, caps, opts)
    problems = reader.problems
    for field, value, allowed, reason, default in probs:
        problems.append(Problem(ProblemKind.ILLEGAL, player, field, value, allowed, reason, default))
    values = {"upgrades": upgrades, "crew": [intent_from_plan(p) for p in plans]}
    return Submission(player, values, tuple(problems), raw)


class _Reader:
    """One player's round submission read cell by cell, the problems kept in the order found."""

    def __init__(self, player: str, all_uses: Sequence[str]) -> None:
        self.player, self.all_uses = player, all_uses
        self.problems: list[Problem] = []

    def syn(self, field: str, value: str, allowed: str, reason: str, default: str) -> None:
        self.problems.append(Problem(ProblemKind.SYNTAX, self.player, field, value, allowed, reason, default))

    def add(self, kind: ProblemKind, field: str, value: str, allowed: str, reason: str, default: str) -> None:
        self.problems.append(Problem(kind, self.player, field, value, allowed, reason, default))

    def crewmate(self, c: Mapping[str, Any], row: Mapping[str, Any], opts: Options) -> dict:
        """One crewmate's row: move, Toe step, activation, disable, items, plant (in the form's order)."""
        name = c["name"]
        it: dict[str, Any] = {"banana": False, "move_to": None, "toe": None, "room": None, "energy": None,
                              "disable": None, "wiwaxia": False, "wall": None, "xcomm": None, "plant": None}
        # A step is read only when its cell holds something: most cells of most rows are blank.
        if text := clean(row.get("move_to", "")):
            self.move_to(it, name, c["pos"], text)
        if text := clean(row.get("toe_step", "")):
            self.toe_step(it, name, text)
        room_text, energy_text = clean(row.get("activate_room", "")), clean(row.get("energy", ""))
        if room_text or energy_text:
            self.activation(it, name, room_text, energy_text)
        if text := clean(row.get("disable_room", "")):
            self.disable(it, name, text)
        for key in ("item", "item_2"):
            if text := clean(row.get(key, "")):
                self.item(it, name, key, text)
        if opts.plant_requires_target and (text := clean(row.get("plant_sequence", ""))):
            self.plant(it, name, text)
        return it

    def move_to(self, it: dict, name: str, pos: str, text: str) -> None:
        hit = match_choice(text, ROOMS)
        if is_formula(text) or hit is None:
            self.syn(f"{name} move_to", text, "a room label of the ship (1A..13C, R..Z, P, V)",
                     "a formula" if is_formula(text) else "not a room of the ship", f"{name} stays in {pos}")
        else:
            it["move_to"] = hit

    def toe_step(self, it: dict, name: str, text: str) -> None:
        hit = match_choice(text[:1] if text.casefold() in ("north", "east", "south", "west") else text, DIRECTIONS)
        if is_formula(text) or hit is None:
            self.syn(f"{name} toe_step", text, "N, E, S or W", "not a direction", "no extra step")
        else:
            it["toe"] = hit

    def activation(self, it: dict, name: str, room_text: str, energy_text: str) -> None:
        """A room and an Energy ("Activate Room 3C with 2 Energy", R42), one per crewmate (R30, E18)."""
        room = energy = None
        several = False
        if room_text:
            if is_formula(room_text):
                self.syn(f"{name} activate_room", room_text, "a room of the ship", "a formula", "no activation")
            elif (room := match_choice(room_text, ROOMS)) is None:
                if _several(room_text, ROOMS):
                    several = True
                    self.add(ProblemKind.ILLEGAL, f"{name} activate_room", room_text,
                             f"one room: the room {name} ends in",
                             "a crewmate activates at most one room a round", "no activation")
                else:
                    self.syn(f"{name} activate_room", room_text, "a room of the ship", "not a room of the ship",
                             "no activation")
        if energy_text:
            energy = None if is_formula(energy_text) else parse_int(energy_text)
            if not is_formula(energy_text) and _several(energy_text, _ENERGY_WORDS):
                energy = None
                if not several:
                    self.add(ProblemKind.ILLEGAL, f"{name} energy", energy_text, "one whole number of Energy",
                             "a crewmate activates at most one room a round", "no activation")
                several = True
            elif energy is None:
                self.syn(f"{name} energy", energy_text, "a whole number of Energy", int_reason(energy_text),
                         "no activation")
        if several:
            pass   # every activation of this crewmate is dropped (E18)
        elif room is not None and energy is not None:
            it["room"], it["energy"] = room, energy
        elif room is not None and not energy_text:
            self.add(ProblemKind.MISSING, f"{name} energy", "", "a whole number of Energy (at least 1, 3 at V)",
                     f"activating {room} needs its Energy", "no activation")
        elif energy is not None and not room_text:
            self.add(ProblemKind.MISSING, f"{name} activate_room", "", f"the room {name} ends in",
                     "an activation names its room", "no activation; no Energy spent")

    def disable(self, it: dict, name: str, text: str) -> None:
        if text.casefold() in ("no", "none", "-"):
            return
        room = None if is_formula(text) else match_choice(text, ROOMS)
        if room is not None:
            it["disable"] = room
        elif not is_formula(text) and yes_no(text):
            self.add(ProblemKind.ILLEGAL, f"{name} disable_room", text,
                     "the room to disable", "a disable names its room", "no disable")
        else:
            self.syn(f"{name} disable_room", text, "a room of the ship",
                     "a formula" if is_formula(text) else "not a room of the ship", "no disable")

    def item(self, it: dict, name: str, key: str, text: str) -> None:
        """An item use; each item once per crewmate and round."""
        if text.casefold() == "none":
            return
        hit = None if is_formula(text) else match_choice(text, self.all_uses)
        if hit is None and not is_formula(text):
            hit = _ITEM_ALIASES.get(text.casefold())
        if hit is None:
            self.syn(f"{name} {key}", text, "one of " + ", ".join(self.all_uses),
                     "a formula" if is_formula(text) else "not an item use", "no item used")
            return
        dup = ((hit == BANANA_USE and it["banana"]) or (hit == WIWAXIA_USE and it["wiwaxia"])
               or (hit in WALL_USES and it["wall"]) or (hit.startswith("XComm") and it["xcomm"]))
        if dup:
            self.add(ProblemKind.ILLEGAL, f"{name} {key}", text, "a different item use",
                     "that item is already used this round by this crewmate (single use per round)", "ignored")
        elif hit == BANANA_USE:
            it["banana"] = True
        elif hit == WIWAXIA_USE:
            it["wiwaxia"] = True
        elif hit in WALL_USES:
            it["wall"] = hit[-1]
        else:
            it["xcomm"] = hit[len("XComm with "):]

    def plant(self, it: dict, name: str, text: str) -> None:
        """The Sequence a plant names (plant_requires_target, A22)."""
        hit = None if is_formula(text) else match_choice(text, list(SEQUENCES.values()))
        if hit is None:
            hit_letter = None if is_formula(text) else match_choice(text, list(SEQUENCES))
            hit = SEQUENCES[hit_letter] if hit_letter else None
        if hit is None:
            self.syn(f"{name} plant_sequence", text, "Frontier, Greenhouse or Conductor",
                     "not a Sequence", "no Sequence named")
        else:
            it["plant"] = [k for k, v in SEQUENCES.items() if v == hit][0]

    def cap_raises(self, crew: Sequence[Mapping[str, Any]], grow: Sequence[Any], opts: Options) -> list[int]:
        """Cap raises (R17, A11; E27: the balance is checked at resolution), per crewmate."""
        per_crew = opts.cap_upgrade_scope == CapScope.CREWMATE
        upgrades = [0, 0]
        for i in range(2 if per_crew else 1):
            text = clean(grow[i].get("cap_upgrades", "")) if i < len(grow) and grow[i] else ""
            left = 2 - crew[i]["raises"]
            field = f"{crew[i]['name']} cap_upgrades" if per_crew else "cap_upgrades"
            if not text:
                continue
            n = None if is_formula(text) else parse_int(text)
            if n is None:
                self.syn(field, text, f"a whole number from 0 to {left}", int_reason(text), "no cap raise")
            elif not 0 <= n <= left:
                self.add(ProblemKind.ILLEGAL, field, text, f"a whole number from 0 to {left}",
                         f"the cap can rise to 9 at most (now {crew[i]['cap']})", "no cap raise")
            elif per_crew:
                upgrades[i] = n
            else:
                upgrades = [n, n]
        return upgrades


def parse_pregame(state: State, player: str, raw: RawSubmission) -> Submission:
    """Two crewmates' names and start cells (R8-R12); a missing cell is assigned (A33)."""
    problems: list[Problem] = []
    rows = list(raw.get("crew", []) or [])
    out = []
    names_seen: list[str] = []
    fallback = options_of(state).pregame_fallback
    dflt = "a random allowed cell" if fallback == "random" else fallback  # A33
    for i in range(2):
        row = rows[i] if i < len(rows) and rows[i] else {}
        item: dict[str, Any] = {"name": None, "start": None}
        name = clean(row.get("name", ""))
        if name:
            bad = (is_formula(name) or len(name) > 30 or any(ch in name for ch in ".,|")
                   or not name.isprintable())  # a name is shown on every board: no invisible characters
            if bad:
                problems.append(Problem(ProblemKind.SYNTAX, player, f"crewmate {i + 1} name", name,
                                        "a name up to 30 visible characters without . , | or a leading =",
                                        "not a usable name", f"Crewmate {i + 1}"))
            elif name.casefold() in names_seen:
                problems.append(Problem(ProblemKind.ILLEGAL, player, f"crewmate {i + 1} name", name,
                                        "a name different from your other crewmate's",
                                        "both crewmates have this name", f"Crewmate {i + 1}"))
            else:
                item["name"] = name
                names_seen.append(name.casefold())
        cell = clean(row.get("start", ""))
        label = f"crewmate {i + 1} start"
        if not cell:
            problems.append(Problem(ProblemKind.MISSING, player, label, "", ", ".join(START_CELLS),
                                    "no start cell", dflt))
        else:
            hit = None if is_formula(cell) else match_choice(cell, START_CELLS)
            if hit is None:
                on_board = not is_formula(cell) and match_choice(cell, ROOMS) is not None
                problems.append(Problem(ProblemKind.ILLEGAL if on_board else ProblemKind.SYNTAX, player, label,
                                        cell, ", ".join(START_CELLS),
                                        "crewmates start only in 1A-C, 2A-C, 3A or 5A" if on_board
                                        else "not a room label", dflt))
            else:
                item["start"] = hit
        out.append(item)
    if not out[0]["name"] and out[1]["name"] and out[1]["name"].casefold() == "crewmate 1":
        out[1]["name"] = None
    return Submission(player, {"crew": out}, tuple(problems), raw)


def default_submission(state: State) -> Mapping[str, Any]:
    """What a player who submits nothing does (A33): no names nor cells in the pregame; then stay, do nothing."""
    if state["round"] == 0:
        return {"crew": [{"name": None, "start": None}, {"name": None, "start": None}]}
    return {"upgrades": [0, 0], "crew": [{}, {}]}  # A33: stay and do nothing
