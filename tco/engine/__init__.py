"""ClusterBuy TCO engine: pure Python + numpy, no Django, no I/O.

Charts live in ``tco.engine.charts`` (imported on demand: it pulls in matplotlib).
"""

from .analysis import full_analysis
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
from .hidden_costs import hidden_cost_check
from .inputs import (
    CAPEX_CATEGORIES,
    DEFAULTS,
    REASONS_ZH,
    SOURCES_ZH,
    CapexLine,
    Default,
    TcoInputError,
    TcoInputs,
    default_reason,
    default_source,
    defaults_used,
    inputs_from_dict,
    inputs_to_dict,
)
from .montecarlo import monte_carlo
from .sensitivity import METRICS, sensitivity
from .uncertainty import PARAMETERS
from .version import ENGINE_VERSION

__all__ = [
    "CAPEX_CATEGORIES",
    "CLOUD_OPTIONS",
    "CONVENTIONS",
    "CONVENTIONS_ZH",
    "COST_CATEGORIES",
    "DEFAULTS",
    "ENGINE_VERSION",
    "METRICS",
    "OPEX_CATEGORIES",
    "PARAMETERS",
    "REASONS_ZH",
    "SOURCES_ZH",
    "CapexLine",
    "Default",
    "TcoInputError",
    "TcoInputs",
    "TcoResult",
    "compute",
    "conventions",
    "default_reason",
    "default_source",
    "defaults_used",
    "full_analysis",
    "hidden_cost_check",
    "inputs_from_dict",
    "inputs_to_dict",
    "monte_carlo",
    "sensitivity",
]
