"""Opened bids are immutable (issue 22): after the opening the buyer cannot edit,
import into, add to, remove from or delete a vendor's submitted bid, by page or API;
a hand-keyed bid stays editable until a decision is recorded."""

# ruff: noqa: F811 - `opened` is a fixture imported by name from correction_support
from __future__ import annotations

from html import unescape

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clusterbuy.services import ServiceError
from tests.vendors.correction_support import gpu_line, opened  # noqa: F401
from tests.vendors.test_support import at_decision_stage, make_bid, make_vendor
from vendors.models import AuditEntry, Bid, BidLineItem
from vendors.services import bids, decisions
from vendors.services.opened_bids import OpenedBidError

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
REFUSED = (
    "This bid was opened from the vendor's sealed submission, so it can no longer "
    "be edited, imported into or deleted."
)


def _state(bid):
    bid.refresh_from_db()
    items = sorted(
        (li.category, li.quantity, li.unit_price) for li in bid.line_items.all()
    )
    return bid.version, bid.gpu_count, items, AuditEntry.objects.count()


def test_every_service_write_to_an_opened_bid_is_refused(opened, buyer):
    zebra = opened["zebra"]
    before = _state(zebra)
    csv = SimpleUploadedFile(
        "lines.csv",
        b"category,description,quantity,unit_price,recurring\n"
        b"gpu_servers,cheaper server,8,1000,no\n",
    )
    writes = [
        lambda: bids.update_bid(bid=zebra, user=buyer, gpu_count=128),
        lambda: bids.add_line_item(
            bid=zebra,
            user=buyer,
            category="other",
            description="extra",
            quantity=1,
            unit_price=1,
        ),
        lambda: bids.delete_line_item(item=gpu_line(zebra), user=buyer),
        lambda: bids.import_line_items(
            bid=zebra, fileobj=csv, filename="lines.csv", user=buyer
        ),
        lambda: bids.delete_bid(bid=zebra),
    ]
    for write in writes:
        with pytest.raises(OpenedBidError) as refused:
            write()
        assert refused.value.code == "opened"
    assert _state(zebra) == before


def test_the_api_answers_409_and_changes_nothing(opened, api_for, buyer):
    zebra = opened["zebra"]
    before = _state(zebra)
    base = f"/api/v1/procurements/{zebra.procurement_id}/bids/{zebra.pk}/"
    api = api_for(buyer)
    responses = [
        api.patch(base, {"gpu_count": 128}, format="json", **EN),
        api.patch(base, {"line_items": []}, format="json", **EN),
        api.delete(base, **EN),
        api.post(
            f"{base}line-items/import/",
            {
                "file": SimpleUploadedFile(
                    "l.csv",
                    b"category,description,quantity,unit_price,recurring\n"
                    b"other,x,1,1,no\n",
                )
            },
            format="multipart",
            **EN,
        ),
    ]
    for response in responses:
        assert response.status_code == 409, response.content
        assert response.json()["code"] == "opened"
        assert response.json()["detail"].startswith(REFUSED)
    assert _state(zebra) == before
    assert Bid.objects.filter(pk=zebra.pk).exists()


def test_the_page_hides_the_edit_controls_and_says_why(opened, client_for, buyer):
    zebra = opened["zebra"]
    client = client_for(buyer)
    url = reverse("vendors:bid-detail", args=[zebra.procurement_id, zebra.pk])
    html = unescape(client.get(url, **EN).content.decode())
    assert REFUSED in html
    for action in ("line-item-add", "line-item-import", "bid-delete", "bid-edit"):
        args = [zebra.procurement_id, zebra.pk]
        assert reverse(f"vendors:{action}", args=args) not in html, action
    assert "/line-items/" not in html.replace(
        reverse("vendors:line-item-template", args=["xlsx"]), ""
    )
    # The edit page itself sends the reader back with the reason.
    edit = client.get(
        reverse("vendors:bid-edit", args=[zebra.procurement_id, zebra.pk]),
        follow=True,
        **EN,
    )
    assert REFUSED in unescape(edit.content.decode())
    # A forged POST to the old endpoints changes nothing and says why.
    item = gpu_line(zebra)
    removed = client.post(
        reverse(
            "vendors:line-item-delete", args=[zebra.procurement_id, zebra.pk, item.pk]
        ),
        follow=True,
        **EN,
    )
    assert REFUSED in unescape(removed.content.decode())
    assert BidLineItem.objects.filter(pk=item.pk).exists()


def test_the_page_reads_in_chinese(opened, client_for, buyer):
    zebra = opened["zebra"]
    url = reverse("vendors:bid-detail", args=[zebra.procurement_id, zebra.pk])
    html = client_for(buyer).get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "此投标由供应商密封提交的投标文件开标而来" in html
    assert "更正与澄清" in html


def test_a_hand_keyed_bid_stays_editable_until_the_decision(
    org, procurement, buyer, manager
):
    bid = make_bid(procurement, make_vendor(org, "Paper Bids Ltd"))
    bids.update_bid(bid=bid, user=buyer, gpu_count=96)
    bid.refresh_from_db()
    assert (bid.gpu_count, bid.version) == (96, 2)
    at_decision_stage(procurement)
    decisions.record_decision(
        procurement=procurement, user=manager, bid=bid, rationale="Only bid."
    )
    with pytest.raises(ServiceError) as refused:
        bids.update_bid(bid=bid, user=buyer, gpu_count=128)
    assert refused.value.details["code"] == "decided"
    bid.refresh_from_db()
    assert bid.gpu_count == 96
