"""`sheetbridge share DIR --cohost EMAIL`: share a Google game's master (writer) and public board (reader)
with co-hosts, never a player's file (see sheetbridge/host/cohosts.py)."""
from pathlib import Path

import click

from . import open_store


@click.command("share")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--cohost", "cohosts", multiple=True, required=True, metavar="EMAIL",
              help="A co-host's Google account (repeatable): writer on the master, reader of the board.")
def command(folder, cohosts) -> None:
    """Share the game with co-hosts: the master and the public board, never a player's file."""
    from ..host.cohosts import share_with_cohosts
    now = share_with_cohosts(open_store(folder), cohosts)
    click.echo(f"Co-hosts of this game: {', '.join(now)} (writers on the master, readers of the board; "
               "no player's file is shared with them).")
