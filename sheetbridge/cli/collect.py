"""`sheetbridge collect DIR FILE...`: file the workbooks players sent back, by the identity each carries."""
from pathlib import Path

import click

from . import open_store


@click.command("collect")
@click.argument("folder", type=click.Path(path_type=Path))
@click.argument("files", nargs=-1, type=click.Path(path_type=Path))
@click.option("--from", "drop", type=click.Path(path_type=Path), default=None,
              help="A folder (your Downloads): every .xlsx in it is looked at.")
def command(folder, files, drop) -> None:
    """File returned player workbooks in their place, keeping the one each player saved last.

    A file is filed by the identity it carries, never by its name: another player's or another
    game's file is refused. A file replaced is moved to players/replaced/, never deleted."""
    from ..host.collect import collect
    from ..core.errors import UsageError
    wanted = list(files)
    if drop is not None:
        if not drop.is_dir():
            raise UsageError(f"--from {drop}: no such folder")
        wanted += sorted(p for p in drop.iterdir() if p.suffix.lower() == ".xlsx" and not p.name.startswith((".", "~$")))
    if not wanted:
        raise UsageError("give the files players sent back, or --from FOLDER (e.g. your Downloads)")
    for note in collect(open_store(folder), wanted):
        click.echo(f"{note.action}: {note.message}")
