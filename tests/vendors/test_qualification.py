"""资格审查 end to end: the statutory requirements per regime, frozen after the RFP
is published; per-bid results (a failure needs its reason, audited); a failure is an
无效投标 in the tender review, out of the base price and the ranking and counted in
the too-few-valid-bids rule; the page, the API (400 per field, 404 across
organisations) and the RFP pack; uniform standards and the bid bond."""

from decimal import Decimal as D

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.vendors import tender_support
from tests.vendors.tender_support import priced_bid, set_regime
from vendors import comparison
from vendors.models import AuditEntry, QualificationResult, RfpVersion, TenderSettings
from vendors.rfp.content import rfp_content
from vendors.services import qualification, tender

h200_plan = tender_support.h200_plan  # fixtures
tender_world = tender_support.tender_world

TAX = "gpl22_tax_social_security"
NOTE = "No social-security payments since March"


@pytest.fixture(autouse=True)
def english():
    """Service messages in English unless a request asks for Chinese."""
    from django.utils import translation

    with translation.override("en"):
        yield


def _publish(procurement):
    RfpVersion.objects.create(
        procurement=procurement,
        number=1,
        kind=RfpVersion.Kind.PUBLICATION,
        facts={},
        published_at=timezone.now(),
    )


@pytest.fixture
def three(tender_world, org, buyer):
    """政府采购 (30 %, SME 10 %), no ★ items: A 30 M, B 32 M (small enterprise),
    C 36 M, all valid until a qualification failure is recorded."""
    procurement = tender_world
    set_regime(procurement, buyer, "gov_procurement", mandatory_items=[])
    bids = {
        "A": priced_bid(procurement, org, "A", 30_000_000),
        "B": priced_bid(procurement, org, "B", 32_000_000, sme=True),
        "C": priced_bid(procurement, org, "C", 36_000_000),
    }
    return procurement, bids


def _review(procurement, user):
    result = comparison.build_comparison(procurement=procurement, user=user)
    return {b.label: b for b in result.tender.bids}, result.tender


def test_each_regime_starts_with_its_statutory_requirements(tender_world, buyer):
    row = set_regime(tender_world, buyer, "gov_procurement")
    assert [i["key"] for i in row.qualification_items][:2] == [
        "gpl22_civil_liability",
        "gpl22_credit_accounting",
    ]
    assert len(row.qualification_items) == 6
    row = set_regime(tender_world, buyer, "tendering")
    assert row.qualification_items == [{"key": "tbl26_capability", "text": ""}]
    row = set_regime(tender_world, buyer, "commercial")
    assert row.qualification_items == []
    # given with the regime, the buyer's list wins
    row = set_regime(
        tender_world,
        buyer,
        "gov_procurement",
        qualification_items=[{"key": "custom_1", "text": "ISO 27001 certified"}],
    )
    assert row.qualification_items == [
        {"key": "custom_1", "text": "ISO 27001 certified"}
    ]


def test_requirements_freeze_once_the_rfp_is_published(tender_world, buyer):
    set_regime(tender_world, buyer, "gov_procurement")
    _publish(tender_world)
    with pytest.raises(tender.TenderSettingsInvalid) as refused:
        tender.update_tender_settings(
            procurement=tender_world, user=buyer, qualification_items=[]
        )
    assert list(refused.value.errors) == ["qualification_items"]
    # the same list again is no change; a change of regime keeps the frozen list
    row = tender.update_tender_settings(
        procurement=tender_world, user=buyer, regime="tendering"
    )
    assert len(row.qualification_items) == 6


def test_unknown_or_unworded_requirements_are_refused(tender_world, buyer):
    for items, fragment in (
        ([{"key": "gpl99"}], "Unknown qualification requirement"),
        ([{"key": "custom_1", "text": " "}], "needs its wording"),
        ([{"key": TAX}, {"key": TAX}], "given twice"),
    ):
        with pytest.raises(tender.TenderSettingsInvalid) as refused:
            set_regime(
                tender_world, buyer, "gov_procurement", qualification_items=items
            )
        assert fragment in refused.value.errors["qualification_items"][0]


def test_a_failed_supplier_is_invalid_out_of_the_base_and_the_ranking(three, buyer):
    procurement, bids = three
    qualification.record_qualification(
        bid=bids["B"],
        user=buyer,
        results=[
            {"key": "gpl22_civil_liability", "passed": True},
            {"key": TAX, "passed": False, "note": NOTE},
        ],
    )
    review, tender_review = _review(procurement, buyer)
    b = review["B"]
    assert not b.valid and b.rank is None and b.price_points is None
    (reason,) = b.reasons
    assert reason["code"] == "qualification_failed" and reason["item"] == TAX
    assert reason["message"] == (
        "Qualification review: A good record of paying taxes and social security "
        f"contributions not met ({NOTE})."
    )
    assert (
        reason["citation"] == "《政府采购货物和服务招标投标管理办法》第六十三条（三）"
    )
    # the base is now A's 30 M (B's 28.8 M evaluated price no longer counts):
    # A 30 / 30 x 30 = 30.00; C 30 / 36 x 30 = 25.00
    assert review["A"].price_points == D(30)
    assert review["C"].price_points == D(25)
    assert {review["A"].rank, review["C"].rank} == {1, 2}
    # two valid bids: fewer than three -> 废标 (政府采购法 第三十六条)
    assert not tender_review.viable
    assert tender_review.viability["code"] == "too_few_valid_bids"
    assert tender_review.viability["citation"] == "《政府采购法》第三十六条"
    entry = AuditEntry.objects.get(target="qualification review")
    assert entry.bid_id == bids["B"].pk and NOTE in entry.new_value


def test_pending_again_restores_the_bid_and_a_failure_needs_a_reason(three, buyer):
    procurement, bids = three
    with pytest.raises(tender.TenderSettingsInvalid) as refused:
        qualification.record_qualification(
            bid=bids["A"], user=buyer, results=[{"key": TAX, "passed": False}]
        )
    assert list(refused.value.errors) == ["note"]
    assert not QualificationResult.objects.exists()
    qualification.record_qualification(
        bid=bids["A"], user=buyer, results=[{"key": TAX, "passed": False, "note": NOTE}]
    )
    assert not _review(procurement, buyer)[0]["A"].valid
    qualification.record_qualification(
        bid=bids["A"], user=buyer, results=[{"key": TAX, "passed": None}]
    )
    assert _review(procurement, buyer)[0]["A"].valid
    assert not QualificationResult.objects.exists()


def test_uniform_standards_refuse_comprehensive_scoring_with_article_34(
    tender_world, buyer
):
    with pytest.raises(tender.TenderSettingsInvalid) as refused:
        set_regime(tender_world, buyer, "gov_procurement", uniform_standards=True)
    (message,) = refused.value.errors["method"]
    assert message == (
        "Goods with uniform standards use the lowest evaluated price method. "
        "(《政府采购法实施条例》第三十四条)"
    )
    row = set_regime(
        tender_world,
        buyer,
        "gov_procurement",
        uniform_standards=True,
        method="lowest_price",
    )
    assert row.uniform_standards
    # the commercial regime has no such rule
    assert set_regime(
        tender_world, buyer, "commercial", method="comprehensive"
    ).uniform_standards


def test_the_bid_bond_is_capped_at_two_percent_of_the_budget(tender_world, buyer):
    # 40 M CNY x 2 % = 800,000 CNY (实施条例 第三十三条)
    row = set_regime(tender_world, buyer, "gov_procurement", bid_bond_cny=D(800_000))
    assert row.bid_bond_cny == D(800_000)
    with pytest.raises(tender.TenderSettingsInvalid) as refused:
        tender.update_tender_settings(
            procurement=tender_world, user=buyer, bid_bond_cny=D("800000.01")
        )
    assert refused.value.errors["bid_bond_cny"] == [
        "The bid bond of 800000.01 CNY is above 2 % of the budget (800000 CNY). "
        "(《政府采购法实施条例》第三十三条)"
    ]
    assert TenderSettings.objects.get().bid_bond_cny == D(800_000)
    # no cap under the commercial regime
    assert set_regime(
        tender_world, buyer, "commercial", bid_bond_cny=D(5_000_000)
    ).bid_bond_cny == D(5_000_000)


def test_the_rfp_pack_prints_the_requirements_and_the_bond(tender_world, buyer):
    set_regime(
        tender_world,
        buyer,
        "gov_procurement",
        bid_bond_cny=D(500_000),
        qualification_items=[
            {"key": "gpl22_civil_liability"},
            {"key": "custom_1", "text": "ISO 27001 certified"},
        ],
    )
    from django.utils import translation

    with translation.override("en"):
        rfp = rfp_content(tender_world)
    assert rfp["qualification"] == [
        {
            "number": 1,
            "title": "Able to bear civil liability independently",
            "source": "《政府采购法》第二十二条",
        },
        {"number": 2, "title": "ISO 27001 certified", "source": "set by the buyer"},
    ]
    assert rfp["bid_bond"] == "500,000 CNY"
    with translation.override("zh-hans"):
        zh = rfp_content(tender_world)
    assert zh["qualification"][0]["title"] == "具有独立承担民事责任的能力"


# --- the API ----------------------------------------------------------------------


def _api(procurement, bid=None):
    tail = f"qualification/{bid.pk}/" if bid else ""
    return f"/api/v1/procurements/{procurement.pk}/tender/{tail}"


def test_api_records_and_400s_per_field(three, api_for, buyer):
    procurement, bids = three
    api = api_for(buyer)
    body = api.get(_api(procurement, bids["C"])).json()
    assert [r["key"] for r in body["results"]][0] == "gpl22_civil_liability"
    assert all(r["passed"] is None for r in body["results"])
    bad = api.put(
        _api(procurement, bids["C"]),
        {"results": [{"key": TAX, "passed": False}]},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert bad.status_code == 400 and list(bad.json()) == ["note"]
    unknown = api.put(
        _api(procurement, bids["C"]),
        {"results": [{"key": "custom_9", "passed": True}]},
        format="json",
    )
    assert unknown.status_code == 400 and list(unknown.json()) == ["results"]
    assert not QualificationResult.objects.exists()
    ok = api.put(
        _api(procurement, bids["C"]),
        {"results": [{"key": TAX, "passed": False, "note": NOTE}]},
        format="json",
    )
    assert ok.status_code == 200
    assert {"key": TAX, "passed": False, "note": NOTE} in ok.json()["results"]
    review = api.get(_api(procurement) + "review/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    c = next(b for b in review.json()["bids"] if b["bid"] == bids["C"].pk)
    assert not c["valid"] and c["reasons"][0]["code"] == "qualification_failed"
    assert "资格审查" in c["reasons"][0]["message"]
    assert c["reasons"][0]["citation"].endswith("第六十三条（三）")


def test_api_settings_carry_the_new_fields(three, api_for, buyer):
    procurement, _bids = three
    api = api_for(buyer)
    body = api.get(_api(procurement)).json()
    assert body["uniform_standards"] is False and body["bid_bond_cny"] is None
    assert len(body["qualification_items"]) == 6 and body["warnings"] == []
    bad = api.put(
        _api(procurement),
        {"bid_bond_cny": "900000", "uniform_standards": True},
        format="json",
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )
    assert bad.status_code == 400
    assert set(bad.json()) == {"bid_bond_cny", "method"}
    assert "第三十三条" in bad.json()["bid_bond_cny"][0]
    assert "第三十四条" in bad.json()["method"][0]


def test_api_qualification_is_404_across_organisations(
    three, api_for, outsider, viewer
):
    procurement, bids = three
    url = _api(procurement, bids["A"])
    put = {"results": [{"key": TAX, "passed": True}]}
    assert api_for(outsider).get(url).status_code == 404
    assert api_for(outsider).put(url, put, format="json").status_code == 404
    assert api_for(viewer).get(url).status_code == 200
    assert api_for(viewer).put(url, put, format="json").status_code == 403
    assert not QualificationResult.objects.exists()


# --- the page -----------------------------------------------------------------------


def test_page_records_a_failure_and_keeps_a_refused_entry(
    three, client_for, buyer, outsider
):
    procurement, bids = three
    url = reverse(
        "vendors:tender-qualification",
        kwargs={"pk": procurement.pk, "bid_pk": bids["A"].pk},
    )
    client = client_for(buyer)
    refused = client.post(
        url, {f"result_{TAX}": "fail", f"note_{TAX}": ""}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert refused.status_code == 200
    html = refused.content.decode()
    assert "Give the reason why A good record of paying taxes" in html
    assert not QualificationResult.objects.exists()
    saved = client.post(url, {f"result_{TAX}": "fail", f"note_{TAX}": NOTE})
    assert saved.status_code == 302
    assert QualificationResult.objects.get().note == NOTE
    page = client.get(
        reverse("vendors:tender", kwargs={"pk": procurement.pk}),
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    ).content.decode()
    assert 'id="qualification-review"' in page and "资格审查" in page
    assert f'value="{NOTE}"' in page
    assert client_for(outsider).post(url, {}).status_code == 404


def test_settings_form_saves_ticked_and_typed_requirements(
    tender_world, client_for, buyer
):
    set_regime(tender_world, buyer, "gov_procurement")
    body = {
        "regime": "gov_procurement",
        "method": "comprehensive",
        "subject": "goods",
        "price_weight_pct": "30",
        "sme_deduction_pct": "10",
        "domestic_deduction_pct": "20",
        "stacking": "sequential",
        "abnormally_low_pct": "20",
        "bid_bond_cny": "900000",
        "qual_gpl22_civil_liability": "on",
        "qual_custom": "ISO 27001 certified\n\nThree GPU clusters delivered",
    }
    url = reverse("vendors:tender", kwargs={"pk": tender_world.pk})
    refused = client_for(buyer).post(url, body, HTTP_ACCEPT_LANGUAGE="en")
    assert refused.status_code == 200
    assert "above 2 % of the budget (800000 CNY)" in refused.content.decode()
    body["bid_bond_cny"] = "800000"
    assert client_for(buyer).post(url, body).status_code == 302
    row = TenderSettings.objects.get()
    assert row.qualification_items == [
        {"key": "gpl22_civil_liability", "text": ""},
        {"key": "custom_1", "text": "ISO 27001 certified"},
        {"key": "custom_2", "text": "Three GPU clusters delivered"},
    ]
    assert row.bid_bond_cny == D(800_000)
