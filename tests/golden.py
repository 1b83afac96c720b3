"""Golden outputs: an engine's outputs over a fixed set of inputs, committed as JSON
with the ``ENGINE_VERSION`` they belong to (``tests/<app>/engine/golden/*.json``).

Every stored result records the version of the engine that produced it, so the version
must change whenever an output does. ``check_golden`` fails when the outputs differ
from the file while the version is the same (bump it), and when the version differs
from the file (regenerate it). To regenerate after a bump:

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest -p no:cacheprovider -n 0 \\
        tests/sizing/engine/test_golden.py tests/tco/engine/test_golden.py

which rewrites the files only where the version was bumped (docs/architecture.md,
"Engine versions"). Floats are kept to 10 significant digits, so a last-bit
difference between two numpy builds is not a change; prose (formulas, sources,
reasons) is left out: it is not an output a stored figure depends on.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

import pytest

PROSE_KEYS = frozenset({"formula", "source", "reason", "message", "title", "detail"})
SIGNIFICANT_DIGITS = 10


def figures(value: Any) -> Any:
    """``value`` as JSON with floats rounded and prose keys left out."""
    if isinstance(value, dict):
        return {
            str(k): figures(v) for k, v in value.items() if str(k) not in PROSE_KEYS
        }
    if isinstance(value, list | tuple):
        return [figures(v) for v in value]
    if isinstance(value, float):
        if not math.isfinite(value) or value == 0:
            return value
        return float(f"{value:.{SIGNIFICANT_DIGITS - 1}e}")
    if value is None or isinstance(value, bool | int | str):
        return value
    return str(value)  # Decimal, enums


def _first_difference(old: Any, new: Any, path: str = "") -> str:
    if isinstance(old, dict) and isinstance(new, dict):
        for key in sorted(set(old) | set(new)):
            if key not in old or key not in new:
                return f"{path}.{key}: only in the {'file' if key in old else 'output'}"
            found = _first_difference(old[key], new[key], f"{path}.{key}")
            if found:
                return found
        return ""
    if isinstance(old, list) and isinstance(new, list):
        if len(old) != len(new):
            return f"{path}: {len(old)} items in the file, {len(new)} now"
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            found = _first_difference(a, b, f"{path}[{i}]")
            if found:
                return found
        return ""
    return "" if old == new else f"{path}: {old!r} in the file, {new!r} now"


def check_golden(path: Path, *, version: str, where: str, outputs: Any) -> None:
    """Compare ``outputs`` with the golden file at ``path``; ``where`` names the
    module that holds ``ENGINE_VERSION``. ``UPDATE_GOLDEN=1`` rewrites the file when
    the version was bumped (or the file is new), never under the old version."""
    outputs = json.loads(json.dumps(figures(outputs), allow_nan=False))
    stored = json.loads(path.read_text()) if path.exists() else None
    same = stored is not None and stored["outputs"] == outputs
    if stored is not None and stored["engine_version"] == version and same:
        return
    if stored is not None and stored["engine_version"] == version:
        pytest.fail(
            f"{path.name}: the engine's outputs changed but ENGINE_VERSION is still "
            f"{version!r} (first difference: "
            f"{_first_difference(stored['outputs'], outputs)}). Bump ENGINE_VERSION "
            f"in {where}, then regenerate: UPDATE_GOLDEN=1 pytest {_test_of(path)}",
            pytrace=False,
        )
    if os.environ.get("UPDATE_GOLDEN") == "1":
        document = {"engine_version": version, "outputs": outputs}
        path.write_text(json.dumps(document, indent=1, sort_keys=True) + "\n")
        return
    recorded = stored["engine_version"] if stored else "no file"
    pytest.fail(
        f"{path.name}: ENGINE_VERSION is {version!r}, the golden file records "
        f"{recorded!r}. Regenerate it: UPDATE_GOLDEN=1 pytest {_test_of(path)}",
        pytrace=False,
    )


def _test_of(path: Path) -> str:
    """The test module beside ``golden/``, relative to the repository when inside it."""
    test = path.resolve().parent.parent / "test_golden.py"
    root = Path(__file__).resolve().parent.parent
    return str(test.relative_to(root)) if test.is_relative_to(root) else str(test)
