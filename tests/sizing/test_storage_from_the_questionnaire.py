"""Storage = max(the questionnaire's data grown over the horizon, the workloads'
datasets) + checkpoints, and the RFP states that one figure (issue 21, item 7)."""

import pytest
from django.utils import translation

from sizing import services
from vendors.rfp.content import rfp_content

FINE_TUNE_32B = {
    "name": "32B fine-tune",
    "kind": "fine_tuning",
    "model_preset": "qwen3-32b",
    "seq_len": 4096,
    "tokens_b": 1,
    "target_days": 7,
    "dataset_tb": 0.5,  # the workload's own dataset: much less than the organisation's
}


@pytest.fixture
def plan(db, procurement, it_lead):
    services.load_reference_catalog()
    procurement.region = "cn"
    procurement.horizon_years = 3
    procurement.save()
    services.save_requirement(
        procurement=procurement,
        user=it_lead,
        accelerator_key="h20-sxm-96gb",
        data_tb=200,
        growth_per_year=30,
    )
    services.create_workload(procurement=procurement, **FINE_TUNE_32B)
    return services.compute_sizing_plan(procurement=procurement, user=it_lead)


def test_the_organisations_data_is_stored_even_when_a_workload_has_a_dataset(plan):
    storage = plan.result["storage"]
    (workload,) = plan.result["workloads"]
    grown = 200 * 1.3**3  # 439.4 TB after the 3-year horizon
    assert storage["dataset_tb"] == pytest.approx(grown)
    checkpoints = workload["storage"]["capacity_tb"] - workload["storage"]["dataset_tb"]
    assert storage["capacity_tb"] == pytest.approx(grown + checkpoints)
    assert storage["capacity_tb"] > 400  # not the 3.5 TB of the workload alone


def test_the_rfp_states_that_one_figure(plan, procurement):
    with translation.override("en"):
        rows = {m["code"]: m for m in rfp_content(procurement)["minimums"]}
    capacity = plan.result["storage"]["capacity_tb"]
    assert rows["storage_tb"]["value"] == pytest.approx(capacity, abs=0.1)
    assert rows["storage_tb"]["value"] <= capacity  # the plan meets its own minimum
    assert "200 TB today" in rows["storage_tb"]["basis"]


def test_a_workload_dataset_larger_than_the_organisations_data_wins():
    from sizing.engine import plan_cluster, workload_from_dict
    from sizing.engine.workload import constraints_from_dict
    from sizing.reference_data import load_catalog

    catalog = load_catalog()
    body = {
        "kind": "inference",
        "model": {"preset": "llama-3.1-8b"},
        "concurrent_requests": 8,
        "dataset_tb": 50,
    }
    w = workload_from_dict(body, catalog)
    small = {"region": "global", "data_tb": 10, "data_growth_per_year": 0.0}
    none = {"region": "global"}
    with_data = plan_cluster(
        [w], catalog, "h100-sxm-80gb", constraints_from_dict(small)
    )
    without = plan_cluster([w], catalog, "h100-sxm-80gb", constraints_from_dict(none))
    # 50 TB of the workload over a 3-year horizon at no growth vs 10 TB: 50 TB
    assert with_data.storage["dataset_tb"] == pytest.approx(50.0)
    assert with_data.storage["capacity_tb"] == pytest.approx(
        without.storage["capacity_tb"]
    )
