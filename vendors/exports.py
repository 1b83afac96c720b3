"""Exports of the comparison: XLSX (openpyxl) and PDF (WeasyPrint).

Every text cell of the workbook goes through `escape_cell` so a vendor name or note
starting with "=" cannot run as a formula in Excel (OWASP CSV injection).
"""

from __future__ import annotations

import io
from dataclasses import replace
from decimal import Decimal

from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from .comparison import Comparison, comparison_groups, radar_svg
from .importing import escape_cell


def _cell(value):
    return escape_cell(str(value)) if value is not None else ""


def comparison_xlsx(result: Comparison, *, groups: list | None = None) -> bytes:
    """``groups``: the table rows of ``result`` when the caller has them (the cached
    page context), else drawn here."""
    import openpyxl
    from openpyxl.comments import Comment
    from openpyxl.styles import Font, PatternFill

    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = "comparison"
    sheet.append(
        [_cell(result.procurement.name)] + [_cell(c.label) for c in result.columns]
    )
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    fills = {
        "best": PatternFill("solid", fgColor="D1FAE5"),
        "worst": PatternFill("solid", fgColor="FEE2E2"),
    }
    for group in comparison_groups(result) if groups is None else groups:
        sheet.append([_cell(group.label)])
        sheet.cell(row=sheet.max_row, column=1).font = Font(bold=True)
        for row in group.rows:
            values = [_cell(row.label)]
            # the hidden-cost rules go into a cell comment, like the page's tooltip
            for cell in row.cells:
                text = cell.text
                if cell.detail:
                    text += "\n" + "\n".join(str(d) for d in cell.detail)
                values.append(_cell(text))
            sheet.append(values)
            if row.help:
                sheet.cell(row=sheet.max_row, column=1).comment = Comment(
                    row.help, "ClusterBuy", width=420, height=260
                )
            for index, cell in enumerate(row.cells, start=2):
                for css, fill in fills.items():
                    if css in cell.css.split():
                        sheet.cell(row=sheet.max_row, column=index).fill = fill
    sheet.column_dimensions["A"].width = 40
    for index in range(len(result.columns)):
        sheet.column_dimensions[openpyxl.utils.get_column_letter(index + 2)].width = 28
    _breakdown_sheet(workbook, result)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _breakdown_sheet(workbook, result: Comparison) -> None:
    """Every bid's normalised TCO item by item, amounts as numbers: the items of a
    bid add up to its normalised TCO (the row after them) to the cent."""
    from openpyxl.styles import Font

    sheet = workbook.create_sheet("tco_breakdown")
    sheet.append(
        [
            _cell(_("Bid")),
            _cell(_("Item")),
            _cell(_("Amount")),
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
        sheet.append(
            [_cell(column.label), _cell(_("Normalised TCO")), column.normalized_tco]
        )
        sheet.cell(row=sheet.max_row, column=2).font = Font(bold=True)
    for letter, width in zip("ABCDE", (24, 44, 18, 36, 48), strict=True):
        sheet.column_dimensions[letter].width = width


def font_url() -> str:
    path = finders.find("fonts/NotoSansSC-Subset-Regular.otf")
    return f"file://{path}" if path else ""


#: Bids per table of the PDF (A4 landscape); a larger comparison is printed as several
#: tables of as many bids and without the notes under each figure, which would make
#: it dozens of pages (and seconds of rendering per page) at 50 bids.
PDF_BIDS_PER_TABLE = 10


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
    from weasyprint import HTML

    groups = comparison_groups(result) if groups is None else groups
    html = render_to_string(
        "vendors/comparison_pdf.html",
        {
            "result": result,
            "groups": groups,
            "blocks": _blocks(result, groups, PDF_BIDS_PER_TABLE),
            "details": len(result.columns) <= PDF_BIDS_PER_TABLE,
            "per_table": PDF_BIDS_PER_TABLE,
            "radar": radar_svg(result) if radar is None else radar,
            "font_url": font_url(),
        },
        request=request,
    )
    return HTML(string=html, base_url="/").write_pdf()
