"""The plan's scenario and the bid's scenario of the same cluster reconciled on the
TCO page and in the API (issue 22: 62.8 M vs 47.3 M for the same hardware, nothing
reconciling them)."""

from decimal import Decimal

import pytest
from django.urls import reverse

from sizing import services as sizing
from tco import services
from tco.engine import compute, cost_breakdown, inputs_from_dict
from tco.engine.breakdown import breakdown_total
from tests.tco.test_report import SERVE_70B, TRAIN_7B
from tests.vendors.test_support import at_decision_stage, line, make_bid, make_vendor
from vendors.services import decisions


@pytest.fixture
def pair(org, procurement, it_lead, buyer):
    sizing.load_reference_catalog()
    procurement.region = "global"
    procurement.save()
    sizing.save_requirement(
        procurement=procurement, user=it_lead, accelerator_key="h100-sxm-80gb"
    )
    sizing.create_workload(procurement=procurement, **TRAIN_7B)
    sizing.create_workload(procurement=procurement, **SERVE_70B)
    plan = sizing.compute_sizing_plan(procurement=procurement, user=it_lead)
    gpus = plan.result["gpu_count"]
    bid = make_bid(
        procurement,
        make_vendor(org),
        lines=[
            line("gpu_servers", 1, 9_000_000),
            line("network", 1, 800_000),
            line("storage", 1, 400_000),
        ],
        gpu_count=gpus,
    )
    plan_scenario = services.create_scenario_from_source(
        procurement=procurement, user=buyer, sizing_plan=plan.pk
    )
    bid_scenario = services.create_scenario_from_source(
        procurement=procurement, user=buyer, bid=bid.pk
    )
    return plan_scenario, bid_scenario, bid


def _total(scenario) -> Decimal:
    inputs = inputs_from_dict(scenario.inputs)
    return breakdown_total(cost_breakdown(inputs, compute(inputs)))


def test_the_api_reconciles_the_two_tcos_item_by_item_exactly(
    pair, procurement, buyer, api_for
):
    plan_scenario, bid_scenario, _bid = pair
    url = (
        f"/api/v1/procurements/{procurement.pk}/tco-scenarios/"
        f"{bid_scenario.pk}/reconciliation/"
    )
    body = api_for(buyer).get(url).json()
    assert body["plan_scenario"] == plan_scenario.pk
    assert body["bid_scenario"] == bid_scenario.pk
    assert body["chosen"] is False
    assert Decimal(body["total_a"]) == _total(plan_scenario)
    assert Decimal(body["total_b"]) == _total(bid_scenario)
    items = body["items"]
    assert sum(Decimal(i["difference"]) for i in items) == Decimal(body["difference"])
    assert Decimal(body["difference"]) == _total(bid_scenario) - _total(plan_scenario)
    gpu = next(
        i for i in items if (i["code"], i["category"]) == ("capex", "gpu_servers")
    )
    assert gpu["amount_b"] == "9000000.00"
    assert gpu["inputs"][0]["name"] == "capex:gpu_servers"
    assert gpu["inputs"][0]["b"] == "9000000.00"
    # The same from the plan's side.
    other = api_for(buyer).get(
        f"/api/v1/procurements/{procurement.pk}/tco-scenarios/"
        f"{plan_scenario.pk}/reconciliation/"
    )
    assert other.json()["difference"] == body["difference"]


def test_a_bid_of_another_size_pairs_only_once_chosen(
    pair, org, procurement, buyer, admin_user, api_for
):
    plan_scenario, _bid_scenario, _bid = pair
    smaller = make_bid(procurement, make_vendor(org, "Smaller Ltd"), gpu_count=8)
    scenario = services.create_scenario_from_source(
        procurement=procurement, user=buyer, bid=smaller.pk
    )
    url = (
        f"/api/v1/procurements/{procurement.pk}/tco-scenarios/"
        f"{scenario.pk}/reconciliation/"
    )
    assert api_for(buyer).get(url).status_code == 404
    at_decision_stage(procurement)
    decisions.record_decision(
        procurement=procurement,
        user=admin_user,
        bid=smaller,
        rationale="Cheaper.",
        override_reason="Budget first.",  # a GPU-short bid needs the override
    )
    body = api_for(buyer).get(url).json()
    assert body["chosen"] is True and body["plan_scenario"] == plan_scenario.pk


def test_the_run_page_shows_the_reconciliation(pair, buyer, client_for, few_draws):
    plan_scenario, _bid_scenario, _bid = pair
    run = services.request_tco_run(scenario=plan_scenario, user=buyer, enqueue=False)
    run = services.execute_tco_run(run_id=run.pk)
    html = (
        client_for(buyer)
        .get(
            reverse("tco:run", args=[plan_scenario.procurement_id, run.pk]),
            HTTP_ACCEPT_LANGUAGE="en",
        )
        .content.decode()
    )
    assert 'id="reconciliation"' in html
    assert "GPU servers" in html and "→ 9,000,000" in html
