"""Reading a player's own view: the choices their form offers, their row labels, the facts they were told."""
from __future__ import annotations

from typing import Any, Iterable, TypeVar

from ..view import PlayerView

T = TypeVar("T")


def choices(view: PlayerView, section: str, field_name: str) -> tuple[str, ...]:
    """The choices a field of the player's form offers (empty when the form has no such field)."""
    for sec in view.form.sections:
        if sec.name == section:
            for fld in sec.fields:
                if fld.name == field_name:
                    return tuple(fld.choices)
    return ()


def has(view: PlayerView, section: str) -> bool:
    return any(sec.name == section for sec in view.form.sections)


def section(view: PlayerView, name: str) -> Any:
    return next(sec for sec in view.form.sections if sec.name == name)


def latest(facts: Iterable[Any], cls: type[T]) -> T | None:
    """The last fact of a class the player was told (the freshest public picture of the game)."""
    found = None
    for f in facts:
        if isinstance(f, cls):
            found = f
    return found
