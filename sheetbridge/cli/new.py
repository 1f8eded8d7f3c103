"""`sheetbridge new GAME --players ... --out DIR`: create a game's workbooks.

With --google the creation is resumable: if it fails part way, running the same command
again reuses the spreadsheets already created (recorded in DIR/.sheetbridge-new.json)
and invites the players only once every spreadsheet is written."""
from pathlib import Path

import click

from . import notice


def parse_option_pairs(pairs) -> dict:
    from ..core.errors import UsageError
    out = {}
    for pair in pairs:
        if "=" not in pair:
            raise UsageError(f"--option {pair!r}: write it as name=value")
        k, v = pair.split("=", 1)
        out[k.strip()] = v.strip()
    return out


def _who(key: str) -> str:
    return key.split(":", 1)[1] + "'s file" if key.startswith("player:") else f"the {key}"


def _season_players(season, players, garnets):
    """The game's players from the season: its balances are the opening garnets (nothing typed twice)."""
    from ..core.errors import UsageError
    from ..host.players import PlayerInfo, parse_players
    from ..host.season import open_season_store, players_for_game
    if garnets:
        raise UsageError("--garnets and --season do not go together: the season's balances are the opening garnets")
    typed = parse_players(players) if players else []
    chosen = players_for_game(open_season_store(season, progress=notice), [p.name for p in typed])
    emails = {p.name: p.email for p in typed if p.email}
    return [PlayerInfo(p.name, emails.get(p.name, p.email), p.garnets) for p in chosen]


def _drop_lock_only_folder(out: Path, made_folder: bool) -> None:
    """After a failed `new`: a folder holding no game keeps none of the game lock's files, and a
    folder this run made goes if nothing else is in it. A game (or a resumable creation's
    journal) keeps them all."""
    from ..sheets.store import NEW_PROGRESS_FILE
    from ..sheets.xlsx import LOCK_FILE
    try:
        if not out.is_dir() or any((out / name).exists() for name in ("master.xlsx", "sheetbridge.json",
                                                                       NEW_PROGRESS_FILE)):
            return
        for name in (LOCK_FILE, LOCK_FILE + ".json"):
            (out / name).unlink(missing_ok=True)
        if made_folder and not any(out.iterdir()):
            out.rmdir()
    except OSError:
        pass


@click.command("new")
@click.argument("game_id", metavar="GAME")
@click.option("--players", default=None, help='Names, comma-separated; with --google as "Ann <ann@x.org>, ...". '
                                             'With --season: default every season player still in.')
@click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Folder for the game (the xlsx files, or the Google game's pointer file).")
@click.option("--seed", default=None, help="Seed for every random draw of the game (default: a fresh random one, "
                                           "printed, so the game can be replayed).")
@click.option("--garnets", default=0, type=int, help="Each player's garnets at the start (the ledger's opening rows).")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE", help="A host option (see docs/games).")
@click.option("--google", is_flag=True, help="Create Google spreadsheets instead of xlsx files.")
@click.option("--season", "season", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="A season folder: the players still in, with their emails and season balances as opening garnets.")
@click.option("--cohost", "cohosts", multiple=True, metavar="EMAIL",
              help="With --google: a co-host (repeatable), writer on the master and reader of the board, never "
                   "a player's file.")
@click.option("--force", is_flag=True, help="Replace the game in --out: its files in the folder that the new game "
                                            "does not overwrite are deleted; its Google spreadsheets are listed, "
                                            "not deleted.")
def command(game_id, players, out, seed, garnets, options, google, force, season, cohosts=()) -> None:
    """Create a new game: the host's master workbook and one workbook per player."""
    from ..core.errors import UsageError
    from ..host.new import new_game
    from ..host.players import parse_players
    from ..sheets.store import NEW_PROGRESS_FILE
    from ..sheets.xlsx import XlsxStore
    if not season and not players:   # required unless a season names them: click's own message
        ctx = click.get_current_context()
        raise click.MissingParameter(ctx=ctx, param=next(p for p in ctx.command.params if p.name == "players"))
    plist = _season_players(season, players, garnets) if season else parse_players(players, garnets)
    existed = (out / "master.xlsx").exists() or (out / "sheetbridge.json").exists()
    if existed:
        if not force:
            raise UsageError(f"{out} already holds a game; choose another --out or add --force to replace it")
    if google:
        missing = [p.name for p in plist if not p.email]
        if missing:
            raise UsageError(f"--google needs an email for every player; missing for {', '.join(missing)} "
                             '(write --players "Ann <ann@x.org>, ...")')
    if cohosts and not google:
        raise UsageError("--cohost shares Google spreadsheets: add --google (an xlsx game's files are yours to hand out)")
    if (out / NEW_PROGRESS_FILE).exists():
        click.echo(f"Resuming the unfinished `new` in {out}: what it created is reused.")
    if google:
        from ..sheets.google import new_google_store
        store = new_google_store(out, progress=notice)
    else:
        store = XlsxStore(out)
    if cohosts:
        from ..host.cohosts import checked_cohosts
        cohosts = checked_cohosts(cohosts, plist)
    made_folder = not out.exists()
    try:
        res = new_game(game_id, plist, store, seed=seed, options=parse_option_pairs(options), folder=out,
                       progress=lambda s: click.echo("  " + s), cohosts=cohosts)
    except BaseException:
        _drop_lock_only_folder(out, made_folder)
        raise
    click.echo(f"Created {res.match.game.spec.name} for {len(plist)} players in {out} "
               f"(seed {res.seed}: `--seed {res.seed}` replays it exactly).")
    if google:
        click.echo("Every player's spreadsheet was shared with that player only, and the public board "
                   "with every player, once all were written.")
    if res.trashed:
        click.echo(f"Moved to the Drive trash {len(res.trashed)} unused spreadsheet(s) left by the earlier "
                   f"failed run(s): {', '.join(res.trashed)}.")
    if res.removed:
        click.echo(f"Replaced the old game: deleted its files the new game does not use: {', '.join(res.removed)}.")
    if res.replaced:
        listing = ", ".join(f"{_who(k)} https://docs.google.com/spreadsheets/d/{loc}"
                            for k, loc in sorted(res.replaced.items()))
        click.echo(f"The replaced game's {len(res.replaced)} Google spreadsheet(s) were NOT deleted and are still "
                   f"shared as before: {listing}. Trash them in Google Drive if you no longer need them.")
    if res.replaced_note:
        click.echo(f"warning: {res.replaced_note}")
    elif existed and not res.removed and not res.replaced:
        click.echo("Replaced the old game: the new one overwrote all its files.")
    if season:
        click.echo(f"Opening garnets from the season in {season}: "
                   + ", ".join(f"{p.name} {p.garnets}" for p in plist)
                   + f". When the game ends: `sheetbridge season add {season} {out}`.")
    click.echo(f"Host master: {res.files['master']} (share it with no one).")
    click.echo("Send each player their own file; when they have submitted, run "
               f"`sheetbridge status {out}` and `sheetbridge resolve {out} --dry-run`.")
