"""Two TCOs of the same cluster, item by item: what differs and why.

Each side is its breakdown (`breakdown.cost_breakdown`: capex lines, operating costs,
residual, each rounded to the cent, the total their sum), grouped by item: the capex
of each category, each operating category, the residual. An item's difference is
``b - a``; the differences add up exactly to the difference of the two totals, since
each total is the sum of its items. For each item the inputs it is computed from
(`breakdown.DRIVERS`, the horizon, and the hardware capex for support, failures and
the residual, which are shares of it) are compared, and those that differ are named
with their value on each side: the reason the item differs; a capex item names the
capex of its category on each side.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from .breakdown import DRIVERS, CostItem, breakdown_total
from .inputs import TcoInputs

#: Operating items that are shares of the hardware capex (cashflow.CONVENTIONS).
ON_HARDWARE = frozenset({"support", "failures", "residual"})
ITEM_ORDER = ("capex", "energy", "colocation", "support", "software", "staff")


@dataclass(frozen=True)
class InputDifference:
    name: str  # an input of the input table, "hardware_capex" or "capex:<category>"
    value_a: object
    value_b: object


@dataclass(frozen=True)
class ReconciledItem:
    code: str  # "capex", an operating category or "residual"
    category: str
    amount_a: Decimal
    amount_b: Decimal
    inputs: tuple[InputDifference, ...] = ()

    @property
    def difference(self) -> Decimal:
        return self.amount_b - self.amount_a


@dataclass(frozen=True)
class Reconciliation:
    items: list[ReconciledItem]
    total_a: Decimal
    total_b: Decimal

    @property
    def difference(self) -> Decimal:
        return self.total_b - self.total_a

    def to_dict(self) -> dict:
        return {
            "total_a": str(self.total_a),
            "total_b": str(self.total_b),
            "difference": str(self.difference),
            "items": [
                {
                    "code": i.code,
                    "category": i.category,
                    "amount_a": str(i.amount_a),
                    "amount_b": str(i.amount_b),
                    "difference": str(i.difference),
                    "inputs": [_jsonable(d) for d in i.inputs],
                }
                for i in self.items
            ],
        }


def _jsonable(d: InputDifference) -> dict:
    def value(v):
        return str(v) if isinstance(v, Decimal) else v

    return {"name": d.name, "a": value(d.value_a), "b": value(d.value_b)}


def _grouped(items: list[CostItem]) -> dict[tuple[str, str], Decimal]:
    out: dict[tuple[str, str], Decimal] = {}
    for item in items:
        key = ("capex", item.category) if item.code == "capex" else (item.code, "")
        out[key] = out.get(key, Decimal("0.00")) + item.amount
    return out


def _capex_of(inputs: TcoInputs, category: str) -> Decimal:
    return sum(
        (
            Decimal(str(line.amount))
            for line in inputs.capex
            if line.category == category
        ),
        Decimal(0),
    ).quantize(Decimal("0.01"))


def _differences(
    code: str, category: str, a: TcoInputs, b: TcoInputs
) -> tuple[InputDifference, ...]:
    if code == "capex":
        pairs = [(f"capex:{category}", _capex_of(a, category), _capex_of(b, category))]
    else:
        names = (*DRIVERS.get(code, ()), "horizon_years")
        pairs = [(name, getattr(a, name), getattr(b, name)) for name in names]
        if code in ON_HARDWARE:
            pairs.insert(0, ("hardware_capex", a.hardware_capex, b.hardware_capex))
    return tuple(InputDifference(n, x, y) for n, x, y in pairs if x != y)


def _order(key: tuple[str, str]) -> tuple[int, str]:
    code, category = key
    rank = ITEM_ORDER.index(code) if code in ITEM_ORDER else len(ITEM_ORDER)
    if code == "residual":
        rank = len(ITEM_ORDER) + 1
    return rank, category


def reconcile(
    a: TcoInputs, items_a: list[CostItem], b: TcoInputs, items_b: list[CostItem]
) -> Reconciliation:
    """Side ``a`` and side ``b`` (each its inputs and their breakdown) item by item
    (see the module docstring); both in the same currency."""
    grouped_a, grouped_b = _grouped(items_a), _grouped(items_b)
    zero = Decimal("0.00")
    rows = [
        ReconciledItem(
            code=code,
            category=category,
            amount_a=grouped_a.get((code, category), zero),
            amount_b=grouped_b.get((code, category), zero),
            inputs=_differences(code, category, a, b),
        )
        for code, category in sorted(set(grouped_a) | set(grouped_b), key=_order)
    ]
    return Reconciliation(
        items=rows,
        total_a=breakdown_total(items_a),
        total_b=breakdown_total(items_b),
    )
