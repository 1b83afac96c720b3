"""One workload sized on one accelerator: its server, fabric and training or serving plan.

Everything after this step (cost, explanation sections, bottlenecks) reads a
``SizedWorkload``; nothing re-plans.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from .catalog import Accelerator, Catalog, ServerPlatform
from .comm import COLLECTIVE_EFFICIENCY, OVERLAP_WINDOW_SHARE
from .errors import SizingInputError
from .inference import InferencePlan, plan_inference
from .parallelism import Fabric
from .platform import fabric_for, server_for
from .remedies import fit_remedies
from .training import TrainingPlan, plan_training
from .workload import Workload


@dataclass(frozen=True)
class SizedWorkload:
    accelerator: Accelerator
    server: ServerPlatform
    fabric: Fabric
    workload: Workload
    training: TrainingPlan | None
    inference: InferencePlan | None

    @property
    def gpus(self) -> int:
        return self.training.gpus if self.training else self.inference.gpus  # type: ignore

    @property
    def nodes(self) -> int:
        return math.ceil(self.gpus / self.server.gpus_per_node)

    @property
    def node_kw(self) -> float:
        return float(self.server.node_max_kw or 0.0)

    @property
    def runs(self) -> bool:
        """True when a layout fits and, for serving, the latency targets are met."""
        if self.training and not self.training.choice.fits:
            return False
        return not (
            self.inference
            and not (self.inference.fits and self.inference.meets_latency)
        )

    def scale_out_need_gbps(self) -> float:
        """Traffic per GPU that crosses the NICs (gradients, pipeline, cross-node
        context and expert exchanges) and must hide behind compute."""
        if not self.training or self.nodes <= 1:
            return 0.0
        choice = self.training.choice
        window_s = OVERLAP_WINDOW_SHARE * choice.step_compute_s
        if window_s <= 0:
            return 0.0
        traffic_bytes = choice.traffic.scaleout_bytes
        return traffic_bytes / window_s / COLLECTIVE_EFFICIENCY * 8.0 / 1e9

    def tokens_per_s_per_gpu(self) -> float:
        if not self.training or self.training.days <= 0:
            return 0.0
        tokens = (self.workload.tokens_b or 0.0) * 1e9
        return tokens / (self.training.days * 86400.0) / self.gpus


def size_workload(
    workload: Workload, accelerator: Accelerator, catalog: Catalog
) -> SizedWorkload:
    server = server_for(accelerator, catalog)
    fabric = fabric_for(accelerator, server)
    if workload.is_training:
        training = plan_training(accelerator, server, fabric, workload)
        remedies = fit_remedies(
            accelerator, fabric, training, workload, server.gpus_per_node
        )
        training = replace(training, remedies=remedies)
        return SizedWorkload(accelerator, server, fabric, workload, training, None)
    inference = plan_inference(accelerator, server, fabric, workload)
    return SizedWorkload(accelerator, server, fabric, workload, None, inference)


def accelerator_by_key(catalog: Catalog, key: str) -> Accelerator:
    if key not in catalog.accelerators:
        raise SizingInputError(
            f"unknown accelerator {key!r}",
            field="accelerator",
            code="unknown_accelerator",
            params={"key": key},
        )
    return catalog.accelerators[key]
