"""The ranking of valid bids per method, with the regime's tie-break and candidates.

* 综合评分法 (87号令 第五十七条, secondary text): by total, highest first; equal totals by
  evaluated price, lowest first; equal in both -> 并列 (same rank).
* 最低评标价法 (87号令 第五十六条): by evaluated price, lowest first; equal -> 并列.
* 依法必须招标: at most 3 ranked candidates (实施条例 第五十三条); the statute leaves the
  tie-break to the 招标文件, ClusterBuy uses the same keys.

Totals are compared after rounding to 2 decimals (the precision a 评标报告 prints), so
Decimal noise cannot split a tie the report shows as one. Invalid bids are not ranked.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from decimal import Decimal

from .deductions import EvaluatedPrice
from .rules import Method, RegimeRules, TieBreak
from .validation import RegimeInputError

__all__ = ["RankedEntry", "lowest_price_ranking", "rank"]

_TOTAL_QUANTUM = Decimal("0.01")


@dataclass(frozen=True)
class RankedEntry:
    bid_id: str
    rank: int  # tied entries share a rank (并列): 1, 2, 2, 4
    total: Decimal | None  # 综合评分法 total; None for 最低评标价法
    evaluated_cny: Decimal
    candidate: bool  # within the regime's recommended candidates


def _ranked(
    rules: RegimeRules,
    ids: list[str],
    key: Callable[[str], tuple[Decimal, ...]],
    totals: Mapping[str, Decimal] | None,
    prices: Mapping[str, EvaluatedPrice],
) -> tuple[RankedEntry, ...]:
    ordered = sorted(ids, key=lambda b: (key(b), b))
    entries: list[RankedEntry] = []
    limit = rules.max_ranked_candidates
    for position, bid_id in enumerate(ordered, start=1):
        previous = entries[-1] if entries else None
        tied = previous is not None and key(previous.bid_id) == key(bid_id)
        rank_no = previous.rank if tied and previous else position
        entries.append(
            RankedEntry(
                bid_id=bid_id,
                rank=rank_no,
                total=totals[bid_id] if totals is not None else None,
                evaluated_cny=prices[bid_id].evaluated_cny,
                candidate=limit is None or rank_no <= limit,
            )
        )
    return tuple(entries)


def _checked_ids(
    prices: Mapping[str, EvaluatedPrice], valid_ids: Collection[str]
) -> list[str]:
    missing = sorted(set(valid_ids) - set(prices))
    if missing:
        raise RegimeInputError(f"no evaluated price for valid bids {missing}")
    return sorted(set(valid_ids))


def rank(
    rules: RegimeRules,
    method: Method,
    totals: Mapping[str, Decimal],
    evaluated_prices: Mapping[str, EvaluatedPrice],
    valid_ids: Collection[str],
) -> tuple[RankedEntry, ...]:
    """The valid bids in ranking order (``totals`` are ignored for 最低评标价法)."""
    if method == Method.LOWEST_PRICE:
        return lowest_price_ranking(rules, evaluated_prices, valid_ids)
    ids = _checked_ids(evaluated_prices, valid_ids)
    missing = sorted(set(ids) - set(totals))
    if missing:
        raise RegimeInputError(f"no total for valid bids {missing}")
    by_price = TieBreak.LOWER_PRICE in rules.tie_break[method]

    def key(bid_id: str) -> tuple[Decimal, ...]:
        total = -Decimal(totals[bid_id]).quantize(_TOTAL_QUANTUM)
        if by_price:
            return (total, evaluated_prices[bid_id].evaluated_cny)
        return (total,)

    return _ranked(rules, ids, key, totals, evaluated_prices)


def lowest_price_ranking(
    rules: RegimeRules,
    evaluated_prices: Mapping[str, EvaluatedPrice],
    valid_ids: Collection[str],
) -> tuple[RankedEntry, ...]:
    """最低评标价法: valid bids by evaluated price, lowest first; equal prices 并列."""
    ids = _checked_ids(evaluated_prices, valid_ids)
    return _ranked(
        rules,
        ids,
        lambda b: (evaluated_prices[b].evaluated_cny,),
        None,
        evaluated_prices,
    )
