"""`sheetbridge menu show`: the Sheetbridge menu's Apps Script, and how to add it to the master by hand."""
from importlib.resources import files

import click

HOW_TO = """To add the Sheetbridge menu to the master spreadsheet by hand (three clicks):
  1. Open the master spreadsheet, then Extensions > Apps Script.
  2. Replace the editor's content with the script below and press Save (the disk icon).
  3. Reload the spreadsheet: the Sheetbridge menu appears (Google asks you to authorise it once).
Then keep `sheetbridge watch GAME_FOLDER` running on your computer while you use it.
"""


def script_source() -> str:
    return files("sheetbridge").joinpath("appscript/Menu.gs").read_text(encoding="utf-8")


@click.group("menu")
def command() -> None:
    """The Sheetbridge menu inside the master spreadsheet (Google Sheets)."""


@command.command("show")
def show() -> None:
    """Print the menu's script and the three clicks to paste it into the master."""
    click.echo(HOW_TO)
    click.echo(script_source())
