"""Timings of the TCO engine and its charts, with the numpy Monte Carlo floor.

Run: ``.venv/bin/python benchmarks/bench_tco.py`` (prints ``name value unit`` lines).
Each figure is the best of a few repetitions (wall and CPU time, the CPU figure being
what a busy machine inflates least). "full_analysis_with_charts" is the whole work of
a run before its PDF: compute, sensitivity, the 10,000-draw Monte Carlo, the hidden-
cost check and the four charts; its "fresh process" figure adds every import the
first run of a new worker pays (numpy, the engine, the charts).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from floors import best_of, numpy_monte_carlo_floor  # noqa: E402

from tco.engine import (  # noqa: E402
    charts,
    compute,
    full_analysis,
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

#: The whole pre-PDF work of a run in a fresh interpreter, timed from its first import.
FRESH_PROCESS = """
import time
w, c = time.perf_counter(), time.process_time()
from tco.engine import charts, full_analysis, inputs_from_dict
from bench_tco import SCENARIO, analysis_with_charts
analysis_with_charts(SCENARIO)
print(time.perf_counter() - w, time.process_time() - c)
"""


def analysis_with_charts(scenario: dict, lang: str = "zh-hans") -> dict:
    analysis = full_analysis(inputs_from_dict(scenario))
    analysis_charts = [
        charts.stacked_bars_svg(analysis["result"], lang),
        charts.cumulative_svg(analysis["result"], lang),
        charts.tornado_svg(analysis["sensitivity"], lang),
        charts.histogram_svg(analysis["monte_carlo"], lang),
    ]
    return {**analysis, "charts": analysis_charts}


def _fresh_process() -> tuple[float, float]:
    out = subprocess.run(
        [sys.executable, "-c", FRESH_PROCESS],
        cwd=HERE,
        env={"PYTHONPATH": f"{HERE.parent}:{HERE}", "PATH": "/usr/bin:/bin"},
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    return float(out[0]), float(out[1])


def _ms(label: str, wall_cpu: tuple[float, float]) -> list[tuple[str, float, str]]:
    wall, cpu = wall_cpu
    return [(f"{label} wall", wall * 1000, "ms"), (f"{label} cpu", cpu * 1000, "ms")]


def run() -> list[tuple[str, float, str]]:
    inputs = inputs_from_dict(SCENARIO)
    result = compute(inputs).to_dict()
    rows = sensitivity(inputs)
    simulation = monte_carlo(inputs)
    mc = best_of(lambda: monte_carlo(inputs), 5)
    mc_floor = best_of(numpy_monte_carlo_floor, 5)
    figures = [
        *_ms("tco.compute", best_of(lambda: compute(inputs).to_dict(), 20)),
        *_ms("tco.sensitivity", best_of(lambda: sensitivity(inputs))),
        *_ms("tco.monte_carlo_10000x60", mc),
        *_ms("tco.monte_carlo floor (straight numpy)", mc_floor),
        ("tco.monte_carlo ratio to floor (cpu)", mc[1] / mc_floor[1], "x"),
    ]
    for lang in ("en", "zh-hans"):
        for name, fn, arg in (
            ("stacked_bars", charts.stacked_bars_svg, result),
            ("cumulative", charts.cumulative_svg, result),
            ("tornado", charts.tornado_svg, rows),
            ("histogram", charts.histogram_svg, simulation),
        ):
            timing = best_of(lambda fn=fn, arg=arg, lang=lang: fn(arg, lang=lang), 5)
            figures += _ms(f"tco.chart.{name}.{lang} (target <= 60)", timing)
    figures += _ms(
        "tco.full_analysis_with_charts (target <= 1000)",
        best_of(lambda: analysis_with_charts(SCENARIO), 3),
    )
    figures += _ms("tco.full_analysis_with_charts, fresh process", _fresh_process())
    return figures


if __name__ == "__main__":
    for name, value, unit in run():
        print(f"{name:60s} {value:10.1f} {unit}")
