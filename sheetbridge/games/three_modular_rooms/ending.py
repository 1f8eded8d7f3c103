"""Three Modular Rooms, the end of the match: winners and their awards, the opal challenge, the
Elimination Candidate (R40-R46, A30-A32). The garnets paid at the end are a round step
(rules.end_match_or_open_next); this reads the finished state.
"""
from __future__ import annotations

from typing import Any, Mapping

from ...core.decisions import DecisionKind, DecisionRequest
from ...core.facts import HOST_ONLY, Fact
from ...core.outcome_text import plural
from ...core.types import Award, Outcome
from .facts import NO_MAJORITY, Ending, WinnersVote
from .options import Options, options_of
from .state import TmrState


def outcome(state: TmrState, decisions: Mapping[str, Any] | None = None) -> Outcome | None:
    """Winners, losers, awards and the EC (R40-R46, A30-A32). A tie for fewest points asks for
    the winners' vote (request "ec-vote"); until it is entered the garnet tie-break is only
    what would apply, and the EC is left pending."""
    if not state["finished"]:
        return None
    decisions = decisions or {}
    players, pts = state["players"], state["points"]
    top, bottom = max(pts.values()), min(pts.values())
    winners = tuple(p for p in players if pts[p] == top)
    losers = tuple(p for p in players if pts[p] == bottom)
    reasons = [f"Most points: {top} ({', '.join(winners)})."]
    requests: list[DecisionRequest] = []
    facts: list[Fact] = []
    host_log: list[str] = []
    awards = winners_awards(winners)
    awards += opal_challenge_award(state, reasons)
    ec = elimination_candidate(state, winners, losers, decisions, reasons, requests, facts, host_log)
    standings = tuple((p, plural(pts[p], "point")) for p in sorted(players, key=lambda p: (-pts[p], players.index(p))))
    ending = Ending.SINGLE_WINNER if len(winners) == 1 else Ending.SHARED_WIN
    return Outcome(winners, losers, ec, standings, tuple(reasons), tuple(awards), requests=tuple(requests),
                   facts=tuple(facts), scores={p: float(pts[p]) for p in players}, ending=ending.value,
                   host_log=tuple(host_log))


def winners_awards(winners: tuple[str, ...]) -> list[Award]:
    """A ToL for each winner; a single winner 2 ToL and an opal (R40, R41)."""
    if len(winners) == 1:
        return [Award(winners[0], "Token of Life", 2, "single winner"), Award(winners[0], "opal", 1, "single winner")]
    return [Award(w, "Token of Life", 1, "joint winner") for w in winners]


def opal_challenge_award(state: TmrState, reasons: list[str]) -> list[Award]:
    """An opal for the one completer; several share 3 garnets each instead, paid at the end (R45, R46, A30)."""
    completers = sorted({pl for _, pl in state["opal"]}, key=state["players"].index)
    if len(completers) == 1:
        reasons.append(f"Opal challenge: {completers[0]} alone completed it and receives an opal.")
        return [Award(completers[0], "opal", 1, "opal challenge")]
    if completers:
        reasons.append(f"Opal challenge: completed by {', '.join(completers)}; 3 garnets each instead of an opal.")
    else:
        reasons.append("Opal challenge: nobody completed it.")
    return []


def elimination_candidate(state: TmrState, winners: tuple[str, ...], losers: tuple[str, ...],
                          decisions: Mapping[str, Any], reasons: list[str], requests: list[DecisionRequest],
                          facts: list[Fact], host_log: list[str]) -> str | None:
    """The one with the fewest points goes to the EC; a tie goes to the winners' vote, then garnets (R42, R43, A31)."""
    bottom = min(state["points"].values())
    if len(losers) == 1:
        reasons.append(f"Fewest points: {bottom} ({losers[0]}), who goes to the Elimination Candidate.")
        return losers[0]
    if set(losers) == set(state["players"]):
        req = DecisionRequest("ec-host", "Every player is tied on points: who goes to the Elimination "
                              "Candidate?", DecisionKind.CHOICE, losers, default="no Elimination Candidate yet")
        requests.append(req)
        ec = decisions.get(req.key)
        reasons.append(f"Every player is tied on {bottom} points" + (f"; the host chose {ec} for the "
                                                                       "Elimination Candidate." if ec else "."))
        return ec
    reasons.append(f"Fewest points: {bottom}, tied between {', '.join(losers)}.")
    opts = options_of(state)
    bal = state["final_balances"] if opts.ec_garnet_timing == "after_payouts" else state["balances_before_payouts"]
    return _ec_among_tied(winners, losers, bal, opts, decisions, reasons, requests, facts, host_log)


def _ec_among_tied(winners: tuple[str, ...], losers: tuple[str, ...], bal: Mapping[str, int],
                   opts: Options, decisions: Mapping[str, Any], reasons: list[str],
                   requests: list[DecisionRequest], facts: list[Fact], host_log: list[str]) -> str | None:
    """A31 for tied losers: the winners' vote (decision "ec-vote": each winner's ballot, or the
    result alone as a host may prefer), a majority being strictly more than half of the winners;
    without one, the garnet tie-break; garnets tied too, the host ("ec-host"). None while pending."""
    pick = min if opts.ec_garnet_tiebreak == "fewest_goes" else max
    edge = pick(bal[p] for p in losers)
    by_garnets = tuple(p for p in losers if bal[p] == edge)
    counts = ", ".join(f"{p} {bal[p]}" for p in losers)
    would = (f"garnets would decide ({counts}): {by_garnets[0]}" if len(by_garnets) == 1
             else f"garnets are tied too ({counts}): the host decides among {', '.join(by_garnets)}")
    majority = len(winners) // 2 + 1
    vote = DecisionRequest(
        "ec-vote", f"The winners' vote: each winner ({', '.join(winners)}) names one of {', '.join(losers)} to go "
        f"to the Elimination Candidate; {majority} of {len(winners)} vote(s) is a majority, otherwise the garnets "
        f"decide. Enter the ballots, or the result alone ('{NO_MAJORITY}' if none).", DecisionKind.BALLOTS,
        losers, default=would, who="the winners by vote", voters=winners, results_alone=(NO_MAJORITY,))
    requests.append(vote)
    cast = _vote_entered(decisions.get(vote.key), winners, losers, majority, host_log)
    if cast is None:
        return None
    facts.append(cast)
    if cast.entered_as == "ballots":
        tally = ", ".join(f"{p} {n}" for p, n in cast.tally)
        host_log.append(f"EC vote (A31): ballots {'; '.join(f'{w}: {c}' for w, c in cast.ballots)}; tally {tally}; "
                        f"a majority is {majority} of {len(winners)}: {cast.result}")
        reasons.append(f"The winners' vote ({tally}; a majority is {majority} of {len(winners)}): "
                       + (f"{cast.result} goes to the Elimination Candidate." if cast.result != NO_MAJORITY
                          else "no majority."))
    else:
        host_log.append(f"EC vote (A31): the host entered the result alone, {cast.result}; no ballots recorded")
        if cast.result != NO_MAJORITY:
            reasons.append(f"The winners' vote: {cast.result} goes to the Elimination Candidate.")
        else:
            reasons.append("No majority in the winners' vote.")
    if cast.result != NO_MAJORITY:
        return cast.result
    if len(by_garnets) == 1:
        reasons.append(f"Garnets decide ({counts}): {by_garnets[0]} goes to the Elimination Candidate.")
        return by_garnets[0]
    host = DecisionRequest("ec-host", f"No majority and garnets tied ({counts}): who goes to the "
                           "Elimination Candidate?", DecisionKind.CHOICE, by_garnets,
                           default="no Elimination Candidate yet")
    requests.append(host)
    ec = decisions.get(host.key)
    reasons.append(f"Garnets are tied too ({counts})"
                   + (f"; the host chose {ec} for the Elimination Candidate." if ec else "."))
    return ec


def _vote_entered(entered: Any, winners: tuple[str, ...], losers: tuple[str, ...], majority: int,
                  host_log: list[str]) -> WinnersVote | None:
    """The entered "ec-vote" as a WinnersVote: ballots ({winner: tied loser}) counted, or the result
    alone (a string, also how records before issue 29 hold it). None if nothing usable is entered."""
    if isinstance(entered, str) and entered:
        return WinnersVote(winners, losers, (), (), majority, entered, "result", audience=HOST_ONLY)
    if not isinstance(entered, Mapping) or not entered:
        return None
    if sorted(entered) != sorted(winners) or any(c not in losers for c in entered.values()):
        host_log.append("EC vote (A31): the ballots entered no longer match the winners and tied losers; "
                        "enter them again")
        return None
    ballots = tuple((w, entered[w]) for w in winners)
    tally = tuple((p, sum(1 for _, c in ballots if c == p)) for p in losers)
    won = [p for p, n in tally if n >= majority]     # at most one: a majority is more than half
    return WinnersVote(winners, losers, ballots, tally, majority, won[0] if won else NO_MAJORITY, "ballots",
                       audience=HOST_ONLY)
