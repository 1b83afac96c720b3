"""The blind published cases: 82 cases written into ``tests/sizing/blind_cases/
cases.json`` by an agent that had not seen the engine (copied verbatim), split by
position (odd = calibration, even = validation). The two step shares of
``step_roofline`` were calibrated on the odd half with the steady-state rows of
``test_training_calibration`` and frozen; the even half was then run once. Each half is
held to what was measured then (the error tables below; a factor is exp(|log ratio|),
so 1.12 means 12 % off either way), and every case outside its published tolerance is
listed by name: a change that breaks one more, or worsens a median, fails.

Measured at sizing-2.2.0 and, for serving, at sizing-2.3.0 (the serving latency
model recalibrated on the calibration half: a burst arriving at once, a given GPU
count laid out for the shortest request, the delivered rate at the concurrency; the
validation half then run once; a dataset's rows now mapped at its mean lengths), and
for MoE serving at sizing-2.5 (the grouped GEMM charged by its weight stream, a
burst of varied lengths drained by its longest outputs; calibrated on the TensorRT-LLM
rows and the second blind set's odd half, not on these):

calibration (odd)       n  median  max    within tolerance
  training_throughput  19  1.092   2.583  15
  training_goodput      4  1.412   1.685   2
  serving_latency       7  1.076   2.415   5   (2.2.0: 6 rows, 1.893, 13.29, 0)
  serving_moe           1  1.107   1.107   1   (2.4.0: 1.101)
  platform_facts        4  1.000   1.000   4
validation (even)
  training_throughput  17  1.118   1.847  12
  training_goodput      4  2.132   2.582   2   (sizing-2.4.0: the checkpoint
                                              interval balanced for the scale)
  serving_latency       5  1.141   1.386   4   (2.2.0: 1.138, 2.641, 3)
  serving_moe           2  1.236   1.236   2   (2.4.0: 3.438, 3.438, 0)
  platform_facts        3  1.000   1.000   3
"""

import pytest

from tests.sizing.blind_cases.runner import (
    misses_and_unmapped,
    split,
    table,
    worse_than_measured,
)

# (category): (median factor, max factor, cases within tolerance)
MEASURED = {
    "calibration": {
        "training_throughput": (1.092, 2.583, 15),
        "training_wallclock_goodput": (1.412, 1.685, 2),
        "serving_latency_at_load": (1.076, 2.415, 5),
        "serving_throughput_moe": (1.107, 1.107, 1),
        "platform_facts": (1.0, 1.0, 4),
    },
    "validation": {
        "training_throughput": (1.118, 1.847, 12),
        "training_wallclock_goodput": (2.132, 2.583, 2),
        "serving_latency_at_load": (1.141, 1.386, 4),
        "serving_throughput_moe": (1.236, 1.236, 2),
        "platform_facts": (1.0, 1.0, 3),
    },
}
KNOWN_MISSES = {
    "calibration": {
        # framework stacks slower than NVIDIA's tuned Megatron recipes (FSDP, torchao)
        "A05_nemo2407_nemotron8b_64xH100_fp8",
        "A11_foundry_mpt13b_seq2048_64xH100_bf16",
        "A13_torchtitan_llama31_8b_32xH200_fp8",
        # DeepSeek-V3 on H800: DualPipe hides the all-to-all the layout search exposes
        "A37_deepseekv3_2048xH800_fp8_gpu_hours_per_T",
        # whole runs whose downtime is beyond restart physics (BLOOM pauses, MPT data)
        "B04_bloom176b_384xA100_epoch1_wallclock",
        "B06_mpt7b_440xA100_40gb_wallclock",
        # serving latency: NIM at 25 requests, 1.235 against +-20 %
        "C_nim_llama33_70b_2xH100_fp8_5000in_c25_itl",
        # a burst of 1,000 ShareGPT requests on one H100: the running batch the
        # scheduler keeps (and its preemptions) is not the mean request's
        "C_gpustack_qwen3_32b_1xH100_bf16_sharegpt_burst1000_tpot",
    },
    "validation": {
        "A02_nemo2407_llama3_8b_8xH100_fp8",  # NeMo 24.07: +21 % (25.11 runs 14,451)
        "A04_nemo2407_llama2_13b_16xH100_fp8",  # NeMo 24.07: +16 %
        "A26_dgxc2504_nemotron4_340b_256xH100_bf16",  # -29 %: 256 GPUs, TP8 PP8
        "A28_mb2511_qwen3_30b_a3b_16xH100_fp8",  # smallest experts: 1.85x fast
        "A36_bloom176b_384xA100_80gb_bf16_steptime",  # -19 %
        "B03_opt175b_1024xA100_wallclock",  # 26 vs 56 days: OPT's restarts and
        # rollbacks are beyond a restart-time model
        "B05_deepseekv3_2048xH800_pretrain_wallclock",  # the H800 layout, as A37
        "C_trtllm05_llama2_70b_4xA100_fp16_bs1_2048in_ttft",  # 1.386: A100 prefill
    },
}
# cases the engine has no output for (a dataset or saturation point instead of a
# request shape, a TPU, hardware not in the catalogue, MTP speculative decoding)
UNMAPPED = {
    "calibration": {
        "C_trtllm_dsr1_8xH200_fp8_c1_mtp3_tps_user",
        "D_sglang_dsv3_prefill_32xH100_ep32_2k_per_node",
        "D_sglang_dsv3_decode_GB200_NVL72_per_gpu",
        "D_gpustack_qwen3_235b_8xH100_vllm_sharegpt_burst",
        "D_vultr_deepseek_v32_8xB200_fp8_peak",
        "E09_atlas800_9000_hccs_domain_size",
    },
    "validation": {
        "A12_torchtitan_llama31_8b_8xH100_bf16_compile",  # 96 GB HBM2e H100 variant
        "B09_gemini_ultra_tpuv4_goodput",
        "C_vultr_nemotron_nano30b_2xB200_fp8_c32_tpot",
        "C_trtllm_dsr1_8xB200_fp4_c1_mtp3_tps_user",
        "D_sglang_dsv3_decode_72xH100_ep72_per_node",
        "D_deepseek_official_decode_H800_per_node",
        "D_gpustack_qwen3_235b_fp8_4xH100_tp4_sharegpt_burst",
        "D_vultr_nemotron_nano30b_2xB200_fp8_c128",
        "E08_atlas_a2_npus_per_server_and_max_servers",
        "E10_grand_teton_h100_hbm2e_variant",
    },
}


@pytest.fixture(scope="module")
def tables(catalog):
    return {half: table(catalog, split(half)) for half in MEASURED}


def test_the_cases_are_split_by_position_into_two_halves():
    odd, even = split("calibration"), split("validation")
    assert len(odd) + len(even) == 82
    assert odd[0]["id"].startswith("A01") and even[0]["id"].startswith("A02")


@pytest.mark.parametrize("half", list(MEASURED))
def test_each_category_is_at_or_better_than_measured(tables, half):
    assert not worse_than_measured(tables[half], MEASURED[half]), half


@pytest.mark.parametrize("half", list(MEASURED))
def test_only_the_listed_cases_miss_their_published_tolerance(tables, half):
    misses, unmapped = misses_and_unmapped(tables[half], split(half))
    assert misses <= KNOWN_MISSES[half], misses - KNOWN_MISSES[half]
    assert unmapped == UNMAPPED[half]
