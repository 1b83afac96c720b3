"""The uncertain inputs shared by the tornado and the Monte Carlo simulation.

Each parameter is either a scenario field (ranges in that field's units) or a
multiplier (``gpu_server_price`` scales the gpu_servers capex lines, ``cloud_price``
scales all three cloud prices; ranges are factors around 1). Each has its own default
range, from the spread its source publishes, clipped to physical bounds (a PUE never
below 1.05: the best hyperscale fleets run at about 1.09-1.10, Google; cost-figures.md),
never a blanket +/-20 %.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from .inputs import CapexLine, TcoInputError, TcoInputs

#: Where a parameter's source gives no spread: ClusterBuy assumption.
DEFAULT_RELATIVE_RANGE = 0.20
#: The lowest PUE a data centre reaches: Google's fleet ~1.09-1.10; immersion-cooled
#: halls quote 1.02-1.03 but not for GPU clusters on air (cost-figures.md, PUE rows).
PUE_FLOOR = 1.05


@dataclass(frozen=True)
class Parameter:
    name: str
    kind: str  # "field" or "factor"
    metric: str  # kept for the stored shape: every row is on ``sensitivity.METRIC``
    low_bound: float
    high_bound: float
    #: The default range: base x low_factor .. base x high_factor, or base + low_add
    #: .. base + high_add where given (PUE), then clipped to the bounds.
    low_factor: float = 1 - DEFAULT_RELATIVE_RANGE
    high_factor: float = 1 + DEFAULT_RELATIVE_RANGE
    low_add: float | None = None
    high_add: float | None = None
    source: str = "ClusterBuy assumption: +/-20 %"


_METRIC = "cost_per_gpu_hour"

PARAMETERS: dict[str, Parameter] = {
    p.name: p
    for p in (
        Parameter(
            "electricity_price_per_kwh", "field", _METRIC, 0.0, math.inf,
            source="ClusterBuy assumption: provincial industrial tariffs +/-20 %",
        ),
        Parameter(
            "pue", "field", _METRIC, PUE_FLOOR, 3.0, low_add=-0.15, high_add=0.26,
            source="Google fleet ~1.10 (low); Uptime Institute 2024 industry "
            "average 1.56 (high, 1.3 + 0.26); floor 1.05",
        ),
        Parameter(
            "load_factor", "field", _METRIC, 0.05, 1.0,
            low_factor=0.56 / 0.75, high_factor=1.0 / 0.75,
            source="Epoch AI server_TDP_fraction 0.75, 90 % CI 0.56-1.0",
        ),
        Parameter(
            "gpu_server_price", "factor", _METRIC, 0.0, math.inf,
            low_factor=0.85, high_factor=1.15,
            source="HGX H100 8-GPU 255,237 USD (2025-01) vs 296,644 (2024-03), "
            "Epoch hardware prices: about +/-15 %",
        ),
        Parameter(
            "support_rate", "field", _METRIC, 0.0, 1.0,
            low_factor=0.8, high_factor=1.5,
            source="Sesterce: support 8-15 % of hardware a year (0.10 x 0.8..1.5)",
        ),
        Parameter(
            "annual_failure_rate", "field", _METRIC, 0.0, 1.0,
            low_factor=2.5 / 4, high_factor=6 / 4,
            source="GPU replacement 2.5-6 %/yr, central 4 % (cost-figures.md)",
        ),
        Parameter(
            "residual_value_rate", "field", _METRIC, 0.0, 1.0,
            low_factor=0.5, high_factor=2.0,
            source="residual 20-40 % at end of service (v2-pseo, low confidence): "
            "half to twice the 0.68^H default",
        ),
        Parameter(
            "staff_cost_per_fte_year", "field", _METRIC, 0.0, math.inf,
            low_factor=0.75, high_factor=1.25,
            source="Sesterce staff ranges, e.g. SRE 150-250k USD: +/-25 %",
        ),
        Parameter("utilization", "field", _METRIC, 0.05, 1.0),
        Parameter("discount_rate", "field", "npv_cost", 0.0, 1.0),
        Parameter(
            "cloud_price", "factor", "cloud_reserved_total", 0.0, math.inf,
            low_factor=0.7, high_factor=1.3,
            source="H100 rental 2.35-2.99 USD/h in 2024-26 and falling "
            "(cost-figures.md): +/-30 %",
        ),
    )
}  # fmt: skip


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


def default_range(name: str, base: float) -> tuple[float, float]:
    """The parameter's default (low, high) around ``base``, within its bounds."""
    p = PARAMETERS[name]
    if p.low_add is not None and p.high_add is not None:
        low, high = base + p.low_add, base + p.high_add
    else:
        low, high = base * p.low_factor, base * p.high_factor
    return _clip(name, low), _clip(name, high)


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
            low, high = default_range(name, base)
            mode = min(max(base, low), high)
        out[name] = {"low": low, "mode": mode, "high": high}
    return out
