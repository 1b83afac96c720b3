"""The second blind serving set: 48 published rows (24 MoE throughput, 24 latency at
load) written into ``tests/sizing/blind_cases/serving_cases_2.json`` by an agent that
had not seen the engine (copied verbatim; sources: GPUStack performance lab, LMSYS
SGLang blogs, sgl-cookbook, InferenceX sweeps, NVIDIA NIM, DataCrunch). Split by
position (odd = calibration, even = validation) like the first set. Nothing was tuned
on it: the serving model was frozen before it arrived (sizing-2.3.0: the burst arrival,
the given count's layout by request time, the prefill's weight-read floor came from
the first set's calibration half). One change was tried on it and rejected: a
grouped-GEMM fill scaled to each device's ridge point fitted the TensorRT-LLM
calibration better (median |log error| 0.133 against 0.156) but moved this set both
ways (InferenceX DeepSeek-R1 rows 0.54 -> 0.49, gpt-oss on 2 x H100 0.18 -> 0.38,
GPUStack gpt-oss bursts 1.02 -> 1.66), so the fixed 384-row fill stays.

Measured at sizing-2.3.0 (factor = exp(|log ratio|)):

calibration (odd)        n  median  max     within tolerance
  serving_throughput_moe 10  2.217   37.31   2
  serving_latency        11  1.251   10.51   6
validation (even)
  serving_throughput_moe 10  1.854    5.462  2
  serving_latency         7  1.138    5.664  4

What the misses say (each case is listed below with its reason):
- GPUStack's bursts of 1,000 ShareGPT requests (M01-M12) measure the makespan of a
  fixed batch, which the longest outputs of the dataset set; the engine sizes a steady
  batch at the mean request: 1.6-3.4x optimistic, except gpt-oss and the A100 W8A16
  rows, within tolerance.
- DeepSeek-R1 on 8 x H200 at 8-64 concurrent requests (InferenceX, SGLang TP8): the
  engine is 1.5-1.9x pessimistic on TPOT and throughput; the fixed fill of 384 rows
  per touched expert overcharges DeepSeek's large experts at few tokens each.
- gpt-oss-120b on 2 x H100 at 64 requests (InferenceX, vLLM): 0.18x; the MXFP4
  experts dequantised on Hopper are charged the BF16 fill.
- TTFT of a single short prompt (sgl-cookbook, InferenceX: 34-427 ms published
  against 3-83 ms modelled): the API server's tokenisation, scheduling and streaming
  are not in the model, and 10-request runs include a cold start.
- Kimi K2 on 128 H200 (M17): a PD-disaggregated saturation figure whose concurrency is
  per rank; the case's 480 is not the deployment's.
"""

import pytest

from tests.sizing.blind_cases.runner import (
    SERVING_CASES_2,
    misses_and_unmapped,
    split,
    table,
    worse_than_measured,
)

MEASURED = {
    "calibration": {
        "serving_throughput_moe": (2.217, 37.314, 2),
        "serving_latency_at_load": (1.251, 10.51, 6),
    },
    "validation": {
        "serving_throughput_moe": (1.854, 5.462, 2),
        "serving_latency_at_load": (1.138, 5.664, 4),
    },
}
BURST_MAKESPAN = {  # GPUStack: a fixed batch's makespan, set by the dataset's tail
    "M01_gpustack_dsr1_8xH200_sglang_dpattn_sharegpt_burst1000",
    "M02_gpustack_dsr1_8xH200_vllm_tp8_sharegpt_burst1000",
    "M03_gpustack_dsr1_8xH200_sglang_dpattn_rand4000_200_burst500",
    "M04_gpustack_qwen3_235b_8xH100_vllm_bf16_tp8_sharegpt_burst",
    "M05_gpustack_qwen3_235b_fp8_4xH100_vllm_tp4_sharegpt_burst",
    "M06_gpustack_qwen3_235b_8xA100_vllm_bf16_tp8_sharegpt_burst",
    "M10_gpustack_gptoss20b_1xH100_vllm_async_sharegpt_burst",
    "M11_gpustack_glm46_8xH200_vllm_bf16_tp8_sharegpt_burst",
    "M12_gpustack_glm46_fp8_4xH200_sglang_tp4_sharegpt_burst",
}
KNOWN_MISSES = {
    "calibration": {
        *(c for c in BURST_MAKESPAN if int(c[1:3]) % 2),
        "M17_lmsys_kimik2_128xH200_1p1d_isl2000_osl100",  # concurrency per rank
        # DeepSeek-R1 8 x H200 SGLang TP8: pessimistic (fill of large experts)
        "M19_inferencex_dsr1_fp8_8xH200_sglang_tp8_1k1k_c16",
        "L05_gpustack_dsr1_8xH200_vllm_tp8_sharegpt_c4_tpot",
        "L19_inferencex_dsr1_fp8_8xH200_sglang_tp8_1k1k_c64_tpot",
        # Qwen3-235B and gpt-oss on 8 x B200 (sgl-cookbook): optimistic
        "M21_sglcookbook_qwen3_235b_bf16_8xB200_tp8_rand1k1k_c100",
        "M23_sglcookbook_gptoss120b_8xB200_tp8_sharegpt_c100",
        # a short prompt's TTFT: the API server and cold starts are not modelled
        "L13_sglcookbook_qwen3_235b_8xB200_tp8_c1_ttft",
        "L17_sglcookbook_gptoss120b_8xB200_tp8_sharegpt_c1_ttft",
        "L21_inferencex_dsr1_nvfp4_8xB200_sglang_tp8ep8_1k1k_c4_ttft",
    },
    "validation": {
        *(c for c in BURST_MAKESPAN if not int(c[1:3]) % 2),
        "M18_inferencex_dsr1_fp8_8xH200_sglang_tp8_1k1k_c64",
        "M20_inferencex_dsr1_nvfp4_8xB200_sglang_tp8ep8_1k1k_c32",
        "M24_inferencex_gptoss120b_2xH100_vllm_tp2_1k1k_c64",  # MXFP4 on Hopper
        "L12_sglcookbook_qwen3_235b_8xB200_tp8_c1_tpot",
        "L18_inferencex_dsr1_fp8_8xH200_sglang_tp8_1k1k_c8_tpot",
        "L20_inferencex_dsr1_fp8_8xH200_sglang_tp8_1k1k_c32_ttft",
    },
}
# no request shape published (decode-only figures, a dataset without totals, a
# Poisson rate with no length)
UNMAPPED = {
    "calibration": {
        "M13_lmsys_dsv3_72xH100_decode_ep72_bs256_isl2000",
        "M15_lmsys_dsv3_gb200_decode_fp8attn_nvfp4moe_48rank",
        "L23_datacrunch_llama31_70b_4xH200_sglang_poisson_rps8_ttft",
    },
    "validation": {
        "M14_lmsys_dsv3_gb200nvl72_decode_48gpu_isl2000_part1",
        "M16_lmsys_dsv3_gb200_decode_bf16attn_fp8moe_48rank",
        "L02_gpustack_qwen3_8b_1xH100_vllm_bf16_sharegpt_c1_ttft",
        "L04_gpustack_qwen3_8b_1xH100_sglang_bf16_sharegpt_c4_ttft",
        "L06_gpustack_dsr1_8xH200_vllm_tp8_sharegpt_c4_ttft",
        "L22_datacrunch_llama31_70b_4xH200_sglang_poisson_rps4_itl",
        "L24_datacrunch_llama31_70b_4xH200_sglang_poisson_rps8_tpot",
    },
}


@pytest.fixture(scope="module")
def tables(catalog):
    return {half: table(catalog, split(half, SERVING_CASES_2)) for half in MEASURED}


def test_the_second_set_has_48_cases_split_by_position():
    odd = split("calibration", SERVING_CASES_2)
    even = split("validation", SERVING_CASES_2)
    assert len(odd) == len(even) == 24
    assert odd[0]["id"].startswith("M01") and even[0]["id"].startswith("M02")


@pytest.mark.parametrize("half", list(MEASURED))
def test_each_category_is_at_or_better_than_measured(tables, half):
    assert not worse_than_measured(tables[half], MEASURED[half]), half


@pytest.mark.parametrize("half", list(MEASURED))
def test_only_the_listed_cases_miss_their_published_tolerance(tables, half):
    misses, unmapped = misses_and_unmapped(tables[half], split(half, SERVING_CASES_2))
    assert misses <= KNOWN_MISSES[half], misses - KNOWN_MISSES[half]
    assert unmapped == UNMAPPED[half]
