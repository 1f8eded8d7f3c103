"""The plain data every game speaks: its spec, a player's form, parsed
submissions and their problems, reports, ledger entries and the outcome.

Everything here is immutable and converts to and from JSON-able dicts, so a
round's inputs and outputs can be recorded in the master workbook and replayed.
"""
from __future__ import annotations

import enum
import json as _json
import re
from dataclasses import dataclass, field, fields
from typing import Any, Mapping, Sequence

from .parsing import YES_NO_HELP, shorten
# The spec's classes live in the light spec.py (listing the games needs them alone); here as before.
from .spec import OPTION_KINDS, GameSpec, Option, TableSpec  # noqa: F401  (re-exported)

State = dict  # a game's state: JSON-able dict; keys "round" (int) and "finished" (bool) are required
Tables = Mapping[str, Sequence[Sequence[str]]]  # host-editable content: table name -> rectangle of strings
RawSubmission = Mapping[str, Sequence[Mapping[str, str]]]  # section -> rows -> field -> text as typed


# --------------------------------------------------------------------- spec

class FieldKind(enum.Enum):
    CHOICE = "choice"    # one of `choices`; drawn as a dropdown
    INTEGER = "integer"  # whole number within [minimum, maximum]
    YESNO = "yesno"      # "yes" or "no" (also y/n, TRUE/FALSE); a dropdown
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

    def allowed(self, every: bool = False) -> str:
        """Human text for what this field allows, used in every error message (a long list of
        choices cut after 20; `every`: all of them, for the form's help)."""
        if self.kind is FieldKind.CHOICE:
            cut = not every and len(self.choices) > 20
            shown = ", ".join(self.choices[:20] if cut else self.choices) + (", ..." if cut else "")
            return f"one of {shown}" if self.choices else "nothing this round"
        if self.kind is FieldKind.YESNO:
            return YES_NO_HELP
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

    def cell_label(self, section: Section, row: int, fld: Field) -> str:
        """What the player sees for one cell: the field's label, with its row in a list.

        >>> crew = Section("crew", "Your crewmates", (Field("move_to", "Move to"),), rows=2,
        ...                row_labels=("Zed (in 1A)", "Kim (in 2B)"))
        >>> give = Section("give", "Give cogs (optional)", (Field("to", "To"), Field("cogs", "Cogs")), rows=2)
        >>> form = Form(1, "Round 1", (crew, give))
        >>> form.cell_label(crew, 1, crew.fields[0]), form.cell_label(give, 0, give.fields[0])
        ('Kim: Move to', 'Give cogs, row 1: To')
        """
        if section.rows <= 1:
            return fld.label
        where = _row_name(section, row)
        if where and not where.isdigit() and self._row_field_unique(where, fld.label):
            return f"{where}: {fld.label}"
        if (not where or where.isdigit()) and len(section.fields) == 1 and self._list_field_unique(fld.label):
            return f"{fld.label} {row + 1}"  # a numbered list of one field: "Action 3"
        return f"{_short(section.title)}, {where if where and not where.isdigit() else f'row {row + 1}'}: {fld.label}"

    def _list_field_unique(self, label: str) -> bool:
        return sum(1 for s in self.sections if s.rows > 1 for f in s.fields if f.label == label) <= 1

    def _row_field_unique(self, where: str, label: str) -> bool:
        seen = sum(1 for s in self.sections if s.rows > 1 for i in range(s.rows) for f in s.fields
                   if f.label == label and _row_name(s, i) == where)
        return seen <= 1

    def label_for(self, name: str) -> str:
        """The player-facing label of a problem's `field` as games name it, or "" if the form
        has no such cell. Games name a cell by its field id ("card"), with the row before it
        ("Zed move_to", "crewmate 1 name") or after it ("action 3", "accept M2"), or by the
        section and row ("spaces row 1", "give row 1 to", "central 1st"); a section alone
        ("actions") names the whole list.

        >>> crew = Section("crew", "Your crewmates", (Field("move_to", "Move to"),), rows=2,
        ...                row_labels=("Zed (in 1A)", "Kim (in 2B)"))
        >>> acts = Section("actions", "Actions, in order (one per row)", (Field("action", "Action"),), rows=3)
        >>> form = Form(1, "Round 1", (Section("play", "Your play", (Field("card", "Card"),)), crew, acts))
        >>> [form.label_for(n) for n in ("card", "Kim move_to", "action 3", "actions", "nothing")]
        ['Card', 'Kim: Move to', 'Action 3', 'Actions, in order', '']
        """
        words = name.split()
        for sec in self.sections:
            for fld in sec.fields:
                if name == fld.name:
                    return fld.label
        for sec in self.sections:
            for fld in sec.fields:
                if fld.name not in words:
                    continue
                rest = [w for w in words if w != fld.name]
                if sec.name in rest and len(sec.fields) > 1:
                    rest.remove(sec.name)
                row = _find_row(sec, " ".join(rest))
                if row is not None:
                    return self.cell_label(sec, row, fld)
                return f"{' '.join(rest)}: {fld.label}" if rest else fld.label
        for sec in self.sections:
            if sec.name not in words:
                continue
            rest_text = " ".join(w for w in words if w != sec.name)
            row = _find_row(sec, rest_text)
            if row is None:
                return _short(sec.title)
            if len(sec.fields) == 1:
                return self.cell_label(sec, row, sec.fields[0])
            where = _row_name(sec, row)
            return f"{_short(sec.title)}, {where if where and not where.isdigit() else f'row {row + 1}'}"
        return ""


def _short(title: str) -> str:
    """A section title or row label without its trailing note: "Give cogs (optional)" -> "Give cogs"."""
    return re.sub(r"\s*\([^()]*\)\s*$", "", title).split(": ")[0].strip() or title


def _row_name(section: Section, row: int) -> str:
    label = section.row_labels[row] if row < len(section.row_labels) else ""
    return _short(label) if label else ""


def _find_row(section: Section, text: str) -> int | None:
    """The row `text` names: "row 2", "2", a row label, or the start of one ("Zed" for "Zed (in 1A)")."""
    t = text.strip().casefold()
    if not t or section.rows <= 1:
        return None
    for i in range(section.rows):  # labels first: a crewmate may be named "2"
        label = section.row_labels[i] if i < len(section.row_labels) else ""
        if label and t in (label.casefold(), _short(label).casefold()):
            return i
    m = re.fullmatch(r"(?:row\s*)?(\d+)", t)
    if m:
        n = int(m.group(1)) - 1
        return n if 0 <= n < section.rows else None
    return None


# ---------------------------------------------------------------- problems

class ProblemKind(enum.Enum):
    SYNTAX = "syntax"    # cannot be read: "seven" for a card
    ILLEGAL = "illegal"  # readable but against the rules: a card already played
    MISSING = "missing"  # nothing submitted where something was required


@dataclass(frozen=True)
class Problem:
    """One thing wrong with one player's submission, and what the rules did about it.

    `field` is the game's name for the cell ("card", "Zed move_to"); `label` is what the
    player sees in the Submission tab ("Card", "Zed: Move to"), filled by ``Match.parse``
    from the form. `value` is echoed shortened (control characters escaped), never whole.
    Player-facing texts (reason, allowed, default) cite no ruling numbers.

    >>> Problem(ProblemKind.SYNTAX, "Bo", "card", "seven", "one of 1, 2", "not a card number",
    ...         "a random card", label="Card").message
    "Bo: Card = 'seven' (not a card number); allowed: one of 1, 2; applied: a random card"
    """
    kind: ProblemKind
    player: str
    field: str
    value: str
    allowed: str
    reason: str = ""
    default: str = ""  # what was applied instead, e.g. "a random card"
    label: str = ""    # the field as the player sees it; "" falls back to `field`

    @property
    def message(self) -> str:
        return f"{self.player}: {self.text}"

    def text_for(self, viewer: str) -> str:
        """The problem as `viewer` reads it in their own report: their own without their name.

        >>> Problem(ProblemKind.MISSING, "Bo", "card", "", "one of 1, 2").text_for("Bo")
        'card is blank; allowed: one of 1, 2'
        """
        return self.text if viewer == self.player else self.message

    @property
    def text(self) -> str:
        """The problem without the player's name."""
        name = self.label or self.field
        text = f"{name} = '{shorten(self.value)}'" if self.value != "" else f"{name} is blank"
        if self.reason:
            text += f" ({self.reason})"
        text += f"; allowed: {self.allowed}"
        if self.default:
            text += f"; applied: {self.default}"
        return text


@dataclass(frozen=True)
class Notice:
    """A value read after normalisation (fullwidth, other scripts' digits, Unicode minus):
    not a problem, the submission stays valid, but the player is told privately (their
    Results) and the host sees it in the dry run. Made by ``Match.parse`` for every cell
    whose text the reading rule (``core.parsing.normalise``) changed.

    >>> Notice("Ann", "card", "Card", "\u0663", "3").message
    "Ann: Card: read '\u0663' as 3"
    """
    player: str
    field: str
    label: str
    value: str    # as typed, shortened
    read_as: str  # as read, shortened

    @property
    def text(self) -> str:
        return f"{self.label or self.field}: read '{shorten(self.value)}' as {shorten(self.read_as)}"

    @property
    def message(self) -> str:
        return f"{self.player}: {self.text}"


@dataclass(frozen=True)
class Submission:
    """A parsed submission: `values` is game-specific JSON-able data; invalid parts are absent.
    `notices` say how non-plain text was read; they do not make a submission invalid."""
    player: str
    values: Mapping[str, Any]
    problems: tuple[Problem, ...] = ()
    raw: RawSubmission = field(default_factory=dict)
    notices: tuple[Notice, ...] = ()

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
    requests: tuple[Any, ...] = () # the decisions it depends on (DecisionRequests; entered ones stay listed,
                                   # so the host can correct them; Match.pending() gives those not entered)
    facts: tuple[Any, ...] = ()    # the end of the game as typed records (the reveal, final scores)
    scores: Mapping[str, float] = field(default_factory=dict)  # each player's final score, as a number
    ending: str = ""               # how the game ended, a short code ("rounds_out", "sequence", "parasite")
    host_log: tuple[str, ...] = () # master-only trace of the end (e.g. the winners' ballots and their tally)


# ------------------------------------------------------------------- JSON

_TYPES: dict[str, type] = {}


def type_tag(c: type) -> str:
    """How a record names a type: the bare name for sheetbridge's core types, the module-qualified
    name for a game's own (two games may both have a ``SubmissionProblem``)."""
    if c.__module__.startswith("sheetbridge.core"):
        return c.__name__
    if c.__module__.startswith("sheetbridge.games."):
        # Pinned to the game, not the file: a type keeps its tag when it moves between the chapters
        # of its game's package (sheetbridge.games.skeld.facts.X is "skeld.X", as when skeld was one
        # module), so records written before the move still load (tests/test_old_records.py).
        game = c.__module__.split(".")[2]
        return f"{game}.{c.__qualname__}"
    return f"{c.__module__}.{c.__qualname__}"


def registered_types() -> tuple[type, ...]:
    """Every dataclass registered for records, in the order registered (a game's: as it defines them)."""
    return tuple(_TYPES.values())


def _register(*classes: type) -> None:
    for c in classes:
        _TYPES[type_tag(c)] = c


_register(Field, Section, Form, Option, TableSpec, Problem, Notice, Submission, Cell, Block,
          Report, LedgerEntry, Award, RoundInput, RoundResult, Outcome)


def to_json(obj: Any) -> Any:
    """Dataclasses and enums to JSON-able data, tagged so `from_json` can rebuild them. A record
    holds tens of thousands of values: plain ones, and a class's field names, are found without
    asking `typing.Mapping` (whose isinstance is slow) first."""
    cls = obj.__class__
    if cls in _PLAIN:
        return obj
    names = _FIELD_NAMES.get(cls)
    if names is None and hasattr(cls, "__dataclass_fields__"):   # (is_dataclass of obj's class: a dataclass
        # *class* itself is not converted)
        names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
    if names is not None:
        out: dict[str, Any] = {"__t": _tag_of(cls)}
        for name in names:
            out[name] = to_json(getattr(obj, name))
        return out
    if cls is dict:
        return {str(k): to_json(v) for k, v in obj.items()}
    if cls is list or cls is tuple:
        return [to_json(v) for v in obj]
    if isinstance(obj, enum.Enum):
        return {"__e": _tag_of(cls), "v": obj.value}
    if isinstance(obj, Mapping):
        return {str(k): to_json(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [to_json(v) for v in obj]
    return obj


_TAGS: dict[type, str] = {}


def _tag_of(cls: type) -> str:
    tag = _TAGS.get(cls)
    if tag is None:
        tag = _TAGS[cls] = type_tag(cls)
    return tag


_ENUMS = {"FieldKind": FieldKind, "ProblemKind": ProblemKind}


def from_json(data: Any) -> Any:
    """What :func:`to_json` wrote, rebuilt: tagged dataclasses and enums, lists in a dataclass's
    fields as tuples (nested ones too). A record holds tens of thousands of these: a class's field
    names are looked up once, and a plain value inside a container is kept without a call for it
    (tests/test_fast_paths_read.py compares this with the plain recursion)."""
    kind = data.__class__
    if kind in _PLAIN:
        return data
    if kind is list:
        return [v if v.__class__ in _PLAIN else from_json(v) for v in data]
    if isinstance(data, dict):
        tag = data.get("__t")
        if tag is not None:
            cls = _TYPES[tag]
            names = _FIELD_NAMES.get(cls)
            if names is None:
                names = _FIELD_NAMES[cls] = tuple(f.name for f in fields(cls))
            values = {}
            for name in names:
                if name in data:
                    v = data[name]
                    inner = v.__class__
                    values[name] = v if inner in _PLAIN else _as_tuple(v) if inner is list else from_json(v)
            return cls(**values)
        if "__e" in data:
            return _ENUMS[data["__e"]](data["v"])
        return {k: v if v.__class__ in _PLAIN else from_json(v) for k, v in data.items()}
    if isinstance(data, list):
        return [from_json(v) for v in data]
    return data


_PLAIN = frozenset({str, int, float, bool, type(None)})
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}


def _as_tuple(data: list) -> tuple:
    """A list in a dataclass's field: a tuple, and so is every list directly in it."""
    return tuple([v if v.__class__ in _PLAIN else _as_tuple(v) if v.__class__ is list else from_json(v)
                  for v in data])


def register_types(*classes: type) -> None:
    """Let `from_json` rebuild these dataclasses and enums (a game's facts, decisions, pictures)."""
    for c in classes:
        if isinstance(c, type) and issubclass(c, enum.Enum):
            _ENUMS[type_tag(c)] = c
        else:
            _register(c)


def fresh(state: Any) -> Any:
    """A deep copy of JSON-able data (a game's state), several times faster than copy.deepcopy:
    what a game's resolve starts from so that its input is never changed.

    >>> s = {"hands": {"Ann": [1, 2]}}
    >>> t = fresh(s); t["hands"]["Ann"].append(3); s
    {'hands': {'Ann': [1, 2]}}
    """
    return _json.loads(_json.dumps(state))
