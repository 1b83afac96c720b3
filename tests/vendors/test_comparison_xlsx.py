"""The comparison workbook round-trips: read back with openpyxl, every figure of the demo
procurement is a number equal to the one the comparison API returns (the figures the
page shows), money formatted in the procurement's currency, in Chinese and in English."""

import datetime
import io
import re
from decimal import Decimal

import openpyxl
import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import translation
from django.utils.translation import gettext as _

from clusterbuy.models import Procurement
from vendors import comparison
from vendors.comparison import documents as exports

# A text cell that only holds a figure: what the old export wrote ("44,780,000").
FIGURE_AS_TEXT = re.compile(r"^[\d,.\s%/]+$")


@pytest.fixture
def demo(db):
    call_command("load_demo", stdout=open("/dev/null", "w"))
    procurement = Procurement.objects.get(name__startswith="大模型训练")
    buyer = get_user_model().objects.get(username="demo-buyer")
    return procurement, buyer


def _close(a, b, places: int = 4) -> bool:
    """The API rounds scores and engine figures to 4 places; the sheet keeps them all."""
    return abs(Decimal(str(a)) - Decimal(str(b))) <= Decimal(10) ** -places / 2


def _export(procurement, buyer, language: str):
    with translation.override(language):
        result = comparison.build_comparison(procurement=procurement, user=buyer)
        workbook = openpyxl.load_workbook(io.BytesIO(exports.comparison_xlsx(result)))
        labels = {
            "quoted": f"{_('Quoted price')} ({procurement.currency})",
            "tco": f"{_('Normalised TCO')} ({procurement.currency})",
            "hidden": f"{_('Hidden costs added by ClusterBuy')} ({procurement.currency})",
            "items": f"{_('Normalised TCO, item by item')} ({procurement.currency})",
            "total": _("Weighted total (0–100)"),
            "availability": _("Availability (%)"),
            "sheets": [_("Comparison"), _("TCO breakdown"), _("About this export")],
            "sections": {s.code: f"{s.title} (×{s.weight:g})" for s in result.sections},
            "workloads": [
                (_("Training time: %(workload)s (days)"), "training_days", "#,##0.0")
                if w["kind"] in ("training", "fine_tuning")
                else (
                    _("Serving capacity: %(workload)s (tokens/s)"),
                    "tokens_per_second",
                    "#,##0",
                )
                for w in result.columns[0].delivered["workloads"]
            ],
        }
    return result, workbook, labels


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_every_figure_reads_back_as_the_number_the_api_shows(demo, api_for, language):
    procurement, buyer = demo
    entries = (
        api_for(buyer)
        .get(
            f"/api/v1/procurements/{procurement.pk}/comparison/",
            HTTP_ACCEPT_LANGUAGE=language,
        )
        .json()
    )
    by_bid = {e["bid"]: e for e in entries}
    result, workbook, labels = _export(procurement, buyer, language)
    assert workbook.sheetnames == labels["sheets"]
    sheet = workbook.worksheets[0]
    assert sheet.freeze_panes == "B2"
    rows = {row[0].value: row[1:] for row in sheet.iter_rows(min_row=2)}
    money = f'"{procurement.currency}" #,##0'
    checked = 0
    for index, column in enumerate(result.columns):
        entry = by_bid[column.bid.pk]
        assert sheet.cell(row=1, column=index + 2).value == column.label
        for key, figure in (("quoted", "quoted_total"), ("tco", "normalized_tco")):
            cell = rows[labels[key]][index]
            assert isinstance(cell.value, int | float), (key, cell.value)
            assert Decimal(str(cell.value)) == Decimal(entry[figure])
            assert cell.number_format == money
            checked += 1
        hidden = sum((Decimal(h["amount"]) for h in entry["hidden_costs"]), Decimal(0))
        assert Decimal(str(rows[labels["hidden"]][index].value)) == hidden
        items = sum((Decimal(i["amount"]) for i in entry["tco_breakdown"]), Decimal(0))
        assert Decimal(str(rows[labels["items"]][index].value)) == items
        for code, label in labels["sections"].items():
            assert _close(rows[label][index].value, entry["scores"][code])
            checked += 1
        assert _close(
            rows[labels["total"]][index].value, entry["scores"]["weighted_total"]
        )
        assert rows[labels["total"]][index].number_format == "0.0"
        for (label, key, number_format), workload in zip(
            labels["workloads"], entry["delivered"]["workloads"], strict=True
        ):
            cell = rows[label % {"workload": workload["name"]}][index]
            if key == "tokens_per_second" and not workload["meets_latency"]:
                assert cell.value == "—"  # the page shows no capacity either
                continue
            assert _close(cell.value, workload[key])
            assert cell.number_format == number_format
            checked += 1
        availability = rows[labels["availability"]][index]
        if column.bid.checked("availability_pct") is not None:
            # stored as a share, shown as a percentage (99.95 -> 0.9995 as 99.95%)
            assert Decimal(str(availability.value)) * 100 == Decimal(
                str(column.bid.availability_pct)
            )
            assert availability.number_format == "0.00%"
    assert checked >= 3 * len(result.columns)
    # no figure is left as text: text cells are names, notes, "invalid" or "—"
    figures_as_text = [
        c.value
        for row in sheet.iter_rows(min_row=2, min_col=2)
        for c in row
        if isinstance(c.value, str) and FIGURE_AS_TEXT.match(c.value)
    ]
    assert figures_as_text == []
    numbers = [
        c
        for row in sheet.iter_rows(min_row=2, min_col=2)
        for c in row
        if isinstance(c.value, int | float)
    ]
    assert len(numbers) > 20 * len(result.columns)


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_breakdown_and_about_sheets_hold_numbers_and_a_date(
    demo, api_for, language
):
    procurement, buyer = demo
    entries = (
        api_for(buyer)
        .get(
            f"/api/v1/procurements/{procurement.pk}/comparison/",
            HTTP_ACCEPT_LANGUAGE=language,
        )
        .json()
    )
    result, workbook, _labels = _export(procurement, buyer, language)
    breakdown, about = workbook.worksheets[1], workbook.worksheets[2]
    assert procurement.currency in breakdown.cell(row=1, column=3).value
    rows = list(breakdown.iter_rows(min_row=2))
    for column, entry in zip(result.columns, entries, strict=True):
        mine = [r for r in rows if r[0].value == column.label]
        amounts = [Decimal(str(r[2].value)) for r in mine[:-1]]
        assert amounts == [Decimal(i["amount"]) for i in entry["tco_breakdown"]]
        assert all(
            r[2].number_format == f'"{procurement.currency}" #,##0.00' for r in mine
        )
    values = {r[0].value: r[1].value for r in about.iter_rows()}
    with translation.override(language):
        assert values[_("Currency")] == procurement.currency
        exported = values[_("Exported at")]
        assert values[_("Bids compared")] == len(result.columns)
    assert isinstance(exported, datetime.datetime)
    assert abs(exported - datetime.datetime.now()) < datetime.timedelta(days=1)


def test_an_invalid_or_missing_figure_stays_text(demo):
    procurement, buyer = demo
    bid = procurement.bids.order_by("pk").first()
    # a bid that states no availability
    type(bid).objects.filter(pk=bid.pk).update(availability_pct=None)
    with translation.override("en"):
        result = comparison.build_comparison(procurement=procurement, user=buyer)
        sheet = openpyxl.load_workbook(
            io.BytesIO(exports.comparison_xlsx(result))
        ).worksheets[0]
        index = [c.bid.pk for c in result.columns].index(bid.pk) + 2
        row = next(r for r in sheet.iter_rows() if r[0].value == _("Availability (%)"))
    assert row[index - 1].value == "—"
