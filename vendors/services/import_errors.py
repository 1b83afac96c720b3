"""A line-item upload's problems in the user's language, columns named by label.

``vendors.engine.importing`` (pure) reports each problem as a ``RowError`` with an English
message, a ``code`` and its ``params``; the upload page and the API say it here. The
API keeps the column key (``"column": "quantity"``) beside the translated message.
Both languages' column headers and category names are accepted on import, so the
messages list the labels a user sees in the template.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from clusterbuy.engine.numbers import figure

from ..engine.importing import CATEGORIES, RowError
from ..models import LineCategory

COLUMN_LABELS: dict[str, Any] = {
    "category": pgettext_lazy("line item", "Category"),
    "description": pgettext_lazy("line item", "Description"),
    "quantity": pgettext_lazy("line item", "Quantity"),
    "unit_price": pgettext_lazy("line item", "Unit price"),
    "recurring": pgettext_lazy("line item", "Recurring (per year)"),
    "year_from": pgettext_lazy("line item", "From year"),
    "year_to": pgettext_lazy("line item", "To year"),
    "scope": pgettext_lazy("line item", "Also covers"),
}


def column_label(column: str) -> str:
    return str(COLUMN_LABELS.get(column, column))


def _category_names() -> str:
    labels = dict(LineCategory.choices)
    return ", ".join(f"{labels.get(code, code)} ({code})" for code in CATEGORIES)


def _sheet_messages(p: dict) -> dict[str, Any]:
    """Why a file could not be read as a sheet (vendors.engine.spreadsheets' codes)."""
    caps = {
        "max_rows": figure(p.get("max_rows")),
        "max_columns": figure(p.get("max_columns")),
    }
    return {
        "too_slow": lambda: (
            _(
                "The file took more than %(seconds)s s to read; import at most "
                "%(max_rows)s line items and %(max_columns)s columns."
            )
            % {"seconds": figure(p.get("seconds")), **caps}
        ),
        "too_many_rows": lambda: (
            _(
                "The sheet has data in row %(row)s; at most %(max_rows)s line items below "
                "the header are read: delete the rows below."
            )
            % {"row": figure(p.get("row")), **caps}
        ),
        "too_many_columns": lambda: (
            _(
                "The sheet has data in column %(column)s; at most %(max_columns)s columns "
                "are read: delete the columns to the right."
            )
            % {"column": p.get("column", ""), **caps}
        ),
        "too_many_tags": lambda: (
            _(
                "The workbook is too large to read; import at most %(max_rows)s line "
                "items and %(max_columns)s columns, without other sheets."
            )
            % caps
        ),
        "row_too_wide": lambda: (
            _("Row %(row)s holds too many cells to read.")
            % {"row": figure(p.get("row"))}
        ),
        "not_xlsx": lambda: _("The file is not a valid XLSX workbook."),
        "too_large_unpacked": lambda: _("The workbook is too large once unpacked."),
        "no_worksheet": lambda: _("The workbook has no worksheet."),
        "not_a_sheet": lambda: _(
            "The file is neither an XLSX workbook nor a CSV file."
        ),
        "bad_encoding": lambda: _("The CSV file is not encoded as UTF-8 or GBK."),
    }


def row_error_message(error: RowError) -> str:
    """The problem without its place, in the active language; a code this module
    does not know keeps the message it came with (already translated by Django)."""
    p = error.params
    messages = {
        "duplicate_column": lambda: (
            _("The column appears twice (%(header)s).")
            % {"header": p.get("header", "")}
        ),
        "missing_column": lambda: _("The column is missing from the header row."),
        "unknown_category": lambda: (
            _("Unknown category “%(value)s”; use one of: %(choices)s.")
            % {"value": p.get("value", ""), "choices": _category_names()}
        ),
        "required": lambda: _("This field is required."),
        "not_positive": lambda: (
            _("Must be a number above 0 (got “%(value)s”).")
            % {"value": p.get("value", "")}
        ),
        "negative": lambda: (
            _("Must be a number of at least 0 (got “%(value)s”).")
            % {"value": p.get("value", "")}
        ),
        "not_a_flag": lambda: (
            _("Must be yes or no (是/否, true/false or 1/0; got “%(value)s”).")
            % {"value": p.get("value", "")}
        ),
        "not_a_year": lambda: (
            _("Must be a whole year from 1 to %(max)s (got “%(value)s”).")
            % {"max": p.get("max", ""), "value": p.get("value", "")}
        ),
        "years_out_of_order": lambda: (
            _("The last year %(to)s is before the first year %(from)s.")
            % {"to": p.get("to", ""), "from": p.get("from", "")}
        ),
        "too_large": lambda: (
            _("The file is larger than %(mb)s MB.") % {"mb": p.get("mb", "")}
        ),
        "empty": lambda: _("The file is empty."),
        "legacy_xls": lambda: (
            _(
                "%(filename)s: legacy .xls files cannot be read; save it as .xlsx or CSV."
            )
            % {"filename": p.get("filename", "")}
        ),
        "no_line_items": lambda: _("There are no line items below the header row."),
        **_sheet_messages(p),
    }
    message = messages.get(error.code)
    return message() if message is not None else error.message


def row_error_sentence(error: RowError) -> str:
    """ "Row 9, Quantity: Must be a number above 0 (got “十三”)." """
    message = row_error_message(error)
    if error.row == 0:
        return message
    if not error.column:
        return _("Row %(row)s: %(message)s") % {"row": error.row, "message": message}
    return _("Row %(row)s, %(column)s: %(message)s") % {
        "row": error.row,
        "column": column_label(error.column),
        "message": message,
    }
