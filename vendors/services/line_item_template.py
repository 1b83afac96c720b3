"""The line-item sheet in the user's language: the blank template (headers, a drop-down
list per coded column, an instructions sheet) and the vocabulary the importer accepts.

The labels are the model's (field verbose names, `LineCategory`) as the .po catalog
translates them; the importer (`vendors.engine.importing`, no Django) gets them in every
language through `import_vocabulary`, so a sheet filled in Chinese or in English, or with
the codes, imports the same.
"""

from __future__ import annotations

import csv
import io

from django.conf import settings
from django.utils import translation
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from ..engine.importing import _EXAMPLE_ROWS, COLUMNS, SheetVocabulary, escape_cell
from ..engine.spreadsheets import MAX_ROWS
from ..models import BidLineItem, LineCategory


def column_label(code: str) -> str:
    """A column as the template's header names it ("Unit price", "单价")."""
    if code not in COLUMNS:
        return code
    return capfirst(str(BidLineItem._meta.get_field(code).verbose_name))


def value_labels(column: str) -> dict[str, str]:
    """The codes of a coded column and their labels in the active language."""
    if column == "category":
        return {code: str(label) for code, label in LineCategory.choices}
    if column == "recurring":
        return {"yes": _("yes"), "no": _("no")}
    return {}


def import_vocabulary() -> SheetVocabulary:
    """Every language's header and value labels, lower-cased, for the importer."""
    headers: dict[str, str] = {}
    values: dict[str, dict[str, str]] = {"category": {}, "recurring": {}}
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            for code in COLUMNS:
                headers[column_label(code).lower()] = code
            for column, mapping in values.items():
                for code, label in value_labels(column).items():
                    mapping[label.lower()] = code
    return SheetVocabulary(headers=headers, values=values)


def _examples() -> list[list]:
    categories, flags = value_labels("category"), value_labels("recurring")
    return [
        [
            categories[category],
            _(description),
            quantity,
            unit_price,
            flags[flag],
            year_from,
            year_to,
            ", ".join(categories[code] for code in scope.split(",") if code) or None,
        ]
        for (
            category,
            description,
            quantity,
            unit_price,
            flag,
            year_from,
            year_to,
            scope,
        ) in _EXAMPLE_ROWS
    ]


def _rules() -> list[tuple[str, str]]:
    """Each column's header and what it takes."""
    return [
        (column_label("category"), _("One of the categories below (label or code).")),
        (column_label("description"), _("Text, required, at most 500 characters.")),
        (
            column_label("quantity"),
            _("A number above 0, at most 2 decimals (for example 16 or 2.5)."),
        ),
        (
            column_label("unit_price"),
            _(
                "A number of at least 0 in the procurement's currency, at most 2 "
                "decimals; thousands separators and ¥ are accepted."
            ),
        ),
        (
            column_label("recurring"),
            _("yes: paid every year (support, licences); no: paid once."),
        ),
        (
            column_label("year_from"),
            _(
                "Optional. The first contract year the line covers (1 = the first "
                "year); empty: from year 1."
            ),
        ),
        (
            column_label("year_to"),
            _(
                "Optional. The last contract year the line covers; empty: to the end "
                "of the horizon. Support for years 4 to 5 is priced for 2 years."
            ),
        ),
        (
            column_label("scope"),
            _(
                "Optional. Other categories this line's price includes, separated by "
                "commas (a service package including network, storage and "
                "installation; installation included in the server price): they are "
                "then not added again."
            ),
        ),
    ]


def build_template_xlsx(*, acceptance: list[dict] | None = None) -> bytes:
    """The blank line-item workbook in the active language; with ``acceptance`` (the
    RFP's acceptance rows, `rfp.content`), a sheet of the acceptance tests after
    the instructions (only the first sheet is imported)."""
    import openpyxl
    from openpyxl.styles import Font
    from openpyxl.worksheet.datavalidation import DataValidation

    workbook = openpyxl.Workbook()
    sheet = workbook.active
    sheet.title = _("Line items")[:31]
    sheet.append([column_label(code) for code in COLUMNS])
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for row in _examples():
        sheet.append([escape_cell(v) for v in row])
    last = MAX_ROWS + 1
    for index, code in enumerate(COLUMNS):
        letter = openpyxl.utils.get_column_letter(index + 1)
        labels = value_labels(code)
        if labels:
            check = DataValidation(
                type="list",
                formula1='"{}"'.format(",".join(labels.values())),
                showErrorMessage=True,
                errorTitle=column_label(code),
                error=_("Choose a value from the list."),
            )
        elif code in ("year_from", "year_to"):
            check = DataValidation(
                type="whole",
                operator="between",
                formula1="1",
                formula2="30",
                allow_blank=True,
                showErrorMessage=True,
                errorTitle=column_label(code),
                error=dict(_rules())[column_label(code)],
            )
        elif code in ("quantity", "unit_price"):
            check = DataValidation(
                type="decimal",
                operator="greaterThan" if code == "quantity" else "greaterThanOrEqual",
                formula1="0",
                showErrorMessage=True,
                errorTitle=column_label(code),
                error=dict(_rules())[column_label(code)],
            )
        else:
            continue
        check.add(f"{letter}2:{letter}{last}")
        sheet.add_data_validation(check)
    sheet.freeze_panes = "A2"
    for letter, width in zip("ABCDEFGH", (22, 48, 12, 18, 20, 12, 12, 36), strict=True):
        sheet.column_dimensions[letter].width = width
    _instructions_sheet(workbook)
    if acceptance:
        _acceptance_sheet(workbook, acceptance)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def _acceptance_sheet(workbook, rows: list[dict]) -> None:
    """The acceptance tests, contractual criteria: one row per test, in order."""
    from openpyxl.styles import Font

    sheet = workbook.create_sheet(_("Acceptance tests")[:31])
    sheet.append(
        ["#", _("Test"), _("Category"), _("Threshold"), _("Command"), _("Source")]
    )
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for row in rows:
        sheet.append(
            [
                row["number"],
                *(
                    escape_cell(row[k])
                    for k in ("title", "category", "required", "command", "source")
                ),
            ]
        )
    for letter, width in zip("ABCDEF", (5, 36, 12, 18, 60, 50), strict=True):
        sheet.column_dimensions[letter].width = width


def _instructions_sheet(workbook) -> None:
    """How to fill the first sheet: each column's rule, then every allowed value with
    its code and both labels (either is accepted, as is the code)."""
    from openpyxl.styles import Font

    sheet = workbook.create_sheet(_("Instructions")[:31])
    bold = Font(bold=True)
    sheet.append([_("How to fill in the line items")])
    sheet["A1"].font = Font(bold=True, size=13)
    sheet.append(
        [
            _(
                "One line item per row of the first sheet, below its header. Headers "
                "and values may be in Chinese or English, or the codes below; only the "
                "first sheet is imported, at most %(rows)s rows."
            )
            % {"rows": f"{MAX_ROWS:,}"}
        ]
    )
    sheet.append([])
    sheet.append([_("Column"), _("Rule")])
    for cell in sheet[sheet.max_row]:
        cell.font = bold
    for header, rule in _rules():
        sheet.append([header, rule])
    sheet.append([])
    sheet.append([_("Column"), _("Code"), "中文", "English"])
    for cell in sheet[sheet.max_row]:
        cell.font = bold
    for column in ("category", "recurring"):
        labels = {}
        for language in ("zh-hans", "en"):
            with translation.override(language):
                labels[language] = value_labels(column)
        for code in labels["en"]:
            sheet.append(
                [
                    column_label(column),
                    code,
                    labels["zh-hans"][code],
                    labels["en"][code],
                ]
            )
    for letter, width in zip("ABCD", (24, 64, 24, 24), strict=True):
        sheet.column_dimensions[letter].width = width


def build_template_csv() -> bytes:
    """The same first sheet as CSV, UTF-8 with BOM so Excel opens Chinese text."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow([column_label(code) for code in COLUMNS])
    for row in _examples():
        writer.writerow([escape_cell(v) for v in row])
    return buffer.getvalue().encode("utf-8-sig")
