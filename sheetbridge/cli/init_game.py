"""`sheetbridge init-game NAME`: a package skeleton for a new game, installable as a plugin."""
import re
from pathlib import Path
from string import Template

import click

# The game package's chapters, in reading order: the same as every built-in game's.
CHAPTERS = ("__init__", "spec", "options", "state", "content", "facts", "intake", "rules", "render", "play", "position", "game")


def skeleton(name: str) -> dict[str, str]:
    """The files of a new game package, by path relative to its folder."""
    from ..core.errors import UsageError
    from ..templates import read_text
    game_id = re.sub(r"[^a-z0-9]+", "-", name.strip().lower()).strip("-")
    if not game_id or not game_id[0].isalpha():
        raise UsageError(f"{name!r}: a game's name must start with a letter (it becomes the id, e.g. 'coin-flip')")
    pkg = game_id.replace("-", "_")
    values = {"id": game_id, "pkg": pkg, "dist": f"sheetbridge-{game_id}",
              "title": " ".join(w.capitalize() for w in game_id.split("-")),
              "class_name": "".join(w.capitalize() for w in game_id.split("-"))}

    def fill(template: str) -> str:
        return Template(read_text("plugin", template)).substitute(values)
    files = {"pyproject.toml": fill("pyproject.toml.tmpl"), "README.md": fill("README.md.tmpl")}
    files.update({f"{pkg}/{chapter}.py": fill(f"package/{chapter}.py.tmpl") for chapter in CHAPTERS})
    files.update({"tests/test_game.py": fill("test_game.py.tmpl"), f"docs/{game_id}.md": fill("docs.md.tmpl")})
    return files


@click.command("init-game")
@click.argument("name")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where to create the package folder (default: ./NAME).")
def command(name, out) -> None:
    """Write a package skeleton for a new game: the game package (rules in its docstring, one file per
    chapter as in the built-in games: spec, options, state, content, facts, intake, rules, render, play,
    position, game; a tiny working resolve), its tests (the sheetbridge contract in one line) and a docs page."""
    from ..core.errors import UsageError
    files = skeleton(name)
    game_id = next(p for p in files if p.startswith("docs/"))[5:-3]
    folder = out or Path(game_id)
    if folder.exists() and any(folder.iterdir()):
        raise UsageError(f"{folder} exists and is not empty; choose another --out (nothing was written)")
    for rel, text in files.items():
        path = folder / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    click.echo(f"Created the game {game_id!r} in {folder}. Next:")
    click.echo(f"  cd {folder} && pip install -e '.[test]' && pytest      # then: sheetbridge demo {game_id} --out demo")
