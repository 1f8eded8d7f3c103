"""`sheetbridge extend DIR 2h`: move the open round's deadline (a grace period, or a UTC time)."""
from pathlib import Path

import click

from . import open_store


@click.command("extend")
@click.argument("folder", type=click.Path(path_type=Path))
@click.argument("to", metavar="PERIOD_OR_TIME")
def command(folder, to) -> None:
    """Move the open round's deadline: by a grace period added to it ("2h", "90m", "1d", "1h30m"), or to a UTC
    time ("2026-11-24 17:00"). This round only; the Config tab's deadline is left as typed."""
    from ..host.lock import extend
    res = extend(open_store(folder), to)
    for w in res.warnings:
        click.echo(f"warning: {w}")
    click.echo(res.message)
