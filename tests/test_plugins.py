"""A new game as a plugin: `init-game` writes a package, installing it makes every command work with it,
and the conformance checks catch a broken game."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetbridge.cli import main
from sheetbridge.testing import ConformanceError, check_game

ROOT = Path(__file__).resolve().parent.parent


def install(site: Path, package_dir: Path, dist: str, entry_points: str) -> None:
    """What `pip install` leaves behind, offline: the package on the path and its dist-info
    (METADATA and entry_points.txt, which is how sheetbridge finds a game)."""
    info = site / f"{dist.replace('-', '_')}-0.1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 0.1.0\n")
    (info / "entry_points.txt").write_text(f"[sheetbridge.games]\n{entry_points}\n")
    for path in package_dir.rglob("*.py"):
        target = site / path.relative_to(package_dir.parent)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(path.read_text())


def cli(site: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)])}
    return subprocess.run([sys.executable, "-m", "sheetbridge.cli", *args], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=600)


@pytest.fixture(scope="module")
def plugin(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("plugin")
    res = CliRunner().invoke(main, ["init-game", "Coin Flip", "--out", str(tmp / "coin-flip")])
    assert res.exit_code == 0, res.output
    site = tmp / "site"
    install(site, tmp / "coin-flip" / "coin_flip", "sheetbridge-coin-flip", "coin-flip = coin_flip.game:GAME")
    return tmp, site


def test_init_game_writes_a_complete_package(plugin):
    tmp, _ = plugin
    pkg = tmp / "coin-flip"
    chapters = ("__init__", "content", "facts", "game", "intake", "options", "play", "position", "render", "rules",
                "spec", "state")   # the same chapters as every built-in game's package
    assert sorted(str(p.relative_to(pkg)) for p in pkg.rglob("*") if p.is_file()) == [
        "README.md", *(f"coin_flip/{c}.py" for c in chapters), "docs/coin-flip.md", "pyproject.toml",
        "tests/test_game.py"]
    assert '[project.entry-points."sheetbridge.games"]' in (pkg / "pyproject.toml").read_text()
    res = CliRunner().invoke(main, ["init-game", "Coin Flip", "--out", str(pkg)])
    assert res.exit_code == 2 and "exists and is not empty" in res.output


def test_an_installed_plugin_is_listed_and_plays_a_whole_demo_through_the_cli(plugin, tmp_path):
    _, site = plugin
    res = cli(site, "games", cwd=tmp_path)
    assert res.returncode == 0 and "coin-flip" in res.stdout and "three-modular-rooms" in res.stdout
    res = cli(site, "demo", "coin-flip", "--out", "demo", "--quiet", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "Coin Flip demo (seed 7): 3 rounds played" in res.stdout
    assert (tmp_path / "demo" / "master.xlsx").exists() and len(list((tmp_path / "demo" / "players").iterdir())) == 5
    res = cli(site, "status", "demo", cwd=tmp_path)
    assert res.returncode == 0 and "is over" in res.stdout


def test_the_plugins_own_tests_pass_the_conformance_checks(plugin):
    tmp, site = plugin
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT)])}
    res = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"],
                         cwd=tmp / "coin-flip", capture_output=True, text=True, env=env, timeout=600)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "2 passed" in res.stdout


def test_a_plugin_that_fails_to_load_is_reported_and_the_others_still_work(tmp_path):
    site = tmp_path / "site"
    (tmp_path / "broken_game").mkdir()
    (tmp_path / "broken_game" / "__init__.py").write_text("raise ImportError('no module named shapely')\n")
    install(site, tmp_path / "broken_game", "sheetbridge-broken", "broken = broken_game:GAME")
    res = cli(site, "games", cwd=tmp_path)
    assert res.returncode == 0 and "three-modular-rooms" in res.stdout
    assert "the game plugin 'broken' failed to load (ImportError: no module named shapely)" in res.stderr


def _variant(tmp_path, name: str, old: str, new: str):
    """The skeleton game with one change in the chapter that holds `old`, as its own package (a plugin
    author's mistake)."""
    import importlib
    res = CliRunner().invoke(main, ["init-game", "Coin Flip", "--out", str(tmp_path / name / "src")])
    assert res.exit_code == 0
    chapters = sorted((tmp_path / name / "src" / "coin_flip").glob("*.py"))
    assert any(old in c.read_text() for c in chapters)
    (tmp_path / name / name).mkdir()
    for chapter in chapters:
        source = chapter.read_text().replace(old, new).replace('id="coin-flip"', f'id="{name.replace("_", "-")}"')
        (tmp_path / name / name / chapter.name).write_text(source)
    sys.path.insert(0, str(tmp_path / name))
    try:
        return importlib.import_module(name).GAME
    finally:
        sys.path.remove(str(tmp_path / name))


def test_the_conformance_checks_catch_a_broken_game(tmp_path):
    fine = _variant(tmp_path, "fine_flip", "import copy\n", "import copy\n")
    check_game(fine, seeds=(1,))                                      # the skeleton itself keeps every promise
    mutates = _variant(tmp_path, "mutating_flip", "st = copy.deepcopy(state)   # resolve never changes its input",
                       "st = state   # a mistake: the input is changed")
    with pytest.raises(ConformanceError, match="resolve modified its input state"):
        check_game(mutates, seeds=(1,))
    raises = _variant(tmp_path, "raising_flip", "value = parse_int(text)", "value = int(text)")
    with pytest.raises(ConformanceError, match="parse raised ValueError"):
        check_game(raises, seeds=(1,))
    impure = _variant(tmp_path, "impure_flip", "import copy\n", "import copy\nimport random\n")
    with pytest.raises(ConformanceError, match="uses I/O, the clock or global random: random;"):
        check_game(impure, seeds=(1,))
    signature = "    def random_submission(self, state: State, player: str, rng: Rng) -> RawSubmission:\n"
    claims = _variant(tmp_path, "claiming_flip", signature,
                      "    def random_play(self, state, player, rng):   # a mistake: not what parse reads\n"
                      "        return self.random_submission(state, player, rng), {'number': 99}\n\n" + signature)
    with pytest.raises(ConformanceError, match="random_play claimed values for .* that parse does not read"):
        check_game(claims, seeds=(1,))


@pytest.mark.parametrize("game_id", ["three-modular-rooms", "skeld", "bugcatcher", "big-machine", "flickering-lights"])
def test_every_built_in_game_passes_the_checks_offered_to_plugins(game_id):
    check_game(game_id, seeds=(1,))


def test_the_plugins_look_finds_what_importlib_metadata_finds(tmp_path, monkeypatch):
    """sheetbridge/plugins.py skips importlib.metadata (about 25 ms of `sheetbridge games`) only when no
    dist-info or egg-info on the path names the ``sheetbridge.games`` group: whatever it finds is what
    importlib.metadata finds, and a zip or an egg on the path, or any declaration at all, asks it."""
    import importlib.metadata

    from sheetbridge import plugins

    def both(group: str = plugins.GROUP) -> tuple[list, list]:
        found = sorted(importlib.metadata.entry_points(group=group), key=lambda ep: ep.name)
        return [(ep.name, ep.value) for ep in plugins.entry_points(group)], [(ep.name, ep.value) for ep in found]

    real = list(sys.path)
    assert plugins.may_declare("console_scripts")       # this environment's own packages are seen
    for group in (plugins.GROUP, "console_scripts"):   # this environment: the same as importlib.metadata's
        mine, theirs = both(group)
        assert mine == theirs and (mine or group == plugins.GROUP), group
    site = tmp_path / "site"
    (site / "other-1.0.dist-info").mkdir(parents=True)
    (site / "other-1.0.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: other\nVersion: 1.0\n")
    (site / "other-1.0.dist-info" / "entry_points.txt").write_text("[console_scripts]\nother = other:main\n")
    (site / "bare-1.0.dist-info").mkdir()
    (site / "bare-1.0.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: bare\nVersion: 1.0\n")
    (site / "legacy-1.0.egg-info").write_text("Metadata-Version: 1.0\nName: legacy\nVersion: 1.0\n")
    # A finder of another library's that finds distributions of its own (importlib_metadata's backport,
    # which dask imports, takes the standard one's place) makes the look always ask importlib.metadata.
    from importlib.machinery import PathFinder
    foreign = [f for f in sys.meta_path if hasattr(f, "find_distributions") and f is not PathFinder]
    monkeypatch.setattr(sys, "path", [str(site), str(tmp_path / "missing")])
    assert plugins.may_declare() == bool(foreign) and both() == ([], [])

    class OwnFinder:
        @staticmethod
        def find_distributions(context=None):
            return iter(())
    monkeypatch.setattr(sys, "meta_path", [*sys.meta_path, OwnFinder()])
    assert plugins.may_declare() and both() == ([], [])
    monkeypatch.setattr(sys, "meta_path", [f for f in sys.meta_path if not isinstance(f, OwnFinder)])
    for info in ("game-1.0.egg-info", "Upper_Game-2.0.DIST-INFO"):
        (site / info).mkdir()
        (site / info / "PKG-INFO").write_text(f"Metadata-Version: 1.0\nName: {info[:-14]}\nVersion: 1.0\n")
        (site / info / "entry_points.txt").write_text(f"[sheetbridge.games]\n{info[:4].lower()} = g:GAME\n")
        assert plugins.may_declare()
        mine, theirs = both()
        assert mine == theirs and mine, info
    (tmp_path / "bundle.zip").write_bytes(b"PK\x05\x06" + bytes(18))
    monkeypatch.setattr(sys, "path", [str(tmp_path / "bundle.zip")])
    assert plugins.may_declare() and both() == ([], [])
    monkeypatch.setattr(sys, "path", real)
