"""Shortcuts taken for speed in a resolve's reads (issue 31) give exactly what the plain code they
replace gave (tests/test_fast_paths_record.py has those of its writes).

Each shortcut is compared with that plain code, kept here as the reference: what a Submission tab
shows, for the stray-entry check (`sheets.layout._form_values`), and which parts of a book hold
the tabs read, for the formula check (`sheets.xlsx_fast._sheet_parts`, kept by the parts' bytes),
rebuilding a record's dataclasses (`core.types.from_json`), reading cells as text
(`sheets.model.normalise`, with calamine's dates as openpyxl gives them) and looking for a formula,
an error cell or an escaped surrogate in a part (`xlsx_fast._has_formula_mark`,
`cell_reading.has_surrogate_escape`); a ledger row, and the check's own row, made by
`core/facts.quick_init`'s __init__ (`core.ledger.LedgerRow`, `core.integrity._Entry`), and the
ledger check's rows paired by their check value only when their key does not pair them
(`core.integrity._compare`: the chain hashed for the first such row).
"""
from __future__ import annotations

import dataclasses
import datetime as dt
import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import pytest

from sheetbridge.api import games, load_match, new_match
from sheetbridge.core import types as T
from sheetbridge.core.match import random_submissions
from sheetbridge.core.rng import Rng
from sheetbridge.core.types import Field, FieldKind, Form, Section
from sheetbridge.sheets import layout as L
from sheetbridge.sheets.model import TabData

from conftest import players_for


def plain_form_values(form: Form, player: str) -> tuple[list[list[str]], set[tuple[int, int]]]:
    """What `stray_entries` compared with before issue 31's shortcut: the tab drawn, read as values."""
    drawn = L._form_cells(form, player, None).rows
    return (TabData(rows=drawn).values(),
            {(r, c) for r, row in enumerate(drawn) for c, cell in enumerate(row) if cell.input})


@pytest.mark.parametrize("game_id", sorted(games()))
def test_form_values_are_the_drawn_tabs_values_in_every_game(game_id):
    names = players_for(game_id)
    m = new_match(game_id, names, seed=5, garnets={n: 10 for n in names})
    rng = Rng.from_seed(5, "forms")
    seen = 0
    for _ in range(4):   # a few rounds: forms change with the game's state
        if m.finished:
            break
        for p in names:
            assert L._form_values(m.form(p), p) == plain_form_values(m.form(p), p)
            seen += 1
        m.resolve(random_submissions(m, rng, 0.0), tables=m.tables)
    assert seen >= len(names)


_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=12)
_fields = st.builds(Field, name=st.text("abc", min_size=1, max_size=3), label=_text,
                    kind=st.sampled_from(list(FieldKind)), choices=st.lists(_text, max_size=3).map(tuple),
                    help=_text)
_sections = st.builds(Section, name=st.text("xyz", min_size=1, max_size=3), title=_text,
                      fields=st.lists(_fields, max_size=3).map(tuple), rows=st.integers(0, 3),
                      row_labels=st.lists(_text, max_size=4).map(tuple), help=_text)
_forms = st.builds(Form, round=st.integers(1, 99), round_label=_text,
                   sections=st.lists(_sections, max_size=3).map(tuple), help=st.lists(_text, max_size=2).map(tuple))


@settings(max_examples=300, deadline=None)
@given(_forms, st.one_of(_text, st.sampled_from(["", " ", "Ann\r\nBo", "\x07", "12", "Ann"])))
def test_form_values_are_the_drawn_tabs_values_for_any_form(form: Form, player: Any):
    assert L._form_values(form, player) == plain_form_values(form, player)


# ------------------------------------------------------------------ which parts the formula check reads

def _book(order: list[str], formula_in: str) -> bytes:
    """A book of tabs in `order`, each holding its name in A1, and a formula in `formula_in`'s B1."""
    import io
    import openpyxl
    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for name in order:
        ws = wb.create_sheet(name)
        ws["A1"] = name
        if name == formula_in:
            ws["B1"] = "=1+2"
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


@settings(max_examples=40, deadline=None)
@given(st.permutations(["Submission", "Results", "Board", "Identity"]), st.sampled_from(["Submission", "Board"]),
       st.lists(st.sampled_from(["Submission", "Results", "Board", "Identity"]), min_size=1, max_size=3, unique=True))
def test_the_parts_of_the_tabs_read_are_found_in_each_book_whatever_was_read_before(order, formula_in, tabs):
    import io
    import zipfile
    from sheetbridge.sheets import xlsx_fast as XF
    # The same tab names in two orders: the same names, other parts (a cache keyed by the names would mix them).
    for book in (_book(order, formula_in), _book(order[::-1], formula_in), _book(order, formula_in)):
        with zipfile.ZipFile(io.BytesIO(book)) as z:
            plain = XF._parts_named(z.read("xl/workbook.xml"), z.read("xl/_rels/workbook.xml.rels"), tabs)
            assert XF._sheet_parts(z, tabs) == plain
        assert XF._needs_openpyxl(book, tabs) is (formula_in in tabs)


# ------------------------------------------------------------------ a record's dataclasses rebuilt

def plain_from_json(data: Any) -> Any:
    """`from_json` before issue 31's shortcut: a call for every value."""
    if data.__class__ in T._PLAIN:
        return data
    if isinstance(data, dict):
        tag = data.get("__t")
        if tag is not None:
            cls = T._TYPES[tag]
            return cls(**{f.name: plain_field_value(data[f.name]) for f in dataclasses.fields(cls) if f.name in data})
        if "__e" in data:
            return T._ENUMS[data["__e"]](data["v"])
        return {k: plain_from_json(v) for k, v in data.items()}
    if isinstance(data, list):
        return [plain_from_json(v) for v in data]
    return data


def plain_field_value(data: Any) -> Any:
    if data.__class__ is list:
        return tuple(plain_field_value(v) if v.__class__ is list else plain_from_json(v) for v in data)
    return plain_from_json(data)


def same(a: Any, b: Any) -> bool:
    """Equal, with the same types all the way down (a tuple is not a list here)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if dataclasses.is_dataclass(a):
        return all(same(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a))
    return a == b or a != a and b != b


RECORDS = Path(__file__).parent / "records"


@pytest.mark.parametrize("game", ["three-modular-rooms", "skeld", "bugcatcher", "big-machine", "flickering-lights"])
def test_from_json_rebuilds_every_record_as_the_plain_code_did(game: str) -> None:
    data = json.loads((RECORDS / f"{game}.json").read_text())
    match = load_match(data)   # (registers the game's own classes)
    assert match.rounds
    rounds = data["match"]["rounds"] if "match" in data else data["rounds"]
    for rec in rounds:
        for key in ("submissions", "public", "private", "facts", "requests"):
            if rec.get(key) is not None:
                assert same(T.from_json(rec[key]), plain_from_json(rec[key]))


_leaf = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=4))
_tagged = st.builds(lambda name, label, choices: T.to_json(Field(name, label, FieldKind.CHOICE, choices)),
                    st.text(max_size=3), st.text(max_size=3), st.lists(st.text(max_size=2), max_size=2).map(tuple))
_json = st.recursive(st.one_of(_leaf, _tagged),
                     lambda inner: st.one_of(st.lists(inner, max_size=3),
                                             st.dictionaries(st.text(max_size=3), inner, max_size=3)), max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(_json, st.lists(_json, max_size=3))
def test_from_json_rebuilds_any_data_as_the_plain_code_did(data: Any, nested: list) -> None:
    # (also data no record holds, such as {"__t": False}: the same error)
    assert same_outcome(data)
    # A dataclass whose fields hold lists of lists (tuples all the way down) and anything else.
    section = {"__t": T.type_tag(Section), "name": "s", "title": "t", "fields": [nested, data], "rows": data}
    assert same_outcome(section)


def same_outcome(data: Any) -> bool:
    outcomes = []
    for rebuild in (T.from_json, plain_from_json):
        try:
            outcomes.append(("made", rebuild(data)))
        except Exception as e:   # noqa: BLE001 - compared, not hidden
            outcomes.append(("raised", type(e)))
    (kind, got), (plain_kind, plain) = outcomes
    return kind == plain_kind and (same(got, plain) if kind == "made" else got is plain)


# ------------------------------------------------------------------ cells read as text

def plain_normalise(rows: list) -> list[list[str]]:
    """`normalise` before issue 31's shortcut: `text_of` for every cell."""
    from sheetbridge.sheets.model import text_of
    out = [[text_of(v) for v in row] for row in rows]
    for row in out:
        while row and row[-1] == "":
            row.pop()
    while out and not out[-1]:
        out.pop()
    return out


_cell = st.one_of(st.none(), st.booleans(), st.integers(), st.integers(min_value=10 ** 300), st.floats(),
                  st.text(max_size=4), st.sampled_from(["", " ", "a\r\nb", "\x07", "\ud83d", "\ud83d\ude00", "\uffff",
                                                        "\t", "\u2028", "_x0041_"]),
                  st.dates(), st.datetimes(), st.times())


@settings(max_examples=400, deadline=None)
@given(st.lists(st.lists(_cell, max_size=5), max_size=5))
def test_cells_are_read_as_text_as_the_plain_code_read_them(rows: list) -> None:
    from sheetbridge.sheets import xlsx_fast as XF
    from sheetbridge.sheets.model import normalise
    assert normalise(rows) == plain_normalise(rows)
    # calamine's reading: a whole day (a date) as openpyxl gives it, a datetime
    assert normalise(rows, XF._as_openpyxl) == plain_normalise([[v if type(v) is not dt.date else XF._as_openpyxl(v)
                                                                  for v in row] for row in rows])


# ------------------------------------------------------------------ what sends a read to openpyxl

# Pieces of the marks and of what is near them, so that near misses are tried too.
_PIECES = st.sampled_from([b"<", b"f", b">", b" ", b"/", b":", b"t", b"=", b'"', b"'", b"e", b"x", b"_", b"D", b"8",
                           b"3", b"F", b"<f", b":f", b't="e"', b"t='e'", b"<formula1>", b"_xD83D_", b"_x0041_",
                           b"\xc3\xa9", b"<c r=\"A1\" t=\"s\">"])


_NEAR_MISSES = [b't="e\'', b"t='e\"", b't="e"', b"t='e'", b"t= 'e'", b"<f/", b"<f/ >", b"<f/>", b":f/>", b"<fo>", b"x:f>",
                b"<f\t", b":f\n", b"_xD83D", b"_xd83d_", b"_xDC00_", b"_xD7FF_", b"_xE000_", b"_xDFFF_", b"_x_xDA00_"]


@settings(max_examples=600, deadline=None)
@given(st.lists(_PIECES, max_size=14).map(b"".join), st.binary(max_size=20))
def test_a_part_is_found_to_hold_a_formula_or_a_surrogate_as_the_plain_tests_found_it(text: bytes, noise: bytes):
    import re
    from sheetbridge.sheets import xlsx_fast as XF
    from sheetbridge.sheets.cell_reading import has_surrogate_escape
    for part in (text, noise + text, text + noise, text * 50, *_NEAR_MISSES):
        assert XF._has_formula_mark(part) is any(mark in part for mark in XF._FORMULA_MARKS)
        assert has_surrogate_escape(part) is (b"_x" in part and re.search(rb"_x[Dd][89A-Fa-f][0-9A-Fa-f]{2}_", part)
                                              is not None)


# ------------------------------------------------------------------ ledger rows made quickly

def _plain_twin(cls: type) -> type:
    """The class as the dataclass decorator made it (its own generated __init__)."""
    return dataclasses.make_dataclass(
        "Plain" + cls.__name__, [(f.name, f.type, dataclasses.field(default=f.default)) for f in dataclasses.fields(cls)],
        frozen=True)


_VALUES = st.one_of(st.none(), st.text(max_size=5), st.integers(), st.booleans(), st.tuples(st.text(max_size=2)))


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["LedgerRow", "_Entry"]), st.lists(_VALUES, max_size=8), st.booleans())
def test_a_ledger_row_is_made_as_the_dataclass_makes_it(name: str, args: list, by_name: bool) -> None:
    from sheetbridge.core import integrity
    from sheetbridge.core.ledger import LedgerRow
    cls = {"LedgerRow": LedgerRow, "_Entry": integrity._Entry}[name]
    plain = _plain_twin(cls)
    assert cls.__init__.__code__ is not plain.__init__.__code__
    names = [f.name for f in dataclasses.fields(cls)]
    kwargs = dict(zip(names, args)) if by_name else {}
    positional = [] if by_name else args
    try:
        expected = plain(*positional, **kwargs)
    except TypeError:
        with pytest.raises(TypeError):
            cls(*positional, **kwargs)
        return
    made = cls(*positional, **kwargs)
    assert vars(made) == vars(expected)
    assert made == cls(*positional, **kwargs) and repr(made).split("(", 1)[1] == repr(expected).split("(", 1)[1]
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.key = "changed"   # type: ignore[misc]



# ------------------------------------------------------------------ the ledger check pairs rows as before

def plain_compare(reference, copy, players, where):
    """`integrity._compare` before issue 31's shortcut: every reference row hashed first."""
    from sheetbridge.core import integrity as I
    checks = I.chain(reference)
    by_key = {r.key: j for j, r in enumerate(reference)}
    by_check = {c: j for j, c in enumerate(checks)}
    seen: set[int] = set()
    findings: list = []
    loose: list = []
    pairs: dict[int, int] = {}
    for i, e in enumerate(copy):
        j = by_key.get(e.key)
        if j is not None and j not in seen:
            pairs[i] = j
            seen.add(j)
    for i, e in enumerate(copy):
        j = by_check.get(e.check) if i not in pairs and e.check else None
        if j is not None and j not in seen:
            pairs[i] = j
            seen.add(j)
    for i, e in enumerate(copy):
        if i not in pairs:
            loose.append(e)
            continue
        f = I._changed(reference[pairs[i]], e, players, where)
        if f is not None:
            findings.append(f)
    for j, r in enumerate(reference):
        if j not in seen:
            findings.append(I.Finding(j + 2, f"{where(j + 2)}, key {r.key}: deleted (it was {r.player} {r.change:+d} "
                                      f"{I._short(r.reason, quote=False)})",
                                      ((r.player, -r.change, r.round, f"correction: {r.key} deleted by hand"),)
                                      if r.change else ()))
    return findings, loose


_EDITS = st.lists(st.tuples(st.sampled_from(["key", "check", "change", "drop", "copy", "swap", "typed", "blank"]),
                            st.integers(0, 20)), max_size=6)


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 8), _EDITS)
def test_the_ledger_check_pairs_and_names_rows_as_the_plain_code_did(n: int, edits: list) -> None:
    from sheetbridge.core import integrity as I
    from sheetbridge.core.ledger import LedgerRow
    players = ["Ann", "Bo"]
    rows = [LedgerRow("g", i // 2, players[i % 2], 10 - i, f"move {i}", f"g:r{i}", "") for i in range(n)]
    tab = [list(I.HEADER)] + [[*map(str, r.as_list()), c] for r, c in zip(rows, I.chain(rows))]
    for what, k in edits:
        body = tab[1:]
        if not body:
            break
        row = body[k % len(body)]
        if what == "key":
            row[5] = row[5] + "x"
        elif what == "check":
            row[7] = "0" * 10
        elif what == "change":
            row[3] = str(int(row[3]) + 1) if row[3].lstrip("-").isdigit() else "5"
        elif what == "drop":
            tab.remove(row)
        elif what == "copy":
            tab.append(list(row))
        elif what == "swap":
            i = tab.index(row)
            tab[1], tab[i] = tab[i], tab[1]
        elif what == "typed":
            tab.append(["", "", "Bo", "3", "quiz", "", "", ""])
        else:
            row[5] = ""
    entries = I._tab_entries(tab)
    where = I._tab_row
    assert I._compare(rows, entries, players, where) == plain_compare(rows, entries, players, where)
