"""The `sheetbridge` command: one command per file, each a thin layer over
:mod:`sheetbridge.orchestrator`. Errors a host can fix are printed as one line."""
from __future__ import annotations

import os
import sys

import click

from ..core.errors import SheetbridgeError
from . import (announce, decide, demo, games, init_game, lock, menu, new, repair, resolve, simulate, status,
               undo, watch)


class _Group(click.Group):
    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except SheetbridgeError as e:
            click.echo(f"error: {e}", err=True)
            sys.exit(2)
        except BrokenPipeError:   # `sheetbridge status DIR | head -3`: the reader left; exit quietly
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            sys.exit(0)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException, SystemExit):
            raise
        except Exception as e:  # a bug: still one line unless --debug
            if ctx.params.get("debug"):
                raise
            click.echo(f"internal error: {type(e).__name__}: {e} (run with --debug for details; "
                       "nothing was half-written: files are only written after everything is computed)", err=True)
            sys.exit(3)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--debug", is_flag=True, help="Show tracebacks for internal errors.")
@click.version_option(package_name="sheetbridge")
def main(debug: bool) -> None:
    """Resolve online reality game rounds from spreadsheets."""


for _module in (games, new, status, resolve, undo, repair, decide, announce, lock, watch, menu, demo, simulate,
                init_game):
    main.add_command(_module.command)
main.add_command(lock.reopen_command, "reopen")

try:  # the Google credentials helper lives beside the Google backend
    from . import auth
    main.add_command(auth.command)
except ImportError:  # pragma: no cover - only while the Google backend is not installed
    pass
