"""The Big Machine's random legal play, for demos and simulations: mostly small bids, fresh nodes
joined to the previous one, now and then a sabotage, a jump or a gift.
"""
from __future__ import annotations

from ...core.rng import Rng
from ...core.types import RawSubmission
from .content import MEADOWS, SABOTAGE_COGS, node_order
from .intake import allowed_nodes, gift_targets
from .state import BigMachineState, machine_of


def random_submission(state: BigMachineState, player: str, rng: Rng) -> RawSubmission:
    if state["round"] == 0:
        return {"start": [{"meadow": rng.choice(MEADOWS)}]}
    m = machine_of(state, player)
    cogs = state["cogs"][player]
    empty = [n for n in node_order(m) if m["parts"][n] is None]
    sabotage = rng.choice(empty) if empty and rng.random() < 0.1 else ""
    cap = cogs + (SABOTAGE_COGS if sabotage else 0)
    bid = rng.randint(0, min(cap, 4))
    power = rng.randint(0, cap - bid) if rng.random() < 0.5 else 0
    jump = state["round"] >= 2 and rng.random() < 0.05
    options = node_order(m) if jump else allowed_nodes(state, player)
    fresh = [n for n in options if m["parts"][n] is None and n != sabotage]
    node = rng.choice(fresh if fresh and rng.random() < 0.8 else options)
    give = [{"to": "", "cogs": ""}, {"to": "", "cogs": ""}]
    targets = gift_targets(state, player)
    if rng.random() < 0.05 and targets and cogs - bid - power >= 1:
        give[0] = {"to": rng.choice(targets), "cogs": "1"}
    row = {"meadow": rng.choice(MEADOWS), "bid": str(bid), "power": str(power), "node": node,
           "sabotage": sabotage}
    if state["round"] >= 2:
        row["jump"] = "yes" if jump else "no"
    return {"turn": [row], "give": give}
