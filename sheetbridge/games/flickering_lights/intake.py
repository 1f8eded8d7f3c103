"""A player's submission: which lists their team and role this round lets them submit, the form
drawn from that, and the parse of what they typed into values and problems (A32-A34, A37).

A dropped entry keeps its slot as None, so the rules can renumber or keep slots (A33).
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from ...core.parsing import clean, is_formula
from ...core.rng import Rng
from ...core.types import (Field, FieldKind, Form, Problem, ProblemKind, RawSubmission, Section,
                           Submission)
from .board import (ALL_SQUARE_NAMES, ALL_SQUARES, BLUE, COLOR_NAME, GRAY, RED, Grid, Square,
                    allowed_colour_text, squares_of_colour, adjacent, parse_grid, parse_square, sq_name, square_of)
from .content import Role, Team, Variation
from .options import options_of
from .state import FlickeringState

SECTIONS = ("spaces", "block", "flip", "defend", "mediator")

def team_and_role(state: FlickeringState, player: str) -> tuple[Team, Role]:
    a = state["current"]["assign"][player]
    return Team(a["team"]), Role(a["role"])


def square_choices(state: FlickeringState, color: str | None) -> tuple[str, ...]:
    """Choices for a field: squares of `color` on the round-start grid (A34); all 64 in round 4."""
    if state["round"] == Variation.FOG.value or color is None:
        return ALL_SQUARE_NAMES
    return squares_of_colour(tuple(state["current"]["grid"]), color)


def sections_of(state: FlickeringState, player: str) -> dict[str, dict]:
    """The lists this player may submit: name -> {cap, color, label}."""
    team, role = team_and_role(state, player)
    rd = state["round"]
    out: dict[str, dict] = {}
    if team is Team.WHITE:
        out["mediator"] = {"cap": 1, "color": None, "label": "your red and blue space"}
        if rd == 2 and options_of(state).white_defends:
            out["defend"] = {"cap": 1, "color": "any", "label": "a red or blue space to defend"}
        return out
    mine, theirs = team.color, team.other.color
    cap = 4 if role is Role.DEMOLITIONIST else 2
    out["spaces"] = {"cap": cap, "color": mine, "label": f"your {COLOR_NAME[mine]} spaces"}
    if role is Role.BLOCKER and rd != 2:
        out["block"] = {"cap": 2, "color": theirs, "label": f"{COLOR_NAME[theirs]} spaces to block"}
    if role is Role.SABOTEUR:
        out["flip"] = {"cap": 1, "color": theirs, "label": f"a {COLOR_NAME[theirs]} space to flip"}
    if rd == 2:
        out["defend"] = {"cap": 1, "color": theirs, "label": f"a {COLOR_NAME[theirs]} space to defend"}
    return out


def form(state: FlickeringState, player: str) -> Form:
    rd = state["round"]
    var = Variation(rd)
    team, role = team_and_role(state, player)
    fog = var is Variation.FOG
    secs = []
    help_lines = [f"Round {rd}: {var.title}. {var.text}",
                  f"You are {team.value}, {role.value}. Write squares as A1-H8 (column letter, row number)."]
    for name, info in sections_of(state, player).items():
        if name == "mediator":
            fields = (
                Field("red_space", "Red space (+1)", FieldKind.CHOICE, square_choices(state, RED),
                      help="exactly one red space"),
                Field("blue_space", "Blue space (+1)", FieldKind.CHOICE, square_choices(state, BLUE),
                      help="exactly one blue space"))
            secs.append(Section("mediator", "Mediator: one red and one blue space", fields,
                                help="You must submit one red and one blue space; each gets +1."))  # R13, R15
            continue
        color = info["color"]
        choices = square_choices(state, None if color == "any" else color)
        if color == "any" and not fog:
            g = parse_grid(state["current"]["grid"])
            choices = tuple(sq_name(s) for s in ALL_SQUARES if g[s] != GRAY)
        if name == "spaces":
            first = 4 if role is Role.SNIPER else 2
            labels = tuple([f"1st (+{first})"] + [f"{n} (+1)" for n in ("2nd", "3rd", "4th")][:info["cap"] - 1])
            extra = " None may share an edge." if role is Role.DEMOLITIONIST else ""
            secs.append(Section("spaces", f"Your spaces ({info['label']})",
                                (Field("space", "Space", FieldKind.CHOICE, choices, required=False),),
                                rows=info["cap"], row_labels=labels,
                                help=f"Up to {info['cap']} distinct {info['label'].split()[1]} spaces, in order."
                                + extra))
        else:
            title = {"block": "Block (-1 each)", "flip": "Flip (Saboteur)",
                     "defend": "Defend (-1, stacks)"}[name]
            secs.append(Section(name, title, (Field("space", "Space", FieldKind.CHOICE, choices,
                                                    required=False),),
                                rows=info["cap"], help=f"Up to {info['cap']}: {info['label']}."))
    if fog:
        help_lines.append("Fog of War: any square may be chosen; one of the wrong colour is replaced by "
                          "a random square of the right colour.")
    return Form(round=rd, round_label=f"Round {rd}: {var.title}", sections=tuple(secs),
                help=tuple(help_lines))


def parse(state: FlickeringState, player: str, raw: RawSubmission) -> Submission:
    rd = state["round"]
    fog = rd == Variation.FOG.value
    team, role = team_and_role(state, player)
    g = parse_grid(state["current"]["grid"])
    allowed_secs = sections_of(state, player)
    problems: list[Problem] = []
    values: dict[str, Any] = {}

    def prob(kind: ProblemKind, fld: str, value: str, allowed: str, reason: str, default: str) -> None:
        problems.append(Problem(kind, player, fld, value, allowed, reason, default))

    for sec in sorted(raw):
        if sec in allowed_secs:
            continue
        texts = [clean(v) for row in raw[sec] for v in row.values() if clean(v)]
        if texts:
            why = {"block": "only the Blocker may block, and there is no Blocker in round 2",
                   "flip": "only the Saboteur may flip", "defend": "defends exist only in round 2",
                   "mediator": "only the White player submits a red and a blue space",
                   "spaces": "the White player submits red_space and blue_space instead"}.get(
                       sec, "this is not part of the form")
            prob(ProblemKind.ILLEGAL, sec, ", ".join(texts), "nothing", why, "ignored")  # A37
    for sec, info in allowed_secs.items():
        rows = list(raw.get(sec, []))
        if sec == "mediator":
            row = rows[0] if rows else {}
            for fld, color in (("red_space", RED), ("blue_space", BLUE)):
                text = clean(row.get(fld, ""))
                allowed = allowed_text(state, color)
                if not text:
                    prob(ProblemKind.MISSING, fld, "", allowed, "the White player must submit one red "
                         "and one blue space", "no +1 from this field")  # R13, A32
                    continue
                s = None if is_formula(text) else parse_square(text)
                if s is None:
                    prob(ProblemKind.SYNTAX, fld, text, allowed, "not a square A1-H8",
                         "no +1 from this field")
                elif not fog and g[s] != color:
                    prob(ProblemKind.ILLEGAL, fld, text, allowed, f"{sq_name(s)} is {COLOR_NAME[g[s]]}, not "
                         f"{COLOR_NAME[color]}", "no +1 from this field")
                else:
                    values[fld] = sq_name(s)
            continue
        color = info["color"]
        need = None if fog else (color if color != "any" else "any")
        adj = options_of(state).adjacency if (sec == "spaces" and role is Role.DEMOLITIONIST) else None
        values[sec] = read_list(player, sec, rows, info["cap"], need, g, adj,
                                allowed_text(state, None if color == "any" else color), prob)
    return Submission(player=player, values=values, problems=tuple(problems), raw=raw)


def allowed_text(state: FlickeringState, color: str | None) -> str:
    if state["round"] == Variation.FOG.value:
        return "any square A1-H8 (Fog of War: a wrong colour is replaced at random)"
    if color is None:
        return "a red or blue square"
    return allowed_colour_text(tuple(state["current"]["grid"]), color)


def read_list(player: str, sec: str, rows: Sequence[Mapping[str, str]], cap: int, need: str | None,
               g: Grid, adj: str | None, allowed: str, prob: Callable) -> list:
    """A33: drop unreadable, then repeats, keep the first `cap`, drop wrong colours, then
    Demolitionist spaces adjacent to an earlier kept one. Dropped entries stay as None
    (their slot), so resolve can renumber or keep slots."""
    first = "the rest move up" if sec == "spaces" else "not used"
    read: list[tuple[str, str, Square]] = []
    for i, row in enumerate(rows, start=1):
        text = clean(row.get("space", "")) if isinstance(row, Mapping) else ""
        if not text:
            continue
        fld = f"{sec} row {i}"
        s = None if is_formula(text) else parse_square(text)
        if s is None:
            prob(ProblemKind.SYNTAX, fld, text, allowed, "not a square A1-H8", f"dropped; {first}")
            continue
        if any(s == t for _, _, t in read):
            prob(ProblemKind.ILLEGAL, fld, text, allowed, f"{sq_name(s)} is already in this list",
                 "the repeat is dropped")
            continue
        read.append((fld, text, s))
    slots: list = []
    for n, (fld, text, s) in enumerate(read):
        if n >= cap:
            prob(ProblemKind.ILLEGAL, fld, text, allowed, f"at most {cap} for your role this round",
                 f"only the first {cap} are used")
            continue
        if need is not None and need != "any" and g[s] != need:
            prob(ProblemKind.ILLEGAL, fld, text, allowed, f"{sq_name(s)} is {COLOR_NAME[g[s]]}, not "
                 f"{COLOR_NAME[need]}", f"dropped; {first}")
            slots.append(None)
            continue
        if need == "any" and g[s] == GRAY:
            prob(ProblemKind.ILLEGAL, fld, text, allowed, f"{sq_name(s)} is gray", "dropped")
            slots.append(None)
            continue
        if adj and any(t is not None and adjacent(square_of(t), s, adj) for t in slots):
            near = next(t for t in slots if t is not None and adjacent(square_of(t), s, adj))
            prob(ProblemKind.ILLEGAL, fld, text, allowed, f"{sq_name(s)} is adjacent to your space {near}; "
                 "a Demolitionist's spaces may not be adjacent", f"dropped; {first}")  # R26
            slots.append(None)
            continue
        slots.append(sq_name(s))
    return slots


def default_submission(state: FlickeringState, player: str, rng: Rng) -> Mapping[str, Any]:
    """Nothing submitted: no spaces and no abilities (A32, case 12)."""
    return {}
