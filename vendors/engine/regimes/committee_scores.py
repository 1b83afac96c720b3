"""The committee's technical score of a bid: each member's own total, then their mean.

A member's total is the checklist's weighted mean rescaled to 0-100, as
`vendors.engine.scoring.weighted_total_100` defines it (criterion weights within a
section, section weights across sections): ``20 × Σ_s w_s (Σ_c w_c p_c / Σ_c w_c) / Σ_s
w_s`` for marks ``p_c`` of 0-5. The committee's score is the arithmetic mean of the
totals of the members who submitted, each rounded to 0.01 (half up).

The mean is ClusterBuy's rule, as tender documents commonly state it
(评审得分为评标委员会成员评分的算术平均值): no article quoted in ``articles`` fixes how
members' marks combine — 87号令 第五十五条 gives the total per bid (F1×A1+…+Fn×An), and
实施条例 第四十一条 requires each member to score independently. The automatic
pre-scores never enter: only members' marks are passed in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from .validation import RegimeInputError

__all__ = ["ScoredCriterion", "committee_mean", "member_total_100"]

MAX_POINTS = 5
CENT = Decimal("0.01")


@dataclass(frozen=True)
class ScoredCriterion:
    code: str
    section: str
    weight: Decimal


def _rounded(value: Decimal) -> Decimal:
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


def member_total_100(
    marks: Mapping[str, int],
    criteria: Sequence[ScoredCriterion],
    section_weights: Mapping[str, Decimal],
) -> Decimal:
    """One member's 0-100 technical total of one bid (every criterion marked)."""
    missing = [c.code for c in criteria if c.code not in marks]
    if missing:
        raise RegimeInputError(f"no marks for criteria {missing}")
    for code, points in marks.items():
        if not 0 <= points <= MAX_POINTS:
            raise RegimeInputError(f"mark {points} for {code!r} is outside 0-5")
    weighted = Decimal(0)
    total_weight = Decimal(0)
    for section, weight in section_weights.items():
        members = [c for c in criteria if c.section == section]
        inner = sum((Decimal(c.weight) for c in members), Decimal(0))
        if not members or inner <= 0 or Decimal(weight) <= 0:
            continue
        points = sum((Decimal(c.weight) * marks[c.code] for c in members), Decimal(0))
        weighted += Decimal(weight) * points / inner
        total_weight += Decimal(weight)
    if total_weight <= 0:
        raise RegimeInputError("the technical sections must not all weigh zero")
    return _rounded(Decimal(100) / MAX_POINTS * weighted / total_weight)


def committee_mean(totals: Sequence[Decimal]) -> Decimal | None:
    """The mean of the members' totals, to 0.01 (None: nobody submitted)."""
    if not totals:
        return None
    return _rounded(sum(totals, Decimal(0)) / len(totals))
