"""`sheetbridge repair DIR [--player NAME]`: redraw players' files and the board from the record."""
from pathlib import Path

import click

from ..orchestrator import open_store, repair


@click.command("repair")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--player", "players", multiple=True, help="Only this player's file (repeatable); default: all, and the board.")
def command(folder, players) -> None:
    """Redraw Submission, Results and Board tabs from the master's record; re-create missing or unreadable
    files. Entries a player typed for the open round are kept (also from a renamed Submission tab)."""
    res = repair(open_store(folder), players or None)
    for note in res.notes:
        click.echo(f"  {note}")
    click.echo(f"redrew {len(res.written)} file(s): {', '.join(res.written)}")
