"""Types are checked in CI (issue 26, point 4): .ci/run runs mypy after the tests, over what
pyproject's [tool.mypy] lists, and the package says it is typed (PEP 561)."""
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ci_runs_the_type_checker_after_the_tests():
    lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()]
    tests = next(i for i, line in enumerate(lines) if "-m pytest" in line)
    assert ".venv/bin/mypy" in lines[tests + 1:], ".ci/run must run `.venv/bin/mypy` after the test command"
    assert "set -euo pipefail" in lines                 # so a type error fails the run


def test_mypy_checks_the_core_and_the_games_and_the_package_is_typed():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert {"sheetbridge/core", "sheetbridge/games"} <= set(config["tool"]["mypy"]["files"])
    assert "mypy" in " ".join(config["project"]["optional-dependencies"]["test"])
    assert (ROOT / "sheetbridge" / "py.typed").is_file()
