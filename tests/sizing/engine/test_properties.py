import math
from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sizing.engine import estimate, workload_from_dict
from sizing.engine.memory import Layout, Recipe, training_memory
from sizing.engine.parallelism import TrainingJob, candidate_layouts, evaluate
from sizing.engine.platform import fabric_for, server_for
from sizing.reference_data import load_catalog

CATALOG = load_catalog()
FAST = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
PRESETS = sorted(CATALOG.presets)
TRAIN_ACCELERATORS = [
    "a100-sxm-80gb",
    "h100-sxm-80gb",
    "h200-sxm-141gb",
    "mi300x-oam-192gb",
    "b200-sxm-180gb",
    "l40s-pcie-48gb",
]


def _train(preset, tokens_b, gpus, accelerator="h100-sxm-80gb"):
    w = workload_from_dict(
        {
            "kind": "training",
            "model": {"preset": preset},
            "tokens_b": tokens_b,
            "gpu_count": gpus,
            "seq_len": 512,
        },
        CATALOG,
    )
    return estimate(w, CATALOG, accelerator)


@FAST
@given(
    st.sampled_from(PRESETS),
    st.floats(1, 1e4),
    st.floats(1.01, 10),
    st.sampled_from([8, 64, 512]),
)
def test_more_tokens_never_take_less_time(preset, tokens_b, factor, gpus):
    fewer = _train(preset, tokens_b, gpus).training["days"]
    more = _train(preset, tokens_b * factor, gpus).training["days"]
    assert more >= fewer


@FAST
@given(
    st.sampled_from(PRESETS),
    st.sampled_from([1, 2, 4, 8]),
    st.sampled_from([1, 2, 4]),
    st.integers(1, 64),
    st.integers(0, 3),
    st.sampled_from(["none", "selective", "full"]),
)
def test_more_data_parallel_gpus_never_need_more_memory_per_gpu(preset, t, p, d, z, rc):
    m = CATALOG.presets[preset]
    kw = dict(
        seq_len=1024,
        micro_batch=1,
        micro_batches=8,
        precision="bf16",
        optimizer="adamw",
        recompute=rc,
    )
    z = z if p == 1 else min(z, 1)
    smaller = training_memory(m, Layout(t, p, d, z), **kw).total
    larger = training_memory(m, Layout(t, p, d * 2, z), **kw).total
    assert larger <= smaller


@FAST
@given(st.sampled_from(PRESETS), st.sampled_from([8, 16]))
def test_more_gpus_never_need_more_memory_per_gpu_at_the_best_fit(preset, gpus):
    acc = CATALOG.accelerators["h100-sxm-80gb"]
    fabric = fabric_for(acc, server_for(acc, CATALOG))

    def least_memory(n):
        job = TrainingJob(
            model=CATALOG.presets[preset],
            gpus=n,
            fabric=fabric,
            memory_gb=80,
            recipe=Recipe(seq_len=512, micro_batch=1),
            global_batch_tokens=4 * 1024 * 1024,
            step_flops=1e15,
            gpu_flops=4e14,
        )
        return min(
            evaluate(job, replace(shape, zero_stage=3)).memory.total
            for shape in candidate_layouts(job)
        )

    assert least_memory(gpus * 2) <= least_memory(gpus)


@FAST
@given(
    st.sampled_from(PRESETS),
    st.sampled_from([1, 2, 4, 8]),
    st.integers(2, 256),
    st.sampled_from(["none", "selective", "full"]),
    st.floats(0.001, 1.0) | st.none(),
)
def test_zero_stage_3_never_needs_more_memory_than_stage_1(preset, t, d, rc, lora):
    m = CATALOG.presets[preset]
    kw = dict(
        seq_len=2048,
        micro_batch=1,
        micro_batches=4,
        precision="bf16",
        optimizer="adamw",
        recompute=rc,
        lora_fraction=lora,
    )
    stage1 = training_memory(m, Layout(t, 1, d, 1), **kw).total
    stage3 = training_memory(m, Layout(t, 1, d, 3), **kw).total
    assert stage3 <= stage1


def _leaves(value):
    if isinstance(value, dict):
        for v in value.values():
            yield from _leaves(v)
    elif isinstance(value, list):
        for v in value:
            yield from _leaves(v)
    else:
        yield value


# node multiples or powers of two: counts a layout can divide under a 4M-token batch
GPU_COUNTS = st.integers(0, 10).map(lambda e: 2**e) | st.integers(1, 128).map(
    lambda n: 8 * n
)

custom_models = st.builds(
    lambda layers, heads, group, head_dim, ffn_mult, vocab, gated: {
        "layers": layers,
        "attention_heads": heads * group,
        "kv_heads": heads,
        "hidden_size": heads * group * head_dim,
        "head_dim": head_dim,
        "ffn_hidden_size": heads * group * head_dim * ffn_mult,
        "vocab_size": vocab,
        "gated_ffn": gated,
    },
    st.integers(1, 96),
    st.sampled_from([1, 2, 4, 8]),
    st.sampled_from([1, 2, 4, 8]),
    st.sampled_from([64, 128]),
    st.integers(2, 4),
    st.integers(1000, 200000),
    st.booleans(),
)


@FAST
@given(
    custom_models,
    st.sampled_from(["training", "fine_tuning", "inference"]),
    st.sampled_from(TRAIN_ACCELERATORS),
    st.floats(0.01, 1e4),
    GPU_COUNTS,
    st.sampled_from([256, 1024, 4096]),
)
def test_results_are_finite_for_every_valid_input(
    model, kind, acc, tokens_b, count, seq
):
    body = {"kind": kind, "model": model, "seq_len": seq}
    if kind == "inference":
        body.update(context_tokens=seq, output_tokens=128, concurrent_requests=count)
        body.pop("seq_len")
    else:
        body.update(tokens_b=tokens_b, gpu_count=count)
        if kind == "fine_tuning":
            body["lora_trainable_fraction"] = 0.01
    w = workload_from_dict(body, CATALOG)
    d = estimate(w, CATALOG, acc).to_dict()
    for leaf in _leaves({k: v for k, v in d.items() if k != "explanation"}):
        if isinstance(leaf, float):
            assert math.isfinite(leaf)
