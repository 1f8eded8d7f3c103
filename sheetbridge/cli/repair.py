"""`sheetbridge repair DIR [--player NAME]`: redraw players' files from the record."""
from pathlib import Path

import click

from ..orchestrator import open_store, repair


@click.command("repair")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--player", "players", multiple=True, help="Only this player's file (repeatable); default: all.")
def command(folder, players) -> None:
    """Redraw Submission, Results and Board tabs (a player's unsaved entries for the open round are cleared)."""
    written = repair(open_store(folder), players or None)
    click.echo(f"redrew {len(written)} file(s): {', '.join(written)}")
