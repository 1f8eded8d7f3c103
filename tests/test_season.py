"""Seasons (issue 28): a three-game season (Three Modular Rooms, Bugcatcher, Flickering Lights) on
xlsx files re-read from disk and on the offline Google fake, through the real commands.

Balances are carried exactly, each game is posted once however often `season add` runs, a game
undone after posting is refused until it has ended again and then posted as correction rows,
an edited season row is named and refused, and a host row without a key is counted once. In the
middle game a seat changes hands (Bo's to Zed): the old player's access is gone on the fake and none
of the seat's earlier private text reaches a file Zed can read (the option is off by default)."""
from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from sheetbridge.host import new
from sheetbridge.host.decide import decide
from sheetbridge.host.demo import fill_submission
from sheetbridge.host.players import PlayerInfo
from sheetbridge.host.resolve import resolve
from sheetbridge.host.session import Loaded, load
from sheetbridge.host.undo import undo
from sheetbridge.host import season as S
from sheetbridge.core.errors import LedgerError, SheetbridgeError
from sheetbridge.core.rng import Rng
from sheetbridge.core.season import CORRECTION_MEMO
from sheetbridge.sheets.store import MASTER
from sheetbridge.sheets.xlsx import XlsxStore
from sheetbridge.host.substitute import substitute
from tests.fake_google import FakeGoogle
from tests.test_substitute import file_text, people, secret_lines

HOST = "host@example.com"
PLAYERS = ["Ann", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal"]
GAMES = [("three-modular-rooms", {"rounds": "2"}), ("bugcatcher", {"rounds": "3"}), ("flickering-lights", {})]


class Backend:
    """Where the season and its games live: xlsx folders, or the Google fake (one host)."""

    def __init__(self, kind: str, root: Path) -> None:
        self.kind, self.root = kind, root
        self.fake = FakeGoogle(seed=5) if kind == "google" else None

    def store(self, name: str, season: bool = False):
        folder = self.root / name
        if self.fake is not None:
            return self.fake.store(HOST, game_folder=folder)
        return S.SeasonXlsxStore(folder) if season else XlsxStore(folder)

    def season_tab(self, store, tab: str) -> list[list[str]]:
        """The season book's tab as the host sees it: re-read from disk with openpyxl, or from the fake."""
        if self.fake is None:
            ws = openpyxl.load_workbook(self.root / "season" / S.BOOK_FILE)[tab]
            return [["" if v is None else str(v) for v in row] for row in ws.iter_rows(values_only=True)]
        return store.open(MASTER, store.master_location()).read([tab])[tab]

    def edit_season_cell(self, store, tab: str, row: int, col: int, value) -> None:
        if self.fake is None:
            path = self.root / "season" / S.BOOK_FILE
            wb = openpyxl.load_workbook(path)
            wb[tab].cell(row, col).value = value
            wb.save(path)
        else:
            store.open(MASTER, store.master_location()).update_cells(tab, {(row, col): value})


def play_to_end(store, seed: int, typing: int = 1) -> Loaded:
    """Round after round, `typing` players type a random legal submission into their file (turn about);
    the others submit nothing and the rules' defaults apply (typing into a file is the slow part)."""
    rng = Rng.from_seed(seed, "season test players")
    while True:
        ld = load(store)
        if ld.match.finished:
            return ld
        players = ld.match.players
        for i in range(typing):
            player = players[(ld.match.round + i) % len(players)]
            raw = ld.match.game.random_submission(ld.match.state, player, rng.fork("player", player))
            fill_submission(store, ld, player, raw)
        resolve(store, allow_empty=True)


def answer(req) -> str:
    """A legal value for a pending decision, as a host would type it (the first choice for everyone)."""
    kind = req.kind.name
    if kind == "BALLOTS":
        return "; ".join(f"{v}: {req.choices[0]}" for v in req.voters)
    return {"RANKING": ", ".join(req.choices), "YESNO": "yes", "SUBSET": ""}.get(kind, req.choices[0])


def decide_all(store) -> None:
    while True:
        pending = load(store).match.pending()
        if not pending:
            return
        decide(store, pending[0].key, answer(pending[0]))


def add(season_store, store):
    """`season add` as a host runs it: refused while a decision waits (entered then), then posted."""
    if load(store).match.pending():
        with pytest.raises(SheetbridgeError, match="waits for the host's decision"):
            S.add_game(season_store, store)
        decide_all(store)
    return S.add_game(season_store, store)


def new_game(b: Backend, season_store, order: int, seed: int):
    game_id, options = GAMES[order]
    store = b.store(f"g{order + 1}")
    players = S.players_for_game(season_store)
    new.new_game(game_id, players, store, seed=seed, options=options, folder=b.root / f"g{order + 1}")
    return store, players


def standings(b: Backend, season_store) -> dict[str, tuple[int, int]]:
    rows = b.season_tab(season_store, S.STANDINGS_TAB)
    head = rows[1]
    at = {h: i for i, h in enumerate(head)}
    return {r[0]: (int(r[at["garnets"]]), int(r[at["tokens of life"]])) for r in rows[2:] if r and r[0]}


def ledger_keys(b: Backend, season_store) -> list[str]:
    return [r[5] for r in b.season_tab(season_store, S.LEDGER_TAB)[1:] if len(r) > 5 and r[5]]


def tokens_awarded(match) -> dict[str, int]:
    out: dict[str, int] = {}
    for a in match.outcome().awards:
        if a.kind == "Token of Life":
            out[a.player] = out.get(a.player, 0) + a.count
    return out


def check_seat_changed_hands(b: Backend, store, bo_file: str) -> None:
    """After `substitute`: nothing of Bo's earlier private text in a file Zed can read; on the fake, Bo can
    no longer open his old spreadsheet or the board."""
    ld = load(store)
    secrets = secret_lines(ld.match, "Bo", len(ld.match.rounds), "Zed")
    assert secrets, "the test needs Bo's earlier rounds to have private text"
    readable = set()
    for location in (ld.locations["Zed"], ld.board_location):
        readable |= file_text(store, b.kind, b.root / "g2", location)
    assert not secrets & readable
    if b.fake is not None:
        assert "bo@example.com" not in people(b.fake, bo_file)
        assert "bo@example.com" not in people(b.fake, ld.board_location)


@pytest.mark.parametrize("kind", ["xlsx", "google"])
def test_a_three_game_season(kind, tmp_path):
    b = Backend(kind, tmp_path)
    season_store = b.store("season", season=True)
    S.new_season("s1", [PlayerInfo(p, f"{p.lower()}@example.com", 10) for p in PLAYERS], season_store,
                 folder=tmp_path / "season")
    tokens = {p: 0 for p in PLAYERS}

    # Game 1: everyone starts with the season's 10; posted once however often `season add` runs.
    g1, players = new_game(b, season_store, 0, seed=11)
    assert {p.name: p.garnets for p in players} == {p: 10 for p in PLAYERS}
    play_to_end(g1, 11)
    assert add(season_store, g1).changed
    m1 = load(g1).match
    keys_once = ledger_keys(b, season_store)
    for _ in range(2):
        again = S.add_game(season_store, g1)
        assert not again.changed and "nothing changed" in again.message
    assert ledger_keys(b, season_store) == keys_once
    for p, n in tokens_awarded(m1).items():
        tokens[p] += n
    assert standings(b, season_store) == {p: (m1.ledger.balance(p), tokens[p]) for p in PLAYERS}

    # Game 2 opens with exactly the balances game 1 left; undone after posting: refused, then corrected.
    g2, players = new_game(b, season_store, 1, seed=12)
    assert {p.name: p.garnets for p in players} == {p: m1.ledger.balance(p) for p in PLAYERS}
    # Bo drops out after the pregame and round 1: Zed takes the seat and joins the season.
    for _ in range(2):
        resolve(g2, allow_empty=True)
    bo_file, seat = load(g2).locations["Bo"], load(g2).match.ledger.balance("Bo")
    S.add_player(season_store, "Zed", "zed@example.com", 0)
    assert substitute(g2, "Bo", "Zed", email="zed@example.com").transferred == seat
    check_seat_changed_hands(b, g2, bo_file)
    S.eliminate(season_store, "Bo")                    # he has left the season too
    tokens["Zed"] = 0
    play_to_end(g2, 12)
    assert add(season_store, g2).changed
    undo(g2)
    with pytest.raises(SheetbridgeError, match="has been undone since.*correction rows"):
        S.add_game(season_store, g2)
    play_to_end(g2, 99)                   # the last round again, with other submissions
    fixed = add(season_store, g2)
    m2 = load(g2).match
    assert fixed.changed and fixed.rows and "correction" in fixed.message
    assert not S.add_game(season_store, g2).changed
    keys = ledger_keys(b, season_store)
    assert len(keys) == len(set(keys))              # no row twice
    memo = CORRECTION_MEMO.format(game=m2.name)
    assert sum(memo in " ".join(r) for r in b.season_tab(season_store, S.LEDGER_TAB)) == len(fixed.rows)
    for p, n in tokens_awarded(m2).items():
        tokens[p] += n
    everyone = PLAYERS + ["Zed"]
    assert m2.ledger.balance("Bo") == 0 and m2.ledger.balance("Zed") != 0
    assert standings(b, season_store) == {p: (m2.ledger.balance(p), tokens[p]) for p in everyone}

    # The Death Match is the host's: Game 2's Elimination Candidate leaves; Flickering Lights takes 7.
    out = m2.outcome().elimination_candidate
    S.eliminate(season_store, out)
    g3, players = new_game(b, season_store, 2, seed=13)
    assert [p.name for p in players] == [p for p in everyone if p not in (out, "Bo")]
    play_to_end(g3, 13)
    assert add(season_store, g3).changed
    m3 = load(g3).match
    for p, n in tokens_awarded(m3).items():
        tokens[p] += n
    final = {p: (m3.ledger.balance(p) if p not in (out, "Bo") else m2.ledger.balance(p), tokens[p]) for p in everyone}
    assert standings(b, season_store) == final

    # Every season row past the openings is a row of a game's ledger: traceable to its round.
    game_keys = {r.key for m in (m1, m2, m3) for r in m.ledger.rows}
    assert {k for k in ledger_keys(b, season_store) if not k.startswith("s1:opening:")} <= game_keys
    games = b.season_tab(season_store, S.GAMES_TAB)
    assert [r[1] for r in games[2:] if r and r[0]] == [m1.name, m2.name, m3.name]

    # An edited season row is named and refused until put back; a row typed without a key is counted once.
    rows = b.season_tab(season_store, S.LEDGER_TAB)
    n = next(i for i, r in enumerate(rows, start=1) if r[5] == "s1:opening:Ann")
    b.edit_season_cell(season_store, S.LEDGER_TAB, n, 4, 999)
    with pytest.raises(LedgerError, match=f"Ledger row {n}, key s1:opening:Ann: change was 10, now 999"):
        S.add_game(season_store, g3)
    b.edit_season_cell(season_store, S.LEDGER_TAB, n, 4, 10)
    assert not S.add_game(season_store, g3).changed
    b.edit_season_cell(season_store, S.LEDGER_TAB, len(rows) + 1, 3, "Bo")
    b.edit_season_cell(season_store, S.LEDGER_TAB, len(rows) + 1, 4, 5)
    b.edit_season_cell(season_store, S.LEDGER_TAB, len(rows) + 1, 5, "quiz night")
    S.eliminate(season_store, out)                   # any write books the typed row, once
    S.eliminate(season_store, out)
    assert standings(b, season_store)["Bo"] == (final["Bo"][0] + 5, final["Bo"][1])
    assert sum(r[2:5] == ["Bo", "5", "quiz night"] for r in b.season_tab(season_store, S.LEDGER_TAB)) == 1

    if b.fake is not None:   # the season book is the host's alone
        assert [x["emailAddress"] for x in b.fake.files[season_store.master_location()].permissions] == [HOST]
