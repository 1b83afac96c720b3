"""The evaluation committee's composition: size, odd number, experts' share.

政府采购 (87号令 第四十七条, secondary text): 采购人代表 and 评审专家, five or more and
odd, experts at least two thirds; seven or more when *any one* of these holds: the
budget is 10 M CNY or more, the project is technically complex, or its social impact is
large. 依法必须招标 (招标投标法 第三十七条, primary): five or more and odd, technical and
economic experts at least two thirds. The commercial regime sets no rule.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Literal

from .rules import RegimeRules
from .validation import RegimeInputError, RuleViolation

__all__ = ["CommitteeSeat", "SeatRole", "required_committee_size", "validate_committee"]

SeatRole = Literal["buyer_rep", "expert"]
_ROLES = ("buyer_rep", "expert")


@dataclass(frozen=True)
class CommitteeSeat:
    role: SeatRole  # "buyer_rep" 采购人代表 / "expert" 评审专家
    name: str = ""


def required_committee_size(
    rules: RegimeRules,
    budget_cny: Decimal,
    complex_project: bool,
    *,
    high_social_impact: bool = False,
) -> int:
    """The smallest committee the regime allows for this project (0: no rule)."""
    large = complex_project or high_social_impact
    if rules.committee_large_budget_cny is not None:
        large = large or Decimal(budget_cny) >= rules.committee_large_budget_cny
    if large and rules.committee_large_min_size:
        return max(rules.committee_min_size, rules.committee_large_min_size)
    return rules.committee_min_size


def validate_committee(
    rules: RegimeRules,
    members: Sequence[CommitteeSeat],
    budget_cny: Decimal,
    complex_project: bool,
    *,
    high_social_impact: bool = False,
) -> tuple[RuleViolation, ...]:
    """Every composition rule the committee breaks, each with its article."""
    if Decimal(budget_cny) < 0:
        raise RegimeInputError(f"budget must not be negative: {budget_cny}")
    unknown = sorted({m.role for m in members} - set(_ROLES))
    if unknown:
        raise RegimeInputError(f"unknown committee roles: {unknown}")
    size = len(members)
    experts = sum(1 for m in members if m.role == "expert")
    minimum = required_committee_size(
        rules, budget_cny, complex_project, high_social_impact=high_social_impact
    )
    params = {"size": size, "experts": experts, "min_size": minimum}
    found: list[RuleViolation] = []
    if size < minimum:
        large = minimum > rules.committee_min_size
        found.append(
            RuleViolation(
                "committee_too_small_large_project" if large else "committee_too_small",
                "members",
                f"The committee has {size} members; at least {minimum} are required"
                + (
                    " (budget of 10 M CNY or more, complex or high-impact project)."
                    if large
                    else "."
                ),
                params,
                rules.committee_article,
            )
        )
    if rules.committee_odd and size % 2 == 0:
        found.append(
            RuleViolation(
                "committee_not_odd",
                "members",
                f"The committee must have an odd number of members (has {size}).",
                params,
                rules.committee_article,
            )
        )
    share = rules.committee_experts_min_share
    if share and size and Fraction(experts, size) < share:
        found.append(
            RuleViolation(
                "committee_too_few_experts",
                "members",
                f"Experts must be at least {share} of the committee "
                f"({experts} of {size}).",
                {**params, "min_share": str(share)},
                rules.committee_article,
            )
        )
    return tuple(found)
