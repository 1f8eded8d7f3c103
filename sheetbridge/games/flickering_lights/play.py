"""Random legal play for demos and simulations: a submission a player could have typed, drawn from
the seed (the simulation's strategies build on it).
"""
from __future__ import annotations

from ...core.rng import Rng
from ...core.types import RawSubmission
from .board import ALL_SQUARES, BLUE, CENTER, GRAY, RED, Square, adjacent, parse_grid, parse_square, sq_name
from .content import Role, Variation
from .intake import sections_of, team_and_role
from .options import options_of
from .state import FlickeringState


def random_submission(state: FlickeringState, player: str, rng: Rng) -> RawSubmission:
    """Every section the player has, filled at random: legal squares, Round 4 mostly from the known tiles."""
    team, role = team_and_role(state, player)
    g = parse_grid(state["current"]["grid"])
    fog = state["round"] == Variation.FOG.value
    known = {parse_square(t) for t in state["current"]["fog"].get(player, [])} | set(CENTER)

    def pool(color: str | None) -> list[Square]:
        sqs = [s for s in ALL_SQUARES if (g[s] == color if color else g[s] != GRAY)]
        if fog:
            mine = [s for s in sqs if s in known]
            return mine if mine and rng.below(4) else list(ALL_SQUARES)
        return sqs

    out: dict[str, list[dict[str, str]]] = {}
    for sec, info in sections_of(state, player).items():
        if sec == "mediator":
            out[sec] = [{"red_space": sq_name(rng.choice(pool(RED))),
                         "blue_space": sq_name(rng.choice(pool(BLUE)))}]
            continue
        color = None if info["color"] == "any" else info["color"]
        k = rng.randint(0, info["cap"]) if sec != "spaces" else rng.randint(1, info["cap"])
        chosen: list[Square] = []
        adj = options_of(state).adjacency if (sec == "spaces" and role is Role.DEMOLITIONIST) else None
        for s in rng.shuffled(pool(color)):
            if len(chosen) >= k:
                break
            if s in chosen or (adj and any(adjacent(s, t, adj) for t in chosen)):
                continue
            chosen.append(s)
        rows = [{"space": sq_name(s)} for s in chosen]
        rows += [{"space": ""}] * (info["cap"] - len(rows))
        out[sec] = rows
    return out
