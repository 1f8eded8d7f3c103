"""`sheetbridge status DIR`: who has submitted this round, without revealing submissions."""
from pathlib import Path

import click

from ..host.lines import listed
from . import open_store


def status_line(line) -> str:
    """One player's line, one separator per level: "NAME  state: detail; note"."""
    shown = f"  {line.player:16} {line.state}"
    if line.state == "submitted":
        shown += ": " + ("ok" if line.valid else "problems in " + listed(line.problem_fields)
                         if line.problem_fields else "not valid")
    return shown + (f"; {line.note}" if line.note else "")


@click.command("status")
@click.argument("folder", type=click.Path(path_type=Path))
def command(folder) -> None:
    """Show who has and has not submitted for the open round, and whether it is valid."""
    from ..host.status import status
    ld, lines = status(open_store(folder))
    m = ld.match
    for w in ld.warnings:
        click.echo(f"warning: {w}")
    if m.finished:
        click.echo(f"{m.game.spec.name} is over.")
        return
    locked = f" (locked since {ld.locked['at']})" if ld.locked and ld.locked.get("round") == m.round else ""
    click.echo(f"{m.game.spec.name}, round {m.round}{locked}:")
    for line in lines:
        click.echo(status_line(line))
    done = sum(1 for line in lines if line.state == "submitted")
    click.echo(f"{done} of {len(lines)} submitted.")
