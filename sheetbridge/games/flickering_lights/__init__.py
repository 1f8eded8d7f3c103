"""Flickering Lights (designer pseudonam, "The Genius: Variations on a Theme", MM6):
a Main Match for 7 players with hidden teams, hidden roles and area control.

Rules in brief (R and A numbers from shared/rulings/flickering_lights.md):

- Five rounds (R1). Each round the players are split at random into Red (3), Blue (3)
  and White (1) (R2, A20); each knows only their own team (R3). Both teams get the same
  three of the five roles Coordinator, Sniper, Demolitionist, Blocker, Saboteur (R4,
  A41); White is the Mediator (R6). The draw happens when the round opens, so each
  player is briefed privately before submitting.
- Each round has its own 8x8 grid with as many red as blue squares, the red squares
  mapping onto the blue ones by a mirror or a rotation (R7, R8, A16, A17); the host may
  enter grids (table Grids) or leave them to the seed. Every value starts at 0 (R9).
  Items (table Items, A18) may be placed symmetrically: note, lock, bonus, value, and
  manual, whose effect the host rules on after the round (decisions of that round).
- A Red/Blue player submits up to 2 distinct spaces of their own colour: the first +2,
  the others +1 (R11, R12, R14); White submits one red and one blue space, +1 each
  (R13, R15, A39). Increases add up (R16, A5).
- Roles: Coordinator learns an unlabelled list of its two teammates plus the other
  team's Saboteur (R23, R29, A19); Sniper's first space +4 (R24); Demolitionist up to
  4 pairwise non-adjacent spaces (R25, R26, A14, A15); Blocker blocks up to 2
  opposite-colour spaces, -1 each (R27, R28, A12); Saboteur flips one opposite-colour
  space after values, before recolouring (R30, R31, A10, A11); Mediator knows the
  three roles in play (R32).
- Resolution (R17-R20, A2-A9): final X = max(0, increases - blocks/defends); flips; then
  every space with X >= 1 recolours all squares within distance X (Manhattan by
  default) to its colour, at the same time. A square reached by both colours takes
  the colour with the lowest X; equal lowest X keeps its colour (after flips).
- Scoring (R33-R36, A28, A29): each Red/Blue player scores their colour's tile count,
  +8 if their team has strictly more. White scores the winning team's points if the
  difference is at most 7, else the losing team's; on a tie, the common value.
- Variations (R38-R55): 2 Blockade (no Blocker; each Red/Blue player may defend one
  opposite-colour space, -1 each, stacking); 3 Disconnected Connection (+4 tiles for the
  strictly largest connected group, A21, A22); 4 Fog of War (no Coordinator; board
  hidden but the centre four; 10 known tiles per Red/Blue player, 12 for White sharing
  2 with each; wrong-colour entries replaced by a seeded random square of the needed
  colour; nothing revealed until the end, A23-A25); 5 Three-in-a-Row (+1 tile per
  single-colour line of three, after the Mediator's check, A26, A27).
- Information (A35, section (c)): the resulting grid is public after rounds 1, 2, 3, 5;
  scores are private; alignments are revealed at the end of the game (R22).
- The end of the match is not in the ruleset (A30): by default the highest five-round
  total wins and the lowest is the Elimination Candidate; ties are the host's decisions
  ("winner-tie", "ec-tie"). No garnets move unless the host sets an option (A31).
- Results as data: `resolve` returns the round as facts (facts.py), each with its audience;
  `render` and `picture` draw every report and board from them (render.py). `from_position`
  opens the game at a round (keys: round, teams, grids, results, points; position.py).

A worked example (A7): a red square reached by red X = 3 and blue X = 1 turns blue.

>>> from sheetbridge.games.flickering_lights import DEFAULT_OPTIONS, parse_grid, recolor
>>> g = parse_grid(["........"] * 3 + ["...RB..."] + ["........"] * 4)
>>> fin = recolor(g, {(3, 3): 3, (4, 3): 1}, DEFAULT_OPTIONS)
>>> fin[(3, 3)], fin[(4, 3)], fin[(0, 3)], fin[(5, 3)]
('B', 'B', 'R', 'B')

Chapters, in reading order (each imports only those before it: the last round's resolution
calls the end of the match, so ``ending`` comes before ``rules``):

- ``spec.py``: the GameSpec (players, rounds, options with their rulings, tables): all ``sheetbridge games`` reads.
- ``options.py``: ``Options``, the host's options typed once.
- ``state.py``: the state as typed dictionaries, ``STATE_VERSION`` and ``upgrade``.
- ``board.py``: squares, colours, the mirrors and rotations, grids, their checks and generation.
- ``content.py``: teams, roles, the five variations; the Grids, Items and Assignments tables read
  and checked; the role pools.
- ``facts.py``: the fact classes, the host's decision keys, ``LedgerReason`` and ``Ending``.
- ``intake.py``: who submits what, the form, the parse of a submission.
- ``opening.py``: a new game and the opening of each round (items, grid, teams and roles, lists,
  Round 4's known tiles).
- ``ending.py``: the end of the match (ranking, ties, outcome, garnets; A30, A31).
- ``rules.py``: the scoring arithmetic and the round's resolution as named steps.
- ``render.py``: reports, views and pictures drawn from the facts.
- ``play.py``: random legal play.
- ``position.py``: a game opened at a described round.
- ``game.py``: ``FlickeringLights``, the facade over the chapters, and ``GAME``.
"""
from __future__ import annotations

from ...core.lazy import lazy_rules
from .spec import SPEC

__all__ = ["SPEC"]

__getattr__ = lazy_rules(__name__)   # the rest (GAME, the facts...) loads on first use
