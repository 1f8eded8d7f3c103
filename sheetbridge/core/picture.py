"""Pictures as data: what a board looks like, drawn by sheetbridge.pictures (Pillow).

Games stay pure: they describe a picture (shapes in a coordinate space of their own
choosing, colours as RRGGBB) from the round's facts, and the renderer turns it into a
PNG. Tests check the description and the pixels at known places.

>>> pic = Picture(200, 100, (Box(10, 10, 60, 40, fill="FF0000"), Label(70, 20, "Null")))
>>> pic.width, len(pic.shapes)
(200, 2)
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from .types import register_types


@dataclass(frozen=True)
class Box:
    """A rectangle from (x, y) with width w and height h; `outline` is its border colour."""
    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    outline: str | None = "000000"
    width: int = 1


@dataclass(frozen=True)
class Line:
    """A polyline through `points` ((x, y) pairs)."""
    points: tuple[tuple[float, float], ...]
    colour: str = "000000"
    width: int = 2
    dashed: bool = False


@dataclass(frozen=True)
class Dot:
    """A filled circle of radius r centred on (x, y)."""
    x: float
    y: float
    r: float
    fill: str = "000000"
    outline: str | None = None


@dataclass(frozen=True)
class Label:
    """Text with its top-left corner at (x, y); `size` in pixels; `anchor` "lt" or "mm" (centred)."""
    x: float
    y: float
    text: str
    colour: str = "000000"
    size: int = 14
    bold: bool = False
    anchor: str = "lt"


Shape = Union[Box, Line, Dot, Label]


@dataclass(frozen=True)
class Picture:
    """A drawing `width` x `height` pixels on a `background`, shapes painted in order."""
    width: int
    height: int
    shapes: tuple[Shape, ...]
    background: str = "FFFFFF"
    title: str = ""


register_types(Box, Line, Dot, Label, Picture)
