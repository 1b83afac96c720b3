"""Validators of a procurement's evaluation settings against its regime's rules.

Each returns a tuple of ``RuleViolation`` (empty: lawful), so a form, an API and a
report can show every broken rule at once, each with the article it breaks. Entry
points translate by ``code`` and fill the message from ``params``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from types import MappingProxyType

from .articles import Article
from .rules import Method, RegimeRules, Subject, TooFewBids

__all__ = [
    "RegimeInputError",
    "RuleViolation",
    "check_viability",
    "validate_bond",
    "validate_method",
    "validate_price_weight",
]


class RegimeInputError(ValueError):
    """A value no rule can judge: a negative budget, a weight outside 0-100."""


@dataclass(frozen=True)
class RuleViolation:
    code: str  # stable machine code: "price_weight_below_floor"
    field: str  # the setting it concerns: "price_weight_pct"
    message_en: str  # English sentence; entry points translate by code
    params: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))
    article: Article | None = None


def validate_method(
    rules: RegimeRules,
    method: Method,
    subject: Subject,
    *,
    uniform_standards: bool = False,
) -> tuple[RuleViolation, ...]:
    """The method is one the regime allows; 标准统一的 goods and services use 最低评标价法
    under 政府采购 (实施条例 第三十四条)."""
    found: list[RuleViolation] = []
    if method not in rules.methods:
        found.append(
            RuleViolation(
                "method_not_allowed",
                "method",
                f"The {rules.regime} regime does not allow the {method} method.",
                {"method": str(method), "regime": str(rules.regime)},
                rules.methods_article,
            )
        )
    if (
        rules.uniform_goods_lowest_price
        and uniform_standards
        and method != Method.LOWEST_PRICE
    ):
        found.append(
            RuleViolation(
                "uniform_standards_need_lowest_price",
                "method",
                f"{subject.capitalize()} with uniform technical and service standards "
                "must be evaluated by the lowest evaluated price method.",
                {"subject": str(subject)},
                rules.methods_article,
            )
        )
    return tuple(found)


def validate_price_weight(
    rules: RegimeRules, method: Method, subject: Subject, weight_pct: Decimal
) -> tuple[RuleViolation, ...]:
    """综合评分法: the price weight lies between the regime's floor and cap for the
    subject (87号令 第五十五条: goods ≥ 30 %, services ≥ 10 %). 最低评标价法 has no
    weight: price decides alone, so any weight is ignored."""
    weight = Decimal(weight_pct)
    if not weight.is_finite() or not Decimal(0) <= weight <= Decimal(100):
        raise RegimeInputError(f"price weight must be 0-100 %: {weight_pct}")
    if method == Method.LOWEST_PRICE:
        return ()
    floor = rules.price_weight_floor_pct[subject]
    cap = rules.price_weight_cap_pct[subject]
    params = {"weight_pct": weight, "floor_pct": floor, "cap_pct": cap}
    if weight < floor:
        return (
            RuleViolation(
                "price_weight_below_floor",
                "price_weight_pct",
                f"The price weight for {subject} must be at least {floor} % "
                f"(given {weight} %).",
                params,
                rules.price_weight_article,
            ),
        )
    if weight > cap:
        return (
            RuleViolation(
                "price_weight_above_cap",
                "price_weight_pct",
                f"The price weight for {subject} must be at most {cap} % "
                f"(given {weight} %).",
                params,
                rules.price_weight_article,
            ),
        )
    return ()


def check_viability(
    rules: RegimeRules, *, bidders: int, valid_bids: int
) -> RuleViolation | None:
    """Whether the tender can go on: ``None``, or the violation that ends it.

    * 政府采购: fewer than 3 bids that respond substantially -> 废标 (政府采购法 第三十六条).
    * 依法必须招标: fewer than 3 bidders -> no opening, re-tender (实施条例 第四十四条);
      every bid rejected -> re-tender (法 第四十二条).
    """
    if bidders < 0 or valid_bids < 0 or valid_bids > bidders:
        raise RegimeInputError(
            f"need 0 <= valid_bids <= bidders: {valid_bids}, {bidders}"
        )
    if rules.too_few_bids == TooFewBids.NONE:
        return None
    params = {
        "bidders": bidders,
        "valid_bids": valid_bids,
        "min_bidders": rules.min_bidders,
        "min_valid_bids": rules.min_valid_bids,
        "consequence": str(rules.too_few_bids),
    }
    if bidders < rules.min_bidders:
        return RuleViolation(
            "too_few_bidders",
            "bidders",
            f"{bidders} bidders: at least {rules.min_bidders} are needed; "
            f"the tender fails ({rules.too_few_bids}).",
            params,
            rules.min_bids_article,
        )
    if valid_bids < rules.min_valid_bids:
        return RuleViolation(
            "too_few_valid_bids",
            "valid_bids",
            f"{valid_bids} valid bids: at least {rules.min_valid_bids} are needed; "
            f"the tender fails ({rules.too_few_bids}).",
            params,
            rules.min_bids_article,
        )
    return None


def validate_bond(
    rules: RegimeRules, bond_cny: Decimal, budget_cny: Decimal
) -> tuple[RuleViolation, ...]:
    """The bid bond is at most the regime's share of the budget (政府采购法实施条例
    第三十三条, 招标投标法实施条例 第二十六条: 2 %)."""
    bond, budget = Decimal(bond_cny), Decimal(budget_cny)
    if not (bond.is_finite() and budget.is_finite()) or bond < 0 or budget <= 0:
        raise RegimeInputError(
            f"bond must be >= 0 and budget > 0: {bond_cny}, {budget_cny}"
        )
    if rules.bid_bond_cap_share is None:
        return ()
    cap = budget * rules.bid_bond_cap_share
    if bond <= cap:
        return ()
    return (
        RuleViolation(
            "bond_above_cap",
            "bid_bond_cny",
            f"The bid bond {bond} CNY exceeds {rules.bid_bond_cap_share:%} "
            f"of the budget ({cap} CNY).",
            {"bond_cny": bond, "cap_cny": cap, "budget_cny": budget},
            rules.bid_bond_article,
        ),
    )
