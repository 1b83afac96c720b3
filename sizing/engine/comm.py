"""Communication of one training step, per GPU, by parallel dimension, and its time.

Ring collectives move 2(n-1)/n of the buffer per GPU for an all-reduce and (n-1)/n for
an all-gather or reduce-scatter (sizing-formulas section 8); NCCL reaches ~80 % of the
link rate (hardware-facts 2c). Per micro-batch of b sequences (s/c tokens each on a
context rank, h wide, 16-bit):
- tensor: 4 collectives per layer (2 forward, 2 backward; with sequence parallelism an
  all-gather and a reduce-scatter each) of b (s/c) h x 2 B, on the scale-up link
  (Narayanan et al. 2021);
- context (ring attention): K and V gathered in the forward and backward passes and
  their gradients reduce-scattered, 3 x (c-1)/c x b s (2 kv d / t) x 2 B per layer;
- expert (MoE): dispatch and combine all-to-alls in both passes, 4 x k b (s/c) h / t
  x 2 B x (e-1)/e per layer (k = experts per token);
- pipeline: activations forward and gradients back across each of the v chunk
  boundaries, 2 v b (s/c) h / t x 2 B;
- data: the gradients of the GPU's parameters over the d x c ranks holding them
  (experts: d x c / e): ZeRO 0/1 one all-reduce per step; ZeRO-2 a reduce-scatter per
  micro-batch plus one all-gather of the updated weights; ZeRO-3 (FSDP) also gathers the
  weights in the forward and the backward of every micro-batch.
Data-parallel traffic leaves the node through every NIC of the node's ranks of the same
group (NCCL's hierarchical rings), so its bandwidth is the NIC rate x the group's ranks
per node, capped by the scale-up link.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .model_states import Sharding, StageParams, StateRecipe, state_bytes_per_param

if TYPE_CHECKING:
    from .memory import Layout
    from .training_job import TrainingJob

COLLECTIVE_EFFICIENCY = 0.8
# Gradient traffic overlaps the backward pass, ~2/3 of a step (assumption).
OVERLAP_WINDOW_SHARE = 2.0 / 3.0
BYTES_16 = 2.0


@dataclass(frozen=True)
class StepTraffic:
    tensor_bytes: float
    context_bytes: float
    expert_bytes: float
    pipeline_bytes: float
    data_bytes: float
    scaleout_bytes: float  # the part that crosses the NICs
    seconds: float
    data_seconds: float = 0.0  # the data-parallel part of ``seconds``

    expert_seconds: float = 0.0  # the expert-parallel part of ``seconds``

    def exposed_s(self, compute_s: float) -> float:
        """What the step waits for: the tensor, context and pipeline traffic (on the
        critical path between the layers' kernels) and the data-parallel traffic
        beyond the backward pass it overlaps (2/3 of the step). The expert all-to-all
        is in the token's time already (``step_roofline``)."""
        hidden = OVERLAP_WINDOW_SHARE * compute_s
        model = self.seconds - self.data_seconds - self.expert_seconds
        return model + max(0.0, self.data_seconds - hidden)


@dataclass(frozen=True)
class ModelTraffic:
    """The traffic of the model-parallel dimensions (not data): bytes per GPU per step,
    their seconds, the part crossing the NICs, and the data-parallel link speed."""

    tensor_bytes: float
    context_bytes: float
    expert_bytes: float
    pipeline_bytes: float
    seconds: float
    scaleout_bytes: float
    data_gbs: float
    cross_node: bool
    expert_seconds: float = 0.0

    def with_data(self, data_bytes: float) -> StepTraffic:
        data_seconds = data_bytes / (self.data_gbs * COLLECTIVE_EFFICIENCY * 1e9)
        seconds = self.seconds + data_seconds
        scaleout = self.scaleout_bytes + (data_bytes if self.cross_node else 0.0)
        return StepTraffic(
            self.tensor_bytes,
            self.context_bytes,
            self.expert_bytes,
            self.pipeline_bytes,
            data_bytes,
            scaleout,
            seconds,
            data_seconds,
            self.expert_seconds,
        )


def model_traffic(job: TrainingJob, layout: Layout, micro_batches: int) -> ModelTraffic:
    m, recipe, fabric = job.model, job.recipe, job.fabric
    t, c, p, e = layout.tensor, layout.context, layout.pipeline, layout.expert
    node = fabric.gpus_per_node
    slice_tokens = recipe.micro_batch * recipe.seq_len / c  # per context rank
    layers = -(-m.layers // p) * micro_batches
    tensor = 4 * 2.0 * (t - 1) / t * slice_tokens * m.hidden_size * BYTES_16 * layers
    kv_width = m.kv_heads * m.head_dim / min(t, m.kv_heads)
    context = 3 * (c - 1) / c * recipe.micro_batch * recipe.seq_len * 2 * kv_width
    context *= BYTES_16 * layers
    active = m.moe_active_experts if m.is_moe else 0
    expert = 4 * active * slice_tokens * m.hidden_size / t * BYTES_16 * (e - 1) / e
    expert *= layers
    pipeline = 0.0
    if p > 1:
        pipeline = 2 * layout.virtual_stages * slice_tokens * m.hidden_size / t
        pipeline *= BYTES_16 * micro_batches
    cross_node = job.gpus > node
    scaleup, scaleout = fabric.scaleup_gbs, fabric.scaleout_gbs
    tensor_gbs = scaleup if t <= fabric.scaleup_domain else fabric.pcie_gbs
    expert_seconds = (
        expert
        / (scaleup if t * e <= node else scaleout)
        / (COLLECTIVE_EFFICIENCY * 1e9)
    )
    seconds = (
        tensor / tensor_gbs
        + context / (scaleup if t * c <= node else scaleout)
        + pipeline / (scaleout if cross_node else scaleup)
    ) / (COLLECTIVE_EFFICIENCY * 1e9) + expert_seconds
    crossing = (pipeline if cross_node else 0.0) + (context if t * c > node else 0.0)
    crossing += expert if t * e > node else 0.0
    return ModelTraffic(
        tensor,
        context,
        expert,
        pipeline,
        seconds,
        crossing,
        _data_gbs(job, layout),
        cross_node,
        expert_seconds,
    )


def _data_gbs(job: TrainingJob, layout: Layout) -> float:
    """NCCL's rings leave the node through every NIC of the group's ranks there."""
    fabric = job.fabric
    if job.gpus <= fabric.gpus_per_node:
        return fabric.scaleup_gbs
    model_slice = layout.tensor * layout.context * layout.pipeline
    ranks_per_node = max(1, fabric.gpus_per_node // model_slice)
    return min(fabric.scaleup_gbs, fabric.scaleout_gbs * ranks_per_node)


def data_bytes(
    params: StageParams,
    sharding: Sharding,
    recipe: StateRecipe,
    micro_batches: int,
) -> float:
    """Gradient (and ZeRO-3 weight) traffic of one GPU's parameters per step."""
    trainable = 1.0 if recipe.lora_fraction is None else recipe.lora_fraction
    weight_b, grad_b, _ = state_bytes_per_param(
        recipe.precision, recipe.optimizer, recipe.grad_accum_fp32
    )
    zero = sharding.zero_stage
    total = 0.0
    for count, ranks in (
        (params.dense, sharding.dense_replicas),
        (params.expert, sharding.expert_replicas),
    ):
        if ranks <= 1:
            continue
        share = (ranks - 1) / ranks
        grads = count * trainable * grad_b
        if zero <= 1:
            total += 2 * share * grads
        else:
            total += share * (grads * micro_batches + count * trainable * weight_b)
        if zero >= 3:
            total += 2 * share * count * weight_b * micro_batches
    return total
