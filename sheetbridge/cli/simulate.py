"""`sheetbridge simulate GAME --games N`: play many games and print a balance report."""
from pathlib import Path

import click

from .new import parse_option_pairs


@click.command("simulate")
@click.argument("game_id", metavar="GAME")
@click.option("--games", "n_games", default=1000, show_default=True, help="How many whole games.")
@click.option("--players", default=None, help='Names ("Ann,Bo,Cy") or a count; default: the designed count.')
@click.option("--seed", default="1", show_default=True, help="The same seed gives the same report.")
@click.option("--strategy", "strategies", multiple=True, metavar="NAME",
              help="Strategy per seat, repeated and cycled (random, or the game's own: greedy, collector, "
                   "pathfinder, builder, painter); default: random.")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE", help="A host option for every game.")
@click.option("--option-games", default=200, show_default=True,
              help="Games replayed per other value of each host option, to see which ones change the winners.")
@click.option("--workers", default=None, type=int, help="Processes (default: up to 2, the cores of this machine).")
@click.option("--html", "html_out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write a self-contained HTML report with plots.")
def command(game_id, n_games, players, seed, strategies, options, option_games, workers, html_out) -> None:
    """Play many whole games with the pure API and print win rates, score and garnet distributions,
    game lengths, endings and tie-break paths, and which host options change the result."""
    from tqdm import tqdm

    from ..core.game import get_game
    from ..simulate import balance_report, html_report
    game = get_game(game_id)
    if players and players.strip().isdigit():
        names = [f"P{i + 1}" for i in range(int(players))]
    elif players:
        names = [p.strip() for p in players.split(",") if p.strip()]
    else:
        n = game.spec.recommended_players or game.spec.min_players
        names = [f"P{i + 1}" for i in range(n)]
    opts = parse_option_pairs(options)
    with tqdm(total=n_games, unit="game", disable=None, leave=False) as bar:
        rep = balance_report(game_id, names, n_games, seed, strategies or ("random",), opts, workers,
                             option_games, progress=bar.update)
    click.echo(rep.text())
    if html_out is not None:
        html_out.write_text(html_report(rep), encoding="utf-8")
        click.echo(f"\nHTML report: {html_out}")
