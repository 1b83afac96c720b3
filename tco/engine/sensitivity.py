"""One-at-a-time sensitivity (tornado) of the TCO to its uncertain inputs.

Every row moves one output, the on-prem cost per useful GPU-hour (total cost over
the useful GPU-hours of the horizon), so the bars compare: prices, PUE, load,
support, failures, residual and staff move it through the total cost, utilization
through the useful hours. The discount rate (NPV only) and the cloud price (the
alternative, not the on-prem cost) do not move it: their rows show no swing and sort
last, instead of leading on a different output (issue 24).
"""

from __future__ import annotations

from .cashflow import TcoResult, compute
from .inputs import TcoInputs
from .uncertainty import PARAMETERS, apply, base_value, resolve_ranges

#: The one output every row of the tornado moves.
METRIC = "cost_per_gpu_hour"
METRICS: dict[str, str] = {
    "total_cost": "on-prem total cost, nominal",
    "npv_cost": "on-prem cost, net present value",
    "cost_per_gpu_hour": "on-prem cost per useful GPU-hour",
    "cloud_reserved_total": "cloud reserved total cost, nominal",
}


def metric_value(result: TcoResult, metric: str) -> float:
    if metric == "cloud_reserved_total":
        return result.cloud["reserved"]["total"]
    return float(getattr(result, metric))


def sensitivity(inputs: TcoInputs, ranges: dict | None = None) -> list[dict]:
    """Tornado rows: each parameter at its low and high value, others at base."""
    resolved = resolve_ranges(inputs, ranges)
    base_result = compute(inputs)
    rows = []
    for name, rng in resolved.items():
        metric = METRIC
        base = metric_value(base_result, metric)
        low_value = metric_value(compute(apply(inputs, name, rng["low"])), metric)
        high_value = metric_value(compute(apply(inputs, name, rng["high"])), metric)
        swing = abs(high_value - low_value)
        rows.append(
            {
                "parameter": name,
                "kind": PARAMETERS[name].kind,
                "metric": metric,
                "base_input": base_value(inputs, name),
                "low_input": rng["low"],
                "high_input": rng["high"],
                "base_value": round(base, 2),
                "low_value": round(low_value, 2),
                "high_value": round(high_value, 2),
                "low_change": round(low_value - base, 2),
                "high_change": round(high_value - base, 2),
                "swing": round(swing, 2),
                "swing_pct": round(swing / abs(base) * 100, 3) if base else None,
            }
        )
    rows.sort(key=lambda r: (-(r["swing_pct"] or 0.0), r["parameter"]))
    return rows
