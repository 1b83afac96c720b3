"""The training step model against published steady-state throughputs (tokens per
second per GPU of one well-tuned step, no restarts): the calibration set of the two
constants of ``step_roofline`` (STEP_SHARE for dense steps, MOE_STEP_SHARE for MoE),
each the value that minimises the median |log error| over its rows and the odd half of
the blind published training cases (``tests/sizing/blind_cases``) -- never one row.

Sources:
- NVIDIA-NeMo/Megatron-Bridge docs/performance-summary.md, "25.11 NeMo Container",
  Pre-Training Performance, System: DGX-H100 (tokens / sec / GPU; MoE rows
  force-balanced and token-dropless); DeepSeek-V3 from the 25.09 container's DGX-H100
  table (1,024 GPUs, dropless);
- Touvron et al. 2023 (LLaMA), section 2.4: the 65B model "processes around 380
  tokens/sec/GPU on 2048 A100 GPU with 80GB of RAM" (2,048-token sequences, 4M-token
  batch).
The validation set is separate: the blind published cases (``test_blind_cases``) and
the whole-run GPU-hours (``test_calibration``).
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

import pytest

from sizing.engine import efficiency, step_roofline, workload_from_dict
from sizing.engine.sized_workload import size_workload
from tests.sizing.blind_cases.runner import ratio as blind_ratio
from tests.sizing.blind_cases.runner import split

H100 = "h100-sxm-80gb"
A100 = "a100-sxm-80gb"
LLAMA_65B = dict(
    layers=80,
    hidden_size=8192,
    attention_heads=64,
    kv_heads=64,
    ffn_hidden_size=22016,
    vocab_size=32000,
)


@dataclass(frozen=True)
class Row:
    name: str
    model: dict
    accelerator: str
    gpus: int
    seq_len: int
    batch_sequences: int
    precision: str
    published: float  # tokens / s / GPU
    moe: bool


ROWS = (
    Row("Llama 3.1 8B FP8", {"preset": "llama-3.1-8b"}, H100, 8, 8192, 128, "fp8",
        14451, False),
    Row("Llama 3.1 70B FP8", {"preset": "llama-3.1-70b"}, H100, 64, 8192, 128,
        "fp8", 1602, False),
    Row("Llama 3.1 405B FP8", {"preset": "llama-3.1-405b"}, H100, 1024, 8192, 512,
        "fp8", 292, False),
    Row("LLaMA 65B BF16 A100", LLAMA_65B, A100, 2048, 2048, 2048, "bf16", 380, False),
    Row("gpt-oss-120b BF16", {"preset": "gpt-oss-120b"}, H100, 64, 4096, 128, "bf16",
        5630, True),
    Row("Qwen3-30B-A3B FP8", {"preset": "qwen3-30b-a3b"}, H100, 16, 4096, 128, "fp8",
        5275, True),
    Row("Qwen3-235B-A22B FP8", {"preset": "qwen3-235b-a22b"}, H100, 256, 4096, 1024,
        "fp8", 1575, True),
    Row("DeepSeek-V3 FP8", {"preset": "deepseek-v3"}, H100, 1024, 4096, 8192, "fp8",
        1297, True),
)  # fmt: skip


def steady_tokens_per_s(catalog, row: Row) -> float:
    """The engine's tokens / s / GPU of the steps alone (its days x goodput)."""
    body = dict(
        kind="training",
        model=row.model,
        tokens_b=1,
        gpu_count=row.gpus,
        seq_len=row.seq_len,
        global_batch_tokens=row.batch_sequences * row.seq_len,
        precision=row.precision,
    )
    workload = workload_from_dict(body, catalog)
    plan = size_workload(workload, catalog.accelerators[row.accelerator], catalog)
    training = plan.training
    return 1e9 / (training.days * 86400.0 * training.goodput) / row.gpus


def _clear_caches() -> None:
    step_roofline.token_time.cache_clear()
    efficiency._steady.cache_clear()


BLIND_CALIBRATION = [
    case for case in split("calibration") if case["category"] == "training_throughput"
]


def median_log_error(catalog, rows, name: str, value: float, moe: bool) -> float:
    shipped = getattr(step_roofline, name)
    setattr(step_roofline, name, value)
    _clear_caches()
    try:
        logs = [
            abs(math.log(steady_tokens_per_s(catalog, r) / r.published)) for r in rows
        ]
        for case in BLIND_CALIBRATION:
            if bool(case["inputs"]["model"].get("moe")) == moe:
                r = blind_ratio(catalog, case)
                if r:
                    logs.append(abs(math.log(r)))
        return statistics.median(logs)
    finally:
        setattr(step_roofline, name, shipped)
        _clear_caches()


@pytest.mark.parametrize(
    ("name", "moe"), [("STEP_SHARE", False), ("MOE_STEP_SHARE", True)]
)
def test_each_step_share_is_the_median_optimum_of_its_calibration_rows(
    catalog, name, moe
):
    rows = [r for r in ROWS if r.moe == moe]
    assert len(rows) >= 4
    grid = [round(0.30 + 0.01 * i, 2) for i in range(71)]
    errors = {v: median_log_error(catalog, rows, name, v, moe) for v in grid}
    best = min(errors, key=errors.get)
    shipped = getattr(step_roofline, name)
    # the shipped constant is as good as the grid's best (ties span a plateau)
    assert errors[round(shipped, 2)] <= errors[best] + 0.005, (name, best, errors)


def test_calibration_rows_error_table(catalog):
    lines, errors = [], {False: [], True: []}
    for row in ROWS:
        ratio = steady_tokens_per_s(catalog, row) / row.published
        errors[row.moe].append(ratio)
        lines.append(f"{row.name:24s} engine / published {ratio:5.2f}")
    print("\n" + "\n".join(lines))
    dense_median = statistics.median(abs(r - 1) for r in errors[False])
    moe_median = statistics.median(abs(r - 1) for r in errors[True])
    # measured at the shipped constants: dense 1.03 / 1.06 / 1.05 / 0.94 (median
    # 0.045), MoE 0.90 / 1.74 / 1.11 / 0.89 (median 0.105); Qwen3-30B-A3B, the
    # smallest experts, is the known miss: the engine 1.74x faster
    assert dense_median <= 0.06
    assert moe_median <= 0.20
    assert all(0.75 < r < 1.3 for r in errors[False]), errors
    assert all(0.6 < r < 2.0 for r in errors[True]), errors
