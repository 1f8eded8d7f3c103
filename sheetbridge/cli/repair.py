"""`sheetbridge repair DIR [--player NAME] [--accept-ledger-edits]`: redraw players' files from the
record, or accept hand edits of the master's Ledger tab by booking correcting rows."""
from pathlib import Path

import click

from . import open_store


@click.command("repair")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--player", "players", multiple=True, help="Only this player's file (repeatable); default: all, and the board.")
@click.option("--accept-ledger-edits", "accept", is_flag=True,
              help="Accept the hand edits every command refuses (changed, deleted or added Ledger rows, an edited "
                   "Record tab): correcting rows are booked, each accepted edit is listed; no row is rewritten. "
                   "Player files are not redrawn unless --player is given.")
def command(folder, players, accept) -> None:
    """Redraw Submission, Results and Board tabs from the master's record; re-create missing or unreadable
    files. Entries a player typed for the open round are kept (also from a renamed Submission tab)."""
    from ..host.repair import accept_ledger_edits, repair
    store = open_store(folder)
    if accept:
        accepted = accept_ledger_edits(store)
        for line in accepted:
            click.echo(line)
        click.echo(f"accepted {len(accepted)} ledger edit(s)" if accepted
                   else "nothing to accept: the Ledger tab matches the record")
        if not players:
            return
    res = repair(store, players or None)
    for note in res.notes:
        click.echo(f"  {note}")
    click.echo(f"redrew {len(res.written)} file(s): {', '.join(res.written)}")
