"""Search of tensor x pipeline x data parallel layouts with ZeRO stage.

Bounded: TP in powers of two up to min(GPUs per node, 8, heads) (Narayanan et al. 2021:
keep TP inside the NVLink domain), PP in powers of two up to the layer count (max 64),
ZeRO 0-3 (only 0/1 with pipelining, as in Megatron's distributed optimizer), at most a
few hundred candidates. Among layouts that fit with 10 % headroom, the one with the least
communication + pipeline-bubble time per step wins.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .catalog import ModelArch
from .memory import GB, MEMORY_HEADROOM, Layout, TrainingMemory, training_memory
from .model import param_counts

# NCCL ring bus bandwidth reaches ~80 % of the per-direction link rate (hardware-facts
# 2c: H100 NVLink ~365 of 450 GB/s; NDR 46-48 of 50 GB/s per NIC).
COLLECTIVE_EFFICIENCY = 0.8
# Gradient all-reduce overlaps the backward pass, ~2/3 of a step (assumption).
OVERLAP_WINDOW_SHARE = 2.0 / 3.0
# ZeRO-3 adds parameter all-gathers: ~1.5x the DP volume (ZeRO paper, section 7).
ZERO3_COMM_FACTOR = 1.5


@dataclass(frozen=True)
class Fabric:
    """Bandwidths the search needs, GB/s per GPU each way."""

    scaleup_gbs: float  # NVLink/xGMI/HCCS each way, or PCIe when no scale-up link
    scaleup_domain: int
    pcie_gbs: float
    scaleout_gbs: float  # NIC bandwidth per GPU each way
    gpus_per_node: int


@dataclass(frozen=True)
class LayoutChoice:
    layout: Layout
    memory: TrainingMemory
    fits: bool
    micro_batches: int
    step_compute_s: float
    tp_bytes: float
    dp_bytes: float
    pp_bytes: float
    comm_s: float
    bubble_s: float

    @property
    def score_s(self) -> float:
        return self.comm_s + self.bubble_s


def _powers_of_two(limit: int) -> list[int]:
    out, v = [], 1
    while v <= limit:
        out.append(v)
        v *= 2
    return out


def tensor_degrees(m: ModelArch, gpus: int, gpus_per_node: int) -> list[int]:
    out = []
    for t in _powers_of_two(min(gpus_per_node, 8, gpus)):
        if m.attention_heads % t:
            continue
        if m.kv_heads % t and t % m.kv_heads:
            continue
        out.append(t)
    return out or [1]


def evaluate(
    m: ModelArch,
    layout: Layout,
    *,
    gpus: int,
    fabric: Fabric,
    memory_gb: float,
    seq_len: int,
    micro_batch: int,
    global_batch_tokens: int,
    precision: str,
    optimizer: str,
    recompute: str,
    lora_fraction: float | None,
    grad_accum_fp32: bool,
    step_flops: float,
    gpu_flops: float,
) -> LayoutChoice:
    """Memory per GPU, fit, and the communication and bubble time of one step."""
    sequences = max(global_batch_tokens // seq_len, 1)
    micro_batches = max(sequences // (layout.data * micro_batch), 1)
    memory = training_memory(
        m,
        layout,
        seq_len=seq_len,
        micro_batch=micro_batch,
        micro_batches=micro_batches,
        precision=precision,
        optimizer=optimizer,
        recompute=recompute,
        lora_fraction=lora_fraction,
        grad_accum_fp32=grad_accum_fp32,
    )
    step_compute_s = step_flops / (gpus * gpu_flops)
    activation_bytes = micro_batch * seq_len * m.hidden_size * 2.0
    tp_bytes = _tensor_parallel_bytes(m, layout, activation_bytes, micro_batches)
    dp_bytes = _data_parallel_bytes(
        m,
        layout,
        lora_fraction=lora_fraction,
        grad_accum_fp32=grad_accum_fp32,
        precision=precision,
    )
    pipeline = layout.pipeline
    # pipeline: each micro-batch's activations forward and their gradients back
    pp_bytes = 2.0 * activation_bytes * micro_batches if pipeline > 1 else 0.0
    return LayoutChoice(
        layout,
        memory,
        memory.total <= (1.0 - MEMORY_HEADROOM) * memory_gb * GB,
        micro_batches,
        step_compute_s,
        tp_bytes,
        dp_bytes,
        pp_bytes,
        _communication_s(fabric, gpus, layout.tensor, tp_bytes, dp_bytes + pp_bytes),
        (pipeline - 1) / (micro_batches + pipeline - 1) * step_compute_s,
    )


def _tensor_parallel_bytes(
    m: ModelArch, layout: Layout, activation_bytes: float, micro_batches: int
) -> float:
    """Megatron TP: 4 all-reduces per layer per micro-batch (2 fwd, 2 bwd), ring volume
    2(t-1)/t each (Narayanan et al. 2021; sizing-formulas section 8)."""
    tensor = layout.tensor
    layers_per_stage = math.ceil(m.layers / layout.pipeline)
    per_layer_bytes = 4 * 2.0 * (tensor - 1) / tensor * activation_bytes
    return per_layer_bytes * layers_per_stage * micro_batches


def _data_parallel_bytes(
    m: ModelArch,
    layout: Layout,
    *,
    lora_fraction: float | None,
    grad_accum_fp32: bool,
    precision: str,
) -> float:
    """Ring all-reduce of the trainable gradients of one model shard, 2(d-1)/d x bytes;
    ZeRO-3 adds the parameter all-gathers."""
    data = layout.data
    if data <= 1:
        return 0.0
    total, _ = param_counts(m)
    trainable = (
        total
        / (layout.tensor * layout.pipeline)
        * (1.0 if lora_fraction is None else lora_fraction)
    )
    grad_bytes = 4.0 if grad_accum_fp32 or precision == "fp32" else 2.0
    dp_bytes = 2.0 * (data - 1) / data * trainable * grad_bytes
    if layout.zero_stage >= 3:
        dp_bytes *= ZERO3_COMM_FACTOR
    return dp_bytes


def _communication_s(
    fabric: Fabric, gpus: int, tensor: int, tp_bytes: float, dp_pp_bytes: float
) -> float:
    """TP traffic rides the scale-up link (PCIe beyond its domain); DP and PP traffic
    the scale-out NICs once the job spans nodes."""
    tp_gbs = fabric.scaleup_gbs if tensor <= fabric.scaleup_domain else fabric.pcie_gbs
    across_nodes = gpus > fabric.gpus_per_node
    dp_gbs = fabric.scaleout_gbs if across_nodes else fabric.scaleup_gbs
    return (
        tp_bytes / (tp_gbs * COLLECTIVE_EFFICIENCY)
        + dp_pp_bytes / (dp_gbs * COLLECTIVE_EFFICIENCY)
    ) / GB


def candidate_layouts(
    m: ModelArch,
    gpus: int,
    fabric: Fabric,
    seq_len: int,
    micro_batch: int,
    global_batch_tokens: int,
) -> list[Layout]:
    sequences = max(global_batch_tokens // seq_len, 1)
    out = []
    for t in tensor_degrees(m, gpus, fabric.gpus_per_node):
        for p in _powers_of_two(min(m.layers, 64)):
            if gpus % (t * p):
                continue
            d = gpus // (t * p)
            if d * micro_batch > sequences:  # every DP rank needs a micro-batch
                continue
            stages = (0,) if d == 1 else ((0, 1) if p > 1 else (0, 1, 2, 3))
            for z in stages:
                out.append(Layout(t, p, d, z))
    return out


def search(
    m: ModelArch,
    *,
    gpus: int,
    fabric: Fabric,
    memory_gb: float,
    seq_len: int,
    micro_batch: int,
    global_batch_tokens: int,
    precision: str,
    optimizer: str,
    recompute: str,
    lora_fraction: float | None,
    grad_accum_fp32: bool,
    step_flops: float,
    gpu_flops: float,
) -> LayoutChoice | None:
    """Best fitting layout (least comm + bubble), else the least-memory one; None if no
    layout divides the GPU count under the global batch."""
    best_fit: LayoutChoice | None = None
    least_memory: LayoutChoice | None = None
    for layout in candidate_layouts(
        m, gpus, fabric, seq_len, micro_batch, global_batch_tokens
    ):
        choice = evaluate(
            m,
            layout,
            gpus=gpus,
            fabric=fabric,
            memory_gb=memory_gb,
            seq_len=seq_len,
            micro_batch=micro_batch,
            global_batch_tokens=global_batch_tokens,
            precision=precision,
            optimizer=optimizer,
            recompute=recompute,
            lora_fraction=lora_fraction,
            grad_accum_fp32=grad_accum_fp32,
            step_flops=step_flops,
            gpu_flops=gpu_flops,
        )
        if choice.fits and (
            best_fit is None
            or (choice.score_s, choice.memory.total)
            < (best_fit.score_s, best_fit.memory.total)
        ):
            best_fit = choice
        if least_memory is None or choice.memory.total < least_memory.memory.total:
            least_memory = choice
    return best_fit or least_memory
