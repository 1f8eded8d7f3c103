"""`sheetbridge substitute DIR OLD NEW [--email ...] [--show-history yes|no]`: a player drops out and a
new one takes over the seat, its history and balance (see sheetbridge/host/substitute.py)."""
from pathlib import Path

import click

from . import notice, open_store


def _season(folder: Path):
    from ..host.season import load_season, open_season_store
    store = open_season_store(folder, progress=notice)
    load_season(store)   # a season folder that is not one says so now
    return store


@click.command("substitute")
@click.argument("folder", type=click.Path(path_type=Path))
@click.argument("old")
@click.argument("new")
@click.option("--email", default="", help="The new player's email (Google: their new spreadsheet is shared with it).")
@click.option("--show-history", "history", type=click.Choice(["yes", "no"]), default="no", show_default=True,
              help="Whether the new player's file shows the seat's earlier private results, or starts from now.")
@click.option("--season", "season", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="The game's season folder: NEW joins the season (with --email) so `season add` posts the seat's "
                   "rows; a player the season already has is left as they are.")
def command(folder, old, new, email, history, season) -> None:
    """Give OLD's seat to NEW: balance and history kept, a new private file for NEW (on Google, OLD loses
    access), recorded so undo and replay keep it."""
    from ..host.substitute import substitute
    store = open_store(folder)
    season_store = _season(season) if season else None   # opened first: a wrong folder stops before anything
    res = substitute(store, old, new, email=email, history=history == "yes", progress=lambda s: click.echo("  " + s))
    click.echo(res.message + (f"; {res.transferred} garnet(s) carried over in the ledger" if res.transferred else ""))
    click.echo(f"Send {res.new} their own file: {res.location}")
    if season_store is not None:
        from ..host.season import add_player, load_season
        if any(p.casefold() == res.new.casefold() for p in load_season(season_store).season.players):
            click.echo(f"{res.new} is already a player of the season.")
        else:
            add_player(season_store, res.new, email, 0)   # the seat's garnets come with the game's rows
            click.echo(f"{res.new} joined the season in {season}: when the game ends, "
                       f"`sheetbridge season add {season} {folder}` posts the seat's rows.")
    if not res.shared:
        click.echo(f"{old}'s old file is no longer read (and is refused if put in another's place).")
