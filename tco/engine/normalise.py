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
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any

from .breakdown import CostItem, breakdown_total, money, operating_items
from .cashflow import TcoResult, compute
from .currency import convert_money
from .inputs import DEFAULTS, IT_POWER_KW_PER_GPU, TcoInputs, inputs_from_dict

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


@dataclass(frozen=True)
class BidLine:
    category: str  # a bid line category (gpu_servers, network, ..., other)
    amount: Decimal  # qty x unit price (per year when recurring)
    recurring: bool


@dataclass
class TcoNormalisation:
    normalized_tco: Decimal  # the sum of ``breakdown``, to the cent
    hidden_costs: list[dict]  # [{category, amount, basis}] in FILL_IN_CATEGORIES order
    tco: dict  # TcoResult.to_dict()
    #: Every item of the normalised TCO (breakdown.CostItem), summing to it exactly.
    breakdown: list[CostItem] = field(default_factory=list)
    #: The TCO engine's inputs the bid was mapped to: a scenario with exactly this
    #: TCO (``tco.sources``: a scenario started from the bid).
    inputs: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class _CapexPiece:
    """One capex line of the normalised bid and where it comes from (a breakdown
    item): a quoted one-off category, a quoted recurring fee over the horizon, or a
    category ClusterBuy added."""

    capex_category: str
    amount: float
    code: str  # quoted_one_off | quoted_recurring | added
    category: str  # the bid line category (or fill-in category)
    basis: str


@dataclass
class _BidCosts:
    """The bid's own prices as TCO capex pieces, its yearly support and software
    fees, and what ClusterBuy filled in (hidden costs, in the order they were added)."""

    pieces: list[_CapexPiece] = field(default_factory=list)
    support_per_year: float = 0.0
    software_per_year: float = 0.0
    hidden: list[dict] = field(default_factory=list)

    def total(self, capex_category: str) -> float:
        return sum(
            (p.amount for p in self.pieces if p.capex_category == capex_category), 0.0
        )

    @property
    def hardware(self) -> float:
        return self.total("gpu_servers") + self.total("network") + self.total("storage")

    def fill_in(
        self, category: str, capex_category: str, amount: float, basis: str
    ) -> None:
        # Under half a cent is nothing to add: the breakdown shows cents, and a 0.00
        # hidden cost would be listed without an item of its own.
        if money(amount) > 0:
            self.pieces.append(
                _CapexPiece(capex_category, amount, "added", category, basis)
            )
            self.hidden.append(
                {"category": category, "amount": money(amount), "basis": basis}
            )


def _bid_costs(lines: list[BidLine], horizon_years: int) -> _BidCosts:
    """One capex piece per quoted one-off category and per recurring fee category
    (other than support and software, which the engine runs as yearly costs)."""
    costs = _BidCosts()
    one_off: defaultdict[str, float] = defaultdict(float)
    per_year: defaultdict[str, float] = defaultdict(float)
    counts: defaultdict[tuple[str, bool], int] = defaultdict(int)
    for line in lines:
        amount = float(line.amount)
        counts[line.category, line.recurring] += 1
        if not line.recurring:
            one_off[line.category] += amount
        elif line.category == "support":
            costs.support_per_year += amount
        elif line.category == "software":
            costs.software_per_year += amount
        else:  # other recurring fees: their nominal total over the horizon
            per_year[line.category] += amount
    for category, amount in one_off.items():
        basis = f"{counts[category, False]} line(s)"
        costs.pieces.append(
            _CapexPiece(
                ONE_OFF_CAPEX[category], amount, "quoted_one_off", category, basis
            )
        )
    for category, amount in per_year.items():
        basis = f"{amount:,.2f}/y x {horizon_years} y"
        costs.pieces.append(
            _CapexPiece(
                "other", amount * horizon_years, "quoted_recurring", category, basis
            )
        )
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
    gpu_capex = costs.total("gpu_servers")
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
            basis = f"{costs.support_per_year:,.2f}/y x {horizon_years} y"
            costs.pieces.append(
                _CapexPiece(
                    "other",
                    costs.support_per_year * horizon_years,
                    "quoted_recurring",
                    "support",
                    basis,
                )
            )
    elif "support" not in categories:
        support_added = True  # engine default: support_rate after the warranty
        if warranty_years is not None:
            data["warranty_years"] = float(warranty_years)
    else:
        data["support_rate"] = 0  # prepaid support, already in capex "other"
    data["capex"] = [
        {
            "category": piece.capex_category,
            "description": f"{piece.code}:{piece.category}",
            "amount": piece.amount,
        }
        for piece in costs.pieces
        if piece.amount > 0
    ]
    return data, support_added


def _support_basis(costs: _BidCosts, data: dict, horizon_years: int) -> str:
    warranty = data.get("warranty_years", DEFAULTS["warranty_years"].value)
    years_paid = max(0.0, horizon_years - float(warranty))
    return (
        f"{costs.hardware:,.0f} x {DEFAULTS['support_rate'].value:.0%} x {years_paid:g}"
    )


def _breakdown(
    costs: _BidCosts, support_added: bool, inputs: TcoInputs, result: TcoResult
) -> list[CostItem]:
    """The bid's items: its capex pieces, then the engine's operating costs and the
    residual, support and software marked as the bid's when it quoted them yearly."""
    items = [
        CostItem(
            piece.code,
            piece.category,
            money(piece.amount),
            "clusterbuy" if piece.code == "added" else "bid",
            piece.basis,
        )
        for piece in costs.pieces
        if piece.amount > 0 and money(piece.amount) != 0
    ]
    horizon = inputs.horizon_years
    for item in operating_items(inputs, result):
        if item.code == "support" and support_added:
            hidden = next(h for h in costs.hidden if h["category"] == "support")
            item = replace(
                item, code="added", source="clusterbuy", basis=hidden["basis"]
            )
        elif item.code == "support":
            basis = f"{costs.support_per_year:,.2f}/y x {horizon} y"
            item = replace(item, code="quoted_recurring", source="bid", basis=basis)
        elif item.code == "software":
            basis = f"{costs.software_per_year:,.2f}/y x {horizon} y"
            item = replace(item, code="quoted_recurring", source="bid", basis=basis)
        else:
            item = replace(item, source="default")
        items.append(item)
    return items


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
    none. Raises TcoInputError when the bid's figures are not valid TCO inputs. The
    normalised TCO is the sum of the breakdown's items (each to the cent).
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
    inputs = inputs_from_dict(data)
    result = compute(inputs)
    support_total = result.totals_by_category["support"]
    support_added = support_added and money(support_total) != 0
    if support_added:
        costs.hidden.append(
            {
                "category": "support",
                "amount": money(support_total),
                "basis": _support_basis(costs, data, horizon_years),
            }
        )
    items = _breakdown(costs, support_added, inputs, result)
    return TcoNormalisation(
        breakdown_total(items), costs.hidden, result.to_dict(), items, data
    )
