"""Demo TCO data: one scenario for the demo procurement and one finished run with PDF.

The run is executed in-process (no broker needed) and only when the scenario has no
succeeded run yet, so ``load_demo`` twice changes nothing.
"""

from __future__ import annotations

from . import services
from .models import RunStatus, TcoRun, TcoScenario

SCENARIO_NAME = "基线方案 Baseline"
#: Capex of a 64 x H100 cluster in CNY (indicative; replaced by bids in a real case).
DEMO_CAPEX = [
    {
        "category": "gpu_servers",
        "description": "8 x HGX H100 8-GPU",
        "amount": 17_600_000,
    },
    {
        "category": "network",
        "description": "400G InfiniBand fabric",
        "amount": 3_000_000,
    },
    {
        "category": "storage",
        "description": "Parallel file system 1 PB",
        "amount": 1_500_000,
    },
    {"category": "facility", "description": "PDU, UPS, cooling", "amount": 800_000},
    {"category": "installation", "description": "Racking, burn-in", "amount": 200_000},
]


def load(context: dict) -> None:
    procurement = context["procurement"]
    user = context["users"]["demo-it"]
    scenario = TcoScenario.objects.filter(
        procurement=procurement, name=SCENARIO_NAME
    ).first()
    if scenario is None:
        inputs = services.prefill_inputs(procurement=procurement)
        gpu_lines = [
            c for c in inputs.get("capex", []) if c["category"] == "gpu_servers"
        ]
        inputs["capex"] = (gpu_lines or DEMO_CAPEX[:1]) + DEMO_CAPEX[1:]
        inputs.setdefault("gpu_count", 64)
        inputs["staff_fte"] = 2
        scenario = services.save_scenario(
            procurement=procurement, user=user, name=SCENARIO_NAME, inputs=inputs
        )
    done = TcoRun.objects.filter(scenario=scenario, status=RunStatus.SUCCEEDED)
    if done.exists():
        return
    run = services.request_tco_run(
        scenario=scenario,
        user=context["users"]["demo-manager"],
        lang="zh-hans",
        enqueue=False,
    )
    services.execute_tco_run(run_id=run.pk)
