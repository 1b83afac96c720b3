"""The house rules of docs/architecture.md, read off the import graph (ast, no import
is executed): apps depend one way (clusterbuy <- sizing <- tco <- vendors); inside an
app the zones depend one way (engine <- models <- domain <- entry points); engines
(every ``<app>/engine/`` folder) import neither Django nor a non-engine module; and no
two modules import each other, directly or around a loop. Function-level imports count:
moving an import into a function does not break a cycle, it hides it. Imports under
``if TYPE_CHECKING:`` count too: a type-only arrow is still an arrow a reader follows.

Each rule is shown failing on a small planted tree, so the test cannot pass vacuously.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APPS = ("clusterbuy", "sizing", "tco", "vendors")  # the order of the one-way arrows
# Zones inside an app, lowest first (design.md, "Layers"): a module may import its own
# zone and the zones below it, never one above. Pure computation lives in an `engine`
# folder (no Django, no module of any app outside an engine folder); `clusterbuy/engine/`
# holds the pure rules more than one app shares. Forms are domain: they declare and
# validate fields, and a service may validate with the same form as the page.
ZONES = ("engine", "models", "domain", "entry")
MODEL_LAYER = {"models", "bounds"}  # bounds: the validators model fields are built with
ENTRY_POINTS = {
    "views",
    "api",
    "api_urls",
    "urls",
    "api_serializers",
    "templatetags",
    "admin",
    "apps",
    "management",
    "tasks",
    "settings",
    "wsgi",
    "asgi",
}  # one segment of a module path that marks an entry point
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


def _import_nodes(tree: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
    stack = [tree]
    while stack:
        node = stack.pop()
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


def zone(module: str) -> str:
    """The zone of one of the apps' modules, read off its path alone."""
    parts = module.split(".")[1:]
    if not parts:  # the app's package: its front door (the Celery app, re-exports)
        return "entry"
    if parts[0] == "engine":
        return "engine"
    if parts[0] in MODEL_LAYER:
        return "models"
    if any(p in ENTRY_POINTS for p in parts) or parts[:1] == ["migrations"]:
        return "entry"
    return "domain"


def impure_engine_imports(graph: dict[str, set[str]]) -> list[str]:
    found = []
    for module, targets in graph.items():
        if _app(module) is None or zone(module) != "engine":
            continue
        for target in targets:
            pure = _app(target) is not None and zone(target) == "engine"
            if target.split(".")[0] == "django" or (_app(target) and not pure):
                found.append(f"{module} -> {target}")
    return sorted(found)


def zone_climbs(graph: dict[str, set[str]]) -> list[str]:
    """Arrows inside an app that run back up: an engine importing a model, a model a
    service, a service a view or a form."""
    found = []
    for module, targets in graph.items():
        for target in targets:
            if _app(target) != _app(module) or _app(module) is None:
                continue
            if ZONES.index(zone(target)) > ZONES.index(zone(module)):
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


def test_no_arrow_climbs_back_up_inside_an_app():
    assert zone_climbs(import_graph(ROOT)) == []


def test_every_app_keeps_its_engine_in_an_engine_folder():
    for app in ("sizing", "tco", "vendors"):
        assert (ROOT / app / "engine" / "__init__.py").exists(), app


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
    assert zone_climbs(graph) == []
    assert import_cycles(graph) == []


def test_an_upward_import_is_found(planted):
    (planted / "sizing/views.py").write_text("from vendors.comparison import build\n")
    assert upward_imports(import_graph(planted)) == [
        "sizing.views -> vendors.comparison.build"
    ]


def test_an_engine_may_import_the_shared_engine_and_engines_to_its_left(planted):
    (planted / "clusterbuy/engine").mkdir()
    (planted / "clusterbuy/engine/__init__.py").write_text("")
    (planted / "clusterbuy/engine/limits.py").write_text("MAX_GPU_COUNT = 10\n")
    (planted / "sizing/engine/memory.py").write_text(
        "from clusterbuy.engine.limits import MAX_GPU_COUNT\n"
    )
    (planted / "tco/engine/__init__.py").write_text(
        "from sizing.engine import memory\n"
    )
    graph = import_graph(planted)
    assert impure_engine_imports(graph) == [] and upward_imports(graph) == []
    (planted / "clusterbuy/engine/limits.py").write_text("from sizing import engine\n")
    assert upward_imports(import_graph(planted)) == [
        "clusterbuy.engine.limits -> sizing.engine"
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


def test_an_import_under_type_checking_is_a_cycle_too(planted):
    (planted / "vendors/comparison/labels.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from .build import build\n"
    )
    assert import_cycles(import_graph(planted)) == [
        ["vendors.comparison.build", "vendors.comparison.labels"]
    ]


def test_a_service_importing_a_view_is_found(planted):
    (planted / "sizing/views.py").write_text("from .services import models\n")
    (planted / "sizing/plans.py").write_text("from .views import models\n")
    assert zone_climbs(import_graph(planted)) == ["sizing.plans -> sizing.views"]


def test_a_model_importing_a_service_is_found(planted):
    (planted / "sizing/models.py").write_text("from . import services\n")
    assert zone_climbs(import_graph(planted)) == ["sizing.models -> sizing.services"]


def test_a_long_function_is_found(planted):
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_FUNCTION_LINES))
    (planted / "tco/engine/long.py").write_text(f"def long():\n{body}")
    assert _long_functions(planted) == ["tco/engine/long.py:1 long (81)"]
