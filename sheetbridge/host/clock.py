"""The one place the host reads the clock (tests patch :func:`utc_now` here)."""
from __future__ import annotations


def utc_now() -> str:
    """Now, UTC, to the second."""
    import datetime as dt
    return dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
