"""Each player's confessional, with their picture, posted to their own Discord channel (issue 27, point 4).

ORG players each have a private confessional channel; the host types that channel's webhook
in the master's Players tab (column E, "confessional webhook"). ``announce --private
--post-private`` posts each player's private results there, their own picture attached, and
nothing of anyone else's.

A webhook address is a secret (whoever has it can post in the channel): it is never printed
in full, only a short prefix (:func:`short_webhook`), and it stays out of the record. Two
players given the same webhook, or a player's webhook that is the public announcement's, would
send one player's secrets to others: such a webhook gets nothing, and the host is told why.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Sequence
from urllib.parse import urlsplit

from ..core.errors import SheetbridgeError

WEBHOOK_HEADER = "confessional webhook"
PREFIX_CHARS = 4          # of the webhook's path after /webhooks/ (its channel's id): enough to tell them apart


def read_webhooks(players_rect: Sequence[Sequence[str]], players: Sequence[str]) -> dict[str, str]:
    """The webhook typed for each player in the Players tab (their row, the "confessional webhook"
    column); players with none are left out, and so are rows that name no player."""
    header = next((row for row in players_rect if row and row[0] == "player"), None)
    if header is None or WEBHOOK_HEADER not in header:
        return {}
    col = list(header).index(WEBHOOK_HEADER)
    names = set(players)
    out = {}
    for row in players_rect[players_rect.index(header) + 1:]:
        if row and row[0] in names and len(row) > col and row[col].strip():
            out[row[0]] = row[col].strip()
    return out


def short_webhook(url: str) -> str:
    """What may be shown of a webhook: its host and the first characters of its path after
    /webhooks/ (or of its path), then an ellipsis. The token never appears.

    >>> short_webhook("https://discord.com/api/webhooks/123456789/SECRET-token")
    'discord.com/api/webhooks/1234…'
    """
    parts = urlsplit(url.strip())
    if not parts.netloc:                  # not an address at all: its first characters only
        return f"{url.strip()[:PREFIX_CHARS]}…"
    path = parts.path
    marker = "/webhooks/"
    head, tail = (path[:path.index(marker) + len(marker)], path[path.index(marker) + len(marker):]) \
        if marker in path else ("/", path.lstrip("/"))
    return f"{parts.netloc}{head}{tail[:PREFIX_CHARS]}…"


def _is_web_address(url: str) -> bool:
    parts = urlsplit(url.strip())
    return parts.scheme in ("https", "http") and bool(parts.netloc)


@dataclass(frozen=True)
class Delivery:
    """What happened to one player's confessional."""
    player: str
    posted: bool
    line: str          # one line for the host, naming the webhook by its prefix only


def deliveries(private: Mapping[str, Sequence[str]], pictures: Mapping[str, bytes], webhooks: Mapping[str, str],
               public_webhook: str | None, round_no: int,
               post: Callable[..., int]) -> list[Delivery]:
    """Post each player's messages (and their picture, with the last message) to their own webhook
    with ``post(url, messages, attachments)``; one failure does not stop the others."""
    from .announce import Attachment
    owners: dict[str, list[str]] = {}
    for player, url in webhooks.items():
        owners.setdefault(url.strip(), []).append(player)
    out = []
    for player, messages in private.items():
        url = webhooks.get(player, "").strip()
        if not url:
            out.append(Delivery(player, False, f"{player}: no {WEBHOOK_HEADER} in the master's Players tab (column "
                                               "E); not posted: paste it there (or print it with --private and send "
                                               "it by hand)"))
            continue
        shown = short_webhook(url)
        shared = [p for p in owners.get(url, []) if p != player]
        if not _is_web_address(url):
            why = "is not a web address; copy it from the channel's settings (Integrations > Webhooks)"
        elif shared:
            why = f"is also {', '.join(shared)}'s; each player's channel needs its own webhook"
        elif public_webhook and url == public_webhook.strip():
            why = "is the public announcement's webhook; each player's channel needs its own"
        else:
            why = ""
        if why:
            out.append(Delivery(player, False, f"{player}: the webhook {shown} {why}: not posted"))
            continue
        picture = pictures.get(player)
        files = [Attachment(f"round-{round_no}-your-picture.png", picture)] if picture else []
        try:
            n = post(url, list(messages), files)
        except SheetbridgeError as e:
            out.append(Delivery(player, False, f"{player}: not posted to {shown}: {e}"))
            continue
        what = f"{n} message(s)" + (" and their picture" if files else "")
        out.append(Delivery(player, True, f"posted {player}'s confessional ({what}) to {shown}"))
    return out
