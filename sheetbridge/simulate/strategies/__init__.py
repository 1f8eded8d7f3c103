"""Scripted strategies for simulations: plain functions of what a player may see.

Each takes a :class:`~sheetbridge.simulate.PlayerView` (the player's form, the facts they were
told) and a seeded rng, and returns a submission as the player would type it. They never read
the hidden state. A designer adds one with ``@strategy("name", "game-id")``.

One module per game; each game has at least one strategy that beats random play by a clear
margin (tests/test_strategies.py measures it), and each game's docs page says what it does:

- three-modular-rooms: ``greedy`` (the highest card, into the room its residue suits);
- skeld: ``collector`` (the highest components in reach, all Energy left bid on them);
- bugcatcher: ``pathfinder`` (every Energy on paths that stay clear, one mission shape it can build);
- big-machine: ``builder`` (a meadow of its own per seat, cogs spread over the rounds, nodes that
  make connectors excellent);
- flickering-lights: ``painter`` (the squares whose reach takes in most, and the other side's best
  square blocked, flipped or defended).
"""
from __future__ import annotations

from . import big_machine, bugcatcher, flickering_lights, skeld, three_modular_rooms  # noqa: F401  (they register)
