"""The stale-plan banner (issue 21, item 10): after a requirement or workload edit the
sizing and RFP tabs say the plan is out of date, in English and Chinese, and the
banner's button recomputes it."""

import pytest
from django.conf import settings

from sizing import services
from sizing.models import SizingPlan

SERVE_8B = {
    "name": "chat",
    "kind": "inference",
    "model_preset": "llama-3.1-8b",
    "context_tokens": 2048,
    "output_tokens": 256,
    "concurrent_requests": 16,
}
BANNER_EN = "The plan is out of date"
BANNER_ZH = "方案已过期"


@pytest.fixture
def catalog(db):
    services.load_reference_catalog()


@pytest.fixture
def planned(procurement, it_lead, catalog):
    procurement.region = "global"
    procurement.save()
    workload = services.create_workload(procurement=procurement, **SERVE_8B)
    services.compute_sizing_plan(procurement=procurement, user=it_lead)
    return workload


def _page(client, url: str, language: str = "en") -> str:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_a_fresh_plan_has_no_banner(client_for, it_lead, procurement, planned):
    client = client_for(it_lead)
    assert BANNER_EN not in _page(client, f"/procurements/{procurement.pk}/sizing/")
    assert BANNER_EN not in _page(client, f"/procurements/{procurement.pk}/rfp/")


def test_a_workload_edit_makes_both_tabs_say_the_plan_is_out_of_date(
    client_for, it_lead, procurement, planned
):
    services.update_workload(workload=planned, concurrent_requests=64)
    client = client_for(it_lead)
    for tab in ("sizing", "rfp"):
        url = f"/procurements/{procurement.pk}/{tab}/"
        assert BANNER_EN in _page(client, url)
        assert BANNER_ZH in _page(client, url, "zh-hans")


def test_a_requirement_edit_makes_the_plan_stale(procurement, it_lead, planned):
    plan = services.latest_plan(procurement=procurement)
    assert not services.plan_is_stale(procurement=procurement, plan=plan)
    services.save_requirement(procurement=procurement, user=it_lead, data_tb=500)
    assert services.plan_is_stale(procurement=procurement, plan=plan)


def test_the_banner_button_recomputes_the_plan(
    client_for, it_lead, viewer, procurement, planned
):
    services.update_workload(workload=planned, concurrent_requests=64)
    before = SizingPlan.objects.count()
    url = f"/procurements/{procurement.pk}/sizing/recompute/"
    assert client_for(viewer).post(url).status_code == 403
    assert SizingPlan.objects.count() == before  # the denied request changed nothing
    client = client_for(it_lead)
    assert "Recompute the plan" in _page(
        client, f"/procurements/{procurement.pk}/sizing/"
    )
    assert client.post(url).status_code == 302
    assert SizingPlan.objects.count() == before + 1
    assert BANNER_EN not in _page(client, f"/procurements/{procurement.pk}/sizing/")


def test_the_api_says_whether_a_plan_is_stale(api_for, it_lead, procurement, planned):
    plan = services.latest_plan(procurement=procurement)
    url = f"/api/v1/procurements/{procurement.pk}/sizing-plans/{plan.pk}/"
    assert api_for(it_lead).get(url).json()["stale"] is False
    services.update_workload(workload=planned, concurrent_requests=64)
    assert api_for(it_lead).get(url).json()["stale"] is True
