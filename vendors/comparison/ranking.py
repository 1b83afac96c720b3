"""From the evaluators' marks to section points (0-5), the technical score, the price
score and the rank of every bid (the arithmetic itself is in `vendors.engine.scoring`).

A criterion no evaluator has marked counts with its automatic score when it has one
(`vendors.engine.autoscore`: the pitfall and compliance findings the viewer sees); an
evaluator's mark replaces it. A section that counts in the rank (weight above 0; the
price section unless prices are hidden from the viewer) with no score at all is
listed in ``Column.unscored_sections``, one with some criteria unscored in
``Column.partial_sections``: its rank is provisional, and the page says so.

Once the procurement's tender settings are stored, `comparison.tender` reviews the
columns ranked here under the regime (★ items, budget and 最高限价, 评标价, the
regime's price score) and ranks them again: invalid bids leave the rank, so a
cut-down accelerator cannot win on the normalised TCO scored here.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from decimal import Decimal

from ..engine import autoscore, scoring
from ..models import Bid, EvaluationSettings
from .result import Column, SectionInfo


def _section_points(
    section: SectionInfo,
    marks: dict[int, list[float]],
    automatic: Mapping[str, autoscore.AutoScore],
    disagreement: float,
) -> tuple[float | None, dict[str, scoring.CriterionScore], int]:
    """(section points, the evaluators' aggregate per criterion, how many criteria
    have a score: an evaluator's or the automatic one)."""
    criteria_scores: dict[str, scoring.CriterionScore] = {}
    engine_criteria = []
    means: dict[str, float] = {}
    for criterion in section.criteria:
        points = marks.get(criterion.pk)
        if points:
            agg = scoring.aggregate_criterion(
                criterion.code, points, disagreement_points=disagreement
            )
            criteria_scores[criterion.code] = agg
            means[criterion.code] = agg.mean_points
        elif criterion.code in automatic:
            means[criterion.code] = automatic[criterion.code].points
        else:
            continue
        engine_criteria.append(
            scoring.Criterion(criterion.code, section.code, float(criterion.weight))
        )
    scored = len(engine_criteria)
    if not engine_criteria or sum(c.weight for c in engine_criteria) <= 0:
        return None, criteria_scores, scored
    return (
        scoring.section_score(section.code, means, engine_criteria).points,
        criteria_scores,
        scored,
    )


def score_sections(
    column: Column, bid: Bid, sections: list[SectionInfo], disagreement: float
) -> None:
    """Points of every scored section, evaluators' marks first, automatic scores for
    the criteria nobody marked; price sections are left for `rank_columns`."""
    marks: dict[int, list[float]] = defaultdict(list)
    for score in bid.scores.all():
        marks[score.criterion_id].append(float(score.points))
    column.automatic = autoscore.automatic_scores(
        [c.code for s in sections if not s.auto_price for c in s.criteria],
        column.pitfalls,
        column.compliance,
    )
    for section in sections:
        if section.auto_price:
            column.sections[section.code] = None  # filled in by rank_columns
            continue
        points, criteria, scored = _section_points(
            section, marks, column.automatic, disagreement
        )
        column.sections[section.code] = points
        column.criteria.update(criteria)
        if section.weight <= 0:
            continue
        if points is None:
            column.unscored_sections.append(section.code)
        elif scored < len(section.criteria):
            column.partial_sections.append(section.code)


def _unscored_prices(
    columns: list[Column], sections: list[SectionInfo], prices_hidden: bool
) -> None:
    """A price section with no price score counts 0 in the rank (no valid TCO):
    unscored. Hidden prices are not in the viewer's rank; an excluded bid has none."""
    order = {s.code: index for index, s in enumerate(sections)}
    for column in columns:
        if not prices_hidden and not column.excluded:
            column.unscored_sections += [
                s.code
                for s in sections
                if s.auto_price and s.weight > 0 and column.sections.get(s.code) is None
            ]
        column.unscored_sections.sort(key=order.__getitem__)


def _technical(column: Column, sections: list[SectionInfo]) -> float:
    weights = {s.code: s.weight for s in sections if not s.auto_price}
    if sum(weights.values()) <= 0:
        return 0.0
    points = {code: column.sections.get(code) or 0.0 for code in weights}
    return scoring.weighted_total_100(points, weights)


def _rank_on_technical(ids: dict[str, Column]) -> None:
    """Sealed prices: the viewer ranks on the technical score alone."""
    for column in ids.values():
        column.weighted_total = column.technical_100
    for ranked in scoring.rank_bids({k: c.technical_100 for k, c in ids.items()}):
        ids[ranked.bid_id].rank = ranked.rank


def _rank_sealed_envelope(
    ids: dict[str, Column],
    tco: dict[str, Decimal],
    sections: list[SectionInfo],
    threshold_100: float,
) -> None:
    """Two envelopes: only bids over the technical threshold are priced and ranked;
    the others are excluded."""
    price_codes = [s.code for s in sections if s.auto_price]
    technical = {k: c.technical_100 for k, c in ids.items() if k in tco}
    result = scoring.evaluate_sealed_envelope(
        technical,
        tco,
        threshold_100=threshold_100,
        technical_weight=sum(s.weight for s in sections if not s.auto_price),
        price_weight=sum(s.weight for s in sections if s.auto_price),
    )
    for bid_id, price in result.price_100.items():
        ids[bid_id].price_100 = price
        for code in price_codes:
            ids[bid_id].sections[code] = price / 20.0
    for ranked in result.ranking:
        ids[ranked.bid_id].weighted_total = ranked.score
        ids[ranked.bid_id].rank = ranked.rank
    for bid_id in ids:
        if ids[bid_id].rank is None:
            ids[bid_id].excluded = True


def _rank_weighted(
    ids: dict[str, Column], tco: dict[str, Decimal], sections: list[SectionInfo]
) -> None:
    """Price score from the normalised TCO, weighted total over every section, ties
    broken on the lower TCO."""
    price_codes = [s.code for s in sections if s.auto_price]
    prices = scoring.price_scores(tco)
    totals: dict[str, float] = {}
    weights = {s.code: s.weight for s in sections}
    for bid_id, column in ids.items():
        column.price_100 = prices.get(bid_id)
        for code in price_codes:
            column.sections[code] = (
                None if column.price_100 is None else column.price_100 / 20.0
            )
        points = {code: column.sections.get(code) or 0.0 for code in weights}
        try:
            totals[bid_id] = scoring.weighted_total_100(points, weights)
        except scoring.ScoringInputError:
            totals[bid_id] = 0.0
        column.weighted_total = totals[bid_id]
    for ranked in scoring.rank_bids(totals, tie_break_cny=tco):
        ids[ranked.bid_id].rank = ranked.rank


def rank_columns(
    columns: list[Column],
    sections: list[SectionInfo],
    settings_row: EvaluationSettings,
    prices_hidden: bool,
) -> None:
    if not columns:
        return
    for column in columns:
        column.technical_100 = _technical(column, sections)
    ids = {str(c.bid.pk): c for c in columns}
    tco = {str(c.bid.pk): c.tco_value for c in columns if c.tco_value > 0}
    price_weight = sum(s.weight for s in sections if s.auto_price)
    tech_weight = sum(s.weight for s in sections if not s.auto_price)
    if prices_hidden:
        _rank_on_technical(ids)
    elif settings_row.sealed_envelope and tech_weight + price_weight > 0:
        threshold = settings_row.technical_threshold or 0.0
        _rank_sealed_envelope(ids, tco, sections, threshold)
    else:
        _rank_weighted(ids, tco, sections)
    _unscored_prices(columns, sections, prices_hidden)
