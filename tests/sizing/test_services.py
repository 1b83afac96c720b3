from decimal import Decimal

import pytest

from clusterbuy.demo import load as load_core_demo
from sizing import demo, services
from sizing.models import Requirement, SizingPlan, Workload

TRAIN_7B = {
    "name": "7B pre-training",
    "kind": "training",
    "model_preset": "llama-2-7b",
    "seq_len": 4096,
    "tokens_b": 100,
    "target_days": 30,
}
SERVE_70B = {
    "name": "70B chat",
    "kind": "inference",
    "model_preset": "llama-2-70b",
    "context_tokens": 2048,
    "output_tokens": 256,
    "concurrent_requests": 16,
}


@pytest.fixture
def catalog(db):
    services.load_reference_catalog()


def test_latest_plan_and_summary_are_none_without_a_plan(procurement, catalog):
    assert services.latest_plan(procurement=procurement) is None
    assert services.plan_summary(procurement=procurement) is None


def test_plan_summary_reads_the_stored_plan(it_lead, procurement, catalog):
    procurement.region = "global"
    procurement.save()
    services.save_requirement(
        procurement=procurement,
        user=it_lead,
        accelerator_key="h100-sxm-80gb",
        data_tb=3.0,
    )
    services.create_workload(procurement=procurement, **TRAIN_7B)
    services.create_workload(procurement=procurement, **SERVE_70B)
    plan = services.compute_sizing_plan(procurement=procurement, user=it_lead)
    summary = services.plan_summary(procurement=procurement)
    result = plan.result
    assert (
        summary.plan_id == plan.pk == services.latest_plan(procurement=procurement).pk
    )
    assert summary.accelerator == "h100-sxm-80gb"
    assert summary.accelerator_name == "NVIDIA H100 SXM5 80GB"
    assert summary.gpu_count == result["gpu_count"]
    assert summary.gpu_count == sum(w["gpu_count"] for w in result["workloads"])
    assert summary.nodes == result["nodes"]
    assert summary.vram_gb_per_gpu == 80.0
    assert summary.scaleup_domain_gpus == 8
    assert summary.gpus_per_node == 8  # DGX H100: 8 GPUs a server
    assert summary.ecosystem == "cuda"
    assert summary.cooling in ("air", "liquid")
    assert summary.it_power_kw == result["power"]["it_kw"]
    assert summary.storage_tb == result["storage"]["capacity_tb"]
    assert summary.gpu_price == Decimal("31904.63")  # server share, USD 2025-01
    assert summary.gpu_price_currency == "USD"
    assert summary.workload_kinds == ("training", "inference")
    assert summary.model_names == ("Llama 2 7B", "Llama 2 70B")
    assert summary.model_params_b == pytest.approx(68.977, abs=0.01)
    assert summary.data_tb == result["storage"]["dataset_tb"]


def test_training_lower_bound_days_is_flops_over_peak_times_ceiling(
    procurement, catalog
):
    services.create_workload(procurement=procurement, **TRAIN_7B)
    # Llama 2 7B: N = 6,738,415,616; 6N + 12 L s H Q with L=32, s=4096, HQ=4096
    per_token = 6 * 6_738_415_616 + 12 * 32 * 4096 * 4096
    assert per_token == 46_872_944_640
    expected = per_token * 100e9 / (64 * 989e12 * 0.6) / 86400
    days = services.training_lower_bound_days(
        procurement=procurement, accelerator_key="h100-sxm-80gb", gpu_count=64
    )
    assert days == pytest.approx(expected, rel=1e-9)
    assert days == pytest.approx(1.4285, abs=1e-3)


def test_training_lower_bound_is_none_without_training_or_accelerator(
    procurement, catalog
):
    services.create_workload(procurement=procurement, **SERVE_70B)
    args = {"procurement": procurement, "gpu_count": 64}
    assert (
        services.training_lower_bound_days(accelerator_key="h100-sxm-80gb", **args)
        is None
    )
    services.create_workload(procurement=procurement, **TRAIN_7B)
    assert services.training_lower_bound_days(accelerator_key="nope", **args) is None


def test_the_procurements_budget_in_cny_reaches_the_engine_in_usd(
    it_lead, procurement, catalog
):
    procurement.budget_max = Decimal("7200000")  # CNY, the factory's currency
    procurement.save()
    requirement = services.save_requirement(
        procurement=procurement, user=it_lead, growth_per_year=25.0
    )
    constraints = services.constraints_for(requirement)
    assert constraints["budget_usd"] == pytest.approx(1_000_000)  # / 7.2 CNY per USD
    assert constraints["data_growth_per_year"] == 0.25


def test_demo_load_is_idempotent(db):
    for _ in range(2):
        context: dict = {}
        load_core_demo(context)
        demo.load(context)
    procurement = context["procurement"]
    assert Workload.objects.filter(procurement=procurement).count() == 2
    assert Requirement.objects.filter(procurement=procurement).count() == 1
    assert SizingPlan.objects.filter(procurement=procurement).count() == 1
    summary = services.plan_summary(procurement=procurement)
    assert summary.workload_kinds == ("training", "inference")
