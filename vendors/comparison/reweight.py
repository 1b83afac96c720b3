"""Other section weights applied to a built comparison, without building it again.

Everything a column holds before ranking (prices, TCO, compliance, pitfalls, claims,
the section points from the evaluators' marks) does not depend on the weights; only
the technical score, the price score, the weighted total, the rank and the exclusion
do, and `ranking.rank_columns` derives them from the rest. So a weight change is
`rank_columns` run again over copies of the built columns: no query, no sizing or TCO
engine call, and the same arithmetic as `build.build_comparison` with those weights.
"""

from __future__ import annotations

import copy
from dataclasses import replace

from ..services import evaluation
from . import tender
from .ranking import rank_columns
from .result import Column, Comparison, SectionInfo


def _unranked(column: Column, sections: list[SectionInfo]) -> Column:
    """A copy of ``column`` as `ranking.score_sections` left it (the built column
    itself is not changed: it may be the cached one)."""
    fresh = copy.copy(column)
    fresh.sections = {
        s.code: None if s.auto_price else column.sections.get(s.code) for s in sections
    }
    fresh.technical_100 = 0.0
    fresh.price_100 = None
    fresh.weighted_total = None
    fresh.rank = None
    fresh.excluded = False
    return fresh


def reweighted(result: Comparison, weights: dict | None) -> Comparison:
    """``result`` ranked under ``weights`` (section code -> weight, over its effective
    weights; not saved). Raises `ServiceError` for an unknown section or a weight out
    of range, as `build_comparison(weights=...)` does. Under a sealed envelope the
    viewer's copy has no price to rank on, exactly as when it was built."""
    if not weights:
        return result
    cleaned = evaluation.clean_section_weights(weights, result.sections)
    sections = [
        replace(s, weight=cleaned.get(s.code, s.weight)) for s in result.sections
    ]
    columns = [_unranked(c, sections) for c in result.columns]
    rank_columns(columns, sections, result.settings, result.prices_hidden)
    review = result.tender
    if review is not None and review.settings_row is not None:
        review = tender.review_columns(
            columns,
            review.settings_row,
            budget_cny=review.budget_cny,
            horizon_years=review.horizon_years,
            prices_hidden=result.prices_hidden,
        )
        tender.apply_review(review, columns, sections)
    return replace(result, sections=sections, columns=columns, tender=review)
