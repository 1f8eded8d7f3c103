"""Three Modular Rooms (designer Zero, "Zero's Gambit"): a Main Match for 9 players.

Rules in brief (R numbers from shared/rulings/three_modular_rooms.md):

- 11 rounds (R1). Everyone holds the cards 1..9, -10, -11, -12 (R2) and each round
  plays one card into one of three rooms, Null, Solitary or Duel (R3). Played cards
  are used up (A1).
- In every room the card effects resolve in order of absolute value (R6), one step
  at a time across all rooms (A4); a replaced card still resolves (R7, A2); only
  cards 2 and 4 "ignore" effects, and only effects not yet resolved (A3).
- The room's score is the sum of its cards (R8), multiplied by 1.5 when that sum is
  0, 1 or 2 mod 3 for Null, Solitary, Duel (R9-R12; 2x with a 9 and exactly three
  people, R24).
- The room with the highest score scores a point for everyone in it; a two-room tie
  gives the point to the third room, a three-way tie to everyone (R30-R32).
- A missing or invalid card or room is replaced at random and the player cannot
  score that round (R33, R34, A24, A25).
- 5 garnets buy a copy of a card for next round, announced with its value mod 3
  (R35, R36); 3 garnets hide who went where (R37). Card -10 takes a garnet from
  everyone in the room (R25-R27).
- After 11 rounds the most points win (ToL each; a single winner 2 ToL and an
  opal), the fewest points lose; 1 garnet per point (R40-R44). The opal challenge:
  be the only player without the room bonus in a round (R45, R46).

Worked examples from the ruleset:

>>> from sheetbridge.games.three_modular_rooms import DEFAULTS, resolve_rooms
>>> resolve_rooms({"Null": [("a", 1), ("b", 5), ("c", 6), ("d", 6)]}, DEFAULTS)["Null"].values
[1, 5, -6, -6]
>>> resolve_rooms({"Null": [("a", 3)]}, DEFAULTS)["Null"].values
[30]

Chapters, in reading order (a later one may import an earlier one, never the reverse):

- ``spec.py``: the GameSpec (id, players, host options with their rulings): all ``sheetbridge games`` reads.
- ``options.py``: ``Options``, the options typed.
- ``state.py``: the state's keys and types (``TmrState``), its version and ``upgrade``.
- ``content.py``: the cards, the rooms and the prices (no host tables).
- ``facts.py``: a round as typed facts, each with its audience; ledger reasons and endings.
- ``intake.py``: the Submission form and how a submission is read.
- ``rules.py``: the setup, the room engine (card effects R13-R29) and a round as the steps of A33.
- ``ending.py``: the match's end: winners, awards, the opal challenge, the Elimination Candidate.
- ``render.py``: the public post, confessionals, the round's picture and the views, from the facts.
- ``play.py``: random legal play.
- ``position.py``: a game set up from a described position.
- ``game.py``: ``ThreeModularRooms``, the thin ``GameRules`` facade, and ``GAME``.
"""
from __future__ import annotations

from ...core.lazy import lazy_rules
from .spec import SPEC

__all__ = ["SPEC"]

__getattr__ = lazy_rules(__name__)   # the rest (GAME, the facts...) loads on first use
