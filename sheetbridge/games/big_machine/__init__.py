"""The Big Machine (designer chaotic_iak, Main Match 10 of "Blooming Genius: The Elder
Tree"): teams of a player and a guest bid cogs in five meadows for machine parts.

Rules in brief (R and A numbers from shared/rulings/big_machine.md):

- Roster and teams: every participant (player or guest) is a roster member; a team is one
  player and one guest (R1). Option ``teams`` names the pairs ("Ann+Bo; Cy+Dee", player
  first); by default the roster is paired in order, the first of each pair being the
  player. 2 to 4 teams (A1).
- Round 0 is meadow selection (M6): each participant picks a starting meadow (R3). The
  player's meadow gives the machine's left half, the guest's the right half; the halves
  share the three middle nodes M1, M2, M3 (R4, R5, M3). The halves, their connectors and
  conditions, and the allies/enemies relation are host tables (M1, M2).
- Everyone starts with 12 cogs (R11); cogs may be given freely (R12, A16): a "Give cogs"
  row in the submission (applied after this round's auctions) or a host row in the
  "Cog trades" table (applied before this round's checks).
- Rounds 1-7 (R13). Each participant submits a meadow, a bid, a power-up and an install
  node, optionally a sabotage node and a jump (R15, R16). Bid + power-up may not exceed the
  cogs held, counting this round's sabotage (R18, R19, A6, A22). Round 1: any node (R20,
  A10); later: a node joined to one's own previous node, not the same (R21-R23, A18), or any
  node for 5 garnets (R24, A7). Sabotage puts a faulty part on a node empty at the start
  of the round for +2 cogs, once per round (R25-R28, A5).
- Resolution (the rulings' proposed order): trades, validation, sabotage, jump charges,
  movement (R30), then in each meadow the highest unique bid wins (R31-R34, A23): a part of
  the meadow's colour with power = people in the meadow + power-up (R35, R36, A2);
  everybody else there installs a faulty part (R38, A3). Bids are always paid, power-ups
  only by the winner (R39, R40). Installs: empty node takes the part (R41); a greater power
  replaces (R42); otherwise the node is ruined (R43-R45); teammates on one node install in
  ascending power, faulty first (R46, R47, A4).
- Missing submission: stay, bid 0, power-up 0, a random node joined to the previous node
  (round 1: any node) (R29, A9). Invalid parts fall back field by field (A17, section e).
- End (R48-R61): empty nodes become faulty; a connector with two non-faulty ends is working
  (1 point); if it also meets its condition it is excellent (5 points): allies/enemies on
  the colours (A14: a colour with itself is neither), greater-than strictly in the drawn
  direction (A15), free unless the team moved along it in rounds 2-7 (A8). Among the
  players (A11) the sole top score wins a Token of Life and 1 cosmos; the lowest is the
  Elimination Candidate (ties: the winners' vote, entered as decision "ec-vote"; "ec-host"
  when everyone is tied, A12). Everyone gets floor(points / 2) garnets (A13).
- Results as data: `resolve` returns the round as facts (below) with their audience:
  positions public every round (R62), starting meadows and the empty layouts public from
  meadow selection (A24, option ``public_layouts``), the machine, installs and sabotage to
  the team (R63-R65), bids, cogs and notices to the participant (R67, A19), every meadow's
  auction to the host alone (R66), every machine and connector's points public at the end
  (R68). `render` and `picture` draw every report and board from them.

The ruleset's example: 3 people in the Blue Meadow, the winner powers up 2:

>>> from sheetbridge.games.big_machine.rules import highest_unique_bid, part_power
>>> part_power(3, 2)
5
>>> highest_unique_bid({"a": 5, "b": 5, "c": 3, "d": 3, "e": 1})
'e'

Chapters, in reading order:

- ``spec.py``: the GameSpec (id, players, options with their rulings, tables): all ``sheetbridge games`` reads.
- ``options.py``: ``Options``, the host's options read once into typed fields (``options_of``), and their enums.
- ``state.py``: the state as the record keeps it, typed; ``STATE_VERSION`` and ``upgrade``.
- ``content.py``: the closed sets and numbers, the host's tables read and checked, the machine of
  two halves assembled (M1-M3, R4-R6).
- ``machine.py``: what a node holds after installs (R41-R47) and how connectors score (R48-R56).
- ``facts.py``: the round's results as data, the ledger's reasons and the endings.
- ``intake.py``: the form, its parsing with every problem named, the default move (R29, A9).
- ``rules.py``: the teams and the new game, meadow selection, each round as named steps in the
  rulings' order, the end and the outcome (R56-R61).
- ``render.py``: reports, texts, views and the scores the standings read.
- ``picture.py``: the pictures (meadows and machines).
- ``play.py``: random legal play.
- ``position.py``: a game set up from a described position.
- ``game.py``: ``BigMachine``, the thin facade the host calls, and ``GAME``.
"""
from __future__ import annotations

from ...core.lazy import lazy_rules
from .spec import SPEC

__all__ = ["SPEC"]

__getattr__ = lazy_rules(__name__)   # the rest (GAME, the facts...) loads on first use
