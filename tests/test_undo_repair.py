"""Undo and repair after ordinary input (issue 25, point 3), on real files re-read from disk.

- A round resolved from fullwidth digits can be undone after later rounds (its replay reads back
  as it was resolved).
- Repair keeps the entries of a Submission tab that still reads when another tab was deleted.
- `undo --round N` says which round it undoes; run again (a closed laptop, a menu request sent
  twice), it changes nothing.
- A host's Ledger row reads back as typed, spaces included.
- A cell written by another program with characters an .xlsx cannot hold reads as sheetbridge
  writes it, so what is put back into a tab reads back the same.
"""
from __future__ import annotations

import openpyxl
import pytest

from sheetbridge.host.session import load
from sheetbridge.host.undo import undo
from sheetbridge.sheets.model import CellData, TabData
from sheetbridge.sheets.xlsx import XlsxStore
from sheetbridge.host.watch import Watcher

from test_cli_ledger import ledger_rows, type_row
from test_cli_xlsx import digest, run, tab_text, type_submission
from test_watch import Clock, control_rows, game, menu_request, result_of   # noqa: F401 (game: a fixture)


def players(folder):
    return folder / "players"


def round_one(folder):
    type_submission(players(folder) / "Ann.xlsx", "Your play", [3, "Null"])
    type_submission(players(folder) / "Bo.xlsx", "Your play", [-10, "Null"])
    type_submission(players(folder) / "Cy.xlsx", "Your play", [5, "Duel"])


# ------------------------------------------------------------------ replay whatever was typed

def test_a_round_read_from_fullwidth_digits_can_be_undone_after_the_next_round(game):
    """Ann's keyboard types fullwidth digits; the read-back lines came in form order at resolve time
    and in name order after the record's JSON, so no later round of the game could be undone."""
    type_submission(players(game) / "Ann.xlsx", "Your play", ["\uff13", "Null"])          # ３
    type_submission(players(game) / "Ann.xlsx", "Purchases (optional)", ["\uff17"])        # ７: Buy card copies
    type_submission(players(game) / "Bo.xlsx", "Your play", [5, "Duel"])
    out = run("resolve", game).output
    assert "Ann: Card: read '\uff13' as 3" in out and "read '\uff17' as 7" in out
    assert out.index("Card: read") < out.index("read '\uff17'")                           # form order
    type_submission(players(game) / "Bo.xlsx", "Your play", [7, "Null"])
    assert "round 2 resolved" in run("resolve", game).output
    res = run("undo", game, ok=False)
    assert res.exit_code == 0, res.output
    assert "round 2 undone" in res.output
    assert "Card: read '\uff13' as 3" in tab_text(players(game) / "Ann.xlsx", "Results")


def test_characters_an_xlsx_cannot_hold_read_as_written_and_the_record_reads_back(game):
    """A player's program may store U+FFFF or Windows line ends; sheetbridge writes U+FFFD and "\\n".
    A read gives what a write would store, and the record (which keeps the raw entries) is sealed
    and read back intact."""
    type_submission(players(game) / "Ann.xlsx", "Your play", ["3\uffff", "Null\r\n"])
    ann = XlsxStore(game).open("player:Ann", "players/Ann.xlsx")
    rect = ann.read(["Submission"])["Submission"]
    typed = [row[1:3] for row in rect if row and row[0] == ""]
    assert ["3\ufffd", "Null\n"] in typed, typed
    store = XlsxStore(game)                                  # written by sheetbridge, read back: the same
    scratch = TabData(rows=[[CellData(v) for v in ["3\ufffd", "Null\n"]]])
    info = store.create("player:Zed", "scratch", {"Scratch": scratch})
    assert store.open("player:Zed", info.location).read(["Scratch"])["Scratch"] == [["3\ufffd", "Null\n"]]
    (game / info.location).unlink()
    assert "round 1 resolved" in run("resolve", game).output
    assert run("status", game, ok=False).exit_code == 0                                   # the record reads back
    assert "round 1 undone" in run("undo", game).output


# ------------------------------------------------------------------ repair keeps what it can read

@pytest.mark.parametrize("tab", ["Results", "Board"])
def test_repair_keeps_the_entries_of_an_intact_submission_tab(game, tab):
    round_one(game)
    path = players(game) / "Bo.xlsx"
    wb = openpyxl.load_workbook(path)
    del wb[tab]
    wb.save(path)
    out = run("repair", game, "--player", "Bo").output
    assert "the entries in its Submission tab for round 1 were kept" in out, out
    assert "re-enters" not in out
    assert sorted(openpyxl.load_workbook(path).sheetnames) == ["Board", "Identity", "Results", "Submission"]
    assert "round 1 resolved" in run("resolve", game).output
    assert "You played card -10 in Null." in tab_text(path, "Results")


@pytest.mark.parametrize("tab", ["Results", "Board"])
def test_resolve_redraws_a_deleted_results_or_board_tab(game, tab):
    """A new round rewrites every Results and Board tab, so it reads only the Submission tab: a
    deleted output tab is drawn again, and the entries typed in the Submission tab are counted."""
    round_one(game)
    path = players(game) / "Bo.xlsx"
    wb = openpyxl.load_workbook(path)
    del wb[tab]
    wb.save(path)
    bo = next(line for line in run("status", game).output.splitlines() if line.strip().startswith("Bo"))
    assert "submitted: ok" in bo, bo
    assert "round 1 resolved" in run("resolve", game).output
    assert sorted(openpyxl.load_workbook(path).sheetnames) == ["Board", "Identity", "Results", "Submission"]
    assert "You played card -10 in Null." in tab_text(path, "Results")


def test_repair_with_nothing_typed_says_so(game):
    path = players(game) / "Cy.xlsx"
    wb = openpyxl.load_workbook(path)
    del wb["Results"]
    wb.save(path)
    out = run("repair", game, "--player", "Cy").output
    assert "its Submission tab held no entries for the open round" in out, out


# ------------------------------------------------------------------ undo --round N

def test_undo_names_its_round_and_a_repeated_undo_of_it_changes_nothing(game):
    round_one(game)
    run("resolve", game)
    type_submission(players(game) / "Ann.xlsx", "Your play", [7, "Solitary"])
    run("resolve", game)
    out = run("undo", game, "--round", "2").output
    assert out.startswith("round 2 undone")
    after = digest(game)
    # The host runs it again (the laptop closed after the work was done): round 1 stays resolved.
    res = run("undo", game, "--round", "2", ok=False)
    assert res.exit_code == 0 and res.output.strip() == \
        "round 2 is already undone (it is open for submissions again); nothing changed"
    assert digest(game) == after
    assert [r.round for r in load(XlsxStore(game)).match.rounds] == [1]


@pytest.mark.parametrize("asked, says", [
    ("1", "round 1 is not the last resolved round (round 2 is); undo undoes the last resolved round only: "
          "`undo --round 2`"),
    ("3", "round 3 has not been resolved (it is the open round); the last resolved round is 2: "
          "`undo --round 2` undoes it"),
    ("7", "round 7 is not the last resolved round (round 2 is)"),
])
def test_undo_of_another_round_is_refused_in_one_line(game, asked, says):
    round_one(game)
    run("resolve", game)
    run("resolve", game, "--allow-empty")
    before = digest(game)
    res = run("undo", game, "--round", asked, ok=False)
    assert res.exit_code == 2 and res.output.startswith(f"error: {says}") and res.output.count("\n") == 1
    assert digest(game) == before


def test_undo_with_no_round_resolved_is_refused(game):
    res = run("undo", game, "--round", "1", ok=False)
    assert res.exit_code == 2 and "round 1 cannot be undone: no round of" in res.output


def two_rounds_and_a_watcher(game):
    """Rounds 1 and 2 resolved, and a watcher that has polled once (the menu's Control tab exists)."""
    store = XlsxStore(game)
    round_one(game)
    run("resolve", game)
    run("resolve", game, "--allow-empty")
    w = Watcher(store, watcher_id="w1", now=Clock())
    w.poll()
    return store, w


def test_two_menu_undo_requests_for_the_same_round_undo_it_once(game):
    store, w = two_rounds_and_a_watcher(game)
    menu_request(store, "u1", "undo", round_no="2")
    menu_request(store, "u2", "undo", round_no="2")          # the host clicked twice
    assert w.poll() == ["u1: done", "u2: done"]
    assert result_of(store, "u1").startswith("round 2 undone")
    assert result_of(store, "u2") == "round 2 is already undone (it is open for submissions again); nothing changed"
    assert [r.round for r in load(store).match.rounds] == [1]
    menu_request(store, "u3", "undo", round_no="two")
    assert w.poll() == ["u3: failed"]
    assert control_rows(store)["u3"].status == "failed"
    assert result_of(store, "u3") == "request u3: round 'two' is not a round number"


# ------------------------------------------------------------------ the menu sends the round it undoes

def test_the_menu_asks_to_undo_the_last_resolved_round_and_sends_it(tmp_path):
    from test_appscript_menu import NODE, control, run as run_menu
    if NODE is None:
        pytest.skip("Node.js is not installed")
    rounds = [["Round log"], ["round", "status"], [1, "resolved"], [2, "resolved"], [3, "open"]]
    out = run_menu(tmp_path, call="undo", answers=["YES"],
                   tabs={"Control": control("2026-11-23T16:09:30Z"), "Config": [["round", 3]], "Rounds": rounds},
                   watcher={"status": "done", "result": "round 2 undone"})
    assert out["alerts"][0]["msg"].startswith("Undo round 2, the last resolved round?")
    assert out["control"][4][1:3] == ["undo", "2"]


# ------------------------------------------------------------------ the ledger reads back as typed

def test_a_host_ledger_row_reads_back_as_typed(game):
    wb = openpyxl.load_workbook(game / "master.xlsx")
    type_row(wb["Ledger"], ["", "", "Ann", 3, "  quiz night ", "", "  paid in cash  "])
    wb.save(game / "master.xlsx")
    round_one(game)
    run("resolve", game)                                        # books the row and rewrites the Ledger tab
    (row,) = [r for r in ledger_rows(game) if r[2] == "Ann" and r[3] == 3]
    assert row[4] == "  quiz night " and row[6] == "  paid in cash  "
    booked = [r for r in load(XlsxStore(game)).match.ledger.rows if r.key.endswith(":host:1")]
    assert [(r.reason, r.memo) for r in booked] == [("  quiz night ", "  paid in cash  ")]
    assert run("status", game, ok=False).exit_code == 0          # spaces are no edit


def test_an_undo_cut_off_while_publishing_is_finished_by_undo_round_n(game):
    from test_safe_workflow import Killed, crash_after
    round_one(game)
    run("resolve", game)
    with pytest.raises(Killed):
        undo(crash_after(XlsxStore(game), 2), round_no=1)      # the master and one player written
    res = undo(XlsxStore(game), round_no=1)
    assert res.action == "published"
    assert res.message.endswith("finished publishing to Bo, Cy, the public board, the round's pictures. Round 1 is undone"), res.message
    assert undo(XlsxStore(game), round_no=1).action == "nothing"
    assert load(XlsxStore(game)).match.rounds == []


def test_an_undo_request_from_an_older_menu_still_undoes_one_round_only(game):
    """Menus installed before sent the round open when the host asked: read as the round before it."""
    store, w = two_rounds_and_a_watcher(game)
    menu_request(store, "old1", "undo", round_no="3")           # round 3 was open
    menu_request(store, "old2", "undo", round_no="3")           # clicked twice
    assert w.poll() == ["old1: done", "old2: failed"]
    assert result_of(store, "old1").startswith("round 2 undone")
    assert result_of(store, "old2").startswith("round 3 is not the last resolved round (round 1 is)")
    assert [r.round for r in load(store).match.rounds] == [1]
