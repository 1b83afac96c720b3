"""Optimistic concurrency on bids: the version every write counts, the 409 of the API
and the form error of the UI when a save names a version someone else moved past.

The parallel cases (two writes at the same instant) are in tests/proof/test_races.py.
"""

from __future__ import annotations

import io
from datetime import datetime
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.vendors.test_support import line, make_bid, make_vendor
from vendors.engine.importing import build_template_csv
from vendors.models import AuditEntry, Bid, BidLineItem, Score
from vendors.services import bids, evaluation
from vendors.services.bid_versions import StaleBidError


@pytest.fixture
def bid(org, procurement):
    return make_bid(procurement, make_vendor(org, "Versioned Systems"))


def url(bid) -> str:
    return f"/api/v1/procurements/{bid.procurement_id}/bids/{bid.pk}/"


def stored(bid) -> Bid:
    return Bid.objects.get(pk=bid.pk)


def edit_form(bid, **changes) -> dict:
    """The bid form as the edit page posts it (version included)."""
    values = {
        "vendor": bid.vendor_id,
        "accelerator": bid.accelerator,
        "gpu_count": bid.gpu_count,
        "scheduler": bid.scheduler,
        "cooling": bid.cooling,
        "warranty_years": "3",
        "proposal_text": bid.proposal_text,
        "version": bid.version,
    }
    return {**values, **changes}


def test_api_shows_the_version_as_a_field_and_as_the_etag(api_for, buyer, bid):
    response = api_for(buyer).get(url(bid))
    assert response.json()["version"] == 1
    assert response["ETag"] == '"1"'


def test_a_save_naming_the_current_version_goes_through_and_counts_one(
    api_for, buyer, bid
):
    response = api_for(buyer).patch(url(bid), {"gpu_count": 48, "version": 1})
    assert response.status_code == 200, response.json()
    assert response.json()["version"] == 2
    assert response["ETag"] == '"2"'
    assert (stored(bid).gpu_count, stored(bid).version) == (48, 2)
    assert stored(bid).updated_by == buyer


def test_a_stale_version_answers_409_naming_who_changed_it_and_writes_nothing(
    api_for, buyer, admin_user, bid
):
    api_for(admin_user).patch(url(bid), {"gpu_count": 48, "version": 1})
    audit_rows = AuditEntry.objects.count()
    response = api_for(buyer).patch(
        url(bid),
        {"gpu_count": 16, "version": 1, "line_items": []},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 409
    body = response.json()
    changed = stored(bid)
    assert body["version"] == 2
    assert body["changed_by"] == "alice-admin"
    assert datetime.fromisoformat(body["changed_at"]) == changed.updated_at
    assert body["detail"].startswith("This bid was changed by alice-admin at ")
    assert "Reload it" in body["detail"]
    assert (changed.gpu_count, changed.version) == (48, 2)
    assert changed.line_items.count() == 8
    assert AuditEntry.objects.count() == audit_rows


def test_if_match_carries_the_version_too(api_for, buyer, bid):
    api = api_for(buyer)
    stale = api.patch(url(bid), {"gpu_count": 40}, HTTP_IF_MATCH='"7"')
    assert stale.status_code == 409
    fresh = api.patch(url(bid), {"gpu_count": 40}, HTTP_IF_MATCH='"1"')
    assert fresh.status_code == 200
    assert fresh["ETag"] == '"2"'
    anything = api.patch(url(bid), {"gpu_count": 41}, HTTP_IF_MATCH="*")
    assert anything.status_code == 200
    assert stored(bid).version == 3


@pytest.mark.parametrize(
    "header, body",
    [("v1", {}), ('W/"1"', {}), ('"1", "2"', {}), ('"1"', {"version": 2})],
)
def test_an_if_match_that_is_not_one_etag_of_ours_is_a_400(
    api_for, buyer, bid, header, body
):
    response = api_for(buyer).patch(
        url(bid), {"gpu_count": 40, **body}, HTTP_IF_MATCH=header
    )
    assert response.status_code == 400
    assert list(response.json()) == ["version"]
    assert stored(bid).gpu_count == 64


def test_without_a_version_the_api_writes_as_before(api_for, buyer, bid):
    bids.update_bid(bid=stored(bid), user=buyer, gpu_count=32)
    response = api_for(buyer).patch(url(bid), {"gpu_count": 16})
    assert response.status_code == 200
    assert (stored(bid).gpu_count, stored(bid).version) == (16, 3)


def test_every_change_counts_one_version_and_a_save_without_change_none(
    org, procurement, buyer, bid
):
    def version() -> int:
        return stored(bid).version

    bids.update_bid(bid=stored(bid), user=buyer, gpu_count=64)  # same value
    assert version() == 1
    bids.update_bid(bid=stored(bid), user=buyer, gpu_count=32)
    assert version() == 2
    bids.update_bid(bid=stored(bid), user=buyer, line_items=[line("network", 1, 5)])
    assert version() == 3
    bids.update_bid(bid=stored(bid), user=buyer, line_items=[line("network", 1, 5)])
    assert version() == 3
    item = bids.add_line_item(
        bid=stored(bid),
        user=buyer,
        category="storage",
        description="NVMe",
        quantity=Decimal(1),
        unit_price=Decimal(100),
    )
    assert version() == 4
    bids.delete_line_item(item=item, user=buyer)
    assert version() == 5
    bids.import_line_items(
        bid=stored(bid),
        fileobj=io.BytesIO(build_template_csv()),
        filename="quote.csv",
        user=buyer,
    )
    assert version() == 6
    assert stored(bid).updated_by == buyer


def test_the_service_refuses_a_stale_version_before_anything_changes(buyer, bid):
    bids.update_bid(bid=stored(bid), user=buyer, gpu_count=32)
    with pytest.raises(StaleBidError):
        bids.update_bid(
            bid=stored(bid), user=buyer, version=1, line_items=[line("other", 1, 1)]
        )
    with pytest.raises(StaleBidError):
        bids.import_line_items(
            bid=stored(bid),
            fileobj=io.BytesIO(build_template_csv()),
            filename="quote.csv",
            user=buyer,
            version=1,
        )
    assert stored(bid).line_items.count() == 8
    assert stored(bid).version == 2


def test_an_import_with_a_stale_if_match_answers_409_and_keeps_the_lines(
    api_for, buyer, bid
):
    bids.update_bid(bid=stored(bid), user=buyer, gpu_count=32)
    upload = SimpleUploadedFile("quote.csv", build_template_csv())
    response = api_for(buyer).post(
        f"{url(bid)}line-items/import/",
        {"file": upload},
        format="multipart",
        HTTP_IF_MATCH='"1"',
    )
    assert response.status_code == 409
    assert stored(bid).line_items.count() == 8
    upload = SimpleUploadedFile("quote.csv", build_template_csv())
    response = api_for(buyer).post(
        f"{url(bid)}line-items/import/",
        {"file": upload},
        format="multipart",
        HTTP_IF_MATCH='"2"',
    )
    assert response.status_code == 201
    assert response["ETag"] == '"3"'


def test_removing_a_line_that_is_already_gone_changes_nothing(buyer, bid):
    item = stored(bid).line_items.first()
    bids.update_bid(bid=stored(bid), user=buyer, line_items=[line("network", 1, 5)])
    audit_rows = AuditEntry.objects.count()
    bids.delete_line_item(item=item, user=buyer)
    assert AuditEntry.objects.count() == audit_rows
    assert stored(bid).version == 2
    assert BidLineItem.objects.filter(bid=bid).count() == 1


def test_the_bid_form_carries_the_version_it_was_filled_from(client_for, buyer, bid):
    bids.update_bid(bid=stored(bid), user=buyer, gpu_count=32)
    html = (
        client_for(buyer)
        .get(reverse("vendors:bid-edit", args=[bid.procurement_id, bid.pk]))
        .content.decode()
    )
    assert '<input type="hidden" name="version" value="2"' in html


def test_two_ui_saves_from_the_same_version_the_second_gets_the_conflict(
    client_for, buyer, admin_user, bid
):
    edit = reverse("vendors:bid-edit", args=[bid.procurement_id, bid.pk])
    first = client_for(admin_user).post(edit, edit_form(bid, gpu_count=48))
    assert first.status_code == 302
    second = client_for(buyer).post(
        edit, edit_form(bid, gpu_count=16, cooling="liquid"), HTTP_ACCEPT_LANGUAGE="en"
    )
    assert second.status_code == 200
    html = second.content.decode()
    changed = stored(bid)
    assert "This bid was changed by alice-admin at " in html
    assert "Reload it and make your changes again." in html
    assert 'value="16"' in html  # what the second user typed is still on the form
    assert (changed.gpu_count, changed.cooling, changed.version) == (48, "air", 2)


def test_the_conflict_on_the_form_is_translated(client_for, buyer, admin_user, bid):
    edit = reverse("vendors:bid-edit", args=[bid.procurement_id, bid.pk])
    client_for(admin_user).post(edit, edit_form(bid, gpu_count=48))
    html = (
        client_for(buyer)
        .post(edit, edit_form(bid, gpu_count=16), HTTP_ACCEPT_LANGUAGE="zh-hans")
        .content.decode()
    )
    assert "alice-admin 于 " in html
    assert "请重新加载，再做您的修改。" in html


def test_a_form_posted_without_its_version_saves_nothing(client_for, buyer, bid):
    edit = reverse("vendors:bid-edit", args=[bid.procurement_id, bid.pk])
    form = edit_form(bid, gpu_count=16)
    del form["version"]
    response = client_for(buyer).post(edit, form, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert "This form is out of date" in response.content.decode()
    assert stored(bid).gpu_count == 64


def test_the_same_first_mark_recorded_twice_is_one_score(bid, it_lead):
    mark = evaluation.ScoreMark(criterion="arch_data", points=4, note="seen")
    for _attempt in range(2):
        evaluation.record_scores(
            bid=bid, evaluator=it_lead, scores=[mark], automatic={}
        )
    assert Score.objects.filter(bid=bid, evaluator=it_lead).count() == 1
    assert AuditEntry.objects.filter(action="score").count() == 1
