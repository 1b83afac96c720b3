"""Bid evaluation math: evaluator marks -> criterion, section and total scores -> ranking.

Pure engine, no Django. Scales used throughout:

* an evaluator marks each criterion on 0-5 points;
* a section score is the weighted mean of its criteria's mean marks (0-5);
* a technical total is the weighted mean of section scores rescaled to 0-100;
* a price score is 0-100 (see ``price_scores``).

Two-envelope ("sealed envelope") evaluation: technical scores are settled first; bids
below the technical threshold are excluded *before* any price is looked at, so a cheap
but non-compliant bid can neither win nor lower the price baseline for the others.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

__all__ = [
    "BidEvaluation",
    "Criterion",
    "CriterionScore",
    "EvaluatorMark",
    "RankedBid",
    "ScoringInputError",
    "SealedEnvelopeResult",
    "SectionScore",
    "aggregate_criterion",
    "apply_technical_threshold",
    "evaluate_bid",
    "evaluate_sealed_envelope",
    "price_scores",
    "rank_bids",
    "section_score",
    "weighted_total_100",
]

MAX_POINTS = 5.0
DEFAULT_DISAGREEMENT_POINTS = 2.0


class ScoringInputError(ValueError):
    """Marks, weights or prices that cannot be scored (out of range, missing, empty)."""


@dataclass(frozen=True)
class Criterion:
    code: str
    section: str
    weight: float = 1.0


@dataclass(frozen=True)
class EvaluatorMark:
    evaluator: str
    criterion: str
    points: float  # 0-5


@dataclass(frozen=True)
class CriterionScore:
    criterion: str
    mean_points: float
    spread_points: float  # max - min
    stdev_points: float  # population stdev: defined for a single evaluator (0)
    evaluator_count: int
    disagreement: bool


@dataclass(frozen=True)
class SectionScore:
    section: str
    points: float  # 0-5


@dataclass(frozen=True)
class BidEvaluation:
    criteria: tuple[CriterionScore, ...]
    sections: tuple[SectionScore, ...]
    total_100: float

    @property
    def disagreements(self) -> tuple[str, ...]:
        """Criteria whose evaluators disagree: discuss before the score is final."""
        return tuple(c.criterion for c in self.criteria if c.disagreement)


@dataclass(frozen=True)
class RankedBid:
    bid_id: str
    score: float
    rank: int  # competition ranking: tied bids share a rank, the next rank is skipped


@dataclass(frozen=True)
class SealedEnvelopeResult:
    ranking: tuple[RankedBid, ...]
    excluded: tuple[str, ...]  # below the technical threshold, price never compared
    price_100: Mapping[str, float]


def _check_weights(weights: Iterable[float], what: str) -> float:
    values = list(weights)
    if any(not math.isfinite(w) or w < 0 for w in values):
        raise ScoringInputError(f"{what} weights must be finite and non-negative")
    total = sum(values)
    if total <= 0:
        raise ScoringInputError(f"{what} weights must not all be zero")
    return total


def aggregate_criterion(
    criterion: str,
    points: Sequence[float],
    *,
    disagreement_points: float = DEFAULT_DISAGREEMENT_POINTS,
) -> CriterionScore:
    """Mean and spread of the evaluators' marks for one criterion.

    ``disagreement`` is set when max - min exceeds ``disagreement_points`` (default 2 on
    the 0-5 scale: one evaluator sees "good", another "poor"), which an evaluation
    committee should discuss rather than average away.
    """
    if not points:
        raise ScoringInputError(f"criterion {criterion!r} has no marks")
    for p in points:
        if not (math.isfinite(p) and 0 <= p <= MAX_POINTS):
            raise ScoringInputError(
                f"criterion {criterion!r}: mark {p} is outside 0-{MAX_POINTS:g}"
            )
    spread = max(points) - min(points)
    return CriterionScore(
        criterion=criterion,
        mean_points=statistics.fmean(points),
        spread_points=spread,
        stdev_points=statistics.pstdev(points),
        evaluator_count=len(points),
        disagreement=spread > disagreement_points,
    )


def section_score(
    section: str,
    criterion_means: Mapping[str, float],
    criteria: Sequence[Criterion],
) -> SectionScore:
    """Weighted mean (0-5) of the section's criteria; weights are normalised."""
    members = [c for c in criteria if c.section == section]
    if not members:
        raise ScoringInputError(f"section {section!r} has no criteria")
    total_weight = _check_weights((c.weight for c in members), f"section {section!r}")
    missing = [c.code for c in members if c.code not in criterion_means]
    if missing:
        raise ScoringInputError(f"no marks for criteria {missing}")
    weighted = sum(c.weight * criterion_means[c.code] for c in members)
    return SectionScore(section, weighted / total_weight)


def weighted_total_100(
    section_points: Mapping[str, float], section_weights: Mapping[str, float]
) -> float:
    """Weighted mean of section scores (0-5), rescaled to 0-100.

    total = 100 / 5 * sum(w_s * score_s) / sum(w_s); weights need not sum to 1.
    """
    total_weight = _check_weights(section_weights.values(), "section")
    missing = [s for s in section_weights if s not in section_points]
    if missing:
        raise ScoringInputError(f"no score for sections {missing}")
    weighted = sum(w * section_points[s] for s, w in section_weights.items())
    return 100.0 / MAX_POINTS * weighted / total_weight


def evaluate_bid(
    marks: Sequence[EvaluatorMark],
    criteria: Sequence[Criterion],
    section_weights: Mapping[str, float],
    *,
    disagreement_points: float = DEFAULT_DISAGREEMENT_POINTS,
) -> BidEvaluation:
    """All marks of one bid -> per-criterion aggregates, section scores, 0-100 total."""
    known = {c.code for c in criteria}
    by_criterion: dict[str, list[float]] = defaultdict(list)
    for mark in marks:
        if mark.criterion not in known:
            raise ScoringInputError(f"mark for unknown criterion {mark.criterion!r}")
        by_criterion[mark.criterion].append(mark.points)
    scores = tuple(
        aggregate_criterion(
            c.code,
            by_criterion.get(c.code, []),
            disagreement_points=disagreement_points,
        )
        for c in criteria
    )
    means = {s.criterion: s.mean_points for s in scores}
    undefined = {c.section for c in criteria} - set(section_weights)
    if undefined:
        raise ScoringInputError(f"sections without a weight: {sorted(undefined)}")
    sections = tuple(section_score(s, means, criteria) for s in section_weights)
    total = weighted_total_100({s.section: s.points for s in sections}, section_weights)
    return BidEvaluation(criteria=scores, sections=sections, total_100=total)


def rank_bids(
    scores: Mapping[str, float],
    *,
    tie_break_cny: Mapping[str, Decimal] | None = None,
    ndigits: int = 6,
) -> list[RankedBid]:
    """Rank bids by score, highest first, deterministically.

    Scores are compared after rounding to ``ndigits`` so float noise (e.g. 0.1 + 0.2)
    cannot split a tie. Ties are broken by the lower ``tie_break_cny`` (e.g. TCO) when
    given; bids still tied share a rank ("1, 2, 2, 4") and are listed by ``bid_id``.
    """

    def key(bid_id: str) -> tuple[float, Decimal, str]:
        tie = tie_break_cny.get(bid_id, Decimal(0)) if tie_break_cny else Decimal(0)
        return (-round(scores[bid_id], ndigits), tie, bid_id)

    ordered = sorted(scores, key=key)
    ranked: list[RankedBid] = []
    for position, bid_id in enumerate(ordered, start=1):
        previous = ranked[-1] if ranked else None
        tied = previous is not None and key(previous.bid_id)[:2] == key(bid_id)[:2]
        rank = previous.rank if tied and previous else position
        ranked.append(RankedBid(bid_id, scores[bid_id], rank))
    return ranked


def apply_technical_threshold(
    technical_100: Mapping[str, float], threshold_100: float
) -> tuple[list[str], list[str]]:
    """Split bids into (qualified, excluded); a score equal to the threshold qualifies."""
    qualified = sorted(b for b, s in technical_100.items() if s >= threshold_100)
    excluded = sorted(b for b, s in technical_100.items() if s < threshold_100)
    return qualified, excluded


def price_scores(
    tco_cny: Mapping[str, Decimal], *, max_points: float = 100.0
) -> dict[str, float]:
    """Lowest-price-baseline method: score_i = max_points * min(TCO) / TCO_i.

    The lowest normalised TCO gets full marks and the others fall in proportion, as in
    China's government-procurement rule for composite scoring (MOF Order No. 87, 2017,
    art. 55, 低价优先法: 投标报价得分 = (评标基准价 / 投标报价) x 100, where 评标基准价
    is the lowest price among bids that meet the requirements). Callers pass TCO already
    normalised to one basis (same horizon); this function does not normalise for
    delivered capacity — ``regimes.price.capacity_price_scores`` scores cost per
    delivered PFLOPS-day, and ``regimes.price.low_price_first_scores`` the statutory
    formula on evaluated bid prices.
    """
    if not tco_cny:
        return {}
    for bid_id, tco in tco_cny.items():
        if not (tco.is_finite() and tco > 0):
            raise ScoringInputError(f"TCO of bid {bid_id!r} must be positive: {tco}")
    lowest = min(tco_cny.values())
    return {b: max_points * float(lowest / tco) for b, tco in tco_cny.items()}


def evaluate_sealed_envelope(
    technical_100: Mapping[str, float],
    tco_cny: Mapping[str, Decimal],
    *,
    threshold_100: float,
    technical_weight: float = 0.6,
    price_weight: float = 0.4,
) -> SealedEnvelopeResult:
    """Two-envelope evaluation: threshold on technical score, then price among the rest.

    combined = (w_t * technical_100 + w_p * price_100) / (w_t + w_p). Price scores are
    computed over qualified bids only, so an excluded bid's low price never sets the
    baseline. Ties are broken by the lower TCO (see ``rank_bids``).
    """
    total_weight = _check_weights((technical_weight, price_weight), "envelope")
    qualified, excluded = apply_technical_threshold(technical_100, threshold_100)
    missing = [b for b in qualified if b not in tco_cny]
    if missing:
        raise ScoringInputError(f"no TCO for qualified bids {missing}")
    prices = price_scores({b: tco_cny[b] for b in qualified})
    combined = {
        b: (technical_weight * technical_100[b] + price_weight * prices[b])
        / total_weight
        for b in qualified
    }
    ranking = rank_bids(combined, tie_break_cny={b: tco_cny[b] for b in qualified})
    return SealedEnvelopeResult(
        ranking=tuple(ranking), excluded=tuple(excluded), price_100=prices
    )
