"""One resolved round as the record keeps it: what it was resolved from (entries, seed, balances,
tables, decisions), what it produced (facts, ledger rows, host log, decision requests) and the
reports drawn from its facts when first read. :class:`~.match.Match` makes and replays them; the
host's record tab (host/record.py) stores one per round."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from .decisions import DecisionRequest
from .ledger import LedgerRow
from .types import RawSubmission, Report, Submission, from_json, to_json


@dataclass
class RoundRecord:
    """Everything needed to replay one round, and everything it produced."""
    round: int
    seed: int
    raw: dict[str, RawSubmission | None]
    balances: dict[str, int]
    tables: dict[str, list[list[str]]]
    submissions: dict[str, Submission | None] = field(default_factory=dict)
    _public: Report | None = field(default=None, repr=False)
    _private: dict[str, Report] | None = field(default=None, repr=False)
    ledger: list[LedgerRow] = field(default_factory=list)
    host_log: list[str] = field(default_factory=list)
    facts: tuple[Any, ...] = ()        # the round as typed records (every report is drawn from them)
    requests: tuple[DecisionRequest, ...] = ()   # decisions this round leaves to the host
    decisions: dict[str, Any] = field(default_factory=dict)  # the entered decisions it was resolved with
    _renderer: Any = field(default=None, repr=False, compare=False)   # draws the reports when first read
    stray: dict[str, list[str]] = field(default_factory=dict)  # what players typed outside the boxes (ignored)
    late: dict[str, dict[str, Any]] = field(default_factory=dict)   # player -> {locked_at, kept}: typed after the lock
    # The round as the master's record holds it, (previous entry's seal, text, seal): set when it was read or
    # first written, so a later write neither serialises nor seals it again (host/record.py). A round is
    # never changed in place once resolved (undo and decide make new ones), so the text stays true.
    stored: tuple[str, str, str] | None = field(default=None, repr=False, compare=False)

    @property
    def public(self) -> Report | None:
        """The public report, drawn from the facts when first read (a simulation never reads it)."""
        if self._public is None and self._renderer is not None:
            self._renderer(self)
        return self._public

    @public.setter
    def public(self, report: Report | None) -> None:
        self._public = report

    @property
    def private(self) -> dict[str, Report]:
        """Each player's report of the round (the one view function draws their tab from these)."""
        if self._private is None and self._renderer is not None:
            self._renderer(self)
        return self._private if self._private is not None else {}

    @private.setter
    def private(self, reports: dict[str, Report]) -> None:
        self._private = reports

    def detach(self) -> None:
        """Drop the way back to the match that draws the reports (those already drawn stay), so a
        match that is done with is freed at once."""
        self._renderer = None

    def forget(self) -> None:
        """Keep only the round's numbers, ledger and requests: for a simulation that has counted the
        facts and reads the round no more (its reports can no longer be drawn, nor the round replayed)."""
        self.facts, self.host_log, self.raw, self.submissions = (), [], {}, {}
        self.stored = None
        self.detach()

    def to_json(self) -> dict:
        out = {
            "round": self.round, "seed": self.seed, "raw": self.raw,
            "balances": self.balances, "tables": self.tables,
            "submissions": to_json(self.submissions),
            "ledger": [r.as_list() for r in self.ledger], "host_log": self.host_log,
            "facts": to_json(self.facts), "requests": to_json(self.requests), "decisions": self.decisions,
        }
        if self.stray:
            out["stray"] = self.stray
        if self.late:
            out["late"] = self.late
        if not self.facts:   # a game that still returns finished reports: keep them
            out.update({"public": to_json(self.public), "private": to_json(self.private)})
        return out

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "RoundRecord":
        return cls(round=d["round"], seed=d["seed"], raw=d["raw"], balances=d["balances"],
                   tables=d["tables"], submissions=from_json(d["submissions"]),
                   _public=from_json(d.get("public")), _private=from_json(d.get("private") or {}),
                   ledger=[LedgerRow(*r) for r in d["ledger"]], host_log=list(d["host_log"]),
                   facts=tuple(from_json(d.get("facts") or [])), requests=tuple(from_json(d.get("requests") or [])),
                   decisions=dict(d.get("decisions") or {}), stray=dict(d.get("stray") or {}),
                   late=dict(d.get("late") or {}))

    def problems(self) -> list[str]:
        out = []
        for player, sub in self.submissions.items():
            if sub is None:
                out.append(f"{player}: no submission; the rules' default was applied")
            else:
                out.extend(p.message for p in sub.problems)
        return out

    def notices(self) -> list[str]:
        """How non-plain text was read ("Ann: Card: read '٣' as 3"); not problems."""
        return [n.message for sub in self.submissions.values() if sub is not None for n in sub.notices]
