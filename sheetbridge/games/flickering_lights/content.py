"""The game's content: its closed sets (teams, roles, the five variations) and the host-editable
tables read into typed data and checked: Grids (A16, A17), Items (A18) and Assignments (A20),
and the role pools of Rounds 2 and 4 (A41).
"""
from __future__ import annotations

import enum
import functools
from typing import Mapping, Sequence

from ...core.errors import ConfigError
from ...core.parsing import clean, parse_int, split_list, table_key
from ...core.types import Tables
from .board import (BLUE, COLS, GRID_CELL, RED, SIZE, STANDARD_TRANSFORMS, TRANSFORM_TEXT, Grid,
                    allowed_transforms, apply_t, grid_problem, parse_square, symmetries)
from .options import Options
from .spec import ROUNDS
from .state import Item

class Team(enum.Enum):
    RED = "Red"
    BLUE = "Blue"
    WHITE = "White"

    @property
    def color(self) -> str:
        return {Team.RED: RED, Team.BLUE: BLUE, Team.WHITE: ""}[self]

    @property
    def other(self) -> "Team":
        return {Team.RED: Team.BLUE, Team.BLUE: Team.RED, Team.WHITE: Team.WHITE}[self]


class Role(enum.Enum):
    COORDINATOR = "Coordinator"
    SNIPER = "Sniper"
    DEMOLITIONIST = "Demolitionist"
    BLOCKER = "Blocker"
    SABOTEUR = "Saboteur"
    MEDIATOR = "Mediator"


TEAM_ROLES = (Role.COORDINATOR, Role.SNIPER, Role.DEMOLITIONIST, Role.BLOCKER, Role.SABOTEUR)


class Variation(enum.Enum):
    THEME = 1
    BLOCKADE = 2
    CONNECTION = 3
    FOG = 4
    TRIPLES = 5

    @property
    def title(self) -> str:
        return {1: "Theme", 2: "Blockade", 3: "Disconnected Connection", 4: "Fog of War",
                5: "Three-in-a-Row"}[self.value]

    @property
    def text(self) -> str:
        return {
            1: "No variation.",
            2: "There is no Blocker. Each Red/Blue player may defend one space of the other team's "
               "colour: its value drops by 1 if above 0; defends stack.",
            3: "Game talk only in pair chats. The team with the strictly largest connected group of "
               "its colour adds four tiles (they count toward the +8 bonus); a tie gives no bonus.",
            4: "There is no Coordinator. The board is hidden except the centre four tiles (D4, E4, "
               "D5, E5); each Red/Blue player knows 10 tiles, White 12. Any tile may be submitted; a "
               "tile of the wrong colour is replaced by a random tile of the right colour. Nothing "
               "is revealed until the end of the game.",
            5: "Each team adds one tile for each three-in-a-row (horizontal, vertical or diagonal) "
               "of only its colour; the Mediator's at-most-7 check uses the counts before these.",
        }[self.value]



ITEM_KINDS = ("note", "lock", "bonus", "value", "manual")


def _header_index(rect: Sequence[Sequence[str]], names: Sequence[str]) -> dict[str, int]:
    if not rect:
        return {}
    head = [clean(h).casefold() for h in rect[0]]
    return {n: head.index(n.casefold()) for n in names if n.casefold() in head}


def _cell(row: Sequence[str], idx: int | None) -> str:
    if idx is None or idx >= len(row):
        return ""
    return clean(row[idx])


def read_grids(tables: Tables, allowed: Sequence[str] = STANDARD_TRANSFORMS) -> tuple[dict[int, Grid], list[str]]:
    """Host grids by round from the Grids table, each checked against the `allowed` symmetries
    (A17), and problems (sentences). Read once per distinct content (every round opening and every
    load reads it); the caller gets its own copies."""
    grids, probs = _read_grids_cached(table_key(tables.get("Grids") or []), tuple(allowed))
    return {rd: dict(g) for rd, g in grids.items()}, list(probs)


@functools.lru_cache(maxsize=8)
def _read_grids_cached(rect: tuple[tuple[str, ...], ...], allowed: tuple[str, ...]) -> tuple[dict[int, Grid], tuple[str, ...]]:
    grids, probs = _read_grids(rect, allowed)
    return grids, tuple(probs)


def _read_grids(rect: Sequence[Sequence[str]], allowed: Sequence[str]) -> tuple[dict[int, Grid], list[str]]:
    probs: list[str] = []
    if not rect:
        return {}, probs
    idx = _header_index(rect, ("round", "row") + tuple(COLS))
    missing = [n for n in ("round", "row") + tuple(COLS) if n not in idx]
    if missing:
        return {}, [f"Grids: the header row needs columns round, row, A-H; missing {', '.join(missing)}"]
    cells: dict[int, dict[int, list[str]]] = {}
    for i, row in enumerate(rect[1:], start=2):
        if not any(clean(v) for v in row):
            continue
        rd, rw = parse_int(_cell(row, idx["round"])), parse_int(_cell(row, idx["row"]))
        if rd is None or not 1 <= rd <= ROUNDS:
            probs.append(f"Grids line {i}: round {_cell(row, idx['round'])!r} is not 1-5")
            continue
        if rw is None or not 1 <= rw <= SIZE:
            probs.append(f"Grids line {i}: row {_cell(row, idx['row'])!r} is not 1-8")
            continue
        if rw in cells.setdefault(rd, {}):
            probs.append(f"Grids line {i}: round {rd} row {rw} is given twice; keep one line")
            continue
        cells[rd][rw] = [_cell(row, idx[c]).upper() for c in COLS]
    out: dict[int, Grid] = {}
    for rd in sorted(cells):
        rows = cells[rd]
        flat = [v for rw in rows for v in rows[rw]]
        if not any(flat):
            continue
        g: Grid = {}
        bad, blank = [], 0
        for r in range(SIZE):
            vals = rows.get(r + 1, [""] * SIZE)
            for c in range(SIZE):
                v = vals[c]
                if not v:
                    blank += 1
                elif v not in GRID_CELL:
                    bad.append(f"{COLS[c]}{r + 1}={v!r}")
                else:
                    g[(c, r)] = GRID_CELL[v]
        if bad:
            probs.append(f"Grids, round {rd}: {', '.join(bad[:5])} not allowed; write R, B or G (gray)")
            continue
        if blank:
            probs.append(f"Grids, round {rd}: {blank} of the 64 squares are blank; fill every square of "
                         "rows 1-8 with R, B or G, or clear the whole round to have it generated")
            continue
        p = grid_problem(g, allowed, f"Grids, round {rd}")
        if p:
            probs.append(p)
            continue
        out[rd] = g
    return out, probs


def read_items(tables: Tables) -> tuple[dict[int, list[Item]], list[str]]:
    """Items by round from the Items table (A18), and problems. Read once per distinct content
    (every round opening reads it); the caller gets its own copies."""
    items, probs = _read_items_cached(table_key(tables.get("Items") or []))
    return ({rd: [{**it, "squares": [list(sq) for sq in it["squares"]]} for it in lst] for rd, lst in items.items()},
            list(probs))


@functools.lru_cache(maxsize=8)
def _read_items_cached(rect: tuple[tuple[str, ...], ...]) -> tuple[dict[int, list[Item]], tuple[str, ...]]:
    items, probs = _read_items(rect)
    return items, tuple(probs)


def _read_items(rect: Sequence[Sequence[str]]) -> tuple[dict[int, list[Item]], list[str]]:
    probs: list[str] = []
    out: dict[int, list[Item]] = {}
    if not rect:
        return out, probs
    names = ("round", "item", "kind", "squares", "amount", "explanation")
    idx = _header_index(rect, names)
    if any(n not in idx for n in names[:4]):
        return out, ["Items: the header row needs columns round, item, kind, squares, amount, explanation"]
    for i, row in enumerate(rect[1:], start=2):
        if not any(clean(v) for v in row):
            continue
        rd = parse_int(_cell(row, idx["round"]))
        name = _cell(row, idx["item"])
        kind = _cell(row, idx["kind"]).lower()
        if rd is None or not 1 <= rd <= ROUNDS:
            probs.append(f"Items line {i}: round {_cell(row, idx['round'])!r} is not 1-5")
            continue
        if not name:
            probs.append(f"Items line {i}: the item has no name")
            continue
        if kind not in ITEM_KINDS:
            probs.append(f"Items line {i}: kind {kind!r} is not supported; use one of {', '.join(ITEM_KINDS)} "
                         "(describe any other effect as a note and apply it by hand)")
            continue
        sqs = []
        for t in split_list(_cell(row, idx["squares"])):
            s = parse_square(t)
            if s is None:
                probs.append(f"Items line {i}: square {t!r} is not A1-H8")
                break
            if s in sqs:
                probs.append(f"Items line {i}: square {t} is listed twice")
                break
            sqs.append(s)
        else:
            if kind != "note" and not sqs:
                probs.append(f"Items line {i}: a {kind} item needs at least one square")
                continue
            amount = 1
            text = _cell(row, idx.get("amount"))
            if text:
                a = parse_int(text)
                if a is None or a < 1:
                    probs.append(f"Items line {i}: amount {text!r} is not a whole number of 1 or more")
                    continue
                amount = a
            out.setdefault(rd, []).append({"name": name, "kind": kind, "squares": [list(s) for s in sqs],
                                           "amount": amount, "text": _cell(row, idx.get("explanation"))})
    return out, probs


def items_symmetric(items: Sequence[Item], name: str) -> bool:
    """Each item name's squares map onto themselves under the transform (A18)."""
    by: dict[str, set] = {}
    for it in items:
        by.setdefault(it["name"], set()).update(tuple(s) for s in it["squares"])
    return all({apply_t(name, s) for s in sqs} == sqs for sqs in by.values())


def read_assignments(tables: Tables) -> tuple[dict[int, dict[str, tuple[str, str]]], list[str]]:
    """Host-fixed teams and roles by round (A20), checked for shape, and problems. Read once per
    distinct content (every round opening reads it); the caller gets its own copies."""
    fixed, probs = _read_assignments_cached(table_key(tables.get("Assignments") or []))
    return {rd: dict(a) for rd, a in fixed.items()}, list(probs)


@functools.lru_cache(maxsize=8)
def _read_assignments_cached(rect: tuple[tuple[str, ...], ...]
                             ) -> tuple[dict[int, dict[str, tuple[str, str]]], tuple[str, ...]]:
    fixed, probs = _read_assignments(rect)
    return fixed, tuple(probs)


def _read_assignments(rect: Sequence[Sequence[str]]) -> tuple[dict[int, dict[str, tuple[str, str]]], list[str]]:
    probs: list[str] = []
    out: dict[int, dict[str, tuple[str, str]]] = {}
    if not rect:
        return out, probs
    idx = _header_index(rect, ("round", "player", "team", "role"))
    if len(idx) < 4:
        return out, ["Assignments: the header row needs columns round, player, team, role"]
    for i, row in enumerate(rect[1:], start=2):
        if not any(clean(v) for v in row):
            continue
        rd = parse_int(_cell(row, idx["round"]))
        p, team, role = _cell(row, idx["player"]), _cell(row, idx["team"]).title(), _cell(row, idx["role"]).title()
        if rd is None or not 1 <= rd <= ROUNDS:
            probs.append(f"Assignments line {i}: round {_cell(row, idx['round'])!r} is not 1-5")
            continue
        if team not in ("Red", "Blue", "White"):
            probs.append(f"Assignments line {i}: team {team!r} is not Red, Blue or White")
            continue
        if team == "White":
            role = "Mediator"
        if role not in [r.value for r in Role]:
            probs.append(f"Assignments line {i}: role {role!r} is not one of "
                         + ", ".join(r.value for r in TEAM_ROLES))
            continue
        if p in out.setdefault(rd, {}):
            probs.append(f"Assignments line {i}: {p} is given twice for round {rd}")
            continue
        out[rd][p] = (team, role)
    for rd, a in sorted(out.items()):
        problem = assignment_problem(rd, a)
        if problem:
            probs.append(f"Assignments, round {rd}: {problem}")
    return out, probs


def assignment_problem(rd: int, a: Mapping[str, tuple[str, str]]) -> str | None:
    """Why a round's (team, role) by player cannot happen (R2, R4, R39, R47), or None."""
    teams = [t for t, _ in a.values()]
    red = sorted(r for t, r in a.values() if t == "Red")
    blue = sorted(r for t, r in a.values() if t == "Blue")
    if (len(a), teams.count("Red"), teams.count("Blue"), teams.count("White")) != (7, 3, 3, 1):
        return "give all 7 players, 3 Red, 3 Blue and 1 White (R2)"
    if red != blue or len(set(red)) != 3 or "Mediator" in red:
        return (f"both teams need the same three different roles (R4); Red has {', '.join(red)}, "
                f"Blue has {', '.join(blue)}")
    if rd == 2 and "Blocker" in red or rd == 4 and "Coordinator" in red:
        return f"{'Blocker' if rd == 2 else 'Coordinator'} is not in play this round (R39, R47)"
    return None


def role_pool(round_no: int, options: Options) -> list[Role]:
    """The roles a round draws its three from (A41)."""
    if round_no == 2:
        text = options.round2_roles
    elif round_no == 4:
        text = options.round4_roles
    else:
        return list(TEAM_ROLES)
    names = [clean(t).title() for t in split_list(text, (",", ";"))]
    pool = [r for r in TEAM_ROLES if r.value in names]
    unknown = [n for n in names if n not in [r.value for r in TEAM_ROLES]]
    banned = Role.BLOCKER if round_no == 2 else Role.COORDINATOR
    if unknown or len(pool) < 3 or banned in pool:
        raise ConfigError(f"option round{round_no}_roles: {text!r} must name at least three of "
                          + ", ".join(r.value for r in TEAM_ROLES if r is not banned)
                          + f", without {banned.value} (R39, R47)")
    return pool


def check_content(tables: Tables, options: Options) -> list[str]:
    """Every round's grid against the symmetries the options allow (A16, A17), the items against
    the grid's symmetry (A18) and the assignments (A20): at `new`, at every load, at every edit."""
    allowed = allowed_transforms(options)
    grids, probs = read_grids(tables, allowed)
    items, p2 = read_items(tables)
    _, p3 = read_assignments(tables)
    probs += p2 + p3
    ways = ", ".join(TRANSFORM_TEXT[n] for n in allowed)
    for rd, its in sorted(items.items()):
        if rd in grids:
            ok = [n for n in symmetries(grids[rd], allowed) if items_symmetric(its, n)]
            if not ok:
                probs.append(f"Items, round {rd}: the items are not symmetric under the transform that "
                             "maps the round's red squares onto its blue squares (A18); place each "
                             "item's squares on mirror or rotation images of each other")
        elif not any(items_symmetric(its, n) for n in allowed):
            probs.append(f"Items, round {rd}: the items are not symmetric under {ways} (A18); place "
                         "each item's squares on images of each other")
    return probs
