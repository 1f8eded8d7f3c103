"""`sheetbridge remind DIR [--webhook URL]`: the deadline and who has not submitted, for Discord."""
from pathlib import Path

import click

from . import open_store


@click.command("remind")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--webhook", metavar="URL", help="Post the reminder to this Discord webhook.")
def command(folder, webhook) -> None:
    """Print a reminder for Discord: the open round's deadline (as Discord timestamps, shown in each reader's
    time zone) and who has not submitted yet, nothing else. `watch` posts it by itself at the times in the
    Config tab's reminders row."""
    from ..host.announce import check_webhook, post_webhook
    from ..host.round_posts import reminder
    if webhook:
        check_webhook(webhook)
    post = reminder(open_store(folder))
    for msg in post.messages:
        click.echo(msg)
    if webhook:
        n = post_webhook(webhook, post.messages)
        click.echo(f"posted the reminder ({n} message(s)) to the webhook")
