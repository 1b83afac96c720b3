"""The ranking of valid bids per method, with the regime's tie-break and candidates."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from decimal import Decimal

from .deductions import EvaluatedPrice
from .rules import Method, RegimeRules

__all__ = ["RankedEntry", "lowest_price_ranking", "rank"]


@dataclass(frozen=True)
class RankedEntry:
    bid_id: str
    rank: int  # tied entries share a rank (并列)
    total: Decimal | None  # 综合评分法 total; None for 最低评标价法
    evaluated_cny: Decimal
    candidate: bool  # within the regime's recommended candidates


def rank(
    rules: RegimeRules,
    method: Method,
    totals: Mapping[str, Decimal],
    evaluated_prices: Mapping[str, EvaluatedPrice],
    valid_ids: Collection[str],
) -> tuple[RankedEntry, ...]:
    raise NotImplementedError


def lowest_price_ranking(
    rules: RegimeRules,
    evaluated_prices: Mapping[str, EvaluatedPrice],
    valid_ids: Collection[str],
) -> tuple[RankedEntry, ...]:
    raise NotImplementedError
