"""ClusterBuy TCO engine: pure Python + numpy, no Django, no I/O.

Charts live in ``tco.engine.charts`` (hand-written SVG, pure Python).
"""

from .analysis import full_analysis
from .breakdown import CostItem, breakdown_total, cost_breakdown
from .cashflow import (
    CLOUD_OPTIONS,
    CONVENTIONS,
    CONVENTIONS_ZH,
    COST_CATEGORIES,
    OPEX_CATEGORIES,
    TcoResult,
    compute,
    conventions,
)
from .currency import convert_money
from .hidden_costs import hidden_cost_check
from .input_table import CAPEX_TABLE, INPUT_TABLE, CapexCategory, InputSpec
from .inputs import (
    CAPEX_CATEGORIES,
    DEFAULTS,
    IT_POWER_KW_PER_GPU,
    REASONS_ZH,
    SOURCES_ZH,
    CapexLine,
    Default,
    TcoInputError,
    TcoInputs,
    capex_label,
    default_reason,
    default_source,
    defaults_used,
    input_label,
    inputs_from_dict,
    inputs_to_dict,
)
from .montecarlo import monte_carlo
from .sensitivity import METRICS, sensitivity
from .uncertainty import PARAMETERS
from .version import ENGINE_VERSION

__all__ = [
    "CAPEX_CATEGORIES",
    "CAPEX_TABLE",
    "CLOUD_OPTIONS",
    "CONVENTIONS",
    "CONVENTIONS_ZH",
    "COST_CATEGORIES",
    "DEFAULTS",
    "ENGINE_VERSION",
    "INPUT_TABLE",
    "IT_POWER_KW_PER_GPU",
    "METRICS",
    "OPEX_CATEGORIES",
    "PARAMETERS",
    "REASONS_ZH",
    "SOURCES_ZH",
    "CapexCategory",
    "CapexLine",
    "CostItem",
    "Default",
    "InputSpec",
    "TcoInputError",
    "TcoInputs",
    "TcoResult",
    "capex_label",
    "compute",
    "breakdown_total",
    "conventions",
    "cost_breakdown",
    "convert_money",
    "default_reason",
    "default_source",
    "defaults_used",
    "full_analysis",
    "hidden_cost_check",
    "input_label",
    "inputs_from_dict",
    "inputs_to_dict",
    "monte_carlo",
    "sensitivity",
]
