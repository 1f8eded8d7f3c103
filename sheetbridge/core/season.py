"""A season: garnets carried from game to game (issue 28). Pure: no file, clock or network.

The season's ledger is a :class:`~sheetbridge.core.ledger.Ledger` named after the season,
append-only with balances derived, checked by :mod:`sheetbridge.core.integrity` exactly as a
game's is. It holds:

* the season's opening rows (``<season>:opening:<player>``);
* every row of each posted game's own ledger except that game's opening rows (those are the
  balances the season handed it), under the game's own key (``<game>:r3g0:1``), round and
  reason, so every garnet is traceable from the season book to the round that paid it;
* host rows typed without a key (``<season>:host:<n>``) and accepted corrections
  (``<season>:fix:<n>``).

Posting is keyed by the game's name (its id in its ledger keys) and the integrity check of the
game's ledger (column H of its Ledger tab): the season keeps how many rows it posted and the
check of the last one. Posting again with the same ledger changes nothing. A game's ledger is
append-only, so a game undone (or corrected) after it was posted is a longer ledger starting
with the rows posted: once it has ended again, the rows since are posted as correction rows,
never a row twice. A game whose posted rows changed (restored from an older backup, created
again under the same name) is refused.

>>> s = Season.new("s1", ["Ann", "Bo"], {"Ann": 10, "Bo": 10})
>>> rows = (LedgerRow("g", 0, "Ann", 10, "opening balance", "g:opening:Ann"),
...         LedgerRow("g", 0, "Bo", 10, "opening balance", "g:opening:Bo"),
...         LedgerRow("g", 1, "Ann", -3, "lost", "g:r1g0:0"), LedgerRow("g", 1, "Bo", 3, "won", "g:r1g0:1"))
>>> game = GameSummary("g", "three-modular-rooms", ("Ann", "Bo"), rows, True, 1, winners=("Bo",),
...                    elimination_candidate="Ann", tokens={"Bo": 2})
>>> [r.key for r in post(s, game).rows], s.ledger.balances(s.players)
(['g:r1g0:0', 'g:r1g0:1'], {'Ann': 7, 'Bo': 13})
>>> post(s, game).rows, post(s, game).message
([], 'g is already posted to s1; nothing changed')
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Mapping, Sequence

from .errors import UsageError
from .integrity import chain
from .ledger import Ledger, LedgerRow

SEASON_VERSION = 1
CORRECTION_MEMO = "posted as a correction: {game} changed after it was posted (undo or a corrected round)"


class SeasonError(UsageError):
    """A game the season cannot take as it is; the message says what to do."""


@dataclass(frozen=True)
class GameSummary:
    """What a game hands its season: its ledger and how it ended (built from a Match)."""
    name: str                                  # the game's id in its ledger keys
    game: str                                  # the rules module's id
    players: tuple[str, ...]
    rows: tuple[LedgerRow, ...]                # the game's whole ledger, in order
    finished: bool
    round: int                                 # the round open (or the last one, when finished)
    pending: tuple[str, ...] = ()              # decisions the outcome still waits for
    winners: tuple[str, ...] = ()
    losers: tuple[str, ...] = ()
    elimination_candidate: str | None = None
    tokens: Mapping[str, int] = field(default_factory=dict)       # Tokens of Life the rules awarded
    eliminated: tuple[str, ...] = ()           # players the rules eliminated (none of today's games does)


@dataclass
class PostedGame:
    """A game as the season holds it: where its posting stopped, and how it ended."""
    name: str
    game: str
    order: int
    players: list[str]
    rows: int                                  # rows of the game's ledger posted (openings included)
    check: str                                 # the integrity check of the last posted row
    openings: dict[str, int]
    winners: list[str] = field(default_factory=list)
    losers: list[str] = field(default_factory=list)
    elimination_candidate: str | None = None
    tokens: dict[str, int] = field(default_factory=dict)
    corrections: int = 0                       # how many times changes were posted after the first
    location: str = ""                         # where the game lives (a folder), for the host

    def to_json(self) -> dict:
        return asdict(self)


@dataclass
class PostResult:
    rows: list[LedgerRow]                      # season rows added by this posting
    message: str
    changed: bool = False


@dataclass
class Season:
    name: str
    players: list[str]
    ledger: Ledger
    emails: dict[str, str] = field(default_factory=dict)
    games: list[PostedGame] = field(default_factory=list)
    eliminated: dict[str, str] = field(default_factory=dict)   # player -> the game after which they left

    @classmethod
    def new(cls, name: str, players: Sequence[str], garnets: Mapping[str, int],
            emails: Mapping[str, str] | None = None) -> "Season":
        if len(set(p.casefold() for p in players)) != len(players):
            raise UsageError("a season's player names must be unique (ignoring case)")
        ledger = Ledger(name, [LedgerRow(name, 0, p, int(garnets.get(p, 0)), "season opening balance",
                                         f"{name}:opening:{p}") for p in players if int(garnets.get(p, 0))])
        return cls(name, list(players), ledger, dict(emails or {}))

    def still_in(self) -> list[str]:
        return [p for p in self.players if p not in self.eliminated]

    def game(self, name: str) -> PostedGame | None:
        return next((g for g in self.games if g.name == name), None)

    def tokens(self, player: str) -> int:
        return sum(g.tokens.get(player, 0) for g in self.games)

    def add_player(self, player: str, email: str = "", garnets: int = 0) -> None:
        """A player joining mid-season (a substitute taking a seat): the ledger is keyed by name, so a
        new name is a new line in the standings; `garnets` is booked as their opening row."""
        if any(p.casefold() == player.casefold() for p in self.players):
            raise UsageError(f"{player!r} is already a player of season {self.name}")
        self.players.append(player)
        if email:
            self.emails[player] = email
        if garnets:
            self.ledger.append([LedgerRow(self.name, 0, player, int(garnets), "season opening balance",
                                          f"{self.name}:opening:{player}")])

    def eliminate(self, player: str, after: str = "") -> None:
        """Mark `player` out of the season (after a Death Match the host ran); no garnets move."""
        if player not in self.players:
            raise UsageError(f"{player!r} is not a player of season {self.name}; players: {', '.join(self.players)}")
        self.eliminated[player] = after or (self.games[-1].name if self.games else "")

    def to_json(self) -> dict:
        return {"version": SEASON_VERSION, "name": self.name, "players": self.players, "emails": self.emails,
                "games": [g.to_json() for g in self.games], "eliminated": self.eliminated,
                "ledger": [r.as_list() for r in self.ledger.rows]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], rows: Sequence[LedgerRow] | None = None) -> "Season":
        if data.get("version") != SEASON_VERSION:
            raise UsageError(f"this season record has version {data.get('version')!r}; this sheetbridge reads "
                             f"version {SEASON_VERSION}")
        if rows is None:
            rows = [LedgerRow(*r) for r in data["ledger"]]
        return cls(data["name"], list(data["players"]), Ledger(data["name"], rows), dict(data.get("emails", {})),
                   [PostedGame(**g) for g in data.get("games", [])], dict(data.get("eliminated", {})))


# ------------------------------------------------------------ posting a game

def post(season: Season, game: GameSummary, location: str = "") -> PostResult:
    """Post `game` into `season` exactly once (see the module's docstring); raises SeasonError."""
    _check_players(season, game)
    posted = season.game(game.name)
    if not game.finished:
        if posted is not None:
            raise SeasonError(f"{game.name} was posted to season {season.name} and has been undone since (round "
                              f"{game.round} is open again); resolve it to its end and run `sheetbridge season add` "
                              "again: what changed is posted as correction rows, nothing twice")
        raise SeasonError(f"{game.name} has not ended (round {game.round} is open); run `sheetbridge season add` "
                          "when it has")
    if game.pending:
        raise SeasonError(f"{game.name} waits for the host's decision(s) {', '.join(game.pending)}; enter them with "
                          "`sheetbridge decide GAME_FOLDER` and run `sheetbridge season add` again")
    if posted is None:
        return _first_post(season, game, location)
    return _repost(season, game, posted)


def _check_players(season: Season, game: GameSummary) -> None:
    strangers = [p for p in game.players if p not in season.players]
    if strangers:
        raise SeasonError(f"{game.name} has player(s) who are not in season {season.name}: {', '.join(strangers)} "
                          f"(season players: {', '.join(season.players)})")
    if season.game(game.name) is None:
        gone = [f"{p} (eliminated after {season.eliminated[p] or 'an earlier game'})"
                for p in game.players if p in season.eliminated]
        if gone:
            raise SeasonError(f"{game.name} has player(s) already out of season {season.name}: {', '.join(gone)}")


def _openings(game: GameSummary) -> dict[str, int]:
    prefix = f"{game.name}:opening:"
    return {r.player: r.change for r in game.rows if r.key.startswith(prefix)}


def _first_post(season: Season, game: GameSummary, location: str) -> PostResult:
    openings = _openings(game)
    wrong = [f"{p} started with {openings.get(p, 0)}, the season gives {season.ledger.balance(p)}"
             for p in game.players if openings.get(p, 0) != season.ledger.balance(p)]
    if wrong:
        raise SeasonError(f"{game.name}'s opening balances are not the season's: {'; '.join(wrong)}. Create the game "
                          "with `sheetbridge new GAME --season SEASON_FOLDER` (it takes the season's balances), or "
                          "type a row without a key in either Ledger tab for garnets earned outside the games")
    rows = [r for r in game.rows if not r.key.startswith(f"{game.name}:opening:")]
    added = season.ledger.append(rows)
    checks = chain(game.rows)
    entry = PostedGame(game.name, game.game, len(season.games) + 1, list(game.players), len(game.rows),
                       checks[-1] if checks else "", openings, location=location)
    _set_outcome(entry, game)
    season.games.append(entry)
    _eliminate(season, game)
    return PostResult(added, f"posted {game.name} to {season.name}: {len(added)} ledger row(s)", True)


def _repost(season: Season, game: GameSummary, posted: PostedGame) -> PostResult:
    checks = chain(game.rows)
    if len(checks) < posted.rows or (posted.rows and checks[posted.rows - 1] != posted.check):
        raise SeasonError(f"{game.name}'s ledger is no longer the one posted to season {season.name}: its first "
                          f"{posted.rows} row(s) changed since (a master restored from an older copy, or a game "
                          "created again under the same name?). Put the game's master back as it was when posted; "
                          "the season keeps what it posted (a row without a key in the season's Ledger tab books "
                          "any difference by hand)")
    memo = CORRECTION_MEMO.format(game=game.name)
    later = [LedgerRow(r.game, r.round, r.player, r.change, r.reason, r.key, (r.memo + "; " if r.memo else "") + memo)
             for r in game.rows[posted.rows:] if not r.key.startswith(f"{game.name}:opening:")]
    added = season.ledger.append(later)
    before = (posted.winners, posted.losers, posted.elimination_candidate, posted.tokens)
    _set_outcome(posted, game)
    outcome_changed = before != (posted.winners, posted.losers, posted.elimination_candidate, posted.tokens)
    if not added and not outcome_changed:
        return PostResult([], f"{game.name} is already posted to {season.name}; nothing changed")
    posted.rows, posted.check = len(game.rows), checks[-1] if checks else ""
    posted.corrections += 1
    _eliminate(season, game)
    what = f"{len(added)} correction row(s)" + (" and its new outcome" if outcome_changed else "")
    return PostResult(added, f"{game.name} changed after it was posted to {season.name}: posted {what}", True)


def _set_outcome(entry: PostedGame, game: GameSummary) -> None:
    entry.winners, entry.losers = list(game.winners), list(game.losers)
    entry.elimination_candidate = game.elimination_candidate
    entry.tokens = {p: n for p, n in sorted(game.tokens.items()) if n}


def _eliminate(season: Season, game: GameSummary) -> None:
    for p in game.eliminated:
        season.eliminated.setdefault(p, game.name)


# ------------------------------------------------------------ what the season book shows

STANDINGS_COLUMNS = ("player", "status", "garnets", "tokens_of_life", "elimination_candidate_in", "games_played",
                     "wins")
GAMES_COLUMNS = ("order", "game", "rules", "players", "ledger_rows_posted", "check", "winners",
                 "elimination_candidate", "tokens_of_life", "corrections", "net_garnets", "location")


def standings(season: Season) -> list[dict[str, Any]]:
    """One row a player, in the season's order: balance derived from the ledger, tokens, ECs."""
    out = []
    for p in season.players:
        ecs = [g.name for g in season.games if g.elimination_candidate == p]
        status = f"eliminated after {season.eliminated[p]}" if p in season.eliminated else "in"
        out.append({"player": p, "status": status, "garnets": season.ledger.balance(p),
                    "tokens_of_life": season.tokens(p), "elimination_candidate_in": ", ".join(ecs),
                    "games_played": sum(p in g.players for g in season.games),
                    "wins": sum(p in g.winners for g in season.games)})
    return out


def games_table(season: Season) -> list[dict[str, Any]]:
    out = []
    for g in season.games:
        net = sum(r.change for r in season.ledger.rows if r.game == g.name)
        out.append({"order": g.order, "game": g.name, "rules": g.game, "players": ", ".join(g.players),
                    "ledger_rows_posted": g.rows, "check": g.check, "winners": ", ".join(g.winners),
                    "elimination_candidate": g.elimination_candidate or "",
                    "tokens_of_life": ", ".join(f"{p} {n}" for p, n in g.tokens.items()),
                    "corrections": g.corrections, "net_garnets": net, "location": g.location})
    return out
