"""Finding templates/: each game's default content (CSV) and the sheet layout (JSON).

In a source checkout templates/ sits beside the package; an installed wheel
carries it inside the package as sheetbridge/templates_data (see pyproject).
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from .core.errors import ConfigError
from .core.game import GameRules
from .core.types import Tables


@lru_cache(maxsize=1)
def templates_dir() -> Path:
    root = Path(__file__).resolve().parent.parent
    if (root / "templates").is_dir() and (root / "pyproject.toml").is_file():
        return root / "templates"  # a source checkout (or an editable install): the live folder
    packaged = Path(__file__).resolve().parent / "templates_data"   # a wheel installed in a folder
    if packaged.is_dir():
        return packaged
    from importlib import resources   # (what else the package loader may know: about 6 ms to import)
    packaged_resource = resources.files("sheetbridge") / "templates_data"
    if packaged_resource.is_dir():
        return Path(str(packaged_resource))
    raise ConfigError("sheetbridge's templates/ folder is missing from this installation; reinstall sheetbridge")


def read_text(*parts: str) -> str:
    path = templates_dir().joinpath(*parts)
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"template {'/'.join(parts)} is missing from {templates_dir()}") from None


def read_csv(*parts: str) -> list[list[str]]:
    """A template CSV as a rectangle of strings (header row included, nothing converted)."""
    import csv   # (only the default tables are CSV: a round's command reads none)
    import io
    return [row for row in csv.reader(io.StringIO(read_text(*parts)))]


@lru_cache(maxsize=None)
def layout() -> dict[str, Any]:
    """Tab names, colours and widths shared by every game's workbooks."""
    return json.loads(read_text("layout.json"))


def default_tables(game: GameRules) -> Tables:
    """The game's default content tables, as shipped in templates/<game-id>/ (or by a plugin game)."""
    own = game.default_tables()
    if own is not None:
        return own
    return {t.name: read_csv(game.spec.id, t.file) for t in game.spec.tables}
