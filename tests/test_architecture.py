"""The house rules of docs/architecture.md, read off the import graph (ast, no import
is executed): apps depend one way (clusterbuy <- sizing <- tco <- vendors), engines
import neither Django nor another app, and no two modules import each other, directly
or around a loop. Function-level imports count: moving an import into a function does
not break a cycle, it hides it. Imports under ``if TYPE_CHECKING:`` do not count.

Each rule is shown failing on a small planted tree, so the test cannot pass vacuously.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APPS = ("clusterbuy", "sizing", "tco", "vendors")  # the order of the one-way arrows
# Pure computation: no Django, no other app (design.md, "Layers").
ENGINES = (
    "sizing.engine",
    "tco.engine",
    "vendors.detectors",
    "vendors.scoring",
    "vendors.autoscore",
    "vendors.compliance",
    "vendors.capability",
    "vendors.importing",
    "vendors.spreadsheets",
    "vendors.spec_claims",
)  # they may import each other, never Django or another module of an app
MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 80


def _module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _source_files(root: Path) -> Iterator[Path]:
    for app in APPS:
        for path in sorted((root / app).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def import_graph(root: Path) -> dict[str, set[str]]:
    """module -> the modules it imports (third-party included), for every source file."""
    modules = {_module_name(root, p): p for p in _source_files(root)}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets: set[str] = set()
        is_package = path.name == "__init__.py"
        for node in _import_nodes(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
                continue
            target = _resolve(name, is_package, node)
            # `from pkg import sub` names a submodule when the file exists.
            subs = {f"{target}.{a.name}" for a in node.names} & modules.keys()
            targets.update(subs or {target})
            if subs and len(subs) < len(node.names):
                targets.add(target)
        graph[name] = {t for t in targets if t}
    return graph


def _app(module: str) -> str | None:
    top = module.split(".")[0]
    return top if top in APPS else None


def upward_imports(graph: dict[str, set[str]]) -> list[str]:
    found = []
    for module, targets in graph.items():
        rank = APPS.index(_app(module))
        for target in targets:
            app = _app(target)
            if app is not None and APPS.index(app) > rank:
                found.append(f"{module} -> {target}")
    return sorted(found)


def impure_engine_imports(graph: dict[str, set[str]]) -> list[str]:
    found = []
    for module, targets in graph.items():
        engine = next(
            (e for e in ENGINES if module == e or module.startswith(e + ".")), None
        )
        if engine is None:
            continue
        for target in targets:
            pure = any(target == e or target.startswith(e + ".") for e in ENGINES)
            if target.split(".")[0] == "django" or (_app(target) and not pure):
                found.append(f"{module} -> {target}")
    return sorted(found)


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in graph:
                continue
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return cycles


def _long_functions(root: Path) -> list[str]:
    found = []
    for path in _source_files(root):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = node.end_lineno - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    where = path.relative_to(root)
                    found.append(f"{where}:{node.lineno} {node.name} ({length})")
    return found


# --- the project ---------------------------------------------------------------------


def test_apps_depend_one_way():
    assert upward_imports(import_graph(ROOT)) == []


def test_engines_import_no_django_and_no_other_app():
    assert impure_engine_imports(import_graph(ROOT)) == []


def test_no_import_cycles_between_modules():
    assert import_cycles(import_graph(ROOT)) == []


def test_no_module_over_500_lines():
    too_long = [
        f"{p.relative_to(ROOT)} ({n})"
        for p in _source_files(ROOT)
        if (n := len(p.read_text().splitlines())) > MAX_MODULE_LINES
        and "data" not in p.parts
    ]
    assert too_long == []


def test_no_function_over_80_lines():
    assert _long_functions(ROOT) == []


# --- the rules fail on a planted tree ----------------------------------------------


@pytest.fixture
def planted(tmp_path: Path) -> Path:
    """A small tree that keeps the rules, to which each test plants one violation."""
    files = {
        "clusterbuy/__init__.py": "",
        "clusterbuy/models.py": "from django.db import models\n",
        "sizing/__init__.py": "",
        "sizing/engine/__init__.py": "from .memory import weights_gb\n",
        "sizing/engine/memory.py": "import math\n\ndef weights_gb(): return math.pi\n",
        "sizing/services.py": "from clusterbuy.models import models\n"
        "from .engine import weights_gb\n",
        "tco/__init__.py": "",
        "tco/engine/__init__.py": "",
        "tco/services.py": "from sizing import services\n",
        "vendors/__init__.py": "",
        "vendors/comparison/__init__.py": "from .build import build\n",
        "vendors/comparison/build.py": "from . import labels\nfrom tco import services\n",
        "vendors/comparison/labels.py": "from django.utils.translation import gettext\n",
    }
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return tmp_path


def test_the_planted_tree_keeps_every_rule(planted):
    graph = import_graph(planted)
    assert upward_imports(graph) == []
    assert impure_engine_imports(graph) == []
    assert import_cycles(graph) == []


def test_an_upward_import_is_found(planted):
    (planted / "sizing/views.py").write_text("from vendors.comparison import build\n")
    assert upward_imports(import_graph(planted)) == [
        "sizing.views -> vendors.comparison.build"
    ]


def test_a_function_level_upward_import_is_found(planted):
    (planted / "tco/report.py").write_text(
        "def render():\n    from vendors import comparison\n    return comparison\n"
    )
    assert upward_imports(import_graph(planted)) == ["tco.report -> vendors.comparison"]


def test_an_engine_importing_django_or_an_app_is_found(planted):
    (planted / "sizing/engine/memory.py").write_text(
        "from django.conf import settings\nfrom clusterbuy.models import models\n"
    )
    assert impure_engine_imports(import_graph(planted)) == [
        "sizing.engine.memory -> clusterbuy.models",
        "sizing.engine.memory -> django.conf",
    ]


def test_a_cycle_through_a_function_level_import_is_found(planted):
    (planted / "vendors/comparison/labels.py").write_text(
        "def title():\n    from .build import build\n    return build\n"
    )
    assert import_cycles(import_graph(planted)) == [
        ["vendors.comparison.build", "vendors.comparison.labels"]
    ]


def test_an_import_under_type_checking_is_not_a_cycle(planted):
    (planted / "vendors/comparison/labels.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from .build import build\n"
    )
    assert import_cycles(import_graph(planted)) == []


def test_a_long_function_is_found(planted):
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_FUNCTION_LINES))
    (planted / "tco/engine/long.py").write_text(f"def long():\n{body}")
    assert _long_functions(planted) == ["tco/engine/long.py:1 long (81)"]
