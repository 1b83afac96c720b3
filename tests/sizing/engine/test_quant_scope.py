"""Quantisation scope per tensor group (routed experts vs attention and shared experts)
and LoRA targets on an MoE."""

import pytest

from sizing.engine import SizingInputError, estimate
from sizing.engine.memory import GB
from sizing.engine.model import default_quant_scope, weight_bytes
from sizing.engine.model_states import lora_adapter_params

INT4 = 0.5 + 2 / 128  # 4 bits + one 16-bit scale per 128 weights


def test_int4_on_an_moe_quantises_the_routed_experts_only(catalog):
    # Kimi K2 (config.json: 61 layers, the first dense, 384 routed experts of
    # 3 x 7,168 x 2,048): routed 60 x 384 x 44,040,192 = 1,014,686,023,680 parameters
    # of 1,026,408,209,408. moonshotai/Kimi-K2-Thinking model card: "INT4 weight-only
    # quantization to the MoE components"; attention, shared expert, dense layer,
    # embeddings and head stay BF16. (Its checkpoint, 594 GB, uses a group of 32:
    # 1,014.69 B x 0.5625 + 11.72 B x 2 = 594.2 GB; the engine's INT4 group is 128.)
    m = catalog.presets["kimi-k2"]
    assert default_quant_scope(m, "int4") == "routed_experts"
    routed, total = 1_014_686_023_680, 1_026_408_209_408
    expected = routed * INT4 + (total - routed) * 2.0
    assert weight_bytes(m, "int4") == pytest.approx(expected, rel=1e-12)
    assert weight_bytes(m, "int4", "all") == pytest.approx(total * INT4, rel=1e-12)


def test_fp4_keeps_attention_in_16_bit_and_dense_int4_quantises_everything(catalog):
    # gpt-oss-120b config.json quantization_config.modules_to_not_convert: self_attn,
    # router, embed_tokens, lm_head (MXFP4 on the MoE weights only)
    assert default_quant_scope(catalog.presets["gpt-oss-120b"], "mxfp4") == "ffn"
    # dense INT4 (GPTQ/AWQ) and FP8 checkpoints quantise every linear layer
    assert default_quant_scope(catalog.presets["llama-3.1-70b"], "int4") == "all"
    assert default_quant_scope(catalog.presets["deepseek-v3"], "fp8") == "all"


def test_serving_weight_memory_follows_the_scope(catalog, make):
    body = dict(
        kind="inference",
        model={"preset": "qwen3-235b-a22b"},
        precision="int4",
        context_tokens=2048,
        output_tokens=256,
        concurrent_requests=8,
    )
    experts_only = estimate(make(**body), catalog, "h200-sxm-141gb")
    everything = estimate(make(**body, quant_scope="all"), catalog, "h200-sxm-141gb")
    m = catalog.presets["qwen3-235b-a22b"]
    gap_gb = (weight_bytes(m, "int4") - weight_bytes(m, "int4", "all")) / GB
    # attention, router, embeddings and head: 8.0 B parameters x (2 - 0.515625) B
    assert gap_gb == pytest.approx(11.9, abs=0.1)
    assert experts_only.inference["weights_total_gb"] == pytest.approx(
        weight_bytes(m, "int4") / GB, rel=1e-6
    )
    assert everything.inference["weights_total_gb"] == pytest.approx(
        weight_bytes(m, "int4", "all") / GB, rel=1e-6
    )


def test_an_unknown_scope_is_refused_on_its_field(make):
    with pytest.raises(SizingInputError) as err:
        make(
            kind="inference",
            model={"preset": "kimi-k2"},
            precision="int4",
            quant_scope="everything",
        )
    assert err.value.field == "workload.quant_scope"


@pytest.mark.parametrize(
    "targets, expected",
    [
        # Qwen3-30B-A3B config.json: 48 layers, h 2,048, 32 x 128 query and 4 x 128 KV
        # heads; 128 routed experts of 768, no shared expert. r = 16, per layer:
        # attention 2 (2,048 + 4,096) + 2 (2,048 + 512) = 17,408; every expert
        # 128 x 3 (2,048 + 768) = 1,081,344.
        ("all_linear", 16 * 48 * (17_408 + 1_081_344)),
        ("no_routed_experts", 16 * 48 * 17_408),
        ("attention", 16 * 48 * 17_408),
    ],
)
def test_lora_targets_on_an_moe(catalog, targets, expected):
    m = catalog.presets["qwen3-30b-a3b"]
    assert lora_adapter_params(m, 16, targets) == expected


def test_lora_targets_change_the_trainable_share(make):
    body = dict(
        kind="fine_tuning",
        model={"preset": "qwen3-30b-a3b"},
        tokens_b=0.1,
        gpu_count=8,
        lora_rank=16,
    )
    default = make(**body)
    attention = make(**body, lora_targets="attention")
    # 843,841,536 / 30,532,110,336 and 13,369,344 / 30,532,110,336
    assert default.lora_trainable_fraction == pytest.approx(0.027638, abs=1e-6)
    assert attention.lora_trainable_fraction == pytest.approx(0.000438, abs=1e-6)


def test_qlora_base_of_an_moe_follows_the_int4_checkpoints(catalog, make):
    # Kimi K2 QLoRA base: routed experts at INT4, the other 11.72 B parameters BF16
    # (the scope "all" is bitsandbytes quantising every nn.Linear)
    body = dict(
        kind="fine_tuning",
        model={"preset": "kimi-k2"},
        tokens_b=0.01,
        gpu_count=64,
        precision="int4",
        lora_rank=8,
    )
    experts = estimate(make(**body), catalog, "h200-sxm-141gb").memory["weights_gb"]
    every = estimate(make(**body, quant_scope="all"), catalog, "h200-sxm-141gb")
    assert experts > every.memory["weights_gb"]
