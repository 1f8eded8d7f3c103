"""The master's Record tab: an append-only record, a head and one sealed entry per round.

Row 2 holds the head: everything but the rounds (players, files, the match's options, state and
ledger, the host's bookkeeping), sealed with a checksum of itself (core/integrity.py's ``seal``).
Each row after it holds one round's entry, its text as first written: a round is never changed once
resolved (undo and decide make new rounds), so a resolve serialises, seals and writes only the new
round and keeps every other row as it is. Each entry's seal chains the one before it
(``integrity.seal_entry``) and the head holds the last (``integrity.CHAIN``): a hand edit of any
round is caught as an edit of the record, as before.

A record written as one JSON text (sheetbridge before issue 31) is read as it is and written as
entries by the next command that writes the master: upgraded once.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..core import integrity
from ..core.errors import WorkbookError
from ..core.match import Match
from ..sheets import layout as L
from ..sheets.model import Rect, TabData


@dataclass
class StoredRecord:
    """A master's record as read: the whole record (rounds included, as ``Match.from_json`` reads it),
    each round's text and seal as stored, and whether its seals hold."""
    data: dict[str, Any]
    texts: list[str] | None = None     # None: a record written as one JSON text (upgraded by the next write)
    seals: list[str] | None = None
    sealed: bool | None = None         # None: checked as one sealed whole (integrity.verify_record)
    in_place: bool = False             # the entries stand in rows 3, 4... with no row between (kept_rows holds)

    def keep(self, match: Match) -> None:
        """Give `match`'s rounds their stored text, so the next write keeps them as they are."""
        if self.texts is None or self.seals is None or len(self.texts) != len(match.rounds):
            return
        previous = ""
        for rec, text, seal in zip(match.rounds, self.texts, self.seals):
            rec.stored = (previous, text, seal)
            previous = seal


def _loads(text: str, where: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise WorkbookError(f"{where}: the record is damaged ({e.msg}, character {e.pos}); "
                            "restore the master workbook from a backup") from None


def read_record(rect: Rect, where: str) -> StoredRecord:
    """The record in a master's Record tab, in either form (entries, or one JSON text)."""
    parts = L.read_entries_tab(rect, where)
    if parts is None:
        return StoredRecord(L.read_json_tab(rect, where))
    head_text, texts = parts
    head = _loads(head_text, where)
    if not isinstance(head, dict) or not isinstance(head.get("match"), dict):
        raise WorkbookError(f"{where}: the record is damaged (no match in its head); "
                            "restore the master workbook from a backup")
    seals = integrity.seal_entries(texts)
    sealed = integrity.seal_ok(head) and head.get(integrity.CHAIN) == (seals[-1] if seals else "")
    data = {k: v for k, v in head.items() if k not in (integrity.CHAIN, integrity.SEAL)}
    data["match"] = {**head["match"], "rounds": [_loads(t, where) for t in texts]}
    in_place = len(texts) == len(rect) - 2
    return StoredRecord(data, texts, seals, sealed, in_place)


def read_head(rect: Rect, where: str) -> dict[str, Any]:
    """The record without its rounds (the revision, the files, the game): only the head is parsed."""
    parts = L.read_entries_tab(rect, where)
    if parts is None:
        return dict(L.read_json_tab(rect, where))
    head = _loads(parts[0], where)
    if not isinstance(head, dict):
        raise WorkbookError(f"{where}: the record is damaged (its head is not a record); "
                            "restore the master workbook from a backup")
    return head


def record_tab(match: Match, rest: Mapping[str, Any], held: Sequence[str] = ()) -> TabData:
    """The Record tab for `match` and the host's `rest` (players, files, bookkeeping): each round's entry
    as stored when it was read or first written, only a new (or re-resolved) round serialised and sealed.
    `held`: the entries' texts the book holds in rows 3, 4... (read or written by this command): the
    leading rounds still the same are marked kept (``TabData.kept_rows``: Google does not send them again)."""
    entries, previous = [], ""
    for rec in match.rounds:
        kept = rec.stored
        if kept is None:
            text = L.json_text(rec.to_json())
            kept = rec.stored = (previous, text, integrity.seal_entry(previous, text))
        elif kept[0] != previous:   # (a round before it is new; decide makes every later round new too)
            kept = rec.stored = (previous, kept[1], integrity.seal_entry(previous, kept[1]))
        entries.append((f"round {rec.round}", kept[1]))
        previous = kept[2]
    head = integrity.seal({"match": match.to_json(rounds=False), **rest, integrity.CHAIN: previous})
    tab = L.entries_tab(L.json_text(head), entries)
    same = 0
    for (_, text), was in zip(entries, held):
        if text is not was and text != was:
            break
        same += 1
    if same:
        tab.kept_rows = (2, 2 + same)
    return tab


def held_texts(match: Match) -> list[str]:
    """The entries' texts a Record tab drawn from `match` holds (once written)."""
    texts = [rec.stored[1] for rec in match.rounds if rec.stored is not None]
    return texts if len(texts) == len(match.rounds) else []
