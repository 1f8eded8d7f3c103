"""`sheetbridge watch DIR`: answer the Sheetbridge menu of the master spreadsheet, and lock at the deadline."""
from pathlib import Path

import click

from . import open_store


@click.command("watch")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--interval", default=15.0, show_default=True, type=click.FloatRange(min=5.0, clamp=True),
              help="Seconds between polls, at least 5 (one read and one small write each; see docs/google.md "
                   "for the quota).")
@click.option("--polls", type=int, default=None, help="Stop after this many polls (default: until Ctrl-C).")
@click.option("--webhook", metavar="URL", default=None, help="Discord webhook for the menu's Post announcement "
              "(default: the Config tab's webhook setting).")
def command(folder, interval, polls, webhook) -> None:
    """Keep running on your computer while you use the Sheetbridge menu in the master spreadsheet: it runs
    each menu request with the same commands as the CLI, and locks submissions at the Config tab's deadline."""
    from ..host.watch import Watcher
    w = Watcher(open_store(folder), interval=interval, webhook=webhook, log=click.echo)
    click.echo(f"watching {folder} as {w.watcher_id}, every {w.interval:g} s (Ctrl-C to stop)")
    try:
        w.run_forever(polls)
    except KeyboardInterrupt:
        click.echo("stopped; the menu will say nothing is listening")
