"""Bugcatcher (designer uriquack, "The Genius: House of Larks"): Main Match 5, 9 players.

Rules in brief (R and A numbers from shared/rulings/bugcatcher.md):

- The board is 6 columns (A-F) x 5 rows (1-5) of cells; A1 is upper left (R3, R4, A1,
  A2). Border nodes sit on the 7x6 lattice of cell corners and move along cell edges;
  central nodes sit in cells and move between cell centres (R5-R9, A3). The host may
  block cells (A36): no central node starts in or enters one.
- Pregame (round 0): two 9-entry priority lists per player, central cells and border
  corners (any alias: C1 bottom right = D2 upper left), plus a garnet bid per list.
  Pass k gives each unassigned player their k-th choice; a contested coordinate goes to
  the highest bid, then a seeded draw (R16-R25, A26-A30). Bids are charged in full.
- 7 rounds (R27) of 7 energy (R12): an ordered list of actions, one per step, all
  players' k-th actions at once (R28, R29). BU/BD/BL/BR and CU/CD/CL/CR place one path
  from the border or central node (1 energy, +1 firefly if it succeeds, R30-R32);
  ``swap`` swaps both nodes' colours (1 energy, R33, R34); ``gswap`` is the once-a-round
  swap for 1 garnet instead of energy (R15, A17). Round 1: central black, border blue
  (R11); colours carry over (A15). Border and central colours are always opposite (R10).
- Collisions (R37-R47, A4-A13), checked each step: crossings first (a central path and a
  border path of the same colour through the same edge midpoint: case 3 if both are new
  this step, case 4 for the later one if the other was placed earlier), then arrivals
  (case 1: the point was claimed earlier, start nodes included; case 2: several arrive at
  once). The colliding action and all later path actions of that node are invalidated;
  swaps still go through (R44). Players collide with themselves too (R45, A7). Paths do
  not carry over (R46); a node's end point is next round's node (R6, A11).
- Missions (R48-R62, A18-A25, A37-A40) are data (the "Missions" table): each round's
  board, a shape in the ruleset's notation for the border or central node (or ``manual``:
  the host enters who completed it, a decision), a reward and an optional failure penalty
  with its window. Players accept missions from the current board; a successful path
  containing the shape (any rotation, reflection or direction of travel) completes it;
  rewards are split rounding up; acceptors who fail pay the penalty when someone else
  completes it or when the window ends. Completions are announced without names (R62).
- Information (R63-R68, A33-A35): the public board shows every path in its colour,
  unlabelled; each player learns their own firefly total each round; all totals at
  the end. The most fireflies wins 1 garnet and 2 Tokens of Life, the fewest is the
  Elimination Candidate; ties by missions completed, fewest collisions caused, then the
  Gamewide Tiebreak (a ranking the host enters as a decision) (R69-R72, A32). Every
  player earns 1 garnet per 30 fireflies (R73, A31).

A round's results are typed facts (facts.py); every report and picture is drawn from them
(render.py, drawing.py).

Chapters, in reading order:

- ``spec.py``: the GameSpec (id, players, host options with their rulings, tables): all ``sheetbridge games`` reads.
- ``options.py``: ``Options``, the options read once into typed fields, and the cells ``blocked_cells`` names.
- ``state.py``: the state's keys and types (TypedDicts), STATE_VERSION and ``upgrade``.
- ``board.py``: cells, corners, the fine grid, directions, colours, action codes and labels (R3-R11, A1-A3).
- ``paths.py``: the path engine, every step and collision of a round (R29, R37-R47, A4-A14).
- ``content.py``: the Missions table, shapes and their matching (R48-R62, A18-A25), ``check_tables``.
- ``facts.py``: a round's results as typed facts, the ledger reasons and the endings.
- ``intake.py``: the form, reading a submission and its problems (E1-E11, E-P1-E-P6).
- ``pregame.py``: a new game (``setup``) and round 0, the priority lists and bids (R16-R26, A26-A30).
- ``rules.py``: a round as named steps in the rulebook's order, and the end (R27-R73).
- ``drawing.py``: the board drawn as a grid of cells and as a picture.
- ``render.py``: reports, views, the outcome and the standings, drawn from the facts.
- ``play.py``: random legal play (``random_play``).
- ``position.py``: a game set up from a described position (``from_position``).
- ``game.py``: the ``Bugcatcher`` GameRules facade, ``GAME``, and the names read from outside.

The ruleset's example submission (R35, R36) from C3 and C1 bottom right:

>>> from sheetbridge.games.bugcatcher import DEFAULTS, cell_fine, point_fine, run_paths
>>> res = run_paths({"p": {"B": point_fine(3, 1), "C": cell_fine(2, 2)}}, {"p": "blue"},
...                 {"p": ["BD", "BL", "CL", "BD", "swap", "BL", "CD"]}, DEFAULTS)
>>> res.moves["p"], res.paths["p"], res.border_colour["p"]
({'B': 'DLDL', 'C': 'LD'}, 6, 'black')
"""
from __future__ import annotations

from ...core.lazy import lazy_rules
from .spec import SPEC

__all__ = ["SPEC"]

__getattr__ = lazy_rules(__name__)   # the rest (GAME, the facts...) loads on first use
