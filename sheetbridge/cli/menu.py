"""`sheetbridge menu show`: the Sheetbridge menu's Apps Script, and how to add it to the master by hand."""
from pathlib import Path

import click

HOW_TO = """To add the Sheetbridge menu to the master spreadsheet by hand (three clicks):
  1. Open the master spreadsheet, then Extensions > Apps Script.
  2. Replace the editor's content with the script below and press Save (the disk icon).
  3. Reload the spreadsheet: the Sheetbridge menu appears (Google asks you to authorise it once).
Then keep `sheetbridge watch GAME_FOLDER` running on your computer while you use it.
"""


def script_source(name: str = "Menu.gs") -> str:
    from importlib.resources import files   # here, not at the top: `--help` imports every command module
    return files("sheetbridge").joinpath(f"appscript/{name}").read_text(encoding="utf-8")


def script_files() -> list[dict]:
    """The project's files as the Apps Script API takes them."""
    return [{"name": "Menu", "type": "SERVER_JS", "source": script_source()},
            {"name": "appsscript", "type": "JSON", "source": script_source("appsscript.json")}]


@click.group("menu")
def command() -> None:
    """The Sheetbridge menu inside the master spreadsheet (Google Sheets)."""


@command.command("show")
def show() -> None:
    """Print the menu's script and the three clicks to paste it into the master."""
    click.echo(HOW_TO)
    click.echo(script_source())


@command.command("install")
@click.argument("folder", type=click.Path(path_type=Path))
def install(folder) -> None:
    """Put the menu into the game's master spreadsheet through the Apps Script API (asks once for the
    extra permission to manage Apps Script projects, for this command only)."""
    from ..core.errors import UsageError
    from ..host.config import read_config, write_config
    from ..sheets import google as G
    cfg = read_config(folder)
    if cfg.get("backend", "xlsx") != "google":
        raise UsageError(f"{folder} is an xlsx game: the menu lives in a Google master spreadsheet (offline, run "
                         "the commands from the terminal)")
    settings = G.sign_in_settings(cfg)
    if settings["mode"] == "service_account":
        raise UsageError("a service account cannot use the Apps Script API; add the menu by hand: "
                         "`sheetbridge menu show`")
    store = G.open_google_store({**cfg, "folder": str(folder), "interactive": True,
                                 "extra_scopes": [G.SCRIPT_SCOPE]})
    script_id = G.install_script(store, script_files(), cfg.get("menu_script_id"))
    write_config(folder, {**cfg, "menu_script_id": script_id})
    click.echo("The Sheetbridge menu is in the master spreadsheet: reload it in the browser (Google asks you to "
               f"authorise the menu once), and keep `sheetbridge watch {folder}` running while you use it.")
