"""A game's settings: ``sheetbridge.json`` in its folder (backend, master, files) and the setting
rows and host options of its master's Config tab."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping

from ..core.errors import WorkbookError

CONFIG_FILE = "sheetbridge.json"


def read_config(folder: Path) -> dict:
    path = folder / CONFIG_FILE
    if not path.exists():
        if (folder / "master.xlsx").exists():
            return {"backend": "xlsx"}
        if not folder.exists():
            raise WorkbookError(f"{folder}: no such game folder; create one with `sheetbridge new GAME --out {folder}`")
        raise WorkbookError(f"{folder}: no sheetbridge game here (no master.xlsx or {CONFIG_FILE})")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise WorkbookError(f"{path}: not valid JSON ({e.msg}, line {e.lineno})") from None


def write_config(folder: Path, cfg: Mapping[str, Any]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / CONFIG_FILE).write_text(json.dumps(cfg, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def read_setting(rect, key: str) -> str | None:
    """A setting row of the Config tab ("deadline" | value), above the options; None if absent."""
    for row in rect:
        if row and row[0] == "option":
            break
        if row and row[0] == key:
            return row[1].strip() if len(row) > 1 else ""
    return None


def read_options(rect) -> dict[str, str] | None:
    out: dict[str, str] = {}
    in_options = False
    for row in rect:
        if row and row[0] == "option":
            in_options = True
            continue
        if in_options and row and row[0]:
            out[row[0]] = row[1] if len(row) > 1 else ""
    return out if in_options else None


