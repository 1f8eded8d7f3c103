"""The host-editable content: the Missions table read into mission records, the shapes a mission
asks for and how a path is matched against one (R48-R62, A18-A25, A37-A40), and the check of the
table (``check_tables``).
"""
from __future__ import annotations

import functools
import re
from typing import Any, Mapping, Sequence

from ...core.parsing import clean, host_flag, parse_int, table_key
from ...core.types import State, Tables
from .board import DIR_WORDS, DIRS, INVERSE, MIRROR, ROTATE
from .options import options_of
from .spec import ENERGY, MANUAL, MISSIONS_TABLE

# ------------------------------------------------------------- shapes (A22)

def parse_shape(text: str) -> str | None:
    """'DDRDL', 'D D R D L' or 'down down right down left' -> 'DDRDL'; None if unreadable."""
    words = re.findall(r"[a-z]+", clean(text).casefold())
    if len(words) == 1 and words[0] and set(words[0]) <= set("udlr"):
        return words[0].upper()
    out = []
    for w in words:
        d = {"up": "U", "u": "U", "down": "D", "d": "D", "left": "L", "l": "L", "right": "R", "r": "R"}.get(w)
        if d is None:
            return None
        out.append(d)
    return "".join(out) or None


def shape_variants(shape: str, rotate: bool = True, reflect: bool = True, either_end: bool = True) -> list[str]:
    """Every way the shape may be built (R59): rotations, reflections, both directions of travel."""
    return list(_shape_variants(shape, bool(rotate), bool(reflect), bool(either_end)))


@functools.lru_cache(maxsize=256)   # every mission is checked for every player every round
def _shape_variants(shape: str, rotate: bool, reflect: bool, either_end: bool) -> tuple[str, ...]:
    forms = {shape}
    if reflect:
        forms |= {"".join(MIRROR[m] for m in f) for f in forms}
    if rotate:
        more = set()
        for f in forms:
            g = f
            for _ in range(3):
                g = "".join(ROTATE[m] for m in g)
                more.add(g)
        forms |= more
    if reflect:
        forms |= {"".join(MIRROR[m] for m in f) for f in forms}
    if either_end:
        forms |= {"".join(INVERSE[m] for m in reversed(f)) for f in forms}
    return tuple(sorted(forms))


def shape_revisits(shape: str) -> bool:
    """True if the shape comes back to a point it passed (a self-collision, A7)."""
    x = y = 0
    seen = {(0, 0)}
    for m in shape:
        dx, dy = DIRS[m]
        x, y = x + dx, y + dy
        if (x, y) in seen:
            return True
        seen.add((x, y))
    return False


def find_shape(moves: str, variants: Sequence[str], anywhere: bool) -> tuple[str, int] | None:
    """Where the successful moves contain a variant (A22, A25): (variant, index of its first
    move), the earliest start first; None if no variant is there.

    >>> find_shape("LDDRDLU", shape_variants("DDRDL"), True)
    ('DDRDL', 1)
    """
    if not anywhere:
        return (moves, 0) if moves in variants else None
    best: tuple[int, str] | None = None
    for v in variants:
        i = moves.find(v)
        if i >= 0 and (best is None or (i, v) < best):
            best = (i, v)
    return (best[1], best[0]) if best else None


# find_shape for the variants tuple of _shape_variants: every mission is checked for every player every
# round, and a round's moves are short strings of U D L R that come back again and again.
_found_shape = functools.lru_cache(maxsize=1 << 14)(find_shape)


def matches(moves: str, variants: Sequence[str], anywhere: bool) -> bool:
    """A22/A25: the successful moves contain a variant as consecutive moves (or equal it)."""
    return find_shape(moves, variants, anywhere) is not None


# ------------------------------------------------------------- the Missions table (A21)

MISSION_COLUMNS = ("round", "id", "name", "node", "shape", "reward", "penalty", "failure_rounds",
                   "rotate", "reflect", "either_end", "anywhere", "expires_after_round", "text")
REQUIRED_COLUMNS = ("round", "id", "name", "node", "shape", "reward")


def _header(table: Sequence[Sequence[str]]) -> dict[str, int]:
    if not table:
        return {}
    return {clean(h).casefold().replace(" ", "_"): i for i, h in enumerate(table[0]) if clean(h)}


def _cell(row: Sequence[str], idx: dict[str, int], name: str) -> str:
    i = idx.get(name)
    return clean(row[i]) if i is not None and i < len(row) else ""


def _flag(text: str, default: bool) -> bool | None:
    if text == "":
        return default
    return host_flag(text)


def read_missions(table: Sequence[Sequence[str]] | None) -> tuple[list[dict[str, Any]], list[str]]:
    """The missions table, read once per distinct content (it is read every round): a fresh copy."""
    missions, problems = _read_missions_cached(table_key(table))
    return [_mission_copy(m) for m in missions], list(problems)


def _mission_copy(m: Mapping[str, Any]) -> dict[str, Any]:
    """A mission record to write into: its lists (accepted, completers, penalized) are its only containers."""
    out = dict(m)
    for key in _MISSION_LISTS:
        if key in out:
            out[key] = list(out[key])
    return out


_MISSION_LISTS = ("accepted", "completers", "penalized")


@functools.lru_cache(maxsize=8)
def _read_missions_cached(table: tuple[tuple[str, ...], ...] | None) -> tuple[list[dict[str, Any]], tuple[str, ...]]:
    """The missions read once per distinct table, shared by every game's state: never written
    (_round_copy copies a mission before its round writes to it; tests/test_fast_paths.py checks)."""
    missions, problems = _read_missions(table)
    return missions, tuple(problems)


def _read_missions(table: Sequence[Sequence[str]] | None) -> tuple[list[dict[str, Any]], list[str]]:
    """Mission records from the Missions table and sentences for what is wrong (A21)."""
    out: list[dict[str, Any]] = []
    problems: list[str] = []
    if not table:
        return out, [f"the {MISSIONS_TABLE} table is empty: it needs a header row "
                     f"({', '.join(MISSION_COLUMNS)}) and one row per mission"]
    idx = _header(table)
    missing = [c for c in REQUIRED_COLUMNS if c not in idx]
    if missing:
        return out, [f"the {MISSIONS_TABLE} table lacks the column(s) {', '.join(missing)}; its header row "
                     f"must hold {', '.join(MISSION_COLUMNS)}"]
    seen: dict[str, int] = {}
    for n, row in enumerate(table[1:], start=2):
        if not any(clean(v) for v in row):
            continue
        where = f"{MISSIONS_TABLE} row {n}"
        mid = _cell(row, idx, "id")
        bad: list[str] = []
        if not mid:
            bad.append("the id is blank; give every mission a short unique id")
        elif mid.casefold() in seen:
            bad.append(f"id {mid!r} is also used on row {seen[mid.casefold()]}; ids must be unique")
        rnd = parse_int(_cell(row, idx, "round"))
        if rnd is None or rnd < 1:
            bad.append(f"round {_cell(row, idx, 'round')!r} is not a round number (1, 2, ...)")
        manual = _cell(row, idx, "shape").casefold() == MANUAL
        node = _cell(row, idx, "node").casefold()
        node = {"b": "border", "c": "central", "center": "central", "centre": "central", "either": "any",
                "both": "any", "": "any" if manual else ""}.get(node, node)
        if node not in ("border", "central", "any"):
            bad.append(f"node {_cell(row, idx, 'node')!r} must be border, central or any")
        shape = "" if manual else parse_shape(_cell(row, idx, "shape"))
        if shape is None:
            bad.append(f"shape {_cell(row, idx, 'shape')!r} is not a list of moves such as DDRDL or "
                       f"'down down right down left' (or {MANUAL}: the host enters who completed it)")
        elif len(shape) > ENERGY:
            bad.append(f"shape {shape} has {len(shape)} moves; a round has only {ENERGY} energy")
        elif shape_revisits(shape):
            bad.append(f"shape {shape} comes back to a point it already passed, a self-collision, so "
                       "nobody can build it")
        if manual and not _cell(row, idx, "text"):
            bad.append("a manual mission needs its text: the players read what to do there")
        reward = parse_int(_cell(row, idx, "reward"))
        if reward is None or reward < 0:
            bad.append(f"reward {_cell(row, idx, 'reward')!r} must be a whole number 0 or more")
        ptext = _cell(row, idx, "penalty")
        penalty = 0 if ptext == "" else parse_int(ptext)
        if penalty is None:
            bad.append(f"penalty {ptext!r} must be a whole number such as -3 (or blank for none)")
        ftext = _cell(row, idx, "failure_rounds")
        failure = None if ftext == "" else parse_int(ftext)
        if ftext and (failure is None or failure < 1):
            bad.append(f"failure_rounds {ftext!r} must be a whole number 1 or more (or blank)")
        if penalty and failure is None and not (ftext and failure is None):
            bad.append("a mission with a penalty needs failure_rounds, the window it must be completed in")
        etext = _cell(row, idx, "expires_after_round")
        expires = None if etext == "" else parse_int(etext)
        if etext and (expires is None or (rnd is not None and expires < rnd)):
            bad.append(f"expires_after_round {etext!r} must be a round number not before the mission's round")
        flags = {}
        for name in ("rotate", "reflect", "either_end", "anywhere"):
            v = _flag(_cell(row, idx, name), True)
            if v is None:
                bad.append(f"{name} {_cell(row, idx, name)!r} must be yes or no (blank means yes)")
            flags[name] = bool(v)
        if bad:
            problems.extend(f"{where}: {b}" for b in bad)
            if mid and mid.casefold() not in seen:
                seen[mid.casefold()] = n
            continue
        seen[mid.casefold()] = n
        name = _cell(row, idx, "name") or mid
        text = _cell(row, idx, "text")
        out.append({"id": mid, "round": rnd, "name": name, "node": node, "shape": shape, "manual": manual,
                    "reward": reward, "penalty": -abs(penalty or 0), "failure_rounds": failure, "expires": expires,
                    **flags, "text": text, "accepted": [], "status": "open", "completed_round": None,
                    "completers": [], "penalized": []})
    return out, problems


def mission_window(m: Mapping[str, Any]) -> tuple[int, int | None]:
    """The rounds in which the mission can be completed: (presented, last or None = until completed) (A19)."""
    last = m["round"] + m["failure_rounds"] - 1 if m["failure_rounds"] else None
    if m.get("expires") and (last is None or m["expires"] > last):
        last = m["expires"]
    return m["round"], last


def mission_text(m: Mapping[str, Any]) -> str:
    """The mission as on the board, in the ruleset's style (R59, R60)."""
    node = {"border": "your border node", "central": "your central node", "any": "either node"}[m["node"]]
    if m.get("manual"):
        desc = m["text"]
    else:
        words = " ".join(DIR_WORDS[c] for c in m["shape"])
        ways = []
        if m["either_end"]:
            ways.append("you may begin at either endpoint")
        turn = [w for w, f in (("rotated", m["rotate"]), ("reflected", m["reflect"])) if f]
        if turn:
            ways.append("the shape may be " + " or ".join(turn))
        if not m["anywhere"]:
            ways.append("the whole round's path must be exactly this shape")
        desc = m["text"] or (f"In a single round, successfully build a path in the shape of {words} with {node}"
                             + ("; " + "; ".join(ways) if ways else "") + ".")
    fail = (f" Failure ({m['failure_rounds']} round{'s' if m['failure_rounds'] != 1 else ''}): "
            f"{m['penalty']} fireflies." if m["penalty"] and m["failure_rounds"] else "")
    if not m["penalty"] and m["failure_rounds"]:
        fail = f" Closes after {m['failure_rounds']} round(s)."
    exp = f" Open until the end of round {m['expires']}." if m["expires"] else ""
    return f"[{m['id']}] {m['name']}: {desc} Success: +{m['reward']} fireflies.{fail}{exp}"


def mission_short(m: Mapping[str, Any]) -> str:
    end = m["round"] + m["failure_rounds"] - 1 if m["failure_rounds"] else m["expires"]
    what = "decided by the host" if m.get("manual") else f"{m['node']} {m['shape']}"
    return (f"[{m['id']}] {m['name']}: {what}, +{m['reward']}"
            + (f", {m['penalty']} on failure" if m["penalty"] else "")
            + (f", until the end of round {end}" if end else ", until completed"))


def refresh_missions(st: State, tables: Tables, after: int, host_log: list[str]) -> None:
    """Missions of rounds after `after` come from the host's table (A21); earlier ones are kept."""
    table = tables.get(MISSIONS_TABLE) if tables else None
    if table is None:
        return
    # Shared with every game that reads the same table, and kept so: a mission of a later round
    # is written only once its round has come, and _round_copy copies it first.
    loaded, problems = _read_missions_cached(table_key(table))
    for p in problems:
        host_log.append(f"missions table: {p}; that mission is left out")
    kept = [m for m in st["missions"] if m["round"] <= after]
    ids = {m["id"].casefold() for m in kept}
    for m in loaded:
        if m["round"] <= after:
            continue
        if m["id"].casefold() in ids:
            host_log.append(f"missions table: id {m['id']} was already used by an earlier mission; "
                            "the new one is left out")
            continue
        kept.append(m)
    st["missions"] = kept
    nxt = after + 1
    if nxt <= options_of(st["options"]).rounds:
        count = sum(1 for m in kept if m["round"] == nxt)
        if count != 5:
            host_log.append(f"round {nxt} has {count} mission(s) on its board (the ruleset's boards have 5, R48)")


def board_missions(state: State, r: int | None = None) -> list[dict[str, Any]]:
    """The missions presented on round `r`'s board (default: the round open now)."""
    r = state["round"] if r is None else r
    return [m for m in state["missions"] if m["round"] == r]


def check_tables(tables: Tables) -> list[str]:
    """What is wrong with the host's Missions table, each a sentence saying how to fix it."""
    if MISSIONS_TABLE not in tables:
        return [f"the {MISSIONS_TABLE} table is missing: add a tab named {MISSIONS_TABLE!r} "
                "(the default is templates/bugcatcher/missions.csv)"]
    return list(_read_missions_cached(table_key(tables[MISSIONS_TABLE]))[1])
