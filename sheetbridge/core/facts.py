"""Round results as data: typed records of what happened, to whom, with which numbers.

A game's ``resolve`` returns its round as facts: frozen dataclasses in the game's own
vocabulary (``RoomScored(room="Duel", cards=(3, -10), base=-7, multiplier=1, score=-7)``).
Every text a person reads about the round (the public report, each player's Results,
the Discord announcement) and every picture is drawn from them by the game's
``render``/``picture``, so the text and the data cannot disagree.

Privacy is decided here, once. Each fact names its audience: everyone (:data:`PUBLIC`),
some players, or nobody but the host (:data:`HOST_ONLY`). A viewer's renderer only
ever receives the facts that viewer may know (:func:`visible`), so a renderer cannot
leak what it was never given.

>>> @fact
... @dataclass(frozen=True)
... class Scored(Fact):
...     player: str
...     points: int
>>> facts = (Scored("Ann", 2), Scored("Bo", 1, audience=("Bo",)))
>>> [f.player for f in visible(facts, None)]      # the public
['Ann']
>>> [f.player for f in visible(facts, "Bo")]
['Ann', 'Bo']
>>> from sheetbridge.core.types import from_json, to_json
>>> tuple(from_json(to_json(facts))) == facts
True
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence, TypeVar

from .types import register_types

PUBLIC: tuple[str, ...] = ("*",)     # every player and the public board
HOST_ONLY: tuple[str, ...] = ()      # the host's master alone (draws, hidden tie-breaks)


@dataclass(frozen=True)
class Fact:
    """Base of every game's round records. ``audience`` says who may learn it."""
    audience: tuple[str, ...] = field(default=PUBLIC, kw_only=True)

    def visible_to(self, viewer: str | None) -> bool:
        """``viewer`` None is the public; a name is that player; :data:`HOST` sees everything."""
        if viewer == HOST:
            return True
        if self.audience == PUBLIC:
            return True
        return viewer is not None and viewer in self.audience


HOST = "\x00host"   # the viewer name of the host (a name no player can have)

F = TypeVar("F", bound=type)


def fact(cls: F) -> F:
    """Class decorator: register a game's fact type so round records round-trip through JSON.
    The class stays the plain frozen dataclass it is written as (``@fact @dataclass(frozen=True)``)."""
    register_types(cls)
    return cls


def visible(facts: Iterable[Fact], viewer: str | None) -> tuple[Fact, ...]:
    """The facts `viewer` may know, in order (None: the public; :data:`HOST`: all)."""
    return tuple(f for f in facts if f.visible_to(viewer))


def of_type(facts: Iterable[Any], *types: type) -> list[Any]:
    """The facts of the given types, in order: ``of_type(rec.facts, RoomScored)``."""
    return [f for f in facts if isinstance(f, types)]


@dataclass(frozen=True)
class RenderContext:
    """What a renderer may know besides the facts: nothing secret."""
    round: int
    players: tuple[str, ...]
    options: Mapping[str, Any]
    game_name: str = ""


def only(facts: Sequence[Any], cls: type) -> Any:
    """The single fact of `cls` (ValueError if there is not exactly one)."""
    found = of_type(facts, cls)
    if len(found) != 1:
        raise ValueError(f"expected one {cls.__name__}, found {len(found)}")
    return found[0]


@dataclass(frozen=True)
class EntriesRead(Fact):
    """How a player's non-plain entries were read ("Card: read '٣' as 3"): recorded by the core for
    every game, told to that player only."""
    player: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class EntriesIgnored(Fact):
    """What a player typed outside the boxes of their Submission tab (a row too low): ignored, and the
    player is told where, so the mistake is theirs to see."""
    player: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class EntriesLate(Fact):
    """A player changed their Submission tab after the round was locked (the deadline): the round used
    what the form held at the lock (`kept`: it held entries; else the rules' default applied), and the
    player is told their later entries were not counted."""
    player: str
    locked_at: str          # when the round was locked, as the player reads it ("2026-11-24 15:00 UTC")
    kept: bool


CORE_FACTS = (EntriesRead, EntriesIgnored, EntriesLate)   # recorded and drawn by the core for every game


register_types(Fact, RenderContext, EntriesRead, EntriesIgnored, EntriesLate)
