"""`sheetbridge substitute DIR OLD NEW [--email ...] [--show-history yes|no]`: a player drops out and a
new one takes over the seat, its history and balance (see sheetbridge/substitute.py)."""
from pathlib import Path

import click

from . import open_store


@click.command("substitute")
@click.argument("folder", type=click.Path(path_type=Path))
@click.argument("old")
@click.argument("new")
@click.option("--email", default="", help="The new player's email (Google: their new spreadsheet is shared with it).")
@click.option("--show-history", "history", type=click.Choice(["yes", "no"]), default="no", show_default=True,
              help="Whether the new player's file shows the seat's earlier private results, or starts from now.")
def command(folder, old, new, email, history) -> None:
    """Give OLD's seat to NEW: balance and history kept, a new private file for NEW (on Google, OLD loses
    access), recorded so undo and replay keep it."""
    from ..substitute import substitute
    store = open_store(folder)
    res = substitute(store, old, new, email=email, history=history == "yes", progress=lambda s: click.echo("  " + s))
    click.echo(res.message + (f"; {res.transferred} garnet(s) carried over in the ledger" if res.transferred else ""))
    click.echo(f"Send {res.new} their own file: {res.location}")
    if not res.shared:
        click.echo(f"{old}'s old file is no longer read (and is refused if put in another's place).")
