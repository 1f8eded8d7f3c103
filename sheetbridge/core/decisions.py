"""Decisions the rules leave to people: the winners' vote, a gamewide ranking, a manual mission.

A game asks for one with a :class:`DecisionRequest` (in a round's result, or in the
outcome); until the host enters it, the outcome says "pending: ..." and the request's
``default`` applies. Entered decisions are inputs like submissions: kept in the record,
handed to the game (``RoundInput.decisions``, ``outcome(state, decisions)``) and
replayed by undo. Entering one for a round already resolved re-resolves from that round.

>>> req = DecisionRequest("ec-vote", "Who goes to the Elimination Candidate?", DecisionKind.CHOICE,
...                       ("Bo", "Cy"))
>>> req.read(" bo ")
'Bo'
>>> DecisionRequest("rank", "Gamewide tiebreak order", DecisionKind.RANKING, ("Ann", "Bo", "Cy")).read("cy, ann, bo")
('Cy', 'Ann', 'Bo')
>>> DecisionRequest("r3:M7", "Who completed mission 7?", DecisionKind.SUBSET, ("Ann", "Bo", "Cy")).read("cy, ann")
('Ann', 'Cy')
>>> vote = DecisionRequest("ec-vote", "Who goes?", DecisionKind.BALLOTS, ("Fay", "Ivy"), voters=("Ann", "Bo"),
...                        results_alone=("no majority",))
>>> vote.read("bo: ivy; Ann: Fay"), vote.read("No majority")
({'Ann': 'Fay', 'Bo': 'Ivy'}, 'no majority')
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from .parsing import clean, parse_int, split_list, yes_no
from .types import register_types


class DecisionKind(enum.Enum):
    CHOICE = "choice"      # one of `choices`
    RANKING = "ranking"    # every one of `choices`, in order, best first
    YESNO = "yesno"        # yes or no
    NUMBER = "number"      # a whole number
    SUBSET = "subset"      # any of `choices` (possibly none), e.g. who completed a manual mission
    BALLOTS = "ballots"    # each of `voters` names one of `choices` ("Ann: Fay; Bo: Ivy"); or the result
                           # alone, where a host prefers it: one of `choices` or `results_alone`


@dataclass(frozen=True)
class DecisionRequest:
    """One decision a game needs from the host (or from players, entered by the host)."""
    key: str                         # stable id: "ec-vote", "r3:manual-mission:Ann:M7"
    question: str                    # in the players' words, for the Decisions tab and the CLI
    kind: DecisionKind = DecisionKind.CHOICE
    choices: tuple[str, ...] = ()
    round: int | None = None         # the round whose resolution uses it; None: the outcome only
    default: str = ""                # what applies until it is entered, said plainly
    who: str = "the host"            # who decides ("the winners, by vote", "the host")
    voters: tuple[str, ...] = ()     # BALLOTS: who votes, one ballot each
    results_alone: tuple[str, ...] = ()   # BALLOTS: results a host may enter alone besides a choice

    def allowed(self) -> str:
        if self.kind is DecisionKind.CHOICE:
            return "one of " + ", ".join(self.choices)
        if self.kind is DecisionKind.RANKING:
            return "all of " + ", ".join(self.choices) + ", in order, best first, separated by commas"
        if self.kind is DecisionKind.YESNO:
            return "yes or no"
        if self.kind is DecisionKind.SUBSET:
            return "any of " + ", ".join(self.choices) + ", separated by commas, or none"
        if self.kind is DecisionKind.BALLOTS:
            example = "; ".join(f"{v}: {self.choices[0]}" for v in self.voters[:2]) if self.choices else ""
            return (f"one ballot per voter ({', '.join(self.voters)}), each naming one of {', '.join(self.choices)}, "
                    f"as '{example}'; or the result alone: one of {', '.join((*self.choices, *self.results_alone))}")
        return "a whole number"

    def read(self, text: Any) -> Any:
        """The value typed by the host, normalised; ValueError says what is allowed."""
        s = clean(text)
        if self.kind is DecisionKind.CHOICE:
            for c in self.choices:
                if c.casefold() == s.casefold():
                    return c
        elif self.kind is DecisionKind.RANKING:
            items = split_list(s, (",", ";", ">", "\n"))
            by_name = {c.casefold(): c for c in self.choices}
            order = tuple(by_name.get(i.casefold(), "") for i in items)
            if "" not in order and sorted(order) == sorted(self.choices) and len(set(order)) == len(order):
                return order
        elif self.kind is DecisionKind.SUBSET:
            if s.casefold() in ("none", "nobody", "-"):
                return ()
            by_name = {c.casefold(): c for c in self.choices}
            picked = [by_name.get(i.casefold(), "") for i in split_list(s, (",", ";", "\n"))]
            if picked and "" not in picked and len(set(picked)) == len(picked):
                return tuple(c for c in self.choices if c in picked)   # in the order of `choices`
        elif self.kind is DecisionKind.BALLOTS:
            return read_ballots(self, s)
        elif self.kind is DecisionKind.YESNO:
            v = yes_no(s)
            if v is not None and s:
                return v
        else:
            number = parse_int(s)
            if number is not None:
                return number
        shown = s if len(s) <= 40 else s[:39] + "\u2026"
        raise ValueError(f"decision {self.key}: {shown!r} is not allowed; enter {self.allowed()}")


def read_ballots(req: DecisionRequest, text: str) -> dict[str, str] | str:
    """A BALLOTS value: {voter: choice} in the order of `voters`, or the result alone (a string).
    ValueError names the ballot to fix: a voter unknown, missing or twice, a choice not allowed."""
    alone = {c.casefold(): c for c in (*req.choices, *req.results_alone)}
    if text.casefold() in alone:
        return alone[text.casefold()]
    voters = {v.casefold(): v for v in req.voters}
    choices = {c.casefold(): c for c in req.choices}
    ballots: dict[str, str] = {}
    problem = ""
    for item in split_list(text, (";", ",", "\n")):
        voter, colon, choice = (clean(x) for x in item.partition(":"))
        if not colon:
            problem = f"{item!r} is not a ballot 'voter: choice'"
        elif voter.casefold() not in voters:
            problem = f"{voter!r} is not a voter (voters: {', '.join(req.voters)})"
        elif voters[voter.casefold()] in ballots:
            problem = f"{voters[voter.casefold()]} votes twice"
        elif choice.casefold() not in choices:
            problem = f"{voters[voter.casefold()]} names {choice!r}, not one of {', '.join(req.choices)}"
        else:
            ballots[voters[voter.casefold()]] = choices[choice.casefold()]
            continue
        break
    missing = [v for v in req.voters if v not in ballots]
    if not problem and missing:
        problem = f"no ballot from {', '.join(missing)}"
    if problem:
        shown = text if len(text) <= 40 else text[:39] + "\u2026"
        raise ValueError(f"decision {req.key}: {shown!r}: {problem}; enter {req.allowed()}")
    return {v: ballots[v] for v in req.voters}


def ballots_text(ballots: dict[str, str]) -> str:
    """Ballots as a host types them ("Ann: Fay; Bo: Ivy"): what the Decisions tab shows and reads back."""
    return "; ".join(f"{voter}: {choice}" for voter, choice in ballots.items())


def pending_text(req: DecisionRequest) -> str:
    """How an outcome names a decision still missing (players read it: no command, no key)."""
    tail = f" Until it is entered: {req.default}." if req.default else ""
    return f"Pending, for {req.who}: {req.question}{tail}"


register_types(DecisionRequest, DecisionKind)
