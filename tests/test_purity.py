"""Games are pure: no file, network, clock or global random in sheetbridge/games."""
from pathlib import Path

import pytest

from sheetbridge.testing import impure_uses as _impure_uses

ROOT = Path(__file__).resolve().parent.parent
GAME_FILES = sorted((ROOT / "sheetbridge" / "games").glob("*.py"))


def impure_uses(source: str) -> list[str]:
    return _impure_uses(source, built_in=True)


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
