"""Files that come back from players (issue 27, point 1): `status` names every file in players/ it does
not use, and `collect` files returned attachments by the identity each carries, keeps the one the player
saved last, never files a file under another player's name or from another game, and loses nothing.
Real commands on real files, re-read from disk."""
from __future__ import annotations

import os
import re
import shutil
import zipfile
from datetime import datetime, timedelta, timezone

import pytest

from sheetbridge.host import new
from sheetbridge.host.players import PlayerInfo
from sheetbridge.host.collect import collect
from sheetbridge.core.errors import UsageError
from tests.fake_google import FakeGoogle
from tests.test_cli_xlsx import run, type_submission


def new_game(folder, seed=11):
    run("new", "three-modular-rooms", "--players", "Ann,Bo,Cy", "--out", folder, "--garnets", "10",
        "--option", "rounds=3", "--seed", seed)
    return folder


def stamp(path, iso: str, mtime: float | None = None) -> None:
    """Set the workbook's own saved time (docProps/core.xml), as Excel or LibreOffice does when saving;
    and the file's mtime, as a download does."""
    with zipfile.ZipFile(path) as z:
        parts = {i: z.read(i.filename) for i in z.infolist()}
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for info, data in parts.items():
            if info.filename == "docProps/core.xml":
                data = re.sub(rb"(<dcterms:modified[^>]*>)[^<]+(</dcterms:modified>)",
                              rb"\g<1>" + iso.encode() + rb"\g<2>", data)
            z.writestr(info, data)
    if mtime is not None:
        os.utime(path, (mtime, mtime))


def status_line(game, player: str) -> str:
    out = run("status", game).output
    return next(line for line in out.splitlines() if line.strip().startswith(player + " "))


def test_status_names_every_file_in_players_it_does_not_use(tmp_path):
    game = new_game(tmp_path / "game")
    shutil.copy(game / "players" / "Ann.xlsx", game / "players" / "Ann (1).xlsx")
    (game / "players" / "notes.txt").write_text("my plan")
    out = run("status", game).output
    assert "players/Ann (1).xlsx is not used: it is Ann's file under another name" in out
    assert f"sheetbridge collect {game} 'players/Ann (1).xlsx'" in out
    assert "players/notes.txt is not used" in out
    assert "another file of theirs is in players/" in status_line(game, "Ann")
    assert "another file" not in status_line(game, "Bo")
    assert "my plan" not in out                       # what a file holds is never shown


def test_collect_keeps_the_copy_the_player_saved_last_not_the_last_downloaded(tmp_path):
    game = new_game(tmp_path / "game")
    downloads = tmp_path / "Downloads"
    downloads.mkdir()
    original = (game / "players" / "Ann.xlsx").read_bytes()
    # Ann saved a first version (card 1 in Duel) an hour after the game was made, then her real play
    # (card 3 in Null) an hour later (times after the game's own file, whenever the test runs).
    hour = datetime.now(timezone.utc).replace(microsecond=0) + timedelta(hours=1)
    later = hour + timedelta(hours=1)
    first, last = downloads / "Ann.xlsx", downloads / "Ann (1).xlsx"
    shutil.copy(game / "players" / "Ann.xlsx", first)
    type_submission(first, "Your play", [1, "Duel"])
    stamp(first, hour.strftime("%Y-%m-%dT%H:%M:%SZ"), mtime=later.timestamp() + 86400)   # re-downloaded later
    shutil.copy(game / "players" / "Ann.xlsx", last)
    type_submission(last, "Your play", [3, "Null"])
    stamp(last, later.strftime("%Y-%m-%dT%H:%M:%SZ"), mtime=later.timestamp() + 3600)
    before = {p.name: p.read_bytes() for p in downloads.iterdir()}

    out = run("collect", game, "--from", downloads).output
    assert f"filed: Ann (1).xlsx filed as Ann's file (saved {later:%Y-%m-%d %H:%M:%S} UTC)" in out
    assert "kept aside: Ann.xlsx is Ann's file, older than Ann (1).xlsx" in out
    assert (game / "players" / "Ann.xlsx").read_bytes() == last.read_bytes()
    replaced = list((game / "players" / "replaced").iterdir())   # nothing lost
    assert [p.read_bytes() for p in replaced] == [original]
    assert {p.name: p.read_bytes() for p in downloads.iterdir()} == before   # the host's files untouched
    assert "submitted" in status_line(game, "Ann") and "ok" in status_line(game, "Ann")
    res = run("resolve", game, "--dry-run").output
    assert "You played card 3 in Null." in res and "card 1 in Duel" not in res

    # Collecting the same files again changes nothing.
    again = run("collect", game, first, last).output
    assert "unchanged: Ann (1).xlsx is Ann's file, the same as the one in place" in again
    assert "filed:" not in again
    assert len(list((game / "players" / "replaced").iterdir())) == 1


def test_collect_never_files_a_file_under_another_players_name_or_from_another_game(tmp_path):
    game = new_game(tmp_path / "game")
    other = new_game(tmp_path / "other", seed=12)           # the same players, another game
    sent = tmp_path / "sent"
    sent.mkdir()
    bo_as_ann = sent / "Ann.xlsx"                            # Bo's file, sent under Ann's name
    shutil.copy(game / "players" / "Bo.xlsx", bo_as_ann)
    type_submission(bo_as_ann, "Your play", [-10, "Duel"])
    shutil.copy(other / "players" / "Cy.xlsx", sent / "Cy.xlsx")
    (sent / "board.xlsx").write_bytes((game / "board.xlsx").read_bytes())
    ann_before = (game / "players" / "Ann.xlsx").read_bytes()
    cy_before = (game / "players" / "Cy.xlsx").read_bytes()

    out = run("collect", game, *sorted(sent.iterdir())).output
    assert "filed: Ann.xlsx filed as Bo's file" in out and "its name is Ann's but it carries Bo's identity" in out
    assert "refused: Cy.xlsx is another game's file" in out
    assert "refused: board.xlsx is the public board's file, not a player's" in out
    assert (game / "players" / "Ann.xlsx").read_bytes() == ann_before
    assert (game / "players" / "Cy.xlsx").read_bytes() == cy_before
    assert (game / "players" / "Bo.xlsx").read_bytes() == bo_as_ann.read_bytes()
    assert "submitted" in status_line(game, "Bo") and "not submitted" in status_line(game, "Ann")


def test_a_file_saved_in_an_earlier_round_does_not_replace_the_newer_one_in_place(tmp_path):
    game = new_game(tmp_path / "game")
    old = tmp_path / "Ann.xlsx"
    shutil.copy(game / "players" / "Ann.xlsx", old)
    type_submission(old, "Your play", [3, "Null"])
    stamp(old, "2020-01-01T10:00:00Z", mtime=2_000_000_000)   # saved long ago, downloaded just now
    in_place = (game / "players" / "Ann.xlsx").read_bytes()
    out = run("collect", game, old).output
    assert "kept aside: Ann.xlsx is Ann's file (saved 2020-01-01 10:00:00 UTC), not newer than the one in place" in out
    assert (game / "players" / "Ann.xlsx").read_bytes() == in_place


def test_collect_files_a_redownload_left_in_players_and_status_is_quiet_after(tmp_path):
    game = new_game(tmp_path / "game")
    redownload = game / "players" / "Ann (1).xlsx"
    shutil.copy(game / "players" / "Ann.xlsx", redownload)
    type_submission(redownload, "Your play", [3, "Null"])
    out = run("collect", game, redownload).output
    assert "filed: Ann (1).xlsx filed as Ann's file" in out
    assert not redownload.exists()
    status = run("status", game).output
    assert "not used" not in status and "submitted" in status_line(game, "Ann")


def test_collect_without_files_is_one_line(tmp_path):
    game = new_game(tmp_path / "game")
    res = run("collect", game, ok=False)
    assert res.exit_code == 2 and res.output.count("\n") == 1 and "--from" in res.output


def test_collect_on_google_is_one_line_saying_there_is_nothing_to_collect(tmp_path):
    fake = FakeGoogle(seed=5)
    store = fake.store("host@example.com")
    new.new_game("three-modular-rooms", [PlayerInfo(n, f"{n.lower()}@example.com", 10) for n in ("Ann", "Bo", "Cy")],
               store, seed=11, options={"rounds": 3})
    (tmp_path / "Ann.xlsx").write_bytes(b"x")
    with pytest.raises(UsageError, match="nothing to collect"):
        collect(store, [tmp_path / "Ann.xlsx"])
