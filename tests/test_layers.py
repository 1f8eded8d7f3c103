"""Imports go one way (cli > host > sheets > games > core) and never in a circle (issue 26, point 3).

Both checks read the source (the AST of every module under sheetbridge/), import nothing and run in
well under a second: (a) the core imports nothing above it and reads no file, no clock, no global
random and no installed package's metadata; the games import only the core and themselves;
(b) the graph of module-level imports has no cycle (its strongly connected components are single
modules), and each cycle found is reported with its modules. An import under ``if TYPE_CHECKING:``
counts: it ties two modules as much as any other (tabs.py and orchestrator.py did it for PlayerInfo).
Imports inside functions (deferred on purpose, to start quickly) are checked by a last, looser test.
"""
from __future__ import annotations

import ast
from pathlib import Path
from typing import Iterator

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "sheetbridge"

# What the pure core may not import: I/O, the clock, global random, entry points (on top of
# sheetbridge.testing.FORBIDDEN_IMPORTS, which the games' purity test uses too).
CORE_FORBIDDEN = ("os", "io", "pathlib", "time", "datetime", "random", "importlib.metadata", "socket",
                  "subprocess", "shutil", "tempfile", "urllib", "http", "requests", "openpyxl", "gspread",
                  "pandas", "uuid", "secrets")
CORE_FORBIDDEN_CALLS = ("open", "input", "print", "exec", "eval", "__import__")
# facts.py builds each fact's quick __init__ from its field names (a speed trick that pays: see there).
CORE_ALLOWED_CALLS = {"sheetbridge.core.facts": {"exec"}}

def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _module_level(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements at module level (those under ``if TYPE_CHECKING:`` too), not in functions or methods."""
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if isinstance(node, ast.ClassDef):   # a class body runs at import; its methods do not
            yield from _module_level(node.body)
            continue
        yield node
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(node, field, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                yield from _module_level(inner)
        for handler in getattr(node, "handlers", ()):
            yield from _module_level(handler.body)


def imported(name: str, path: Path, *, module_level: bool) -> list[str]:
    """Every module `name` (the file at `path`) imports, relative imports made absolute; a name
    imported from a package counts as its submodule when there is one (``from . import seats``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = _module_level(tree.body) if module_level else ast.walk(tree)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: list[str] = []
    for node in nodes:
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            subs = [f"{source}.{a.name}" for a in node.names if f"{source}.{a.name}" in MODULES]
            out += subs if subs and len(subs) == len(node.names) else [source, *subs]
    return out


def calls(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]


def _within(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


# ---------------------------------------------------------------- (a) the layers

CORE = sorted(n for n in MODULES if _within(n, ("sheetbridge.core",)))
# The registry is the games' one door to installed packages (plugins' entry points): not a game.
GAMES = sorted(n for n in MODULES if _within(n, ("sheetbridge.games",)) and n != "sheetbridge.games.registry")


@pytest.mark.parametrize("name", CORE)
def test_the_core_imports_nothing_above_it_and_does_no_io(name):
    found = imported(name, MODULES[name], module_level=False)   # inside functions too
    above = [m for m in found if _within(m, ("sheetbridge",)) and not _within(m, ("sheetbridge.core",))]
    assert not above, f"{name} imports {above}: the core imports only the core (cli > host > sheets > games > core)"
    impure = [m for m in found if _within(m, CORE_FORBIDDEN)]
    assert not impure, f"{name} imports {impure}: the core reads no file, clock, global random or entry point"
    bad_calls = sorted(set(calls(MODULES[name])) & set(CORE_FORBIDDEN_CALLS) - CORE_ALLOWED_CALLS.get(name, set()))
    assert not bad_calls, f"{name} calls {bad_calls}"


@pytest.mark.parametrize("name", GAMES)
def test_the_games_import_only_the_core_and_themselves(name):
    found = imported(name, MODULES[name], module_level=False)
    above = [m for m in found if _within(m, ("sheetbridge",))
             and not _within(m, ("sheetbridge.core", "sheetbridge.games"))]
    assert not above, f"{name} imports {above}: a game imports only the core and its own modules"
    assert "sheetbridge.games.registry" not in found, f"{name} imports the registry: a game does not look games up"


def test_the_layer_check_sees_an_import_above_and_a_relative_one(tmp_path):
    core = tmp_path / "sheetbridge" / "core"
    core.mkdir(parents=True)
    (core / "x.py").write_text("from ..games import registry\nfrom . import rng\nimport os.path\n"
                               "def f():\n    from ...sheetbridge.templates import default_tables\n")
    assert imported("sheetbridge.core.x", core / "x.py", module_level=True) == [
        "sheetbridge.games.registry", "sheetbridge.core.rng", "os.path"]
    assert imported("sheetbridge.core.x", core / "x.py", module_level=False)[-1].endswith("templates")


# ---------------------------------------------------------------- (b) no cycle

def import_graph(module_level: bool = True) -> dict[str, set[str]]:
    """Module -> the sheetbridge modules it imports at module level (or anywhere, `module_level` False)."""
    graph: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        targets = set()
        for m in imported(name, path, module_level=module_level):
            while m and m not in MODULES:   # `from x import name`: the module x
                m = m.rpartition(".")[0]
            if m and m != name:
                targets.add(m)
        graph[name] = targets
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def _describe(found: list[list[str]]) -> str:
    return "; ".join(" <-> ".join(c) for c in found)


def test_no_import_cycle_anywhere():
    found = cycles(import_graph())
    assert not found, f"import cycles (each set imports itself round a circle): {_describe(found)}"


def test_no_cycle_even_through_imports_inside_functions():
    found = cycles(import_graph(module_level=False))
    assert not found, f"import cycles through imports inside functions: {_describe(found)}"


def test_the_cycle_check_finds_a_cycle_and_names_its_modules():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e2"}, "e2": set()}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_host_never_asks_a_store_which_backend_it_is():
    """The host uses what a Store declares (``backend``, ``folder``, ``embeds_pictures``...), never
    ``isinstance`` of a backend's class: a third backend then needs no change in host/ or cli/."""
    asked = []
    for folder in ("host", "cli"):
        for path in sorted((ROOT / "sheetbridge" / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "isinstance"
                        and len(node.args) == 2 and "Store" in ast.unparse(node.args[1])):
                    asked.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    assert asked == []
