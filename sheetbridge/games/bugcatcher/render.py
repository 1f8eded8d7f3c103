"""Reports, texts and pictures drawn from the facts the viewer may see: the public post and each
player's confessional of a round, the views of a game in progress, the outcome and the standings
(R63-R73, A33-A35).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...core.facts import HOST_ONLY, RenderContext, of_type
from ...core.outcome_text import plural
from ...core.picture import Picture
from ...core.standings import Place, RoundScore
from ...core.types import Award, Block, Outcome, Report, State
from .board import node_lines, ordinal, other
from .content import board_missions, mission_short, mission_text
from .drawing import LEGEND, LEGEND_BLOCKED, _grid_from_facts, board_picture, draw_board
from .facts import (ActionStep, CollisionsCaused, Ending, EnergyUsed, FinalCount, FireflyBreakdown, FireflyTotal,
                    IntakeProblem, MissionAccepted, MissionCheck, MissionClosed, MissionCompleted, MissionPenalty,
                    MissionPresented, MissionReward, NextNodes, NoSubmission, PriorityBid, StartingNode, TieBreakStep)
from .options import Options, options_of
from .rules import final_facts
from .spec import ENERGY, SPEC


# ------------------------------------------------------------- standings (core/standings.py)

SCORE_UNIT = "fireflies"
TIE_RULE = "more missions completed, then fewer collisions caused, then the Gamewide Tiebreak (R71)"


def round_scores(facts: Sequence[Any]) -> list[RoundScore]:
    """Each player's fireflies this round and in total (R66, R67), and at the end (R68)."""
    return ([RoundScore(f.player, f.change, f.total) for f in of_type(facts, FireflyTotal)]
            + [RoundScore(f.player, None, f.fireflies) for f in of_type(facts, FinalCount)])


def final_places(facts: Sequence[Any]) -> list[Place]:
    """R68-R71: the final order, with the step that separated each tie."""
    said: dict[str, str] = {}
    for s in of_type(facts, TieBreakStep):
        how = (f"ahead of {s.below} on {s.by} ({s.above_value} to {s.below_value})"
               if s.by in ("missions", "collisions") else
               f"ahead of {s.below} by the Gamewide Tiebreak" if s.by == "gamewide" else
               f"tied with {s.below}: waits for the Gamewide Tiebreak" if s.by == "pending" else
               f"tied with {s.below} (not needed to decide)")
        said[s.above] = "; ".join(x for x in (said.get(s.above, ""), how) if x)
        if s.by in ("missions", "collisions", "gamewide"):
            said[s.below] = "; ".join(x for x in (said.get(s.below, ""), f"behind {s.above} on " + (
                f"{s.by} ({s.below_value} to {s.above_value})" if s.by != "gamewide" else "the Gamewide Tiebreak")) if x)
    return [Place(f.player, f.place, said.get(f.player, "")) for f in of_type(facts, FinalCount)]


# ------------------------------------------------------------- texts

def _steps_text(steps: Sequence[int]) -> str:
    """(1, 2, 3) -> 'steps 1-3'; (1, 3, 4) -> 'steps 1, 3, 4'."""
    if not steps:
        return ""
    if list(steps) == list(range(steps[0], steps[0] + len(steps))) and len(steps) > 1:
        return f"steps {steps[0]}-{steps[-1]}"
    return ("step " if len(steps) == 1 else "steps ") + ", ".join(map(str, steps))


def _action_text(f: ActionStep, offboard_policy: str) -> str:
    """What became of one step of a player's round (R29-R47, A36, E5)."""
    tail = ("; this node places no more paths this round" if offboard_policy == "stop_node"
            else "; only this action is skipped")
    if f.result == "placed":
        return f"placed {f.colour} path {f.frm_label} -> {f.to_label}"
    if f.result == "swap":
        return f"colour swap: border now {f.colour}, central now {other(f.colour)}"
    if f.result == "idle":
        return "idle step (blank row)"
    if f.result == "stopped":
        return f"invalidated: your {f.node} node stopped earlier this round"
    if f.result == "offboard":
        return f"invalid: from {f.frm_label} it would leave the board{tail}"
    if f.result == "blocked":
        return f"invalid: {f.to_label} is a blocked cell{tail}"
    parts = []
    for c in f.cases:
        mine = c in f.self_cases
        whose = "your own node or path" if mine else "another node or path"
        crossed = "your own path" if mine else "another path"
        parts.append({
            1: f"case 1: {f.to_label} was already claimed by {whose}",
            2: f"case 2: another path reached {f.to_label} at the same step",
            3: f"case 3: a {f.colour} path of the other kind crossed it at the same step",
            4: f"case 4: it crossed a {f.colour} path placed earlier by {crossed}",
        }[c])
    return f"collision ({'; '.join(parts)}): invalidated, and this node places no more paths this round"


# ------------------------------------------------------------- a round's reports

def render(facts: Sequence[Any], viewer: str | None, ctx: RenderContext) -> Report:
    """The public post or one player's confessional of a round, from the facts that viewer may know."""
    opts = options_of(ctx.options)
    r = ctx.round
    if r == 0:
        return render_pregame(facts, viewer, opts)
    if viewer is None:
        grid, legend = _grid_from_facts(facts, opts.public_step_order)
        blocks = [Block(f"Round {r}: all paths", (
            "Every successful path in its colour; nodes are not labelled and swaps are not shown.",),
            grid, legend)]
        mlines = [f"Mission {f.mission} ({f.name}) has been completed." for f in of_type(facts, MissionCompleted)]
        mlines += [f"Mission {f.mission} ({f.name}) is closed: its window has ended."
                   for f in of_type(facts, MissionClosed)]
        blocks.append(Block(f"Round {r}: missions", tuple(mlines) or ("No mission was completed this round.",)))
        if r < opts.rounds:
            board = [f.text for f in of_type(facts, MissionPresented)]
            blocks.append(Block(f"Mission board, round {r + 1}", tuple(board) or ("No missions this round.",)))
        return Report(f"Round {r}", tuple(blocks))
    return render_private(facts, viewer, r, opts)


def render_pregame(facts: Sequence[Any], viewer: str | None, opts: Options) -> Report:
    """The pregame's post (the starting nodes, R26) or one player's starting nodes, bids and notes."""
    if viewer is None:
        grid, legend = _grid_from_facts(facts, False)
        return Report("Pregame: starting nodes", (
            Block("Starting nodes for Round 1", (
                "Every player's starting nodes, unlabelled: black cells are central nodes, blue corners "
                "border nodes.",), grid, legend),
            Block("Mission board, round 1", tuple(f.text for f in of_type(facts, MissionPresented))
                  or ("No missions this round.",)),
        ))
    lines: list[str] = []
    for f in of_type(facts, StartingNode):
        if f.player == viewer:
            how = (f"your {ordinal(f.choice)} choice" if f.choice else
                   "a random free coordinate (no entry of your list could be given)")
            lines.append(f"{f.node.capitalize()} node ({f.colour}): {f.label}, {how}.")
    bids = {f.list: f for f in of_type(facts, PriorityBid) if f.player == viewer}
    if "both" in bids:
        b = bids["both"]
        lines.append(f"Tiebreak bid: {b.bid}; garnets charged: {b.charged}.")
        if b.wanted != b.bid:
            lines.append(f"Your bid of {b.wanted} is more than your garnets: capped at {b.bid}.")
    elif bids:
        c, b = bids["central"], bids["border"]
        lines.append(f"Tiebreak bids: central {c.bid}, border {b.bid}; garnets charged: {c.charged + b.charged}.")
        if (c.wanted, b.wanted) != (c.bid, b.bid):
            lines.append(f"Your bids ({c.wanted} central, {b.wanted} border) are more than your garnets: "
                         f"capped at {c.bid} and {b.bid}.")
    for f in facts:
        if isinstance(f, NoSubmission) and f.player == viewer:
            lines.append("You submitted no priority lists: you were given random free coordinates.")
        elif isinstance(f, IntakeProblem) and f.player == viewer:
            lines.append(f"Note: {f.problem.text_for(viewer)}")
    return Report("Pregame", (Block("Your starting nodes", tuple(lines)),))


def render_private(facts: Sequence[Any], viewer: str, r: int, opts: Options) -> Report:
    """One player's confessional of a round: their result, actions, missions and notes (R66, R67, A34)."""
    mine = [f for f in facts if getattr(f, "player", None) == viewer]
    result: list[str] = []
    for f in of_type(mine, FireflyTotal):
        result.append(f"Your fireflies: {f.total} (this round {f.change:+d}).")
    for f in of_type(mine, FireflyBreakdown):
        result.append(f"Paths placed: {f.paths} (+{f.paths}); missions: {f.rewards + f.penalties:+d}.")
    for f in of_type(mine, CollisionsCaused):
        result.append(f"Collisions caused this round: {f.this_round}; this game: {f.total}.")
    for f in of_type(mine, EnergyUsed):
        result.append(f"Energy used: {f.energy} of {f.limit}.")
    for f in of_type(mine, NextNodes):
        result += [f"Border node: {f.border_label} ({f.border_colour} paths)",
                   f"Central node: {f.central_label} ({other(f.border_colour)} paths)"]
    for f in of_type(mine, EnergyUsed):
        if f.garnet_swaps:
            result.append("Garnet swap: 1 garnet spent.")
    blocks = [Block(f"Round {r}: your result", tuple(result))]
    steps = of_type(mine, ActionStep)
    if steps or of_type(mine, EnergyUsed):
        blocks.append(Block(f"Round {r}: your actions", tuple(
            f"{f.step}. {f.action}: {_action_text(f, opts.offboard_policy)}" for f in steps) or ("No actions.",)))
    mlines: list[str] = []
    for f in mine:
        if isinstance(f, MissionAccepted) and f.ok:
            mlines.append(f"You accepted mission {f.mission} ({f.name}).")
        elif isinstance(f, MissionCheck) and f.pending:
            mlines.append(f"Mission {f.mission} ({f.name}): the host has not entered who completed it yet; "
                          "until then it counts as not completed.")
        elif isinstance(f, MissionReward):
            check = next((c for c in of_type(mine, MissionCheck) if c.mission == f.mission), None)
            how = (f" with your {check.node} node ({_steps_text(check.steps)})"
                   if check is not None and check.how == "shape" else "")
            mlines.append(f"You completed mission {f.mission} ({f.name}){how}: +{f.share} fireflies"
                          + (f" (reward {f.reward} split {f.completers} ways, rounded up)"
                             if f.completers > 1 else "") + ".")
        elif isinstance(f, MissionPenalty):
            why = "another player completed it" if f.why == "completed_by_others" else "its window has ended"
            mlines.append(f"You failed mission {f.mission} ({f.name}): {f.penalty} fireflies, {why}.")
    if mlines:
        blocks.append(Block(f"Round {r}: your missions", tuple(mlines)))
    notes: list[str] = []
    for f in mine:
        if isinstance(f, NoSubmission):
            notes.append("You submitted nothing this round: " + (
                f"your last actions were repeated ({' '.join(f.repeated)}); no new missions."
                if f.repeated else "no actions and no new missions; your nodes stay where they are."))
        elif isinstance(f, IntakeProblem):
            notes.append(f.problem.text_for(viewer))
        elif isinstance(f, MissionAccepted) and not f.ok:
            notes.append(f"mission {f.mission}: {f.reason}; ignored")
    if notes:
        blocks.append(Block(f"Round {r}: submission notes", tuple(notes)))
    return Report(f"Round {r}", tuple(blocks))


def picture(facts: Sequence[Any], viewer: str | None, ctx: RenderContext) -> Picture | None:
    """The round's board (public) and, for each player, the same board with their own nodes ringed
    and their own failed paths dashed (their view differs: they know which nodes are theirs)."""
    title = (f"{ctx.game_name or SPEC.name}: " + ("starting nodes" if ctx.round == 0 else f"round {ctx.round}")
             + (f" ({viewer})" if viewer else ""))
    return board_picture(facts, title, viewer)


# ------------------------------------------------------------- views of a game in progress


def player_view(state: State, player: str) -> Report:
    opts = options_of(state["options"])
    r = state["round"]
    lines: list[str] = []
    if state["finished"]:
        lines.append(f"The match is over. Your fireflies: {state['fireflies'][player]}.")
    elif r == 0:
        lines.append("Pregame is open: submit your two priority lists (and optional tiebreak bids).")
    else:
        lines.append(f"Round {r} of {opts.rounds} is open. Energy: {ENERGY}. "
                     f"Your fireflies: {state['fireflies'][player]}.")
    lines += node_lines(state, player)
    mine = [m for m in state["missions"] if player in m["accepted"]]
    for m in mine:
        if m["status"] == "completed" and player in m["completers"]:
            st = f"completed in round {m['completed_round']}"
        elif player in m["penalized"]:
            st = "failed (penalty taken)" + ("; still open" if m["status"] == "open" else "")
        elif m["status"] == "completed":
            st = f"completed by someone else in round {m['completed_round']}"
        elif m["status"] == "closed":
            st = "closed"
        else:
            end = m["round"] + m["failure_rounds"] - 1 if m["failure_rounds"] else None
            st = "open" + (f", complete it by the end of round {end}" if end else "")
        lines.append(f"Mission {m['id']} ({m['name']}): {st}.")
    blocks = [Block("Now", tuple(lines))]
    if not state["finished"] and r >= 1:
        blocks.append(Block(f"Mission board, round {r}",
                            tuple(mission_text(m) for m in board_missions(state)) or ("No missions this round.",)))
    return Report(f"{SPEC.name}: {player}", tuple(blocks))


def public_view(state: State) -> Report:
    opts = options_of(state["options"])
    cols, rows = opts.columns, opts.rows
    r = state["round"]
    blocks = []
    if state["finished"]:
        blocks.append(Block("Status", ("The match is over.",)))
    elif r == 0:
        blocks.append(Block("Status", ("Pregame: priority lists are open.",)))
        blocks.append(Block("Mission board, round 1",
                            tuple(mission_text(m) for m in board_missions(state, 1)) or ("No missions.",)))
    else:
        blocks.append(Block("Status", (f"Round {r} of {opts.rounds} is open.",)))
        blocks.append(Block(f"Mission board, round {r}",
                            tuple(mission_text(m) for m in board_missions(state)) or ("No missions this round.",)))
    running = [m for m in state["missions"] if m["round"] < r and m["status"] == "open"]
    if running and not state["finished"]:
        blocks.append(Block("Earlier missions still open (for those who accepted them)",
                            tuple(mission_short(m) for m in running)))
    done = [m for m in state["missions"] if m["status"] == "completed"]
    if done:
        blocks.append(Block("Missions completed so far", tuple(
            f"{m['id']} ({m['name']}): completed in round {m['completed_round']}" for m in done)))
    b = state.get("board")
    if b and not state["finished"] and not b.get("in_post"):   # (the pregame's board: shown once, in its post)
        nodes = [{"at": s["at"], "colour": s.get("colour") if r == 1 else None} for s in
                 (b["starts"] if b["round"] == 0 else b["ends"])]
        if b["round"] != 0 and opts.public_node_colors:
            nodes = b["ends"]
        blocked = sorted(opts.blocked)
        blocks.append(Block(f"Nodes at the start of round {r}", (
            "Every node, unlabelled (S)." + (" Round 1 colours: central black, border blue." if r == 1 else ""),),
            draw_board(cols, rows, [], nodes, [], blocked=blocked), LEGEND + (LEGEND_BLOCKED if blocked else ())))
    return Report(f"{SPEC.name}: board", tuple(blocks))


def outcome(state: State, decisions: Mapping[str, Any] | None = None) -> Outcome | None:
    """The end (R68-R73, A31-A35) as the last round computed it with the decisions entered then:
    a decision entered later re-resolves that round, so the state is always current."""
    if not state["finished"] or not state["final"]:
        return None
    f = state["final"]
    ff, mc, co = state["fireflies"], state["missions_completed"], state["collisions"]

    def score(p: str) -> str:
        text = f"{ff[p]} fireflies"
        if f["shown"][p]["missions"]:
            text += f", {plural(mc[p], 'mission')} completed"
        if f["shown"][p]["collisions"]:
            text += f", {plural(co[p], 'collision')} caused"
        return text

    winner, ec = f["winner"], f["ec"]
    reasons: list[str] = []
    pending: list[str] = []
    if f["manual_pending"]:
        reasons.append(f"Provisional: the host has not entered who completed "
                       f"{plural(len(f['manual_pending']), 'manual mission')}; until then they count as not completed, nobody is named winner or "
                       "Elimination Candidate, and no end-of-game garnets are paid.")
        for x in state["pending_manual"]:
            pending.append(f"for the host: who completed mission {x['mission']} ({x['name']}) in round "
                           f"{x['round']}. Until it is entered: nobody, it counts as not completed.")
    top = [p for p in f["order"] if f["places"][p] == 1]
    if winner:
        reasons.append(f"Winner: {winner} with {ff[winner]} fireflies: 1 garnet and 2 Tokens of Life.")
    elif not f["manual_pending"]:
        reasons.append(f"Winner: pending: {', '.join(top)} are tied on {ff[top[0]]} fireflies, missions "
                       "completed and collisions caused; the Gamewide Tiebreak decides.")
    if ec:
        reasons.append(f"Elimination Candidate: {ec} with {ff[ec]} fireflies.")
    elif not f["manual_pending"]:
        last_place = f["places"][f["order"][-1]]
        bottom = [p for p in f["order"] if f["places"][p] == last_place]
        reasons.append(f"Elimination Candidate: pending: {', '.join(bottom)} are tied on {ff[bottom[0]]} "
                       "fireflies, missions completed and collisions caused; the Gamewide Tiebreak decides.")
    for key in f["pending"]:
        pending.append(f"for the host: {f['questions'][key]} Until it is entered: nobody is named.")
    by_text = {"missions": "more missions completed", "collisions": "fewer collisions caused",
               "gamewide": "the Gamewide Tiebreak"}
    for who in dict.fromkeys(x for x in (f["order"][0], f["order"][-1])):
        tied = [q for q in f["order"] if ff[q] == ff[who]]
        if len(tied) < 2:
            continue
        parts = []
        for s in f["steps"]:
            if s["above"] in tied and s["below"] in tied:
                if s["by"] in ("missions", "collisions"):
                    parts.append(f"{s['above']} above {s['below']} by {by_text[s['by']]} "
                                 f"({s['above_value']} to {s['below_value']})")
                elif s["by"] == "gamewide":
                    parts.append(f"{s['above']} above {s['below']} by the Gamewide Tiebreak")
                else:
                    parts.append(f"{s['above']} and {s['below']} still tied")
        reasons.append(f"{', '.join(tied)} tied on {ff[who]} fireflies: " + "; ".join(parts) + ".")
    standings = tuple((p, score(p)) for p in f["order"])
    awards = (Award(winner, "Token of Life", 2, "the single player with the most fireflies"),) if winner else ()
    return Outcome((winner,) if winner else (), (ec,) if ec else (), ec, standings, tuple(reasons), awards,
                   tuple(pending), facts=tuple(x for x in final_facts(state) if x.audience != HOST_ONLY),
                   scores={p: float(ff[p]) for p in f["order"]}, ending=ending_of(f))


def ending_of(f: Mapping[str, Any]) -> str:
    """What settled the winner, a short code: "fireflies" (most fireflies alone), "missions",
    "collisions" or "gamewide" (the R71 step that separated the top two), "winner_pending" (the
    Gamewide Tiebreak not entered yet) or "manual_pending" (a manual mission not entered yet)."""
    if f["manual_pending"]:
        return Ending.MANUAL_PENDING.value
    if not f["winner"]:
        return Ending.WINNER_PENDING.value
    first = f["order"][0]
    step = next((s for s in f["steps"] if s["above"] == first), None)
    return Ending(step["by"]).value if step and step["by"] in ("missions", "collisions", "gamewide") \
        else Ending.FIREFLIES.value

