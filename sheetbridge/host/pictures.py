"""Draw a :class:`~sheetbridge.core.picture.Picture` as a PNG with Pillow.

Pillow is the maintained imaging library of Python, a wheel with no system packages,
and it ships a scalable default font, so the same picture gives the same bytes on
every machine (no system fonts, no timestamps in the PNG).

>>> from sheetbridge.core.picture import Box, Picture
>>> png = render_png(Picture(40, 20, (Box(0, 0, 20, 20, fill="FF0000", outline=None),)))
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""
from __future__ import annotations

import io
import os
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from ..core.picture import Box, Dot, Label, Line, Picture


def _rgb(hex_rgb: str | None) -> tuple[int, int, int] | None:
    if not hex_rgb:
        return None
    h = hex_rgb.lstrip("#")[-6:]
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


@lru_cache(maxsize=32)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def draw(picture: Picture, scale: float = 1.0) -> Image.Image:
    """The picture as a Pillow image (RGB), `scale` times its nominal size."""
    s = float(scale)
    img = Image.new("RGB", (max(1, round(picture.width * s)), max(1, round(picture.height * s))),
                    _rgb(picture.background) or (255, 255, 255))
    pen = ImageDraw.Draw(img)
    for shape in picture.shapes:
        if isinstance(shape, Box):
            pen.rectangle([shape.x * s, shape.y * s, (shape.x + shape.w) * s - 1, (shape.y + shape.h) * s - 1],
                          fill=_rgb(shape.fill), outline=_rgb(shape.outline),
                          width=max(1, round(shape.width * s)) if shape.outline else 0)
        elif isinstance(shape, Line):
            pts = [(x * s, y * s) for x, y in shape.points]
            width = max(1, round(shape.width * s))
            if shape.dashed:
                for a, b in _dashes(pts, 6 * s):
                    pen.line([a, b], fill=_rgb(shape.colour), width=width)
            else:
                pen.line(pts, fill=_rgb(shape.colour), width=width, joint="curve")
        elif isinstance(shape, Dot):
            r = shape.r * s
            pen.ellipse([shape.x * s - r, shape.y * s - r, shape.x * s + r, shape.y * s + r],
                        fill=_rgb(shape.fill), outline=_rgb(shape.outline))
        elif isinstance(shape, Label):
            font = _font(max(6, round(shape.size * s)))
            pen.text((shape.x * s, shape.y * s), shape.text, fill=_rgb(shape.colour), font=font,
                     anchor=shape.anchor if shape.anchor in ("lt", "mm", "lm", "rm", "mt") else "lt",
                     stroke_width=1 if shape.bold else 0, stroke_fill=_rgb(shape.colour) if shape.bold else None)
        else:  # pragma: no cover - a new shape type must be drawn here
            raise TypeError(f"cannot draw {type(shape).__name__}")
    return img


def _dashes(points, dash: float):
    out = []
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        length = ((x1 - x0) ** 2 + (y1 - y0) ** 2) ** 0.5
        n = max(1, int(length // dash))
        for i in range(0, n, 2):
            t0, t1 = i / n, min(1.0, (i + 1) / n)
            out.append(((x0 + (x1 - x0) * t0, y0 + (y1 - y0) * t0), (x0 + (x1 - x0) * t1, y0 + (y1 - y0) * t1)))
    return out


class _PngBuffer(io.BytesIO):
    """A buffer named like a PNG file: Pillow then loads its PNG writer alone, where ``format="PNG"``
    loads its five common formats first (BMP, GIF, JPEG, PPM and PNG: about 7 ms of a command)."""
    name = "picture.png"


def render_png(picture: Picture, scale: float = 1.0) -> bytes:
    """PNG bytes; the same picture always gives the same bytes."""
    buf = _PngBuffer()
    draw(picture, scale).save(buf, optimize=False)
    return buf.getvalue()


@lru_cache(maxsize=64)
def png_bytes(picture: Picture, scale: float = 1.0) -> bytes:
    """:func:`render_png`, remembered: a round's board goes into the board book and into its file, and
    a command compares the last round's pictures with the files (all of a 12-player round, and the
    round before it for undo: 64 PNGs are a few MB)."""
    return render_png(picture, scale)


def save_png(picture: Picture, path: str | os.PathLike, scale: float = 1.0) -> Path:
    """Write the PNG atomically (a temporary file renamed into place, as picture_files.py writes them)."""
    from ..sheets.xlsx import replace_atomically
    path = Path(path)
    replace_atomically(path, png_bytes(picture, scale))
    return path
