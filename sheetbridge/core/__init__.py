"""The pure core: game contract, data types, seeded randomness, ledger and record."""
from .errors import (BackendError, ConfigError, LedgerError, SheetbridgeError,
                     UsageError, WorkbookError)
from .game import GameRules, games, get_game, register
from .rng import Rng, derive_seed
from .types import (Award, Block, Cell, Field, FieldKind, Form, GameSpec, LedgerEntry,
                    Option, Outcome, Problem, ProblemKind, RawSubmission, Report,
                    RoundInput, RoundResult, Section, State, Submission, TableSpec, Tables)

__all__ = [n for n in dir() if not n.startswith("_")]
