"""Shortcuts taken for speed in writing and checking the record (issue 31) give exactly what the
plain code they replace gave (tests/test_fast_paths.py has those of issue 13).

Each shortcut is compared with that plain code, kept here as the reference: serialising records
(`core.types.to_json`), telling numbers from text in the ledger's check (`core.integrity._int`),
cutting record entries into cells (`sheets.layout._chunks`) and making a cell (`sheets.model.CellData`).
"""
from __future__ import annotations

import dataclasses
import enum
import json
from collections import OrderedDict
from dataclasses import dataclass, fields, is_dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, Mapping, NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sheetbridge.api import load_match
from sheetbridge.core import integrity
from sheetbridge.core.types import from_json, to_json, type_tag
from sheetbridge.sheets import layout
from sheetbridge.sheets.model import CellData

RECORDS = Path(__file__).parent / "records"
GAMES = ["three-modular-rooms", "skeld", "bugcatcher", "big-machine", "flickering-lights"]


def plain_to_json(obj: Any) -> Any:
    """`to_json` as it was before issue 31's shortcut."""
    if is_dataclass(obj) and not isinstance(obj, type):
        out: dict[str, Any] = {"__t": type_tag(type(obj))}
        for f in fields(obj):
            out[f.name] = plain_to_json(getattr(obj, f.name))
        return out
    if isinstance(obj, enum.Enum):
        return {"__e": type_tag(type(obj)), "v": obj.value}
    if isinstance(obj, Mapping):
        return {str(k): plain_to_json(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [plain_to_json(v) for v in obj]
    return obj


def plain_int(s: str) -> int | None:
    try:
        f = float(s)
    except (TypeError, ValueError):
        return None
    return int(f) if f.is_integer() else None


def plain_chunks(text: str) -> list[str]:
    size = int(layout._layout()["chunk"])
    if not text or max(text) <= "\uffff":
        return [text[i:i + size] for i in range(0, len(text), size)] or [""]
    chunks, start, used = [], 0, 0
    for i, ch in enumerate(text):
        units = 2 if ord(ch) > 0xFFFF else 1
        if used + units > size:
            chunks.append(text[start:i])
            start, used = i, 0
        used += units
    chunks.append(text[start:])
    return chunks


@pytest.mark.parametrize("game", GAMES)
def test_to_json_writes_every_record_as_the_plain_code_did(game: str) -> None:
    match = load_match(json.loads((RECORDS / f"{game}.json").read_text()))
    for rec in match.rounds:
        assert json.dumps(to_json(rec.to_json())) == json.dumps(plain_to_json(rec.to_json()))
        assert to_json(rec.facts) == plain_to_json(rec.facts)
    for report in (match.public_report(), match.player_report(match.players[0])):
        assert to_json(report) == plain_to_json(report)
        assert from_json(to_json(report)) == report


class Colour(enum.Enum):
    RED = "red"


class Pair(NamedTuple):
    a: int
    b: str


@dataclass(frozen=True)
class Holder:
    items: tuple[Any, ...]


def test_to_json_of_the_less_usual_containers_is_unchanged() -> None:
    odd = [OrderedDict(b=1, a=Colour.RED), MappingProxyType({"k": (1, 2)}), Pair(1, "x"), Holder((Pair(2, "y"),)),
           {3: [Holder(()), None, True, 1.5]}, Holder, "text", 10 ** 30]
    assert to_json(odd) == plain_to_json(odd)


# Every character float() may accept, and some it does not, so that near-numbers are tried too.
NUMBERISH = st.text(alphabet=st.sampled_from(list("0123456789+-._eEinfINFtyaA ３٣²\u00a0\t") + ["x", "g", ":"]),
                    max_size=12)


@settings(max_examples=400, deadline=None)
@given(st.one_of(NUMBERISH, st.text(max_size=12)))
def test_the_ledger_check_reads_a_cell_as_a_number_exactly_when_float_does(s: str) -> None:
    assert integrity._int(s) == plain_int(s)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(["a", "é", "\u4e00", "\U0001f600", "\ud800", "{", "\n"]), max_size=120),
       st.integers(min_value=1, max_value=400))
def test_record_entries_are_cut_into_cells_as_the_plain_code_cut_them(text: str, times: int) -> None:
    long = text * (times * 50 // max(len(text), 1) + 1)   # (past the chunk size, about 40,000 characters)
    assert layout._chunks(text) == plain_chunks(text)
    assert layout._chunks(long) == plain_chunks(long)


PlainCellData = dataclasses.make_dataclass(
    "PlainCellData", [(f.name, f.type, dataclasses.field(default=f.default)) for f in dataclasses.fields(CellData)],
    frozen=True)
CELL_VALUES = st.one_of(st.none(), st.text(max_size=5), st.integers(), st.booleans(), st.floats(allow_nan=False))


@settings(max_examples=200, deadline=None)
@given(st.lists(CELL_VALUES, max_size=3), st.dictionaries(st.sampled_from(["fill", "bold", "wrap", "size", "align",
                                                                           "valign", "input", "font"]),
                                                          CELL_VALUES, max_size=4))
def test_a_cell_is_made_as_the_dataclass_makes_it(args: list, kwargs: dict) -> None:
    kwargs = {k: v for k, v in kwargs.items() if k not in [f.name for f in dataclasses.fields(CellData)[:len(args)]]}
    made = CellData(*args, **kwargs)
    assert CellData.__init__.__code__ is not PlainCellData.__init__.__code__
    assert vars(made) == vars(PlainCellData(*args, **kwargs))
    assert made == CellData(*args, **kwargs) and hash(made) == hash(CellData(*args, **kwargs))
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.value = "changed"   # type: ignore[misc]
    with pytest.raises(TypeError):
        CellData(*args, nonsense=1, **kwargs)


# ------------------------------------------------------------ fourth stop (issue 31): the same, quicker

PLAIN_ALPHABET = st.sampled_from(["a", " ", "_", "x", "\x7f", "\x00", "\t", "\n", "\r", "é", "\u2028", "\ud800",
                                  "\ufffe", "\U0001f600", "\xa0"])


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=PLAIN_ALPHABET, max_size=200), st.integers(min_value=0, max_value=3))
def test_is_plain_answers_as_isprintable(text: str, pad: int) -> None:
    from sheetbridge.sheets.model import is_plain, stored_text
    text = "y" * (pad * 30) + text   # (long and short texts: the quick way starts past 64 characters)
    assert is_plain(text) == text.isprintable()
    plain = text.replace("\r\n", "\n").replace("\r", "\n")
    assert stored_text(text) == "".join("\ufffd" if ch in "\ufffe\uffff" or "\ud800" <= ch <= "\udfff"
                                         or (ch < " " and ch not in "\t\n") else ch for ch in plain)


def _plain_content_widths(rows, minimum=4.0, maximum=40.0):
    """content_widths as it was before its values were measured once each (the oracle)."""
    need: dict[int, float] = {}
    for row in rows:
        for c, cell in enumerate(row):
            if cell.value is None:
                continue
            text = layout.text_of(cell.value)
            w = max(layout.fit_width(line, cell.bold, cell.size) for line in text.split("\n"))
            need[c] = max(need.get(c, 0.0), w)
    return {c: round(min(max(w, minimum), maximum), 1) for c, w in need.items()}


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.builds(CellData, st.one_of(st.none(), st.sampled_from([1, 1.0, True, "1", "TRUE", "1.0"]),
                                                       st.text(max_size=30)),
                                   bold=st.booleans(), size=st.sampled_from([None, 11.0, 22.0])), max_size=5),
                max_size=8))
def test_content_widths_measure_each_repeated_value_as_the_plain_code_did(rows) -> None:
    assert layout.content_widths(rows, minimum=4.0, maximum=40.0) == _plain_content_widths(rows)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.builds(CellData, st.one_of(st.none(), st.text(max_size=8), st.integers(-5, 5)),
                                   fill=st.sampled_from([None, "FF0000"]), bold=st.booleans()),
                         min_size=1, max_size=4), min_size=1, max_size=6), st.data())
def test_a_tab_sharing_cell_objects_is_drawn_as_one_with_a_copy_of_each(rows, data) -> None:
    """The writer draws a cell object once and reuses its XML: the same bytes as every cell its own object."""
    from sheetbridge.sheets import xlsx_fast
    from sheetbridge.sheets.model import TabData
    shared = [[row[data.draw(st.integers(0, len(row) - 1))] for _ in row] for row in rows]   # repeats objects
    copied = [[dataclasses.replace(cell) for cell in row] for row in shared]
    a, b = xlsx_fast._draw(TabData(rows=shared)), xlsx_fast._draw(TabData(rows=copied))
    assert (a.cells, a.looks, a.dimension) == (b.cells, b.looks, b.dimension)
    assert xlsx_fast.book_bytes({"T": TabData(rows=shared)}) == xlsx_fast.book_bytes({"T": TabData(rows=copied)})


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Ann", "Bo", "Cy", "Dee"]), st.integers(-9, 9)), max_size=30))
def test_balances_and_row_counts_in_one_pass_are_the_sums_per_player(rows) -> None:
    from sheetbridge.core.ledger import Ledger, LedgerRow
    led = Ledger("g", [LedgerRow("g", 1, p, change, "r", f"k{i}", "") for i, (p, change) in enumerate(rows)])
    players = ["Cy", "Ann", "Bo"]
    assert list(led.balances(players)) == players
    assert led.balances(players) == {p: sum(c for q, c in rows if q == p) for p in players}
    assert led.row_counts(players) == {p: sum(1 for q, _ in rows if q == p) for p in players}


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=0x7F), max_size=60) | st.text(max_size=20),
       st.booleans(), st.sampled_from([None, 11.0, 22.0]))
def test_an_ascii_text_is_measured_as_character_by_character(text: str, bold: bool, size) -> None:
    w = sum(layout._advance(ch) for ch in text) * layout.GOOGLE_MARGIN
    if bold:
        w *= layout.BOLD_FACTOR
    assert layout.text_width.__wrapped__(text, bold, size) == round(w * (size or layout.BASE_SIZE) / layout.BASE_SIZE, 4)


@settings(max_examples=200, deadline=None)
@given(st.lists(CELL_VALUES, max_size=3), st.dictionaries(st.sampled_from(["value", "fill", "bold", "wrap", "size",
                                                                           "align", "valign", "input"]),
                                                          CELL_VALUES, max_size=3))
def test_a_cell_changed_is_the_cell_dataclasses_replace_gives(args: list, changes: dict) -> None:
    cell = CellData(*args)
    new = layout.changed(cell, **changes)
    want = dataclasses.replace(cell, **changes)
    assert new == want and vars(new) == vars(want) and hash(new) == hash(want) and type(new) is CellData
    assert vars(cell) == vars(CellData(*args))   # (the cell itself unchanged)
    with pytest.raises(dataclasses.FrozenInstanceError):
        new.value = "changed"   # type: ignore[misc]
    with pytest.raises(TypeError):
        layout.changed(cell, nonsense=1)
