"""`sheetbridge games`: the supported games with their ids and player counts."""
import click


@click.command("games")
def command() -> None:
    """List the supported games."""
    from ..games.registry import plugin_errors, summaries
    for gid, s in summaries().items():
        n = (f"{s.min_players} or more" if s.max_players is None else str(s.min_players)
             if s.min_players == s.max_players else f"{s.min_players}-{s.max_players}")
        rec = f" (designed for {s.recommended_players})" if s.recommended_players else ""
        click.echo(f"{gid:22} {s.name:24} players {n}{rec}, {s.rounds} rounds")
    for name, why in plugin_errors().items():
        click.echo(f"warning: the game plugin {name!r} failed to load ({why}); reinstall or uninstall it "
                   "(`pip show` names its package)", err=True)
