"""Monte Carlo TCO: triangular draws of the uncertain inputs, vectorised draws x months.

The monthly opex is ``cashflow.monthly_opex`` itself, given one value per draw for
the uncertain inputs, so it is computed over a (draws, months) array and a draw whose
inputs all sit at the scenario values reproduces ``compute`` (a test checks it). Triangular variates are drawn by inverting the CDF of one uniform
per draw and parameter (``numpy.random.default_rng(seed)``), which also handles a
degenerate range (low == high) and keeps results stable across numpy versions.
"""

from __future__ import annotations

import numpy as np

from .cashflow import (
    CLOUD_OPTIONS,
    HOURS_PER_YEAR,
    MONTHS_PER_YEAR,
    cloud_hourly_prices,
    compute,
    first_month_at_or_below,
    monthly_opex,
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


def _check_draws(draws: int) -> None:
    if (
        isinstance(draws, bool)
        or not isinstance(draws, int)
        or not 1 <= draws <= 1_000_000
    ):
        raise TcoInputError(
            "draws",
            "draws must be a whole number from 1 to 1,000,000",
            code="out_of_range",
            params={"kind": "count", "low": 1, "high": 1_000_000},
        )


def _draw(
    resolved: dict[str, dict[str, float]], draws: int, seed: int
) -> dict[str, np.ndarray]:
    """One triangular variate per draw and uncertain parameter."""
    rng = np.random.default_rng(seed)
    uniforms = rng.random((len(resolved), draws))
    return {
        name: triangular(uniforms[i], r["low"], r["mode"], r["high"])
        for i, (name, r) in enumerate(resolved.items())
    }


def _total_opex(
    categories: dict[str, np.ndarray], shape: tuple[int, int]
) -> np.ndarray:
    """The sum of the opex categories over (draws, months), added in place.

    The categories are fresh arrays owned here, so the first one (energy, one value per
    draw and month) takes the sum: no extra 10,000 x 60 array. A category that is the
    same every month comes as a broadcast view (stride 0 along the months): those are
    added up as one column first (the order the Monte Carlo always used).
    """
    amounts = list(categories.values())
    by_month = [amount for amount in amounts if amount.strides[-1] != 0]
    same_every_month = [
        amount[..., :1] for amount in amounts if amount.strides[-1] == 0
    ]
    total, rest = by_month[0], by_month[1:]
    if total.shape != shape:  # the same for every draw: start from zeros instead
        total, rest = np.zeros(shape), by_month
    for amount in rest:
        total += amount
    total += sum(same_every_month)
    return total


def _onprem(inputs: TcoInputs, drawn: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Cumulative on-prem cost (draws, months 0..12H), its total and NPV per draw."""
    horizon = inputs.horizon_years
    gpu_capex = inputs.capex_by_category()["gpu_servers"]
    extra_gpu = (drawn["gpu_server_price"] - 1.0) * gpu_capex
    capex = inputs.capex_total + extra_gpu  # (draws,)
    hardware = inputs.hardware_capex + extra_gpu
    draws = capex.size
    categories = monthly_opex(inputs, {**drawn, "hardware_capex": hardware})
    opex = _total_opex(categories, (draws, horizon * MONTHS_PER_YEAR))
    residual = hardware * drawn["residual_value_rate"]

    onprem_cum = np.empty((draws, horizon * MONTHS_PER_YEAR + 1))
    onprem_cum[:, 0] = capex
    np.cumsum(opex, axis=1, out=onprem_cum[:, 1:])
    onprem_cum[:, 1:] += capex[:, None]
    onprem_cum[:, -1] -= residual

    rate = drawn["discount_rate"][:, None]
    factors = 1.0 / (1.0 + rate) ** np.arange(1, horizon + 1)  # (draws, years)
    opex_per_year = opex.reshape(draws, horizon, MONTHS_PER_YEAR).sum(axis=2)
    npv = capex + (opex_per_year * factors).sum(axis=1) - residual * factors[:, -1]
    return {"cumulative": onprem_cum, "total": onprem_cum[:, -1], "npv": npv}


def _against_cloud(
    inputs: TcoInputs, drawn: dict[str, np.ndarray], onprem: dict[str, np.ndarray]
) -> dict[str, dict]:
    """Break-even month, cloud total and P(on-prem cheaper) of each cloud option."""
    useful_per_year = inputs.gpu_count * HOURS_PER_YEAR * drawn["utilization"]
    prices = cloud_hourly_prices(inputs)
    months = np.arange(inputs.horizon_years * MONTHS_PER_YEAR + 1)
    out: dict[str, dict] = {"break_even": {}, "cloud_total": {}, "cheaper": {}}
    for option in CLOUD_OPTIONS:
        per_month = useful_per_year * prices[option] * drawn["cloud_price"] / 12
        cloud_cum = np.outer(per_month, months)
        out["break_even"][option] = _month_percentiles(
            first_month_at_or_below(onprem["cumulative"], cloud_cum)
        )
        cloud_total = cloud_cum[:, -1]
        out["cloud_total"][option] = _percentiles(cloud_total)
        cheaper = (onprem["total"] < cloud_total).mean()
        out["cheaper"][option] = round(float(cheaper), 4)
    return out


def monte_carlo(
    inputs: TcoInputs,
    draws: int = 10_000,
    seed: int = 12345,
    ranges: dict | None = None,
    bins: int = HISTOGRAM_BINS,
) -> dict:
    """P10/P50/P90 of total cost, NPV and break-even month, plus a histogram."""
    _check_draws(draws)
    resolved = resolve_ranges(inputs, ranges)
    drawn = _draw(resolved, draws, seed)
    onprem = _onprem(inputs, drawn)
    cloud = _against_cloud(inputs, drawn, onprem)
    counts, edges = np.histogram(onprem["total"], bins=bins)
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
        "total_cost": _percentiles(onprem["total"]),
        "npv_cost": _percentiles(onprem["npv"]),
        "cloud_total": cloud["cloud_total"],
        "break_even_month": cloud["break_even"],
        "prob_onprem_cheaper": cloud["cheaper"],
        "histogram": {
            "bin_edges": [round(float(e), 2) for e in edges],
            "counts": [int(c) for c in counts],
        },
    }
