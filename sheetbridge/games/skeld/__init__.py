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
- Order of a round (A9): cap raises; bananas (+3, R72, the excess over the cap lost,
  A10); one straight move along the row or column at 1 Energy a tile (R19-R21,
  A3-A5), walls block; Take Back Toe step (R68, A18); disables (R31-R34, A15);
  activations. A submission names the room it activates and the Energy ("Activate
  Room 3C with 2 Energy", R42); the room must be the one the crewmate ends in (A6,
  E11), once per crewmate (R30, E18). The bid is always spent (R29, A40). Ties are
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
  (R50); then the Gamewide Tiebreak (R49, A29), a ranking the host enters as a
  decision. A unique top plant in the round a Sequence is activated wins instead
  (R53, R58, R59, A22, A24).
- EC (R51, R60, R61, R63, A25-A28, A31): the would-be winner after a winning plant;
  otherwise the improper planter with the lowest metric; otherwise the non-winner
  with the lowest metric. 1 garnet per 3 components, +4 for Zurich (R64, R73).
- Private each round (R37-R40): crewmates sharing your rooms, who activated those
  rooms, your energy next round, the items of crewmates in your rooms; public: the
  rooms activated this round (R41) and walls placed (R67).


Every round is returned as typed facts (facts.py); the public post, each confessional and the
pictures are drawn from them (render.py).

Chapters, in reading order:

- ``spec.py``: the GameSpec (id, players, host options with their rulings, the board table): all
  ``sheetbridge games`` reads.
- ``options.py``: ``Options``, the host's options read once into typed fields, and their enums.
- ``state.py``: the state, typed key by key (``SkeldState``), its version and ``upgrade``.
- ``content.py``: the rooms, Sequences, bonuses and numbers of the rules; the board (A1) read and
  checked; the crewmates' bonus helpers.
- ``facts.py``: the fact classes, ``LedgerReason`` and ``Ending``.
- ``plans.py``: each crewmate's intents checked step by step (A9 steps 1-6, A38).
- ``intake.py``: the Submission form, parsing and the default submission (A33).
- ``rules.py``: setup, the pregame and a round as named steps in A9's order.
- ``ending.py``: the end of the Main Match (section d): winner, EC, the Gamewide Tiebreak, the Outcome.
- ``render.py``: the public post, confessionals, pictures and views, drawn from the facts.
- ``play.py``: random legal play.
- ``position.py``: a game set up from a described position.
- ``game.py``: ``Skeld``, the thin GameRules facade, and ``GAME``.

Worked examples from the ruleset (the Composer Sequence is the Conductor Sequence, A35):

>>> from sheetbridge.games.skeld.content import sequence_value
>>> from sheetbridge.games.skeld.rules import contention_winner
>>> contention_winner([("Marcer", 2), ("uri", 2), ("Spadez", 1)])
'Spadez'
>>> contention_winner([("Marcer", 2), ("uri", 2)]) is None
True
>>> sequence_value(["1C", "3C", "5C", "7C", "13C"], "C"), sequence_value(["2C", "4C", "6C", "8C", "10C"], "C")
(29, 30)
"""
from __future__ import annotations

from ...core.lazy import lazy_rules
from .spec import SPEC

__all__ = ["SPEC"]

__getattr__ = lazy_rules(__name__)   # the rest (GAME, the facts...) loads on first use
