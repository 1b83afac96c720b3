"""Policy price deductions (价格扣除) applied before the price formula.

The evaluated price (评标价) is the quoted price after arithmetic correction, less the
deductions the buyer's policy grants: small and micro enterprises (财库〔2020〕46号
第九条, range raised to 10-20 % by 财库〔2022〕19号) and domestic products (20 %,
国办发〔2025〕34号, from 2026-01-01). 87号令 第五十四条 allows no other adjustment. The
deduction only sets the price the formula scores; the contract is at the quoted price.
All three sources are secondary here (see ``articles``).

How the two deductions stack was not found in any text reachable here, so it is an
explicit setting of the procurement, ``DeductionPolicy.stacking``:
* ``"sequential"`` (default): p × (1 − sme) × (1 − domestic) — each applies to the
  price the other left; never below zero, order-independent;
* ``"additive"``: p × (1 − sme − domestic), capped at 100 %;
* ``"larger_only"``: only the larger of the two applies.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from types import MappingProxyType
from typing import Literal

from .validation import RegimeInputError

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


_SME_RANGE_PCT = (Decimal(0), Decimal(20))  # 0: no SME policy; 19号: 10-20 % goods
_DOMESTIC_MAX_PCT = Decimal(20)


def _check_policy(policy: DeductionPolicy) -> None:
    low, high = _SME_RANGE_PCT
    if not low <= policy.sme_pct <= high:
        raise RegimeInputError(f"SME deduction must be 0-20 %: {policy.sme_pct}")
    if not Decimal(0) <= policy.domestic_pct <= _DOMESTIC_MAX_PCT:
        raise RegimeInputError(
            f"domestic-product deduction must be 0-20 %: {policy.domestic_pct}"
        )
    if policy.stacking not in ("additive", "sequential", "larger_only"):
        raise RegimeInputError(f"unknown stacking {policy.stacking!r}")


def _deductions(
    corrected: Decimal, item: PriceInput, policy: DeductionPolicy
) -> tuple[Deduction, ...]:
    granted = [
        (kind, pct)
        for kind, pct, applies in (
            ("sme", policy.sme_pct, item.sme),
            ("domestic", policy.domestic_pct, item.domestic),
        )
        if applies and pct > 0
    ]
    if policy.stacking == "larger_only" and len(granted) == 2:
        granted = [max(granted, key=lambda g: g[1])]  # sme first on a tie
    found: list[Deduction] = []
    base = corrected
    for kind, pct in granted:
        amount = base * pct / 100
        found.append(Deduction(kind, pct, amount))  # type: ignore[arg-type]
        if policy.stacking == "sequential":
            base -= amount
    return tuple(found)


def evaluated_prices(
    inputs: Sequence[PriceInput], policy: DeductionPolicy
) -> Mapping[str, EvaluatedPrice]:
    """Each bid's 评标价: corrected price less the policy deductions it qualifies for."""
    _check_policy(policy)
    result: dict[str, EvaluatedPrice] = {}
    for item in inputs:
        if item.bid_id in result:
            raise RegimeInputError(f"bid {item.bid_id!r} given twice")
        corrected = (
            item.quoted_cny
            if item.arithmetic_corrected_cny is None
            else item.arithmetic_corrected_cny
        )
        for value in (item.quoted_cny, corrected):
            if not (value.is_finite() and value > 0):
                raise RegimeInputError(
                    f"price of bid {item.bid_id!r} must be positive: {value}"
                )
        deductions = _deductions(corrected, item, policy)
        evaluated = max(corrected - sum(d.amount_cny for d in deductions), Decimal(0))
        result[item.bid_id] = EvaluatedPrice(
            item.bid_id, item.quoted_cny, corrected, deductions, evaluated
        )
    return MappingProxyType(result)
