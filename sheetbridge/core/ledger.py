"""The garnet ledger: append-only rows, balances derived, every row keyed.

Paying twice is impossible by construction: a row whose key is already in the
ledger is not appended again, so re-running a round is harmless. Undoing a
round appends reversal rows rather than deleting history.

>>> led = Ledger("demo")
>>> _ = led.append([LedgerRow("demo", 0, "Ann", 10, "opening balance", "demo:open:Ann")])
>>> _ = led.append([LedgerRow("demo", 0, "Ann", 10, "opening balance", "demo:open:Ann")])
>>> led.balance("Ann")
10
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from .errors import LedgerError
from .facts import quick_init

COLUMNS = ("game", "round", "player", "change", "reason", "key", "memo")


@dataclass(frozen=True)
class LedgerRow:
    game: str
    round: int
    player: str
    change: int
    reason: str
    key: str
    memo: str = ""

    def as_list(self) -> list:
        return [self.game, self.round, self.player, self.change, self.reason, self.key, self.memo]


# A record holds a row per garnet move, made again by every command that reads it (hundreds a resolve):
# the same __init__ writing the fields straight into __dict__ (core/facts.quick_init), 0.35 us, not 0.9.
LedgerRow.__init__ = quick_init(LedgerRow) or LedgerRow.__init__   # type: ignore[method-assign]


class Ledger:
    """All garnet rows of one game file (opening balances, round flows, host adjustments)."""

    def __init__(self, game: str, rows: Iterable[LedgerRow] = ()) -> None:
        self.game = game
        self.rows: list[LedgerRow] = []
        self._keys: set[str] = set()
        self.append(rows)

    def append(self, rows: Iterable[LedgerRow]) -> list[LedgerRow]:
        """Append rows whose key is new; returns the rows actually added."""
        added = []
        for row in rows:
            if row.key in self._keys:
                continue
            self._keys.add(row.key)
            self.rows.append(row)
            added.append(row)
        return added

    def has(self, key: str) -> bool:
        return key in self._keys

    def balance(self, player: str) -> int:
        return sum(r.change for r in self.rows if r.player == player)

    def balances(self, players: Sequence[str]) -> dict[str, int]:
        """Each player's balance, in the order given: one pass over the rows (a whole game's rows,
        asked for every player of a resolve)."""
        totals = dict.fromkeys(players, 0)
        for r in self.rows:
            if r.player in totals:
                totals[r.player] += r.change
        return totals

    def row_counts(self, players: Sequence[str]) -> dict[str, int]:
        """How many rows each player has, in the order given (one pass)."""
        counts = dict.fromkeys(players, 0)
        for r in self.rows:
            if r.player in counts:
                counts[r.player] += 1
        return counts

    def check_spend(self, player: str, amount: int) -> None:
        have = self.balance(player)
        if amount > have:
            raise LedgerError(f"{player} cannot spend {amount} garnet(s): the ledger shows {have}")

    def check_no_negative(self, players: Sequence[str]) -> None:
        for p, b in self.balances(players).items():
            if b < 0:
                raise LedgerError(f"{p}'s garnet balance adds up to {b}; the ledger never goes negative. "
                                  "Check the rows you added by hand for a mistyped amount")

    def round_rows(self, round_no: int) -> list[LedgerRow]:
        return [r for r in self.rows if r.round == round_no]

    def reverse_round(self, round_no: int, why: str,
                      holders: Mapping[str, str] | None = None) -> list[LedgerRow]:
        """Append reversals of the live rows that resolving `round_no` booked (for undo).

        A round's own rows are the ones keyed ``<game>:r<round>g<n>:<i>`` (see
        :meth:`~sheetbridge.core.match.Match.resolve`). Opening balances, host rows and
        corrections belong to the game, not to a round, even when their round column
        says 0; so undoing a pregame (round 0) keeps every opening balance.

        >>> led = Ledger("g", [LedgerRow("g", 0, "Ann", 10, "opening balance", "g:opening:Ann"),
        ...                    LedgerRow("g", 0, "Ann", -3, "bid", "g:r0g0:0")])
        >>> [r.key for r in led.reverse_round(0, "undo of round 0")]
        ['g:r0g0:0:undo']
        >>> led.balance("Ann"), led.reverse_round(0, "again")
        (10, [])
        """
        prefix = f"{self.game}:r{round_no}g"
        holders = holders or {}   # a seat that changed hands since: reversed on its present holder
        rev = [LedgerRow(r.game, r.round, holders.get(r.player, r.player), -r.change, f"undo: {r.reason}", r.key + ":undo", why)
               for r in self.rows
               if r.key.startswith(prefix) and not r.key.endswith(":undo") and not self.has(r.key + ":undo")]
        return self.append(rev)
