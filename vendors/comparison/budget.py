"""The comparison's budget row: each bid's quoted price and normalised TCO against the
procurement's budget ceiling (`sizing.engine.budget`, the one budget rule)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from sizing.engine.budget import BudgetCheck

from .cells import Cell, Detail, Row
from .result import Column


def _signed(check: BudgetCheck) -> str:
    sign = "+" if check.over else ""
    return f"{sign}{check.variance:,.0f} ({check.share_pct} %)"


def _cell(column: Column) -> Cell:
    quoted, tco = column.quoted_budget, column.tco_budget
    if quoted is None and tco is None:
        return Cell("—")
    text = _("Over budget") if column.over_budget else _("Within budget")
    detail = []
    if quoted is not None:
        detail.append(Detail(_("Quoted price: %(v)s") % {"v": _signed(quoted)}))
    if tco is not None:
        detail.append(Detail(_("Normalised TCO: %(v)s") % {"v": _signed(tco)}))
    return Cell(text, "over-budget" if column.over_budget else "within-budget", detail)


def budget_row(columns: list[Column], currency: str) -> Row | None:
    """One cell per bid: over or within budget, with the variance (amount - ceiling)
    of its quoted price and of its normalised TCO; None without a budget ceiling."""
    ceiling = next((c.budget_ceiling for c in columns), None)
    if ceiling is None or ceiling <= 0:
        return None
    row = Row(
        _("Against the budget (%(ceiling)s %(currency)s)")
        % {"ceiling": f"{ceiling:,.0f}", "currency": currency},
        [_cell(c) for c in columns],
        help=_(
            "The quoted price and the normalised TCO against the procurement's budget "
            "ceiling: amount - ceiling (positive: over budget) and the share of the "
            "ceiling."
        ),
    )
    row.code = "budget"
    return row
