import math

import pytest

from sizing.engine import SizingInputError, constraints_from_dict, estimate

CUSTOM = dict(
    layers=32,
    hidden_size=4096,
    attention_heads=32,
    kv_heads=8,
    vocab_size=32000,
    ffn_hidden_size=11008,
)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (
            dict(
                kind="training",
                model={**CUSTOM, "hidden_size": 4100},
                tokens_b=1,
                gpu_count=8,
            ),
            "workload.model.hidden_size",
        ),
        (
            dict(
                kind="training", model={"preset": "llama-3-8b"}, tokens_b=0, gpu_count=8
            ),
            "workload.tokens_b",
        ),
        (
            dict(
                kind="training",
                model={"preset": "llama-3-8b"},
                tokens_b=-5,
                gpu_count=8,
            ),
            "workload.tokens_b",
        ),
        (
            dict(
                kind="training",
                model={"preset": "llama-3-8b"},
                tokens_b=math.nan,
                gpu_count=8,
            ),
            "workload.tokens_b",
        ),
        (
            dict(
                kind="training",
                model={"preset": "llama-3-8b"},
                tokens_b=10,
                target_days=math.inf,
            ),
            "workload.target_days",
        ),
        (
            dict(
                kind="training",
                model={"preset": "no-such-model"},
                tokens_b=1,
                gpu_count=8,
            ),
            "workload.model.preset",
        ),
        (
            dict(
                kind="training",
                model={"preset": "llama-2-7b"},
                tokens_b=1,
                gpu_count=8,
                seq_len=8192,
            ),
            "workload.seq_len",
        ),
        (
            dict(
                kind="inference",
                model={"preset": "llama-2-7b"},
                context_tokens=4000,
                output_tokens=500,
            ),
            "workload.context_tokens",
        ),
        (
            dict(
                kind="training",
                model={**CUSTOM, "kv_heads": 5},
                tokens_b=1,
                gpu_count=8,
            ),
            "workload.model.kv_heads",
        ),
        (
            dict(
                kind="inference", model={"preset": "llama-2-7b"}, concurrent_requests=-1
            ),
            "workload.concurrent_requests",
        ),
        (dict(kind="pretraining", model={"preset": "llama-2-7b"}), "workload.kind"),
        (
            dict(kind="training", model={"preset": "llama-2-7b"}, gpu_count=8),
            "workload.tokens_b",
        ),
        (
            dict(kind="training", model={"preset": "llama-2-7b"}, tokens_b=1),
            "workload.target_days",
        ),
        (
            dict(kind="training", model={"layers": 2}, tokens_b=1, gpu_count=1),
            "workload.model.hidden_size",
        ),
        (
            dict(
                kind="training",
                model={"preset": "llama-2-7b"},
                tokens_b=1,
                gpu_count=8,
                mfu=1.5,
            ),
            "workload.mfu",
        ),
        (
            dict(kind="inference", model={"preset": "llama-2-7b"}, precision="fp4"),
            "workload.precision",
        ),
        (
            dict(
                kind="training",
                model={"preset": "llama-2-7b"},
                tokens_b="lots",
                gpu_count=8,
            ),
            "workload.tokens_b",
        ),
    ],
)
def test_bad_input_names_the_field(make, body, field):
    with pytest.raises(SizingInputError) as err:
        make(**body)
    assert err.value.field == field
    assert err.value.message


def test_unknown_accelerator_names_the_field(catalog, make):
    w = make(kind="inference", model={"preset": "llama-2-7b"})
    with pytest.raises(SizingInputError) as err:
        estimate(w, catalog, "tpu-v9")
    assert err.value.field == "accelerator"


def test_precision_the_accelerator_lacks_names_the_field(catalog, make):
    w = make(
        kind="training",
        model={"preset": "llama-2-7b"},
        tokens_b=1,
        gpu_count=8,
        precision="fp8",
    )
    with pytest.raises(SizingInputError) as err:
        estimate(w, catalog, "a100-sxm-80gb")  # A100 has no FP8
    assert err.value.field == "workload.precision"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"pue": 0.9}, "constraints.pue"),
        ({"region": "mars"}, "constraints.region"),
        ({"rack_power_limit_kw": -1}, "constraints.rack_power_limit_kw"),
    ],
)
def test_bad_constraints_name_the_field(body, field):
    with pytest.raises(SizingInputError) as err:
        constraints_from_dict(body)
    assert err.value.field == field


def test_custom_model_params_b_overrides_the_derived_count(catalog, make):
    w = make(kind="inference", model={**CUSTOM, "params_b": 7.0}, concurrent_requests=1)
    r = estimate(w, catalog, "h100-sxm-80gb")
    # 7e9 x 2 B = 14 GB of weights on one GPU
    assert r.memory["weights_gb"] == pytest.approx(14.0)


@pytest.mark.parametrize("kind", ["inference", "fine_tuning"])
def test_qwen3_is_allowed_131072_tokens_with_yarn(make, kind):
    # Qwen3-8B card / QwenLM Qwen3 docs ("Enabling Long Context"): 32,768 tokens
    # natively, 131,072 with YaRN (rope_scaling factor 4.0 x 32,768); config.json's
    # max_position_embeddings is 40,960.
    body = dict(kind=kind, model={"preset": "qwen3-8b"})
    if kind == "inference":
        body.update(context_tokens=128_000, output_tokens=3_072)
    else:
        body.update(seq_len=131_072, tokens_b=0.1, lora_rank=16, gpu_count=8)
    w = make(**body)
    assert w.model.context_limit_tokens == 131_072


def test_qwen3_beyond_its_yarn_limit_is_refused(make):
    with pytest.raises(SizingInputError) as err:
        make(
            kind="inference",
            model={"preset": "qwen3-8b"},
            context_tokens=131_072,
            output_tokens=1,
        )
    assert err.value.params["limit"] == 131_072


def test_a_model_without_rope_scaling_keeps_its_max_position(make):
    # Qwen3-0.6B's card gives 32,768 tokens and no YaRN: config.json's 40,960 holds
    with pytest.raises(SizingInputError):
        make(kind="inference", model={"preset": "qwen3-0.6b"}, context_tokens=65_536)
