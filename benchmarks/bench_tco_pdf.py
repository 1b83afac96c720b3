"""The TCO PDF report against its floor, Chinese and English, measured in one run.

Run: ``.venv/bin/python benchmarks/bench_tco_pdf.py`` (prints ``name value unit``).
Renders from unsaved model instances, so no database is needed. Each figure is the
best of a few renders after a warm-up (what a long-lived worker pays per run), with
the report's charts rendered afresh every time (their cache entry is dropped).

The floor (benchmarks/floors.py) is WeasyPrint rendering a plain table of the same
page count in the same font through the same pipeline (``clusterbuy.pdf.render_pdf``);
report and floor renders alternate, so a busy machine slows both alike. Wall and CPU
(time.process_time) figures and ratios are printed; CPU is the steadier one when other
processes share the machine.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clusterbuy.settings")

import django  # noqa: E402

django.setup()

from bench_tco import SCENARIO  # noqa: E402
from django.core.cache import cache  # noqa: E402
from floors import floor_html, page_count, timed  # noqa: E402

from clusterbuy.models import Organisation, Procurement  # noqa: E402
from clusterbuy.pdf import render_pdf  # noqa: E402
from tco import report  # noqa: E402
from tco.engine import full_analysis, inputs_from_dict  # noqa: E402
from tco.models import TcoRun, TcoScenario  # noqa: E402

ROUNDS = 5


def _run(lang: str) -> TcoRun:
    organisation = Organisation(name="演示科技有限公司 Demo AI Co.")
    procurement = Procurement(
        organisation=organisation, name="大模型训练集群 LLM cluster", horizon_years=5
    )
    scenario = TcoScenario(
        procurement=procurement, name="基线 Baseline", inputs=SCENARIO
    )
    return TcoRun(pk=1, scenario=scenario, inputs=SCENARIO, lang=lang)


def _measure(lang: str, analysis: dict) -> list[tuple[str, float, str]]:
    run = _run(lang)
    chart_key = report.charts_cache_key(analysis, lang)

    def render_report() -> bytes:
        cache.delete(chart_key)  # charts included in the figure
        return report.build_tco_report(run=run, analysis=analysis)

    pages = page_count(report.render_report_html(run=run, analysis=analysis))
    floor = floor_html(pages)
    pdf = render_report()  # warm-up (fonts, caches)
    render_pdf(floor)
    wall, cpu = {"report": [], "floor": []}, {"report": [], "floor": []}
    for _ in range(ROUNDS):  # alternate, so load hits both alike
        for name, fn in (
            ("report", render_report),
            ("floor", lambda: render_pdf(floor)),
        ):
            w, c = timed(fn)
            wall[name].append(w)
            cpu[name].append(c)
    r_wall, f_wall = min(wall["report"]), min(wall["floor"])
    r_cpu, f_cpu = min(cpu["report"]), min(cpu["floor"])
    return [
        (f"tco_pdf.{lang}.render_wall", r_wall, "s"),
        (f"tco_pdf.{lang}.render_cpu", r_cpu, "s"),
        (f"tco_pdf.{lang}.pages", pages, "pages"),
        (f"tco_pdf.{lang}.floor_plain_table_wall", f_wall, "s"),
        (f"tco_pdf.{lang}.floor_plain_table_cpu", f_cpu, "s"),
        (f"tco_pdf.{lang}.ratio_wall (target <= 1.5)", r_wall / f_wall, "x"),
        (f"tco_pdf.{lang}.ratio_cpu (target <= 1.5)", r_cpu / f_cpu, "x"),
        (f"tco_pdf.{lang}.size", len(pdf) / 1024, "KiB"),
    ]


def run() -> list[tuple[str, float, str]]:
    analysis = full_analysis(inputs_from_dict(SCENARIO))
    return _measure("zh-hans", analysis) + _measure("en", analysis)


if __name__ == "__main__":
    for name, value, unit in run():
        print(f"{name} {value:.3f} {unit}")
