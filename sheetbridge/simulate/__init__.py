"""Simulate and balance a game: thousands of whole games with the pure API, and a balance report.

A strategy is a plain function of what the player may see (:class:`PlayerView`: their form,
the facts they were told, their confessional) and a seeded rng, returning a submission as the
player would type it (section -> rows -> field -> text). It never sees the hidden state, so a
designer can write one in a few lines::

    @strategy("always-null", "three-modular-rooms")
    def always_null(view, rng):
        hand = view.form.section("play").fields[0].choices
        return {"play": [{"card": hand[-1], "room": "Null"}]}

The same seed gives the same games, the same tables and the same report, with any number of workers.

Rooms, in reading order (imports go down this list, never up):

- ``view.py``: what a strategy may see (:class:`PlayerView`) and the registry (``@strategy``).
- ``strategies/``: the shipped strategies, one module per game (``reading.py``: helpers on a view).
- ``cluster.py``: the same chunks of games played on a Dask cluster (``--cluster``).
- ``play.py``: whole games played (``play_game``, ``play_games``), one row of results each.
- ``verdict.py``: the verdict as typed records (seats, strategies, options, facts) and its words.
- ``report.py``: the balance report: tables, text, JSON and HTML (``balance_report``).
"""
from __future__ import annotations

from .play import find_strategy, play_game, play_games
from .report import BalanceReport, balance_report, html_report, planned_games
from .verdict import wilson
from .view import STRATEGIES, PlayerView, Strategy, strategy

__all__ = ["STRATEGIES", "BalanceReport", "PlayerView", "Strategy", "balance_report", "find_strategy",
           "html_report", "planned_games", "play_game", "play_games", "strategy", "wilson"]
