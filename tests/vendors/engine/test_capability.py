import pytest

from vendors.engine.capability import (
    Capability,
    WorkloadCapability,
    check_capability_compliance,
    compute_item,
    memory_fit_item,
    workload_share,
)
from vendors.engine.compliance import ComplianceStatus

from .test_compliance import FULL_OFFER, NEEDS

PASS, WARN, FAIL = ComplianceStatus.PASS, ComplianceStatus.WARN, ComplianceStatus.FAIL

# Dense BF16 peaks from the catalog (sizing/data/accelerators.csv):
# H200 SXM 989 TFLOPS = NVIDIA H200 product page's 1,979 "with sparsity" / 2;
# HGX H20 148 TFLOPS = NVIDIA-provided reseller spec (Tom's Hardware / TweakTown,
# Jan 2024). 104 x 989 = 102,856 TFLOPS; 256 x 148 = 37,888 TFLOPS (36.8 %).
H200_104_PFLOPS = 104 * 989 / 1000
H20_256_PFLOPS = 256 * 148 / 1000


def _training(days, needed=65.0, plan=64.48, fits=True):
    return WorkloadCapability(
        name="70B pre-training",
        kind="training",
        fits=fits,
        training_days=days,
        needed_days=needed,
        plan_days=plan,
    )


def _cap(offered_pflops, *workloads, offer="256 x NVIDIA HGX H20 96GB"):
    return Capability(
        plan_label="104 x NVIDIA H200 SXM 141GB",
        offer_label=offer,
        precision="bf16",
        needed_pflops=H200_104_PFLOPS,
        offered_pflops=offered_pflops,
        workloads=workloads,
    )


def test_256_h20_fail_against_104_h200_with_both_figures_and_the_days():
    item = compute_item(_cap(H20_256_PFLOPS, _training(117.53)))
    assert item.status == FAIL
    assert (item.required, item.offered, item.unit) == (
        pytest.approx(
            102.8
        ),  # 102.856 as the RFP states it (rounded to the plan's side)
        pytest.approx(37.888),
        "PFLOPS",
    )
    assert item.note == (
        "104 x NVIDIA H200 SXM 141GB = 102.8 PFLOPS BF16 needed; "
        "256 x NVIDIA HGX H20 96GB = 37.9 PFLOPS offered (37% of the plan). "
        "70B pre-training: training 117.5 days vs 65.0 needed (plan 64.5). "
        "Delivers 55% of the need."  # 65 / 117.53
    )
    assert "训练 117.5 天，需求 65.0 天" in item.note_for("zh-hans")


def test_a_bid_matching_the_plan_passes():
    item = compute_item(
        _cap(H200_104_PFLOPS, _training(64.48), offer="104 x NVIDIA H200 SXM 141GB")
    )
    assert item.status == PASS
    assert "Delivers" not in item.note


@pytest.mark.parametrize(
    ("days", "status"),
    [
        (65.0, PASS),  # exactly the target
        (72.2, WARN),  # 65 / 72.2 = 90.03 % of the need: within 10 %
        (72.3, FAIL),  # 89.90 %
    ],
)
def test_training_days_within_tolerance_warn_and_beyond_fail(days, status):
    assert compute_item(_cap(H200_104_PFLOPS, _training(days))).status == status


def test_without_workload_figures_effective_compute_decides():
    assert compute_item(_cap(H20_256_PFLOPS)).status == FAIL  # 36.8 %
    assert compute_item(_cap(0.95 * H200_104_PFLOPS)).status == WARN
    assert compute_item(_cap(H200_104_PFLOPS)).status == PASS
    unknown = compute_item(_cap(None))
    assert unknown.status == WARN and "unknown" in unknown.note


def test_serving_share_is_capacity_at_the_latency_targets_over_the_load():
    def serving(**values):
        return WorkloadCapability(name="chat", kind="inference", fits=True, **values)

    load = {"required_concurrent_requests": 200, "required_requests_per_second": 10}
    ok = serving(
        meets_latency=True, concurrent_requests=256, requests_per_second=12, **load
    )
    short = serving(
        meets_latency=True, concurrent_requests=150, requests_per_second=12, **load
    )
    assert workload_share(ok) == pytest.approx(1.2)  # min(256/200, 12/10)
    assert workload_share(short) == pytest.approx(0.75)
    assert workload_share(serving(meets_latency=False, **load)) == 0.0
    assert compute_item(_cap(H200_104_PFLOPS, ok)).status == PASS
    assert compute_item(_cap(H200_104_PFLOPS, short)).status == FAIL


def test_memory_fit_fails_when_a_workload_does_not_fit():
    fails = memory_fit_item(_cap(8 * 148 / 1000, _training(3000, fits=False)))
    assert fails.status == FAIL
    assert (fails.required, fails.offered) == (1, 0)
    assert "70B pre-training" in fails.note
    assert memory_fit_item(_cap(H20_256_PFLOPS, _training(117.5))).status == PASS
    assert memory_fit_item(None).status == WARN


def test_capability_items_come_first_and_the_gpu_count_is_not_an_item():
    items = check_capability_compliance(
        NEEDS, FULL_OFFER, _cap(H20_256_PFLOPS, _training(117.53))
    )
    assert [i.item for i in items][:3] == ["compute", "memory_fit", "vram_gb_per_gpu"]
    assert "gpu_count" not in {i.item for i in items}


def test_a_workload_not_sized_says_why_in_each_language():
    """The sizing engine's reason comes worded by the app in both languages
    (vendors.comparison.delivered): the Chinese note carries no English."""
    cap = Capability(
        plan_label="64 x H200",
        offer_label="0 x H200",
        needed_pflops=63.3,
        offered_pflops=0.0,
        workloads=(
            WorkloadCapability(
                name="预训练",
                kind="training",
                error="No GPUs are left for this workload.",
                error_zh="没有剩余 GPU 可用于此工作负载。",
            ),
        ),
    )
    item = compute_item(cap)
    assert "预训练: not sized (No GPUs are left for this workload.)." in item.note
    assert "预训练：无法测算（没有剩余 GPU 可用于此工作负载。）。" in item.note_zh
