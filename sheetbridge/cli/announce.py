"""`sheetbridge announce DIR [--round N | --opening] [--webhook URL]`: the round's announcement for Discord."""
from pathlib import Path

import click

from . import open_store


@click.command("announce")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--round", "round_no", type=int, help="A resolved round (default: the last one).")
@click.option("--opening", is_flag=True, help="The open round's opening post instead: what players must do, the "
              "board and its picture, the deadline as Discord timestamps.")
@click.option("--private", "with_private", is_flag=True, help="Also print each player's private results, "
              "one message block per player, for confessionals.")
@click.option("--webhook", metavar="URL", help="Post the public announcement (and the board picture) to this "
              "Discord webhook.")
@click.option("--post-private", is_flag=True, help="Post each player's confessional, with their picture, to the "
              "webhook of their own channel typed in the master's Players tab (column E, 'confessional webhook').")
@click.option("--player", "only", multiple=True, metavar="NAME", help="With --post-private: post only these "
              "players' confessionals (repeat it; for those not posted last time).")
def command(folder, round_no, opening, with_private, webhook, post_private, only) -> None:
    """Print the round's public announcement as Discord-ready Markdown (split under 2,000 characters)."""
    from ..host.announce import Attachment, check_webhook
    from ..host.media import announcement
    from ..host.session import load
    if webhook:   # a mistyped address is refused before the post is printed
        check_webhook(webhook)
    store = open_store(folder)
    if opening or (round_no is None and not load(store).match.rounds):
        if not opening:
            click.echo("No round has been resolved yet: here is the opening post of the round that is open.")
        return _opening(store, webhook)
    ann = announcement(store, round_no)
    for i, msg in enumerate(ann.public, 1):
        click.echo(f"----- public message {i} of {len(ann.public)} -----")
        click.echo(msg)
    if with_private:
        for player, msgs in ann.private.items():
            for i, msg in enumerate(msgs, 1):
                click.echo(f"----- private to {player}, message {i} of {len(msgs)} -----")
                click.echo(msg)
    name = f"round-{ann.round}-board.png"
    files = [Attachment(name, ann.pictures["board"])] if "board" in ann.pictures else []
    _post_or_say(webhook, ann.public, files)
    if post_private:
        _post_confessionals(store, folder, round_no, only)


def _post_confessionals(store, folder, round_no, only) -> None:
    """Each player's confessional and picture to their own channel's webhook (the master's Players tab)."""
    from ..host.media import post_confessionals
    _, done = post_confessionals(store, round_no, players=only or None)
    for d in done:
        click.echo(d.line)
    left = [d.player for d in done if not d.posted]
    if left:
        again = " ".join(f"--player {p}" for p in left)
        raise click.ClickException(f"{len(left)} of {len(done)} confessional(s) were not posted (see above); "
                                   f"fix their webhooks in the Players tab, then run `sheetbridge announce "
                                   f"{folder} --post-private {again}`")


def _opening(store, webhook) -> None:
    from ..host.round_posts import opening_post
    post = opening_post(store)
    folder = store.host_folder()
    if folder is not None:   # beside the game, for a host who pastes by hand (not in pictures/, which resolve keeps)
        for name, data in post.pictures.items():
            (folder / "announcements").mkdir(exist_ok=True)
            (folder / "announcements" / name).write_bytes(data)
    for i, msg in enumerate(post.messages, 1):
        click.echo(f"----- opening post of round {post.round}, message {i} of {len(post.messages)} -----")
        click.echo(msg)
    _post_or_say(webhook, post.messages, post.attachments())


def _post_or_say(webhook, messages, files) -> None:
    """Post, or say which picture goes with the post: the text above is for pasting, so it holds no path."""
    from ..host.announce import post_webhook
    if webhook:
        n = post_webhook(webhook, messages, files)
        click.echo(f"posted {n} message(s)" + (" and the picture" if files else "") + " to the webhook")
    elif files:
        where = "announcements" if files[0].name.endswith("-opening.png") else "pictures"
        click.echo(f"----- picture: {', '.join(f.name for f in files)} (in the game's {where} folder), attached "
                   "when posted with --webhook -----")
