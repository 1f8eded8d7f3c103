"""Skeld's end of the Main Match (section d): the normal winner, the Parasite winner, the
Elimination Candidate and the Gamewide Tiebreak the host enters as a ranking (R49, A29), and the
Outcome they make."""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from ...core.decisions import DecisionKind, DecisionRequest
from ...core.types import Award, Outcome, State
from .content import (GT_EC, GT_RUNNER_UP, GT_WINNER, SEQUENCES, and_names, counted, pieces, sequence_value,
                      total_value)
from .facts import Ending, MainMatchResult
from .options import EcMetric, Options, PlanterWasWinnerEc, options_of

_Key = Callable[[str], tuple]    # a player's normal-winner key, higher is better
_Metric = Callable[[str], int]   # a player's EC metric, lower goes


def _normal_ranking(comps: Mapping[str, Sequence[str]], seqs: Sequence[str], opts: Options) -> tuple[_Key, str]:
    """The normal winner's key (higher is better) and its description (R45-R48, R50, A30)."""
    if not seqs:
        return (lambda p: (total_value(comps[p]),)), "the highest total Sequence Value after the last round"
    if len(seqs) == 1:
        s = seqs[0]
        return ((lambda p: (pieces(comps[p], s), sequence_value(comps[p], s))),
                f"most {SEQUENCES[s]} pieces, then {SEQUENCES[s]} Sequence Value")

    def key(p):
        vals = [sequence_value(comps[p], s) for s in seqs]
        if opts.multi_seq_use_piece_count:
            return (max(pieces(comps[p], s) for s in seqs), max(vals), sum(vals))
        return (max(vals), sum(vals))
    basis = "the highest single Sequence Value, then the sum over the activated Sequences"
    if opts.multi_seq_use_piece_count:
        basis = "most pieces in one activated Sequence, then " + basis
    return key, basis


def _ec_metric(comps: Mapping[str, Sequence[str]], seqs: Sequence[str], opts: Options) -> tuple[_Metric, str]:
    """The EC metric, lower goes (R51, R61, A27, A31), and its description."""
    if not seqs:
        return (lambda p: total_value(comps[p])), "total Sequence Value"
    if len(seqs) == 1 or opts.multi_seq_ec_metric == EcMetric.SUM:
        name = ("Sequence Value in the activated Sequence" if len(seqs) == 1
                else "sum of Sequence Values over the activated Sequences")
        return (lambda p: sum(sequence_value(comps[p], s) for s in seqs)), name
    return ((lambda p: max(sequence_value(comps[p], s) for s in seqs)),
            "best Sequence Value among the activated Sequences")


def _group(players: Sequence[str], key: Callable[[str], Any], best: bool) -> list[str]:
    """The players with the best (or worst) key, in the given order."""
    if not players:
        return []
    keys = {p: key(p) for p in players}
    target = max(keys.values()) if best else min(keys.values())
    return [p for p in players if keys[p] == target]


def gt_pick(group: Sequence[str], ranking: Sequence[str] | None, best: bool) -> str | None:
    """The Gamewide Tiebreak's pick in `group` from the host's ranking (best first): the first
    for a win, the last for the Elimination Candidate; None if the ranking does not rank them all.

    >>> gt_pick(["Bo", "Ann"], ["Ann", "Bo"], best=True), gt_pick(["Bo", "Ann"], ["Ann", "Bo"], best=False)
    ('Ann', 'Bo')
    """
    if not ranking:
        return None
    order = [p for p in ranking if p in group]
    if sorted(order) != sorted(group):
        return None
    return order[0] if best else order[-1]


def _elimination(players: Sequence[str], pw: str | None, nw: str, improper: Sequence[str], metric: _Metric,
                 mname: str, nw_key: _Key, opts: Options,
                 decisions: Mapping[str, Any]) -> tuple[str | None, str, Any, str]:
    """The EC once the normal winner `nw` is known (section d step 5): (EC or None, the rule
    that chose them, the DecisionRequest of the Gamewide Tiebreak when a tie needs it, the rule's
    code in EC_RULES)."""
    winner = pw or nw
    if pw and pw != nw:  # R60
        return nw, "the player who would have won without the Parasite", None, "would_have_won"
    if pw and pw == nw:  # A28
        mode = opts.planter_was_winner_ec
        if mode == PlanterWasWinnerEc.LITERAL:
            return pw, "the planter, who would have won anyway", None, "planter_anyway"
        if mode == PlanterWasWinnerEc.RUNNER_UP:
            group = _group([p for p in players if p != pw], nw_key, best=True)
            if len(group) == 1:
                return group[0], "the runner-up", None, "runner_up"
            req = DecisionRequest(
                GT_RUNNER_UP, f"Gamewide Tiebreak: {and_names(group)} are tied for runner-up. Rank them, best first: "
                "the first goes to the Elimination Candidate.", DecisionKind.RANKING, tuple(group),
                default="no Elimination Candidate yet")
            pick = gt_pick(group, decisions.get(GT_RUNNER_UP), best=True)
            return (pick, "the runner-up, by the Gamewide Tiebreak", req, "runner_up") if pick else (None, "", req, "")
    excluded = set() if opts.winner_can_be_ec else {winner}
    candidates = [p for p in improper if p not in excluded]
    if candidates:  # R61, R63, A25
        rule, code = f"the improper planter with the lowest {mname}", "improper_planter"
    else:  # R51, A26
        candidates = [p for p in players if p not in excluded]
        rule, code = f"the lowest {mname}" + (" among the other players" if excluded else ""), "lowest_metric"
    group = _group(candidates, metric, best=False)
    if len(group) == 1:
        return group[0], rule, None, code
    # Asked while the tie stands, entered or not, so that an entered ranking can still be corrected.
    req = DecisionRequest(
        GT_EC, f"Gamewide Tiebreak: {and_names(group)} are tied for the Elimination Candidate ({rule}). Rank them, "
        "best first: the last goes to the Elimination Candidate.", DecisionKind.RANKING, tuple(group),
        default="no Elimination Candidate yet")
    pick = gt_pick(group, decisions.get(GT_EC), best=False)
    return (pick, rule + ", then the Gamewide Tiebreak", req, code) if pick else (None, "", req, "")


def decide(players: Sequence[str], comps: Mapping[str, Sequence[str]], seqs: Sequence[str],
           plants: Sequence[Mapping[str, Any]], given: Options | Mapping[str, Any],
           decisions: Mapping[str, Any] | None = None) -> dict:
    """Winner, Token of Life and EC (section d). `seqs`: letters of the Sequences activated in the
    final round (empty: the round limit). `plants`: every plant of the match with its verdict
    (plant_verdicts). `decisions`: the Gamewide Tiebreak rankings entered so far (R49, A29);
    a tie they do not settle leaves the result pending and asks for one in "requests"."""
    opts = given if isinstance(given, Options) else Options.of(given)
    decisions = decisions or {}
    players = sorted(players)
    reasons: list[str] = []
    requests: list[DecisionRequest] = []
    nw_key, basis = _normal_ranking(comps, seqs, opts)
    nw_group = _group(players, nw_key, best=True)
    nw = nw_group[0] if len(nw_group) == 1 else gt_pick(nw_group, decisions.get(GT_WINNER), best=True)
    pw_plant = next((pl for pl in plants if pl.get("verdict") == "correct"), None)
    pw = pw_plant["player"] if pw_plant else None
    if len(nw_group) > 1:
        tied = and_names(nw_group)
        if pw:
            requests.append(DecisionRequest(
                GT_WINNER, f"Gamewide Tiebreak: {tied} are tied for who would have won without the Parasite "
                f"({basis}). Rank them, best first: the first would have won and goes to the Elimination Candidate.",
                DecisionKind.RANKING, tuple(nw_group), default="no Elimination Candidate yet"))
        else:
            requests.append(DecisionRequest(
                GT_WINNER, f"Gamewide Tiebreak: {tied} are tied for the win ({basis}). Rank them, best first: the "
                "first wins the Main Match and its Token of Life.", DecisionKind.RANKING, tuple(nw_group),
                default=f"no winner yet: {tied} are tied at the top and no Token of Life is given"))
    tied_plants = [pl for pl in plants if pl.get("verdict") == "tied"]
    if tied_plants:
        reasons.append(f"Plants tied at {tied_plants[0]['energy']} Energy by "
                       f"{and_names(sorted(pl['player'] for pl in tied_plants))}: the planting fails.")
    if pw:
        assert pw_plant is not None   # pw is its planter
        winner, method = pw, "parasite"
        reasons.append(f"{pw} planted the Parasite with the most Energy ({pw_plant['energy']}) in the round the "
                       "Sequence was activated and wins the Main Match.")
        if len(nw_group) > 1:
            reasons.append(f"Without the Parasite, {and_names(nw_group)} are tied on {basis}: "
                           + (f"the Gamewide Tiebreak puts {nw} first." if nw else "the Gamewide Tiebreak decides."))
    else:
        winner, method = nw, "normal"
        if nw and len(nw_group) > 1:
            reasons.append(f"{and_names(nw_group)} are tied on {basis}; the Gamewide Tiebreak puts {nw} first: "
                           f"{nw} wins.")
        elif nw:
            reasons.append(f"{nw} wins by {basis}.")
        else:
            reasons.append(f"{and_names(nw_group)} are tied on {basis}: the Gamewide Tiebreak decides the winner.")
    winners = [winner] if winner else []   # a tie waiting for the Gamewide Tiebreak names nobody yet
    improper = sorted({pl["player"] for pl in plants if pl.get("improper")})
    metric, mname = _ec_metric(comps, seqs, opts)
    if nw is not None:
        ec, ec_rule, req, ec_code = _elimination(players, pw, nw, improper, metric, mname, nw_key, opts, decisions)
        ec_by_gt = ec is not None and req is not None   # the ranking is asked for exactly while a tie stands
        if req is not None:
            requests.append(req)
    else:  # the EC may not depend on who wins the tie: settle it if every outcome agrees
        found = [_elimination(players, pw, cand, improper, metric, mname, nw_key, opts, decisions)
                 for cand in nw_group]
        ec, ec_rule, req, ec_code = found[0] if len({f[0] for f in found}) == 1 else (None, "", None, "")
        ec_by_gt = ec is not None and req is not None
        if ec is None:
            reasons.append("The Elimination Candidate is known once the Gamewide Tiebreak settles the tie above.")
    if ec:
        reasons.append(f"Elimination Candidate: {ec}, {ec_rule}.")
    numbers = {p: _numbers_text(comps[p], seqs) for p in players}
    gt = {p: i for i, p in enumerate(decisions.get(GT_WINNER) or [])}
    order = sorted(players, key=lambda p: (p not in (winners or nw_group), tuple(-x for x in nw_key(p)),
                                           gt.get(p, 99), p))
    return {"winners": winners, "winner": winner, "method": method, "normal_winner": nw, "normal_group": nw_group,
            "ec": ec, "ec_rule": ec_rule, "ec_code": ec_code if ec else "", "ec_by_gt": ec_by_gt,
            "parasite_winner": pw, "parasite_energy": pw_plant["energy"] if pw_plant else None,
            "no_parasite_winner": _no_parasite_winner(plants, seqs) if not pw else "",
            "tied_planters": sorted(pl["player"] for pl in tied_plants), "reasons": reasons, "requests": requests,
            "numbers": numbers, "order": order, "improper": improper, "sequences": list(seqs)}


def _numbers_text(held: Sequence[str], seqs: Sequence[str]) -> str:
    """The numbers behind the result for one player's components (section c)."""
    if not seqs:
        return f"total Sequence Value {total_value(held)} ({len(held)} components)"
    text = "; ".join(f"{SEQUENCES[s]}: {counted(pieces(held, s), 'piece')}, value {sequence_value(held, s)}"
                     for s in seqs)
    return text + (f"; sum {sum(sequence_value(held, s) for s in seqs)}" if len(seqs) > 1 else "")


def _no_parasite_winner(plants: Sequence[Mapping[str, Any]], seqs: Sequence[str]) -> str:
    """Why no plant won (section d step 3): "round_limit" (no Sequence, so no Parasite win), "tied"
    (the top V Energy tied: every plant fails, A24), "wrong_target" (A22) or "no_plant"."""
    if not seqs:
        return "round_limit"
    verdicts = {pl.get("verdict") for pl in plants}
    return "tied" if "tied" in verdicts else "wrong_target" if "wrong_target" in verdicts else "no_plant"


def outcome(state: State, decisions: Mapping[str, Any] | None = None) -> Outcome | None:
    """Winner, Token of Life and EC (section d). A tie the rules leave to the Gamewide Tiebreak
    (R49, A29) asks the host for a ranking ("gt-winner", "gt-ec", "gt-runner-up"); until it
    is entered the tied result is pending: no Token of Life, or no EC."""
    if not state["finished"] or not state.get("end"):
        return None
    end = state["end"]
    res = decide(state["players"], state["components"], end["sequences"], state["plants"],
                 options_of(state), decisions)
    winners = tuple(res["winners"])
    contenders = winners or tuple(res["normal_group"])   # while the winner is pending: the tied players
    losers = tuple(p for p in res["order"] if p not in contenders)
    awards = ((Award(res["winner"], "Token of Life", 1, "Skeld winner" if res["method"] == "normal"
                     else "Skeld winner by planting the Parasite"),) if res["winner"] else ())
    standings = tuple((p, res["numbers"][p]) for p in res["order"])
    seqs, comps = end["sequences"], state["components"]
    if not seqs:    # the Sequence Value the end is judged on (R46, R47, R50)
        scores = {p: float(total_value(comps[p])) for p in state["players"]}
    else:
        scores = {p: float(max(sequence_value(comps[p], s) for s in seqs)) for p in state["players"]}
    ending = (Ending.PARASITE if res["method"] == "parasite" else Ending.ROUNDS_OUT if not seqs
              else Ending.SEQUENCE if len(seqs) == 1 else Ending.SEQUENCES)
    if res["method"] == "normal" and len(res["normal_group"]) > 1:
        ending = ending.with_tiebreak()   # decided (or still to be decided) by the Gamewide Tiebreak
    result = MainMatchResult(res["normal_winner"], tuple(res["normal_group"]) if len(res["normal_group"]) > 1
                             else (), res["parasite_winner"], res["parasite_energy"], res["no_parasite_winner"],
                             tuple(res["tied_planters"]), res["winner"], res["method"], res["ec"],
                             res["ec_code"], res["ec_by_gt"])
    return Outcome(winners, losers, res["ec"], standings, tuple(res["reasons"]), awards,
                   requests=tuple(res["requests"]), facts=(result,), scores=scores, ending=ending.value)
