from decimal import Decimal

from tests.vendors.test_support import make_bid, make_vendor
from vendors.models import Bid, BidLineItem, Vendor

BID_BODY = {
    "accelerator": "h100-sxm-80gb",
    "gpu_count": 64,
    "scheduler": "slurm",
    "proposal_text": "Slurm cluster for 70B continued pre-training in Shanghai.",
    "promised_training_days": 30,
    "line_items": [
        {
            "category": "gpu_servers",
            "description": "8x H100 server",
            "quantity": "8",
            "unit_price": "2000000.00",
            "recurring": False,
        },
        {
            "category": "support",
            "description": "24x7 support",
            "quantity": "1",
            "unit_price": "300000.00",
            "recurring": True,
        },
    ],
}


def test_procurement_officer_creates_bid_with_nested_line_items(
    api_for, buyer, org, procurement
):
    vendor = make_vendor(org, "Acme Systems")
    api = api_for(buyer)
    response = api.post(
        f"/api/v1/procurements/{procurement.pk}/bids/",
        {**BID_BODY, "vendor": vendor.pk},
        format="json",
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["vendor"] == {"id": vendor.pk, "name": "Acme Systems", "blind": False}
    assert [li["category"] for li in body["line_items"]] == ["gpu_servers", "support"]
    # 8 x 2,000,000 one-off + 300,000 a year x 5-year horizon
    assert body["quoted_total"] == "17500000.00"
    bid = Bid.objects.get()
    assert bid.line_items.count() == 2
    assert bid.promised_training_days == 30


def test_bid_with_another_organisations_vendor_is_no_such_vendor(
    api_for, buyer, other_org, procurement
):
    foreign = make_vendor(other_org, "Foreign")
    response = api_for(buyer).post(
        f"/api/v1/procurements/{procurement.pk}/bids/",
        {**BID_BODY, "vendor": foreign.pk},
        format="json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert response.json()["vendor"] == ["no such vendor"]
    assert Bid.objects.count() == 0


def test_bad_bid_input_gets_field_messages(api_for, buyer, org, procurement):
    vendor = make_vendor(org)
    body = {**BID_BODY, "vendor": vendor.pk, "scheduler": "lsf", "gpu_count": 0}
    body["line_items"] = [{**BID_BODY["line_items"][0], "unit_price": "-1"}]
    response = api_for(buyer).post(
        f"/api/v1/procurements/{procurement.pk}/bids/", body, format="json"
    )
    assert response.status_code == 400
    errors = response.json()
    assert set(errors) >= {"scheduler", "gpu_count", "line_items"}
    assert Bid.objects.count() == 0


def test_viewer_reads_but_cannot_write_bids(api_for, viewer, org, procurement):
    vendor = make_vendor(org)
    make_bid(procurement, vendor)
    api = api_for(viewer)
    url = f"/api/v1/procurements/{procurement.pk}/bids/"
    assert api.get(url).status_code == 200
    response = api.post(url, {**BID_BODY, "vendor": vendor.pk}, format="json")
    assert response.status_code == 403
    assert Bid.objects.count() == 1


def test_update_bid_replaces_line_items(api_for, buyer, org, procurement):
    bid = make_bid(procurement, make_vendor(org))
    response = api_for(buyer).patch(
        f"/api/v1/procurements/{procurement.pk}/bids/{bid.pk}/",
        {"line_items": [BID_BODY["line_items"][0]], "gpu_count": 32},
        format="json",
    )
    assert response.status_code == 200, response.json()
    assert BidLineItem.objects.filter(bid=bid).count() == 1
    bid.refresh_from_db()
    assert bid.gpu_count == 32


def test_outsider_gets_404_on_every_endpoint_and_changes_nothing(
    api_for, outsider, org, procurement
):
    vendor = make_vendor(org)
    bid = make_bid(procurement, vendor)
    api = api_for(outsider)
    p = f"/api/v1/procurements/{procurement.pk}"
    for url in (
        f"{p}/bids/",
        f"{p}/bids/{bid.pk}/",
        f"{p}/bids/{bid.pk}/scores/",
        f"{p}/bids/{bid.pk}/attachments/",
        f"{p}/comparison/",
        f"{p}/evaluation/",
        f"/api/v1/vendors/{vendor.pk}/",
        f"/api/v1/vendors/{vendor.pk}/case-studies/",
    ):
        assert api.get(url).status_code == 404, url
    assert (
        api.patch(f"{p}/bids/{bid.pk}/", {"gpu_count": 1}, format="json").status_code
        == 404
    )
    assert api.delete(f"{p}/bids/{bid.pk}/").status_code == 404
    assert (
        api.patch(
            f"/api/v1/vendors/{vendor.pk}/", {"name": "x"}, format="json"
        ).status_code
        == 404
    )
    assert api.delete(f"/api/v1/vendors/{vendor.pk}/").status_code == 404
    assert (
        api.post(
            f"{p}/bids/{bid.pk}/scores/",
            {"criterion": "arch_scenario", "points": 5},
            format="json",
        ).status_code
        == 404
    )
    assert (
        api.put(
            f"{p}/decision/", {"bid": bid.pk, "rationale": "x"}, format="json"
        ).status_code
        == 404
    )
    assert (
        api.post(
            f"{p}/bids/{bid.pk}/line-items/import", {}, format="multipart"
        ).status_code
        == 404
    )
    assert (
        api.patch(
            f"{p}/evaluation/", {"blind_grading": True}, format="json"
        ).status_code
        == 404
    )
    assert api.get("/api/v1/vendors/").json()["count"] == 0
    bid.refresh_from_db()
    assert bid.gpu_count == 64
    assert Vendor.objects.get(pk=vendor.pk).name == "Balanced Systems"
    assert bid.scores.count() == 0
    assert bid.line_items.count() == 8


def test_vendor_crud_is_org_scoped(api_for, buyer, org):
    api = api_for(buyer)
    response = api.post(
        "/api/v1/vendors/",
        {"name": "Inspur-like", "kind": "oem", "slurm_experience": True},
        format="json",
    )
    assert response.status_code == 201, response.json()
    again = api.post("/api/v1/vendors/", {"name": "Inspur-like"}, format="json")
    assert again.status_code == 400
    assert "name" in again.json()
    assert api.get("/api/v1/vendors/").json()["count"] == 1


def test_case_studies_nested_under_vendor(api_for, buyer, org, procurement):
    vendor = make_vendor(org)
    bid = make_bid(procurement, vendor)
    api = api_for(buyer)
    response = api.post(
        f"/api/v1/vendors/{vendor.pk}/case-studies/",
        {
            "client_industry": "Autonomous driving",
            "outcome_before": "14 days per epoch",
            "outcome_after": "5 days per epoch",
            "site_visit_done": True,
            "bids": [bid.pk],
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["bid_ids"] == [bid.pk]


def test_checklist_templates_default_created_on_first_use(api_for, buyer):
    body = api_for(buyer).get("/api/v1/checklist-templates/").json()
    assert body["count"] == 1
    sections = body["results"][0]["sections"]
    assert [s["code"] for s in sections] == [
        "architecture",
        "cost",
        "cases",
        "service",
        "pitfalls",
        "price",
        "team",
    ]
    assert sum(Decimal(s["weight"]) for s in sections) == 100
