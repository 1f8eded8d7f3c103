"""Skeld set up from a described position: the Main Match opened at a round with every crewmate's
name, room, Energy, bonuses and parasite, the caps, the components, the walls, disables and plants
(keys on docs/games/skeld.md). Each part is checked against the rules as it is placed; the rooms
activated so far follow from what is held."""
from __future__ import annotations

import re
from typing import Any, Mapping, Sequence

from ...core.errors import PositionError
from ...core.parsing import clean, is_formula
from ...core.types import State
from .content import (BASE_CAP, BONUSES, COMPONENTS, DIRECTIONS, INCOME, MAX_CAP, PARASITE_ROOM, ROOMS, SEQUENCES,
                      START_ENERGY, VAULT, VAULT_MIN, Board, Bonus, edge)
from .options import CapScope, Options, options_of

POSITION_KEYS = ("round", "crew", "cap", "components", "walls", "disable_used", "disabled", "parasite_claimed",
                 "plants")


def from_position(st: State, position: Mapping[str, Any]) -> State:
    """The state `st` (just set up) opened at the position's round; PositionError says what is wrong."""
    opts = options_of(st)
    players = st["players"]
    board = Board.of(st)
    r = _check_keys(position, players, opts)
    carried: dict[str, str] = {}
    crew_in = position.get("crew") or {}
    caps_in = position.get("cap") or {}
    for p in players:
        entries = crew_in.get(p)
        if not isinstance(entries, (list, tuple)) or len(entries) != 2:
            raise PositionError(f"crew: {p} needs a list of exactly two crewmates (each with its room)")
        names: list[str] = []
        for i, (e, c) in enumerate(zip(entries, st["crew"][p])):
            _place_crewmate(c, e, f"{p}'s crewmate {i + 1}", p, names, caps_in, r, opts, carried)
        if opts.cap_upgrade_scope == CapScope.PLAYER and st["crew"][p][0]["cap"] != st["crew"][p][1]["cap"]:
            raise PositionError(f"cap: {p}'s crewmates have caps {st['crew'][p][0]['cap']} and "
                                f"{st['crew'][p][1]['cap']}; a cap raise covers both crewmates (cap_upgrade_scope "
                                "is player)")
    held = _hold_components(st, position)
    _place_plants_and_claims(st, position, r)
    for p in position.get("disable_used") or ():
        st["disable_used"][p] = True
    st["activated"] = sorted(list(held) + list(carried), key=ROOMS.index)
    for p in players:
        acts = (len(st["components"][p]) + sum(len(c["items"]) for c in st["crew"][p])
                + st["claimed"][p] + st["vault_used"][p])
        if acts > 2 * (r - 1):
            raise PositionError(f"{p} has made {acts} activations (components, bonuses, parasite, Vault) but "
                                f"two crewmates make at most {2 * (r - 1)} in {r - 1} round(s)")
    _place_walls(st, board, position)
    _place_disables(st, position, r)
    st["round"] = r
    return st


def _check_keys(position: Mapping[str, Any], players: Sequence[str], opts: Options) -> int:
    """The position's keys, its round (1 to max_rounds, A31) and the players its tables name."""
    extra = sorted(set(position) - set(POSITION_KEYS))
    if extra:
        raise PositionError(f"unknown position key(s) {', '.join(extra)}; a Skeld position has "
                            + ", ".join(POSITION_KEYS))
    r = position.get("round", 1)
    last = opts.max_rounds
    if not isinstance(r, int) or isinstance(r, bool) or not 1 <= r <= last:
        raise PositionError(f"round {r!r}: a position opens a round from 1 to {last}")
    for key in ("crew", "cap", "components"):
        table = position.get(key) or {}
        if not isinstance(table, Mapping):
            raise PositionError(f"{key}: give a mapping from player to value")
        unknown = sorted(set(table) - set(players))
        if unknown:
            raise PositionError(f"{key}: {', '.join(map(str, unknown))} is not a player "
                                f"(players: {', '.join(players)})")
    for key in ("disable_used", "parasite_claimed"):
        unknown = sorted(set(position.get(key) or ()) - set(players))
        if unknown:
            raise PositionError(f"{key}: {', '.join(map(str, unknown))} is not a player "
                                f"(players: {', '.join(players)})")
    return r


def _place_crewmate(c: dict, e: Any, who: str, p: str, names: list[str], caps_in: Mapping[str, Any], r: int,
                    opts: Options, carried: dict[str, str]) -> None:
    """One crewmate: its name (R12), room, cap (R14, R17), Energy (R13, R15, A8), items (A13) and parasite."""
    if not isinstance(e, Mapping):
        raise PositionError(f"crew: {who} should be a mapping with room, energy, items, parasite")
    bad_keys = sorted(set(e) - {"name", "room", "energy", "items", "parasite", "cap"})
    if bad_keys:
        raise PositionError(f"crew: {who} has unknown key(s) {', '.join(bad_keys)}; a crewmate has "
                            "name, room, energy, items, parasite and cap")
    name = clean(e.get("name", c["name"]))
    if (not name or len(name) > 30 or any(ch in name for ch in ".,|") or not name.isprintable()
            or is_formula(name)):
        raise PositionError(f"crew: {who} is named {name!r}; a name has 1 to 30 visible characters "
                            "without . , | or a leading =")
    if name.casefold() in names:
        raise PositionError(f"crew: both of {p}'s crewmates are named {name!r}")
    names.append(name.casefold())
    c["name"] = name
    who = f"{p}.{name}"
    room = clean(e.get("room", "")).upper()
    if room not in ROOMS:
        raise PositionError(f"crew: {who} is in {e.get('room')!r}, which is not a room of the ship")
    c["pos"] = room
    cap = e.get("cap", caps_in.get(p, BASE_CAP))
    if not isinstance(cap, int) or isinstance(cap, bool) or not BASE_CAP <= cap <= MAX_CAP:
        raise PositionError(f"cap: {who} has cap {cap!r}; a cap is {BASE_CAP} to {MAX_CAP}")
    c["cap"], c["raises"] = cap, cap - BASE_CAP
    start = min(cap, START_ENERGY + (INCOME if opts.income_before_round_1 else 0))
    energy = e.get("energy", start if r == 1 else None)
    low = min(cap, INCOME)
    if r == 1:
        if energy != start:
            raise PositionError(f"crew: {who} has {energy!r} Energy; every crewmate starts round 1 "
                                f"with {start}")
    elif not isinstance(energy, int) or isinstance(energy, bool) or not low <= energy <= cap:
        raise PositionError(f"crew: {who} has {energy!r} Energy; after a round a crewmate starts with "
                            f"{low} to its cap {cap} (income is 3 a round)")
    c["energy"] = energy
    c["items"] = _items(e.get("items") or {}, who, carried)
    parasite = e.get("parasite", False)
    if not isinstance(parasite, bool):
        raise PositionError(f"crew: {who}'s parasite should be true or false")
    c["parasite"] = parasite


def _items(items: Any, who: str, carried: dict[str, str]) -> list[dict]:
    """A crewmate's bonuses, each carried by one crewmate, with the uses it has left (A13)."""
    if isinstance(items, (list, tuple)):
        items = {x: Bonus[x].uses if x in BONUSES else None for x in items}
    if not isinstance(items, Mapping):
        raise PositionError(f"crew: {who}'s items should be bonus letters or a mapping letter -> uses left")
    out = []
    for letter, uses in items.items():
        if letter not in BONUSES:
            raise PositionError(f"crew: {who} carries {letter!r}, which is not a bonus "
                                f"({', '.join(BONUSES)})")
        if letter in carried:
            raise PositionError(f"crew: {letter} ({Bonus[letter].title}) is carried by {carried[letter]} "
                                f"and {who}; each bonus room is activated once")
        carried[letter] = who
        most = Bonus[letter].uses
        if most is None and uses is not None:
            raise PositionError(f"crew: {who}'s {Bonus[letter].title} has no uses to count; give null")
        if most is not None and (not isinstance(uses, int) or isinstance(uses, bool)
                                 or not 0 <= uses <= most):
            raise PositionError(f"crew: {who}'s {Bonus[letter].title} has {uses!r} uses left; "
                                f"it has 0 to {most}")
        out.append({"item": letter, "uses": uses, "got": 0})
    return out


def _hold_components(st: State, position: Mapping[str, Any]) -> dict[str, str]:
    """Each player's components, each held once (R24), no Sequence complete (R44); component -> holder."""
    held: dict[str, str] = {}
    for p in st["players"]:
        comps = position.get("components", {}).get(p, [])
        if not isinstance(comps, (list, tuple)):
            raise PositionError(f"components: {p}'s components should be a list of rooms like 3C")
        for lab in comps:
            lab = clean(lab).upper()
            if lab not in COMPONENTS:
                raise PositionError(f"components: {p} holds {lab!r}, which is not a component (1A..13C)")
            if lab in held:
                raise PositionError(f"components: {lab} is held by {held[lab]} and {p}; each component is unique")
            held[lab] = p
            st["components"][p].append(lab)
    for s, nm in SEQUENCES.items():
        if all(f"{n}{s}" in held for n in range(1, 14)):
            raise PositionError(f"components: all 13 {nm} components are claimed, so the Main Match would "
                                "already be over")
    return held


def _place_plants_and_claims(st: State, position: Mapping[str, Any], r: int) -> None:
    """Past plants (R55, once per player, before this round) and the parasites claimed (once per player)."""
    players = st["players"]
    claimed = set(position.get("parasite_claimed") or ())
    plants = position.get("plants") or []
    if not isinstance(plants, (list, tuple)):
        raise PositionError("plants: give a list of {player, round, energy}")
    for pl in plants:
        if (not isinstance(pl, Mapping) or pl.get("player") not in players or not isinstance(pl.get("round"), int)
                or not 1 <= pl["round"] < r or not isinstance(pl.get("energy"), int) or pl["energy"] < VAULT_MIN):
            raise PositionError(f"plants: {pl!r} should be {{player, round before {r}, energy of at least "
                                f"{VAULT_MIN}}}")
        p = pl["player"]
        if st["vault_used"][p]:
            raise PositionError(f"plants: {p} plants twice; a player activates the Vault once")
        if any(c["parasite"] for c in st["crew"][p]):
            raise PositionError(f"plants: {p} planted and still carries a parasite; a player claims one once")
        st["vault_used"][p] = True
        claimed.add(p)
        crew = pl.get("crewmate", 1)
        st["plants"].append({"player": p, "crew": 1 if crew in (2, st["crew"][p][1]["name"]) else 0,
                             "energy": pl["energy"], "round": pl["round"], "seq": None,
                             "verdict": "no_sequence", "improper": True})
    for p in players:
        if any(c["parasite"] for c in st["crew"][p]):
            if sum(c["parasite"] for c in st["crew"][p]) > 1:
                raise PositionError(f"crew: both of {p}'s crewmates carry a parasite; a player claims one once")
            claimed.add(p)
        st["claimed"][p] = p in claimed


def _place_walls(st: State, board: Board, position: Mapping[str, Any]) -> None:
    """The walls (R67, A2), one per use of the Summoner's Meme."""
    players = st["players"]
    for w in position.get("walls") or []:
        a, b = _wall_rooms(board, w)
        key = edge(a, b)
        if key in st["walls"]:
            raise PositionError(f"walls: {w!r} is given twice")
        st["walls"].append(key)
    meme = next((it for p in players for c in st["crew"][p] for it in c["items"] if it["item"] == "S"), None)
    used = 0 if meme is None else (Bonus.S.uses or 0) - meme["uses"]
    if len(st["walls"]) != used:
        raise PositionError(f"walls: {len(st['walls'])} wall(s) but the Summoner's Meme (single use) has been "
                            f"used {used} time(s); each wall is one use")


def _place_disables(st: State, position: Mapping[str, Any], r: int) -> None:
    """Rooms still disabled (R31-R34, A15): made last round, by a player whose disable is used."""
    disabled = position.get("disabled") or {}
    if not isinstance(disabled, Mapping):
        raise PositionError("disabled: give a mapping from room to the last round it is blocked")
    if len(disabled) > sum(st["disable_used"].values()):
        raise PositionError(f"disabled: {len(disabled)} room(s) disabled but only "
                            f"{sum(st['disable_used'].values())} player(s) in disable_used")
    for room, until in disabled.items():
        if room not in ROOMS or room in (PARASITE_ROOM, VAULT) or room in st["activated"]:
            raise PositionError(f"disabled: {room!r} cannot be disabled (a room of the ship, not P, V or an "
                                "activated room)")
        if until != r or r == 1:
            raise PositionError(f"disabled: {room} blocked until round {until!r}; a disable made in round "
                                f"{r - 1} blocks rounds {r - 1} and {r}, so give {r}")
        st["disabled"][room] = until


def _wall_rooms(board: Board, wall: Any) -> tuple[str, str]:
    """A wall given as "3C E", ["3C", "E"] or "3C|4B": the two rooms it separates (A2)."""
    text = "|".join(wall) if isinstance(wall, (list, tuple)) else str(wall)
    parts = [clean(x).upper() for x in re.split(r"[|/ ]+", text) if clean(x)]
    if len(parts) == 2 and parts[0] in ROOMS and parts[1] in DIRECTIONS:
        other = board.neighbour(parts[0], parts[1])
        if other is None:
            raise PositionError(f"walls: {wall!r} is on the hull; a wall separates two rooms")
        return parts[0], other
    if len(parts) == 2 and parts[0] in ROOMS and parts[1] in ROOMS:
        (a, b), (c, d) = board.pos(parts[0]), board.pos(parts[1])
        if abs(a - c) + abs(b - d) == 1:
            return parts[0], parts[1]
        raise PositionError(f"walls: {parts[0]} and {parts[1]} are not side by side; a wall separates two "
                            "neighbouring rooms")
    raise PositionError(f"walls: {wall!r} should be a room and a side (\"3C E\") or two neighbouring rooms (\"3C|4B\")")
