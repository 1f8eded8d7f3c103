"""A trusted ledger: the record is the authority, the Ledger tab a checked copy.

The Ledger tab is a sheet the host can edit, and before this module a changed
amount, a deleted opening row or an edited key went unnoticed (issue 17). Now:

* The master's hidden Record tab holds every ledger row sheetbridge wrote (record
  version 2) and carries a checksum of itself (:func:`seal`), so a hand edit of the
  record is caught. This is a tripwire against mistakes, NOT a security measure:
  anyone who reads this module can recompute the checksum after editing.
* Column H of the Ledger tab ("check") chains each row to the row before it
  (:func:`chain`: sha256 over the previous check and the row's fields, 10 hex
  digits). It recognises a row whose key was edited, and when the record itself
  was edited it shows whether the Ledger tab is still as sheetbridge wrote it.
* :func:`verify` compares the Ledger tab with the record at every command and
  names each difference by the Ledger row the host sees ("Ledger row 3, key
  g:opening:Ann: change was 10, now 999"). Commands refuse to run until the host
  puts the rows back or accepts them (:func:`accept`), which books correcting rows
  ("<game>:fix:<n>"): an accepted edit moves balances the way the host meant, and
  the original row stays as it was, because history is never rewritten.
* Rows without a key are host rows (garnets earned outside the game): always
  allowed. They are the rows typed since the last command: each gets a stable key
  ("<game>:host:<n>", n counting host rows) and a check, and joins the record, at
  the next write, so rows inserted later never shift anyone's key.
* Moving rows around (sorting the tab) and editing only a check value change no
  garnets: they are not reported, and the next write puts the tab back in order.

>>> rows = [LedgerRow("g", 0, "Ann", 10, "opening balance", "g:opening:Ann")]
>>> tab = [HEADER, ["g", "0", "Ann", "999", "opening balance", "g:opening:Ann", "", chain(rows)[0]]]
>>> checked = verify(rows, tab, ["Ann", "Bo"], name="g")
>>> [str(f) for f in checked.findings]
['Ledger row 2, key g:opening:Ann: change was 10, now 999']
>>> booked, notes = accept(checked)
>>> [(r.player, r.change, r.key) for r in booked]
[('Ann', 10, 'g:opening:Ann'), ('Ann', 989, 'g:fix:1')]
"""
from __future__ import annotations

import functools
import hashlib
import json
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from .facts import quick_init
from .ledger import COLUMNS, LedgerRow

CHECK_COLUMN = "check"
HEADER = (*COLUMNS, CHECK_COLUMN)        # the Ledger tab's columns A-H
SEAL = "checksum"                        # the record's key holding its own checksum
CHAIN = "chain"                          # the head's key holding the seal of the last round entry
ACCEPT_HINT = ("Put the rows back as they were, or accept the edits with "
               "`sheetbridge repair GAME_FOLDER --accept-ledger-edits` (it books correcting rows)")
RECORD_EDITED = ("the Record tab was edited by hand; restore the master from a backup or undo the edit")
ACCEPTED_MEMO = "booked by sheetbridge repair --accept-ledger-edits"
SHOWN = 10                               # findings listed in one error line


# ------------------------------------------------------------ checksums

def check_value(previous: str, fields: Sequence[Any]) -> str:
    """One row's check: sha256 over the previous row's check and this row's fields.

    >>> check_value("", ["g", 0, "Ann", 10, "opening balance", "g:opening:Ann", ""])
    'fd06a9b6ad'
    """
    text = "\x1f".join([previous, *map(_text, fields)])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:10]


def chain(rows: Sequence[LedgerRow]) -> list[str]:
    """The check column for `rows` in order: each value covers every row above it.

    >>> a = LedgerRow("g", 0, "Ann", 10, "opening balance", "g:opening:Ann")
    >>> b = LedgerRow("g", 0, "Bo", 10, "opening balance", "g:opening:Bo")
    >>> chain([a, b])[0] == chain([a])[0], chain([a, b])[1] == chain([b])[0]
    (True, False)
    """
    out, previous = [], ""
    for row in rows:
        previous = check_value(previous, row.as_list())
        out.append(previous)
    return out


def seal(record: Mapping[str, Any]) -> dict:
    """`record` with a checksum of itself (of its canonical JSON without the checksum).

    Catches a hand edit of the hidden Record tab; it does not stop a determined
    editor, who can recompute it with this function.

    >>> sealed = seal({"a": 1})
    >>> seal_ok(sealed), seal_ok({**sealed, "a": 2}), seal_ok({"a": 1})
    (True, False, False)
    """
    body = {k: v for k, v in record.items() if k != SEAL}
    return {**body, SEAL: _digest(body)}


def seal_entry(previous: str, text: str) -> str:
    """The seal of one entry of an append-only record (a round, as its text): sha256 over the previous
    entry's seal and the text, so each seal covers every entry before it and only the new entry is hashed.
    The record's head holds the last seal (:data:`CHAIN`) under its own checksum (:func:`seal`).

    >>> a = seal_entry("", '{"round":1}')
    >>> seal_entry(a, '{"round":2}') != seal_entry(seal_entry("", '{"round":9}'), '{"round":2}')
    True
    """
    return hashlib.sha256(f"{previous}\x1f{text}".encode("utf-8")).hexdigest()


def seal_entries(texts: Sequence[str]) -> list[str]:
    """Every entry's seal, in order (the last one is the chain's end, held by the head)."""
    out, previous = [], ""
    for text in texts:
        previous = seal_entry(previous, text)
        out.append(previous)
    return out


def seal_ok(record: Mapping[str, Any]) -> bool:
    body = {k: v for k, v in record.items() if k != SEAL}
    # A record read back from its tab is already its canonical JSON: its own text is checked first
    # (a third of the work on a large record). Only text that is the sealed text matches, so anything
    # else (an edit; tuples or number keys, not read from JSON) is checked the long way.
    try:
        if record.get(SEAL) == _text_digest(body):
            return True
    except TypeError:   # keys that do not sort together: not read from JSON
        pass
    return record.get(SEAL) == _digest(body)


def _digest(body: Mapping[str, Any]) -> str:
    # Through a JSON round trip first, so the checksum is the same before writing and after reading.
    return _text_digest(json.loads(json.dumps(body, ensure_ascii=False)))


def _text_digest(canonical: Mapping[str, Any]) -> str:
    text = json.dumps(canonical, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


# ------------------------------------------------------------ what verify finds

@dataclass(frozen=True)
class Finding:
    """One difference between the record and the Ledger tab, and what accepting it books."""
    row: int                                   # the Ledger row the host sees (0: the record as a whole)
    text: str
    corrections: tuple[tuple[str, int, int, str], ...] = ()   # (player, change, round, reason)
    host_row: LedgerRow | None = None         # a typed row booked as a host row once accepted
    note: str = ""                             # what accepting does, for the Host log

    def __str__(self) -> str:
        return self.text


@dataclass
class Checked:
    """The outcome of a check: the ledger to use, and what stops a command."""
    name: str
    rows: list[LedgerRow]                      # trusted rows: the record's, then host rows typed since
    findings: list[Finding] = field(default_factory=list)   # edits: refused until put back or accepted
    problems: list[str] = field(default_factory=list)       # host rows that cannot be read: fix them
    notes: list[str] = field(default_factory=list)          # for the Host log


def describe(findings: Sequence[Finding]) -> str:
    """One line for the host: the first ten findings, how many more, and what to do.

    >>> describe([Finding(2, "Ledger row 2, key k: deleted")])
    'the ledger was edited by hand: Ledger row 2, key k: deleted. Put the rows back as they were, \
or accept the edits with `sheetbridge repair GAME_FOLDER --accept-ledger-edits` (it books correcting rows)'
    """
    shown = [f.text for f in findings[:SHOWN]]
    if len(findings) > SHOWN:
        shown.append(f"and {len(findings) - SHOWN} more")
    return "the ledger was edited by hand: " + "; ".join(shown) + ". " + ACCEPT_HINT


# ------------------------------------------------------------ checking

def verify_record(record: Mapping[str, Any], tab_rect: Sequence[Sequence[Any]], sealed: bool | None = None
                  ) -> Checked:
    """Check the Ledger tab (`tab_rect`, header first) against a master's `record`. `sealed`: whether the
    record's seals hold, when its reader has checked them already (a record of entries: host/record.py);
    None: the record is checked here as one sealed whole.

    A version-1 record kept no ledger: its Ledger tab is trusted, as it was then,
    and the next write upgrades the record.
    """
    match = record["match"]
    name, players = str(match["name"]), [str(p) for p in match["players"]]
    if match.get("version") == 1:
        booked = [_row(r) for rec in match.get("rounds", []) for r in rec.get("ledger", [])]
        return _trust_tab(name, tab_rect, players, booked)
    rows: list[LedgerRow] | None
    try:
        rows = [_row(r) for r in match["ledger"]]
    except (KeyError, TypeError, ValueError):
        # Only the Ledger tab is left to go by, and only if it is as sheetbridge wrote it.
        rows = _intact([e for e in _tab_entries(tab_rect) if e.key or e.check])
        if rows is None:
            return Checked(name, [], problems=[RECORD_EDITED.replace("; restore", " and its ledger copy cannot be "
                                                                     "read; restore")])
        checked = verify(rows, tab_rect, players, name=name, record_sealed=False)
        checked.findings[0] = Finding(0, RECORD_EDITED + " (its ledger copy cannot be read; the Ledger tab's rows "
                                      "are used)", note=checked.findings[0].note)
        return checked
    return verify(rows, tab_rect, players, name=name, record_sealed=seal_ok(record) if sealed is None else sealed)


def verify(record_rows: Sequence[LedgerRow], tab_rect: Sequence[Sequence[Any]], players: Sequence[str], *,
           name: str, record_sealed: bool = True) -> Checked:
    """Compare the Ledger tab with the record's rows; name every difference.

    The record is the reference while its checksum holds. When the record itself
    was edited and the Ledger tab is still as sheetbridge wrote it (its check
    column chains), the tab is the reference and the record's ledger copy is what
    gets compared, so an edit there is named too.

    >>> rows = [LedgerRow("g", 0, "Ann", 10, "opening balance", "g:opening:Ann")]
    >>> tab = [HEADER, ["g", 0, "Ann", 10, "opening balance", "g:opening:Ann", "", chain(rows)[0]],
    ...        ["", "", "Bo", 5, "quiz night"], ["", "", "Zed", 1, "typo"]]
    >>> checked = verify(rows, tab, ["Ann", "Bo"], name="g")
    >>> [(r.player, r.change, r.key) for r in checked.rows]
    [('Ann', 10, 'g:opening:Ann'), ('Bo', 5, 'g:host:1')]
    >>> [str(f) for f in checked.findings]
    ["Ledger row 4: 'Zed' is not a player (players: Ann, Bo)"]
    """
    players = list(players)
    entries = _tab_entries(tab_rect)
    findings: list[Finding] = []
    reference, copy, typed = list(record_rows), entries, []
    where = _tab_row
    if not record_sealed:
        original = _intact([e for e in entries if e.key or e.check])
        same = original is not None and _same(original, record_rows)
        findings.append(Finding(0, RECORD_EDITED + (" (its ledger copy still matches the Ledger tab)" if same else ""),
                                note="its state and rounds are kept as edited"))
        if original is not None:
            # The Ledger tab is as sheetbridge last wrote it, so it shows what the record said:
            # compare the record's ledger copy with it, and take the tab's typed rows as host rows.
            reference, copy = original, _record_entries(record_rows)
            typed = [e for e in entries if not (e.key or e.check)]
            where = _record_row
    found, loose = _compare(reference, copy, players, where)
    checked = Checked(name, reference, findings + found)
    _book_loose(checked, loose, players, where)
    _book_loose(checked, typed, players, _tab_row)
    checked.findings.sort(key=lambda f: f.row)
    return checked


def accept(checked: Checked) -> tuple[list[LedgerRow], list[str]]:
    """The ledger once the host accepts every finding, and one note per finding.

    Accepting never trusts an edit in place: the recorded row stays as sheetbridge
    wrote it and a correcting row ("<game>:fix:<n>", round as the corrected row)
    moves garnets the way the edit meant. A changed amount or player books the
    difference, a deleted row books its reversal, a typed row with a key is booked
    as a host row, and an edit of anything else (round, reason, key, memo) is put
    back. Garnets are never booked for a name that is not a player, nor for an
    amount that is not a whole number: such an edit is put back (or left out).

    >>> rows = [LedgerRow("g", 0, "Ann", 10, "opening balance", "g:opening:Ann")]
    >>> booked, notes = accept(verify(rows, [HEADER], ["Ann"], name="g"))   # the row was deleted
    >>> [(r.player, r.change, r.key) for r in booked]
    [('Ann', 10, 'g:opening:Ann'), ('Ann', -10, 'g:fix:1')]
    >>> notes
    ['accepted: Ledger row 2, key g:opening:Ann: deleted (it was Ann +10 opening balance): booked g:fix:1 Ann -10']
    """
    rows = list(checked.rows)
    keys = {r.key for r in rows}
    notes = []
    for f in checked.findings:
        done = []
        if f.host_row is not None and f.host_row.key not in keys:
            rows.append(f.host_row)
            keys.add(f.host_row.key)
            done.append(f"booked {f.host_row.key} {f.host_row.player} {f.host_row.change:+d}")
        for player, change, rnd, reason in f.corrections:
            key = _next_key(keys, f"{checked.name}:fix:")
            rows.append(LedgerRow(checked.name, rnd, player, change, reason, key, ACCEPTED_MEMO))
            keys.add(key)
            done.append(f"booked {key} {player} {change:+d}")
        what = ", ".join(done) or f.note or "put back as it was"
        notes.append(f"accepted: {f.text}: {what}")
    return rows, notes


# ------------------------------------------------------------ inside

@dataclass(frozen=True)
class _Entry:
    """A row of one copy of the ledger, with the Ledger row number the host sees."""
    number: int
    cells: tuple[str, ...]          # columns A-H as text, numbers as whole numbers where they are
    typed: tuple[str, str] = ("", "")   # reason and memo as typed, spaces kept (booked as typed)

    @property
    def key(self) -> str:
        return self.cells[5]

    @property
    def check(self) -> str:
        return self.cells[7]


_Entry.__init__ = quick_init(_Entry) or _Entry.__init__   # type: ignore[method-assign]   # (a row each, every command)


_FIELDS = COLUMNS                    # game, round, player, change, reason, key, memo


@functools.lru_cache(maxsize=8192, typed=True)   # (a ledger repeats its game, rounds, players and amounts)
def _text(v: Any) -> str:
    """A cell as canonical text: stripped, and a whole number without ".0"."""
    s = "" if v is None else str(v).strip()
    n = _int(s)
    return s if n is None else str(n)


def _as_typed(v: Any) -> str:
    """A text cell as typed, spaces kept; any other value as :func:`_text` reads it."""
    return v if isinstance(v, str) else _text(v)


# A character float() never accepts (it takes Unicode digits and spaces, signs, ".", "_", "e", "inf",
# "infinity" and "nan"): a ledger's names, reasons and keys are told from numbers without an exception.
_NEVER_IN_A_NUMBER = re.compile(r"[^\d\s+\-._eEiInNfFtTyYaA]")


def _int(s: str) -> int | None:
    if _NEVER_IN_A_NUMBER.search(s):
        return None
    try:
        f = float(s)
    except (TypeError, ValueError):
        return None
    return int(f) if f.is_integer() else None


def _read_int(s: str) -> int:
    """The whole number in a cell that :func:`_unreadable` has passed (so it holds one)."""
    value = _int(s)
    assert value is not None, f"{s!r} was checked to be a whole number"
    return value


def _row(raw: Sequence[Any]) -> LedgerRow:
    game, rnd, player, change, reason, key, *memo = raw
    if not isinstance(rnd, int) or not isinstance(change, int):
        raise ValueError("round and change are whole numbers")
    return LedgerRow(str(game), rnd, str(player), change, str(reason), str(key), str(memo[0]) if memo else "")


def _tab_entries(rect: Sequence[Sequence[Any]]) -> list[_Entry]:
    out = []
    for i, raw in enumerate(rect[1:], start=2):       # row 1 is the header
        padded = list(raw[:len(HEADER)]) + [""] * (len(HEADER) - len(raw[:len(HEADER)]))
        cells = tuple(map(_text, padded))
        if any(cells):
            out.append(_Entry(i, cells, (_as_typed(padded[4]), _as_typed(padded[6]))))
    return out


def _record_entries(rows: Sequence[LedgerRow]) -> list[_Entry]:
    return [_Entry(i, tuple(map(_text, r.as_list())) + (c,))
            for i, (r, c) in enumerate(zip(rows, chain(rows)), start=2)]


def _intact(entries: Sequence[_Entry]) -> list[LedgerRow] | None:
    """The rows of `entries` if their check column chains (written as is by sheetbridge), else None."""
    rows, previous = [], ""
    for e in entries:
        previous = check_value(previous, e.cells[:7])
        rnd, change = _int(e.cells[1]), _int(e.cells[3])
        if e.check != previous or rnd is None or change is None:
            return None
        rows.append(LedgerRow(e.cells[0], rnd, e.cells[2], change, e.cells[4], e.cells[5], e.cells[6]))
    return rows or None


def _same(a: Sequence[LedgerRow], b: Sequence[LedgerRow]) -> bool:
    return [[_text(v) for v in r.as_list()] for r in a] == [[_text(v) for v in r.as_list()] for r in b]


def _compare(reference: Sequence[LedgerRow], copy: Sequence[_Entry], players: Sequence[str],
             where: Callable[[int], str]) -> tuple[list[Finding], list[_Entry]]:
    """Pair each copied row with its reference row (by key, else by check value).

    Returns the findings and the rows that are no copy of a reference row.
    """
    by_key = {r.key: j for j, r in enumerate(reference)}
    by_check: dict[str, int] | None = None   # (made for the first row its key does not pair: hashing every
    # reference row is a third of the check, and a ledger as sheetbridge wrote it pairs every row by key)
    seen: set[int] = set()
    findings: list[Finding] = []
    loose: list[_Entry] = []
    pairs: dict[int, int] = {}          # copy index -> reference index
    for i, e in enumerate(copy):         # by key first, so that a copied row never takes its original's place
        j = by_key.get(e.key)
        if j is not None and j not in seen:
            pairs[i] = j
            seen.add(j)
    for i, e in enumerate(copy):
        if i in pairs or not e.check:
            continue
        if by_check is None:
            by_check = {c: j for j, c in enumerate(chain(reference))}
        j = by_check.get(e.check)
        if j is not None and j not in seen:
            pairs[i] = j
            seen.add(j)
    for i, e in enumerate(copy):
        if i not in pairs:
            loose.append(e)
            continue
        f = _changed(reference[pairs[i]], e, players, where)
        if f is not None:
            findings.append(f)
    for j, r in enumerate(reference):
        if j not in seen:
            findings.append(Finding(j + 2, f"{where(j + 2)}, key {r.key}: deleted (it was {r.player} {r.change:+d} "
                                    f"{_short(r.reason, quote=False)})",
                                    ((r.player, -r.change, r.round, f"correction: {r.key} deleted by hand"),)
                                    if r.change else ()))
    return findings, loose


def _changed(r: LedgerRow, e: _Entry, players: Sequence[str], where: Callable[[int], str]) -> Finding | None:
    was = list(map(_text, r.as_list()))
    now = list(e.cells[:7])
    if was == now:   # (nearly every row: nothing to name)
        return None
    diffs = [(n, a, b) for n, a, b in zip(_FIELDS, was, now) if a != b]
    if not diffs:
        return None
    text = f"{where(e.number)}, key {r.key}: " + " and ".join(f"{n} was {_short(a)}, now {_short(b)}"
                                                               for n, a, b in diffs)
    new_player, new_change = _player(now[2], players), _int(now[3])
    if now[2] == was[2] and now[3] == was[3]:
        return Finding(e.number, text, note="put back as it was (no garnets change)")
    if new_player is None:
        return Finding(e.number, text, note=f"put back as it was: {_short(now[2])} is not a player")
    if new_change is None:
        return Finding(e.number, text, note=f"put back as it was: {_short(now[3])} is not a whole number")
    why = f"correction: {r.key} edited by hand ({r.player} {r.change:+d} -> {new_player} {new_change:+d})"
    if new_player == r.player:
        moves = [(r.player, new_change - r.change)]
    else:
        moves = [(r.player, -r.change), (new_player, new_change)]
    return Finding(e.number, text, tuple((p, c, r.round, why) for p, c in moves if c),
                   note="put back as it was (no garnets change)")


def _book_loose(checked: Checked, loose: Sequence[_Entry], players: Sequence[str],
                where: Callable[[int], str]) -> None:
    """Rows that copy no recorded row: host rows (no key) join the ledger; keyed ones are findings."""
    keys = {r.key for r in checked.rows} | {f.host_row.key for f in checked.findings if f.host_row}
    number_of = {r.key: j for j, r in enumerate(checked.rows, start=2)}
    for e in loose:
        game, rnd, player, change, reason, key, memo = e.cells[:7]
        problem = _unreadable(e)
        if problem:
            checked.problems.append(problem)
            continue
        amount, rnd_no = _read_int(change), (_read_int(rnd) if rnd else 0)
        name = _player(player, players)
        if name is None:
            what = f"{_short(player)} is not a player (players: {', '.join(players)})"
            text = f"{where(e.number)}" + (f", key {key}" if key else "") + f": {what}"
            checked.findings.append(Finding(e.number, text, note="left out: garnets are booked for players only"))
            continue
        host_key = _next_key(keys, f"{checked.name}:host:")
        keys.add(host_key)
        # A host row's text is booked as typed ("  paid in cash  " reads back so); the rows are compared
        # and chained on trimmed text, so spaces never count as an edit.
        typed_reason, typed_memo = e.typed if e.typed != ("", "") else (reason, memo)
        row = LedgerRow(game or checked.name, rnd_no, name, amount, typed_reason if reason else "host adjustment",
                        host_key, f"{memo} (typed key {key})".strip() if key else (typed_memo if memo else ""))
        if not key:
            checked.rows.append(row)
        elif key in number_of:
            checked.findings.append(Finding(e.number, f"{where(e.number)}, key {key}: a second copy of row "
                                            f"{number_of[key]}'s key (a row typed by hand has no key)", host_row=row))
        else:
            checked.findings.append(Finding(e.number, f"{where(e.number)}, key {key}: a key sheetbridge did not write "
                                            "(a row typed by hand has no key)", host_row=row))


def _trust_tab(name: str, rect: Sequence[Sequence[Any]], players: Sequence[str],
               booked: Sequence[LedgerRow]) -> Checked:
    """Version 1: the Ledger tab was the ledger. Keyed rows are taken as they are, host
    rows get a key, and rows a resolved round booked but the tab lacks are restored."""
    checked = Checked(name, [])
    typed = []
    for e in _tab_entries(rect):
        problem = _unreadable(e)
        if problem:
            checked.problems.append(problem)
        elif e.key:
            rnd, change = _read_int(e.cells[1]) if e.cells[1] else 0, _read_int(e.cells[3])
            checked.rows.append(LedgerRow(e.cells[0] or name, rnd, e.cells[2], change, e.cells[4], e.key, e.cells[6]))
        else:
            typed.append(e)
    _book_loose(checked, typed, players, _tab_row)
    have = {r.key for r in checked.rows}
    missing = [r for r in booked if r.key not in have]
    if missing:
        checked.rows += missing
        checked.notes.append(f"{len(missing)} ledger row(s) booked by resolved rounds were missing from the Ledger "
                             "tab and have been restored")
    return checked


def _unreadable(e: _Entry) -> str:
    """What keeps a typed row from being read ("" if nothing): a host must fix it, not accept it."""
    rnd, player, change = e.cells[1], e.cells[2], e.cells[3]
    if _int(change) is None:
        return f"Ledger tab, row {e.number}: change {change!r} is not a whole number of garnets"
    if rnd and _int(rnd) is None:
        return f"Ledger tab, row {e.number}: round {rnd!r} is not a whole number"
    if not player:
        return (f"Ledger tab, row {e.number}: a change of {_short(change)} garnet(s) names no player; type the "
                "player's name in the player column, or clear the row")
    return ""


def _tab_row(n: int) -> str:
    return f"Ledger row {n}"


def _record_row(n: int) -> str:
    return f"Record tab, ledger copy of row {n}"


def _player(typed: str, players: Sequence[str]) -> str | None:
    """The player `typed` names (ignoring case, as player names are unique that way), or None."""
    if typed in players:
        return typed
    hits = [p for p in players if p.casefold() == typed.casefold()]
    return hits[0] if len(hits) == 1 else None


def _next_key(keys: set[str], prefix: str) -> str:
    n = sum(1 for k in keys if k.startswith(prefix)) + 1
    while f"{prefix}{n}" in keys:
        n += 1
    return f"{prefix}{n}"


def _short(value: str, quote: bool = True) -> str:
    """A value for a message: numbers as they are, text quoted and cut at 40 characters."""
    if _int(value) is not None and value != "":
        return value
    text = value if len(value) <= 40 else value[:39] + "…"
    return repr(text) if quote else text
