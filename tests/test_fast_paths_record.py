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
