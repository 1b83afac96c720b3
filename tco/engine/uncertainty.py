"""The uncertain inputs shared by the tornado and the Monte Carlo simulation.

Each parameter is either a scenario field (ranges in that field's units) or a
multiplier (``gpu_server_price`` scales the gpu_servers capex lines, ``cloud_price``
scales all three cloud prices; ranges are factors around 1). Default ranges are
+/-20 % of the scenario value, clipped to the field's valid domain.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from .inputs import CapexLine, TcoInputError, TcoInputs

DEFAULT_RELATIVE_RANGE = 0.20


@dataclass(frozen=True)
class Parameter:
    name: str
    kind: str  # "field" or "factor"
    metric: str  # the sensitivity metric (see sensitivity.METRICS)
    low_bound: float
    high_bound: float


PARAMETERS: dict[str, Parameter] = {
    p.name: p
    for p in (
        Parameter("electricity_price_per_kwh", "field", "total_cost", 0.0, math.inf),
        Parameter("pue", "field", "total_cost", 1.0, 5.0),
        Parameter("load_factor", "field", "total_cost", 1e-9, 1.0),
        Parameter("gpu_server_price", "factor", "total_cost", 0.0, math.inf),
        Parameter("support_rate", "field", "total_cost", 0.0, 1.0),
        Parameter("annual_failure_rate", "field", "total_cost", 0.0, 1.0),
        Parameter("residual_value_rate", "field", "total_cost", 0.0, 1.0),
        Parameter("staff_cost_per_fte_year", "field", "total_cost", 0.0, math.inf),
        Parameter("utilization", "field", "cost_per_gpu_hour", 1e-9, 1.0),
        Parameter("discount_rate", "field", "npv_cost", 0.0, 1.0),
        Parameter("cloud_price", "factor", "cloud_reserved_total", 0.0, math.inf),
    )
}


def base_value(inputs: TcoInputs, name: str) -> float:
    param = PARAMETERS[name]
    return 1.0 if param.kind == "factor" else float(getattr(inputs, name))


def apply(inputs: TcoInputs, name: str, value: float) -> TcoInputs:
    """The scenario with one parameter set to ``value``."""
    if name == "gpu_server_price":
        capex = tuple(
            CapexLine(c.category, c.description, c.amount * value)
            if c.category == "gpu_servers"
            else c
            for c in inputs.capex
        )
        return replace(inputs, capex=capex)
    if name == "cloud_price":
        return replace(
            inputs,
            cloud_on_demand_per_gpu_hour=inputs.cloud_on_demand_per_gpu_hour * value,
            cloud_reserved_per_gpu_hour=inputs.cloud_reserved_per_gpu_hour * value,
            cloud_spot_per_gpu_hour=inputs.cloud_spot_per_gpu_hour * value,
        )
    return replace(inputs, **{name: value})


def _clip(name: str, value: float) -> float:
    p = PARAMETERS[name]
    return min(max(value, p.low_bound), p.high_bound)


def _check_number(value: Any, field: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TcoInputError(field, "must be a number", code="not_a_number")
    if not math.isfinite(value):
        raise TcoInputError(field, "must be a finite number", code="not_finite")
    return float(value)


def resolve_ranges(
    inputs: TcoInputs, ranges: dict | None, names: tuple[str, ...] | None = None
) -> dict[str, dict[str, float]]:
    """``{name: {"low", "mode", "high"}}`` for every parameter, defaults filled.

    A user range is ``{"low": .., "high": ..}`` (``"mode"`` optional, defaults to the
    scenario value) or a ``(low, high)`` pair. Unknown names raise TcoInputError.
    """
    ranges = ranges or {}
    unknown = set(ranges) - set(PARAMETERS)
    if unknown:
        raise TcoInputError(
            f"ranges.{sorted(unknown)[0]}",
            "unknown uncertain input",
            code="unknown_field",
        )
    out: dict[str, dict[str, float]] = {}
    for name in names or tuple(PARAMETERS):
        base = base_value(inputs, name)
        if name in ranges:
            raw = ranges[name]
            if isinstance(raw, list | tuple) and len(raw) == 2:
                raw = {"low": raw[0], "high": raw[1]}
            if not isinstance(raw, dict) or "low" not in raw or "high" not in raw:
                raise TcoInputError(
                    f"ranges.{name}", "expected {low, high}", code="expected_low_high"
                )
            low = _check_number(raw["low"], f"ranges.{name}.low")
            high = _check_number(raw["high"], f"ranges.{name}.high")
            mode = _check_number(raw.get("mode", base), f"ranges.{name}.mode")
            if not low <= mode <= high:
                raise TcoInputError(
                    f"ranges.{name}", "need low <= mode <= high", code="mode_order"
                )
            p = PARAMETERS[name]
            if low < p.low_bound or high > p.high_bound:
                raise TcoInputError(
                    f"ranges.{name}",
                    f"outside {p.low_bound:g}..{p.high_bound:g}",
                    code="out_of_range",
                    params={"kind": "number", "low": p.low_bound, "high": p.high_bound},
                )
        else:
            low = _clip(name, base * (1 - DEFAULT_RELATIVE_RANGE))
            high = _clip(name, base * (1 + DEFAULT_RELATIVE_RANGE))
            mode = base
        out[name] = {"low": low, "mode": mode, "high": high}
    return out
