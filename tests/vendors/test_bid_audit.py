"""Bid changes in the audit trail: fields (old -> new) and line items."""

import io
from decimal import Decimal

from django.urls import reverse

from tests.vendors.test_support import line, make_bid, make_vendor
from vendors.engine.importing import build_template_csv
from vendors.models import AuditEntry
from vendors.services import bids, evaluation


def bid_entries(bid, action):
    return list(
        AuditEntry.objects.filter(bid=bid, action=action)
        .order_by("id")
        .values_list("target", "old_value", "new_value", "actor__username")
    )


def test_changed_bid_fields_are_audited_with_old_and_new_values(
    org, procurement, buyer
):
    bid = make_bid(procurement, make_vendor(org))
    bids.update_bid(
        bid=bid,
        user=buyer,
        gpu_count=56,  # changed
        warranty_years=Decimal("3.0"),  # same value as 3: no entry
        storage_tb=500.0,  # same: no entry
        cooling="liquid",  # changed
    )
    assert bid_entries(bid, "bid")[1:] == [
        ("gpu_count", "64", "56", "paula-buyer"),
        ("cooling", "air", "liquid", "paula-buyer"),
    ]
    assert bid_entries(bid, "bid")[0][0] == "created"


def test_line_items_added_removed_and_replaced_are_audited(org, procurement, buyer):
    bid = make_bid(procurement, make_vendor(org), lines=[line("gpu_servers", 8, 1000)])
    item = bids.add_line_item(
        bid=bid,
        user=buyer,
        category="network",
        description="IB switches",
        quantity=Decimal("2"),
        unit_price=Decimal("500.50"),
        recurring=False,
    )
    bids.delete_line_item(item=item, user=buyer)
    bids.update_bid(
        bid=bid, user=buyer, line_items=[line("support", 1, 300, recurring=True)]
    )
    entries = bid_entries(bid, "line_item")
    assert entries[1:] == [
        ("added", "", "network · IB switches · 2 x 500.50", "paula-buyer"),
        ("removed", "network · IB switches · 2 x 500.50", "", "paula-buyer"),
        (
            "line_items",
            "gpu_servers · gpu_servers · 8 x 1,000.00",
            "support · support · 1 x 300.00 /yr",
            "paula-buyer",
        ),
    ]


def test_imported_line_items_are_audited(org, procurement, buyer):
    bid = make_bid(procurement, make_vendor(org), lines=[])
    sheet = build_template_csv()
    bids.import_line_items(
        bid=bid, fileobj=io.BytesIO(sheet), filename="quote.csv", user=buyer
    )
    (entry,) = bid_entries(bid, "line_item")
    assert entry[0] == "imported: quote.csv"
    assert entry[1] == ""
    assert entry[2].count("\n") == bid.line_items.count() - 1


def test_bid_page_shows_bid_changes_made_in_the_form(
    client_for, buyer, org, procurement
):
    vendor = make_vendor(org, "Form Vendor")
    bid = make_bid(procurement, vendor)
    client = client_for(buyer)
    response = client.post(
        reverse("vendors:bid-edit", args=[procurement.pk, bid.pk]),
        {
            "vendor": vendor.pk,
            "accelerator": "h100-sxm-80gb",
            "gpu_count": 48,
            "scheduler": "slurm",
            "network_gbps_per_gpu": "400",
            "storage_tb": "500",
            "storage_read_gbs": "80",
            "storage_write_gbs": "40",
            "cooling": "air",
            "peak_power_kw": "81.6",
            "warranty_years": "3",
            "proposal_text": bid.proposal_text,
            "version": bid.version,
        },
    )
    assert response.status_code == 302
    assert bid_entries(bid, "bid")[1:] == [("gpu_count", "64", "48", "paula-buyer")]
    html = client.get(
        reverse("vendors:bid-detail", args=[procurement.pk, bid.pk])
    ).content.decode()
    assert "GPU 数量" in html  # the field's label, not its name
    assert "paula-buyer" in html


def test_sealed_evaluator_sees_line_item_changes_without_prices(
    client_for, buyer, it_lead, org, procurement
):
    bid = make_bid(
        procurement, make_vendor(org), lines=[line("gpu_servers", 8, 1234567)]
    )
    evaluation.update_evaluation_settings(
        procurement=procurement, user=buyer, sealed_envelope=True
    )
    html = (
        client_for(it_lead)
        .get(reverse("vendors:bid-detail", args=[procurement.pk, bid.pk]))
        .content.decode()
    )
    assert "1,234,567.00" not in html
    assert "1234567" not in html
