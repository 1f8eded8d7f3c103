"""`sheetbridge standings DIR`: each player's score per round and in total, rank and tie-break state."""
from pathlib import Path

import click

from . import open_store


@click.command("standings")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--public", is_flag=True, help="Only what the rules make public at this point (safe to post).")
@click.option("--player", default=None, help="Only what this player knows (their own scores, and what is public).")
def command(folder, public: bool, player: str | None) -> None:
    """Print the standings the master's Standings tab shows (the host's view unless --public or --player)."""
    from ..core.facts import HOST
    from ..host.session import load
    from ..core.errors import UsageError
    store = open_store(folder)
    with store.lock("standings"):
        m = load(store).match
    if public and player:
        raise UsageError("give --public or --player, not both")
    if player is not None and player not in m.players:
        raise UsageError(f"--player {player!r} is not a player of this game; players: {', '.join(m.players)}")
    st = m.standings(None if public else player if player else HOST)
    if not st.rounds and not m.finished:
        click.echo(f"{m.game.spec.name}: no round has been scored yet.")
        return
    click.echo(st.text())
