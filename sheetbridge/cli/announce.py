"""`sheetbridge announce DIR [--round N] [--webhook URL]`: the round's announcement for Discord."""
from pathlib import Path

import click

from . import open_store


@click.command("announce")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--round", "round_no", type=int, help="A resolved round (default: the last one).")
@click.option("--private", "with_private", is_flag=True, help="Also print each player's private results, "
              "one message block per player, for confessionals.")
@click.option("--webhook", metavar="URL", help="Post the public announcement (and the board picture) to this "
              "Discord webhook.")
@click.option("--post-private", is_flag=True, help="Post each player's confessional, with their picture, to the "
              "webhook of their own channel typed in the master's Players tab (column E, 'confessional webhook').")
@click.option("--player", "only", multiple=True, metavar="NAME", help="With --post-private: post only these "
              "players' confessionals (repeat it; for those not posted last time).")
def command(folder, round_no, with_private, webhook, post_private, only) -> None:
    """Print the round's public announcement as Discord-ready Markdown (split under 2,000 characters)."""
    from ..orchestrator import announcement, game_folder
    store = open_store(folder)
    ann = announcement(store, round_no)
    for i, msg in enumerate(ann.public, 1):
        click.echo(f"----- public message {i} of {len(ann.public)} -----")
        click.echo(msg)
    if with_private:
        for player, msgs in ann.private.items():
            for i, msg in enumerate(msgs, 1):
                click.echo(f"----- private to {player}, message {i} of {len(msgs)} -----")
                click.echo(msg)
    if webhook:
        from ..announce import Attachment, post_webhook
        files = [Attachment(f"round-{ann.round}-board.png", ann.pictures["board"])] if "board" in ann.pictures else []
        n = post_webhook(webhook, ann.public, files)
        click.echo(f"posted {n} message(s)" + (" and the board picture" if files else "") + " to the webhook")
    if post_private:
        from ..confessionals import post_confessionals
        _, done = post_confessionals(store, round_no, players=only or None)
        for d in done:
            click.echo(d.line)
        left = [d.player for d in done if not d.posted]
        if left:
            again = " ".join(f"--player {p}" for p in left)
            raise click.ClickException(f"{len(left)} of {len(done)} confessional(s) were not posted (see above); "
                                       f"fix their webhooks in the Players tab, then run `sheetbridge announce "
                                       f"{folder} --post-private {again}`")
    folder_ = game_folder(store)
    if folder_ is not None and "board" in ann.pictures:
        click.echo(f"(board picture: {folder_ / 'pictures' / f'round-{ann.round}-board.png'})")
