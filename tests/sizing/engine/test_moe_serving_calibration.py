"""MoE serving throughput against published tables (issue 21, item 1).

CALIBRATION. One constant is chosen on it: ``moe_cost.GROUPED_GEMM_STREAM_LOSS`` 1.25,
by a grid (0.5-2.5 in steps of 0.25) minimising the mean of two medians of |log error|,
over the 39 rows below and over the odd half of the second blind set
(``test_blind_serving_cases_2.py``), each set weighted equally, never one row.
``moe_cost.ROUTING_SKEW_CV`` 2.5 is held at the value that reproduces SGLang's EPLB
ablation (validation 2); the Blackwell FP4 GEMM share 0.5 of
``serving_needs.GEMM_SHARE_OF_REFERENCE`` was chosen on these rows' FP4 half at
sizing-2.2.0 and is unchanged. Source of the 39 rows: every MoE row below of NVIDIA
TensorRT-LLM v1.0 "Overview" (docs/source/performance/perf-overview.md at commit 00f3768,
https://github.com/NVIDIA/TensorRT-LLM/blob/00f37686aa854010d68bcbd0f4ab000221541ca6/docs/source/performance/perf-overview.md),
tables "Qwen3-235B-A22B", "Llama 4 Maverick", "Llama 4 Scout", "Qwen3-30B-A3B";
trtllm-bench throughput at an infinite request rate, "Total Output Throughput", FP8 KV
cache, attention DP, no EPLB.

KERNEL BOUND (a measurement, not a fit): DeepGEMM's README at 989c9e3 (2025-04-09,
https://github.com/deepseek-ai/DeepGEMM/blob/989c9e3/README.md, tables "Normal GEMMs for
dense models" and "Grouped GEMMs for MoE models (masked layout)", H800 SXM5, FP8). The
engine's kernel term, max(padded rows' compute at the FP8 GEMM efficiency, weight
stream at ETA_MEM), reproduces every DeepSeek expert shape of those tables within
0.84-1.28 of its measured time (median 0.96); the frameworks' loss above it is the calibrated
stream loss.

VALIDATION (other sources and engines, not used to choose anything): the even half of
the second blind set, and:
1. SGLang, "Deploying DeepSeek with PD Disaggregation and Large-scale Expert Parallelism
   on 96 H100 GPUs" (LMSYS blog, 2025-05-05, https://lmsys.org/blog/2025-05-05-large-scale-ep/,
   table "For decode"): DeepSeek-V3, decode on 9 x 8 H100 (EP72), 256 sequences per GPU,
   KV length 2,000, EPLB on: 22,282 output tokens/s per node = 2,785 per GPU. Modelled
   as EP64 (256 experts split evenly), decode only (prefill runs on other nodes).
2. The same blog's EPLB ablation: EPLB speeds decode up x2.54 at that scale.
3. SGLang, "Deploying DeepSeek on GB200 NVL72 with PD and Large Scale EP (Part I)"
   (LMSYS blog, 2025-06-16, https://lmsys.org/blog/2025-06-16-gb200-part-1/): 7,583
   decode tokens/s per GPU for 2,000-token inputs, 12 trays (48 GPUs) decoding over
   NVLink. The blog gives no batch: modelled at 256 sequences per GPU (the H100 run's),
   EP64 inside the 72-GPU NVLink domain.

Errors at sizing-2.5 (predicted / published):
- calibration, 39 rows: median 1.14, median |log error| 0.143, range 0.80-1.71 (at
  sizing-2.4.0, with a 384-row fill of compute per touched expert: 1.03, 0.156,
  0.62-1.63; before the MoE terms: median 2.02, range 1.19-3.78); FP8 Hopper rows (25)
  median 1.13, range 0.85-1.65; FP4 Blackwell rows (14) median 1.23, range 0.80-1.71.
- validation 1: 1,695 / 2,785 = 0.61 (pessimistic: SGLang's two-batch overlap, +25.5 %
  in the same blog, and its data-parallel dense layers are not modelled).
- validation 2: x2.51 modelled vs x2.54 measured.
- validation 3: 8,456 / 7,583 = 1.12.
- dense control (Llama 3.3 70B FP8 and FP4 rows, same tables, 9 rows): median 0.99,
  range 0.85-1.18.
"""

import statistics

import pytest

from sizing.engine import estimate
from sizing.engine.moe_cost import (
    attention_barrier,
    expert_load_imbalance,
    grouped_gemm_efficiency,
    grouped_gemm_s,
    kernel_bound_s,
    padded_rows,
    routed_copy_bytes,
    tile_efficiency,
)
from sizing.engine.platform import fabric_for, server_for
from sizing.engine.serving_cost import LayoutCost
from sizing.engine.serving_layout import ServingLayout
from sizing.engine.serving_needs import device_rates, serving_needs

# (preset, accelerator, GPUs, precision, ISL, OSL, published tokens/s)
CALIBRATION = [
    ("qwen3-235b-a22b", "h200-sxm-141gb", 8, "fp8", 128, 2048, 42_821),
    ("qwen3-235b-a22b", "h200-sxm-141gb", 8, "fp8", 1000, 1000, 23_789),
    ("qwen3-235b-a22b", "h200-sxm-141gb", 8, "fp8", 2048, 2048, 16_672),
    ("qwen3-235b-a22b", "h200-sxm-141gb", 8, "fp8", 5000, 500, 3_623),
    ("qwen3-235b-a22b", "h200-sxm-141gb", 8, "fp8", 128, 4096, 26_852),
    ("qwen3-235b-a22b", "h100-sxm-80gb", 8, "fp8", 128, 2048, 19_658),
    ("qwen3-235b-a22b", "h100-sxm-80gb", 8, "fp8", 1000, 1000, 14_898),
    ("qwen3-235b-a22b", "h100-sxm-80gb", 8, "fp8", 2048, 2048, 9_924),
    ("qwen3-235b-a22b", "h100-sxm-80gb", 8, "fp8", 5000, 500, 3_225),
    ("qwen3-235b-a22b", "b200-sxm-180gb", 8, "nvfp4", 128, 2048, 66_057),
    ("qwen3-235b-a22b", "b200-sxm-180gb", 8, "nvfp4", 1000, 1000, 42_391),
    ("qwen3-235b-a22b", "b200-sxm-180gb", 8, "nvfp4", 2048, 2048, 26_854),
    ("qwen3-235b-a22b", "b200-sxm-180gb", 8, "nvfp4", 5000, 500, 8_190),
    ("llama-4-maverick", "h200-sxm-141gb", 8, "fp8", 128, 2048, 40_572),
    ("llama-4-maverick", "h200-sxm-141gb", 8, "fp8", 1000, 1000, 31_782),
    ("llama-4-maverick", "h200-sxm-141gb", 8, "fp8", 2048, 2048, 20_957),
    ("llama-4-maverick", "h200-sxm-141gb", 8, "fp8", 5000, 500, 8_456),
    ("llama-4-maverick", "h100-sxm-80gb", 8, "fp8", 128, 2048, 10_829),
    ("llama-4-maverick", "h100-sxm-80gb", 8, "fp8", 1000, 1000, 9_677),
    ("llama-4-maverick", "h100-sxm-80gb", 8, "fp8", 2048, 2048, 6_916),
    ("llama-4-maverick", "h100-sxm-80gb", 8, "fp8", 5000, 500, 3_457),
    ("llama-4-maverick", "b200-sxm-180gb", 8, "nvfp4", 128, 2048, 112_676),
    ("llama-4-maverick", "b200-sxm-180gb", 8, "nvfp4", 1000, 1000, 79_617),
    ("llama-4-maverick", "b200-sxm-180gb", 8, "nvfp4", 2048, 2048, 52_195),
    ("llama-4-scout", "h200-sxm-141gb", 4, "fp8", 128, 2048, 34_316),
    ("llama-4-scout", "h200-sxm-141gb", 4, "fp8", 1000, 1000, 21_636),
    ("llama-4-scout", "h200-sxm-141gb", 4, "fp8", 2048, 2048, 14_949),
    ("llama-4-scout", "h200-sxm-141gb", 4, "fp8", 5000, 500, 4_605),
    ("llama-4-scout", "h100-sxm-80gb", 4, "fp8", 128, 2048, 15_130),
    ("llama-4-scout", "h100-sxm-80gb", 4, "fp8", 1000, 1000, 12_129),
    ("llama-4-scout", "h100-sxm-80gb", 4, "fp8", 2048, 2048, 7_972),
    ("llama-4-scout", "h100-sxm-80gb", 4, "fp8", 5000, 500, 3_342),
    ("llama-4-scout", "b200-sxm-180gb", 1, "nvfp4", 128, 2048, 14_699),
    ("llama-4-scout", "b200-sxm-180gb", 1, "nvfp4", 1000, 1000, 10_591),
    ("llama-4-scout", "b200-sxm-180gb", 1, "nvfp4", 2048, 2048, 7_152),
    ("qwen3-30b-a3b", "b200-sxm-180gb", 1, "nvfp4", 128, 2048, 37_844),
    ("qwen3-30b-a3b", "b200-sxm-180gb", 1, "nvfp4", 1000, 1000, 25_828),
    ("qwen3-30b-a3b", "b200-sxm-180gb", 1, "nvfp4", 2048, 2048, 17_554),
    ("qwen3-30b-a3b", "b200-sxm-180gb", 1, "nvfp4", 5000, 500, 6_142),
]
SGLANG_DECODE_TOKENS_PER_GPU = 22_282 / 8


def _offline(catalog, make, preset, accelerator, gpus, precision, isl, osl):
    w = make(
        kind="inference",
        model={"preset": preset},
        precision=precision,
        kv_cache_precision="fp8",
        context_tokens=isl,
        output_tokens=osl,
        gpu_count=gpus,
        tokens_per_second=1e9,
    )
    return estimate(w, catalog, accelerator).inference["tokens_per_second"]


def _ratios(catalog, make):
    return [_offline(catalog, make, *row[:6]) / row[6] for row in CALIBRATION]


def test_calibration_set_median_is_within_the_recorded_band(catalog, make):
    ratios = _ratios(catalog, make)
    # before the MoE terms: median 2.02, worst 3.78 (issue 21: 1.65-3.2x too high)
    assert 0.9 <= statistics.median(ratios) <= 1.2
    assert statistics.median([abs(r - 1.0) for r in ratios]) <= 0.25
    assert 0.6 < min(ratios) and max(ratios) < 1.8


def test_validation_sglang_large_scale_ep_decode(catalog, make):
    w = make(
        kind="inference",
        model={"preset": "deepseek-v3"},
        precision="fp8",
        context_tokens=1900,
        output_tokens=200,
        concurrent_requests=256 * 64,
        expert_load_balancing=True,
    )
    acc = catalog.accelerators["h100-sxm-80gb"]
    cost = LayoutCost(
        w.model,
        fabric_for(acc, server_for(acc, catalog)),
        serving_needs(w),
        device_rates(acc, w),
        ServingLayout(1, 64, 1, 64),
    )
    batch = 256 * 64
    per_gpu = batch / cost.decode_step_s(batch) / 64
    # recorded error: 0.61 (pessimistic; two-batch overlap is not modelled)
    assert 0.5 < per_gpu / SGLANG_DECODE_TOKENS_PER_GPU < 1.3


def test_validation_sglang_gb200_nvl72_decode(catalog, make):
    w = make(
        kind="inference",
        model={"preset": "deepseek-v3"},
        precision="fp8",
        context_tokens=1900,
        output_tokens=200,
        concurrent_requests=256 * 64,
        expert_load_balancing=True,
    )
    acc = catalog.accelerators["gb200-nvl-186gb"]
    cost = LayoutCost(
        w.model,
        fabric_for(acc, server_for(acc, catalog)),
        serving_needs(w),
        device_rates(acc, w),
        ServingLayout(1, 64, 1, 64),
    )
    per_gpu = 256 * 64 / cost.decode_step_s(256 * 64) / 64
    # recorded error: 1.12 (the blog's batch is not published; 256 per GPU assumed)
    assert 0.8 < per_gpu / 7_583 < 1.4


def test_load_balancing_speeds_up_a_wide_expert_group(catalog, make):
    def decode_rate(balanced):
        w = make(
            kind="inference",
            model={"preset": "deepseek-v3"},
            precision="fp8",
            context_tokens=1900,
            output_tokens=200,
            concurrent_requests=256 * 64,
            expert_load_balancing=balanced,
        )
        acc = catalog.accelerators["h100-sxm-80gb"]
        cost = LayoutCost(
            w.model,
            fabric_for(acc, server_for(acc, catalog)),
            serving_needs(w),
            device_rates(acc, w),
            ServingLayout(1, 64, 1, 64),
        )
        return 1.0 / cost.decode_step_s(256 * 64)

    # SGLang's ablation at EP72 measured x2.54 for decode; the model gives x2.51
    assert decode_rate(True) / decode_rate(False) == pytest.approx(2.54, rel=0.15)


def test_tile_efficiency_pads_to_whole_tiles():
    # 225 tokens -> 4 tiles of 64 = 256 rows: 225 / 256; 4 tokens -> N-padding to 8
    assert tile_efficiency(225) == pytest.approx(225 / 256)
    assert tile_efficiency(4) == pytest.approx(0.5)
    assert tile_efficiency(64) == pytest.approx(1.0)
    assert padded_rows(225) == pytest.approx(256)
    assert padded_rows(4) == pytest.approx(8)


def test_grouped_gemm_time_is_the_kernel_bound_plus_the_stream_loss():
    # compute 10 us, stream 4 us: max(10, 4) + 1.25 x 4 = 15 us; memory-bound
    # (2 us of compute, 8 of stream): 8 + 10 = 18 us
    assert kernel_bound_s(10e-6, 4e-6) == pytest.approx(10e-6)
    assert grouped_gemm_s(10e-6, 4e-6) == pytest.approx(15e-6)
    assert grouped_gemm_s(2e-6, 8e-6) == pytest.approx(18e-6)
    # efficiency: the real rows' roofline over the modelled time; 1 real row of 8
    # padded (0.25 of 2 us) against an 8 us stream: 8 / 18
    assert grouped_gemm_efficiency(0.25e-6, 2e-6, 8e-6) == pytest.approx(8 / 18)


# DeepGEMM README at 989c9e3, H800 SXM5, FP8: (groups, m per group, N, K, TFLOPS) for
# DeepSeek-V3's expert shapes (gate/up 4096 x 7168, down 7168 x 2048; the m = 64 and
# 128 rows are its dense table's single GEMMs of the same shapes)
DEEPGEMM_H800 = [
    (1, 64, 4096, 7168, 287),
    (1, 64, 7168, 2048, 295),
    (1, 128, 4096, 7168, 533),
    (1, 128, 7168, 2048, 510),
    (4, 256, 4096, 7168, 932),
    (4, 256, 7168, 2048, 815),
    (2, 512, 4096, 7168, 1040),
    (2, 512, 7168, 2048, 916),
    (1, 1024, 4096, 7168, 1233),
    (1, 1024, 7168, 2048, 925),
]


def test_kernel_bound_matches_deepgemm_measured_grouped_gemms(catalog, make):
    acc = catalog.accelerators["h800-sxm-80gb"]
    rates = device_rates(acc, make(kind="inference", model={"preset": "deepseek-v3"},
                                   precision="fp8"))  # fmt: skip
    ratios = []
    for groups, m, n, k, tflops in DEEPGEMM_H800:
        flops = 2.0 * groups * m * n * k
        measured_s = flops / (tflops * 1e12)
        compute_s = 2.0 * groups * padded_rows(m) * n * k / rates.gemm_flops_per_s
        stream_s = groups * n * k / rates.decode_bytes_per_s  # FP8: 1 B per weight
        ratios.append(kernel_bound_s(compute_s, stream_s) / measured_s)
    # measured at sizing-2.5: 0.84-1.28, median 0.96 (the model's kernel is the best kernel's)
    assert 0.8 < min(ratios) and max(ratios) < 1.35
    assert 0.9 < statistics.median(ratios) < 1.15


def test_imbalance_hand_values():
    # 8 GPUs, 128 experts, 29,000 copies, no EPLB: sqrt(2.5^2 x 8/128 + 8/29000)
    # = sqrt(0.390625 + 0.000276) = 0.625221; x sqrt(2 ln 8) = 2.03933 -> 2.27503
    assert expert_load_imbalance(29_000, 8, 128, False) == pytest.approx(
        2.27503, abs=1e-4
    )
    # with EPLB only the noise: 1 + 2.03933 x sqrt(8 / 29000) = 1.03387
    assert expert_load_imbalance(29_000, 8, 128, True) == pytest.approx(
        1.03387, abs=1e-5
    )
    assert expert_load_imbalance(29_000, 1, 128, False) == 1.0
    # 8 ranks of 100 requests: 1 + 2.03933 / 10
    assert attention_barrier(100, 8) == pytest.approx(1.203933, abs=1e-6)
    # Qwen3-235B: 7 x 4096 + 9 x 1536 = 42,496 B per routed copy and layer
    assert routed_copy_bytes(4096, 1536) == 42_496


def test_gpt_oss_120b_at_131k_fits_one_h100(catalog, make):
    # OpenAI gpt-oss model card / vLLM recipe: gpt-oss-120b runs on one 80 GB GPU.
    # 0.9 x 81,559 MiB = 76.97 GB - 1.54 GB runtime and graphs = 75.43 GB; weights 65.17
    # GB (MXFP4 experts) + 0.57 activations + 18 full layers x 2 x 8 x 64 x 2 B x
    # 131,072 = 4.84 GB of cache (the 18 sliding layers keep 128 tokens)
    w = make(
        kind="inference",
        model={"preset": "gpt-oss-120b"},
        context_tokens=129_024,
        output_tokens=2_048,
        concurrent_requests=1,
    )
    r = estimate(w, catalog, "h100-sxm-80gb")
    assert r.gpu_count == 1
    assert r.memory["kv_cache_gb"] == pytest.approx(4.8366, abs=1e-3)
    assert "memory_headroom_low" not in {b.code for b in r.bottlenecks}


def test_memory_fraction_is_a_workload_input(catalog, make):
    def batch(fraction):
        w = make(
            kind="inference",
            model={"preset": "llama-3.1-70b"},
            precision="fp8",
            context_tokens=4096,
            output_tokens=512,
            gpu_count=1,
            tokens_per_second=1e9,
            gpu_memory_fraction=fraction,
        )
        return estimate(w, catalog, "h200-sxm-141gb").inference["max_batch_by_memory"]

    assert batch(0.95) > batch(0.9) > batch(0.8)
