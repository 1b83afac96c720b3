"""The tender review's view of the price justifications (87号令 第六十条): each bid's
request, read once for the columns, as the review carries it (`BidReview.
justification`). Written by `vendors.services.price_justifications`."""

from __future__ import annotations

from ..engine.regimes import InvalidReason, RegimeRules
from ..models import Judgement, PriceJustification
from .result import Column


def justifications_of(columns: list[Column]) -> dict[int, PriceJustification]:
    rows = PriceJustification.objects.filter(
        bid_id__in=[c.bid.pk for c in columns]
    ).select_related("judged_by")
    return {row.bid_id: row for row in rows}


def justification_json(row: PriceJustification | None) -> dict:
    """``{"id", "state", ...}``; state "needed" for a flagged bid not asked yet."""
    if row is None:
        return {"id": None, "state": "needed"}
    return {
        "id": row.pk,
        "state": row.state,
        "note": row.judgement_note,
        "judged_by": getattr(row.judged_by, "username", ""),
        "judged_at": row.judged_at.isoformat() if row.judged_at else None,
    }


def not_justified(
    row: PriceJustification | None, rules: RegimeRules
) -> list[InvalidReason]:
    """The invalid-bid reason of a bid judged not justified (87号令 第六十条;
    招标投标法实施条例 第五十一条 (五)), else none."""
    if row is None or row.judgement != Judgement.NOT_JUSTIFIED:
        return []
    article = rules.abnormally_low_article
    return [
        InvalidReason(
            "abnormally_low_not_justified", "quoted_total", None, None, article
        )
    ]
