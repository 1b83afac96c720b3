import pytest

from vendors.engine.compliance import (
    BidOffer,
    ComplianceInputError,
    ComplianceStatus,
    PlanNeeds,
    check_compliance,
)

PASS, WARN, FAIL = ComplianceStatus.PASS, ComplianceStatus.WARN, ComplianceStatus.FAIL

# 16 nodes x 8 H100 SXM: 128 GPUs, 16 x 10.2 kW = 163.2 kW IT power (DGX H100 max).
NEEDS = PlanNeeds(
    gpu_count=128,
    vram_gb_per_gpu=80,
    scaleup_domain_gpus=8,
    network_gbps_per_gpu=400,
    storage_tb=1000,
    storage_read_gbs=128,
    storage_write_gbs=64,
    it_power_kw=163.2,
    cooling="air",
    ecosystem="cuda",
)
FULL_OFFER = BidOffer(
    gpu_count=128,
    vram_gb_per_gpu=80,
    scaleup_domain_gpus=8,
    network_gbps_per_gpu=400,
    storage_tb=1200,
    storage_read_gbs=160,
    storage_write_gbs=80,
    it_power_kw=160,
    cooling="air",
    ecosystem="CUDA",
)


def _by_item(items):
    return {i.item: i for i in items}


def test_offer_meeting_every_need_passes_every_item():
    items = check_compliance(NEEDS, FULL_OFFER)
    # The GPU count is judged by what it delivers (test_capability.py), not here.
    assert [i.item for i in items] == [
        "vram_gb_per_gpu",
        "scaleup_domain_gpus",
        "network_gbps_per_gpu",
        "storage_tb",
        "storage_read_gbs",
        "storage_write_gbs",
        "it_power_kw",
        "cooling",
        "ecosystem",
    ]
    assert {i.status for i in items} == {PASS}


@pytest.mark.parametrize(
    ("field", "offered", "status"),
    [
        ("storage_tb", 900, WARN),  # exactly 10 % short: boundary is a warn
        ("storage_tb", 899, FAIL),  # 10.1 % short
        ("network_gbps_per_gpu", 200, FAIL),  # 50 % short
        (
            "scaleup_domain_gpus",
            4,
            FAIL,
        ),  # PCIe pairs instead of an 8-GPU NVLink domain
        ("storage_read_gbs", 127, WARN),  # 0.8 % short
    ],
)
def test_shortfall_within_tolerance_warns_and_beyond_fails(field, offered, status):
    offer = BidOffer(**{**FULL_OFFER.__dict__, field: offered})
    item = _by_item(check_compliance(NEEDS, offer))[field]
    assert item.status == status
    assert item.offered == offered
    assert item.required == getattr(NEEDS, field)


def test_shortfall_note_states_the_percentage_in_both_languages():
    offer = BidOffer(**{**FULL_OFFER.__dict__, "network_gbps_per_gpu": 200})
    item = _by_item(check_compliance(NEEDS, offer))["network_gbps_per_gpu"]
    assert item.unit == "Gb/s"
    assert item.note == "50% below the plan (200 vs 400 Gb/s)."
    assert item.note_for("zh-hans") == "比方案低 50%（200 对 400 Gb/s）。"


def test_figures_the_vendor_did_not_state_warn():
    items = _by_item(check_compliance(NEEDS, BidOffer()))
    assert {i.status for i in items.values() if i.item != "ecosystem"} == {WARN}
    assert items["storage_tb"].offered is None


def test_power_above_the_site_budget_warns_then_fails():
    # 163.2 kW planned: 170 kW is 4.2 % over (warn), 190 kW is 16.4 % over (fail).
    warn = BidOffer(**{**FULL_OFFER.__dict__, "it_power_kw": 170})
    fail = BidOffer(**{**FULL_OFFER.__dict__, "it_power_kw": 190})
    assert _by_item(check_compliance(NEEDS, warn))["it_power_kw"].status == WARN
    assert _by_item(check_compliance(NEEDS, fail))["it_power_kw"].status == FAIL


def test_implausibly_low_power_warns_about_gpu_tdp_confusion():
    # 16 servers x 4.8 kW = 76.8 kW < 75 % of 163.2 kW (122.4): the "8xH100 4.8 kW" claim.
    offer = BidOffer(**{**FULL_OFFER.__dict__, "it_power_kw": 76.8})
    item = _by_item(check_compliance(NEEDS, offer))["it_power_kw"]
    assert item.status == WARN
    assert "GPU TDP" in item.note


@pytest.mark.parametrize(
    ("required", "offered", "status"),
    [("liquid", "air", FAIL), ("air", "liquid", WARN), ("liquid", "liquid", PASS)],
)
def test_cooling_rule(required, offered, status):
    needs = PlanNeeds(**{**NEEDS.__dict__, "cooling": required})
    offer = BidOffer(**{**FULL_OFFER.__dict__, "cooling": offered})
    assert _by_item(check_compliance(needs, offer))["cooling"].status == status


def test_different_accelerator_ecosystem_fails():
    offer = BidOffer(**{**FULL_OFFER.__dict__, "ecosystem": "cann"})
    item = _by_item(check_compliance(NEEDS, offer))["ecosystem"]
    assert item.status == FAIL
    assert item.required == "cuda"


def test_zero_requirement_passes_even_when_not_offered():
    needs = PlanNeeds(**{**NEEDS.__dict__, "storage_write_gbs": 0})
    offer = BidOffer(**{**FULL_OFFER.__dict__, "storage_write_gbs": None})
    assert _by_item(check_compliance(needs, offer))["storage_write_gbs"].status == PASS


@pytest.mark.parametrize(
    ("needs", "offer"),
    [
        (PlanNeeds(**{**NEEDS.__dict__, "storage_tb": -1}), FULL_OFFER),
        (NEEDS, BidOffer(**{**FULL_OFFER.__dict__, "cooling": "immersion-ish"})),
        (PlanNeeds(**{**NEEDS.__dict__, "cooling": "water"}), FULL_OFFER),
    ],
)
def test_invalid_inputs_raise_compliance_input_error(needs, offer):
    with pytest.raises(ComplianceInputError):
        check_compliance(needs, offer)


def test_power_against_a_plan_of_none_fails_with_a_note_in_each_language():
    needs = PlanNeeds(**{**NEEDS.__dict__, "it_power_kw": 0})
    offer = BidOffer(**{**FULL_OFFER.__dict__, "it_power_kw": 12.5})
    item = next(i for i in check_compliance(needs, offer) if i.item == "it_power_kw")
    assert item.status == ComplianceStatus.FAIL
    assert item.note == "Draws 12.5 kW; the site was planned for none."
    assert item.note_for("zh-hans") == "功耗为 12.5 kW，而场地规划功率为 0。"
