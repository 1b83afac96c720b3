"""The ranking summary a large comparison's PDF opens with: one line per bid, in rank
order, with what a buyer reads first (rank, bid, total, prices, compute against the
plan, compliance, pitfall flags).

Its cells are the comparison table's own (`table.comparison_groups`, picked by
`Row.code`), so the summary shows exactly what the page shows for this viewer: blind
labels, sealed prices ("—"), "invalid" figures, the best and worst marked.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from .cells import Cell, Group, Row
from .delivered_rows import compute_share
from .labels import status_label
from .result import Column, Comparison
from .table import _numeric_row

#: The table rows the summary takes, in its column order after rank and bid.
SUMMARY_ROW_CODES = (
    "weighted_total",
    "quoted_total",
    "normalized_tco",
    "compute_share",
    "compliance",
    "pitfall_flags",
)
#: Worst first: a bid's compliance status is its worst item's.
_STATUS_ORDER = ("fail", "warn", "pass")


@dataclass
class Summary:
    #: The summary's columns, each a table row (its label, its number format).
    columns: list[Row]
    #: One line per bid, in rank order (ranked, then excluded or unranked).
    lines: list[list[Cell]]


def _share_text(value: float | None) -> str:
    return "—" if value is None else f"{value:.0%}"


def _compliance_cell(column: Column) -> Cell:
    """The worst status of the bid's compliance items, and how many passed."""
    statuses = [str(item.status) for item in column.compliance]
    if not statuses:
        return Cell("—")
    worst = min(statuses, key=_STATUS_ORDER.index)
    passed = statuses.count("pass")
    return Cell(
        f"{status_label(worst)} ({passed}/{len(statuses)})",
        f"status-{worst}",
        value=passed,
    )


def ranking_summary(comparison: Comparison, groups: list[Group]) -> Summary:
    """The summary of ``comparison`` from its table ``groups`` (`comparison_groups`)."""
    cols = comparison.columns
    rows = {row.code: row for group in groups for row in group.rows if row.code}
    share = _numeric_row(
        _("Compute vs plan"),
        [compute_share(c.delivered) for c in cols],
        higher=True,
        fmt=_share_text,
    )
    rows["compute_share"] = share
    rows["compliance"] = Row(
        _("Compliance with the sizing plan"), [_compliance_cell(c) for c in cols]
    )
    picked = [
        rows["rank"],
        Row(_("Bid"), [Cell(c.label) for c in cols]),
        *(rows[code] for code in SUMMARY_ROW_CODES),
    ]
    order = sorted(
        range(len(cols)),
        key=lambda i: (cols[i].rank is None, cols[i].rank or 0, i),
    )
    return Summary(
        columns=picked, lines=[[row.cells[i] for row in picked] for i in order]
    )
