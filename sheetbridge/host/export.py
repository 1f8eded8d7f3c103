"""Exports: a game's or a season's ledger, standings and per-round facts as tables (issue 28).

From Python each table is a pandas DataFrame (:func:`game_frames`, :func:`season_frames`);
``sheetbridge export`` and ``sheetbridge season export`` write them as CSV (UTF-8, a header
row, one file a table). The columns are documented in docs/seasons.md; a test keeps that page
in step with :data:`COLUMNS`.

The facts table holds every fact of every round, the host-only ones included (hidden draws,
each player's secret plays): it is the host's. ``public=True`` keeps only what the public
board showed, for sharing with the community.
"""
from __future__ import annotations

import json
from dataclasses import fields
from pathlib import Path
from typing import Any, Iterable, Mapping

from ..core.facts import PUBLIC, visible
from ..core.integrity import HEADER, chain
from ..core.ledger import LedgerRow
from ..core.match import Match
from ..core.season import GAMES_COLUMNS, STANDINGS_COLUMNS, Season, games_table, standings
from ..core.types import to_json

LEDGER_COLUMNS = (*HEADER, "balance_after")
GAME_STANDINGS_COLUMNS = ("player", "rank", "score", "score_text", "garnets", "winner", "loser",
                          "elimination_candidate", "tokens_of_life")
FACT_COLUMNS = ("game", "round", "index", "fact", "audience", "data")
COLUMNS: dict[str, dict[str, tuple[str, ...]]] = {
    "game": {"ledger": LEDGER_COLUMNS, "standings": GAME_STANDINGS_COLUMNS, "facts": FACT_COLUMNS},
    "season": {"ledger": LEDGER_COLUMNS, "standings": STANDINGS_COLUMNS, "games": GAMES_COLUMNS},
}


def ledger_records(rows: Iterable[LedgerRow]) -> list[dict[str, Any]]:
    """Every row with its integrity check and the player's balance after it."""
    rows = list(rows)
    balance: dict[str, int] = {}
    out = []
    for row, check in zip(rows, chain(rows)):
        balance[row.player] = balance.get(row.player, 0) + row.change
        out.append({**dict(zip(HEADER, row.as_list())), "check": check, "balance_after": balance[row.player]})
    return out


def game_standings(match: Match) -> list[dict[str, Any]]:
    """Final standings once the game ended (best first); before that, the players with their garnets."""
    out = match.outcome()
    garnets = match.ledger.balances(match.players)
    if out is None:
        return [{c: "" for c in GAME_STANDINGS_COLUMNS} | {"player": p, "garnets": garnets[p]} for p in match.players]
    tokens: dict[str, int] = {}
    for a in out.awards:
        if a.kind == "Token of Life":
            tokens[a.player] = tokens.get(a.player, 0) + a.count
    rows = []
    for rank, (player, text) in enumerate(out.standings, start=1):
        rows.append({"player": player, "rank": rank, "score": out.scores.get(player, ""), "score_text": text,
                     "garnets": garnets.get(player, 0), "winner": player in out.winners,
                     "loser": player in out.losers, "elimination_candidate": player == out.elimination_candidate,
                     "tokens_of_life": tokens.get(player, 0)})
    return rows


def fact_records(match: Match, public: bool = False) -> list[dict[str, Any]]:
    """One row a fact: its round, type, who may know it, and its fields as JSON."""
    out = []
    for rec in match.rounds:
        facts = visible(rec.facts, None) if public else rec.facts
        for i, fact in enumerate(facts):
            data = {f.name: to_json(getattr(fact, f.name)) for f in fields(fact) if f.name != "audience"}
            audience = fact.audience
            who = "public" if audience == PUBLIC else ("host" if not audience else ", ".join(audience))
            out.append({"game": match.name, "round": rec.round, "index": i, "fact": type(fact).__name__,
                        "audience": who, "data": json.dumps(data, ensure_ascii=False, sort_keys=True)})
    return out


def _frames(tables: Mapping[str, list[dict[str, Any]]], kind: str) -> dict[str, Any]:
    import pandas as pd   # loaded only when exporting (the CLI starts without it)
    return {name: pd.DataFrame(rows, columns=list(COLUMNS[kind][name])) for name, rows in tables.items()}


def game_frames(match: Match, public: bool = False) -> dict[str, Any]:
    """A game's tables as DataFrames: ``ledger``, ``standings`` and ``facts``."""
    return _frames({"ledger": ledger_records(match.ledger.rows), "standings": game_standings(match),
                    "facts": fact_records(match, public)}, "game")


def season_frames(season: Season) -> dict[str, Any]:
    """A season's tables as DataFrames: ``ledger``, ``standings`` and ``games``."""
    return _frames({"ledger": ledger_records(season.ledger.rows), "standings": standings(season),
                    "games": games_table(season)}, "season")


def write_csv(frames: Mapping[str, Any], out: Path, prefix: str) -> list[Path]:
    """Each frame as ``OUT/<prefix>-<table>.csv``; returns the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, frame in frames.items():
        path = out / f"{prefix}-{name}.csv"
        frame.to_csv(path, index=False, encoding="utf-8")
        paths.append(path)
    return paths


def export_game(folder: str | Path, out: Path | None = None, public: bool = False) -> list[Path]:
    """`sheetbridge export DIR`: the game's tables as CSV in ``OUT`` (default ``DIR/export``)."""
    from .session import load, open_store
    store = open_store(folder)
    with store.lock("export"):
        match = load(store).match
    return write_csv(game_frames(match, public), out or Path(folder) / "export", match.name)


def export_season(folder: str | Path, out: Path | None = None) -> list[Path]:
    """`sheetbridge season export DIR`: the season's tables as CSV in ``OUT`` (default ``DIR/export``)."""
    from .season import load_season, open_season_store
    store = open_season_store(folder)
    with store.lock("season export"):
        season = load_season(store).season
    return write_csv(season_frames(season), out or Path(folder) / "export", season.name)
