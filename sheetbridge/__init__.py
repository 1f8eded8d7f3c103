"""sheetbridge: resolve online reality game rounds from Google Sheets or offline .xlsx workbooks.

The pure core (:mod:`sheetbridge.core`) runs a game with no sheet at all::

    from sheetbridge.core.match import Match
    m = Match.new("three-modular-rooms", ["Ann", "Bo", "Cy"], seed=7)

:mod:`sheetbridge.orchestrator` runs the same over workbooks; :mod:`sheetbridge.cli` is the command.
"""
__version__ = "0.1.0"
