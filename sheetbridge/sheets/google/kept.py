"""What a tab already holds: the rows of every tab written are remembered as fingerprints, so the
next write of that tab sends only the rows that changed, the rows it keeps moved into place by
inserting or deleting rows above them (issue 31: a board or a Results tab grows by a round's block
at its top, a ledger at its end). Pure: the store keeps the fingerprints (ids.py) and cells.py
builds the requests.

A fingerprint is trusted only when this command read the tab and found the values the fingerprint
says were written (:func:`values_print`): a book that changed since (a hand edit, a write made
elsewhere, a write whose answer was lost) is written whole, as before.
"""
from __future__ import annotations

import bisect
import hashlib
import json
from collections import Counter
from dataclasses import dataclass
from typing import Sequence

from ..model import TabData

MIN_KEPT = 8          # rows: a smaller block is not worth the rows moved (the tab is written whole)
MIN_CELLS = 256       # cells: a shorter tab is fingerprinted only if it has as many as this
KEY_COLUMNS = 8       # the columns tried as a key that pairs a tab's rows (match_rows)


def fingerprinted(tab: TabData) -> bool:
    """Is the tab worth remembering (its rows, and its cells unless a block of rows is kept)? Long
    tabs, and wide ones (the Standings tab: a column per round)."""
    return len(tab.rows) >= 2 * MIN_KEPT or sum(map(len, tab.rows)) >= MIN_CELLS


def _digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=9).hexdigest()


def row_prints(tab: TabData) -> list[str]:
    """One fingerprint per row: its cells (values, formats, dropdowns, input marks), its height and
    the merges over it (relative to the row, so a row keeps its print when it moves)."""
    over: dict[int, list[tuple[int, int, int, int]]] = {}
    for r0, c0, r1, c1 in tab.merges:
        for r in range(r0, r1):
            over.setdefault(r, []).append((r0 - r, c0, r1 - r, c1))
    heights = tab.row_heights
    return [_digest(repr((row, heights.get(r), sorted(over.get(r, ()))))) for r, row in enumerate(tab.rows)]


def values_print(rect: Sequence[Sequence[str]]) -> str:
    """The fingerprint of a tab's values as a read returns them (``TabData.values()`` when written)."""
    return _digest(json.dumps(rect, ensure_ascii=False, separators=(",", ":")))


def has_inputs(tab: TabData) -> bool:
    """Cells a player types into: a protected tab's unprotected ranges would move with the rows."""
    return any(cell.input for row in tab.rows for cell in row)


def kept_block(old: Sequence[str], new: Sequence[str]) -> tuple[int, int, int] | None:
    """The longest run of rows the tab holds (``old``) that the new tab (``new``) has too, either
    in the same place or moved by the difference in length (rows added or removed above it):
    (its first row in the old tab, in the new one, its length), or None if under MIN_KEPT rows."""
    best: tuple[int, int, int] | None = None
    for shift in dict.fromkeys((0, len(new) - len(old))):
        run = 0
        for i in range(max(0, -shift), min(len(old), len(new) - shift)):
            if old[i] == new[i + shift]:
                run += 1
                if best is None or run > best[2]:
                    best = (i - run + 1, i - run + 1 + shift, run)
            else:
                run = 0
    return best if best is not None and best[2] >= MIN_KEPT else None


def crosses(tab: TabData, first: int, end: int) -> bool:
    """Does a merge straddle the edge of rows [first, end)? (Then the block is not kept.)"""
    return any(r0 < edge < r1 for r0, _c0, r1, _c1 in tab.merges for edge in (first, end))


# ---- rows re-ordered and columns added: the cells a tab holds (the master's Standings tab: a column
# per round and its rows in rank order, so every row changes every round and most of them move)
def shufflable(tab: TabData) -> bool:
    """Can a tab be written around the cells it holds (:func:`shuffle`)? Not with dropdowns or
    input cells: they are set as ranges over the tab, which a row's move would not carry as a
    whole write leaves them."""
    return not any(cell.choices or cell.input for row in tab.rows for cell in row)


def cell_prints(tab: TabData) -> list[list[str]]:
    """One fingerprint per cell, row by row (a cell under a merge, other than its first, marked so:
    a merge keeps only the first cell's value, so such a cell holds less than it was written with)."""
    hidden = {(r, c) for r0, c0, r1, c1 in tab.merges for r in range(r0, r1) for c in range(c0, c1)
              if (r, c) != (r0, c0)}
    return [[_digest(repr((cell, (r, c) in hidden))) for c, cell in enumerate(row)] for r, row in enumerate(tab.rows)]


@dataclass(frozen=True)
class Shuffle:
    """A tab written around the cells it holds: its rows put in their new order, then only the
    columns that changed sent. ``deletes``: rows [start, end) of the held tab deleted, bottom first;
    ``moves``: (row, destinationIndex) of moveDimension, in order; ``inserts``: rows [start, end)
    of the new tab inserted, top first. Then the ``bands`` of columns [c0, c1) (c1 None: to the
    row's end) are sent over the rows [``first``, ``last``) the held rows take, the inserted rows
    whole. The new tab's rows are in place after the inserts."""
    deletes: tuple[tuple[int, int], ...]
    moves: tuple[tuple[int, int], ...]
    inserts: tuple[tuple[int, int], ...]
    bands: tuple[tuple[int, int | None], ...]
    first: int
    last: int


def match_rows(old: Sequence[Sequence[str]], new: Sequence[Sequence[str]]) -> list[int | None]:
    """For each new row, the held row it continues (or None): paired by one of the first columns
    whose cells are unique in both tabs (a key, such as the player's name), the one whose pairs
    keep the most cells, then rows
    left over in the same place. Any pairing is exact (only the cells that differ are sent); a good
    one sends fewer."""
    best: dict[int, int] = {}
    score = 0
    for c in range(min(KEY_COLUMNS, max((len(r) for r in new), default=0))):
        olds, news = Counter(r[c] for r in old if len(r) > c), Counter(r[c] for r in new if len(r) > c)
        at = {r[c]: j for j, r in enumerate(old) if len(r) > c and olds[r[c]] == 1}
        pairs = {i: at[r[c]] for i, r in enumerate(new) if len(r) > c and news[r[c]] == 1 and r[c] in at}
        same = sum(a == b for i, j in pairs.items() for a, b in zip(new[i], old[j]))   # the cells it keeps
        if same > score:
            best, score = pairs, same
    taken = set(best.values())
    for i in range(min(len(old), len(new))):
        if i not in best and i not in taken:
            best[i] = i
            taken.add(i)
    return [best.get(i) for i in range(len(new))]


def _increasing(seq: Sequence[int]) -> set[int]:
    """The values of a longest increasing subsequence of ``seq`` (distinct values): the rows left in place."""
    tails: list[int] = []           # index in seq of the last value of a run of each length
    ends: list[int] = []            # and that value
    back: list[int] = [-1] * len(seq)
    for i, v in enumerate(seq):
        k = bisect.bisect_left(ends, v)
        back[i] = tails[k - 1] if k else -1
        tails[k:k + 1], ends[k:k + 1] = [i], [v]
    out, i = set(), tails[-1] if tails else -1
    while i >= 0:
        out.add(seq[i])
        i = back[i]
    return out


def _runs(indexes: Sequence[int]) -> list[tuple[int, int]]:
    """Sorted indexes as runs [start, end)."""
    runs: list[tuple[int, int]] = []
    for i in indexes:
        if runs and runs[-1][1] == i:
            runs[-1] = (runs[-1][0], i + 1)
        else:
            runs.append((i, i + 1))
    return runs


def shuffle(old: Sequence[Sequence[str]], new: Sequence[Sequence[str]]) -> Shuffle | None:
    """How to write tab ``new`` (cell prints) over the held tab ``old``: rows moved (each held row
    into the place of the new row it continues, the fewest moves: rows in a longest run already in
    order stay), then the columns where any continued row differs. None when that sends more than
    half the new tab's cells (it is written whole)."""
    pairs = match_rows(old, new)
    diffs: dict[int, set[int]] = {}
    for i, j in enumerate(pairs):
        if j is not None:
            a, b = old[j], new[i]
            diffs[i] = {c for c in range(max(len(a), len(b))) if (a[c] if c < len(a) else "") != (b[c] if c < len(b) else "")}
            if 2 * len(diffs[i]) > max(len(a), len(b)):   # more changed than kept: a new row
                pairs[i] = None
    kept = [j for j in pairs if j is not None]
    if not kept:
        return None
    held = set(kept)
    deletes = tuple(reversed(_runs([j for j in range(len(old)) if j not in held])))
    cur = sorted(kept)                       # the held rows left, in the order they stand
    stay = _increasing(kept)
    moves: list[tuple[int, int]] = []
    for t, x in enumerate(kept):             # each row out of order put right after its predecessor
        if x in stay:
            continue
        k = cur.index(x)
        dest = cur.index(kept[t - 1]) + 1 if t else 0
        if dest != k:
            moves.append((k, dest))
            cur.insert(dest if dest < k else dest - 1, cur.pop(k))
    inserts = tuple(_runs([i for i, j in enumerate(pairs) if j is None]))
    changed = set().union(*(diffs[i] for i, j in enumerate(pairs) if j is not None))
    width = max((max(len(old[j]), len(new[i])) for i, j in enumerate(pairs) if j is not None), default=0)
    bands = [(c0, c1) for c0, c1 in _runs(sorted(changed))]
    bands_out = tuple((c0, None if c1 >= width else c1) for c0, c1 in bands)
    at = [i for i, j in enumerate(pairs) if j is not None]
    sent = sum(c1 - c0 for c0, c1 in bands) * len(kept) + sum(len(new[i]) for i, j in enumerate(pairs) if j is None)
    if 2 * sent > sum(len(r) for r in new):
        return None
    return Shuffle(deletes, tuple(moves), inserts, bands_out, at[0], at[-1] + 1)
