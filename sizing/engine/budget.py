"""An amount held against the procurement's budget ceiling: the one budget rule.

The plan (GPU capex plus energy of the whole cluster), each bid (its quoted price and
its normalised TCO), a TCO run and the decision memo are all checked with
`check_budget`, in the procurement's currency, in Decimal money: an amount above the
ceiling is over budget, and the variance is amount - ceiling (positive: over).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

CENT = Decimal("0.01")


@dataclass(frozen=True)
class BudgetCheck:
    """``amount`` against ``ceiling`` (both in ``currency``, to the cent)."""

    amount: Decimal
    ceiling: Decimal
    currency: str

    @property
    def variance(self) -> Decimal:
        """amount - ceiling: positive when over budget, negative the room left."""
        return self.amount - self.ceiling

    @property
    def over(self) -> bool:
        return self.amount > self.ceiling

    @property
    def share_pct(self) -> Decimal:
        """The amount as a per cent of the ceiling, to one decimal (100.0 = at it)."""
        return (self.amount / self.ceiling * 100).quantize(
            Decimal("0.1"), rounding=ROUND_HALF_UP
        )

    def as_dict(self) -> dict:
        """The API's shape: money as strings with cents (exact, no float)."""
        return {
            "amount": str(self.amount),
            "ceiling": str(self.ceiling),
            "currency": self.currency,
            "variance": str(self.variance),
            "share_pct": str(self.share_pct),
            "over_budget": self.over,
        }


def check_budget(
    amount: Decimal | None, ceiling: Decimal | None, currency: str
) -> BudgetCheck | None:
    """``amount`` against ``ceiling``; None when either is unknown or the ceiling is
    not positive (no budget set: nothing to check)."""
    if amount is None or ceiling is None or ceiling <= 0:
        return None
    return BudgetCheck(
        amount=Decimal(amount).quantize(CENT, rounding=ROUND_HALF_UP),
        ceiling=Decimal(ceiling).quantize(CENT, rounding=ROUND_HALF_UP),
        currency=currency,
    )


def cluster_cost_usd(plan: dict) -> float | None:
    """The whole cluster's GPU capex plus energy (USD) from a stored plan result.

    capex = the cluster's GPUs x the price per GPU the workloads were costed at (a
    workload's capex / its GPUs, incl. the server share); energy = the workloads' energy x the
    cluster's GPUs / the workloads' GPUs (their sum when partitioned, so the energy is
    the sum; scaled down to the shared GPUs when time-shared). None without a price.
    The per-workload check (`bottlenecks.over_budget`) misses a cluster whose every
    workload fits the budget alone while their sum does not.
    """
    workloads = plan.get("workloads") or []
    priced = [
        w
        for w in workloads
        if (w.get("cost") or {}).get("capex_usd") and w["gpu_count"]
    ]
    if not priced:
        return None
    price = priced[0]["cost"]["capex_usd"] / priced[0]["gpu_count"]
    gpus = plan.get("gpu_count") or 0
    workload_gpus = sum(w.get("gpu_count") or 0 for w in workloads)
    energy = sum((w.get("cost") or {}).get("energy_usd") or 0.0 for w in workloads)
    if workload_gpus:
        energy *= gpus / workload_gpus
    return gpus * price + energy
