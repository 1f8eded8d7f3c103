"""A file under another player's name is refused by name, and nothing of it is read (issue 25, point 1).

The host saves Ann's filled file as ``players/Bo.xlsx`` (or pastes Ann's spreadsheet into Bo's):
every command names it on its own line, stops before writing, and nothing of Ann's file reaches
a report, a status line, a preview or a repaired file. Real commands on real files, re-read from
disk, and the offline fake Google through the real gspread client.
"""
from __future__ import annotations

import copy
import json
import shutil

import openpyxl
import pytest

from sheetbridge.host import new
from sheetbridge.host.demo import fill_submission
from sheetbridge.host.players import PlayerInfo
from sheetbridge.host.record import read_record
from sheetbridge.host.repair import repair
from sheetbridge.host.resolve import resolve
from sheetbridge.host.session import load
from sheetbridge.host.status import status
from sheetbridge.host.transaction import commit
from sheetbridge.host.identity import IDENTITY_TAB, ForeignFile
from sheetbridge.sheets import layout as L
from sheetbridge.sheets.store import BOARD, player_key
from sheetbridge.sheets.xlsx import XlsxStore
from tests.fake_google import FakeGoogle
from tests.test_cli_xlsx import digest, run, tab_text, type_submission

ANN_ROUND_1 = "You played card 3 in Null."       # Ann's secret from round 1 (her Results tab)
ANN_ROUND_2 = "You played card 5 in Solitary."   # what Ann typed for round 2, if it were ever read as a play


def all_text(path) -> str:
    """Every cell of every tab of a workbook, as a player opening it would see it (hidden tabs too)."""
    return "\n".join(tab_text(path, tab) for tab in openpyxl.load_workbook(path).sheetnames)


def new_game(folder, seed=11, *more):
    run("new", "three-modular-rooms", "--players", "Ann,Bo,Cy", "--out", folder, "--garnets", "10",
        "--option", "rounds=3", "--seed", seed, *more)
    return folder


@pytest.fixture
def swapped(tmp_path):
    """Round 1 played; Ann has typed her round 2 play; her file is then saved over Bo's."""
    game = new_game(tmp_path / "game")
    players = game / "players"
    type_submission(players / "Ann.xlsx", "Your play", [3, "Null"])
    type_submission(players / "Bo.xlsx", "Your play", [-10, "Duel"])
    run("resolve", game)
    assert ANN_ROUND_1 in tab_text(players / "Ann.xlsx", "Results")
    type_submission(players / "Ann.xlsx", "Your play", [5, "Solitary"])
    shutil.copy(players / "Bo.xlsx", tmp_path / "Bo-own.xlsx")
    shutil.copy(players / "Ann.xlsx", players / "Bo.xlsx")        # the wrong attachment
    return game


def test_another_players_file_is_refused_by_name_and_nothing_of_it_is_read(swapped, tmp_path):
    game = swapped
    out = run("status", game).output
    bo = next(line for line in out.splitlines() if line.strip().startswith("Bo "))
    assert "players/Bo.xlsx is Ann's file" in bo
    assert f"sheetbridge repair {game} --player Bo" in bo and "put Bo's own file back" in bo
    assert "submitted" not in bo
    assert "1 of 3 submitted" in out                                 # Ann's own file still counts, Cy's does not

    before = digest(game)
    for command in (["resolve", game], ["undo", game], ["lock", game]):
        res = run(*command, ok=False)
        assert res.exit_code != 0 and "Traceback" not in res.output
        assert len(res.output.strip().splitlines()) == 1, res.output
        assert "players/Bo.xlsx is Ann's file" in res.output and "Nothing was read from it" in res.output
        assert "--player Bo" in res.output
    assert digest(game) == before                                    # nothing written

    preview = run("resolve", game, "--dry-run").output               # the host's preview: Bo did not submit
    private_bo = preview.split("== Private to Bo")[1].split("== ")[0]
    assert "You did not submit this round" in private_bo
    assert ANN_ROUND_2 not in private_bo and ANN_ROUND_1 not in private_bo
    assert "Bo: Card" not in preview                                 # Ann's entries were never parsed as Bo's
    assert digest(game) == before

    shutil.copy(tmp_path / "Bo-own.xlsx", game / "players" / "Bo.xlsx")   # Bo's own file put back
    assert "is Ann's file" not in run("status", game).output


def test_repair_redraws_bos_file_without_anything_of_anns(swapped):
    game = swapped
    players = game / "players"
    anns = (players / "Bo.xlsx").read_bytes()
    out = run("repair", game, "--player", "Bo").output
    assert "players/Bo.xlsx is Ann's file: it was moved aside into broken/" in out
    kept = list((game / "broken").glob("Bo-*.xlsx"))
    assert [p.read_bytes() for p in kept] == [anns]                  # nothing lost, and not in players/
    wb = openpyxl.load_workbook(players / "Bo.xlsx")
    assert wb.sheetnames == ["Submission", "Results", "Board", IDENTITY_TAB]
    assert wb[IDENTITY_TAB]["B1"].value == "Bo"
    text = all_text(players / "Bo.xlsx")
    assert ANN_ROUND_1 not in text and "You played card -10 in Duel." in text   # Bo's own round 1
    sub = wb["Submission"]
    assert sub["B2"].value == 2 and sub["B3"].value == "Bo"
    assert "5 | Solitary" not in tab_text(players / "Bo.xlsx", "Submission")   # Ann's entries not salvaged

    out = run("resolve", game).output
    assert "round 2 resolved" in out
    text = all_text(players / "Bo.xlsx")
    assert ANN_ROUND_1 not in text and ANN_ROUND_2 not in text
    assert ANN_ROUND_2 in tab_text(players / "Ann.xlsx", "Results")   # Ann's own play, in her own file


def test_a_board_file_that_is_a_players_is_refused(tmp_path):
    game = new_game(tmp_path / "game")
    shutil.copy(game / "players" / "Ann.xlsx", game / "board.xlsx")  # would show Ann's tabs to everyone
    ld, _ = status(XlsxStore(game))
    assert any("board.xlsx is Ann's file" in w for w in ld.warnings)
    with pytest.raises(ForeignFile, match=r"board.xlsx is Ann's file.*sheetbridge repair"):
        resolve(XlsxStore(game), allow_empty=True)
    res = repair(XlsxStore(game))
    assert any("board.xlsx is Ann's file" in n for n in res.notes)
    assert openpyxl.load_workbook(game / "board.xlsx").sheetnames == ["Board", "Picture", IDENTITY_TAB]
    assert resolve(XlsxStore(game), allow_empty=True).action == "resolved"


def test_a_file_from_an_earlier_game_in_the_same_folder_is_refused(tmp_path):
    game = new_game(tmp_path / "game", seed=1)
    old_bo = (game / "players" / "Bo.xlsx").read_bytes()
    again = new_game(tmp_path / "again", seed=1)                     # the same inputs: the same bytes
    assert digest(again) == digest(game)
    new_game(game, 2, "--force")                                     # `new` again in the same folder
    (game / "players" / "Bo.xlsx").write_bytes(old_bo)
    out = run("status", game).output
    assert "players/Bo.xlsx is another game's file" in out
    res = run("resolve", game, "--allow-empty", ok=False)
    assert res.exit_code != 0 and "players/Bo.xlsx is another game's file" in res.output


def test_a_game_made_before_identities_plays_on_and_gets_them_at_repair(tmp_path):
    game = new_game(tmp_path / "game")
    store = XlsxStore(game)
    ld = load(store)                       # make it a game as today's main writes it: no identities anywhere
    ld.identities = {}
    commit(ld)
    for key, loc in [(player_key(p), l) for p, l in ld.locations.items()] + [(BOARD, ld.board_location)]:
        store.open(key, loc).remove_tabs([IDENTITY_TAB])

    def record():
        rect = load(store).master.read([L.tab_name("record")])[L.tab_name("record")]
        return read_record(rect, "record").data

    assert "identities" not in record()
    type_submission(game / "players" / "Ann.xlsx", "Your play", [3, "Null"])
    assert "round 1 resolved" in run("resolve", game).output
    assert "identities" not in record()                              # its record stays as it was
    assert IDENTITY_TAB not in openpyxl.load_workbook(game / "players" / "Bo.xlsx").sheetnames

    out = run("repair", game).output
    assert "gave 4 file(s) their identity" in out
    assert sorted(record()["identities"]) == ["board", "player:Ann", "player:Bo", "player:Cy"]
    for name in ("Ann", "Bo", "Cy"):
        wb = openpyxl.load_workbook(game / "players" / f"{name}.xlsx")
        assert wb[IDENTITY_TAB]["B1"].value == name
    shutil.copy(game / "players" / "Ann.xlsx", game / "players" / "Bo.xlsx")
    assert "players/Bo.xlsx is Ann's file" in run("status", game).output


# ------------------------------------------------------------------ Google

HOST = "host@example.com"


def test_google_a_spreadsheet_holding_another_players_file_is_refused_and_repaired_in_place(tmp_path):
    fake = FakeGoogle(seed=5)
    folder = tmp_path / "g"
    store = fake.store(HOST, game_folder=folder)
    players = [PlayerInfo(n, f"{n.lower()}@example.com", 10) for n in ("Ann", "Bo", "Cy")]
    new.new_game("three-modular-rooms", players, store, seed=11, folder=folder, options={"rounds": 3})
    ld = load(store)
    fill_submission(store, ld, "Ann", {"play": [{"card": "3", "room": "Null"}]})
    resolve(store, allow_empty=True)
    ann_sid, bo_sid = ld.locations["Ann"], ld.locations["Bo"]
    ann_results = store.open("player:Ann", ann_sid).read([L.tab_name("results")])[L.tab_name("results")]
    assert any(ANN_ROUND_1 in cell for row in ann_results for cell in row)
    # The host pastes Ann's spreadsheet into Bo's (Bo's recorded spreadsheet now holds Ann's file).
    fake.files[bo_sid].sheets = copy.deepcopy(fake.files[ann_sid].sheets)

    _, lines = status(store)
    bo = next(line for line in lines if line.player == "Bo")
    assert bo.state.startswith(f"spreadsheet {bo_sid} is Ann's file") and "--player Bo" in bo.state
    fake.reset_counts()
    with pytest.raises(ForeignFile, match=f"spreadsheet {bo_sid} is Ann's file"):
        resolve(store, allow_empty=True)
    assert all(fake.count("write", file=sid) == 0 for sid in [*ld.locations.values(), ld.board_location])
    assert load(store).revision == ld.revision + 1                 # only round 1's commit: nothing since

    res = repair(store, ["Bo"])
    assert any("is Ann's file: it was overwritten with Bo's file" in n for n in res.notes)
    after = load(store)
    assert after.locations["Bo"] == bo_sid                           # the same spreadsheet, shared with Bo only
    assert sorted(p["emailAddress"] for p in fake.files[bo_sid].permissions) == sorted([HOST, "bo@example.com"])
    book = store.open("player:Bo", bo_sid)
    tabs = book.tab_names(refresh=True)
    got = book.read(tabs)
    assert got[IDENTITY_TAB][0] == ["this file belongs to", "Bo"]
    assert ANN_ROUND_1 not in json.dumps(got)
    assert resolve(store, allow_empty=True).action == "resolved"
