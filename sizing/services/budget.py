"""The sizing plan against the procurement's budget, for the whole cluster, in the
procurement's currency (the engine prices in USD; a CNY procurement converts through
the one conversion, `clusterbuy.engine.currency`, at its default rate, the rate the
plan's constraints were computed with)."""

from __future__ import annotations

from decimal import Decimal

from clusterbuy.engine.currency import convert_money
from sizing.engine.budget import BudgetCheck, check_budget, cluster_cost_usd
from sizing.models import SizingPlan


def usd_to_procurement_money(amount_usd: float, currency: str) -> Decimal:
    """A USD figure of the engine as Decimal money in ``currency`` (CNY or USD)."""
    return convert_money(
        Decimal(str(amount_usd)), from_currency="USD", to_currency=currency
    )


def plan_budget(*, plan: SizingPlan) -> BudgetCheck | None:
    """The plan's cluster cost (GPU capex plus energy, `cluster_cost_usd`) against
    ``budget_max``; None without a budget or a price."""
    procurement = plan.procurement
    cost_usd = cluster_cost_usd(plan.result)
    if cost_usd is None:
        return None
    return check_budget(
        usd_to_procurement_money(cost_usd, procurement.currency),
        procurement.budget_max,
        procurement.currency,
    )
