"""A game's spec: its identity, player counts, length, host options and content tables.

Light on purpose (issue 31): listing the games (``sheetbridge games``) reads each game's spec chapter,
which needs these three classes and nothing else of the core's types (:mod:`sheetbridge.core.types`
re-exports them, with the rest: forms, problems, reports, the outcome).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

OPTION_KINDS = ("rule", "content", "display")


@dataclass(frozen=True)
class Option:
    """A host option: a named switch where hosts could disagree (the rulings' A-numbers)."""
    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] = ()
    ruling: str = ""  # e.g. "A3"
    # What changing it changes, for designers (the balance report labels it): "rule" (how the game
    # plays), "content" (what is played on: a different board or grid, not different rules) or
    # "display" (only what is shown or told; random players play the same games).
    kind: str = "rule"

    def __post_init__(self) -> None:
        if self.kind not in OPTION_KINDS:
            raise ValueError(f"option {self.name}: kind {self.kind!r} is not one of {', '.join(OPTION_KINDS)}")

    def parse(self, text: Any) -> Any:
        """Convert the host's cell text to the option's type; ValueError says what is allowed."""
        if text is None or (isinstance(text, str) and text.strip() == ""):
            return self.default
        d = self.default
        v: int | float | str
        if isinstance(d, bool):
            t = str(text).strip().lower()
            if t in ("true", "yes", "1", "on"):
                return True
            if t in ("false", "no", "0", "off"):
                return False
            raise ValueError(f"option {self.name}: {text!r} is not allowed; use true or false")
        if isinstance(d, int) and not isinstance(d, bool):
            try:
                v = int(float(str(text).strip()))
            except ValueError:
                raise ValueError(f"option {self.name}: {text!r} is not a whole number") from None
        elif isinstance(d, float):
            try:
                v = float(str(text).strip())
            except ValueError:
                raise ValueError(f"option {self.name}: {text!r} is not a number") from None
        else:
            v = str(text).strip()
        if self.choices and v not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise ValueError(f"option {self.name}: {text!r} is not allowed; use one of {allowed}")
        return v


@dataclass(frozen=True)
class TableSpec:
    """Host-editable content shipped as a default in templates/<game-id>/<file>."""
    name: str   # the tab name in the master workbook
    file: str   # default content, a CSV file in templates/<game-id>/
    help: str


@dataclass(frozen=True)
class GameSpec:
    id: str
    name: str
    min_players: int
    max_players: int | None   # None: any number from min_players (a ruleset that names no limit)
    rounds: int
    summary: str
    options: tuple[Option, ...] = ()
    tables: tuple[TableSpec, ...] = ()
    recommended_players: int | None = None

    def option(self, name: str) -> Option:
        for o in self.options:
            if o.name == name:
                return o
        raise KeyError(name)

    def default_options(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}
