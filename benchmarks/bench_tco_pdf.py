"""Time to render a TCO PDF report, Chinese and English (steady state: second render).

Run: ``.venv/bin/python benchmarks/bench_tco_pdf.py`` (prints ``name value unit``).
Renders from unsaved model instances, so no database is needed. The first render of a
process loads fonts and matplotlib; the figure reported is the second one, which is
what a long-lived worker pays per run. shared/reference/pdf-rendering.md explains why
the embedded font subset, not the layout, is the lever on this number.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "clusterbuy.settings")

import django  # noqa: E402

django.setup()

from bench_tco import SCENARIO  # noqa: E402

from clusterbuy.models import Organisation, Procurement  # noqa: E402
from tco import report  # noqa: E402
from tco.engine import full_analysis, inputs_from_dict  # noqa: E402
from tco.models import TcoRun, TcoScenario  # noqa: E402


def _run(lang: str) -> TcoRun:
    organisation = Organisation(name="演示科技有限公司 Demo AI Co.")
    procurement = Procurement(
        organisation=organisation, name="大模型训练集群 LLM cluster", horizon_years=5
    )
    scenario = TcoScenario(
        procurement=procurement, name="基线 Baseline", inputs=SCENARIO
    )
    return TcoRun(pk=1, scenario=scenario, inputs=SCENARIO, lang=lang)


def run() -> list[tuple[str, float, str]]:
    analysis = full_analysis(inputs_from_dict(SCENARIO))
    rows = []
    for lang in ("zh-hans", "en"):
        run_ = _run(lang)
        report.build_tco_report(run=run_, analysis=analysis)  # warm-up
        start = time.perf_counter()
        pdf = report.build_tco_report(run=run_, analysis=analysis)
        rows.append((f"tco_pdf_render_{lang}", time.perf_counter() - start, "s"))
        rows.append((f"tco_pdf_size_{lang}", len(pdf) / 1024, "KiB"))
    return rows


if __name__ == "__main__":
    for name, value, unit in run():
        print(f"{name} {value:.3f} {unit}")
