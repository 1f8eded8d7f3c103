"""Games and the core are pure: no file, network, clock or global random in sheetbridge/games or
sheetbridge/core, a game module or package included (every file of games/<game>/ is read)."""
import ast
import sys
from pathlib import Path

import pytest

from sheetbridge.testing import impure_uses

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "sheetbridge" / "games"
CORE = ROOT / "sheetbridge" / "core"
# The registry is the games' one door to installed packages (plugin entry points): not a game.
GAME_FILES = sorted(p for p in GAMES.rglob("*.py") if p != GAMES / "registry.py")
CORE_FILES = sorted(CORE.rglob("*.py"))


def _name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def relative_imports_outside(path: Path, allowed: tuple[str, ...]) -> list[str]:
    """The file's relative imports that land outside the `allowed` packages (made absolute)."""
    name = _name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    bad = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package.split(".")[:len(package.split(".")) - node.level + 1]
            target = ".".join(base + ([node.module] if node.module else []))
            if not any(target == a or target.startswith(a + ".") for a in allowed):
                bad.append(target)
    return bad


def _id(path: Path) -> str:
    return str(path.relative_to(ROOT / "sheetbridge"))


@pytest.mark.parametrize("path", GAME_FILES, ids=_id)
def test_game_module_imports_no_io(path):
    bad = impure_uses(path.read_text(encoding="utf-8"))
    # a game may use the pure core and its own modules (games/<game>.py, or the files of games/<game>/)
    parts = path.relative_to(GAMES).with_suffix("").parts
    own = "sheetbridge.games" if parts == ("__init__",) else f"sheetbridge.games.{parts[0]}"
    bad += relative_imports_outside(path, ("sheetbridge.core", own))
    assert not bad, f"{_id(path)} uses I/O, the clock or global random, or imports outside the core: {bad}"


# facts.py builds each fact's quick __init__ from its field names (a speed trick that pays: see there).
CORE_ALLOWED = {"facts.py": ["exec()"]}


@pytest.mark.parametrize("path", CORE_FILES, ids=_id)
def test_core_module_imports_no_io(path):
    bad = impure_uses(path.read_text(encoding="utf-8")) + relative_imports_outside(path, ("sheetbridge.core",))
    bad = [b for b in bad if b not in CORE_ALLOWED.get(path.name, [])]
    assert not bad, f"{_id(path)} uses I/O, the clock or global random, or imports above the core: {bad}"


@pytest.mark.parametrize("src", ["import random", "from os import path", "import time as t",
                                 "print('x')", "open('f')", "from ..sheets import xlsx",
                                 "from sheetbridge.sheets import xlsx"])
def test_the_check_catches_impure_code(src):
    assert impure_uses(src, built_in=True)


def test_the_check_allows_the_pure_core():
    assert not impure_uses("from ..core.rng import Rng\nfrom ..core import types\nimport math\nimport itertools",
                           built_in=True)


def test_a_game_package_may_import_the_core_and_its_own_chapters_only(tmp_path, monkeypatch):
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    chapter = tmp_path / "sheetbridge" / "games" / "mygame" / "rules.py"
    chapter.parent.mkdir(parents=True)
    chapter.write_text("from ...core.rng import Rng\nfrom .facts import Scored\nfrom ..skeld import GAME\n"
                       "from ...templates import default_tables\n")
    assert relative_imports_outside(chapter, ("sheetbridge.core", "sheetbridge.games.mygame")) == [
        "sheetbridge.games.skeld", "sheetbridge.templates"]
