"""A vendor's bid as a TCO: map its priced lines to TCO inputs, fill in what a complete
purchase needs but the bid omits, and run the TCO engine.

`normalized_tco` is the engine's nominal total cost over the procurement's horizon
(residual value subtracted). Every bid gets the same horizon, currency and operating
defaults (energy price, staff, failure rate), so the totals of different bids compare.
The categories ClusterBuy adds are listed in `hidden_costs` as codes, amounts and the
arithmetic behind them; the sentences citing each rule's source are translated texts
and live with the caller (docs/methodology.md, Part C.3).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from .cashflow import compute
from .currency import convert_money
from .inputs import DEFAULTS, IT_POWER_KW_PER_GPU, inputs_from_dict

CENT = Decimal("0.01")

# One-off line category -> TCO capex category.
ONE_OFF_CAPEX = {
    "gpu_servers": "gpu_servers",
    "network": "network",
    "storage": "storage",
    "power_cooling": "facility",
    "installation": "installation",
    "software": "software_once",
    "support": "other",  # prepaid support
    "training": "other",
    "other": "other",
}

# What ClusterBuy adds when a bid omits a category a complete purchase needs. Every
# default names its source, or says it is a ClusterBuy assumption (docs/methodology.md,
# Part C.3). Support and software use the TCO engine's own DEFAULTS.
NETWORK_SHARE_OF_CLUSTER = 0.19  # Epoch AI CLUSTER_INTERCONNECT_COST_FRACTION (2024)
STORAGE_SHARE_OF_GPU_SERVERS = 0.05  # ClusterBuy assumption
FACILITY_USD_PER_W = 10.0  # reallm Constants.py (Barroso-style TCO), 2024
FACILITY_LIFE_YEARS = 12  # same source: facility amortised over 12 years
INSTALLATION_SHARE_OF_HARDWARE = 0.02  # ClusterBuy assumption

#: The categories that can be filled in, in the order they are added.
FILL_IN_CATEGORIES = (
    "gpu_servers",
    "network",
    "storage",
    "power_cooling",
    "installation",
    "support",
)


def money(value: float | Decimal) -> Decimal:
    """Rounded to the cent, half up (the way a quote is written)."""
    return Decimal(str(value)).quantize(CENT, rounding=ROUND_HALF_UP)


@dataclass(frozen=True)
class BidLine:
    category: str  # a bid line category (gpu_servers, network, ..., other)
    amount: Decimal  # qty x unit price (per year when recurring)
    recurring: bool


@dataclass
class TcoNormalisation:
    normalized_tco: Decimal
    hidden_costs: list[dict]  # [{category, amount, basis}] in FILL_IN_CATEGORIES order
    tco: dict  # TcoResult.to_dict()


@dataclass
class _BidCosts:
    """The bid's own prices as TCO capex, its yearly support and software fees, and
    what ClusterBuy filled in (hidden costs, in the order they were added)."""

    capex: defaultdict[str, float]
    support_per_year: float = 0.0
    software_per_year: float = 0.0
    hidden: list[dict] = field(default_factory=list)

    @property
    def hardware(self) -> float:
        return self.capex["gpu_servers"] + self.capex["network"] + self.capex["storage"]

    def fill_in(
        self, category: str, capex_category: str, amount: float, basis: str
    ) -> None:
        if amount > 0:
            self.capex[capex_category] += amount
            self.hidden.append(
                {"category": category, "amount": money(amount), "basis": basis}
            )


def _bid_costs(lines: list[BidLine], horizon_years: int) -> _BidCosts:
    costs = _BidCosts(defaultdict(float))
    for line in lines:
        amount = float(line.amount)
        if not line.recurring:
            costs.capex[ONE_OFF_CAPEX[line.category]] += amount
        elif line.category == "support":
            costs.support_per_year += amount
        elif line.category == "software":
            costs.software_per_year += amount
        else:  # other recurring fees: their nominal total over the horizon
            costs.capex["other"] += amount * horizon_years
    return costs


def _facility(
    *, gpu_count: int, it_power_kw: float | None, currency: str, horizon_years: int
) -> tuple[float, str]:
    """Facility capex for the horizon's share of its 12-year life, and its basis."""
    power_kw = it_power_kw or max(1, gpu_count) * IT_POWER_KW_PER_GPU
    years = min(horizon_years, FACILITY_LIFE_YEARS)
    amount_usd = power_kw * 1000 * FACILITY_USD_PER_W * years / FACILITY_LIFE_YEARS
    amount = convert_money(amount_usd, from_currency="USD", to_currency=currency)
    fx = float(DEFAULTS["fx_usd_cny"].value)
    fx_text = "" if currency == "USD" else f" x {fx:g} CNY/USD"
    basis = f"{power_kw:,.1f} kW x 10 USD/W{fx_text} x {years}/{FACILITY_LIFE_YEARS}"
    return amount, basis


def _fill_in_capex(
    costs: _BidCosts,
    categories: set[str],
    *,
    gpu_count: int,
    gpu_price: Decimal | None,
    it_power_kw: float | None,
    currency: str,
    horizon_years: int,
    on_prem: bool,
) -> None:
    """Add the one-off categories the bid omits to its capex."""
    if "gpu_servers" not in categories and gpu_price:
        amount = float(gpu_price) * gpu_count
        costs.fill_in(
            "gpu_servers", "gpu_servers", amount, f"{gpu_price:,.0f} x {gpu_count}"
        )
    gpu_capex = costs.capex["gpu_servers"]
    if "network" not in categories:
        share = NETWORK_SHARE_OF_CLUSTER / (1 - NETWORK_SHARE_OF_CLUSTER)
        basis = f"{gpu_capex:,.0f} x 0.19 / 0.81"
        costs.fill_in("network", "network", gpu_capex * share, basis)
    if "storage" not in categories:
        amount = gpu_capex * STORAGE_SHARE_OF_GPU_SERVERS
        costs.fill_in("storage", "storage", amount, f"{gpu_capex:,.0f} x 5 %")
    if "power_cooling" not in categories and on_prem:
        amount, basis = _facility(
            gpu_count=gpu_count,
            it_power_kw=it_power_kw,
            currency=currency,
            horizon_years=horizon_years,
        )
        costs.fill_in("power_cooling", "facility", amount, basis)
    if "installation" not in categories:
        hardware = costs.hardware
        amount = hardware * INSTALLATION_SHARE_OF_HARDWARE
        costs.fill_in("installation", "installation", amount, f"{hardware:,.0f} x 2 %")


def _engine_inputs(
    costs: _BidCosts,
    categories: set[str],
    *,
    horizon_years: int,
    currency: str,
    gpu_count: int,
    it_power_kw: float | None,
    warranty_years: float | None,
) -> tuple[dict[str, Any], bool]:
    """The TCO engine's input dict for the bid, and whether ClusterBuy adds support.

    Yearly support up to the hardware capex becomes the engine's support rate from
    year one (no warranty); more than that is taken as the bid's nominal total. A bid
    without any support line gets the engine default after its warranty.
    """
    hardware = costs.hardware
    data: dict[str, Any] = {
        "horizon_years": horizon_years,
        "currency": currency,
        "gpu_count": max(1, gpu_count),
        "capex": [
            {"category": category, "description": "", "amount": amount}
            for category, amount in costs.capex.items()
            if amount > 0
        ],
        "software_per_year": costs.software_per_year,
    }
    if it_power_kw:
        data["it_power_kw"] = it_power_kw
    support_added = False
    if costs.support_per_year > 0:
        if hardware > 0 and costs.support_per_year <= hardware:
            data["support_rate"] = costs.support_per_year / hardware
            data["warranty_years"] = 0
        else:
            data["support_rate"] = 0
            data["capex"].append(
                {
                    "category": "other",
                    "description": "support",
                    "amount": costs.support_per_year * horizon_years,
                }
            )
    elif "support" not in categories:
        support_added = True  # engine default: support_rate after the warranty
        if warranty_years is not None:
            data["warranty_years"] = float(warranty_years)
    else:
        data["support_rate"] = 0  # prepaid support, already in capex "other"
    return data, support_added


def normalise_tco(
    lines: list[BidLine],
    *,
    horizon_years: int,
    currency: str,
    gpu_count: int,
    it_power_kw: float | None,
    warranty_years: float | None,
    on_prem: bool,
    gpu_price: Decimal | None = None,
) -> TcoNormalisation:
    """Map a bid to TCO inputs, fill what it omits, and run the TCO engine.

    ``gpu_price`` (per GPU, in ``currency``) prices GPU servers for a bid that has
    none. Raises TcoInputError when the bid's figures are not valid TCO inputs.
    """
    costs = _bid_costs(lines, horizon_years)
    categories = {line.category for line in lines}
    _fill_in_capex(
        costs,
        categories,
        gpu_count=gpu_count,
        gpu_price=gpu_price,
        it_power_kw=it_power_kw,
        currency=currency,
        horizon_years=horizon_years,
        on_prem=on_prem,
    )
    data, support_added = _engine_inputs(
        costs,
        categories,
        horizon_years=horizon_years,
        currency=currency,
        gpu_count=gpu_count,
        it_power_kw=it_power_kw,
        warranty_years=warranty_years,
    )
    result = compute(inputs_from_dict(data))
    support_total = result.totals_by_category["support"]
    if support_added and support_total > 0:
        warranty = data.get("warranty_years", DEFAULTS["warranty_years"].value)
        years_paid = max(0.0, horizon_years - float(warranty))
        basis = (
            f"{costs.hardware:,.0f} x {DEFAULTS['support_rate'].value:.0%}"
            f" x {years_paid:g}"
        )
        costs.hidden.append(
            {"category": "support", "amount": money(support_total), "basis": basis}
        )
    return TcoNormalisation(money(result.total_cost), costs.hidden, result.to_dict())
