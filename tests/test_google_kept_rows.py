"""Google: a tab is written around the rows it keeps (sheets/google/kept.py, issue 31).

A board or a Results tab grows by a round's block at its top, a ledger at its end: the rows a tab
holds already are moved into place (insertDimension, deleteDimension) and only the others are sent.
What the fake holds afterwards (every cell's value, format and dropdown, merges, row heights,
column widths, grid, protection) must be what writing every tab whole leaves, round after round,
in more than one game, after hand edits, without the game folder's fingerprints, and when writes
fail half-way and the command is run again.
"""
from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path

import pytest

from sheetbridge.core.errors import BackendError
from sheetbridge.core.match import random_submissions
from sheetbridge.core.rng import Rng
from sheetbridge.host.config import CONFIG_FILE
from sheetbridge.host.demo import fill_submission
from sheetbridge.host.new import new_game
from sheetbridge.host.players import PlayerInfo
from sheetbridge.host.resolve import resolve
from sheetbridge.host.session import load
from sheetbridge.sheets import google as G
from sheetbridge.sheets.google import kept
from sheetbridge.sheets.model import CellData as C, TabData
from sheetbridge.sheets.store import BOARD, MASTER, player_key
from tests.conftest import players_for
from tests.fake_google import FakeGoogle

HOST = "host@example.com"
OPTIONS = {"three-modular-rooms": {"rounds": "80", "cards_consumed": "no"}}


def reopen(fake: FakeGoogle, folder: Path, incremental: bool = True) -> G.GoogleStore:
    """The store a new sheetbridge process opens from the game folder."""
    cfg = json.loads((folder / CONFIG_FILE).read_text())
    st = G.open_google_store({**cfg, "folder": str(folder)}, session=fake.session(HOST),
                             clock=fake.clock, sleep=fake.sleep, wall_clock=fake.wall_clock)
    st.game_id = cfg["game"]
    st.incremental = incremental
    return st


def until_ok(fn, limit: int = 60):
    for _ in range(limit):
        try:
            return fn()
        except BackendError:
            pass
    raise AssertionError(f"still failing after {limit} runs")


def start(fake: FakeGoogle, game_id: str, folder: Path, incremental: bool = True, count: int | None = None) -> None:
    players = [PlayerInfo(n, f"{n.lower()}@example.com", 10) for n in players_for(game_id, count)]
    st = fake.store(HOST, game_folder=folder)
    st.incremental = incremental
    until_ok(lambda: new_game(game_id, players, st, seed=3, folder=folder, options=OPTIONS.get(game_id)))


def one_round(fake: FakeGoogle, folder: Path, rng: Rng, incremental: bool = True) -> bool:
    """Fill every player's form and resolve, each command run again until it succeeds. False: the game is over."""
    ld = until_ok(lambda: load(reopen(fake, folder, incremental)))
    if ld.match.finished:
        return False
    for p, raw in random_submissions(ld.match, rng, 0.1).items():
        if raw is not None:
            until_ok(lambda: fill_submission(reopen(fake, folder, incremental), ld, p, raw))
    until_ok(lambda: resolve(reopen(fake, folder, incremental), allow_empty=True, round_no=ld.match.round))
    return True


def twins(tmp_path: Path) -> tuple[dict[str, Path], dict[str, FakeGoogle]]:
    """The same writes twice: "whole" writes every tab whole, "part" around what it holds."""
    folders = {k: tmp_path / k for k in ("whole", "part")}
    return folders, {k: FakeGoogle(seed=5) for k in folders}


def twin_games(tmp_path: Path, rounds: int, count: int | None = None
               ) -> tuple[dict[str, Path], dict[str, FakeGoogle], dict[str, Rng]]:
    """A Three Modular Rooms game made in both :func:`twins` and played `rounds` rounds in each."""
    folders, fakes = twins(tmp_path)
    rngs = {k: Rng.from_seed(3, "players") for k in folders}
    for k in folders:
        start(fakes[k], "three-modular-rooms", folders[k], incremental=k == "part", count=count)
        for _ in range(rounds):
            one_round(fakes[k], folders[k], rngs[k], incremental=k == "part")
    return folders, fakes, rngs


def roles(fake: FakeGoogle, folder: Path) -> dict[str, str]:
    ld = load(reopen(fake, folder))
    return {MASTER: ld.master.location, BOARD: ld.board_location,
            **{player_key(p): loc for p, loc in ld.locations.items()}}


def sheet_state(fake: FakeGoogle, fid: str) -> dict:
    """Everything the fake holds of a spreadsheet's tabs, Google's ids (protected ranges') left out.
    The Record tab and the Lock tab name ids and owners, which differ between two runs: left out."""
    out = {}
    for s in fake.files[fid].sheets:
        if s.title in ("Record", "Lock"):
            continue
        props = {k: v for k, v in s.props.items() if k != "index"}
        protected = [{k: v for k, v in pr.items() if k != "protectedRangeId"} for pr in s.protected]
        out[s.title] = {"props": props, "cells": dict(s.cells), "cols": dict(s.col_px), "rows": dict(s.row_px),
                        "merges": sorted(tuple(sorted(m.items())) for m in s.merges),
                        "protected": sorted(json.dumps(p, sort_keys=True) for p in protected)}
    return out


def game_state(fake: FakeGoogle, folder: Path) -> dict:
    return {role: sheet_state(fake, fid) for role, fid in roles(fake, folder).items()}


def sent_requests(fake: FakeGoogle) -> Counter:
    """The kinds of batchUpdate requests a fake served, counted (wrapping its handler)."""
    kinds: Counter = Counter()
    handle = fake.handle

    def counted(method, url, headers, body, timeout=None):
        if body and url.endswith(":batchUpdate"):
            for req in json.loads(body).get("requests", []):
                kinds.update(list(req))
            kinds["bytes"] += len(body)
        return handle(method, url, headers, body, timeout)
    fake.handle = counted
    return kinds


@pytest.mark.parametrize("game_id,rounds", [("three-modular-rooms", 7), ("skeld", 5)])
def test_written_around_kept_rows_the_books_end_as_written_whole(game_id, rounds, tmp_path):
    whole, part = FakeGoogle(seed=5), FakeGoogle(seed=5)
    start(whole, game_id, tmp_path / "whole", incremental=False)
    start(part, game_id, tmp_path / "part")
    assert game_state(part, tmp_path / "part") == game_state(whole, tmp_path / "whole")
    sent_whole, sent_part = sent_requests(whole), sent_requests(part)
    rng_whole, rng_part = Rng.from_seed(3, "players"), Rng.from_seed(3, "players")
    for _ in range(rounds):
        assert one_round(whole, tmp_path / "whole", rng_whole, incremental=False)
        assert one_round(part, tmp_path / "part", rng_part)
        assert game_state(part, tmp_path / "part") == game_state(whole, tmp_path / "whole")
    assert sent_part["insertDimension"] > 0 and not sent_whole["insertDimension"]   # the rows were moved
    assert sent_part["bytes"] < 0.9 * sent_whole["bytes"]   # (forms typed in and all: the benchmark has the figures)


def test_a_games_standings_tab_is_written_around_its_cells_and_ends_as_written_whole(tmp_path):
    """14 players: the master's Standings tab (17 rows, a column per round, rows in rank order) is
    written around the cells it holds, through `resolve`, and every book ends as written whole."""
    folders, fakes, rngs = twin_games(tmp_path, 0, count=14)
    sent = sent_requests(fakes["part"])
    for _ in range(5):
        for k in folders:
            assert one_round(fakes[k], folders[k], rngs[k], incremental=k == "part")
        assert game_state(fakes["part"], folders["part"]) == game_state(fakes["whole"], folders["whole"])
    assert sent["moveDimension"] > 0
    from sheetbridge.host.undo import undo   # a column fewer, the rows back in the last round's order
    for k in folders:
        assert undo(reopen(fakes[k], folders[k], k == "part")).action == "undone"
    assert game_state(fakes["part"], folders["part"]) == game_state(fakes["whole"], folders["whole"])
    for k in folders:
        one_round(fakes[k], folders[k], rngs[k], incremental=k == "part")
    assert game_state(fakes["part"], folders["part"]) == game_state(fakes["whole"], folders["whole"])


def test_an_undo_removes_the_rounds_rows_and_ends_as_written_whole(tmp_path):
    """Undo takes a round's block off the top of every board and Results tab: the rows below move up."""
    from sheetbridge.host.undo import undo
    folders, fakes, rngs = twin_games(tmp_path, 4)
    sent = sent_requests(fakes["part"])
    for k in folders:
        assert undo(reopen(fakes[k], folders[k], k == "part")).action == "undone"
    assert game_state(fakes["part"], folders["part"]) == game_state(fakes["whole"], folders["whole"])
    assert sent["deleteDimension"] > 0
    for k in folders:
        one_round(fakes[k], folders[k], rngs[k], incremental=k == "part")
    assert game_state(fakes["part"], folders["part"]) == game_state(fakes["whole"], folders["whole"])


def test_a_hand_edit_or_a_lost_fingerprint_file_means_a_whole_write(tmp_path):
    folders, fakes, rngs = twin_games(tmp_path, 3)
    # The host types into a player's Results tab and the master's Board (in both games alike);
    # the fingerprints of another player's book are lost (another computer, a copied folder).
    for k in folders:
        ids = roles(fakes[k], folders[k])
        results = fakes[k].sheet(ids[player_key("Ann")], "Results")
        results.cells[(8, 0)] = {"userEnteredValue": {"stringValue": "typed by the host"}}
        fakes[k].sheet(ids[MASTER], "Board").cells[(9, 1)] = {"userEnteredValue": {"stringValue": "x"}}
    bo = roles(fakes["part"], folders["part"])[player_key("Bo")]
    (folders["part"] / G.ROWS_DIR / f"{bo}.json").unlink()
    sent = sent_requests(fakes["part"])
    for k in folders:
        one_round(fakes[k], folders[k], rngs[k], incremental=k == "part")
    assert game_state(fakes["part"], folders["part"]) == game_state(fakes["whole"], folders["whole"])
    assert sent["insertDimension"] > 0
    for k in folders:
        one_round(fakes[k], folders[k], rngs[k], incremental=k == "part")
    assert game_state(fakes["part"], folders["part"]) == game_state(fakes["whole"], folders["whole"])


@pytest.mark.parametrize("game_id", ["three-modular-rooms", "bugcatcher"])
def test_writes_cut_off_and_run_again_end_as_written_whole(game_id, tmp_path):
    """A third of all requests fail, half of those after the change was made (its answer lost): every
    command run again until it succeeds ends where whole writes without faults end."""
    whole, noisy = FakeGoogle(seed=5), FakeGoogle(seed=5)
    start(whole, game_id, tmp_path / "whole", incremental=False)
    start(noisy, game_id, tmp_path / "noisy")
    noisy.inject(0.33, statuses=(500,), seed=13, retry_after=1, after=0.5)
    sent = sent_requests(noisy)
    rng_whole, rng_noisy = Rng.from_seed(3, "players"), Rng.from_seed(3, "players")
    for _ in range(5):
        one_round(whole, tmp_path / "whole", rng_whole, incremental=False)
        one_round(noisy, tmp_path / "noisy", rng_noisy)
    assert noisy.faults["hits"]["after"] > 10 and sent["insertDimension"] > 0
    noisy.clear_faults()
    one_round(whole, tmp_path / "whole", rng_whole, incremental=False)   # and one more round without faults
    one_round(noisy, tmp_path / "noisy", rng_noisy)
    assert game_state(noisy, tmp_path / "noisy") == game_state(whole, tmp_path / "whole")


def test_the_kept_block_is_the_longest_run_in_place_or_moved_by_the_rows_added():
    old = [f"r{i}" for i in range(20)]
    assert kept.kept_block(old, ["new", "new2"] + old) == (0, 2, 20)               # grown at the top
    assert kept.kept_block(old, old[:15] + ["x"] + old[16:] + ["y", "z"]) == (0, 0, 15)   # at the end
    assert kept.kept_block(old, ["h"] + old[1:] + ["n"]) == (1, 1, 19)
    assert kept.kept_block(old, old[5:]) == (5, 0, 15)                            # shrunk at the top
    assert kept.kept_block(old[:5], old[:5]) is None                               # too short to pay
    assert kept.kept_block(old, [f"x{i}" for i in range(30)]) is None
    tab = TabData(rows=[[C(i)] for i in range(20)], merges=[(3, 0, 6, 2)])
    assert kept.crosses(tab, 4, 10) and kept.crosses(tab, 0, 5) and not kept.crosses(tab, 6, 20)
    assert kept.row_prints(tab)[3] != kept.row_prints(TabData(rows=[[C(i)] for i in range(20)]))[3]


def test_the_fake_moves_rows_with_their_cells_heights_merges_and_protection():
    fake = FakeGoogle(seed=1)
    st = fake.store(HOST)
    rows = [[C(f"row {i}", bold=i == 2, choices=("a", "b") if i == 3 else ())] for i in range(6)]
    book = st.create(MASTER, "m", {"T": TabData(rows=rows, merges=[(4, 0, 6, 2)], row_heights={2: 30.0},
                                                 protected=True)})
    sid = book.location
    sheet_id = st._sheets(sid)["T"]
    before = copy.deepcopy(fake.sheet(sid, "T"))
    st.http.batch_update(sid, {"requests": [{"insertDimension": {
        "range": {"sheetId": sheet_id, "dimension": "ROWS", "startIndex": 1, "endIndex": 3},
        "inheritFromBefore": False}}]})
    after = fake.sheet(sid, "T")
    assert after.rows == before.rows + 2
    for (r, c), cell in before.cells.items():
        if r >= 1:
            assert after.cells[(r + 2, c)] == cell
    assert after.row_px == {4: before.row_px[2]}
    assert after.merges == [{**before.merges[0], "startRowIndex": 6, "endRowIndex": 8}]
    st.http.batch_update(sid, {"requests": [{"deleteDimension": {
        "range": {"sheetId": sheet_id, "dimension": "ROWS", "startIndex": 1, "endIndex": 3}}}]})
    again = fake.sheet(sid, "T")
    assert (again.cells, again.row_px, again.merges, again.rows) == (before.cells, before.row_px, before.merges,
                                                                      before.rows)


# ---- a tab whose rows are re-ordered and that gains a column every round (the master's Standings tab)
def standings_like(round_no: int, players: int = 14, edit: dict | None = None) -> TabData:
    """A column per round before the total, rows in rank order (the leader's row filled), a title
    merged over the whole width, row heights on the header and the leader's row. ``edit``: cells
    (player, round) -> value that differ from the played scores (a correction, typed by the host)."""
    names = [f"P{i:02}" for i in range(players)]
    score = {(p, r): (i * 7 + r * 5) % 11 for i, p in enumerate(names) for r in range(1, round_no + 1)}
    score.update(edit or {})
    total = {p: sum(score[p, r] for r in range(1, round_no + 1)) for p in names}
    order = sorted(names, key=lambda p: (-total[p], p))
    head = [C("rank", bold=True), C("player", bold=True)] + [C(f"round {r}", bold=True) for r in range(1, round_no + 1)] \
        + [C("total", bold=True), C("tie-break", bold=True)]
    rows = [[C(f"Standings after round {round_no}", fill="#203040", size=14)], head]
    for rank, p in enumerate(order, 1):
        fill = "#FFF2CC" if rank == 1 else None
        rows.append([C(rank, fill=fill), C(p, fill=fill)] + [C(score[p, r], align="right") for r in range(1, round_no + 1)]
                    + [C(total[p], bold=True), C("tied" if list(total.values()).count(total[p]) > 1 else "")])
    leader = 2 + 0
    return TabData(rows=rows, merges=[(0, 0, 1, len(head))], row_heights={0: 24.0, 1: 18.0, leader: 20.0},
                   col_widths={1: 12.0, len(head) - 2: 9.0}, frozen_rows=2)


def write_tab(fake: FakeGoogle, folder: Path, incremental: bool, sid: str | None, tab: TabData,
              typed: dict | None = None) -> str:
    """One command: the host may have typed into the tab since the last (``typed``: (row, col) ->
    text), a new process reads it (what its fingerprint is checked against) and writes it."""
    st = fake.store(HOST, game_folder=folder)
    st.incremental = incremental
    if sid is None:
        return st.create(BOARD, "b", {"Standings": tab}).location
    for (r, c), text in (typed or {}).items():
        fake.sheet(sid, "Standings").cells[(r, c)] = {"userEnteredValue": {"stringValue": text}}
    book = st.open(BOARD, sid)
    until_ok(lambda: book.read(["Standings"]))
    until_ok(lambda: book.write({"Standings": tab}))
    return sid


def play_standings(fakes: dict, folders: dict, rounds: range, tab_for, typed: dict | None = None) -> None:
    """Each round's tab written by a command of its own (``typed`` into both books before the last),
    the book kept in the fake as ``fake.standings``; both books end the same every round."""
    sids = {k: getattr(fakes[k], "standings", None) for k in fakes}
    for r in rounds:
        for k in fakes:
            sids[k] = write_tab(fakes[k], folders[k], k != "whole", sids[k], tab_for(r),
                                typed if r == rounds[-1] else None)
            fakes[k].standings = sids[k]
        assert sheet_state(fakes["part"], sids["part"]) == sheet_state(fakes["whole"], sids["whole"]), r


def test_rows_reordered_and_a_column_added_are_moved_and_only_the_changed_columns_sent(tmp_path):
    """The rows move into rank order (moveDimension) and only the rank, the new round's column and
    the columns after it are sent: the tab ends as written whole, round after round."""
    folders, fakes = twins(tmp_path)
    play_standings(fakes, folders, range(1, 6), standings_like)
    sent = {k: sent_requests(fakes[k]) for k in fakes}
    play_standings(fakes, folders, range(6, 13), standings_like)
    assert sent["part"]["moveDimension"] > 0 and not sent["whole"]["moveDimension"]
    assert sent["part"]["bytes"] < 0.7 * sent["whole"]["bytes"]   # (narrow tabs: the rank and three columns of ten)
    old, new = kept.cell_prints(standings_like(11)), kept.cell_prints(standings_like(12))
    sh = kept.shuffle(old, new)
    assert sh is not None and sh.bands[-1] == (13, None) and sh.moves   # the round's column and those after it
    assert all(c1 is not None and c1 <= 1 for _c0, c1 in sh.bands[:-1])  # and the rank, nothing in between


def test_a_changed_old_column_is_sent_and_a_hand_edit_means_a_whole_write(tmp_path):
    """A kept row is not a prefix to trust blindly: a score of an old round corrected (the cell
    differs though the rows' keys match) is sent, and a cell the host typed into the middle of a
    row (the values read are not those written) makes the tab written whole."""
    folders, fakes = twins(tmp_path)
    play_standings(fakes, folders, range(1, 10), standings_like)
    fix = {("P05", 3): 10, ("P09", 1): 0}   # (rows that keep their key cell: the leader's is filled)
    sh = kept.shuffle(kept.cell_prints(standings_like(9)), kept.cell_prints(standings_like(10, edit=fix)))
    assert sh is not None and (2, 3) in sh.bands   # round 1's column: P09's score there is sent again
    sent = sent_requests(fakes["part"])
    play_standings(fakes, folders, range(10, 12), lambda r: standings_like(r, edit=fix))
    assert sent["moveDimension"] > 0
    sent.clear()
    play_standings(fakes, folders, range(12, 13), lambda r: standings_like(r, edit=fix), typed={(5, 6): "hand"})
    assert not sent["moveDimension"]
    play_standings(fakes, folders, range(13, 14), lambda r: standings_like(r, edit=fix))   # and around cells again
    assert sent["moveDimension"] > 0


def test_rows_reordered_with_writes_cut_off_end_as_written_whole(tmp_path):
    folders, fakes = twins(tmp_path)
    fakes["part"].inject(0.33, statuses=(500,), seed=13, retry_after=1, after=0.5)
    sent = sent_requests(fakes["part"])
    play_standings(fakes, folders, range(1, 12), standings_like)
    assert fakes["part"].faults["hits"]["after"] > 3 and sent["moveDimension"] > 0


def test_the_fake_moves_rows_with_their_cells_and_heights():
    fake = FakeGoogle(seed=1)
    st = fake.store(HOST)
    rows = [[C(f"row {i}", bold=i == 2, choices=("a", "b") if i == 3 else ())] for i in range(6)]
    book = st.create(MASTER, "m", {"T": TabData(rows=rows, row_heights={2: 30.0})})
    sid, sheet_id = book.location, st._sheets(book.location)["T"]
    before = copy.deepcopy(fake.sheet(sid, "T"))
    move = {"moveDimension": {"source": {"sheetId": sheet_id, "dimension": "ROWS", "startIndex": 1, "endIndex": 3},
                              "destinationIndex": 5}}   # Google's example: rows 1-2 put before row 5
    st.http.batch_update(sid, {"requests": [move]})
    after = fake.sheet(sid, "T")
    for old, new in {0: 0, 3: 1, 4: 2, 1: 3, 2: 4, 5: 5}.items():
        assert {c: v for (r, c), v in after.cells.items() if r == new} == \
            {c: v for (r, c), v in before.cells.items() if r == old}
    assert after.row_px == {4: before.row_px[2]} and after.rows == before.rows


def test_a_batch_that_only_moves_rows_is_not_sent_twice(tmp_path):
    """Rows re-ordered, nothing added (no row inserted or deleted): the batch moves rows all the
    same, so when its answer is lost after Google made the change, it is not sent again as it is
    (the rows would move twice): the tab is written whole."""
    folders, fakes = twins(tmp_path)
    play_standings(fakes, folders, range(1, 11), standings_like)
    moved = lambda r: standings_like(r, edit={("P09", 1): 10})   # P09 climbs, the leader stays
    sh = kept.shuffle(kept.cell_prints(standings_like(10)), kept.cell_prints(moved(10)))
    assert sh is not None and sh.moves and not sh.inserts and not sh.deletes
    handle, lost = fakes["part"].handle, []

    def answer_lost(method, url, headers, body, timeout=None):
        status, out_headers, payload = handle(method, url, headers, body, timeout)
        if body and b"moveDimension" in body and not lost:
            lost.append(url)
            return 500, {}, json.dumps({"error": {"code": 500, "message": "Internal error encountered.",
                                                  "status": "INTERNAL"}}).encode()
        return status, out_headers, payload
    fakes["part"].handle = answer_lost
    play_standings(fakes, folders, range(10, 11), moved)
    assert lost
