"""Criteria that would restrict or exclude suppliers (政府采购法实施条例 第二十条)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .rules import RegimeRules
from .validation import RuleViolation

__all__ = ["CriterionText", "restrictive_criteria"]


@dataclass(frozen=True)
class CriterionText:
    key: str
    text: str  # the criterion as the buyer wrote it (zh or en)


def restrictive_criteria(
    rules: RegimeRules, criteria: Sequence[CriterionText]
) -> tuple[RuleViolation, ...]:
    raise NotImplementedError
