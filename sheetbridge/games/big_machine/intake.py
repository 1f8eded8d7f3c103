"""The Big Machine's submissions: the form each participant fills in (meadow selection, then a
move, a bid, a power-up, an install node, a sabotage, a jump and cog gifts), its parsing with
every problem named (section e, V5-V17), and the rules' default for a missing submission (R29, A9).
"""
from __future__ import annotations

from typing import Any, Mapping

from ...core.parsing import YES_NO_HELP, clean, int_reason, is_formula, parse_int, split_list, yes_no
from ...core.rng import Rng
from ...core.types import Field, FieldKind, Form, Problem, ProblemKind, RawSubmission, Section, Submission
from .content import MEADOWS, SABOTAGE_COGS, cogs_text, meadow_named, node_order
from .machine import neighbours, part_text
from .options import options_of
from .spec import ROUNDS
from .state import BigMachineState, Machine, machine_of, mates, team_row


def allowed_nodes(state: BigMachineState, player: str) -> list[str]:
    """Where a participant may install without a jump: any node in round 1, else a node joined to
    the previous one (R20-R23)."""
    m = machine_of(state, player)
    prev = state["prev"][player]
    return node_order(m) if prev is None else neighbours(m, prev)


def gift_targets(state: BigMachineState, player: str) -> list[str]:
    """Who a participant may give cogs to (R12; A16: their teammate alone with cross_team_trades off)."""
    if options_of(state).cross_team_trades:
        return [p for p in state["roster"] if p != player]
    return [p for p in mates(state, player) if p != player]


def form(state: BigMachineState, player: str) -> Form:
    r = state["round"]
    if r == 0:
        t = team_row(state, player)
        side = "left" if state["role"][player] == "player" else "right"
        meadow = Field("meadow", "Starting meadow", FieldKind.CHOICE, MEADOWS,
                       help=f"your meadow gives your team's machine its {side} half")
        return Form(0, "Meadow selection", (Section("start", "Meadow selection", (meadow,)),), help=(
            f"Meadow selection: you are the {state['role'][player]} of {t['id']} ({t['player']} + {t['guest']}).",
            f"Your starting meadow gives the {side} half of your machine; the halves are on your Results tab.",
            "Blank: a random meadow is chosen for you."))
    m = machine_of(state, player)
    allnodes = node_order(m)
    prev = state["prev"][player]
    adj = allowed_nodes(state, player)
    cogs = state["cogs"][player]
    cap = cogs + SABOTAGE_COGS
    where = "any node of your machine" if prev is None else \
        f"a node joined to {prev}: {', '.join(adj)} (other nodes need Jump = yes, 5 garnets)"
    empty = [n for n in allnodes if m["parts"][n] is None]
    fields = [
        Field("meadow", "Meadow", FieldKind.CHOICE, MEADOWS, required=False,
              help=f"blank: stay in the {state['meadow'][player]} Meadow"),
        Field("bid", "Bid (cogs)", FieldKind.INTEGER, minimum=0, maximum=cap, required=False,
              help=f"bid + power-up at most your {cogs} cogs (+2 with a sabotage); always paid"),
        Field("power", "Power-up (cogs)", FieldKind.INTEGER, minimum=0, maximum=cap, required=False,
              help="paid only if you win the part"),
        Field("node", "Install node", FieldKind.CHOICE, tuple(allnodes), help=where),
        Field("sabotage", "Sabotage node", FieldKind.CHOICE, tuple(empty), required=False,
              help="optional: an empty node gets a faulty part, +2 cogs usable now"),
    ]
    if r >= 2:
        fields.append(Field("jump", "Jump (5 garnets)", FieldKind.YESNO, ("yes", "no"), required=False,
                            help="yes: pay 5 garnets to install on any node"))
    give = Section("give", "Give cogs (optional)", (
        Field("to", "To", FieldKind.CHOICE, tuple(gift_targets(state, player)), required=False),
        Field("cogs", "Cogs", FieldKind.INTEGER, minimum=1, maximum=max(1, cogs), required=False)),
        rows=2, help="given after this round's auctions from the cogs you have left")
    return Form(r, f"Round {r} of {ROUNDS}", (Section("turn", "Your move", tuple(fields)), give), help=(
        f"Round {r} of {ROUNDS}. You are in the {state['meadow'][player]} Meadow with {cogs_text(cogs)}.",
        "Move, then the highest unique bid in each meadow wins a part of the meadow's colour with power "
        "= people there + power-up; everyone else there installs a faulty part.",
        f"Install node: {where}.",
        "Blank: stay, bid 0, power-up 0, a random node next to your previous one."))


def parse(state: BigMachineState, player: str, raw: RawSubmission) -> Submission:
    """A round's move read field by field, each problem naming the default applied (section e)."""
    if state["round"] == 0:
        return parse_start(state, player, raw)
    row = first_row(raw, "turn")
    problems: list[Problem] = []
    values: dict[str, Any] = {"gifts": []}
    m = machine_of(state, player)
    allnodes = node_order(m)
    parse_meadow(row, player, state["meadow"][player], values, problems)
    parse_bid_and_power(row, player, values, problems)
    jump = parse_jump(row, player, state["round"], problems)
    values["jump"] = parse_node(state, player, row, allnodes, jump, values, problems)
    parse_sabotage(row, player, m, allnodes, values, problems)
    parse_gifts(state, player, raw, values, problems)
    return Submission(player, values, tuple(problems), raw)


def parse_meadow(row: Mapping[str, str], player: str, here: str | None, values: dict[str, Any],
                 problems: list[Problem]) -> None:
    """The meadow to move to; blank or unknown: stay (V11, V12)."""
    text = clean(row.get("meadow", ""))
    if text == "":
        problems.append(Problem(ProblemKind.MISSING, player, "meadow", "", ", ".join(MEADOWS),
                                "no meadow chosen", f"stay in the {here} Meadow"))
    else:
        meadow = None if is_formula(text) else meadow_named(text)
        if meadow is None:
            problems.append(Problem(ProblemKind.SYNTAX, player, "meadow", text, ", ".join(MEADOWS),
                                    "a formula" if is_formula(text) else "no such meadow",
                                    f"stay in the {here} Meadow"))
        else:
            values["meadow"] = meadow


def parse_bid_and_power(row: Mapping[str, str], player: str, values: dict[str, Any],
                        problems: list[Problem]) -> None:
    """Bid and power-up (V8, V9); the cap is checked in resolve, after trades (V10, A16)."""
    for name, label in (("bid", "bid"), ("power", "power-up")):
        text = clean(row.get(name, ""))
        if text == "":
            continue  # V8: blank is 0
        n = None if is_formula(text) else parse_int(text)
        if n is None:
            problems.append(Problem(ProblemKind.SYNTAX, player, name, text, "a whole number from 0",
                                    int_reason(text).replace("whole number", "whole number of cogs"),
                                    f"{label} 0"))
        elif n < 0:
            problems.append(Problem(ProblemKind.ILLEGAL, player, name, text, "a whole number from 0",
                                    "negative", f"{label} 0"))
        else:
            values[name] = n


def parse_jump(row: Mapping[str, str], player: str, r: int, problems: list[Problem]) -> bool:
    """Whether a jump is asked (R24, A7, V13); never in round 1."""
    jtext = clean(row.get("jump", ""))
    jump = yes_no(jtext) if not is_formula(jtext) else None
    if jump is None:
        problems.append(Problem(ProblemKind.SYNTAX, player, "jump", jtext, YES_NO_HELP, "not yes or no",
                                "no jump, nothing charged"))
        jump = False
    elif jump and r == 1:
        problems.append(Problem(ProblemKind.ILLEGAL, player, "jump", jtext, "no (any node is allowed in round 1)",
                                "no jump in round 1", "no jump, nothing charged"))
        jump = False
    return jump


def parse_node(state: BigMachineState, player: str, row: Mapping[str, str], allnodes: list[str], jump: bool,
               values: dict[str, Any], problems: list[Problem]) -> bool:
    """The install node (V15-V17): joined to the previous node, or any with a jump (R20-R24, A7);
    returns whether the jump still stands."""
    opts = options_of(state)
    prev = state["prev"][player]
    adj = allowed_nodes(state, player)
    rand_node = ("a random node of your machine" if prev is None
                 else f"a random node joined to {prev}: {', '.join(adj)}")
    text = clean(row.get("node", ""))
    node = None
    if text == "":
        problems.append(Problem(ProblemKind.MISSING, player, "node", "", ", ".join(allnodes),
                                "no install node", rand_node + ("; no jump, nothing charged" if jump else "")))
        jump = False
    else:
        node = None if is_formula(text) else next((n for n in allnodes if n.casefold() == text.casefold()), None)
        if node is None:
            problems.append(Problem(ProblemKind.SYNTAX, player, "node", text, ", ".join(allnodes),
                                    "a formula" if is_formula(text) else "not a node of your machine",
                                    rand_node + ("; no jump, nothing charged" if jump else "")))
            jump = False
        elif jump:
            if node == prev and not opts.jump_to_previous:
                problems.append(Problem(ProblemKind.ILLEGAL, player, "node", text,
                                        "any node but your previous one, with a jump",
                                        f"{node} is your previous node", rand_node + "; no jump, nothing charged"))
                node, jump = None, False
        elif prev is not None and node not in adj:
            reason = (f"{node} is your previous node; choose a different one" if node == prev
                      else f"{node} is not joined to your previous node {prev} and no jump was asked")
            problems.append(Problem(ProblemKind.ILLEGAL, player, "node", text,
                                    f"{', '.join(adj)} (or any node with Jump = yes)", reason, rand_node))
            node = None
    if node is not None:
        values["node"] = node
    return jump


def parse_sabotage(row: Mapping[str, str], player: str, m: Machine, allnodes: list[str], values: dict[str, Any],
                   problems: list[Problem]) -> None:
    """One empty node to sabotage, or none (V5-V7, R25-R28)."""
    text = clean(row.get("sabotage", ""))
    if text:
        empty = [n for n in allnodes if m["parts"][n] is None]
        items = split_list(text)
        target = None if is_formula(text) else next((n for n in allnodes if n.casefold() == text.casefold()), None)
        allowed = ", ".join(empty) or "none (no empty node)"
        if len(items) > 1:
            problems.append(Problem(ProblemKind.ILLEGAL, player, "sabotage", text, "one empty node",
                                    "only one sabotage per round", "no sabotage, no cogs"))
        elif target is None:
            problems.append(Problem(ProblemKind.SYNTAX, player, "sabotage", text, allowed,
                                    "a formula" if is_formula(text) else "not a node of your machine",
                                    "no sabotage, no cogs"))
        elif m["parts"][target] is not None:
            problems.append(Problem(ProblemKind.ILLEGAL, player, "sabotage", text, allowed,
                                    f"{target} is not empty (it holds {part_text(m['parts'][target])})",
                                    "no sabotage, no cogs"))
        else:
            values["sabotage"] = target


def parse_gifts(state: BigMachineState, player: str, raw: RawSubmission, values: dict[str, Any],
                problems: list[Problem]) -> None:
    """Give cogs rows (R12, A16): to a participant allowed, a whole number from 1."""
    targets = gift_targets(state, player)
    for i, g in enumerate(raw.get("give") or []):
        to_text, n_text = clean(g.get("to", "")), clean(g.get("cogs", ""))
        if not to_text and not n_text:
            continue
        fname = f"give row {i + 1}"
        to = None if is_formula(to_text) else next((p for p in targets if p.casefold() == to_text.casefold()), None)
        n = None if is_formula(n_text) else parse_int(n_text)
        if to is None:
            reason = "yourself" if to_text.casefold() == player.casefold() else (
                "not on your team (option cross_team_trades is off)"
                if to_text.casefold() in {p.casefold() for p in state["roster"]} else "not a participant")
            problems.append(Problem(ProblemKind.ILLEGAL if to_text else ProblemKind.MISSING, player,
                                    f"{fname} to", to_text, ", ".join(targets), reason, "nothing given"))
        elif n is None or n < 1:
            problems.append(Problem(ProblemKind.SYNTAX if n is None else ProblemKind.ILLEGAL, player,
                                    f"{fname} cogs", n_text, "a whole number from 1",
                                    "not a positive whole number", "nothing given"))
        else:
            values["gifts"].append([to, n])


def parse_start(state: BigMachineState, player: str, raw: RawSubmission) -> Submission:
    text = clean(first_row(raw, "start").get("meadow", ""))
    meadow = None if is_formula(text) else meadow_named(text)
    if meadow is None:
        kind = ProblemKind.MISSING if text == "" else ProblemKind.SYNTAX
        reason = "no meadow chosen" if text == "" else ("a formula" if is_formula(text) else "no such meadow")
        return Submission(player, {}, (Problem(kind, player, "meadow", text, ", ".join(MEADOWS), reason,
                                               "a random meadow"),), raw)
    return Submission(player, {"meadow": meadow}, (), raw)


def default_submission(state: BigMachineState, player: str, rng: Rng) -> Mapping[str, Any]:
    """R29, A9: stay, bid 0, power-up 0, a random node joined to the previous one."""
    if state["round"] == 0:
        return {"meadow": rng.choice(MEADOWS)}
    return {"meadow": state["meadow"][player], "bid": 0, "power": 0,
            "node": rng.choice(allowed_nodes(state, player)), "jump": False, "gifts": []}


def first_row(raw: RawSubmission, section: str) -> Mapping[str, str]:
    rows = raw.get(section) or [{}]
    return rows[0] if rows else {}
