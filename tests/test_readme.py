"""The README's two one-line commands exist, and CI runs the test one verbatim."""
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_commands():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip().startswith("python3 -m venv .venv &&")]


def test_readme_has_the_two_commands():
    cmds = readme_commands()
    assert len(cmds) == 2, cmds
    assert any("sheetbridge demo three-modular-rooms" in c for c in cmds)
    assert any("pytest" in c for c in cmds)


def test_ci_runs_the_readme_test_command():
    test_cmd = next(c for c in readme_commands() if "pytest" in c)
    assert test_cmd in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
