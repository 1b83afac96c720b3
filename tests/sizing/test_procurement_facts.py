"""The questionnaire takes budget, horizon, site, region, data locality and scheduler
experience from the procurement (issue 12): shown read-only with a link to edit them
there, never asked again, refused by the API, and read by sizing."""

from decimal import Decimal

import pytest
from django.conf import settings
from django.utils import translation

from sizing import services
from sizing.engine import SizingInputError
from sizing.models import Requirement, SizingPlan

TRAIN_7B = {
    "name": "7B pre-training",
    "kind": "training",
    "model_preset": "llama-2-7b",
    "seq_len": 4096,
    "tokens_b": 100,
    "target_days": 30,
    "dataset_tb": 10.0,
}
QUESTIONNAIRE = {
    "scenario": "training",
    "data_tb": "0",
    "growth_per_year": "20",
    "rack_power_limit_kw": "",
    "preferred_ecosystem": "",
    "accelerator_key": "",
}
FACT_INPUTS = (
    "budget",
    "budget_currency",
    "planning_years",
    "region",
    "data_location",
    "scheduler_experience",
)


@pytest.fixture
def catalog(db):
    services.load_reference_catalog()


@pytest.fixture
def facts(procurement):
    procurement.budget_min = Decimal("20000000")
    procurement.budget_max = Decimal("36000000")
    procurement.horizon_years = 5
    procurement.deployment_site = "colocation"
    procurement.city = "上海 Shanghai"
    procurement.region = "cn"
    procurement.data_sensitivity = "medical_imaging"
    procurement.slurm_experience = True
    procurement.save()
    return procurement


def _english(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def test_questionnaire_shows_the_procurements_facts_read_only_with_an_edit_link(
    client_for, it_lead, facts, catalog
):
    client = _english(client_for(it_lead))
    html = client.get(f"/procurements/{facts.pk}/requirements/").content.decode()
    for name in FACT_INPUTS:
        assert f'name="{name}"' not in html, name
    assert f'href="/procurements/{facts.pk}/edit/" id="edit-procurement-facts"' in html
    assert 'id="fact-budget">CNY 20,000,000 – 36,000,000' in html
    assert "sized against USD 5,000,000" in html  # 36M CNY / 7.2 CNY per USD
    assert 'id="fact-horizon">5 years<' in html
    assert 'id="fact-site">Colocation, 上海 Shanghai<' in html
    assert 'id="fact-region">Mainland China' in html
    assert "local deployment required" in html
    assert 'id="fact-scheduler">Slurm<' in html
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hans"
    zh = client.get(f"/procurements/{facts.pk}/requirements/").content.decode()
    assert "来自采购项目" in zh and "编辑采购项目" in zh


def test_a_viewer_sees_the_facts_without_the_edit_link(
    client_for, viewer, facts, catalog
):
    html = client_for(viewer).get(f"/procurements/{facts.pk}/requirements/")
    assert 'id="fact-horizon"' in html.content.decode()
    assert "edit-procurement-facts" not in html.content.decode()


def test_sizing_reads_horizon_budget_and_region_from_the_procurement(
    client_for, it_lead, facts, catalog
):
    services.create_workload(procurement=facts, **TRAIN_7B)
    posted = {
        **QUESTIONNAIRE,
        # Old inputs a stale page might still send: ignored, the procurement wins.
        "planning_years": "1",
        "region": "global",
        "budget": "1",
    }
    response = client_for(it_lead).post(
        f"/procurements/{facts.pk}/requirements/", posted
    )
    assert response.status_code == 302
    constraints = SizingPlan.objects.get().inputs["constraints"]
    assert constraints["planning_years"] == 5.0
    assert constraints["region"] == "cn"
    assert constraints["budget_usd"] == pytest.approx(5_000_000)  # 36M CNY / 7.2
    # 10 TB growing 20 % a year over the procurement's 5 years: 10 x 1.2^5 = 24.88 TB
    storage = SizingPlan.objects.get().result["workloads"][0]["storage"]
    assert storage["dataset_tb"] == pytest.approx(24.8832)
    facts.refresh_from_db()
    assert (facts.region, facts.horizon_years) == ("cn", 5)


def test_the_region_decides_which_accelerators_can_be_pinned(
    client_for, it_lead, facts, catalog
):
    client = _english(client_for(it_lead))
    url = f"/procurements/{facts.pk}/requirements/"
    html = client.get(url).content.decode()
    assert 'value="h20-sxm-96gb"' in html and 'value="h100-sxm-80gb"' not in html
    response = client.post(url, {**QUESTIONNAIRE, "accelerator_key": "h100-sxm-80gb"})
    assert response.status_code == 200
    assert not Requirement.objects.exists()
    facts.region = "global"
    facts.save()
    assert 'value="h100-sxm-80gb"' in client.get(url).content.decode()
    buyable = services.buyable_accelerators_for(procurement=facts)
    assert buyable.filter(key="h100-sxm-80gb").exists()


@translation.override("en")
def test_the_service_refuses_a_restricted_accelerator_and_procurement_facts(
    it_lead, facts, catalog
):
    with pytest.raises(SizingInputError) as refused:
        services.save_requirement(
            procurement=facts, user=it_lead, accelerator_key="h100-sxm-80gb"
        )
    assert refused.value.field == "accelerator_key"
    assert "cannot be bought in Mainland China" in refused.value.message
    with pytest.raises(SizingInputError) as fact:
        services.save_requirement(procurement=facts, user=it_lead, planning_years=3)
    assert fact.value.field == "planning_years"
    assert "horizon_years" in fact.value.message
    with translation.override("zh-hans"):
        with pytest.raises(SizingInputError) as zh:
            services.save_requirement(procurement=facts, user=it_lead, region="cn")
    assert zh.value.message == (
        "这是采购项目的“采购地区”（region）：请在采购项目中编辑，不在需求问卷中填写。"
    )
    assert not Requirement.objects.exists()


def test_requirement_api_returns_the_facts_and_refuses_them_as_input(
    api_for, it_lead, facts, catalog
):
    api = api_for(it_lead)
    url = f"/api/v1/procurements/{facts.pk}/requirement/"
    body = api.get(url).json()
    assert body["procurement_facts"]["horizon_years"] == 5
    assert body["procurement_facts"]["region"] == "cn"
    assert body["procurement_facts"]["budget_max"] == "36000000.00"
    assert "planning_years" not in body and "budget" not in body
    refused = api.patch(
        url,
        {"planning_years": 3, "budget": "1", "data_tb": 4},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert refused.status_code == 400
    errors = refused.json()
    assert set(errors) == {"planning_years", "budget"}
    assert errors["planning_years"] == [
        "This is the procurement's “planning horizon (years)” (horizon_years): edit "
        "it on the procurement, not in the questionnaire."
    ]
    assert "budget_max" in errors["budget"][0]
    assert not Requirement.objects.exists()
    saved = api.patch(
        url,
        {"data_tb": 4, "growth_per_year": 10},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert saved.status_code == 200, saved.json()
    assert (saved.json()["data_tb"], saved.json()["growth_per_year"]) == (4.0, 10.0)
    bad = api.patch(
        url,
        {"accelerator_key": "h100-sxm-80gb"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert bad.status_code == 400 and "accelerator_key" in bad.json()
    negative = api.put(url, {"data_tb": -1}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert negative.status_code == 400 and "data_tb" in negative.json()
    assert Requirement.objects.get().data_tb == 4.0


def test_requirement_api_access(api_for, viewer, outsider, facts, catalog):
    url = f"/api/v1/procurements/{facts.pk}/requirement/"
    assert api_for(viewer).get(url).status_code == 200
    assert (
        api_for(viewer)
        .patch(url, {"data_tb": 1}, format="json", HTTP_ACCEPT_LANGUAGE="en")
        .status_code
        == 403
    )
    assert api_for(outsider).get(url).status_code == 404
    assert (
        api_for(outsider)
        .patch(url, {"data_tb": 1}, format="json", HTTP_ACCEPT_LANGUAGE="en")
        .status_code
        == 404
    )
    assert not Requirement.objects.exists()


def test_procurement_api_holds_the_region(api_for, it_lead, facts):
    api = api_for(it_lead)
    url = f"/api/v1/procurements/{facts.pk}/"
    assert api.get(url).json()["region"] == "cn"
    assert (
        api.patch(
            url, {"region": "mars"}, format="json", HTTP_ACCEPT_LANGUAGE="en"
        ).status_code
        == 400
    )
    assert api.patch(
        url, {"region": "global"}, format="json", HTTP_ACCEPT_LANGUAGE="en"
    ).json()["region"] == ("global")
