"""`sheetbridge decide DIR [KEY VALUE]`: enter a decision the rules leave to the host."""
from pathlib import Path

import click

from . import open_store


@click.command("decide")
@click.argument("folder", type=click.Path(path_type=Path))
@click.argument("key", required=False)
@click.argument("value", required=False)
def command(folder, key, value) -> None:
    """Enter a decision (a vote, a gamewide ranking, a manual mission) and publish what follows from it.

    Without KEY, lists what is pending and applies the values typed in the master's Decisions tab.
    A ranking is written "Cy, Ann, Bo"; a decision for a resolved round re-resolves from that round.
    """
    from ..host.decide import decide
    res = decide(open_store(folder), key, value)
    for line in res.entered:
        click.echo(line)
    if res.written:
        click.echo(f"published: {len(res.written)} file(s) written")
    if res.pending:
        click.echo("Pending decisions:")
        for req in res.pending:
            click.echo(f"  {req.key}: {req.question} ({req.who} decides; {req.allowed()})"
                       + (f"; until then: {req.default}" if req.default else ""))
    elif not res.entered:
        click.echo("No decision is pending.")
