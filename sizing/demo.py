"""Demo data of sizing: the demo procurement's requirement, two workloads and a plan.

Budget, horizon, site, region and the team's experience are the procurement's
(clusterbuy.demo).

Idempotent: workloads are found by name, the plan is computed only when none exists.
"""

from . import services
from .models import SizingPlan, Workload

TRAINING = {
    "name": "继续预训练 Continued pre-training 70B",
    "kind": "training",
    "model_preset": "llama-3.1-70b",
    "precision": "bf16",
    "seq_len": 8192,
    "tokens_b": 500.0,
    "target_days": 60.0,
    "dataset_tb": 2.0,
}
INFERENCE = {
    "name": "在线推理 Inference Qwen2.5-72B",
    "kind": "inference",
    "model_preset": "qwen2.5-72b",
    "precision": "bf16",
    "context_tokens": 4096,
    "output_tokens": 512,
    "concurrent_requests": 200,
    "ttft_ms": 2000.0,
    "tpot_ms": 50.0,
}


def load(context: dict) -> None:
    services.ensure_catalog_loaded()
    procurement = context["procurement"]
    user = context["users"]["demo-it"]
    services.save_requirement(
        procurement=procurement,
        user=user,
        scenario="mixed",
        data_tb=2.0,
        growth_per_year=30.0,
        rack_power_limit_kw=40.0,
        liquid_cooling_ok=False,
        preferred_ecosystem="",
    )
    for values in (TRAINING, INFERENCE):
        if not Workload.objects.filter(
            procurement=procurement, name=values["name"]
        ).exists():
            services.create_workload(procurement=procurement, **values)
    if not SizingPlan.objects.filter(procurement=procurement).exists():
        services.compute_sizing_plan(procurement=procurement, user=user)
