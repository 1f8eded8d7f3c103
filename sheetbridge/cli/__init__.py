"""The `sheetbridge` command: one command per file, each a thin layer over
:mod:`sheetbridge.host`.

One convention for every command: an error the host can act on (a SheetbridgeError, a
usage mistake, no network) is ONE line, "error: ...", and exit status 2; a bug is
"internal error: ..." and exit status 3 (a traceback with --debug).

Commands are loaded lazily (click's LazyGroup pattern): ``sheetbridge games`` imports only
``cli/games.py``, ``--help`` lists the commands from their first sentences (``COMMANDS``) and imports
none of them, and a command module imports nothing heavy at the top (the host's rooms, openpyxl,
gspread, google-auth, pandas... are imported inside the functions that need them).
``benchmarks/cli_startup.py`` measures it."""
from __future__ import annotations

import importlib
import os
import sys

import click

# name -> (module in this package, attribute, the first sentence of its help): the module is imported when
# the command runs or its own --help is asked for; `sheetbridge --help` lists every command from its first
# sentence here, importing none of them (24 modules and their click objects: about 13 ms, a quarter of the
# whole `--help`). tests/test_cli_startup.py checks each sentence against the command's own help.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "announce": ("announce", "command", "Print the round's public announcement as Discord-ready Markdown "
                 "(split under 2,000 characters)."),
    "auth": ("auth", "command", "Set up Google credentials for --google games (OAuth sign-in, or a service "
             "account)."),
    "collect": ("collect", "command", "File returned player workbooks in their place, keeping the one each "
                "player saved last."),
    "decide": ("decide", "command", "Enter a decision (a vote, a gamewide ranking, a manual mission) and "
               "publish what follows from it."),
    "demo": ("demo", "command", "Play a whole game through the same files and commands, and print the final "
             "standings."),
    "export": ("export", "command", "Write the game's ledger, standings and facts as CSV (columns: "
               "docs/seasons.md)."),
    "extend": ("extend", "command", "Move the open round's deadline: by a grace period added to it (\"2h\", "
               "\"90m\", \"1d\", \"1h30m\"), or to a UTC time (\"2026-11-24 17:00\")."),
    "games": ("games", "command", "List the supported games."),
    "init-game": ("init_game", "command", "Write a package skeleton for a new game: the game package (rules "
                  "in its docstring, one file per chapter as in the built-in games: spec, options, state, content, "
                  "facts, intake, rules, render, play, position, game; a tiny working resolve), its tests "
                  "(the sheetbridge contract in one line) and a docs page."),
    "lock": ("lock", "command", "Lock the open round now: snapshot every Submission tab into the master "
             "(resolve uses it; later edits are named by status and not counted)."),
    "menu": ("menu", "command", "The Sheetbridge menu inside the master spreadsheet (Google Sheets)."),
    "new": ("new", "command", "Create a new game: the host's master workbook and one workbook per player."),
    "remind": ("remind", "command", "Print a reminder for Discord: the open round's deadline (as Discord "
               "timestamps, shown in each reader's time zone) and who has not submitted yet, nothing else."),
    "reopen": ("lock", "reopen_command", "Undo a lock: players can edit their submissions for the open "
               "round again."),
    "repair": ("repair", "command", "Redraw Submission, Results and Board tabs from the master's record; "
               "re-create missing or unreadable files."),
    "resolve": ("resolve", "command", "Resolve the open round: public board, private Results tabs, round log "
                "and ledger."),
    "season": ("season", "group", "A season: garnets carried from game to game, Tokens of Life, Elimination "
               "Candidates."),
    "share": ("share", "command", "Share the game with co-hosts: the master and the public board, never a "
              "player's file."),
    "simulate": ("simulate", "command", "Play many whole games with the pure API and print the verdict (are "
                 "the seats balanced, which strategy is strongest, which host options change the outcome, "
                 "which facts never or always happen), then win rates, score and garnet distributions, game "
                 "lengths, endings and facts."),
    "standings": ("standings", "command", "Print the standings the master's Standings tab shows (the host's "
                  "view unless --public or --player)."),
    "status": ("status", "command", "Show who has and has not submitted for the open round, and whether it "
               "is valid."),
    "substitute": ("substitute", "command", "Give OLD's seat to NEW: balance and history kept, a new private "
                   "file for NEW (on Google, OLD loses access), recorded so undo and replay keep it."),
    "undo": ("undo", "command", "Undo the last resolved round (state, ledger and tabs are recomputed, not "
             "patched)."),
    "watch": ("watch", "command", "Keep running on your computer while you use the Sheetbridge menu in the "
              "master spreadsheet: it runs each menu request with the same commands as the CLI, and locks "
              "submissions at the Config tab's deadline."),
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
            module, attr, _ = COMMANDS[name]
            self.add_command(getattr(importlib.import_module(f"{__name__}.{module}"), attr), name)
        return self.commands.get(name)

    def format_commands(self, ctx, formatter) -> None:
        """The list `--help` shows, drawn by click from each command's first sentence (COMMANDS) without
        importing the command: a stand-in with that sentence as its help gives click's own short help at
        any width. A command already loaded (or added by a caller) speaks for itself."""
        listed = {name: click.Command(name, help=summary) for name, (_, _, summary) in COMMANDS.items()}
        click.Group.format_commands(click.Group(commands={**listed, **self.commands}), ctx, formatter)

    def invoke(self, ctx):
        from ..core.errors import SheetbridgeError
        try:
            return super().invoke(ctx)
        except SheetbridgeError as e:
            message = str(e)
            if _opened:
                import shlex   # (only here: every command imports this module)
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
