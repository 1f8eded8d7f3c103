"""The trusted ledger at the core level (sheetbridge/core/integrity.py). Expected values by hand."""
import doctest
import hashlib
import json

from sheetbridge.api import load_match, new_match
from sheetbridge.core import integrity, ledger
from sheetbridge.core.integrity import HEADER, accept, chain, check_value, seal, seal_ok, verify, verify_record
from sheetbridge.core.ledger import LedgerRow

PLAYERS = ["Ann", "Bo", "Cy"]
ROWS = [LedgerRow("g", 0, p, 10, "opening balance", f"g:opening:{p}") for p in PLAYERS] + [
    LedgerRow("g", 1, "Ann", -5, "card purchase", "g:r1g0:0", "card 7")]


def tab(rows=ROWS):
    """The Ledger tab as sheetbridge writes it and a read returns it: text, header first."""
    return [list(HEADER)] + [[str(v) for v in r.as_list()] + [c] for r, c in zip(rows, chain(rows))]


def texts(checked):
    return [str(f) for f in checked.findings]


def booked(rows):
    return [(r.player, r.change, r.key) for r in rows]


def test_module_doctests():
    assert doctest.testmod(integrity).failed == 0
    assert doctest.testmod(ledger).failed == 0


# ------------------------------------------------------------ checksums

def test_check_value_is_sha256_over_previous_check_and_fields_first_10_hex():
    text = "\x1f".join(["", "g", "0", "Ann", "10", "opening balance", "g:opening:Ann", ""])
    first = hashlib.sha256(text.encode()).hexdigest()[:10]
    assert check_value("", ROWS[0].as_list()) == first
    text2 = "\x1f".join([first, "g", "0", "Bo", "10", "opening balance", "g:opening:Bo", ""])
    assert chain(ROWS)[:2] == [first, hashlib.sha256(text2.encode()).hexdigest()[:10]]


def test_a_changed_row_changes_its_check_and_every_check_below_it():
    edited = list(ROWS)
    edited[1] = LedgerRow("g", 0, "Bo", 11, "opening balance", "g:opening:Bo")
    a, b = chain(ROWS), chain(edited)
    assert a[0] == b[0] and all(x != y for x, y in zip(a[1:], b[1:]))


def test_seal_survives_the_json_round_trip_and_catches_any_edit():
    record = {"match": {"state": {"Ann": [1, 2.5, "é"]}, "ledger": [r.as_list() for r in ROWS]}, "board": ""}
    sealed = json.loads(json.dumps(seal(record), sort_keys=True, ensure_ascii=False))
    assert seal_ok(sealed)
    sealed["match"]["state"]["Ann"][0] = 2
    assert not seal_ok(sealed)
    assert not seal_ok(record)                      # no checksum at all


def test_a_seal_is_checked_the_same_before_and_after_the_json_round_trip():
    """seal_ok first checks a record's own text (a record read back is canonical JSON); a record that
    is not (tuples, number keys that sort otherwise as text) is checked the long way, as sealed."""
    record = {"undos": {10: 1, 9: 2}, "pair": (1, "a"), "match": {"x": [1.5, None, True]}}
    sealed = seal(record)
    assert seal_ok(sealed)                                            # number keys: the long way
    back = json.loads(json.dumps(sealed, ensure_ascii=False))
    assert seal_ok(back) and list(back["undos"]) == ["10", "9"]
    assert seal_ok({**sealed, "undos": {10: 1, "9": 2}})              # keys that do not sort together
    assert not seal_ok({**back, "pair": [1, "b"]}) and not seal_ok({**sealed, "undos": {10: 1, 9: 3}})


# ------------------------------------------------------------ verify: nothing edited, host rows

def test_an_untouched_tab_has_no_findings_and_the_record_rows_are_the_ledger():
    checked = verify(ROWS, tab(), PLAYERS, name="g")
    assert checked.findings == [] and checked.problems == [] and checked.rows == ROWS


def test_host_rows_without_a_key_are_allowed_and_get_the_next_host_key():
    rows = ROWS + [LedgerRow("g", 0, "Bo", 2, "quiz", "g:host:1")]
    rect = tab(rows) + [["", "", "cy", "3", ""]]    # typed since the last command; name in any case
    rect.insert(2, ["", "1", "Ann", "4", "bonus"])   # inserted above recorded rows: no key shifts
    checked = verify(rows, rect, PLAYERS, name="g")
    assert checked.findings == []
    assert booked(checked.rows[len(rows):]) == [("Ann", 4, "g:host:2"), ("Cy", 3, "g:host:3")]
    assert checked.rows[len(rows)].reason == "bonus" and checked.rows[-1].reason == "host adjustment"


def test_sorting_the_tab_or_editing_only_a_check_value_is_not_an_edit():
    rect = tab()
    rect[1:] = sorted(rect[1:], key=lambda r: r[2])
    rect[1][7] = "0000000000"
    assert verify(ROWS, rect, PLAYERS, name="g").findings == []


def test_unreadable_host_rows_are_problems_to_fix_not_edits_to_accept():
    rect = tab() + [["", "", "Ann", "lots"], ["", "x", "Bo", "1"], ["", "", "", "1"]]
    checked = verify(ROWS, rect, PLAYERS, name="g")
    assert checked.problems == ["Ledger tab, row 6: change 'lots' is not a whole number of garnets",
                                "Ledger tab, row 7: round 'x' is not a whole number",
                                "Ledger tab, row 8: a change of 1 garnet(s) names no player; type the player's "
                                "name in the player column, or clear the row"]


# ------------------------------------------------------------ verify and accept: each kind of edit

def test_changed_amount():
    rect = tab()
    rect[2][3] = "999"
    checked = verify(ROWS, rect, PLAYERS, name="g")
    assert texts(checked) == ["Ledger row 3, key g:opening:Bo: change was 10, now 999"]
    rows, notes = accept(checked)
    assert rows[:4] == ROWS and booked(rows[4:]) == [("Bo", 989, "g:fix:1")]
    assert rows[4].round == 0 and rows[4].reason == "correction: g:opening:Bo edited by hand (Bo +10 -> Bo +999)"
    assert notes == ["accepted: Ledger row 3, key g:opening:Bo: change was 10, now 999: booked g:fix:1 Bo +989"]


def test_changed_player_moves_the_garnets_with_two_corrections():
    rect = tab()
    rect[4][2] = "Cy"                                 # Ann's purchase now says Cy
    checked = verify(ROWS, rect, PLAYERS, name="g")
    assert texts(checked) == ["Ledger row 5, key g:r1g0:0: player was 'Ann', now 'Cy'"]
    rows, _ = accept(checked)
    assert booked(rows[4:]) == [("Ann", 5, "g:fix:1"), ("Cy", -5, "g:fix:2")]
    assert {r.round for r in rows[4:]} == {1}


def test_changed_key_is_found_by_its_check_and_put_back():
    rect = tab()
    rect[4][5] = "g:r1g0:0-edited"
    checked = verify(ROWS, rect, PLAYERS, name="g")
    assert texts(checked) == ["Ledger row 5, key g:r1g0:0: key was 'g:r1g0:0', now 'g:r1g0:0-edited'"]
    rows, notes = accept(checked)
    assert rows == ROWS                              # nothing to book: the key is written back as it was
    assert notes[0].endswith(": put back as it was (no garnets change)")


def test_deleted_row_names_where_it_was_and_accepting_reverses_it():
    rect = tab()
    del rect[1]
    checked = verify(ROWS, rect, PLAYERS, name="g")
    assert texts(checked) == ["Ledger row 2, key g:opening:Ann: deleted (it was Ann +10 opening balance)"]
    assert booked(accept(checked)[0][4:]) == [("Ann", -10, "g:fix:1")]


def test_added_keyed_row_and_a_copied_row_are_booked_as_host_rows_when_accepted():
    rect = tab() + [["g", "2", "Bo", "7", "prize", "made-up"], tab()[4]]
    checked = verify(ROWS, rect, PLAYERS, name="g")
    assert texts(checked) == [
        "Ledger row 6, key made-up: a key sheetbridge did not write (a row typed by hand has no key)",
        "Ledger row 7, key g:r1g0:0: a second copy of row 5's key (a row typed by hand has no key)"]
    rows, _ = accept(checked)
    assert booked(rows[4:]) == [("Bo", 7, "g:host:1"), ("Ann", -5, "g:host:2")]
    assert rows[4].memo == "(typed key made-up)" and rows[4].round == 2


def test_a_row_for_a_name_that_is_not_a_player_is_refused_and_left_out_when_accepted():
    rect = tab() + [["", "", "Zed", "5", "gift"]]
    rect[2][2] = "Zed"                               # a recorded row moved to a non-player: put back
    checked = verify(ROWS, rect, PLAYERS, name="g")
    assert texts(checked) == ["Ledger row 3, key g:opening:Bo: player was 'Bo', now 'Zed'",
                              "Ledger row 6: 'Zed' is not a player (players: Ann, Bo, Cy)"]
    rows, notes = accept(checked)
    assert rows == ROWS
    assert notes == ["accepted: Ledger row 3, key g:opening:Bo: player was 'Bo', now 'Zed': put back as it was: "
                     "'Zed' is not a player",
                     "accepted: Ledger row 6: 'Zed' is not a player (players: Ann, Bo, Cy): left out: garnets are "
                     "booked for players only"]


def test_accepting_twice_numbers_corrections_after_the_existing_ones():
    rows = ROWS + [LedgerRow("g", 0, "Bo", 989, "correction", "g:fix:1")]
    rect = tab(rows)
    rect[1][3] = "12"
    assert booked(accept(verify(rows, rect, PLAYERS, name="g"))[0][5:]) == [("Ann", 2, "g:fix:2")]


def test_more_than_ten_findings_are_listed_as_ten_and_n_more():
    many = [LedgerRow("g", 0, "Ann", 1, "bonus", f"g:host:{i}") for i in range(1, 14)]
    checked = verify(many, [list(HEADER)], PLAYERS, name="g")
    line = integrity.describe(checked.findings)
    assert line.count("deleted") == 10 and "; and 3 more. Put the rows back" in line
    assert line.startswith("the ledger was edited by hand: Ledger row 2, key g:host:1: deleted")


# ------------------------------------------------------------ the record (version 2) and its edits

def record_of(rows=ROWS, version=2, **edits):
    match = {"version": version, "name": "g", "players": PLAYERS, "rounds": [], "state": {"round": 2}}
    if version == 2:
        match["ledger"] = [r.as_list() for r in rows]
    match.update(edits)
    return seal({"match": match, "players": [], "locations": {}})


def test_an_edited_record_is_reported_and_its_edited_ledger_copy_named_against_the_intact_tab():
    record = record_of()
    record["match"]["ledger"][2][3] = 50              # Cy's opening, in the hidden record
    checked = verify_record(record, tab())
    assert texts(checked) == [integrity.RECORD_EDITED,
                              "Record tab, ledger copy of row 4, key g:opening:Cy: change was 10, now 50"]
    rows, notes = accept(checked)
    assert rows[:4] == ROWS and booked(rows[4:]) == [("Cy", 40, "g:fix:1")]
    assert notes[0] == f"accepted: {integrity.RECORD_EDITED}: its state and rounds are kept as edited"


def test_an_edited_record_state_with_its_ledger_copy_intact_says_so():
    record = record_of()
    record["match"]["state"]["round"] = 5
    checked = verify_record(record, tab())
    assert texts(checked) == [integrity.RECORD_EDITED + " (its ledger copy still matches the Ledger tab)"]
    assert accept(checked)[0] == ROWS


def test_an_edited_record_and_an_edited_tab_compare_the_tab_with_the_record():
    record = record_of()
    record["match"]["state"]["round"] = 5
    rect = tab()
    rect[1][3] = "11"                                # the tab's chain no longer holds
    assert texts(verify_record(record, rect)) == [integrity.RECORD_EDITED,
                                                  "Ledger row 2, key g:opening:Ann: change was 10, now 11"]


def test_a_record_ledger_copy_that_cannot_be_read_falls_back_to_an_intact_tab_or_is_a_problem():
    record = record_of()
    record["match"]["ledger"][0] = ["g", "zero"]
    checked = verify_record(record, tab())
    assert checked.rows == ROWS and len(checked.findings) == 1 and "cannot be read" in texts(checked)[0]
    rect = tab()
    rect[1][3] = "11"
    assert verify_record(record, rect).problems == [
        "the Record tab was edited by hand and its ledger copy cannot be read; restore the master from a backup "
        "or undo the edit"]


def test_a_version_1_record_trusts_the_tab_and_restores_rows_its_rounds_booked():
    rounds = [{"ledger": [ROWS[3].as_list()]}]
    rect = [list(ledger.COLUMNS)] + [r.as_list() for r in ROWS[:3]] + [["", "", "Bo", "2", "quiz"]]
    checked = verify_record(record_of(version=1, rounds=rounds), rect)
    assert checked.findings == [] and checked.problems == []
    assert booked(checked.rows) == booked(ROWS[:3]) + [("Bo", 2, "g:host:1"), ("Ann", -5, "g:r1g0:0")]
    assert checked.notes == ["1 ledger row(s) booked by resolved rounds were missing from the Ledger tab and have "
                             "been restored"]


def test_match_record_holds_the_ledger_and_reads_version_1():
    m = new_match("three-modular-rooms", PLAYERS, seed=1, garnets={p: 10 for p in PLAYERS})
    data = json.loads(json.dumps(m.to_json()))
    assert data["version"] == 2 and data["ledger"] == [r.as_list() for r in m.ledger.rows]
    assert load_match(data).ledger.balances(PLAYERS) == {"Ann": 10, "Bo": 10, "Cy": 10}
    old = {k: v for k, v in data.items() if k != "ledger"} | {"version": 1}
    assert load_match(old, m.ledger.rows[:1]).ledger.balances(PLAYERS) == {"Ann": 10, "Bo": 0, "Cy": 0}
