"""Result records. ``to_dict`` output is the API contract (names must not change)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .explain import clean


@dataclass(frozen=True)
class Bottleneck:
    code: str
    severity: str  # info | warning | error
    message: str
    value: float | str | None = None
    limit: float | str | None = None
    unit: str = ""

    def to_dict(self) -> dict[str, Any]:
        return clean(
            {
                "code": self.code,
                "severity": self.severity,
                "message": self.message,
                "value": self.value,
                "limit": self.limit,
                "unit": self.unit,
            }
        )


@dataclass(frozen=True)
class SizingResult:
    engine_version: str
    kind: str
    accelerator: str
    gpu_count: int
    training: dict | None
    memory: dict
    inference: dict | None
    parallelism: dict
    interconnect: dict
    storage: dict
    power: dict
    compatibility: dict
    bottlenecks: list[Bottleneck] = field(default_factory=list)
    alternatives: list[dict] = field(default_factory=list)
    explanation: list[dict] = field(default_factory=list)
    cost: dict = field(default_factory=dict)
    # {"weights": "fp8", "source": "published"|"requested"|"training_default"}
    precision: dict = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return clean(
            {
                "engine_version": self.engine_version,
                "kind": self.kind,
                "accelerator": self.accelerator,
                "gpu_count": self.gpu_count,
                "precision": self.precision,
                "training": self.training,
                "memory": self.memory,
                "inference": self.inference,
                "parallelism": self.parallelism,
                "interconnect": self.interconnect,
                "storage": self.storage,
                "power": self.power,
                "cost": self.cost,
                "compatibility": self.compatibility,
                "bottlenecks": [b.to_dict() for b in self.bottlenecks],
                "alternatives": self.alternatives,
                "explanation": self.explanation,
            }
        )


@dataclass(frozen=True)
class ClusterPlan:
    engine_version: str
    accelerator: str
    gpu_count: int
    nodes: int
    combination_rule: str
    workloads: list[SizingResult]
    interconnect: dict
    storage: dict
    power: dict
    bottlenecks: list[Bottleneck] = field(default_factory=list)
    explanation: list[dict] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return clean(
            {
                "engine_version": self.engine_version,
                "accelerator": self.accelerator,
                "gpu_count": self.gpu_count,
                "nodes": self.nodes,
                "combination_rule": self.combination_rule,
                "workloads": [w.to_dict() for w in self.workloads],
                "interconnect": self.interconnect,
                "storage": self.storage,
                "power": self.power,
                "bottlenecks": [b.to_dict() for b in self.bottlenecks],
                "explanation": self.explanation,
            }
        )
