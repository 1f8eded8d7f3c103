"""A new game and the opening of each round, in the rulebook's order: the round's items (A18), its
grid (R7, R8, A16, A17), the teams and roles (R2, R4, R6, A20, A41), the Coordinators' lists (R23,
R29, A19) and, in Round 4, each player's known tiles (R48-R50, A24).

A host grid or assignment that does not fit is a ConfigError, never silently replaced (the tables
are checked at every load, so this only guards against a bypass).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...core.errors import ConfigError
from ...core.rng import Rng
from ...core.types import Tables
from .board import (ALL_SQUARES, CENTER, COLOR_NAME, TRANSFORM_TEXT, Grid, Square, allowed_transforms, capacity,
                    generate_grid, grid_problem, grid_rows, parse_grid, parse_square, sq_name, symmetries)
from .content import (TEAM_ROLES, Role, Team, Variation, items_symmetric, read_assignments, read_grids,
                      read_items, role_pool)
from .facts import FogCentre, FogTiles, SeenTile
from .options import Options, options_of
from .spec import DEFAULT_OPTIONS
from .state import FlickeringState, Item, OpenRound, Seat


def blank_state(players: Sequence[str], options: Mapping[str, Any]) -> FlickeringState:
    """Round 1 before it opens: the options with their defaults, every total 0 (A41 pools checked)."""
    opts = dict(DEFAULT_OPTIONS)
    opts.update(options)
    typed = Options.of(opts)
    for rd in (2, 4):
        role_pool(rd, typed)  # raises ConfigError on a bad pool
    return {"round": 1, "finished": False, "players": list(players), "options": opts,
            "totals": {p: 0 for p in players}, "history": [], "used_grids": [], "log": []}


def setup(players: Sequence[str], options: Mapping[str, Any], tables: Tables, rng: Rng) -> FlickeringState:
    """A new game with Round 1 open; fixed assignments must name this game's players (A20)."""
    st = blank_state(players, options)
    fixed, _ = read_assignments(tables)
    for rd, a in sorted(fixed.items()):
        if sorted(a) != sorted(players):
            raise ConfigError(f"Assignments, round {rd}: the players named ({', '.join(sorted(a))}) are not "
                              f"this game's players ({', '.join(sorted(players))})")
    st["log"] = open_round(st, 1, tables, rng.fork("open", 1))
    return st


def open_round(st: FlickeringState, rd: int, tables: Tables, rng: Rng, grid: Grid | None = None,
               assign: dict[str, Seat] | None = None) -> list[str]:
    """Open round `rd` in `st` ("current") and return its host log. `grid` and `assign` come from a
    position; otherwise the tables, else the seed."""
    opts = options_of(st)
    log: list[str] = []
    items = round_items(tables, rd)
    grid, transform = round_grid(st, rd, tables, rng, opts, items, grid, log)
    st["used_grids"].append(grid_rows(grid))
    assign, roles = teams_and_roles(st, rd, tables, rng, assign, log)
    lists = coordinator_lists(assign, rng, opts)
    fog = fog_tiles(rd, assign, rng, opts, log)
    st["current"] = {"grid": grid_rows(grid), "transform": transform, "assign": assign, "roles": roles,
                     "lists": lists, "fog": fog, "items": items}
    return log


def round_items(tables: Tables, rd: int) -> list[Item]:
    """The round's items from the Items table (A18)."""
    items_by, iprobs = read_items(tables)
    if iprobs:
        raise ConfigError("; ".join(iprobs))
    return items_by.get(rd, [])


def round_grid(st: FlickeringState, rd: int, tables: Tables, rng: Rng, opts: Options, items: Sequence[Item],
               grid: Grid | None, log: list[str]) -> tuple[Grid, str]:
    """The round's grid and its symmetry: the position's, the host's, else generated (R7, R8, A16-A18)."""
    allowed = allowed_transforms(opts)
    if grid is None:
        host, gprobs = read_grids(tables, allowed)
        if gprobs:
            raise ConfigError("; ".join(gprobs))
        grid = host.get(rd)
        source = "entered by the host"
    else:
        source = "given by the position"
    if grid is None:
        return generated_grid(st, rd, rng, opts, items, allowed, log)
    ok = [n for n in symmetries(grid, allowed) if items_symmetric(items, n)]
    if not ok:
        raise ConfigError(grid_problem(grid, allowed, f"Grids, round {rd}")
                          or f"Items, round {rd}: the items are not symmetric under the grid's symmetry (A18)")
    transform = ok[0]
    log.append(f"Round {rd} grid: {source} (symmetric under {TRANSFORM_TEXT[transform]})")
    if grid_rows(grid) in st["used_grids"]:
        log.append(f"Warning: the round {rd} grid is the same as an earlier round's (R7 wants a "
                   "different grid each round)")
    return grid, transform


def generated_grid(st: FlickeringState, rd: int, rng: Rng, opts: Options, items: Sequence[Item],
                   allowed: Sequence[str], log: list[str]) -> tuple[Grid, str]:
    """A seeded grid under a symmetry the items allow, unlike the earlier rounds' where it can be (R7, A16)."""
    cands = [n for n in allowed if items_symmetric(items, n)]
    if not cands:
        raise ConfigError(f"Items, round {rd}: the items are not symmetric under any allowed mirror or "
                          "rotation (A18); place each item's squares on images of each other")
    want = opts.grid_symmetry
    grng = rng.fork("grid")
    transform = want if want in cands else grng.choice(cands)
    count = opts.grid_red_count
    if not 1 <= count <= capacity(transform):
        log.append(f"grid_red_count {count} is outside 1-{capacity(transform)} for "
                   f"{TRANSFORM_TEXT[transform]}; clamped")
    count = max(1, min(count, capacity(transform)))
    for _ in range(50):
        grid = generate_grid(grng, transform, count)
        if grid_rows(grid) not in st["used_grids"]:
            break
    log.append(f"Round {rd} grid: generated from the seed, {count} red and {count} blue squares, "
               f"symmetric under {TRANSFORM_TEXT[transform]}")
    return grid, transform


def teams_and_roles(st: FlickeringState, rd: int, tables: Tables, rng: Rng, assign: dict[str, Seat] | None,
                    log: list[str]) -> tuple[dict[str, Seat], list[str]]:
    """Each player's team and role and the three roles in play: the position's, the host's, else drawn
    (R2, R4, R6, A20, A41)."""
    players = list(st["players"])
    roles: list[str] = []
    if assign is None:
        fixed, aprobs = read_assignments(tables)
        if aprobs:
            raise ConfigError("; ".join(aprobs))
        chosen = fixed.get(rd)
        if chosen is not None:
            if sorted(chosen) != sorted(players):
                raise ConfigError(f"Assignments, round {rd}: the players named ({', '.join(sorted(chosen))}) "
                                  f"are not this game's players ({', '.join(sorted(players))})")
            assign = {p: {"team": t, "role": r} for p, (t, r) in chosen.items()}
            log.append(f"Round {rd} teams and roles: entered by the host")
    else:
        log.append(f"Round {rd} teams and roles: given by the position")
    if assign is not None:
        roles = [r.value for r in TEAM_ROLES if any(a["role"] == r.value for a in assign.values())]
    else:
        assign = {}
        trng = rng.fork("teams")
        order = trng.shuffled(sorted(players))
        pool = role_pool(rd, options_of(st))
        drawn = sorted(trng.sample(pool, 3), key=TEAM_ROLES.index)
        roles = [r.value for r in drawn]
        for team, members in ((Team.RED, order[0:3]), (Team.BLUE, order[3:6])):
            for p, role in zip(members, trng.shuffled(roles)):
                assign[p] = {"team": team.value, "role": role}
        assign[order[6]] = {"team": Team.WHITE.value, "role": Role.MEDIATOR.value}
        log.append(f"Round {rd} teams drawn: Red {', '.join(sorted(order[0:3]))}; Blue "
                   f"{', '.join(sorted(order[3:6]))}; White {order[6]}; roles in play {', '.join(roles)}")
    for p in sorted(assign):
        log.append(f"  {p}: {assign[p]['team']} {assign[p]['role']}")
    return assign, roles


def coordinator_lists(assign: Mapping[str, Seat], rng: Rng, opts: Options) -> dict[str, list[str]]:
    """Each Coordinator's unlabelled list: their two teammates and the other team's Saboteur (R23, R29, A19)."""
    lists: dict[str, list[str]] = {}
    crng = rng.fork("lists")
    for p in sorted(assign):
        if assign[p]["role"] != Role.COORDINATOR.value:
            continue
        team = assign[p]["team"]
        names = [q for q in assign if q != p and assign[q]["team"] == team]
        names += [q for q in assign if assign[q]["team"] not in (team, "White")
                  and assign[q]["role"] == Role.SABOTEUR.value]
        names = sorted(names)
        if opts.coordinator_list == "shuffled":
            names = crng.shuffled(names)
        lists[p] = names
    return lists


def fog_tiles(rd: int, assign: Mapping[str, Seat], rng: Rng, opts: Options, log: list[str]) -> dict[str, list[str]]:
    """Round 4: ten known tiles per Red/Blue player, split or drawn independently, and the White
    player's twelve, two shared with each (R48-R50, A24)."""
    fog: dict[str, list[str]] = {}
    if rd != Variation.FOG.value:
        return fog
    frng = rng.fork("fog")
    outer = [s for s in ALL_SQUARES if s not in CENTER]
    rb = sorted(p for p in assign if assign[p]["team"] != "White")
    white = [p for p in assign if assign[p]["team"] == "White"][0]
    sets: dict[str, list[Square]] = {}
    if opts.fog_overlap:
        for p in rb:
            sets[p] = frng.sample(outer, 10)
    else:
        shuffled = frng.shuffled(outer)
        for i, p in enumerate(rb):
            sets[p] = shuffled[10 * i:10 * i + 10]
    wset: list[Square] = []
    for p in rb:
        wset += frng.sample([s for s in sets[p] if s not in wset], 2)
    sets[white] = wset
    for p in sorted(sets):
        fog[p] = sorted(sq_name(s) for s in sets[p])
        log.append(f"  fog tiles of {p}: {' '.join(fog[p])}")
    return fog


def fog_knowledge(rd: int, cur: OpenRound) -> tuple[FogCentre, dict[str, FogTiles]]:
    """Round 4 at its start: the public centre four and each player's known tiles (R48-R50, A24)."""
    g = parse_grid(cur["grid"])
    centre = FogCentre(rd, tuple(SeenTile(sq_name(s), COLOR_NAME[g[s]]) for s in sorted(CENTER)))
    known = {p: FogTiles(rd, p, tuple(SeenTile(t, COLOR_NAME[g[parse_square(t)]]) for t in sorted(tiles)), audience=(p,))
             for p, tiles in sorted(cur["fog"].items())}
    return centre, known
