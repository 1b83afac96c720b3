"""Arithmetic corrections and clarifications of an opened bid (issue 22): the buyer
asks, the vendor confirms or declines through its portal link, and a confirmed one is
the bid's next version, audited, named by the comparison."""

# ruff: noqa: F811 - `opened` is a fixture imported by name from correction_support
from __future__ import annotations

from decimal import Decimal
from html import unescape

import pytest
from django.urls import reverse

from clusterbuy.services import ServiceError
from tests.vendors.correction_support import gpu_line, opened  # noqa: F401
from tests.vendors.rfp_support import ZEBRA_PRICE
from tests.vendors.test_support import make_bid, make_vendor
from vendors import comparison
from vendors.models import AuditEntry, BidCorrection
from vendors.services import corrections

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def ask_price_fix(bid, user):
    """ZEBRA_PRICE 9,876,543 per server with a misplaced decimal point (Art. 59 (3)):
    the buyer proposes 987,654.30."""
    return corrections.request_correction(
        bid=bid,
        user=user,
        kind="arithmetic",
        what="Unit price of the GPU server",
        why="The unit price has its decimal point one place off the total.",
        changes=[
            {"line_item": gpu_line(bid).pk, "field": "unit_price", "new": "987654.30"}
        ],
    )


def test_a_confirmed_correction_is_the_next_version_audited(opened, buyer):
    zebra = opened["zebra"]
    version_before = zebra.version
    request = ask_price_fix(zebra, buyer)
    assert request.changes == [
        {
            "line_item": gpu_line(zebra).pk,
            "description": "GPU server",
            "field": "unit_price",
            "old": "9876543.00",
            "new": "987654.30",
        }
    ]
    zebra.refresh_from_db()
    assert zebra.version == version_before  # asking changes nothing yet
    assert gpu_line(zebra).unit_price == Decimal(ZEBRA_PRICE)
    answered = corrections.respond_to_correction(
        invitation=opened["zebra_invitation"],
        correction_id=request.pk,
        confirm=True,
        response="",
    )
    zebra.refresh_from_db()
    assert answered.status == "confirmed"
    assert zebra.version == version_before + 1 == answered.bid_version
    assert gpu_line(zebra).unit_price == Decimal("987654.30")
    asked, confirmed = AuditEntry.objects.filter(
        bid=zebra, target__startswith="correction"
    ).order_by("id")
    assert (asked.target, asked.actor) == ("correction requested", buyer)
    assert "Why: The unit price has its decimal point" in asked.new_value
    assert (confirmed.target, confirmed.actor) == ("correction confirmed", None)
    assert "GPU server · unit_price 9876543.00" in confirmed.old_value
    assert f"Bid version: {zebra.version}" in confirmed.new_value
    # The comparison shows the corrected bid and names its version:
    # 8 x 987,654.30 + 1,200,000 + 5 years x 100,000 (horizon of the fixture).
    result = comparison.build_comparison(procurement=zebra.procurement, user=buyer)
    column = next(c for c in result.columns if c.bid.pk == zebra.pk)
    assert column.bid.version == zebra.version
    entry = next(e for e in comparison.comparison_json(result) if e["bid"] == zebra.pk)
    assert entry["bid_version"] == zebra.version
    horizon = zebra.procurement.horizon_years
    assert column.quoted_total == Decimal("7901234.40") + 1_200_000 + 100_000 * horizon


def test_a_declined_request_needs_a_reason_and_changes_nothing(opened, buyer):
    zebra = opened["zebra"]
    version = zebra.version
    request = ask_price_fix(zebra, buyer)
    with pytest.raises(ServiceError) as refused:
        corrections.respond_to_correction(
            invitation=opened["zebra_invitation"],
            correction_id=request.pk,
            confirm=False,
            response="  ",
        )
    assert refused.value.field == "response"
    corrections.respond_to_correction(
        invitation=opened["zebra_invitation"],
        correction_id=request.pk,
        confirm=False,
        response="Our price is right: 9,876,543 per server.",
    )
    zebra.refresh_from_db()
    assert zebra.version == version
    assert gpu_line(zebra).unit_price == Decimal(ZEBRA_PRICE)
    request.refresh_from_db()
    assert (request.status, request.bid_version) == ("declined", None)
    with pytest.raises(ServiceError) as again:
        corrections.respond_to_correction(
            invitation=opened["zebra_invitation"],
            correction_id=request.pk,
            confirm=True,
            response="",
        )
    assert again.value.message == "这项请求已经答复过了。"


def test_another_vendor_cannot_answer_a_request(opened, buyer):
    request = ask_price_fix(opened["zebra"], buyer)
    with pytest.raises(ServiceError):
        corrections.respond_to_correction(
            invitation=opened["quokka_invitation"],
            correction_id=request.pk,
            confirm=True,
            response="",
        )
    request.refresh_from_db()
    assert request.status == "pending"


def test_requests_are_refused_when_they_would_change_what_is_offered(
    opened, buyer, org, procurement, it_lead
):
    zebra = opened["zebra"]
    line = gpu_line(zebra).pk
    bad = [
        ({"kind": "arithmetic", "changes": []}, "line_item"),
        (
            {
                "kind": "arithmetic",
                "changes": [{"line_item": line, "field": "description", "new": "x"}],
            },
            "changes",
        ),
        (
            {
                "kind": "arithmetic",
                "changes": [{"line_item": line, "field": "quantity", "new": "-1"}],
            },
            "quantity",
        ),
        (
            {
                "kind": "arithmetic",
                "changes": [{"line_item": line, "field": "quantity", "new": "8"}],
            },
            "quantity",
        ),
        ({"kind": "clarification", "what": " "}, "what"),
    ]
    for values, field in bad:
        kwargs = {"what": "w", "why": "y", "changes": [], **values}
        with pytest.raises(ServiceError) as refused:
            corrections.request_correction(bid=zebra, user=buyer, **kwargs)
        assert refused.value.field == field, values
    hand_keyed = make_bid(procurement, make_vendor(org, "Paper Bids Ltd"))
    with pytest.raises(ServiceError):
        corrections.request_correction(
            bid=hand_keyed, user=buyer, kind="clarification", what="w", why="y"
        )
    with pytest.raises(ServiceError):  # the IT lead does not run the vendor side
        corrections.request_correction(
            bid=zebra, user=it_lead, kind="clarification", what="w", why="y"
        )
    assert not BidCorrection.objects.exists()


def test_the_buyer_api_and_the_portal_api(opened, api_for, buyer, client):
    zebra = opened["zebra"]
    url = f"/api/v1/procurements/{zebra.procurement_id}/bids/{zebra.pk}/corrections/"
    body = {
        "kind": "clarification",
        "what": "Which InfiniBand switch model do you offer?",
        "why": "The proposal names none.",
    }
    created = api_for(buyer).post(url, body, format="json")
    assert created.status_code == 201, created.content
    request_id = created.json()["id"]
    assert created.json()["status"] == "pending"
    bad = api_for(buyer).post(url, {**body, "kind": "rewrite"}, format="json")
    assert bad.status_code == 400 and "kind" in bad.json()
    portal = f"/api/v1/portal/{opened['zebra_token']}/corrections/"
    listed = client.get(portal)
    assert [r["id"] for r in listed.json()] == [request_id]
    other = client.get(f"/api/v1/portal/{opened['quokka_token']}/corrections/")
    assert other.json() == []
    empty = client.post(
        f"{portal}{request_id}/", {"answer": "confirm"}, content_type="application/json"
    )
    assert empty.status_code == 400 and "response" in empty.json()
    answered = client.post(
        f"{portal}{request_id}/",
        {"answer": "confirm", "response": "NVIDIA Quantum-2 QM9700, 64 ports."},
        content_type="application/json",
    )
    assert answered.status_code == 200, answered.content
    zebra.refresh_from_db()
    assert answered.json()["bid_version"] == zebra.version
    assert api_for(buyer).get(url).json()[0]["response"].startswith("NVIDIA Quantum")


def test_the_vendor_confirms_in_the_portal_page(opened, buyer, client):
    zebra = opened["zebra"]
    request = ask_price_fix(zebra, buyer)
    home = reverse("vendors:portal", args=[opened["zebra_token"]])
    html = unescape(client.get(home, **EN).content.decode())
    assert "Requests from the buyer" in html
    assert "9876543.00 → 987654.30" in html
    other = client.get(reverse("vendors:portal", args=[opened["quokka_token"]]), **EN)
    assert "Requests from the buyer" not in other.content.decode()
    answer = reverse(
        "vendors:portal-correction", args=[opened["zebra_token"], request.pk]
    )
    refused = client.post(answer, {"answer": "decline", "response": ""}, **EN)
    assert refused.status_code == 200
    assert "Say why you decline the request." in unescape(refused.content.decode())
    done = client.post(answer, {"answer": "confirm", "response": ""}, follow=True, **EN)
    assert "your bid&#x27;s new version is recorded" in done.content.decode()
    request.refresh_from_db()
    zebra.refresh_from_db()
    assert request.status == "confirmed" and request.bid_version == zebra.version


def test_the_buyer_asks_from_the_bid_page(opened, client_for, buyer):
    zebra = opened["zebra"]
    client = client_for(buyer)
    page = reverse(
        "vendors:bid-correction-request", args=[zebra.procurement_id, zebra.pk]
    )
    refused = client.post(page, {"kind": "arithmetic", "what": "w", "why": "y"}, **EN)
    assert refused.status_code == 200
    assert "Name the line item and its corrected quantity or unit price." in unescape(
        refused.content.decode()
    )
    sent = client.post(
        page,
        {
            "kind": "arithmetic",
            "what": "GPU server quantity",
            "why": "The total is for 4 servers.",
            "line_item": gpu_line(zebra).pk,
            "quantity": "4",
        },
        follow=True,
        **EN,
    )
    html = unescape(sent.content.decode())
    assert "Request sent: the vendor answers it through its portal link." in html
    assert "Waiting for the vendor" in html
    assert BidCorrection.objects.get().changes[0]["new"] == "4"
