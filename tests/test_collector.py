"""A resolve runs with the cyclic garbage collector paused and gives it back as it found it
(host/collector.py says why: issue 31)."""
from __future__ import annotations

import gc

import pytest

from sheetbridge.core.match import random_submissions
from sheetbridge.core.rng import Rng
from sheetbridge.host import resolve as resolve_module
from sheetbridge.host.collector import collector_paused
from sheetbridge.host.demo import fill_submission
from sheetbridge.host.new import new_game
from sheetbridge.host.players import PlayerInfo
from sheetbridge.host.session import load
from sheetbridge.sheets.xlsx import XlsxStore


@pytest.fixture
def collector_on():
    was = gc.isenabled()
    gc.enable()
    yield
    gc.enable() if was else gc.disable()


def test_paused_inside_and_back_after_even_after_an_error(collector_on):
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(KeyError):
        with collector_paused():
            raise KeyError("x")
    assert gc.isenabled()


def test_nested_pauses_leave_it_to_the_outermost_and_an_off_collector_stays_off(collector_on):
    with collector_paused():
        with collector_paused():
            pass
        assert not gc.isenabled()   # (the inner one found it off: it does not switch it on)
    assert gc.isenabled()
    gc.disable()
    with collector_paused():
        pass
    assert not gc.isenabled()


def test_a_resolve_runs_with_the_collector_paused_and_gives_it_back(tmp_path, monkeypatch, collector_on):
    store = XlsxStore(tmp_path)
    new_game("three-modular-rooms", [PlayerInfo(n, "", 20) for n in ("Ann", "Bo", "Cy")], store, seed=3,
             folder=tmp_path)
    ld = load(store)
    for p, raw in random_submissions(ld.match, Rng.from_seed(3, "t")).items():
        fill_submission(store, ld, p, raw)
    seen: list[bool] = []
    real = resolve_module.load_for

    def load_for(*args, **kwargs):
        seen.append(gc.isenabled())
        return real(*args, **kwargs)

    monkeypatch.setattr(resolve_module, "load_for", load_for)
    result = resolve_module.resolve(XlsxStore(tmp_path))
    assert result.action == "resolved", result.message
    assert seen == [False]
    assert gc.isenabled()
    assert load(XlsxStore(tmp_path)).match.round == 2
