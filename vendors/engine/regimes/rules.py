"""The three evaluation regimes and the rule set each one imposes.

* ``COMMERCIAL`` (企业自主采购): no statute fixes the method; ClusterBuy's defaults, with
  the price scored per delivered capacity so a cut-down accelerator cannot win on GPU
  count (``price.capacity_price_scores``).
* ``GOV_PROCUREMENT`` (政府采购): 政府采购法, its 实施条例 and 财政部令第87号.
* ``TENDERING`` (依法必须招标): 招标投标法 and its 实施条例.

Findings against the issue's summary, from the texts in ``articles``:
* 87号令 第四十七条: seven or more members when *any one* of budget ≥ 10 M CNY,
  technical complexity or large social impact holds — not budget *and* complexity.
* 87号令 第五十五条 sets floors only (goods ≥ 30 %, services ≥ 10 %); the 30–60 % cap
  belonged to the superseded 18号令, so no cap is enforced.
* 招标投标法 sets no price-weight floor; 实施条例 第四十四条 counts *bidders* at the
  opening (fewer than 3: no opening, re-tender); when every bid is rejected the tender
  is re-run (法 第四十二条). 第五十五条 binds the award to the first-ranked candidate
  only where state-owned capital controls or dominates the project.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from fractions import Fraction
from types import MappingProxyType

from . import articles as law
from .articles import Article

__all__ = [
    "Method",
    "PriceBasis",
    "Regime",
    "RegimeRules",
    "ScoreChangeReason",
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
    ABANDON = "abandon"  # 废标, then a new tender (政府采购法 第三十六、三十七条)
    RETENDER_NO_OPENING = (
        "retender_no_opening"  # 不得开标, 重新招标 (实施条例 第四十四条)
    )


class TieBreak(StrEnum):
    """Keys applied in order after the primary ranking key."""

    LOWER_PRICE = "lower_price"  # 按投标报价由低到高
    TIED = "tied"  # 并列: still equal -> same rank


class PriceBasis(StrEnum):
    BID_PRICE = "bid_price"  # 投标报价 after arithmetic correction and deductions
    CAPACITY_COST = "capacity_cost"  # normalised cost per delivered PFLOPS-day


class ScoreChangeReason(StrEnum):
    """The four lawful reasons to change a result after summation (87号令 第六十四条)."""

    SUMMATION_ERROR = "summation_error"  # 分值汇总计算错误的
    OUT_OF_RANGE = "out_of_range"  # 分项评分超出评分标准范围的
    OBJECTIVE_INCONSISTENT = "objective_inconsistent"  # 客观评审因素评分不一致的
    ABNORMAL_SCORE = "abnormal_score"  # 经评标委员会认定评分畸高、畸低的


@dataclass(frozen=True)
class RegimeRules:
    regime: Regime
    methods: frozenset[Method]
    methods_article: Article | None
    # 综合评分法: the share of the total the price score carries, percent.
    price_weight_floor_pct: Mapping[Subject, Decimal]
    price_weight_cap_pct: Mapping[Subject, Decimal]
    price_weight_article: Article | None
    uniform_goods_lowest_price: bool  # 标准统一的货物和服务 -> 最低评标价法
    price_basis: PriceBasis
    committee_min_size: int  # 0: no statutory committee
    committee_odd: bool
    committee_experts_min_share: Fraction  # 0: no rule
    committee_large_min_size: int  # 0: no rule
    committee_large_budget_cny: Decimal | None  # one of the "large project" triggers
    committee_article: Article | None
    min_bidders: int  # at the opening; 0: no rule
    min_valid_bids: int  # after 符合性审查; 0: no rule
    too_few_bids: TooFewBids
    min_bids_article: Article | None
    bid_bond_cap_share: Decimal | None  # of the budget (estimated price)
    bid_bond_article: Article | None
    max_ranked_candidates: int | None
    candidates_article: Article | None
    award_first_ranked: bool  # the buyer must award in ranking order
    award_article: Article | None
    tie_break: Mapping[Method, tuple[TieBreak, ...]]
    tie_break_article: Mapping[Method, Article]
    score_change_reasons: frozenset[ScoreChangeReason]  # after summation; empty: free
    score_change_article: Article | None
    prescores_may_count: bool  # automatic pre-scores counted as marks
    independent_scoring_article: Article | None
    over_ceiling_article: Article | None  # a price over the budget / 最高限价
    abnormally_low_article: Article | None
    collusion_articles: tuple[Article, ...]
    restriction_articles: tuple[Article, ...]
    acceptance_article: Article | None  # 履约验收 and the 验收书


def _per_subject(goods: str, services: str) -> Mapping[Subject, Decimal]:
    return MappingProxyType(
        {Subject.GOODS: Decimal(goods), Subject.SERVICES: Decimal(services)}
    )


_BOTH = frozenset(Method)
_PRICE_THEN_TIED = (TieBreak.LOWER_PRICE, TieBreak.TIED)

COMMERCIAL = RegimeRules(
    regime=Regime.COMMERCIAL,
    methods=_BOTH,
    methods_article=None,
    price_weight_floor_pct=_per_subject("0", "0"),
    price_weight_cap_pct=_per_subject("100", "100"),
    price_weight_article=None,
    uniform_goods_lowest_price=False,
    price_basis=PriceBasis.CAPACITY_COST,
    committee_min_size=0,
    committee_odd=False,
    committee_experts_min_share=Fraction(0),
    committee_large_min_size=0,
    committee_large_budget_cny=None,
    committee_article=None,
    min_bidders=0,
    min_valid_bids=0,
    too_few_bids=TooFewBids.NONE,
    min_bids_article=None,
    bid_bond_cap_share=None,
    bid_bond_article=None,
    max_ranked_candidates=None,
    candidates_article=None,
    award_first_ranked=False,
    award_article=None,
    tie_break=MappingProxyType(
        {Method.COMPREHENSIVE: _PRICE_THEN_TIED, Method.LOWEST_PRICE: (TieBreak.TIED,)}
    ),
    tie_break_article=MappingProxyType({}),
    score_change_reasons=frozenset(),
    score_change_article=None,
    prescores_may_count=True,
    independent_scoring_article=None,
    over_ceiling_article=None,
    abnormally_low_article=None,
    collusion_articles=(),
    restriction_articles=(),
    acceptance_article=None,
)

GOV_PROCUREMENT = RegimeRules(
    regime=Regime.GOV_PROCUREMENT,
    methods=_BOTH,
    methods_article=law.GPL_IMPL_34,
    price_weight_floor_pct=_per_subject("30", "10"),
    price_weight_cap_pct=_per_subject("100", "100"),
    price_weight_article=law.ORDER87_55,
    uniform_goods_lowest_price=True,
    price_basis=PriceBasis.BID_PRICE,
    committee_min_size=5,
    committee_odd=True,
    committee_experts_min_share=Fraction(2, 3),
    committee_large_min_size=7,
    committee_large_budget_cny=Decimal("10000000"),
    committee_article=law.ORDER87_47,
    min_bidders=3,
    min_valid_bids=3,
    too_few_bids=TooFewBids.ABANDON,
    min_bids_article=law.GPL_36,
    bid_bond_cap_share=Decimal("0.02"),
    bid_bond_article=law.GPL_IMPL_33,
    max_ranked_candidates=None,  # set by the 招标文件; the buyer awards in order
    candidates_article=None,
    award_first_ranked=True,
    award_article=law.GPL_IMPL_43,
    tie_break=MappingProxyType(
        {Method.COMPREHENSIVE: _PRICE_THEN_TIED, Method.LOWEST_PRICE: (TieBreak.TIED,)}
    ),
    tie_break_article=MappingProxyType(
        {Method.COMPREHENSIVE: law.ORDER87_57, Method.LOWEST_PRICE: law.ORDER87_56}
    ),
    score_change_reasons=frozenset(ScoreChangeReason),
    score_change_article=law.ORDER87_64,
    prescores_may_count=False,
    independent_scoring_article=law.GPL_IMPL_41,
    over_ceiling_article=law.ORDER87_63,
    abnormally_low_article=law.ORDER87_60,
    collusion_articles=(law.ORDER87_37,),
    restriction_articles=(law.GPL_IMPL_20, law.ORDER87_17),
    acceptance_article=law.GPL_IMPL_45,
)

TENDERING = RegimeRules(
    regime=Regime.TENDERING,
    methods=_BOTH,
    methods_article=law.TBL_41,
    price_weight_floor_pct=_per_subject("0", "0"),  # no statutory floor found
    price_weight_cap_pct=_per_subject("100", "100"),
    price_weight_article=None,
    uniform_goods_lowest_price=False,
    price_basis=PriceBasis.BID_PRICE,
    committee_min_size=5,
    committee_odd=True,
    committee_experts_min_share=Fraction(2, 3),
    committee_large_min_size=0,
    committee_large_budget_cny=None,
    committee_article=law.TBL_37,
    min_bidders=3,
    min_valid_bids=1,  # every bid rejected -> re-tender (法 第四十二条)
    too_few_bids=TooFewBids.RETENDER_NO_OPENING,
    min_bids_article=law.TBL_IMPL_44,
    bid_bond_cap_share=Decimal("0.02"),
    bid_bond_article=law.TBL_IMPL_26,
    max_ranked_candidates=3,
    candidates_article=law.TBL_IMPL_53,
    award_first_ranked=True,  # where state-owned capital controls (实施条例 第五十五条)
    award_article=law.TBL_IMPL_55,
    tie_break=MappingProxyType(
        {Method.COMPREHENSIVE: _PRICE_THEN_TIED, Method.LOWEST_PRICE: (TieBreak.TIED,)}
    ),  # not fixed by the statute: the 招标文件 decides; ClusterBuy's default
    tie_break_article=MappingProxyType({}),
    score_change_reasons=frozenset(ScoreChangeReason),  # 87号令's list as the default
    score_change_article=None,
    prescores_may_count=False,
    independent_scoring_article=None,
    over_ceiling_article=law.TBL_IMPL_51,
    abnormally_low_article=law.TBL_IMPL_51,
    collusion_articles=(law.TBL_IMPL_40,),
    restriction_articles=(law.TBL_IMPL_32,),
    acceptance_article=None,
)

_RULES = MappingProxyType(
    {
        Regime.COMMERCIAL: COMMERCIAL,
        Regime.GOV_PROCUREMENT: GOV_PROCUREMENT,
        Regime.TENDERING: TENDERING,
    }
)


def rules_for(regime: Regime | str) -> RegimeRules:
    """The rule set of ``regime`` (a ``Regime`` or its value)."""
    return _RULES[Regime(regime)]
