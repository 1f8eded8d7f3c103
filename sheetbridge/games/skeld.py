"""Skeld (designer uriquack, "The Genius: House of Larks"): a Main Match for 4 players.

Rules in brief (R and A numbers from shared/rulings/skeld.md):

- A 7x7 ship of 49 rooms (R4, R5): 39 Component Rooms 1A..13C (component n of the
  Frontier A, Greenhouse B or Conductor C Sequence, R6, R7), 8 Bonus Rooms R S T U W X
  Y Z, the Parasite room P and the Vault V. The diagram is missing, so the layout is a
  host-editable table (A1), validated for its inventory.
- Pregame (round 0, R8-R11): each player names two crewmates (R12) and picks their
  start cells among 1A-C, 2A-C, 3A, 5A; a missing cell is drawn at random (A33).
- Rounds 1..8. Crewmates start with 5 Energy (R13), cap 7 (R14), earn 3 a round
  (R15, A8), keep the rest (R16). A player may buy up to two cap raises for 3 garnets
  each (R17, A11: per player by default, per crewmate as an option).
- Order of a round (A9): cap raises; bananas (+3, R72); one straight move along the
  row or column at 1 Energy a tile (R19-R21, A3-A5), walls block; Take Back Toe step
  (R68, A18); disables (R31-R34, A15); activations of the crewmate's own final room
  (R22, A6), one per crewmate (R30). The bid is always spent (R29, A40). Ties are
  nullified and the highest untied bid wins (R26-R28); Urgot wins a Component Room
  outright (R69, A14); a disabled room blocks everyone. P and V can be activated again
  (R25); V only by a crewmate carrying its player's parasite, with 3+ Energy, once per
  player, every valid plant happens (R55, R57, A23). P follows contention (A20).
- Components are shared by the player's crewmates; bonuses and parasites belong to one
  crewmate (R35). Bonus uses: S 1, W 2, X 1, Y 1, U 1; a bonus works from the round
  after it is won (A12, A13).
- End of round: Wiwaxia drains (R70, A16), Summoner walls (R67, A17), income.
- The MM ends when all 13 components of a Sequence are claimed (R44) or after round 8
  (R50, A31). Winner: most pieces then Sequence Value (R45, R46); several Sequences at
  once: best Sequence Value, then the sum (R47, R48); at the limit the total value
  (R50); then the Gamewide Tiebreak (R49, A29), a host-supplied ranking. A unique top
  plant in the round a Sequence is activated wins instead (R53, R58, R59, A22, A24).
- EC (R51, R60, R61, R63, A25-A28, A31): the would-be winner after a winning plant;
  otherwise the improper planter with the lowest metric; otherwise the non-winner
  with the lowest metric. 1 garnet per 3 components, +4 for Zurich (R64, R73).
- Private each round (R37-R40): crewmates sharing your rooms, who activated those
  rooms, your energy next round, the items of crewmates in your rooms; public: the
  rooms activated this round (R41) and walls placed (R67).

Worked examples from the ruleset (the Composer Sequence is the Conductor Sequence, A35):

>>> contention_winner([("Marcer", 2), ("uri", 2), ("Spadez", 1)])
'Spadez'
>>> contention_winner([("Marcer", 2), ("uri", 2)]) is None
True
>>> sequence_value(["1C", "3C", "5C", "7C", "13C"], "C"), sequence_value(["2C", "4C", "6C", "8C", "10C"], "C")
(29, 30)
"""
from __future__ import annotations

import copy
import enum
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..core.errors import ConfigError
from ..core.game import GameRules
from ..core.parsing import clean, int_reason, is_formula, match_choice, parse_int, yes_no
from ..core.rng import Rng
from ..core.types import (Award, Block, Cell, Field, FieldKind, Form, GameSpec, LedgerEntry,
                          Option, Outcome, Problem, ProblemKind, RawSubmission, Report,
                          RoundInput, RoundResult, Section, State, Submission, TableSpec)

# --------------------------------------------------------------------- content

SEQUENCES: dict[str, str] = {"A": "Frontier", "B": "Greenhouse", "C": "Conductor"}  # R7, A35
COMPONENT_NAMES: dict[str, tuple[str, ...]] = {  # flavour only (R6)
    "A": ("Machine Learning", "Boot Sequence", "Streamline", "Beam Cell", "Compile Driver", "Recursion",
          "Hologram", "Aggregate", "Auto-Shields", "Capacitor", "Defragment", "Cognitive Bias", "Stack"),
    "B": ("Manjusaka", "Orchid", "Edelweiss", "Hyacinth", "Plumeria", "Lotus", "Wisteria", "Iris",
          "Morning Glory", "Hibiscus", "Chrysanthemum", "Lilac", "Jasmine"),
    "C": ("Ravel", "Scriabin", "Debussy", "Saint-Saens", "Medtner", "Chopin", "Beethoven", "Bach",
          "Mozart", "Tchaikovsky", "Haydn", "Schubert", "Mendelssohn"),
}
COMPONENTS: tuple[str, ...] = tuple(f"{n}{s}" for s in "ABC" for n in range(1, 14))  # R5


class Bonus(enum.Enum):
    """The eight bonus items (R65-R73) with their uses (A13; None = unlimited or passive)."""
    R = ("R", "Rosé Tteokbokki", None)
    S = ("S", "Summoner's Meme", 1)
    T = ("T", "Take Back Toe", None)
    U = ("U", "Urgot Peraphernalia", 1)
    W = ("W", "Wiwaxia", 2)
    X = ("X", "XCommunications Device", 1)
    Y = ("Y", "Yellow Banana", 1)
    Z = ("Z", "Zurich Is Stained Vinyl Record", None)

    def __init__(self, letter: str, title: str, uses: int | None) -> None:
        self.letter = letter
        self.title = title
        self.uses = uses


BONUSES: tuple[str, ...] = tuple(b.letter for b in Bonus)
PARASITE_ROOM, VAULT = "P", "V"
ROOMS: tuple[str, ...] = COMPONENTS + BONUSES + (PARASITE_ROOM, VAULT)  # 39 + 8 + 1 + 1 = 49 (R5)
START_CELLS: tuple[str, ...] = ("1A", "1B", "1C", "2A", "2B", "2C", "3A", "5A")  # R10
SIZE = 7  # R4
START_ENERGY, BASE_CAP, INCOME, MAX_CAP = 5, 7, 3, 9  # R13-R15, R17
CAP_PRICE = 3  # R17
VAULT_MIN = 3  # R55
DIRECTIONS: dict[str, tuple[int, int]] = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}  # A2
SIDE_WORDS = {"N": "north", "E": "east", "S": "south", "W": "west"}
BANANA_USE, WIWAXIA_USE = "Eat Yellow Banana", "Wiwaxia drain"
WALL_USES = tuple(f"Summoner wall {d}" for d in DIRECTIONS)
BOARD_TABLE = "Skeld board"


def room_kind(label: str) -> str:
    if label in BONUSES:
        return "bonus"
    if label in (PARASITE_ROOM, VAULT):
        return label
    return "component"


def room_title(label: str) -> str:
    if label in BONUSES:
        return f"{label} ({Bonus[label].title})"
    if label == PARASITE_ROOM:
        return "P (Parasite Room)"
    if label == VAULT:
        return "V (Vault)"
    return f"{label} ({COMPONENT_NAMES[label[-1]][int(label[:-1]) - 1]})"


def number(label: str) -> int:
    return int(label[:-1])


def sequence_value(components: Sequence[str], seq: str) -> int:
    """Sum of the numbers of the components of `seq` held (R46)."""
    return sum(number(c) for c in components if c[-1] == seq)


def pieces(components: Sequence[str], seq: str) -> int:
    return sum(1 for c in components if c[-1] == seq)


def total_value(components: Sequence[str]) -> int:
    """Sequence Value over all components, all sequences (R50, A31)."""
    return sum(number(c) for c in components)


def contention_winner(bids: Sequence[tuple[Any, int]]) -> Any:
    """R26-R28: tied bids are nullified; the highest untied bid wins; None if none.

    >>> contention_winner([("a", 3), ("b", 3), ("c", 2), ("d", 2), ("e", 1)])
    'e'
    """
    counts: dict[int, int] = {}
    for _, amount in bids:
        counts[amount] = counts.get(amount, 0) + 1
    untied = [(amount, who) for who, amount in bids if counts[amount] == 1]
    if not untied:
        return None
    return max(untied, key=lambda t: t[0])[1]


# --------------------------------------------------------------------- spec

SPEC = GameSpec(
    id="skeld",
    name="Skeld",
    min_players=4, max_players=4, recommended_players=4, rounds=8,
    summary="Move two crewmates around a 7x7 ship, bid Energy to activate rooms and complete a Sequence.",
    options=(
        Option("max_rounds", 8, "Rounds after the pregame; the MM ends after this round (R50).", ruling="A31"),
        Option("income_before_round_1", False, "Crewmates also earn 3 Energy before round 1 (round 1 starts "
               "at 7 instead of 5).", ruling="A8"),
        Option("banana_can_exceed_cap", False, "Eating the Yellow Banana may take Energy above the cap.",
               ruling="A10"),
        Option("remote_disable", False, "A crewmate may disable any room, not only the one it ends in; it may "
               "then also activate (the bid is paid first, the disable takes the rest).", ruling="A6"),
        Option("cap_upgrade_scope", "player", "A cap raise (3 garnets) raises both crewmates of the player, or "
               "one crewmate.", ("player", "crewmate"), "A11"),
        Option("same_round_bonus_use", False, "The Summoner's Meme and the Wiwaxia may be used at the end of "
               "the round they are won.", ruling="A12"),
        Option("urgot_consumed_on_blocked_attempt", False, "Urgot Peraphernalia is used up even when its "
               "attempt hits a disabled room.", ruling="A14"),
        Option("announce_disables", False, "Name disabled rooms in the public report.", ruling="A15"),
        Option("wiwaxia_transfers", False, "Energy drained by the Wiwaxia goes to its carrier (capped).",
               ruling="A16"),
        Option("toe_requires_real_move", False, "The Take Back Toe step needs a normal move first.",
               ruling="A18"),
        Option("parasite_room_contention", True, "Claims at P follow the contention rule (one claimant a "
               "round); off: every valid claim succeeds, one per player.", ruling="A20"),
        Option("plant_requires_target", False, "A Vault activation names a Sequence and is correct only if "
               "that Sequence is activated the same round.", ruling="A22"),
        Option("tied_plants_are_improper", True, "Plants that fail by a tie count as improper plants for "
               "the EC.", ruling="A25"),
        Option("winner_can_be_ec", False, "The winner may also be the Elimination Candidate.", ruling="A26"),
        Option("multi_seq_ec_metric", "sum", "EC metric when several Sequences are activated at once: sum "
               "of the Sequence Values or the best one.", ("sum", "best"), "A27"),
        Option("planter_was_winner_ec", "fallback", "EC when the winning planter would have won anyway: "
               "the usual EC rules without that plant, the runner-up, or the planter (literal).",
               ("fallback", "runner_up", "literal"), "A28"),
        Option("multi_seq_use_piece_count", False, "With several Sequences activated at once, compare the "
               "most pieces held in one of them before the Sequence Values.", ruling="A30"),
        Option("gt_ranking", "", "Gamewide Tiebreak: the players best first, comma-separated (blank: ties "
               "are left to the host).", ruling="A29"),
        Option("pregame_fallback", "random", "Start cell of a crewmate without a valid one: random (seeded) "
               "or one fixed cell.", ("random",) + START_CELLS, "A33"),
        Option("reveal_start_positions", False, "Publish the start cells after the pregame.", ruling="A34"),
        Option("reveal_activator_crewmate", False, "Name the activating crewmate, not only the player.",
               ruling="A36"),
        Option("reveal_failure_reasons", False, "Tell a player why their own attempt failed (tie, disable, "
               "Urgot, outbid).", ruling="A37"),
        Option("public_garnets", False, "Publish cap purchases in the public report.", ruling="A39"),
        Option("endgame_full_reveal", False, "Publish every inventory at the end of the MM.", ruling="(c)"),
    ),
    tables=(TableSpec(BOARD_TABLE, "board.csv",
                      "The 7x7 ship (A1): a header row, then 7 rows of a row number and 7 room labels: "
                      "1A..13C, R S T U W X Y Z, P and V, each exactly once."),),
)
DEFAULTS: dict[str, Any] = SPEC.default_options()


# --------------------------------------------------------------------- board

def read_board(rect: Sequence[Sequence[str]]) -> tuple[list[list[str]], list[str]]:
    """The 7x7 grid of labels from the host's table, and sentences about what is wrong."""
    problems: list[str] = []
    rows = [list(r) for r in rect]
    if rows:
        rows = rows[1:]  # header row
    rows = [r for r in rows if any(clean(v) for v in r)]
    grid: list[list[str]] = []
    for i, r in enumerate(rows, start=1):
        cells = [clean(v).upper() for v in r]
        while cells and cells[-1] == "":
            cells.pop()
        labels = cells[1:]  # the first column is the row number
        if len(labels) != SIZE or any(not v for v in labels):
            problems.append(f"{BOARD_TABLE}: data row {i} has {len([v for v in labels if v])} room labels; "
                            f"each of the {SIZE} rows needs a row number then exactly {SIZE} labels")
        grid.append(labels)
    if len(rows) != SIZE:
        problems.append(f"{BOARD_TABLE}: {len(rows)} data rows found; the ship needs exactly {SIZE} rows of "
                        f"{SIZE} rooms under the header row")
    where: dict[str, list[str]] = {}
    for i, r in enumerate(grid, start=1):
        for j, v in enumerate(r, start=1):
            if v:
                where.setdefault(v, []).append(f"row {i} column {j}")
    unknown = sorted(v for v in where if v not in ROOMS)
    if unknown:
        problems.append(f"{BOARD_TABLE}: unknown room label(s) {', '.join(unknown)}; use only 1A..13C, "
                        f"R, S, T, U, W, X, Y, Z, P and V")
    doubled = [v for v in ROOMS if len(where.get(v, ())) > 1]
    if doubled:
        problems.append(f"{BOARD_TABLE}: doubled room(s): " + "; ".join(
            f"{v} at {' and '.join(where[v])}" for v in doubled) + "; each room appears exactly once")
    missing = [v for v in ROOMS if v not in where]
    if missing:
        problems.append(f"{BOARD_TABLE}: missing room(s) {', '.join(missing)}; put each in one cell "
                        "(39 component rooms, 8 bonus rooms, P and V)")
    return grid, problems


@dataclass(frozen=True)
class Board:
    grid: tuple[tuple[str, ...], ...]

    @classmethod
    def of(cls, state: State) -> "Board":
        return cls(tuple(tuple(r) for r in state["board"]))

    def pos(self, label: str) -> tuple[int, int]:
        for i, r in enumerate(self.grid):
            for j, v in enumerate(r):
                if v == label:
                    return i, j
        raise KeyError(label)

    def at(self, i: int, j: int) -> str | None:
        if 0 <= i < SIZE and 0 <= j < SIZE:
            return self.grid[i][j]
        return None

    def neighbour(self, label: str, side: str) -> str | None:
        i, j = self.pos(label)
        di, dj = DIRECTIONS[side]
        return self.at(i + di, j + dj)

    def line(self, src: str, dst: str) -> list[str] | None:
        """Rooms stepped through from src to dst along a row or column (dst included), or None."""
        (a, b), (c, d) = self.pos(src), self.pos(dst)
        if a != c and b != d:
            return None
        if (a, b) == (c, d):
            return []
        di = (c > a) - (c < a)
        dj = (d > b) - (d < b)
        out, i, j = [], a, b
        while (i, j) != (c, d):
            i, j = i + di, j + dj
            out.append(self.grid[i][j])
        return out

    def same_line(self, label: str) -> list[str]:
        i, j = self.pos(label)
        return [self.grid[i][k] for k in range(SIZE) if k != j] + [self.grid[k][j] for k in range(SIZE) if k != i]


def edge(a: str, b: str) -> str:
    """A wall is stored as the shared edge of two rooms (A2)."""
    return "|".join(sorted((a, b)))


def path_crosses_wall(board: Board, src: str, path: Sequence[str], walls: Sequence[str]) -> bool:
    prev = src
    ws = set(walls)
    for room in path:
        if edge(prev, room) in ws:
            return True
        prev = room
    return False


# --------------------------------------------------------------------- crew helpers

def _usable(crew: Mapping[str, Any], letter: str, r: int) -> bool:
    """The crewmate carries bonus `letter`, won before round r (A12), with a use left (A13)."""
    for it in crew["items"]:
        if it["item"] == letter and it["got"] < r and (it["uses"] is None or it["uses"] > 0):
            return True
    return False


def _carries(crew: Mapping[str, Any], letter: str) -> bool:
    return any(it["item"] == letter for it in crew["items"])


def _use(crew: dict, letter: str) -> None:
    for it in crew["items"]:
        if it["item"] == letter and it["uses"] is not None and it["uses"] > 0:
            it["uses"] -= 1
            return


def _items_text(crew: Mapping[str, Any]) -> str:
    parts = []
    for it in sorted(crew["items"], key=lambda x: BONUSES.index(x["item"])):
        b = Bonus[it["item"]]
        t = b.title
        if b.uses is not None:
            t += " (used up)" if it["uses"] == 0 else f" ({it['uses']} use{'s' if it['uses'] != 1 else ''} left)"
        parts.append(t)
    if crew["parasite"]:
        parts.append("a Parasite")
    return ", ".join(parts) if parts else "no bonus and no parasite"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _crew_id(player: str, crew: Mapping[str, Any]) -> str:
    return f"{player}.{crew['name']}"


def item_uses(players: Sequence[str], player: str) -> tuple[str, ...]:
    """Every item-use text a player can type (the dropdown's full vocabulary)."""
    return (BANANA_USE, WIWAXIA_USE) + WALL_USES + tuple(f"XComm with {p}" for p in players if p != player)


# --------------------------------------------------------------------- planning (validation, A9 steps 1-6)

_Prob = tuple  # (field, value, allowed, reason, default)


def plan_player(state: State, player: str, intents: Sequence[Mapping[str, Any]], caps: Sequence[int],
                opts: Mapping[str, Any]) -> tuple[list[dict], list[_Prob]]:
    """Check one player's intents step by step (banana, move, Toe, activation or disable,
    end-of-round items) against their own and public state only (A38), dropping each
    invalid step (deadline fallback, section e). Returns the plans and the problems."""
    r = state["round"]
    board = Board.of(state)
    walls = state["walls"]
    activated = set(state["activated"])
    probs: list[_Prob] = []
    plans: list[dict] = []
    for i, crew in enumerate(state["crew"][player]):
        it = intents[i] if i < len(intents) else {}
        name = crew["name"]
        e, pos, cap = crew["energy"], crew["pos"], caps[i]
        plan: dict[str, Any] = {"start": pos, "energy_start": e, "banana": False, "move": None, "toe": None,
                                "bid": None, "disable": False, "disable_room": None, "wiwaxia": False,
                                "wall": None, "xcomm": None, "plant": None}
        # banana (A9 step 3, R72, E10)
        if it.get("banana"):
            if _usable(crew, "Y", r):
                plan["banana"] = True
                e = e + 3 if opts["banana_can_exceed_cap"] else min(cap, e + 3)
            else:
                probs.append((f"{name} item", BANANA_USE, "items this crewmate carries",
                              f"{name} carries no uneaten Yellow Banana (won before this round)", "not eaten"))
        # move (R19-R21, A3-A5; E04-E06)
        dst = it.get("move_to")
        if dst and dst != pos:
            path = board.line(pos, dst)
            if path is None:
                probs.append((f"{name} move_to", dst, f"a room in the same row or column as {pos}",
                              f"{dst} is not in the same row or column as {pos}", f"{name} stays in {pos}"))
            elif path_crosses_wall(board, pos, path, walls):
                probs.append((f"{name} move_to", dst, "a room reached without crossing a wall",
                              f"the way from {pos} to {dst} crosses a wall", f"{name} stays in {pos}"))
            elif len(path) > e:
                probs.append((f"{name} move_to", dst, f"a room at most {e} tiles away (1 Energy a tile)",
                              f"the move costs {len(path)} Energy and {name} has {e}", f"{name} stays in {pos}"))
            else:
                plan["move"] = dst
                e -= len(path)
                pos = dst
        # Take Back Toe (R68, A18; E07-E09)
        side = it.get("toe")
        if side:
            nxt = board.neighbour(pos, side)
            if not _usable(crew, "T", r):
                probs.append((f"{name} toe_step", side, "blank (only a Take Back Toe carrier steps)",
                              f"{name} does not carry the Take Back Toe", "no extra step"))
            elif opts["toe_requires_real_move"] and plan["move"] is None:
                probs.append((f"{name} toe_step", side, "a step after a normal move",
                              "the Toe step needs a normal move first (host option)", "no extra step"))
            elif nxt is None or edge(pos, nxt) in walls:
                probs.append((f"{name} toe_step", side, "a direction that stays on the ship without a wall",
                              f"{SIDE_WORDS[side]} of {pos} is {'a wall' if nxt else 'the hull'}", "no extra step"))
            elif e < 1:
                probs.append((f"{name} toe_step", side, "a step with 1 Energy left",
                              f"{name} has no Energy left for the step", "no extra step"))
            else:
                plan["toe"] = side
                e -= 1
                pos = nxt
        plan["final"] = pos
        plan["energy_after_moves"] = e
        # activation xor disable (A7, E19)
        bid = it.get("energy")
        dis = it.get("disable") or False
        target = pos if dis is True else dis  # a room label under remote_disable (A6)
        if dis and not opts["remote_disable"] and target != pos:
            probs.append((f"{name} disable", target, f"yes (the room {name} ends in, {pos})",
                          "a crewmate disables the room it is in", "no disable"))  # A6
            dis = False
        if bid is not None and dis and not opts["remote_disable"]:
            probs.append((f"{name} disable", "yes", "either an activation or a disable",
                          "a crewmate cannot activate and disable in one round", "no disable; the activation stands"))
            dis = False
        if bid is not None:
            kind = room_kind(pos)
            need = VAULT_MIN if pos == VAULT else 1
            bad = None
            span = f"a whole number from {need} to {e}" if e >= need else f"blank ({name} has {e} Energy left)"
            if bid < need:
                bad = (span, f"at least {need} Energy is needed to activate {pos}")
            elif bid > e:
                bad = (span, f"{name} has {e} Energy in {pos} after moving")
            elif kind in ("component", "bonus") and pos in activated:
                bad = ("blank", f"{pos} was already activated and cannot be activated again")  # R25
            elif pos == PARASITE_ROOM and state["claimed"][player]:
                bad = ("blank", "you have already claimed your parasite")  # R56
            elif pos == VAULT and (not crew["parasite"] or state["vault_used"][player]):
                bad = ("blank", f"{name} carries no parasite" if not crew["parasite"]
                       else "you have already activated the Vault")  # R57
            elif pos == VAULT and opts["plant_requires_target"] and not it.get("plant"):
                bad = ("Frontier, Greenhouse or Conductor in plant_sequence", "a plant must name its Sequence")
            if bad:
                probs.append((f"{name} energy", str(bid), bad[0], bad[1], f"no activation of {pos}"))
            else:
                plan["bid"] = bid
                plan["plant"] = it.get("plant") if pos == VAULT else None
                e -= bid
        plan["energy_after_bid"] = e
        if dis:
            bad = None
            if state["disable_used"][player]:
                bad = "you have already used your once-per-game disable"  # R31
            elif target in (PARASITE_ROOM, VAULT):
                bad = "the Parasite Room and the Vault cannot be disabled"  # R34
            elif target in activated:
                bad = f"{target} is already activated"
            elif e < 1:
                bad = "disabling needs at least 1 Energy"  # R33
            if bad:
                probs.append((f"{name} disable", "yes" if dis is True else target,
                              "no (or once per game, a room you may disable)", bad, "no disable"))
            else:
                plan["disable"] = True
                plan["disable_room"] = target
                e = 0
        plan["energy_left"] = e
        # end-of-round and out-of-band items (E25, E26, E28)
        if it.get("wiwaxia"):
            if _usable(crew, "W", r) or _winnable(state, crew, "W", pos, plan, opts):
                plan["wiwaxia"] = True
            else:
                probs.append((f"{name} item", WIWAXIA_USE, "items this crewmate carries",
                              f"{name} carries no Wiwaxia with a use left (won before this round)", "no drain"))
        side = it.get("wall")
        if side:
            nxt = board.neighbour(pos, side)
            if not (_usable(crew, "S", r) or _winnable(state, crew, "S", pos, plan, opts)):
                probs.append((f"{name} item", f"Summoner wall {side}", "items this crewmate carries",
                              f"{name} carries no unused Summoner's Meme (won before this round)", "no wall"))
            elif nxt is None:
                probs.append((f"{name} item", f"Summoner wall {side}", "a side of the room inside the ship",
                              f"the {SIDE_WORDS[side]} side of {pos} is the hull", "no wall"))
            elif edge(pos, nxt) in walls:
                probs.append((f"{name} item", f"Summoner wall {side}", "a side without a wall",
                              f"the {SIDE_WORDS[side]} side of {pos} already has a wall", "no wall"))
            else:
                plan["wall"] = side
        other = it.get("xcomm")
        if other:
            here = [c for c in state["crew"].get(other, []) if c["pos"] == crew["pos"]]
            if not _usable(crew, "X", r):
                probs.append((f"{name} item", f"XComm with {other}", "items this crewmate carries",
                              f"{name} carries no unused XCommunications Device", "no XComm"))
            elif not here:
                probs.append((f"{name} item", f"XComm with {other}", "a player whose crewmate shares the room",
                              f"no crewmate of {other} shared {crew['pos']} with {name} at the start of the round",
                              "no XComm"))
            else:
                plan["xcomm"] = other
        plans.append(plan)
    # both crewmates disabling in one round (E21)
    if len(plans) == 2 and plans[0]["disable"] and plans[1]["disable"]:
        for i, plan in enumerate(plans):
            name = state["crew"][player][i]["name"]
            probs.append((f"{name} disable", "yes", "a disable by one crewmate only",
                          "a player disables once per game; both crewmates asked", "no disable"))  # R31
            plan["disable"] = False
            plan["disable_room"] = None
            plan["energy_left"] = plan["energy_after_bid"]
    return plans, probs


def _winnable(state: State, crew: Mapping[str, Any], letter: str, pos: str, plan: Mapping[str, Any],
              opts: Mapping[str, Any]) -> bool:
    """Under same_round_bonus_use (A12), an end-of-round use of S or W by a crewmate that
    bids on that bonus room this round; it only happens if the crewmate wins it."""
    return (bool(opts["same_round_bonus_use"]) and pos == letter and plan["bid"] is not None
            and letter not in state["activated"] and not _carries(crew, letter))


def _intent_from_plan(plan: Mapping[str, Any]) -> dict:
    dis: Any = False
    if plan["disable"]:
        dis = True if plan["disable_room"] == plan["final"] else plan["disable_room"]
    return {"banana": plan["banana"], "move_to": plan["move"], "toe": plan["toe"], "energy": plan["bid"],
            "disable": dis, "wiwaxia": plan["wiwaxia"], "wall": plan["wall"],
            "xcomm": plan["xcomm"], "plant": plan["plant"]}


def _caps(state: State, player: str) -> list[int]:
    return [c["cap"] for c in state["crew"][player]]


# --------------------------------------------------------------------- end of the MM (section d)

def gt_order(text: str, players: Sequence[str]) -> dict[str, int]:
    """The host's Gamewide Tiebreak ranking (A29), best first; unknown names are ignored."""
    out: dict[str, int] = {}
    for name in [clean(x) for x in str(text or "").split(",")]:
        hit = match_choice(name, players)
        if hit and hit not in out:
            out[hit] = len(out)
    return out


def _top(players: Sequence[str], key, gt: Mapping[str, int], best: bool = True) -> tuple[list[str], bool]:
    """The players with the best (or worst) key; broken by GT if it ranks them all.
    Returns (group, decided_by_gt)."""
    if not players:
        return [], False
    keys = {p: key(p) for p in players}
    target = max(keys.values()) if best else min(keys.values())
    group = sorted(p for p in players if keys[p] == target)
    if len(group) > 1 and all(p in gt for p in group):
        pick = min(group, key=lambda p: gt[p]) if best else max(group, key=lambda p: gt[p])
        return [pick], True
    return group, False


def decide(players: Sequence[str], comps: Mapping[str, Sequence[str]], seqs: Sequence[str],
           final_plants: Sequence[Mapping[str, Any]], earlier_plants: Sequence[Mapping[str, Any]],
           opts: Mapping[str, Any]) -> dict:
    """Winner, Token of Life and EC (section d). `seqs`: letters of the Sequences activated
    in the final round (empty: the round limit). `final_plants`: plants of that round;
    `earlier_plants`: plants of earlier rounds (all improper, R62)."""
    gt = gt_order(opts.get("gt_ranking", ""), players)
    reasons: list[str] = []
    pending: list[str] = []
    players = sorted(players)
    if not seqs:
        def nw_key(p):
            return (total_value(comps[p]),)
        basis = "highest total Sequence Value after the last round"  # R50
    elif len(seqs) == 1:
        s = seqs[0]

        def nw_key(p):
            return (pieces(comps[p], s), sequence_value(comps[p], s))
        basis = f"most {SEQUENCES[s]} pieces, then {SEQUENCES[s]} Sequence Value"  # R45, R46
    else:
        def nw_key(p):
            vals = [sequence_value(comps[p], s) for s in seqs]
            if opts["multi_seq_use_piece_count"]:
                return (max(pieces(comps[p], s) for s in seqs), max(vals), sum(vals))
            return (max(vals), sum(vals))
        basis = "highest single Sequence Value, then the sum over the activated Sequences"  # R47, R48
        if opts["multi_seq_use_piece_count"]:
            basis = "most pieces in one activated Sequence, then " + basis  # host option A30
    nw_group, nw_gt = _top(players, nw_key, gt)
    nw = nw_group[0] if len(nw_group) == 1 else None
    if nw and nw_gt:
        reasons.append(f"Normal winner {nw} by the Gamewide Tiebreak")  # R49
    # Parasite winner (R53, R58, R59; A22, A24)
    correct = [pl for pl in final_plants if seqs and (not opts["plant_requires_target"] or pl.get("seq") in seqs)]
    pw = None
    tied_planters: list[str] = []
    if correct:
        top = max(pl["energy"] for pl in correct)
        at_top = sorted(pl["player"] for pl in correct if pl["energy"] == top)
        if len(at_top) == 1:
            pw = at_top[0]
        else:
            tied_planters = at_top
            reasons.append(f"Tied plants at {top} Energy by {', '.join(at_top)}: the planting fails")  # R59
    if pw:
        winners = [pw]
        method = "parasite"
        reasons.append(f"{pw} planted the Parasite with the most Energy ({top}) in the round the Sequence "
                       "was activated and wins")  # R53, R58
    else:
        winners = nw_group
        method = "normal"
        if nw:
            reasons.append(f"{nw} wins by {basis}")
        else:
            pending.append(f"Gamewide Tiebreak among {', '.join(nw_group)} decides the winner ({basis} tied); "
                           "set gt_ranking")
    # improper planters (A25)
    improper = {pl["player"] for pl in earlier_plants}
    for pl in final_plants:
        if pl["player"] == pw:
            continue
        if pl["player"] in tied_planters and not opts["tied_plants_are_improper"]:
            continue
        improper.add(pl["player"])
    # EC metric (A27, A31)
    if not seqs:
        def metric(p):
            return total_value(comps[p])
        mname = "total Sequence Value"
    elif len(seqs) == 1 or opts["multi_seq_ec_metric"] == "sum":
        def metric(p):
            return sum(sequence_value(comps[p], s) for s in seqs)
        mname = "Sequence Value in the activated Sequence" if len(seqs) == 1 else \
            "sum of Sequence Values over the activated Sequences"
    else:
        def metric(p):
            return max(sequence_value(comps[p], s) for s in seqs)
        mname = "best Sequence Value among the activated Sequences"
    excluded = set() if opts["winner_can_be_ec"] else set(winners)
    ec: str | None = None
    ec_rule = ""
    ec_pending = ""

    def lowest(cands, rule):
        group, by_gt = _top(sorted(cands), metric, gt, best=False)
        if len(group) == 1:
            return group[0], rule + (" (Gamewide Tiebreak)" if by_gt else ""), ""
        return None, rule, f"Gamewide Tiebreak among {', '.join(group)} decides the EC (lowest {mname} tied)"

    done = False
    if pw and pw != nw:
        if nw:
            ec, ec_rule = nw, "the player who would have won without the Parasite"  # R60
        else:
            ec_pending = (f"Gamewide Tiebreak among {', '.join(nw_group)} decides who would have won without "
                          "the Parasite: that player is the EC")  # R60
        done = True
    elif pw and pw == nw:
        mode = opts["planter_was_winner_ec"]
        if mode == "literal":
            ec, ec_rule, done = pw, "the would-be winner is the planter", True  # R60, read literally
        elif mode == "runner_up":
            rest = [p for p in players if p != pw]
            ec, ec_rule, ec_pending = None, "", ""
            group, by_gt = _top(rest, nw_key, gt)
            if len(group) == 1:
                ec, ec_rule = group[0], "runner-up by the normal ranking"  # A28 runner_up
            else:
                ec_pending = f"Gamewide Tiebreak among {', '.join(group)} decides the runner-up EC"
            done = True
    if not done:
        imp = sorted(p for p in improper if p not in excluded)
        if imp:
            ec, ec_rule, ec_pending = lowest(imp, f"improper planter with the lowest {mname}")  # R61, R63
        else:
            rest = [p for p in players if p not in excluded]
            ec, ec_rule, ec_pending = lowest(rest, f"lowest {mname}")  # R51
    if ec:
        reasons.append(f"Elimination Candidate: {ec}, {ec_rule}")
    if ec_pending:
        pending.append(ec_pending)
    # numbers behind the result
    numbers: dict[str, str] = {}
    for p in players:
        if seqs:
            numbers[p] = "; ".join(f"{SEQUENCES[s]}: {_plural(pieces(comps[p], s), 'piece')}, value "
                                   f"{sequence_value(comps[p], s)}" for s in seqs)
            if len(seqs) > 1:
                numbers[p] += f"; sum {sum(sequence_value(comps[p], s) for s in seqs)}"
        else:
            numbers[p] = f"total Sequence Value {total_value(comps[p])} ({len(comps[p])} components)"
    order = sorted(players, key=lambda p: (p not in winners, tuple(-x for x in nw_key(p)), gt.get(p, 99), p))
    return {"winners": winners, "method": method, "normal_winner": nw, "normal_group": nw_group,
            "ec": ec, "ec_rule": ec_rule, "reasons": reasons, "pending": pending, "numbers": numbers,
            "order": order, "improper": sorted(improper), "tied_planters": tied_planters,
            "sequences": list(seqs)}


# --------------------------------------------------------------------- the game

class Skeld(GameRules):
    spec = SPEC

    # ---- setup -------------------------------------------------------------
    def check_tables(self, tables) -> list[str]:
        if BOARD_TABLE not in tables:
            return [f"the {BOARD_TABLE} table is missing; copy templates/skeld/board.csv into a tab named "
                    f"{BOARD_TABLE!r}"]
        return read_board(tables[BOARD_TABLE])[1]

    def setup(self, players, options, tables, rng: Rng) -> State:
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
            "plants": [], "balances": {p: 0 for p in players}, "result": None,
        }

    # ---- forms ---------------------------------------------------------------
    def form(self, state: State, player: str) -> Form:
        crew = state["crew"][player]
        if state["round"] == 0:
            name = Field("name", "Crewmate name", FieldKind.TEXT, required=False,
                         help="up to 30 visible characters without . , or | (blank keeps Crewmate 1 / Crewmate 2)")
            start = Field("start", "Start cell", FieldKind.CHOICE, START_CELLS,
                          help="crewmates start only in these cells")  # R10
            return Form(0, "Pregame", (Section("crew", "Your two crewmates", (name, start), rows=2,
                                               row_labels=("Crewmate 1", "Crewmate 2"),
                                               help="Name each crewmate and pick its start cell."),),
                        help=("No room is activated in the pregame.",  # R11
                              "A missing start cell is drawn at random."))  # A33
        board = Board.of(state)
        opts = state["options"]
        r = state["round"]
        moves: list[str] = []
        for c in crew:
            for room in [c["pos"]] + board.same_line(c["pos"]):
                if room not in moves:
                    moves.append(room)
        moves.sort(key=lambda x: board.pos(x))
        uses = ["none"]
        for c in crew:
            if _usable(c, "Y", r) and BANANA_USE not in uses:
                uses.append(BANANA_USE)
            if _usable(c, "W", r) and WIWAXIA_USE not in uses:
                uses.append(WIWAXIA_USE)
            if _usable(c, "S", r):
                uses += [w for w in WALL_USES if w not in uses]
            if _usable(c, "X", r):
                uses += [f"XComm with {p}" for p in state["players"] if p != player and f"XComm with {p}" not in uses]
        top = max(_caps(state, player)) + (3 if opts["banana_can_exceed_cap"] else 0)
        fields = [
            Field("move_to", "Move to", FieldKind.CHOICE, tuple(moves), required=False,
                  help="a room in the same row or column; 1 Energy per tile; blank = stay"),
            Field("toe_step", "Take Back Toe step", FieldKind.CHOICE, tuple(DIRECTIONS), required=False,
                  help="N/E/S/W after moving, 1 Energy (Take Back Toe carriers only)"),
            Field("energy", "Activate here with Energy", FieldKind.INTEGER, minimum=1, maximum=top,
                  required=False, help="activates the room you end in; spent even if it fails; 3+ at V"),
            (Field("disable", "Disable a room", FieldKind.CHOICE,
                   tuple(x for x in sorted(ROOMS, key=board.pos) if x not in (PARASITE_ROOM, VAULT)
                         and x not in state["activated"]), required=False,
                   help="any room, once per game; uses all Energy left after the activation; not P or V")
             if opts["remote_disable"] else
             Field("disable", "Disable this room", FieldKind.YESNO, ("yes", "no"), required=False,
                   help="once per game; uses all the crewmate's Energy; not P or V")),
            Field("item", "Use item", FieldKind.CHOICE, tuple(uses), required=False,
                  help="a bonus this crewmate carries"),
            Field("item_2", "Use another item", FieldKind.CHOICE, tuple(uses), required=False,
                  help="a second bonus use this round"),
        ]
        if opts["plant_requires_target"]:
            fields.append(Field("plant_sequence", "Plant on Sequence", FieldKind.CHOICE,
                                tuple(SEQUENCES.values()), required=False, help="needed when activating V"))
        labels = tuple(f"{c['name']} (in {c['pos']}, {c['energy']} Energy)" for c in crew)
        if opts["cap_upgrade_scope"] == "crewmate":
            left = max(2 - c["raises"] for c in crew)
            garn = Section("garnets", "Garnet purchases", (Field(
                "cap_upgrades", "Energy cap raises (3 garnets each)", FieldKind.INTEGER, minimum=0, maximum=left,
                required=False, help="raises this crewmate's cap by 1 each, up to 9"),), rows=2,
                row_labels=tuple(f"{c['name']} (cap {c['cap']})" for c in crew),
                help="Raises one crewmate's cap.")  # R17, A11 crewmate scope
        else:
            left = 2 - crew[0]["raises"]
            garn = Section("garnets", "Garnet purchases", (Field(
                "cap_upgrades", "Energy cap raises (3 garnets each)", FieldKind.INTEGER, minimum=0, maximum=left,
                required=False, help=f"cap now {crew[0]['cap']}; at most {left} more (cap 9 max)"),),
                help="Raises the cap of both crewmates.")  # R17, A11
        return Form(r, f"Round {r}", (
            Section("crew", "Your crewmates", tuple(fields), rows=2, row_labels=labels,
                    help="Order: item (banana) > move > Toe step > activate or disable > drains and walls."),
            garn,
        ), help=(f"Round {r} of {opts['max_rounds']}.",
                 "Energy over what is left after moving, or a move through a wall, is refused."))

    # ---- parsing -------------------------------------------------------------
    def parse(self, state: State, player: str, raw: RawSubmission) -> Submission:
        if state["round"] == 0:
            return self._parse_pregame(state, player, raw)
        opts = state["options"]
        problems: list[Problem] = []
        crew = state["crew"][player]
        rows = list(raw.get("crew", []) or [])
        intents: list[dict] = []
        all_uses = item_uses(state["players"], player)

        def syn(field, value, allowed, reason, default):
            problems.append(Problem(ProblemKind.SYNTAX, player, field, value, allowed, reason, default))

        for i, c in enumerate(crew):
            row = rows[i] if i < len(rows) and rows[i] else {}
            name = c["name"]
            it: dict[str, Any] = {"banana": False, "move_to": None, "toe": None, "energy": None,
                                  "disable": False, "wiwaxia": False, "wall": None, "xcomm": None, "plant": None}
            text = clean(row.get("move_to", ""))
            if text:
                hit = match_choice(text, ROOMS)
                if is_formula(text) or hit is None:
                    syn(f"{name} move_to", text, "a room label of the ship (1A..13C, R..Z, P, V)",
                        "a formula" if is_formula(text) else "not a room of the ship", f"{name} stays in {c['pos']}")
                else:
                    it["move_to"] = hit
            text = clean(row.get("toe_step", ""))
            if text:
                hit = match_choice(text[:1] if text.casefold() in ("north", "east", "south", "west") else text,
                                   DIRECTIONS)
                if is_formula(text) or hit is None:
                    syn(f"{name} toe_step", text, "N, E, S or W", "not a direction", "no extra step")
                else:
                    it["toe"] = hit
            text = clean(row.get("energy", ""))
            if text:
                n = None if is_formula(text) else parse_int(text)
                if n is None:
                    syn(f"{name} energy", text, "a whole number of Energy", int_reason(text), "no activation")
                else:
                    it["energy"] = n
            text = clean(row.get("disable", ""))
            if text:
                yn = None if is_formula(text) else yes_no(text)
                room = None if is_formula(text) else match_choice(text, ROOMS)
                if yn is not None:
                    it["disable"] = yn
                elif room is not None and opts["remote_disable"]:
                    it["disable"] = room
                elif room is not None:
                    problems.append(Problem(ProblemKind.ILLEGAL, player, f"{name} disable", text,
                                            "yes or no (the room the crewmate ends in)",
                                            "a crewmate disables the room it is in", "no disable"))  # A6
                else:
                    syn(f"{name} disable", text, "yes, no" + (" or a room" if opts["remote_disable"] else ""),
                        "not yes, no or a room", "no disable")
            for key in ("item", "item_2"):
                text = clean(row.get(key, ""))
                if not text or text.casefold() == "none":
                    continue
                hit = None if is_formula(text) else match_choice(text, all_uses)
                if hit is None and not is_formula(text):
                    alias = {"banana": BANANA_USE, "yellow banana": BANANA_USE, "eat banana": BANANA_USE,
                             "wiwaxia": WIWAXIA_USE}
                    hit = alias.get(text.casefold())
                if hit is None:
                    syn(f"{name} {key}", text, "one of " + ", ".join(all_uses),
                        "a formula" if is_formula(text) else "not an item use", "no item used")
                    continue
                dup = ((hit == BANANA_USE and it["banana"]) or (hit == WIWAXIA_USE and it["wiwaxia"])
                       or (hit in WALL_USES and it["wall"]) or (hit.startswith("XComm") and it["xcomm"]))
                if dup:
                    problems.append(Problem(ProblemKind.ILLEGAL, player, f"{name} {key}", text,
                                            "a different item use", "that item is already used this round "
                                            "by this crewmate (single use per round)", "ignored"))
                elif hit == BANANA_USE:
                    it["banana"] = True
                elif hit == WIWAXIA_USE:
                    it["wiwaxia"] = True
                elif hit in WALL_USES:
                    it["wall"] = hit[-1]
                else:
                    it["xcomm"] = hit[len("XComm with "):]
            if opts["plant_requires_target"]:
                text = clean(row.get("plant_sequence", ""))
                if text:
                    hit = None if is_formula(text) else match_choice(text, list(SEQUENCES.values()))
                    if hit is None:
                        hit_letter = match_choice(text, list(SEQUENCES))
                        hit = SEQUENCES[hit_letter] if hit_letter else None
                    if hit is None:
                        syn(f"{name} plant_sequence", text, "Frontier, Greenhouse or Conductor",
                            "not a Sequence", "no Sequence named")
                    else:
                        it["plant"] = [k for k, v in SEQUENCES.items() if v == hit][0]
            intents.append(it)
        # cap raises (R17, A11; E27: the balance is checked at resolution)
        grow = list(raw.get("garnets", []) or [])
        per_crew = opts["cap_upgrade_scope"] == "crewmate"
        upgrades = [0, 0]
        for i in range(2 if per_crew else 1):
            text = clean(grow[i].get("cap_upgrades", "")) if i < len(grow) and grow[i] else ""
            left = 2 - crew[i]["raises"]
            field = f"{crew[i]['name']} cap_upgrades" if per_crew else "cap_upgrades"
            if not text:
                continue
            n = None if is_formula(text) else parse_int(text)
            if n is None:
                syn(field, text, f"a whole number from 0 to {left}", int_reason(text), "no cap raise")
            elif not 0 <= n <= left:
                problems.append(Problem(ProblemKind.ILLEGAL, player, field, text, f"a whole number from 0 to {left}",
                                        f"the cap can rise to 9 at most (now {crew[i]['cap']})", "no cap raise"))
            elif per_crew:
                upgrades[i] = n
            else:
                upgrades = [n, n]
        caps = [c["cap"] + n for c, n in zip(crew, upgrades)]
        plans, probs = plan_player(state, player, intents, caps, opts)
        for field, value, allowed, reason, default in probs:
            problems.append(Problem(ProblemKind.ILLEGAL, player, field, value, allowed, reason, default))
        values = {"upgrades": upgrades, "crew": [_intent_from_plan(p) for p in plans]}
        return Submission(player, values, tuple(problems), raw)

    def _parse_pregame(self, state: State, player: str, raw: RawSubmission) -> Submission:
        problems: list[Problem] = []
        rows = list(raw.get("crew", []) or [])
        out = []
        names_seen: list[str] = []
        fallback = state["options"]["pregame_fallback"]
        dflt = "a random allowed cell" if fallback == "random" else fallback  # A33
        for i in range(2):
            row = rows[i] if i < len(rows) and rows[i] else {}
            item: dict[str, Any] = {"name": None, "start": None}
            name = clean(row.get("name", ""))
            if name:
                bad = (is_formula(name) or len(name) > 30 or any(ch in name for ch in ".,|")
                       or not name.isprintable())  # a name is shown on every board: no invisible characters
                if bad:
                    problems.append(Problem(ProblemKind.SYNTAX, player, f"crewmate {i + 1} name", name,
                                            "a name up to 30 visible characters without . , | or a leading =",
                                            "not a usable name", f"Crewmate {i + 1}"))
                elif name.casefold() in names_seen:
                    problems.append(Problem(ProblemKind.ILLEGAL, player, f"crewmate {i + 1} name", name,
                                            "a name different from your other crewmate's",
                                            "both crewmates have this name", f"Crewmate {i + 1}"))
                else:
                    item["name"] = name
                    names_seen.append(name.casefold())
            cell = clean(row.get("start", ""))
            label = f"crewmate {i + 1} start"
            if not cell:
                problems.append(Problem(ProblemKind.MISSING, player, label, "", ", ".join(START_CELLS),
                                        "no start cell", dflt))
            else:
                hit = None if is_formula(cell) else match_choice(cell, START_CELLS)
                if hit is None:
                    on_board = not is_formula(cell) and match_choice(cell, ROOMS) is not None
                    problems.append(Problem(ProblemKind.ILLEGAL if on_board else ProblemKind.SYNTAX, player, label,
                                            cell, ", ".join(START_CELLS),
                                            "crewmates start only in 1A-C, 2A-C, 3A or 5A" if on_board  # R10
                                            else "not a room label", dflt))
                else:
                    item["start"] = hit
            out.append(item)
        if not out[0]["name"] and out[1]["name"] and out[1]["name"].casefold() == "crewmate 1":
            out[1]["name"] = None
        return Submission(player, {"crew": out}, tuple(problems), raw)

    def default_submission(self, state: State, player: str, rng: Rng) -> Mapping[str, Any]:
        if state["round"] == 0:
            return {"crew": [{"name": None, "start": None}, {"name": None, "start": None}]}
        return {"upgrades": [0, 0], "crew": [{}, {}]}  # A33: stay and do nothing

    # ---- resolution ----------------------------------------------------------
    def resolve(self, state: State, round_input: RoundInput, rng: Rng) -> RoundResult:
        st = copy.deepcopy(state)
        if st["round"] == 0:
            return self._resolve_pregame(st, round_input, rng)
        return self._resolve_round(st, round_input)

    def _resolve_pregame(self, st: State, rin: RoundInput, rng: Rng) -> RoundResult:
        opts = st["options"]
        log: list[str] = []
        notes: dict[str, list[str]] = {p: [] for p in st["players"]}
        for p in st["players"]:
            sub = rin.submissions.get(p)
            vals = sub.values if sub is not None else self.default_submission(st, p, rng)
            if sub is None:
                notes[p].append("No pregame submission: start cells were assigned.")  # A33
            else:
                notes[p] += [pr.message for pr in sub.problems]
            for i, c in enumerate(st["crew"][p]):
                item = vals["crew"][i] if i < len(vals["crew"]) else {}
                if item.get("name"):
                    c["name"] = item["name"]
                cell = item.get("start")
                if not cell:
                    if opts["pregame_fallback"] == "random":
                        cell = rng.choice(START_CELLS)
                        log.append(f"pregame: {p}.{c['name']} had no valid start cell; drew {cell} at random")
                    else:
                        cell = opts["pregame_fallback"]
                        log.append(f"pregame: {p}.{c['name']} had no valid start cell; placed in {cell}")
                    notes[p].append(f"{c['name']} starts in {cell} (assigned).")
                c["pos"] = cell
            if st["crew"][p][0]["name"] == st["crew"][p][1]["name"]:
                st["crew"][p][1]["name"] = st["crew"][p][1]["name"] + " 2"
        if opts["income_before_round_1"]:
            for p in st["players"]:
                for c in st["crew"][p]:
                    c["energy"] = min(c["cap"], c["energy"] + INCOME)
        st["balances"] = dict(rin.balances)
        st["round"] = 1
        public_lines = ["The pregame is over; round 1 is open. No room was activated."]  # R11
        if opts["reveal_start_positions"]:
            for p in st["players"]:
                public_lines.append(f"{p}: " + ", ".join(f"{c['name']} in {c['pos']}" for c in st["crew"][p]))
        public = Report("Skeld pregame", (Block("Pregame results", tuple(public_lines)),))
        private = {p: self._private_report(st, p, "Pregame", set(), {}, notes[p], [], ended=False)
                   for p in st["players"]}
        return RoundResult(st, public, private, (), tuple(log))

    def _resolve_round(self, st: State, rin: RoundInput) -> RoundResult:
        opts = st["options"]
        r = st["round"]
        players = st["players"]
        board = Board.of(st)
        log: list[str] = []
        notes: dict[str, list[str]] = {p: [] for p in players}
        echo: dict[str, list[str]] = {p: [] for p in players}
        ledger: list[LedgerEntry] = []
        public_extra: list[str] = []
        balances = dict(rin.balances)
        # 1-2: submissions, cap raises (R17, A11, E27)
        plans: dict[str, list[dict]] = {}
        for p in players:
            sub = rin.submissions.get(p)
            if sub is None:
                vals = self.default_submission(st, p, Rng(0))
                notes[p].append("No submission: your crewmates stayed put and did nothing.")  # A33
                log.append(f"round {r}: {p} did not submit; crewmates stay and do nothing")
            else:
                vals = sub.values
                notes[p] += [pr.message for pr in sub.problems]
            ups = list(vals.get("upgrades") or [0, 0])
            crew_p = st["crew"][p]
            per_crew = opts["cap_upgrade_scope"] == "crewmate"
            cost = CAP_PRICE * (sum(ups) if per_crew else ups[0])
            if cost:
                if any(c["raises"] + n > 2 for c, n in zip(crew_p, ups)):
                    notes[p].append("Cap raise refused: the cap can reach 9 at most.")  # E27
                elif balances.get(p, 0) < cost:
                    notes[p].append(f"Cap raise refused: it costs {cost} garnets and you have "
                                    f"{balances.get(p, 0)}.")  # E27
                    log.append(f"round {r}: {p}'s cap raise refused for lack of garnets")
                else:
                    for c, n in zip(crew_p, ups):
                        c["raises"] += n
                        c["cap"] += n
                    balances[p] -= cost
                    now = " and ".join(f"{c['name']} {c['cap']}" for c in crew_p) if per_crew else str(crew_p[0]["cap"])
                    ledger.append(LedgerEntry(p, -cost, f"Skeld energy cap raise (now {now})", f"round {r}"))
                    echo[p].append(f"You paid {cost} garnets: your energy cap is now {now}.")
                    if opts["public_garnets"]:
                        public_extra.append(f"{p} raised their energy cap (now {now}).")
            pl, probs = plan_player(st, p, vals.get("crew", [{}, {}]), _caps(st, p), opts)
            for field, value, allowed, reason, default in probs:
                notes[p].append(Problem(ProblemKind.ILLEGAL, p, field, value, allowed, reason, default).message)
                log.append(f"round {r}: {p} {field}={value!r} dropped at resolution: {reason}")
            plans[p] = pl
        # 3-5: banana, movement, Toe (energy already computed by the plans)
        for p in players:
            for c, plan in zip(st["crew"][p], plans[p]):
                if plan["banana"]:
                    _use(c, "Y")
                c["pos"] = plan["final"]
                c["energy"] = plan["energy_left"]
        # 6: disables (R31-R34, A15)
        disabled_now: list[str] = []
        for p in players:
            for c, plan in zip(st["crew"][p], plans[p]):
                if plan["disable"]:
                    room = plan["disable_room"]
                    st["disable_used"][p] = True
                    st["disabled"][room] = max(st["disabled"].get(room, 0), r + 1)
                    disabled_now.append(room)
                    log.append(f"round {r}: {_crew_id(p, c)} disabled {room} (rounds {r} and {r + 1})")
        if disabled_now and opts["announce_disables"]:
            public_extra.append("Disabled this round: " + ", ".join(sorted(set(disabled_now))) + ".")
        # 7-8: activations, room by room
        bids: dict[str, list[tuple[str, int, int]]] = {}  # room -> (player, crew index, bid)
        for p in players:
            for i, plan in enumerate(plans[p]):
                if plan["bid"] is not None:
                    bids.setdefault(plan["final"], []).append((p, i, plan["bid"]))
                    log.append(f"round {r}: {p}.{st['crew'][p][i]['name']} bids {plan['bid']} on {plan['final']}")
        activators: dict[str, list[tuple[str, int]]] = {}
        outcome_of: dict[tuple[str, int], str] = {}
        plants_now: list[dict] = []
        for room in sorted(bids, key=lambda x: ROOMS.index(x)):
            entries = sorted(bids[room])
            if room == VAULT:  # every valid plant happens (A23)
                for p, i, b in entries:
                    c = st["crew"][p][i]
                    c["parasite"] = False
                    st["vault_used"][p] = True
                    plant = {"player": p, "crew": i, "energy": b, "round": r,
                             "seq": plans[p][i]["plant"]}
                    plants_now.append(plant)
                    activators.setdefault(room, []).append((p, i))
                    outcome_of[(p, i)] = "planted"
                continue
            if st["disabled"].get(room, 0) >= r:  # a disabled room blocks everyone (A15)
                for p, i, b in entries:
                    outcome_of[(p, i)] = "failed: the room was disabled"
                    if (opts["urgot_consumed_on_blocked_attempt"] and room_kind(room) == "component"
                            and _usable(st["crew"][p][i], "U", r)):
                        _use(st["crew"][p][i], "U")
                log.append(f"round {r}: {room} is disabled; bids fail")
                continue
            winners: list[tuple[str, int]] = []
            by_urgot = False
            if room_kind(room) == "component":
                urgot = [(p, i) for p, i, b in entries if _usable(st["crew"][p][i], "U", r)]
                if urgot:  # R69, A14: beats every bid, one Urgot in the game
                    winners, by_urgot = [urgot[0]], True
                    _use(st["crew"][urgot[0][0]][urgot[0][1]], "U")
                    log.append(f"round {r}: Urgot Peraphernalia wins {room} for {urgot[0][0]}")
            if not winners:
                if room == PARASITE_ROOM and not opts["parasite_room_contention"]:
                    for p in sorted({e[0] for e in entries}):  # A20 off: one claim per player
                        w = contention_winner([(i, b) for q, i, b in entries if q == p])
                        if w is not None:
                            winners.append((p, w))
                else:
                    w = contention_winner([((p, i), b) for p, i, b in entries])
                    if w is not None:
                        winners = [w]
            for p, i, b in entries:
                if (p, i) in winners:
                    outcome_of[(p, i)] = "activated"
                elif by_urgot:
                    outcome_of[(p, i)] = "failed: the room went to Urgot Peraphernalia"
                elif sum(1 for e in entries if e[2] == b) > 1:
                    outcome_of[(p, i)] = "failed: tied with another bid"
                else:
                    outcome_of[(p, i)] = "failed: outbid"
            for p, i in winners:
                c = st["crew"][p][i]
                activators.setdefault(room, []).append((p, i))
                kind = room_kind(room)
                if kind == "component":
                    st["components"][p].append(room)
                    st["activated"].append(room)
                elif kind == "bonus":
                    b = Bonus[room]
                    c["items"].append({"item": room, "uses": b.uses, "got": r})
                    st["activated"].append(room)
                else:  # P
                    c["parasite"] = True
                    st["claimed"][p] = True
                log.append(f"round {r}: {p}.{c['name']} activates {room}")
        st["plants"] += plants_now
        activated_now = sorted(activators, key=lambda x: ROOMS.index(x))
        st["history"].append({"round": r, "activated": activated_now})
        # 9: Sequence completion (R44, A32)
        claimed = {c for p in players for c in st["components"][p]}
        seqs = [s for s in SEQUENCES if all(f"{n}{s}" in claimed for n in range(1, 14))]
        ended = bool(seqs) or r >= int(opts["max_rounds"])
        # 11: end of round (skipped once the MM is over, A32)
        walls_now: list[str] = []
        if not ended:
            for p in players:  # Wiwaxia (R70, A16)
                for i, (c, plan) in enumerate(zip(st["crew"][p], plans[p])):
                    if not plan["wiwaxia"]:
                        continue
                    if not _usable(c, "W", r + 1):  # a same-round use (A12 option) of a Wiwaxia not won
                        notes[p].append(f"{c['name']} did not win the Wiwaxia: no drain.")
                        continue
                    _use(c, "W")
                    gained = 0
                    for q in players:
                        for j, d in enumerate(st["crew"][q]):
                            if (q, j) != (p, i) and d["pos"] == c["pos"] and d["energy"] > 0:
                                d["energy"] -= 1
                                gained += 1
                                log.append(f"round {r}: Wiwaxia drains 1 from {q}.{d['name']}")
                    if opts["wiwaxia_transfers"]:
                        c["energy"] = min(c["cap"], c["energy"] + gained)
            for p in players:
                for c, plan in zip(st["crew"][p], plans[p]):
                    if plan["wall"] and not _usable(c, "S", r + 1):
                        notes[p].append(f"{c['name']} did not win the Summoner's Meme: no wall.")
                    elif plan["wall"]:
                        other = board.neighbour(c["pos"], plan["wall"])
                        key = edge(c["pos"], other)
                        if key not in st["walls"]:
                            st["walls"].append(key)
                            _use(c, "S")
                            text = f"{SIDE_WORDS[plan['wall']]} wall of {c['pos']} (between {c['pos']} and {other})"
                            walls_now.append(text)
        # XComm (A19): told to both players privately
        xnotes: dict[str, list[str]] = {p: [] for p in players}
        for p in players:
            for c, plan in zip(st["crew"][p], plans[p]):
                if plan["xcomm"]:
                    _use(c, "X")
                    xnotes[p].append(f"{c['name']} used the XCommunications Device: you may talk freely "
                                     f"with {plan['xcomm']} this round.")
                    xnotes[plan["xcomm"]].append(f"{p} used the XCommunications Device with you: you may talk "
                                                 f"freely with {p} this round.")
                    log.append(f"round {r}: XComm {p} <-> {plan['xcomm']}")
        # failure reasons of the player's own attempts, only under the host option (A37)
        if opts["reveal_failure_reasons"]:
            for p in players:
                for i, (c, plan) in enumerate(zip(st["crew"][p], plans[p])):
                    res = outcome_of.get((p, i), "")
                    if plan["bid"] is not None and res.startswith("failed: "):
                        echo[p].append(f"{c['name']}'s attempt on {plan['final']} failed: "
                                       f"{res[len('failed: '):]} (the Energy is spent).")  # R29
        # 12-13: end or income
        if ended:
            st["finished"] = True
            final = [pl for pl in st["plants"] if pl["round"] == r]
            earlier = [pl for pl in st["plants"] if pl["round"] < r]
            res = decide(players, st["components"], seqs, final, earlier, opts)
            res["round"] = r
            st["result"] = res
            for p in players:
                n = len(st["components"][p]) // 3
                if n:
                    ledger.append(LedgerEntry(p, n, f"Skeld: {len(st['components'][p])} components (R64)",
                                              "1 garnet per 3 components"))
                    echo[p].append(f"You earn {_plural(n, 'garnet')} for {len(st['components'][p])} components.")  # R64
                for c in st["crew"][p]:
                    if _carries(c, "Z"):
                        ledger.append(LedgerEntry(p, 4, "Skeld: Zurich Is Stained Vinyl Record (R73)"))
                        echo[p].append("You earn 4 garnets for the Zurich Is Stained Vinyl Record.")  # R73
        else:
            for p in players:
                for c in st["crew"][p]:
                    rose = 1 if _carries(c, "R") else 0
                    c["energy"] = min(c["cap"], c["energy"] + INCOME + rose)
            st["round"] = r + 1
        for p in players:
            balances[p] = balances.get(p, 0) + sum(e.change for e in ledger if e.player == p and e.change > 0)
        st["balances"] = balances
        # 14: reports
        public = self._public_report(st, r, activated_now, walls_now, public_extra, seqs, ended)
        private = {}
        for p in players:
            private[p] = self._private_report(st, p, f"Round {r}", set(activated_now), activators,
                                              notes[p], echo[p] + xnotes[p], ended)
        return RoundResult(st, public, private, tuple(ledger), tuple(log))

    # ---- reports -------------------------------------------------------------
    def _public_report(self, st: State, r: int, activated_now: list[str], walls_now: list[str],
                       extra: list[str], seqs: list[str], ended: bool) -> Report:
        opts = st["options"]
        lines = ["Rooms activated this round: " + (", ".join(room_title(x) for x in activated_now)
                                                    if activated_now else "none")]
        if walls_now:
            lines += [f"Wall placed: {w}" for w in walls_now]
        lines += extra
        blocks = [Block(f"Round {r}", tuple(lines))]
        if ended:
            res = st["result"]
            end = [f"{' and '.join(SEQUENCES[s] + ' Sequence' for s in seqs)} activated in round {r}: the Main "
                   "Match is over." if seqs else f"Round {r} was the last: no Sequence was completed."]  # R44, R50
            end += list(res["reasons"])
            end += [f"Pending: {x}" for x in res["pending"]]
            end += [f"{p}: {res['numbers'][p]}" for p in res["order"]]
            if st["plants"]:
                for pl in st["plants"]:
                    status = ("winning plant" if res["method"] == "parasite" and pl["player"] == res["winners"][0]
                              and pl["round"] == r else
                              "tied plant" if pl["player"] in res["tied_planters"] and pl["round"] == r
                              else "improper plant")
                    end.append(f"{pl['player']} planted in round {pl['round']} with {pl['energy']} Energy: {status}.")
            blocks.append(Block("End of the Main Match", tuple(end)))
            if opts["endgame_full_reveal"]:
                inv = []
                for p in st["players"]:
                    inv.append(f"{p}: components {', '.join(sorted(st['components'][p], key=COMPONENTS.index)) or 'none'}")
                    for c in st["crew"][p]:
                        inv.append(f"  {c['name']} in {c['pos']}: {_items_text(c)}")
                blocks.append(Block("All inventories", tuple(inv)))
        else:
            blocks[0] = Block(f"Round {r}", tuple(lines) + (f"The Main Match continues with round {r + 1}.",))
        return Report(f"Skeld round {r}", tuple(blocks))

    def _private_report(self, st: State, player: str, title: str, activated_now: set,
                        activators: Mapping[str, list], notes: list[str], echo: list[str], ended: bool) -> Report:
        opts = st["options"]
        crew = st["crew"][player]
        blocks: list[Block] = []
        # 1. co-location (R37)
        lines1, seen_rooms, others = [], [], []
        for i, c in enumerate(crew):
            with_ = []
            for q in st["players"]:
                for j, d in enumerate(st["crew"][q]):
                    if (q, j) != (player, i) and d["pos"] == c["pos"]:
                        with_.append(_crew_id(q, d) + (" (yours)" if q == player else ""))
                        if q != player and (q, j) not in others:
                            others.append((q, j))
            lines1.append(f"{c['name']} is in {c['pos']}: " + (("with " + ", ".join(with_)) if with_ else "alone"))
            if c["pos"] not in seen_rooms:
                seen_rooms.append(c["pos"])
        blocks.append(Block("1. Crewmates sharing your rooms", tuple(lines1)))
        # 2. activators (R38, A36)
        lines2 = []
        for room in seen_rooms:
            if room in activated_now:
                who = []
                for q, j in activators.get(room, []):
                    t = _crew_id(q, st["crew"][q][j]) if opts["reveal_activator_crewmate"] else q
                    if t not in who:
                        who.append(t)
                verb = "planted in by" if room == VAULT else "activated by"
                lines2.append(f"{room_title(room)} was {verb} {', '.join(who)}")
        if title == "Pregame":
            lines2 = ["No room is activated in the pregame."]  # R11
        blocks.append(Block("2. Activations of rooms you are in", tuple(lines2) or
                            ("No room holding your crewmates was activated this round.",)))
        # 3. next energy (R39)
        if not ended:
            nxt = st["round"]
            blocks.append(Block(f"3. Energy at the start of round {nxt}",
                                tuple(f"{c['name']}: {c['energy']}" for c in crew)))
        # 4. items of co-located crewmates (R40)
        lines4 = [f"{_crew_id(q, st['crew'][q][j])} in {st['crew'][q][j]['pos']}: {_items_text(st['crew'][q][j])}"
                  for q, j in others]
        blocks.append(Block("4. Bonuses and parasites of crewmates in your rooms",
                            tuple(lines4) or ("No other player's crewmate is in your rooms.",)))
        # Only what concerns the player's own sheet: submission problems and the defaults
        # applied, garnet flows (A39), XComm permissions (A19). The current standing is
        # in player_view.
        if notes or echo:
            blocks.append(Block("Notes for you", tuple(notes) + tuple(echo)))
        return Report(f"{title}: private to {player}", tuple(blocks))

    # ---- views ---------------------------------------------------------------
    def player_view(self, state: State, player: str) -> Report:
        crew = state["crew"][player]
        if state["round"] == 0 and not state["finished"]:
            return Report(f"Skeld: {player}", (Block("Pregame", (
                "Name your two crewmates and pick their start cells among " + ", ".join(START_CELLS) + ".",
                f"Each crewmate starts with {START_ENERGY} Energy (cap {BASE_CAP}).")),))
        lines = []
        for c in crew:
            lines.append(f"{c['name']}: in {c['pos']}, {c['energy']} Energy, carries {_items_text(c)}")
        comps = sorted(state["components"][player], key=COMPONENTS.index)
        lines.append(f"Components ({len(comps)}): {', '.join(comps) if comps else 'none'}")
        for s, nm in SEQUENCES.items():
            if pieces(comps, s):
                lines.append(f"  {nm}: {pieces(comps, s)} pieces, Sequence Value {sequence_value(comps, s)}")
        lines.append("Energy cap " + ", ".join(f"{c['name']} {c['cap']} ({2 - c['raises']} raise(s) left)"
                                               for c in crew) + "; a raise costs 3 garnets")
        lines.append(f"Disable {'used' if state['disable_used'][player] else 'available (once per game)'}; "
                     f"parasite {'claimed' if state['claimed'][player] else 'not claimed'}; "
                     f"Vault {'used' if state['vault_used'][player] else 'unused'}")
        title = "Final standing" if state["finished"] else f"Before round {state['round']}"
        return Report(f"Skeld: {player}", (Block(title, tuple(lines)),))

    def public_view(self, state: State) -> Report:
        board = Board.of(state)
        activated = set(state["activated"])
        walls = set(state["walls"])
        fills = {"A": ("DDEBF7", "2F75B5"), "B": ("E2EFDA", "548235"), "C": ("FFF2CC", "BF8F00"),
                 "bonus": ("E4DFEC", "7030A0")}
        grid = []
        for i in range(SIZE):
            row = []
            for j in range(SIZE):
                label = board.grid[i][j]
                sides = [d for d in DIRECTIONS if (n := board.neighbour(label, d)) and edge(label, n) in walls]
                text = label + (" |" + "".join(sides) if sides else "")
                kind = room_kind(label)
                if kind == "component":
                    light, dark = fills[label[-1]]
                    fill = dark if label in activated else light
                elif kind == "bonus":
                    light, dark = fills["bonus"]
                    fill = dark if label in activated else light
                elif label == PARASITE_ROOM:
                    fill = "FF5050"
                else:
                    fill = "4472C4"
                dark = label in activated or kind in ("P", "V")
                font = ("FFFF00" if dark else "C00000") if sides else ("FFFFFF" if dark else None)
                row.append(Cell(text, fill, bold=bool(sides) or label in activated, font=font))
            grid.append(tuple(row))
        legend = (("Frontier (A)", "DDEBF7"), ("Greenhouse (B)", "E2EFDA"), ("Conductor (C)", "FFF2CC"),
                  ("Bonus room", "E4DFEC"), ("activated: dark fill", "2F75B5"), ("Parasite room", "FF5050"),
                  ("Vault", "4472C4"), ("walled side: |N/E/S/W in red (yellow on dark)", "FFFFFF"))
        claimed = set(state["activated"])
        lines = [f"{nm} Sequence: {sum(1 for n in range(1, 14) if f'{n}{s}' in claimed)}/13 components claimed"
                 for s, nm in SEQUENCES.items()]
        lines.append("Walls: " + (", ".join(w.replace("|", "/") for w in state["walls"]) or "none")
                     + " (a cell's |NESW marks its walled sides)")
        done = [x for x in BONUSES if x in claimed]
        lines.append("Bonus rooms activated: " + (", ".join(done) if done else "none"))
        status = ("The Main Match is over." if state["finished"] else
                  "Pregame: crewmates are being placed." if state["round"] == 0 else
                  f"Round {state['round']} of {state['options']['max_rounds']} is open.")
        return Report("Skeld: the ship", (Block("The ship", (status,), tuple(grid), legend),
                                          Block("Progress", tuple(lines))))

    def outcome(self, state: State, decisions=None) -> Outcome | None:
        if not state["finished"] or not state.get("result"):
            return None
        res = state["result"]
        winners = tuple(res["winners"])
        losers = tuple(p for p in res["order"] if p not in winners)
        awards = (Award(winners[0], "Token of Life", 1, "Skeld winner" if res["method"] == "normal"  # R43
                        else "Skeld winner by planting the Parasite"),) if len(winners) == 1 else ()  # R58
        standings = tuple((p, res["numbers"][p]) for p in res["order"])
        return Outcome(winners, losers, res["ec"], standings, tuple(res["reasons"]), awards, tuple(res["pending"]))

    # ---- demo ----------------------------------------------------------------
    def random_submission(self, state: State, player: str, rng: Rng) -> RawSubmission:
        if state["round"] == 0:
            rows = []
            for i in range(2):
                rows.append({"name": rng.choice(["", "Red", "Blue", "Lime", "Cyan"]) + ("" if i == 0 else "2"),
                             "start": rng.choice(START_CELLS)})
            if rows[0]["name"] == "" and rows[1]["name"] == "2":
                rows[1]["name"] = ""
            return {"crew": rows}
        opts = state["options"]
        board = Board.of(state)
        r = state["round"]
        activated = set(state["activated"])
        rows = []
        disable_taken = state["disable_used"][player]
        for c in state["crew"][player]:
            row = {"move_to": "", "toe_step": "", "energy": "", "disable": "", "item": "", "item_2": ""}
            e = c["energy"]
            uses = []
            if _usable(c, "Y", r) and rng.random() < 0.5:
                uses.append(BANANA_USE)
                e = e + 3 if opts["banana_can_exceed_cap"] else min(c["cap"], e + 3)
            pos = c["pos"]

            def wanted(room):
                k = room_kind(room)
                if k in ("component", "bonus"):
                    return room not in activated
                if k == PARASITE_ROOM:
                    return not state["claimed"][player]
                return c["parasite"] and not state["vault_used"][player]
            options = []
            for room in board.same_line(pos):
                path = board.line(pos, room)
                if path is not None and len(path) <= e - 1 and not path_crosses_wall(board, pos, path, state["walls"]):
                    options.append(room)
            good = [x for x in options if wanted(x)]
            if good and rng.random() < 0.8:
                dst = rng.choice(good)
            elif options and rng.random() < 0.5:
                dst = rng.choice(options)
            else:
                dst = pos
            if dst != pos:
                row["move_to"] = dst
                e -= len(board.line(pos, dst))
                pos = dst
            if _usable(c, "T", r) and e >= 2 and rng.random() < 0.3:
                side = rng.choice(list(DIRECTIONS))
                nxt = board.neighbour(pos, side)
                if nxt and edge(pos, nxt) not in state["walls"] and (
                        not opts["toe_requires_real_move"] or row["move_to"]):
                    row["toe_step"] = side
                    e -= 1
                    pos = nxt
            need = VAULT_MIN if pos == VAULT else 1
            if wanted(pos) and e >= need and rng.random() < 0.9:
                row["energy"] = str(rng.randint(need, e))
            elif (not disable_taken and e >= 1 and pos not in (PARASITE_ROOM, VAULT) and pos not in activated
                  and rng.random() < 0.15):
                row["disable"] = "yes"
                disable_taken = True
            if _usable(c, "W", r) and rng.random() < 0.5:
                uses.append(WIWAXIA_USE)
            if _usable(c, "S", r) and rng.random() < 0.6:
                sides = [d for d in DIRECTIONS if (n := board.neighbour(pos, d)) and edge(pos, n) not in state["walls"]]
                if sides:
                    uses.append(f"Summoner wall {rng.choice(sides)}")
            for k, u in zip(("item", "item_2"), uses[:2]):
                row[k] = u
            if opts["plant_requires_target"] and pos == VAULT and row["energy"]:
                row["plant_sequence"] = rng.choice(list(SEQUENCES.values()))
            rows.append(row)
        n = ""
        if (state["crew"][player][0]["raises"] < 2 and state["crew"][player][1]["raises"] < 2
                and state["balances"].get(player, 0) >= 2 * CAP_PRICE and rng.random() < 0.1):
            n = "1"
        garn = [{"cap_upgrades": n}] + ([{"cap_upgrades": ""}] if opts["cap_upgrade_scope"] == "crewmate" else [])
        return {"crew": rows, "garnets": garn}


GAME = Skeld()
