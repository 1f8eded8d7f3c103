"""The round's results as data: every fact class (each with its audience; reports and pictures
are drawn from them), which of them Round 4 hides until the end, the host's decision keys, and the
ledger reasons and match endings this game records.

Every report and picture is drawn from these facts (render.py). `round` is the round a fact is
about: the last round re-states Round 4's hidden facts for the end-of-game reveal (R52, A35).
Colours are "red", "blue" and "gray"; a grid is 8 strings of R, B and "." (gray), row 1 first.
The classes keep the order they were defined in (records tag them `flickering_lights.<Name>`;
the simulate verdict lists them in this order).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any

from ...core.facts import Fact, fact
from ...core.types import Problem

@fact
@dataclass(frozen=True)
class SpaceRaise:
    """A space a player raised, and by how much: +4 (a Sniper's first), +2 (a first space), +1."""
    square: str
    amount: int


@fact
@dataclass(frozen=True)
class FogReplacement:
    """Round 4: an entry of the wrong colour and the square drawn in its slot (A23); `placed` is ""
    when no square qualified and the entry was dropped."""
    field: str      # spaces, block, flip, red_space or blue_space
    typed: str
    placed: str
    needed: str     # the colour the field needs: red or blue


@fact
@dataclass(frozen=True)
class SeenTile:
    """A square and its colour as someone saw it (Round 4 knowledge)."""
    square: str
    colour: str


@fact
@dataclass(frozen=True)
class TeamRole(Fact):
    """A player's team (Red, Blue, White) and role this round (R3, R5): theirs alone until the end."""
    round: int
    player: str
    team: str
    role: str


@fact
@dataclass(frozen=True)
class CoordinatorList(Fact):
    """The unlabelled names a Coordinator learnt when the round opened (R23, R29, A19)."""
    round: int
    player: str
    names: tuple[str, ...]


@fact
@dataclass(frozen=True)
class RolesInPlay(Fact):
    """The three roles both teams hold this round, told to the Mediator (R32)."""
    round: int
    roles: tuple[str, ...]


@fact
@dataclass(frozen=True)
class BoardItem(Fact):
    """An item announced with the round (A18): kind note, lock, bonus, value or manual."""
    round: int
    name: str
    kind: str
    squares: tuple[str, ...]
    amount: int
    text: str


@fact
@dataclass(frozen=True)
class FogCentre(Fact):
    """Round 4: the centre four, the only tiles everyone sees (R48)."""
    round: int
    tiles: tuple[SeenTile, ...]


@fact
@dataclass(frozen=True)
class FogTiles(Fact):
    """Round 4: the tiles a player learnt at the start, 10 for Red/Blue and 12 for White (R49, R50, A24)."""
    round: int
    player: str
    tiles: tuple[SeenTile, ...]


@fact
@dataclass(frozen=True)
class NoSpacesSubmitted(Fact):
    """The player submitted nothing: no spaces and no abilities (A32, case 12)."""
    round: int
    player: str


@fact
@dataclass(frozen=True)
class SpacesProblem(Fact):
    """Something wrong with a player's submission and the default applied (A33, A37)."""
    round: int
    player: str
    problem: Problem


@fact
@dataclass(frozen=True)
class FogReceived(Fact):
    """Round 4: the squares a player typed, all the round itself tells them (A23)."""
    round: int
    player: str
    squares: tuple[str, ...]


@fact
@dataclass(frozen=True)
class SpacesApplied(Fact):
    """A player's submission as the rules applied it: raised spaces in order (White: red, then blue),
    blocks, defends, the flip, and in Round 4 the replacements (A23, A33)."""
    round: int
    player: str
    submitted: bool
    spaces: tuple[SpaceRaise, ...] = ()
    blocks: tuple[str, ...] = ()
    defends: tuple[str, ...] = ()
    flip: str = ""
    replacements: tuple[FogReplacement, ...] = ()


@fact
@dataclass(frozen=True)
class MediatorPenalty(Fact):
    """The A32 penalty hook (option white_missing_penalty): points the White player lost for a field
    left out or unusable."""
    round: int
    player: str
    missing: tuple[str, ...]   # red_space and/or blue_space
    points: int


@fact
@dataclass(frozen=True)
class SpaceValue(Fact):
    """A space's value: `raised` (every increase, value items included), `reduced` (blocks and defends)
    and `value`, the X that recolours: max(0, raised - reduced) (R16, R28, R41, R42, A5, A6)."""
    round: int
    square: str
    raised: int
    reduced: int
    value: int


@fact
@dataclass(frozen=True)
class SaboteurFlip(Fact):
    """A Saboteur's flip (R30, R31): the colour before and after; a locked square keeps it (A18)."""
    round: int
    player: str
    square: str
    before: str
    after: str


@fact
@dataclass(frozen=True)
class BoardGrid(Fact):
    """The board at a stage of the round: "start", "after_flips" (before recolouring) or "final"."""
    round: int
    stage: str
    rows: tuple[str, ...]


@fact
@dataclass(frozen=True)
class ManualItemRuling(Fact):
    """An item the module cannot apply (A18, kind manual), as the host ruled it: the colour its squares
    end the round with ("" as resolved) and the tiles it adds per team. Until every ruling is entered,
    `pending` names the missing decisions and the defaults (as resolved, 0, 0) apply."""
    round: int
    name: str
    squares: tuple[str, ...]
    colour: str
    red_tiles: int
    blue_tiles: int
    pending: tuple[str, ...] = ()


@fact
@dataclass(frozen=True)
class ColourCounts(Fact):
    """Squares of each colour on the resulting grid (A35: anyone can count them on the public grid)."""
    round: int
    red: int
    blue: int
    gray: int


@fact
@dataclass(frozen=True)
class SideScore(Fact):
    """A side's score (R33, R34, R44-R46, R53, R54, A18, A21, A29): its tiles, the bonus tiles, the total
    compared for the +8 and the points each of its players scores."""
    round: int
    colour: str
    tiles: int
    item_tiles: int = 0         # bonus items (A18)
    host_tiles: int = 0         # manual items, as the host ruled
    largest_group: int = 0      # Round 3 (A21)
    connection_tiles: int = 0   # Round 3: +4 for the strictly largest group (R44-R46)
    lines: int = 0              # Round 5: three-in-a-rows (R53, A26)
    total: int = 0
    more: bool = False          # strictly more than the other side: +8 (R34, A29)
    points: int = 0


@fact
@dataclass(frozen=True)
class MediatorCheck(Fact):
    """The White player's points (R35, R36, A22, A27, A28): the tile difference, the winning colour
    ("" when the totals tie) and the points it gives, before any penalty."""
    round: int
    player: str
    difference: int
    winner: str
    points: int


@fact
@dataclass(frozen=True)
class PlayerPoints(Fact):
    """A player's points this round and their total so far, this round included (A36). Round 4's are
    the host's until the end of the game, when each player learns theirs (R52)."""
    round: int
    player: str
    points: int
    total: int


@fact
@dataclass(frozen=True)
class TeamsRevealed(Fact):
    """A player's team in every round, published at the end (R22); roles only with reveal_roles_at_end."""
    player: str
    teams: tuple[str, ...]
    roles: tuple[str, ...] = ()


@fact
@dataclass(frozen=True)
class FinalTotal(Fact):
    """The end of the match (A30): a player's five-round total and the rounds their side won."""
    player: str
    total: int
    rounds_won: int


# Facts a Round 4 player may not see until the end of the game (R52, A23, A35): re-stated then.
FOG_HIDDEN = (BoardGrid, ColourCounts, SideScore, MediatorCheck, MediatorPenalty, SpacesApplied,
              SpacesProblem, PlayerPoints, ManualItemRuling, SpaceValue, SaboteurFlip)
# The play nobody sees (section (c)); published at the end with the option reveal_play_at_end (A35).
PLAY = (SpaceValue, SaboteurFlip, SpacesApplied)


def is_play(f: Any) -> bool:
    """A fact of the play nobody sees until the end (A35): values, flips, submissions, the board after flips."""
    return isinstance(f, PLAY) or (isinstance(f, BoardGrid) and f.stage == "after_flips")


# Decisions (A18 manual items, A30 ties)
AS_RESOLVED = "as resolved"
SHARED = "shared"
WINNER_TIE, EC_TIE = "winner-tie", "ec-tie"


def item_keys(rd: int, name: str) -> tuple[str, str, str]:
    """The decision keys of a manual item: its squares' colour, Red's tiles, Blue's tiles."""
    return (f"r{rd}:item:{name}:squares", f"r{rd}:item:{name}:red-tiles", f"r{rd}:item:{name}:blue-tiles")


class LedgerReason(enum.StrEnum):
    """Why garnets move at the end (A31); `LedgerEntry.reason` holds the text (records unchanged)."""
    POINTS = "Flickering Lights: {total} points, 1 garnet per {per}"
    WINNER = "Flickering Lights: Main Match winner"
    ELIMINATION_CANDIDATE = "Flickering Lights: Elimination Candidate"

    def text(self, **values: Any) -> str:
        """The reason as booked: POINTS.text(total=27, per=10)."""
        return self.value.format(**values)


class Ending(enum.StrEnum):
    """How the match ended (A30), as `Outcome.ending` holds it (its `.value`)."""
    SINGLE_WINNER = "single_winner"
    SHARED_WIN = "shared_win"
    TIE_DECIDED = "tie_decided"
    TIE_PENDING = "tie_pending"
