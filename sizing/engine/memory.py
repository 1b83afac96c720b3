"""Memory per GPU for training (model states + activations) and inference (weights + KV).

All figures in bytes; GB = 10^9 bytes at the boundary (vendor memory sizes are GB).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .catalog import ModelArch
from .model import BYTES_PER_VALUE, embedding_params, layer_params, param_counts

GB = 1e9
# CUDA/ROCm context and NCCL buffers: 0.65-1 GB per GPU (sizing-formulas pitfall 3).
RUNTIME_CONTEXT_BYTES = 1.0 * GB
# Caching-allocator fragmentation on top of live tensors (assumption, documented).
FRAGMENTATION_SHARE = 0.05
# Layouts must leave this share of HBM free (the "memory headroom under 10%" bottleneck).
MEMORY_HEADROOM = 0.10


@dataclass(frozen=True)
class Layout:
    tensor: int = 1
    pipeline: int = 1
    data: int = 1
    zero_stage: int = 0


@dataclass(frozen=True)
class TrainingMemory:
    weights: float
    gradients: float
    optimizer: float
    activations: float
    overhead: float

    @property
    def total(self) -> float:
        return (
            self.weights
            + self.gradients
            + self.optimizer
            + self.activations
            + self.overhead
        )


def state_bytes_per_param(
    precision: str, optimizer: str, grad_accum_fp32: bool
) -> tuple[float, float, float]:
    """(weights, gradients, optimizer) bytes per parameter.

    Mixed precision + Adam = 2 + 2 + 12 = 16 B (ZeRO paper, K = 12: fp32 master, m, v);
    with fp32 gradient accumulation 18 B (DeepSpeed estimator). FP8 recipes keep 16-bit
    weights with an fp32 master (Transformer Engine), so they count as mixed precision.
    """
    if precision == "fp32":
        weights, grads = 4.0, 4.0
        opt = {
            "adamw": 8.0,
            "adam": 8.0,
            "adam_8bit": 2.0,
            "sgd": 4.0,
            "adafactor": 0.5,
        }
    else:
        weights, grads = 2.0, 4.0 if grad_accum_fp32 else 2.0
        # master copy (4) + states: Adam m,v 8; 8-bit Adam 2; SGD momentum 4;
        # Adafactor factored second moment ~0.5 (approximation)
        opt = {
            "adamw": 12.0,
            "adam": 12.0,
            "adam_8bit": 6.0,
            "sgd": 8.0,
            "adafactor": 4.5,
        }
    return weights, grads, opt[optimizer]


def activation_bytes_per_layer(
    m: ModelArch, seq_len: int, micro_batch: int, tensor: int, recompute: str
) -> float:
    """Korthikanti et al. 2022 (eq. 2 and Table 2), with sequence parallelism.

    Per layer, 16-bit activations: s b h (34 + 5 a s / h) for a 4h GeLU MLP. Generalised to
    FFN width f as s b h (18 + 4 f / h) (Megatron form); a gated FFN keeps one more f-wide
    tensor (+2 f / h, our extension); MoE scales the FFN part by the active experts.
    Selective recompute (or flash attention) drops the 5 a s / h attention-score term;
    full recompute keeps only the layer input, 2 s b h. With sequence parallelism all of it
    divides by t.
    """
    s, b, h, f = seq_len, micro_batch, m.hidden_size, m.ffn_hidden_size
    if recompute == "full":
        return 2.0 * s * b * h / tensor
    experts = m.moe_active_experts if m.is_moe else 1
    per_token_hidden = 18.0 + (4.0 + (2.0 if m.gated_ffn else 0.0)) * f * experts / h
    value = s * b * h * per_token_hidden
    if recompute == "none":
        value += 5.0 * m.attention_heads * s * s * b
    return value / tensor


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
) -> TrainingMemory:
    """Per-GPU memory of one layout (DeepSpeed ZeRO sharding; 1F1B pipeline)."""
    t, p, d, z = layout.tensor, layout.pipeline, layout.data, layout.zero_stage
    total, _ = param_counts(m)
    shard = total / (t * p)
    wb, gb, ob = state_bytes_per_param(precision, optimizer, grad_accum_fp32)
    if lora_fraction is None:
        trainable = shard
        weights = wb * shard
    else:
        trainable = shard * lora_fraction
        weights = wb * (shard + trainable)
    grads = gb * trainable
    opt = ob * trainable
    if d > 1:
        if z >= 1:
            opt /= d
        if z >= 2:
            grads /= d
        if z >= 3:
            sharded = weights / d
            # live gathered parameters: 4 x largest layer (DeepSpeed estimator), never more
            # than the unsharded weights it replaces
            largest = max(layer_params(m), embedding_params(m)) / t
            weights = sharded + min(4.0 * largest, weights - sharded)
    layers_per_stage = math.ceil(m.layers / p)
    per_layer = activation_bytes_per_layer(m, seq_len, micro_batch, t, recompute)
    in_flight = min(p, max(micro_batches, 1))
    first_stage = per_layer * layers_per_stage * in_flight
    if recompute == "full":  # one layer is rematerialised at a time during backward
        first_stage += activation_bytes_per_layer(
            m, seq_len, micro_batch, t, "selective"
        )
    # last stage: one micro-batch in flight plus fp32 logits, vocab-parallel over t
    logits = 4.0 * micro_batch * seq_len * m.vocab_size / t
    last_stage = per_layer * layers_per_stage + logits
    activations = max(first_stage, last_stage)
    live = weights + grads + opt + activations
    overhead = RUNTIME_CONTEXT_BYTES + FRAGMENTATION_SHARE * live
    return TrainingMemory(weights, grads, opt, activations, overhead)


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
