"""Each bid against the procurement's budget ceiling on the comparison (page, API):
its quoted price and its normalised TCO, over budget marked (issue 22: the chosen bid's
41.7 M quote and 47.3 M TCO were compared with the 32 M budget nowhere)."""

from decimal import Decimal

import pytest
from django.urls import reverse

from tests.vendors.blind_support import QUOKKA_LINES, ZEBRA_LINES, _bid
from vendors.services import suppliers

# Quokka's lines are one-off: 3,141,592 + 1,414,213 + 2,718,281 + 161,803.
QUOKKA_QUOTED = Decimal("7435889.00")
CEILING = Decimal("7500000")


@pytest.fixture
def two_bids(procurement, buyer):
    org = procurement.organisation
    procurement.budget_max = CEILING
    procurement.save()
    zebra = _bid(
        procurement,
        suppliers.create_vendor(organisation=org, name="Zebracorp"),
        ZEBRA_LINES,
        "Zebracorp proposes a cluster.",
        buyer,
    )
    quokka = _bid(
        procurement,
        suppliers.create_vendor(organisation=org, name="Quokka Systems"),
        QUOKKA_LINES,
        "Quokka proposes a cluster.",
        buyer,
    )
    return zebra, quokka


def test_each_bid_is_held_against_the_budget_in_the_api(
    procurement, buyer, two_bids, api_for
):
    entries = {
        e["bid"]: e
        for e in api_for(buyer)
        .get(f"/api/v1/procurements/{procurement.pk}/comparison/")
        .json()
    }
    zebra, quokka = two_bids
    # Zebracorp: 7,777,777 + 111,111 + 122,222 one-off + 5 years x 55,555.
    zebra_quoted = Decimal("8011110") + procurement.horizon_years * Decimal("55555")
    assert Decimal(entries[zebra.pk]["quoted_total"]) == zebra_quoted
    zebra_budget = entries[zebra.pk]["budget"]
    assert zebra_budget["over_budget"] is True
    assert zebra_budget["quoted"]["over_budget"] is True
    assert Decimal(zebra_budget["quoted"]["variance"]) == zebra_quoted - CEILING
    assert zebra_budget["quoted"]["ceiling"] == "7500000.00"
    assert zebra_budget["quoted"]["currency"] == procurement.currency
    quokka_budget = entries[quokka.pk]["budget"]
    assert Decimal(entries[quokka.pk]["quoted_total"]) == QUOKKA_QUOTED
    assert quokka_budget["quoted"]["over_budget"] is False
    assert Decimal(quokka_budget["quoted"]["variance"]) == Decimal("-64111.00")
    assert quokka_budget["quoted"]["share_pct"] == "99.1"  # 7,435,889 / 7,500,000
    tco = Decimal(entries[quokka.pk]["normalized_tco"])
    assert Decimal(quokka_budget["tco"]["variance"]) == tco - CEILING
    # The normalised TCO adds energy, staff and the rest over the horizon: over.
    assert quokka_budget["tco"]["over_budget"] is (tco > CEILING) is True
    assert quokka_budget["over_budget"] is True


def test_the_comparison_page_marks_a_bid_over_budget(
    procurement, buyer, two_bids, client_for
):
    html = (
        client_for(buyer)
        .get(
            reverse("vendors:comparison", args=[procurement.pk]),
            HTTP_ACCEPT_LANGUAGE="en",
        )
        .content.decode()
    )
    assert "Against the budget (7,500,000 CNY)" in html
    assert html.count('class="num over-budget"') == 2
    assert "Quoted price: -64,111 (99.1 %)" in html


def test_no_budget_row_without_a_ceiling(procurement, buyer, two_bids, api_for):
    procurement.budget_max = None
    procurement.save()
    entries = (
        api_for(buyer).get(f"/api/v1/procurements/{procurement.pk}/comparison/").json()
    )
    assert [e["budget"] for e in entries] == [None, None]
