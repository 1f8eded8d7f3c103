"""docs/architecture.md matches the tree: every package and every module of core/, host/, sheets/
and the Google backend is named there, every game package is listed, and every path it names exists."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "sheetbridge"
DOC = (ROOT / "docs" / "architecture.md").read_text()


def test_every_package_is_in_the_tree():
    packages = sorted({p.parent.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("__init__.py")} - {"."})
    assert packages
    for rel in packages:
        assert f"{rel.split('/')[-1]}/" in DOC, f"docs/architecture.md does not name sheetbridge/{rel}/"


def test_every_module_of_the_rooms_is_named():
    rooms = ["core", "host", "sheets", "sheets/google", "simulate", "games"]
    missing = [f"{room}/{p.stem}" for room in rooms for p in sorted((PACKAGE / room).glob("*.py"))
               if p.stem != "__init__" and not re.search(rf"\b{re.escape(p.stem)}\b", DOC)]
    assert not missing, f"docs/architecture.md does not name: {', '.join(missing)}"


def test_every_path_it_names_exists():
    named = set(re.findall(r"`((?:core|host|sheets|games|simulate|cli)/[a-z_]+(?:/[a-z_]+)*\.py)", DOC))
    assert named
    missing = [n for n in sorted(named) if not (PACKAGE / n).exists()]
    assert not missing, f"docs/architecture.md names files that do not exist: {missing}"
