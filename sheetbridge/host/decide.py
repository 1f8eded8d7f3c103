"""`decide`: the decisions the rules leave to the host, entered from the command line or the
master's Decisions tab, then published."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.errors import ConfigError, UsageError
from ..core.match import Match
from ..sheets.store import Store
from .books import read_every_book
from .session import Loaded, Progress, load_for
from .tabs import DECISIONS_TAB
from .transaction import commit, plan, write_all


def apply_typed_decisions(ld: Loaded) -> list[str]:
    """Enter the values the host typed in the Decisions tab that differ from the record."""
    notes = []
    m = ld.match
    asked = {r.key: r for r in m.requests()}
    for key, text in ld.typed_decisions.items():
        req = asked.get(key)
        if req is None:
            raise ConfigError(f"{ld.master.location}, tab {DECISIONS_TAB}: no decision {key!r} is asked for; "
                              "leave the key column as sheetbridge wrote it")
        try:
            value = req.read(text)
        except ValueError as e:
            raise ConfigError(f"{ld.master.location}, tab {DECISIONS_TAB}: {e}") from None
        value = list(value) if isinstance(value, tuple) else value
        if m.decisions.get(key) != value:
            m.decide(key, text)
            notes.append(f"decision {key} entered from the {DECISIONS_TAB} tab: {text}")
    return notes


@dataclass
class DecideResult:
    entered: list[str]
    pending: list[Any]
    match: Match
    written: list[str]


def decide(store: Store, key: str | None = None, value: str | None = None, *,
           progress: Progress | None = None) -> DecideResult:
    """Enter a decision the rules leave to the host (or the values typed in the Decisions tab), then
    publish what changed: the outcome, the ledger and every report that depends on it."""
    with store.lock("decide"):
        ld, _ = load_for(store, None)
        m = ld.match
        books = read_every_book(ld, "enter a decision")
        entered = apply_typed_decisions(ld)
        if key is not None:
            if value is None:
                raise UsageError(f"decide {key}: give the value too, e.g. `sheetbridge decide DIR {key} VALUE`")
            req = m.decide(key, value)
            entered.append(f"decision {req.key} entered: {value}")
        if not entered:
            return DecideResult([], m.pending(), m, [])
        writes = plan(ld, books)
        written = [commit(ld, progress)]
        written += write_all(ld, writes, progress, checked=True)
        return DecideResult(entered, m.pending(), m, written)


