"""What each viewer reads and sees, drawn from the facts that viewer may know (section (c)): the
public post and each player's confessional, the boards as cells and as pictures, the views of a
game in progress, and the standings' reading of the facts.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...core.facts import RenderContext, of_type
from ...core.outcome_text import plural, plural_noun
from ...core.picture import Box, Dot, Label, Picture
from ...core.standings import RoundScore
from ...core.types import Block, Cell, Report
from .board import (ALL_SQUARES, BLUE, CENTER, COLS, FILL, GRAY, RED, SIZE, Grid, colour_letter, parse_grid,
                    parse_square, sq_name, square_of)
from .content import Role, Team, Variation
from .facts import (BoardGrid, BoardItem, ColourCounts, FinalTotal, FogCentre, FogReceived, FogTiles,
                    ManualItemRuling, MediatorCheck, MediatorPenalty, NoSpacesSubmitted, PlayerPoints,
                    SaboteurFlip, SideScore, SpacesApplied, SpacesProblem, SpaceValue, TeamRole, TeamsRevealed)
from .intake import team_and_role
from .opening import fog_knowledge
from .options import Options, options_of
from .spec import ROUNDS, SPEC
from .state import FlickeringState

def round_scores(facts: Sequence[Any]) -> list[RoundScore]:
    """Each player's points per round and their total at the end (core/standings.py)."""
    return ([RoundScore(f.player, f.points, f.total, round=f.round) for f in of_type(facts, PlayerPoints)]
            + [RoundScore(f.player, None, f.total) for f in of_type(facts, FinalTotal)])


def visible_total(st: FlickeringState, p: str, finished: bool) -> int:
    total = st["totals"][p]
    if not finished:
        total -= sum(h["points"][p] for h in st["history"] if h["round"] == 4)
    return total


def render(facts: Sequence[Any], viewer: str | None, ctx: RenderContext) -> Report:
    """The public post (the resulting grid; at the end the Round 4 reveal and the alignments) or one
    player's confessional (section (c)), from the facts that viewer may know."""
    rd = ctx.round
    var = Variation(rd)
    opts = Options.of(ctx.options)
    row_one = opts.row_one
    blocks = (public_blocks(facts, rd, opts, row_one) if viewer is None
              else private_blocks(facts, viewer, rd, row_one))
    return Report(f"Round {rd}: {var.title}", tuple(blocks))


def public_blocks(facts: Sequence[Any], rd: int, opts: Options, row_one: str) -> list[Block]:
    var = Variation(rd)
    blocks: list[Block] = []
    grids = {(f.round, f.stage): f for f in of_type(facts, BoardGrid)}
    counts = {f.round: f for f in of_type(facts, ColourCounts)}

    def count_lines(r: int) -> tuple[str, ...]:
        c = counts.get(r)
        return (f"Red {c.red}, blue {c.blue}, gray {c.gray} squares.",) if c and opts.publish_counts else ()

    if (rd, "final") in grids:
        lines = tuple(_manual_item_text(f) for f in of_type(facts, ManualItemRuling) if f.round == rd) + count_lines(rd)
        blocks.append(board_block(f"Round {rd} ({var.title}): resulting grid", parse_grid(grids[rd, "final"].rows),
                                  None, row_one, lines))
    elif of_type(facts, FogCentre):
        blocks.append(Block(f"Round {rd}: {var.title}", ("The board and the scores of this round stay hidden "
                                                         "until the end of the game.",)))
    for r in sorted({f.round for f in grids.values() if f.round != rd}):   # the end: Round 4 revealed
        title = f"Round {r} ({Variation(r).title})"
        if (r, "start") in grids:
            blocks.append(board_block(f"{title} grid at the start, now revealed",
                                      parse_grid(grids[r, "start"].rows), None, row_one))
        if (r, "final") in grids:
            blocks.append(board_block(f"{title} resulting grid, now revealed", parse_grid(grids[r, "final"].rows),
                                      None, row_one, count_lines(r)))
    aligned = of_type(facts, TeamsRevealed)
    if aligned:
        n = max(len(a.teams) for a in aligned)
        head = (Cell("Player", bold=True),) + tuple(Cell(f"Round {i + 1}", bold=True) for i in range(n))
        fills = {"Red": FILL[RED], "Blue": FILL[BLUE], "White": "FFFFFF"}
        rows = [head] + [(Cell(a.player),) + tuple(
            Cell(t + (f" {a.roles[i]}" if a.roles else ""), fill=fills[t]) for i, t in enumerate(a.teams))
            for a in aligned]
        blocks.append(Block("Alignments, revealed at the end of the game", grid=tuple(rows)))
    played = [f for f in facts if isinstance(f, (SpacesApplied, SpaceValue, SaboteurFlip))]
    if played:
        blocks.append(Block("Every round's play, revealed at the end of the game", tuple(_play_lines(played))))
    return blocks


def private_blocks(facts: Sequence[Any], p: str, rd: int, row_one: str) -> list[Block]:
    var = Variation(rd)
    mine = [f for f in facts if getattr(f, "player", p) == p]
    now = [f for f in mine if getattr(f, "round", rd) == rd]

    def one(cls: Any, r: int = rd) -> Any:
        return next((f for f in mine if isinstance(f, cls) and f.round == r), None)

    lines: list[str] = []
    a = one(TeamRole)
    if a is not None:
        lines.append(f"You were {a.team}, {a.role} this round.")
    if one(NoSpacesSubmitted) is not None:
        lines.append("You submitted nothing: no spaces and no abilities (the rules' default).")
    lines += ["Problem: " + f.problem.text_for(p) for f in now if isinstance(f, SpacesProblem)]
    got, applied = one(FogReceived), one(SpacesApplied)
    if got is not None:
        lines.append("Received: " + (", ".join(got.squares) if got.squares else "no squares")
                     + ". What became of them is disclosed at the end of the game.")
    elif applied is not None and applied.submitted:
        lines.append("Your spaces as read: " + _applied_text(applied) + ".")
    # one heading per round in the Results tab, where every round's blocks stand one under another
    blocks = [Block(f"Round {rd}: {var.title}", tuple(lines + score_lines(facts, p, rd, var)))]
    known = one(FogTiles)
    if known is not None:
        centre = next((f for f in facts if isinstance(f, FogCentre) and f.round == rd), None)
        blocks.append(tiles_block("Your Fog of War tiles (round 4)", known, centre, row_one))
    if rd == ROUNDS:
        blocks.append(Block("End of the game", tuple(end_lines(facts, p))))
    return blocks


def score_lines(facts: Sequence[Any], p: str, rd: int, var: Variation) -> list[str]:
    counts = next((f for f in facts if isinstance(f, ColourCounts) and f.round == rd), None)
    points = next((f for f in facts if isinstance(f, PlayerPoints) and f.round == rd and f.player == p), None)
    if counts is None or points is None:
        return []
    side = {f.colour: f for f in of_type(facts, SideScore) if f.round == rd}
    red, blue = side["red"], side["blue"]
    lines = [f"Red tiles {counts.red}, blue tiles {counts.blue}."]
    if var is Variation.CONNECTION:
        to = "red" if red.connection_tiles else "blue" if blue.connection_tiles else "neither team"
        lines.append(f"Largest connected groups: red {red.largest_group}, blue {blue.largest_group}; +4 tiles to {to}.")
    if var is Variation.TRIPLES:
        lines.append(f"Three-in-a-rows: red {red.lines}, blue {blue.lines}.")
    if red.item_tiles or blue.item_tiles:
        lines.append(f"Bonus items: red +{red.item_tiles}, blue +{blue.item_tiles}.")
    if red.host_tiles or blue.host_tiles:
        lines.append(f"Items ruled by the host: red {red.host_tiles:+d}, blue {blue.host_tiles:+d}.")
    if (red.total, blue.total) != (counts.red, counts.blue):   # said once: only when bonuses change them
        lines.append(f"Team totals: red {red.total}, blue {blue.total}.")
    for f in facts:
        if isinstance(f, MediatorCheck) and f.round == rd and f.player == p:
            lines.append(f"Difference for the Mediator: {f.difference} ("
                         + ("at most 7: the winning" if f.difference <= 7 else "over 7: the losing")
                         + " team's points" + ("" if f.winner else "; the teams tied") + ").")
        elif isinstance(f, MediatorPenalty) and f.round == rd and f.player == p:
            lines.append(_penalty_text(f))
    lines.append(f"Your points this round: {points.points}.")
    if rd != ROUNDS:
        lines.append(f"Running total: {points.total}")
    return lines


def end_lines(facts: Sequence[Any], p: str) -> list[str]:
    """The end of the game for one player: their Round 4, now disclosed (R52, A23), and their total."""
    mine = [f for f in facts if getattr(f, "player", p) == p]
    fog = Variation.FOG.value
    lines: list[str] = []
    a4 = next((f for f in mine if isinstance(f, TeamRole) and f.round == fog), None)
    pts4 = next((f for f in mine if isinstance(f, PlayerPoints) and f.round == fog), None)
    if pts4 is not None:
        who = f"you were {a4.team} {a4.role} and " if a4 is not None else ""
        lines.append(f"Round 4 (Fog of War): {who}scored {pts4.points}.")
        applied = next((f for f in mine if isinstance(f, SpacesApplied) and f.round == fog), None)
        if applied is not None and applied.submitted:
            lines.append("Your round 4 submission as applied: " + _applied_text(applied) + ".")
        lines += ["Round 4 problem: " + f.problem.text_for(p) for f in mine
                  if isinstance(f, SpacesProblem) and f.round == fog]
        reps = applied.replacements if applied is not None else ()
        lines += [f"Round 4 {r.field}: {r.typed} was not {r.needed}; "
                  + (f"replaced by {r.placed} at random." if r.placed else "nothing qualified; dropped.")
                  for r in reps] or ["None of your round 4 squares was replaced."]
        lines += [_penalty_text(f) for f in mine if isinstance(f, MediatorPenalty) and f.round == fog]
    last = next((f for f in mine if isinstance(f, PlayerPoints) and f.round == ROUNDS), None)
    if last is not None:
        lines.append(f"Final total: {last.total}")
    return lines


def picture(facts: Sequence[Any], viewer: str | None, ctx: RenderContext) -> Picture | None:
    """The round's grid as the public sees it after the round: the resulting grid (Rounds 1, 2, 3, 5;
    at the end beside Round 4's, now revealed) or, in Round 4, the centre four alone. A player's
    picture only in Round 4, the one round the rules give players a board of their own (R49, R50)."""
    rd = ctx.round
    row_one = Options.of(ctx.options).row_one
    marks = {s for f in of_type(facts, BoardItem) if f.round == rd for s in f.squares}
    boards: list[tuple[str, dict[str, str], set]] = []
    centre = next((f for f in of_type(facts, FogCentre) if f.round == rd), None)
    if viewer is not None:
        known = next((f for f in of_type(facts, FogTiles) if f.round == rd and f.player == viewer), None)
        if known is None:
            return None
        tiles = {t.square: colour_letter(t.colour) for t in (centre.tiles if centre else ()) + known.tiles}
        boards.append((f"{viewer}: the tiles you know at the start", tiles, marks))
    else:
        finals = {f.round: f for f in of_type(facts, BoardGrid) if f.stage == "final"}
        if rd in finals:
            boards.append((f"Round {rd}: resulting grid", _square_colours(finals[rd].rows), marks))
        elif centre is not None:
            boards.append((f"Round {rd}: hidden until the end of the game",
                           {t.square: colour_letter(t.colour) for t in centre.tiles}, marks))
        for r in sorted(r for r in finals if r != rd):
            boards.append((f"Round {r} ({Variation(r).title}), now revealed",
                           _square_colours(finals[r].rows), set()))
    if not boards:
        return None
    return board_picture(f"{ctx.game_name or SPEC.name}: round {rd} ({Variation(rd).title})", boards, row_one)


def player_view(state: FlickeringState, player: str) -> Report:
    rd = state["round"]
    var = Variation(rd)
    if state["finished"]:
        lines = [f"Round {h['round']}: {h['assign'][player]['team']} {h['assign'][player]['role']}, "
                 f"{h['points'][player]} points" for h in state["history"]]
        lines.append(f"Final total: {state['totals'][player]}")
        return Report(f"Flickering Lights: {player}", (Block("Your game", tuple(lines)),))
    team, role = team_and_role(state, player)
    cur = state["current"]
    lines = [f"Round {rd} of {ROUNDS}: {var.title}. {var.text}",
             f"Your team this round: {team.value}. Your role: {role.value}.",
             ROLE_TEXT[role]]
    if team is Team.WHITE:
        lines.append("The three roles in play on both teams: " + ", ".join(cur["roles"]) + ".")
    if player in cur["lists"]:
        lines.append("Your list: " + ", ".join(cur["lists"][player])
                     + " (your two teammates and, if in play, the other team's Saboteur; unlabelled).")
    done = len(state["history"])
    if done:
        lines.append(f"Your points so far: {visible_total(state, player, False)}"
                     + (" (round 4 is added at the end of the game)" if done >= 4 else "") + ".")
    blocks = [Block(f"Your briefing for round {rd}", tuple(lines))]
    if rd == Variation.FOG.value:
        centre, known = fog_knowledge(rd, cur)
        blocks.append(tiles_block("The tiles you know this round", known[player], centre,
                                  options_of(state).row_one))
    return Report(f"Flickering Lights: {player}", tuple(blocks))


def public_view(state: FlickeringState) -> Report:
    blocks: list[Block] = []
    rd = state["round"]
    if state["finished"]:
        last = state["history"][-1]
        blocks.append(board_block(f"Round {last['round']}: resulting grid", parse_grid(last["grid_end"]),
                                  None, options_of(state).row_one))
        return Report("Flickering Lights: public board", tuple(blocks))
    var = Variation(rd)
    cur = state["current"]
    g = parse_grid(cur["grid"])
    lines = [f"Round {rd} of {ROUNDS}: {var.title}. {var.text}"]
    for it in cur["items"]:
        lines.append(f"Item {it['name']} ({it['kind']}) on {' '.join(sq_name(tuple(s)) for s in it['squares'])}"
                     f": {it['text'] or ITEM_TEXT[it['kind']].format(n=it['amount'])}")
    visible = set(CENTER) if var is Variation.FOG else None
    marks = {tuple(s) for it in cur["items"] for s in it["squares"]}
    blocks.append(board_block(f"Round {rd} grid" + (" (Fog of War: only the centre four shown)"
                                                     if visible else ""), g, visible, options_of(state).row_one,
                              tuple(lines), marks))
    return Report("Flickering Lights: public board", tuple(blocks))


ROLE_TEXT = {
    Role.COORDINATOR: "Coordinator: you learn the list below at the start of the round.",  # R23
    Role.SNIPER: "Sniper: your first space gets +4 instead of +2.",  # R24
    Role.DEMOLITIONIST: "Demolitionist: you may submit up to four spaces (first +2, others +1), none of them "
                        "adjacent.",  # R25, R26
    Role.BLOCKER: "Blocker: you may also block up to two spaces of the other colour; each loses 1 value, "
                  "to a minimum of 0.",  # R27, R28
    Role.SABOTEUR: "Saboteur: you may also flip one space of the other colour; it flips after values are "
                   "counted and before recolouring. You appear on both Coordinators' lists.",  # R29-R31
    Role.MEDIATOR: "Mediator (White): submit one red and one blue space, +1 each. You score the winning "
                   "team's points if the tile difference is at most 7, else the losing team's.",  # R13, R35, R36
}

ITEM_TEXT = {
    "note": "see the host's explanation",
    "lock": "a locked square keeps its round-start colour: it cannot be flipped or recoloured",
    "bonus": "at the end of the round the team whose colour holds this square adds {n} tile(s)",
    "value": "this square starts the round with value {n} added to it",
    "manual": "its effect is applied by the host after the round",
}


def board_block(title: str, g: Grid, visible: set | None, row_one: str, lines: tuple = (),
                marks: set | None = None) -> Block:
    """The 8x8 board in red, blue and gray (hidden squares dark), with column and row labels."""
    head = (Cell("", bold=True),) + tuple(Cell(c, bold=True) for c in COLS)
    rows = [head]
    order = range(SIZE) if row_one == "top" else range(SIZE - 1, -1, -1)
    for r in order:
        cells = [Cell(str(r + 1), bold=True)]
        for c in range(SIZE):
            s = (c, r)
            if visible is not None and s not in visible:
                cells.append(Cell("?", fill=FILL["?"], font="FFFFFF"))
                continue
            text = {RED: "R", BLUE: "B", GRAY: "-"}[g[s]] + ("*" if marks and s in marks else "")
            cells.append(Cell(text, fill=FILL[g[s]]))
        rows.append(tuple(cells))
    legend: tuple[tuple[str, str], ...] = (("Red", FILL[RED]), ("Blue", FILL[BLUE]), ("Gray", FILL[GRAY]))
    if visible is not None:
        legend += (("Hidden", FILL["?"]),)
    return Block(title, lines, tuple(rows), legend)


def _applied_text(f: SpacesApplied) -> str:
    """'G4 (+2), A6 (+1); block F1, flip D4'."""
    kept = [f"{r.square} (+{r.amount})" for r in f.spaces]
    abil = [f"block {b}" for b in f.blocks] + [f"defend {d}" for d in f.defends] + ([f"flip {f.flip}"] if f.flip else [])
    return (", ".join(kept) or "none") + (("; " + ", ".join(abil)) if abil else "")


def _penalty_text(f: MediatorPenalty) -> str:
    names = " and ".join(m.replace("_space", " space") for m in f.missing)
    return f"No usable {names} from you: {plural(f.points, 'point')} off, as the host's rules for this game say."


def _manual_item_text(f: ManualItemRuling) -> str:
    if f.pending:
        return (f"Item {f.name} on {' '.join(f.squares)}: the host has not ruled on its effect yet; this grid and "
                "the scores leave it out until then.")
    parts = ([f"its squares end {f.colour}"] if f.colour else []) + \
        [f"{team} {n:+d} {plural_noun('tile', abs(n))}" for team, n in (("Red", f.red_tiles), ("Blue", f.blue_tiles)) if n]
    return f"Item {f.name}, as the host ruled: " + ("; ".join(parts) or "no effect") + "."


def _play_lines(played: Sequence[Any]) -> list[str]:
    """Everyone's play, round by round (the A35 reveal at the end of the game)."""
    lines = []
    for r in sorted({f.round for f in played}):
        subs = [f for f in played if isinstance(f, SpacesApplied) and f.round == r]
        if subs:
            lines.append(f"Round {r}: " + "; ".join(
                f"{f.player} " + (_applied_text(f) if f.submitted else "submitted nothing")
                + "".join(f" ({x.typed} replaced by {x.placed or 'nothing'})" for x in f.replacements)
                for f in subs) + ".")
        vals = [f for f in played if isinstance(f, SpaceValue) and f.round == r]
        if vals:
            lines.append(f"Round {r} values: " + ", ".join(
                f"{v.square} {v.value}" + (f" (raised {v.raised}, reduced {v.reduced})" if v.reduced else "")
                for v in vals) + ".")
        flips = [f for f in played if isinstance(f, SaboteurFlip) and f.round == r]
        if flips:
            lines.append(f"Round {r} flips: " + ", ".join(f"{x.square} {x.before} to {x.after}" for x in flips) + ".")
    return lines


def _square_colours(rows: Sequence[str]) -> dict[str, str]:
    g = parse_grid(rows)
    return {sq_name(s): g[s] for s in ALL_SQUARES}


def tiles_block(title: str, known: FogTiles, centre: FogCentre | None, row_one: str) -> Block:
    """Round 4: the centre four and one player's known tiles only (R48-R50)."""
    g: Grid = {s: GRAY for s in ALL_SQUARES}
    shown = set()
    for t in (centre.tiles if centre else ()) + known.tiles:
        s = parse_square(t.square)
        g[s] = colour_letter(t.colour)
        shown.add(s)
    lines = (f"You know {len(known.tiles)} tiles besides the centre four: "
             + " ".join(sorted(t.square for t in known.tiles)),)
    return board_block(title, g, shown, row_one, lines)


def _ink(fill: str) -> str:
    """Black or white, whichever reads better on `fill` (WCAG relative luminance)."""
    def lin(v: int) -> float:
        x = v / 255
        return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4
    r, g, b = (int(fill[i:i + 2], 16) for i in (0, 2, 4))
    lum = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
    return "000000" if (lum + 0.05) / 0.05 >= 1.05 / (lum + 0.05) else "FFFFFF"


CELL, LABEL_W, GAP = 34, 22, 24
BOARD_W = LABEL_W + SIZE * CELL
BOARD_TOP = 36 + 22       # the caption, then the column letters
LEGEND = (("Red", RED), ("Blue", BLUE), ("Gray", GRAY), ("Hidden", "?"))


def square_box(board: int, square: str, row_one: str = "top") -> tuple[float, float]:
    """The centre of `square` on the `board`-th board of a picture (for tests and overlays)."""
    c, r = square_of(square)
    i = r if row_one == "top" else SIZE - 1 - r
    return (10 + board * (BOARD_W + GAP) + LABEL_W + c * CELL + CELL / 2, BOARD_TOP + 16 + i * CELL + CELL / 2)


def board_picture(title: str, boards: Sequence[tuple[str, Mapping[str, str], set]], row_one: str) -> Picture:
    """Boards side by side, squares in their colours (hidden ones dark), item squares dotted, and a
    legend whose labels are written in black or white, whichever reads on the fill."""
    shapes: list[Any] = [Label(10, 8, title, size=16, bold=True)]
    used: set[str] = set()
    for k, (caption, colours, marks) in enumerate(boards):
        x0 = 10 + k * (BOARD_W + GAP)
        shapes.append(Label(x0, 36, caption, size=13))
        for c in range(SIZE):
            shapes.append(Label(x0 + LABEL_W + c * CELL + CELL / 2, BOARD_TOP + 7, COLS[c], size=12, bold=True,
                                anchor="mm"))
        order = range(SIZE) if row_one == "top" else range(SIZE - 1, -1, -1)
        for i, r in enumerate(order):
            y = BOARD_TOP + 16 + i * CELL
            shapes.append(Label(x0 + LABEL_W / 2, y + CELL / 2, str(r + 1), size=12, bold=True, anchor="mm"))
            for c in range(SIZE):
                name = sq_name((c, r))
                col = colours.get(name, "?")
                used.add(col)
                x = x0 + LABEL_W + c * CELL
                shapes.append(Box(x, y, CELL, CELL, fill=FILL[col], outline="FFFFFF"))
                if name in marks:
                    shapes.append(Dot(x + CELL - 7, y + 7, 3, fill=_ink(FILL[col])))
    legend_y = BOARD_TOP + 16 + SIZE * CELL + 12
    entries = [(text, key) for text, key in LEGEND if key != "?" or "?" in used]
    for i, (text, key) in enumerate(entries):
        x = 10 + i * 78
        shapes.append(Box(x, legend_y, 72, 24, fill=FILL[key], outline="000000"))
        shapes.append(Label(x + 36, legend_y + 12, text, colour=_ink(FILL[key]), size=13, anchor="mm"))
    if any(marks for _, _, marks in boards):
        shapes.append(Label(10 + len(entries) * 78, legend_y + 5, "dot: an item's square", size=13))
    width = max(10 + len(boards) * (BOARD_W + GAP) - GAP + 10, 480)
    return Picture(width, legend_y + 24 + 10, tuple(shapes), title=title)
