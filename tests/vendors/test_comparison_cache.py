"""The comparison page is served from the cache until something it reads changes, and
never hands one viewer variant's entry (names, prices) to another."""

from decimal import Decimal
from io import BytesIO

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from openpyxl import load_workbook

from tests.vendors.test_support import make_bid, make_vendor, three_bids
from vendors import comparison
from vendors.services import bids, caching, evaluation


@pytest.fixture(autouse=True)
def _shared_cache(settings):
    # One process here, so the local-memory cache is shared by every request.
    settings.COMPARISON_CACHE_ENABLED = True


def _get(client, procurement):
    response = client.get(reverse("vendors:comparison", args=[procurement.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_second_view_is_served_from_the_cache_with_fewer_queries(
    client_for, buyer, org, procurement
):
    three_bids(procurement, org)
    client = client_for(buyer)
    with CaptureQueriesContext(connection) as miss:
        first = _get(client, procurement)
    with CaptureQueriesContext(connection) as hit:
        second = _get(client, procurement)
    assert len(hit.captured_queries) < len(miss.captured_queries) - 5
    assert "Promise Corp" in first and "Promise Corp" in second


def test_a_bid_change_invalidates_the_cached_comparison(
    client_for, buyer, org, procurement
):
    bid = make_bid(procurement, make_vendor(org, "Old Name Ltd"))
    client = client_for(buyer)
    assert "Old Name Ltd" in _get(client, procurement)
    version = caching.comparison_version(procurement.pk)
    bids.add_line_item(
        bid=bid,
        user=buyer,
        category="storage",
        description="NVMe tier",
        quantity=Decimal(1),
        unit_price=Decimal("123456789"),
        recurring=False,
    )
    assert caching.comparison_version(procurement.pk) != version
    total = comparison.build_comparison(procurement=procurement, user=buyer)
    shown = f"{total.columns[0].quoted_total:,.0f}"  # includes the new 123,456,789
    assert int(shown.replace(",", "")) > 123_456_789
    assert shown in _get(client, procurement)
    bid.vendor.name = "New Name Ltd"
    bid.vendor.save()
    html = _get(client, procurement)
    assert "New Name Ltd" in html and "Old Name Ltd" not in html


def test_blind_grading_viewer_never_gets_names_from_the_cache(
    client_for, buyer, it_lead, org, procurement
):
    three_bids(procurement, org)
    evaluation.update_evaluation_settings(
        procurement=procurement, user=buyer, blind_grading=True
    )
    # The buyer (manages vendors) sees names and fills the cache first.
    assert "Promise Corp" in _get(client_for(buyer), procurement)
    blind = _get(client_for(it_lead), procurement)
    assert "Promise Corp" not in blind and "Balanced Systems" not in blind
    # And the other way round: the blind entry is not served to the buyer.
    assert "Promise Corp" in _get(client_for(buyer), procurement)


def test_sealed_envelope_evaluator_never_gets_prices_from_the_cache(
    client_for, buyer, it_lead, org, procurement
):
    three_bids(procurement, org)
    evaluation.update_evaluation_settings(
        procurement=procurement, user=buyer, sealed_envelope=True
    )
    _get(client_for(buyer), procurement)
    html = _get(client_for(it_lead), procurement)
    assert (
        "Prices are hidden" in html
        or "评分提交前价格不可见" in html
        or ('class="badge warn"' in html)
    )
    key_buyer = caching.cache_key(procurement, False, False)
    key_sealed = caching.cache_key(procurement, False, True)
    assert key_buyer != key_sealed
    from django.core.cache import cache

    sealed = cache.get(key_sealed)
    assert sealed is not None and sealed["result"].prices_hidden
    assert all(c.quoted_total is None for c in sealed["result"].columns)


def test_export_from_a_cached_entry_equals_the_fresh_one(
    client_for, buyer, org, procurement
):
    # The stored entry leaves out the table's groups (the page shows the rendered
    # grid); an export served from it draws them again, to the same workbook cells.
    three_bids(procurement, org)
    client = client_for(buyer)
    url = reverse("vendors:comparison-export", args=[procurement.pk, "xlsx"])

    def cells():
        response = client.get(url)
        assert response.status_code == 200
        book = load_workbook(BytesIO(response.content))
        rows = [[c.value for c in row] for ws in book for row in ws.iter_rows()]
        # the export's own clock: two renders a second apart differ only there
        return [row for row in rows if row[0] not in ("Exported at", "导出时间")]

    fresh = cells()  # nothing cached: built, groups in hand
    key = comparison.export_cache_key(procurement=procurement, user=buyer, fmt="xlsx")
    cache.delete(key)  # the comparison stays cached, the export does not
    again = cells()
    assert again == fresh
    assert any("Promise Corp" in str(v) for row in again for v in row)


def test_a_write_to_one_procurement_leaves_anothers_cached_comparison_alone(
    buyer, org, procurement
):
    """The stamp is per procurement (issue 23: any write anywhere invalidated every
    comparison): a line item on A changes A's stamp only; the catalogue, read by all,
    changes the global one."""
    from clusterbuy.models import Procurement
    from sizing.models import Accelerator

    other = Procurement.objects.create(organisation=org, name="B")
    bid = make_bid(procurement, make_vendor(org, "A Systems"))
    mine, theirs, shared = (
        caching.comparison_version(procurement.pk),
        caching.comparison_version(other.pk),
        caching.comparison_version(),
    )
    bids.add_line_item(
        bid=bid,
        user=buyer,
        category="network",
        description="Spine switch",
        quantity=Decimal(2),
        unit_price=Decimal("100000"),
        recurring=False,
    )
    assert caching.comparison_version(procurement.pk) != mine
    assert caching.comparison_version(other.pk) == theirs
    assert caching.comparison_version() == shared
    line = bid.line_items.first()
    line.quantity = Decimal(3)
    line.save()  # a signal, two foreign keys from its procurement
    assert caching.comparison_version(other.pk) == theirs
    accelerator = Accelerator.objects.first()
    if accelerator is not None:
        accelerator.save()
        assert caching.comparison_version() != shared


def test_a_sealed_submission_changes_no_stamp(procurement, org):
    """The comparison does not read sealed submissions: a vendor's upload before the
    opening must not change the buyer's comparison (or its export)."""
    from datetime import timedelta

    from django.utils import timezone

    from tests.vendors.rfp_support import submit
    from vendors.models import Invitation, RfpSettings, Vendor

    deadline = timezone.now() + timedelta(days=1)
    RfpSettings.objects.create(procurement=procurement, deadline=deadline)
    invitation = Invitation.objects.create(
        procurement=procurement,
        vendor=Vendor.objects.create(organisation=org, name="Sealed Ltd"),
        email="bids@sealed.example",
        expires_at=deadline + timedelta(days=30),
    )
    mine, shared = (
        caching.comparison_version(procurement.pk),
        caching.comparison_version(),
    )
    submit(invitation, version=1, text="Our offer.", gpu_count=32, price="1000000",
           at=timezone.now(), workbook=True)  # fmt: skip
    assert caching.comparison_version(procurement.pk) == mine
    assert caching.comparison_version() == shared
