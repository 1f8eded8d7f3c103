"""The Big Machine's pictures, drawn from the facts alone (core.picture; the renderer is
sheetbridge.pictures): the meadows and who is in each, and machines as the ruleset draws them.
"""
from __future__ import annotations

from typing import Any, Sequence

from ...core.facts import RenderContext, of_type
from ...core.picture import Box, Dot, Label, Line, Picture
from .content import MEADOWS, MIDDLE, Cond, points_text
from .facts import (MachineConnector, MachineLayout, MachineNode, MachineNow, MachineScored, MachineTeam,
                    MeadowMove, MeadowPosition, StartingMeadow)
from .render import COLOR_FILL, COLOR_FONT, EMPTY_FILL, FAULTY_FILL

# --------------------------------------------------------------------- pictures
# Drawn from the facts alone (core.picture); the renderer is sheetbridge.pictures. Nodes are
# circles in the part's colour with the power inside (faulty: olive with an X, empty: yellow, as
# the ruleset draws them); connectors are thick black lines labelled as the ruleset marks them:
# red text for allies/enemies, a blue greater-than, green "free" (R7).

KIND_COLOUR = {"allies": "C00000", "enemies": "C00000", "greater": "0070C0", "free": "007A33"}
DEAD_LINE = "A6A6A6"            # a connector with a faulty end, at the end: no points
CELL_W, CELL_H, NODE_R = 140, 90, 20
MEADOW_W, MEADOW_HEAD, NAME_H = 130, 26, 16


def _kind_label(conn: MachineConnector, final: bool) -> str:
    text = f"{conn.greater}>{conn.b if conn.greater == conn.a else conn.a}" if conn.kind == Cond.GREATER.value \
        else conn.kind + (" (used)" if conn.kind == Cond.FREE.value and conn.traversed else "")
    return f"{text} +{conn.points}" if final and conn.points else text


def node_centre(x0: float, y0: float, node: MachineNode) -> tuple[float, float]:
    """Where a node's circle is drawn in a machine drawn from (x0, y0)."""
    return x0 + 40 + node.column * CELL_W, y0 + 54 + node.row * CELL_H


def machine_shapes(x0: float, y0: float, title: str, nodes: Sequence[MachineNode],
                   connectors: Sequence[MachineConnector], final: bool = False) -> tuple[list, float, float]:
    """One machine: shapes, width, height."""
    shapes: list[Any] = [Label(x0, y0, title, size=15, bold=True)]
    centre = {n.node: node_centre(x0, y0, n) for n in nodes}
    for c in connectors:
        dead = final and c.status == "dead"
        shapes.append(Line((centre[c.a], centre[c.b]), colour=DEAD_LINE if dead else "000000", width=4, dashed=dead))
    for c in connectors:
        (ax, ay), (bx, by) = centre[c.a], centre[c.b]
        mx, my = (ax + bx) / 2, (ay + by) / 2
        text = _kind_label(c, final)
        w = 7 * len(text) + 8
        shapes.append(Box(mx - w / 2, my - 9, w, 18, fill="FFFFFF", outline=None))
        shapes.append(Label(mx, my, text, colour=KIND_COLOUR[c.kind], size=12, anchor="mm"))
    for n in nodes:
        cx, cy = centre[n.node]
        part = n.part
        fill = EMPTY_FILL if part is None else FAULTY_FILL if part.faulty else COLOR_FILL[part.colour]
        shapes.append(Dot(cx, cy, NODE_R, fill=fill, outline="000000"))
        if part is not None and part.faulty:
            shapes.append(Line(((cx - 11, cy - 11), (cx + 11, cy + 11)), colour="000000", width=3))
            shapes.append(Line(((cx - 11, cy + 11), (cx + 11, cy - 11)), colour="000000", width=3))
        elif part is not None:
            shapes.append(Label(cx, cy, str(part.power), colour=COLOR_FONT.get(part.colour, "000000"), size=15,
                                bold=True, anchor="mm"))
        shapes.append(Box(cx - 4 * len(n.node) - 3, cy + NODE_R + 2, 8 * len(n.node) + 6, 14, fill="FFFFFF",
                          outline=None))
        shapes.append(Label(cx, cy + NODE_R + 9, n.node, size=11, bold=n.node in MIDDLE, anchor="mm"))
    width = 80 + max(n.column for n in nodes) * CELL_W
    height = 54 + max(n.row for n in nodes) * CELL_H + NODE_R + 22
    return shapes, width, height


def board_shapes(x0: float, y0: float, title: str, where: Sequence[tuple[str, str]]) -> tuple[list, float, float]:
    """The five meadows and who is in each (names in the order given): shapes, width, height."""
    occupants = {m: [p for p, at in where if at == m] for m in MEADOWS}
    depth = max([len(v) for v in occupants.values()] + [1])
    shapes: list[Any] = [Label(x0, y0, title, size=15, bold=True)]
    top = y0 + 24
    for i, m in enumerate(MEADOWS):
        x = x0 + i * MEADOW_W
        shapes.append(Box(x, top, MEADOW_W, MEADOW_HEAD, fill=COLOR_FILL[m], outline="000000"))
        shapes.append(Label(x + 6, top + 6, f"{m} Meadow", colour=COLOR_FONT.get(m, "000000"), size=13))
        shapes.append(Box(x, top + MEADOW_HEAD, MEADOW_W, depth * NAME_H + 10, fill="FFFFFF", outline="000000"))
        for j, name in enumerate(occupants[m] or ["nobody"]):
            shapes.append(Label(x + 6, top + MEADOW_HEAD + 5 + j * NAME_H, name, size=12,
                                colour="000000" if occupants[m] else "7F7F7F"))
    return shapes, 5 * MEADOW_W, 24 + MEADOW_HEAD + depth * NAME_H + 10


LEGEND: tuple[tuple[str, str, str], ...] = (
    tuple((f"{m} part", COLOR_FILL[m], "fill") for m in MEADOWS)
    + (("empty node", EMPTY_FILL, "fill"), ("faulty part", FAULTY_FILL, "fill"),
       ("allies / enemies: the colours", KIND_COLOUR["allies"], "text"),
       ("A>B: A's power greater", KIND_COLOUR["greater"], "text"),
       ("free: unless moved along", KIND_COLOUR["free"], "text")))


def legend_shapes(x0: float, y0: float, final: bool = False) -> tuple[list, float, float]:
    """The key of a machine picture: every fill and every connector colour, two rows."""
    items = LEGEND + ((("grey dashed: a faulty end, 0 points", DEAD_LINE, "text"),) if final else ())
    shapes: list[Any] = []
    x, y, row_w = x0, y0, 0.0
    for i, (label, colour, how) in enumerate(items):
        if i == len(MEADOWS) + 2:   # connector kinds on a second row
            x, y = x0, y + 22
        if how == "fill":
            shapes.append(Box(x, y, 14, 14, fill=colour, outline="000000"))
            shapes.append(Label(x + 18, y + 1, label, size=11))
            x += 18 + 7 * len(label) + 14
        else:
            shapes.append(Label(x, y + 1, label, colour=colour, size=12))
            x += 7 * len(label) + 18
        row_w = max(row_w, x - x0)
    return shapes, row_w, y - y0 + 18


def picture(facts: Sequence[Any], viewer: str | None, ctx: RenderContext) -> Picture | None:
    """The public board (where everyone is; the empty machines at meadow selection when public,
    A24; every final machine at the end, R68) or the viewer's team machine after the round."""
    sections: list[tuple[list, float, float]] = []
    pad, gap = 12, 18
    y: float = pad + 30
    final = bool(of_type(facts, MachineScored))
    machines = False   # a machine is drawn: the picture gets the key of its colours

    def add(made: tuple[list, float, float], machine: bool = False) -> None:
        nonlocal y, machines
        sections.append(made)
        y += made[2] + gap
        machines = machines or machine

    if viewer is None:
        where = [(f.participant, f.meadow) for f in of_type(facts, MeadowPosition)] or \
            [(f.participant, f.meadow) for f in of_type(facts, StartingMeadow)]
        if where:
            add(board_shapes(pad, y, "Starting meadows" if ctx.round == 0 else "Where everyone is", where))
        teams = {f.team: f for f in of_type(facts, MachineTeam)}
        for lay in of_type(facts, MachineLayout):
            t = teams.get(lay.team)
            title = f"{lay.team}" + (f" ({t.player} + {t.guest})" if t else "") + \
                f": {lay.left} left + {lay.right} right, empty"
            add(machine_shapes(pad, y, title, lay.nodes, lay.connectors), machine=True)
        for m in of_type(facts, MachineScored):
            add(machine_shapes(pad, y, f"{m.team} ({m.player} + {m.guest}): {points_text(m.total)}", m.nodes,
                               m.connectors, final=True), machine=True)
    else:
        team = next((f.team for f in of_type(facts, MeadowMove, StartingMeadow) if f.participant == viewer), None)
        mach = next((f for f in of_type(facts, MachineNow, MachineScored, MachineLayout) if f.team == team), None)
        if mach is not None:
            what = ("final machine: " + points_text(mach.total) if isinstance(mach, MachineScored) else
                    "empty machine" if isinstance(mach, MachineLayout) else f"machine after round {ctx.round}")
            add(machine_shapes(pad, y, f"{team}'s {what}", mach.nodes, mach.connectors,
                               final=isinstance(mach, MachineScored)), machine=True)
    if not sections:
        return None
    if machines:
        add(legend_shapes(pad, y, final=final))
    title = f"{ctx.game_name}: " + ("meadow selection" if ctx.round == 0 else f"round {ctx.round}")
    shapes: list[Any] = [Label(pad, pad, title, size=17, bold=True)]
    for s, _, _ in sections:
        shapes += s
    width = max(w for _, w, _ in sections) + 2 * pad
    return Picture(int(width), int(y - gap + pad), tuple(shapes), title=title)
