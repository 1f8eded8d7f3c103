"""Seats that change hands and co-hosts (issue 28), through the real commands on xlsx files re-read from
disk and on the offline Google fake (the real gspread client).

A substitution in Bugcatcher (the season's middle game): the seat's balance and history stay with it,
the new player gets a file of their own (on Google a new spreadsheet; the old player's access to theirs
and to the board is gone), no private text of the seat's earlier rounds reaches any file the new player
can read unless the host says so, the old player's file put in the new player's place is refused by
name, undo across the substitution keeps it, and the season posts the seat's rows like any others."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import openpyxl
import pytest
from click.testing import CliRunner

from sheetbridge.api import load_match, new_match
from sheetbridge.host import session as host_session
from sheetbridge.host.books import read_books
from sheetbridge.host.config import CONFIG_FILE, read_config
from sheetbridge.host.decide import decide
from sheetbridge.host.demo import fill_submission
from sheetbridge.host.new import new_game
from sheetbridge.host.players import PlayerInfo
from sheetbridge.host.repair import repair
from sheetbridge.host.resolve import resolve
from sheetbridge.host.session import load
from sheetbridge.host.undo import has_entries, undo
from sheetbridge.host import season as S
from sheetbridge.cli import main
from sheetbridge.host.cohosts import share_with_cohosts
from sheetbridge.core.errors import GameBusy, UsageError
from sheetbridge.core.rng import Rng
from sheetbridge.host.identity import ForeignFile
from sheetbridge.sheets import google as G
from sheetbridge.sheets.store import player_key
from sheetbridge.sheets.xlsx import XlsxStore
from sheetbridge.host.substitute import substitute
from tests.fake_google import FakeGoogle

HOST = "host@example.com"
PLAYERS = ["Ann", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy"]


def email(name: str) -> str:
    return f"{name.lower()}@example.com"


def make(kind: str, tmp_path: Path, fake: FakeGoogle | None = None, seed: int = 12):
    folder = tmp_path / "g"
    store = fake.store(HOST, game_folder=folder) if kind == "google" else XlsxStore(folder)
    new_game("bugcatcher", [PlayerInfo(p, email(p), 10) for p in PLAYERS], store, seed=seed,
               options={"rounds": "2"}, folder=folder)
    return store, folder


def play_round(store, seed: int, typing: int = 2) -> None:
    """The first ``typing`` players (Ann and the seat that changes hands) type a random legal submission into
    their own file, the others submit nothing (the rules' defaults apply), then the round is resolved."""
    ld = load(store)
    rng = Rng.from_seed(seed, "substitute test", ld.match.round)
    for player in ld.match.players[:typing]:
        raw = ld.match.game.random_submission(ld.match.state, player, rng.fork("player", player))
        fill_submission(store, ld, player, raw)
    resolve(store, allow_empty=True)


def file_text(store, kind: str, folder: Path, location: str) -> set[str]:
    """Every non-empty cell of every tab of a book, read back from disk or from the fake."""
    if kind == "xlsx":
        wb = openpyxl.load_workbook(folder / location)
        return {str(v).strip() for ws in wb.worksheets for row in ws.iter_rows(values_only=True)
                for v in row if v is not None and str(v).strip()}
    book = store.open("player:?", location)
    rects = book.read(book.tab_names())
    return {c.strip() for rect in rects.values() for row in rect for c in row if c and c.strip()}


def secret_lines(m, old: str, rounds: int, now: str) -> set[str]:
    """Lines of ``old``'s private reports of the first ``rounds`` rounds that nobody else is told:
    not in the public board and not in what the seat's holder is shown now of the seat's state."""
    private = {line for rec in m.rounds[:rounds] for b in rec.private[old].blocks for line in b.lines}
    private |= {b.title for rec in m.rounds[:rounds] for b in rec.private[old].blocks}
    public = {line for b in m.public_report().blocks for line in (b.title, *b.lines)}
    view = {line for b in m.game.player_view(m.state, now).blocks for line in (b.title, *b.lines)}
    return {line.strip() for line in private - public - view if line.strip()}


def people(fake: FakeGoogle, location: str) -> dict[str, str]:
    return {p.get("emailAddress"): p["role"] for p in fake.files[location].permissions
            if p.get("emailAddress") and p["role"] != "owner"}


@pytest.mark.parametrize("kind", ["xlsx", "google"])
def test_a_seat_changes_hands_in_bugcatcher(kind, tmp_path):
    fake = FakeGoogle(seed=3) if kind == "google" else None
    store, folder = make(kind, tmp_path, fake)
    play_round(store, 1)                     # the pregame (round 0)
    play_round(store, 2)                     # round 1
    before = load(store)
    seat_balance, bo_file = before.match.ledger.balance("Bo"), before.locations["Bo"]
    res = substitute(store, "Bo", "Zed", email=email("Zed"))
    assert res.transferred == seat_balance and "Zed now holds Bo's seat" in res.message

    ld = load(store)
    m = ld.match
    assert m.players == [p if p != "Bo" else "Zed" for p in PLAYERS]
    assert m.ledger.balance("Zed") == seat_balance and m.ledger.balance("Bo") == 0
    assert ld.locations["Zed"] != bo_file and ld.identities[player_key("Zed")] != ld.identities[player_key("Bo")]
    # No private text of the seat's earlier rounds in any file Zed can read (his own, the board).
    secrets = secret_lines(m, "Bo", 2, "Zed")
    assert secrets, "the test needs Bo's earlier rounds to have private text"
    readable = file_text(store, kind, folder, ld.locations["Zed"]) | file_text(store, kind, folder, ld.board_location)
    assert not secrets & readable
    assert secrets & file_text(store, kind, folder, bo_file)     # (they were there, in Bo's file)
    # The master's Players tab names Zed and his file from now on.
    master = file_text(store, kind, folder, "master.xlsx" if kind == "xlsx" else ld.master.location)
    assert {"Zed", ld.locations["Zed"]} <= master

    if fake is not None:
        assert people(fake, ld.locations["Zed"]) == {email("Zed"): "writer"}
        assert email("Bo") not in people(fake, bo_file)
        assert email("Bo") not in people(fake, ld.board_location)
        assert people(fake, ld.board_location)[email("Zed")] == "reader"
    else:   # Bo's old file put in Zed's place is refused by name
        shutil.copy(folder / bo_file, folder / ld.locations["Zed"])
        with pytest.raises(ForeignFile, match="is Bo's file"):
            resolve(store, allow_empty=True)
        repair(store, ["Zed"])
    if fake is not None:
        return   # the rest is the same on both backends: once is enough (CPU time)

    # Zed plays on; undo across the substitution keeps it: Zed replays round 1, the seat's balance intact.
    play_round(store, 3)
    undo(store)
    undo(store)
    ld = load(store)
    assert ld.match.players[1] == "Zed" and ld.match.seats[0]["at"] == 1 and ld.match.round == 1
    # Round 1's rows are reversed on the seat's holder: Bo, gone, keeps 0; Zed holds what the seat had then.
    assert sum(r.change for r in before.match.ledger.round_rows(1) if r.player == "Bo"), "Bo's round 1 paid nothing"
    assert ld.match.ledger.balance("Bo") == 0
    assert ld.match.ledger.balance("Zed") == before.match.rounds[1].balances["Bo"]
    assert not secret_lines(ld.match, "Bo", 1, "Zed") & file_text(store, kind, folder, ld.locations["Zed"])
    # Round 1's entries go back into the Submission tabs: Ann's own, but Bo's never into Zed's.
    books = read_books(ld, ["Ann", "Zed"], board=False)
    assert has_entries(books[player_key("Ann")].raw) and not has_entries(books[player_key("Zed")].raw or {})
    while not load(store).match.finished:
        play_round(store, 4)
    m = load(store).match
    m.replay()                                 # the whole game replays exactly, the substitution with it
    assert "Zed" in {p for p, _ in m.outcome().standings}


def test_show_history_yes_gives_the_seat_its_earlier_results(tmp_path):
    """The host's option, through the CLI (the option's effect is the core's, the same on Google)."""
    store, folder = make("xlsx", tmp_path)
    play_round(store, 1)
    play_round(store, 2)
    out = CliRunner().invoke(main, ["substitute", str(folder), "Bo", "Zed", "--show-history", "yes"])
    assert out.exit_code == 0, out.output
    assert "shows the seat's earlier private results" in out.output
    ld = load(store)
    secrets = secret_lines(ld.match, "Bo", 2, "Zed")
    assert secrets and secrets <= file_text(store, "xlsx", folder, ld.locations["Zed"])


def test_substitute_refuses_what_it_cannot_do_in_one_line(tmp_path):
    store, folder = make("xlsx", tmp_path)
    runner = CliRunner()
    for args, said in ((["Bo", "Ann"], "'Ann' already plays"), (["Zed", "Bo"], "'Zed' is not a player"),
                       (["Bo", "Ze/d"], "cannot be part of a file")):
        out = runner.invoke(main, ["substitute", str(folder), *args])
        assert out.exit_code != 0 and said in out.output and "Traceback" not in out.output
        assert len(out.output.strip().splitlines()) == 1
    substitute(store, "Bo", "Zed")
    again = substitute(store, "Bo", "Zed")          # run again (as after a cut): finishes, changes nothing
    assert again.finished_earlier
    assert [r.key for r in load(store).match.ledger.rows].count(f"{load(store).match.name}:seat0:in") == 1
    with pytest.raises(UsageError, match="'Bo' already plays .or played."):
        substitute(store, "Cy", "Bo")


def test_the_season_posts_the_seat_change_like_any_rows(tmp_path):
    """In a season, `substitute --season` has the new player join it, and the seat's rows are posted once."""
    season_store = S.SeasonXlsxStore(tmp_path / "season")
    S.new_season("s1", [PlayerInfo(p, email(p), 10) for p in PLAYERS], season_store, folder=tmp_path / "season")
    store = XlsxStore(tmp_path / "g")
    new_game("bugcatcher", S.players_for_game(season_store), store, seed=12, options={"rounds": "2"},
               folder=tmp_path / "g")
    play_round(store, 1)
    out = CliRunner().invoke(main, ["substitute", str(tmp_path / "g"), "Bo", "Zed", "--email", email("Zed"),
                                    "--season", str(tmp_path / "season")])
    assert out.exit_code == 0 and "Zed joined the season" in out.output, out.output
    while not load(store).match.finished:
        play_round(store, 5)
    while load(store).match.pending():
        req = load(store).match.pending()[0]
        decide(store, req.key, "; ".join(f"{v}: {req.choices[0]}" for v in req.voters)
                 if req.kind.name == "BALLOTS" else {"RANKING": ", ".join(req.choices), "YESNO": "yes",
                                                     "SUBSET": ""}.get(req.kind.name, req.choices[0]))
    assert S.add_game(season_store, store).changed
    assert not S.add_game(season_store, store).changed
    m = load(store).match
    season = S.load_season(season_store).season
    rows = openpyxl.load_workbook(tmp_path / "season" / S.BOOK_FILE)[S.LEDGER_TAB]
    keys = [r[5] for r in rows.iter_rows(values_only=True)]
    assert keys.count(f"{m.name}:seat0:in") == 1 and keys.count(f"{m.name}:seat0:out") == 1
    assert season.ledger.balance("Zed") == m.ledger.balance("Zed") and season.ledger.balance("Bo") == 0


def test_cohosts_get_the_master_and_the_board_never_a_player_file(tmp_path, monkeypatch):
    fake = FakeGoogle(seed=6)
    folder = tmp_path / "g"
    store = fake.store(HOST, game_folder=folder)
    new_game("bugcatcher", [PlayerInfo(p, email(p), 10) for p in PLAYERS], store, seed=12, folder=folder,
               cohosts=["co@example.com"])
    ld = load(store)
    assert ld.cohosts == ["co@example.com"] and people(fake, ld.master.location) == {"co@example.com": "writer"}
    assert people(fake, ld.board_location)["co@example.com"] == "reader"
    share_with_cohosts(store, ["co2@example.com", "co@example.com"])
    ld = load(store)
    assert ld.cohosts == ["co@example.com", "co2@example.com"]
    assert people(fake, ld.master.location) == {"co@example.com": "writer", "co2@example.com": "writer"}
    board = people(fake, ld.board_location)
    assert board["co@example.com"] == board["co2@example.com"] == "reader"
    for p in PLAYERS:
        assert people(fake, ld.locations[p]) == {email(p): "writer"}
    with pytest.raises(UsageError, match="ann@example.com plays in this game"):
        share_with_cohosts(store, ["ann@example.com"])
    # The lock names which host started a command: the account recorded in a co-host game's folder, or
    # SHEETBRIDGE_HOST_NAME.
    cfg = json.loads((folder / CONFIG_FILE).read_text())
    assert cfg["cohosts"] == ["co@example.com", "co2@example.com"]
    host = G.open_google_store({**cfg, "folder": str(folder)}, session=fake.session(HOST), clock=fake.clock,
                               sleep=fake.sleep, wall_clock=fake.wall_clock)
    monkeypatch.setenv("SHEETBRIDGE_HOST_NAME", "Co the co-host")
    cohost = fake.store("co@example.com", game_folder=tmp_path / "co")
    cohost.master_id = ld.master.location
    cohost.lock_owner, cohost.lock_host = "co-laptop:4242:x", "co-laptop"   # another computer
    with host.lock("resolve"):
        with pytest.raises(GameBusy, match=f"resolve by {HOST} since"):
            with cohost.lock("undo"):
                pass
    with cohost.lock("resolve"):
        with pytest.raises(GameBusy, match="resolve by Co the co-host since"):
            with host.lock("undo"):
                pass


@pytest.mark.parametrize("game_id", ["three-modular-rooms", "skeld", "bugcatcher", "big-machine", "flickering-lights"])
def test_every_game_replays_and_undoes_across_a_substitution(game_id):
    """Pure: a seat changes hands after the first round; the whole game replays exactly from its record,
    and undoing back over the substitution keeps it with the seat's balance whole."""
    from sheetbridge.api import get_game
    from sheetbridge.core.match import random_submissions
    spec = get_game(game_id).spec
    players = PLAYERS[:max(spec.min_players, min(spec.max_players or 6, 6))]   # (The Big Machine: an even roster)
    m = new_match(game_id, players, seed=21, garnets={p: 10 for p in players})
    rng = Rng.from_seed(21, "players")
    m.resolve(random_submissions(m, rng))
    seat = players[1]
    m.substitute(seat, "Zed")
    while not m.finished:
        m.resolve(random_submissions(m, rng))
    again = load_match(json.loads(json.dumps(m.to_json())))
    again.replay()                                    # raises if any round's facts differ
    assert again.state == json.loads(json.dumps(m.state)) and "Zed" in again.players
    while m.rounds:
        m.undo()
    # Every round reversed on the seat's holder: Zed holds the seat's opening 10, the departed player 0.
    assert m.players[1] == "Zed" and m.seats[0]["at"] == 0
    assert m.ledger.balance("Zed") == 10 and m.ledger.balance(seat) == 0


def test_cohosts_through_the_cli_new_and_share(tmp_path, monkeypatch):
    """`new --google --cohost` and `share --cohost` as a host types them (the CLI over the fake), and the
    one-line refusals for an xlsx game."""
    fake = FakeGoogle(seed=7)
    folder = tmp_path / "g"

    def opened(where, progress=None):
        cfg = read_config(Path(where))
        return G.open_google_store({**cfg, "folder": str(where)}, session=fake.session(HOST), clock=fake.clock,
                                   sleep=fake.sleep, wall_clock=fake.wall_clock)
    monkeypatch.setattr(host_session, "open_store", opened)
    monkeypatch.setattr(G, "new_google_store", lambda where, **kw: fake.store(HOST, game_folder=where))

    def run(*args):
        return CliRunner().invoke(main, [str(a) for a in args])
    players = ", ".join(f"{p} <{email(p)}>" for p in PLAYERS)
    res = run("new", "bugcatcher", "--players", players, "--out", folder, "--google", "--cohost", "co@example.com")
    assert res.exit_code == 0, res.output
    ld = load(opened(folder))
    assert people(fake, ld.master.location) == {"co@example.com": "writer"}
    res = run("share", folder, "--cohost", "co2@example.com")
    assert res.exit_code == 0 and "Co-hosts of this game: co@example.com, co2@example.com" in res.output
    ld = load(opened(folder))
    assert people(fake, ld.master.location) == {"co@example.com": "writer", "co2@example.com": "writer"}
    assert all(people(fake, ld.locations[p]) == {email(p): "writer"} for p in PLAYERS)
    res = run("new", "bugcatcher", "--players", "Ann,Bo", "--out", tmp_path / "x", "--cohost", "co@example.com")
    assert res.exit_code == 2 and "--cohost shares Google spreadsheets: add --google" in res.output
