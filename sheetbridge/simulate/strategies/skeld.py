"""Skeld: the "collector" goes for the highest-numbered component rooms its crewmates can reach."""
from __future__ import annotations

from ...core.rng import Rng
from ...core.types import RawSubmission
from ...games.skeld import Board, ShipBoard, number, path_crosses_wall, room_kind
from ..view import PlayerView, strategy
from .reading import choices, latest, section

# A component is worth its number (the Sequence Value, R46); Energy kept is worth a little,
# because it pays next round's move and bid (income is only 3, the cap 7).
ENERGY_KEPT_VALUE = 1.0
# A room that can only be reached next round is worth a share of its number now.
NEXT_ROUND_SHARE = 0.4


def _label_parts(label: str) -> tuple[str, int]:
    """The room and Energy of a row label "Blue (in 1A, 5 Energy)"."""
    inside = label[label.rfind("(in ") + 4:label.rfind(")")]
    room, _, energy = inside.partition(",")
    digits = "".join(ch for ch in energy if ch.isdigit())
    return room.strip(), int(digits or 0)


def _reachable(board: Board, walls: tuple[str, ...], pos: str, energy: int) -> list[tuple[str, int]]:
    """(room, Energy left) for every room one straight move can reach, staying put included."""
    out = [(pos, energy)]
    for dst in board.same_line(pos):
        path = board.line(pos, dst)
        if path is not None and len(path) <= energy and not path_crosses_wall(board, pos, path, walls):
            out.append((dst, energy - len(path)))
    return out


def _open_component(room: str, activated: set[str], taken: set[str]) -> bool:
    return room_kind(room) == "component" and room not in activated and room not in taken


def _best_plan(board: Board, walls: tuple[str, ...], pos: str, energy: int, activated: set[str],
               taken: set[str], rng: Rng) -> tuple[float, str, int]:
    """(worth, room to end in, Energy to bid there or 0): activate now if a good room is in reach,
    else move where the next round offers the most."""
    best: tuple[float, str, int] = (-1.0, pos, 0)
    for dst, left in _reachable(board, walls, pos, energy):
        if left >= 1 and _open_component(dst, activated, taken):
            worth = number(dst) + ENERGY_KEPT_VALUE * min(left, 2)
            plan = (worth, dst, left)
        else:
            ahead = [number(r) for r, _ in _reachable(board, walls, dst, left + 3)
                     if _open_component(r, activated, taken)]
            plan = (NEXT_ROUND_SHARE * max(ahead, default=0) + 0.1 * left, dst, 0)
        if plan[0] > best[0] or (plan[0] == best[0] and rng.random() < 0.5):
            best = plan
    return best


@strategy("collector", "skeld")
def skeld_collector(view: PlayerView, rng: Rng) -> RawSubmission:
    """Each crewmate moves (one straight move it can pay for, never through a known wall) to the
    unclaimed Component Room with the highest number it can reach, and bids all the Energy it has
    left there; if none is in reach it moves to where the next round reaches the most. The two
    crewmates never aim at the same room. Reads the public ship (ShipBoard) and its row labels."""
    crew = section(view, "crew")
    starts = choices(view, "crew", "start")
    if starts:   # pregame: two different start cells
        picks = rng.sample(list(starts), min(crew.rows, len(starts)))
        return {"crew": [{"name": "", "start": picks[i % len(picks)]} for i in range(crew.rows)]}
    ship = latest(view.facts, ShipBoard)
    board = Board(ship.grid)
    activated = set(ship.activated)
    rows, taken = [], set()
    for label in crew.row_labels:
        pos, energy = _label_parts(label)
        _, dst, bid = _best_plan(board, ship.walls, pos, energy, activated, taken, rng)
        row = {"move_to": dst if dst != pos else "", "toe_step": "", "activate_room": "", "energy": "",
               "disable_room": "", "item": "", "item_2": ""}
        if bid:
            row["activate_room"], row["energy"] = dst, str(bid)
            taken.add(dst)
        rows.append(row)
    return {"crew": rows}
