"""A round's resolution (R27-R73), as named steps in the rulebook's order. :func:`resolve_round`
reads as the list of them; the path engine they drive is paths.py, the pregame pregame.py.

Steps of a round: :func:`take_plans` (R28, E1-E4, E11), :func:`place_paths` (R29-R47),
:func:`resolve_missions` (R48-R62), :func:`count_fireflies` (R32, R66, R67, R6), :func:`publish_board`
(R63-R65), then after the last round :func:`finish` (R68-R73).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from ...core.decisions import DecisionKind, DecisionRequest
from ...core.facts import HOST_ONLY
from ...core.rng import Rng
from ...core.types import LedgerEntry, Problem, ProblemKind, RoundInput, RoundResult, State
from .board import (ACTION_CHOICES, GSWAP, IDLE, SWAP, _ENERGY_CODES, _NODE_WORDS, _PATH_NODE_WORDS, _STEP_ENERGY,
                    _board_coords, _board_labels, costs_energy, fine_label, node_word, other, own_xy)
from .content import _found_shape, _mission_copy, _shape_variants, mission_window, refresh_missions
from .facts import (_ORDER_KEY, ActionStep, CollisionHit, CollisionRecord, CollisionsCaused, EnergyUsed,
                    FinalCount, FinalStats, FireflyBreakdown, FireflyGarnets, FireflyTotal, IntakeProblem,
                    LedgerReason, MainMatchResult, ManualMissionPending, MissionAccepted, MissionCheck,
                    MissionClosed, MissionCompleted, MissionCompleters, MissionPenalty, MissionReward, NextNodes,
                    NodePath, NoSubmission, TieBreakStep, _accepted, _node_marker, _not_found, _path_placed,
                    board_fact, presented_facts)
from .options import Options, options_of
from .paths import PathResult, Point, _point, run_paths
from .pregame import resolve_pregame
from .spec import ENERGY


def resolve(state: State, ri: RoundInput, rng: Rng) -> RoundResult:
    """Resolve the open round: the pregame (round 0) or a round of paths. The input state is not written."""
    st = _round_copy(state)
    if st["round"] == 0:
        return resolve_pregame(st, ri, rng)
    return resolve_round(st, ri, rng)


@dataclass
class Round:
    """A round being resolved: its state (a copy, written in place), and what it produces."""
    st: State
    opts: Options
    players: list[str]
    r: int
    host_log: list[str] = field(default_factory=list)
    ledger: list[LedgerEntry] = field(default_factory=list)
    facts: list[Any] = field(default_factory=list)
    requests: list[DecisionRequest] = field(default_factory=list)

    def breakdown(self, player: str) -> tuple[str, ...]:
        """Who reads a player's breakdown (actions, energy, collisions, paths): them, or the host (A34)."""
        return (player,) if self.opts.private_breakdown else HOST_ONLY


def resolve_round(st: State, ri: RoundInput, rng: Rng) -> RoundResult:
    """Rounds 1 to the last (R27): the steps below in the rulebook's order."""
    rd = Round(st, options_of(st["options"]), st["players"], st["round"])
    st.setdefault("last_actions", {p: [] for p in rd.players})     # states recorded before these keys
    st.setdefault("pending_manual", [])
    plans, gswap_used, accept = take_plans(rd, ri)
    starts = {p: {n: _point(st["nodes"][p][n]) for n in "BC"} for p in rd.players}
    start_colour = dict(st["border_colour"])
    res = place_paths(rd, starts, start_colour, plans, gswap_used)
    rewards = {p: 0 for p in rd.players}
    penalties = {p: 0 for p in rd.players}
    public_missions = resolve_missions(rd, accept, res, ri.decisions, rewards, penalties)
    count_fireflies(rd, res, rewards, penalties)
    publish_board(rd, starts, start_colour, res)
    rd.facts += public_missions
    final = rd.r >= rd.opts.rounds
    refresh_missions(st, ri.tables, rd.r, rd.host_log)
    st["round"] = rd.r + 1
    if final:
        st["finished"] = True
        finish(rd, ri.decisions)
    else:
        rd.facts += presented_facts(st, rd.r + 1)
    return RoundResult(st, ledger=tuple(rd.ledger), host_log=tuple(rd.host_log), facts=tuple(rd.facts),
                       requests=tuple(rd.requests))


def take_plans(rd: Round, ri: RoundInput) -> tuple[dict[str, list[str]], dict[str, bool], dict[str, list[str]]]:
    """Intake (R28, E1-E4, E11): the list that runs for each player, whether they paid a garnet swap
    (R15) and the missions they accept."""
    st, opts, r, facts, host_log = rd.st, rd.opts, rd.r, rd.facts, rd.host_log
    plans: dict[str, list[str]] = {}
    gswap_used: dict[str, bool] = {}
    accept: dict[str, list[str]] = {}
    for p in rd.players:
        sub = ri.submissions.get(p)
        if sub is None:
            repeated = ([c for c in st["last_actions"].get(p, []) if c != GSWAP]   # a garnet is never spent
                        if opts.missing_policy == "repeat_last" else [])        # for a player (A17)
            vals: Mapping[str, Any] = {"actions": repeated, "accept": []}
            facts.append(NoSubmission(p, opts.missing_policy, tuple(repeated), audience=(p,)))
            host_log.append(f"{p}: no submission (E11)" + (f"; repeating {' '.join(repeated)}" if repeated else ""))
        else:
            vals = sub.values
            facts.extend(IntakeProblem(p, pr, audience=(p,)) for pr in sub.problems)
            st["last_actions"][p] = [c for c in vals.get("actions", []) if c != IDLE]
        codes = [c for c in vals.get("actions", []) if c in ACTION_CHOICES or c == IDLE]
        plan, used, notes = clean_plan(codes, int(ri.balances.get(p, 0)) >= 1, opts, p)
        facts.extend(IntakeProblem(p, n, audience=(p,)) for n in notes)
        host_log += [f"{n.message} (E1, E3, E4)" for n in notes]
        plans[p] = plan
        gswap_used[p] = used
        if used:
            rd.ledger.append(LedgerEntry(p, -1, LedgerReason.GARNET_SWAP.value, f"round {r} garnet colour swap (R15)"))
        accept[p] = list(vals.get("accept", []))
    return plans, gswap_used, accept


def clean_plan(codes: Sequence[str], has_garnet: bool, options: Mapping[str, Any] | Options,
               player: str = "") -> tuple[list[str], bool, list[Problem]]:
    """The list that runs: (codes, garnet swap used, problems found at resolution). E3, E4 then E1."""
    opts = options if isinstance(options, Options) else options_of(options)
    out: list[str] = []
    notes: list[Problem] = []
    used = False
    for i, c in enumerate(codes, 1):
        if c == GSWAP:
            if used:
                keep = opts.extra_gswap == "as_swap"
                notes.append(Problem(ProblemKind.ILLEGAL, player, f"action {i}", GSWAP, "one garnet swap per round",
                                     "a second garnet swap", "a normal swap costing 1 energy" if keep else "dropped"))
                if keep:
                    out.append(SWAP)
                continue
            if not has_garnet:
                keep = opts.gswap_no_garnet == "as_swap"
                notes.append(Problem(ProblemKind.ILLEGAL, player, f"action {i}", GSWAP,
                                     "a garnet swap only with a garnet to pay for it", "you have no garnet",
                                     "a normal swap costing 1 energy" if keep else "dropped"))
                if keep:
                    out.append(SWAP)
                continue
            used = True
        out.append(c)
    energy = sum(1 for c in out if c in _ENERGY_CODES)   # costs_energy
    if energy > ENERGY:
        if opts.energy_overflow == "reject_all":
            notes.append(Problem(ProblemKind.ILLEGAL, player, "actions", f"{energy} energy",
                                 f"at most {ENERGY} energy of actions", "too much energy",
                                 "the whole list is rejected: no actions this round"))
            return [], False, notes
        kept, spent, dropped = [], 0, []
        for c in out:
            if costs_energy(c):
                spent += 1
                if spent > ENERGY:
                    dropped.append(c)
                    continue
            kept.append(c)
        notes.append(Problem(ProblemKind.ILLEGAL, player, "actions", f"{energy} energy",
                             f"at most {ENERGY} energy of actions", "too much energy",
                             f"the last {len(dropped)} energy action(s) ({', '.join(dropped)}) are dropped"))
        out = kept
    return out, used, notes


def _point_names(cols: int, rows: int) -> tuple[Callable[[Any], str], Callable[[Any], tuple[int, int]]]:
    """Every point of the board with its label and its own coordinates, looked up rather than
    computed: a round's facts name about a hundred points. A point off the board is computed."""
    labels, coords = _board_labels(cols, rows), _board_coords(cols, rows)

    def lbl(fine: Sequence[int]) -> str:
        try:
            return labels[fine]   # type: ignore[index]  # a list is no key: TypeError, computed below
        except (KeyError, TypeError):   # a point off the board, or a list
            return fine_label(fine, cols, rows)

    def xy(fine: Sequence[int]) -> tuple[int, int]:
        try:
            return coords[fine]   # type: ignore[index]  # as above
        except (KeyError, TypeError):
            return own_xy(fine)
    return lbl, xy


def place_paths(rd: Round, starts: dict[str, dict[str, Point]], start_colour: dict[str, str],
                plans: Mapping[str, Sequence[str]], gswap_used: Mapping[str, bool]) -> PathResult:
    """Every step of every path, all players' k-th actions at once (R29-R47, reference order (f)),
    and what each step did, cost and caused (R12-R15, R37-R45, A13, A16)."""
    st, facts = rd.st, rd.facts
    labels, coords = _board_labels(rd.opts.columns, rd.opts.rows), _board_coords(rd.opts.columns, rd.opts.rows)
    get_label, get_xy = labels.get, coords.get
    lbl, xy = _point_names(rd.opts.columns, rd.opts.rows)
    res = run_paths(starts, start_colour, plans, rd.opts)
    rd.host_log += res.log
    for p in rd.players:
        aud = rd.breakdown(p)
        for ev in res.events[p]:
            code, frm, to, hits, result = ev.code, ev.frm, ev.to, ev.hits, ev.result
            if hits:
                cases = tuple(sorted({c for c, _ in hits}))
                self_cases = tuple(sorted({c for c, _ in hits} - {c for c, o in hits if o != p}))
            else:
                cases = self_cases = ()
            facts.append(ActionStep(
                p, ev.step, code, _PATH_NODE_WORDS.get(code, ""), result,
                (get_xy(frm) or xy(frm)) if frm else None, (get_xy(to) or xy(to)) if to else None,
                (get_label(frm) or lbl(frm)) if frm else "",
                (get_label(to) or lbl(to)) if to and result != "offboard" else "", ev.colour, cases, self_cases,
                _STEP_ENERGY.get(code, 0), 1 if code == GSWAP else 0, ev.counted,
                audience=aud))
            if result == "collision":
                node = _PATH_NODE_WORDS.get(code, "")
                facts.append(CollisionRecord(ev.step, p, ev.code, node, lbl(ev.to),
                                             tuple(CollisionHit(c, o) for c, o in ev.hits), ev.counted,
                                             audience=HOST_ONLY))
        for n in "BC":
            start, end = starts[p][n], res.ends[p][n]
            facts.append(NodePath(p, _NODE_WORDS[n], get_xy(start) or xy(start), get_xy(end) or xy(end),
                                  get_label(start) or lbl(start), get_label(end) or lbl(end), res.moves[p][n],
                                  tuple(res.steps[p][n]), audience=aud))
        n_paths = sum(1 for c in plans[p] if c in _PATH_NODE_WORDS)   # the path codes
        n_swaps = plans[p].count(SWAP)
        facts.append(EnergyUsed(p, n_paths + n_swaps, ENERGY, n_paths, n_swaps, 1 if gswap_used[p] else 0,
                                audience=aud))
        st["collisions"][p] += res.collisions[p]
    return res


def resolve_missions(rd: Round, accept: Mapping[str, Sequence[str]], res: PathResult, decisions: Mapping[str, Any],
                     rewards: dict[str, int], penalties: dict[str, int]) -> list[Any]:
    """Missions (R48-R62, A18-A24): acceptances, then each open mission checked, completed with its
    reward split, or failed and closed. Returns the public facts (completions and closings, R62)."""
    st, r = rd.st, rd.r
    accept_missions(rd, accept)
    public: list[Any] = []
    for m in st["missions"]:
        if m["round"] > r or m["status"] != "open":
            continue
        cands = ([p for p in rd.players if p in m["accepted"]] if rd.opts.mission_requires_acceptance
                 else list(rd.players))
        if m.get("manual"):
            completers = check_manual_mission(rd, m, cands, decisions)
        else:
            completers = check_shape_mission(rd, m, cands, res)
        settle_mission(rd, m, completers, rewards, penalties, public)
    return public


def accept_missions(rd: Round, accept: Mapping[str, Sequence[str]]) -> None:
    """Acceptances of this round's open missions (R51, R52, A18); any other is ignored (E7)."""
    board_ids = {m["id"]: m for m in rd.st["missions"] if m["round"] == rd.r}
    for p in rd.players:
        for mid in accept.get(p, []):
            m = board_ids.get(mid)
            if m is None or m["status"] != "open":
                rd.facts.append(MissionAccepted(p, mid, m["name"] if m else mid, False,
                                                "not on this round's board" if m is None else
                                                "already completed or closed", audience=(p,)))
                rd.host_log.append(f"{p}: acceptance of {mid} ignored (E7)")
                continue
            if p not in m["accepted"]:
                m["accepted"].append(p)
                rd.facts.append(_accepted(p, m["id"], m["name"]))


def check_manual_mission(rd: Round, m: dict[str, Any], cands: Sequence[str], decisions: Mapping[str, Any]
                         ) -> list[str]:
    """A manual mission: the host enters who completed it (a decision); not entered, nobody (A21)."""
    r = rd.r
    first, last = mission_window(m)
    key = f"r{r}:mission:{m['id']}"
    entered = decisions.get(key)
    if cands:
        rd.requests.append(DecisionRequest(
            key, f"Round {r}: who completed mission {m['id']} ({m['name']})? {m['text']}",
            DecisionKind.SUBSET, tuple(cands), round=r,
            default="nobody: the mission counts as not completed", who="the host"))
        if entered is None:
            rd.facts.append(ManualMissionPending(m["id"], m["name"], r, tuple(cands), key, audience=HOST_ONLY))
            rd.st["pending_manual"].append({"key": key, "mission": m["id"], "name": m["name"], "round": r})
            rd.host_log.append(f"mission {m['id']}: manual, completers not entered (decision {key}, A21)")
    completers = [p for p in cands if p in (entered or ())]
    for p in cands:
        rd.facts.append(MissionCheck(p, m["id"], m["name"], "host", p in completers, window_first=first,
                                     window_last=last or 0, pending=entered is None, audience=(p,)))
    return completers


def check_shape_mission(rd: Round, m: dict[str, Any], cands: Sequence[str], res: PathResult) -> list[str]:
    """A shape mission: a successful path of the node holds the shape, turned or travelled either way
    as the mission allows (R59, A22, A25)."""
    first, last = mission_window(m)
    completers: list[str] = []
    variants = _shape_variants(m["shape"], bool(m["rotate"]), bool(m["reflect"]), bool(m["either_end"]))
    size = len(m["shape"])   # every variant's length: fewer moves cannot hold one
    nodes = {"border": "B", "central": "C", "any": "BC"}[m["node"]]
    for p in cands:
        found = None
        for n in nodes:
            hit = _found_shape(res.moves[p][n], variants, m["anywhere"]) if len(res.moves[p][n]) >= size \
                else None
            if hit:
                found = (n, *hit)
                break
        if found:
            n, variant, i = found
            completers.append(p)
            rd.facts.append(MissionCheck(p, m["id"], m["name"], "shape", True, node_word(n), res.moves[p][n],
                                         variant, tuple(res.steps[p][n][i:i + len(variant)]), first,
                                         last or 0, audience=(p,)))
        else:
            moves = res.moves[p][nodes] if len(nodes) == 1 else ""
            rd.facts.append(_not_found(p, m["id"], m["name"], m["node"] if len(nodes) == 1 else "", moves,
                                       first, last or 0))
    return completers


def settle_mission(rd: Round, m: dict[str, Any], completers: list[str], rewards: dict[str, int],
                   penalties: dict[str, int], public: list[Any]) -> None:
    """Completed: the reward split rounding up (R53, A24), the other acceptors' penalty (R56); else the
    penalty when its window ends, and the mission closes (A19, A20)."""
    st, r, facts, host_log = rd.st, rd.r, rd.facts, rd.host_log
    window_end = m["round"] + m["failure_rounds"] - 1 if m["failure_rounds"] else None
    if completers:
        share = math.ceil(m["reward"] / len(completers))   # R53, A24
        for p in completers:
            rewards[p] += share
            st["missions_completed"][p] += 1
            facts.append(MissionReward(p, m["id"], m["name"], m["reward"], len(completers), share,
                                       audience=(p,)))
        m["status"], m["completed_round"], m["completers"] = "completed", r, completers
        public.append(MissionCompleted(m["id"], m["name"]))
        facts.append(MissionCompleters(m["id"], tuple(completers), share, audience=HOST_ONLY))
        host_log.append(f"mission {m['id']} completed by {', '.join(completers)} (+{share} each)")
        if m["penalty"]:   # R56
            for p in [q for q in rd.players if q in m["accepted"]]:
                if p not in completers and p not in m["penalized"]:
                    penalize(m, p, penalties, facts, host_log, "completed_by_others")
    elif window_end is not None and r >= window_end:
        if m["penalty"]:
            for p in [q for q in rd.players if q in m["accepted"]]:
                if p not in m["penalized"]:
                    penalize(m, p, penalties, facts, host_log, "window_ended")
        if not m["expires"] or r >= m["expires"]:
            m["status"] = "closed"
            public.append(MissionClosed(m["id"], m["name"]))
    elif m["expires"] and r >= m["expires"]:
        m["status"] = "closed"
        public.append(MissionClosed(m["id"], m["name"]))


def penalize(m: dict[str, Any], p: str, penalties: dict[str, int], facts: list[Any], host_log: list[str],
             why: str) -> None:
    """A failed acceptor pays the mission's penalty once: another completed it (R56) or its window ended (A19)."""
    penalties[p] += m["penalty"]
    m["penalized"].append(p)
    facts.append(MissionPenalty(p, m["id"], m["name"], m["penalty"], why, audience=(p,)))
    host_log.append(f"mission {m['id']}: {p} penalised {m['penalty']} ({why}, "
                    + ("R56" if why == "completed_by_others" else "A19") + ")")


def count_fireflies(rd: Round, res: PathResult, rewards: Mapping[str, int], penalties: Mapping[str, int]) -> None:
    """Fireflies: one per path placed (R32) and the missions' (R53, R56), told privately (R66, R67);
    each node's end point is next round's node (R6, A11)."""
    st, facts = rd.st, rd.facts
    lbl, xy = _point_names(rd.opts.columns, rd.opts.rows)
    for p in rd.players:
        before = st["fireflies"][p]
        change = res.paths[p] + rewards[p] + penalties[p]
        st["fireflies"][p] = before + change
        st["nodes"][p] = {n: list(res.ends[p][n]) for n in "BC"}
        st["border_colour"][p] = res.border_colour[p]
        st["history"][p].append(change)
        facts.append(FireflyBreakdown(p, res.paths[p], rewards[p], penalties[p], audience=rd.breakdown(p)))
        facts.append(FireflyTotal(p, before, change, st["fireflies"][p], audience=(p,)))
        facts.append(CollisionsCaused(p, res.collisions[p], st["collisions"][p], audience=rd.breakdown(p)))
        facts.append(NextNodes(p, xy(res.ends[p]["B"]), xy(res.ends[p]["C"]), lbl(res.ends[p]["B"]),
                               lbl(res.ends[p]["C"]), res.border_colour[p], audience=(p,)))


def publish_board(rd: Round, starts: Mapping[str, Mapping[str, Point]], start_colour: Mapping[str, str],
                  res: PathResult) -> None:
    """The public board (R63-R65, A33): paths and node points, unowned and in board order unless the
    step order is public, so the record says no more than the drawing."""
    st, opts, players, r = rd.st, rd.opts, rd.players, rd.r
    cols, rows = opts.columns, opts.rows
    show_col = opts.public_node_colors
    st["board"] = {"round": r,
                   "segments": [{"node": s.node, "frm": list(s.frm), "to": list(s.to), "colour": s.colour,
                                 "step": s.step} for s in res.segments],
                   "starts": [{"at": list(starts[p][n]),
                               "colour": (start_colour[p] if n == "B" else other(start_colour[p])) if show_col
                               else None} for p in sorted(players) for n in "BC"],
                   "ends": [{"at": list(res.ends[p][n]),
                             "colour": (res.border_colour[p] if n == "B" else other(res.border_colour[p]))
                             if show_col else None} for p in sorted(players) for n in "BC"]}
    rd.facts.append(board_fact(st, r))
    step_order = opts.public_step_order
    paths = [_path_placed(s.node, s.frm, s.to, s.colour, s.step if step_order else 0, cols, rows)
             for s in res.segments]
    if not step_order:
        paths.sort(key=_ORDER_KEY)
    rd.facts += [f for _, f in paths]
    marks = []
    for phase, where, colours in (("start", starts, start_colour), ("end", res.ends, res.border_colour)):
        for p in players:
            for n in "BC":
                colour = (colours[p] if n == "B" else other(colours[p])) if show_col else ""
                marks.append(_node_marker(phase, n, where[p][n], colour, cols, rows))
    marks.sort(key=_ORDER_KEY)
    rd.facts += [f for _, f in marks]


# ------------------------------------------------------------- the end of the game (R68-R73)

def finish(rd: Round, decisions: Mapping[str, Any]) -> None:
    """The final order, the winner and the EC with R71's tie-breaks, and the end-of-game garnets.

    Players are ordered by fireflies, then more missions completed, then fewer collisions caused
    (R71, A32). A full tie at the top or the bottom asks the host for the Gamewide Tiebreak (a
    RANKING decision of this round); until it is entered that winner or EC is pending. While a
    manual mission's completers are not entered the whole result is provisional: nobody is
    named and no end-of-game garnet is paid."""
    st, players = rd.st, rd.players
    ff, mc = st["fireflies"], st["missions_completed"]
    groups = _tie_groups(st)
    manual = [x["key"] for x in st["pending_manual"]]
    provisional = bool(manual)      # the order may still change: no tie-break is asked yet
    ranked, pending = ask_gamewide(rd, groups, provisional, decisions)
    order = [p for g in groups for p in g]
    winner = None if provisional or (len(groups[0]) > 1 and 0 not in ranked) else order[0]
    last = len(groups) - 1
    ec = None if provisional or (len(groups[-1]) > 1 and last not in ranked) else order[-1]
    steps = tie_steps(st, groups, ranked)
    # A35: missions figures where a fireflies tie used them, collisions where missions tied too.
    show_all = rd.opts.reveal_all_stats
    shown = {p: {"missions": show_all or any(q != p and ff[q] == ff[p] for q in players),
                 "collisions": show_all or any(q != p and (ff[q], mc[q]) == (ff[p], mc[p]) for q in players)}
             for p in players}
    places: dict[str, int] = {}     # players still fully tied share their place
    for gi, g in enumerate(groups):
        for p in g:
            places[p] = order.index(g[0] if len(g) > 1 and gi not in ranked else p) + 1
    conversions = {p: max(ff[p], 0) // 30 for p in players}
    if not provisional:
        pay_end_garnets(rd, winner, conversions)
    st["final"] = {"order": order, "places": places, "winner": winner, "ec": ec, "pending": pending,
                   "manual_pending": manual, "steps": steps, "shown": shown, "conversions": conversions,
                   "questions": {q.key: q.question for q in rd.requests if q.key in pending}}
    rd.facts += final_facts(st)


def _tie_groups(st: State) -> list[list[str]]:
    """The players in order of fireflies, missions completed and collisions caused (R68, R71), those
    tied on all three in one group (in seat order)."""
    players = st["players"]
    ff, mc, co = st["fireflies"], st["missions_completed"], st["collisions"]
    stat = {p: (-ff[p], -mc[p], co[p]) for p in players}
    ordered = sorted(players, key=lambda p: (stat[p], players.index(p)))
    groups: list[list[str]] = []
    for p in ordered:
        if groups and stat[groups[-1][0]] == stat[p]:
            groups[-1].append(p)
        else:
            groups.append([p])
    return groups


def ask_gamewide(rd: Round, groups: list[list[str]], provisional: bool, decisions: Mapping[str, Any]
                 ) -> tuple[dict[int, list[str]], list[str]]:
    """The Gamewide Tiebreak (R71, A32) for a full tie at the top or the bottom: a ranking the host
    enters. Writes an entered ranking into `groups`; returns those ranked and the keys still pending."""
    st = rd.st
    ff, mc, co = st["fireflies"], st["missions_completed"], st["collisions"]
    r = st["round"] - 1
    top, bottom = groups[0], groups[-1]
    ranked: dict[int, list[str]] = {}       # group index -> the entered ranking
    pending: list[str] = []
    for gi, g in dict.fromkeys(((0, tuple(top)), (len(groups) - 1, tuple(bottom)))):
        if len(g) < 2 or provisional:
            continue
        key = "gamewide:" + ",".join(g)
        what = ("the winner and the Elimination Candidate" if len(groups) == 1 else
                "the winner" if gi == 0 else "the Elimination Candidate")
        rd.requests.append(DecisionRequest(
            key, f"Gamewide Tiebreak: rank {', '.join(g)}, best first. They are tied on fireflies "
                 f"({ff[g[0]]}), missions completed ({mc[g[0]]}) and collisions caused ({co[g[0]]}); "
                 f"the ranking decides {what}.",
            DecisionKind.RANKING, tuple(g), round=r,
            default=f"{what} is not decided" + (": the winner's garnet and Tokens of Life wait for it"
                                                if gi == 0 else ""), who="the host"))
        entered = decisions.get(key)
        if entered is not None and sorted(entered) == sorted(g):
            ranked[gi] = list(entered)
            groups[gi] = list(entered)
            rd.host_log.append(f"gamewide tiebreak ({key}): {', '.join(entered)} (R71, A32)")
        else:
            pending.append(key)
            rd.host_log.append(f"gamewide tiebreak among {', '.join(g)}: not entered yet (decision {key})")
    return ranked, pending


def tie_steps(st: State, groups: list[list[str]], ranked: Mapping[int, list[str]]) -> list[dict[str, Any]]:
    """The tie-break step that separated each pair of neighbours tied on fireflies (R71)."""
    ff, mc, co = st["fireflies"], st["missions_completed"], st["collisions"]
    last = len(groups) - 1
    steps = []
    for gi, g in enumerate(groups):
        for a, b in zip(g, g[1:]):
            # a full tie at the top or the bottom waits for the ranking; one in between needs none
            by = "gamewide" if gi in ranked else "pending" if gi in (0, last) else "not needed"
            steps.append({"above": a, "below": b, "by": by, "above_value": 0, "below_value": 0})
        if gi + 1 < len(groups):
            a, b = g[-1], groups[gi + 1][0]
            if ff[a] == ff[b]:
                if mc[a] != mc[b]:
                    steps.append({"above": a, "below": b, "by": "missions", "above_value": mc[a],
                                  "below_value": mc[b]})
                else:
                    steps.append({"above": a, "below": b, "by": "collisions", "above_value": co[a],
                                  "below_value": co[b]})
    return steps


def pay_end_garnets(rd: Round, winner: str | None, conversions: Mapping[str, int]) -> None:
    """The winner's garnet (R69) and every player's 1 garnet per 30 fireflies (R73, A31)."""
    ff = rd.st["fireflies"]
    if winner is not None:
        rd.ledger.append(LedgerEntry(winner, 1, LedgerReason.MM_WINNER.value,
                                     "the single player with the most fireflies (R69)"))
    for p in rd.players:
        if conversions[p]:
            rd.ledger.append(LedgerEntry(p, conversions[p], LedgerReason.FIREFLY_CONVERSION.value,
                                         f"{ff[p]} fireflies: 1 garnet per 30 (R73)"))


def final_facts(st: State) -> list[Any]:
    """The end as facts (R68-R73, A35), from the state's final result."""
    f = st["final"]
    ff, mc, co = st["fireflies"], st["missions_completed"], st["collisions"]
    out: list[Any] = []
    for p in f["order"]:
        out.append(FinalCount(f["places"][p], p, ff[p], mc[p] if f["shown"][p]["missions"] else None,
                              co[p] if f["shown"][p]["collisions"] else None))
    out += [TieBreakStep(s["above"], s["below"], ff[s["above"]], s["by"], s["above_value"], s["below_value"])
            for s in f["steps"]]
    out.append(MainMatchResult(f["winner"], f["ec"], tuple(f["manual_pending"]) + tuple(f["pending"])))
    if not f["manual_pending"]:
        out += [FireflyGarnets(p, ff[p], f["conversions"][p]) for p in f["order"] if f["conversions"][p]]
    out += [FinalStats(p, ff[p], mc[p], co[p], audience=HOST_ONLY) for p in f["order"]]
    return out


def _round_copy(state: State) -> State:
    """The state a round resolves into. Only what a round writes in place is copied (a JSON round trip
    of the whole state cost more than the round): the per-player dicts whose values it replaces, the
    histories it appends to, the missions it updates. Options, players, the board and the final result
    are never written in place (the board and the result are replaced)."""
    st = dict(state)
    for key in ("nodes", "border_colour", "fireflies", "missions_completed", "collisions", "last_actions"):
        if key in st:
            st[key] = dict(st[key])
    if "history" in st:
        st["history"] = {p: list(h) for p, h in st["history"].items()}
    if "pending_manual" in st:
        st["pending_manual"] = list(st["pending_manual"])
    # A round writes only open missions presented by now (acceptances, completions, penalties,
    # closing); later ones are replaced from the table, finished ones are only read.
    r = st["round"]
    st["missions"] = [_mission_copy(m) if m["status"] == "open" and m["round"] <= r else m
                      for m in st["missions"]]
    return st
