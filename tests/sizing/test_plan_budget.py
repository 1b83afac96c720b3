"""The plan against the budget for the whole cluster, in the procurement's currency
(issue 22: a 40.3 M CNY plan against a 32 M ceiling showed no flag, the check ran per
workload, in USD)."""

from decimal import Decimal

import pytest
from django.urls import reverse

from sizing import services
from sizing.engine.budget import cluster_cost_usd

from .test_services import SERVE_70B, TRAIN_7B


@pytest.fixture
def catalog(db):
    services.load_reference_catalog()


def _plan(procurement, it_lead):
    procurement.region = "global"
    procurement.save()
    services.save_requirement(
        procurement=procurement, user=it_lead, accelerator_key="h100-sxm-80gb"
    )
    services.create_workload(procurement=procurement, **TRAIN_7B)
    services.create_workload(procurement=procurement, **SERVE_70B)
    return services.compute_sizing_plan(procurement=procurement, user=it_lead)


def test_a_cluster_over_budget_is_flagged_though_each_workload_fits(
    it_lead, procurement, catalog
):
    plan = _plan(procurement, it_lead)
    totals = [w["cost"]["total_usd"] for w in plan.result["workloads"]]
    cluster_usd = cluster_cost_usd(plan.result)
    assert cluster_usd == pytest.approx(sum(totals))  # partitioned: the sum
    # A CNY ceiling between the largest workload and the whole cluster.
    ceiling_cny = Decimal(str(round((max(totals) + sum(totals)) / 2 * 7.2, 2)))
    procurement.budget_max = ceiling_cny
    procurement.save()
    plan = _plan(procurement, it_lead)  # recomputed with the ceiling
    per_workload = {
        b["code"] for w in plan.result["workloads"] for b in w["bottlenecks"]
    }
    assert "over_budget" not in per_workload  # what the issue saw
    check = services.plan_budget(plan=plan)
    expected = (Decimal(str(cluster_cost_usd(plan.result))) * Decimal("7.2")).quantize(
        Decimal("0.01")
    )
    assert check.currency == "CNY"
    assert check.amount == expected
    assert check.ceiling == ceiling_cny
    assert check.over is True
    assert check.variance == expected - ceiling_cny


def test_the_plan_page_and_api_show_the_cluster_budget_check(
    client, it_lead, procurement, catalog
):
    procurement.budget_max = Decimal("1000")  # CNY: far below any cluster
    procurement.save()
    plan = _plan(procurement, it_lead)
    client.force_login(it_lead)
    page = client.get(reverse("sizing:plan", args=[procurement.pk]))
    html = page.content.decode()
    assert 'id="plan-budget"' in html and 'data-over-budget="true"' in html
    body = client.get(
        f"/api/v1/procurements/{procurement.pk}/sizing-plans/{plan.pk}/"
    ).json()
    check = services.plan_budget(plan=plan)
    assert body["budget"] == {
        "amount": str(check.amount),
        "ceiling": "1000.00",
        "currency": "CNY",
        "variance": str(check.amount - Decimal("1000")),
        "share_pct": str(check.share_pct),
        "over_budget": True,
    }


def test_no_budget_no_check(it_lead, procurement, catalog):
    assert services.plan_budget(plan=_plan(procurement, it_lead)) is None
