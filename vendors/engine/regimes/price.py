"""Price scores: 低价优先法 on evaluated bid prices, the abnormally-low check, and the
commercial regime's price per delivered capacity.

低价优先法 (87号令 第五十五条, secondary text): the lowest evaluated price among the bids
that meet the requirements is the 评标基准价 and gets the full price score; every other
valid bid scores 评标基准价 / 评标价 × 100, weighted by the price weight. Invalid bids
are left out before the base is taken, so they can neither score nor move the base.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from decimal import Decimal
from types import MappingProxyType

from .deductions import EvaluatedPrice
from .validation import RegimeInputError

__all__ = ["abnormally_low", "capacity_price_scores", "low_price_first_scores"]


def _check_weight(weight_pct: Decimal) -> Decimal:
    weight = Decimal(weight_pct)
    if not (weight.is_finite() and Decimal(0) <= weight <= Decimal(100)):
        raise RegimeInputError(f"price weight must be 0-100 %: {weight_pct}")
    return weight


def _valid(
    evaluated: Mapping[str, EvaluatedPrice], valid_ids: Collection[str]
) -> dict[str, Decimal]:
    missing = sorted(set(valid_ids) - set(evaluated))
    if missing:
        raise RegimeInputError(f"no evaluated price for valid bids {missing}")
    prices = {b: evaluated[b].evaluated_cny for b in valid_ids}
    zero = sorted(b for b, p in prices.items() if p <= 0)
    if zero:
        raise RegimeInputError(f"evaluated price must be positive: {zero}")
    return prices


def _proportional(values: Mapping[str, Decimal], weight: Decimal) -> dict[str, Decimal]:
    if not values:
        return {}
    base = min(values.values())
    return {b: base / v * weight for b, v in values.items()}


def low_price_first_scores(
    evaluated: Mapping[str, EvaluatedPrice],
    valid_ids: Collection[str],
    weight_pct: Decimal,
) -> Mapping[str, Decimal]:
    """评标基准价 / 评标价 × 价格权值 × 100 for each valid bid, in points of the total.

    ``weight_pct`` is the price weight in percent (30 for 30 %), so the full price
    score is ``weight_pct`` points of 100 (= 价格权值 × 100). Invalid bids get no key.
    """
    weight = _check_weight(weight_pct)
    return MappingProxyType(_proportional(_valid(evaluated, valid_ids), weight))


def abnormally_low(
    evaluated: Mapping[str, EvaluatedPrice],
    valid_ids: Collection[str],
    share_pct: Decimal,
) -> set[str]:
    """Valid bids priced more than ``share_pct`` % below the mean of the valid bids.

    87号令 第六十条 (secondary text) asks the committee to obtain a written explanation
    when a price is 明显低于 the others that passed the 符合性审查; it sets no figure,
    so the share is the procurement's setting. Flagged bids are not invalid: the vendor
    justifies, the committee records its judgement.
    """
    share = Decimal(share_pct)
    if not (share.is_finite() and Decimal(0) < share < Decimal(100)):
        raise RegimeInputError(f"share must be between 0 and 100 %: {share_pct}")
    prices = _valid(evaluated, valid_ids)
    if len(prices) < 2:
        return set()
    mean = sum(prices.values()) / len(prices)
    threshold = mean * (1 - share / 100)
    return {b for b, p in prices.items() if p < threshold}


def capacity_price_scores(
    cost_cny_by_bid: Mapping[str, Decimal],
    delivered_capacity_by_bid: Mapping[str, Decimal],
    weight_pct: Decimal,
) -> Mapping[str, Decimal]:
    """Commercial regime: 低价优先法 on cost per unit of delivered capacity.

    unit cost = normalised TCO / delivered capacity (PFLOPS-days, or millions of tokens
    served at the SLO); the lowest unit cost gets ``weight_pct`` points, the others
    lowest / theirs. A bid delivering 15 % of the compute at 30 % of the price costs
    twice as much per PFLOPS-day and scores half, however many GPUs it counts. A bid
    that delivers nothing cannot be scored (``RegimeInputError``).
    """
    weight = _check_weight(weight_pct)
    if set(cost_cny_by_bid) != set(delivered_capacity_by_bid):
        raise RegimeInputError("cost and delivered capacity must cover the same bids")
    unit: dict[str, Decimal] = {}
    for bid_id, cost in cost_cny_by_bid.items():
        capacity = Decimal(delivered_capacity_by_bid[bid_id])
        if not (cost.is_finite() and cost > 0):
            raise RegimeInputError(f"cost of bid {bid_id!r} must be positive: {cost}")
        if not (capacity.is_finite() and capacity > 0):
            raise RegimeInputError(
                f"delivered capacity of bid {bid_id!r} must be positive: {capacity}"
            )
        unit[bid_id] = cost / capacity
    return MappingProxyType(_proportional(unit, weight))
