"""A game set up from a described position (``from_position``): the round it opens, every player's
nodes and optionally their colours, fireflies, missions completed, collisions caused and the
missions presented before, each checked against what the rules allow (docs/games/bugcatcher.md).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...core.errors import PositionError
from ...core.rng import Rng
from ...core.types import State, Tables
from .board import BLACK, BLUE, fine_label, other, parse_point
from .content import _mission_copy, mission_window
from .options import Options, options_of
from .pregame import setup
from .spec import DEFAULTS, ENERGY  # noqa: F401  (DEFAULTS: the docstring example)

POSITION_KEYS = ("round", "nodes", "border_colour", "fireflies", "missions_completed", "collisions", "missions")


def from_position(players: Sequence[str], options: Mapping[str, Any], tables: Tables,
                  position: Mapping[str, Any], rng: Rng) -> State:
    """A game opened at round `round` (1..rounds) with every player's nodes, and optionally their
    colours, fireflies, missions completed, collisions caused and the missions presented before.

    >>> st = from_position(["A", "B"], DEFAULTS, {}, {"round": 3, "nodes": {
    ...     "A": {"border": "C1 bottom right", "central": "C3"}, "B": {"border": [0, 0], "central": [5, 4]}},
    ...     "fireflies": {"A": 9}}, Rng(1))
    >>> st["round"], st["nodes"]["A"], st["fireflies"]
    (3, {'B': [6, 2], 'C': [5, 5]}, {'A': 9, 'B': 0})
    """
    st = setup(players, options, tables, rng)
    st["missions"] = [_mission_copy(m) for m in st["missions"]]   # written below: never the shared ones
    opts = options_of(st["options"])
    r = _check_keys(players, position, opts)
    done = r - 1
    _place_nodes(st, players, position, opts)
    for p, colour in position.get("border_colour", {}).items():
        if colour not in (BLUE, BLACK):
            raise PositionError(f"border_colour: {p} has {colour!r}; a border node is blue or black")
        st["border_colour"][p] = colour
    earlier = [m for m in st["missions"] if m["round"] < r]
    by_id = {m["id"].casefold(): m for m in earlier}
    for mid, given in (position.get("missions") or {}).items():
        _mission_progress(by_id, earlier, mid, given, players, r, opts)
    for m in earlier:
        if m["completers"]:
            m["status"] = "completed"
        elif (last := mission_window(m)[1]) is not None and last < r:
            m["status"] = "closed"
    _counts(st, players, position, earlier, done, opts)
    st["round"] = r
    if r == 1:
        st["board"] = {"round": 0, "segments": [], "ends": [],
                       "starts": [{"at": st["nodes"][p][n], "colour": st["border_colour"][p] if n == "B"
                                   else other(st["border_colour"][p])} for p in sorted(players) for n in "BC"]}
    else:
        st["board"] = {"round": done, "segments": [], "starts": [],
                       "ends": [{"at": st["nodes"][p][n], "colour": None} for p in sorted(players) for n in "BC"]}
    st["history"] = {p: [] for p in players}
    return st


def _check_keys(players: Sequence[str], position: Mapping[str, Any], opts: Options) -> int:
    """The position's keys and players known, its round one the game has; returns that round."""
    extra = sorted(set(position) - set(POSITION_KEYS))
    if extra:
        raise PositionError(f"unknown position key(s) {', '.join(extra)}; a Bugcatcher position has "
                            + ", ".join(POSITION_KEYS))
    r = position.get("round", 1)
    if not isinstance(r, int) or isinstance(r, bool) or not 1 <= r <= opts.rounds:
        raise PositionError(f"round {r!r}: a position opens a round from 1 to {opts.rounds}")
    for key in POSITION_KEYS[1:6]:
        table = position.get(key, {})
        if not isinstance(table, Mapping):
            raise PositionError(f"{key}: give a mapping of player to value")
        unknown = sorted(set(table) - set(players))
        if unknown:
            raise PositionError(f"{key}: {', '.join(unknown)} is not a player (players: {', '.join(players)})")
    return r


def _place_nodes(st: State, players: Sequence[str], position: Mapping[str, Any], opts: Options) -> None:
    """Every player's two nodes, on the board, out of blocked cells, never two on one point (A8, A36)."""
    cols, rows = opts.columns, opts.rows
    nodes = position.get("nodes", {})
    blocked = opts.blocked
    seen: dict[tuple[int, int], str] = {}
    for p in players:
        given = nodes.get(p)
        if not isinstance(given, Mapping) or set(given) != {"border", "central"}:
            raise PositionError(f"nodes: {p} needs both nodes, e.g. {{\"border\": \"C1 bottom right\", "
                                f"\"central\": \"C3\"}}")
        st["nodes"][p] = {}
        for n, word in (("B", "border"), ("C", "central")):
            at = parse_point(n, given[word], cols, rows)
            if at is None:
                raise PositionError(f"nodes: {p}'s {word} node {given[word]!r} is not a "
                                    + ("corner" if n == "B" else "cell") + f" of the {cols}x{rows} board")
            if n == "C" and at in blocked:
                raise PositionError(f"nodes: {p}'s central node {fine_label(at, cols, rows)} is a blocked cell")
            if at in seen:   # A8: two nodes never share a point
                raise PositionError(f"nodes: {p}'s {word} node and {seen[at]} are both on "
                                    f"{fine_label(at, cols, rows)}; two nodes never share a point")
            seen[at] = f"{p}'s {word} node"
            st["nodes"][p][n] = list(at)


def _mission_progress(by_id: Mapping[str, dict[str, Any]], earlier: Sequence[Mapping[str, Any]], mid: Any,
                      given: Any, players: Sequence[str], r: int, opts: Options) -> None:
    """An earlier mission's acceptors, completers (and round) and penalized players, as the rules allow them."""
    m = by_id.get(str(mid).casefold())
    if m is None:
        raise PositionError(f"missions: {mid!r} is not a mission presented before round {r} "
                            f"(earlier missions: {', '.join(x['id'] for x in earlier) or 'none'})")
    if not isinstance(given, Mapping) or set(given) - {"accepted", "completed_by", "completed_round",
                                                         "penalized"}:
        raise PositionError(f"missions: {m['id']} takes accepted, completed_by, completed_round and penalized")
    for key in ("accepted", "completed_by", "penalized"):
        names = list(given.get(key, []))
        unknown = [x for x in names if x not in players]
        if unknown:
            raise PositionError(f"missions: {m['id']} {key}: {unknown[0]!r} is not a player")
    accepted = [p for p in players if p in given.get("accepted", [])]
    completers = [p for p in players if p in given.get("completed_by", [])]
    penalized = [p for p in players if p in given.get("penalized", [])]
    if opts.mission_requires_acceptance and set(completers) - set(accepted):
        raise PositionError(f"missions: {m['id']} was completed by someone who did not accept it "
                            "(accepting is required)")
    if set(penalized) - set(accepted) or set(penalized) & set(completers) or (penalized and not m["penalty"]):
        raise PositionError(f"missions: {m['id']} penalized: only players who accepted it, did not "
                            "complete it, and a mission with a penalty")
    first, last = mission_window(m)
    cr = given.get("completed_round")
    if completers:
        if not isinstance(cr, int) or not first <= cr < r or (last is not None and cr > last):
            raise PositionError(f"missions: {m['id']} completed_round {cr!r} must be a round from {first} "
                                f"to {min(r - 1, last) if last else r - 1} (when it could be completed)")
    elif cr is not None:
        raise PositionError(f"missions: {m['id']} has a completed_round but nobody in completed_by")
    m.update(accepted=accepted, completers=completers, penalized=penalized,
             completed_round=cr if completers else None)


def _counts(st: State, players: Sequence[str], position: Mapping[str, Any], earlier: Sequence[Mapping[str, Any]],
            done: int, opts: Options) -> None:
    """Fireflies, missions completed and collisions caused, within what `done` rounds can have given."""
    done_missions = {p: sum(1 for m in earlier if p in m["completers"]) for p in players}
    # What r - 1 rounds can have given: 7 paths a round, the rewards of missions presented so far.
    most_fireflies = ENERGY * done + sum(m["reward"] for m in earlier)
    most_collisions = ENERGY * done * (1 if opts.collision_count_mode == "per_action" else len(players))
    least_fireflies = sum(m["penalty"] for m in earlier)    # every penalty taken, no path placed
    for key, low, high, what in (("fireflies", least_fireflies, most_fireflies, "fireflies"),
                                 ("missions_completed", 0, len(earlier), "missions completed"),
                                 ("collisions", 0, most_collisions, "collisions caused")):
        for p in players:
            v = position.get(key, {}).get(p, done_missions[p] if key == "missions_completed" else 0)
            if not isinstance(v, int) or isinstance(v, bool) or not low <= v <= high:
                raise PositionError(f"{key}: {p} has {v!r}; after {done} round(s) a player has {low} to "
                                    f"{high} {what}")
            st[key][p] = v
        if key == "missions_completed":
            for p in players:
                if st[key][p] < done_missions[p]:
                    raise PositionError(f"missions_completed: {p} has {st[key][p]} but completed "
                                        f"{done_missions[p]} of the missions listed")
