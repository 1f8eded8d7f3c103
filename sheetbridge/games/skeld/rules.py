"""Skeld's rules: the setup, the pregame and a round's resolution as named steps in the order of a
round (A9), then what the end of the Main Match reveals. `resolve` reads as the list of steps;
each step cites its rules once. The winner and the EC are ending.py's."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping, Sequence

from ...core.errors import ConfigError
from ...core.facts import HOST_ONLY, PUBLIC, Fact
from ...core.rng import Rng
from ...core.types import Form, LedgerEntry, Problem, ProblemKind, RoundInput, RoundResult, State, Tables
from .content import (BASE_CAP, BOARD_TABLE, CAP_PRICE, COMPONENTS, INCOME, PARASITE_ROOM, ROOMS, SEQUENCES,
                      SIDE_WORDS, START_ENERGY, VAULT, Board, Bonus, carries, edge, number, pieces, read_board,
                      room_kind, sequence_value, total_value, use_bonus, usable, uses_left)
from .facts import (ActivationAttempt, ActivationContest, ActivatorsSeen, BonusGained, BonusNotUsed, BonusUsed,
                    ComponentGained, CrewInRoom, CrewInventory, CrewMove, CrewRef, CrewStart, CrewStartAssigned,
                    DisablesAnnounced, EndOfMatchGarnets, EndOfRoundEnergy, EnergyAccount, EnergyCapRaise, EnergyLost,
                    LedgerReason, MainMatchStatus, MultiSequenceStanding, NoSubmission, ParasiteClaimed,
                    ParasitePlant, RoomActivated, RoomBid, RoomDisabled, RoomOccupants, RoundLimitReached,
                    SequenceCompleted, SequenceStanding, ShipBoard, SubmissionProblem, TotalStanding, WallPlaced,
                    WiwaxiaDrain, XCommOpened, held_items)
from .intake import default_submission, form
from .options import CapScope, Options, options_of
from .plans import caps_of, plan_player
from .spec import DEFAULTS, START_CELLS
from .state import SkeldState, round_copy


def contention(bids: Sequence[tuple[Any, int]]) -> tuple[Any, str]:
    """R26-R28: tied bids are nullified; the highest untied bid wins. Returns the winner (None
    if nobody) and what decided it: "only bid", "highest bid", "highest untied bid" or "all tied".

    >>> contention([("a", 3), ("b", 3), ("c", 2), ("d", 2), ("e", 1)])
    ('e', 'highest untied bid')
    >>> contention([("a", 2), ("b", 1)])
    ('a', 'highest bid')
    """
    counts: dict[int, int] = {}
    for _, amount in bids:
        counts[amount] = counts.get(amount, 0) + 1
    untied = [(amount, who) for who, amount in bids if counts[amount] == 1]
    if not untied:
        return None, "all tied"
    amount, who = max(untied, key=lambda t: t[0])
    if len(bids) == 1:
        return who, "only bid"
    return who, "highest bid" if amount == max(counts) else "highest untied bid"


def contention_winner(bids: Sequence[tuple[Any, int]]) -> Any:
    """The winner of a contention (R26-R28), None if none.

    >>> contention_winner([("a", 3), ("b", 3), ("c", 2), ("d", 2), ("e", 1)])
    'e'
    """
    return contention(bids)[0]


# --------------------------------------------------------------------- setup and pregame

def set_up(players: Sequence[str], options: Mapping[str, Any] | None, tables: Tables) -> SkeldState:
    """The ship read from the host's board (A1); two crewmates each with 5 Energy, cap 7 (R12-R14)."""
    opts = dict(DEFAULTS)
    opts.update(options or {})
    grid, problems = read_board(tables[BOARD_TABLE])
    if problems:
        raise ConfigError("; ".join(problems))
    players = list(players)
    return {
        "round": 0, "finished": False, "players": players, "options": opts, "board": grid,
        "crew": {p: [{"name": f"Crewmate {i + 1}", "pos": None, "energy": START_ENERGY, "items": [],
                      "parasite": False, "cap": BASE_CAP, "raises": 0} for i in range(2)] for p in players},
        "components": {p: [] for p in players}, "activated": [], "history": [],
        "walls": [], "disabled": {}, "disable_used": {p: False for p in players},
        "claimed": {p: False for p in players}, "vault_used": {p: False for p in players},
        "plants": [], "balances": {p: 0 for p in players}, "end": None,
    }


def resolve(state: State, round_input: RoundInput, rng: Rng) -> RoundResult:
    """The pregame (round 0) or a round; the input state is never changed."""
    st = round_copy(state)
    if st["round"] == 0:
        return resolve_pregame(st, round_input, rng)
    return resolve_round(st, round_input, state)


def resolve_pregame(st: State, rin: RoundInput, rng: Rng) -> RoundResult:
    """The pregame (R8-R12): names and start cells, then round 1 opens."""
    opts = options_of(st)
    log: list[str] = []
    facts: list[Fact] = []
    for p in st["players"]:
        _place_crew(st, p, rin, opts, rng, log, facts)
    for p in st["players"]:
        for c in st["crew"][p]:
            facts.append(CrewStart(p, c["name"], c["pos"], audience=PUBLIC if opts.reveal_start_positions else (p,)))
    for p in st["players"]:
        for c in st["crew"][p]:
            start = c["energy"]
            if opts.income_before_round_1:  # A8
                c["energy"] = min(c["cap"], c["energy"] + INCOME)
            facts.append(EnergyAccount(p, c["name"], c["pos"], start, 0, 0, 0, 0, 0, start, c["energy"],
                                       c["cap"], audience=(p,)))
            facts.append(EndOfRoundEnergy(p, c["name"], 0, 0, start, c["energy"] - start, audience=HOST_ONLY))
    st["balances"] = dict(rin.balances)
    st["round"] = 1
    facts += room_facts(st, {}, opts)
    facts.append(ship_fact(st))
    facts.append(MainMatchStatus(0, 1))
    return RoundResult(st, ledger=(), host_log=tuple(log), facts=tuple(facts))


def _place_crew(st: State, p: str, rin: RoundInput, opts: Options, rng: Rng, log: list[str],
                facts: list[Fact]) -> None:
    """R10, R12, A33: a player's crewmates named and placed; a missing start cell drawn or fixed."""
    mine = (p,)
    sub = rin.submissions.get(p)
    vals = sub.values if sub is not None else default_submission(st)
    if sub is None:
        facts.append(NoSubmission(p, audience=mine))
    else:
        facts += [SubmissionProblem(p, pr, audience=mine) for pr in sub.problems]
    for i, c in enumerate(st["crew"][p]):
        item = vals["crew"][i] if i < len(vals["crew"]) else {}
        if item.get("name"):
            c["name"] = item["name"]
        cell = item.get("start")
        if not cell:
            drawn = opts.pregame_fallback == "random"
            cell = rng.choice(START_CELLS) if drawn else opts.pregame_fallback
            log.append(f"pregame: {p}.{c['name']} had no valid start cell; "
                       + (f"drew {cell} at random (A33)" if drawn else f"placed in {cell} (A33)"))
            facts.append(CrewStartAssigned(p, c["name"], cell, drawn, audience=mine))
        c["pos"] = cell
    if st["crew"][p][0]["name"] == st["crew"][p][1]["name"]:
        st["crew"][p][1]["name"] = st["crew"][p][1]["name"] + " 2"


# --------------------------------------------------------------------- a round (A9)

@dataclass(slots=True)
class _Round:
    """A round being resolved: `st` the copy written, `shown` the state as the forms showed it."""
    st: State
    shown: State
    rin: RoundInput
    opts: Options
    r: int
    players: list[str]
    board: Board
    balances: dict[str, int]
    log: list[str] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    ledger: list[LedgerEntry] = field(default_factory=list)
    plans: dict[str, list[dict]] = field(default_factory=dict)
    forms: dict[str, Form] = field(default_factory=dict)
    activators: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    plants_now: list[dict] = field(default_factory=list)
    seqs: list[str] = field(default_factory=list)
    ended: bool = False
    drained: dict[tuple[str, int], int] = field(default_factory=dict)
    gained: dict[tuple[str, int], int] = field(default_factory=dict)
    end_energy: dict[tuple[str, int], int] = field(default_factory=dict)
    decided_by: dict[str, str] = field(default_factory=dict)   # room -> what decided its contest


def resolve_round(st: State, rin: RoundInput, shown: State) -> RoundResult:
    """Round r as the steps of A9, in order; `st` is the copy resolved, `shown` the round's state as the
    forms showed it. Everything is simultaneous across players."""
    rd = _Round(st, shown, rin, options_of(st), st["round"], st["players"], Board.of(st), dict(rin.balances))
    for p in rd.players:                     # steps 1-2, player by player
        values = take_submission(rd, p)
        buy_cap_raises(rd, p, values)
        plan_crewmates(rd, p, values)        # validated again with the caps just raised
    for p in rd.players:                     # steps 3-5, crewmate by crewmate
        for c, plan in zip(st["crew"][p], rd.plans[p]):
            if plan["banana"]:
                eat_banana(rd, p, c, plan)
            if plan["move"] or plan["move_refused"]:
                move(rd, p, c, plan)
            if plan["toe"] or plan["toe_refused"]:
                take_toe_step(rd, p, c, plan)
            c["pos"] = plan["final"]         # where the plan ends, with the Energy left
            c["energy"] = plan["energy_left"]
    disable_rooms(rd)                        # step 6
    for room, entries in place_bids(rd):     # steps 7-8, room by room
        for p, i in contest_room(rd, room, entries):
            hand_out(rd, room, p, i)
    close_activations(rd)
    complete_sequences(rd)                   # step 9
    judge_plants(rd)                         # step 10
    if not rd.ended:                         # step 11
        drain_wiwaxia(rd)
        place_walls(rd)
    open_xcomms(rd)
    rd.end_energy = {(p, i): c["energy"] for p in rd.players for i, c in enumerate(st["crew"][p])}
    if rd.ended:
        end_main_match(rd)                   # step 12
    else:
        pay_income(rd)                       # step 13
    return round_result(rd)                  # step 14


def take_submission(rd: _Round, p: str) -> Mapping[str, Any]:
    """A33: a player who submits nothing stays put and does nothing; problems are told to the player."""
    sub = rd.rin.submissions.get(p)
    if sub is None:
        rd.facts.append(NoSubmission(p, audience=(p,)))
        rd.log.append(f"round {rd.r}: {p} did not submit; crewmates stay and do nothing (A33)")
        return default_submission(rd.st)
    rd.facts += [SubmissionProblem(p, pr, audience=(p,)) for pr in sub.problems]
    return sub.values


def buy_cap_raises(rd: _Round, p: str, values: Mapping[str, Any]) -> None:
    """R17, A11, E27: cap raises at 3 garnets each, refused over cap 9 or without the garnets."""
    opts, mine = rd.opts, (p,)
    ups = list(values.get("upgrades") or [0, 0])
    crew_p = rd.st["crew"][p]
    per_crew = opts.cap_upgrade_scope == CapScope.CREWMATE
    raises = sum(ups) if per_crew else ups[0]
    cost = CAP_PRICE * raises
    if not cost:
        return
    caps_now = tuple(c["cap"] for c in crew_p)
    names = tuple(c["name"] for c in crew_p)
    if any(c["raises"] + n > 2 for c, n in zip(crew_p, ups)):
        rd.facts.append(EnergyCapRaise(p, raises, cost, names, caps_now, False, "over_cap", audience=mine))
    elif rd.balances.get(p, 0) < cost:
        rd.facts.append(EnergyCapRaise(p, raises, cost, names, caps_now, False, "garnets", rd.balances.get(p, 0),
                                       audience=mine))
        rd.log.append(f"round {rd.r}: {p}'s cap raise refused for lack of garnets (E27)")
    else:
        rd.ledger += cap_raise_rows(p, crew_p, ups, per_crew, rd.r)
        rd.balances[p] -= cost
        rd.facts.append(EnergyCapRaise(p, raises, cost, names, tuple(c["cap"] for c in crew_p), True,
                                       audience=PUBLIC if opts.public_garnets else mine))


def cap_raise_rows(player: str, crew: Sequence[dict], ups: Sequence[int], per_crew: bool,
                   r: int) -> list[LedgerEntry]:
    """Raise the caps (a player-wide raise covers both crewmates) and book one -3 row per raise,
    each saying the cap it reached ("now 8", then "now 9"): the rulings' garnet-flow table lists a
    flow per raise, so the ledger reconciles row by row with the submissions (section d)."""
    rows = []
    if per_crew:
        for c, n in zip(crew, ups):
            for _ in range(n):
                c["raises"] += 1
                c["cap"] += 1
                rows.append(LedgerEntry(player, -CAP_PRICE,
                                        LedgerReason.CAP_RAISE_CREWMATE.text(crewmate=c["name"], cap=c["cap"]),
                                        f"round {r} (R17)"))
        return rows
    for _ in range(ups[0]):
        for c in crew:
            c["raises"] += 1
            c["cap"] += 1
        rows.append(LedgerEntry(player, -CAP_PRICE, LedgerReason.CAP_RAISE.text(cap=crew[0]["cap"]),
                                f"round {r} (R17)"))
    return rows


def plan_crewmates(rd: _Round, p: str, values: Mapping[str, Any]) -> None:
    """A38: the intents planned again on the round's state; a step now invalid is dropped and told,
    named as the player's form names it."""
    pl, probs = plan_player(rd.st, p, values.get("crew") or [{}, {}], caps_of(rd.st, p), rd.opts)
    for fld, value, allowed, reason, default in probs:
        label = rd.forms.setdefault(p, form(rd.shown, p)).label_for(fld)
        rd.facts.append(SubmissionProblem(p, Problem(ProblemKind.ILLEGAL, p, fld, value, allowed, reason,
                                                     default, label=label), audience=(p,)))
        rd.log.append(f"round {rd.r}: {p} {fld}={value!r} dropped at resolution: {reason}")
    rd.plans[p] = pl


def eat_banana(rd: _Round, p: str, c: dict, plan: Mapping[str, Any]) -> None:
    """R72, A10: the Yellow Banana eaten, +3 Energy; over the cap it is lost."""
    use_bonus(c, "Y")
    rd.facts.append(BonusUsed(p, c["name"], "Y", uses_left(c, "Y"), audience=(p,)))
    if plan["banana_lost"]:
        rd.facts.append(EnergyLost(p, c["name"], "banana", plan["banana_lost"], plan["cap"], audience=(p,)))
        rd.log.append(f"round {rd.r}: {p}.{c['name']} loses {plan['banana_lost']} banana Energy over the "
                      "cap (A10)")


def move(rd: _Round, p: str, c: dict, plan: Mapping[str, Any]) -> None:
    """R19-R21, A3-A5: the move made (its Energy counted by the plan) or refused and why."""
    if plan["move"]:
        rd.facts.append(CrewMove(p, c["name"], "move", plan["start"], plan["move"], tuple(plan["move_path"]),
                                 len(plan["move_path"]), audience=(p,)))
    elif plan["move_refused"]:
        dst, why = plan["move_refused"][:2]
        rd.facts.append(CrewMove(p, c["name"], "move", plan["start"], dst,
                                 tuple(rd.board.line(plan["start"], dst) or ()), 0, why, audience=(p,)))


def take_toe_step(rd: _Round, p: str, c: dict, plan: Mapping[str, Any]) -> None:
    """R68, A18: the Take Back Toe step made or refused."""
    if plan["toe"]:
        rd.facts.append(CrewMove(p, c["name"], "toe", plan["toe_from"], plan["final"], (plan["final"],), 1,
                                 audience=(p,)))
    elif plan["toe_refused"]:
        side, why, nxt = (list(plan["toe_refused"]) + ["", ""])[:3]
        rd.facts.append(CrewMove(p, c["name"], "toe", plan["move"] or plan["start"], nxt or "",
                                 (nxt,) if nxt else (), 0, why, audience=(p,)))


def disable_rooms(rd: _Round) -> None:
    """R31-R34, A15: a disable blocks the room this round and the next; named publicly only with announce_disables."""
    st, r = rd.st, rd.r
    disabled_now: list[str] = []
    for p in rd.players:
        for c, plan in zip(st["crew"][p], rd.plans[p]):
            if plan["disable"]:
                room = plan["disable"]
                st["disable_used"][p] = True
                st["disabled"][room] = max(st["disabled"].get(room, 0), r + 1)
                disabled_now.append(room)
                rd.facts.append(RoomDisabled(p, c["name"], room, plan["disable_energy"], r + 1, audience=(p,)))
                rd.log.append(f"round {r}: {crew_id(p, c)} disabled {room} (rounds {r} and {r + 1})")
    if disabled_now and rd.opts.announce_disables:
        rd.facts.append(DisablesAnnounced(tuple(sorted(set(disabled_now), key=ROOMS.index))))


def place_bids(rd: _Round) -> list[tuple[str, list[tuple[str, int, int]]]]:
    """R29, A40: every bid is paid, win or lose; the rooms bid on, in room order, each with its
    (player, crewmate index, bid) sorted."""
    bids: dict[str, list[tuple[str, int, int]]] = {}
    for p in rd.players:
        for i, plan in enumerate(rd.plans[p]):
            if plan["bid"] is not None:
                bids.setdefault(plan["final"], []).append((p, i, plan["bid"]))
                rd.log.append(f"round {rd.r}: {p}.{rd.st['crew'][p][i]['name']} bids {plan['bid']} on "
                              f"{plan['final']}")
    return [(room, sorted(bids[room])) for room in sorted(bids, key=ROOMS.index)]


def contest_room(rd: _Round, room: str, entries: list[tuple[str, int, int]]) -> list[tuple[str, int]]:
    """R26-R28 (A15 a disabled room, R69 Urgot, A20 at P, A23 at V): who activates the room, told to the
    host with every bid, and to each bidder whether theirs won (why not with reveal_failure_reasons, A37)."""
    st = rd.st
    winners, how, failed = _contest(rd, room, entries)

    def bid_of(p: str, i: int, b: int) -> RoomBid:
        return RoomBid(p, st["crew"][p][i]["name"], b)
    rd.facts.append(ActivationContest(room, tuple(bid_of(*e) for e in entries),
                                      tuple(bid_of(*e) for e in entries if (e[0], e[1]) in winners), how,
                                      audience=HOST_ONLY))
    for p, i, b in entries:
        why = failed.get((p, i), "")
        rd.facts.append(ActivationAttempt(p, st["crew"][p][i]["name"], room, b, (p, i) in winners,
                                          why if rd.opts.reveal_failure_reasons else "", audience=(p,)))
    rd.decided_by[room] = how
    return winners


def close_activations(rd: _Round) -> None:
    """R41: the rooms activated this round are public (who activated them is not)."""
    activated_now = sorted(rd.activators, key=ROOMS.index)
    rd.facts += [RoomActivated(room) for room in activated_now]
    rd.st["history"].append({"round": rd.r, "activated": activated_now})


def _contest(rd: _Round, room: str, entries: list[tuple[str, int, int]]
             ) -> tuple[list[tuple[str, int]], str, dict[tuple[str, int], str]]:
    """Who activates `room` among its bids, what decided it and why each other bid failed."""
    # The rules of step 7 are cited once, on contest_room.
    st, r, opts = rd.st, rd.r, rd.opts
    failed: dict[tuple[str, int], str] = {}
    winners: list[tuple[str, int]] = []
    if room == VAULT:  # every valid plant happens (A23)
        for p, i, b in entries:
            st["crew"][p][i]["parasite"] = False
            st["vault_used"][p] = True
            rd.plants_now.append({"player": p, "crew": i, "energy": b, "round": r, "seq": rd.plans[p][i]["plant"]})
            winners.append((p, i))
        return winners, "every plant", failed
    if st["disabled"].get(room, 0) >= r:  # a disabled room blocks everyone (A15)
        for p, i, b in entries:
            failed[(p, i)] = "the room was disabled"
            c = st["crew"][p][i]
            if opts.urgot_consumed_on_blocked_attempt and room_kind(room) == "component" and usable(c, "U", r):
                use_bonus(c, "U")
                rd.facts.append(BonusUsed(p, c["name"], "U", uses_left(c, "U"), room, audience=(p,)))
        rd.log.append(f"round {r}: {room} is disabled; bids fail (A15)")
        return winners, "disabled", failed
    urgot = ([(p, i) for p, i, b in entries if usable(st["crew"][p][i], "U", r)]
             if room_kind(room) == "component" else [])
    if urgot:  # R69, A14: beats every bid (one Urgot in the game)
        winners, how = [urgot[0]], "Urgot Peraphernalia"
        c = st["crew"][urgot[0][0]][urgot[0][1]]
        use_bonus(c, "U")
        rd.facts.append(BonusUsed(urgot[0][0], c["name"], "U", uses_left(c, "U"), room, audience=(urgot[0][0],)))
        rd.log.append(f"round {r}: Urgot Peraphernalia wins {room} for {urgot[0][0]} (R69)")
    elif room == PARASITE_ROOM and not opts.parasite_room_contention:
        how = "one claim per player"   # A20 off: the higher of a player's two bids
        for p in sorted({e[0] for e in entries}):
            w = contention_winner([(i, b) for q, i, b in entries if q == p])
            if w is not None:
                winners.append((p, w))
    else:
        w, how = contention([((p, i), b) for p, i, b in entries])
        winners = [w] if w is not None else []
    for p, i, b in entries:
        if (p, i) in winners:
            continue
        failed[(p, i)] = ("the room went to Urgot Peraphernalia" if how == "Urgot Peraphernalia" else
                          "tied with another bid" if sum(1 for e in entries if e[2] == b) > 1 else "outbid")
    return winners, how, failed


def hand_out(rd: _Round, room: str, p: str, i: int) -> None:
    """R23, R24, R35, R52: a component to the player; a bonus or a parasite to the crewmate."""
    st = rd.st
    c = st["crew"][p][i]
    rd.activators.setdefault(room, []).append((p, i))
    kind = room_kind(room)
    if kind == "component":
        st["components"][p].append(room)
        st["activated"].append(room)
        rd.facts.append(ComponentGained(p, c["name"], room, room[-1], number(room), audience=(p,)))
    elif kind == "bonus":
        c["items"].append({"item": room, "uses": Bonus[room].uses, "got": rd.r})
        st["activated"].append(room)
        rd.facts.append(BonusGained(p, c["name"], room, audience=(p,)))
    elif kind == PARASITE_ROOM:
        c["parasite"] = True
        st["claimed"][p] = True
        rd.facts.append(ParasiteClaimed(p, c["name"], audience=(p,)))
    rd.log.append(f"round {rd.r}: {p}.{c['name']} activates {room} ({rd.decided_by[room]})")


def complete_sequences(rd: _Round) -> None:
    """R44, R50, A31, A32: the Main Match ends when a Sequence's 13 components are all claimed, or after
    the last round."""
    claimed = {c for p in rd.players for c in rd.st["components"][p]}
    rd.seqs = [s for s in SEQUENCES if all(f"{n}{s}" in claimed for n in range(1, 14))]
    rd.ended = bool(rd.seqs) or rd.r >= rd.opts.max_rounds


def judge_plants(rd: _Round) -> None:
    """The plants' verdicts (plant_verdicts), told to the planter; every plant is public at the end of the
    Main Match."""
    for pl, (verdict, improper) in zip(rd.plants_now, plant_verdicts(rd.plants_now, rd.seqs, rd.opts)):
        pl["verdict"], pl["improper"] = verdict, improper
    rd.st["plants"] += rd.plants_now
    if not rd.ended:
        rd.facts += [plant_fact(rd.st, pl, (pl["player"],)) for pl in rd.plants_now]


def plant_verdicts(plants: Sequence[Mapping[str, Any]], seqs: Sequence[str],
                   opts: Options | Mapping[str, Any]) -> list[tuple[str, bool]]:
    """The verdict and improper flag of each plant of one round (R53, R58, R59, R62; A22, A24, A25).

    >>> plant_verdicts([{"player": "a", "energy": 4, "seq": None}, {"player": "b", "energy": 3, "seq": None}],
    ...                ["C"], DEFAULTS)
    [('correct', False), ('outbid', True)]
    >>> plant_verdicts([{"player": "a", "energy": 4, "seq": None}], [], DEFAULTS)
    [('no_sequence', True)]
    """
    if not seqs:
        return [("no_sequence", True)] * len(plants)
    o = opts if isinstance(opts, Options) else Options.of(opts)
    on_target = [not o.plant_requires_target or pl.get("seq") in seqs for pl in plants]
    energies = [pl["energy"] for pl, ok in zip(plants, on_target) if ok]
    top = max(energies) if energies else None
    at_top = energies.count(top) if energies else 0
    out = []
    for pl, ok in zip(plants, on_target):
        if not ok:
            verdict = "wrong_target"
        elif pl["energy"] == top:
            verdict = "correct" if at_top == 1 else "tied"
        else:
            verdict = "outbid"
        improper = verdict != "correct" and not (verdict == "tied" and not o.tied_plants_are_improper)
        out.append((verdict, improper))
    return out


def drain_wiwaxia(rd: _Round) -> None:
    """R70, A16: each Wiwaxia used drains 1 Energy from every other crewmate in its room (to its
    carrier under wiwaxia_transfers); a same-round use of a Wiwaxia not won does nothing (A12)."""
    st, r = rd.st, rd.r
    for p in rd.players:
        for i, (c, plan) in enumerate(zip(st["crew"][p], rd.plans[p])):
            if not plan["wiwaxia"]:
                continue
            if not usable(c, "W", r + 1):
                rd.facts.append(BonusNotUsed(p, c["name"], "W", "not won", audience=(p,)))
                continue
            use_bonus(c, "W")
            rd.facts.append(BonusUsed(p, c["name"], "W", uses_left(c, "W"), audience=(p,)))
            victims = []
            for q in rd.players:
                for j, d in enumerate(st["crew"][q]):
                    if (q, j) != (p, i) and d["pos"] == c["pos"] and d["energy"] > 0:
                        d["energy"] -= 1
                        rd.drained[(q, j)] = rd.drained.get((q, j), 0) + 1
                        victims.append(CrewRef(q, d["name"]))
                        rd.log.append(f"round {r}: Wiwaxia drains 1 from {q}.{d['name']} (R70)")
            rd.facts.append(WiwaxiaDrain(p, c["name"], c["pos"], tuple(victims), audience=HOST_ONLY))
            if rd.opts.wiwaxia_transfers:
                before = c["energy"]
                c["energy"] = min(c["cap"], c["energy"] + len(victims))
                rd.gained[(p, i)] = c["energy"] - before


def place_walls(rd: _Round) -> None:
    """R67, A17: the Summoner's Meme walls a side of its room (public, not who)."""
    st = rd.st
    for p in rd.players:
        for c, plan in zip(st["crew"][p], rd.plans[p]):
            if plan["wall"] and not usable(c, "S", rd.r + 1):
                rd.facts.append(BonusNotUsed(p, c["name"], "S", "not won", audience=(p,)))
            elif plan["wall"]:
                other = rd.board.neighbour(c["pos"], plan["wall"])
                assert other is not None   # planned: the side is inside the ship
                key = edge(c["pos"], other)
                if key not in st["walls"]:
                    st["walls"].append(key)
                    use_bonus(c, "S")
                    rd.facts.append(BonusUsed(p, c["name"], "S", uses_left(c, "S"),
                                              f"{SIDE_WORDS[plan['wall']]} wall of {c['pos']}", audience=(p,)))
                    rd.facts.append(WallPlaced(c["pos"], plan["wall"], other))


def open_xcomms(rd: _Round) -> None:
    """A19: the XCommunications Device lets two players talk this round, told to both privately."""
    for p in rd.players:
        for c, plan in zip(rd.st["crew"][p], rd.plans[p]):
            if plan["xcomm"]:
                use_bonus(c, "X")
                rd.facts.append(BonusUsed(p, c["name"], "X", uses_left(c, "X"), plan["xcomm"], audience=(p,)))
                rd.facts.append(XCommOpened(p, c["name"], plan["xcomm"], audience=(p, plan["xcomm"])))
                rd.log.append(f"round {rd.r}: XComm {p} <-> {plan['xcomm']} (A19)")


def end_main_match(rd: _Round) -> None:
    """R64, R73: the Main Match is over: 1 garnet per 3 components, 4 for the Zurich record (the winner
    and the EC are the outcome's, ending.py)."""
    st = rd.st
    st["finished"] = True
    st["end"] = {"round": rd.r, "sequences": rd.seqs}
    for p in rd.players:
        held = len(st["components"][p])
        n = held // 3
        if n:
            rd.ledger.append(LedgerEntry(p, n, LedgerReason.COMPONENTS.text(held=held),
                                         "1 garnet per 3 components (R64)"))
            rd.facts.append(EndOfMatchGarnets(p, n, "components", held, audience=(p,)))
        for c in st["crew"][p]:
            if carries(c, "Z"):
                rd.ledger.append(LedgerEntry(p, 4, LedgerReason.ZURICH.text(), "R73"))
                rd.facts.append(EndOfMatchGarnets(p, 4, "zurich", audience=(p,)))


def pay_income(rd: _Round) -> None:
    """R15, R16, R66, A8: next start = min(cap, leftover + 3, + 1 with the Rosé); the next round opens."""
    for p in rd.players:
        for c in rd.st["crew"][p]:
            rose = 1 if carries(c, "R") else 0
            c["energy"] = min(c["cap"], c["energy"] + INCOME + rose)
    rd.st["round"] = rd.r + 1


def round_result(rd: _Round) -> RoundResult:
    """R37-R40, A16, section c: the balances, each crewmate's Energy (told to its player; the drains only to
    the host), who is in each room and who activated it, the end's reveals and the ship."""
    st, r, ended = rd.st, rd.r, rd.ended
    for p in rd.players:
        rd.balances[p] = rd.balances.get(p, 0) + sum(e.change for e in rd.ledger if e.player == p and e.change > 0)
    st["balances"] = rd.balances
    for p in rd.players:
        for c, plan in zip(st["crew"][p], rd.plans[p]):
            rd.facts.append(EnergyAccount(
                p, c["name"], c["pos"], plan["energy_start"], plan["banana_gain"], len(plan["move_path"]),
                1 if plan["toe"] else 0, plan["bid"] or 0, plan["disable_energy"], plan["energy_left"],
                None if ended else c["energy"], c["cap"], audience=(p,)))
    for p in rd.players:
        for i, c in enumerate(st["crew"][p]):
            end = rd.end_energy[(p, i)]
            rd.facts.append(EndOfRoundEnergy(p, c["name"], rd.drained.get((p, i), 0), rd.gained.get((p, i), 0),
                                             end, 0 if ended else c["energy"] - end, audience=HOST_ONLY))
    rd.facts += room_facts(st, rd.activators, rd.opts)
    if ended:
        rd.facts += end_facts(st, r, rd.seqs, rd.opts)
    rd.facts.append(ship_fact(st))
    rd.facts.append(MainMatchStatus(r, None if ended else r + 1))
    return RoundResult(st, ledger=tuple(rd.ledger), host_log=tuple(rd.log), facts=tuple(rd.facts))


# --------------------------------------------------------------------- what every round and the end show

def crew_id(player: str, crew: Mapping[str, Any]) -> str:
    return f"{player}.{crew['name']}"


def ship_fact(st: State) -> ShipBoard:
    return ShipBoard(tuple(tuple(r) for r in st["board"]), tuple(sorted(st["activated"], key=ROOMS.index)),
                     tuple(st["walls"]))


def room_facts(st: State, activators: Mapping[str, list], opts: Options) -> list[Fact]:
    """R37, R40 (every crewmate's end room, with what it carries) and R38 (who activated the
    rooms), each told to the players with a crewmate in that room."""
    rooms: dict[str, list[tuple[str, int]]] = {}
    for p in st["players"]:
        for i, c in enumerate(st["crew"][p]):
            rooms.setdefault(c["pos"], []).append((p, i))
    out: list[Fact] = []
    for room in sorted(rooms, key=ROOMS.index):
        here = rooms[room]
        present = tuple(dict.fromkeys(p for p, _ in here))
        out.append(RoomOccupants(room, tuple(CrewInRoom(p, st["crew"][p][i]["name"], held_items(st["crew"][p][i]),
                                                        st["crew"][p][i]["parasite"]) for p, i in here),
                                 audience=present))
        if activators.get(room):
            who = tuple(dict.fromkeys(p for p, _ in activators[room]))
            crew = (tuple(crew_id(p, st["crew"][p][i]) for p, i in activators[room])
                    if opts.reveal_activator_crewmate else ())
            out.append(ActivatorsSeen(room, who, crew, audience=present))
    return out


def plant_fact(st: State, pl: Mapping[str, Any], audience: tuple[str, ...]) -> ParasitePlant:
    name = st["crew"][pl["player"]][pl["crew"]]["name"]
    return ParasitePlant(pl["player"], name, pl["round"], pl["energy"], pl.get("seq"), pl["verdict"], pl["improper"],
                         audience=audience)


def end_facts(st: State, r: int, seqs: Sequence[str], opts: Options) -> list[Fact]:
    """What the end of the Main Match reveals (section c): public, and the inventories."""
    players, comps = st["players"], st["components"]
    out: list[Fact] = []
    for s in seqs:
        out.append(SequenceCompleted(s, SEQUENCES[s], r, tuple(
            SequenceStanding(p, pieces(comps[p], s), sequence_value(comps[p], s)) for p in players)))
    if len(seqs) > 1:
        for p in players:
            vals = {s: sequence_value(comps[p], s) for s in seqs}
            best = max(vals.values())
            out.append(MultiSequenceStanding(p, best, tuple(s for s in seqs if vals[s] == best), sum(vals.values())))
    if not seqs:
        out.append(RoundLimitReached(r, tuple(TotalStanding(p, total_value(comps[p]), len(comps[p]))
                                              for p in players)))
    out += [plant_fact(st, pl, PUBLIC) for pl in st["plants"]]
    full = opts.endgame_full_reveal
    for p in players:
        crew = st["crew"][p]
        out.append(CrewInventory(p, tuple(sorted(comps[p], key=COMPONENTS.index)),
                                 tuple(CrewInRoom(p, c["name"], held_items(c), c["parasite"]) for c in crew),
                                 tuple(c["pos"] for c in crew),
                                 audience=PUBLIC if full else HOST_ONLY))
    return out
