"""The `sheetbridge` command: one command per file, each a thin layer over
:mod:`sheetbridge.orchestrator`.

One convention for every command: an error the host can act on (a SheetbridgeError, a
usage mistake, no network) is ONE line, "error: ...", and exit status 2; a bug is
"internal error: ..." and exit status 3 (a traceback with --debug)."""
from __future__ import annotations

import os
import sys

import click

from ..core.errors import SheetbridgeError
from . import (announce, decide, demo, games, init_game, lock, menu, new, repair, resolve, simulate, status,
               undo, watch)

UNREACHABLE = "cannot reach Google (no network?)"


def fail(message: str) -> None:
    """Print the one-line error and exit 2 (every command, `auth` included)."""
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


def unreachable(exc: BaseException) -> str | None:
    """The one line for a failure to reach Google at all that escaped the Google store
    (requests' or google-auth's transport errors), or None if ``exc`` is something else."""
    import requests
    from google.auth.exceptions import TransportError
    if isinstance(exc, (requests.ConnectionError, requests.Timeout, TransportError)):
        text = str(exc).strip().splitlines()[0][:200] if str(exc).strip() else type(exc).__name__
        return f"{UNREACHABLE}: {type(exc).__name__}: {text}; run the same command again when online"
    return None


class _Group(click.Group):
    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except SheetbridgeError as e:
            fail(str(e))
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


for _module in (games, new, status, resolve, undo, repair, decide, announce, lock, watch, menu, demo, simulate,
                init_game):
    main.add_command(_module.command)
main.add_command(lock.reopen_command, "reopen")

try:  # the Google credentials helper lives beside the Google backend
    from . import auth
    main.add_command(auth.command)
except ImportError:  # pragma: no cover - only while the Google backend is not installed
    pass
