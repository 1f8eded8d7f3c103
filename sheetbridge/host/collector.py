"""The cyclic garbage collector, paused while a round is resolved.

A resolve makes hundreds of thousands of short-lived containers (cells, rows, facts) and almost no
reference cycles: reference counting frees them as it goes. CPython's cyclic collector still runs
every 700 allocations, and each of its full passes walks every object of the process (the imported
modules' too): about a tenth of a 30-player resolve, and of a cold ``sheetbridge resolve`` (its
imports included), measured by ``benchmarks/resolve_xlsx.py`` and ``benchmarks/resolve_process.py``.
So the collector is paused for the round's work and switched back on after, as it was: a
long-running ``watch`` or ``demo`` still collects between rounds.
"""
from __future__ import annotations

import contextlib
import gc
from typing import Iterator


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic collector off inside, then as it was (nested uses leave it to the outermost).
    Also a decorator: ``@collector_paused()``."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
