"""Exports of the comparison: XLSX (openpyxl) and PDF (WeasyPrint).

Every text cell of the workbook goes through `escape_cell` so a vendor name or note
starting with "=" cannot run as a formula in Excel (OWASP CSV injection).
"""

from __future__ import annotations

import io
from dataclasses import replace
from decimal import Decimal

from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext as _
from openpyxl.utils import get_column_letter

from clusterbuy.pdf import render_pdf
from clusterbuy.text import one_line, printable

from ..engine.importing import escape_cell
from . import Comparison, comparison_groups, radar_svg
from .summary import ranking_summary
from .table import MONEY, PERCENT


def _cell(value):
    """A text cell: no formula, no character XLSX cannot hold (stored text may have
    them: `clusterbuy.text`)."""
    return escape_cell(printable(str(value))) if value is not None else ""


def money_format(currency: str) -> str:
    """Excel's number format for an amount in ``currency``: '"CNY" #,##0'."""
    return f'"{currency}" #,##0'


def _sheet_title(text: str) -> str:
    """A worksheet name Excel accepts: at most 31 characters, none of []:*?/\\."""
    text = one_line(text)
    return "".join(" " if ch in "[]:*?/\\" else ch for ch in text)[:31]


def _write_figure(target, cell, number_format: str, currency: str) -> None:
    """A numeric cell with its format: money in the currency, per cent as a share."""
    value = cell.value
    if isinstance(value, bool):  # not a figure
        target.value = _cell(cell.text)
        return
    if number_format == MONEY:
        target.value, target.number_format = value, money_format(currency)
    elif number_format == PERCENT:
        target.value = Decimal(str(value)) / 100
        target.number_format = "0.00%"
    else:
        target.value, target.number_format = value, number_format
    if cell.detail:  # the page's lines under the figure, as the cell's comment
        target.comment = _comment("\n".join(str(d) for d in cell.detail))


def _comment(text: str):
    from openpyxl.comments import Comment

    return Comment(text, "ClusterBuy", width=420, height=260)


def _row_label(row, currency: str) -> str:
    if row.number_format == MONEY:
        return f"{row.label} ({currency})"
    return row.label


def comparison_xlsx(result: Comparison, *, groups: list | None = None) -> bytes:
    """The comparison table as a workbook: every figure a number in its format, money
    in the procurement's currency, text (vendor names, "invalid", "—") as text; then
    the TCO item by item and a sheet saying what was exported when. ``groups``: the
    table rows of ``result`` when the caller has them (the cached page context), else
    drawn here."""
    import openpyxl
    from openpyxl.styles import Alignment, Font, PatternFill

    currency = result.procurement.currency
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = _sheet_title(_("Comparison"))
    sheet.append(
        [_cell(result.procurement.name)] + [_cell(c.label) for c in result.columns]
    )
    for cell in sheet[1]:
        cell.font = Font(bold=True)
        cell.alignment = Alignment(wrap_text=True, vertical="top")
    fills = {
        "best": PatternFill("solid", fgColor="D1FAE5"),
        "worst": PatternFill("solid", fgColor="FEE2E2"),
    }
    for group in comparison_groups(result) if groups is None else groups:
        sheet.append([_cell(group.label)])
        sheet.cell(row=sheet.max_row, column=1).font = Font(bold=True)
        for row in group.rows:
            sheet.append([_cell(_row_label(row, currency))])
            number = sheet.max_row
            if row.help:
                sheet.cell(row=number, column=1).comment = _comment(row.help)
            for index, cell in enumerate(row.cells, start=2):
                target = sheet.cell(row=number, column=index)
                if cell.value is not None:
                    number_format = cell.number_format or row.number_format
                    _write_figure(target, cell, number_format, currency)
                else:
                    # the hidden-cost rules and notes follow the text, as on the page
                    text = cell.text
                    if cell.detail:
                        text += "\n" + "\n".join(str(d) for d in cell.detail)
                    target.value = _cell(text)
                    target.alignment = Alignment(wrap_text=True, vertical="top")
                for css, fill in fills.items():
                    if css in cell.css.split():
                        target.fill = fill
    sheet.freeze_panes = "B2"  # the vendors' row and the row labels stay in view
    sheet.column_dimensions["A"].width = 44
    for index in range(len(result.columns)):
        sheet.column_dimensions[get_column_letter(index + 2)].width = 24
    _breakdown_sheet(workbook, result)
    _about_sheet(workbook, result)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _breakdown_sheet(workbook, result: Comparison) -> None:
    """Every bid's normalised TCO item by item, amounts as numbers: the items of a
    bid add up to its normalised TCO (the row after them) to the cent."""
    from openpyxl.styles import Font

    currency = result.procurement.currency
    amounts = f'"{currency}" #,##0.00'
    sheet = workbook.create_sheet(_sheet_title(_("TCO breakdown")))
    sheet.append(
        [
            _cell(_("Bid")),
            _cell(_("Item")),
            _cell(_("Amount (%(currency)s)") % {"currency": currency}),
            _cell(_("Source")),
            _cell(_("Basis")),
        ]
    )
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for column in result.columns:
        if not column.tco_breakdown:
            continue
        for item in column.tco_breakdown_list:
            sheet.append(
                [
                    _cell(column.label),
                    _cell(item["label"]),
                    Decimal(item["amount"]),
                    _cell(item["source"]),
                    _cell(item["basis"]),
                ]
            )
            sheet.cell(row=sheet.max_row, column=3).number_format = amounts
        sheet.append(
            [_cell(column.label), _cell(_("Normalised TCO")), column.normalized_tco]
        )
        sheet.cell(row=sheet.max_row, column=2).font = Font(bold=True)
        sheet.cell(row=sheet.max_row, column=3).number_format = amounts
    sheet.freeze_panes = "A2"
    for letter, width in zip("ABCDE", (24, 44, 20, 36, 48), strict=True):
        sheet.column_dimensions[letter].width = width


def _about_sheet(workbook, result: Comparison) -> None:
    """What the workbook holds: the procurement, its currency, when it was exported."""
    from openpyxl.styles import Font

    sheet = workbook.create_sheet(_sheet_title(_("About this export")))
    exported = timezone.localtime().replace(tzinfo=None, microsecond=0)
    for label, value in (
        (_("Procurement"), _cell(result.procurement.name)),
        (_("Currency"), result.procurement.currency),
        (_("Exported at"), exported),
        (_("Bids compared"), len(result.columns)),
    ):
        sheet.append([label, value])
        sheet.cell(row=sheet.max_row, column=1).font = Font(bold=True)
    sheet.cell(row=3, column=2).number_format = "yyyy-mm-dd hh:mm"
    sheet.column_dimensions["A"].width = 24
    sheet.column_dimensions["B"].width = 40


#: Up to this many bids the PDF prints the whole table, tables of this many bids with
#: the notes under each figure. A larger comparison would make that dozens of pages of
#: thousands of cells (WeasyPrint's time goes with the cells: about 1 ms each), so its
#: PDF is the ranking summary (`comparison.summary`) and the criterion matrix (the
#: checklist scores, `PDF_MATRIX_GROUPS`) in tables of `PDF_MATRIX_BIDS_PER_TABLE`
#: bids; every other figure is in the XLSX export, which the PDF says.
PDF_BIDS_PER_TABLE = 10
PDF_MATRIX_BIDS_PER_TABLE = 20
PDF_MATRIX_GROUPS = ("scores",)


def _blocks(result: Comparison, groups: list, per_table: int) -> list[dict]:
    """The table cut into tables of ``per_table`` bids, each with every row."""
    blocks = []
    for start in range(0, max(len(result.columns), 1), per_table):
        end = start + per_table
        blocks.append(
            {
                "columns": result.columns[start:end],
                "groups": [
                    replace(
                        group,
                        rows=[
                            replace(row, cells=row.cells[start:end])
                            for row in group.rows
                        ],
                    )
                    for group in groups
                ],
            }
        )
    return blocks


def comparison_pdf(
    result: Comparison, *, groups: list | None = None, radar=None, request=None
) -> bytes:
    """``groups`` and ``radar``: those of ``result`` when the caller has them (the
    cached page context), else drawn here."""
    groups = comparison_groups(result) if groups is None else groups
    details = len(result.columns) <= PDF_BIDS_PER_TABLE
    if details:
        blocks = _blocks(result, groups, PDF_BIDS_PER_TABLE)
        summary = None
    else:
        matrix = [g for g in groups if g.code in PDF_MATRIX_GROUPS]
        blocks = _blocks(result, matrix, PDF_MATRIX_BIDS_PER_TABLE)
        summary = ranking_summary(result, groups)
    html = render_to_string(
        "vendors/comparison_pdf.html",
        {
            "result": result,
            "groups": groups,
            "blocks": blocks,
            "summary": summary,
            "details": details,
            "per_table": PDF_BIDS_PER_TABLE,
            "radar": (radar_svg(result) if radar is None else radar) if details else "",
            "exported_at": timezone.localtime(),
        },
        request=request,
    )
    return render_pdf(html)
