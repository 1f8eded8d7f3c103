"""`sheetbridge resolve DIR [--dry-run]`: resolve the open round and publish it."""
from pathlib import Path

import click

from . import open_store


def show_record(rec, match) -> None:
    click.echo(f"== Public report, round {rec.round}")
    click.echo(rec.public.text())
    for p in match.players:
        if p in rec.private:
            click.echo(f"== Private to {p}")
            click.echo(rec.private[p].text())
    click.echo("== Ledger entries")
    for row in rec.ledger:
        click.echo(f"  {row.player}: {row.change:+d} {row.reason} [{row.key}]")
    if not rec.ledger:
        click.echo("  none")


@click.command("resolve")
@click.argument("folder", type=click.Path(path_type=Path))
@click.option("--dry-run", is_flag=True, help="Show what would be written; write nothing.")
@click.option("--round", "round_no", type=int, help="Only resolve if this is the open round (safe to re-run).")
@click.option("--allow-empty", is_flag=True, help="Resolve even if nobody has submitted (everyone gets the default).")
@click.option("--quiet", is_flag=True, help="Print only the summary line.")
def command(folder, dry_run, round_no, allow_empty, quiet) -> None:
    """Resolve the open round: public board, private Results tabs, round log and ledger."""
    from ..host.collector import collector_paused
    with collector_paused():   # (from the imports on: host/collector.py says why)
        from ..host.resolve import resolve
        res = resolve(open_store(folder), dry_run=dry_run, round_no=round_no, allow_empty=allow_empty)
    for w in res.warnings:
        click.echo(f"warning: {w}")
    if res.record is not None and res.action in ("dry-run", "resolved") and not quiet:
        if dry_run:
            show_record(res.record, res.match)
        problems = res.record.problems()
        if problems:
            click.echo("Submission problems (the rules' defaults were applied):")
            for p in problems:
                click.echo(f"  {p}")
        notices = res.record.notices()
        if notices:
            click.echo("Read after normalisation (not problems; each player is told privately):")
            for n in notices:
                click.echo(f"  {n}")
    click.echo(res.message + (f" ({len(res.written)} file(s) written, {len(res.skipped)} unchanged)"
                              if res.action in ("resolved", "published") else ""))
    out = res.match.outcome() if res.match is not None and res.action == "resolved" else None
    if res.action == "resolved" and out is None and not res.match.finished:
        click.echo(f"round {res.match.round}'s opening post is ready: `sheetbridge announce {folder} --opening`")
    if out is not None:
        click.echo("The match is over. Final standings:")
        for p, s in out.standings:
            click.echo(f"  {p}: {s}")
