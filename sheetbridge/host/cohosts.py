"""Co-hosts (issue 28): a Google game run by several hosts.

A co-host gets exactly what a host needs: writer on the master (the record, the Control tab
and its menu) and reader of the public board, never a player's file (each player's file is
shared with that player alone: a co-host who also played would otherwise read another's
secrets). The co-hosts are kept in the master's record, so every later sharing of the board
(a substitution, a repair that re-creates it) keeps them. Which host started a command is
named in the game's lock (``SHEETBRIDGE_HOST_NAME``, else the account's email; see
sheets/google.py; in a game with co-hosts, recorded in the game folder's config) and, for a menu
request, in the Control tab's "asked by" column (the watcher's lock then names that account).
"""
from __future__ import annotations

from typing import Sequence

from ..core.errors import UsageError
from ..sheets.store import BOARD, MASTER, BookInfo, Store
from .config import CONFIG_FILE, read_config, write_config
from .session import load
from .transaction import commit


def checked_cohosts(emails: Sequence[str], players: Sequence = ()) -> list[str]:
    """The co-hosts' emails, lower case, once each; UsageError for one that is no email or is a player's."""
    out: list[str] = []
    for e in emails:
        e = e.strip().lower()
        if not e or "@" not in e or any(c.isspace() for c in e):
            raise UsageError(f"--cohost {e!r}: give a co-host's Google account email (name@example.com)")
        if e not in out:
            out.append(e)
    playing = {p.email.strip().lower() for p in players if p.email}
    clash = [e for e in out if e in playing]
    if clash:
        raise UsageError(f"{clash[0]} plays in this game: a player cannot co-host it (the master holds "
                         "every player's secrets)")
    return out


def share_with_cohosts(store: Store, emails: Sequence[str]) -> list[str]:
    """Add co-hosts to a game (Google): recorded in the master, then the master shared with every co-host
    as writer and the board with the players and co-hosts as readers. Returns the co-hosts now."""
    if store.folder is not None:   # a folder's files are handed out by the host
        raise UsageError("co-hosts share Google spreadsheets; an xlsx game's files are handed out by the host")
    with store.lock("share"):
        ld = load(store)
        added = checked_cohosts(emails, ld.players)
        cohosts = ld.cohosts + [e for e in added if e not in ld.cohosts]
        if cohosts != ld.cohosts:
            ld.cohosts = cohosts
            commit(ld)
        folder = store.game_folder
        if folder is not None and (folder / CONFIG_FILE).is_file():   # so this computer's lock names its host
            write_config(folder, {**read_config(folder), "cohosts": cohosts})
        store.share(BookInfo(MASTER, ld.master.location, "master"), writer_email=",".join(cohosts))
        if ld.board_location:
            readers = sorted(p.email for p in ld.players if p.email) + cohosts
            store.share(BookInfo(BOARD, ld.board_location, "public board"), reader_email=readers)
        return cohosts
