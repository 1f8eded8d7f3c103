"""Games are pure: no file, network, clock or global random in sheetbridge/games."""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN = {"os", "pathlib", "io", "openpyxl", "gspread", "requests", "time", "datetime", "random",
             "pandas", "socket", "urllib", "http", "subprocess", "shutil", "tempfile", "secrets", "uuid",
             "sheetbridge"}
GAME_FILES = sorted((ROOT / "sheetbridge" / "games").glob("*.py"))


def impure_uses(source: str) -> list[str]:
    bad = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            bad += [a.name for a in node.names if a.name.split(".")[0] in FORBIDDEN]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] in FORBIDDEN:
                bad.append(node.module)
        elif isinstance(node, ast.ImportFrom) and node.level == 2 and (node.module or "").split(".")[0] not in ("core",):
            bad.append(f"..{node.module}")  # games may use the pure core only
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in (
                "open", "input", "print", "__import__", "exec", "eval"):
            bad.append(node.func.id + "()")
    return bad


@pytest.mark.parametrize("path", GAME_FILES, ids=lambda p: p.name)
def test_game_module_imports_no_io(path):
    bad = impure_uses(path.read_text(encoding="utf-8"))
    assert not bad, f"{path.name} uses I/O, the clock or global random: {bad}"


@pytest.mark.parametrize("src", ["import random", "from os import path", "import time as t",
                                 "print('x')", "open('f')", "from ..sheets import xlsx",
                                 "from sheetbridge.sheets import xlsx"])
def test_the_check_catches_impure_code(src):
    assert impure_uses(src)


def test_the_check_allows_the_pure_core():
    assert not impure_uses("from ..core.rng import Rng\nfrom ..core import types\nimport math\nimport itertools")
