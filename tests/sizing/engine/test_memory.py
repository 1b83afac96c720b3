import pytest

from sizing.engine.activations import activation_bytes_per_layer
from sizing.engine.memory import (
    GB,
    Layout,
    inference_memory,
    training_memory,
)
from sizing.engine.model import param_counts
from sizing.engine.model_states import state_bytes_per_param


def test_weight_memory_of_llama_2_70b_in_bf16_is_138_gb(catalog):
    m = catalog.presets["llama-2-70b"]
    mem = inference_memory(
        m,
        precision="bf16",
        kv_bytes_per_token=0,
        tokens_in_cache=0,
        tensor=1,
        prefill_chunk_tokens=1,
    )
    # 68,976,648,192 params x 2 B = 137.95 GB (GB = 1e9 B; 128.5 GiB)
    assert mem.weights / GB == pytest.approx(137.953296384)


@pytest.mark.parametrize(
    ("precision", "optimizer", "fp32_grads", "total"),
    [
        ("bf16", "adamw", False, 16.0),  # 2 + 2 + 12: ZeRO paper K = 12
        ("bf16", "adamw", True, 18.0),  # DeepSpeed estimator, fp32 grads
        ("fp32", "adamw", False, 16.0),  # 4 + 4 + 8 (m, v; weights are the master)
        ("bf16", "sgd", False, 12.0),  # 2 + 2 + master 4 + momentum 4
    ],
)
def test_model_state_bytes_per_parameter(precision, optimizer, fp32_grads, total):
    assert sum(state_bytes_per_param(precision, optimizer, fp32_grads)) == total


def test_korthikanti_activations_for_gpt3_layer_without_recompute(catalog):
    m = catalog.presets["gpt-3-175b"]
    # s b h (34 + 5 a s / h) with f = 4h: 2048 x 1 x 12288 x (34 + 5 x 96 x 2048 / 12288)
    # = 25,165,824 x 114 = 2,868,903,936 B per layer (Korthikanti et al. 2022, eq. 2)
    assert activation_bytes_per_layer(m, 2048, 1, 1, "none") == 2_868_903_936


def test_selective_recompute_with_tp_keeps_34_sbh_over_t(catalog):
    m = catalog.presets["gpt-3-175b"]
    # Korthikanti Table 2, sequence parallel + selective: 34 s b h / t
    assert (
        activation_bytes_per_layer(m, 2048, 1, 8, "selective") == 34 * 2048 * 12288 / 8
    )


def test_full_recompute_keeps_only_the_layer_input(catalog):
    m = catalog.presets["gpt-3-175b"]
    assert activation_bytes_per_layer(m, 2048, 2, 1, "full") == 2 * 2048 * 2 * 12288


def _mem(m, layout, **kw):
    base = dict(
        seq_len=2048,
        micro_batch=1,
        micro_batches=8,
        precision="bf16",
        optimizer="adamw",
        recompute="selective",
    )
    base.update(kw)
    return training_memory(m, layout, **base)


def test_zero_stages_shard_optimizer_then_gradients_then_weights(catalog):
    m = catalog.presets["llama-2-7b"]
    p, _ = param_counts(m)
    z0, z1, z2, z3 = (_mem(m, Layout(1, 1, 8, z)) for z in range(4))
    assert z0.optimizer == 12 * p
    assert z1.optimizer == 12 * p / 8
    assert z2.gradients == 2 * p / 8
    assert z3.weights < z2.weights
    assert z3.total < z2.total < z1.total < z0.total


def test_lora_keeps_gradients_and_optimizer_for_trainable_share_only(catalog):
    m = catalog.presets["llama-3-8b"]
    p, _ = param_counts(m)
    mem = _mem(m, Layout(), lora_fraction=0.01)
    assert mem.gradients == pytest.approx(2 * 0.01 * p)
    assert mem.optimizer == pytest.approx(12 * 0.01 * p)
    assert mem.weights == pytest.approx(2 * 1.01 * p)
