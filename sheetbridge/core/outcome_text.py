"""The end of a game as players read it: who won, who goes to the Elimination Candidate, the awards.

Public text: it carries no instruction for the host (what the host still has to enter is in
``Outcome.pending``, shown in the master's host log and by ``sheetbridge decide``), no line
twice, and counts agree with their nouns.

>>> plural(2, "Token of Life"), plural(1, "entry"), plural(3, "entry"), plural(2, "cosmos")
('2 Tokens of Life', '1 entry', '3 entries', '2 cosmos')
>>> from sheetbridge.core.types import Award, Outcome
>>> out = Outcome((), ("Cy",), "Cy", (), ("Ann, Bo tie for the highest total.",))
>>> outcome_lines(out, [DecisionRequest("winner-tie", "Ann, Bo tie: who wins?")])
['The winner will be announced after the tiebreak.', 'Loser: Cy', 'Elimination Candidate: Cy', 'Ann, Bo tie for the highest total.']
>>> outcome_lines(Outcome(("Eli",), (), None, (), (), (Award("Eli", "Token of Life", 2, "single winner"),)), [])
['Winner: Eli', 'Eli: 2 Tokens of Life (single winner)']
"""
from __future__ import annotations

from typing import Sequence

from .decisions import DecisionKind, DecisionRequest
from .types import Outcome

_IRREGULAR = {"cosmos": "cosmos", "Cosmos": "Cosmos"}


def plural_noun(noun: str, count: int) -> str:
    """`noun` agreeing with `count`: "Token of Life" -> "Tokens of Life", "entry" -> "entries"."""
    if count == 1:
        return noun
    head, of, tail = noun.partition(" of ")
    if head in _IRREGULAR:
        head = _IRREGULAR[head]
    elif head.endswith("y") and head[-2:-1] not in tuple("aeiou"):
        head = head[:-1] + "ies"
    elif head.endswith(("s", "x", "ch", "sh")):
        head += "es"
    else:
        head += "s"
    return head + of + tail


def plural(count: int, noun: str) -> str:
    """"1 entry", "2 entries"."""
    return f"{count} {plural_noun(noun, count)}"


def names_line(one: str, many: str, names: Sequence[str]) -> str:
    return f"{one if len(names) == 1 else many}: {', '.join(names)}"


def waiting_for(requests: Sequence[DecisionRequest]) -> str:
    """What the players wait for, in their words (never a command or a decision key)."""
    if any(r.kind is DecisionKind.BALLOTS for r in requests):
        return "the winners' vote"
    if any("winner" in r.who for r in requests):
        return "the winner's choice"
    if any(r.kind is DecisionKind.RANKING or "tie" in r.question.casefold() for r in requests):
        return "the tiebreak"
    return "the host's decision"


def outcome_lines(out: Outcome, open_requests: Sequence[DecisionRequest]) -> list[str]:
    """The "Final result" block: winners, losers, Elimination Candidate, the game's reasons and
    awards. A name still waiting for a decision reads "will be announced after ..."; nothing
    empty is listed ("none"), and a line the game gives twice is shown once."""
    after = waiting_for(open_requests)
    lines: list[str] = []
    if out.winners:
        lines.append(names_line("Winner", "Winners", out.winners))
    elif open_requests:
        lines.append(f"The winner will be announced after {after}.")
    if out.losers:
        lines.append(names_line("Loser", "Losers", out.losers))
    if out.elimination_candidate:
        lines.append(f"Elimination Candidate: {out.elimination_candidate}")
    elif open_requests:
        lines.append(f"The Elimination Candidate will be announced after {after}.")
    # a summary a reason already says at more length ("Winner: Fay with 28 fireflies") is said once
    lines = [s for s in lines if not any(r.startswith((s + " ", s + ",")) for r in out.reasons)]
    lines += out.reasons
    lines += [f"{a.player}: {plural(a.count, a.kind)} ({a.reason})" for a in out.awards]
    return list(dict.fromkeys(lines))
