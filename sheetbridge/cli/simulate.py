"""`sheetbridge simulate GAME --games N`: play many games and print a balance report, verdict first."""
import sys
from contextlib import contextmanager
from pathlib import Path

import click

from .new import parse_option_pairs


@click.command("simulate")
@click.argument("game_id", metavar="GAME")
@click.option("--games", "n_games", default=1000, show_default=True, type=click.IntRange(min=1),
              help="How many whole games.")
@click.option("--players", default=None, help='Names ("Ann,Bo,Cy") or a count; default: the designed count.')
@click.option("--seed", default="1", show_default=True, help="The same seed gives the same report.")
@click.option("--strategy", "strategies", multiple=True, metavar="NAME",
              help="Strategy per seat, repeated and cycled (random, or the game's own: greedy, collector, "
                   "pathfinder, builder, painter); default: random.")
@click.option("--option", "options", multiple=True, metavar="NAME=VALUE", help="A host option for every game.")
@click.option("--options", "sweep", default=None, metavar="all|NAME[=VALUE],...",
              help="Compare other host option values with the chosen ones: all, or a list of names "
                   "(their other values) or NAME=VALUE. Default: none.")
@click.option("--option-games", default=200, show_default=True, type=click.IntRange(min=1),
              help="Games played for each option value compared (the first seeds of the run).")
@click.option("--workers", default=None, type=int, help="Processes (default: up to 2, the cores of this machine).")
@click.option("--cluster", default=None, metavar="ADDRESS",
              help="Play on a Dask distributed cluster (its scheduler, e.g. tcp://10.0.0.5:8786); the same "
                   "seed gives the same report. Needs: pip install 'sheetbridge[cluster]'.")
@click.option("--json", "as_json", is_flag=True, help="Print every figure of the report as JSON instead of text.")
@click.option("--html", "html_out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write a self-contained HTML report with plots.")
def command(game_id, n_games, players, seed, strategies, options, sweep, option_games, workers, cluster,
            as_json, html_out) -> None:
    """Play many whole games with the pure API and print the verdict (are the seats balanced, which
    strategy is strongest, which host options change the outcome, which facts never or always
    happen), then win rates, score and garnet distributions, game lengths, endings and facts."""
    from ..api import get_game
    from ..simulate import balance_report, html_report, planned_games
    game = get_game(game_id)
    names = _player_names(game, players)
    opts = parse_option_pairs(options)
    strategies = strategies or ("random",)
    k, values = planned_games(game_id, n_games, opts, sweep, option_games)
    where = f"on the Dask cluster at {cluster}" if cluster else f"on {workers or 'up to 2'} local process(es)"
    extra = f" + {values} option value(s) x {k} = {values * k:,} more" if values else ""
    click.echo(f"Playing {n_games:,} games of {game_id} ({len(names)} players){extra}: "
               f"{n_games + values * k:,} in all, {where}.", err=True)
    rep = balance_report(game_id, names, n_games, seed, strategies, opts, workers, option_games, sweep,
                         progress=_progress_bar, cluster=cluster)
    click.echo(rep.to_json() if as_json else rep.text())
    if html_out is not None:
        html_out.write_text(html_report(rep), encoding="utf-8")
        click.echo(f"HTML report: {html_out}", err=True)


def _player_names(game, players: str | None) -> list[str]:
    if players and players.strip().isdigit():
        return [f"P{i + 1}" for i in range(int(players))]
    if players:
        return [p.strip() for p in players.split(",") if p.strip()]
    n = game.spec.recommended_players or game.spec.min_players
    return [f"P{i + 1}" for i in range(n)]


@contextmanager
def _progress_bar(phase: str, total: int):
    """A bar on stderr while a phase runs; none when stderr is not a terminal (tqdm's disable=None)."""
    from tqdm import tqdm
    with tqdm(total=total, desc=phase, unit="game", file=sys.stderr, disable=None, leave=False,
              dynamic_ncols=True) as bar:
        yield bar.update
