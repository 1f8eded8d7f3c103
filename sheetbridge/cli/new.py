"""`sheetbridge new GAME --players ... --out DIR`: create a game's workbooks."""
from pathlib import Path

import click

from ..core.errors import UsageError
from ..orchestrator import new_game, parse_players
from ..sheets.xlsx import XlsxStore


def parse_option_pairs(pairs) -> dict:
    out = {}
    for pair in pairs:
        if "=" not in pair:
            raise UsageError(f"--option {pair!r}: write it as name=value")
        k, v = pair.split("=", 1)
        out[k.strip()] = v.strip()
    return out


@click.command("new")
@click.argument("game_id", metavar="GAME")
@click.option("--players", required=True, help='Names, comma-separated; with --google as "Ann <ann@x.org>, ...".')
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Folder for the game (the xlsx files, or the Google game's pointer file).")
@click.option("--seed", default="0", help="Seed for every random draw of the game.")
@click.option("--garnets", default=0, type=int, help="Each player's garnets at the start (the ledger's opening rows).")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE", help="A host option (see docs/games).")
@click.option("--google", is_flag=True, help="Create Google spreadsheets instead of xlsx files.")
@click.option("--force", is_flag=True, help="Overwrite an existing game in --out.")
def command(game_id, players, out, seed, garnets, options, google, force) -> None:
    """Create a new game: the host's master workbook and one workbook per player."""
    plist = parse_players(players, garnets)
    if (out / "master.xlsx").exists() or (out / "sheetbridge.json").exists():
        if not force:
            raise UsageError(f"{out} already holds a game; choose another --out or add --force to replace it")
    if google:
        from ..sheets.google import new_google_store
        missing = [p.name for p in plist if not p.email]
        if missing:
            raise UsageError(f"--google needs an email for every player; missing for {', '.join(missing)} "
                             '(write --players "Ann <ann@x.org>, ...")')
        store = new_google_store(out)
    else:
        store = XlsxStore(out)
    res = new_game(game_id, plist, store, seed=seed, options=parse_option_pairs(options), folder=out,
                   progress=lambda s: click.echo("  " + s))
    click.echo(f"Created {res.match.game.spec.name} for {len(plist)} players in {out}.")
    click.echo(f"Host master: {res.files['master']} (share it with no one).")
    click.echo("Send each player their own file; when they have submitted, run "
               f"`sheetbridge status {out}` and `sheetbridge resolve {out} --dry-run`.")
