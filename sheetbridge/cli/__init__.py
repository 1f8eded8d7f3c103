"""The `sheetbridge` command: one command per file, each a thin layer over
:mod:`sheetbridge.host`.

One convention for every command: an error the host can act on (a SheetbridgeError, a
usage mistake, no network) is ONE line, "error: ...", and exit status 2; a bug is
"internal error: ..." and exit status 3 (a traceback with --debug).

Commands are loaded lazily (click's LazyGroup pattern): ``sheetbridge games`` imports only
``cli/games.py``, and ``--help`` imports the command modules, which import nothing heavy at
the top (the host's rooms, openpyxl, gspread, google-auth, pandas... are imported inside the
functions that need them). ``benchmarks/cli_startup.py`` measures it."""
from __future__ import annotations

import importlib
import os
import shlex
import sys

import click

# name -> (module in this package, attribute): imported when the command runs or --help lists it.
COMMANDS = {
    "announce": ("announce", "command"), "auth": ("auth", "command"), "decide": ("decide", "command"),
    "demo": ("demo", "command"), "games": ("games", "command"), "init-game": ("init_game", "command"),
    "lock": ("lock", "command"), "menu": ("menu", "command"), "new": ("new", "command"),
    "reopen": ("lock", "reopen_command"), "repair": ("repair", "command"), "resolve": ("resolve", "command"),
    "simulate": ("simulate", "command"), "status": ("status", "command"), "undo": ("undo", "command"),
    "watch": ("watch", "command"), "season": ("season", "group"), "export": ("export", "command"),
    "substitute": ("substitute", "command"), "share": ("share", "command"), "extend": ("extend", "command"),
    "remind": ("remind", "command"), "standings": ("standings", "command"), "collect": ("collect", "command"),
}

UNREACHABLE = "cannot reach Google (no network?)"
# The core and the sheet layer cannot know where the game lives, so the fixes they suggest say
# `sheetbridge repair GAME_FOLDER ...`; the CLI knows, and prints the command ready to copy.
FOLDER_PLACEHOLDER = "GAME_FOLDER"
_opened: list[str] = []   # the game folder this command opened


def fail(message: str) -> None:
    """Print the one-line error and exit 2 (every command, `auth` included)."""
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


def notice(line: str) -> None:
    """What the host should know while a command waits ("waiting for Google's quota (30 s)..."): on stderr,
    so that the command's own output stays clean for a pipe."""
    click.echo(line, err=True)


def open_store(folder):
    """The game's store, telling the host about waits on stderr (the host, and with it the
    backends, is imported only now)."""
    from ..host.session import open_store as open_game
    _opened[:] = [str(folder)]
    return open_game(folder, progress=notice)


def unreachable(exc: BaseException) -> str | None:
    """The one line for a failure to reach Google at all that escaped the Google store
    (requests' or google-auth's transport errors), or None if ``exc`` is something else."""
    # Only a command that went to Google has imported requests and google-auth: an xlsx game's
    # error is not worth their import (0.1 s), and cannot be theirs.
    requests, transport = sys.modules.get("requests"), sys.modules.get("google.auth.exceptions")
    kinds = ((requests.ConnectionError, requests.Timeout) if requests is not None else ()) + \
        ((transport.TransportError,) if transport is not None else ())
    if kinds and isinstance(exc, kinds):
        text = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else type(exc).__name__
        return f"{UNREACHABLE}: {type(exc).__name__}: {text}; run the same command again when online"
    return None


class _Group(click.Group):
    def list_commands(self, ctx) -> list[str]:
        return sorted({*self.commands, *COMMANDS})

    def get_command(self, ctx, name: str):
        if name not in self.commands and name in COMMANDS:
            module, attr = COMMANDS[name]
            self.add_command(getattr(importlib.import_module(f"{__name__}.{module}"), attr), name)
        return self.commands.get(name)

    def invoke(self, ctx):
        from ..core.errors import SheetbridgeError
        try:
            return super().invoke(ctx)
        except SheetbridgeError as e:
            message = str(e)
            if _opened:
                message = message.replace(FOLDER_PLACEHOLDER, shlex.quote(_opened[0]))
            fail(message)
        except BrokenPipeError:   # `sheetbridge status DIR | head -3`: the reader left; exit quietly
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            sys.exit(0)
        except (click.exceptions.Exit, click.exceptions.Abort, SystemExit):
            raise
        except click.UsageError as e:           # click's own: a missing option, an unknown command...
            where = f" (see `{e.ctx.command_path} --help`)" if e.ctx is not None else ""
            fail(e.format_message() + where)
        except click.ClickException as e:
            fail(e.format_message())
        except Exception as e:
            line = unreachable(e)
            if line is not None:
                fail(line)
            if ctx.params.get("debug"):      # a bug: still one line unless --debug
                raise
            click.echo(f"internal error: {type(e).__name__}: {e} (run with --debug for details; "
                       "nothing was half-written: files are only written after everything is computed)", err=True)
            sys.exit(3)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--debug", is_flag=True, help="Show tracebacks for internal errors.")
@click.version_option(package_name="sheetbridge")
def main(debug: bool) -> None:
    """Resolve online reality game rounds from spreadsheets."""
