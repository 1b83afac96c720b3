"""Validators of a procurement's evaluation settings against its regime's rules.

Each returns a tuple of ``RuleViolation`` (empty: lawful), so a form, an API and a
report can show every broken rule at once, each with the article it breaks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal

from .articles import Article
from .rules import Method, RegimeRules, Subject

__all__ = [
    "RuleViolation",
    "check_viability",
    "validate_bond",
    "validate_method",
    "validate_price_weight",
]


@dataclass(frozen=True)
class RuleViolation:
    code: str  # stable machine code: "price_weight_below_floor"
    field: str  # the setting it concerns: "price_weight_pct"
    message_en: str  # English sentence; entry points translate by code
    params: Mapping[str, object] = field(default_factory=dict)
    article: Article | None = None


def validate_method(
    rules: RegimeRules, method: Method, subject: Subject
) -> tuple[RuleViolation, ...]:
    raise NotImplementedError


def validate_price_weight(
    rules: RegimeRules, method: Method, subject: Subject, weight_pct: Decimal
) -> tuple[RuleViolation, ...]:
    raise NotImplementedError


def check_viability(
    rules: RegimeRules, *, bidders: int, valid_bids: int
) -> RuleViolation | None:
    raise NotImplementedError


def validate_bond(
    rules: RegimeRules, bond_cny: Decimal, budget_cny: Decimal
) -> tuple[RuleViolation, ...]:
    raise NotImplementedError
