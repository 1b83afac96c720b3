"""Abnormally low prices (87号令 第六十条, issue 25): the committee asks a flagged bid
for a written justification, the vendor answers in its portal (page in zh and en,
API), the committee judges; "not justified" makes the bid an invalid bid with the
article, a flagged bid waiting shows so."""

# ruff: noqa: F811 - `opened` is a fixture imported by name from correction_support
from __future__ import annotations

import html
from decimal import Decimal as D

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from clusterbuy.services import ServiceError
from tests.factories import pdf_bytes
from tests.vendors import tender_support
from tests.vendors.correction_support import opened  # noqa: F401
from tests.vendors.tender_support import priced_bid, set_regime
from vendors import comparison
from vendors.models import AuditEntry, PriceJustification
from vendors.services import price_justifications

h200_plan = tender_support.h200_plan  # fixtures
tender_world = tender_support.tender_world
ORDER87_60 = "《政府采购货物和服务招标投标管理办法》第六十条"


@pytest.fixture
def low_world(tender_world, buyer, org):
    """Government procurement, four valid bids: 30, 31, 32 and 15 M CNY. The mean is
    27 M; 20 % below it is 21.6 M, so only X (15 M) is abnormally low."""
    bids = {
        name: priced_bid(tender_world, org, name, price)
        for name, price in (
            ("A", 30_000_000),
            ("B", 31_000_000),
            ("C", 32_000_000),
            ("X", 15_000_000),
        )
    }
    set_regime(tender_world, buyer, "gov_procurement")
    return bids


def _review(procurement, user):
    review = comparison.build_comparison(procurement=procurement, user=user).tender
    return {r.label: r for r in review.bids}, review


def test_not_justified_makes_the_flagged_bid_invalid_with_the_article(
    tender_world, low_world, buyer
):
    by_label, _review_ = _review(tender_world, buyer)
    x = by_label["X"]
    assert x.abnormally_low and x.valid
    assert x.justification == {"id": None, "state": "needed"}
    assert x.price_points == D(30)  # the base while it is valid
    row = price_justifications.request_justification(
        bid=low_world["X"], user=buyer, note="Explain the 15 M price."
    )
    assert row.invitation is None  # keyed in by the buyer: no portal link
    by_label, _review_ = _review(tender_world, buyer)
    assert by_label["X"].justification["state"] == "requested"
    with pytest.raises(ServiceError) as refused:
        price_justifications.judge_justification(
            bid=low_world["X"], user=buyer, judgement="justified", note="ok"
        )
    assert refused.value.field == "judgement"  # no written justification yet
    price_justifications.judge_justification(
        bid=low_world["X"],
        user=buyer,
        judgement="not_justified",
        note="No answer within the time given.",
    )
    by_label, review = _review(tender_world, buyer)
    x = by_label["X"]
    assert not x.valid and x.rank is None and not x.abnormally_low
    [reason] = x.reasons
    assert reason["code"] == "abnormally_low_not_justified"
    assert reason["citation"] == ORDER87_60
    assert x.justification["state"] == "not_justified"
    assert x.justification["judged_by"] == buyer.username
    # the base is now A's 30 M: B scores 30/31 x 30, C 30/32 x 30 = 28.125
    assert by_label["A"].price_points == D(30)
    assert by_label["C"].price_points == D("28.125")
    assert (review.valid_count, review.viable) == (3, True)
    assert not any(r.abnormally_low for r in review.bids)  # mean 31 M, floor 24.8 M
    targets = list(
        AuditEntry.objects.filter(bid=low_world["X"])
        .filter(target__startswith="price justification")
        .values_list("target", flat=True)
        .order_by("id")
    )
    assert targets == ["price justification requested", "price justification judged"]


def test_only_a_flagged_bid_is_asked_and_only_once(tender_world, low_world, buyer):
    with translation.override("en"), pytest.raises(ServiceError, match="not flag"):
        price_justifications.request_justification(
            bid=low_world["A"], user=buyer, note="Why?"
        )
    with pytest.raises(ServiceError) as refused:
        price_justifications.request_justification(
            bid=low_world["X"], user=buyer, note="  "
        )
    assert refused.value.field == "note"
    price_justifications.request_justification(
        bid=low_world["X"], user=buyer, note="Why?"
    )
    with translation.override("en"), pytest.raises(ServiceError, match="already"):
        price_justifications.request_justification(
            bid=low_world["X"], user=buyer, note="Why?"
        )


def test_the_api_asks_and_judges_with_field_messages_and_404_elsewhere(
    tender_world, low_world, buyer, api_for, outsider, viewer
):
    x = low_world["X"]
    base = f"/api/v1/procurements/{tender_world.pk}/bids/{x.pk}/price-justification/"
    api = api_for(buyer)
    assert api.get(base).status_code == 404
    response = api.post(base, {}, format="json")
    assert response.status_code == 400 and "note" in response.json()
    other = low_world["A"]
    response = api.post(
        f"/api/v1/procurements/{tender_world.pk}/bids/{other.pk}/price-justification/",
        {"note": "Why?"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert response.json() == {
        "note": ["The tender review does not flag this bid's price as abnormally low."]
    }
    assert api_for(outsider).post(base, {"note": "x"}, format="json").status_code == 404
    assert api_for(viewer).post(base, {"note": "x"}, format="json").status_code == 400
    assert not PriceJustification.objects.exists()
    response = api.post(base, {"note": "Explain the price."}, format="json")
    assert response.status_code == 201
    assert response.json()["state"] == "requested"
    judge = f"{base}judgement/"
    response = api.post(judge, {"judgement": "maybe"}, format="json")
    assert response.status_code == 400
    assert set(response.json()) == {"judgement", "note"}
    response = api_for(outsider).post(
        judge, {"judgement": "not_justified", "note": "x"}, format="json"
    )
    assert response.status_code == 404
    response = api.post(
        judge, {"judgement": "not_justified", "note": "No answer."}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["judgement"] == "not_justified"
    assert response.json()["judged_by"] == buyer.username
    review = api.get(f"/api/v1/procurements/{tender_world.pk}/tender/review/").json()
    [row] = [b for b in review["bids"] if b["bid"] == x.pk]
    assert row["valid"] is False
    assert row["justification"]["state"] == "not_justified"
    assert row["reasons"][0]["citation"] == ORDER87_60


def test_the_committee_page_shows_the_state_and_asks_with_htmx(
    tender_world, low_world, buyer, client_for
):
    client = client_for(buyer)
    url = reverse("vendors:committee", kwargs={"pk": tender_world.pk})
    page = html.unescape(client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())
    section = page[page.index('id="price-justifications"') :]
    assert f'data-bid="{low_world["X"].pk}" data-state="needed"' in section
    assert 'hx-post="' in section and 'hx-select="#main"' in section
    ask = reverse(
        "vendors:committee-justification-request", kwargs={"pk": tender_world.pk}
    )
    response = client.post(
        ask, {"bid": low_world["X"].pk, "note": ""}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 302
    page = html.unescape(client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert "Say what the vendor is to justify." in page
    client.post(ask, {"bid": low_world["X"].pk, "note": "Explain the price."})
    zh = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "报价明显偏低：已要求说明，等待供应商答复" in zh
    comparison_page = client.get(
        reverse("vendors:comparison", kwargs={"pk": tender_world.pk}),
        HTTP_ACCEPT_LANGUAGE="en",
    ).content.decode()
    assert 'data-justification="requested"' in comparison_page


# --- the vendor's answer in the portal ---------------------------------------------


def _asked(opened, buyer):
    """A request on Zebracorp's opened portal bid (written directly: the H100 bids of
    the opening fixture are not reviewed under a regime here)."""
    return PriceJustification.objects.create(
        bid=opened["zebra"],
        invitation=opened["zebra_invitation"],
        request_note="Explain the GPU server price.",
        requested_by=buyer,
    )


def test_the_vendor_justifies_in_the_portal_with_proof(opened, buyer):
    row = _asked(opened, buyer)
    token = opened["zebra_token"]
    home = reverse("vendors:portal", args=[token])
    page = html.unescape(Client().get(home, HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert "Justify your price" in page and "Explain the GPU server price." in page
    zh = Client().get(home, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "说明报价的合理性" in zh
    quokka_page = Client().get(reverse("vendors:portal", args=[opened["quokka_token"]]))
    assert "Explain the GPU server price." not in quokka_page.content.decode()
    url = reverse("vendors:portal-justification", args=[token, row.pk])
    response = Client().post(url, {"response": ""}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    response = Client().post(
        url,
        {
            "response": "We hold the servers in stock from a cancelled order.",
            "proof": SimpleUploadedFile("stock-invoice.pdf", pdf_bytes()),
        },
    )
    assert response.status_code == 302
    row.refresh_from_db()
    assert row.state == "answered"
    assert row.proof.purpose == "price_justification"
    assert row.proof.bid_id == opened["zebra"].pk
    response = Client().post(url, {"response": "Again."}, HTTP_ACCEPT_LANGUAGE="en")
    assert "This request was already answered." in html.unescape(
        response.content.decode()
    )
    row.refresh_from_db()
    assert row.response == "We hold the servers in stock from a cancelled order."


def test_the_portal_api_lists_and_answers_its_own_requests(opened, buyer):
    row = _asked(opened, buyer)
    api = APIClient()
    mine = f"/api/v1/portal/{opened['zebra_token']}/price-justifications/"
    theirs = f"/api/v1/portal/{opened['quokka_token']}/price-justifications/"
    assert api.get(theirs).json() == []
    [listed] = api.get(mine).json()
    assert (listed["id"], listed["state"]) == (row.pk, "requested")
    response = api.post(
        f"{theirs}{row.pk}/",
        {"response": "x"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert response.json() == {"justification": ["No such request."]}
    response = api.post(f"{mine}{row.pk}/", {"response": ""}, format="json")
    assert response.status_code == 400 and "response" in response.json()
    response = api.post(
        f"{mine}{row.pk}/",
        {
            "response": "Stock from a cancelled order.",
            "proof": SimpleUploadedFile("a.txt", b"plain"),
        },
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert response.json() == {"proof": ["Only PDF and XLSX files can be attached."]}
    row.refresh_from_db()
    assert row.responded_at is None  # the refused answer left nothing
    response = api.post(
        f"{mine}{row.pk}/", {"response": "Stock from a cancelled order."}, format="json"
    )
    assert response.status_code == 200 and response.json()["state"] == "answered"
