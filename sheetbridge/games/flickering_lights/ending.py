"""The end of the match, which the ruleset leaves open (A30, A31): the ranking by five-round totals
(ties to the host, or broken by rounds won), the host's tie decisions, the outcome and the garnets
the host's options pay.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping

from ...core.decisions import DecisionKind, DecisionRequest
from ...core.types import LedgerEntry, Outcome
from .facts import EC_TIE, SHARED, WINNER_TIE, Ending, FinalTotal, LedgerReason
from .options import options_of
from .spec import ROUNDS
from .state import FlickeringState, PlayedRound

def rounds_won(st: FlickeringState) -> dict[str, int]:
    return {p: sum(1 for h in st["history"] if won(h, p)) for p in st["players"]}


def ranking(st: FlickeringState) -> tuple[list[str], list[str], list[str]]:
    """Players best first, those tied for the highest and for the lowest (A30)."""
    totals = st["totals"]
    wins = rounds_won(st)
    key: Callable[[str], tuple[Any, ...]]
    val: Callable[[str], tuple[int, ...]]
    if options_of(st).end_of_match == "total_rounds_won":
        key = lambda p: (-totals[p], -wins[p], p)  # noqa: E731
        val = lambda p: (totals[p], wins[p])  # noqa: E731
    else:
        key = lambda p: (-totals[p], p)  # noqa: E731
        val = lambda p: (totals[p],)  # noqa: E731
    order = sorted(st["players"], key=key)
    top = [p for p in order if val(p) == val(order[0])]
    low = [p for p in order if val(p) == val(order[-1])]
    return order, top, low


def won(h: PlayedRound, p: str) -> bool:
    """A round 'won' by the player's side: their team had strictly more (the +8), or the
    Mediator scored the winning team's points (the A30 tiebreak)."""
    red, blue = h["score"]["total"]
    t = h["assign"][p]["team"]
    if t == "Red":
        return red > blue
    if t == "Blue":
        return blue > red
    return red != blue and h["points"][p] == max(
        h["points"][q] for q in h["assign"] if h["assign"][q]["team"] != "White")


def tie_requests(st: FlickeringState) -> list[DecisionRequest]:
    """A30: ties for the win or the Elimination Candidate go to the host, with what the rounds each
    player's side won would say. They belong to the last round, whose ledger pays the winner and the
    EC (A31), so entering one re-resolves it."""
    _, top, low = ranking(st)
    totals, won = st["totals"], rounds_won(st)
    out = []

    def hint(tied: list[str], pick: Callable) -> str:
        edge = pick(won[p] for p in tied)
        by = [p for p in tied if won[p] == edge]
        shown = ", ".join(f"{p} {won[p]}" for p in tied)
        return (f"the rounds each side won would pick {by[0]} ({shown})" if len(by) == 1
                else f"the rounds each side won are tied too ({shown})")

    if len(top) > 1:
        out.append(DecisionRequest(
            WINNER_TIE, f"{', '.join(top)} tie for the highest total ({totals[top[0]]}): who wins the Main "
            f"Match? ('{SHARED}' for a joint win)", DecisionKind.CHOICE, tuple(top) + (SHARED,), round=ROUNDS,
            default=f"no winner yet; {hint(top, max)}"))
    if len(low) > 1:
        out.append(DecisionRequest(
            EC_TIE, f"{', '.join(low)} tie for the lowest total ({totals[low[0]]}): who goes to the Elimination "
            "Candidate?", DecisionKind.CHOICE, tuple(low), round=ROUNDS,
            default=f"no Elimination Candidate yet; {hint(low, min)}"))
    return out


def decided(st: FlickeringState, decisions: Mapping[str, Any]) -> tuple[tuple[str, ...], str | None]:
    """The winners and the EC once the host's tie decisions apply; while a tie waits for the host,
    no winner (empty) or no EC (None)."""
    _, top, low = ranking(st)
    pick = decisions.get(WINNER_TIE)
    if len(top) == 1 or pick == SHARED:
        winners = tuple(top)
    else:
        winners = (pick,) if pick in top else ()
    ec_pick = decisions.get(EC_TIE)
    ec = low[0] if len(low) == 1 else (ec_pick if ec_pick in low else None)
    return winners, ec


def outcome(state: FlickeringState, decisions: Mapping[str, Any] | None = None) -> Outcome | None:
    """Winner(s) and EC by five-round totals (A30); a tie is a decision of the host (requests
    "winner-tie", "ec-tie"), pending until entered: no winner or no EC meanwhile."""
    if not state["finished"]:
        return None
    decisions = decisions or {}
    order, top, low = ranking(state)
    totals, won = state["totals"], rounds_won(state)
    winners, ec = decided(state, decisions)
    reasons = ["The ruleset does not say how the match is won: the highest five-round total wins and "
               "the lowest goes to the Elimination Candidate."]
    if options_of(state).end_of_match == "total_rounds_won":
        reasons.append("Equal totals are broken by the number of rounds the player's side won.")
    if len(top) == 1:
        reasons.append(f"{top[0]} has the highest total ({totals[top[0]]}).")
    elif decisions.get(WINNER_TIE) == SHARED:
        reasons.append(f"{', '.join(top)} tie for the highest total ({totals[top[0]]}); the host made it a "
                       "joint win.")
    elif len(winners) == 1:
        reasons.append(f"{', '.join(top)} tie for the highest total ({totals[top[0]]}); the host chose "
                       f"{winners[0]}.")
    else:
        reasons.append(f"{', '.join(top)} tie for the highest total ({totals[top[0]]}).")
    if len(low) == 1:
        reasons.append(f"{ec} has the lowest total ({totals[low[0]]}) and goes to the Elimination Candidate.")
    elif ec is not None:
        reasons.append(f"{', '.join(low)} tie for the lowest total ({totals[low[0]]}); the host chose {ec} "
                       "for the Elimination Candidate.")
    else:
        reasons.append(f"{', '.join(low)} tie for the lowest total ({totals[low[0]]}).")
    requests = tuple(tie_requests(state))
    standings = tuple((p, f"{totals[p]} points") for p in order)
    facts = tuple(FinalTotal(p, totals[p], won[p]) for p in order)
    pick = decisions.get(WINNER_TIE)
    ending = (Ending.SINGLE_WINNER if len(top) == 1 else Ending.SHARED_WIN if pick == SHARED
              else Ending.TIE_DECIDED if len(winners) == 1 else Ending.TIE_PENDING)
    return Outcome(winners=winners, losers=tuple(low), elimination_candidate=ec, standings=standings,
                   reasons=tuple(reasons), requests=requests, facts=facts,
                   scores={p: float(totals[p]) for p in state["players"]}, ending=ending.value)


def end_ledger(st: FlickeringState, balances: Mapping[str, int], decisions: Mapping[str, Any]) -> list[LedgerEntry]:
    """A31: no garnets unless the host set an option; never below 0."""
    opts = options_of(st)
    out: list[LedgerEntry] = []
    bal = dict(balances)
    per = opts.garnets_per_points
    if per > 0:
        for p in st["players"]:
            n = max(0, st["totals"][p]) // per
            if n:
                out.append(LedgerEntry(p, n, LedgerReason.POINTS.text(total=st['totals'][p], per=per)))
                bal[p] = bal.get(p, 0) + n
    winners, ec = decided(st, decisions)
    if opts.winner_garnets and len(winners) == 1:
        n = max(opts.winner_garnets, -bal.get(winners[0], 0))
        if n:
            out.append(LedgerEntry(winners[0], n, LedgerReason.WINNER.value))
            bal[winners[0]] = bal.get(winners[0], 0) + n
    if opts.ec_garnets and ec is not None:
        n = max(opts.ec_garnets, -bal.get(ec, 0))
        if n:
            out.append(LedgerEntry(ec, n, LedgerReason.ELIMINATION_CANDIDATE.value))
    return out

