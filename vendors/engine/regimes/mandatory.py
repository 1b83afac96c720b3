"""Mandatory (★) requirements from the sizing plan and the 符合性审查 of each bid."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from .articles import Article

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
    raise NotImplementedError


def review_conformity(
    items: Sequence[MandatoryItem],
    bid_facts: Mapping[str, Decimal | bool],
    *,
    budget_cny: Decimal | None,
    ceiling_cny: Decimal | None,
    price_cny: Decimal | None = None,
) -> ConformityResult:
    raise NotImplementedError
