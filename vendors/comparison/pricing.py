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
from sizing.services import PlanSummary, server_facts, servers_facts
from tco.services import (
    BidLine,
    BidPower,
    ClusterScale,
    TcoInputError,
    TcoNormalisation,
    catalogue_power_kw,
    normalise_bid_tco,
    power_for_tco,
)

from ..engine.line_scope import line_scope
from ..models import Bid
from .labels import FILL_IN_SOURCES

CENT = Decimal("0.01")
#: Money has at most 18 integer digits and cents (the API's decimal(20, 2)). A larger
#: amount is no price anyone quoted but a stored value written past validation, or a
#: sum of extreme lines; it shows as "invalid" instead of being computed with.
MONEY_MAX_DIGITS = 20
MONEY_LIMIT = Decimal(10) ** (MONEY_MAX_DIGITS - 2)
#: The bid figures the TCO reads: one of them invalid makes the TCO invalid too.
TCO_FIGURES = frozenset({"gpu_count", "peak_power_kw", "warranty_years"})

#: One priced line of a bid: qty x unit price (per year when recurring).
Line = BidLine


def money(value: float | Decimal | None) -> Decimal | None:
    """``value`` rounded to the cent, half up; None when it is no amount of money (not
    a finite number, or MONEY_LIMIT or more), so no caller ever rounds NaN or 1e308."""
    if value is None or isinstance(value, bool):
        return None
    try:
        amount = value if isinstance(value, Decimal) else Decimal(str(value))
    except ArithmeticError:
        return None
    if not amount.is_finite() or abs(amount) >= MONEY_LIMIT:
        return None
    return amount.quantize(CENT, rounding=ROUND_HALF_UP)


def quoted_total(lines: list[Line] | None, horizon_years: int) -> Decimal | None:
    """One-off lines + horizon_years x recurring lines; None when a line is invalid
    (``lines`` is None) or the total is no amount of money."""
    if lines is None:
        return None
    one_off = sum((li.amount for li in lines if not li.recurring), Decimal(0))
    yearly = sum((li.amount for li in lines if li.recurring), Decimal(0))
    return money(one_off + yearly * horizon_years)


def bid_lines(bid: Bid) -> list[Line]:
    """The bid's priced lines whose stored quantity and unit price pass their own
    fields; with one left out the totals are invalid (`lines_are_valid`). A line's
    scope is its declared one, else what its description states it includes
    (``line_scope``, the rule gpu_only reads too)."""
    return [
        Line(
            li.category,
            li.quantity * li.unit_price,
            li.recurring,
            line_scope(li.category, li.description, li.scope),
            li.year_from,
            li.year_to,
        )
        for li in bid.line_items.all()
        if li.is_valid
    ]


def servers_for(bids) -> dict[str, dict | None]:
    """The server of each offered accelerator, looked up once per accelerator."""
    return servers_facts(accelerator_keys={b.accelerator for b in bids})


def _server(bid: Bid, servers: dict | None) -> dict | None:
    if servers is not None and bid.accelerator in servers:
        return servers[bid.accelerator]
    return server_facts(accelerator_key=bid.accelerator)


def bid_power(bid: Bid, servers: dict | None = None) -> BidPower:
    """The power the bid is costed at: the catalogue's for its accelerator's server
    (identical hardware, identical power); its own claim is only checked."""
    gpu_count = bid.checked("gpu_count") or 0
    server = _server(bid, servers)
    catalogue_kw = (
        catalogue_power_kw(
            gpu_count=gpu_count,
            gpus_per_node=server["gpus_per_node"],
            node_max_kw=server["node_max_kw"],
        )
        if server
        else None
    )
    return power_for_tco(
        gpu_count=gpu_count,
        catalogue_kw=catalogue_kw,
        claimed_kw=bid.checked("peak_power_kw"),
    )


def cluster_scale(
    bid: Bid, plan: PlanSummary, servers: dict | None = None
) -> ClusterScale:
    """The plan's fabric and storage design counted at the bid's GPUs and server."""
    server = _server(bid, servers) or {}
    per_node = server.get("gpus_per_node") or plan.gpus_per_node or 8
    return ClusterScale(
        gpu_count=bid.gpu_count,
        gpus_per_node=per_node,
        nics_per_node=plan.nics_per_node or server.get("nic_count"),
        nic_gbps=plan.nic_gbps or server.get("nic_gbps") or 400.0,
        switch_radix=plan.switch_radix or 64,
        rail_optimized=True if plan.rail_optimized is None else plan.rail_optimized,
        storage_tb=plan.storage_tb,
        storage_tier=plan.storage_tier,
    )


def plan_scale(plan: PlanSummary) -> ClusterScale | None:
    """The plan's own design at its own GPU count (what gpu_only prices the plan's
    bill of materials at); None without a planned GPU count."""
    if not plan.gpu_count:
        return None
    return ClusterScale(
        gpu_count=plan.gpu_count,
        gpus_per_node=plan.gpus_per_node or 8,
        nics_per_node=plan.nics_per_node,
        nic_gbps=plan.nic_gbps or 400.0,
        switch_radix=plan.switch_radix or 64,
        rail_optimized=True if plan.rail_optimized is None else plan.rail_optimized,
        storage_tb=plan.storage_tb,
        storage_tier=plan.storage_tier,
    )


def lines_are_valid(bid: Bid) -> bool:
    return all(li.is_valid for li in bid.line_items.all())


def bid_tco(
    bid: Bid,
    lines: list[Line] | None,
    *,
    procurement: Procurement,
    plan: PlanSummary | None,
    servers: dict | None = None,
) -> TcoNormalisation | None:
    """The bid's normalised TCO; None ("invalid") when a figure it reads is invalid,
    the TCO engine refuses the figures, or its total is no amount of money."""
    if lines is None or TCO_FIGURES & bid.invalid_fields:
        return None
    plan = plan or PlanSummary()
    price = plan.gpu_price
    plan_gpu_price = None if money(price) is None else Decimal(str(price))
    power = bid_power(bid, servers)
    try:
        tco = normalise_bid_tco(
            lines=lines,
            horizon_years=procurement.horizon_years,
            currency=procurement.currency,
            gpu_count=bid.gpu_count,
            it_power_kw=power.used_kw,
            scale=cluster_scale(bid, plan, servers),
            warranty_years=float(bid.warranty_years)
            if bid.warranty_years is not None
            else None,
            on_prem=procurement.deployment_site != DeploymentSite.CLOUD,
            plan_gpu_price=plan_gpu_price,
            plan_gpu_price_currency=plan.gpu_price_currency,
        )
    except (TcoInputError, ArithmeticError):
        # ArithmeticError: the engine's own rounding of a sum too large for a Decimal.
        return None
    if money(tco.normalized_tco) is None:
        return None
    tco.power = power
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
