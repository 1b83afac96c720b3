"""Monte Carlo TCO: triangular draws of the uncertain inputs, vectorised draws x months.

The monthly model is the one in ``cashflow`` written over a (draws, months) array, so
a draw whose inputs all sit at the scenario values reproduces ``compute`` exactly (a
test checks it). Triangular variates are drawn by inverting the CDF of one uniform
per draw and parameter (``numpy.random.default_rng(seed)``), which also handles a
degenerate range (low == high) and keeps results stable across numpy versions.
"""

from __future__ import annotations

import numpy as np

from .cashflow import (
    CLOUD_OPTIONS,
    HOURS_PER_YEAR,
    MONTHS_PER_YEAR,
    compute,
    first_month_at_or_below,
    year_index,
)
from .inputs import TcoInputError, TcoInputs
from .uncertainty import base_value, resolve_ranges

HISTOGRAM_BINS = 30
PERCENTILES = (10, 50, 90)


def triangular(u: np.ndarray, low: float, mode: float, high: float) -> np.ndarray:
    """Inverse CDF of the triangular distribution at uniforms ``u``."""
    width = high - low
    if width <= 0:
        return np.full(u.shape, low)
    f_mode = (mode - low) / width
    left = low + np.sqrt(u * width * (mode - low))
    right = high - np.sqrt((1 - u) * width * (high - mode))
    return np.where(u < f_mode, left, right)


def _percentiles(values: np.ndarray) -> dict[str, float]:
    q = np.percentile(values, PERCENTILES)
    out = {f"p{p}": round(float(v), 2) for p, v in zip(PERCENTILES, q, strict=True)}
    out["mean"] = round(float(values.mean()), 2)
    return out


def _month_percentiles(months: np.ndarray) -> dict[str, float | int | None]:
    """Percentiles of break-even month; 'never' (-1) counts as later than any month."""
    as_float = np.where(months < 0, np.inf, months.astype(float))
    q = np.quantile(as_float, [p / 100 for p in PERCENTILES], method="inverted_cdf")
    out: dict[str, float | int | None] = {
        f"p{p}": (None if np.isinf(v) else int(v))
        for p, v in zip(PERCENTILES, q, strict=True)
    }
    out["never_share"] = round(float((months < 0).mean()), 4)
    return out


def monte_carlo(
    inputs: TcoInputs,
    draws: int = 10_000,
    seed: int = 12345,
    ranges: dict | None = None,
    bins: int = HISTOGRAM_BINS,
) -> dict:
    """P10/P50/P90 of total cost, NPV and break-even month, plus a histogram."""
    if (
        isinstance(draws, bool)
        or not isinstance(draws, int)
        or not 1 <= draws <= 1_000_000
    ):
        raise TcoInputError("draws", "draws must be a whole number from 1 to 1,000,000")
    resolved = resolve_ranges(inputs, ranges)
    rng = np.random.default_rng(seed)
    uniforms = rng.random((len(resolved), draws))
    p = {
        name: triangular(uniforms[i], r["low"], r["mode"], r["high"])
        for i, (name, r) in enumerate(resolved.items())
    }

    h = inputs.horizon_years
    n_months = h * MONTHS_PER_YEAR
    month_no = np.arange(1, n_months + 1)
    year = year_index(h)
    gpu_capex = inputs.capex_by_category()["gpu_servers"]
    extra_gpu = (p["gpu_server_price"] - 1.0) * gpu_capex
    capex = inputs.capex_total + extra_gpu  # (draws,)
    hw = inputs.hardware_capex + extra_gpu

    energy_esc = (1 + inputs.electricity_escalation) ** (year - 1)  # (months,)
    staff_esc = (1 + inputs.staff_escalation) ** (year - 1)
    after_warranty = (month_no > inputs.warranty_years * MONTHS_PER_YEAR).astype(float)
    energy_m = (
        inputs.it_power_kw
        * p["load_factor"]
        * p["pue"]
        * HOURS_PER_YEAR
        * p["electricity_price_per_kwh"]
        / 12
    )
    support_m = hw * p["support_rate"] / 12
    staff_m = inputs.staff_fte * p["staff_cost_per_fte_year"] / 12
    flat_m = (
        inputs.it_power_kw * inputs.colocation_per_kw_month
        + inputs.software_per_year / 12
        + hw * p["annual_failure_rate"] * inputs.replacement_cost_share / 12
    )
    opex = (
        np.outer(energy_m, energy_esc)
        + np.outer(support_m, after_warranty)
        + np.outer(staff_m, staff_esc)
        + flat_m[:, None]
    )  # (draws, months)
    residual = hw * p["residual_value_rate"]

    onprem_cum = np.empty((draws, n_months + 1))
    onprem_cum[:, 0] = capex
    np.cumsum(opex, axis=1, out=onprem_cum[:, 1:])
    onprem_cum[:, 1:] += capex[:, None]
    onprem_cum[:, -1] -= residual
    total = onprem_cum[:, -1]

    rate = p["discount_rate"][:, None]
    df = 1.0 / (1.0 + rate) ** np.arange(1, h + 1)  # (draws, years)
    opex_per_year = opex.reshape(draws, h, MONTHS_PER_YEAR).sum(axis=2)
    npv = capex + (opex_per_year * df).sum(axis=1) - residual * df[:, -1]

    useful_per_year = inputs.gpu_count * HOURS_PER_YEAR * p["utilization"]
    prices = {
        "on_demand": inputs.cloud_on_demand_per_gpu_hour,
        "reserved": inputs.cloud_reserved_per_gpu_hour,
        "spot": inputs.cloud_spot_per_gpu_hour * (1 + inputs.spot_overhead),
    }
    months = np.arange(n_months + 1)
    break_even: dict[str, dict] = {}
    cloud_totals: dict[str, dict] = {}
    prob_cheaper: dict[str, float] = {}
    for option in CLOUD_OPTIONS:
        per_month = useful_per_year * prices[option] * p["cloud_price"] / 12
        cloud_cum = np.outer(per_month, months)
        break_even[option] = _month_percentiles(
            first_month_at_or_below(onprem_cum, cloud_cum)
        )
        cloud_total = cloud_cum[:, -1]
        cloud_totals[option] = _percentiles(cloud_total)
        prob_cheaper[option] = round(float((total < cloud_total).mean()), 4)

    counts, edges = np.histogram(total, bins=bins)
    return {
        "draws": draws,
        "seed": seed,
        "currency": inputs.currency,
        "distribution": "triangular",
        "ranges": {
            name: {k: float(v) for k, v in r.items()} for name, r in resolved.items()
        },
        "scenario_values": {name: base_value(inputs, name) for name in resolved},
        "deterministic_total": round(compute(inputs).total_cost, 2),
        "total_cost": _percentiles(total),
        "npv_cost": _percentiles(npv),
        "cloud_total": cloud_totals,
        "break_even_month": break_even,
        "prob_onprem_cheaper": prob_cheaper,
        "histogram": {
            "bin_edges": [round(float(e), 2) for e in edges],
            "counts": [int(c) for c in counts],
        },
    }
