"""A new game (``setup``) and its pregame (round 0, R16-R26, A26-A30): each player's two priority
lists are given out pass by pass, a contested coordinate to the highest bid, then a seeded draw; the
bids are charged and every starting node is shown, unlabelled.

Steps, in the rulebook's order: :func:`read_lists`, :func:`cap_bids`, :func:`give_out_lists`,
:func:`place_nodes`, :func:`charge_bids`, :func:`show_start`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from ...core.errors import ConfigError
from ...core.facts import HOST_ONLY
from ...core.rng import Rng
from ...core.parsing import table_key
from ...core.types import LedgerEntry, RoundInput, RoundResult, State, Tables
from .board import BLACK, BLUE, cell_fine, fine_label, key_of, node_word, ordinal, own_xy, point_fine
from .content import _read_missions_cached, refresh_missions
from .facts import (IntakeProblem, LedgerReason, NodeMarker, NoSubmission, PriorityBid, PriorityClaim,
                    PriorityFallback, PriorityPass, StartingNode, board_fact, presented_facts)
from .intake import default_submission
from .options import Options, cell_label, options_of, parse_blocked
from .spec import DEFAULTS, LIST_LENGTH, MISSIONS_TABLE


def setup(players: Sequence[str], options: Mapping[str, Any], tables: Tables, rng: Rng) -> State:
    """A new game's state, the pregame open (R1-R11, A1, A36): the options checked and kept as given
    (blocked_cells in board order), every player blue-bordered with nothing yet, the missions read."""
    opts = {**DEFAULTS, **options}
    if not 2 <= opts["columns"] <= 26 or not 2 <= opts["rows"] <= 26 or opts["rounds"] < 1:
        raise ConfigError("options columns and rows must be 2 to 26, and rounds at least 1")
    blocked, bad = parse_blocked(opts["blocked_cells"], opts["columns"], opts["rows"])
    if bad:
        raise ConfigError(f"option blocked_cells: {', '.join(bad)} is not a cell of the "
                          f"{opts['columns']}x{opts['rows']} board; list cells such as C3, D4")
    opts["blocked_cells"] = ", ".join(cell_label(*c) for c in blocked)
    usable = opts["columns"] * opts["rows"] - len(blocked)
    if len(players) > usable:
        raise ConfigError(f"{len(players)} players do not fit on {usable} usable cells; "
                          "block fewer cells (option blocked_cells) or use a larger board")
    # As read, shared with every game of this table: a round copies a mission before writing to it.
    missions = list(_read_missions_cached(table_key(tables.get(MISSIONS_TABLE)))[0])
    return {"round": 0, "finished": False, "options": opts, "players": list(players),
            "nodes": {}, "border_colour": {p: BLUE for p in players},
            "fireflies": {p: 0 for p in players}, "missions_completed": {p: 0 for p in players},
            "collisions": {p: 0 for p in players}, "missions": missions, "board": None,
            "history": {p: [] for p in players}, "last_actions": {p: [] for p in players},
            "pending_manual": [], "final": None}


def resolve_pregame(st: State, ri: RoundInput, rng: Rng) -> RoundResult:
    """Round 0: the starting nodes (R16-R26, A26-A30), then the missions of round 1 (A21)."""
    opts, players = options_of(st["options"]), st["players"]
    host_log: list[str] = []
    ledger: list[LedgerEntry] = []
    facts: list[Any] = []
    vals = read_lists(st, ri, rng, facts, host_log)
    bids = cap_bids(players, vals, ri.balances, opts, host_log)
    given = give_out_lists(players, vals, bids, opts, rng, facts, host_log)
    place_nodes(st, given, opts, facts)
    charge_bids(players, bids, given, opts, ledger, facts)
    refresh_missions(st, ri.tables, 0, host_log)
    st["round"] = 1
    show_start(st, opts, facts)
    facts += presented_facts(st, 1)
    return RoundResult(st, ledger=tuple(ledger), host_log=tuple(host_log), facts=tuple(facts))


def read_lists(st: State, ri: RoundInput, rng: Rng, facts: list[Any], host_log: list[str]
               ) -> dict[str, Mapping[str, Any]]:
    """Each player's lists and bids as parsed; none submitted: random free coordinates (E-P4)."""
    vals: dict[str, Mapping[str, Any]] = {}
    for p in st["players"]:
        sub = ri.submissions.get(p)
        vals[p] = sub.values if sub is not None else default_submission(st, p, rng)
        if sub is None:
            host_log.append(f"{p}: no pregame submission; random free coordinates (E-P4)")
            facts.append(NoSubmission(p, "pregame", audience=(p,)))
        else:
            facts.extend(IntakeProblem(p, pr, audience=(p,)) for pr in sub.problems)
    return vals


@dataclass
class Bids:
    """Each player's tiebreak bids as typed (wanted) and after the cap, per list."""
    wanted_c: dict[str, int]
    wanted_b: dict[str, int]
    bids_c: dict[str, int]
    bids_b: dict[str, int]


def cap_bids(players: Sequence[str], vals: Mapping[str, Mapping[str, Any]], balances: Mapping[str, Any],
             opts: Options, host_log: list[str]) -> Bids:
    """The bids (R21, A26), capped by the player's garnets (E-P5)."""
    bids = Bids({}, {}, {}, {})
    wanted_c, wanted_b, bids_c, bids_b = bids.wanted_c, bids.wanted_b, bids.bids_c, bids.bids_b
    for p in players:
        bal = max(0, int(balances.get(p, 0)))
        if opts.bid_scope == "shared":
            want = int(vals[p].get("bid", 0) or 0)
            wanted_c[p] = wanted_b[p] = want
            bids_c[p] = bids_b[p] = min(want, bal)
        else:
            wc, wb = int(vals[p].get("central_bid", 0) or 0), int(vals[p].get("border_bid", 0) or 0)
            wanted_c[p], wanted_b[p] = wc, wb
            bids_c[p] = min(wc, bal)
            bids_b[p] = min(wb, bal - bids_c[p])
        if (bids_c[p], bids_b[p]) != (wanted_c[p], wanted_b[p]):
            host_log.append(f"{p}: bids capped at the balance {bal} (E-P5)")
    return bids


@dataclass
class Given:
    """What the passes gave out: player -> key per list, the players in a tie, the records of each pass."""
    got_c: dict[str, str]
    got_b: dict[str, str]
    contested_c: set[str]
    contested_b: set[str]
    records_c: list[dict[str, Any]]
    records_b: list[dict[str, Any]]


def give_out_lists(players: Sequence[str], vals: Mapping[str, Mapping[str, Any]], bids: Bids, opts: Options,
                   rng: Rng, facts: list[Any], host_log: list[str]) -> Given:
    """The central list's passes, then the border list's (R22-R25, A27, A30), each with a draw of its own."""
    cols, rows, blocked = opts.columns, opts.rows, opts.blocked
    cells = [key_of(cell_fine(c, r)) for r in range(rows) for c in range(cols) if cell_fine(c, r) not in blocked]
    points = [key_of(point_fine(x, y)) for y in range(rows + 1) for x in range(cols + 1)]
    if len(players) > len(cells):
        raise ConfigError("more players than usable cells; block fewer cells (option blocked_cells)")
    rec_c: list[dict[str, Any]] = []
    rec_b: list[dict[str, Any]] = []

    def label_of(key: str) -> str:
        return fine_label([int(v) for v in key.split(",")], cols, rows)

    got_c, how_c, con_c, log_c = assign_nodes({p: list(vals[p]["central"]) for p in players}, bids.bids_c, cells,
                                              rng.fork("pregame", "central"), opts.pregame_mode, "central",
                                              rec_c, label_of)
    got_b, how_b, con_b, log_b = assign_nodes({p: list(vals[p]["border"]) for p in players}, bids.bids_b, points,
                                              rng.fork("pregame", "border"), opts.pregame_mode, "border",
                                              rec_b, label_of)
    host_log += log_c + log_b
    for what, records in (("central", rec_c), ("border", rec_b)):
        for rec in records:
            if rec["decided_by"] == "fallback":
                facts.append(PriorityFallback(what, rec["winner"], label_of(rec["key"]), rec["free"],
                                              audience=HOST_ONLY))
            else:
                facts.append(PriorityPass(what, rec["pass"], label_of(rec["key"]),
                                          tuple(PriorityClaim(*c) for c in rec["claimants"]), rec["winner"],
                                          rec["decided_by"], tuple(rec["drawn_among"]), audience=HOST_ONLY))
    return Given(got_c, got_b, con_c, con_b, rec_c, rec_b)


def place_nodes(st: State, given: Given, opts: Options, facts: list[Any]) -> None:
    """Each player's nodes where the passes put them, border blue and central black (R23, R24, R11)."""
    cols, rows = opts.columns, opts.rows
    choice_of: dict[tuple[str, str], int] = {}
    for what, records in (("C", given.records_c), ("B", given.records_b)):
        for rec in records:
            choice_of[(what, rec["winner"])] = dict((c, i) for c, i, _ in rec["claimants"]).get(rec["winner"], 0)
    for p in st["players"]:
        st["nodes"][p] = {"B": [int(v) for v in given.got_b[p].split(",")],
                          "C": [int(v) for v in given.got_c[p].split(",")]}
        st["border_colour"][p] = BLUE   # R11
        for n in "CB":
            at = st["nodes"][p][n]
            facts.append(StartingNode(p, node_word(n), own_xy(at), fine_label(at, cols, rows), choice_of[(n, p)],
                                      BLUE if n == "B" else BLACK, audience=(p,)))


def charge_bids(players: Sequence[str], bids: Bids, given: Given, opts: Options, ledger: list[LedgerEntry],
                facts: list[Any]) -> None:
    """The bids are charged in full, or only to players who were in a tie (bid_charge, A26)."""
    con_c, con_b = given.contested_c, given.contested_b
    for p in players:
        if opts.bid_scope == "shared":
            pay = bids.bids_c[p] if (opts.bid_charge == "always" or p in con_c or p in con_b) else 0
            if pay:
                ledger.append(LedgerEntry(p, -pay, LedgerReason.PREGAME_BID.value,
                                          "pregame tiebreak bid (both lists)"))
            facts.append(PriorityBid(p, "both", bids.wanted_c[p], bids.bids_c[p], pay, audience=(p,)))
        else:
            pc = bids.bids_c[p] if (opts.bid_charge == "always" or p in con_c) else 0
            pb = bids.bids_b[p] if (opts.bid_charge == "always" or p in con_b) else 0
            if pc:
                ledger.append(LedgerEntry(p, -pc, LedgerReason.PREGAME_BID_CENTRAL.value,
                                          "pregame tiebreak bid (central list)"))
            if pb:
                ledger.append(LedgerEntry(p, -pb, LedgerReason.PREGAME_BID_BORDER.value,
                                          "pregame tiebreak bid (border list)"))
            facts.append(PriorityBid(p, "central", bids.wanted_c[p], bids.bids_c[p], pc, audience=(p,)))
            facts.append(PriorityBid(p, "border", bids.wanted_b[p], bids.bids_b[p], pb, audience=(p,)))


def show_start(st: State, opts: Options, facts: list[Any]) -> None:
    """The public board: every starting node, unlabelled, in its Round 1 colour (R26, R11), in board
    order so that nothing pairs a border node with its central node."""
    cols, rows, players = opts.columns, opts.rows, st["players"]
    st["board"] = {"round": 0, "segments": [], "in_post": True,   # the pregame's post shows it
                   "starts": [{"at": st["nodes"][p][n], "colour": BLUE if n == "B" else BLACK}
                              for p in sorted(players) for n in "BC"], "ends": []}
    facts.append(board_fact(st, 0))
    facts += sorted((NodeMarker("start", node_word(n), own_xy(st["nodes"][p][n]),
                                fine_label(st["nodes"][p][n], cols, rows), BLUE if n == "B" else BLACK)
                     for p in players for n in "BC"), key=lambda f: (f.node, f.at[1], f.at[0]))


def assign_nodes(lists: Mapping[str, Sequence[str | None]], bids: Mapping[str, int], universe: Sequence[str],
                 rng: Rng, mode: str, what: str, records: list[dict[str, Any]] | None = None,
                 label: Callable[[str], str] = str) -> tuple[dict[str, str], dict[str, str], set[str], list[str]]:
    """Pass-by-pass assignment of one node type (R22-R25, A27, A30).

    Returns (player -> key, player -> how it was got, players who were in a tie, log lines).
    `records`, when given, receives one dict per coordinate given out: pass, key, claimants
    [(player, choice, bid)], winner, decided_by ("alone", "bid", "draw", "fallback"), drawn_among.
    `label` names a key in the log as players type it ("C3", "C1 bottom right")."""
    players = sorted(lists)
    taken: dict[str, str] = {}
    got: dict[str, str] = {}
    how: dict[str, str] = {}
    contested: set[str] = set()
    log: list[str] = []
    records = records if records is not None else []
    passes = LIST_LENGTH if mode == "strict" else len(universe)
    for k in range(passes):
        claims: dict[str, list[tuple[str, int]]] = {}
        for p in players:
            if p in got:
                continue
            if mode == "strict":
                entries = list(lists[p])
                key = entries[k] if k < len(entries) else None
                if key is None or key in taken:
                    continue
                claims.setdefault(key, []).append((p, k))
            else:
                for i, key in enumerate(lists[p]):
                    if key is not None and key not in taken:
                        claims.setdefault(key, []).append((p, i))
                        break
        if not claims:
            if mode == "strict":
                continue
            break
        for key in sorted(claims):
            cands = claims[key]
            names = [c for c, _ in cands]
            drawn: list[str] = []
            if len(cands) == 1:
                winner, by = names[0], "alone"
            else:
                contested.update(names)
                top = max(bids.get(c, 0) for c in names)
                tops = sorted(c for c in names if bids.get(c, 0) == top)
                if len(tops) == 1:
                    winner, by = tops[0], "bid"
                    log.append(f"{what} pass {k + 1}: {label(key)} wanted by {', '.join(sorted(names))}; "
                               f"{winner} bid most ({top})")
                else:
                    winner, by, drawn = rng.choice(tops), "draw", tops
                    log.append(f"{what} pass {k + 1}: {label(key)} wanted by {', '.join(sorted(names))}; "
                               f"bids tied at {top} among {', '.join(tops)}; seeded draw: {winner}")
            taken[key] = winner
            got[winner] = key
            choice = dict(cands)[winner]
            how[winner] = f"your {ordinal(choice + 1)} choice"
            records.append({"pass": k + 1, "key": key, "claimants": [(c, i + 1, bids.get(c, 0)) for c, i in cands],
                            "winner": winner, "decided_by": by, "drawn_among": drawn})
    for p in players:
        if p not in got:
            free = sorted(k for k in universe if k not in taken)
            key = rng.choice(free)
            taken[key] = p
            got[p] = key
            how[p] = "a random free coordinate (no entry of your list could be given)"
            log.append(f"{what}: {p} got no listed coordinate; seeded draw among free ones: {label(key)} (A27)")
            records.append({"pass": 0, "key": key, "claimants": [], "winner": p, "decided_by": "fallback",
                            "drawn_among": [], "free": len(free)})
    return got, how, contested, log


# ------------------------------------------------------------- round results as data
# Every report and picture is drawn from these (render, picture below). Coordinates are each
# node's own: a border node on corner (x, y), x = 0..columns, y = 0..rows; a central node in
# cell (c, r), 0-based (A3); labels are as players write them ("C3", "C1 bottom right").
