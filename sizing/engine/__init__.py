"""ClusterBuy sizing engine: pure Python (numpy allowed), no Django, no I/O.

Public API: ``workload_from_dict``, ``constraints_from_dict``, ``estimate``,
``plan_cluster`` and the frozen records they use. See docs/methodology.md, Part A.
"""

from .catalog import (
    Accelerator,
    Catalog,
    ModelArch,
    NetworkOption,
    ServerPlatform,
    StorageTier,
)
from .errors import SizingInputError
from .estimate import ENGINE_VERSION, estimate, plan_cluster
from .result import Bottleneck, ClusterPlan, SizingResult
from .workload import Constraints, Workload, constraints_from_dict, workload_from_dict

__all__ = [
    "ENGINE_VERSION",
    "Accelerator",
    "Bottleneck",
    "Catalog",
    "ClusterPlan",
    "Constraints",
    "ModelArch",
    "NetworkOption",
    "ServerPlatform",
    "SizingInputError",
    "SizingResult",
    "StorageTier",
    "Workload",
    "constraints_from_dict",
    "estimate",
    "plan_cluster",
    "workload_from_dict",
]
