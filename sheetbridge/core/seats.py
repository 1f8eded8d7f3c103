"""Seats that change hands: a player drops out and another takes over the seat (issue 28).

A game's state, facts and ledger know players by name, and a game may use names in its
random draws and tie orders. So a substitution is a renaming done at a recorded point of
the game, never a rewrite of the past:

- the seat's rounds already resolved keep their records as they were (the facts, reports
  and ledger rows name the old player); replay plays them under the old name, exactly as
  recorded, then renames the seat in the state at the same point and plays on;
- from then on the match's players list, its state, every view and every new ledger row
  name the new player; the seat's balance moves over in two ordinary ledger rows (the old
  player's out, the new player's in), appended and never rewritten, so a season posts them
  like any others;
- the new player's private reports hold the seat's earlier rounds only when the host says
  so (``history``): the record keeps them under the old name, and
  :meth:`~sheetbridge.core.match.Match.player_report` reads them through :func:`name_at`.

A seat is ``{"old", "new", "at", "history"}``: ``at`` is how many rounds were resolved when it
changed hands. An undo that goes back before it moves it back (the new player plays the
reopened round) and reverses the round's rows on the seat's present holder (:func:`holders`).

Names are replaced where they are whole values or keys of the state, never inside longer text;
a name that is also a word of the game's content (a room called "Null") cannot be told apart
there, so such a substitution is refused with the reason.
"""
from __future__ import annotations

import json
from typing import Any, Mapping, Protocol, Sequence

from .errors import UsageError
from .game import GameRules
from .ledger import Ledger, LedgerRow
from .players import check_players


class SeatedMatch(Protocol):
    """What a seat change reads of a match (core/match.py's Match; named here so seats.py, which
    match.py imports, does not import it back)."""
    game: GameRules
    name: str
    players: list[str]
    options: dict[str, Any]
    setup_tables: Any
    position: dict[str, Any] | None
    seats: list[dict[str, Any]]
    state: Any
    ledger: Ledger

    @property
    def rounds(self) -> Sequence[Any]: ...

    @property
    def finished(self) -> bool: ...

    @property
    def round(self) -> int: ...


def rename(obj: Any, old: str, new: str) -> Any:
    """``obj`` (JSON data) with every key or value equal to ``old`` replaced by ``new``."""
    if isinstance(obj, str):
        return new if obj == old else obj
    if isinstance(obj, dict):
        return {(new if k == old else k): rename(v, old, new) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [rename(v, old, new) for v in obj]
    return obj


def renamed_state(state: Any, seats: Sequence[Mapping[str, Any]], at: int) -> Any:
    for seat in seats:
        if int(seat["at"]) == at:
            state = rename(state, seat["old"], seat["new"])
    return state


def setup_players(players: Sequence[str], seats: Sequence[Mapping[str, Any]]) -> list[str]:
    """The players the game was set up with (every seat under its first holder)."""
    out = list(players)
    for seat in reversed(seats):
        out = [seat["old"] if p == seat["new"] else p for p in out]
    return out


def players_at(players: Sequence[str], seats: Sequence[Mapping[str, Any]], index: int) -> list[str]:
    """The players who held the seats when the round at ``index`` (0-based) was resolved."""
    out = setup_players(players, seats)
    for seat in seats:
        if int(seat["at"]) <= index:
            out = [seat["new"] if p == seat["old"] else p for p in out]
    return out


def name_at(player: str, seats: Sequence[Mapping[str, Any]], index: int) -> str | None:
    """The name ``player``'s seat had in the round at ``index``; None when that was an earlier
    holder's round and the host chose not to show it to the seat's later holders."""
    name = player
    for seat in reversed(seats):
        if seat["new"] == name and int(seat["at"]) > index:
            if not seat.get("history"):
                return None
            name = seat["old"]
    return name


def holders(seats: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """Every former holder's name -> the seat's present holder."""
    out: dict[str, str] = {}
    for seat in seats:
        for former, now in list(out.items()):
            if now == seat["old"]:
                out[former] = seat["new"]
        out[seat["old"]] = seat["new"]
    return out


def _words(data: Any) -> set[str]:
    """Every string that is a whole value or key anywhere in ``data``."""
    out: set[str] = set()

    def walk(obj: Any) -> None:
        if isinstance(obj, str):
            out.add(obj.casefold())
        elif isinstance(obj, dict):
            for k, v in obj.items():
                out.add(str(k).casefold())
                walk(v)
        elif isinstance(obj, (list, tuple)):
            for v in obj:
                walk(v)
    walk(data)
    return out


def check_new_seat(m: SeatedMatch, old: str, new: str, history: bool) -> dict[str, Any]:
    """The seat record for giving ``old``'s seat to ``new``, or UsageError saying what to fix."""
    new = str(new).strip()
    if m.finished:
        raise UsageError(f"{m.name} is over: a seat cannot change hands after the last round")
    ever = {p.casefold() for p in m.players} | {s["old"].casefold() for s in m.seats}
    if new.casefold() in ever:
        raise UsageError(f"{new!r} already plays (or played) in {m.name}; give the seat to someone new")
    check_players(m.game, [new if p == old else p for p in m.players])
    content = _words([m.setup_tables, m.options, m.position])
    clash = [n for n in (old, new) if n.casefold() in content]
    if clash:
        raise UsageError(f"the name {clash[0]!r} is also a word of the game's content or options, so the seat "
                         "cannot be renamed safely; give the new player another name (a nickname works)")
    if new.casefold() in _words(json.loads(json.dumps(m.state))):
        raise UsageError(f"the name {new!r} already appears in the game's state; give the new player another name")
    return {"old": old, "new": new, "at": len(m.rounds), "history": bool(history)}


def transfer_rows(m: SeatedMatch, seat: Mapping[str, Any], number: int) -> list[LedgerRow]:
    """The two rows that move the seat's balance from its old to its new holder (none for 0)."""
    old, new = seat["old"], seat["new"]
    balance = m.ledger.balance(old)
    if not balance:
        return []
    key = f"{m.name}:seat{number}"
    return [LedgerRow(m.name, m.round, old, -balance, f"seat handed over to {new}", f"{key}:out"),
            LedgerRow(m.name, m.round, new, balance, f"seat taken over from {old}", f"{key}:in")]
