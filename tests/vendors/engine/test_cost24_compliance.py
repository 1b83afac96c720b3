"""Issue 24: power at exactly the plan's is no "Draws 0% more"; the memory-per-GPU
item does not fail an H20 (96 GB) against an H200 plan (141 GB) when every
workload fits."""

from dataclasses import replace

from vendors.engine.capability import (
    Capability,
    WorkloadCapability,
    check_capability_compliance,
)
from vendors.engine.compliance import (
    BidOffer,
    ComplianceStatus,
    PlanNeeds,
    check_compliance,
)

# 13 nodes x DGX H200 10.2 kW = 132.6 kW; H200 141 GB (hardware-facts.md section 1).
NEEDS = PlanNeeds(
    gpu_count=104,
    vram_gb_per_gpu=141,
    scaleup_domain_gpus=8,
    network_gbps_per_gpu=400,
    storage_tb=1100,
    storage_read_gbs=50,
    storage_write_gbs=20,
    it_power_kw=132.6,
    cooling="air",
    ecosystem="cuda",
)
H20_OFFER = BidOffer(
    gpu_count=232,
    vram_gb_per_gpu=96,
    scaleup_domain_gpus=8,
    network_gbps_per_gpu=400,
    storage_tb=1100,
    storage_read_gbs=50,
    storage_write_gbs=20,
    it_power_kw=132.6,
    cooling="air",
    ecosystem="cuda",
)


def _item(items, name):
    return next(i for i in items if i.item == name)


def test_power_at_the_plans_figure_in_float_passes_without_draws_0_percent():
    # 13 x 10.2 computed in float is 132.60000000000002 > 132.6.
    offer = replace(H20_OFFER, it_power_kw=13 * 10.2)
    item = _item(check_compliance(NEEDS, offer), "it_power_kw")
    assert item.status == ComplianceStatus.PASS
    assert "0%" not in item.note


def test_power_one_per_cent_over_still_says_so():
    offer = replace(H20_OFFER, it_power_kw=132.6 * 1.01)
    item = _item(check_compliance(NEEDS, offer), "it_power_kw")
    assert item.status == ComplianceStatus.WARN
    assert item.note.startswith("Draws 1% more")


def _capability(fits):
    return Capability(
        plan_label="104 x H200",
        offer_label="232 x H20",
        workloads=(WorkloadCapability(name="chat", kind="inference", fits=fits),),
    )


def test_h20_memory_per_gpu_passes_when_the_workloads_fit():
    items = check_capability_compliance(NEEDS, H20_OFFER, _capability(True))
    item = _item(items, "vram_gb_per_gpu")
    assert (item.status, item.required, item.offered) == (
        ComplianceStatus.PASS,
        141,
        96,
    )
    assert "every planned workload fits" in item.note


def test_memory_per_gpu_still_fails_when_a_workload_does_not_fit():
    items = check_capability_compliance(NEEDS, H20_OFFER, _capability(False))
    assert _item(items, "vram_gb_per_gpu").status == ComplianceStatus.FAIL
