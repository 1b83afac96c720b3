"""Steady-state training throughput on H100 against NVIDIA's published Megatron-Bridge
performance tables: a validation set separate from the whole-run GPU-hours of
``calibration_runs`` (those include restarts, evaluation and every training phase; these
are tokens per second per GPU of one well-tuned step).

Source: NVIDIA-NeMo/Megatron-Bridge docs/performance-summary.md, "25.11 NeMo
Container", Pre-Training Performance, System: DGX-H100 (tokens / sec / GPU; MoE rows
force-balanced and token-dropless); DeepSeek-V3 from the 25.09 container's DGX-H100
table (1,024 GPUs, dropless).

Measured (engine / published - 1): the MoE rows are within 10 % (gpt-oss-120b -5 %,
Qwen3-30B-A3B +9 %, Qwen3-235B-A22B +4 %, DeepSeek-V3 +3 %); the dense FP8 rows are
too slow and the more so the smaller the model (405B -22 %, 70B -39 %, 8B -62 %): the
memory-bound term and the 1.42x FP8 gain are calibrated on whole runs of the
2023-2024 software stacks, which NVIDIA's 2025 FP8 recipes outrun. The test holds the
MoE rows to 15 % and never lets the engine promise more than the published stack.
"""

import statistics

import pytest

from sizing.engine import workload_from_dict
from sizing.engine.model import training_flops_per_token
from sizing.engine.training import TrainingRates

H100 = "h100-sxm-80gb"
# (preset, GPUs, sequence, precision, published tokens/s/GPU, is MoE)
ROWS = (
    ("llama-3.1-8b", 8, 8192, "fp8", 14451, False),
    ("llama-3.1-70b", 64, 8192, "fp8", 1602, False),
    ("llama-3.1-405b", 1024, 8192, "fp8", 292, False),
    ("gpt-oss-120b", 64, 4096, "bf16", 5630, True),
    ("qwen3-30b-a3b", 16, 4096, "fp8", 5275, True),
    ("qwen3-235b-a22b", 256, 4096, "fp8", 1575, True),
    ("deepseek-v3", 1024, 4096, "fp8", 1297, True),
)


def engine_tokens_per_s(catalog, preset, gpus, seq_len, precision) -> float:
    body = dict(
        kind="training",
        model={"preset": preset},
        tokens_b=1,
        gpu_count=gpus,
        seq_len=seq_len,
        global_batch_tokens=128 * seq_len,
        precision=precision,
    )
    w = workload_from_dict(body, catalog)
    rates = TrainingRates(catalog.accelerators[H100], w)
    model, extra = training_flops_per_token(w.model, seq_len, w.recompute)
    return rates.peak_tflops * 1e12 * rates.efficiency(gpus).hfu / (model + extra)


@pytest.mark.parametrize("row", ROWS, ids=[f"{r[0]}-{r[1]}" for r in ROWS])
def test_engine_never_promises_more_than_the_published_h100_step(catalog, row):
    preset, gpus, seq_len, precision, published, moe = row
    ratio = engine_tokens_per_s(catalog, preset, gpus, seq_len, precision) / published
    assert ratio < 1.15, f"{preset}: {ratio - 1:+.0%}"
    if moe:
        assert ratio > 0.85, f"{preset}: {ratio - 1:+.0%}"


def test_moe_steady_state_median_error_on_h100(catalog):
    errors = [
        engine_tokens_per_s(catalog, p, g, s, prec) / pub - 1
        for p, g, s, prec, pub, moe in ROWS
        if moe
    ]
    assert statistics.median(abs(e) for e in errors) < 0.10
