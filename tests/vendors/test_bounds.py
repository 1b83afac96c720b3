"""A bid's figures are bounded at the edge (issue 10, item 2): a number outside its
field's physical range, or beyond PostgreSQL's integer, is a 400 naming the field (a
form error in the UI), never a 500 and never stored. The bounds live on the model
fields (vendors.models.bid_bounds); the serializer and the form derive from them."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clusterbuy.bounds import LONG_TEXT_MAX_CHARS, stored_value_is_valid
from clusterbuy.engine.limits import MAX_GPU_COUNT
from clusterbuy.services import ServiceError
from tests.vendors.test_support import BALANCED_TEXT, make_bid, make_vendor
from vendors.api.bid_serializers import BidInputSerializer
from vendors.models import Bid, CaseStudy, ChecklistCriterion, Decision, Score
from vendors.models.bid_bounds import (
    PEAK_POWER_KW_MAX,
    PROPOSAL_TEXT_MAX_CHARS,
    STORAGE_TB_MAX,
)
from vendors.services import bids, evaluation


@pytest.fixture
def bid(procurement, org):
    return make_bid(procurement, make_vendor(org))


def _patch(api, bid, body):
    return api.patch(
        f"/api/v1/procurements/{bid.procurement_id}/bids/{bid.pk}/", body, format="json"
    )


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("peak_power_kw", 1e308),
        ("peak_power_kw", PEAK_POWER_KW_MAX + 1),
        ("peak_power_kw", -1),
        ("gpu_count", 2**40),
        ("gpu_count", 1e30),
        ("gpu_count", MAX_GPU_COUNT + 1),
        ("nodes", 2**63),
        ("scaleup_domain_gpus", 2**40),
        ("network_gbps_per_gpu", 1e30),
        ("storage_tb", 1e308),
        ("storage_tb", STORAGE_TB_MAX + 1),
        ("storage_read_gbs", 1e308),
        ("storage_write_gbs", 1e308),
        ("delivery_weeks", 2**40),
        ("warranty_years", "1e30"),
        ("onsite_hours", 1e308),
        ("availability_pct", 100.5),
        ("team_engineers", 1e30),
        ("promised_training_days", 1e308),
        ("peak_power_kw", "NaN"),
        ("storage_tb", "Infinity"),
    ],
)
def test_an_out_of_range_figure_is_a_400_naming_it(api_for, buyer, bid, field, value):
    before = Bid.objects.values().get(pk=bid.pk)
    response = _patch(api_for(buyer), bid, {field: value})
    assert response.status_code == 400, response.content
    assert list(response.json()) == [field]
    assert Bid.objects.values().get(pk=bid.pk) == before


def test_a_figure_at_its_bound_is_accepted(api_for, buyer, bid):
    body = {
        "peak_power_kw": PEAK_POWER_KW_MAX,
        "gpu_count": MAX_GPU_COUNT,
        "storage_tb": STORAGE_TB_MAX,
        "availability_pct": 100,
    }
    response = _patch(api_for(buyer), bid, body)
    assert response.status_code == 200, response.content
    bid.refresh_from_db()
    assert (bid.peak_power_kw, bid.gpu_count, bid.storage_tb) == (
        PEAK_POWER_KW_MAX,
        MAX_GPU_COUNT,
        STORAGE_TB_MAX,
    )


@pytest.mark.parametrize(
    "body",
    [
        {"response_hours": {"sev1": 1e308}},
        {"frameworks": ["PyTorch"] * 51},
        {"frameworks": ["x" * 101]},
        {"support_channels": ["telepathy"]},
    ],
)
def test_lists_and_hours_are_bounded_too(api_for, buyer, bid, body):
    response = _patch(api_for(buyer), bid, body)
    assert response.status_code == 400
    assert list(response.json()) == list(body)


@pytest.mark.parametrize(
    ("item", "field"),
    [
        ({"unit_price": "1e20"}, "unit_price"),
        ({"unit_price": "1.001"}, "unit_price"),
        ({"quantity": "1e12"}, "quantity"),
    ],
)
def test_a_line_item_beyond_its_column_is_a_400(api_for, buyer, bid, item, field):
    line = {"category": "other", "description": "x", "quantity": "1"}
    line |= {"unit_price": "1", **item}
    response = _patch(api_for(buyer), bid, {"line_items": [line]})
    assert response.status_code == 400
    assert field in str(response.json()["line_items"])
    assert bid.line_items.count() == 8  # the balanced bid's lines, untouched


def test_the_serializer_takes_its_bounds_from_the_model_field():
    fields = BidInputSerializer().fields
    assert fields["peak_power_kw"].max_value == PEAK_POWER_KW_MAX
    assert fields["gpu_count"].max_value == MAX_GPU_COUNT
    assert fields["gpu_count"].min_value == 1
    assert fields["proposal_text"].max_length == PROPOSAL_TEXT_MAX_CHARS


def test_the_schema_states_the_bounds(api_for, buyer):
    schema = api_for(buyer).get("/api/v1/schema/?format=json").json()
    body = schema["components"]["schemas"]["PatchedBidInputRequest"]["properties"]
    assert body["peak_power_kw"]["maximum"] == PEAK_POWER_KW_MAX
    assert body["gpu_count"]["maximum"] == MAX_GPU_COUNT
    assert body["proposal_text"]["maxLength"] == PROPOSAL_TEXT_MAX_CHARS


@pytest.mark.parametrize("value", [float("nan"), float("inf"), 1e308, -1.0])
def test_a_stored_figure_outside_its_field_is_not_valid(value):
    power = Bid._meta.get_field("peak_power_kw")
    assert stored_value_is_valid(power, None)
    assert stored_value_is_valid(power, PEAK_POWER_KW_MAX)
    assert not stored_value_is_valid(power, value)


def test_the_service_refuses_a_figure_out_of_bounds_whoever_calls_it(bid):
    with pytest.raises(ServiceError) as refused:
        bids.update_bid(bid=bid, peak_power_kw=1e308)
    assert refused.value.field == "peak_power_kw"
    bid.refresh_from_db()
    assert bid.peak_power_kw == 81.6


# --- proposal text ----------------------------------------------------------------


def test_a_proposal_at_the_limit_is_accepted(api_for, buyer, bid):
    text = "x" * PROPOSAL_TEXT_MAX_CHARS
    assert _patch(api_for(buyer), bid, {"proposal_text": text}).status_code == 200
    bid.refresh_from_db()
    assert len(bid.proposal_text) == PROPOSAL_TEXT_MAX_CHARS


def test_a_proposal_over_the_limit_is_a_400_naming_it(api_for, buyer, bid):
    text = "x" * (PROPOSAL_TEXT_MAX_CHARS + 1)
    response = _patch(api_for(buyer), bid, {"proposal_text": text})
    assert response.status_code == 400
    assert list(response.json()) == ["proposal_text"]
    bid.refresh_from_db()
    assert bid.proposal_text == BALANCED_TEXT


def test_a_10_mb_proposal_is_refused_with_400(api_for, buyer, org, procurement):
    vendor = make_vendor(org, "Verbose Ltd")
    body = {
        "vendor": vendor.pk,
        "accelerator": "h100-sxm-80gb",
        "gpu_count": 8,
        "scheduler": "slurm",
        "proposal_text": "x" * (10 * 1024 * 1024),
    }
    response = api_for(buyer).post(
        f"/api/v1/procurements/{procurement.pk}/bids/", body, format="json"
    )
    assert response.status_code == 400
    assert not Bid.objects.filter(vendor=vendor).exists()


def _form_body(vendor, **values) -> dict:
    return {
        "vendor": vendor.pk,
        "accelerator": "h100-sxm-80gb",
        "gpu_count": 8,
        "scheduler": "slurm",
        **values,
    }


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("proposal_text", "x" * (PROPOSAL_TEXT_MAX_CHARS + 1)),
        ("peak_power_kw", "1e308"),
        ("gpu_count", str(2**40)),
        ("sev1_hours", "1e308"),
    ],
)
def test_the_bid_form_shows_a_field_error(
    client_for, buyer, org, procurement, field, value
):
    vendor = make_vendor(org, "Form Ltd")
    response = client_for(buyer).post(
        reverse("vendors:bid-create", args=[procurement.pk]),
        _form_body(vendor, **{field: value}),
    )
    assert response.status_code == 200
    assert response.context["form"].errors[field]
    assert not Bid.objects.filter(vendor=vendor).exists()


def test_the_bid_form_names_a_framework_list_too_long(
    client_for, buyer, org, procurement
):
    vendor = make_vendor(org, "Form Ltd")
    response = client_for(buyer).post(
        reverse("vendors:bid-create", args=[procurement.pk]),
        _form_body(vendor, frameworks=", ".join(["x"] * 51)),
    )
    assert response.status_code == 200
    assert response.context["form"].errors["frameworks"]
    assert not Bid.objects.filter(vendor=vendor).exists()


# --- other free text: at most LONG_TEXT_MAX_CHARS ---------------------------------


def test_long_free_texts_are_a_400_naming_the_field(
    api_for, buyer, it_lead, manager, org, procurement, bid
):
    too_long = "x" * (LONG_TEXT_MAX_CHARS + 1)
    vendor = bid.vendor
    base = f"/api/v1/procurements/{procurement.pk}"
    cases = [
        (buyer, "patch", f"/api/v1/vendors/{vendor.pk}/", {"notes": too_long}, "notes"),
        (
            buyer,
            "post",
            f"/api/v1/vendors/{vendor.pk}/case-studies/",
            {"client_industry": "AI lab", "challenge": too_long},
            "challenge",
        ),
        (
            it_lead,
            "post",
            f"{base}/bids/{bid.pk}/scores/",
            {"criterion": "arch_scenario", "points": 4, "note": too_long},
            "note",
        ),
        (
            manager,
            "put",
            f"{base}/decision/",
            {"bid": bid.pk, "rationale": too_long},
            "rationale",
        ),
    ]
    for user, method, url, body, field in cases:
        response = getattr(api_for(user), method)(url, body, format="json")
        assert response.status_code == 400, url
        assert list(response.json()) == [field], url
    assert not CaseStudy.objects.exists()
    assert not Score.objects.exists()
    assert not Decision.objects.exists()
    vendor.refresh_from_db()
    assert vendor.notes == ""


def test_the_score_form_refuses_a_note_too_long(client_for, it_lead, procurement, bid):
    criterion = ChecklistCriterion.objects.get(
        section__template=evaluation.evaluation_settings_for(
            procurement=procurement
        ).template,
        code="arch_scenario",
    )
    response = client_for(it_lead).post(
        reverse("vendors:score", args=[procurement.pk, bid.pk]),
        {
            f"points_{criterion.pk}": "4",
            f"note_{criterion.pk}": "x" * (LONG_TEXT_MAX_CHARS + 1),
        },
        HTTP_ACCEPT_LANGUAGE="en",
    )
    # The form is shown again with the error (and the posted values), nothing saved.
    assert response.status_code == 400
    assert "An evidence note is at most" in response.content.decode()
    assert not Score.objects.exists()
