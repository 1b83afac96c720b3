import pytest

from sizing.engine import estimate
from sizing.engine.efficiency import goodput, training_efficiency


def test_days_and_gpu_hours_follow_from_flops_peak_mfu_and_goodput(catalog, make):
    w = make(
        kind="training",
        model={"preset": "llama-3-8b"},
        tokens_b=100,
        gpu_count=64,
        mfu=0.4,
        seq_len=2048,
        recompute="none",
    )
    r = estimate(w, catalog, "h100-sxm-80gb").training
    # goodput(64) = 1 / (1 + 64 x 1.973e-5 x 0.25) x 0.98; no recompute: HFU = MFU
    good = goodput(64, 0.02)
    days = r["total_flops"] / (64 * 989e12 * 0.4) / good / 86400
    assert r["days"] == pytest.approx(days)
    assert r["gpu_hours"] == pytest.approx(days * 24 * 64)
    assert r["hfu"] == pytest.approx(0.4)


def test_an_mfu_override_counts_model_flops_and_recompute_comes_on_top(catalog, make):
    w = make(
        kind="training",
        model={"preset": "llama-3-8b"},
        tokens_b=100,
        gpu_count=64,
        mfu=0.4,
        seq_len=2048,
        recompute="full",
    )
    r = estimate(w, catalog, "h100-sxm-80gb").training
    model_flops = r["total_flops"] - r["recompute_flops"]
    # HFU = MFU x hardware / model FLOPs, so days = model FLOPs / (N peak MFU)
    assert r["hfu"] == pytest.approx(0.4 * r["total_flops"] / model_flops)
    days = model_flops / (64 * 989e12 * 0.4) / goodput(64, 0.02) / 86400
    assert r["days"] == pytest.approx(days)


def test_target_days_gives_the_smallest_node_multiple_that_meets_it(catalog, make):
    w = make(
        kind="training", model={"preset": "llama-3-8b"}, tokens_b=1000, target_days=20
    )
    r = estimate(w, catalog, "h100-sxm-80gb")
    assert r.gpu_count % 8 == 0
    assert r.training["days"] <= 20
    fewer = make(
        kind="training",
        model={"preset": "llama-3-8b"},
        tokens_b=1000,
        gpu_count=r.gpu_count - 8,
    )
    assert estimate(fewer, catalog, "h100-sxm-80gb").training["days"] > 20


def test_target_days_skip_counts_no_layout_divides(catalog, make):
    # 70B, 15 T tokens in 60 days: ~4,920 H100 by time alone, but 4,920 = 8 x 615 leaves
    # >= 615 data ranks for the 512 sequences of a 4M-token batch of 8k sequences; the
    # next node multiple with enough factors of two is 4,928 = 64 x 77
    w = make(
        kind="training",
        model={"preset": "llama-3.1-70b"},
        tokens_b=15000,
        target_days=60,
        seq_len=8192,
    )
    r = estimate(w, catalog, "h100-sxm-80gb")
    p = r.parallelism
    assert r.gpu_count % 8 == 0 and r.training["days"] <= 60
    assert p["tensor"] * p["context"] * p["pipeline"] * p["data"] == r.gpu_count


def test_mfu_override_is_used_as_given(catalog, make):
    w = make(
        kind="training",
        model={"preset": "llama-3-8b"},
        tokens_b=10,
        gpu_count=8,
        mfu=0.33,
    )
    assert estimate(w, catalog, "h100-sxm-80gb").training["mfu"] == 0.33


def test_efficiency_of_llama_2_7b_on_a100_by_hand(catalog):
    # 1,024 A100 80GB, 4k sequences, BF16, selective recompute:
    # attention 12 L s H Q = 12 x 32 x 4096 x 4096 = 6.4425e9 FLOP/token, x 4/3 with the
    # recomputed attention core; model FLOPs 6 x 6,738,415,616 + 6.4425e9 = 4.6873e10,
    # hardware 4.9020e10; attention share 8.590e9 / 4.9020e10 = 0.17523;
    # time per FLOP (1 - 0.17523) + 0.17523 / 0.75 = 1.05841;
    # memory-bound divisor 1 + 312 / 2.039 x (0.00125 + 0.004 x 4096 / 4096) = 1.80334;
    # HFU = 0.87 (A100 matmul ceiling) / 1.80334 / 1.05841 = 0.4558
    e = training_efficiency(
        catalog.accelerators["a100-sxm-80gb"],
        catalog.presets["llama-2-7b"],
        gpus=1024,
        seq_len=4096,
        precision="bf16",
        recompute="selective",
    )
    assert e.overhead == pytest.approx(1 + 312 / 2.039 * 0.00525)
    assert e.hfu == pytest.approx(
        0.87 / (1 + 312 / 2.039 * 0.00525) / 1.05841, rel=1e-4
    )
    assert e.mfu == pytest.approx(e.hfu * 4.6873e10 / 4.9020e10, rel=1e-3)


def test_efficiency_falls_with_scale_and_rises_with_width_on_h100(catalog):
    h100 = catalog.accelerators["h100-sxm-80gb"]

    def hfu(preset, gpus):
        return training_efficiency(
            h100,
            catalog.presets[preset],
            gpus=gpus,
            seq_len=8192,
            precision="bf16",
            recompute="selective",
        ).hfu

    # Llama 3 Table 4: 430 -> 400 TFLOPS/GPU from 8,192 to 16,384 GPUs:
    # (1 + 0.097 x 3) / (1 + 0.097 x 4) = 0.930
    assert hfu("llama-3.1-405b", 16384) / hfu("llama-3.1-405b", 8192) == pytest.approx(
        1.291 / 1.388, rel=1e-3
    )
    # a 4,096-wide model on H100 loses more to memory-bound work than a 16,384-wide one
    assert hfu("llama-3.1-8b", 1024) < hfu("llama-3.1-405b", 1024)


def test_fp8_speeds_up_the_linear_layers_not_the_step_twofold(catalog):
    h100 = catalog.accelerators["h100-sxm-80gb"]
    model = catalog.presets["llama-3.1-70b"]
    kw = dict(gpus=1024, seq_len=8192, recompute="selective")
    bf16 = training_efficiency(h100, model, precision="bf16", **kw)
    fp8 = training_efficiency(h100, model, precision="fp8", **kw)
    # achieved FLOP/s: fp8 HFU x 1979 vs bf16 HFU x 989; only the non-attention share
    # runs 1.42x faster (Megatron-LM issue 396: 0.34 -> 0.24 s/step)
    speedup = fp8.hfu * 1979 / (bf16.hfu * 989)
    share = bf16.attention_share
    assert speedup == pytest.approx(
        (1 - share + share / 0.75) / ((1 - share) / 1.42 + share / 0.75)
    )
    assert 1.2 < speedup < 1.42


def test_goodput_shrinks_with_cluster_size():
    assert goodput(16384, 0.02) < goodput(1024, 0.02) < goodput(8, 0.02) < 0.98 + 1e-9
    # Llama 3: ">90 % effective training time" at 16k GPUs
    assert goodput(16384, 0.0) == pytest.approx(0.925, abs=0.01)


def test_chosen_layout_fits_with_headroom_and_multiplies_to_gpu_count(catalog, make):
    w = make(
        kind="training", model={"preset": "llama-2-70b"}, tokens_b=2000, gpu_count=512
    )
    r = estimate(w, catalog, "h100-sxm-80gb")
    p = r.parallelism
    assert p["tensor"] * p["context"] * p["pipeline"] * p["data"] == 512
    assert p["tensor"] <= 8
    assert r.memory["per_gpu_gb"] <= 0.9 * 80


@pytest.mark.parametrize(
    "preset, seq_len, expected",
    [
        # gpt-oss-120b config.json: 36 layers, every other one slides over 128 tokens,
        # 64 heads x 64: 12 x (18 x 8,192 + 18 x min(8,192, 2 x 128)) x 4,096
        ("gpt-oss-120b", 8192, 12 * (18 * 8192 + 18 * 256) * 64 * 64),
        # Llama 4 Scout: 36 of 48 layers attend within 8,192-token chunks, 40 x 128
        ("llama-4-scout", 32768, 12 * (12 * 32768 + 36 * 8192) * 40 * 128),
        # below the window nothing changes: 12 x 48 x 4,096 x 40 x 128
        ("llama-4-scout", 4096, 12 * 48 * 4096 * 40 * 128),
        # Qwen3-Next: 36 of 48 layers are Gated DeltaNet (no s x s scores), 16 x 256
        ("qwen3-next-80b-a3b", 4096, 12 * 12 * 4096 * 16 * 256),
    ],
)
def test_training_attention_flops_follow_each_layers_span(
    catalog, preset, seq_len, expected
):
    from sizing.engine.model import attention_flops_per_token

    assert attention_flops_per_token(catalog.presets[preset], seq_len) == expected
