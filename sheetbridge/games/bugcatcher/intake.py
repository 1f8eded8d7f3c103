"""A submission: the form each player fills in, how it is read (parse) and what is wrong with it
(the problems), and the rules' default for a player who submitted nothing (R17-R21, R28-R36,
R51, R52, E1-E11, E-P1-E-P6).
"""
from __future__ import annotations

import functools
import math
import re
from typing import Any, Mapping, Sequence

from ...core.parsing import MAX_DIGITS, YES_NO_HELP, clean, int_reason, is_formula, parse_int, yes_no
from ...core.rng import Rng
from ...core.types import Field, FieldKind, Form, Problem, ProblemKind, RawSubmission, Section, State, Submission
from .board import (ACTION_CHOICES, CORNERS, GSWAP, IDLE, ORDINALS, SWAP, _ENERGY_CODES, cell_fine, corner_point,
                    dims, fine_label, key_of, node_lines, parse_corner, point_fine, usable_cells)
from .content import board_missions
from .options import Options, cell_label, options_of, parse_cell
from .paths import walk_alone
from .spec import ACTION_ROWS, ENERGY, LIST_LENGTH


# ------------------------------------------------------------- action codes

def parse_action(text: str) -> str | None:
    """A code from the shorthand or the long form: 'BD', 'border node path down', 'color swap'
    (R30, R33, R36); 'gswap' / 'garnet swap' for the garnet swap (R15). None if unreadable."""
    return _parse_action(text) if isinstance(text, str) else _parse_action(clean(text))


@functools.lru_cache(maxsize=1024)   # players type the same few codes over and over
def _parse_action(text: str) -> str | None:
    s = clean(text).casefold()
    s = re.sub(r"^\d+\s*[.):]\s*", "", s)          # "1. BD"
    s = re.sub(r"[^a-z ]", " ", s)
    words = [w for w in s.split() if w not in ("node", "path", "move", "the", "a", "place", "to", "go")]
    if not words:
        return None
    joined = "".join(words)
    if joined in ("swap", "colorswap", "colourswap", "s", "cswap", "swapcolor", "swapcolour",
                  "swapcolors", "swapcolours"):
        return SWAP
    if joined in ("gswap", "garnetswap", "swapgarnet", "gs", "freeswap", "garnetcolorswap",
                  "garnetcolourswap", "colorswapgarnet", "colourswapgarnet"):
        return GSWAP
    if len(joined) == 2 and joined[0] in "bc" and joined[1] in "udlr":
        return joined.upper()
    if len(words) == 2:
        node = {"border": "B", "b": "B", "central": "C", "center": "C", "centre": "C", "c": "C"}.get(words[0])
        d = {"up": "U", "u": "U", "down": "D", "d": "D", "left": "L", "l": "L", "right": "R",
             "r": "R"}.get(words[1])
        if node and d:
            return node + d
    return None


# The cells a submission nearly always holds, already read: what parse_action and yes_no read them as
# (tests/test_fast_paths.py checks that the rules read each so).
_EXACT_CODES = {c: c for c in ACTION_CHOICES}
_EXACT_YES_NO = {"yes": True, "no": False}


_ACTIONS_ALLOWED = "one of " + ", ".join(ACTION_CHOICES) + " (or the long form, e.g. 'border node path down')"


# ------------------------------------------------------------- the form

def form(state: State, player: str) -> Form:
    """What `player` fills in: the pregame's two lists and bids (R17-R21), or a round's actions (R28) and
    the missions they accept (R51)."""
    opts = options_of(state["options"])
    last = opts.rounds
    if state["round"] == 0:
        return _pregame_form(state, opts)
    r = state["round"]
    acts = Section("actions", "Actions, in order (one per row)",
                   (Field("action", "Action", FieldKind.CHOICE, ACTION_CHOICES, required=False,
                          help="BU BD BL BR (border node), CU CD CL CR (central node), swap, gswap"),),
                   rows=ACTION_ROWS, row_labels=tuple(str(i) for i in range(1, ACTION_ROWS + 1)),
                   help="Row k is your step k. Paths and swaps cost 1 energy (7 per round); "
                        "gswap (once a round) costs 1 garnet instead.")
    sections = [acts]
    board = board_missions(state)
    if board:
        sections.append(Section("missions", f"Missions of round {r} (accept: yes/no)",
                                (Field("accept", "Accept?", FieldKind.YESNO, ("yes", "no"), required=False,
                                       help="yes to take on this mission"),),
                                rows=len(board),
                                row_labels=tuple(f"{m['id']}: {m['name']}" for m in board),
                                help="Only this round's missions can be accepted; accepting is free."))
    return Form(r, f"Round {r} of {last}", tuple(sections), help=(
        f"Round {r} of {last}: list up to {ENERGY} energy of actions in order; all players' k-th actions "
        "happen at the same time.",
        *node_lines(state, player),
        "B = border node (moves along cell edges), C = central node (moves between cell centres); "
        "U D L R = up, down, left, right.",
        "swap swaps the colours of both your nodes (1 energy); gswap does the same for 1 garnet, once a round.",
        "A path onto a claimed point or crossing a same-coloured path collides: it and that node's later "
        "paths fail this round.",
        *((f"Blocked cells (no central node may enter): {opts.blocked_cells}.",)
          if opts.blocked_cells else ()),
    ))


def _pregame_form(state: State, opts: Options) -> Form:
    """The pregame's form: a central and a border priority list and the tiebreak bids (R17-R21)."""
    cells = usable_cells(state)
    all_cells = tuple(cell_label(c, r) for r in range(dims(state)[1])
                      for c in range(dims(state)[0]))
    blocked_note = ((f"Blocked cells (no central node there): {opts.blocked_cells}.",)
                    if opts.blocked_cells else ())
    central = Section("central", "Central node priority list (black in Round 1)",
                      (Field("cell", "Cell", FieldKind.CHOICE, cells, required=False,
                             help="a cell such as C3"),),
                      rows=LIST_LENGTH, row_labels=ORDINALS[:LIST_LENGTH],
                      help="9 different cells, best first")
    border = Section("border", "Border node priority list (blue in Round 1)",
                     (Field("cell", "Cell", FieldKind.CHOICE, all_cells, required=False,
                            help="a cell such as C1"),
                      Field("corner", "Corner", FieldKind.CHOICE, CORNERS, required=False,
                            help="the corner of that cell")),
                     rows=LIST_LENGTH, row_labels=ORDINALS[:LIST_LENGTH],
                     help="9 different corners, best first; C1 bottom right = D2 upper left")
    if opts.bid_scope == "shared":
        bid_fields: tuple[Field, ...] = (Field("bid", "Garnets bid (both lists)", FieldKind.INTEGER, minimum=0,
                            required=False, help="garnets spent to win ties"),)
    else:
        bid_fields = (Field("central_bid", "Garnets bid: central list", FieldKind.INTEGER, minimum=0,
                            required=False, help="garnets spent to win ties on your central list"),
                      Field("border_bid", "Garnets bid: border list", FieldKind.INTEGER, minimum=0,
                            required=False, help="garnets spent to win ties on your border list"))
    bids = Section("bids", "Tiebreak bids (optional)", bid_fields,
                   help="Ties go to the highest bid, then a random draw. Bids are charged "
                        + ("in full." if opts.bid_charge == "always" else "only if you were in a tie."))
    return Form(0, "Pregame", (central, border, bids), help=(
        "Pregame: list 9 cells for your central node and 9 corners for your border node, best first.",
        "Pass 1 gives everyone their 1st choice, pass 2 the 2nd choice to those still without, and so on.",
        "A coordinate wanted by several players in one pass goes to the highest bid, then a seeded draw.",
        "Blank, unknown or repeated entries are skipped; a player left without a coordinate gets a "
        "random free one.",
        *blocked_note,
    ))


# ------------------------------------------------------------- reading a submission

def parse(state: State, player: str, raw: RawSubmission) -> Submission:
    if state["round"] == 0:
        return parse_pregame(state, player, raw)
    return parse_round(state, player, raw)


def parse_pregame(state: State, player: str, raw: RawSubmission) -> Submission:
    """The two priority lists (R17-R20) and the tiebreak bids (R21, A26), with their problems (E-P1-E-P6)."""
    opts = options_of(state["options"])
    problems: list[Problem] = []
    values: dict[str, Any] = {}
    central = _central_list(raw, player, opts, problems)
    border = _border_list(raw, player, opts, problems)
    _list_problems(player, central, border, problems)
    values["central"] = central + [None] * (LIST_LENGTH - len(central))
    values["border"] = border + [None] * (LIST_LENGTH - len(border))
    # bids (R21, A26, E-P5)
    bid_row = (list(raw.get("bids") or [{}]) or [{}])[0]
    names = ("bid",) if opts.bid_scope == "shared" else ("central_bid", "border_bid")
    for name in names:
        values[name] = _bid(clean(bid_row.get(name, "")), player, name, problems)
    return Submission(player, values, tuple(problems), raw)


def _central_list(raw: RawSubmission, player: str, opts: Options, problems: list[Problem]) -> list[str | None]:
    """The central node's list (R18): a key per entry, None for a blank or skipped one."""
    cols, rows = opts.columns, opts.rows
    blocked = opts.blocked
    cells_allowed = f"a cell A1 to {cell_label(cols - 1, rows - 1)}" + (
        f" except the blocked {opts.blocked_cells}" if blocked else "")
    central: list[str | None] = []
    seen: dict[str, int] = {}
    for i, row in enumerate(list(raw.get("central") or [])[:LIST_LENGTH]):
        text = clean(row.get("cell", ""))
        fieldname = f"central {ORDINALS[i]}"
        if text == "":
            central.append(None)
            continue
        cell = None if is_formula(text) else parse_cell(text, cols, rows)
        if cell is None:
            kind = ProblemKind.SYNTAX if is_formula(text) or not re.fullmatch(r"[A-Za-z]\s*\d+", text) \
                else ProblemKind.ILLEGAL
            problems.append(Problem(kind, player, fieldname, text, cells_allowed,
                                    "a formula" if is_formula(text) else "not a cell of the board",
                                    "entry skipped: no claim in that pass"))
            central.append(None)
            continue
        key = key_of(cell_fine(*cell))
        if cell_fine(*cell) in blocked:
            problems.append(Problem(ProblemKind.ILLEGAL, player, fieldname, text, cells_allowed,
                                    "a blocked cell: no central node can be there",
                                    "entry skipped: no claim in that pass"))
            central.append(None)
            continue
        if key in seen:
            problems.append(Problem(ProblemKind.ILLEGAL, player, fieldname, text, "a cell not listed before",
                                    f"already your {ORDINALS[seen[key]]} choice",
                                    "entry skipped: no claim in that pass"))
            central.append(None)
            continue
        seen[key] = i
        central.append(key)
    return central


def _border_list(raw: RawSubmission, player: str, opts: Options, problems: list[Problem]) -> list[str | None]:
    """The border node's list (R19, R20): a cell and its corner per entry (any alias of the point, A3)."""
    cols, rows = opts.columns, opts.rows
    border: list[str | None] = []
    seen: dict[str, int] = {}
    corner_allowed = "a cell and its corner (upper left, upper right, bottom left, bottom right)"
    for i, row in enumerate(list(raw.get("border") or [])[:LIST_LENGTH]):
        ctext, ktext = clean(row.get("cell", "")), clean(row.get("corner", ""))
        fieldname = f"border {ORDINALS[i]}"
        if ctext == "" and ktext == "":
            border.append(None)
            continue
        if is_formula(ctext) or is_formula(ktext):
            problems.append(Problem(ProblemKind.SYNTAX, player, fieldname, ctext or ktext, corner_allowed,
                                    "a formula", "entry skipped: no claim in that pass"))
            border.append(None)
            continue
        m = re.fullmatch(r"([A-Za-z]\s*\d{1,2})\s*(.*)", ctext)
        cell_part, extra = (m.group(1), m.group(2)) if m else (ctext, "")
        cell = parse_cell(cell_part, cols, rows)
        corner = parse_corner(ktext or extra)
        shown = " ".join(x for x in (ctext, ktext) if x)
        if cell is None:
            problems.append(Problem(ProblemKind.SYNTAX if not m else ProblemKind.ILLEGAL, player, fieldname,
                                    shown, corner_allowed, "not a cell of the board",
                                    "entry skipped: no claim in that pass"))
            border.append(None)
            continue
        if corner is None:
            problems.append(Problem(ProblemKind.MISSING if not (ktext or extra) else ProblemKind.SYNTAX,
                                    player, fieldname, shown, corner_allowed,
                                    "no corner given" if not (ktext or extra) else "not a corner",
                                    "entry skipped: no claim in that pass"))
            border.append(None)
            continue
        key = key_of(point_fine(*corner_point(cell[0], cell[1], corner)))
        if key in seen:
            problems.append(Problem(ProblemKind.ILLEGAL, player, fieldname, shown, "a corner not listed before",
                                    f"the same point as your {ORDINALS[seen[key]]} choice",
                                    "entry skipped: no claim in that pass"))
            border.append(None)
            continue
        seen[key] = i
        border.append(key)
    return border


def _list_problems(player: str, central: Sequence[str | None], border: Sequence[str | None],
                   problems: list[Problem]) -> None:
    """A list with no usable entry, or short without a problem already said about it (E-P4)."""
    for name, lst in (("central list", central), ("border list", border)):
        filled = sum(1 for k in lst if k is not None)
        if filled == 0:
            problems.append(Problem(ProblemKind.MISSING, player, name, "", f"{LIST_LENGTH} entries",
                                    "no usable entry", "a random free coordinate after all passes"))
        elif filled < LIST_LENGTH and not any(p.field.startswith(name.split()[0]) for p in problems):
            problems.append(Problem(ProblemKind.MISSING, player, name, f"{filled} {'entry' if filled == 1 else 'entries'}",
                                    f"{LIST_LENGTH} entries", "short list",
                                    "you sit out the passes of the blank entries; if still without a "
                                    "coordinate, a random free one"))


def _bid(text: str, player: str, name: str, problems: list[Problem]) -> int:
    """One tiebreak bid as typed (R21, A26): a whole number 0 or more, else 0 (or its floor) and a problem."""
    bid = 0
    if text == "":
        pass
    elif is_formula(text):
        problems.append(Problem(ProblemKind.SYNTAX, player, name, text, "a whole number 0 or more",
                                "a formula", "bid 0"))
    else:
        n = parse_int(text)
        if n is None:
            try:
                f = float(text.replace(",", "."))
                ok = math.isfinite(f) and abs(f) < 10 ** MAX_DIGITS  # never a 300-digit bid
            except ValueError:
                ok = False
            if ok:
                n = max(0, math.floor(f))
                problems.append(Problem(ProblemKind.ILLEGAL, player, name, text, "a whole number 0 or more",
                                        "not a whole number", f"bid {n}"))
            else:
                reason = int_reason(text)
                problems.append(Problem(ProblemKind.SYNTAX, player, name, text, "a whole number 0 or more",
                                        "not a number" if reason == "not a whole number" else reason, "bid 0"))
                n = 0
        elif n < 0:
            problems.append(Problem(ProblemKind.ILLEGAL, player, name, text, "a whole number 0 or more",
                                    "negative", "bid 0"))
            n = 0
        bid = n
    return bid


def parse_round(state: State, player: str, raw: RawSubmission) -> Submission:
    """A round's actions in order (R28-R36) and the missions accepted (R51, R52, A18), with their problems."""
    opts = options_of(state["options"])
    problems: list[Problem] = []
    codes = _action_rows(raw, player, opts, problems)
    kept, kept_rows = _within_energy(codes, player, opts, problems)
    # E5 / E6 warnings: walk the plan without other players
    problems += walk_warnings(state, player, kept, kept_rows)
    accept = _acceptances(raw, player, board_missions(state), problems)
    return Submission(player, {"actions": kept, "accept": accept}, tuple(problems), raw)


def _action_rows(raw: RawSubmission, player: str, opts: Options, problems: list[Problem]) -> list[tuple[int, str]]:
    """(sheet row, code) of each action read; a blank or unreadable row between them per blank_policy (A14)."""
    allowed = _ACTIONS_ALLOWED
    texts = [clean(row.get("action", "")) for row in (raw.get("actions") or [])]
    while texts and not texts[-1]:   # rows after the last filled one are not read
        texts.pop()
    codes: list[tuple[int, str]] = []   # (sheet row, code)
    gap = "an idle step" if opts.blank_policy == "idle" else "row skipped; later actions move up"
    for i, text in enumerate(texts):
        code = _EXACT_CODES.get(text)   # as nearly every cell is typed; read by the rule otherwise
        if code is not None:
            codes.append((i + 1, code))
            continue
        fieldname = f"action {i + 1}"
        if text == "":
            if opts.blank_policy == "idle":
                codes.append((i + 1, IDLE))
            problems.append(Problem(ProblemKind.MISSING, player, fieldname, "", allowed,
                                    "blank row between actions", gap))
            continue
        code = None if is_formula(text) else parse_action(text)
        if code is None:
            problems.append(Problem(ProblemKind.SYNTAX, player, fieldname, text, allowed,
                                    "a formula" if is_formula(text) else "unknown action code", gap))
            if opts.blank_policy == "idle":
                codes.append((i + 1, IDLE))
            continue
        codes.append((i + 1, code))
    return codes


def _within_energy(codes: Sequence[tuple[int, str]], player: str, opts: Options,
                   problems: list[Problem]) -> tuple[list[str], list[int]]:
    """E3 and E1 (a garnet is assumed for the first gswap; E4 is checked at resolution): the codes
    kept and their sheet rows."""
    seen_g = False
    energy = 0
    kept: list[str] = []
    kept_rows: list[int] = []
    for row_no, c in codes:
        if c == GSWAP:
            label = f"action {row_no}"
            if seen_g:
                if opts.extra_gswap == "as_swap":
                    problems.append(Problem(ProblemKind.ILLEGAL, player, label, "gswap",
                                            "one garnet swap per round", "a second garnet swap",
                                            "a normal swap costing 1 energy"))
                    c = SWAP
                else:
                    problems.append(Problem(ProblemKind.ILLEGAL, player, label, "gswap",
                                            "one garnet swap per round", "a second garnet swap",
                                            "dropped"))
                    continue
            else:
                seen_g = True
        if c in _ENERGY_CODES:   # costs_energy
            energy += 1
            if energy > ENERGY and opts.energy_overflow == "drop_excess":
                problems.append(Problem(ProblemKind.ILLEGAL, player, f"action {row_no}", c,
                                        f"at most {ENERGY} energy of actions",
                                        f"energy {energy} of {ENERGY}", "dropped: it never runs"))
                continue
        kept.append(c)
        kept_rows.append(row_no)
    if energy > ENERGY and opts.energy_overflow == "reject_all":
        problems.append(Problem(ProblemKind.ILLEGAL, player, "actions", f"{energy} energy",
                                f"at most {ENERGY} energy of actions", "too much energy",
                                "the whole list is rejected: no actions this round"))
        kept, kept_rows = [], []
    return kept, kept_rows


def _acceptances(raw: RawSubmission, player: str, board: Sequence[Mapping[str, Any]],
                 problems: list[Problem]) -> list[str]:
    """The ids of this round's missions the player accepts (R51, R52, A18)."""
    accept: list[str] = []
    for i, row in enumerate(list(raw.get("missions") or [])):
        text = clean(row.get("accept", ""))
        if i >= len(board):
            if text and yes_no(text):
                problems.append(Problem(ProblemKind.ILLEGAL, player, f"mission row {i + 1}", text,
                                        "only this round's missions", "no mission on this row", "ignored"))
            continue
        m = board[i]
        v = _EXACT_YES_NO.get(text)   # as nearly every cell is typed; read by the rule otherwise
        if v is None:
            v = None if is_formula(text) else yes_no(text)
        if v is None:
            problems.append(Problem(ProblemKind.SYNTAX, player, f"accept {m['id']}", text, YES_NO_HELP,
                                    "a formula" if is_formula(text) else "not yes or no",
                                    "not accepted"))
        elif v:
            accept.append(m["id"])
    return accept


def walk_warnings(state: State, player: str, codes: Sequence[str],
                  code_rows: Sequence[int]) -> list[Problem]:
    """E5 / E6: the steps of the plan that fail with nobody else on the board, told at intake."""
    opts = options_of(state["options"])
    nodes = state["nodes"].get(player)
    if not nodes:
        return []
    step_rows = list(code_rows) if opts.gswap_takes_step else \
        [r for r, c in zip(code_rows, codes) if c != GSWAP]
    out = []
    for ev in walk_alone(nodes, state["border_colour"][player], codes, opts):
        where = f"action {step_rows[ev.step - 1]}" if ev.step - 1 < len(step_rows) else f"step {ev.step}"
        if ev.result == "offboard":
            out.append(Problem(ProblemKind.ILLEGAL, player, where, ev.code,
                               "a path that stays on the board", "the path would leave the board",
                               "invalid at resolution; " + ("this node places no more paths this round"
                                                           if opts.offboard_policy == "stop_node"
                                                           else "only this action is skipped")))
        elif ev.result == "blocked":
            assert ev.to is not None   # a blocked step names the cell it tried
            out.append(Problem(ProblemKind.ILLEGAL, player, where, ev.code,
                               "a path into a cell that is not blocked",
                               f"{fine_label(ev.to, *dims(state))} is a blocked cell",
                               "invalid at resolution; " + ("this node places no more paths this round"
                                                           if opts.offboard_policy == "stop_node"
                                                           else "only this action is skipped")))
        elif ev.result == "collision":
            out.append(Problem(ProblemKind.ILLEGAL, player, where, ev.code,
                               "a path onto a point your paths have not claimed",
                               "it collides with your own path or node (a self-collision)",
                               "invalidated at resolution, counted as a collision caused; this node "
                               "places no more paths this round"))
    return out


def default_submission(state: State, player: str, rng: Rng) -> Mapping[str, Any]:
    """E-P4 / E11: no lists (random free coordinates after the passes); no actions, no acceptances."""
    if state["round"] == 0:
        names = ("bid",) if options_of(state["options"]).bid_scope == "shared" else ("central_bid", "border_bid")
        return {"central": [None] * LIST_LENGTH, "border": [None] * LIST_LENGTH, **{n: 0 for n in names}}
    return {"actions": [], "accept": []}


