"""The checks every game passes, offered to authors of game plugins: one line in their tests.

    from sheetbridge.testing import check_game
    from mygame.rules import GAME

    def test_my_game_follows_the_sheetbridge_contract():
        check_game(GAME)

:func:`check_game` plays whole random games and fails with a message saying which promise
the game broke: games end with an outcome; the same seed gives the same record and another
seed a different one; the record survives JSON and replays exactly; undo then redo gives the
same round; parse never raises, whatever a player types; resolve never changes its input; the
module does no I/O, reads no clock and no global random; reports are drawn from the facts each
viewer may see; and (with ``files=True``) no player's file holds another player's secrets.
"""
from __future__ import annotations

import ast
import inspect
import json
import sys
import tempfile
from pathlib import Path
from typing import Any, Sequence

from .api import get_game, load_match, new_match, play_random
from .core.game import GameRules
from .core.match import Match, random_submissions
from .core.rng import Rng
from .core.types import to_json

# Modules a game may not use: files, network, clock, global random, and sheetbridge's I/O side.
FORBIDDEN_IMPORTS = {"os", "pathlib", "io", "openpyxl", "gspread", "requests", "time", "datetime", "random",
                     "pandas", "socket", "urllib", "http", "subprocess", "shutil", "tempfile", "secrets", "uuid",
                     "sheetbridge.sheets", "sheetbridge.host", "sheetbridge.cli", "sheetbridge.templates"}
FORBIDDEN_CALLS = {"open", "input", "print", "__import__", "exec", "eval"}
GARBAGE = ("seven", "=1+1", "=IMPORTRANGE(\"x\",\"A1\")", "-999", "99999999999", "9" * 5000, "\U0001f4a5", "  ",
           "None", "1,2,3,4,5,6,7,8,9", "\u00b2", "\uff15", "\u0663", "x", "\x00\x07", "a" * 100_000)


class ConformanceError(AssertionError):
    """A game broke one of the promises every sheetbridge game keeps."""


def impure_uses(source: str, built_in: bool = False, package: str | None = None) -> list[str]:
    """Imports and calls in a game's source that do I/O, read the clock or use global random.
    `package`: the package of a built-in game's module (``__package__``), which places its relative imports.

    >>> impure_uses("import random\\nfrom sheetbridge.core.rng import Rng")
    ['random']
    >>> impure_uses("from ...core.rng import Rng\\nfrom .facts import X\\nfrom ...sheets import xlsx", True,
    ...             "sheetbridge.games.coin")
    ['...sheets']
    """
    bad = []
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level >= 1 and built_in:
            # a built-in game (sheetbridge/games/x.py, or the chapters of sheetbridge/games/x/) may use
            # the pure core and its own chapters only
            if not _core_or_own(node, package):
                bad.append("." * node.level + (node.module or ""))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FORBIDDEN_CALLS:
            bad.append(node.func.id + "()")
        for name in names:
            parts = name.split(".")
            if any(".".join(parts[:i]) in FORBIDDEN_IMPORTS for i in range(1, len(parts) + 1)):
                bad.append(name)
                break
    return bad


def _core_or_own(node: ast.ImportFrom, package: str | None) -> bool:
    """A built-in game's relative import reaches sheetbridge's core or the game's own package."""
    if package is None:   # placed as sheetbridge/games/x.py
        return node.level == 2 and (node.module or "").split(".")[0] == "core"
    parts = package.split(".")
    target = ".".join(parts[:len(parts) - (node.level - 1)] + ([node.module] if node.module else []))
    own = ".".join(package.split(".")[:3])   # sheetbridge.games.<game>
    return (target.startswith("sheetbridge.core.") or target == "sheetbridge.core"
            or (own != "sheetbridge.games" and (target == own or target.startswith(own + "."))))


def _fail(game: GameRules, what: str) -> ConformanceError:
    return ConformanceError(f"{game.spec.id}: {what}")


def _players(game: GameRules, players: Sequence[str] | None) -> list[str]:
    if players:
        return list(players)
    n = game.spec.recommended_players or game.spec.min_players
    n = max(game.spec.min_players, min(n, game.spec.max_players or n))
    return [f"P{i + 1}" for i in range(n)]


def check_game(game: GameRules | str, players: Sequence[str] | None = None, seeds: Sequence[int] = (1, 2, 3),
               *, files: bool = False) -> None:
    """Run every conformance check on `game` (an instance or a registered id); raise
    ConformanceError naming the first promise broken. ``files=True`` also plays a demo on real
    xlsx files and checks that no player's file holds another player's secrets (slower)."""
    if isinstance(game, str):
        game = get_game(game)
    if not isinstance(game, GameRules):
        raise ConformanceError(f"{game!r} is not a GameRules game")
    from .games import registry
    registry.games()   # built-in and installed games first, so a plugin checked here stays registered
    registered = registry._REGISTRY.get(game.spec.id)
    if registered is not game:
        # The host (a demo on files) looks games up by id: a game under test that is not registered joins for the check.
        registry._REGISTRY[game.spec.id] = game
    try:
        names = _players(game, players)
        _check_purity(game)
        for seed in seeds:
            _check_full_game(game, names, seed)
        _check_determinism(game, names)
        _check_json_and_replay(game, names)
        _check_undo_redo(game, names)
        _check_parse_never_raises(game, names)
        if files:
            _check_files_privacy(game, names)
    finally:
        if registered is not game:
            if registered is None:
                registry._REGISTRY.pop(game.spec.id, None)
            else:
                registry._REGISTRY[game.spec.id] = registered


def _check_purity(game: GameRules) -> None:
    """Every module the game's class is written in (its own and its bases', sheetbridge's core aside),
    and, for a game package (its class in ``<package>.game``), every chapter of that package."""
    names = {c.__module__ for c in type(game).__mro__} - {"builtins", "abc"}
    packages = {n.rpartition(".")[0] for n in names if n.endswith(".game")}
    names |= {m for m in list(sys.modules) for p in packages if m.startswith(p + ".")}
    for name in sorted(n for n in names if not n.startswith("sheetbridge.core")):
        module = sys.modules.get(name)
        try:
            source = inspect.getsource(module) if module is not None else ""
        except (OSError, TypeError):
            continue   # no source to read (a compiled module): nothing to check
        bad = impure_uses(source, built_in=name.startswith("sheetbridge.games."),
                          package=getattr(module, "__package__", None))
        if bad:
            raise _fail(game, f"its module {name} uses I/O, the clock or global random: {', '.join(bad)}; a game "
                              "is a pure function of its state, the submissions and the seeded rng it is given")


def _check_full_game(game: GameRules, names: list[str], seed: int) -> Match:
    try:
        m = play_random(game, names, seed=seed)
    except ConformanceError:
        raise
    except Exception as e:
        raise _fail(game, f"a random game (seed {seed}) failed: {type(e).__name__}: {e}") from e
    out = m.outcome()
    if out is None or not (out.winners or out.requests):
        raise _fail(game, f"a finished game (seed {seed}) must have an outcome naming its winner(s), or the "
                          "decision it waits for (Outcome.requests)")
    if not set(out.winners) <= set(m.players):
        raise _fail(game, f"the outcome names winners who are not players: {out.winners}")
    for p in m.players:
        if m.ledger.balance(p) < 0:
            raise _fail(game, f"{p}'s garnets went negative (seed {seed})")
    for rec in m.rounds:
        if rec.facts:
            _check_rendered_from_facts(game, m, rec)
    return m


def _check_rendered_from_facts(game: GameRules, m: Match, rec: Any) -> None:
    from .core.facts import PUBLIC, visible
    for p in m.players:
        mine = tuple(f for f in rec.facts if f.audience == PUBLIC or p in f.audience)
        if visible(rec.facts, p) != mine or m.render(rec.facts, p, rec.round) != rec.private.get(p):
            raise _fail(game, f"round {rec.round}: {p}'s report is not drawn from the facts {p} may see")


def _canon(m: Match) -> str:
    return json.dumps(m.to_json(), sort_keys=True)


def _check_determinism(game: GameRules, names: list[str]) -> None:
    a, b = play_random(game, names, seed=11), play_random(game, names, seed=11)
    if _canon(a) != _canon(b) or [r.as_list() for r in a.ledger.rows] != [r.as_list() for r in b.ledger.rows]:
        raise _fail(game, "the same seed gave different records: break ties by a stated order and draw only from "
                          "the rng you are given (never set or dict order)")
    c = play_random(game, names, seed=12)
    if _canon(a) == _canon(c):
        raise _fail(game, "two different seeds gave the same game: use the rng for every random draw")


def _check_json_and_replay(game: GameRules, names: list[str]) -> None:
    m = play_random(game, names, seed=5)
    data = json.loads(json.dumps(m.to_json()))
    back = load_match(data, m.ledger.rows, game=game)
    if back.state != m.state:
        raise _fail(game, "the state does not survive JSON (use only dicts, lists, str, int, float, bool, None)")
    try:
        back.replay()
    except Exception as e:
        raise _fail(game, f"replaying the record failed: {e}") from e


def _check_undo_redo(game: GameRules, names: list[str]) -> None:
    m = new_match(game, names, seed=3, garnets={p: 10 for p in names})
    rng = Rng.from_seed(3, "conformance")
    m.resolve(random_submissions(m, rng))
    if m.finished:
        return
    raw = random_submissions(m, rng)
    before, balances = json.dumps(m.state, sort_keys=True), m.ledger.balances(m.players)
    first = m.resolve(raw)
    m.undo()
    if json.dumps(m.state, sort_keys=True) != before or m.ledger.balances(m.players) != balances:
        raise _fail(game, "undo did not restore the state and the garnet balances")
    again = m.resolve(raw)
    if json.dumps(to_json(again.private), sort_keys=True) != json.dumps(to_json(first.private), sort_keys=True):
        raise _fail(game, "resolving the same round again after undo gave a different result")


def _check_parse_never_raises(game: GameRules, names: list[str]) -> None:
    m = new_match(game, names, seed=1)
    p = m.players[0]
    form = m.form(p)
    for text in GARBAGE:
        raw = {s.name: [{f.name: text for f in s.fields} for _ in range(s.rows)] for s in form.sections}
        try:
            if len(text) <= 200:   # longer cells are capped before a game sees them (Match.parse)
                game.parse(m.state, p, raw)   # the game's own parse: Match.parse would contain a raise
            sub = m.parse(p, raw)
        except Exception as e:
            raise _fail(game, f"parse raised {type(e).__name__} on {text[:20]!r}: player input must become "
                              "Problems, never exceptions") from e
        for prob in (sub.problems if sub else ()):
            if p not in prob.message or not prob.field:
                raise _fail(game, f"a problem must name the player and the field: {prob.message[:80]!r}")
            if len(prob.value) > 200:
                raise _fail(game, "a problem echoes a player's value at full length; shorten it")
        try:
            load_match(json.loads(json.dumps(m.to_json())), m.ledger.rows, game=game).resolve({p: raw})
        except Exception as e:
            raise _fail(game, f"resolve raised {type(e).__name__} on a submission of {text[:20]!r}") from e


def _check_files_privacy(game: GameRules, names: list[str]) -> None:
    from .host.demo import demo
    from .host.players import PlayerInfo
    from .host.session import load
    from .sheets.xlsx import XlsxStore
    import openpyxl

    def cells(path: Path) -> set[str]:
        wb = openpyxl.load_workbook(path, read_only=True)
        try:
            return {str(v).strip() for ws in wb.worksheets for row in ws.iter_rows(values_only=True)
                    for v in row if v is not None and str(v).strip()}
        finally:
            wb.close()

    def lines(report: Any) -> set[str]:
        out = {report.title}
        for b in report.blocks:
            out.add(b.title)
            out.update(b.lines)
            for row in b.grid:
                out.update(c.text for c in row if len(c.text.strip()) >= 3 and not c.text.strip().lstrip("-").isdigit())
        return {x.strip() for x in out if x and x.strip()}

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        demo(game.spec.id, XlsxStore(folder), seed=3, players=[PlayerInfo(n, "", 10) for n in names], folder=folder)
        ld = load(XlsxStore(folder))
        m = ld.match
        public = lines(m.public_report())
        views = {p: lines(m.player_report(p)) for p in m.players}
        for p in m.players:
            mine = cells(folder / ld.locations[p])
            allowed = set(game.viewers(m.state, p))
            for q in m.players:
                if q in allowed:
                    continue
                leaked = mine & (views[q] - views[p] - public)
                if leaked:
                    raise _fail(game, f"{p}'s file holds {q}'s private lines: {sorted(leaked)[:3]}")
