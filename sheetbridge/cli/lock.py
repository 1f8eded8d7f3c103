"""`sheetbridge lock DIR` and `sheetbridge reopen DIR`: the deadline snapshot of the open round."""
from pathlib import Path

import click

from . import open_store


@click.command("lock")
@click.argument("folder", type=click.Path(path_type=Path))
def command(folder) -> None:
    """Lock the open round now: snapshot every Submission tab into the master (resolve uses it; later edits are
    named by status and not counted). On Google the Submission tabs become editable by the host only."""
    from ..host.lock import lock_submissions
    res = lock_submissions(open_store(folder))
    for w in res.warnings:
        click.echo(f"warning: {w}")
    click.echo(res.message)


@click.command("reopen")
@click.argument("folder", type=click.Path(path_type=Path))
def reopen_command(folder) -> None:
    """Undo a lock: players can edit their submissions for the open round again."""
    from ..host.lock import reopen_submissions
    click.echo(reopen_submissions(open_store(folder)).message)
