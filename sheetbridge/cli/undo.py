"""`sheetbridge undo DIR [--round N]`: roll back the last resolved round by replaying the record."""
from pathlib import Path

import click

from . import open_store


@click.command("undo")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--round", "round_no", type=int,
              help="Only undo if this is the last resolved round; once it is undone, running again changes nothing.")
def command(folder, round_no) -> None:
    """Undo the last resolved round (state, ledger and tabs are recomputed, not patched)."""
    from ..host.undo import undo
    res = undo(open_store(folder), round_no=round_no)
    click.echo(res.message + (f" ({len(res.written)} file(s) written)" if res.action != "nothing" else ""))
