"""Tried weights re-rank the cached comparison (no rebuild, no engine call), exports
read the same cached entry, and the queries do not grow with the number of bids."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.vendors.test_support import line, make_bid, make_vendor
from vendors import comparison
from vendors.comparison import cache as comparison_cache
from vendors.comparison import checks, pricing
from vendors.models import ChecklistCriterion
from vendors.services import caching, evaluation, plan_facts


@pytest.fixture(autouse=True)
def _shared_cache(settings):
    # One process here, so the local-memory cache is shared by every request.
    settings.COMPARISON_CACHE_ENABLED = True


def _criteria(procurement):
    row = evaluation.evaluation_settings_for(procurement=procurement)
    return list(
        ChecklistCriterion.objects.filter(
            section__template_id=row.template_id, section__auto_price=False
        )
        .select_related("section")
        .order_by("id")
    )


def _score(bid, user, criteria, points_by_section, default=3):
    evaluation.record_scores(
        bid=bid,
        automatic={},  # marks as given: no automatic score to hold them against
        evaluator=user,
        scores=[
            evaluation.ScoreMark(c.pk, points_by_section.get(c.section.code, default))
            for c in criteria
        ],
    )


def _add_bids(procurement, org, user, count, start=0):
    """``count`` bids, each priced a little higher and marked a little differently."""
    criteria = None
    for n in range(start, start + count):
        bid = make_bid(
            procurement,
            make_vendor(org, f"Vendor {n:02d}"),
            lines=[
                line("gpu_servers", 8, 2_000_000 + 10_000 * n),
                line("network", 1, 1_200_000),
                line("support", 1, 300_000, recurring=True),
            ],
            proposal_text=f"Proposal {n}: " + "distinct wording " * (n % 4 + 1),
            promised_training_days=30 + n,
        )
        criteria = criteria or _criteria(procurement)
        _score(bid, user, criteria, {"service": n % 6, "architecture": 5 - n % 6})


def _context_queries(procurement, user) -> int:
    caching.bump_comparison_version()  # a cache miss: the whole build
    with CaptureQueriesContext(connection) as ctx:
        context = comparison.comparison_context(procurement=procurement, user=user)
        comparison.comparison_json(context["result"])
    return len(ctx.captured_queries)


def test_build_queries_are_the_same_for_5_and_50_bids(org, procurement, buyer, it_lead):
    _add_bids(procurement, org, it_lead, 5)
    five = _context_queries(procurement, buyer)
    _add_bids(procurement, org, it_lead, 45, start=5)
    fifty = _context_queries(procurement, buyer)
    assert (
        len(comparison.build_comparison(procurement=procurement, user=buyer).columns)
        == 50
    )
    assert five == fifty


def _refuse(*args, **kwargs):
    raise AssertionError("a weight change or an export must not build the comparison")


def _refuse_builds(patch):
    """Every way the comparison reaches the sizing or TCO engine, or builds itself."""
    for target, name in (
        (comparison_cache, "build_comparison"),
        (pricing, "normalise_bid_tco"),
        (plan_facts, "plan_summary"),
        (plan_facts, "training_lower_bound_days"),
        (checks, "pitfalls_for"),
    ):
        patch.setattr(target, name, _refuse)


def _reweight(client, procurement, weights: dict):
    with CaptureQueriesContext(connection) as ctx:
        response = client.post(
            reverse("vendors:comparison-weights", args=[procurement.pk]),
            {f"w_{code}": value for code, value in weights.items()},
            HTTP_HX_REQUEST="true",
        )
    assert response.status_code == 200
    return response.content.decode(), len(ctx.captured_queries)


def test_a_weight_change_builds_nothing_and_its_queries_do_not_grow(
    client_for, org, procurement, buyer, it_lead
):
    client = client_for(buyer)
    page = reverse("vendors:comparison", args=[procurement.pk])
    counts = []
    for start, count in ((0, 5), (5, 45)):
        _add_bids(procurement, org, it_lead, count, start=start)
        assert client.get(page).status_code == 200  # builds and caches
        with pytest.MonkeyPatch.context() as patch:
            _refuse_builds(patch)
            html, queries = _reweight(client, procurement, {"service": 90})
        counts.append(queries)
        assert 'name="w_service"' in html and 'value="90.0"' in html
    # The session, the user, the procurement and its evaluation settings; nothing
    # per bid, nothing of the build.
    assert counts[0] == counts[1] <= 8


def _same(tried, rebuilt):
    assert tried.sections == rebuilt.sections
    assert tried.columns == rebuilt.columns  # every figure, rank and exclusion
    assert [c.rank for c in tried.columns] == [c.rank for c in rebuilt.columns]


@pytest.mark.parametrize(
    "weights",
    [
        {"service": 90},
        {"architecture": 80, "price": 0},
        {"price": 60, "service": 0, "team": 0},
    ],
)
def test_reweighting_the_cached_comparison_equals_a_rebuild(
    weights, org, procurement, buyer, it_lead
):
    _add_bids(procurement, org, it_lead, 6)
    built = comparison.comparison_context(procurement=procurement, user=buyer)
    tried = comparison.reweighted(built["result"], weights)
    rebuilt = comparison.build_comparison(
        procurement=procurement, user=buyer, weights=weights
    )
    _same(tried, rebuilt)
    # The totals moved (the weights matter); the cached entry is left as it was.
    default = comparison.build_comparison(procurement=procurement, user=buyer)
    totals = [c.weighted_total for c in tried.columns]
    assert totals != [c.weighted_total for c in default.columns]
    assert built["result"].columns == default.columns


def test_the_reweighted_table_is_the_table_a_rebuild_draws(
    org, procurement, buyer, it_lead
):
    """The weight-free groups are reused as rendered when the weights change: the
    table shown must still be, character for character, the one a comparison built
    under those weights draws (and differ from the default one: the weights matter)."""
    _add_bids(procurement, org, it_lead, 6)
    weights = {"price": 60, "service": 0, "team": 0}
    built = comparison.comparison_context(procurement=procurement, user=buyer)
    assert len(built["fixed_bodies"]) == 8  # price ... spec claims
    tried = comparison.reweighted_context(built, weights)["grid_html"]
    rebuilt = comparison.build_comparison(
        procurement=procurement, user=buyer, weights=weights
    )
    expected = comparison.grid_html(
        {"result": rebuilt}, comparison.comparison_groups(rebuilt)
    )
    assert tried == expected
    assert tried != built["grid_html"]
    assert tried.count("<tbody>") == 10


def test_reweighting_under_a_sealed_envelope_equals_a_rebuild(
    org, procurement, buyer, it_lead
):
    _add_bids(procurement, org, it_lead, 6)
    evaluation.update_evaluation_settings(
        procurement=procurement,
        user=buyer,
        sealed_envelope=True,
        technical_threshold=55,
    )
    weights = {"service": 80, "price": 40}
    for user in (buyer, it_lead):  # prices shown to the buyer, hidden from the lead
        built = comparison.comparison_context(procurement=procurement, user=user)
        tried = comparison.reweighted(built["result"], weights)
        rebuilt = comparison.build_comparison(
            procurement=procurement, user=user, weights=weights
        )
        _same(tried, rebuilt)
    assert tried.prices_hidden and all(c.price_100 is None for c in tried.columns)
    shown = comparison.reweighted(
        comparison.comparison_context(procurement=procurement, user=buyer)["result"],
        weights,
    )
    assert any(c.excluded for c in shown.columns)
    assert any(c.price_100 is not None for c in shown.columns)


def test_a_bad_weight_is_refused_like_the_rebuild_refused_it(
    client_for, org, procurement, buyer, it_lead
):
    _add_bids(procurement, org, it_lead, 2)
    html, _ = _reweight(client_for(buyer), procurement, {"service": 5000})
    assert 'role="alert"' in html
    html, _ = _reweight(
        client_for(buyer),
        procurement,
        {code: 0 for code in _section_codes(procurement)},
    )
    assert 'role="alert"' in html


def _section_codes(procurement):
    row = evaluation.evaluation_settings_for(procurement=procurement)
    return [s.code for s in evaluation.checklist_sections(row)]


def _export(client, procurement, fmt, magic):
    response = client.get(
        reverse("vendors:comparison-export", args=[procurement.pk, fmt])
    )
    assert response.status_code == 200
    assert response.content.startswith(magic)
    return response.content


def test_exports_read_the_cached_comparison_and_are_kept_beside_it(
    client_for, monkeypatch, org, procurement, buyer, it_lead
):
    from vendors.comparison import documents as exports

    _add_bids(procurement, org, it_lead, 3)
    client = client_for(buyer)
    client.get(reverse("vendors:comparison", args=[procurement.pk]))
    _refuse_builds(monkeypatch)
    first = {
        fmt: _export(client, procurement, fmt, magic)
        for fmt, magic in (("xlsx", b"PK"), ("pdf", b"%PDF"))
    }
    # Again: the same bytes, not drawn again.
    monkeypatch.setattr(exports, "comparison_xlsx", _refuse)
    monkeypatch.setattr(exports, "comparison_pdf", _refuse)
    assert _export(client, procurement, "xlsx", b"PK") == first["xlsx"]
    assert _export(client, procurement, "pdf", b"%PDF") == first["pdf"]


def test_a_blind_viewer_never_gets_an_export_kept_for_another_variant(
    client_for, org, procurement, buyer, it_lead
):
    import io

    import pypdf

    _add_bids(procurement, org, it_lead, 2)
    evaluation.update_evaluation_settings(
        procurement=procurement, user=buyer, blind_grading=True
    )

    def text(user):
        pdf = _export(client_for(user), procurement, "pdf", b"%PDF")
        return "".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages)

    assert "Vendor 01" in text(buyer)  # the buyer may see names, exports first
    assert "Vendor 01" not in text(it_lead)
    assert "Vendor 01" in text(buyer)


def _pdf_text(result) -> str:
    import io

    import pypdf
    from django.utils import translation

    from vendors.comparison import documents as exports

    with translation.override("en"):
        pdf = exports.comparison_pdf(result)
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    return "\n".join(page.extract_text() for page in reader.pages)


def test_the_pdf_prints_the_whole_table_up_to_ten_bids_then_a_ranking_summary(
    org, procurement, buyer, it_lead
):
    from django.utils import translation

    from vendors.comparison import documents as exports

    assert exports.PDF_BIDS_PER_TABLE == 10
    _add_bids(procurement, org, it_lead, 2)
    two = comparison.build_comparison(procurement=procurement, user=buyer)
    text = _pdf_text(two)
    # No sizing plan: every compliance item is a warning with its note under it.
    with translation.override("en"):
        note = two.columns[0].compliance_list[0]["note"]
    assert note and note[:20] in text
    assert "XLSX export" not in text
    _add_bids(procurement, org, it_lead, 9, start=2)
    eleven = comparison.build_comparison(procurement=procurement, user=buyer)
    text = _pdf_text(eleven)
    assert "More than 10 bids: this PDF holds the ranking" in text
    assert "is in the XLSX export" in text
    # The summary's header only: the full table's rows are left to the workbook.
    assert text.count("Quoted price") == 1
    assert "Response time, severity 1" not in text
    assert note[:20] not in text
    # One line per bid, in rank order: rank 1's bid before rank 11's.
    first = next(c for c in eleven.columns if c.rank == 1)
    last = next(c for c in eleven.columns if c.rank == 11)
    assert text.index(first.label) < text.index(last.label)
    line = next(row for row in text.splitlines() if row.startswith(f"1 {first.label}"))
    assert f"{first.quoted_total:,.0f}" in line
    assert f"{first.normalized_tco:,.0f}" in line
    # Then the checklist scores of all eleven bids in one table (20 bids a table).
    assert "Checklist scores (0–5)" in text
    assert text.count(f"{eleven.sections[0].title} (×") == 1
    assert "Vendor 00" in text and "Vendor 10" in text


def test_a_large_comparison_pdf_keeps_blind_labels_and_sealed_prices(
    org, procurement, buyer, it_lead
):
    _add_bids(procurement, org, it_lead, 11)
    evaluation.update_evaluation_settings(
        procurement=procurement, user=buyer, blind_grading=True, sealed_envelope=True
    )
    shown = comparison.build_comparison(procurement=procurement, user=buyer)
    hidden = comparison.build_comparison(procurement=procurement, user=it_lead)
    assert hidden.blind and hidden.prices_hidden
    text = _pdf_text(hidden)
    # Blind: "Vendor n" labels (by bid id), never the vendors' names.
    assert "Vendor 00" not in text and "Vendor 10" not in text
    assert all(c.label in text for c in hidden.columns)
    # Sealed: no price of any bid, quoted or normalised.
    for column in shown.columns:
        assert f"{column.quoted_total:,.0f}" not in text
        assert f"{column.normalized_tco:,.0f}" not in text
    assert f"{shown.columns[0].quoted_total:,.0f}" in _pdf_text(shown)
