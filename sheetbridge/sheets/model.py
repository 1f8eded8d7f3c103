"""Cells and tabs: the rectangles every backend moves. No game knowledge here."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence, Union

Value = Union[str, int, float, bool, None]
Rect = list  # list[list[str]]: what a read returns, every value as text ("" for empty)


@dataclass(frozen=True)
class CellData:
    """One cell to write. Strings are always literal text, never formulas."""
    value: Value = None
    fill: str | None = None        # background RRGGBB
    bold: bool = False
    font: str | None = None        # font colour RRGGBB
    choices: tuple[str, ...] = ()  # a dropdown of allowed values (data validation)
    wrap: bool = False
    input: bool = False            # a cell the player types into (left unprotected)


@dataclass
class TabData:
    """A whole tab's content; writing it replaces what the tab held."""
    rows: list[list[CellData]]
    hidden: bool = False
    protected: bool = False        # only the host may edit (Results, Board)
    col_widths: dict[int, float] = field(default_factory=dict)  # 0-based column -> width in characters
    frozen_rows: int = 0

    @property
    def width(self) -> int:
        return max((len(r) for r in self.rows), default=0)

    def values(self) -> list[list[str]]:
        """The tab as a read would return it: text, padded to a rectangle, trailing blanks trimmed."""
        return normalise([[c.value for c in row] for row in self.rows])


def text_of(value: Value) -> str:
    """How a read reports a value: whole floats without ".0", booleans as TRUE/FALSE."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def normalise(rows: Sequence[Sequence[Value]]) -> list[list[str]]:
    """Rows as text, trailing empty cells and rows trimmed (what both backends return)."""
    out = [[text_of(v) for v in row] for row in rows]
    for row in out:
        while row and row[-1] == "":
            row.pop()
    while out and not out[-1]:
        out.pop()
    return out


def literal(text: str) -> CellData:
    return CellData(value=text)
