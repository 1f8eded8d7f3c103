"""The Big Machine's reports and texts, drawn from the facts each viewer may know: the public
post, each participant's confessional, the Results tab's views, the machines as grids, and the
scores the standings read (R62-R68, A19, A24).
"""
from __future__ import annotations

from typing import Any, Sequence

from ...core.facts import RenderContext, of_type
from ...core.outcome_text import plural
from ...core.standings import RoundScore
from ...core.types import Block, Cell, Report
from .content import JUMP_COST, MEADOWS, MIDDLE, Cond, Side, cogs_text, half_machine, points_text
from .facts import (CogsGiven, CogsNow, MachineConnector, MachineLayout, MachineNode, MachineNow, MachinePart,
                    MachinePayout, MachineScored, MachineTeam, MeadowMove, MeadowPosition, NodeJump, PartInstalled,
                    SelfSabotage, StartingMeadow, StartingMeadowDrawn, SubmissionProblem, machine_facts)
from .intake import allowed_nodes
from .machine import filled_machine, score_machine
from .spec import ROUNDS, SPEC
from .state import BigMachineState, Machine, machine_of, team_row

COLOR_FILL = {"White": "FFFFFF", "Blue": "5B9BD5", "Black": "404040", "Red": "E06666", "Green": "70AD47"}
COLOR_FONT = {"Black": "FFFFFF"}
EMPTY_FILL, FAULTY_FILL = "FFE699", "808000"   # yellow circle, olive X (black text reads on both)
STATE_FILL = {"excellent": "C6EFCE", "working": "BDD7EE", "waiting": "D0D0D0", "dead": "F8CBAD"}
STATE_HELP = {"excellent": "5 points", "working": "1 point", "waiting": "an end is empty", "dead": "a faulty end"}


def round_scores(facts: Sequence[Any]) -> list[RoundScore]:
    """A team's points if the game ended now (empty nodes faulty, R48), each round; the final score
    at the end (R56). A level, not a gain: the total is the last one."""
    now = [RoundScore(p, f.points_if_ended, f.points_if_ended)
           for f in of_type(facts, MachineNow) for p in f.audience if p]
    final = [RoundScore(p, f.total, f.total) for f in of_type(facts, MachineScored)
             for p in (f.player, f.guest) if p]
    return now + final


def kind_text(conn: MachineConnector) -> str:
    """A connector's condition in words: allies, enemies, free, or "L1 > L2" (the greater end first)."""
    if conn.kind == Cond.GREATER.value:
        small = conn.b if conn.greater == conn.a else conn.a
        return f"{conn.greater} > {small}"
    return conn.kind


def _conn_symbol(conn: MachineConnector, first: str, dy: int, dx: int) -> str:
    """Short text for a connector's drawing cell; `first` is the upper/left end."""
    kind = conn.kind
    if kind in (Cond.ALLIES.value, Cond.ENEMIES.value):
        sym = kind
    elif kind == Cond.FREE.value:
        sym = "free" + (" (used)" if conn.traversed else "")
    elif dy == 0:
        sym = ">" if conn.greater == first else "<"
    elif dx == 0:
        sym = "v" if conn.greater == first else "^"
    else:
        sym = f"{conn.greater} >"
    line = "-" if dy == 0 else "|" if dx == 0 else ("\\" if dy == dx else "/")
    return f"{line} {sym} {line}" if dy == 0 else f"{line}{sym}"


def machine_blocks(nodes: Sequence[MachineNode], connectors: Sequence[MachineConnector], title: str,
                   caption: str = "", final: bool = False, plan: bool = False,
                   summary: str = "") -> tuple[Block, Block]:
    """A machine as a grid (nodes coloured by part, connectors by state) and its connector list.

    `plan` draws an empty layout: conditions only, no state or points. `summary` ends the list
    (the total, or the points if the game ended now)."""
    pos = {n.node: (n.row, n.column) for n in nodes}
    h = max(y for y, _ in pos.values()) + 1
    w = max(x for _, x in pos.values()) + 1
    grid = [[Cell("") for _ in range(2 * w - 1)] for _ in range(2 * h - 1)]
    for n in nodes:
        y, x = pos[n.node]
        part, middle = n.part, n.node in MIDDLE
        if part is None:
            cell = Cell(f"{n.node}: empty", fill=EMPTY_FILL, bold=middle)
        elif part.faulty:
            cell = Cell(f"{n.node}: X faulty", fill=FAULTY_FILL, bold=middle, font="000000")
        else:
            cell = Cell(f"{n.node}: {part.text()}", fill=COLOR_FILL[part.colour], bold=middle,
                        font=COLOR_FONT.get(part.colour))
        grid[2 * y][2 * x] = cell
    lines = []
    for c in connectors:
        (y1, x1), (y2, x2) = pos[c.a], pos[c.b]
        if abs(y1 - y2) <= 1 and abs(x1 - x2) <= 1:
            first, other = sorted((c.a, c.b), key=lambda n: pos[n])
            (fy, fx), (oy, ox) = pos[first], pos[other]
            if grid[y1 + y2][x1 + x2].text == "":
                grid[y1 + y2][x1 + x2] = Cell(_conn_symbol(c, first, oy - fy, ox - fx),
                                              fill=STATE_FILL["waiting" if plan else c.status])
        used = " (used: no longer excellent)" if c.kind == Cond.FREE.value and c.traversed else ""
        where = f"{c.a}-{c.b} {kind_text(c)}"
        if plan:
            lines.append(where)
        elif final:
            lines.append(f"{where}{used}: {c.status}, {plural(c.points, 'point')}")
        else:
            lines.append(f"{where}{used}: {c.status} now")
    rows = tuple(tuple(r) for r in grid)
    if plan:
        return (Block(title, (caption,) if caption else (), rows, (("empty node", EMPTY_FILL),)),
                Block(f"{title}: connectors", tuple(lines)))
    legend = tuple((m, COLOR_FILL[m]) for m in MEADOWS) + (("empty", EMPTY_FILL), ("faulty", FAULTY_FILL)) + \
        tuple((f"connector {k}: {STATE_HELP[k]}", v) for k, v in STATE_FILL.items() if not final or k != "waiting")
    return (Block(title, (caption,) if caption else (), rows, legend),
            Block(f"{title}: connectors", tuple(lines) + ((summary,) if summary else ())))


def render(facts: Sequence[Any], viewer: str | None, ctx: RenderContext) -> Report:
    """The public post (positions, R62; at the end every machine, R68) or one participant's
    confessional (their own notices, R67, A19; their team's installs, sabotage and machine,
    R63-R65), from the facts that viewer may know."""
    if ctx.round == 0:
        return render_start(facts, viewer)
    r = ctx.round
    if viewer is None:
        blocks = [Block(f"Round {r}: where everyone is", (),
                        where_grid([(f.participant, f.meadow) for f in of_type(facts, MeadowPosition)]))]
        scored = of_type(facts, MachineScored)
        if scored:
            paid: dict[str, list[str]] = {}
            for g in of_type(facts, MachinePayout):
                paid.setdefault(g.team, []).append(f"{g.participant} {g.garnets}")
            blocks.append(Block("Final scores", tuple(
                f"{m.team} ({m.player} + {m.guest}): {points_text(m.total)}"
                + (f"; garnets (1 per 2 points): {', '.join(paid[m.team])}" if m.team in paid else "")
                for m in scored)))
            for m in scored:
                blocks += machine_blocks(m.nodes, m.connectors,
                                         f"{m.team}'s final machine ({m.player} + {m.guest})",
                                         _final_caption(m), final=True)
        return Report(f"Round {r}", tuple(blocks))
    moves = {f.participant: f for f in of_type(facts, MeadowMove)}
    me = moves.get(viewer)
    if me is None:
        return Report(f"Round {r}", (Block(f"Round {r}: you", ()),))
    team = me.team
    blocks = [Block(f"Round {r}: you", _personal_lines(facts, viewer))]
    blocks += [Block(f"Round {r}: {q}", _personal_lines(facts, q)) for q, mv in moves.items()
               if q != viewer and mv.team == team]
    now = next((f for f in of_type(facts, MachineNow, MachineScored) if f.team == team), None)
    holds = {n.node: n.part for n in now.nodes} if now is not None else {}
    lines = [f"{i.participant} installed {part_words(i.part) if i.part is not None else 'nothing'} on {i.node}; "
             f"the node now holds {part_words(holds.get(i.node))}."
             for i in of_type(facts, PartInstalled) if i.team == team]
    lines += [f"{s.participant} sabotaged {s.node}." for s in of_type(facts, SelfSabotage) if s.team == team] \
        or ["Nobody on your team sabotaged this round."]
    blocks.append(Block(f"Round {r}: {team}'s installs and sabotage", tuple(lines)))
    if isinstance(now, MachineNow):
        blocks += machine_blocks(now.nodes, now.connectors, f"{team}'s machine after round {r}",
                                 f"{now.left} left half + {now.right} right half.", summary=(
                                     "Points if the game ended now (empty nodes become faulty): "
                                     f"{now.points_if_ended}"))
    elif isinstance(now, MachineScored):
        blocks += machine_blocks(now.nodes, now.connectors, f"{team}'s final machine", _final_caption(now),
                                 final=True, summary=f"Total: {plural(now.total, 'point')}")
    return Report(f"Round {r}", tuple(blocks))


def render_start(facts: Sequence[Any], viewer: str | None) -> Report:
    """Meadow selection: starting meadows and the empty machines (public by default, A24)."""
    starts = of_type(facts, StartingMeadow)
    teams = {f.team: f for f in of_type(facts, MachineTeam)}
    layouts = {f.team: f for f in of_type(facts, MachineLayout)}
    if viewer is None:
        if starts:
            blocks = [Block("Starting meadows", (), where_grid([(f.participant, f.meadow) for f in starts]))]
        else:
            blocks = [Block("Meadow selection", ("Meadow selection is over. Each team knows its own starting "
                                                 "meadows and machine; they are not announced.",))]
        for lay in layouts.values():
            t = teams.get(lay.team)
            title = f"{lay.team}'s machine" + (f" ({t.player} + {t.guest})" if t else "")
            blocks += machine_blocks(lay.nodes, lay.connectors, title,
                                     f"{lay.left} left half + {lay.right} right half; every node empty.", plan=True)
        return Report("Meadow selection", tuple(blocks))
    mine = next((f for f in starts if f.participant == viewer), None)
    if mine is None:
        return Report("Meadow selection", (Block("Meadow selection", ()),))
    lines = [f"Your starting meadow: {mine.meadow}."]
    lines += [f"Problem: {f.problem.text_for(viewer)}" for f in of_type(facts, SubmissionProblem) if f.participant == viewer]
    lines += [f"No valid meadow was chosen: the {f.meadow} Meadow was picked at random for you."
              for f in of_type(facts, StartingMeadowDrawn) if f.participant == viewer]
    lines += _trade_lines(facts, viewer, "host")
    team = sorted((f for f in starts if f.team == mine.team), key=lambda f: f.role != "player")
    lines.append(f"{mine.team}: " + ", ".join(f"{f.participant} ({f.role}) chose {f.meadow}" for f in team) + ".")
    lay = layouts.get(mine.team)
    blocks = [Block("Meadow selection", tuple(lines))]
    if lay is not None:
        blocks[0] = Block("Meadow selection", tuple(lines) + (
            f"Your machine has {len(lay.nodes)} nodes and {len(lay.connectors)} connectors; in round 1 you may "
            "install on any node.",))
        blocks += machine_blocks(lay.nodes, lay.connectors, f"{mine.team}'s machine",
                                 f"{lay.left} left half + {lay.right} right half; every node empty.", plan=True)
    return Report("Meadow selection", tuple(blocks))


def teams_block(st: BigMachineState) -> Block:
    """The teams, public from the start (R1)."""
    return Block("Teams", tuple(f"{t['id']}: {t['player']} (player) + {t['guest']} (guest)" for t in st["teams"]))


def team_machine_blocks(state: BigMachineState, machine: Machine, title: str) -> tuple[Block, Block]:
    final = bool(state["finished"])
    nodes, conns = machine_facts(machine, state["relation"], final=final)
    summary = (f"Total: {plural(score_machine(machine, state['relation'])[0], 'point')}" if final else
               "Points if the game ended now (empty nodes become faulty): "
               f"{score_machine(filled_machine(machine), state['relation'])[0]}")
    return machine_blocks(nodes, conns, title, f"{machine['left']} left half + {machine['right']} right half.",
                          final=final, summary=summary)


def player_view(state: BigMachineState, player: str) -> Report:
    t = team_row(state, player)
    mate = t["guest"] if player == t["player"] else t["player"]
    lines = [f"You are the {state['role'][player]} of {t['id']}; your teammate is {mate}."]
    blocks: list[Block] = []
    if state["round"] == 0:
        side = Side.LEFT.value if state["role"][player] == "player" else Side.RIGHT.value
        lines.append(f"Meadow selection is open: your meadow gives the {side.lower()} half of your machine. "
                     "The five halves follow; M1, M2, M3 are shared with your teammate's half.")
        blocks.append(Block("Now", tuple(lines)))
        for meadow in MEADOWS:
            half = state["catalog"][meadow][side]
            nodes, conns = machine_facts(half_machine(half, side), state["relation"], layout=True)
            blocks.extend(machine_blocks(nodes, conns, f"The {meadow} Meadow's {side.lower()} half",
                                         f"Drawn as the {side.lower()} half; M1, M2, M3 are the shared middle "
                                         "nodes.", plan=True))
        return Report(f"{SPEC.name}: {player}", tuple(blocks))
    if state["finished"]:
        lines.append(f"The game is over. {t['id']} scored {points_text(state['scores'][t['id']])}.")
    else:
        prev = state["prev"][player]
        adj = allowed_nodes(state, player)
        lines.append(f"Round {state['round']} of {ROUNDS} is open. You are in the {state['meadow'][player]} "
                     f"Meadow with {cogs_text(state['cogs'][player])}.")
        lines.append("Install on any node this round." if prev is None else
                     f"Your previous node is {prev}: install on {', '.join(adj)}, or jump for 5 garnets.")
    blocks.append(Block("Now", tuple(lines)))
    blocks.extend(team_machine_blocks(state, machine_of(state, player), f"{t['id']}'s machine"))
    return Report(f"{SPEC.name}: {player}", tuple(blocks))


def public_view(state: BigMachineState) -> Report:
    """The top of the public board: the status and the teams (public from the start). Positions,
    layouts and the final machines are in the round reports below it, each once."""
    if state["round"] == 0:
        status = "Meadow selection is open."
    elif state["finished"]:
        status = "The game is over."
    else:
        status = f"Round {state['round']} of {ROUNDS} is open."
    return Report(f"{SPEC.name}: board", (Block("Status", (status,)), teams_block(state)))


def part_words(part: MachinePart | None) -> str:
    """A node's part in words ("empty" for none)."""
    return "empty" if part is None else part.text()


def _cogs_line(c: CogsNow) -> str:
    if c.after_trades is None or c.after_trades == c.before:
        return f"Cogs: {c.before} before the round, {c.after} now."
    return (f"Cogs: {c.before} before the round, {c.after_trades} after the recorded trades (what your bid and "
            f"power-up were checked against), {c.after} now.")


def where_grid(where: Sequence[tuple[str, str]]) -> tuple[tuple[Cell, ...], ...]:
    """The five meadows as columns (coloured headers) and who is in each, in the order given (R62)."""
    occupants = {m: [p for p, at in where if at == m] for m in MEADOWS}
    depth = max([len(v) for v in occupants.values()] + [1])
    rows = [tuple(Cell(f"{m} Meadow", fill=COLOR_FILL[m], bold=True, font=COLOR_FONT.get(m)) for m in MEADOWS)]
    for i in range(depth):
        rows.append(tuple(Cell(occupants[m][i] if i < len(occupants[m]) else ("nobody" if i == 0 else ""))
                          for m in MEADOWS))
    return tuple(rows)


def _final_caption(m: MachineScored) -> str:
    filled = f" Empty at the end, made faulty: {', '.join(m.filled)}." if m.filled else ""
    return f"{m.left} left half + {m.right} right half.{filled}"


def _trade_lines(facts: Sequence[Any], who: str, source: str) -> list[str]:
    """What `who` is told about cogs given (the host's table before the round, or Give cogs after it)."""
    lines = []
    for f in of_type(facts, CogsGiven):
        if f.source != source or who not in (f.giver, f.receiver):
            continue
        if source == "host":
            if not f.made:
                if f.giver == who:
                    lines.append(f"A recorded trade of {f.cogs} cogs to {f.receiver} was rejected: you had "
                                 f"{f.giver_had}.")
            elif f.giver == who:
                lines.append(f"Recorded trade: you gave {cogs_text(f.cogs)} to {f.receiver}.")
            else:
                lines.append(f"Recorded trade: {f.giver} gave you {cogs_text(f.cogs)}.")
        elif f.giver == who:
            lines.append(f"You gave {cogs_text(f.cogs)} to {f.receiver}.")
        else:
            lines.append(f"{f.giver} gave you {cogs_text(f.cogs)}.")
    return lines


def _personal_lines(facts: Sequence[Any], who: str) -> tuple[str, ...]:
    """A participant's own round (A19): move, bid, notices, sabotage, the part, cogs."""
    mv = next(f for f in of_type(facts, MeadowMove) if f.participant == who)
    went = "stayed in" if mv.meadow == mv.from_meadow else "moved to"
    lines = [f"You {went} the {mv.meadow} Meadow, bid {mv.bid} and powered up {mv.power_up}."]
    lines += _trade_lines(facts, who, "host")
    if not mv.submitted:
        lines.append("You did not submit: you stayed, bid 0 and powered up 0.")
    lines += [f"Problem: {f.problem.text_for(who)}" for f in of_type(facts, SubmissionProblem) if f.participant == who]
    for j in of_type(facts, NodeJump):
        if j.participant != who:
            continue
        if j.result == "charged":
            lines.append(f"You paid {j.garnets} garnets to jump from {j.from_node} to {j.to_node}.")
        elif j.result == "host_charges":
            lines.append(f"Your jump from {j.from_node} to {j.to_node} is recorded; the host charges "
                         f"{JUMP_COST} garnets.")
        elif j.result == "not_needed":
            lines.append(f"Your jump to {j.to_node} was not needed ({j.to_node} is joined to {j.from_node}): "
                         "no charge, a normal move.")
    if mv.random_node:
        lines.append(f"Your install node was chosen at random: {mv.node}.")
    lines += _trade_lines(facts, who, "submission")
    lines += [f"You sabotaged {s.node}: +{s.cogs} cogs." for s in of_type(facts, SelfSabotage) if s.participant == who]
    for i in of_type(facts, PartInstalled):
        if i.participant != who:
            continue
        if i.part is not None and not i.part.faulty:
            lines.append(f"You won the part: {i.part.text()}, installed on {i.node}; "
                         f"you paid {mv.bid} + {mv.power_up} cogs.")
        elif i.part is None:
            lines.append(f"You did not win the part; nothing was installed on {i.node}.")
        else:
            lines.append(f"You did not win the part: a faulty part was installed on {i.node}; you paid "
                         f"your bid of {mv.bid}.")
    lines += [_cogs_line(c) for c in of_type(facts, CogsNow) if c.participant == who]
    return tuple(lines)
