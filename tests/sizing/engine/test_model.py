import pytest

from sizing.engine.model import (
    BYTES_PER_VALUE,
    derived_param_counts,
    kv_cache_bytes_per_token,
    param_counts,
    training_flops_per_token,
)


@pytest.mark.parametrize(
    ("preset", "expected_total"),
    [
        # Llama 3 8B: 32 x (4096*4096*2 + 2*4096*1024 + 3*4096*14336 + 2*4096)
        #   = 32 x 218,112,000 = 6,979,584,000; + 2 x 128256 x 4096 = 1,050,673,152; + 4096
        ("llama-3-8b", 8_030_261_248),
        # Llama 2 70B: 80 x (2*8192^2 + 2*8192*1024 + 3*8192*28672 + 2*8192) = 68,452,352,000
        #   + 2 x 32000 x 8192 = 524,288,000 + 8192
        ("llama-2-70b", 68_976_648_192),
        # Llama 2 7B: 32 x 202,383,360 + 262,144,000 + 4096 (published "6.74B")
        ("llama-2-7b", 6_738_415_616),
        # Llama 2 13B: 40 x 317,204,480 + 327,680,000 + 5120 (published "13.0B")
        ("llama-2-13b", 13_015_864_320),
        # Qwen2.5 7B with QKV biases: 28 x 233,057,792 + 2 x 152064 x 3584 + 3584 ("7.61B")
        ("qwen2.5-7b", 7_615_616_512),
        # Qwen2.5 72B: 80 x 877,684,736 + 2 x 152064 x 8192 + 8192 ("72.7B")
        ("qwen2.5-72b", 72_706_203_648),
        # Mixtral 8x7B: 32 x (41,943,040 + 8 x 176,160,768 + 4096*8 + 8192) + 262,144,000
        #   + 4096 = 46,702,792,704 (paper: 46.7B)
        ("mixtral-8x7b", 46_702_792_704),
    ],
)
def test_parameter_count_from_architecture_matches_hand_computation(
    catalog, preset, expected_total
):
    total, _ = derived_param_counts(catalog.presets[preset])
    assert total == expected_total


def test_gpt3_parameter_count_reproduces_brown_et_al_table_d1(catalog):
    # L(12h^2 + 13h) + V h + s h = 96 x 1,812,099,072 + 617,558,016 + 25,165,824
    # = 174,604,234,752 (Table D.1: 174.6 B), + final LayerNorm 2h = 24,576
    total, _ = derived_param_counts(catalog.presets["gpt-3-175b"])
    assert total == 174_604_234_752 + 2 * 12288


def test_bert_large_within_two_percent_of_published_340m(catalog):
    # Devlin et al. 2019: 340M; token-type embeddings, pooler and MLM head not modelled
    total, _ = param_counts(catalog.presets["bert-large"])
    assert total == pytest.approx(340e6, rel=0.02)


def test_mixtral_active_parameters_count_two_experts(catalog):
    # 32 x (41,943,040 + 2 x 176,160,768 + 32,768 + 8,192) + 262,144,000 + 4096
    # = 12,879,925,248 (paper: 12.9 B active)
    _, active = param_counts(catalog.presets["mixtral-8x7b"])
    assert active == 12_879_925_248


def test_deepseek_v3_count_from_mla_shared_experts_and_dense_layers(catalog):
    # Per layer MLA: q 7168*1536 + 1536 + 1536*128*192 = 48,760,320; kv 7168*576 + 512
    #   = 4,129,280; kv up 512*128*256 = 16,777,216; out 128*128*7168 = 117,440,512
    #   -> 187,107,328 x 61 = 11,413,547,008
    # 3 dense FFN 3*7168*18432 = 396,361,728 each -> 1,189,085,184
    # 58 MoE layers x (256 routed + 1 shared) x 3*7168*2048 (44,040,192)
    #   = 656,463,101,952; routers 58 x 7168 x 256 = 106,430,464
    # embeddings 2 x 129280 x 7168 = 1,853,358,080; norms 61 x 2 x 7168 + 7168
    # total 671,026,404,352 (report: 671 B); active: 58 x 9 experts instead of 257
    #   -> 37,552,282,624 (report: 37 B)
    assert derived_param_counts(catalog.presets["deepseek-v3"]) == (
        671_026_404_352,
        37_552_282_624,
    )


@pytest.mark.parametrize(
    ("preset", "precision", "expected"),
    [
        ("llama-2-70b", "bf16", 327_680),  # 2 x 80 x 8 x 128 x 2
        ("llama-2-7b", "bf16", 524_288),  # 2 x 32 x 32 x 128 x 2 (no GQA)
        ("llama-3-8b", "bf16", 131_072),  # 2 x 32 x 8 x 128 x 2
        ("llama-3-8b", "fp8", 65_536),  # 2 x 32 x 8 x 128 x 1
        ("deepseek-v3", "bf16", 70_272),  # MLA: 61 x (512 + 64) x 2
    ],
)
def test_kv_cache_bytes_per_token_uses_kv_heads_not_hidden_size(
    catalog, preset, precision, expected
):
    assert kv_cache_bytes_per_token(catalog.presets[preset], precision) == expected


def test_int4_weights_include_fp16_group_scales():
    # 0.5 B + one 2-byte scale per 128 weights = 0.515625 B per parameter
    assert BYTES_PER_VALUE["int4"] == 0.515625


def test_training_flops_are_6n_plus_palm_attention_term(catalog):
    m = catalog.presets["llama-2-70b"]
    model_flops, extra = training_flops_per_token(m, 4096, "none")
    # 6 x 68,976,648,192 + 12 x 80 x 4096 x (64 x 128) = 413,859,889,152 + 32,212,254,720
    assert model_flops == 413_859_889_152 + 32_212_254_720
    assert extra == 0


def test_full_recompute_adds_one_forward_pass(catalog):
    m = catalog.presets["llama-3-8b"]
    model_flops, extra = training_flops_per_token(m, 2048, "full")
    # one extra forward = 2N + 4 L s H Q = a third of the model FLOPs ("8ND")
    assert extra == pytest.approx(model_flops / 3)


def test_lora_flops_skip_weight_gradients_of_frozen_weights(catalog):
    m = catalog.presets["llama-3-8b"]
    lora, _ = training_flops_per_token(m, 2048, "none", lora_fraction=0.0)
    full, _ = training_flops_per_token(m, 2048, "none")
    attention = 12 * 32 * 2048 * 4096
    assert lora - attention == pytest.approx((full - attention) * 4 / 6)
