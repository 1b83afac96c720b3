"""The three evaluation regimes and the rule set each one imposes.

* ``COMMERCIAL`` (企业自主采购): no statute governs the method; the buyer's own rules,
  with ClusterBuy's defaults.
* ``GOV_PROCUREMENT`` (政府采购): 政府采购法, its 实施条例 and 财政部令第87号.
* ``TENDERING`` (依法必须招标): 招标投标法 and its 实施条例.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction

from .articles import Article

__all__ = [
    "Method",
    "Regime",
    "RegimeRules",
    "Subject",
    "TieBreak",
    "TooFewBids",
    "rules_for",
]


class Regime(StrEnum):
    COMMERCIAL = "commercial"  # 企业自主采购
    GOV_PROCUREMENT = "gov_procurement"  # 政府采购 (87号令)
    TENDERING = "tendering"  # 依法必须招标 (招标投标法)


class Method(StrEnum):
    COMPREHENSIVE = "comprehensive"  # 综合评分法
    LOWEST_PRICE = "lowest_price"  # 最低评标价法


class Subject(StrEnum):
    GOODS = "goods"
    SERVICES = "services"


class TooFewBids(StrEnum):
    """What happens when fewer than the minimum number of bids remain."""

    NONE = "none"  # commercial: the buyer decides
    ABANDON = "abandon"  # 废标 (政府采购法 第三十六条)
    RETENDER_NO_OPENING = "retender_no_opening"  # 不得开标, 重新招标


class TieBreak(StrEnum):
    """Keys applied in order after the primary ranking key."""

    LOWER_PRICE = "lower_price"  # 按投标报价由低到高
    HIGHER_TECHNICAL = "higher_technical"
    TIED = "tied"  # 并列: still equal -> same rank


@dataclass(frozen=True)
class RegimeRules:
    regime: Regime
    methods: frozenset[Method]
    methods_article: Article | None
    # 综合评分法: minimum (and maximum) share of the total the price score may carry.
    price_weight_floor_pct: Mapping[Subject, Decimal]
    price_weight_cap_pct: Mapping[Subject, Decimal]
    price_weight_article: Article | None
    committee_min_size: int  # 0: no statutory committee
    committee_odd: bool
    committee_experts_min_share: Fraction  # 0: no rule
    committee_large_min_size: int  # 0: no rule
    committee_large_budget_cny: Decimal | None
    committee_article: Article | None
    min_valid_bids: int  # 0: no rule
    too_few_bids: TooFewBids
    min_bids_article: Article | None
    bid_bond_cap_share: Decimal | None  # of the budget (estimated price)
    bid_bond_article: Article | None
    max_ranked_candidates: int | None
    candidates_article: Article | None
    award_first_ranked: bool
    award_article: Article | None
    tie_break: Mapping[Method, tuple[TieBreak, ...]]
    tie_break_article: Article | None
    score_change_reasons: tuple[str, ...]  # after summation; empty: free
    score_change_article: Article | None
    prescores_may_count: bool  # automatic pre-scores counted as marks
    articles: tuple[Article, ...] = field(default=())


def rules_for(regime: Regime) -> RegimeRules:
    """The rule set of ``regime``."""
    raise NotImplementedError
