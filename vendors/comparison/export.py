"""The comparison as the API returns it: one entry per bid, codes rather than labels
(the notes and pitfall reasons in the request's language)."""

from __future__ import annotations

from .delivered import delivered_json
from .labels import current_language, rounded_number
from .prescores import automatic_json
from .result import Column, Comparison


def _scores(column: Column, comparison: Comparison) -> dict:
    scores: dict = {
        s.code: None
        if column.sections.get(s.code) is None
        else round(column.sections[s.code], 4)
        for s in comparison.sections
    }
    scores["technical_100"] = round(column.technical_100, 4)
    scores["weighted_total"] = (
        None if column.weighted_total is None else round(column.weighted_total, 4)
    )
    scores["complete"] = column.scores_complete
    scores["unscored_sections"] = list(column.unscored_sections)
    scores["partial_sections"] = list(column.partial_sections)
    scores["automatic"] = automatic_json(column, current_language())
    return scores


def _budget(column: Column) -> dict | None:
    """The quoted price and the normalised TCO against the budget ceiling (null: no
    budget, or the prices are sealed)."""
    quoted, tco = column.quoted_budget, column.tco_budget
    if quoted is None and tco is None:
        return None
    return {
        "over_budget": column.over_budget,
        "quoted": None if quoted is None else quoted.as_dict(),
        "tco": None if tco is None else tco.as_dict(),
    }


def _entry(column: Column, comparison: Comparison, lang: str) -> dict:
    return {
        "bid": column.bid.pk,
        # The version of the bid this entry shows (`Bid.version`: every change, a
        # correction the vendor confirmed included, counts one).
        "bid_version": column.bid.version,
        "vendor": column.vendor,
        "currency": comparison.procurement.currency,
        "quoted_total": None
        if column.quoted_total is None
        else str(column.quoted_total),
        "hidden_costs": [
            {"category": h["category"], "amount": str(h["amount"])}
            for h in column.hidden_costs
        ],
        "normalized_tco": None
        if column.normalized_tco is None
        else str(column.normalized_tco),
        "budget": _budget(column),
        # Every item of the normalised TCO; the amounts sum to it to the cent.
        "tco_breakdown": [item.to_dict() for item in column.tco_breakdown],
        "compliance": [
            {
                "item": i.item,
                "status": str(i.status),
                "required": rounded_number(i.required),
                "offered": rounded_number(i.offered),
                "unit": i.unit,
                "note": i.note_for(lang),
            }
            for i in column.compliance
        ],
        "pitfalls": [
            {"code": str(p.code), "reason": p.reason(lang)} for p in column.pitfalls
        ],
        "delivered": delivered_json(column.delivered, column.bid),
        "scores": _scores(column, comparison),
        "disagreements": sorted(
            code for code, agg in column.criteria.items() if agg.disagreement
        ),
        "excluded": column.excluded,
        "rank": column.rank,
        "invalid": sorted(column.invalid),
        "spec_claims": column.spec_claims,
        "tender": _tender(column),
    }


def _tender(column: Column) -> dict | None:
    """Valid or 无效投标 with its reasons, under the stored tender settings."""
    review = column.tender
    if review is None:
        return None
    return {"valid": review.valid, "reasons": review.reasons}


def comparison_json(comparison: Comparison) -> list[dict]:
    """The API shape: one entry per bid."""
    lang = current_language()
    return [_entry(column, comparison, lang) for column in comparison.columns]
