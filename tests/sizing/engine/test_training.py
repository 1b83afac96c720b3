import pytest

from sizing.engine import estimate
from sizing.engine.efficiency import goodput, training_efficiency
from sizing.engine.goodput import balanced_interval_min, practice_of


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
    # 1,024 A100 80GB (312 TFLOPS, 2.039 TB/s), 4k sequences, micro-batch 1, BF16,
    # selective recompute (FlashAttention recomputes the scores itself).
    # GEMMs per layer (M = 4,096 tokens): K x N = 4096 x (12288 + 4096 + 22016) +
    # 11008 x 4096 = 202,375,168; head 4096 x 32000; rows 4096 / (4096 + 384);
    # rate 312e12 x 0.87; three passes; / step share 0.81
    m_tok, rate, rows = 4096, 312e12 * 0.87, 4096 / (4096 + 384)
    gemm = 2 * m_tok * (32 * 202_375_168 + 4096 * 32000) / rate / rows * 3 / m_tok
    gemm /= 0.81
    # attention: 7/12 of 12 L s H Q at 0.68 of the ceiling, / 0.81
    attention_flops = 12 * 32 * 4096 * 4096
    attention = 7 / 12 * attention_flops / (rate * 0.68) / 0.81
    # memory-bound: (4h + 2 (H + K) d + 6h + 3f) x 3 passes x 2 B per layer, + 12 V
    memory = ((4 * 4096 + 2 * 8192 + 6 * 4096 + 3 * 11008) * 6 * 32 + 12 * 32000) / (
        2.039e12 * 0.9
    )
    hardware = 6 * 6_738_415_616 + attention_flops * 4 / 3
    e = training_efficiency(
        catalog.accelerators["a100-sxm-80gb"],
        catalog.presets["llama-2-7b"],
        gpus=1024,
        seq_len=4096,
        precision="bf16",
        recompute="selective",
    )
    total = gemm + attention + memory
    assert e.hfu == pytest.approx(hardware / total / 312e12, rel=1e-3)
    assert e.memory_share == pytest.approx(memory / total, rel=1e-3)
    assert e.attention_share == pytest.approx(attention / total, rel=1e-3)
    assert e.mfu == pytest.approx(e.hfu * (hardware - attention_flops / 3) / hardware)


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

    # a 4,096-wide model on H100 spends more of its time on memory-bound work (bytes
    # ~ h per token and layer against ~ h^2 FLOPs) than a 16,384-wide one
    def memory_share(preset):
        return training_efficiency(
            h100,
            catalog.presets[preset],
            gpus=1024,
            seq_len=8192,
            precision="bf16",
            recompute="selective",
        ).memory_share

    assert memory_share("llama-3.1-8b") > 2 * memory_share("llama-3.1-405b")


def test_fp8_speeds_up_the_linear_layers_not_the_step_twofold(catalog):
    h100 = catalog.accelerators["h100-sxm-80gb"]
    model = catalog.presets["llama-3.1-70b"]
    kw = dict(gpus=1024, seq_len=8192, recompute="selective")
    bf16 = training_efficiency(h100, model, precision="bf16", **kw)
    fp8 = training_efficiency(h100, model, precision="fp8", **kw)
    # achieved FLOP/s: fp8 HFU x 1979 vs bf16 HFU x 989. The GEMMs run twice as fast;
    # attention stays 16-bit and FP8 adds casts, so the step gains less than 2x
    # (Megatron-LM issue 396 measured 1.42x on a 13B GPT at 2k with 2023's TE).
    speedup = fp8.hfu * 1979 / (bf16.hfu * 989)
    assert 1.4 < speedup < 1.8
    assert fp8.attention_share > bf16.attention_share


def test_goodput_shrinks_with_cluster_size():
    assert goodput(16384, 0.02) < goodput(1024, 0.02) < goodput(8, 0.02) < 0.98 + 1e-9
    # 16,384 GPUs x 419 / (16,384 x 54 x 24) = 0.3233 failures an hour; each costs the
    # 10-minute automated restart + half the 60-minute default interval = 40 minutes
    assert goodput(16384, 0.0) == pytest.approx(1 / (1 + 419 / (54 * 24) * 40 / 60))


def test_llama_3_effective_training_time_needs_frequent_checkpoints():
    # Llama 3 section 3.3.4: "higher than 90 % effective training time" on 16,384 H100;
    # with automated restarts that holds once checkpoints come every 20 minutes:
    # 1 / (1 + 0.3233 x (10 + 10) / 60) = 0.903
    practice = practice_of("automated", None, None, 20.0)
    assert practice.goodput(16384, 0.0) == pytest.approx(0.903, abs=0.001)


def test_manual_restarts_cost_the_older_runs_more(catalog, make):
    # OPT-175B era (manual restarts, 2 h): 992 GPUs lose 992 x 1.973e-5 x 2.5 h = 4.9 %
    # of their time, against 0.8 % with automated 10-minute restarts
    body = dict(
        kind="training", model={"preset": "llama-2-70b"}, tokens_b=100, gpu_count=992
    )
    manual = estimate(make(**body, restart_practice="manual"), catalog, "a100-sxm-80gb")
    automated = estimate(make(**body), catalog, "a100-sxm-80gb")
    rate = 419 / (16384 * 54 * 24)
    assert manual.training["failure_loss_share"] == pytest.approx(992 * rate * 2.5)
    assert automated.training["failure_loss_share"] == pytest.approx(
        992 * rate * 40 / 60
    )
    assert manual.training["days"] > automated.training["days"]


def test_the_buyer_overrides_the_failure_rate_and_restart_time(catalog, make):
    w = make(
        kind="training",
        model={"preset": "llama-2-7b"},
        tokens_b=100,
        gpu_count=512,
        failures_per_gpu_hour=1e-4,
        restart_min=30,
        checkpoint_interval_min=30,
    )
    r = estimate(w, catalog, "h100-sxm-80gb").training
    # 512 x 1e-4 x (30 + 15) / 60 = 0.0384
    assert r["failure_loss_share"] == pytest.approx(0.0384)
    assert r["goodput"] == pytest.approx(0.98 / 1.0384)


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


def test_the_checkpoint_interval_is_balanced_for_the_scale():
    """Young's optimum: the rollback (tau / 2 per failure) equals the checkpoint stall
    s: tau = 2 s / (lambda N). Llama 3 405B on 16,384 H100 (section 3.3.4: 419
    unexpected interruptions in 54 days, "higher than 90 % effective training time"):
    lambda N = 0.3233 an hour, tau = 2 x 0.02 / 0.3233 h = 7.42 min, goodput
    0.98 / (1 + 0.3233 x (10 + 3.71) / 60) = 0.98 / 1.07388 = 0.91258."""
    rate = 419 / (16384 * 54 * 24)
    assert balanced_interval_min(rate, 16384, 0.02) == pytest.approx(7.423, abs=1e-3)
    practice = practice_of("automated", None, None, None)
    assert practice.goodput(16384, 0.02) == pytest.approx(0.91258, abs=1e-5)
    # below about 2,000 GPUs the 60-minute default holds; a buyer's interval wins
    assert balanced_interval_min(rate, 1024, 0.02) == 60.0
    assert practice_of("automated", None, None, 30.0).interval_min(16384, 0.02) == 30


def test_the_storage_is_sized_for_the_interval_the_goodput_assumed(catalog, make):
    w = make(
        kind="training", model={"preset": "llama-3.1-405b"}, tokens_b=15_000,
        gpu_count=16384, seq_len=8192,
    )  # fmt: skip
    r = estimate(w, catalog, "h100-sxm-80gb")
    interval = r.training["checkpoint_interval_min"]
    assert interval == pytest.approx(7.423, abs=0.01)
    # 14 B x 405.9 B params = 5,682 GB written in 2 % of 7.42 min = 8.9 s: 638 GB/s
    assert r.storage["checkpoint_gb"] == pytest.approx(5682, abs=1)
    assert r.storage["checkpoint_write_gbs"] == pytest.approx(
        r.storage["checkpoint_gb"] / (0.02 * interval * 60), rel=1e-6
    )
    assert 500 < r.storage["checkpoint_write_gbs"] < 2000  # Llama 3: 2 TB/s sustained
