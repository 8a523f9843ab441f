"""The house plan (HOUSE.md) as a test: floors, no import circles, no huge modules or classes.

What counts as an import:
- Python: every ``import``/``from ... import`` in a module, also those inside functions (a lazy
  import still runs, and two modules that reach for each other lazily are still a circle).
  Imports under ``if TYPE_CHECKING:`` never run: they are left out of the circle check (a type
  may name a class of the module that imports it) but still count for the floors (a type from
  a floor above is a dependency on that floor all the same).
- JavaScript (``web/js``): ``import ... from '...'`` and ``import '...'`` with a literal path.
  Template or computed ``import(...)`` (the per-game modules) are left out.
- Strings that name modules (``"gamenight.bots.shake_bot:ShakeBot"``) are not imports.

Floors, from the bottom: engine; rules (games/, the ``gamenight`` front door that registers
them, ``catalogue``); uses; front ends (cli, tui, server, web, rl). Inside the uses floor,
HOUSE.md keeps bots/ and analysis/ side by side; this test orders them, because analysis
simulates, measures and mirrors the bots (kernels copy their policies): realtime and solvers
(exact solvers a bot may play by) sit below bots, and bots below analysis. A module may import
its own floor (never in a circle) and the floors below it.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parent.parent / "src"
PKG = SRC / "gamenight"

MAX_LINES = 600
KERNEL_LINES = 1_100  # compiled kernels (analysis/kernels/*, bots/playouts/*): a port kept whole
MAX_METHODS = 40

# Where each top-level part of the package lives; a rank higher may import a rank lower.
RANKS = {
    "engine": 0,
    "games": 1,
    "": 1,  # the ``gamenight`` package itself: the front door, which registers the games
    "catalogue": 1,  # game ids and titles, the registry's list without importing a game
    "realtime": 2,
    "solvers": 2,
    "bots": 3,
    "analysis": 4,
    "replay_summary": 4,  # a replayed game told in names and numbers (used by the CLI)
    "cli": 5,
    "tui": 5,
    "server": 5,
    "web": 5,
    "rl": 5,
}
FLOOR_NAMES = {
    0: "engine",
    1: "rules",
    2: "uses",
    3: "uses (bots)",
    4: "uses (analysis)",
    5: "front ends",
}


def _python_modules() -> dict[str, Path]:
    mods = {}
    for path in sorted(PKG.rglob("*.py")):
        parts = list(path.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        mods[".".join(parts)] = path
    return mods


MODULES = _python_modules()


def _target(name: str) -> str | None:
    """The gamenight module an imported name lives in (the longest known prefix)."""
    if name != "gamenight" and not name.startswith("gamenight."):
        return None
    while name not in MODULES and "." in name:
        name = name.rsplit(".", 1)[0]
    return name if name in MODULES else None


class _Imports(ast.NodeVisitor):
    def __init__(self, module: str, is_package: bool) -> None:
        self.module = module
        self.base = module.split(".") if is_package else module.split(".")[:-1]
        self.found: list[tuple[str, int, bool]] = []  # (module, line, under TYPE_CHECKING)
        self.type_checking = 0

    def visit_If(self, node: ast.If) -> None:
        test = node.test
        name = test.id if isinstance(test, ast.Name) else getattr(test, "attr", None)
        if name == "TYPE_CHECKING":
            self.type_checking += 1
            for child in node.body:
                self.visit(child)
            self.type_checking -= 1
            for child in node.orelse:
                self.visit(child)
        else:
            self.generic_visit(node)

    def _add(self, name: str, line: int) -> None:
        target = _target(name)
        if target is not None and target != self.module:
            self.found.append((target, line, self.type_checking > 0))

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._add(alias.name, node.lineno)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.level:
            base = self.base[: len(self.base) - (node.level - 1)]
            parent = ".".join(base + ([node.module] if node.module else []))
        else:
            parent = node.module or ""
        for alias in node.names:
            full = f"{parent}.{alias.name}"
            self._add(full if full in MODULES else parent, node.lineno)


def _python_imports() -> dict[str, list[tuple[str, int, bool]]]:
    out = {}
    for module, path in MODULES.items():
        visitor = _Imports(module, path.name == "__init__.py")
        visitor.visit(ast.parse(path.read_text(encoding="utf-8"), str(path)))
        out[module] = visitor.found
    return out


IMPORTS = _python_imports()

JS = PKG / "web" / "js"
JS_IMPORT = re.compile(r"""^\s*import\s+(?:[^'"]*?\s+from\s+)?["']([^"']+)["']""", re.M)


def _js_imports() -> dict[str, list[str]]:
    out = {}
    for path in sorted(JS.rglob("*.js")):
        found = []
        for spec in JS_IMPORT.findall(path.read_text(encoding="utf-8")):
            if spec.startswith("."):
                found.append(str((path.parent / spec).resolve().relative_to(PKG)))
        out[str(path.relative_to(PKG))] = found
    return out


def _source_files() -> Iterator[Path]:
    yield from sorted(PKG.rglob("*.py"))
    yield from sorted(JS.rglob("*.js"))


def _rank(module: str) -> int:
    parts = module.split(".")
    top = parts[1] if len(parts) > 1 else ""
    assert top in RANKS, f"{module}: name its floor in RANKS (tests/test_house.py)"
    return RANKS[top]


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected parts with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
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
                    part = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        part.append(member)
                        if member == node:
                            break
                    if len(part) > 1:
                        found.append(sorted(part))
    return found


def test_no_module_is_too_long() -> None:
    too_long = []
    for path in _source_files():
        name = str(path.relative_to(PKG))
        compiled = name.startswith(("analysis/kernels/", "bots/playouts/"))
        limit = KERNEL_LINES if compiled else MAX_LINES
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit:
            too_long.append(f"{name}: {lines} lines (at most {limit})")
    assert not too_long, "modules over the limit:\n" + "\n".join(too_long)


def test_no_class_has_too_many_methods() -> None:
    crowded = []
    for path in sorted(PKG.rglob("*.py")):
        name = str(path.relative_to(PKG))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef):
                methods = sum(
                    isinstance(b, ast.FunctionDef | ast.AsyncFunctionDef) for b in node.body
                )
                if methods > MAX_METHODS:
                    crowded.append(f"{name}: class {node.name} has {methods} methods")
    assert not crowded, f"classes over {MAX_METHODS} methods:\n" + "\n".join(crowded)


def test_no_python_import_circle() -> None:
    graph = {m: {t for t, _, tc in found if not tc} for m, found in IMPORTS.items()}
    circles = _circles(graph)
    text = [" <-> ".join(part) + f" ({len(part)} modules)" for part in circles]
    assert not circles, "modules that import each other:\n" + "\n".join(text)


def test_no_js_import_circle() -> None:
    graph = {m: set(found) for m, found in _js_imports().items()}
    circles = _circles(graph)
    assert not circles, "web modules that import each other:\n" + "\n".join(map(str, circles))


def test_js_imports_name_files_that_exist() -> None:
    missing = [
        f"{m} imports {t}"
        for m, found in _js_imports().items()
        for t in found
        if not (PKG / t).is_file()
    ]
    assert not missing, "\n".join(missing)


def test_imports_only_point_down_the_house() -> None:
    upward = []
    for module, found in sorted(IMPORTS.items()):
        mine = _rank(module)
        for target, line, _ in found:
            theirs = _rank(target)
            if theirs > mine:
                upward.append(
                    f"{module} (line {line}, {FLOOR_NAMES[mine]}) imports {target}"
                    f" ({FLOOR_NAMES[theirs]})"
                )
    assert not upward, "imports that point up the house:\n" + "\n".join(upward)


def test_games_import_only_the_engine_and_games() -> None:
    """Pure rules: a game reads the engine and other rule modules, nothing else of gamenight
    (not even the front door, which imports every game to register it)."""
    bad = [
        f"{m} (line {line}) imports {t}"
        for m, found in sorted(IMPORTS.items())
        if m.startswith("gamenight.games")
        for t, line, _ in found
        if not t.startswith(("gamenight.engine", "gamenight.games"))
    ]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("floor", ["engine", "games", "realtime", "solvers", "bots", "analysis"])
def test_a_lower_floor_never_names_a_front_end(floor: str) -> None:
    """The front ends by name, whatever the ranks above say: no lower floor imports one."""
    front = ("cli", "tui", "server", "web", "rl")
    bad = [
        f"{m} imports {t}"
        for m, found in IMPORTS.items()
        if m.startswith(f"gamenight.{floor}")
        for t, _, _ in found
        if t.split(".")[1:2] and t.split(".")[1] in front
    ]
    assert not bad, "\n".join(bad)


def test_every_module_has_a_first_line() -> None:
    """A newcomer names a module's job from the first line of its docstring."""
    bare = [
        str(path.relative_to(PKG))
        for path in sorted(PKG.rglob("*.py"))
        if path.stat().st_size
        and "migrations" not in path.parts
        and not ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert not bare, "modules without a docstring: " + ", ".join(bare)
