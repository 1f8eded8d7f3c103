"""`sheetbridge undo DIR`: roll back the last resolved round by replaying the record."""
from pathlib import Path

import click

from . import open_store


@click.command("undo")
@click.argument("folder", type=click.Path(path_type=Path))
def command(folder) -> None:
    """Undo the last resolved round (state, ledger and tabs are recomputed, not patched)."""
    from ..orchestrator import undo
    res = undo(open_store(folder))
    click.echo(res.message + f" ({len(res.written)} file(s) written)")
