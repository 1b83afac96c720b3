"""Price scores: 低价优先法 on evaluated bid prices, the abnormally-low check, and the
commercial regime's price per delivered capacity."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from decimal import Decimal

from .deductions import EvaluatedPrice

__all__ = ["abnormally_low", "capacity_price_scores", "low_price_first_scores"]


def low_price_first_scores(
    evaluated: Mapping[str, EvaluatedPrice],
    valid_ids: Collection[str],
    weight_pct: Decimal,
) -> Mapping[str, Decimal]:
    """评标基准价 / 评标价 × 价格权值 × 100 for each valid bid."""
    raise NotImplementedError


def abnormally_low(
    evaluated: Mapping[str, EvaluatedPrice],
    valid_ids: Collection[str],
    share_pct: Decimal,
) -> set[str]:
    raise NotImplementedError


def capacity_price_scores(
    cost_cny_by_bid: Mapping[str, Decimal],
    delivered_capacity_by_bid: Mapping[str, Decimal],
    weight_pct: Decimal,
) -> Mapping[str, Decimal]:
    raise NotImplementedError
