"""A TCO as a list of items that add up: one per capex line, one per operating-cost
category, and the residual value.

The engine's total cost is nominal: capex + every operating cost over the horizon -
residual value (cashflow.CONVENTIONS). Each item here is that arithmetic for one
piece, rounded to the cent; the breakdown's total is the sum of the rounded items, so
what a page lists adds up exactly to what it calls the total. It differs from the
engine's float total by the rounding of the items only (half a cent per item at most).
There is no financing item: the total is nominal, and the discount rate only enters the
NPV, which is reported separately.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from decimal import ROUND_HALF_UP, Decimal

from .cashflow import OPEX_CATEGORIES, TcoResult
from .inputs import TcoInputs

CENT = Decimal("0.01")
#: Who set the figures an item is computed from.
SOURCES = ("bid", "clusterbuy", "default", "scenario")
#: The inputs each operating cost (and the residual) is computed from.
DRIVERS: dict[str, tuple[str, ...]] = {
    "energy": (
        "it_power_kw",
        "load_factor",
        "pue",
        "electricity_price_per_kwh",
        "electricity_escalation",
    ),
    "colocation": ("it_power_kw", "colocation_per_kw_month"),
    "support": ("support_rate", "warranty_years"),
    "software": ("software_per_year",),
    "staff": ("staff_fte", "staff_cost_per_fte_year", "staff_escalation"),
    "failures": ("annual_failure_rate", "replacement_cost_share"),
    "residual": ("residual_value_rate",),
}


def money(value: float | Decimal) -> Decimal:
    """Rounded to the cent, half up (the way a quote is written)."""
    return Decimal(str(value)).quantize(CENT, rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class CostItem:
    """One piece of a TCO. ``code`` says what it is (``capex``, ``quoted_one_off``,
    ``quoted_recurring``, ``added``, an operating category or ``residual``),
    ``category`` which category (a bid line category for the quoted and added items,
    else the TCO cost category), ``source`` who set its figures (SOURCES), ``basis``
    the arithmetic in numbers (language-neutral)."""

    code: str
    category: str
    amount: Decimal
    source: str
    basis: str

    def to_dict(self) -> dict:
        return {**asdict(self), "amount": str(self.amount)}


def breakdown_total(items: list[CostItem]) -> Decimal:
    """The sum of the items: the total a breakdown reconciles to, to the cent."""
    return sum((item.amount for item in items), Decimal("0.00"))


def _years_paid(inputs: TcoInputs) -> float:
    return max(0.0, inputs.horizon_years - inputs.warranty_years)


def _escalated(rate: float) -> str:
    return f", +{rate:.1%}/y" if rate else ""


def _basis(category: str, inputs: TcoInputs) -> str:
    """The arithmetic of an operating cost over the horizon (cashflow.CONVENTIONS)."""
    i = inputs
    years = f"{i.horizon_years} y"
    hardware = f"{i.hardware_capex:,.0f}"
    if category == "energy":
        return (
            f"{i.it_power_kw:,.1f} kW x {i.load_factor:g} x PUE {i.pue:g} x 8,760 h"
            f" x {i.electricity_price_per_kwh:g}/kWh x {years}"
            + _escalated(i.electricity_escalation)
        )
    if category == "colocation":
        return (
            f"{i.it_power_kw:,.1f} kW x {i.colocation_per_kw_month:g}/kW/month"
            f" x 12 x {years}"
        )
    if category == "support":
        return f"{hardware} x {i.support_rate:.2%} x {_years_paid(i):g} y"
    if category == "software":
        return f"{i.software_per_year:,.2f}/y x {years}"
    if category == "staff":
        return (
            f"{i.staff_fte:g} FTE x {i.staff_cost_per_fte_year:,.0f}/y x {years}"
            + _escalated(i.staff_escalation)
        )
    if category == "failures":
        return (
            f"{hardware} x {i.annual_failure_rate:.1%} x "
            f"{i.replacement_cost_share:.0%} x {years}"
        )
    if category == "residual":
        return f"-{hardware} x {i.residual_value_rate:.0%}"
    return f"{category} over {years}"


def _source(category: str, inputs: TcoInputs) -> str:
    given = set(DRIVERS.get(category, ())) & set(inputs.user_fields)
    return "scenario" if given else "default"


def operating_items(inputs: TcoInputs, result: TcoResult) -> list[CostItem]:
    """One item per operating category with a cost, then the residual value."""
    totals = result.totals_by_category
    items = [
        CostItem(
            category,
            category,
            money(totals[category]),
            _source(category, inputs),
            _basis(category, inputs),
        )
        for category in OPEX_CATEGORIES
        if money(totals[category]) != 0
    ]
    residual = money(totals["residual"])
    if residual != 0:
        items.append(
            CostItem(
                "residual",
                "residual",
                residual,
                _source("residual", inputs),
                _basis("residual", inputs),
            )
        )
    return items


def cost_breakdown(inputs: TcoInputs, result: TcoResult) -> list[CostItem]:
    """Any scenario's TCO as items: its capex lines as given, then the operating
    costs and the residual (``result`` is ``compute(inputs)``)."""
    capex = [
        CostItem(
            "capex",
            line.category,
            money(line.amount),
            "scenario",
            line.description,
        )
        for line in inputs.capex
        if money(line.amount) != 0
    ]
    return capex + operating_items(inputs, result)
