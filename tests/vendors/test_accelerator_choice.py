"""A bid's accelerator comes from the hardware catalog: a grouped select by name in the
form, the key or the shown name through the API, an unknown one refused on its field."""

import pytest
from django.urls import reverse

from sizing import services as sizing_services
from tests.vendors.test_api import BID_BODY
from tests.vendors.test_support import make_bid, make_vendor
from vendors.models import AuditEntry, Bid


@pytest.fixture
def catalog(db):
    sizing_services.load_reference_catalog()


def _post(api, procurement, vendor, **values):
    return api.post(
        f"/api/v1/procurements/{procurement.pk}/bids/",
        {**BID_BODY, "vendor": vendor.pk, **values},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )


def test_bid_form_offers_the_catalog_by_name_grouped_by_vendor(
    catalog, client_for, buyer, procurement
):
    html = (
        client_for(buyer)
        .get(reverse("vendors:bid-create", args=[procurement.pk]))
        .content.decode()
    )
    assert '<select name="accelerator"' in html
    assert '<optgroup label="NVIDIA">' in html
    assert '<option value="h200-sxm-141gb">NVIDIA H200 SXM 141GB</option>' in html
    assert "data-searchable" in html  # static/js/app.js adds the filter box


def test_bid_form_lists_the_accelerators_buyable_in_the_region_first(
    catalog, client_for, buyer, procurement
):
    """A China procurement: the export-controlled AMD MI300X comes after every
    buyable one, in a group that says why."""
    from vendors.services import plan_facts

    buyable = set(
        sizing_services.buyable_accelerators_for(procurement=procurement).values_list(
            "key", flat=True
        )
    )
    assert procurement.region == "cn"
    assert "h20-sxm-96gb" in buyable and "mi300x-oam-192gb" not in buyable
    groups = plan_facts.accelerator_choices(procurement=procurement)
    keys = [key for _group, options in groups for key, _name in options]
    first_other = min(i for i, key in enumerate(keys) if key not in buyable)
    assert all(key in buyable for key in keys[:first_other])
    assert all(key not in buyable for key in keys[first_other:])
    assert len(keys) == len(set(keys))
    html = (
        client_for(buyer)
        .get(
            reverse("vendors:bid-create", args=[procurement.pk]),
            HTTP_ACCEPT_LANGUAGE="en",
        )
        .content.decode()
    )
    assert "Not buyable in" in html and "(export rules)" in html
    assert html.index('value="h20-sxm-96gb"') < html.index('value="mi300x-oam-192gb"')


def test_bid_form_saves_the_chosen_key_and_refuses_another(
    catalog, client_for, buyer, org, procurement
):
    vendor = make_vendor(org, "Form Vendor")
    url = reverse("vendors:bid-create", args=[procurement.pk])
    body = {"vendor": vendor.pk, "gpu_count": 16, "scheduler": "slurm"}
    refused = client_for(buyer).post(
        url, {**body, "accelerator": "h100-typo"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert refused.status_code == 200
    assert "Select a valid choice" in refused.content.decode()
    saved = client_for(buyer).post(url, {**body, "accelerator": "h20-sxm-96gb"})
    assert saved.status_code == 302
    assert vendor.bids.get().accelerator == "h20-sxm-96gb"


def test_api_accepts_the_key_or_the_shown_name_and_stores_the_key(
    catalog, api_for, buyer, org, procurement
):
    api = api_for(buyer)
    by_key = _post(api, procurement, make_vendor(org, "A"), accelerator="h20-sxm-96gb")
    by_name = _post(
        api,
        procurement,
        make_vendor(org, "B"),
        accelerator="nvidia  h200 sxm 141gb",  # case and spacing as typed
    )
    assert (by_key.status_code, by_name.status_code) == (201, 201)
    assert by_name.json()["accelerator"] == "h200-sxm-141gb"
    assert set(Bid.objects.values_list("accelerator", flat=True)) == {
        "h20-sxm-96gb",
        "h200-sxm-141gb",
    }


def test_api_refuses_an_unknown_accelerator_on_its_field(
    catalog, api_for, buyer, org, procurement
):
    response = _post(
        api_for(buyer), procurement, make_vendor(org), accelerator="NVIDIA H300"
    )
    assert response.status_code == 400
    assert response.json()["accelerator"] == [
        "Unknown accelerator NVIDIA H300: use a key from the hardware catalog."
    ]
    assert not Bid.objects.exists()


def test_changing_to_the_shown_name_of_the_same_accelerator_is_no_change(
    catalog, api_for, buyer, org, procurement
):
    bid = make_bid(procurement, make_vendor(org), accelerator="h100-sxm-80gb")
    response = api_for(buyer).patch(
        f"/api/v1/procurements/{procurement.pk}/bids/{bid.pk}/",
        {"accelerator": "NVIDIA H100 SXM5 80GB"},
        format="json",
    )
    assert response.status_code == 200
    bid.refresh_from_db()
    assert bid.accelerator == "h100-sxm-80gb"
    assert not AuditEntry.objects.filter(bid=bid, target="accelerator").exists()
