"""Mandatory (★) requirements from the sizing plan and the 符合性审查 of each bid.

A ★ item is a 实质性要求: a bid that fails one does not respond substantially and is an
无效投标 (政府采购法实施条例 第三十四条: both methods need "投标文件满足招标文件全部实质性
要求"; 招标投标法实施条例 第五十一条（六）). A price over the budget or the 最高限价 is
invalid too (87号令 第六十三条（四）, secondary text; 招标投标法实施条例 第五十一条（五）
for the 最高投标限价). An invalid bid leaves the base price and the ranking.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from . import articles as law
from .articles import Article
from .rules import RegimeRules

__all__ = [
    "Comparison",
    "ConformityResult",
    "InvalidReason",
    "MandatoryItem",
    "PlanFacts",
    "mandatory_from_plan",
    "review_conformity",
]

Comparison = Literal["gte", "lte", "eq", "true"]


@dataclass(frozen=True)
class MandatoryItem:
    key: str  # "delivered_pflops", "memory_fit", "network_gbps_per_gpu", ...
    comparison: Comparison
    required: Decimal | bool
    unit: str  # "PFLOPS", "Gbit/s", "TB", "days", ""
    source: str  # where the requirement comes from: "sizing plan: ..."


@dataclass(frozen=True)
class PlanFacts:
    """What the sizing plan requires, in the units of the ★ items."""

    delivered_pflops: Decimal
    memory_fit: bool = True
    network_gbps_per_gpu: Decimal | None = None
    storage_tb: Decimal | None = None
    delivery_days: int | None = None
    open_scheduler: bool = True


@dataclass(frozen=True)
class InvalidReason:
    code: str  # "mandatory_not_met", "over_budget", "over_ceiling", "missing_fact"
    item_key: str
    offered: Decimal | bool | None
    required: Decimal | bool | None
    article: Article | None


@dataclass(frozen=True)
class ConformityResult:
    valid: bool
    failures: tuple[InvalidReason, ...]


def mandatory_from_plan(plan: PlanFacts) -> tuple[MandatoryItem, ...]:
    """The ★ items the plan implies; the buyer edits them before the RFP is published."""
    items = [
        MandatoryItem(
            "delivered_pflops",
            "gte",
            plan.delivered_pflops,
            "PFLOPS",
            "sizing plan: delivered compute the workload needs",
        ),
        MandatoryItem(
            "memory_fit", "true", plan.memory_fit, "", "sizing plan: the model fits"
        ),
    ]
    if plan.network_gbps_per_gpu is not None:
        items.append(
            MandatoryItem(
                "network_gbps_per_gpu",
                "gte",
                plan.network_gbps_per_gpu,
                "Gbit/s",
                "sizing plan: scale-out bandwidth per GPU",
            )
        )
    if plan.storage_tb is not None:
        items.append(
            MandatoryItem(
                "storage_tb", "gte", plan.storage_tb, "TB", "sizing plan: storage"
            )
        )
    if plan.delivery_days is not None:
        items.append(
            MandatoryItem(
                "delivery_days",
                "lte",
                Decimal(plan.delivery_days),
                "days",
                "RFP: delivery window",
            )
        )
    if plan.open_scheduler:
        items.append(
            MandatoryItem(
                "open_scheduler",
                "true",
                True,
                "",
                "RFP: an open scheduler (Slurm or Kubernetes) is offered",
            )
        )
    return tuple(items)


def _meets(item: MandatoryItem, offered: Decimal | bool) -> bool:
    if item.comparison == "true":
        return offered is True or not bool(item.required)
    if isinstance(offered, bool) or isinstance(item.required, bool):
        return offered == item.required
    if item.comparison == "gte":
        return Decimal(offered) >= Decimal(item.required)
    if item.comparison == "lte":
        return Decimal(offered) <= Decimal(item.required)
    return Decimal(offered) == Decimal(item.required)


def _price_failures(
    price_cny: Decimal | None,
    budget_cny: Decimal | None,
    ceiling_cny: Decimal | None,
    article: Article | None,
) -> list[InvalidReason]:
    if price_cny is None:
        return []
    found = []
    for code, key, limit in (
        ("over_budget", "budget_cny", budget_cny),
        ("over_ceiling", "ceiling_cny", ceiling_cny),
    ):
        if limit is not None and Decimal(price_cny) > Decimal(limit):
            found.append(InvalidReason(code, key, price_cny, limit, article))
    return found


def review_conformity(
    items: Sequence[MandatoryItem],
    bid_facts: Mapping[str, Decimal | bool],
    *,
    budget_cny: Decimal | None,
    ceiling_cny: Decimal | None,
    price_cny: Decimal | None = None,
    rules: RegimeRules | None = None,
) -> ConformityResult:
    """符合性审查 of one bid: every ★ item met and the price within budget and ceiling.

    A fact the bid does not state fails its item (``missing_fact``): a ★ requirement
    must be answered, not assumed. ``price_cny`` is the quoted (corrected) price, not
    the evaluated one: a deduction does not bring an over-budget bid under the budget.
    """
    substantive = law.TBL_IMPL_51 if rules and rules.regime == "tendering" else None
    substantive = substantive or law.GPL_IMPL_34
    failures: list[InvalidReason] = []
    for item in items:
        offered = bid_facts.get(item.key)
        if offered is None:
            failures.append(
                InvalidReason(
                    "missing_fact", item.key, None, item.required, substantive
                )
            )
        elif not _meets(item, offered):
            failures.append(
                InvalidReason(
                    "mandatory_not_met", item.key, offered, item.required, substantive
                )
            )
    price_article = rules.over_ceiling_article if rules else law.ORDER87_63
    failures += _price_failures(price_cny, budget_cny, ceiling_cny, price_article)
    return ConformityResult(valid=not failures, failures=tuple(failures))
