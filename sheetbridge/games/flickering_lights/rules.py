"""The rules of a round, as named steps in the rulebook's order, each citing its R/A numbers once.

`resolve_round` reads as the list of steps: what the players knew when the round opened, each
player's submission as the rules apply it, value items, space values, the Saboteurs' flips, the
recolouring, the host's manual items, the scores, then who may know what (section (c)) and the
next round opened or the match ended. The scoring functions come first: `recolor` and
`score_round` are the ruleset's arithmetic, also used by positions and tests (the package's
docstring works an example of `recolor`, A7).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Mapping, Sequence, cast

from ...core.decisions import DecisionKind, DecisionRequest
from ...core.facts import HOST_ONLY, PUBLIC
from ...core.rng import Rng
from ...core.types import LedgerEntry, RoundInput, RoundResult, State, from_json, to_json
from .board import (ALL_SQUARES, BLUE, COLOR_NAME, GRAY, RED, Grid, Square, adjacent, colour_letter, grid_rows,
                    parse_grid, rows_of, sq_name, square_of)
from .content import Role, Team, Variation
from .ending import end_ledger, tie_requests
from .facts import (AS_RESOLVED, FOG_HIDDEN, BoardGrid, BoardItem, ColourCounts, CoordinatorList, FogReceived,
                    FogReplacement, ManualItemRuling, MediatorCheck, MediatorPenalty, NoSpacesSubmitted,
                    PlayerPoints, RolesInPlay, SaboteurFlip, SideScore, SpaceRaise, SpacesApplied, SpacesProblem,
                    SpaceValue, TeamRole, TeamsRevealed, is_play, item_keys)
from .intake import default_submission, sections_of
from .opening import fog_knowledge, open_round
from .options import Options, as_options, options_of
from .spec import ROUNDS
from .state import FlickeringState, Item, OpenRound, Seat

# --------------------------------------------------------------------- the ruleset's arithmetic

def recolor(colors: Grid, values: Mapping[Square, int], options: Options | Mapping[str, Any],
            spread: Grid | None = None, tie: Grid | None = None) -> Grid:
    """R17-R20, A3, A4, A7-A9: every space with X >= 1 whose colour (in `spread`, by default
    `colors`, the grid after flips) is red or blue reaches the squares within X; per colour
    the lowest X counts and the lower wins; an equal lowest X keeps the colour in `tie`
    (default `colors`, A8). Squares nobody reaches keep their `colors` colour. No chaining."""
    metric = as_options(options).distance
    spread = colors if spread is None else spread
    tie = colors if tie is None else tie
    sources = [(s, x, spread[s]) for s, x in sorted(values.items()) if x >= 1 and spread[s] in (RED, BLUE)]
    out: Grid = {}
    chebyshev = metric == "chebyshev"
    for sq in ALL_SQUARES:
        best: dict[str, int] = {}
        c, r = sq
        for (sc, sr), x, col in sources:   # distance(), inlined: 64 squares times every source
            dc, dr = abs(sc - c), abs(sr - r)
            if ((dc if dc > dr else dr) if chebyshev else dc + dr) <= x:
                best[col] = min(best.get(col, x), x)
        if len(best) == 1:
            out[sq] = next(iter(best))
        elif len(best) == 2 and best[RED] != best[BLUE]:
            out[sq] = RED if best[RED] < best[BLUE] else BLUE
        elif len(best) == 2:
            out[sq] = tie[sq]
        else:
            out[sq] = colors[sq]
    return out


def largest_group(g: Grid, color: str, connectivity: int) -> int:
    """Size of the largest connected group of `color` (A21)."""
    steps = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    if connectivity == 8:
        steps += [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    seen: set = set()
    best = 0
    for s in ALL_SQUARES:
        if g[s] != color or s in seen:
            continue
        stack, size = [s], 0
        seen.add(s)
        while stack:
            c, r = stack.pop()
            size += 1
            for dc, dr in steps:
                t = (c + dc, r + dr)
                if t in g and t not in seen and g[t] == color:
                    seen.add(t)
                    stack.append(t)
        best = max(best, size)
    return best


def three_in_a_rows(g: Grid, color: str, mode: str) -> int:
    """Lines of three of only `color` (R53, A26): every window, or each maximal run of 3+ once."""
    count = 0
    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        for s in ALL_SQUARES:
            prev = (s[0] - dc, s[1] - dr)
            if prev in g and g[prev] == color:
                continue  # not the start of a run
            run, t = 0, s
            while t in g and g[t] == color:
                run += 1
                t = (t[0] + dc, t[1] + dr)
            if run >= 3:
                count += (run - 2) if mode == "windows" else 1
    return count


def score_round(variation: Variation, final: Grid, options: Options | Mapping[str, Any],
                bonus_items: Sequence[Item] = (), host_tiles: Mapping[str, int] | None = None) -> dict[str, Any]:
    """Tiles, bonuses and points of one round (R33-R36, R44-R46, R53-R55, A21, A22, A26-A29).

    `host_tiles` are the tiles the host's rulings on manual items add per colour (A18); like bonus
    items they count for the +8 and the Mediator's difference. A side's total is never below 0."""
    opts = as_options(options)
    tiles = {c: sum(1 for s in ALL_SQUARES if final[s] == c) for c in (RED, BLUE)}
    items = {RED: 0, BLUE: 0}
    for it in bonus_items:
        for s in it["squares"]:
            col = final[tuple(s)]
            if col in items:
                items[col] += it["amount"]
    host = {RED: 0, BLUE: 0}
    host.update(host_tiles or {})
    conn = {RED: 0, BLUE: 0}
    groups = {RED: 0, BLUE: 0}
    if variation is Variation.CONNECTION:
        groups = {c: largest_group(final, c, opts.connectivity) for c in (RED, BLUE)}
        if groups[RED] != groups[BLUE]:
            conn[RED if groups[RED] > groups[BLUE] else BLUE] = 4
    triples = {RED: 0, BLUE: 0}
    if variation is Variation.TRIPLES:
        triples = {c: three_in_a_rows(final, c, opts.three_in_a_row) for c in (RED, BLUE)}
    total = {c: max(0, tiles[c] + items[c] + host[c] + conn[c] + triples[c]) for c in (RED, BLUE)}
    points = {c: total[c] + (8 if total[c] > total[other(c)] else 0) for c in (RED, BLUE)}
    counts_conn = opts.mediator_counts_connection_bonus
    base = {c: max(0, tiles[c] + items[c] + host[c] + (conn[c] if counts_conn else 0)) for c in (RED, BLUE)}
    diff = abs(base[RED] - base[BLUE])
    by = total
    if variation is Variation.TRIPLES and opts.mediator_winner_by == "raw" \
            and base[RED] != base[BLUE]:
        by = base
    if by[RED] == by[BLUE]:
        winner = None
        white = points[RED] if points[RED] == points[BLUE] else min(points.values())
    else:
        winner = RED if by[RED] > by[BLUE] else BLUE
        white = points[winner] if diff <= 7 else points[other(winner)]
    return {"tiles": tiles, "items": items, "host": host, "groups": groups, "conn": conn, "triples": triples,
            "total": total, "points": points, "base": base, "diff": diff, "winner": winner,
            "white": white}


def other(color: str) -> str:
    return BLUE if color == RED else RED


# --------------------------------------------------------------------- the round, step by step

@dataclass(slots=True)
class RoundWork:
    """The round being resolved: what every step reads, and the facts, log and sums they add to.
    Each fact gets the audience it has in an ordinary round; `settle_audiences` decides the rest."""
    st: FlickeringState             # the state the round resolves into (a copy: the input is never changed)
    rd: int
    fog: bool                       # Round 4, Fog of War
    round_input: RoundInput
    rng: Rng
    opts: Options
    cur: OpenRound
    assign: dict[str, Seat]         # the open round's teams and roles, by player
    players: list[str]
    white: str
    g0: Grid                        # the round-start grid
    log: list[str]
    facts: list[Any] = field(default_factory=list)
    raised: dict[Square, int] = field(default_factory=dict)       # every increase, by space
    reductions: dict[Square, int] = field(default_factory=dict)   # blocks and defends, by space
    flips: list[tuple[str, Square]] = field(default_factory=list)
    missing_white: tuple[str, ...] = ()
    requests: list[DecisionRequest] = field(default_factory=list)

    def add(self, s: Square, n: int) -> None:
        self.raised[s] = self.raised.get(s, 0) + n


def resolve_round(state: FlickeringState, round_input: RoundInput, rng: Rng) -> RoundResult:
    """The round as facts (section (c) decides each one's audience), then the next round opened."""
    w = start_round(state, round_input, rng)
    tell_what_was_known(w)
    for p in w.players:
        apply_submission(w, p)
    locks = apply_value_items(w)
    values = space_values(w)
    g1 = flip_spaces(w, locks)
    final = recolour(w, values, g1, locks)
    ruled_tiles = apply_manual_items(w, final)
    score(w, final, ruled_tiles)
    return finish_round(w, settle_audiences(w))


def round_copy(state: FlickeringState) -> FlickeringState:
    """The state a round resolves into. Only what a round writes in place is copied (a JSON round trip
    of the whole state cost more): the totals and the lists it appends to. The open round ("current")
    and the log are replaced, never written in place; options and players are only read."""
    st = state.copy()
    st["totals"] = dict(state["totals"])
    st["history"] = list(state["history"])
    st["used_grids"] = list(state["used_grids"])
    return st


def start_round(state: FlickeringState, round_input: RoundInput, rng: Rng) -> RoundWork:
    """The round's working copy; the host log of its opening comes first."""
    st = round_copy(state)
    rd = int(st["round"])
    cur = st["current"]
    players = list(st["players"])
    white = next(p for p in players if cur["assign"][p]["team"] == Team.WHITE.value)
    log: list[str] = [f"Round {rd} ({Variation(rd).title}) resolution"]
    if st.get("log"):
        log = list(st["log"]) + log
    st["log"] = []
    return RoundWork(st, rd, rd == Variation.FOG.value, round_input, rng, options_of(st), cur, cur["assign"], players,
                     white, parse_grid(cur["grid"]), log)


def tell_what_was_known(w: RoundWork) -> None:
    """What everyone, or each player, knew when the round opened (R3, R23, R32, R48-R50, A18)."""
    rd, cur, assign = w.rd, w.cur, w.assign
    for p in w.players:
        w.facts.append(TeamRole(rd, p, assign[p]["team"], assign[p]["role"], audience=(p,)))
    for p, names in sorted(cur["lists"].items()):
        w.facts.append(CoordinatorList(rd, p, tuple(names), audience=(p,)))
    w.facts.append(RolesInPlay(rd, tuple(cur["roles"]), audience=(w.white,)))
    for it in cur["items"]:
        w.facts.append(BoardItem(rd, it["name"], it["kind"], tuple(sq_name(tuple(s)) for s in it["squares"]),
                                 it["amount"], it["text"]))
    w.facts.append(BoardGrid(rd, "start", tuple(cur["grid"])))
    if w.fog:
        centre, known = fog_knowledge(rd, cur)
        w.facts.append(centre)
        w.facts += [known[p] for p in w.players]


def apply_submission(w: RoundWork, p: str) -> None:
    """One player's submission as the rules apply it: its problems or the default (A32, A33), Round 4's
    replacements (A23), the raised spaces, then blocks, defends and the flip."""
    team, role = Team(w.assign[p]["team"]), Role(w.assign[p]["role"])
    sub = w.round_input.submissions.get(p)
    vals = submitted_values(w, p, team)
    sections = sections_of(w.st, p)
    lists: dict[str, list] = {sec: list(vals.get(sec, [])) for sec in sections if sec != "mediator"}
    red_sq = vals.get("red_space") if "mediator" in sections else None
    blue_sq = vals.get("blue_space") if "mediator" in sections else None
    replaced: list[FogReplacement] = []
    if w.fog:
        red_sq, blue_sq = replace_fog_entries(w, p, team, role, lists, red_sq, blue_sq, replaced)
    raised = raise_spaces(w, role, lists, red_sq, blue_sq)
    if team is Team.WHITE:
        w.missing_white = tuple(f for f, v in (("red_space", red_sq), ("blue_space", blue_sq)) if v is None)
    cut = reduce_and_flip(w, p, lists)
    if w.fog and sub is not None:
        typed = [v for sec in ("spaces", "block", "flip") for v in (vals.get(sec) or []) if v]
        typed += [v for v in (vals.get("red_space"), vals.get("blue_space")) if v]
        w.facts.append(FogReceived(w.rd, p, tuple(typed), audience=(p,)))
    w.facts.append(SpacesApplied(w.rd, p, sub is not None, tuple(raised), cut["block"], cut["defend"],
                                 cut["flip"][0] if cut["flip"] else "", tuple(replaced), audience=(p,)))
    abil = [f"{sec} {v}" for sec in ("block", "defend", "flip") for v in cut[sec]]
    w.log.append(f"{p} ({team.value} {role.value}): spaces "
                 + (", ".join(f"{r.square} (+{r.amount})" for r in raised) or "none")
                 + (f"; {', '.join(abil)}" if abil else ""))


def submitted_values(w: RoundWork, p: str, team: Team) -> Mapping[str, Any]:
    """The parsed values, their problems told to the player (A33, A37); nothing submitted: no spaces
    and no abilities, and a White player who 'must' submit is flagged (R13, A32)."""
    sub = w.round_input.submissions.get(p)
    if sub is None:
        w.facts.append(NoSpacesSubmitted(w.rd, p, audience=(p,)))
        if team is Team.WHITE:
            w.log.append(f"{p} (White) submitted nothing; the White player 'must' submit two spaces "
                         "(R13): flagged (A32)")
        return default_submission(w.st, p, w.rng)
    for pr in sub.problems:
        w.log.append("problem: " + pr.message)
        w.facts.append(SpacesProblem(w.rd, p, pr, audience=(p,)))
    return sub.values


def replace_fog_entries(w: RoundWork, p: str, team: Team, role: Role, lists: dict[str, list],
                        red_sq: str | None, blue_sq: str | None, replaced: list[FogReplacement]
                        ) -> tuple[str | None, str | None]:
    """Round 4: an entry of the wrong colour is replaced in its slot by a seeded random square of the
    needed colour, or dropped when none qualifies (A23, A25). Returns White's red and blue spaces."""
    frng = w.rng.fork("fog-replace", p)
    g0 = w.g0
    for sec, lst in lists.items():
        need = team.color if sec == "spaces" else team.other.color
        adj = w.opts.adjacency if (sec == "spaces" and role is Role.DEMOLITIONIST) else None
        for i, v in enumerate(lst):
            if v is None or g0[square_of(v)] == need:
                continue
            taken = {square_of(t) for j, t in enumerate(lst) if t is not None and j != i}
            cands = [s for s in ALL_SQUARES if g0[s] == need and s not in taken
                     and not (adj and any(adjacent(s, t, adj) for t in taken))]
            new = sq_name(frng.choice(cands)) if cands else None
            lst[i] = new
            replaced.append(FogReplacement(sec, v, new or "", COLOR_NAME[need]))
            w.log.append(f"{p}: round 4 {sec}: {v} was not {COLOR_NAME[need]}; "
                         + (f"replaced by {new} at random (A23)" if new else "nothing qualified; dropped"))
    for fld, need in (("red_space", RED), ("blue_space", BLUE)):
        v = red_sq if fld == "red_space" else blue_sq
        if v is None or g0[square_of(v)] == need:
            continue
        new = sq_name(frng.choice([s for s in ALL_SQUARES if g0[s] == need]))
        replaced.append(FogReplacement(fld, v, new, COLOR_NAME[need]))
        w.log.append(f"{p}: {fld} {v} replaced by {new} (A23)")
        if fld == "red_space":
            red_sq = new
        else:
            blue_sq = new
    return red_sq, blue_sq


def raise_spaces(w: RoundWork, role: Role, lists: Mapping[str, list], red_sq: str | None,
                 blue_sq: str | None) -> list[SpaceRaise]:
    """The first space +2 (a Sniper's +4), the others +1; White's red and blue +1 each; a dropped space's
    slot renumbered or kept as the host chose (R11-R15, R24, A5, A15, A33)."""
    raised: list[SpaceRaise] = []
    if "spaces" in lists:
        slots = lists["spaces"]
        if w.opts.invalid_entries == "drop_and_renumber":
            slots = [v for v in slots if v is not None]
        for i, v in enumerate(slots):
            if v is None:
                continue
            n = (4 if role is Role.SNIPER else 2) if i == 0 else 1
            w.add(square_of(v), n)
            raised.append(SpaceRaise(v, n))
    for v in (red_sq, blue_sq):
        if v is not None:
            w.add(square_of(v), 1)
            raised.append(SpaceRaise(v, 1))
    return raised


def reduce_and_flip(w: RoundWork, p: str, lists: Mapping[str, list]) -> dict[str, tuple[str, ...]]:
    """Blocks and defends take 1 each from a space (R27, R28, R40-R42, A12, A13); a Saboteur's flip is
    kept for after the values (R30)."""
    cut = {sec: tuple(v for v in lists.get(sec, []) if v is not None) for sec in ("block", "defend", "flip")}
    for sec in ("block", "defend"):
        for v in cut[sec]:
            s = square_of(v)
            w.reductions[s] = w.reductions.get(s, 0) + 1
    for v in cut["flip"]:
        w.flips.append((p, square_of(v)))
    return cut


def apply_value_items(w: RoundWork) -> set[Square]:
    """Value items raise their squares; lock items' squares are returned (A18)."""
    locks = {tuple(s) for it in w.cur["items"] if it["kind"] == "lock" for s in it["squares"]}
    for it in w.cur["items"]:
        if it["kind"] == "value":
            for s in it["squares"]:
                w.add(tuple(s), it["amount"])
    return locks


def space_values(w: RoundWork) -> dict[Square, int]:
    """Each space's X = max(0, increases - blocks and defends) (R16, R28, R41, R42, A5, A6)."""
    values = {s: max(0, n - w.reductions.get(s, 0)) for s, n in w.raised.items()}
    for s in sorted(set(w.raised) | set(w.reductions)):
        w.facts.append(SpaceValue(w.rd, sq_name(s), w.raised.get(s, 0), w.reductions.get(s, 0), values.get(s, 0),
                                  audience=HOST_ONLY))
    return values


def flip_spaces(w: RoundWork, locks: set[Square]) -> Grid:
    """The Saboteurs' flips, after the values and before recolouring; a locked square keeps its colour
    (R30, R31, A10, A11, A18). Returns the grid after the flips."""
    g1 = dict(w.g0)
    for p, s in w.flips:
        before = g1[s]
        if s in locks:
            w.log.append(f"flip of {sq_name(s)} has no effect: the square is locked")
        elif g1[s] in (RED, BLUE):
            g1[s] = other(g1[s])
        w.facts.append(SaboteurFlip(w.rd, p, sq_name(s), COLOR_NAME[before], COLOR_NAME[g1[s]], audience=HOST_ONLY))
    w.facts.append(BoardGrid(w.rd, "after_flips", rows_of(g1), audience=HOST_ONLY))
    return g1


def recolour(w: RoundWork, values: Mapping[Square, int], g1: Grid, locks: set[Square]) -> Grid:
    """Every space with X >= 1 recolours the squares within X, all at once; locked squares keep their
    round-start colour (R17-R20, A3, A4, A7-A10, A18). Returns the resulting grid."""
    spread = g1 if w.opts.flip_spreads else w.g0
    keep = g1 if w.opts.tie_keeps == "after_flip" else w.g0
    final = recolor(g1, values, w.opts, spread, keep)
    for s in locks:
        final[s] = w.g0[s]
    w.log.append("values: " + (", ".join(f"{sq_name(s)}={x}" for s, x in sorted(values.items()) if x) or "none"))
    if w.flips:
        w.log.append("flips: " + ", ".join(sq_name(s) for _, s in w.flips))
    return final


def apply_manual_items(w: RoundWork, final: Grid) -> dict[str, int]:
    """Manual items: the host's rulings, decisions of this round, set their squares' colour and add
    tiles; until ruled, as resolved and 0 tiles (A18). Then the resulting grid is told. Returns the
    tiles the rulings add per colour."""
    host_tiles = {RED: 0, BLUE: 0}
    for it in w.cur["items"]:
        if it["kind"] != "manual":
            continue
        sqs = tuple(sq_name(tuple(s)) for s in it["squares"])
        reqs = item_requests(w.rd, it)
        w.requests += reqs
        got: dict[str, Any] = {r.key: w.round_input.decisions.get(r.key) for r in reqs}
        colour_word = got[reqs[0].key] if got[reqs[0].key] not in (None, AS_RESOLVED) else ""
        red_n, blue_n = int(got[reqs[1].key] or 0), int(got[reqs[2].key] or 0)
        if colour_word:
            for s in it["squares"]:
                final[tuple(s)] = colour_letter(colour_word)
        host_tiles[RED] += red_n
        host_tiles[BLUE] += blue_n
        pending = tuple(k for k, v in got.items() if v is None)
        w.facts.append(ManualItemRuling(w.rd, it["name"], sqs, colour_word, red_n, blue_n, pending))
        w.log.append(f"manual item {it['name']}: " + ("pending the host's rulings " + ", ".join(pending)
                                                     if pending else "ruled by the host")
                     + f"; squares {colour_word or AS_RESOLVED}, tiles red {red_n:+d}, blue {blue_n:+d}")
    w.facts.append(BoardGrid(w.rd, "final", rows_of(final)))
    return host_tiles


def score(w: RoundWork, final: Grid, host_tiles: Mapping[str, int]) -> None:
    """Each Red/Blue player scores their side's points, White the Mediator's (R33-R36, A28, A29), less
    the A32 penalty hook (off by default); the round is added to the totals and the history."""
    st, rd, assign, white = w.st, w.rd, w.assign, w.white
    bonus_items = [it for it in w.cur["items"] if it["kind"] == "bonus"]
    sc = score_round(Variation(rd), final, w.opts, bonus_items, host_tiles)
    pts: dict[str, int] = {}
    for p in w.players:
        t = assign[p]["team"]
        pts[p] = sc["white"] if t == "White" else sc["points"][Team(t).color]
    penalty = w.opts.white_missing_penalty
    if penalty > 0 and w.missing_white:
        lost = min(penalty, pts[white])
        pts[white] -= lost
        w.facts.append(MediatorPenalty(rd, white, w.missing_white, lost, audience=(white,)))
        w.log.append(f"{white} (White) left out {', '.join(w.missing_white)}: -{lost} point(s) (A32 penalty hook)")
    for p in w.players:
        st["totals"][p] += pts[p]
    w.log.append(f"tiles red {sc['tiles'][RED]}, blue {sc['tiles'][BLUE]}; totals red {sc['total'][RED]}, "
                 f"blue {sc['total'][BLUE]}; points " + ", ".join(f"{p} {pts[p]}" for p in w.players))
    st["history"].append({"round": rd, "grid_start": w.cur["grid"], "grid_end": grid_rows(final),
                          "assign": assign, "roles": w.cur["roles"], "points": pts,
                          "score": {"tiles": [sc["tiles"][RED], sc["tiles"][BLUE]],
                                    "total": [sc["total"][RED], sc["total"][BLUE]]}})
    w.facts += score_facts(st, rd, final, sc, pts, white)


def settle_audiences(w: RoundWork) -> list[Any]:
    """Who may know what (section (c)): Round 4 hides the board, the scores and what was applied until
    the end (R52, A23); the play itself is the host's unless reveal_play_at_end (A35). What a later
    audience may learn is kept in the state and re-stated in the last round."""
    finished = w.rd == ROUNDS
    fog, reveal_play = w.fog, w.opts.reveal_play_at_end
    out: list[Any] = []
    later: list[Any] = []
    for f in w.facts:
        at_end = PUBLIC if (is_play(f) and reveal_play) else f.audience
        now = HOST_ONLY if fog and isinstance(f, FOG_HIDDEN) else f.audience
        if finished:
            now = at_end
        if at_end != now or (fog and isinstance(f, TeamRole)):
            later.append(replace(f, audience=at_end))
        out.append(f if now == f.audience else replace(f, audience=now))
    w.st["history"][-1]["end_facts"] = to_json(later)
    return out


def finish_round(w: RoundWork, out: list[Any]) -> RoundResult:
    """After Round 5 the match ends: the hidden facts re-stated, the alignments revealed (R22, A35), the
    host's tie decisions and the garnets (A30, A31); otherwise the next round opens (R1)."""
    st, rd = w.st, w.rd
    ledger: list[LedgerEntry] = []
    if rd == ROUNDS:
        st["finished"] = True
        for h in st["history"][:-1]:
            out += [f for f in from_json(h.get("end_facts") or [])]
        roles = w.opts.reveal_roles_at_end
        out += [TeamsRevealed(p, tuple(h["assign"][p]["team"] for h in st["history"]),
                              tuple(h["assign"][p]["role"] for h in st["history"]) if roles else ())
                for p in sorted(w.players)]
        w.requests += tie_requests(st)
        ledger = end_ledger(st, w.round_input.balances, w.round_input.decisions)
    else:
        st["round"] = rd + 1
        w.log += open_round(st, rd + 1, w.round_input.tables, w.rng.fork("open", rd + 1))
    return RoundResult(cast(State, st), ledger=tuple(ledger), host_log=tuple(w.log), facts=tuple(out),
                       requests=tuple(w.requests))


def score_facts(st: FlickeringState, rd: int, final: Grid, sc: Mapping[str, Any], pts: Mapping[str, int],
                 white: str) -> list[Any]:
    """The tile counts, both sides' scores, the Mediator's check and every player's points, with
    the audience of an ordinary round (R33-R37, A35)."""
    gray = sum(1 for s in ALL_SQUARES if final[s] == GRAY)
    out: list[Any] = [ColourCounts(rd, sc["tiles"][RED], sc["tiles"][BLUE], gray)]
    for c in (RED, BLUE):
        out.append(SideScore(rd, COLOR_NAME[c], sc["tiles"][c], sc["items"][c], sc["host"][c], sc["groups"][c],
                             sc["conn"][c], sc["triples"][c], sc["total"][c],
                             sc["total"][c] > sc["total"][other(c)], sc["points"][c]))
    out.append(MediatorCheck(rd, white, sc["diff"], COLOR_NAME[sc["winner"]] if sc["winner"] else "",
                             sc["white"], audience=(white,)))
    out += [PlayerPoints(rd, p, pts[p], st["totals"][p], audience=(p,)) for p in st["players"]]
    return out


def item_requests(rd: int, it: Mapping[str, Any]) -> list[DecisionRequest]:
    """A18: a manual item stops for the host's rulings, one per thing the host may override."""
    k_sq, k_red, k_blue = item_keys(rd, it["name"])
    sqs = " ".join(sq_name(tuple(s)) for s in it["squares"])
    what = f"Round {rd}, item {it['name']} on {sqs}" + (f" ({it['text']})" if it["text"] else "")
    return [
        DecisionRequest(k_sq, f"{what}: which colour do its squares end the round with?", DecisionKind.CHOICE,
                        (AS_RESOLVED, "red", "blue", "gray"), round=rd, default=AS_RESOLVED),
        DecisionRequest(k_red, f"{what}: tiles it adds to Red's count (0 for none, negative to take away)",
                        DecisionKind.NUMBER, round=rd, default="0 tiles"),
        DecisionRequest(k_blue, f"{what}: tiles it adds to Blue's count (0 for none, negative to take away)",
                        DecisionKind.NUMBER, round=rd, default="0 tiles"),
    ]
