"""The sizing engine's outputs over a fixed set of inputs, against
``golden/sizing.json`` and the ENGINE_VERSION it records (tests/golden.py: a changed
output needs a version bump; ``UPDATE_GOLDEN=1`` regenerates after one).

The catalogue is a frozen copy of ``sizing/data`` (``golden/catalog/``), so that a new
or corrected catalogue row is not taken for an engine change: only the engine's code
moves these figures.
"""

from __future__ import annotations

from pathlib import Path

from sizing.engine import (
    ENGINE_VERSION,
    constraints_from_dict,
    estimate,
    plan_cluster,
    workload_from_dict,
)
from sizing.reference_data import load_catalog
from tests.golden import check_golden

GOLDEN = Path(__file__).parent / "golden"
CN = {"region": "cn", "budget_usd": 20_000_000, "rack_power_limit_kw": 40}
CASES = {
    "training_llama3_8b_h100": (
        [{"kind": "training", "model": {"preset": "llama-3-8b"}, "tokens_b": 500,
          "target_days": 14}],
        "h100-sxm-80gb",
        None,
    ),
    "lora_qwen25_7b_8_gpus": (
        [{"kind": "fine_tuning", "model": {"preset": "qwen2.5-7b"}, "tokens_b": 1,
          "gpu_count": 8, "lora_trainable_fraction": 0.02}],
        "h100-sxm-80gb",
        None,
    ),
    "inference_mixtral_h100": (
        [{"kind": "inference", "model": {"preset": "mixtral-8x7b"},
          "tokens_per_second": 3000, "ttft_ms": 1500, "tpot_ms": 60}],
        "h100-sxm-80gb",
        None,
    ),
    "inference_burst_qwen3_30b_varied_h100": (
        [{"kind": "inference", "model": {"preset": "qwen3-30b-a3b"},
          "concurrent_requests": 600, "context_tokens": 220, "output_tokens": 200,
          "gpu_count": 2, "arrival": "burst"}],
        "h100-sxm-80gb",
        None,
    ),
    "inference_deepseek_v3_h20_cn": (
        [{"kind": "inference", "model": {"preset": "deepseek-v3"},
          "tokens_per_second": 2000, "ttft_ms": 2000, "tpot_ms": 80,
          "precision": "fp8"}],
        "h20-sxm-96gb",
        CN,
    ),
    "training_llama3_70b_ranked": (
        [{"kind": "training", "model": {"preset": "llama-3-70b"}, "tokens_b": 1000,
          "target_days": 30}],
        None,
        None,
    ),
    "cluster_training_and_inference_h200": (
        [
            {"kind": "training", "model": {"preset": "qwen2.5-72b"}, "tokens_b": 200,
             "target_days": 30},
            {"kind": "inference", "model": {"preset": "llama-3.1-70b"},
             "tokens_per_second": 1500, "ttft_ms": 1000, "tpot_ms": 50},
        ],
        "h200-sxm-141gb",
        CN,
    ),
}  # fmt: skip


def _outputs() -> dict:
    catalog = load_catalog(GOLDEN / "catalog")
    outputs = {}
    for name, (bodies, accelerator, constraints_body) in CASES.items():
        workloads = [workload_from_dict(body, catalog) for body in bodies]
        constraints = constraints_from_dict(constraints_body)
        if len(workloads) == 1:
            result = estimate(workloads[0], catalog, accelerator, constraints)
        else:
            result = plan_cluster(workloads, catalog, accelerator, constraints)
        outputs[name] = result.to_dict()
    return outputs


def test_the_sizing_outputs_match_their_engine_version():
    check_golden(
        GOLDEN / "sizing.json",
        version=ENGINE_VERSION,
        where="sizing/engine/estimate.py",
        outputs=_outputs(),
    )
