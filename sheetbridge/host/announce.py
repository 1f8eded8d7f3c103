"""A round's reports as Discord messages, and posting them to a Discord webhook.

The public announcement is the public report, rendered from the round's facts like
every other text, so it says exactly what the public board says and nothing more.
Discord refuses messages over 2,000 characters: :func:`split_messages` cuts between
blocks, then between lines, and only as a last resort inside a line.

>>> from sheetbridge.core.types import Block, Cell, Report
>>> rep = Report("Round 1", (Block("Rooms", ("Null: Ann, Bo; score 12",),
...                                ((Cell("Room"), Cell("Score")), (Cell("Null"), Cell("12")))),))
>>> print(markdown(rep))
## Round 1
**Rooms**
Null: Ann, Bo; score 12
```
Room | Score
Null | 12
```
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from ..core.errors import BackendError, UsageError
from ..core.types import Report
from .discord_text import grid_lines, legend_key

if TYPE_CHECKING:   # requests and tenacity (~0.1 s) are imported when something is posted, not to print it
    import requests

DISCORD_LIMIT = 2000


def _escape(text: str) -> str:
    """Player text is shown as typed: no mentions, no markdown from a player's name."""
    for ch in ("\\", "*", "_", "~", "`", "|", ">", "#"):
        text = text.replace(ch, "\\" + ch)
    return text.replace("@", "@\u200b")


def markdown(report: Report, escape: bool = False) -> str:
    """Discord-flavoured Markdown of a report: a heading, bold block titles, lines, grids as tables."""
    esc = _escape if escape else (lambda s: s.replace("@", "@\u200b"))
    out = [f"## {esc(report.title)}"]
    for block in report.blocks:
        if block.title != report.title:   # a block headed as its report is not headed twice
            out.append(f"**{esc(block.title)}**")
        out.extend(esc(line) for line in block.lines)
        if block.grid:   # a monospace code block, every column one width (discord_text.py)
            out += ["```", *grid_lines(block.grid), "```"]
            out.extend(esc(line) for line in legend_key(block.grid, block.legend))
        else:
            out.extend(f"- {esc(label)}" for label, _fill in block.legend)
    return "\n".join(out)


def split_messages(text: str, limit: int = DISCORD_LIMIT) -> list[str]:
    """Messages of at most `limit` characters, cut between blocks (a bold title starts one), then
    between lines, inside a line only when it alone is too long; a cut code block is closed and
    reopened so every message renders."""
    if limit < 40:
        raise ValueError("limit too small")
    messages: list[str] = []
    cur: list[str] = []
    fence = False          # inside a code block at the end of `cur`

    def size(lines: list[str]) -> int:
        return len("\n".join(lines))

    for line in text.split("\n"):
        step = limit - 8   # room for a reopened and a closing fence
        for piece in [line[i:i + step] for i in range(0, len(line), step)] or [""]:
            is_fence = piece.strip() == "```"
            after = fence != is_fence
            too_big = size(cur + [piece]) + (4 if after else 0) > limit
            new_block = piece.startswith("**") and not fence and size(cur) > limit * 0.75
            if cur and (too_big or new_block):
                messages.append("\n".join(cur + (["```"] if fence else [])))
                cur = ["```"] if fence else []
            cur.append(piece)
            fence = after
    if cur and cur != ["```"]:
        messages.append("\n".join(cur + (["```"] if fence else [])))
    return messages


@dataclass(frozen=True)
class Attachment:
    name: str
    data: bytes
    mime: str = "image/png"


class _Retry(Exception):
    def __init__(self, wait: float, why: str) -> None:
        super().__init__(why)
        self.wait = wait


def check_webhook(url: str) -> None:
    """Refuse a webhook that is not a web address, before anything is printed or posted."""
    if not url.startswith(("https://", "http://")):
        raise UsageError(f"--webhook {url!r} is not a web address; copy the webhook URL from the Discord "
                         "channel's settings (Integrations > Webhooks)")


def post_webhook(url: str, messages: Sequence[str], attachments: Sequence[Attachment] = (), *,
                 session: requests.Session | None = None, attempts: int = 5,
                 sleep: Callable[[float], None] = time.sleep, timeout: float = 30.0) -> int:
    """Post `messages` in order (attachments go with the last one). Returns the number posted.

    Retries 429 (waiting Discord's ``retry_after``) and 5xx with backoff and jitter;
    anything else is one clear error naming the status.
    """
    import requests   # here: printing a round's messages needs neither (issue 31)
    from tenacity import Retrying, retry_if_exception, stop_after_attempt, wait_exponential_jitter
    check_webhook(url)
    http = session or requests.Session()
    posted = 0
    for i, msg in enumerate(messages):
        last = i == len(messages) - 1
        payload = {"content": msg, "allowed_mentions": {"parse": []}}

        def send() -> requests.Response:
            if last and attachments:
                files = {f"files[{n}]": (a.name, a.data, a.mime) for n, a in enumerate(attachments)}
                resp = http.post(url, data={"payload_json": json.dumps(payload)}, files=files, timeout=timeout)
            else:
                resp = http.post(url, json=payload, timeout=timeout)
            if resp.status_code == 429:
                try:
                    wait = float(resp.json().get("retry_after", 1.0))
                except ValueError:
                    wait = 1.0
                raise _Retry(wait, "429 rate limited")
            if resp.status_code >= 500:
                raise _Retry(0.0, f"{resp.status_code} server error")
            return resp

        backoff = wait_exponential_jitter(multiplier=0.5, max=30, jitter=0.5)

        def wait(state) -> float:
            exc = state.outcome.exception() if state.outcome else None
            return max(backoff(state), getattr(exc, "wait", 0.0))

        try:
            resp = Retrying(stop=stop_after_attempt(attempts), wait=wait, sleep=sleep, reraise=True,
                            retry=retry_if_exception(lambda e: isinstance(e, (_Retry, requests.ConnectionError,
                                                                               requests.Timeout))))(send)
        except _Retry as e:
            raise BackendError(f"Discord kept refusing message {i + 1} of {len(messages)} ({e}); {posted} were "
                               "posted; run the command again later") from None
        except requests.RequestException as e:
            raise BackendError(f"cannot reach Discord (no network?): {type(e).__name__}; {posted} of "
                               f"{len(messages)} message(s) were posted") from None
        if not resp.ok:
            raise BackendError(f"Discord answered {resp.status_code} to message {i + 1} of {len(messages)}: "
                               f"{resp.text[:200]}; check the webhook URL ({posted} were posted)")
        posted += 1
    return posted


def write_messages(folder: Path, name: str, messages: Sequence[str]) -> Path:
    """Keep what was announced beside the game (announcements/round-3-public.md)."""
    path = folder / "announcements" / f"{name}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n\n---\n\n".join(messages) + "\n", encoding="utf-8")
    return path
