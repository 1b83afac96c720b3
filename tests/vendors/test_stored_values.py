"""Stored values are never trusted (issue 10, item 2): a figure written past validation
(here with QuerySet.update, as a raw UPDATE or an old row would) shows as "invalid" on
its cell, and every page, API and export that reads it still answers 200 for everyone.
The check is the model fields' own validators (`Bid.checked`), money() refuses what is
no amount, and the comparison builds its cells from the checked values."""

from __future__ import annotations

import io
from decimal import Decimal

import openpyxl
import pytest
from django.db import connection
from django.urls import reverse
from django.utils import translation

from tests.vendors.test_support import line, make_bid, make_vendor
from vendors import comparison
from vendors.comparison import documents as exports
from vendors.models import Bid
from vendors.services import evaluation

# name -> (what is written past validation, the figure shown "invalid")
POISONS = {
    "power 1e308": ({"peak_power_kw": 1e308}, "peak_power_kw"),
    "power NaN": ({"peak_power_kw": float("nan")}, "peak_power_kw"),
    "storage infinite": ({"storage_tb": float("inf")}, "storage_tb"),
    "gpus beyond the bound": ({"gpu_count": 2**31 - 1}, "gpu_count"),
    "availability 1e308": ({"availability_pct": 1e308}, "availability_pct"),
    "hours not a number": ({"response_hours": {"sev1": "soon"}}, "response_hours"),
    "channels not a list": ({"support_channels": 5}, "support_channels"),
    "frameworks not a list": ({"frameworks": {"a": 1}}, "frameworks"),
}


def _nan_unit_price(bid, category: str) -> None:
    """PostgreSQL's numeric holds NaN (and NaN > 0 passes the check constraints);
    Django's DecimalField will not write one, so this is raw SQL."""
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE vendors_bidlineitem SET unit_price = 'NaN'"
            " WHERE bid_id = %s AND category = %s",
            [bid.pk, category],
        )


@pytest.fixture
def poisoned(procurement, org):
    """A sound bid beside the one that gets the bad value."""
    make_bid(procurement, make_vendor(org, "Sound Systems"))
    return make_bid(procurement, make_vendor(org, "Poisoned Ltd"))


def _pages(procurement, bid) -> list[str]:
    return [
        reverse("vendors:bids", args=[procurement.pk]),
        reverse("vendors:bid-detail", args=[procurement.pk, bid.pk]),
        reverse("vendors:comparison", args=[procurement.pk]),
        reverse("vendors:comparison-export", args=[procurement.pk, "xlsx"]),
    ]


def _apis(procurement, bid) -> list[str]:
    base = f"/api/v1/procurements/{procurement.pk}"
    return [f"{base}/comparison/", f"{base}/bids/", f"{base}/bids/{bid.pk}/"]


@pytest.mark.parametrize("poison", POISONS, ids=list(POISONS))
def test_a_bad_stored_figure_shows_invalid_and_every_page_answers(
    client_for, api_for, buyer, it_lead, procurement, poisoned, poison
):
    values, figure = POISONS[poison]
    Bid.objects.filter(pk=poisoned.pk).update(**values)
    for user in (buyer, it_lead):
        client, api = client_for(user), api_for(user)
        for url in _pages(procurement, poisoned):
            response = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
            assert response.status_code == 200, url
        for url in _apis(procurement, poisoned):
            assert api.get(url).status_code == 200, url
    api = api_for(buyer)
    entry = api.get(f"/api/v1/procurements/{procurement.pk}/comparison/").json()[1]
    assert figure in entry["invalid"]
    detail = api.get(f"/api/v1/procurements/{procurement.pk}/bids/{poisoned.pk}/")
    assert detail.json()[figure] is None
    assert figure in detail.json()["invalid_fields"]


def test_power_1e308_makes_the_tco_invalid_but_not_the_quote(
    client_for, api_for, buyer, procurement, poisoned
):
    Bid.objects.filter(pk=poisoned.pk).update(peak_power_kw=1e308)
    [sound, bad] = (
        api_for(buyer).get(f"/api/v1/procurements/{procurement.pk}/comparison/").json()
    )
    assert bad["invalid"] == ["normalized_tco", "peak_power_kw"]
    assert (bad["normalized_tco"], bad["hidden_costs"]) == (None, [])
    assert bad["quoted_total"] == sound["quoted_total"]
    assert bad["rank"] is not None
    html = (
        client_for(buyer)
        .get(
            reverse("vendors:comparison", args=[procurement.pk]),
            HTTP_ACCEPT_LANGUAGE="en",
        )
        .content.decode()
    )
    # normalised TCO, hidden costs, the TCO item by item
    assert html.count('class="num invalid"') == 3
    assert "invalid / " in html  # IT power in the compliance rows: offered / needed
    page = client_for(buyer).get(
        reverse("vendors:bid-detail", args=[procurement.pk, poisoned.pk]),
        HTTP_ACCEPT_LANGUAGE="en",
    )
    bid_html = page.content.decode()
    assert "<dd>invalid kW · Air</dd>" in bid_html  # the offer's facts
    assert '<td class="num">invalid </td>' in bid_html  # compliance: offered power


def test_a_bad_line_item_makes_the_totals_invalid_on_every_surface(
    client_for, api_for, buyer, procurement, poisoned
):
    _nan_unit_price(poisoned, "network")
    api = api_for(buyer)
    base = f"/api/v1/procurements/{procurement.pk}"
    entry = api.get(f"{base}/comparison/").json()[1]
    assert entry["invalid"] == ["normalized_tco", "quoted_total"]
    assert entry["quoted_total"] is None
    bid = api.get(f"{base}/bids/{poisoned.pk}/").json()
    assert bid["quoted_total"] is None
    assert bid["invalid_fields"] == ["line_items", "quoted_total"]
    network = next(li for li in bid["line_items"] if li["category"] == "network")
    assert network["unit_price"] is None
    client = client_for(buyer)
    for url in _pages(procurement, poisoned):
        response = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
        assert response.status_code == 200, url
        if not url.endswith(".xlsx"):
            assert "invalid" in response.content.decode(), url


def test_a_huge_total_within_the_columns_is_invalid_not_a_500(
    api_for, buyer, org, procurement
):
    # The columns hold 12 and 16 digits; their product does not fit money's 18.
    bid = make_bid(
        procurement,
        make_vendor(org),
        lines=[line("gpu_servers", "9999999999.99", "99999999999999.99")],
    )
    entry = api_for(buyer).get(f"/api/v1/procurements/{procurement.pk}/comparison/")
    assert entry.status_code == 200
    [column] = entry.json()
    assert column["quoted_total"] is None
    assert "quoted_total" in column["invalid"]
    detail = api_for(buyer).get(f"/api/v1/procurements/{procurement.pk}/bids/{bid.pk}/")
    assert detail.status_code == 200
    assert detail.json()["quoted_total"] is None


def test_the_exports_mark_the_invalid_cell(buyer, procurement, poisoned):
    Bid.objects.filter(pk=poisoned.pk).update(peak_power_kw=float("nan"))
    with translation.override("en"):
        result = comparison.build_comparison(procurement=procurement, user=buyer)
        workbook = exports.comparison_xlsx(result)
    sheet = openpyxl.load_workbook(io.BytesIO(workbook)).active
    rows = {row[0].value: [c.value for c in row[1:]] for row in sheet.iter_rows()}
    tco = rows[f"Normalised TCO ({procurement.currency})"]
    assert tco[1] == "invalid"
    assert isinstance(tco[0], int | float)  # the valid bid's figure, a number
    pdf = exports.comparison_pdf(result)
    assert pdf.startswith(b"%PDF-")


def test_the_sealed_envelope_hides_that_a_price_is_invalid(
    api_for, buyer, it_lead, procurement, poisoned
):
    evaluation.update_evaluation_settings(
        procurement=procurement, user=buyer, sealed_envelope=True
    )
    _nan_unit_price(poisoned, "gpu_servers")
    base = f"/api/v1/procurements/{procurement.pk}"
    entry = api_for(it_lead).get(f"{base}/comparison/").json()[1]
    assert entry["invalid"] == []
    bid = api_for(it_lead).get(f"{base}/bids/{poisoned.pk}/").json()
    assert bid["invalid_fields"] == []


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (Decimal("12.345"), Decimal("12.35")),
        (1234.5, Decimal("1234.50")),
        (Decimal("999999999999999999.99"), Decimal("999999999999999999.99")),
        (Decimal(10) ** 18, None),
        (1e308, None),
        (float("nan"), None),
        (float("inf"), None),
        (Decimal("NaN"), None),
        (Decimal("-Infinity"), None),
        ("not a number", None),
        (None, None),
    ],
)
def test_money_refuses_what_is_no_amount(value, expected):
    assert comparison.money(value) == expected
