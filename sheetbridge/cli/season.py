"""`sheetbridge season new|add|status|export|eliminate|repair`: a season's book, a thin layer over
:mod:`sheetbridge.host.season` (see docs/seasons.md for the order a host uses them)."""
from pathlib import Path

import click

from . import _opened, notice


def _store(folder: Path):
    """The season's store; the fixes errors suggest name this folder."""
    from ..host.season import open_season_store
    _opened[:] = [str(folder)]
    return open_season_store(folder, progress=notice)


@click.group("season")
def group() -> None:
    """A season: garnets carried from game to game, Tokens of Life, Elimination Candidates."""


@group.command("new")
@click.argument("name")
@click.option("--players", required=True, help='Names, comma-separated; with --google as "Ann <ann@x.org>, ...".')
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Folder for the season (season.xlsx, or the Google season's pointer file).")
@click.option("--garnets", default=0, type=int, help="Each player's garnets at the start of the season.")
@click.option("--google", is_flag=True, help="A Google spreadsheet (shared with no one) instead of season.xlsx.")
def new_command(name, players, out, garnets, google) -> None:
    """Create a season book."""
    from ..core.errors import UsageError
    from ..host.players import parse_players
    from ..host.season import SEASON_FILE, SeasonXlsxStore, new_season
    if (out / SEASON_FILE).exists():
        raise UsageError(f"{out} already holds a season; choose another --out")
    plist = parse_players(players, garnets)
    if google:
        from ..sheets.google import new_google_store
        store = new_google_store(out, progress=notice)
    else:
        store = SeasonXlsxStore(out)
    new_season(name, plist, store, folder=out)
    click.echo(f"Created season {name} for {len(plist)} players in {out} ({garnets} garnet(s) each). "
               f"Create its first game with `sheetbridge new GAME --season {out} --out GAME_FOLDER`.")


@group.command("add")
@click.argument("folder", type=click.Path(path_type=Path))
@click.argument("game_folder", type=click.Path(path_type=Path))
def add_command(folder, game_folder) -> None:
    """Post an ended game's ledger, Tokens of Life and Elimination Candidate into the season, once."""
    from ..host.session import open_store
    from ..host.season import add_game
    season_store = _store(folder)
    res = add_game(season_store, open_store(game_folder, progress=notice), location=str(game_folder))
    click.echo(res.message)


@group.command("status")
@click.argument("folder", type=click.Path(path_type=Path))
def status_command(folder) -> None:
    """Standings: garnets, Tokens of Life, Elimination Candidates, who is still in; games posted."""
    from ..core.season import games_table, standings
    from ..host.season import load_season
    ld = load_season(_store(folder))
    s = ld.season
    click.echo(f"Season {s.name}: {len(s.games)} game(s) posted.")
    for g in games_table(s):
        click.echo(f"  {g['order']}. {g['game']} ({g['rules']}): winner(s) {g['winners'] or '-'}, Elimination "
                   f"Candidate {g['elimination_candidate'] or '-'}, {g['net_garnets']:+d} garnet(s) net")
    for row in standings(s):
        click.echo(f"  {row['player']:16} {row['garnets']:>5} garnet(s)  {row['tokens_of_life']} Token(s) of Life  "
                   f"{row['status']}" + (f"; EC in {row['elimination_candidate_in']}"
                                         if row['elimination_candidate_in'] else ""))


@group.command("export")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Folder for the CSV files (default: FOLDER/export).")
def export_command(folder, out) -> None:
    """The season's ledger, standings and games as CSV (columns: docs/seasons.md)."""
    from ..host.export import export_season
    _opened[:] = [str(folder)]
    for path in export_season(folder, out):
        click.echo(f"wrote {path}")


@group.command("eliminate")
@click.argument("folder", type=click.Path(path_type=Path))
@click.argument("player")
@click.option("--after", default="", help="The game after which the player left (default: the last posted).")
def eliminate_command(folder, player, after) -> None:
    """Mark a player out of the season (after a Death Match); the next `new --season` leaves them out."""
    from ..host.season import eliminate
    click.echo(eliminate(_store(folder), player, after))


@group.command("repair")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--accept-ledger-edits", "accept", is_flag=True, required=True,
              help="Accept hand edits of the season's Ledger or Record tab: correcting rows are booked.")
def repair_command(folder, accept) -> None:
    """Accept hand edits of the season's ledger (every season command refuses them until then)."""
    from ..host.season import accept_ledger_edits
    notes = accept_ledger_edits(_store(folder))
    for line in notes:
        click.echo(line)
    click.echo(f"accepted {len(notes)} ledger edit(s)" if notes else "nothing to accept: the Ledger tab matches")
