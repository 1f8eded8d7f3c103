"""`undo --round N`: which round an undo undoes, so that running it again changes nothing.

An undo whose process died after its work was done (a closed laptop) is run again by the
host; a menu request can be sent twice. Without a round, each run undoes one more round.
With one, the first run undoes round N and every later run finds round N open again and
says so, changing nothing.

>>> from sheetbridge.api import new_match
>>> m = new_match("three-modular-rooms", ["Ann", "Bo", "Cy"], seed=7)
>>> _ = m.resolve({"Ann": {"play": [{"card": "3", "room": "Null"}]}})
>>> undo_target(m, 1) is None
True
>>> _ = m.undo()
>>> undo_target(m, 1)
'round 1 is already undone (it is open for submissions again); nothing changed'
"""
from __future__ import annotations

from ..core.errors import UsageError
from ..core.match import Match


def undo_target(match: Match, round_no: int | None) -> str | None:
    """None when the undo goes ahead (no round given, or `round_no` is the last resolved round);
    the message saying nothing changed when round `round_no` is already undone. Raises a one-line
    UsageError for any other round."""
    if round_no is None:
        return None
    last = match.rounds[-1].round if match.rounds else None
    if last == round_no:
        return None
    open_again = not match.finished and match.round == round_no and (last is None or last < round_no)
    if open_again and match.undos.get(str(round_no), 0) > 0:
        return f"round {round_no} is already undone (it is open for submissions again); nothing changed"
    if last is None:
        raise UsageError(f"round {round_no} cannot be undone: no round of {match.name} is resolved yet")
    if open_again:
        raise UsageError(f"round {round_no} has not been resolved (it is the open round); the last resolved "
                         f"round is {last}: `undo --round {last}` undoes it")
    raise UsageError(f"round {round_no} is not the last resolved round (round {last} is); undo undoes the last "
                     f"resolved round only: `undo --round {last}`")


def menu_round(match: Match, asked: int | None) -> int | None:
    """The round a menu's Undo request undoes. The menu sends the last resolved round; a menu
    installed before it did sent the round open when the host asked, which is read as the round
    resolved before it. (No request of today's menu looks like that: a round it names was resolved
    when asked, so if it is open now, it was undone since.)"""
    if asked is None or not match.rounds or match.finished:
        return asked
    if asked == match.round and match.rounds[-1].round < asked and not match.undos.get(str(asked)):
        return match.rounds[-1].round
    return asked
