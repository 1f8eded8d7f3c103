"""A game opened at a described round (`from_position`): every earlier round's teams, start grid
and resulting grid, optionally the points, each checked as the rules would have it.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...core.errors import ConfigError, PositionError
from ...core.parsing import clean, parse_int
from ...core.rng import Rng
from ...core.types import Tables, to_json
from .board import BLUE, GRID_CELL, RED, SIZE, Grid, allowed_transforms, grid_problem, grid_rows, symmetries
from .content import TEAM_ROLES, Role, Team, Variation, assignment_problem, items_symmetric, read_items
from .facts import BoardGrid, TeamRole
from .opening import blank_state, open_round
from .options import options_of
from .rules import score_facts, score_round
from .spec import DEFAULT_OPTIONS, ROUNDS  # noqa: F401 (DEFAULT_OPTIONS: the doctest)
from .state import FlickeringState, Item, Seat

POSITION_KEYS = ("round", "teams", "grids", "results", "points")


def _by_round(value: Any, what: str, r: int, last: int) -> dict[int, Any]:
    """A position table keyed by round ("1" or 1), each round at most `last`."""
    if not isinstance(value, Mapping):
        raise PositionError(f"{what}: give a table by round, e.g. {{\"1\": ...}}")
    out: dict[int, Any] = {}
    for k, v in value.items():
        rd = parse_int(k)
        if rd is None or not 1 <= rd <= ROUNDS:
            raise PositionError(f"{what}: {k!r} is not a round from 1 to {ROUNDS}")
        if rd > last:
            raise PositionError(f"{what}: round {rd} is not played yet in a position that opens round {r}")
        out[rd] = v
    return out


def _position_assign(rd: int, given: Any, players: Sequence[str]) -> dict[str, Seat]:
    """A round's teams and roles from {"Ann": "Red Sniper", ..., "Gus": "White"}, checked (R2, R4, A41)."""
    where = f"teams, round {rd}"
    if not isinstance(given, Mapping):
        raise PositionError(f"{where}: give each player's team and role, e.g. {{\"Ann\": \"Red Sniper\", \"Gus\": \"White\"}}")
    unknown = sorted(set(given) - set(players))
    if unknown:
        raise PositionError(f"{where}: {', '.join(map(str, unknown))} is not a player (players: {', '.join(players)})")
    missing = [p for p in players if p not in given]
    if missing:
        raise PositionError(f"{where}: {', '.join(missing)} has no team; give all 7 players")
    out: dict[str, tuple[str, str]] = {}
    for p in players:
        words = clean(given[p]).title().split()
        team = words[0] if words else ""
        role = "Mediator" if team == "White" else " ".join(words[1:])
        if team not in ("Red", "Blue", "White") or role not in [r.value for r in Role]:
            raise PositionError(f"{where}: {p} is {given[p]!r}; write a team and a role, e.g. \"Red Sniper\", "
                                "or \"White\" for the Mediator")
        out[p] = (team, role)
    problem = assignment_problem(rd, out)
    if problem:
        raise PositionError(f"{where}: {problem}")
    return {p: {"team": t, "role": r} for p, (t, r) in out.items()}


def _position_grid(rows: Any, where: str, allowed: Sequence[str] | None) -> Grid:
    """8 rows of 8 squares (R, B, or . / G / - for gray), row 1 first; a start grid is checked against
    the `allowed` symmetries (R7, R8, A17)."""
    shape = f"{where}: give 8 rows of 8 squares, R, B or . for gray, row 1 first"
    if not isinstance(rows, (list, tuple)) or len(rows) != SIZE or not all(isinstance(x, str) for x in rows):
        raise PositionError(shape)
    g: Grid = {}
    for r, row in enumerate(rows):
        cells = row.strip().upper().replace(" ", "")
        if len(cells) != SIZE or any(ch not in GRID_CELL for ch in cells):
            raise PositionError(f"{shape}; row {r + 1} is {row!r}")
        for c, ch in enumerate(cells):
            g[(c, r)] = GRID_CELL[ch]
    if allowed is not None:
        problem = grid_problem(g, allowed, where)
        if problem:
            raise PositionError(problem.replace(". Fix the grid, or clear all its cells to have it generated from the seed", ""))
    return g


def from_position(players: Sequence[str], options: Mapping[str, Any], tables: Tables,
                  position: Mapping[str, Any], rng: Rng) -> FlickeringState:
    """The game opened at round `round`: every earlier round's `teams`, start grid (`grids`) and
    resulting grid (`results`), and optionally `points` (checked against the results); the open
    round's teams and grid may be given too, else they come from the tables or the seed.

    >>> rows = ["RR....BB"] + ["........"] * 7
    >>> t1 = {"Ann": "Red Coordinator", "Bo": "Red Sniper", "Cy": "Red Demolitionist", "Dee": "Blue Coordinator",
    ...       "Eli": "Blue Sniper", "Fay": "Blue Demolitionist", "Gus": "White"}
    >>> st = from_position(["Ann", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus"], DEFAULT_OPTIONS, {},
    ...                    {"round": 2, "teams": {"1": t1}, "grids": {"1": rows}, "results": {"1": rows}},
    ...                    Rng(1))
    >>> st["round"], st["totals"]["Ann"], st["totals"]["Gus"]
    (2, 2, 2)
    """
    try:
        st = blank_state(players, options)
    except ConfigError as e:
        raise PositionError(str(e)) from None
    extra = sorted(set(position) - set(POSITION_KEYS))
    if extra:
        raise PositionError(f"unknown position key(s) {', '.join(map(str, extra))}; a Flickering Lights position "
                            f"has {', '.join(POSITION_KEYS)}")
    r = position.get("round", 1)
    if not isinstance(r, int) or isinstance(r, bool) or not 1 <= r <= ROUNDS:
        raise PositionError(f"round {r!r}: a position opens a round from 1 to {ROUNDS}")
    teams = _by_round(position.get("teams", {}), "teams", r, r)
    grids = _by_round(position.get("grids", {}), "grids", r, r)
    results = _by_round(position.get("results", {}), "results", r, r - 1)
    points = position.get("points", {})
    if not isinstance(points, Mapping):
        raise PositionError("points: give each player's list of points per round played, e.g. {\"Ann\": [14, 6]}")
    unknown = sorted(set(points) - set(players))
    if unknown:
        raise PositionError(f"points: {', '.join(unknown)} is not a player (players: {', '.join(players)})")
    allowed = allowed_transforms(options_of(st))
    items_by, _ = read_items(tables)
    for rd in range(1, r):
        for what, table in (("teams", teams), ("grids", grids), ("results", results)):
            if rd not in table:
                raise PositionError(f"{what}: round {rd} is missing; a position at round {r} gives the {what} "
                                    "of every round before it")
        _played_round(st, rd, r, _position_assign(rd, teams[rd], players),
                      _position_grid(grids[rd], f"grids, round {rd}", allowed),
                      _position_grid(results[rd], f"results, round {rd}", None), points, items_by.get(rd, []))
    grid = _position_grid(grids[r], f"grids, round {r}", allowed) if r in grids else None
    assign = _position_assign(r, teams[r], players) if r in teams else None
    if grid is not None and not any(items_symmetric(items_by.get(r, []), n) for n in symmetries(grid, allowed)):
        raise PositionError(f"grids, round {r}: the round's items (Items tab) are not symmetric under the grid's "
                            "symmetry; move the items or give another grid")
    try:
        st["log"] = open_round(st, r, tables, rng.fork("open", r), grid=grid, assign=assign)
    except ConfigError as e:
        raise PositionError(str(e)) from None
    st["round"] = r
    return st


def _played_round(st: FlickeringState, rd: int, r: int, assign: dict[str, Seat], start: Grid, final: Grid,
                  points: Mapping[str, Any], items: Sequence[Item]) -> None:
    """Round `rd` of a position opening round `r`, scored from its resulting grid (the points given
    must agree, the A32 penalty allowed) and added to the totals and the history."""
    opts = options_of(st)
    players = st["players"]
    bonus = [it for it in items if it["kind"] == "bonus"]
    sc = score_round(Variation(rd), final, opts, bonus)
    pts = {p: sc["white"] if a["team"] == "White" else sc["points"][Team(a["team"]).color]
           for p, a in assign.items()}
    penalty = opts.white_missing_penalty
    for p in players:
        given = points.get(p)
        if given is None:
            continue
        if not isinstance(given, (list, tuple)) or len(given) != r - 1:
            raise PositionError(f"points: {p} needs one number per round played (rounds 1 to {r - 1})")
        got = given[rd - 1]
        ok = {pts[p]} | ({max(0, pts[p] - penalty)} if assign[p]["team"] == "White" else set())
        if got not in ok:
            team = assign[p]["team"]
            raise PositionError(f"points: {p} has {got!r} in round {rd}, but on that round's resulting grid "
                                f"a {team} player scores {pts[p]}")
        pts[p] = got
    for p in players:
        st["totals"][p] += pts[p]
    st["used_grids"].append(grid_rows(start))
    st["history"].append({"round": rd, "grid_start": grid_rows(start), "grid_end": grid_rows(final),
                          "assign": assign, "roles": [x.value for x in TEAM_ROLES
                                                      if any(a["role"] == x.value for a in assign.values())],
                          "points": pts, "score": {"tiles": [sc["tiles"][RED], sc["tiles"][BLUE]],
                                                   "total": [sc["total"][RED], sc["total"][BLUE]]},
                          "end_facts": []})
    if rd == Variation.FOG.value:   # what the end of the game reveals of a Round 4 given by the position
        white = next(p for p in players if assign[p]["team"] == "White")
        later: list[Any] = [BoardGrid(rd, "start", tuple(grid_rows(start))),
                            BoardGrid(rd, "final", tuple(grid_rows(final)))]
        later += [TeamRole(rd, p, assign[p]["team"], assign[p]["role"], audience=(p,)) for p in players]
        later += score_facts(st, rd, final, sc, pts, white)
        st["history"][-1]["end_facts"] = to_json(later)
