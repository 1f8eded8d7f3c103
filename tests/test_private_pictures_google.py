"""Each player's picture on Google (issue 27, point 4): a Drive file only that player can open,
linked from their Results tab. Through the real gspread client against the offline fake Google,
which checks every request (the media upload included) against Google's discovery documents."""
from __future__ import annotations

import re
from pathlib import Path

from sheetbridge.host.demo import fill_submission
from sheetbridge.host.new import new_game
from sheetbridge.host.players import PlayerInfo
from sheetbridge.host.repair import repair
from sheetbridge.host.resolve import resolve
from sheetbridge.host.session import load
from sheetbridge.host.undo import undo
from sheetbridge.core.match import random_submissions
from sheetbridge.core.rng import Rng
from sheetbridge.host.pictures import render_png
from sheetbridge.host.private_pictures import latest_picture
from sheetbridge.sheets import layout as L
from sheetbridge.sheets.google.pictures import PICTURE_MIME
from sheetbridge.sheets.store import player_key
from tests.fake_google import FakeGoogle

HOST = "host@example.com"
PLAYERS = ["Ann", "Bo", "Cy", "Dee"]
LINK = re.compile(r"https://drive\.google\.com/file/d/([^/\s]+)/view")


def play_round(store) -> None:
    ld = load(store)
    for p, raw in random_submissions(ld.match, Rng.from_seed(ld.match.round, "test players")).items():
        fill_submission(store, ld, p, raw)
    assert resolve(store).action == "resolved"


def linked_files(store, ld) -> dict[str, list[str]]:
    """The Drive files each player's own spreadsheet links to (every tab they can read)."""
    tabs = [L.tab_name(k) for k in ("submission", "results", "board")]
    out = {}
    for p in ld.match.players:
        rects = store.open(player_key(p), ld.locations[p]).read(tabs)
        out[p] = [m[1] for rect in rects.values() for row in rect for v in row for m in LINK.finditer(v)]
    return out


def test_each_players_picture_is_a_drive_file_only_they_can_open_linked_from_their_results(tmp_path):
    fake = FakeGoogle(seed=11)
    folder = tmp_path / "skeld"
    store = fake.store(HOST, game_folder=folder)
    store.game_id = "skeld"
    new_game("skeld", [PlayerInfo(n, f"{n.lower()}@example.com", 10) for n in PLAYERS], store, seed=4,
               folder=folder)
    for _ in range(2):                                    # the pregame round 0, then round 1
        play_round(store)
        ld = load(store)
        links = linked_files(store, ld)
        pictures = {fid: f for fid, f in fake.files.items() if f.mime == PICTURE_MIME}
        assert len(pictures) == len(PLAYERS)              # one file per player, made once, reused
        for p in PLAYERS:
            email = f"{p.lower()}@example.com"
            assert links[p] == [ld.picture_files[p]]      # their own file, once, and no other
            own = pictures[links[p][0]]
            assert own.content == render_png(latest_picture(ld.match, p)[1])   # this round's picture
            assert sorted((x["role"], x.get("emailAddress")) for x in own.permissions) == [
                ("owner", HOST), ("reader", email)]
            assert [fid for fid in fake.readable_by(email) if fid in pictures] == [links[p][0]]
    assert len({f.content for f in pictures.values()}) > 1   # the pictures do differ between players
    round_before = {fid: f.content for fid, f in pictures.items()}
    # Undo puts back the picture of the round before in each player's file; nothing is created.
    fake.reset_counts()
    undo(store)
    ld = load(store)
    for p in PLAYERS:
        assert fake.files[ld.picture_files[p]].content == render_png(latest_picture(ld.match, p)[1])
    assert {fid: f.content for fid, f in pictures.items()} != round_before
    assert not [x for x in fake.log if x.method_id == "drive.files.create"]


def test_repair_puts_the_picture_back_in_the_file_its_results_tab_links(tmp_path):
    fake = FakeGoogle(seed=12)
    folder = tmp_path / "skeld"
    store = fake.store(HOST, game_folder=folder)
    store.game_id = "skeld"
    new_game("skeld", [PlayerInfo(n, f"{n.lower()}@example.com", 10) for n in PLAYERS], store, seed=4,
               folder=folder)
    play_round(store)
    ld = load(store)
    ann = fake.files[ld.picture_files["Ann"]]
    want = ann.content
    ann.content = b"lost"                        # (a run cut off between the upload and the book, say)
    repair(store, players=["Ann"])
    assert ann.content == want
