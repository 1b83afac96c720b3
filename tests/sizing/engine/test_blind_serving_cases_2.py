"""The second blind serving set: 48 published rows (24 MoE throughput, 24 latency at
load) written into ``tests/sizing/blind_cases/serving_cases_2.json`` by an agent that
had not seen the engine (copied verbatim; sources: GPUStack performance lab, LMSYS
SGLang blogs, sgl-cookbook, InferenceX sweeps, NVIDIA NIM, DataCrunch). Split by
position (odd = calibration, even = validation) like the first set.

sizing-2.3.0 froze the serving model before this set arrived; sizing-2.5 changed two
things and calibrated one constant on the odd half together with the 39 TensorRT-LLM
rows (``test_moe_serving_calibration.py``):
- a burst of varied output lengths (ShareGPT here) is drained by its longest outputs
  (``serving_latency.burst_makespan_s``: exponential lengths, no constant);
- a touched expert's grouped GEMM costs the kernel bound (DeepGEMM's measured table)
  plus ``moe_cost.GROUPED_GEMM_STREAM_LOSS`` x its weight stream, instead of a fill of
  384 rows of compute (which charged 4-bit experts dequantised on Hopper, and large
  experts at a token each, several times their weights' stream), with 5 more kernels
  per MoE layer at the dense layer's per-kernel floor.
The stream loss (1.25) minimises the mean of the two sets' median |log error| on a grid;
the even half was then run once.

Factor = exp(|log ratio|):

calibration (odd)        n  median  max     within   (sizing-2.3/2.4.0)
  serving_throughput_moe 10  1.338   43.08   6        (2.217, 37.31, 2)
  serving_latency        11  1.251   10.05   6        (1.251, 10.51, 6)
validation (even)
  serving_throughput_moe 10  1.256    2.011  8        (1.854, 5.462, 2)
  serving_latency         7  1.257    6.272  4        (1.138, 5.664, 4)

What the misses say (each case is listed below with its reason):
- DeepSeek-R1 on 8 x H200 with SGLang TP8 at 8-64 requests (InferenceX): still 1.4-1.6x
  pessimistic on TPOT and throughput, and vLLM's TPOT at 4 requests (GPUStack) 0.58x:
  the model's step grows faster with the touched experts than these runs' does.
- gpt-oss-120b on 2 x H100 at 64 requests (InferenceX, vLLM): 0.50x (0.18x before).
- gpt-oss-120b on 8 x B200 at 100 requests (sgl-cookbook): 2.2x optimistic.
- GPUStack's DeepSeek burst of 500 random 4,000-token prompts (M03): 2.4x optimistic;
  the case does not give the request count, so it runs as a steady load.
- Qwen3-235B on 8 x B200 at 16 requests (L14, validation): TPOT 1.32x, newly outside
  its tolerance (1.13x before): the MoE layers' extra kernel floor (94 x 16.7 us)
  and the stream loss; the same model's single-request TPOT (L12) came inside.
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
        "serving_throughput_moe": (1.338, 43.084, 6),
        "serving_latency_at_load": (1.251, 10.051, 6),
    },
    "validation": {
        "serving_throughput_moe": (1.256, 2.011, 8),
        "serving_latency_at_load": (1.257, 6.272, 4),
    },
}
KNOWN_MISSES = {
    "calibration": {
        # a steady load: the burst's request count is not in the case
        "M03_gpustack_dsr1_8xH200_sglang_dpattn_rand4000_200_burst500",
        "M17_lmsys_kimik2_128xH200_1p1d_isl2000_osl100",  # concurrency per rank
        # DeepSeek-R1 8 x H200 TP8: the step grows faster with touched experts
        "M19_inferencex_dsr1_fp8_8xH200_sglang_tp8_1k1k_c16",
        "L05_gpustack_dsr1_8xH200_vllm_tp8_sharegpt_c4_tpot",
        "L19_inferencex_dsr1_fp8_8xH200_sglang_tp8_1k1k_c64_tpot",
        # gpt-oss on 8 x B200 (sgl-cookbook): optimistic
        "M23_sglcookbook_gptoss120b_8xB200_tp8_sharegpt_c100",
        # a short prompt's TTFT: the API server and cold starts are not modelled
        "L13_sglcookbook_qwen3_235b_8xB200_tp8_c1_ttft",
        "L17_sglcookbook_gptoss120b_8xB200_tp8_sharegpt_c1_ttft",
        "L21_inferencex_dsr1_nvfp4_8xB200_sglang_tp8ep8_1k1k_c4_ttft",
    },
    "validation": {
        "M18_inferencex_dsr1_fp8_8xH200_sglang_tp8_1k1k_c64",
        "M24_inferencex_gptoss120b_2xH100_vllm_tp2_1k1k_c64",  # MXFP4 on Hopper
        "L14_sglcookbook_qwen3_235b_8xB200_tp8_c16_tpot",  # MoE kernel floor
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
