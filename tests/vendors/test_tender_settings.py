"""Tender settings: defaults per regime, the ★ items from the 96 x H200 plan, the
regime's validation per field, frozen ★ items after publication; the API's GET/PUT
and review, with the organisation rule and capabilities."""

from decimal import Decimal as D

import pytest
from django.utils import timezone

from tests.vendors import tender_support
from tests.vendors.tender_support import (
    H20,
    attach_evidence,
    priced_bid,
    set_regime,
)
from vendors.models import RfpVersion, TenderSettings
from vendors.services import tender

h200_plan = tender_support.h200_plan  # fixtures
tender_world = tender_support.tender_world


def _publish(procurement):
    RfpVersion.objects.create(
        procurement=procurement,
        number=1,
        kind=RfpVersion.Kind.PUBLICATION,
        facts={},
        published_at=timezone.now(),
    )


def test_unsaved_defaults_carry_the_plans_star_items(tender_world):
    row = tender.tender_settings_for(procurement=tender_world)
    assert row.pk is None and row.regime == "commercial"
    assert row.price_weight_pct == D(30)
    items = {i["key"]: i for i in row.mandatory_items}
    # 96 x 989 TFLOPS = 94.944 PFLOPS floored; 400 Gb/s NDR per GPU from the plan.
    assert items["delivered_pflops"]["required"] == "94.94"
    assert items["network_gbps_per_gpu"]["required"] == "400"
    assert set(items) == {
        "delivered_pflops",
        "memory_fit",
        "network_gbps_per_gpu",
        "storage_tb",
        "open_scheduler",
    }
    assert not TenderSettings.objects.exists()


def test_gov_procurement_takes_its_defaults_and_refuses_a_weight_below_30(
    tender_world, buyer
):
    row = set_regime(tender_world, buyer, "gov_procurement")
    assert (row.sme_deduction_pct, row.domestic_deduction_pct) == (D(10), D(20))
    with pytest.raises(tender.TenderSettingsInvalid) as error:
        tender.update_tender_settings(
            procurement=tender_world, user=buyer, price_weight_pct=D(15)
        )
    [message] = error.value.errors["price_weight_pct"]
    assert "30" in message and "第五十五条" in message
    row.refresh_from_db()
    assert row.price_weight_pct == D(30)  # unchanged


def test_services_floor_is_10_and_lowest_price_ignores_the_weight(tender_world, buyer):
    row = set_regime(
        tender_world, buyer, "gov_procurement", subject="services", price_weight_pct=10
    )
    assert row.price_weight_pct == D(10)
    row = tender.update_tender_settings(
        procurement=tender_world,
        user=buyer,
        subject="goods",
        method="lowest_price",
        price_weight_pct=D(5),
    )
    assert row.method == "lowest_price"


def test_star_items_edit_threshold_remove_and_refuse_unknown(tender_world, buyer):
    row = set_regime(tender_world, buyer, "commercial")
    items = [dict(i) for i in row.mandatory_items if i["key"] != "storage_tb"]
    items[0]["required"] = "90.5"
    items.append({"key": "delivery_days", "required": "56"})
    row = tender.update_tender_settings(
        procurement=tender_world, user=buyer, mandatory_items=items
    )
    by_key = {i["key"]: i for i in row.mandatory_items}
    assert by_key["delivered_pflops"]["required"] == "90.5"
    assert by_key["delivery_days"] == {
        "key": "delivery_days",
        "comparison": "lte",
        "required": "56",
        "unit": "days",
        "source": "set by the buyer",
    }
    assert "storage_tb" not in by_key
    with pytest.raises(tender.TenderSettingsInvalid) as error:
        tender.update_tender_settings(
            procurement=tender_world,
            user=buyer,
            mandatory_items=[{"key": "gpu_brand", "required": "1"}],
        )
    assert "mandatory_items" in error.value.errors


def test_star_items_are_frozen_once_the_rfp_is_published(tender_world, buyer):
    row = set_regime(tender_world, buyer, "gov_procurement")
    _publish(tender_world)
    with pytest.raises(tender.TenderSettingsInvalid) as error:
        tender.update_tender_settings(
            procurement=tender_world, user=buyer, mandatory_items=[]
        )
    assert "★" in error.value.errors["mandatory_items"][0]
    row.refresh_from_db()
    assert len(row.mandatory_items) == 5
    # the same items again, and other settings, still save
    tender.update_tender_settings(
        procurement=tender_world,
        user=buyer,
        mandatory_items=row.mandatory_items,
        abnormally_low_pct=D(15),
    )


# --- API ------------------------------------------------------------------------------


def _url(procurement, tail=""):
    return f"/api/v1/procurements/{procurement.pk}/tender/{tail}"


def test_api_get_defaults_then_put_and_400_per_field(tender_world, api_for, buyer):
    api = api_for(buyer)
    body = api.get(_url(tender_world)).json()
    assert body["stored"] is False and body["regime"] == "commercial"
    assert body["budget_cny"] == "40000000.00"
    bad = api.put(
        _url(tender_world),
        {"regime": "gov_procurement", "price_weight_pct": "20"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert bad.status_code == 400
    assert list(bad.json()) == ["price_weight_pct"]
    assert not TenderSettings.objects.exists()
    ok = api.put(
        _url(tender_world),
        {"regime": "gov_procurement", "ceiling_cny": "38000000"},
        format="json",
    )
    assert ok.status_code == 200, ok.json()
    assert ok.json()["stored"] is True and ok.json()["ceiling_cny"] == "38000000.00"
    assert ok.json()["sme_deduction_pct"] == "10.00"
    over = api.put(_url(tender_world), {"sme_deduction_pct": "25"}, format="json")
    assert over.status_code == 400 and "sme_deduction_pct" in over.json()


def test_api_put_zh_message_cites_article_55(tender_world, api_for, buyer):
    set_regime(tender_world, buyer, "gov_procurement")
    response = api_for(buyer).put(
        _url(tender_world),
        {"price_weight_pct": "15"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )
    assert response.status_code == 400
    [message] = response.json()["price_weight_pct"]
    assert "价格权值" in message and "第五十五条" in message


def test_api_denies_outsiders_and_viewers_and_changes_nothing(
    tender_world, api_for, outsider, viewer
):
    assert api_for(outsider).get(_url(tender_world)).status_code == 404
    put = {"regime": "tendering"}
    assert (
        api_for(outsider).put(_url(tender_world), put, format="json").status_code == 404
    )
    assert api_for(viewer).get(_url(tender_world)).status_code == 200
    assert (
        api_for(viewer).put(_url(tender_world), put, format="json").status_code == 403
    )
    assert api_for(outsider).get(_url(tender_world, "review/")).status_code == 404
    assert not TenderSettings.objects.exists()


def test_api_review_lists_invalid_bids_with_reasons(tender_world, api_for, buyer, org):
    api = api_for(buyer)
    assert api.get(_url(tender_world, "review/")).status_code == 404
    priced_bid(tender_world, org, "A", 30_000_000)
    priced_bid(tender_world, org, "B", 33_000_000)
    priced_bid(tender_world, org, "X", 12_000_000, accelerator=H20)
    set_regime(tender_world, buyer, "gov_procurement")
    body = api.get(_url(tender_world, "review/"), HTTP_ACCEPT_LANGUAGE="en").json()
    by_label = {b["label"]: b for b in body["bids"]}
    assert by_label["A"]["rank"] == 1 and by_label["A"]["price_points"] == "30.0000"
    # 30 / 33 x 30 = 27.2727...
    assert by_label["B"]["price_points"] == "27.2727"
    x = by_label["X"]
    assert x["valid"] is False and x["rank"] is None
    assert x["reasons"][0]["code"] == "mandatory_not_met"
    assert x["reasons"][0]["citation"] == "《政府采购法实施条例》第三十四条"
    assert body["viable"] is False  # 2 valid bids of 3
    assert body["viability"]["citation"] == "《政府采购法》第三十六条"
    entries = api.get(f"/api/v1/procurements/{tender_world.pk}/comparison/").json()
    x_entry = next(e for e in entries if e["vendor"]["name"] == "X")
    assert x_entry["rank"] is None and x_entry["tender"]["valid"] is False


# --- policy declarations --------------------------------------------------------------


@pytest.mark.parametrize(
    ("stacking", "evaluated"),
    [
        ("sequential", "21600000.00"),  # 30 M x 0.9 x 0.8
        ("additive", "21000000.00"),  # 30 M x (1 - 0.1 - 0.2)
        ("larger_only", "24000000.00"),  # 30 M x (1 - 0.2)
    ],
)
def test_declarations_through_the_api_drive_the_stacked_deductions(
    tender_world, api_for, buyer, org, stacking, evaluated
):
    from vendors import comparison

    bid = priced_bid(tender_world, org, "D", 30_000_000)
    attach_evidence(bid, "sme")
    attach_evidence(bid, "domestic")
    api = api_for(buyer)
    url = f"/api/v1/procurements/{tender_world.pk}/bids/{bid.pk}/declarations/"
    response = api.put(
        url, {"sme_declared": True, "domestic_product": True}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["sme_declared"] is True
    set_regime(tender_world, buyer, "gov_procurement", stacking=stacking)
    result = comparison.build_comparison(procurement=tender_world, user=buyer)
    [review] = result.tender.bids
    assert review.evaluated_cny == D(evaluated)
    assert [d["kind"] for d in review.deductions] == (
        ["domestic"] if stacking == "larger_only" else ["sme", "domestic"]
    )


def test_declarations_denied_to_viewers_and_outsiders(
    tender_world, api_for, org, viewer, outsider
):
    bid = priced_bid(tender_world, org, "D", 30_000_000)
    url = f"/api/v1/procurements/{tender_world.pk}/bids/{bid.pk}/declarations/"
    body = {"sme_declared": True}
    assert api_for(viewer).put(url, body, format="json").status_code == 403
    assert api_for(outsider).put(url, body, format="json").status_code == 404
    bid.refresh_from_db()
    assert bid.sme_declared is False
