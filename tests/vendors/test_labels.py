"""Vendor pages show translated names, never raw codes or unrounded floats."""

from decimal import Decimal

from django.urls import reverse

from tests.vendors.test_support import make_bid, make_vendor, three_bids
from vendors.models import BidLineItem
from vendors.services import bids


def _zh(client, url):
    return client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()


def test_zh_bid_page_shows_channel_monitoring_severity_and_status_labels(
    client_for, buyer, org, procurement
):
    bid = make_bid(
        procurement,
        make_vendor(org),
        support_channels=["phone", "on_site"],
        monitoring=["gpu_temperature", "ecc_xid"],
        response_hours={"sev1": 0.5, "sev2": 4},
        storage_read_gbs=13.718776263111112,
    )
    html = _zh(
        client_for(buyer), reverse("vendors:bid-detail", args=[procurement.pk, bid.pk])
    )
    assert "电话" in html and "现场" in html
    assert "on_site" not in html
    assert "gpu_temperature" not in html and "ecc_xid" not in html
    assert "一级故障 0.5 h" in html and "sev1" not in html
    assert "13.72" in html and "13.718776" not in html
    assert ">pass<" not in html and ">warn<" not in html and ">fail<" not in html


def test_bids_tab_shows_translated_pitfall_names(client_for, buyer, org, procurement):
    three_bids(procurement, org)
    html = _zh(client_for(buyer), reverse("vendors:bids", args=[procurement.pk]))
    assert 'data-code="gpu_only">只报 GPU</span>' in html
    assert ">gpu_only<" not in html and ">template_proposal<" not in html


def test_audit_trail_shows_the_category_label_not_its_code(
    client_for, buyer, org, procurement
):
    bid = make_bid(procurement, make_vendor(org), lines=[])
    bids.add_line_item(
        bid=bid,
        user=buyer,
        category="gpu_servers",
        description="8x H100 node",
        quantity=Decimal(2),
        unit_price=Decimal(100),
        recurring=False,
    )
    assert BidLineItem.objects.filter(bid=bid).count() == 1
    html = _zh(
        client_for(buyer), reverse("vendors:bid-detail", args=[procurement.pk, bid.pk])
    )
    assert "gpu_servers ·" not in html
    assert "GPU 服务器 · 8x H100 node" in html


def test_hidden_cost_source_is_readable(client_for, buyer, org, procurement):
    three_bids(procurement, org)
    html = client_for(buyer).get(
        reverse("vendors:comparison", args=[procurement.pk]),
        HTTP_ACCEPT_LANGUAGE="en",
    )
    text = html.content.decode()
    assert "CLUSTER_INTERCONNECT_COST_FRACTION" not in text
