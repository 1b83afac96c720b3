"""The evaluation committee's composition: size, odd number, experts' share."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

from .rules import RegimeRules
from .validation import RuleViolation

__all__ = ["CommitteeSeat", "SeatRole", "validate_committee"]

SeatRole = Literal["buyer_rep", "expert"]


@dataclass(frozen=True)
class CommitteeSeat:
    role: SeatRole  # "buyer_rep" 采购人代表 / "expert" 评审专家
    name: str = ""


def validate_committee(
    rules: RegimeRules,
    members: Sequence[CommitteeSeat],
    budget_cny: Decimal,
    complex_project: bool,
) -> tuple[RuleViolation, ...]:
    raise NotImplementedError
