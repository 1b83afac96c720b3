"""Memory per GPU for training (model states + activations) and inference (weights + KV).

All figures in bytes; GB = 10^9 bytes at the boundary (vendor memory sizes are GB).
Training memory is that of the pipeline stage that needs the most: its model states
(``model_states``) plus the activations the schedule keeps in flight (``activations``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from .activations import (
    activation_bytes_per_layer,
    busiest_stages,
    logits_bytes,
)
from .catalog import Accelerator, ModelArch
from .model import BYTES_PER_VALUE, param_counts
from .model_states import (
    Sharding,
    StateRecipe,
    model_state_bytes,
    stage_params,
)

GB = 1e9
# CUDA/ROCm context and NCCL buffers: 0.65-1 GB per GPU (sizing-formulas pitfall 3).
RUNTIME_CONTEXT_BYTES = 1.0 * GB
# Caching-allocator fragmentation on top of live tensors (assumption, documented).
FRAGMENTATION_SHARE = 0.05
# Layouts should leave this share of HBM free (the "memory headroom under 10%" warning).
MEMORY_HEADROOM = 0.10
# Serving: the share of the device's reported memory the engine may use for weights,
# activations and KV cache (vLLM --gpu-memory-utilization, default 0.9; TensorRT-LLM
# kv_cache_free_gpu_mem_fraction 0.9 of what is left after the weights).
DEFAULT_GPU_MEMORY_FRACTION = 0.9
# CUDA-graph pool of a serving engine's decode graphs (vLLM logs "Graph capturing
# finished ... took 0.5 GiB" for the default capture sizes; assumption, documented).
CUDA_GRAPH_BYTES = 0.5 * 1024**3


@dataclass(frozen=True)
class Layout:
    """Tensor x pipeline x data (x context x expert) parallel degrees, ZeRO stage and the
    pipeline schedule (``virtual_stages`` > 1: interleaved 1F1B)."""

    tensor: int = 1
    pipeline: int = 1
    data: int = 1
    zero_stage: int = 0
    context: int = 1
    expert: int = 1
    virtual_stages: int = 1

    @property
    def gpus(self) -> int:
        return self.tensor * self.pipeline * self.data * self.context

    @property
    def schedule(self) -> str:
        if self.pipeline == 1:
            return "none"
        return "interleaved-1f1b" if self.virtual_stages > 1 else "1f1b"


@dataclass(frozen=True)
class TrainingMemory:
    weights: float
    gradients: float
    optimizer: float
    activations: float
    overhead: float
    stage: int = 0  # the pipeline stage these figures are for (the fullest)
    stage_layers: int = 0
    in_flight: float = 1.0  # micro-batches' activations that stage holds

    @property
    def total(self) -> float:
        return (
            self.weights
            + self.gradients
            + self.optimizer
            + self.activations
            + self.overhead
        )


@dataclass(frozen=True)
class Recipe:
    """What a training step keeps: precision, optimizer, recompute, LoRA, batch."""

    seq_len: int
    micro_batch: int
    precision: str = "bf16"
    optimizer: str = "adamw"
    recompute: str = "selective"
    lora_fraction: float | None = None
    grad_accum_fp32: bool = False
    base_precision: str | None = None
    quant_scope: str = "all"  # the LoRA base's quantised tensor groups

    @cached_property
    def states(self) -> StateRecipe:
        return StateRecipe(
            self.precision,
            self.optimizer,
            self.grad_accum_fp32,
            self.lora_fraction,
            self.base_precision,
            self.quant_scope,
        )


def training_memory(
    m: ModelArch,
    layout: Layout,
    *,
    seq_len: int,
    micro_batch: int,
    micro_batches: int,
    precision: str,
    optimizer: str,
    recompute: str,
    lora_fraction: float | None = None,
    grad_accum_fp32: bool = False,
    base_precision: str | None = None,
) -> TrainingMemory:
    """Per-GPU memory of one layout: the fullest of the busiest pipeline stages."""
    recipe = Recipe(
        seq_len,
        micro_batch,
        precision,
        optimizer,
        recompute,
        lora_fraction,
        grad_accum_fp32,
        base_precision,
    )
    return stage_memory(m, layout, recipe, micro_batches)


def stage_memory(
    m: ModelArch, layout: Layout, recipe: Recipe, micro_batches: int
) -> TrainingMemory:
    t, c = layout.tensor, layout.context
    per_layer = activation_bytes_per_layer(
        m, recipe.seq_len, recipe.micro_batch, t, recipe.recompute, c, recipe.precision
    )
    # full recompute rematerialises one layer at a time during the backward pass
    remat = (
        activation_bytes_per_layer(
            m, recipe.seq_len, recipe.micro_batch, t, "selective", c, recipe.precision
        )
        if recipe.recompute == "full"
        else 0.0
    )
    sharding = Sharding(t, layout.expert, layout.data * c, layout.zero_stage)
    fullest: TrainingMemory | None = None
    stages = busiest_stages(
        m.layers, layout.pipeline, micro_batches, layout.virtual_stages
    )
    for stage in stages:
        params = stage_params(m, stage, t, layout.expert)
        weights, grads, optimizer = model_state_bytes(params, sharding, recipe.states)
        acts = per_layer * stage.layers * stage.in_flight + remat
        if stage.has_head:
            acts += logits_bytes(m, recipe.seq_len, recipe.micro_batch, t * c)
        live = weights + grads + optimizer + acts
        memory = TrainingMemory(
            weights,
            grads,
            optimizer,
            acts,
            RUNTIME_CONTEXT_BYTES + FRAGMENTATION_SHARE * live,
            stage.index,
            stage.layers,
            stage.in_flight,
        )
        if fullest is None or memory.total > fullest.total:
            fullest = memory
    assert fullest is not None
    return fullest


def serving_memory_budget(acc: Accelerator, fraction: float) -> float:
    """Bytes a serving engine may fill with weights, activations and KV cache:
    fraction x reported device memory - runtime context - CUDA-graph pool. The paged KV
    cache wastes under 4 % (Kwon et al. 2023, PagedAttention, section 6), so no
    fragmentation share is taken off (it is in the activation workspace's reuse)."""
    return (
        fraction * acc.memory_capacity_bytes - RUNTIME_CONTEXT_BYTES - CUDA_GRAPH_BYTES
    )


@dataclass(frozen=True)
class InferenceMemory:
    weights: float
    kv_cache: float
    activations: float
    overhead: float

    @property
    def total(self) -> float:
        return self.weights + self.kv_cache + self.activations + self.overhead


def kv_shard_divisor(m: ModelArch, tensor: int) -> int:
    """KV heads split over min(t, kv); beyond that heads replicate. MLA latents replicate."""
    if m.kv_lora_rank:
        return 1
    return min(tensor, m.kv_heads)


def inference_activation_bytes(
    m: ModelArch, prefill_chunk_tokens: int, tensor: int
) -> float:
    """Workspace of one layer during a prefill chunk: (4h + 2f) values per token, 16-bit.

    Assumption (documented): buffers are reused layer to layer, so one layer's worth plus
    the chunk's fp32 logits row is live.
    """
    per_token = (4 * m.hidden_size + 2 * m.ffn_hidden_size) * 2.0 / tensor
    return prefill_chunk_tokens * per_token + 4.0 * m.vocab_size * 2


def inference_memory(
    m: ModelArch,
    *,
    precision: str,
    kv_bytes_per_token: float,
    tokens_in_cache: float,
    tensor: int,
    prefill_chunk_tokens: int,
) -> InferenceMemory:
    total, _ = param_counts(m)
    weights = total * BYTES_PER_VALUE[precision] / tensor
    kv = kv_bytes_per_token * tokens_in_cache / kv_shard_divisor(m, tensor)
    acts = inference_activation_bytes(m, prefill_chunk_tokens, tensor)
    overhead = RUNTIME_CONTEXT_BYTES + FRAGMENTATION_SHARE * (weights + kv + acts)
    return InferenceMemory(weights, kv, acts, overhead)
