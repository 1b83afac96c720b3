"""What a bid costs: the quoted total, and the normalised TCO from tco.services.

`quoted_total` is what the vendor asks over the procurement's horizon: sum(qty x unit
price of one-off lines) + horizon_years x sum(qty x unit price of recurring lines).
`normalized_tco` is the TCO engine's nominal total cost over the same horizon after
the categories a complete purchase needs but the bid omits are filled in ("added by
ClusterBuy", listed in `hidden_costs` with the sentence citing each rule's source).
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from clusterbuy.models import DeploymentSite, Procurement
from tco.services import (
    BidLine,
    TcoInputError,
    TcoNormalisation,
    normalise_bid_tco,
)

from ..models import Bid
from .labels import FILL_IN_SOURCES

CENT = Decimal("0.01")

#: One priced line of a bid: qty x unit price (per year when recurring).
Line = BidLine


def money(value: float | Decimal) -> Decimal:
    return Decimal(str(value)).quantize(CENT, rounding=ROUND_HALF_UP)


def quoted_total(lines: list[Line], horizon_years: int) -> Decimal:
    """One-off lines + horizon_years x recurring lines."""
    one_off = sum((li.amount for li in lines if not li.recurring), Decimal(0))
    yearly = sum((li.amount for li in lines if li.recurring), Decimal(0))
    return money(one_off + yearly * horizon_years)


def bid_lines(bid: Bid) -> list[Line]:
    return [
        Line(li.category, li.quantity * li.unit_price, li.recurring)
        for li in bid.line_items.all()
    ]


def bid_tco(
    bid: Bid, lines: list[Line], *, procurement: Procurement, plan: dict | None
) -> TcoNormalisation:
    """The bid's normalised TCO; a bid whose figures are no valid TCO inputs gets 0
    and no hidden costs rather than breaking the comparison."""
    plan = plan or {}
    price = plan.get("gpu_price")
    try:
        tco = normalise_bid_tco(
            lines=lines,
            horizon_years=procurement.horizon_years,
            currency=procurement.currency,
            gpu_count=bid.gpu_count,
            it_power_kw=bid.peak_power_kw,
            warranty_years=float(bid.warranty_years)
            if bid.warranty_years is not None
            else None,
            on_prem=procurement.deployment_site != DeploymentSite.CLOUD,
            plan_gpu_price=None if price is None else Decimal(str(price)),
            plan_gpu_price_currency=plan.get("gpu_price_currency"),
        )
    except TcoInputError:
        return TcoNormalisation(Decimal(0), [], {})
    tco.hidden_costs = [
        {
            "category": hidden["category"],
            "amount": hidden["amount"],
            "source": FILL_IN_SOURCES[hidden["category"]],
            "basis": hidden["basis"],
        }
        for hidden in tco.hidden_costs
    ]
    return tco
