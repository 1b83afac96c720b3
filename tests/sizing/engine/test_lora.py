"""LoRA and QLoRA: a frozen base at 16, 8 or 4 bits, trained rank-r adapters."""

import pytest

from sizing.engine import SizingInputError, estimate, workload_from_dict
from sizing.engine.model_states import lora_adapter_params

LLAMA_65B = dict(
    name="LLaMA 65B",
    layers=80,
    hidden_size=8192,
    attention_heads=64,
    vocab_size=32000,
    ffn_hidden_size=22016,
)


def _qlora(make, **changes):
    body = dict(
        kind="fine_tuning",
        model=LLAMA_65B,
        tokens_b=0.1,
        gpu_count=1,
        seq_len=2048,
        precision="int4",
        lora_rank=16,
        recompute="full",
    )
    body.update(changes)
    return make(**body)


def test_adapters_are_r_times_d_in_plus_d_out_per_adapted_matrix(catalog):
    # LLaMA 65B, r = 16 on q, k, v, o (8192 -> 8192) and gate, up, down (8192 <-> 22016):
    # 16 x (4 x 16,384 + 3 x 30,208) = 2,498,560 per layer x 80 = 199,884,800
    model = _qlora_model(catalog)
    assert lora_adapter_params(model, 16) == 199_884_800


def _qlora_model(catalog):
    return workload_from_dict(
        dict(kind="training", model=LLAMA_65B, tokens_b=1, gpu_count=1), catalog
    ).model


def test_qlora_fits_a_65b_model_on_one_48_gb_gpu(catalog, make):
    # Dettmers et al. 2023 (QLoRA): "finetune a 65B parameter model on a single 48GB
    # GPU". By hand, one L40S 48 GB, 2k tokens, gradient checkpointing:
    # frozen linear layers 64,760,053,760 x 0.515625 B (4 bits + a 16-bit scale per
    # 128) = 33.3919 GB, embeddings and head in 16-bit 1.0486 GB, the RMSNorm weights
    # (80 x 2 x 8192 + final 8192 = 1,318,912) kept in 16-bit as bitsandbytes keeps
    # every non-Linear module 0.0026 GB, adapters 199,884,800 x 2 B = 0.3998 GB
    # -> weights 34.8429 GB; adapter gradients 0.40 GB, Adam 12 B x 199.9 M =
    # 2.40 GB; activations 80 layer inputs 2 s h = 2.68 GB + one layer rematerialised
    # 0.54 GB + fp32 logits 0.26 GB = 3.49 GB; + 1 GB context + 5 % = 44.18 GB.
    r = estimate(_qlora(make), catalog, "l40s-pcie-48gb")
    m = r.memory
    assert m["weights_gb"] == pytest.approx(34.842886, abs=1e-6)
    assert m["gradients_gb"] == pytest.approx(0.3998, abs=1e-4)
    assert m["optimizer_gb"] == pytest.approx(2.3986, abs=1e-4)
    assert m["activations_gb"] == pytest.approx(3.4855, abs=1e-4)
    assert m["per_gpu_gb"] == pytest.approx(44.18, abs=0.01)
    assert r.training["fits"]


def test_16_bit_lora_and_full_fine_tuning_of_65b_do_not_fit_one_gpu(catalog, make):
    lora16 = estimate(_qlora(make, precision="bf16"), catalog, "l40s-pcie-48gb")
    assert lora16.memory["weights_gb"] > 130 and not lora16.training["fits"]
    # QLoRA: full 16-bit fine-tuning of 65B needs "more than 780 GB"
    full = dict(kind="fine_tuning", model=LLAMA_65B, tokens_b=0.1, gpu_count=1)
    r = estimate(make(**full), catalog, "h100-sxm-80gb")
    assert r.memory["per_gpu_gb"] > 780


def test_an_8_bit_base_halves_the_16_bit_weights(catalog, make):
    int8 = estimate(_qlora(make, precision="int8"), catalog, "l40s-pcie-48gb")
    bf16 = estimate(_qlora(make, precision="bf16"), catalog, "l40s-pcie-48gb")
    # Only the linear layers go from 2 B to 1 B: 80 x (4 x 8192^2 + 3 x 8192 x 22016)
    # = 64,760,053,760. Embeddings, head and the RMSNorm weights (80 x 2 x 8192 +
    # final 8192) stay 16-bit: bitsandbytes replaces nn.Linear modules only (QLoRA,
    # Dettmers et al. 2023; transformers' BitsAndBytesConfig keeps norms in 16-bit).
    assert bf16.memory["weights_gb"] - int8.memory["weights_gb"] == pytest.approx(
        64_760_053_760 / 1e9, abs=1e-6
    )


def test_qlora_trains_in_bf16_on_the_dequantised_weights(catalog, make):
    w = _qlora(make)
    assert (w.precision, w.base_precision) == ("bf16", "int4")
    assert w.lora_trainable_fraction == pytest.approx(199_884_800 / 65_285_660_672)


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        (dict(lora_rank=None), "workload.precision"),  # 4-bit base without adapters
        (
            dict(lora_trainable_fraction=0.01),
            "workload.lora_rank",
        ),  # both rank and share
        (dict(kind="training"), "workload.precision"),  # int4 is not a training dtype
    ],
)
def test_bad_lora_input_names_the_field(make, changes, field):
    with pytest.raises(SizingInputError) as err:
        _qlora(make, **changes)
    assert err.value.field == field
