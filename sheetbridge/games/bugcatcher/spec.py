"""Bugcatcher's spec: the game's identity, host options with their ruling numbers and content tables,
and :class:`Options`, the host's options read once into typed fields.

Light on purpose: the registry imports this chapter alone to list the games, so it imports only
from :mod:`sheetbridge.core`.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Mapping

from ...core.parsing import clean
from ...core.parsed_options import ParsedOnce
from ...core.spec import GameSpec, Option, TableSpec

if TYPE_CHECKING:   # (State is dict: the annotations only)
    from ...core.types import State

MISSIONS_TABLE = "Missions"
ENERGY = 7            # R12
LIST_LENGTH = 9       # R17
ACTION_ROWS = 8       # 7 energy actions + one garnet swap (E9)
MANUAL = "manual"     # the shape of a mission whose completers the host enters (A21)

SPEC = GameSpec(
    id="bugcatcher",
    name="Bugcatcher",
    min_players=2, max_players=12, recommended_players=9, rounds=7,
    summary="Steer a border node and a central node across a 6x5 grid, dodge collisions, "
            "complete missions and collect fireflies.",
    options=(
        Option("rounds", 7, "Number of rounds after the pregame (R27).", ruling="A43"),
        Option("columns", 6, "Board columns, lettered A.. left to right (R3).", ruling="A1", kind="content"),
        Option("rows", 5, "Board rows, numbered 1.. top to bottom (R3).", ruling="A1", kind="content"),
        Option("blocked_cells", "", "Cells that are not gray squares, e.g. 'C3, D4': no central node starts "
               "in one or moves into one (such a move fails like a move off the board); border nodes are not "
               "affected. Blank: every cell is usable.", ruling="A36", kind="content"),
        Option("start_nodes_claimed", True, "Every node's start point counts as claimed from step 0, "
               "so a path onto any node (own or another's) is a case-1 collision.", ruling="A8"),
        Option("crossing_before_arrival", True, "Crossings (cases 3/4) are checked at the half-step, before "
               "arrivals; a path stopped at a crossing cannot cause a case 2. false: all at once.",
               ruling="A12"),
        Option("collision_count_mode", "per_action", "Collisions caused (tie-break 2): one per colliding "
               "action, or one per other party involved.", ("per_action", "per_pair"), "A13"),
        Option("gswap_takes_step", True, "A garnet swap occupies a step like any action; false: it "
               "applies just before the next action without using a step.", ruling="A14"),
        Option("blank_policy", "compress", "A blank or unreadable row between actions is removed "
               "(later actions move up) or kept as an idle step.", ("compress", "idle"), "A14"),
        Option("energy_overflow", "drop_excess", "More than 7 energy: drop the actions after the 7th, or "
               "reject the whole list.", ("drop_excess", "reject_all"), "E1"),
        Option("extra_gswap", "as_swap", "A second garnet swap in a round becomes a normal swap "
               "(1 energy) or is dropped.", ("as_swap", "drop"), "E3"),
        Option("gswap_no_garnet", "as_swap", "A garnet swap without a garnet becomes a normal swap or is "
               "dropped.", ("as_swap", "drop"), "E4"),
        Option("offboard_policy", "stop_node", "A path off the board (or into a blocked cell) is invalid and "
               "stops that node for the round, or only that action is skipped.", ("stop_node", "skip_action"),
               "E5"),
        Option("missing_policy", "no_actions", "A player who submits nothing takes no actions (nodes stay; "
               "missions accepted earlier still count), or repeats their last submitted actions (without a "
               "garnet swap and without accepting missions).", ("no_actions", "repeat_last"), "E11"),
        Option("mission_requires_acceptance", True, "Only players who accepted a mission can complete it; "
               "false: anyone who builds it earns the reward (penalties still need acceptance).",
               ruling="A18"),
        Option("bid_scope", "per_list", "One garnet bid per priority list, or one bid for both.",
               ("per_list", "shared"), "A26"),
        Option("bid_charge", "always", "Bids are charged in full, or only when the bidder was in a tie.",
               ("always", "only_if_contested"), "A26"),
        Option("pregame_mode", "strict", "Pass k uses each player's k-th entry (strict), or their best "
               "entry still free (next_available).", ("strict", "next_available"), "A27"),
        Option("public_node_colors", False, "Colour node markers on the public board (shows swaps).",
               ruling="A33", kind="display"),
        Option("public_step_order", False, "Write each path's step number on the public board.",
               ruling="A33", kind="display"),
        Option("private_breakdown", True, "Private reports include the breakdown (actions, energy, "
               "collisions, paths and mission fireflies); false: the firefly total, nodes and missions only.",
               ruling="A34", kind="display"),
        Option("reveal_all_stats", False, "At the end reveal everyone's missions and collisions, not only "
               "for players whose tie used them.", ruling="A35", kind="display"),
    ),
    tables=(
        TableSpec(MISSIONS_TABLE, "missions.csv",
                  "Each round's mission board (R48): round, id, name, node (border/central/any), shape "
                  "(e.g. DDRDL, or manual: the host enters who completed it), reward, penalty, "
                  "failure_rounds, rotate, reflect, either_end, anywhere, expires_after_round, text. "
                  "Future rounds can be edited between rounds."),
    ),
)

DEFAULTS: dict[str, Any] = SPEC.default_options()


# ------------------------------------------------------------- cells (the blocked_cells option)

def cell_label(c: int, r: int) -> str:
    return f"{chr(ord('A') + c)}{r + 1}"


def parse_cell(text: str, cols: int, rows: int) -> tuple[int, int] | None:
    """'C3' -> (2, 2); None when it is not a cell of this board."""
    return _parse_cell(text if type(text) is str else clean(text), cols, rows)


_CELL = re.compile(r"([A-Za-z])\s*(\d{1,2})")


@functools.lru_cache(maxsize=2048)   # every pregame list and label is read this way
def _parse_cell(text: str, cols: int, rows: int) -> tuple[int, int] | None:
    m = _CELL.fullmatch(clean(text))
    if not m:
        return None
    c, r = ord(m.group(1).upper()) - ord("A"), int(m.group(2)) - 1
    return (c, r) if 0 <= c < cols and 0 <= r < rows else None


def parse_blocked(text: Any, cols: int, rows: int) -> tuple[list[tuple[int, int]], list[str]]:
    """The option blocked_cells: ('C3, d4' -> [(2, 2), (3, 3)], words that are not cells)."""
    cells: list[tuple[int, int]] = []
    bad: list[str] = []
    for word in re.split(r"[\s,;]+", clean(text)):
        if not word:
            continue
        cell = parse_cell(word, cols, rows)
        if cell is None:
            bad.append(word)
        elif cell not in cells:
            cells.append(cell)
    return sorted(cells, key=lambda c: (c[1], c[0])), bad


# ------------------------------------------------------------- the options, typed

CollisionCountMode = Literal["per_action", "per_pair"]
BlankPolicy = Literal["compress", "idle"]
EnergyOverflow = Literal["drop_excess", "reject_all"]
GswapFallback = Literal["as_swap", "drop"]
OffboardPolicy = Literal["stop_node", "skip_action"]
MissingPolicy = Literal["no_actions", "repeat_last"]
BidScope = Literal["per_list", "shared"]
BidCharge = Literal["always", "only_if_contested"]
PregameMode = Literal["strict", "next_available"]


@dataclass(frozen=True, slots=True)
class Options:
    """The host's options of one game (the SPEC's, ruling numbers there), read once.

    The state keeps them as the host gave them (``state["options"]``, unchanged so records replay);
    :func:`options_of` reads them into this, once per distinct set of values. ``blocked_cells`` is
    the option's text; ``blocked`` the fine points of those cells (A36) and ``blocked_labels`` their
    labels in board order."""
    rounds: int
    columns: int
    rows: int
    blocked_cells: str
    start_nodes_claimed: bool
    crossing_before_arrival: bool
    collision_count_mode: CollisionCountMode
    gswap_takes_step: bool
    blank_policy: BlankPolicy
    energy_overflow: EnergyOverflow
    extra_gswap: GswapFallback
    gswap_no_garnet: GswapFallback
    offboard_policy: OffboardPolicy
    missing_policy: MissingPolicy
    mission_requires_acceptance: bool
    bid_scope: BidScope
    bid_charge: BidCharge
    pregame_mode: PregameMode
    public_node_colors: bool
    public_step_order: bool
    private_breakdown: bool
    reveal_all_stats: bool
    blocked: frozenset[tuple[int, int]]
    blocked_labels: tuple[str, ...]

    @classmethod
    def of(cls, options: Mapping[str, Any]) -> Options:
        """The options given (the defaults for those left out), with blocked_cells read (A36)."""
        opts = {**DEFAULTS, **options}
        text = opts["blocked_cells"]
        text = text if isinstance(text, str) else clean(text)
        cells, _ = parse_blocked(text, opts["columns"], opts["rows"])
        named = {name: opts[name] for name in _NAMES if name != "blocked_cells"}
        return cls(blocked_cells=text, blocked=frozenset((2 * c + 1, 2 * r + 1) for c, r in cells),
                   blocked_labels=tuple(cell_label(*c) for c in cells), **named)


_NAMES = tuple(o.name for o in SPEC.options)
_PARSED = ParsedOnce(Options.of)


def options_of(options: Mapping[str, Any]) -> Options:
    """:meth:`Options.of`, parsed once per options mapping (see core/parsed_options.py): a game in
    progress asks about its state's options at every parse, walk, random play and round."""
    return _PARSED(options)


def state_options(state: State) -> Options:
    """The options of a game in progress."""
    return options_of(state["options"])
