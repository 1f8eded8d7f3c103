"""`sheetbridge export DIR`: a game's ledger, standings and per-round facts as CSV."""
from pathlib import Path

import click

from . import _opened


@click.command("export")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder for the CSV files (default: FOLDER/export).")
@click.option("--public", is_flag=True, help="Only the facts the public board showed (to share with the community); "
                                             "without it the facts include every player's secrets: the host's.")
def command(folder, out, public) -> None:
    """Write the game's ledger, standings and facts as CSV (columns: docs/seasons.md)."""
    from ..host.export import export_game
    _opened[:] = [str(folder)]
    for path in export_game(folder, out, public):
        click.echo(f"wrote {path}")
