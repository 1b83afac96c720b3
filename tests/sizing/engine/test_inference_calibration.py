"""Serving speed against published throughput (issue 11, item 8): within +-30 %.

Source of every point: NVIDIA TensorRT-LLM "Overview" performance tables, v1.0
(docs/source/performance/perf-overview.md at commit 00f3768,
https://github.com/NVIDIA/TensorRT-LLM/blob/00f37686aa854010d68bcbd0f4ab000221541ca6/docs/source/performance/perf-overview.md;
rendered at https://nvidia.github.io/TensorRT-LLM/performance/perf-overview.html),
tables "Llama 3.1 8B" (H200 TP1 / H100 TP1, FP8) and "Llama 3.3 70B" (H200 TP1 / H100
TP2, FP8): trtllm-bench throughput, requests at an infinite rate, metric "Total Output
Throughput (tokens/sec)" of the whole TP group. Models: nvidia/Llama-3.1-8B-Instruct-FP8
and nvidia/Llama-3.3-70B-Instruct-FP8 (ModelOpt FP8 weights and FP8 KV cache; Llama 3.3
70B has Llama 3.1 70B's config.json). DGX H100 / DGX H200.

The engine is not fitted to these points: decode is weight GEMMs then attention, each
the slower of compute (0.5 x dense peak) and memory (0.7 x HBM bandwidth), with the
batch limited by the KV cache that fits; saturation is the offline benchmark's regime.
"""

import statistics

import pytest

from sizing.engine import estimate

TRTLLM_V1 = "TensorRT-LLM v1.0 perf-overview.md"
POINTS = [
    # (preset, accelerator, GPUs, ISL, OSL, published tokens/s, table / row)
    ("llama-3.1-8b", "h100-sxm-80gb", 1, 128, 2048, 22_714, "8B, H100 TP1, 128/2048"),
    ("llama-3.1-8b", "h200-sxm-141gb", 1, 128, 2048, 26_221, "8B, H200 TP1, 128/2048"),
    ("llama-3.1-8b", "h100-sxm-80gb", 1, 1000, 1000, 15_220, "8B, H100 TP1, 1000/1000"),
    (
        "llama-3.1-8b",
        "h200-sxm-141gb",
        1,
        1000,
        1000,
        17_744,
        "8B, H200 TP1, 1000/1000",
    ),
    ("llama-3.1-8b", "h100-sxm-80gb", 1, 2048, 128, 3_450, "8B, H100 TP1, 2048/128"),
    (
        "llama-3.1-8b",
        "h200-sxm-141gb",
        1,
        2048,
        2048,
        12_194,
        "8B, H200 TP1, 2048/2048",
    ),
    ("llama-3.1-70b", "h200-sxm-141gb", 1, 128, 2048, 4_336, "70B, H200 TP1, 128/2048"),
    (
        "llama-3.1-70b",
        "h200-sxm-141gb",
        1,
        1000,
        1000,
        2_909,
        "70B, H200 TP1, 1000/1000",
    ),
    ("llama-3.1-70b", "h200-sxm-141gb", 1, 5000, 500, 566, "70B, H200 TP1, 5000/500"),
    ("llama-3.1-70b", "h100-sxm-80gb", 2, 128, 2048, 6_651, "70B, H100 TP2, 128/2048"),
    (
        "llama-3.1-70b",
        "h100-sxm-80gb",
        2,
        1000,
        1000,
        4_205,
        "70B, H100 TP2, 1000/1000",
    ),
    ("llama-3.1-70b", "h100-sxm-80gb", 2, 2048, 128, 762, "70B, H100 TP2, 2048/128"),
]


def _offline_throughput(catalog, make, preset, accelerator, gpus, isl, osl, kv="fp8"):
    w = make(
        kind="inference",
        model={"preset": preset},
        precision="fp8",
        kv_cache_precision=kv,
        context_tokens=isl,
        output_tokens=osl,
        gpu_count=gpus,
        tokens_per_second=1e9,  # offline: as many requests as memory holds
    )
    return estimate(w, catalog, accelerator).inference["tokens_per_second"]


@pytest.mark.parametrize(
    ("preset", "accelerator", "gpus", "isl", "osl", "published", "row"),
    POINTS,
    ids=[point[-1] for point in POINTS],
)
def test_offline_throughput_is_within_30_percent_of_tensorrt_llm(
    catalog, make, preset, accelerator, gpus, isl, osl, published, row
):
    predicted = _offline_throughput(catalog, make, preset, accelerator, gpus, isl, osl)
    assert predicted == pytest.approx(published, rel=0.30), f"{TRTLLM_V1}: {row}"


def test_median_error_over_the_published_points_is_small(catalog, make):
    # Predicted / published (engine at this commit, with the issue-21 memory budget of
    # 0.9 x the reported MiB): 0.90 0.98 0.90 0.93 0.87 0.90 1.10 0.95 0.86 1.18 1.14
    # 0.99 -> median |error| about 10 %
    errors = [
        abs(_offline_throughput(catalog, make, *point[:5]) / point[5] - 1.0)
        for point in POINTS
    ]
    assert statistics.median(errors) <= 0.12


def test_fp8_kv_cache_doubles_the_requests_memory_holds(catalog, make):
    # Llama 3.1 8B on H100, 128/2048: KV 65,536 B/token in FP8 vs 131,072 in BF16, so
    # twice the batch fits and the memory-bound throughput nearly doubles (the
    # published FP8 runs are only reachable with the FP8 cache)
    args = ("llama-3.1-8b", "h100-sxm-80gb", 1, 128, 2048)
    fp8 = _offline_throughput(catalog, make, *args, kv="fp8")
    bf16 = _offline_throughput(catalog, make, *args, kv="bf16")
    assert 1.5 < fp8 / bf16 < 2.0
    assert bf16 < 0.7 * 22_714
