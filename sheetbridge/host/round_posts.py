"""The posts around a round (issue 27, point 3): the round-open post and the deadline reminder,
read from the game and, with a webhook, posted to Discord.

A reminder says the deadline (as Discord timestamps) and who has not submitted, nothing else:
never what anyone typed. `sheetbridge watch` posts one at each time the Config tab's
"reminders" row names ("24h, 1h" before the deadline), once each: the reminder's key (round,
time before, deadline) goes into the master's record, under the game's lock, in the same way a
menu request's id does (see control_writes.py), so a restarted watcher never posts it twice and
a deadline moved later gets its reminders again.
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Sequence

from .announce import Attachment, _escape, markdown, post_webhook, split_messages
from ..core.errors import ConfigError, UsageError
from .deadlines import discord as discord_time
from .opening import opening
from ..sheets.store import Store, player_key
from . import clock
from .books import read_books
from .lock import deadline_state
from .session import Loaded, is_locked, load
from .transaction import commit

_OFFSET = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(d|h|m|min|days?|hours?|minutes?)\s*$", re.IGNORECASE)


@dataclass
class Post:
    """Discord messages in order, and the pictures that go with the last one (file name -> PNG)."""
    round: int
    messages: list[str]
    pictures: dict[str, bytes] = field(default_factory=dict)

    def attachments(self) -> list[Attachment]:
        return [Attachment(name, data) for name, data in self.pictures.items()]


def deadline_of(ld: Loaded, now: str) -> dt.datetime | None:
    """The moment that locks the open round, as the lock judges it (an `extend` included; a deadline
    left over from an earlier round is none); None without one."""
    state = deadline_state(ld, now)
    return state.at if state is not None else None


def opening_post(store: Store, now: str | None = None) -> Post:
    """The open round's post: what to do, the board and its picture, the deadline."""
    from .pictures import render_png
    from .tabs import board_picture
    ld = load(store)
    m = ld.match
    last = board_picture(m, m.rounds[-1].round) if m.rounds else None
    op = opening(m, deadline_of(ld, now or clock.utc_now()), last)
    pictures = {op.picture_name: render_png(op.picture)} if op.picture is not None else {}
    return Post(op.round, split_messages(markdown(op.report)), pictures)


def not_submitted(ld: Loaded) -> list[str]:
    """Players with no entry for the open round (a file that cannot be read counts as no entry)."""
    books = read_books(ld, board=False)
    out = []
    for p in ld.match.players:
        st = books[player_key(p)]
        if st.error or st.stale or ld.match.parse(p, st.raw) is None:
            out.append(p)
    return out


def reminder_text(label: str, deadline: dt.datetime, missing: Sequence[str]) -> str:
    who = (f"Not submitted yet: {', '.join(_escape(p) for p in missing)}." if missing
           else "Everyone has submitted; you can still change your entries until then.")
    return f"**Reminder: {_escape(label)}** closes {discord_time(deadline)}.\n{who}"


def reminder(store: Store, now: str | None = None) -> Post:
    """`sheetbridge remind`: the deadline and who has not submitted."""
    with store.lock("remind"):
        ld = load(store)
        return _reminder_held(ld, now or clock.utc_now())


def _reminder_held(ld: Loaded, now: str) -> Post:
    m = ld.match
    if m.finished:
        raise UsageError(f"{m.game.spec.name} is over: nobody to remind")
    if is_locked(ld):
        raise UsageError(f"round {m.round} is locked (since {ld.locked['at']}): submissions are closed; "
                         "`sheetbridge reopen` opens them again")
    deadline = deadline_of(ld, now)
    if deadline is None:
        raise UsageError("no deadline is set: type one in the deadline row of the master's Config tab "
                         "('2026-11-24 15:00' once, or '15:00' every day, UTC), then remind again")
    label = m.form(m.players[0]).round_label
    return Post(m.round, [reminder_text(label, deadline, not_submitted(ld))])


def reminder_offsets(text: str) -> list[dt.timedelta]:
    """The Config tab's reminder times ("24h, 1h", "2d", "30m"), latest-before-the-deadline last."""
    out = []
    for part in filter(None, (p.strip() for p in re.split(r"[,;]", text or ""))):
        m = _OFFSET.match(part)
        if m is None:
            raise ConfigError(f"Config tab: reminder time {part[:20]!r} is not a time before the deadline: write "
                              "e.g. '24h, 1h' (d = days, h = hours, m = minutes)")
        unit = m.group(2).lower()[0]
        out.append(dt.timedelta(**{{"d": "days", "h": "hours", "m": "minutes"}[unit]: float(m.group(1))}))
    return sorted(set(out), reverse=True)


def due_reminders(ld: Loaded, now: str) -> list[str]:
    """The keys of reminders due now and not posted yet (their time passed, the deadline not)."""
    m = ld.match
    if not ld.reminders or m.finished or is_locked(ld):
        return []
    try:
        offsets = reminder_offsets(ld.reminders)
    except ConfigError as e:
        raise ConfigError(f"{ld.master.location}, {e}") from None
    deadline = deadline_of(ld, now)
    at = dt.datetime.fromisoformat(now.replace("Z", "+00:00"))
    if deadline is None or at >= deadline:
        return []
    keys = [f"reminder:round-{m.round}:{_span(o)}:{int(deadline.timestamp())}" for o in offsets if at >= deadline - o]
    return [k for k in keys if k not in ld.handled]


def _span(offset: dt.timedelta) -> str:
    minutes = int(offset.total_seconds() // 60)
    return f"{minutes // 60}h" if minutes % 60 == 0 else f"{minutes}m"


def post_due_reminder(store: Store, now: str, webhook: str | None) -> str | None:
    """watch: post the reminder due now, if any, once; every reminder time already passed is marked done
    with it (a round opened 2 hours before its deadline gets one reminder, not a late "24h" one too).
    Returns what was done, or None when nothing was due."""
    with store.lock("watch: reminder"):
        ld = load(store)
        keys = due_reminders(ld, now)
        if not keys:
            return None
        url = webhook or ld.webhook
        post = _reminder_held(ld, now)
        if url:
            post_webhook(url, post.messages)
        ld.handled.extend(keys)      # after posting: a failed post is tried again at the next poll
        commit(ld)
        what = keys[-1].split(":")[2]
        return (f"reminder ({what} before the deadline) posted to Discord" if url else
                f"reminder ({what} before the deadline) due, but no webhook is set (watch --webhook or the "
                f"Config tab's webhook row); paste it: {post.messages[0]}")
