"""A deadline belongs to a round: which moment locks the open round, and `sheetbridge extend`.

The Config tab's deadline is what the host typed: "2026-11-24 15:00" (one moment, UTC) or "15:00" /
"3pm" (every day). The record adds, per round, what the host did since (see `RoundDeadlines`):

- an extension (`sheetbridge extend DIR 2h`, or an absolute time) replaces the Config tab's deadline
  for that round only;
- a deadline the host reopened the round past is spent for that round: it never locks it again;
- a one-time deadline earlier than the round's opening belongs to an earlier round: it is warned
  about, never applied (it would lock a round the moment it opens).

Every function here takes "now" as an argument: the clock is read in clock.py alone.
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from ..core.errors import ConfigError, UsageError

UTC = dt.timezone.utc


@dataclass
class RoundDeadlines:
    """The record's per-round deadline bookkeeping (round number as text -> ISO UTC moment)."""
    extended: dict[str, str] = field(default_factory=dict)   # the round's own deadline (`extend`)
    spent: dict[str, str] = field(default_factory=dict)      # the moment a `reopen` went past

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> "RoundDeadlines":
        got = record.get("round_deadlines") or {}
        return cls(dict(got.get("extended") or {}), dict(got.get("spent") or {}))

    def to_record(self) -> dict[str, Any]:
        """Empty when nothing was extended or spent, so an older game's record keeps its bytes."""
        out = {k: v for k, v in (("extended", self.extended), ("spent", self.spent)) if v}
        return {"round_deadlines": out} if out else {}


@dataclass(frozen=True)
class Due:
    """The open round's deadline judged at one moment."""
    at: dt.datetime | None      # the moment that locks the round (None: no deadline applies)
    due: bool                   # that moment has passed
    source: str                 # "config", "daily" or "extended"
    ignored: str = ""           # why the Config tab's deadline does not apply to this round (a warning)


def parse_time(text: str) -> dt.datetime:
    """An ISO-like UTC time ("2026-11-24 15:00", "2026-11-24T15:00Z", "... UTC"); ValueError if not."""
    clean = text.strip().upper().replace("UTC", "").strip().replace(" ", "T")
    at = dt.datetime.fromisoformat(clean.replace("Z", "+00:00"))
    return at.astimezone(UTC) if at.tzinfo else at.replace(tzinfo=UTC)


def daily_time(text: str) -> tuple[int, int] | None:
    """"15:00", "3pm", "3:30 PM" -> (hour, minute); None if the text is not a time of day."""
    m = re.fullmatch(r"(\d{1,2})(?::(\d{2}))?\s*(AM|PM)?", text.strip().upper().replace("UTC", "").strip())
    if not m:
        return None
    hour, minute = int(m.group(1)), int(m.group(2) or 0)
    if m.group(3):
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if m.group(3) == "PM" else 0)
    return (hour, minute) if hour < 24 and minute < 60 else None


def iso(at: dt.datetime) -> str:
    return at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def shown(at: dt.datetime) -> str:
    """A moment as the host reads it: "2026-11-24 15:00 UTC"."""
    return at.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def discord(at: dt.datetime) -> str:
    """The moment as Discord timestamps: each reader sees it in their own time zone, and how far off it is."""
    unix = int(at.timestamp())
    return f"<t:{unix}:F> (<t:{unix}:R>)"


def judge(config_text: str, round_no: int, opened_text: str | None, rounds: RoundDeadlines, now: dt.datetime,
          where: str = "the Config tab") -> Due:
    """Which moment locks round `round_no` (open since `opened_text`, ISO UTC or None) and whether it is due."""
    key = str(round_no)
    opened = parse_time(opened_text) if opened_text else None
    if key in rounds.extended:
        at, source, ignored = parse_time(rounds.extended[key]), "extended", ""
    elif not config_text.strip():
        return Due(None, False, "config")
    else:
        at, source = _config_moment(config_text, opened, now, where)
        ignored = ""
        if source == "config" and opened is not None and at < opened:
            # A deadline left over from an earlier round: locking now would close the round as it opens.
            ignored = (f"the Config tab's deadline {shown(at)} is earlier than round {round_no}'s opening "
                       f"({shown(opened)}), so it does not lock this round: type this round's deadline in the "
                       "Config tab, or run `sheetbridge extend GAME_FOLDER 24h`")
            at = None
    if at is not None and rounds.spent.get(key) == iso(at):
        return Due(at, False, source, f"round {round_no} was reopened after its deadline {shown(at)}: that deadline "
                                      "no longer locks it (`sheetbridge extend` sets a new one)")
    return Due(at, at is not None and now >= at, source, ignored)


def _config_moment(text: str, opened: dt.datetime | None, now: dt.datetime,
                   where: str) -> tuple[dt.datetime, str]:
    """The Config tab's deadline as the moment that applies now: one moment, or the last daily one passed
    since the round opened (else the next one)."""
    try:
        return parse_time(text), "config"
    except ValueError:
        pass
    daily = daily_time(text)
    if daily is None:
        raise ConfigError(f"{where}: deadline {text!r} is not a time: write '2026-11-24 15:00' (once) or "
                          "'15:00' / '3pm' (every day), in UTC")
    today = now.replace(hour=daily[0], minute=daily[1], second=0, microsecond=0)
    last = today if now >= today else today - dt.timedelta(days=1)
    if opened is None or opened < last:
        return last, "daily"
    return last + dt.timedelta(days=1), "daily"


_SPAN = re.compile(r"\+?\s*(?:(\d+)\s*d)?\s*(?:(\d+)\s*h)?\s*(?:(\d+)\s*m(?:in)?)?", re.IGNORECASE)


def new_deadline(text: str, current: dt.datetime | None, now: dt.datetime) -> dt.datetime:
    """`extend`'s argument as the round's new deadline: a grace period ("2h", "1d", "90m", "1h30m") added to
    the round's current deadline (or to now when it has none), or a UTC time. Never a moment already past."""
    span = _SPAN.fullmatch(text.strip())
    if span and any(span.groups()):
        days, hours, minutes = (int(g or 0) for g in span.groups())
        at = (current or now) + dt.timedelta(days=days, hours=hours, minutes=minutes)
    else:
        try:
            at = parse_time(text)
        except ValueError:
            raise UsageError(f"extend: {text[:40]!r} is neither a grace period (2h, 90m, 1d, 1h30m) nor a UTC time "
                             "(2026-11-24 17:00)") from None
    if at <= now:
        raise UsageError(f"extend: {shown(at)} has already passed (it is {shown(now)}): give a later time, "
                         "or a longer grace period")
    return at
