"""`make bench`: run every benchmarks/bench_*.py module's `run()` and print its figures.

Each module exposes `run() -> list[tuple[name, value, unit]]`. Modules run in this
process, in name order; one failing module is reported and the rest still run.
"""

from __future__ import annotations

import importlib
import os
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clusterbuy.settings")


def main(selected: list[str]) -> int:
    failures = 0
    modules = sorted(p.stem for p in HERE.glob("bench_*.py"))
    if selected:
        modules = [m for m in modules if any(s in m for s in selected)]
    print(f"{'benchmark':58} {'value':>12}  unit")
    print("-" * 80)
    for name in modules:
        started = time.perf_counter()
        try:
            figures = importlib.import_module(name).run()
        except Exception:
            failures += 1
            print(f"{name}: FAILED\n{traceback.format_exc()}")
            continue
        for label, value, unit in figures:
            print(f"{name[6:] + ': ' + label:58} {value:12.3f}  {unit}")
        print(f"{'  (' + name + ' took':58} {time.perf_counter() - started:12.1f}  s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
