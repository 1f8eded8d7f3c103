"""The pure core: game contract, data types, seeded randomness, ledger and record.

The names below are importable from here (``from sheetbridge.core import Rng``) but each is
loaded from its module when first asked for: importing a light module such as
``sheetbridge.core.errors`` (every CLI command does) must not pay for the data types' classes.
"""
from __future__ import annotations

import importlib
from typing import Any

_WHERE = {
    "errors": ("BackendError", "ConfigError", "LedgerError", "SheetbridgeError", "UsageError", "WorkbookError"),
    "game": ("GameRules",),
    "rng": ("Rng", "derive_seed"),
    "types": ("Award", "Block", "Cell", "Field", "FieldKind", "Form", "GameSpec", "LedgerEntry", "Option",
              "Outcome", "Problem", "ProblemKind", "RawSubmission", "Report", "RoundInput", "RoundResult",
              "Section", "State", "Submission", "TableSpec", "Tables"),
}
_MODULE_OF = {name: module for module, names in _WHERE.items() for name in names}
__all__ = sorted(_MODULE_OF)


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value   # asked once: a plain attribute from then on
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
