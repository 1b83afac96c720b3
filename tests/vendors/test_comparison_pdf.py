"""The comparison PDF of the demo procurement: the currency and the export date in its
header, money with thousands separators beside the currency, and no page left with a
few stray lines (the chart and the notes are kept together on the last page)."""

import subprocess

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from clusterbuy.models import Procurement
from vendors import comparison
from vendors.comparison import documents as exports

# Before the page-break rules the English PDF ended on a page of 6 lines (the last
# notes); a full landscape page of the table holds about 35.
MIN_LINES_PER_PAGE = 15


@pytest.fixture
def demo(db):
    call_command("load_demo", stdout=open("/dev/null", "w"))
    procurement = Procurement.objects.get(name__startswith="大模型训练")
    buyer = get_user_model().objects.get(username="demo-buyer")
    return procurement, buyer


def _pages(data: bytes) -> list[str]:
    text = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=data, check=True, capture_output=True
    ).stdout.decode()
    return [page for page in text.split("\f") if page.strip()]


def _lines(page: str) -> int:
    return sum(1 for line in page.splitlines() if line.strip())


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_pdf_states_currency_and_date_and_ends_on_a_full_page(demo, language):
    procurement, buyer = demo
    with translation.override(language):
        result = comparison.build_comparison(procurement=procurement, user=buyer)
        pages = _pages(exports.comparison_pdf(result))
        header = " ".join(pages[0].split())
        assert f"{_('Currency')}: {procurement.currency}" in header
        today = formats.date_format(timezone.localtime(), "DATE_FORMAT")
        assert f"{_('Exported at')}: {today}" in header
        assert f"{_('Quoted price')} ({procurement.currency})" in header
    for column in result.columns:
        # the quoted total as the page shows it: "41,770,000"
        assert f"{column.quoted_total:,.0f}" in pages[0]
    assert 2 <= len(pages) <= 7
    assert [n for n in map(_lines, pages) if n < MIN_LINES_PER_PAGE] == []
    assert _lines(pages[-1]) >= MIN_LINES_PER_PAGE


def test_the_ranking_summary_lists_each_bid_in_rank_order_with_its_figures(demo):
    from vendors.comparison.summary import ranking_summary

    procurement, buyer = demo
    with translation.override("en"):
        result = comparison.build_comparison(procurement=procurement, user=buyer)
        summary = ranking_summary(result, comparison.comparison_groups(result))
    assert [c.label for c in summary.columns] == [
        "Rank",
        "Bid",
        "Weighted total (0–100)",
        "Quoted price",
        "Normalised TCO",
        "Compute vs plan",
        "Compliance with the sizing plan",
        "Pitfall flags",
    ]
    ranked = sorted(
        result.columns, key=lambda c: (c.rank is None, c.rank or 0, c.bid.pk)
    )
    assert [line[1].text for line in summary.lines] == [c.label for c in ranked]
    for line, column in zip(summary.lines, ranked, strict=True):
        texts = [cell.text for cell in line]
        assert texts[3] == f"{column.quoted_total:,.0f}"
        assert texts[4] == f"{column.normalized_tco:,.0f}"
        delivered = column.delivered
        share = delivered["compute_pflops"] / delivered["plan"]["compute_pflops"]
        assert texts[5] == f"{share:.0%}"
        statuses = {str(i.status) for i in column.compliance}
        worst = next(s for s in ("fail", "warn", "pass") if s in statuses)
        passed = sum(1 for i in column.compliance if i.status == "pass")
        with translation.override("en"):
            label = comparison.status_label(worst)
        assert texts[6] == f"{label} ({passed}/{len(column.compliance)})"
        assert line[6].css == f"status-{worst}"
        assert texts[7] == str(len(column.pitfalls))
