"""Everything a TCO run stores: deterministic result, tornado, Monte Carlo, checks."""

from __future__ import annotations

from collections.abc import Callable

from .breakdown import breakdown_total, cost_breakdown
from .cashflow import CONVENTIONS, compute
from .hidden_costs import hidden_cost_check
from .inputs import DEFAULTS, TcoInputs, defaults_used, inputs_to_dict
from .montecarlo import monte_carlo
from .sensitivity import sensitivity
from .version import ENGINE_VERSION


def full_analysis(
    inputs: TcoInputs,
    draws: int = 10_000,
    seed: int = 12345,
    progress: Callable[[int], None] | None = None,
    ranges: dict | None = None,
) -> dict:
    """JSON-serialisable analysis; ``progress(percent)`` is called at 0, 10, 30, 90, 100."""

    def report(percent: int) -> None:
        if progress is not None:
            progress(percent)

    report(0)
    deterministic = compute(inputs)
    result = deterministic.to_dict()
    items = cost_breakdown(inputs, deterministic)
    report(10)
    tornado = sensitivity(inputs, ranges)
    report(30)
    simulation = monte_carlo(inputs, draws=draws, seed=seed, ranges=ranges)
    report(90)
    checks = hidden_cost_check(inputs)
    used = defaults_used(inputs)
    analysis = {
        "engine_version": ENGINE_VERSION,
        "inputs": inputs_to_dict(inputs),
        "defaults_used": used,
        "defaults": {
            name: {
                "value": list(DEFAULTS[name].value)
                if isinstance(DEFAULTS[name].value, tuple)
                else DEFAULTS[name].value,
                "reason": DEFAULTS[name].reason,
                "source": DEFAULTS[name].source,
            }
            for name in used
        },
        "conventions": list(CONVENTIONS),
        "result": result,
        # The total as items that add up to the cent (breakdown.py).
        "breakdown": [item.to_dict() for item in items],
        "breakdown_total": str(breakdown_total(items)),
        "sensitivity": tornado,
        "monte_carlo": simulation,
        "hidden_costs": checks,
    }
    report(100)
    return analysis
