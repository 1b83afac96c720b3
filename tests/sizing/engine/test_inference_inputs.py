"""Serving inputs: FP4 weight formats, the published precision as the serving default,
custom MoE / MLA / sliding-window architectures."""

import pytest

from sizing.engine import SizingInputError, estimate
from sizing.engine.model import derived_param_counts

DEEPSEEK_LIKE = dict(
    layers=61,
    hidden_size=7168,
    attention_heads=128,
    kv_heads=128,
    head_dim=128,
    vocab_size=129280,
    ffn_hidden_size=18432,
    moe_experts=256,
    moe_active_experts=8,
    moe_ffn_hidden_size=2048,
    moe_shared_experts=1,
    moe_dense_layers=3,
    q_lora_rank=1536,
    kv_lora_rank=512,
    qk_rope_head_dim=64,
    qk_nope_head_dim=128,
    v_head_dim=128,
)


def test_serving_defaults_to_the_published_weight_precision(make):
    # DeepSeek-V3 ships FP8 weights, gpt-oss MXFP4 experts, Qwen3 BF16
    assert make(kind="inference", model={"preset": "deepseek-v3"}).precision == "fp8"
    assert make(kind="inference", model={"preset": "gpt-oss-120b"}).precision == "mxfp4"
    assert make(kind="inference", model={"preset": "qwen3-8b"}).precision == "bf16"


def test_training_keeps_bf16_as_its_default(make):
    w = make(kind="training", model={"preset": "deepseek-v3"}, tokens_b=1, gpu_count=8)
    assert w.precision == "bf16"


@pytest.mark.parametrize("precision", ["mxfp4", "nvfp4"])
def test_fp4_weight_formats_are_accepted_for_serving(make, precision):
    w = make(kind="inference", model={"preset": "llama-3.1-70b"}, precision=precision)
    assert w.precision == precision


def test_fp4_is_not_a_training_precision(make):
    with pytest.raises(SizingInputError) as err:
        make(
            kind="training",
            model={"preset": "llama-3-8b"},
            tokens_b=1,
            gpu_count=8,
            precision="mxfp4",
        )
    assert err.value.field == "workload.precision"


def test_gpt_oss_120b_fits_one_80_gb_gpu_in_mxfp4(catalog, make):
    # OpenAI: "runs on a single 80 GB GPU"; weights 65.17 GB (test_model_presets)
    w = make(
        kind="inference",
        model={"preset": "gpt-oss-120b"},
        context_tokens=4096,
        output_tokens=1024,
        concurrent_requests=1,
    )
    r = estimate(w, catalog, "h100-sxm-80gb")
    assert r.gpu_count == 1
    assert r.memory["weights_gb"] == pytest.approx(65.17, abs=0.01)


def test_fp4_runs_on_fp4_tensor_cores_only_where_the_part_has_them(catalog, make):
    w = make(kind="inference", model={"preset": "llama-3.1-8b"}, precision="nvfp4")
    # B200 dense FP4 9,000 TFLOPS (18 PF sparse / 2); H100 has none: BF16 989
    assert estimate(w, catalog, "b200-sxm-180gb").inference["peak_tflops"] == 9000
    assert estimate(w, catalog, "h100-sxm-80gb").inference["peak_tflops"] == 989


def test_fp8_weights_are_served_weight_only_on_a100(catalog, make):
    # no FP8 tensor cores: dequantised to BF16 (312 TFLOPS), weights still 1 B each
    w = make(kind="inference", model={"preset": "llama-3.1-8b"}, precision="fp8")
    r = estimate(w, catalog, "a100-sxm-80gb")
    assert r.inference["peak_tflops"] == 312
    assert r.memory["weights_gb"] == pytest.approx(8.030261248)


def test_custom_mla_moe_model_counts_like_the_deepseek_preset(catalog, make):
    w = make(kind="inference", model=DEEPSEEK_LIKE)
    preset = catalog.presets["deepseek-v3"]
    assert derived_param_counts(w.model) == derived_param_counts(preset)


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"moe_dense_layers": 61}, "workload.model.moe_dense_layers"),
        ({"sliding_window_layers": 62}, "workload.model.sliding_window_layers"),
        ({"sliding_window_layers": 30}, "workload.model.sliding_window_tokens"),
        ({"moe_shared_experts": -1}, "workload.model.moe_shared_experts"),
    ],
)
def test_inconsistent_custom_layer_counts_name_the_field(make, extra, field):
    with pytest.raises(SizingInputError) as err:
        make(kind="inference", model={**DEEPSEEK_LIKE, **extra})
    assert err.value.field == field
