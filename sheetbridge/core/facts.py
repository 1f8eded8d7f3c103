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

import dataclasses
import functools
import inspect
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
    """Class decorator: register a game's fact type so round records round-trip through JSON."""
    register_types(cls)
    _quick_init_on_first_use(cls)
    return cls


# Issue 26.6 kept this speed trick, as it pays: with the dataclass's own __init__ instead (each field
# set through object.__setattr__, frozen), a simulated Bugcatcher game takes 22% more instructions
# (benchmarks/simulate_speed.py --instructions bugcatcher: 82.0 M against 67.3 M) and 20% more CPU
# (12.3 ms against 10.3 ms, medians of 3 interleaved runs of 30 games); a frozen slots=True dataclass
# makes a fact hardly quicker than the plain one (873 ns against 943 ns; 437 ns here, six fields).
def _quick_init_on_first_use(cls: type) -> None:
    """Give the class its :func:`quick_init` when it is first instantiated, not when it is defined:
    building it costs about as much as the dataclass's own methods, and a command that never
    makes a fact (``sheetbridge games``) should not pay for the 140 fact classes it imports."""
    original = cls.__dict__.get("__init__")
    if original is None:
        return

    @functools.wraps(original)
    def first_init(self, *args: Any, **kwargs: Any) -> None:
        quick = quick_init(cls)
        cls.__init__ = quick if quick is not None else original   # type: ignore[misc]
        cls.__init__(self, *args, **kwargs)   # type: ignore[misc]

    first_init.quick_on_first_use = True   # type: ignore[attr-defined]
    cls.__init__ = first_init   # type: ignore[misc]


def quick_init(cls: type) -> Any:
    """The same ``__init__`` as the frozen dataclass's own, writing the instance's ``__dict__``
    directly instead of going through ``object.__setattr__`` once a field (about three times
    quicker; a round makes a hundred facts or more). Same signature, defaults, fields and field
    order. None where it could differ: a class that is not a plain frozen dataclass (slots, a
    ``__post_init__``, a field made by a factory or left out of ``__init__``, an init-only var).
    tests/test_fast_paths.py checks it against the dataclass's own ``__init__``."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or not params.init or "__slots__" in cls.__dict__ \
            or hasattr(cls, "__post_init__"):
        return None
    fields = dataclasses.fields(cls)
    names = [f.name for f in fields]
    own = list(inspect.signature(getattr(cls, "__init__")).parameters)[1:]   # an init-only var would be one more
    if any(not f.init or f.default_factory is not dataclasses.MISSING for f in fields) or \
            sorted(own) != sorted(names) or "self" in names or "_fact_values" in names:
        return None
    defaults = {f"_default_{f.name}": f.default for f in fields if f.default is not dataclasses.MISSING}

    def param(f: dataclasses.Field) -> str:
        return f.name if f.default is dataclasses.MISSING else f"{f.name}=_default_{f.name}"
    positional = [param(f) for f in fields if not f.kw_only]
    keyword = [param(f) for f in fields if f.kw_only]
    signature = ", ".join(["self", *positional, *(["*", *keyword] if keyword else [])])
    body = "".join(f"    _fact_values[{n!r}] = {n}\n" for n in names)
    source = f"def __init__({signature}):\n    _fact_values = self.__dict__\n{body}"
    namespace: dict[str, Any] = {}
    exec(source, dict(defaults), namespace)   # noqa: S102 - source made above from field names only
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    init.__annotations__ = dict(getattr(cls, "__init__").__annotations__)   # the same signature to read, too
    return init


def visible(facts: Iterable[Fact], viewer: str | None) -> tuple[Fact, ...]:
    """The facts `viewer` may know, in order (None: the public; :data:`HOST`: all)."""
    return tuple(f for f in facts if f.visible_to(viewer))


def visible_by_viewer(facts: Iterable[Fact], viewers: Iterable[str | None]) -> dict[str | None, tuple[Fact, ...]]:
    """:func:`visible` for each of `viewers` at once, in one pass over the facts: a round's reports
    are drawn for every player, and filtering the whole round for each of them cost players x facts."""
    out: dict[str | None, list[Fact]] = {v: [] for v in viewers}
    everyone = list(out.values())
    players = [v for v in out if v is not None and v != HOST]
    host = out.get(HOST)
    for f in facts:
        if f.audience == PUBLIC:
            for seen in everyone:
                seen.append(f)
            continue
        if host is not None:
            host.append(f)
        audience = f.audience
        if len(audience) < len(players):
            for name in dict.fromkeys(audience):   # (a name listed twice sees the fact once)
                theirs = out.get(name) if name is not None and name != HOST else None
                if theirs is not None:
                    theirs.append(f)
        else:
            for name in players:
                if name in audience:
                    out[name].append(f)
    return {v: tuple(seen) for v, seen in out.items()}


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
