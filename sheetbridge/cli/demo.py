"""`sheetbridge demo GAME --out DIR --seed N`: a whole game with random legal submissions."""
from pathlib import Path

import click

from . import notice


@click.command("demo")
@click.argument("game_id", metavar="GAME")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("demo"), show_default=True)
@click.option("--seed", default="7", show_default=True)
@click.option("--quiet", is_flag=True)
@click.option("--google", is_flag=True, help="Play it on Google Sheets (files shared with no one but you).")
def command(game_id, out, seed, quiet, google) -> None:
    """Play a whole game through the same files and commands, and print the final standings."""
    from ..host.demo import demo, demo_files
    from ..sheets.xlsx import XlsxStore
    old = demo_files(out)          # refuses a folder that is not an earlier demo's output
    for path in old:               # only the files that demo wrote; anything else stays
        path.unlink()
    for sub in (out / "players", out / ".sheetbridge-tmp", out / "pictures" / "private", out / "pictures"):
        if sub.is_dir() and not any(sub.iterdir()):
            sub.rmdir()
    if old and not quiet:
        kept = [p for p in out.rglob("*") if p.is_file()]
        click.echo(f"  replaced the earlier demo in {out}" + (f" (kept {len(kept)} file(s) it did not write)"
                                                                if kept else ""))
    if google:
        from ..sheets.google import new_google_store
        store = new_google_store(out, progress=notice)
    else:
        store = XlsxStore(out)
    res = demo(game_id, store, seed=seed, folder=out,
               progress=None if quiet else (lambda s: click.echo("  " + s)))
    m = res.match
    out_ = m.outcome()
    click.echo(f"{m.game.spec.name} demo (seed {seed}): {res.rounds} rounds played in {out}.")
    click.echo("Final standings:")
    for p, s in out_.standings:
        click.echo(f"  {p}: {s}")
    for line in out_.reasons:
        click.echo(f"  {line}")
    click.echo(f"Winner(s): {', '.join(out_.winners)}; Elimination Candidate: "
               f"{out_.elimination_candidate or 'host to decide'}")
    click.echo("Garnets now: " + ", ".join(f"{p} {b}" for p, b in m.ledger.balances(m.players).items()))
