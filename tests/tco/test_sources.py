"""A TCO started from a bid or from the sizing plan (tco.sources): the API's three
mutually exclusive starts, the bid's normalised TCO reproduced to the cent for every
demo bid, the sealed envelope respected, and a derived capex that follows the GPU
count until the user edits it."""

from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from clusterbuy.models import Procurement
from tco import services
from tco.engine import DEFAULTS
from tco.engine.bill_of_materials import bill_of_materials, network_cost, storage_cost
from tco.models import TcoRun, TcoScenario
from tco.price_book import price_book
from tco.sources import plan_scale
from tests.vendors.blind_support import blind_sealed_bids
from tests.vendors.test_support import line, make_bid, make_vendor

RUNS = "/api/v1/tco/runs/"


@pytest.fixture
def demo(db):
    call_command("load_demo", stdout=open("/dev/null", "w"))
    procurement = Procurement.objects.get(name__startswith="大模型训练")
    buyer = get_user_model().objects.get(username="demo-buyer")
    return procurement, buyer


def _comparison(api, procurement) -> list[dict]:
    response = api.get(f"/api/v1/procurements/{procurement.pk}/comparison/")
    assert response.status_code == 200
    return response.json()


def test_a_run_from_each_demo_bid_reproduces_its_normalised_tco(
    demo, api_for, client_for, fake_pdf, few_draws, django_capture_on_commit_callbacks
):
    procurement, buyer = demo
    api = api_for(buyer)
    entries = _comparison(api, procurement)
    assert len(entries) == 3
    for entry in entries:
        normalized = Decimal(entry["normalized_tco"])
        with django_capture_on_commit_callbacks(execute=True):
            response = api.post(
                RUNS,
                {"procurement": procurement.pk, "bid": entry["bid"], "lang": "en"},
                format="json",
            )
        assert response.status_code == 202, response.json()
        run = api.get(response["Location"]).json()
        assert run["status"] == "succeeded"
        # To the cent: the run's items are the bid's items ...
        assert Decimal(run["result"]["breakdown_total"]) == normalized
        amounts = [Decimal(i["amount"]) for i in run["result"]["breakdown"]]
        assert amounts == [Decimal(i["amount"]) for i in entry["tco_breakdown"]]
        # ... and to the unit, the engine's own total of the run.
        total = Decimal(str(run["result"]["result"]["total_cost"]))
        assert abs(total - normalized) < Decimal("0.5")
        assert run["inputs"]["horizon_years"] == procurement.horizon_years
    page = client_for(buyer).get(
        reverse("tco:run", args=[procurement.pk, run["id"]]), HTTP_ACCEPT_LANGUAGE="en"
    )
    html = page.content.decode()
    assert 'id="breakdown"' in html and "Energy" in html
    assert f"{normalized:,.2f}" in html  # grouped in threes, as the page writes money
    scenarios = TcoScenario.objects.filter(source_kind="bid")
    assert {s.source_id for s in scenarios} == {e["bid"] for e in entries}
    assert all(s.capex_is_derived for s in scenarios)


@pytest.mark.parametrize(
    "body, given",
    [({}, "none"), ({"bid": 1, "sizing_plan": 1}, "bid, sizing_plan")],
)
def test_exactly_one_of_inputs_bid_or_sizing_plan(
    api_for, buyer, procurement, body, given
):
    response = api_for(buyer).post(
        RUNS, {"procurement": procurement.pk, **body}, format="json"
    )
    assert response.status_code == 400
    assert response.json() == {
        "non_field_errors": [
            f"Give exactly one of inputs, bid or sizing_plan (got {given})."
        ]
    }
    assert not TcoScenario.objects.exists()


def test_inputs_and_a_bid_together_are_refused(api_for, buyer, procurement):
    response = api_for(buyer).post(
        RUNS,
        {"procurement": procurement.pk, "bid": 1, "inputs": {"gpu_count": 8}},
        format="json",
    )
    assert response.status_code == 400
    assert "inputs, bid" in response.json()["non_field_errors"][0]


def test_a_bid_of_another_procurement_is_a_400_and_stores_nothing(
    api_for, buyer, org, procurement
):
    other = Procurement.objects.create(organisation=org, name="Other", created_by=buyer)
    bid = make_bid(other, make_vendor(org), lines=[line("gpu_servers", 1, 1_000_000)])
    response = api_for(buyer).post(
        RUNS,
        {"procurement": procurement.pk, "bid": bid.pk},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert response.json() == {"bid": ["There is no such bid in this procurement."]}
    assert not TcoScenario.objects.exists() and not TcoRun.objects.exists()


def test_a_sealed_technical_evaluator_gets_no_bid_prices_through_the_tco(
    api_for, client_for, it_lead, buyer, procurement, admin_user
):
    sealed = blind_sealed_bids(procurement=procurement, buyer=buyer, admin=admin_user)
    bid = sealed["bids"][0]
    response = api_for(it_lead).post(
        RUNS,
        {"procurement": procurement.pk, "bid": bid.pk},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 403
    assert "sealed" in response.json()["detail"]
    assert not TcoScenario.objects.exists()
    # The buyer may; the evaluator does not see that scenario or its run.
    scenario = services.create_scenario_from_source(
        procurement=procurement, user=buyer, bid=bid.pk
    )
    run = services.request_tco_run(scenario=scenario, user=buyer, enqueue=False)
    listed = api_for(it_lead).get(
        f"/api/v1/procurements/{procurement.pk}/tco-scenarios/"
    )
    assert listed.status_code == 200 and listed.json()["results"] == []
    assert api_for(it_lead).get(f"{RUNS}{run.pk}/").status_code == 404
    assert api_for(buyer).get(f"{RUNS}{run.pk}/").status_code == 200
    page = client_for(it_lead).get(
        reverse("tco:tab", args=[procurement.pk]), {"scenario": scenario.pk}
    )
    assert page.status_code == 404
    tab = client_for(it_lead).get(reverse("tco:tab", args=[procurement.pk]))
    assert scenario.name not in tab.content.decode()


@pytest.fixture
def bid_scenario(org, procurement, buyer):
    bid = make_bid(
        procurement,
        make_vendor(org),
        lines=[
            line("gpu_servers", 1, 8_000_000),
            line("network", 1, 1_000_000),
            line("storage", 1, 500_000),
            line("installation", 1, 100_000),
        ],
        gpu_count=32,
        peak_power_kw=40,
    )
    return services.create_scenario_from_source(
        procurement=procurement, user=buyer, bid=bid.pk
    )


def _amounts(scenario) -> dict[str, float]:
    return {c["category"]: c["amount"] for c in scenario.inputs["capex"]}


def test_a_derived_capex_follows_the_gpu_count_until_it_is_edited(
    bid_scenario, procurement, buyer
):
    scenario = bid_scenario
    assert scenario.capex_is_derived and scenario.inputs["gpu_count"] == 32
    before = _amounts(scenario)
    # The facility fill-in at the catalogue power of 32 x H100 (4 DGX H100 x 10.2 kW
    # = 40.8 kW, not the bid's 40 kW claim): 40.8 x 10 USD/W x 7.2 x 5/12 = 1,224,000.
    assert before["facility"] == pytest.approx(1_224_000)
    inputs = {**scenario.inputs, "gpu_count": 64}
    inputs.pop("user_fields")
    scenario = services.save_scenario(
        procurement=procurement,
        user=buyer,
        name=scenario.name,
        inputs=inputs,
        scenario=scenario,
    )
    assert scenario.capex_is_derived
    assert _amounts(scenario) == pytest.approx({k: 2 * v for k, v in before.items()})
    assert scenario.inputs["it_power_kw"] == pytest.approx(81.6)
    # Editing a capex amount overrides: the GPU count no longer moves it.
    edited = [dict(c) for c in scenario.inputs["capex"]]
    edited[0]["amount"] = 15_000_000
    scenario = services.save_scenario(
        procurement=procurement,
        user=buyer,
        name=scenario.name,
        inputs={"gpu_count": 64, "capex": edited, "it_power_kw": 80},
        scenario=scenario,
    )
    assert not scenario.capex_is_derived
    scenario = services.save_scenario(
        procurement=procurement,
        user=buyer,
        name=scenario.name,
        inputs={"gpu_count": 16, "capex": edited, "it_power_kw": 80},
        scenario=scenario,
    )
    assert scenario.inputs["capex"][0]["amount"] == 15_000_000
    assert scenario.inputs["gpu_count"] == 16


def test_the_form_recomputes_a_derived_capex_from_the_gpu_count(
    client_for, bid_scenario, procurement, buyer
):
    scenario = bid_scenario
    before = _amounts(scenario)
    data = {
        "name": scenario.name,
        "scenario_id": scenario.pk,
        "gpu_count": 96,
        "it_power_kw": scenario.inputs["it_power_kw"],
        "action": "save",
        "capex-TOTAL_FORMS": len(scenario.inputs["capex"]),
        "capex-INITIAL_FORMS": 0,
    }
    for i, c in enumerate(scenario.inputs["capex"]):
        data |= {
            f"capex-{i}-category": c["category"],
            f"capex-{i}-description": c["description"],
            f"capex-{i}-amount": repr(c["amount"]),
        }
    for key in ("horizon_years", "currency", "software_per_year"):
        data[key] = scenario.inputs[key]
    response = client_for(buyer).post(reverse("tco:tab", args=[procurement.pk]), data)
    assert response.status_code == 302
    scenario.refresh_from_db()
    assert scenario.capex_is_derived
    assert _amounts(scenario) == pytest.approx({k: 3 * v for k, v in before.items()})
    page = client_for(buyer).get(response["Location"]).content.decode()
    assert 'id="capex-derivation"' in page


def test_one_click_on_the_bid_page_opens_the_prefilled_form(
    client_for, bid_scenario, procurement, buyer
):
    bid_id = bid_scenario.source_id
    response = client_for(buyer).post(
        reverse("tco:start-from", args=[procurement.pk]),
        {"bid": bid_id},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 302
    scenario = TcoScenario.objects.latest("id")
    assert scenario.name == f"Bid {bid_id} (TCO)" and scenario.source_id == bid_id
    page = client_for(buyer).get(response["Location"], HTTP_ACCEPT_LANGUAGE="en")
    html = page.content.decode()
    assert f"Started from bid {bid_id}." in html
    assert "Quoted one-off: GPU servers" in html  # a prefilled capex description
    bid_page = client_for(buyer).get(
        reverse("vendors:bid-detail", args=[procurement.pk, bid_id]),
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )
    assert "从该投标创建TCO" in bid_page.content.decode()


def test_a_run_from_the_current_sizing_plan(
    demo, api_for, client_for, django_capture_on_commit_callbacks
):
    procurement, buyer = demo
    plan = services.sizing_plan(procurement=procurement)
    plan_page = client_for(buyer).get(
        reverse("sizing:plan", args=[procurement.pk]), HTTP_ACCEPT_LANGUAGE="en"
    )
    assert "Start TCO from this plan" in plan_page.content.decode()
    response = api_for(buyer).post(
        RUNS,
        {"procurement": procurement.pk, "sizing_plan": plan.plan_id},
        format="json",
    )
    assert response.status_code == 202, response.json()
    scenario = TcoScenario.objects.get(source_kind="sizing_plan")
    capex = {c["category"]: c for c in scenario.inputs["capex"]}
    gpus = plan.gpu_count
    fx = Decimal(str(DEFAULTS["fx_usd_cny"].value))
    servers = float(Decimal(str(plan.gpu_price)) * fx * gpus)
    assert procurement.currency == "CNY" and plan.gpu_price_currency == "USD"
    assert capex["gpu_servers"]["amount"] == pytest.approx(servers)
    assert capex["gpu_servers"]["description"].startswith(f"{gpus} x ")
    # The fabric and storage the plan does not price: its own bill of materials
    # priced from the price book (tco/data/price_book.csv), never a share of GPU capex.
    book = price_book()
    bom = bill_of_materials(plan_scale(plan))
    network = network_cost(bom, plan_scale(plan), book, "CNY").amount
    assert capex["network"]["amount"] == pytest.approx(network)
    assert capex["network"]["amount"] != pytest.approx(servers * 0.19 / 0.81)
    if plan.storage_tb:
        assert capex["storage"]["amount"] == pytest.approx(
            storage_cost(bom, book, "CNY").amount
        )
    assert scenario.inputs["gpu_count"] == gpus
    assert scenario.inputs["it_power_kw"] == pytest.approx(plan.it_power_kw)
    stale = api_for(buyer).post(
        RUNS,
        {"procurement": procurement.pk, "sizing_plan": plan.plan_id + 1000},
        format="json",
    )
    assert stale.status_code == 400 and "sizing_plan" in stale.json()


def test_the_api_recomputes_a_derived_capex_from_the_gpu_count(
    api_for, bid_scenario, procurement, buyer
):
    before = _amounts(bid_scenario)
    response = api_for(buyer).post(
        RUNS,
        {
            "procurement": procurement.pk,
            "name": bid_scenario.name,
            "inputs": {"gpu_count": 16},
        },
        format="json",
    )
    assert response.status_code == 202
    bid_scenario.refresh_from_db()
    assert bid_scenario.capex_is_derived
    assert _amounts(bid_scenario) == pytest.approx(
        {k: v / 2 for k, v in before.items()}
    )
    assert response.json()["inputs"]["it_power_kw"] == pytest.approx(20.4)
    listed = api_for(buyer).get(f"/api/v1/procurements/{procurement.pk}/tco-scenarios/")
    row = listed.json()["results"][0]
    assert (row["source_kind"], row["capex_is_derived"]) == ("bid", True)
