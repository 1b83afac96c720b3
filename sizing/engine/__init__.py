"""ClusterBuy sizing engine: pure Python (numpy allowed), no Django, no I/O.

Public API: ``workload_from_dict``, ``constraints_from_dict``, ``estimate``,
``plan_cluster`` and the frozen records they use. See docs/methodology.md, Part A.

How an estimate is made: ``sized_workload`` plans one workload on one accelerator
(training: ``training``/``parallelism``; serving: ``inference`` over the layouts of
``serving_layout``, costed by ``serving_cost`` from ``serving_needs``), ``ranking`` picks
the accelerator when none is given, ``cost``, ``memory_section`` and
``plan_sections`` explain the figures, ``network``/``storage``/``power`` size the
infrastructure, ``bottlenecks`` holds one rule per finding; ``estimate`` assembles one
workload's result and ``cluster`` combines several.
"""

from .catalog import (
    Accelerator,
    Catalog,
    ModelArch,
    NetworkOption,
    ServerPlatform,
    StorageTier,
)
from .cluster import plan_cluster
from .errors import SizingInputError
from .estimate import ENGINE_VERSION, estimate
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
