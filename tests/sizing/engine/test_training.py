import pytest

from sizing.engine import estimate
from sizing.engine.efficiency import default_mfu, goodput


@pytest.mark.parametrize(
    ("body", "accelerator", "published_gpu_hours", "tolerance"),
    [
        # Touvron et al. 2023 (Llama 2), Table 2: 70B, 2.0 T tokens, 1,720,320 A100-hours.
        # Predicted: (6N + 16 L s H Q) D / (312 TF x 0.475 MFU x 0.970 goodput) ~ 1.77 M
        (
            dict(preset="llama-2-70b", tokens_b=2000, gpu_count=2048, seq_len=4096),
            "a100-sxm-80gb",
            1_720_320,
            0.10,
        ),
        # Llama 2, Table 2: 7B, 2.0 T tokens, 184,320 A100-hours
        (
            dict(preset="llama-2-7b", tokens_b=2000, gpu_count=1024, seq_len=4096),
            "a100-sxm-80gb",
            184_320,
            0.10,
        ),
        # The Llama 3 Herd of Models (2024) / Llama 3.1 model card: 405B, ~15.6 T tokens,
        # 30.84 M H100-hours on up to 16,384 GPUs; MFU 38-43 % (Table 4)
        (
            dict(
                preset="llama-3.1-405b",
                tokens_b=15600,
                gpu_count=16384,
                seq_len=8192,
                global_batch_tokens=16 * 1024 * 1024,
            ),
            "h100-sxm-80gb",
            30_840_000,
            0.10,
        ),
        # DeepSeek-V3 report: 2.788 M H800-hours in total (2.664 M pre-training on
        # 14.8 T tokens), 2,048 H800, FP8 mixed precision
        (
            dict(
                preset="deepseek-v3",
                tokens_b=14800,
                gpu_count=2048,
                seq_len=4096,
                precision="fp8",
                global_batch_tokens=15360 * 4096,
            ),
            "h800-sxm-80gb",
            2_788_000,
            0.15,
        ),
    ],
)
def test_published_training_run_gpu_hours_are_reproduced(
    catalog, make, body, accelerator, published_gpu_hours, tolerance
):
    preset = body.pop("preset")
    w = make(kind="training", model={"preset": preset}, **body)
    result = estimate(w, catalog, accelerator)
    assert result.training["gpu_hours"] == pytest.approx(
        published_gpu_hours, rel=tolerance
    )


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
    # goodput(64) = 1 / (1 + 64 x 1.973e-5 x 0.25) x 0.98
    good = goodput(64, 0.02)
    days = r["total_flops"] / (64 * 989e12 * 0.4) / good / 86400
    assert r["days"] == pytest.approx(days)
    assert r["gpu_hours"] == pytest.approx(days * 24 * 64)


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


def test_mfu_uses_dense_peak_and_drops_with_scale_and_fp8():
    assert default_mfu("nvidia-sxm", "bf16", 1024, False) == 0.50
    # 16,384 GPUs = 4 doublings above 1,024: 0.5 x (1 - 0.2) = 0.40 (Llama 3: 38-43 %)
    assert default_mfu("nvidia-sxm", "bf16", 16384, False) == pytest.approx(0.40)
    assert default_mfu("nvidia-sxm", "fp8", 1024, False) == pytest.approx(0.275)


def test_mfu_override_is_used_as_given(catalog, make):
    w = make(
        kind="training",
        model={"preset": "llama-3-8b"},
        tokens_b=10,
        gpu_count=8,
        mfu=0.33,
    )
    assert estimate(w, catalog, "h100-sxm-80gb").training["mfu"] == 0.33


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
    assert p["tensor"] * p["pipeline"] * p["data"] == 512
    assert p["tensor"] <= 8
    assert r.memory["per_gpu_gb"] <= 0.9 * 80
