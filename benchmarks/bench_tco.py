"""Timings of the TCO engine and its charts.

Run: ``.venv/bin/python benchmarks/bench_tco.py`` (prints ``name value unit`` lines).
Each figure is the best of a few repetitions, so a busy machine inflates it less.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tco.engine import (  # noqa: E402
    charts,  # noqa: E402
    compute,
    inputs_from_dict,
    monte_carlo,
    sensitivity,
)

SCENARIO = {
    "horizon_years": 5,
    "gpu_count": 64,
    "capex": [
        {
            "category": "gpu_servers",
            "description": "8 x HGX H100",
            "amount": 17_600_000,
        },
        {"category": "network", "description": "400G InfiniBand", "amount": 3_000_000},
        {"category": "storage", "description": "parallel FS", "amount": 1_500_000},
        {"category": "facility", "description": "power + cooling", "amount": 800_000},
        {"category": "installation", "description": "", "amount": 200_000},
    ],
}


def best_ms(fn: Callable[[], object], repeat: int = 5) -> float:
    fn()  # warm-up (imports, font loading, caches)
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best * 1000


def run() -> list[tuple[str, float, str]]:
    inputs = inputs_from_dict(SCENARIO)
    result = compute(inputs).to_dict()
    rows = sensitivity(inputs)
    simulation = monte_carlo(inputs)
    figures = [
        ("tco.compute", best_ms(lambda: compute(inputs).to_dict(), 20), "ms"),
        ("tco.sensitivity", best_ms(lambda: sensitivity(inputs)), "ms"),
        ("tco.monte_carlo_10000x60", best_ms(lambda: monte_carlo(inputs), 3), "ms"),
    ]
    for lang in ("en", "zh-hans"):
        for name, fn, arg in (
            ("stacked_bars", charts.stacked_bars_svg, result),
            ("cumulative", charts.cumulative_svg, result),
            ("tornado", charts.tornado_svg, rows),
            ("histogram", charts.histogram_svg, simulation),
        ):
            ms = best_ms(lambda fn=fn, arg=arg, lang=lang: fn(arg, lang=lang), 3)
            figures.append((f"tco.chart.{name}.{lang}", ms, "ms"))
    return figures


if __name__ == "__main__":
    for name, value, unit in run():
        print(f"{name:36s} {value:10.1f} {unit}")
