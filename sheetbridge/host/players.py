"""The players a host names for a new game: their names, emails and opening garnets."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..core.errors import UsageError


@dataclass(frozen=True)
class PlayerInfo:
    name: str
    email: str = ""
    garnets: int = 0


def parse_players(text: str, default_garnets: int = 0) -> list[PlayerInfo]:
    """'Ann, Bo <bo@x.org>, Cy:cy@x.org' -> players with optional emails."""
    if default_garnets < 0:
        raise UsageError(f"--garnets {default_garnets}: opening garnets cannot be negative; give 0 or more")
    out = []
    for part in [p.strip() for p in re.split(r"[,;\n]", text) if p.strip()]:
        m = re.fullmatch(r"(.+?)\s*<\s*([^>]+)\s*>", part) or re.fullmatch(r"([^:]+?)\s*:\s*(\S+@\S+)", part)
        name, email = (m.group(1).strip(), m.group(2).strip()) if m else (part, "")
        if email and "@" not in email:
            raise UsageError(f"player {name!r}: {email!r} is not an email address")
        out.append(PlayerInfo(name, email, default_garnets))
    if not out:
        raise UsageError("no players given; use --players \"Ann,Bo,Cy\"")
    return out

