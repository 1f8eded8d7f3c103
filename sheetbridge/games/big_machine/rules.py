"""The Big Machine's rules as steps in the rulebook's order: the teams and the new game, meadow
selection (round 0), then each round in the rulings' proposed order (trades, validation, sabotage,
jump charges, movement, auctions, installs, traversal, gifts), then the end (R48-R61).

`resolve_round` reads as the list of steps; each step works on the round's copy of the state.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Mapping, Sequence, cast

from ...core.decisions import DecisionKind, DecisionRequest
from ...core.errors import ConfigError
from ...core.facts import HOST_ONLY, PUBLIC, Fact
from ...core.outcome_text import plural
from ...core.parsing import clean, split_list
from ...core.rng import Rng
from ...core.types import Award, LedgerEntry, Outcome, Problem, ProblemKind, RoundInput, RoundResult, State, Tables
from .content import (FAULTY, JUMP_COST, MEADOWS, SABOTAGE_COGS, START_COGS, assemble, cogs_text, node_order,
                      points_text, read_catalog, read_relation, read_trades)
from .facts import (CogsGiven, CogsNow, ConnectorTraversed, Ending, LedgerReason, MachineLayout, MachineNow,
                    MachinePayout, MachineScored, MachineTeam, MeadowAuction, MeadowBid, MeadowMove, MeadowPosition,
                    NodeInstalls, NodeJump, PartInstalled, SelfSabotage, StartingMeadow, StartingMeadowDrawn,
                    SubmissionProblem, as_given_part, as_part, machine_facts)
from .intake import allowed_nodes
from .machine import filled_machine, find_connector, install_all, power_key, score_machine
from .options import AdjacentJump, GarnetRounding, NoWinner, Options, Overspend, options_of
from .spec import DEFAULTS, ROUNDS, TRADES_TABLE
from .state import (BigMachineState, Part, TeamRow, machine_of, mates, meadow_now, previous_node, round_copy,
                    start_of)


# --------------------------------------------------------------------- the new game

def form_teams(roster: Sequence[str], spec_text: str) -> list[TeamRow]:
    """A1, M6: teams from the option (player first) and the rest of the roster in order."""
    if len(roster) % 2:
        raise ConfigError(f"The Big Machine needs an even roster (a player and a guest per team); "
                          f"{len(roster)} names given: {', '.join(roster)}.")
    by_fold = {n.casefold(): n for n in roster}
    named: list[tuple[str, str]] = []
    used: set[str] = set()
    for chunk in split_list(spec_text, (";", ",")):
        parts = [clean(x) for x in chunk.replace("&", "+").replace("/", "+").split("+") if clean(x)]
        if len(parts) != 2:
            raise ConfigError(f"option teams: {chunk!r} is not a pair; write Player+Guest, pairs separated by ';'.")
        pair = []
        for x in parts:
            name = by_fold.get(x.casefold())
            if name is None:
                raise ConfigError(f"option teams: {x!r} is not on the roster ({', '.join(roster)}).")
            if name in used:
                raise ConfigError(f"option teams: {name} is named twice; everyone is in exactly one team.")
            used.add(name)
            pair.append(name)
        named.append((pair[0], pair[1]))
    rest = [n for n in roster if n not in used]
    named += [(rest[i], rest[i + 1]) for i in range(0, len(rest), 2)]
    return [{"id": f"Team {i + 1}", "player": p, "guest": g} for i, (p, g) in enumerate(named)]


def setup(players: Sequence[str], options: Mapping[str, Any], tables: Tables, rng: Rng) -> BigMachineState:
    """R1, R11, A1: 2 to 4 teams, everyone with 12 cogs; meadow selection (round 0) opens."""
    opts = dict(DEFAULTS)
    opts.update(options)
    roster = list(players)
    teams = form_teams(roster, Options.parse(opts).teams)
    if not 2 <= len(teams) <= 4:
        raise ConfigError(f"The Big Machine is for 2 to 4 teams; {len(teams)} would be formed.")
    catalog, problems = read_catalog(tables)
    relation, more = read_relation(tables)
    if problems or more:
        raise ConfigError("; ".join(problems + more))
    team_of, role = {}, {}
    for t in teams:
        team_of[t["player"]], role[t["player"]] = t["id"], "player"
        team_of[t["guest"]], role[t["guest"]] = t["id"], "guest"
    return {
        "round": 0, "finished": False, "options": opts, "roster": roster, "teams": teams,
        "team_of": team_of, "role": role, "catalog": catalog, "relation": relation,
        "meadow": {p: None for p in roster}, "start": {p: None for p in roster},
        "cogs": {p: START_COGS for p in roster}, "prev": {p: None for p in roster},
        "machines": {}, "scores": {},
    }


# --------------------------------------------------------------------- what every step uses

def part_power(people_in_meadow: int, power_up: int) -> int:
    """R36, A2: the number of people in the meadow (winner included) plus the power-up."""
    return people_in_meadow + power_up


def highest_unique_bid(bids: Mapping[str, int]) -> str | None:
    """R31-R34, A23: the bidder of the highest value bid by exactly one person, or None."""
    counts = Counter(bids.values())
    unique = [v for v, n in counts.items() if n == 1]
    if not unique:
        return None
    top = max(unique)
    return next(p for p in sorted(bids) if bids[p] == top)


@dataclass
class Turn:
    """One participant's effective move for the round, after defaults and fallbacks (working data)."""
    meadow: str
    bid: int
    power: int
    node: str
    jump: bool
    forced: bool
    sabotage: str | None
    submitted: bool = True


def private(st: BigMachineState, *participants: str) -> tuple[str, ...]:
    """Who may know a participant's own notices, bids and cogs: themselves (A19), or their team
    with share_notices; several participants: everyone any of them may tell."""
    out: list[str] = []
    for p in participants:
        for q in (mates(st, p) if options_of(st).share_notices else (p,)):
            if q not in out:
                out.append(q)
    return tuple(out)


def resolve(state: BigMachineState, round_input: RoundInput, rng: Rng) -> RoundResult:
    """Meadow selection in round 0, then rounds 1-7, each into a copy of the state."""
    st = round_copy(state)
    if st["round"] == 0:
        return resolve_start(st, round_input, rng)
    return resolve_round(st, round_input, rng)


def _result(st: BigMachineState, facts: list[Fact], log: list[str], ledger: Sequence[LedgerEntry] = ()) -> RoundResult:
    return RoundResult(cast(State, st), ledger=tuple(ledger), host_log=tuple(log), facts=tuple(facts))


# --------------------------------------------------------------------- round 0: meadow selection

def resolve_start(st: BigMachineState, round_input: RoundInput, rng: Rng) -> RoundResult:
    """M6, R3-R6, A24: starting meadows, machines assembled; layouts public by default."""
    log: list[str] = [f"round seed {rng.state} (random draws: missing meadows)"]
    facts: list[Fact] = [MachineTeam(t["id"], t["player"], t["guest"]) for t in st["teams"]]
    # the halves "given during meadow selection": the host's tables as they are now (M1, M2)
    catalog, problems = read_catalog(round_input.tables)
    relation, more = read_relation(round_input.tables)
    if not problems and not more:
        st["catalog"], st["relation"] = catalog, relation
    for p in st["roster"]:
        sub = round_input.submissions.get(p)
        meadow = sub.values.get("meadow") if sub else None
        if sub:
            facts.extend(SubmissionProblem(p, pr, audience=private(st, p)) for pr in sub.problems)
        if meadow is None:
            meadow = rng.fork("start", p).choice(MEADOWS)
            log.append(f"{p}: {'no valid submission' if sub else 'no submission'}; random starting meadow {meadow}")
            facts.append(StartingMeadowDrawn(p, meadow, audience=private(st, p)))
        st["start"][p] = st["meadow"][p] = meadow
    public = options_of(st).public_layouts
    for p in st["roster"]:
        facts.append(StartingMeadow(p, st["team_of"][p], st["role"][p], start_of(st, p),
                                    audience=PUBLIC if public else mates(st, p)))
    for t in st["teams"]:
        machine, problems = assemble(st["catalog"], start_of(st, t["player"]), start_of(st, t["guest"]))
        if problems:
            raise ConfigError("; ".join(problems))
        st["machines"][t["id"]] = machine
        nodes, conns = machine_facts(machine, st["relation"], layout=True)
        facts.append(MachineLayout(t["id"], machine["left"], machine["right"], nodes, conns,
                                   audience=PUBLIC if public else (t["player"], t["guest"])))
    facts += apply_host_trades(st, round_input, log)
    st["round"] = 1
    return _result(st, facts, log)


# --------------------------------------------------------------------- rounds 1-7

def resolve_round(st: BigMachineState, round_input: RoundInput, rng: Rng) -> RoundResult:
    """A round in the rulings' proposed order (section e; R30-R47, A16); round 7 ends the game."""
    log: list[str] = [f"round seed {rng.state} (random draws: default install nodes)"]
    ledger: list[LedgerEntry] = []
    cogs_before = dict(st["cogs"])
    facts = apply_host_trades(st, round_input, log)                   # 1. trades before the deadline
    cogs_checked = dict(st["cogs"])    # what the checks below use (A16)
    turns, more = effective_moves(st, round_input, rng, log, ledger)  # 2. validation, 4. jump charges
    facts += more
    sabotages = sabotage(st, turns, log)                              # 3. sabotage, before the auctions
    facts += move(st, turns) + sabotages + positions(st)              # 5. movement
    incoming, auctioned = auctions(st, turns, log)                    # 6. auctions
    facts += auctioned
    facts += install_parts(st, incoming)                              # 7. installs
    facts += traverse(st, turns)                                      # 8-9. traversal, previous nodes
    facts += give_cogs(st, round_input, log)                          # gifts, after the auctions
    facts += [CogsNow(p, cogs_before[p], st["cogs"][p], cogs_checked[p], audience=private(st, p))
              for p in st["roster"]]
    if st["round"] == ROUNDS:
        facts += score_machines(st)
        st["finished"] = True
        paid, payouts = pay_garnets(st)
        ledger += paid
        facts += payouts
    else:
        facts += machines_now(st)
        st["round"] += 1
    return _result(st, facts, log, ledger)


def apply_host_trades(st: BigMachineState, round_input: RoundInput, log: list[str]) -> list[Fact]:
    """A16: the host's recorded trades for this round, before the checks; an overdraft is rejected."""
    trades, _ = read_trades(round_input.tables)
    fold = {p.casefold(): p for p in st["roster"]}
    facts: list[Fact] = []
    for t in trades:
        if t["round"] != st["round"]:
            continue
        a, b = fold.get(t["from"].casefold()), fold.get(t["to"].casefold())
        where = f"{TRADES_TABLE} row {t['row']}"
        if a is None or b is None or a == b:
            log.append(f"{where}: {t['from']} -> {t['to']} ignored: both must be different participants")
        elif not options_of(st).cross_team_trades and st["team_of"][a] != st["team_of"][b]:
            log.append(f"{where}: {a} -> {b} ignored: cross-team trades are off (A16)")
        elif st["cogs"][a] < t["cogs"]:
            log.append(f"{where}: {a} has {st['cogs'][a]} cogs, cannot give {t['cogs']}: rejected (A16)")
            facts.append(CogsGiven(a, b, t["cogs"], "host", made=False, giver_had=st["cogs"][a],
                                   audience=private(st, a)))
        else:
            facts.append(CogsGiven(a, b, t["cogs"], "host", giver_had=st["cogs"][a],
                                   audience=private(st, a, b)))
            st["cogs"][a] -= t["cogs"]
            st["cogs"][b] += t["cogs"]
            log.append(f"{where}: {a} gave {b} {t['cogs']} cogs")
    return facts


def effective_moves(st: BigMachineState, round_input: RoundInput, rng: Rng, log: list[str],
                    ledger: list[LedgerEntry]) -> tuple[dict[str, Turn], list[Fact]]:
    """Section (e), R29, A9: each participant's move after defaults and fallbacks, jumps charged (A7)."""
    r = st["round"]
    turns: dict[str, Turn] = {}
    facts: list[Fact] = []
    for p in st["roster"]:
        sub = round_input.submissions.get(p)
        adj = allowed_nodes(st, p)
        told = private(st, p)
        vals: Mapping[str, Any] = sub.values if sub else {}
        if sub is not None:
            facts.extend(SubmissionProblem(p, pr, audience=told) for pr in sub.problems)
        meadow = vals.get("meadow", st["meadow"][p])
        sabotage = vals.get("sabotage")
        node = vals.get("node")
        jump = bool(vals.get("jump", False)) and r >= 2
        forced = False
        if jump and node is not None:
            jump, node = charge_jump(st, p, node, adj, int(round_input.balances.get(p, 0)), told, log, ledger, facts)
        elif jump:
            jump = False
        if node is None:
            node = rng.fork("node", r, p).choice(adj)
            forced = True
            log.append(f"{p}: random install node {node} (from {', '.join(adj)}; R29, A9, A17)")
        bid, power = cap_bid_and_power(st, p, vals, sabotage, told, log, facts)
        turns[p] = Turn(meadow, bid, power, node, jump, forced, sabotage, sub is not None)
    return turns, facts


def charge_jump(st: BigMachineState, p: str, node: str, adj: list[str], bal: int, told: tuple[str, ...],
                log: list[str], ledger: list[LedgerEntry], facts: list[Fact]) -> tuple[bool, str | None]:
    """R24, A7: a jump charged 5 garnets, left to the host, not needed or void; (jump, node) after it."""
    opts, prev, r = options_of(st), previous_node(st, p), st["round"]
    if opts.adjacent_jump is AdjacentJump.FREE_MOVE and node in adj:   # A7.4 alternative
        facts.append(NodeJump(p, prev, node, "not_needed", audience=told))
        return False, node
    if opts.enforce_garnets and bal < JUMP_COST:           # A7.6, V14
        facts.append(NodeJump(p, prev, node, "no_garnets", bal, audience=told))
        facts.append(SubmissionProblem(p, Problem(
            ProblemKind.ILLEGAL, p, "jump", "yes", f"yes only with at least {JUMP_COST} garnets",
            f"you have {plural(bal, 'garnet')}", f"no jump, nothing charged; the node must be joined to {prev}",
            label="Jump (5 garnets)"), audience=told))
        if node not in adj:
            facts.append(SubmissionProblem(p, Problem(
                ProblemKind.ILLEGAL, p, "node", node, ", ".join(adj),
                f"{node} is not joined to your previous node {prev} without a jump",
                f"a random node joined to {prev}", label="Install node"), audience=told))
            return False, None
        return False, node
    if opts.enforce_garnets:
        ledger.append(LedgerEntry(p, -JUMP_COST, LedgerReason.JUMP.value, memo=f"round {r}: {prev} -> {node}"))
        facts.append(NodeJump(p, prev, node, "charged", JUMP_COST, audience=told))
    else:
        facts.append(NodeJump(p, prev, node, "host_charges", audience=told))
        log.append(f"{p}: jump {prev} -> {node} accepted without a balance check; charge "
                   f"{JUMP_COST} garnets by hand (A7)")
    return True, node


def cap_bid_and_power(st: BigMachineState, p: str, vals: Mapping[str, Any], sabotage: str | None,
                      told: tuple[str, ...], log: list[str], facts: list[Fact]) -> tuple[int, int]:
    """R18, R19, V10, A17, A22: bid + power-up at most the cogs held (+2 with a sabotage)."""
    bid, power = int(vals.get("bid", 0)), int(vals.get("power", 0))
    cap = st["cogs"][p] + (SABOTAGE_COGS if sabotage else 0)
    if bid + power <= cap:
        return bid, power
    if options_of(st).overspend is Overspend.CLAMP:
        power = max(0, min(power, cap - bid))
        bid = min(bid, cap - power)
        applied = f"bid {bid}, power-up {power} (clamped)"
    else:
        applied = "bid 0 and power-up 0"
        bid = power = 0
    log.append(_overspend_note(p, vals, st["cogs"][p], sabotage, applied))
    facts.append(SubmissionProblem(p, Problem(
        ProblemKind.ILLEGAL, p, "bid + power-up", f"{vals.get('bid', 0)} + {vals.get('power', 0)}",
        f"at most {cap} in total", f"you hold {st['cogs'][p]} cogs"
        + (f" + {SABOTAGE_COGS} from sabotage" if sabotage else ""), applied, label="Bid + power-up"),
        audience=told))
    return bid, power


def _overspend_note(p: str, vals: Mapping[str, Any], held: int, sabotage: Any, applied: str) -> str:
    """The host log's line for a bid + power-up over the cogs (V10): the balance checked is the one
    after this round's recorded trades (A16), plus a sabotage's cogs (A22)."""
    bid, power = int(vals.get("bid", 0)), int(vals.get("power", 0))
    extra = f" + {SABOTAGE_COGS} from sabotage" if sabotage else ""
    return (f"{p}: bid {bid} + power-up {power} = {bid + power} is more than the {cogs_text(held)} held after this "
            f"round's recorded trades{extra}: {applied} (A16, A17)")


def sabotage(st: BigMachineState, turns: Mapping[str, Turn], log: list[str]) -> list[Fact]:
    """R25-R28, A5, A6: a faulty part on an empty node for +2 cogs, before the auctions."""
    sabotages: list[Fact] = []
    for t in st["teams"]:
        for q in (t["player"], t["guest"]):
            target = turns[q].sabotage
            if target:
                st["cogs"][q] += SABOTAGE_COGS
                machine_of(st, q)["parts"][target] = FAULTY
                log.append(f"{q}: sabotaged {target} (+{SABOTAGE_COGS} cogs)")
                sabotages.append(SelfSabotage(q, t["id"], target, audience=(t["player"], t["guest"])))
    return sabotages


def move(st: BigMachineState, turns: Mapping[str, Turn]) -> list[Fact]:
    """R30: everyone moves to their meadow; each is told their own move (R67, A19)."""
    facts: list[Fact] = []
    for p in st["roster"]:
        mv = turns[p]
        facts.append(MeadowMove(p, st["team_of"][p], meadow_now(st, p), mv.meadow, mv.bid, mv.power,
                                st["prev"][p] or "", mv.node, mv.submitted, mv.forced, mv.jump,
                                audience=private(st, p)))
        st["meadow"][p] = mv.meadow
    return facts


def positions(st: BigMachineState) -> list[Fact]:
    """R62: where everyone is, public every round."""
    return [MeadowPosition(p, meadow_now(st, p)) for p in st["roster"]]


Incoming = dict[str, dict[str, list[tuple[str, Part]]]]   # team -> node -> (who, part) this round


def auctions(st: BigMachineState, turns: Mapping[str, Turn], log: list[str]) -> tuple[Incoming, list[Fact]]:
    """R31-R40, A2, A3, A23: each meadow's highest unique bid wins a part; the calculation is the
    host's alone (R66, R67); each participant is told the part they install (R37, R38, A20)."""
    incoming: Incoming = {t["id"]: {} for t in st["teams"]}
    installed: dict[str, Part] = {}
    facts: list[Fact] = []
    nothing_without_winner = options_of(st).no_winner is NoWinner.NOTHING
    for meadow in MEADOWS:
        here = [p for p in st["roster"] if st["meadow"][p] == meadow]
        if not here:
            continue
        bids = {p: turns[p].bid for p in here}
        winner = highest_unique_bid(bids)
        counts = Counter(bids.values())
        log.append(f"{meadow}: bids " + ", ".join(f"{p} {bids[p]}" for p in here)
                   + f"; winner {winner or 'nobody'}")
        results, won_part = [], None
        for p in here:
            st["cogs"][p] -= turns[p].bid  # R39
            part: Part
            if p == winner:
                st["cogs"][p] -= turns[p].power  # R40
                part = won_part = {"color": meadow, "power": part_power(len(here), turns[p].power)}
            elif winner is None and nothing_without_winner:
                part = None
            else:
                part = FAULTY
            installed[p] = part
            if part is not None:
                incoming[st["team_of"][p]].setdefault(turns[p].node, []).append((p, part))
            why = "won" if p == winner else "not unique" if counts[bids[p]] > 1 else "outbid"
            results.append(MeadowBid(p, bids[p], turns[p].power, why, as_part(part)))
        facts.append(MeadowAuction(meadow, len(here), tuple(results), winner or "", as_part(won_part),
                                   audience=HOST_ONLY))
    for t in st["teams"]:
        for q in (t["player"], t["guest"]):
            facts.append(PartInstalled(q, t["id"], turns[q].node, as_part(installed[q]),
                                       audience=(t["player"], t["guest"])))
    return incoming, facts


def install_parts(st: BigMachineState, incoming: Incoming) -> list[Fact]:
    """R41-R47, A4, A5: installs per team and node, ascending power, faulty first."""
    facts: list[Fact] = []
    for t in st["teams"]:
        machine = st["machines"][t["id"]]
        for node in sorted(incoming[t["id"]]):
            ordered = sorted(incoming[t["id"]][node], key=lambda wp: power_key(wp[1]))   # as install_all does
            before = machine["parts"][node]
            machine["parts"][node] = install_all(before, [part for _, part in ordered])
            facts.append(NodeInstalls(t["id"], node, as_part(before), tuple(as_given_part(x) for _, x in ordered),
                                      tuple(w for w, _ in ordered), as_part(machine["parts"][node]),
                                      audience=(t["player"], t["guest"])))
    return facts


def traverse(st: BigMachineState, turns: Mapping[str, Turn]) -> list[Fact]:
    """A8, A18: a move along a connector in rounds 2-7 uses it (a jump is no such move, A7.4); the
    install node becomes the previous node."""
    facts: list[Fact] = []
    forced_break = options_of(st).forced_moves_break_free
    for p in st["roster"]:
        mv, prev = turns[p], st["prev"][p]
        if st["round"] >= 2 and prev is not None and not mv.jump:
            conn = find_connector(machine_of(st, p), prev, mv.node)
            if conn is not None:
                counted = forced_break or not mv.forced
                conn["used"] = conn["used"] or counted
                facts.append(ConnectorTraversed(st["team_of"][p], p, prev, mv.node, conn["cond"], counted,
                                                audience=mates(st, p)))
        st["prev"][p] = mv.node
    return facts


def give_cogs(st: BigMachineState, round_input: RoundInput, log: list[str]) -> list[Fact]:
    """R12, A16: Give cogs rows, after the auctions, all at once; more than is left gives nothing."""
    facts: list[Fact] = []
    after = dict(st["cogs"])
    for p in st["roster"]:
        sub = round_input.submissions.get(p)
        gifts = list(sub.values.get("gifts", [])) if sub else []
        total = sum(n for _, n in gifts)
        if not gifts:
            continue
        if total > after[p]:
            log.append(f"{p}: Give cogs rows total {total}, more than the {after[p]} cogs left after the "
                       "auction: nothing given (A16)")
            facts.append(SubmissionProblem(p, Problem(
                ProblemKind.ILLEGAL, p, "give cogs", str(total), f"at most {after[p]}",
                f"you had {after[p]} cogs after the auction", "nothing given", label="Give cogs"),
                audience=private(st, p)))
            continue
        for to, n in gifts:
            facts.append(CogsGiven(p, to, n, "submission", giver_had=st["cogs"][p],
                                   audience=private(st, p, to)))
            st["cogs"][p] -= n
            st["cogs"][to] += n
            log.append(f"{p} gave {to} {n} cogs")
    return facts


def machines_now(st: BigMachineState) -> list[Fact]:
    """R63: each team's machine after the round, and its points if the game ended now (R48)."""
    facts: list[Fact] = []
    for t in st["teams"]:
        m = st["machines"][t["id"]]
        nodes, conns = machine_facts(m, st["relation"])
        facts.append(MachineNow(t["id"], m["left"], m["right"], nodes, conns,
                                score_machine(filled_machine(m), st["relation"])[0],
                                audience=(t["player"], t["guest"])))
    return facts


# --------------------------------------------------------------------- the end

def score_machines(st: BigMachineState) -> list[Fact]:
    """R48: empty nodes faulty; R50-R56: every connector scored; all machines public (R68)."""
    facts: list[Fact] = []
    for t in st["teams"]:
        m = st["machines"][t["id"]]
        filled = tuple(n for n in node_order(m) if m["parts"][n] is None)
        m["parts"] = {n: (FAULTY if part is None else part) for n, part in m["parts"].items()}
        st["scores"][t["id"]] = score_machine(m, st["relation"])[0]
        nodes, conns = machine_facts(m, st["relation"], final=True)
        facts.append(MachineScored(t["id"], t["player"], t["guest"], m["left"], m["right"], nodes, conns,
                                   filled, st["scores"][t["id"]]))
    return facts


def pay_garnets(st: BigMachineState) -> tuple[list[LedgerEntry], list[Fact]]:
    """R59, A13: garnets per 2 points, to each participant (guests per option)."""
    opts = options_of(st)
    ledger: list[LedgerEntry] = []
    facts: list[Fact] = []
    for p in st["roster"]:
        if st["role"][p] == "guest" and not opts.pay_guests:
            continue
        pts = st["scores"][st["team_of"][p]]
        n = pts // 2 if opts.garnet_rounding is GarnetRounding.FLOOR else -(-pts // 2)
        facts.append(MachinePayout(p, st["team_of"][p], pts, n))
        if n:
            ledger.append(LedgerEntry(p, n, LedgerReason.MACHINE_SCORE.value, memo=f"{pts} points, 1 garnet per 2"))
    return ledger, facts


def outcome(state: BigMachineState, decisions: Mapping[str, Any] | None = None) -> Outcome | None:
    """R56-R60, A11, A12. A shared lowest score asks for the winners' vote (request "ec-vote";
    "ec-host" when every player is tied, so the voters are the candidates); until it is entered
    the Elimination Candidate is pending."""
    if not state["finished"]:
        return None
    decisions = decisions or {}
    opts = options_of(state)
    roster = state["roster"]
    score = {p: state["scores"][state["team_of"][p]] for p in roster}
    comp = [p for p in roster if opts.guests_compete or state["role"][p] == "player"]
    top, low = max(score[p] for p in comp), min(score[p] for p in comp)
    winners = tuple(p for p in comp if score[p] == top)
    lowest = tuple(p for p in comp if score[p] == low)
    reasons = [f"Highest score: {points_text(top)} ({', '.join(winners)})."]
    awards: list[Award] = []
    if len(winners) == 1:
        awards += [Award(winners[0], "Token of Life", 1, "sole highest score"),  # R57
                   Award(winners[0], "cosmos", 1, "sole winner")]  # R60
    else:
        reasons.append("The highest score is shared: nobody gets a Token of Life or the cosmos.")  # R57, A12
    ec, requests = None, []
    if len(lowest) == 1:
        ec = lowest[0]
        reasons.append(f"Lowest score: {points_text(low)} ({ec}), the Elimination Candidate.")
    else:
        req = _elimination_request(winners, lowest, top, low)
        requests.append(req)
        entered = decisions.get(req.key)
        ec = entered if entered in lowest else None
        reasons.append(f"Lowest score: {points_text(low)}, shared by {', '.join(lowest)}."
                       + ("" if ec is None else f" {'The host' if top == low else 'The vote'} chose {ec} "
                                                "for the Elimination Candidate."))
    standings = tuple((p, f"{points_text(score[p])} ({state['team_of'][p]}, {state['role'][p]})")
                      for p in sorted(roster, key=lambda p: (-score[p], roster.index(p))))
    ending = Ending.SINGLE_WINNER if len(winners) == 1 else Ending.SHARED_WIN
    return Outcome(winners, lowest, ec, standings, tuple(reasons), tuple(awards), requests=tuple(requests),
                   scores={p: float(score[p]) for p in roster}, ending=ending.value)


def _elimination_request(winners: tuple[str, ...], lowest: tuple[str, ...], top: int, low: int) -> DecisionRequest:
    """R58, A12: who picks the Elimination Candidate among a shared lowest score."""
    if top == low:
        # A12 leaves this to the host; the ruleset (which wins) still has the winners, here every
        # player, vote: the host enters that vote's result, or decides when it is split.
        return DecisionRequest("ec-host", f"Every player is tied on {points_text(low)}: who goes to the Elimination "
                               "Candidate? (The winners vote, here every player; enter the result of that "
                               "vote, or your own choice if it is split.)", DecisionKind.CHOICE, lowest,
                               default="no Elimination Candidate yet", who="the host")
    # R58: the sole winner, or all players tied for the top, vote
    voters = f"the winner, {winners[0]}" if len(winners) == 1 else f"the winners by vote ({', '.join(winners)})"
    return DecisionRequest("ec-vote", f"The lowest score, {points_text(low)}, is shared by {', '.join(lowest)}: "
                           "which of them goes to the Elimination Candidate?", DecisionKind.CHOICE, lowest,
                           default="no Elimination Candidate yet", who=voters)
