"""Entries typed after a round was locked (issue 27, point 5): told to their player, never lost by an undo.

At resolve, each player whose Submission tab changed after the lock is told privately that those entries
arrived after the deadline and were not counted (a core fact, `EntriesLate`), and what they typed is kept
in the record beside the lock. Undoing that round puts the round back as it was before the resolve: locked
with the same snapshot, each Submission tab showing what its player typed last (late entries included,
still not counted unless the host reopens the round).
"""
from __future__ import annotations

import json
from typing import Any, Mapping, Sequence


def typed_entries(raw: Mapping[str, Any] | None) -> str:
    """A submission's typed entries, canonical (blank cells are no entry), for comparing two reads."""
    if not raw:
        return ""
    clean = {sec: [{k: str(v).strip() for k, v in row.items() if str(v).strip()} for row in rows]
             for sec, rows in sorted(raw.items())}
    return json.dumps(clean, sort_keys=True) if any(r for rows in clean.values() for r in rows) else ""


def late_entries(ld, later: Sequence[str]) -> dict[str, dict[str, Any]]:
    """For `Match.resolve(late=...)`: who typed after the lock, when it was locked, and whether the snapshot
    held entries of theirs (then those were used; else the rules' default)."""
    return {p: {"locked_at": ld.locked["at"], "kept": bool(typed_entries(ld.locked["raw"].get(p)))} for p in later}


def remember_lock(ld, typed_late: Mapping[str, Any]) -> None:
    """Keep the lock a round is resolved from, and what was typed after it, for an undo of that round."""
    ld.lock_history[str(ld.locked["round"])] = {"at": ld.locked["at"], "why": ld.locked.get("why", ""),
                                                "late": dict(typed_late)}


def restore_lock(ld, last) -> str:
    """Undo of `last` (a RoundRecord): lock it again as it was, with its late entries back in their tabs.
    Returns what the host should know, as the end of undo's line ("" when the round was not locked)."""
    from .deadlines import parse_time, shown
    kept = ld.lock_history.pop(str(last.round), None)
    if kept is None:
        return ""
    ld.locked = {"round": last.round, "at": kept["at"], "why": kept["why"],
                 "raw": {p: raw for p, raw in last.raw.items() if typed_entries(raw)}}
    late = kept.get("late") or {}
    ld.saved.setdefault(str(last.round), {}).update(late)
    said = (f"; round {last.round} is locked again as it was at {shown(parse_time(kept['at']))} (resolve uses "
            "the same snapshot)")
    if late:
        tabs = "tabs" if len(late) > 1 else "tab"
        said += (f"; what {', '.join(sorted(late))} typed after the lock is back in their Submission {tabs}, still "
                 "not counted (`sheetbridge reopen` would count it)")
    return said


def locked_fill(ld, player: str) -> Mapping[str, Any] | None:
    """What a locked round's Submission tab shows when drawn again: on stores that lock the forms (Google)
    the snapshot; on files the player keeps (xlsx) what they typed last, if an undo kept it."""
    typed = ld.saved.get(str(ld.match.round), {})
    if player in typed and not ld.store.locks_forms:
        return typed[player]
    return ld.locked["raw"].get(player)
