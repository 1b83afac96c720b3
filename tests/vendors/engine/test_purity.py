"""Every module in an `engine` folder imports in a fresh interpreter without loading
Django (design.md: "A test imports the engines in a fresh interpreter")."""

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]


@pytest.mark.parametrize("engine", ["sizing.engine", "tco.engine", "vendors.engine"])
def test_engine_imports_without_loading_django(engine):
    code = (
        "import importlib, pkgutil, sys\n"
        f"import {engine} as root\n"
        "names = [info.name for info in pkgutil.walk_packages(root.__path__,"
        " root.__name__ + '.')]\n"
        "for name in names:\n"
        "    importlib.import_module(name)\n"
        "loaded = [m for m in sys.modules if m == 'django' or m.startswith('django.')]\n"
        "print(len(names))\n"
        "print(','.join(loaded))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(REPO), "PATH": ""},
    )
    count, loaded = (result.stdout + "\n").split("\n")[:2]
    assert int(count) >= 5, result.stdout  # the walk found the engine's modules
    assert loaded == ""
