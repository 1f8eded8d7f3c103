"""The trusted ledger end to end: a host edits the master's Ledger or Record tab with a
spreadsheet program (openpyxl here), every command refuses with the row named and writes
nothing, until the edit is put back or accepted with `repair --accept-ledger-edits`."""
import json
import shlex
import shutil

import openpyxl
import pytest

from sheetbridge.core.integrity import RECORD_EDITED
from sheetbridge.sheets import layout as L

from test_cli_xlsx import digest, run, type_submission

NAME = "three-modular-rooms-0"                        # the game's name in ledger keys


@pytest.fixture
def game(tmp_path):
    folder = tmp_path / "game"
    run("new", "three-modular-rooms", "--players", "Ann,Bo,Cy", "--out", folder, "--garnets", "10",
        "--option", "rounds=3", "--seed", "0")     # the ledger keys below name the game by its seed
    return folder


def ledger_rows(folder):
    ws = openpyxl.load_workbook(folder / "master.xlsx")["Ledger"]
    return [tuple(r[:8]) for r in ws.iter_rows(min_row=2, values_only=True) if any(v is not None for v in r[:8])]


def garnets(folder):
    ws = openpyxl.load_workbook(folder / "master.xlsx")["Players"]
    return {r[0]: r[3] for r in ws.iter_rows(min_row=3, values_only=True)}


def edit_ledger(folder, change):
    wb = openpyxl.load_workbook(folder / "master.xlsx")
    change(wb["Ledger"])
    wb.save(folder / "master.xlsx")


def sheet_record(ws) -> dict:
    """The Record tab's head with its rounds (one entry a row, host/record.py), as one JSON record."""
    rect = [["" if c.value is None else str(c.value) for c in row] for row in ws.iter_rows()]
    head, texts = L.read_entries_tab(rect, "Record")
    record = json.loads(head)
    record["match"]["rounds"] = [json.loads(t) for t in texts]
    return record


def edit_record(folder, change):
    """Edit the hidden Record tab's JSON (the head's or a round's) as a host with a text editor would."""
    wb = openpyxl.load_workbook(folder / "master.xlsx")
    ws = wb["Record"]
    record = sheet_record(ws)
    change(record)
    rounds = record["match"].pop("rounds")
    tab = L.entries_tab(L.json_text(record), [(f"round {r['round']}", L.json_text(r)) for r in rounds])
    ws.delete_rows(2, ws.max_row)
    for r, row in enumerate(tab.rows[1:], start=2):
        for c, cell in enumerate(row, start=1):
            ws.cell(r, c).value = cell.value
    wb.save(folder / "master.xlsx")


def set_ledger_cell(row, col, value):
    def change(ws):
        ws.cell(row, col).value = value
    return change


def set_record_value(path, value):
    def change(record):
        target = record["match"]
        for step in path[:-1]:
            target = target[step]
        target[path[-1]] = value
    return change


def type_row(ws, values):
    """What a host does: type a row into the first empty row under the ledger (column A-G), not after
    the totals block beside it (which openpyxl's append would do)."""
    row = next(r for r in range(2, ws.max_row + 2) if not any(ws.cell(r, c).value for c in range(1, 8)))
    for c, v in enumerate(values, start=1):
        ws.cell(row, c).value = v


# Each tampering case: how the host edits, what every command says, and the garnets once accepted.
# Rows 2-4 of the Ledger tab are the opening balances of Ann, Bo and Cy (10 each).
CASES = {
    "changed amount": (edit_ledger, set_ledger_cell(3, 4, 999),
                       f"Ledger row 3, key {NAME}:opening:Bo: change was 10, now 999", {"Ann": 10, "Bo": 999, "Cy": 10}),
    "changed player": (edit_ledger, set_ledger_cell(3, 3, "Cy"),
                       f"Ledger row 3, key {NAME}:opening:Bo: player was 'Bo', now 'Cy'", {"Ann": 10, "Bo": 0, "Cy": 20}),
    "changed key": (edit_ledger, set_ledger_cell(3, 6, "mine"),
                    f"Ledger row 3, key {NAME}:opening:Bo: key was '{NAME}:opening:Bo', now 'mine'",
                    {"Ann": 10, "Bo": 10, "Cy": 10}),
    "deleted row": (edit_ledger, lambda ws: ws.delete_rows(2),
                    f"Ledger row 2, key {NAME}:opening:Ann: deleted (it was Ann +10 opening balance)",
                    {"Ann": 0, "Bo": 10, "Cy": 10}),
    "added keyed row": (edit_ledger, lambda ws: type_row(ws, [NAME, 0, "Ann", 5, "gift", f"{NAME}:r1g0:0"]),
                        f"Ledger row 5, key {NAME}:r1g0:0: a key sheetbridge did not write",
                        {"Ann": 15, "Bo": 10, "Cy": 10}),
    "row for a non-player": (edit_ledger, lambda ws: type_row(ws, ["", "", "Zed", 5, "gift"]),
                             "Ledger row 5: 'Zed' is not a player (players: Ann, Bo, Cy)",
                             {"Ann": 10, "Bo": 10, "Cy": 10}),
    "record state": (edit_record, set_record_value(["state", "points", "Ann"], 7), RECORD_EDITED,
                     {"Ann": 10, "Bo": 10, "Cy": 10}),
    "record ledger copy": (edit_record, set_record_value(["ledger", 0, 3], 3),
                           f"Record tab, ledger copy of row 2, key {NAME}:opening:Ann: change was 10, now 3",
                           {"Ann": 3, "Bo": 10, "Cy": 10}),
}


@pytest.mark.parametrize("case", CASES)
def test_an_edit_is_named_and_refused_until_put_back(game, tmp_path, case):
    edit, change, message, _ = CASES[case]
    backup = tmp_path / "backup.xlsx"
    shutil.copy(game / "master.xlsx", backup)
    edit(game, change)
    before = digest(game)
    for command in (["status", game], ["resolve", game, "--allow-empty"], ["undo", game], ["repair", game]):
        res = run(*command, ok=False)
        assert res.exit_code == 2, res.output
        assert res.output.startswith("error: master.xlsx: the ledger was edited by hand: ") and message in res.output
        # the fix is printed ready to copy: the core's placeholder filled in with this game's folder
        assert f"sheetbridge repair {shlex.quote(str(game))} --accept-ledger-edits" in res.output
        assert res.output.count("\n") == 1
    assert digest(game) == before                     # nothing written
    shutil.copy(backup, game / "master.xlsx")         # put back
    assert "round 1 resolved" in run("resolve", game, "--allow-empty").output


@pytest.mark.parametrize("case", CASES)
def test_accepting_an_edit_books_correcting_rows_and_the_next_resolve_works(game, case):
    edit, change, message, expected = CASES[case]
    written = ledger_rows(game)
    edit(game, change)
    out = run("repair", game, "--accept-ledger-edits").output
    assert f"accepted: {message}" in out and "accepted " in out.splitlines()[-1]
    rows = ledger_rows(game)
    assert rows[:3] == written                        # append-only: what sheetbridge wrote is back as it was
    assert garnets(game) == expected
    assert "nothing to accept" in run("repair", game, "--accept-ledger-edits").output
    type_submission(game / "players" / "Ann.xlsx", "Your play", [3, "Null"])
    assert "round 1 resolved" in run("resolve", game).output
    assert run("status", game).exit_code == 0


def test_an_edit_of_a_resolved_round_in_the_record_is_refused_until_accepted(game):
    type_submission(game / "players" / "Ann.xlsx", "Your play", [3, "Null"])
    run("resolve", game)
    edit_record(game, set_record_value(["rounds", 0, "host_log"], ["a note typed into the record"]))
    before = digest(game)
    res = run("resolve", game, "--allow-empty", ok=False)
    assert res.exit_code == 2 and RECORD_EDITED + " (its ledger copy still matches the Ledger tab)" in res.output
    assert digest(game) == before
    assert "accepted 1 ledger edit(s)" in run("repair", game, "--accept-ledger-edits").output
    assert "round 2 resolved" in run("resolve", game, "--allow-empty").output
    log = [r[1] for r in openpyxl.load_workbook(game / "master.xlsx")["Host log"].iter_rows(values_only=True)]
    assert "a note typed into the record" in log      # the accepted edit is kept


def test_accepted_corrections_are_rows_with_fix_keys_and_a_reason(game):
    edit_ledger(game, set_ledger_cell(3, 4, 999))
    run("repair", game, "--accept-ledger-edits")
    fix = ledger_rows(game)[3]
    assert fix[:7] == (NAME, 0, "Bo", 989, f"correction: {NAME}:opening:Bo edited by hand (Bo +10 -> Bo +999)",
                       f"{NAME}:fix:1", "booked by sheetbridge repair --accept-ledger-edits")
    assert isinstance(fix[7], str) and len(fix[7]) == 10


def test_more_than_ten_edits_list_ten_and_count_the_rest(game):
    def many(ws):
        for r in range(2, 5):
            ws.cell(r, 4).value = 1
        for i in range(9):
            type_row(ws, ["", "", "Zed", 1, "gift"])
    edit_ledger(game, many)
    res = run("status", game, ok=False)
    assert res.output.count("Ledger row") == 10 and "; and 2 more. Put the rows back" in res.output


def test_a_host_row_without_a_key_works_is_counted_once_and_keeps_its_key(game):
    edit_ledger(game, lambda ws: type_row(ws, ["", "", "Ann", 3, "quiz night"]))
    assert garnets(game)["Ann"] == 10                 # not yet: the tab was only typed into
    type_submission(game / "players" / "Ann.xlsx", "Your play", [3, "Null"])
    run("resolve", game)
    host = [r for r in ledger_rows(game) if r[4] == "quiz night"]
    assert len(host) == 1 and host[0][5] == f"{NAME}:host:1" and host[0][7]
    ann = garnets(game)["Ann"]
    run("resolve", game, "--round", "1")              # a re-run: nothing booked twice
    edit_ledger(game, lambda ws: ws.insert_rows(2))   # rows inserted later shift no key
    edit_ledger(game, set_ledger_cell(2, 3, "Bo"))
    edit_ledger(game, set_ledger_cell(2, 4, 2))
    run("resolve", game, "--allow-empty")
    rows = ledger_rows(game)
    assert [r[5] for r in rows if r[4] in ("quiz night", "host adjustment")] == [f"{NAME}:host:1", f"{NAME}:host:2"]
    played = {p: sum(r[3] for r in rows if r[2] == p and ":r" in r[5]) for p in ("Ann", "Bo")}
    assert ann == 10 + 3 + sum(r[3] for r in rows if r[2] == "Ann" and f"{NAME}:r1" in r[5])
    assert garnets(game) | {"Cy": 0} == {"Ann": 10 + 3 + played["Ann"], "Bo": 10 + 2 + played["Bo"], "Cy": 0}


def test_rerunning_a_round_after_accepting_never_pays_twice(game):
    type_submission(game / "players" / "Ann.xlsx", "Your play", [1, "Null"])
    type_submission(game / "players" / "Ann.xlsx", "Purchases (optional)", ["7", "no"])
    run("resolve", game)
    edit_ledger(game, set_ledger_cell(2, 4, 12))      # Ann's opening 10 -> 12
    run("repair", game, "--accept-ledger-edits")
    count = len(ledger_rows(game))
    run("resolve", game, "--round", "1")
    run("resolve", game)
    assert len(ledger_rows(game)) == count
    assert garnets(game)["Ann"] == 12 - 5             # opening as edited, one card purchase


def test_undo_of_the_pregame_keeps_opening_balances_in_the_files(tmp_path):
    folder = tmp_path / "skeld"
    run("new", "skeld", "--players", "Ann,Bo,Cy,Dee", "--out", folder, "--garnets", "10")
    assert "round 0 resolved" in run("resolve", folder, "--allow-empty").output
    assert "round 0 undone" in run("undo", folder).output
    assert garnets(folder) == {"Ann": 10, "Bo": 10, "Cy": 10, "Dee": 10}
    assert run("status", folder).exit_code == 0


def test_a_version_1_master_is_read_and_upgraded(game):
    edit_ledger(game, lambda ws: type_row(ws, ["", "", "Bo", 2, "quiz"]))

    def downgrade(record):
        del record["checksum"], record["match"]["ledger"]
        record["match"]["version"] = 1
    edit_record(game, downgrade)
    edit_ledger(game, lambda ws: ws.delete_cols(8))   # no check column then
    run("resolve", game, "--allow-empty")
    assert garnets(game) == {"Ann": 10, "Bo": 12, "Cy": 10}
    wb = openpyxl.load_workbook(game / "master.xlsx")
    assert wb["Ledger"]["H1"].value == "check" and wb["Ledger"]["F5"].value == f"{NAME}:host:1"
    record = sheet_record(wb["Record"])
    assert record["match"]["version"] == 2 and "checksum" in record
    assert run("status", game).exit_code == 0


def test_an_accepted_edit_that_would_overdraw_is_refused_and_nothing_is_written(game):
    type_submission(game / "players" / "Ann.xlsx", "Your play", [1, "Null"])
    type_submission(game / "players" / "Ann.xlsx", "Purchases (optional)", ["7", "no"])
    run("resolve", game)                              # Ann: 10 - 5 for a card
    edit_ledger(game, set_ledger_cell(2, 4, 0))       # her opening 10 -> 0 would leave -5
    before = digest(game)
    res = run("repair", game, "--accept-ledger-edits", ok=False)
    assert res.exit_code == 2 and "Ann's garnet balance adds up to -5" in res.output
    assert digest(game) == before
