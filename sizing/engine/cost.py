"""The cost the recommendation ranks by: GPUs x indicative price plus energy.

Prices are converted to USD at the constraints' fx rate; GPU-only prices are scaled to a
server share. Energy is the nodes' power over the planning horizon.
"""

from __future__ import annotations

from clusterbuy.engine.currency import convert_money

from .catalog import Accelerator
from .explain import Explainer, Section
from .power import AVERAGE_LOAD_SHARE, DEFAULT_PUE
from .sized_workload import SizedWorkload
from .workload import Constraints

# Server price over GPU price: ~1.4 for DGX H100 (SemiAnalysis BoM via Epoch; cost-figures).
SERVER_COST_RATIO = 1.4
# Electricity: US industrial 2025 $0.0826/kWh (EIA via Epoch); China ~$0.088 (China Briefing).
ELECTRICITY_USD_PER_KWH = {"global": 0.0826, "cn": 0.088}
HOURS_PER_YEAR = 8760.0
COST_FORMULAS = {
    "capex_usd": "GPUs x price per GPU in USD (GPU-only prices x 1.4 server "
    "ratio; CNY / fx)",
    "energy_usd": "nodes x node_kw x PUE x 0.75 x 8760 h x years x $/kWh",
    "total_usd": "capex_usd + energy_usd",
}


def price_usd_per_gpu(acc: Accelerator, constraints: Constraints) -> float | None:
    if acc.price is None:
        return None
    if acc.price_currency == "CNY":
        usd = convert_money(
            acc.price,
            from_currency="CNY",
            to_currency="USD",
            fx_usd_cny=constraints.fx_cny_per_usd,
        )
    else:
        usd = acc.price
    return usd * (SERVER_COST_RATIO if acc.price_basis == "gpu" else 1.0)


def workload_cost(sized: SizedWorkload, constraints: Constraints) -> dict:
    """Capex, energy and their total in USD, with the prices they were computed from."""
    price = price_usd_per_gpu(sized.accelerator, constraints)
    capex = None if price is None else price * sized.gpus
    pue = constraints.pue or DEFAULT_PUE
    kwh_price = constraints.electricity_usd_per_kwh or ELECTRICITY_USD_PER_KWH.get(
        constraints.region, 0.0826
    )
    energy = (
        sized.nodes
        * sized.node_kw
        * pue
        * AVERAGE_LOAD_SHARE
        * HOURS_PER_YEAR
        * constraints.planning_years
        * kwh_price
    )
    return {
        "capex_usd": capex,
        "energy_usd": energy,
        "total_usd": None if capex is None else capex + energy,
        "price_usd_per_gpu": price,
        "price_date": sized.accelerator.price_date,
        "fx_cny_per_usd": constraints.fx_cny_per_usd,
        "electricity_usd_per_kwh": kwh_price,
        "planning_years": constraints.planning_years,
    }


def cost_section(cost: dict, acc: Accelerator, explainer: Explainer) -> dict:
    section = Section(explainer, "cost")
    prices = {name: value for name, value in cost.items() if name not in COST_FORMULAS}
    for name, formula in COST_FORMULAS.items():
        section.put(
            key=name,
            value=cost[name],
            unit="USD",
            formula=formula,
            inputs=prices,
            source=acc.price_source or "no price in catalogue",
        )
    return section.values
