"""Sizing: the hardware catalogue (editable copy of sizing/data), a procurement's
requirements and workloads, and the sizing plans computed from them.

One module each: ``catalog``, ``requirement``, ``workload``, ``plan``; every model is
importable from ``sizing.models`` as before.
"""

from .catalog import (
    Accelerator,
    AcceleratorQuerySet,
    Availability,
    CatalogRow,
    Ecosystem,
    ModelPreset,
    NetworkOption,
    ServerPlatform,
    StorageTier,
)
from .plan import SizingPlan, SizingPlanQuerySet
from .requirement import Region, Requirement, Scenario
from .workload import (
    CUSTOM_MODEL_FIELDS,
    INFERENCE_FIELDS,
    TRAINING_FIELDS,
    Arrival,
    KvCachePrecision,
    OutputLengths,
    Precision,
    Workload,
    WorkloadKind,
    WorkloadQuerySet,
)

__all__ = [
    "CUSTOM_MODEL_FIELDS",
    "INFERENCE_FIELDS",
    "TRAINING_FIELDS",
    "Accelerator",
    "AcceleratorQuerySet",
    "Availability",
    "CatalogRow",
    "Ecosystem",
    "Arrival",
    "KvCachePrecision",
    "OutputLengths",
    "ModelPreset",
    "NetworkOption",
    "Precision",
    "Region",
    "Requirement",
    "Scenario",
    "ServerPlatform",
    "SizingPlan",
    "SizingPlanQuerySet",
    "StorageTier",
    "Workload",
    "WorkloadKind",
    "WorkloadQuerySet",
]
