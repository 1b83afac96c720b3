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
from vendors import comparison, exports

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
