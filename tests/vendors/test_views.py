import pytest
from django.urls import reverse

from tests.vendors.test_support import make_bid, make_vendor, three_bids
from vendors.services import evaluation


@pytest.fixture
def bids(org, procurement):
    return three_bids(procurement, org)


def test_bids_tab_lists_bids_and_vendors(client_for, buyer, procurement, bids):
    response = client_for(buyer).get(reverse("vendors:bids", args=[procurement.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    for name in ("GPU Box Ltd", "Promise Corp", "Balanced Systems"):
        assert name in html
    assert "gpu_only" in html


def test_comparison_page_marks_best_and_worst_and_draws_radar(
    client_for, buyer, procurement, bids
):
    response = client_for(buyer).get(
        reverse("vendors:comparison", args=[procurement.pk])
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert 'class="num best"' in html
    assert 'class="num worst"' in html
    assert "<svg" in html and "<polygon" in html


def test_htmx_weights_recompute_without_saving(client_for, buyer, procurement, bids):
    response = client_for(buyer).post(
        reverse("vendors:comparison-weights", args=[procurement.pk]),
        {"w_price": "90"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert "<table" in response.content.decode()
    row = evaluation.evaluation_settings_for(procurement=procurement)
    assert row.section_weights == {}


def test_save_weights_writes_an_audit_entry(client_for, buyer, procurement, bids):
    client_for(buyer).post(
        reverse("vendors:comparison-weights", args=[procurement.pk]),
        {"w_price": "30", "save": "1"},
        HTTP_HX_REQUEST="true",
    )
    row = evaluation.evaluation_settings_for(procurement=procurement)
    assert row.section_weights["price"] == 30.0
    entry = procurement.vendor_audit.get(action="weight")
    assert (entry.target, entry.old_value, entry.new_value) == (
        "section:price",
        "15.0",
        "30.0",
    )
    assert entry.actor == buyer


def test_bid_pages_render(client_for, buyer, it_lead, procurement, bids):
    for user in (buyer, it_lead):
        client = client_for(user)
        for bid in bids:
            url = reverse("vendors:bid-detail", args=[procurement.pk, bid.pk])
            assert client.get(url).status_code == 200
    client = client_for(buyer)
    assert (
        client.get(reverse("vendors:bid-create", args=[procurement.pk])).status_code
        == 200
    )
    assert client.get(reverse("vendors:vendor-list")).status_code == 200
    assert (
        client.get(
            reverse("vendors:vendor-detail", args=[bids[0].vendor_id])
        ).status_code
        == 200
    )


def test_create_bid_through_the_form(client_for, buyer, org, procurement):
    vendor = make_vendor(org, "Form Vendor")
    response = client_for(buyer).post(
        reverse("vendors:bid-create", args=[procurement.pk]),
        {
            "vendor": vendor.pk,
            "accelerator": "h100-sxm-80gb",
            "gpu_count": 16,
            "scheduler": "kubernetes",
            "support_channels": ["phone", "wechat"],
            "sev1_hours": "1",
            "frameworks": "PyTorch, vLLM",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    bid = vendor.bids.get()
    assert bid.frameworks == ["PyTorch", "vLLM"]
    assert bid.response_hours == {"sev1": 1.0}
    assert bid.support_channels == ["phone", "wechat"]


def test_outsider_gets_404_on_every_page(client_for, outsider, procurement, bids):
    client = client_for(outsider)
    bid = bids[0]
    p = procurement.pk
    for name, args in (
        ("vendors:bids", [p]),
        ("vendors:comparison", [p]),
        ("vendors:bid-detail", [p, bid.pk]),
        ("vendors:bid-edit", [p, bid.pk]),
        ("vendors:vendor-detail", [bid.vendor_id]),
        ("vendors:comparison-export", [p, "xlsx"]),
    ):
        assert client.get(reverse(name, args=args)).status_code == 404, name
    for name, args in (
        ("vendors:bid-delete", [p, bid.pk]),
        ("vendors:score", [p, bid.pk]),
        ("vendors:decision", [p]),
        ("vendors:evaluation-settings", [p]),
    ):
        assert client.post(reverse(name, args=args), {}).status_code == 404, name
    assert procurement.bids.count() == 3


def test_viewer_cannot_create_bids_in_ui(client_for, viewer, org, procurement):
    vendor = make_vendor(org)
    make_bid(procurement, vendor)
    client = client_for(viewer)
    assert (
        client.get(reverse("vendors:bid-create", args=[procurement.pk])).status_code
        == 403
    )
    assert client.get(reverse("vendors:bids", args=[procurement.pk])).status_code == 200
