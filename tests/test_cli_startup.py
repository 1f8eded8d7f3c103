"""Issue 13: `sheetbridge --help` and `sheetbridge games` import nothing heavy (commands are loaded
lazily, heavy imports live inside the functions that need them). Which modules, never how long:
the timing is benchmarks/cli_startup.py's."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from sheetbridge.cli import COMMANDS, main

ROOT = Path(__file__).resolve().parent.parent
BUILT_IN_MODULES = sorted(f"sheetbridge.games.{p.parent.name}" for p in (ROOT / "sheetbridge" / "games").glob("*/__init__.py"))
HEAVY = ("gspread", "google", "google_auth_oauthlib", "requests", "urllib3", "pandas", "numpy", "matplotlib",
         "tqdm", "openpyxl", "PIL", "tenacity", "filelock", "sheetbridge.host.session", "sheetbridge.sheets")


def _modules_after(*args: str) -> tuple[list[str], str]:
    code = ("import json, sys\n"
            "from sheetbridge.cli import main\n"
            "try:\n"
            "    main(list(sys.argv[1:]), prog_name='sheetbridge')\n"
            "except SystemExit:\n"
            "    pass\n"
            "sys.stderr.write('\\nMODULES ' + json.dumps(sorted(sys.modules)))\n")
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=120,
                         cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    return json.loads(out.stderr.rsplit("\nMODULES ", 1)[1]), out.stdout


@pytest.mark.parametrize("args", [("--help",), ("games",)])
def test_help_and_games_import_nothing_heavy(args):
    modules, output = _modules_after(*args)
    heavy = sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))
    assert heavy == [], f"`sheetbridge {' '.join(args)}` imported {heavy}"
    if args == ("--help",):
        assert "resolve" in output and "Resolve the open round" in output
        assert not [m for m in modules if m.startswith("sheetbridge.core")]    # not even the game registry
        assert not [m for m in modules if m.startswith("sheetbridge.cli.")]    # nor any command's module
    else:
        assert "three-modular-rooms" in output
        assert "importlib.metadata" not in modules   # no installed package declares a game (sheetbridge/plugins.py)
        # a game package's light spec chapter stands for the game's rules: importing
        # them would cost ~0.1 s (the registry, which lives with the games, is not a game)
        packages = {p.parent.name for p in (ROOT / "sheetbridge" / "games").glob("*/__init__.py")}
        light = {"sheetbridge.games.registry"} | {f"sheetbridge.games.{p}{chapter}" for p in packages
                                                  for chapter in ("", ".spec")}
        assert [m for m in modules if m.startswith("sheetbridge.games.") and m not in light] == []


def test_every_game_package_is_registered_and_lists_what_its_rules_say():
    """`sheetbridge games` reads each game package's light SPEC, not its rules: every package under
    sheetbridge/games/ is a built-in game, and its listing is what its GAME says."""
    from importlib import import_module

    from sheetbridge.games import GameSummary
    from sheetbridge.games.registry import BUILT_IN, built_in_summary
    games = ROOT / "sheetbridge" / "games"
    assert sorted(BUILT_IN) == sorted(f"sheetbridge.games.{p.parent.name}" for p in games.glob("*/__init__.py"))
    assert [p.stem for p in games.glob("*.py")] and all(p.stem in ("__init__", "registry") for p in games.glob("*.py"))
    for module in BUILT_IN:
        assert built_in_summary(module) == GameSummary.of(import_module(module).GAME)


def test_a_games_spec_chapter_defines_no_class():
    """`sheetbridge games` reads each game's spec chapter, so it defines no class of its own (issue 31: the
    typed `Options` and their enums live in the options chapter; defining the five games' was about a
    tenth of `games`, benchmarks/cli_startup.py), and a game's package does not load its options."""
    code = ("import importlib, json, sys\n"
            "specs = [importlib.import_module(m + '.spec') for m in sys.argv[1:]]\n"
            "print(json.dumps({s.__name__: [n for n, v in vars(s).items() if isinstance(v, type) and v.__module__ == "
            "s.__name__] for s in specs}))\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith('sheetbridge.games.'))))\n")
    out = subprocess.run([sys.executable, "-c", code, *BUILT_IN_MODULES], capture_output=True, text=True, timeout=120,
                         cwd=ROOT, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"}, check=True).stdout
    classes, loaded = map(json.loads, out.splitlines())
    assert classes == {f"{m}.spec": [] for m in BUILT_IN_MODULES}
    assert loaded == sorted(f"{m}{chapter}" for m in BUILT_IN_MODULES for chapter in ("", ".spec"))
    from sheetbridge.games.three_modular_rooms.options import Options
    assert Options.__module__ == "sheetbridge.games.three_modular_rooms.options"


def test_games_lists_what_the_game_modules_say():
    from sheetbridge.api import games, summaries
    from sheetbridge.games import GameSummary
    assert summaries() == {gid: GameSummary.of(game) for gid, game in games().items()}
    out = CliRunner().invoke(main, ["games"]).output.splitlines()
    assert [line.split()[0] for line in out] == sorted(games())
    assert "Bugcatcher               players 2-12 (designed for 9), 7 rounds" in out[1]


def test_every_command_is_listed_and_loads():
    res = CliRunner().invoke(main, ["--help"])
    listed = re.findall(r"^  ([a-z-]+) ", res.output.split("Commands:")[1], re.M)
    assert listed == sorted(COMMANDS)
    for name in COMMANDS:
        res = CliRunner().invoke(main, [name, "--help"])
        assert res.exit_code == 0 and res.output.startswith(f"Usage: main {name}"), res.output


def test_help_lists_each_command_as_its_own_help_would(monkeypatch):
    """`--help` lists the commands from the first sentences in COMMANDS, importing none of them: each is
    the command's own short help at every width, and the whole text is the same as with every command
    loaded (what click drew before)."""
    import importlib

    import click
    for name, (module, attr, summary) in COMMANDS.items():
        command = getattr(importlib.import_module(f"sheetbridge.cli.{module}"), attr)
        assert not command.hidden and not command.deprecated and not command.short_help, name
        stand_in = click.Command(name, help=summary)
        for width in range(3, 400):
            assert stand_in.get_short_help_str(width) == command.get_short_help_str(width), (name, width)
    loaded_commands = {name: main.get_command(None, name) for name in COMMANDS}
    for columns in ("40", "80", "200"):
        monkeypatch.setenv("COLUMNS", columns)
        fresh = type(main)("sheetbridge", params=main.params, help=main.help, context_settings=main.context_settings)
        lazy = fresh.make_context("sheetbridge", ["--help"], resilient_parsing=True).get_help()
        assert not fresh.commands   # (nothing was loaded to draw it)
        loaded = click.Group("sheetbridge", commands=loaded_commands, params=main.params, help=main.help,
                             context_settings=main.context_settings)
        assert lazy == loaded.make_context("sheetbridge", ["--help"], resilient_parsing=True).get_help(), columns


def test_a_game_package_is_listed_from_its_light_spec(tmp_path, monkeypatch):
    """A game that is a package (games/<game>/, issue 26) is listed from the SPEC its __init__ takes
    from its spec chapter, not from the catalogue and without importing its rules."""
    from sheetbridge.games import GameSummary
    from sheetbridge.games.registry import built_in_summary
    (tmp_path / "fakegame").mkdir()
    (tmp_path / "fakegame" / "__init__.py").write_text(
        "from sheetbridge.core.types import GameSpec\n"
        "SPEC = GameSpec(id='fake', name='Fake', min_players=2, max_players=4, rounds=3, summary='')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert built_in_summary("fakegame") == GameSummary("fake", "Fake", 2, 4, None, 3, "fakegame")


# Issue 31: a command imports the game it plays and the libraries its path uses, nothing more.
NOT_ON_THE_XLSX_PATH = ("gspread", "google", "google_auth_oauthlib", "googleapiclient", "requests", "urllib3",
                        "pandas", "numpy", "matplotlib", "dask", "tqdm", "openpyxl", "tenacity",
                        "sheetbridge.sheets.google", "sheetbridge.simulate", "sheetbridge.host.announce",
                        "sheetbridge.host.export", "sheetbridge.host.season",
                        "socket", "csv",   # (the lock's host name from platform; templates' CSV for new games)
                        "filelock", "asyncio")   # (the folder's lock is fcntl's on POSIX: sheets/folder_lock.py)


def test_a_resolve_of_one_game_imports_that_game_only_and_no_library_off_its_path(tmp_path):
    """`sheetbridge resolve` of a Three Modular Rooms round on .xlsx files, every player's entries typed:
    the other games' packages (not even their light specs) and the libraries of other paths (Google,
    pandas, plotting, openpyxl: calamine reads and XlsxWriter writes a round's books) are never imported."""
    from sheetbridge.api import load_match
    from sheetbridge.core.match import random_submissions
    from sheetbridge.core.rng import Rng
    from sheetbridge.host.demo import fill_submission
    from sheetbridge.host.session import load
    from sheetbridge.sheets.xlsx import XlsxStore
    folder = tmp_path / "game"
    res = CliRunner().invoke(main, ["new", "three-modular-rooms", "--players", "Ann,Bo,Cy,Dee", "--out", str(folder),
                                    "--garnets", "10", "--seed", "3"])
    assert res.exit_code == 0, res.output
    store = XlsxStore(folder)
    ld = load(store)
    for player, raw in random_submissions(ld.match, Rng.from_seed(3, "typed")).items():
        fill_submission(store, ld, player, raw)
    modules, output = _modules_after("resolve", str(folder), "--quiet")
    assert "round 1 resolved and published" in output, output
    assert load_match(load(store).match.to_json()).round == 2
    games = sorted({".".join(m.split(".")[:3]) for m in modules if m.startswith("sheetbridge.games.")})
    assert games == ["sheetbridge.games.registry", "sheetbridge.games.three_modular_rooms"]
    off_path = sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in NOT_ON_THE_XLSX_PATH))
    assert off_path == [], f"`sheetbridge resolve` imported {off_path}"
    assert "importlib.metadata" not in modules   # a built-in game's id: the plugins' entry points are not read
    assert "importlib.resources" not in modules  # templates/ is a folder: the package loader is not asked
    assert [m for m in modules if m.startswith("PIL.") and m.endswith("ImagePlugin")] == ["PIL.PngImagePlugin"]


def test_get_game_imports_only_its_package_and_every_game_stays_reachable():
    """`get_game` of a built-in id imports that package alone; listing every game still finds all of
    them (built-in and plugins), in the same order as before."""
    code = ("import json, sys\n"
            "from sheetbridge.api import get_game\n"
            "game = get_game('big-machine')\n"
            "loaded = sorted({'.'.join(m.split('.')[:3]) for m in sys.modules if m.startswith('sheetbridge.games.')})\n"
            "from sheetbridge.api import games, summaries\n"
            "assert games()['big-machine'] is game and list(games()) == list(summaries())\n"
            "print(json.dumps(loaded))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == ["sheetbridge.games.big_machine", "sheetbridge.games.registry"]


def test_a_built_in_id_is_taken_before_its_game_is_played():
    """A game registered (or a plugin installed) under a built-in game's id is refused as before, even
    though the built-in game is imported only when first played (a fresh interpreter: nothing played)."""
    code = ("from sheetbridge.games import registry\n"
            "from sheetbridge.games.skeld.game import Skeld\n"
            "for attempt in (lambda: registry.register(Skeld()), lambda: registry._add_plugin(Skeld(), 'x:GAME')):\n"
            "    try:\n"
            "        attempt()\n"
            "    except ValueError as e:\n"
            "        print(e)\n"
            "print(registry.get_game('skeld') is registry.games()['skeld'] is registry.get_game('skeld'))\n"
            "try:\n"
            "    registry.get_game('nope')\n"
            "except Exception as e:\n"
            "    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        "game id 'skeld' registered twice",
        "its game id 'skeld' is already taken by sheetbridge.games.skeld.game",
        "True",
        "unknown game 'nope'; known games: big-machine, bugcatcher, flickering-lights, skeld, three-modular-rooms "
        "(see `sheetbridge games`)"]
