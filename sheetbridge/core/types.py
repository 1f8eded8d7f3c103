"""The plain data every game speaks: its spec, a player's form, parsed
submissions and their problems, reports, ledger entries and the outcome.

Everything here is immutable and converts to and from JSON-able dicts, so a
round's inputs and outputs can be recorded in the master workbook and replayed.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any, Mapping, Sequence

State = dict  # a game's state: JSON-able dict; keys "round" (int) and "finished" (bool) are required
Tables = Mapping[str, Sequence[Sequence[str]]]  # host-editable content: table name -> rectangle of strings
RawSubmission = Mapping[str, Sequence[Mapping[str, str]]]  # section -> rows -> field -> text as typed


# --------------------------------------------------------------------- spec

class FieldKind(enum.Enum):
    CHOICE = "choice"    # one of `choices`; drawn as a dropdown
    INTEGER = "integer"  # whole number within [minimum, maximum]
    YESNO = "yesno"      # "yes" or "no"; a dropdown
    TEXT = "text"        # free text (names, shorthand lists)


@dataclass(frozen=True)
class Field:
    """One input cell of a player's Submission tab."""
    name: str
    label: str
    kind: FieldKind = FieldKind.TEXT
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    required: bool = True
    help: str = ""

    def allowed(self) -> str:
        """Human text for what this field allows, used in every error message."""
        if self.kind is FieldKind.CHOICE:
            shown = ", ".join(self.choices[:20]) + (", ..." if len(self.choices) > 20 else "")
            return f"one of {shown}" if self.choices else "nothing this round"
        if self.kind is FieldKind.YESNO:
            return "yes or no"
        if self.kind is FieldKind.INTEGER:
            lo = "" if self.minimum is None else str(self.minimum)
            hi = "" if self.maximum is None else str(self.maximum)
            return f"a whole number from {lo} to {hi}" if lo and hi else "a whole number"
        return self.help or "text"


@dataclass(frozen=True)
class Section:
    """A block of the Submission tab: a header row of fields and `rows` input rows.

    A one-row section is a simple form (card and room); a many-row section is a
    list (one action per row). `row_labels` name the rows (e.g. crewmates).
    """
    name: str
    title: str
    fields: tuple[Field, ...]
    rows: int = 1
    row_labels: tuple[str, ...] = ()
    help: str = ""


@dataclass(frozen=True)
class Form:
    """What one player may submit this round. Drives the Submission tab."""
    round: int
    round_label: str
    sections: tuple[Section, ...]
    help: tuple[str, ...] = ()

    def section(self, name: str) -> Section:
        for s in self.sections:
            if s.name == name:
                return s
        raise KeyError(name)


@dataclass(frozen=True)
class Option:
    """A host option: a named switch where hosts could disagree (the rulings' A-numbers)."""
    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] = ()
    ruling: str = ""  # e.g. "A3"

    def parse(self, text: Any) -> Any:
        """Convert the host's cell text to the option's type; ValueError says what is allowed."""
        if text is None or (isinstance(text, str) and text.strip() == ""):
            return self.default
        d = self.default
        if isinstance(d, bool):
            t = str(text).strip().lower()
            if t in ("true", "yes", "1", "on"):
                return True
            if t in ("false", "no", "0", "off"):
                return False
            raise ValueError(f"option {self.name}: {text!r} is not allowed; use true or false")
        if isinstance(d, int) and not isinstance(d, bool):
            try:
                v = int(float(str(text).strip()))
            except ValueError:
                raise ValueError(f"option {self.name}: {text!r} is not a whole number") from None
        elif isinstance(d, float):
            try:
                v = float(str(text).strip())
            except ValueError:
                raise ValueError(f"option {self.name}: {text!r} is not a number") from None
        else:
            v = str(text).strip()
        if self.choices and v not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise ValueError(f"option {self.name}: {text!r} is not allowed; use one of {allowed}")
        return v


@dataclass(frozen=True)
class TableSpec:
    """Host-editable content shipped as a default in templates/<game-id>/<file>."""
    name: str   # the tab name in the master workbook
    file: str   # default content, a CSV file in templates/<game-id>/
    help: str


@dataclass(frozen=True)
class GameSpec:
    id: str
    name: str
    min_players: int
    max_players: int
    rounds: int
    summary: str
    options: tuple[Option, ...] = ()
    tables: tuple[TableSpec, ...] = ()
    recommended_players: int | None = None

    def option(self, name: str) -> Option:
        for o in self.options:
            if o.name == name:
                return o
        raise KeyError(name)

    def default_options(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}


# ---------------------------------------------------------------- problems

class ProblemKind(enum.Enum):
    SYNTAX = "syntax"    # cannot be read: "seven" for a card
    ILLEGAL = "illegal"  # readable but against the rules: a card already played
    MISSING = "missing"  # nothing submitted where something was required


@dataclass(frozen=True)
class Problem:
    """One thing wrong with one player's submission, and what the rules did about it."""
    kind: ProblemKind
    player: str
    field: str
    value: str
    allowed: str
    reason: str = ""
    default: str = ""  # what was applied instead, e.g. "a random card"

    @property
    def message(self) -> str:
        what = f"{self.field} = {self.value!r}" if self.value != "" else f"{self.field} is blank"
        text = f"{self.player}: {what}"
        if self.reason:
            text += f" ({self.reason})"
        text += f"; allowed: {self.allowed}"
        if self.default:
            text += f"; applied: {self.default}"
        return text


@dataclass(frozen=True)
class Submission:
    """A parsed submission: `values` is game-specific JSON-able data; invalid parts are absent."""
    player: str
    values: Mapping[str, Any]
    problems: tuple[Problem, ...] = ()
    raw: RawSubmission = field(default_factory=dict)

    @property
    def valid(self) -> bool:
        return not self.problems


# ----------------------------------------------------------------- reports

@dataclass(frozen=True)
class Cell:
    """A cell of a drawn board: text and an optional fill colour (RRGGBB)."""
    text: str = ""
    fill: str | None = None
    bold: bool = False
    font: str | None = None  # font colour RRGGBB


@dataclass(frozen=True)
class Block:
    """A titled piece of a report: lines of text and/or a grid of cells (board or table)."""
    title: str
    lines: tuple[str, ...] = ()
    grid: tuple[tuple[Cell, ...], ...] = ()
    legend: tuple[tuple[str, str], ...] = ()  # (label, fill) pairs shown under a grid


@dataclass(frozen=True)
class Report:
    title: str
    blocks: tuple[Block, ...] = ()

    def text(self) -> str:
        """Plain text of everything in the report (used by previews and privacy checks)."""
        out = [self.title]
        for b in self.blocks:
            out.append(b.title)
            out.extend(b.lines)
            for row in b.grid:
                out.append(" | ".join(c.text for c in row))
        return "\n".join(out)


@dataclass(frozen=True)
class LedgerEntry:
    """A garnet change produced by a round. The orchestrator assigns its unique key."""
    player: str
    change: int
    reason: str
    memo: str = ""  # host-only detail (e.g. the card face bought)
    counterparty: str = ""


@dataclass(frozen=True)
class Award:
    """Something that is not a garnet: Tokens of Life, opals, cosmos."""
    player: str
    kind: str
    count: int
    reason: str


@dataclass(frozen=True)
class RoundInput:
    round: int
    submissions: Mapping[str, Submission | None]  # None: nothing submitted
    balances: Mapping[str, int]                   # garnets at the start of resolution
    tables: Tables
    decisions: Mapping[str, Any] = field(default_factory=dict)  # entered host decisions, by request key


@dataclass(frozen=True)
class RoundResult:
    """What `resolve` returns. A game that renders from facts (``GameRules.render``) leaves
    ``public`` None and ``private`` empty: Match draws every report from ``facts``."""
    state: State
    public: Report | None = None
    private: Mapping[str, Report] = field(default_factory=dict)
    ledger: tuple[LedgerEntry, ...] = ()
    host_log: tuple[str, ...] = ()  # master-only trace: random draws, defaults applied, decisions
    facts: tuple[Any, ...] = ()     # the round as typed records (core.facts.Fact subclasses)
    requests: tuple[Any, ...] = ()  # decisions the round leaves to the host (core.decisions.DecisionRequest)


@dataclass(frozen=True)
class Outcome:
    """How the game ended: who won and why, who goes to the Elimination Candidate."""
    winners: tuple[str, ...]
    losers: tuple[str, ...]
    elimination_candidate: str | None
    standings: tuple[tuple[str, str], ...]  # (player, score text), best first
    reasons: tuple[str, ...]
    awards: tuple[Award, ...] = ()
    pending: tuple[str, ...] = ()  # decisions the host still has to enter (e.g. an EC vote)
    requests: tuple[Any, ...] = () # those decisions as DecisionRequests (entered ones are applied, not listed)
    facts: tuple[Any, ...] = ()    # the end of the game as typed records (the reveal, final scores)
    scores: Mapping[str, float] = field(default_factory=dict)  # each player's final score, as a number
    ending: str = ""               # how the game ended, a short code ("rounds_out", "sequence", "parasite")


# ------------------------------------------------------------------- JSON

_TYPES: dict[str, type] = {}


def type_tag(c: type) -> str:
    """How a record names a type: the bare name for sheetbridge's core types, the module-qualified
    name for a game's own (two games may both have a ``SubmissionProblem``)."""
    if c.__module__.startswith("sheetbridge.core"):
        return c.__name__
    module = c.__module__.removeprefix("sheetbridge.games.")   # a built-in game: its module's name suffices
    return f"{module}.{c.__qualname__}"


def _register(*classes: type) -> None:
    for c in classes:
        _TYPES[type_tag(c)] = c


_register(Field, Section, Form, Option, TableSpec, Problem, Submission, Cell, Block,
          Report, LedgerEntry, Award, RoundInput, RoundResult, Outcome)


def to_json(obj: Any) -> Any:
    """Dataclasses and enums to JSON-able data, tagged so `from_json` can rebuild them."""
    if is_dataclass(obj) and not isinstance(obj, type):
        out: dict[str, Any] = {"__t": type_tag(type(obj))}
        for f in fields(obj):
            out[f.name] = to_json(getattr(obj, f.name))
        return out
    if isinstance(obj, enum.Enum):
        return {"__e": type_tag(type(obj)), "v": obj.value}
    if isinstance(obj, Mapping):
        return {str(k): to_json(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_json(v) for v in obj]
    return obj


_ENUMS = {"FieldKind": FieldKind, "ProblemKind": ProblemKind}


def from_json(data: Any) -> Any:
    if isinstance(data, dict):
        if "__t" in data:
            cls = _TYPES[data["__t"]]
            kwargs = {}
            for f in fields(cls):
                if f.name in data:
                    v = from_json(data[f.name])
                    kwargs[f.name] = _tuplify(v) if isinstance(v, list) else v
            return cls(**kwargs)
        if "__e" in data:
            return _ENUMS[data["__e"]](data["v"])
        return {k: from_json(v) for k, v in data.items()}
    if isinstance(data, list):
        return [from_json(v) for v in data]
    return data


def _tuplify(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_tuplify(x) for x in v)
    return v


def register_types(*classes: type) -> None:
    """Let `from_json` rebuild these dataclasses and enums (a game's facts, decisions, pictures)."""
    for c in classes:
        if isinstance(c, type) and issubclass(c, enum.Enum):
            _ENUMS[type_tag(c)] = c
        else:
            _register(c)
