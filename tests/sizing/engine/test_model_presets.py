"""The 2025-26 presets: parameter counts derived from each config.json (source in
sizing/data/model_presets.json) against the publisher's totals, weight bytes of the
MXFP4 checkpoints, and KV cache of MLA and local-attention layers."""

import pytest

from sizing.engine.attention import (
    decode_attention_flops,
    kv_cache_bytes,
    prefill_attention_flops,
)
from sizing.engine.model import derived_param_counts, param_breakdown, weight_bytes

GB = 1e9


@pytest.mark.parametrize(
    ("preset", "published_total", "tolerance"),
    [
        # Qwen3 model cards: 0.6B (0.44B non-embedding; tied 151,936 x 1,024 table
        # = 0.156B), 1.7B, 4B, 8.2B, 14.8B, 32.8B. 0.6B = 28 x (1024*2048 + 2*1024*1024
        # + 2048*1024 + 3*1024*3072 + 2*1024) + 155,582,464 + 1024 = 596,042,752
        ("qwen3-0.6b", 0.6e9, 0.01),
        ("qwen3-1.7b", 1.7e9, 0.02),
        ("qwen3-4b", 4.0e9, 0.01),
        # 8B: 36 x 193,093,632 (q 16.8M, kv 8.4M, o 16.8M, ffn 3*4096*12288) + 2 x
        # 151,936 x 4,096 untied + 4,096 = 8,190,726,144
        ("qwen3-8b", 8.2e9, 0.01),
        ("qwen3-14b", 14.8e9, 0.01),
        ("qwen3-32b", 32.8e9, 0.01),
        # 30B-A3B: 48 x (attention 18,874,368 + 128 x 3*2048*768 + router 262,144 +
        # norms) + 2 x 151,936 x 2,048 = 30,532,110,336 (model card 30.5B)
        ("qwen3-30b-a3b", 30.5e9, 0.01),
        # 235B-A22B: 94 x (71,303,168 attention + 128 x 18,874,368 experts + 524,288
        # router + 8,192) + 1,244,659,712 embeddings = 235,093,610,496 (card: 235B)
        ("qwen3-235b-a22b", 235e9, 0.01),
        ("deepseek-r1", 671e9, 0.01),
        ("deepseek-v3.1", 671e9, 0.01),
        # Kimi K2, MLA with 64 heads: 61 x 101,124,096 attention; 1 dense FFN
        # 396,361,728; 60 x (384 + 1) x 44,040,192 experts = 1,017,328,435,200; routers
        # 60 x 384 x 7,168; embeddings 2 x 163,840 x 7,168 -> 1,026,408,209,408
        # (report: 1.04 T; -1.3 %)
        ("kimi-k2", 1.04e12, 0.02),
        # GLM-4.5: 92 x 136,329,216 attention (with q/k/v biases); 3 dense FFN
        # 3*5120*12288; 89 x (160 + 1) x 23,592,960 experts; 2 x 151,552 x 5,120
        # -> 352,797,791,232 (report: 355 B; the MTP layer is not counted)
        ("glm-4.5", 355e9, 0.01),
        # gpt-oss-120b: 36 x (26,547,200 attention + 128 x 3*2880*2880 experts + router
        # 368,640 + norms) + 2 x 201,088 x 2,880 = 116,789,232,960 (card: 116.83 B)
        ("gpt-oss-120b", 116.83e9, 0.005),
        ("gpt-oss-20b", 20.91e9, 0.005),
        # Llama 4 Scout: 48 x (62,914,560 attention + (16 + 1 shared) x 3*5120*8192)
        # + 2 x 202,048 x 5,120 = 107,769,861,120 (card: 109 B incl. the vision encoder)
        ("llama-4-scout", 109e9, 0.015),
        # Maverick: 24 MoE layers x (128 + 1) x 125,829,120 + 24 dense x 3*5120*16384
        # + attention + embeddings = 400,711,848,960 (card: 400 B)
        ("llama-4-maverick", 400e9, 0.01),
    ],
)
def test_2025_preset_parameter_counts_match_the_published_totals(
    catalog, preset, published_total, tolerance
):
    total, _ = derived_param_counts(catalog.presets[preset])
    assert total == pytest.approx(published_total, rel=tolerance)


@pytest.mark.parametrize(
    ("preset", "total", "active"),
    [
        ("qwen3-0.6b", 596_042_752, 596_042_752),
        ("qwen3-235b-a22b", 235_093_610_496, 22_190_739_456),
        ("kimi-k2", 1_026_408_209_408, 32_861_477_888),
        ("gpt-oss-120b", 116_789_232_960, 5_710_628_160),
        ("llama-4-maverick", 400_711_848_960, 17_184_691_200),
    ],
)
def test_exact_counts_of_the_hand_computed_presets(catalog, preset, total, active):
    assert derived_param_counts(catalog.presets[preset]) == (total, active)


def test_active_counts_include_the_tables_publishers_leave_out(catalog):
    # Active here counts embedding + head; gpt-oss's card (5.13 B) and Qwen3 (22 B)
    # count the head only: 5,710,628,160 - 579,133,440 = 5,131,494,720
    breakdown = param_breakdown(catalog.presets["gpt-oss-120b"])
    assert breakdown.active - breakdown.embedding == pytest.approx(5.13e9, rel=0.001)


@pytest.mark.parametrize(
    ("preset", "checkpoint_gb"),
    [
        # gpt-oss model card: 60.8 GiB = 65.28 GB; engine: experts 114,661,785,600 x
        # 4.25 bits (MXFP4 + E8M0 scale per 32) = 60.91 GB + 2,127,447,360 other x 2 B
        # = 4.25 GB -> 65.17 GB
        ("gpt-oss-120b", 60.8 * 2**30 / GB),
        # 12.8 GiB = 13.74 GB; engine 19,110,297,600 x 0.53125 + 1,797,752,640 x 2
        ("gpt-oss-20b", 12.8 * 2**30 / GB),
    ],
)
def test_mxfp4_weights_match_the_published_checkpoint_size(
    catalog, preset, checkpoint_gb
):
    weights = weight_bytes(catalog.presets[preset], "mxfp4") / GB
    assert weights == pytest.approx(checkpoint_gb, rel=0.01)


def test_nvfp4_costs_half_a_bit_more_than_mxfp4_per_weight(catalog):
    m = catalog.presets["llama-3.1-70b"]
    ffn = param_breakdown(m).ffn
    # 4.5 vs 4.25 bits per FFN weight; attention and embeddings stay 16-bit in both
    gap = weight_bytes(m, "nvfp4") - weight_bytes(m, "mxfp4")
    assert gap == pytest.approx(ffn * 0.25 / 8)


def test_mla_cache_is_one_latent_per_token_and_layer(catalog):
    # DeepSeek-V3: 61 x (512 + 64) x 2 B = 70,272 B per token; 32,768 tokens 2.30 GB
    m = catalog.presets["deepseek-v3"]
    assert kv_cache_bytes(m, 32_768, "bf16") == 61 * 576 * 2 * 32_768
    assert kv_cache_bytes(m, 32_768, "fp8") == 61 * 576 * 32_768


def test_sliding_window_layers_stop_growing_at_the_window(catalog):
    # gpt-oss-120b: 2 x 8 x 64 x 2 B = 2,048 B per token and layer; 18 full layers hold
    # all 32,768 tokens, 18 sliding layers 128 -> (18 x 32,768 + 18 x 128) x 2,048
    m = catalog.presets["gpt-oss-120b"]
    assert kv_cache_bytes(m, 32_768, "bf16") == (18 * 32_768 + 18 * 128) * 2_048


def test_llama4_chunked_layers_hold_one_chunk(catalog):
    # Scout: 12 global layers + 36 chunked (8,192) layers, 2 x 8 x 128 x 2 = 4,096 B
    m = catalog.presets["llama-4-scout"]
    assert kv_cache_bytes(m, 100_000, "bf16") == (12 * 100_000 + 36 * 8_192) * 4_096


def test_mla_decode_attends_in_the_latent(catalog):
    # Absorbed MLA: 2 x 128 heads x ((512 + 64) + 512) x ctx x 61 layers
    m = catalog.presets["deepseek-v3"]
    assert decode_attention_flops(m, 1000) == 2 * 128 * 1088 * 1000 * 61


def test_gqa_prefill_attention_is_2_l_ctx2_h_q(catalog):
    # sizing-formulas 9: 2 x 32 layers x 1024^2 x 32 heads x 128 for Llama 3 8B
    m = catalog.presets["llama-3-8b"]
    assert prefill_attention_flops(m, 1024) == 2 * 32 * 1024**2 * 32 * 128
