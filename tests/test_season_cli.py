"""The season and export commands end to end on xlsx files re-read from disk: `season new`,
`new --season`, `season add` (once, and its one-line refusals), `season status`, `export` and
`season export` (CSV read back; the columns are the ones docs/seasons.md documents)."""
from __future__ import annotations

import csv
import re
from pathlib import Path

import openpyxl
import pytest

from sheetbridge.host.export import COLUMNS, game_frames

from test_cli_xlsx import run

ROOT = Path(__file__).resolve().parent.parent


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def master_ledger(folder: Path) -> list[list[str]]:
    ws = openpyxl.load_workbook(folder / "master.xlsx")["Ledger"]
    return [["" if v is None else str(v) for v in r[:8]] for r in ws.iter_rows(min_row=2, values_only=True)
            if any(v is not None for v in r[:8])]


@pytest.fixture
def season(tmp_path):
    """A season of three, and its first game (Three Modular Rooms, one round) played to its end."""
    run("season", "new", "s9", "--players", "Ann,Bo,Cy", "--out", tmp_path / "season", "--garnets", "7")
    game = tmp_path / "g1"
    res = run("new", "three-modular-rooms", "--season", tmp_path / "season", "--out", game, "--seed", "4",
              "--option", "rounds=1")
    assert "Created Three Modular Rooms for 3 players" in res.output
    assert "Opening garnets from the season in" in res.output and "Ann 7, Bo 7, Cy 7." in res.output
    refused = run("season", "add", tmp_path / "season", game, ok=False)
    assert refused.exit_code == 2 and refused.output.strip() == (
        "error: three-modular-rooms-4 has not ended (round 1 is open); run `sheetbridge season add` when it has")
    run("resolve", game, "--allow-empty", "--quiet")      # nobody typed: every player tied on points
    refused = run("season", "add", tmp_path / "season", game, ok=False)
    assert refused.output.strip() == (
        "error: three-modular-rooms-4 waits for the host's decision(s) ec-host; enter them with "
        f"`sheetbridge decide {game}` and run `sheetbridge season add` again")
    run("decide", game, "ec-host", "Cy")
    return tmp_path / "season", game


def test_new_with_a_season_takes_its_players_and_balances(season):
    folder, game = season
    openings = [r for r in master_ledger(game) if r[5].endswith(tuple(f":opening:{p}" for p in ("Ann", "Bo", "Cy")))]
    assert [(r[2], r[3]) for r in openings] == [("Ann", "7"), ("Bo", "7"), ("Cy", "7")]
    res = run("new", "skeld", "--season", folder, "--out", folder.parent / "x", "--garnets", "3", ok=False)
    assert res.output.startswith("error: --garnets and --season do not go together")
    res = run("new", "skeld", "--season", folder, "--players", "Ann,Zed", "--out", folder.parent / "x", ok=False)
    assert res.output.startswith("error: not in season s9 (or already out): Zed")


def test_season_add_posts_once_and_status_shows_it(season):
    folder, game = season
    ws = openpyxl.load_workbook(game / "master.xlsx")["Players"]
    garnets = {r[0]: int(r[3]) for r in ws.iter_rows(min_row=3, values_only=True) if r[0]}
    first = run("season", "add", folder, game).output
    book = (folder / "season.xlsx").read_bytes()
    again = run("season", "add", folder, game).output
    assert first.startswith("posted three-modular-rooms-4 to s9") and "nothing changed" in again
    assert (folder / "season.xlsx").read_bytes() == book          # nothing written the second time
    ws = openpyxl.load_workbook(folder / "season.xlsx")["Standings"]
    assert {r[0]: int(r[2]) for r in ws.iter_rows(min_row=3, values_only=True) if r[0]} == garnets
    status = run("season", "status", folder).output
    assert "Season s9: 1 game(s) posted." in status and "1. three-modular-rooms-4" in status


def test_an_edited_season_row_is_one_line_naming_it(season):
    folder, game = season
    run("season", "add", folder, game)
    wb = openpyxl.load_workbook(folder / "season.xlsx")
    ws = wb["Ledger"]
    row = next(r for r in range(2, ws.max_row + 1) if ws.cell(r, 6).value == "s9:opening:Bo")
    ws.cell(row, 4).value = 70
    wb.save(folder / "season.xlsx")
    res = run("season", "status", folder, ok=False)
    assert res.exit_code == 2 and len(res.output.strip().splitlines()) == 1
    assert f"Ledger row {row}, key s9:opening:Bo: change was 7, now 70" in res.output
    assert f"`sheetbridge season repair {folder} --accept-ledger-edits`" in res.output
    assert "accepted 1 ledger edit(s)" in run("season", "repair", folder, "--accept-ledger-edits").output
    assert "Bo                  70 garnet(s)" in run("season", "status", folder).output


def test_exports_are_the_ledgers_standings_and_facts(season):
    folder, game = season
    run("season", "add", folder, game)
    out = run("export", game, "--out", folder.parent / "csv").output
    name = "three-modular-rooms-4"
    ledger = read_csv(folder.parent / "csv" / f"{name}-ledger.csv")
    assert [[r[c] for c in COLUMNS["game"]["ledger"][:8]] for r in ledger] == master_ledger(game)
    standings = read_csv(folder.parent / "csv" / f"{name}-standings.csv")
    ws = openpyxl.load_workbook(game / "master.xlsx")["Players"]
    assert {r["player"]: r["garnets"] for r in standings} == {
        r[0]: str(r[3]) for r in ws.iter_rows(min_row=3, values_only=True) if r[0]}
    assert sum(r["winner"] == "True" for r in standings) >= 1 and "wrote" in out
    facts = read_csv(folder.parent / "csv" / f"{name}-facts.csv")
    assert {r["round"] for r in facts} == {"1"} and {r["audience"] for r in facts} - {"public", "host"}
    run("export", game, "--out", folder.parent / "public", "--public")
    public = read_csv(folder.parent / "public" / f"{name}-facts.csv")
    assert public and {r["audience"] for r in public} == {"public"} and len(public) < len(facts)

    run("season", "export", folder)
    season_ledger = read_csv(folder / "export" / "s9-ledger.csv")
    assert [r["key"] for r in season_ledger][3:] == [r["key"] for r in ledger if ":opening:" not in r["key"]]
    last = {r["player"]: r["balance_after"] for r in season_ledger}
    assert {r["player"]: r["garnets"] for r in read_csv(folder / "export" / "s9-standings.csv")} == last
    games = read_csv(folder / "export" / "s9-games.csv")
    assert [g["game"] for g in games] == [name] and games[0]["location"] == str(game)


def test_every_exported_column_is_documented():
    doc = (ROOT / "docs" / "seasons.md").read_text(encoding="utf-8")
    for kind, tables in COLUMNS.items():
        for table, columns in tables.items():
            heading = re.search(rf"^### [^\n]*`{kind} {table}`[^\n]*\n(.*?)(?=^#)", doc, re.M | re.S)
            assert heading, f"docs/seasons.md has no section for `{kind} {table}`"
            documented = re.findall(r"^\| `([a-z_ ]+)` \|", heading.group(1), re.M)
            assert documented == list(columns), (kind, table)


def test_frames_from_python():
    from sheetbridge.api import play_random
    m = play_random("three-modular-rooms", ["Ann", "Bo", "Cy"], seed=2, options={"rounds": "1"})
    frames = game_frames(m)
    assert list(frames["ledger"].columns) == list(COLUMNS["game"]["ledger"])
    assert frames["ledger"].groupby("player")["change"].sum().to_dict() == m.ledger.balances(m.players)
    assert len(frames["facts"]) == len(m.rounds[0].facts)


def test_a_player_joins_the_season_and_its_ledger_stays_checked(season):
    from sheetbridge.host.season import add_player, load_season, open_season_store
    folder, game = season
    store = open_season_store(folder)
    add_player(store, "Dee", "dee@example.com", 4)
    s = load_season(store).season
    assert s.players == ["Ann", "Bo", "Cy", "Dee"] and s.ledger.balance("Dee") == 4
    ws = openpyxl.load_workbook(folder / "season.xlsx")["Ledger"]
    assert [c.value for c in ws[ws.max_row]][2:6] == ["Dee", 4, "season opening balance", "s9:opening:Dee"]
    assert "Dee                  4 garnet(s)" in run("season", "status", folder).output
