"""Errors a host sees. Each carries one clear line saying what is wrong and how to fix it.

Player mistakes are not errors: they become :class:`~sheetbridge.core.types.Problem`
values and the rules' default applies. These exceptions are for the host's side:
a missing workbook, a renamed tab, a bad option, garnets a player does not have.
"""
from __future__ import annotations


class SheetbridgeError(Exception):
    """Base class: the CLI prints ``str(error)`` as one line, never a traceback."""


class UsageError(SheetbridgeError):
    """The command was asked for something that cannot be done (unknown game, bad player list)."""


class WorkbookError(SheetbridgeError):
    """A file or tab is missing or unreadable. Names the file and the tab.

    `what` is the line without its `fix`, for an error that quotes it and says its own fix.
    """

    def __init__(self, message: str = "", *, fix: str = "") -> None:
        super().__init__(f"{message}; {fix}" if fix else message)
        self.what = message


class ConfigError(SheetbridgeError):
    """A host option or content table is invalid. Names the tab, the cell and what is allowed."""


class LedgerError(SheetbridgeError):
    """A garnet change that would overdraw a balance, or a ledger row that does not add up."""


class BackendError(SheetbridgeError):
    """The storage (Google Sheets) kept failing; the game is left resumable."""


class GameBusy(SheetbridgeError):
    """Another sheetbridge command is working on the same game; nothing was read or written."""


class PositionError(ConfigError):
    """A starting position that cannot happen in the game (a card twice, a node off the board...)."""
