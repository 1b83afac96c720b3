"""The 资格审查 failures of a column as tender-review reasons (`comparison.tender`): a
supplier that fails a qualification requirement makes its bid an 无效投标, out of the
base price and the ranking, and counted in the too-few-valid-bids rule. The failures
come from `services.qualification.bid_failures` (built with the comparison, carried on
the column), so the review itself reads no table."""

from __future__ import annotations

from django.utils.translation import gettext as _

from ..services.qualification_items import item_label
from .result import Column

CODE = "qualification_failed"


def qualification_reasons(column: Column, *, cite: bool) -> list[dict]:
    """The column's failures in the reason shape of `tender.reason_json`."""
    return [
        {
            "code": CODE,
            "item": failure["key"],
            "offered": None,
            "required": None,
            "message": _("Qualification review: %(item)s not met (%(note)s).")
            % {"item": item_label(failure["item"]), "note": failure["note"]},
            "citation": failure["article"].citation
            if cite and failure["article"] is not None
            else "",
        }
        for failure in column.qualification
    ]
