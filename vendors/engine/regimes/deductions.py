"""Policy price deductions (价格扣除) applied before the price formula.

The evaluated price (评标价) is the quoted price after arithmetic correction, less the
deductions the buyer's policy grants: small and micro enterprises (财库〔2022〕19号)
and domestic products (国办发〔2025〕34号). The deduction only sets the price the formula
scores; the contract is signed at the quoted price.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Literal

__all__ = [
    "Deduction",
    "DeductionPolicy",
    "EvaluatedPrice",
    "PriceInput",
    "Stacking",
    "evaluated_prices",
]

Stacking = Literal["additive", "sequential", "larger_only"]


@dataclass(frozen=True)
class PriceInput:
    bid_id: str
    quoted_cny: Decimal  # 投标报价 as read at the opening
    arithmetic_corrected_cny: Decimal | None  # after 算术修正, None: no correction
    sme: bool  # small or micro enterprise (中小企业声明函 accepted)
    domestic: bool  # 本国产品 (proof accepted)


@dataclass(frozen=True)
class DeductionPolicy:
    sme_pct: Decimal = Decimal(0)
    domestic_pct: Decimal = Decimal(0)
    stacking: Stacking = "sequential"


@dataclass(frozen=True)
class Deduction:
    kind: Literal["sme", "domestic"]
    pct: Decimal
    amount_cny: Decimal


@dataclass(frozen=True)
class EvaluatedPrice:
    bid_id: str
    quoted_cny: Decimal
    corrected_cny: Decimal  # the quoted price when there was no correction
    deductions: tuple[Deduction, ...]
    evaluated_cny: Decimal  # 评标价: corrected - sum(deductions)


def evaluated_prices(
    inputs: Sequence[PriceInput], policy: DeductionPolicy
) -> Mapping[str, EvaluatedPrice]:
    raise NotImplementedError
