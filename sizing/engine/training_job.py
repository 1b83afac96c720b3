"""What one training step is scored on: the job (model, GPUs, batch, FLOPs) and the
fabric's bandwidths. Its own module so the parallelism search and the communication
model (`comm.py`) both read it without importing each other."""

from __future__ import annotations

from dataclasses import dataclass

from .catalog import ModelArch
from .memory import Recipe


@dataclass(frozen=True)
class Fabric:
    """Bandwidths the search needs, GB/s per GPU each way."""

    scaleup_gbs: float  # NVLink/xGMI/HCCS each way, or PCIe when no scale-up link
    scaleup_domain: int
    pcie_gbs: float
    scaleout_gbs: float  # NIC bandwidth per GPU each way
    gpus_per_node: int


@dataclass(frozen=True)
class TrainingJob:
    """One step of one workload on a GPU count: what every candidate is scored on."""

    model: ModelArch
    gpus: int
    fabric: Fabric
    memory_gb: float
    recipe: Recipe
    global_batch_tokens: int
    step_flops: float  # hardware FLOPs of one step
    gpu_flops: float  # achieved FLOP/s per GPU (peak x HFU)

    @property
    def sequences(self) -> int:
        return max(self.global_batch_tokens // self.recipe.seq_len, 1)
