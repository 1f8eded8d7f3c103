"""A game in progress, with no sheet at all: the core of the Python API.

A :class:`Match` is built from a :class:`~sheetbridge.core.game.GameRules` and its content tables;
:mod:`sheetbridge.api` finds a game by id and loads its default tables for you:

>>> from sheetbridge.api import new_match
>>> m = new_match("three-modular-rooms", ["Ann", "Bo", "Cy"], seed=7)
>>> m.state["round"]
1
>>> rec = m.resolve({"Ann": {"play": [{"card": "3", "room": "Null"}]}})
>>> rec.round, m.state["round"]
(1, 2)

Everything the CLI does goes through this class: setting up, parsing
submissions, resolving a round, undoing it by replay, and the one per-player
view that every private tab is rendered from (:meth:`Match.player_report`).
"""
from __future__ import annotations

import copy
import dataclasses
import json
from typing import Any, Mapping, Sequence

from .errors import ConfigError, LedgerError, SheetbridgeError, UsageError
from .game import GameRules
from .intake import SUBMISSION_FIELD, SUBMISSION_LABEL, Prepared, plain, prepare
from .ledger import Ledger, LedgerRow
from .parsing import shorten
from .rng import Rng, derive_seed
from .decisions import DecisionRequest
from . import seats
from .outcome_text import outcome_lines
from .players import check_players
from .facts import (CORE_FACTS, HOST, EntriesIgnored, EntriesLate, EntriesRead, RenderContext, visible,
                    visible_by_viewer)
from .round_record import RoundRecord
from .types import (Block, Form, Outcome, Problem, ProblemKind, RawSubmission, Report, RoundInput, State,
                    Submission, Tables, to_json)

# Version 2 holds the whole ledger (the authority for sheetbridge-written rows, see
# core/integrity.py); version 1 records kept no ledger and trusted the Ledger tab.
RECORD_VERSION = 2
READABLE_VERSIONS = (1, 2)


def _utc_text(iso: str) -> str:
    """"2026-11-24T15:00:05Z" as a reader reads it: "2026-11-24 15:00 UTC"."""
    return f"{iso[:10]} {iso[11:16]} UTC" if len(iso) >= 16 and iso[10] == "T" else iso


def _read_block(round_no: int, f: EntriesRead | EntriesIgnored | EntriesLate) -> Block:
    if isinstance(f, EntriesLate):
        then = ("the round used your entries as they were then" if f.kept else
                "your form was empty then, so the rules' default applied")
        return Block(f"Round {round_no}: your entries arrived after the deadline",
                     (f"What you typed after the round was locked ({_utc_text(f.locked_at)}) arrived after the "
                      f"deadline and was not counted: {then}.",))
    if isinstance(f, EntriesIgnored):
        return Block(f"Round {round_no}: typed outside the boxes (ignored)", tuple(f.lines))
    return Block(f"Round {round_no}: how your entries were read", tuple(f.lines))


def _plain_tables(tables: Tables) -> dict[str, list[list[str]]]:
    return {name: [["" if v is None else str(v) for v in row] for row in rect]
            for name, rect in sorted(tables.items())}


class Match:
    """One game: its rules, players, options, seed, tables, ledger and round record."""

    def __init__(self, game: GameRules, name: str, players: Sequence[str], options: Mapping[str, Any],
                 seed: int | str, tables: Tables, ledger: Ledger, rounds: list[RoundRecord] | None = None,
                 state: State | None = None, undos: Mapping[str, int] | None = None,
                 decisions: Mapping[str, Any] | None = None, position: Mapping[str, Any] | None = None,
                 seats: Sequence[Mapping[str, Any]] | None = None) -> None:
        self.game = game
        self.name = name
        self.players = list(players)
        self.options = dict(options)
        self.seed = seed
        self.tables = _plain_tables(tables)
        self.ledger = ledger
        self.rounds: list[RoundRecord] = list(rounds or [])
        self.undos: dict[str, int] = dict(undos or {})
        self.setup_tables = self.tables  # the tables the game was set up with (replay needs them)
        self.decisions: dict[str, Any] = dict(decisions or {})   # request key -> entered value
        self.checks = True   # check every resolve leaves its input alone (simulations turn it off for speed)
        self.position: dict[str, Any] | None = dict(position) if position is not None else None
        # Seats that changed hands, in order (see core/seats.py): {"old", "new", "at": how many rounds
        # were resolved before it, "history": whether the new player sees the seat's earlier reports}.
        self.seats: list[dict[str, Any]] = [dict(s) for s in (seats or ())]
        # player -> (the state, the raw text, what parse read): see parse and _parsed_or_read
        self._parsed: dict[str, tuple[State, RawSubmission, Submission | None]] = {}
        self._outcome_seen: tuple[State, str, Outcome | None] | None = None   # (see outcome)
        if state is None:
            state = self._fresh_state()
        self.state: State = state

    # ------------------------------------------------------------ creation
    @classmethod
    def new(cls, game: GameRules, players: Sequence[str], *, tables: Tables,
            options: Mapping[str, Any] | None = None, seed: int | str = 0,
            garnets: Mapping[str, int] | None = None, name: str | None = None) -> "Match":
        """Set up a new game of `game` with its content `tables` (:func:`sheetbridge.api.new_match`
        finds a game by id and its default tables). ``options`` may hold text as typed in the Config tab."""
        players = check_players(game, players)
        opts = parse_options(game, options or {})
        problems = game.check_content(tables, opts)
        if problems:
            raise ConfigError("; ".join(problems))
        name = name or f"{game.spec.id}-{seed}"
        ledger = Ledger(name)
        ledger.append(LedgerRow(name, 0, p, int(n), "opening balance", f"{name}:opening:{p}")
                      for p, n in sorted((garnets or {}).items()) if int(n) != 0)
        m = cls(game, name, players, opts, seed, tables, ledger)
        return m

    @classmethod
    def from_position(cls, game: GameRules, players: Sequence[str], position: Mapping[str, Any], *,
                      tables: Tables, options: Mapping[str, Any] | None = None, seed: int | str = 0,
                      garnets: Mapping[str, int] | None = None, name: str | None = None) -> "Match":
        """A game opened at a given round and position (see the game's docs page for the keys).

        The position is kept in the record, so replay and undo start from it. An impossible
        position raises :class:`~sheetbridge.core.errors.PositionError` naming what is wrong.
        """
        m = cls.new(game, players, options=options, seed=seed, tables=tables, garnets=garnets, name=name)
        m.position = json.loads(json.dumps(dict(position)))
        m.state = m._fresh_state()
        return m

    def _fresh_state(self) -> State:
        """The state the game was set up in, with the seats that changed hands before round 1 renamed."""
        rng = Rng.from_seed(self.seed, "setup")
        players = seats.setup_players(self.players, self.seats)
        if self.position is not None:
            state = self.game.from_position(players, self.options, self.setup_tables, self.position, rng)
        else:
            state = self.game.setup(players, self.options, self.setup_tables, rng)
        return seats.renamed_state(state, self.seats, 0)

    def substitute(self, old: str, new: str, *, history: bool = False) -> list[LedgerRow]:
        """Give ``old``'s seat to ``new`` from the open round on (see core/seats.py). Returns the
        ledger rows that carry the seat's balance over (none for a balance of 0)."""
        self._check_player(old)
        seat = seats.check_new_seat(self, old, new, history)
        self.seats.append(seat)
        self.players = [seat["new"] if p == old else p for p in self.players]
        self.state = seats.rename(self.state, old, seat["new"])
        self.decisions = seats.rename(self.decisions, old, seat["new"])
        rows = seats.transfer_rows(self, seat, len(self.seats) - 1)
        return self.ledger.append(rows)

    # ------------------------------------------------------------ a round
    @property
    def round(self) -> int:
        return int(self.state["round"])

    @property
    def finished(self) -> bool:
        return bool(self.state.get("finished"))

    def form(self, player: str):
        self._check_player(player)
        return self.game.form(self.state, player)

    def parse(self, player: str, raw: RawSubmission | None) -> Submission | None:
        """Parse one player's raw submission for the open round (None: nothing submitted).

        Whatever the player typed, this never raises: cells and the submission are capped
        and read by the one rule first (:mod:`sheetbridge.core.intake`), and every problem
        gets the label the player sees and a shortened value.

        What it reads is kept for the round: :meth:`resolve` does not read the same text again in
        the same state (the host reads every submission to say who has submitted, then resolves).
        """
        self._check_player(player)
        sub = self._read(player, raw)
        kept = _kept_copy(raw)
        if kept is not None:
            self._parsed[player] = (self.state, kept, sub)
        return sub

    def _parsed_or_read(self, player: str, raw: RawSubmission | None) -> Submission | None:
        """What :meth:`parse` read from this very text in this very state, else a fresh reading."""
        seen = self._parsed.get(player) if self._parsed else None
        if seen is not None and seen[0] is self.state and _same_text(seen[1], raw):
            return seen[2]
        return self._read(player, raw)

    def _read(self, player: str, raw: RawSubmission | None) -> Submission | None:
        """:meth:`parse`'s reading: the intake's caps and rule, then the game's parse, once."""
        if raw is None:
            return None
        # The form is built only when it is needed: to cap or tell about a cell, or to label a
        # problem (a plain submission, as nearly all are, needs neither).
        quick = plain(raw)
        if quick is not None:
            # _has_content, read on the trimmed text that plain has made already
            if not any(text for rows in quick.values() for row in rows for text in row.values()):
                return None
            sub, error = self._game_parse(player, quick)
            if sub is not None and not sub.problems:   # nearly every submission: nothing to add or label
                return Submission(player, sub.values, (), quick, ())
            return self._with_problems(player, Prepared(quick), sub, error, None)
        if not _has_content(raw):
            return None
        form = self.form(player)
        prep = prepare(form, player, raw)
        sub, error = self._game_parse(player, prep.raw)
        return self._with_problems(player, prep, sub, error, form)

    def _game_parse(self, player: str, raw: RawSubmission) -> tuple[Submission | None, Exception | None]:
        try:
            return self.game.parse(self.state, player, raw), None
        except Exception as e:  # a bug in the game module must not stop the round for everyone
            return None, e

    def _with_problems(self, player: str, prep: Prepared, sub: Submission | None, error: Exception | None,
                       form: Form | None) -> Submission:
        """The submission with the intake's problems and the game's, each labelled as the player sees it
        (`sub` None: the game's parse raised `error`, and the rules' default applies to every entry)."""
        if sub is None:
            sub = self.game.parse(self.state, player, {})
            prep.problems.append(Problem(
                ProblemKind.SYNTAX, player, SUBMISSION_FIELD, "", "what the form's help says",
                f"sheetbridge could not read it (internal error {type(error).__name__}; please report it)",
                "the rules' default applies to every entry", label=SUBMISSION_LABEL))
            prep.rejected = True
        problems = list(prep.problems)
        if not prep.rejected:
            refused = {pr.label: i for i, pr in enumerate(problems) if pr.label in prep.refused_labels}
            if sub.problems and form is None:
                form = self.form(player)
            for pr in sub.problems:
                label = pr.label or (form.label_for(pr.field) if form is not None else "")
                if label in refused:
                    # The game saw the over-long cell as blank: say once what was applied instead.
                    i = refused.pop(label)
                    problems[i] = dataclasses.replace(problems[i], default=pr.default or problems[i].default)
                    continue
                if label in prep.refused_labels:
                    continue
                problems.append(dataclasses.replace(pr, label=label, value=shorten(pr.value)))
        return Submission(player, sub.values, tuple(problems), prep.raw, tuple(prep.notices))

    def _known(self, player: str, raw: RawSubmission | None, values: Mapping[str, Any]) -> Submission | None:
        """The submission of `raw` whose values the game already knows (see :meth:`resolve`)."""
        sub = Submission(player, values, (), raw, ()) if raw is not None else None
        if self.checks:
            read = self._read(player, raw)
            if read != sub:
                raise SheetbridgeError(
                    f"{self.game.spec.id}.random_play claimed values for {player} that parse does not read "
                    f"(a bug in the game module): claimed {sub!r}, read {read!r}")
        return sub

    def resolve(self, raw: Mapping[str, RawSubmission | None] | None = None,
                tables: Tables | None = None, stray: Mapping[str, Sequence[str]] | None = None, *,
                known: Mapping[str, Mapping[str, Any]] | None = None,
                late: Mapping[str, Mapping[str, Any]] | None = None) -> RoundRecord:
        """Resolve the open round from raw submissions (missing players may be left out). `stray`:
        per player, what they typed outside the boxes (ignored; each is told privately). `late`: per player
        whose entries changed after the round was locked, {"locked_at": text, "kept": bool} (told privately).

        `known`: per player, the values the game's own :meth:`~GameRules.random_play` says parse
        reads from that player's raw submission, read without problems; their text is not read
        again, and the record keeps it as given rather than a copy (the game made it for this round
        alone). With :attr:`checks` on (the default) each is compared with what parse reads, and a
        difference is a :class:`SheetbridgeError` (a bug in the game module)."""
        if self.finished:
            raise UsageError(f"{self.name} is over: all {self.game.spec.rounds} rounds are resolved")
        raw = dict(raw or {})
        unknown = sorted(set(raw) - set(self.players))
        if unknown:
            raise UsageError(f"submissions from unknown player(s) {', '.join(unknown)}; "
                             f"players are {', '.join(self.players)}")
        if tables is not None:
            problems = self.game.check_content(tables, self.options)
            if problems:
                raise ConfigError("; ".join(problems))
            self.tables = _plain_tables(tables)
        r = self.round
        rec = RoundRecord(round=r, seed=derive_seed(self.seed, "round", r),
                          raw={p: raw.get(p) if known and p in known else _plain_raw(raw.get(p))
                               for p in self.players},
                          balances=_balances(self.ledger, self.players), tables=self.tables,
                          decisions=copy.deepcopy(self.decisions) if self.decisions else {},
                          stray={p: list(v) for p, v in sorted((stray or {}).items()) if v},
                          late={p: dict(v) for p, v in sorted((late or {}).items())})
        self._run(rec, known)
        self._book(rec)
        self.rounds.append(rec)
        return rec

    def _run(self, rec: RoundRecord, known: Mapping[str, Mapping[str, Any]] | None = None) -> None:
        """Resolve `rec`'s inputs against the current state and fill its outputs."""
        if known:
            subs = {p: self._known(p, rec.raw.get(p), known[p]) if p in known
                    else self._parsed_or_read(p, rec.raw.get(p)) for p in self.players}
        else:
            subs = {p: self._parsed_or_read(p, rec.raw.get(p)) for p in self.players}
        self._parsed = {}   # read for this state, which the round is about to leave
        rin = RoundInput(round=rec.round, submissions=subs, balances=dict(rec.balances), tables=rec.tables,
                         decisions=dict(rec.decisions))
        before = json.dumps(self.state, sort_keys=True) if self.checks else ""
        result = self.game.resolve(self.state, rin, Rng(rec.seed))
        if self.checks and json.dumps(self.state, sort_keys=True) != before:
            raise SheetbridgeError(f"{self.game.spec.id}.resolve modified its input state (a bug in the game module)")
        # A round's state must survive JSON: that is what the master workbook stores. (A simulation,
        # checks off, trusts the conformance tests for that and saves the round trip.)
        new_state = json.loads(json.dumps(result.state, sort_keys=True)) if self.checks else result.state
        gen = self.undos.get(str(rec.round), 0)
        rows = [LedgerRow(self.name, rec.round, e.player, int(e.change), e.reason,
                          f"{self.name}:r{rec.round}g{gen}:{i}",
                          " ".join(x for x in (e.memo, f"({e.counterparty})" if e.counterparty else "") if x))
                for i, e in enumerate(result.ledger)]
        totals = dict(rec.balances)
        for row in rows:
            if row.player not in totals:
                raise SheetbridgeError(f"{self.game.spec.id} paid an unknown player {row.player!r} (a bug)")
            totals[row.player] += row.change
        neg = {p: v for p, v in totals.items() if v < 0}
        if neg:
            raise LedgerError("this round would leave negative garnet balances: "
                              + ", ".join(f"{p} {v}" for p, v in sorted(neg.items())))
        rec.submissions = subs
        rec.facts = tuple(result.facts)
        rec.requests = tuple(result.requests)
        # How non-plain text was read: told privately, whatever the game reports (a fact of the core's).
        read: tuple[EntriesRead | EntriesIgnored | EntriesLate, ...] = tuple(
            EntriesRead(p, tuple(n.text for n in sub.notices), audience=(p,))
            for p, sub in subs.items() if sub is not None and sub.notices)
        read += tuple(EntriesIgnored(p, tuple(lines), audience=(p,)) for p, lines in sorted(rec.stray.items()) if lines)
        read = tuple(EntriesLate(p, str(v["locked_at"]), bool(v["kept"]), audience=(p,))
                     for p, v in sorted(rec.late.items())) + read
        if rec.facts:
            rec.facts += read
            rec._public = rec._private = None
            rec._renderer = self._render   # drawn when first read
        else:
            rec.public = result.public
            rec.private = {p: result.private[p] for p in self.players if p in result.private}
            for f in read:
                mine = rec.private.get(f.player) or Report(f"Round {rec.round}")
                block = (_read_block(rec.round, f),)
                blocks = block + tuple(mine.blocks) if isinstance(f, EntriesLate) else tuple(mine.blocks) + block
                rec.private[f.player] = dataclasses.replace(mine, blocks=blocks)
        rec.ledger = rows
        rec.host_log = list(result.host_log)
        self.state = new_state

    def context(self, round_no: int) -> RenderContext:
        """What a renderer may know besides the facts (nothing secret)."""
        return RenderContext(round=round_no, players=tuple(self.players), options=dict(self.options),
                             game_name=self.game.spec.name)

    def render(self, facts: Sequence[Any], viewer: str | None, round_no: int,
               seen: Sequence[Any] | None = None) -> Report:
        """One viewer's report of a round from the facts that viewer may see: the game draws its
        own facts; the core adds what it recorded itself (how entries were read). ``seen``: those
        facts, already picked (:func:`~.facts.visible_by_viewer`)."""
        mine = visible(facts, viewer) if seen is None else seen
        own = tuple(f for f in mine if not isinstance(f, CORE_FACTS))
        report = self.game.render(own, viewer, self.context(round_no))
        if report is None:
            raise SheetbridgeError(f"{self.game.spec.id} returned facts but renders no report (a bug)")
        core = [f for f in mine if isinstance(f, CORE_FACTS) and f.player == viewer]
        if not core:
            return report
        # Entries that came too late come first: they explain the round's "you did not submit".
        first = tuple(_read_block(round_no, f) for f in core if isinstance(f, EntriesLate))
        last = tuple(_read_block(round_no, f) for f in core if not isinstance(f, EntriesLate))
        return dataclasses.replace(report, blocks=first + tuple(report.blocks) + last)

    def _render(self, rec: RoundRecord) -> None:
        """Every report of a round, drawn from its facts; each viewer's renderer sees only their facts."""
        index = next((i for i, r in enumerate(self.rounds) if r is rec), len(self.rounds))
        players = seats.players_at(self.players, self.seats, index) if self.seats else self.players
        seen = visible_by_viewer(rec.facts, [None, *players])
        rec.public = self.render(rec.facts, None, rec.round, seen[None])
        rec.private = {p: self.render(rec.facts, p, rec.round, seen[p]) for p in players}

    def _book(self, rec: RoundRecord) -> None:
        self.ledger.append(rec.ledger)

    # ------------------------------------------------------------ undo
    def undo(self) -> RoundRecord:
        """Roll back the last resolved round by replaying the record up to the round before.

        Only the rows that resolving the round booked are reversed: opening balances
        belong to the game, so undoing a pregame (round 0) keeps them.
        """
        if not self.rounds:
            raise UsageError(f"{self.name} has no resolved round to undo")
        last = self.rounds[-1]
        # A round resolved before its seat changed hands is reversed on the seat's present holder,
        # who holds the seat's balance; the seat stays theirs and they play the round again.
        self.ledger.reverse_round(last.round, f"undo of round {last.round}", holders=seats.holders(self.seats))
        self.undos[str(last.round)] = self.undos.get(str(last.round), 0) + 1
        self.rounds = self.rounds[:-1]
        for seat in self.seats:
            seat["at"] = min(int(seat["at"]), len(self.rounds))
        self.replay()
        return last

    def replay(self) -> None:
        """Recompute the state from setup and the recorded inputs; fail if any output differs."""
        recorded = self.rounds
        self.state = self._fresh_state()
        self.players = seats.players_at(self.players, self.seats, 0)
        for i, old in enumerate(recorded):
            if i:
                self._take_seats(i)
            rec = RoundRecord(round=old.round, seed=old.seed, raw=old.raw, balances=old.balances,
                              tables=old.tables, decisions=old.decisions, stray=old.stray, late=old.late)
            self._run(rec)
            if old.facts:   # the reports are drawn from the facts: the facts decide
                differs = _canon(_as_recorded(rec.facts, old.facts)) != _canon(old.facts)
            else:
                differs = _canon(rec.public) != _canon(old.public) or _canon(rec.private) != _canon(old.private)
            if differs:
                raise SheetbridgeError(f"replaying round {old.round} gave a different result than recorded; "
                                       "the record or the game module changed")
        if recorded:
            self._take_seats(len(recorded))

    def _take_seats(self, at: int) -> None:
        """Replay: the seats that changed hands once ``at`` rounds were resolved change hands again."""
        for seat in self.seats:
            if int(seat["at"]) == at:
                self.players = [seat["new"] if p == seat["old"] else p for p in self.players]
                self.state = seats.rename(self.state, seat["old"], seat["new"])

    # ------------------------------------------------------------ views
    def player_report(self, player: str) -> Report:
        """Everything `player` may see: the one function every private tab is rendered from."""
        self._check_player(player)
        now = self.game.player_view(self.state, player)
        blocks = list(now.blocks)
        for index in reversed(range(len(self.rounds))):
            rec = self.rounds[index]
            # The seat's name when the round was resolved; None: an earlier holder's, not shown to this one.
            name = seats.name_at(player, self.seats, index) if self.seats else player
            rep = rec.private.get(name) if name is not None else None
            if rep is None:
                continue
            if not any(b.title.startswith(f"Round {rec.round}") for b in rep.blocks):
                # rounds stand one under another in the Results tab: each under its own heading
                blocks.append(Block(f"Round {rec.round}", ()))
            blocks.extend(rep.blocks)
        if self.finished:
            blocks = list(self._outcome_blocks()) + blocks
        return Report(title=f"{self.game.spec.name}: {player}", blocks=tuple(blocks))

    def public_report(self) -> Report:
        """The public board and every round's public report, newest first."""
        board = self.game.public_view(self.state)
        blocks = list(board.blocks)
        for rec in reversed(self.rounds):
            if rec.public is None:
                continue
            blocks.extend(rec.public.blocks)
        # a round's post may show what the board shows now (the next round's mission board): once
        shown: dict[tuple, Block] = {}
        for b in blocks:
            shown.setdefault((b.title, b.lines, b.grid, b.legend), b)
        blocks = list(shown.values())
        if self.finished:
            blocks = list(self._outcome_blocks()) + blocks
        return Report(title=f"{self.game.spec.name}: public board", blocks=tuple(blocks))

    def outcome(self) -> Outcome | None:
        """How the game ended (None while it runs). A round's reports ask for it once per player:
        it is worked out again only when the state (a new object after every change) or a
        decision changed."""
        if not self.finished:
            return None
        key = json.dumps(self.decisions, sort_keys=True, default=repr)
        seen = self._outcome_seen
        if seen is not None and seen[0] is self.state and seen[1] == key:
            return seen[2]
        out = self.game.outcome(self.state, dict(self.decisions))
        self._outcome_seen = (self.state, key, out)
        return out

    def standings(self, viewer: str | None = HOST) -> Any:
        """Each player's score per round and in total, rank and ties, as ``viewer`` may know them
        (HOST: everything; None: the public; a player's name): core/standings.py."""
        from .standings import standings
        out = self.outcome()
        return standings(self.game, self.rounds, self.players, viewer,
                         final_scores=dict(out.scores) if out is not None else None,
                         end_facts=out.facts if out is not None else ())

    # ------------------------------------------------------------ decisions
    def requests(self) -> list[DecisionRequest]:
        """Every decision the game has asked for so far (rounds' and the outcome's), oldest first."""
        out: dict[str, DecisionRequest] = {}
        for rec in self.rounds:
            for req in rec.requests:
                out[req.key] = req
        outcome = self.outcome()
        for req in (outcome.requests if outcome is not None else ()):
            out[req.key] = req
        return list(out.values())

    def pending(self) -> list[DecisionRequest]:
        """The decisions asked for and not entered yet."""
        return [r for r in self.requests() if r.key not in self.decisions]

    def decide(self, key: str, value: Any) -> DecisionRequest:
        """Enter a decision (text as the host types it). A decision for a round already resolved
        re-resolves from that round with the same submissions and seeds (the ledger gets reversal
        rows and the new rows, as for undo); one for the outcome changes the outcome only.

        >>> from sheetbridge.api import play_random
        >>> m = play_random("three-modular-rooms", ["Ann", "Bo", "Cy"], seed=1)
        >>> [r.key for r in m.pending()] in ([], ["ec-vote"], ["ec-vote", "ec-host"])
        True
        """
        known = {r.key: r for r in self.requests()}
        key = self.decision_key(key)
        req = known[key]
        try:
            val = req.read(value)
        except ValueError as e:
            raise UsageError(str(e)) from None
        val = list(val) if isinstance(val, tuple) else val
        if req.round is None or not any(r.round >= req.round for r in self.rounds):
            self.decisions[key] = val
            return req
        redo = [r for r in self.rounds if r.round >= req.round]
        for _ in redo:
            self.undo()
        self.decisions[key] = val
        holders = seats.holders(self.seats)   # a round's entries go to whoever holds the seat now
        for old in redo:
            self.resolve({holders.get(p, p): v for p, v in old.raw.items()}, tables=old.tables,
                         stray={holders.get(p, p): v for p, v in old.stray.items()},
                         late={holders.get(p, p): v for p, v in old.late.items()})
        return req

    def decision_key(self, typed: str) -> str:
        """The decision `typed` names: its key, or the start of exactly one pending key
        ("gamewide" for "gamewide:Ann,Bo,Cy"); an ambiguous start lists the keys it could be.

        >>> from sheetbridge.api import play_random
        >>> m = play_random("three-modular-rooms", ["Ann", "Bo", "Cy"], seed=1)
        >>> all(m.decision_key(r.key[:3]) == r.key for r in m.pending()[:1])
        True
        """
        known = [r.key for r in self.requests()]
        if typed in known:
            return typed
        start = typed.strip().casefold()
        for keys in ([r.key for r in self.pending()], known):   # a pending key first, then one entered
            fits = [k for k in keys if start and k.casefold().startswith(start)]
            if len(fits) == 1:
                return fits[0]
            if fits:
                raise UsageError(f"decision {typed!r} could be {', '.join(fits)}; type more of the key")
        raise UsageError(f"no decision {typed!r} is asked for in {self.name}; "
                         + (f"asked: {', '.join(known)}" if known else "none is asked for now"))

    def _outcome_blocks(self) -> tuple[Block, ...]:
        out = self.outcome()
        if out is None:
            return ()
        # public: what the host still has to enter goes to the host log and `decide`, not here
        lines = outcome_lines(out, self.pending())
        standings = tuple(f"{p}: {s}" for p, s in out.standings)
        return (Block("Final result", tuple(lines)), Block("Final standings", standings))

    # ------------------------------------------------------------ JSON
    def to_json(self, rounds: bool = True) -> dict:
        """The match as its record holds it; `rounds=False` leaves out the rounds (the master's record
        keeps each round as an entry of its own, written once: host/record.py)."""
        return {"version": RECORD_VERSION, "game": self.game.spec.id, "name": self.name,
                "players": self.players, "options": self.options, "seed": self.seed,
                "tables": self.setup_tables, "undos": self.undos, "decisions": self.decisions,
                "position": self.position, **({"seats": self.seats} if self.seats else {}),
                **({"rounds": [r.to_json() for r in self.rounds]} if rounds else {}), "state": self.state,
                "state_version": self.game.state_version,
                "ledger": [r.as_list() for r in self.ledger.rows]}

    @classmethod
    def from_json(cls, game: GameRules, data: Mapping[str, Any], ledger_rows: Sequence[LedgerRow] | None = None,
                  tables: Tables | None = None) -> "Match":
        """A match of `game` from its record (:func:`sheetbridge.api.load_match` finds the game the
        record names). The ledger is the record's own (version 2) unless `ledger_rows` is given
        (version 1 kept none: its rows came from the Ledger tab)."""
        if data.get("version") not in READABLE_VERSIONS:
            raise ConfigError(f"this game record has version {data.get('version')!r}; "
                              f"this sheetbridge reads versions {', '.join(map(str, READABLE_VERSIONS))}")
        if data["game"] != game.spec.id:
            raise ConfigError(f"this record is a game of {data['game']!r}, not of {game.spec.id!r}")
        if ledger_rows is None:
            ledger_rows = [LedgerRow(*r) for r in data.get("ledger", [])]
        m = cls(game, data["name"], data["players"], data["options"], data["seed"], data["tables"],
                Ledger(data["name"], ledger_rows), [RoundRecord.from_json(r) for r in data["rounds"]],
                state=_state_now(game, data["state"], data.get("state_version", 1)), undos=data.get("undos", {}),
                decisions=data.get("decisions") or {}, position=data.get("position"), seats=data.get("seats"))
        m.setup_tables = data["tables"]
        if tables is not None:
            m.tables = _plain_tables(tables)
        for rec in m.rounds:   # reports are drawn from the facts with today's renderer, when first read
            if rec.facts:
                rec._public = rec._private = None
                rec._renderer = m._render
        return m

    # ------------------------------------------------------------ what if
    def preview(self, raw: Mapping[str, RawSubmission | None] | None = None,
                tables: Tables | None = None) -> RoundRecord:
        """What the open round would give with these submissions: a dry run on a copy. The match,
        its ledger and its record are untouched (the "show the calculation" of the lounge)."""
        clone = Match.from_json(self.game, json.loads(json.dumps(self.to_json())), list(self.ledger.rows),
                                tables=self.tables)
        return clone.resolve(raw, tables=tables)

    # ------------------------------------------------------------ checks
    def _check_player(self, player: str) -> None:
        if player not in self.players:
            raise UsageError(f"{player!r} is not a player of {self.name}; players are {', '.join(self.players)}")


def parse_options(game: GameRules, given: Mapping[str, Any]) -> dict[str, Any]:
    opts = game.spec.default_options()
    for key, text in given.items():
        try:
            opt = game.spec.option(key)
        except KeyError:
            known = ", ".join(o.name for o in game.spec.options) or "none"
            raise ConfigError(f"unknown option {key!r} for {game.spec.id}; options are: {known}") from None
        try:
            opts[key] = opt.parse(text)
        except ValueError as e:
            raise ConfigError(str(e)) from None
    return opts


def _state_now(game: GameRules, state: State, saved_version: int) -> State:
    """A recorded state in the shape the game has today: passed once through the game's
    ``upgrade_state`` when it was saved in an older shape (a record from before the version was
    written is version 1)."""
    if saved_version == game.state_version:
        return state
    if saved_version > game.state_version:
        raise ConfigError(f"this game record's state is version {saved_version} of {game.spec.name}; this "
                          f"sheetbridge reads up to version {game.state_version}: upgrade sheetbridge")
    return game.upgrade_state(state, saved_version)


def _balances(ledger: Ledger, players: Sequence[str]) -> dict[str, int]:
    """Every player's balance in one pass over the rows (Ledger.balances reads them once a player)."""
    totals = dict.fromkeys(players, 0)
    for row in ledger.rows:
        if row.player in totals:
            totals[row.player] += row.change
    return totals


def _has_content(raw: RawSubmission) -> bool:
    return any(v is not None and str(v).strip() for rows in raw.values() for row in rows for v in row.values())


_TEXT_TYPES = (str, int, float, bool, type(None))   # what a cell holds: nothing a caller can change in place


def _kept_copy(raw: RawSubmission | None) -> RawSubmission | None:
    """A copy of `raw` to compare a later submission with (None: not a plain submission, not kept)."""
    if type(raw) is not dict:
        return None
    out: dict[str, list[dict[str, Any]]] = {}
    for section, rows in raw.items():
        if type(rows) is not list or any(type(row) is not dict for row in rows):
            return None
        out[section] = [dict(row) for row in rows]
        if any(type(v) not in _TEXT_TYPES for row in rows for v in row.values()):
            return None
    return out


def _same_text(a: Any, b: Any) -> bool:
    """`a` and `b` hold the same values of the same types, keys in the same order (parse may read
    3 and "3" apart, and keeps the order of what it reads)."""
    if type(a) is not type(b):
        return False
    if type(a) is dict:
        return list(a) == list(b) and all(_same_text(a[k], b[k]) for k in a)
    if type(a) is list:
        return len(a) == len(b) and all(map(_same_text, a, b))
    return bool(a == b)


def _plain_raw(raw: RawSubmission | None) -> dict | None:
    if raw is None:
        return None
    return {s: [{k: ("" if v is None else str(v)) for k, v in row.items()} for row in rows]
            for s, rows in raw.items()}


def _canon(obj: Any) -> str:
    return json.dumps(to_json(obj), sort_keys=True)


def _as_recorded(replayed: Sequence[Any], recorded: Sequence[Any]) -> tuple[Any, ...]:
    """The replayed facts as a record written before a fact type gained a field would hold them.
    Such a field (default None) reads back from the old record as None; it is blanked in the
    replayed fact for the comparison only, so an older record still replays (and its undo works)
    while any other difference still fails."""
    if len(replayed) != len(recorded):
        return tuple(replayed)
    out = []
    for new, old in zip(replayed, recorded):
        if type(new) is type(old) and dataclasses.is_dataclass(new) and not isinstance(new, type):
            added = {f.name: None for f in dataclasses.fields(new)
                     if f.default is None and getattr(old, f.name) is None and getattr(new, f.name) is not None}
            new = dataclasses.replace(new, **added) if added else new
        out.append(new)
    return tuple(out)


def random_submissions(match: Match, rng: Rng, skip_chance: float = 0.0) -> dict[str, RawSubmission | None]:
    """Random legal submissions for every player (some left out with `skip_chance`)."""
    out: dict[str, RawSubmission | None] = {}
    for p in match.players:
        if skip_chance and rng.random() < skip_chance:
            out[p] = None
        else:
            out[p] = match.game.random_submission(match.state, p, rng.fork("player", p))
    return out


def play_random(game: GameRules, players: Sequence[str], seed: int | str = 0, *, tables: Tables,
                skip_chance: float = 0.1, garnets: int = 10, options: Mapping[str, Any] | None = None) -> Match:
    """Play a whole game with random legal submissions, purely in memory
    (:func:`sheetbridge.api.play_random` finds the game by id and its default tables)."""
    m = Match.new(game, players, seed=seed, options=options, tables=tables, garnets={p: garnets for p in players})
    rng = Rng.from_seed(seed, "random players")
    guard = 0
    while not m.finished:
        # The same submissions as random_submissions; with the values the game claims for them,
        # which the match's checks compare with what parse reads.
        raw: dict[str, RawSubmission | None] = {}
        known: dict[str, Mapping[str, Any]] = {}
        for p in m.players:
            if skip_chance and rng.random() < skip_chance:
                raw[p] = None
                continue
            raw[p], values = m.game.random_play(m.state, p, rng.fork("player", p))
            if values is not None:
                known[p] = values
        m.resolve(raw, known=known)
        guard += 1
        if guard > 200:
            raise SheetbridgeError(f"{game.spec.id} did not finish after 200 rounds")
    return m
