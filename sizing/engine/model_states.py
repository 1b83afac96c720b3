"""Model states per GPU: the weights, gradients and optimizer states of the parameters one
GPU holds, as the layout shards them.

Bytes per parameter (ZeRO paper, K = 12; DeepSpeed estimator): mixed precision + Adam
2 + 2 + 12 = 16 B, 18 B with fp32 gradient accumulation. Tensor parallelism splits every
matrix over t; a pipeline stage holds its layers (the first stage also the embedding,
the last the output head); expert parallelism splits a MoE layer's experts over e GPUs.
ZeRO shards over the GPUs that hold the same parameters: the d x c data and context
ranks for dense parameters (Megatron shards the distributed optimizer over data x
context), d x c / e for experts. Stage 1 shards optimizer states, 2 also gradients, 3
also weights, plus a live buffer of 4 x the largest layer (DeepSpeed estimator), never
more than the unsharded weights it replaces.

LoRA (Hu et al. 2021) trains r (d_in + d_out) adapter parameters per adapted matrix and
freezes the rest; QLoRA (Dettmers et al. 2023) stores the frozen linear layers in 4 bits
(NF4 with double quantisation, ~4.127 bits per parameter; our int4 is 4 bits + one
16-bit scale per 128 weights = 4.125) and keeps embeddings and the output head in 16-bit
(bitsandbytes quantises only linear layers). Adapters are trained in mixed precision.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .activations import Stage, expert_ffn_width
from .catalog import ModelArch
from .model import (
    BYTES_PER_VALUE,
    embedding_params,
    layer_params,
    norm_params,
    param_counts,
)

ZERO3_LIVE_LAYERS = 4.0  # DeepSpeed estimator: 4 x the largest layer gathered at once


@dataclass(frozen=True)
class Sharding:
    """The layout as the model states see it."""

    tensor: int
    expert: int
    dense_replicas: int  # GPUs holding the same dense parameters: data x context
    zero_stage: int

    @property
    def expert_replicas(self) -> int:
        return max(self.dense_replicas // self.expert, 1)


@dataclass(frozen=True)
class StateRecipe:
    precision: str
    optimizer: str
    grad_accum_fp32: bool
    lora_fraction: float | None  # trainable share of all parameters (None = full)
    base_precision: str | None = None  # frozen LoRA base (int4 = QLoRA); None = 16-bit
    quant_scope: str = "all"  # which tensor groups of the base are quantised


@lru_cache(maxsize=64)
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
        opt = {"adamw": 8.0, "adam": 8.0, "adam_8bit": 2.0, "sgd": 4.0}
        opt["adafactor"] = 0.5
    else:
        weights, grads = 2.0, 4.0 if grad_accum_fp32 else 2.0
        # master copy (4) + states: Adam m,v 8; 8-bit Adam 2; SGD momentum 4;
        # Adafactor factored second moment ~0.5 (approximation)
        opt = {"adamw": 12.0, "adam": 12.0, "adam_8bit": 6.0, "sgd": 8.0}
        opt["adafactor"] = 4.5
    return weights, grads, opt[optimizer]


def expert_share(m: ModelArch) -> float:
    """Share of a layer's parameters in its routed experts (0 for dense models)."""
    if not m.is_moe:
        return 0.0
    h, d = m.hidden_size, m.head_dim
    width, shared = expert_ffn_width(m)
    one_expert = (3 if m.gated_ffn else 2) * h * width
    experts = m.moe_experts * one_expert
    attention = 2 * h * m.attention_heads * d + 2 * h * m.kv_heads * d
    rest = attention + shared * one_expert + h * m.moe_experts + 2 * h
    return experts / (experts + rest)


@dataclass(frozen=True)
class StageParams:
    """Parameters on one GPU of a stage before ZeRO: dense (incl. embeddings), expert,
    the 16-bit-only part (embeddings, head) and the largest single layer."""

    dense: float
    expert: float
    embeddings: float
    largest_layer: float
    norms: float = 0.0  # in ``dense``: norms and positions, 16-bit in a LoRA base

    @property
    def total(self) -> float:
        return self.dense + self.expert


@lru_cache(maxsize=256)
def _layer_split(m: ModelArch) -> tuple[float, float, float, float]:
    """(dense, expert) parameters of one block, the embedding, and the rest (final norm,
    learned positions), which the last stage holds."""
    per_layer = layer_params(m)
    experts = per_layer * expert_share(m)
    embedding = float(embedding_params(m))
    copies = 1 if m.tied_embeddings else 2
    rest = param_counts(m)[0] - m.layers * per_layer - copies * embedding
    return per_layer - experts, experts, embedding, max(rest, 0.0)


@lru_cache(maxsize=4096)
def stage_params(m: ModelArch, stage: Stage, tensor: int, expert: int) -> StageParams:
    dense_block, expert_block, embedding_block, rest = _layer_split(m)
    embedding = embedding_block / tensor
    copies = int(stage.has_embedding) + int(
        stage.has_head and not (m.tied_embeddings and stage.has_embedding)
    )
    embeddings = copies * embedding + (rest / tensor if stage.has_head else 0.0)
    dense_layer = dense_block / tensor
    expert_layer = expert_block / (tensor * expert)
    return StageParams(
        dense=stage.layers * dense_layer + embeddings,
        expert=stage.layers * expert_layer,
        embeddings=embeddings,
        largest_layer=max(dense_layer + expert_layer, embedding),
        norms=stage.layers * norm_params(m) / tensor,
    )


@dataclass(frozen=True)
class StateTerms:
    """One GPU's model-state bytes before and after ZeRO sharding, for any stage."""

    weights: float  # unsharded: frozen base (at its precision) + trainable weights
    grads: float
    optimizer: float
    sharded_share: float  # the GPU's share of its parameters once sharded
    live_weights: float  # ZeRO-3: the largest layers gathered at once

    def at(self, zero_stage: int) -> tuple[float, float, float]:
        """(weights, gradients, optimizer) bytes under a ZeRO stage."""
        share = self.sharded_share
        grads = self.grads * share if zero_stage >= 2 else self.grads
        optimizer = self.optimizer * share if zero_stage >= 1 else self.optimizer
        weights = self.weights
        if zero_stage >= 3:
            sharded = weights * share
            weights = sharded + min(self.live_weights, weights - sharded)
        return weights, grads, optimizer


@lru_cache(maxsize=8192)
def state_terms(
    params: StageParams, dense_replicas: int, expert_replicas: int, recipe: StateRecipe
) -> StateTerms:
    wb, gb, ob = state_bytes_per_param(
        recipe.precision, recipe.optimizer, recipe.grad_accum_fp32
    )
    total = params.dense + params.expert
    sharded = params.dense / dense_replicas + params.expert / expert_replicas
    trainable = total if recipe.lora_fraction is None else total * recipe.lora_fraction
    weights = _frozen_weight_bytes(params, recipe, wb)
    if recipe.lora_fraction is not None:
        weights += wb * trainable  # the adapters themselves
    return StateTerms(
        weights,
        gb * trainable,
        ob * trainable,
        sharded / total if total else 1.0,
        ZERO3_LIVE_LAYERS * params.largest_layer * wb,
    )


def model_state_bytes(
    params: StageParams, sharding: Sharding, recipe: StateRecipe
) -> tuple[float, float, float]:
    """(weights, gradients, optimizer) bytes on one GPU."""
    terms = state_terms(
        params, sharding.dense_replicas, sharding.expert_replicas, recipe
    )
    return terms.at(sharding.zero_stage)


def _frozen_weight_bytes(
    params: StageParams, recipe: StateRecipe, bytes_16: float
) -> float:
    """All parameters at the training precision, or a LoRA base at its own: 4/8-bit
    linear layers with 16-bit embeddings, head and norms (bitsandbytes quantises
    ``nn.Linear`` only)."""
    base = recipe.base_precision
    if recipe.lora_fraction is None or base is None or base in ("bf16", "fp16"):
        return bytes_16 * params.total
    if recipe.quant_scope == "routed_experts":  # INT4 MoE checkpoints (Kimi K2)
        return BYTES_PER_VALUE[base] * params.expert + 2.0 * params.dense
    sixteen_bit = params.embeddings + params.norms
    linear = params.total - sixteen_bit
    return BYTES_PER_VALUE[base] * linear + 2.0 * sixteen_bit


# Which linear layers get LoRA adapters. "all_linear": every projection of every block
# (PEFT target_modules="all-linear"; Unsloth's q/k/v/o/gate/up/down, which on an MoE
# match every expert's projections; the router is not adapted, "Router-layer
# fine-tuning is disabled by default", Unsloth Qwen3 MoE guide); "no_routed_experts":
# attention, shared experts and dense FFNs, the routed experts frozen; "attention":
# q, k, v, o only (Hu et al. 2021, LoRA, section 7.1 adapts W_q and W_v).
LORA_TARGETS = ("all_linear", "no_routed_experts", "attention")


def _attention_adapter_widths(m: ModelArch) -> int:
    """Sum of d_in + d_out over a block's attention projections (GQA or MLA)."""
    h = m.hidden_size
    if m.is_mla:
        heads, rope = m.attention_heads, m.qk_rope_head_dim or 0
        nope = m.qk_nope_head_dim or m.head_dim
        value = m.v_head_dim or m.head_dim
        q_lora, kv_lora = m.q_lora_rank or 0, m.kv_lora_rank or 0
        query = (h + q_lora) + (q_lora + heads * (nope + rope)) if q_lora else 0
        query = query or h + heads * (nope + rope)
        kv = (h + kv_lora + rope) + (kv_lora + heads * (nope + value))
        return query + kv + (heads * value + h)
    q_width, kv_width = m.attention_heads * m.head_dim, m.kv_heads * m.head_dim
    return 2 * (h + q_width) + 2 * (h + kv_width)


def lora_adapter_params(m: ModelArch, rank: int, targets: str = "all_linear") -> float:
    """r (d_in + d_out) per adapted matrix (Hu et al. 2021): attention projections,
    the dense layers' FFN, and per MoE layer the shared and (``all_linear``) every
    routed expert's two or three matrices."""
    h = m.hidden_size
    matrices = 3 if m.gated_ffn else 2
    per_block = _attention_adapter_widths(m)
    total = per_block * m.layers
    if targets == "attention":
        return float(rank * total)
    moe_layers = m.moe_layers
    width, shared = expert_ffn_width(m) if m.is_moe else (m.ffn_hidden_size, 0)
    expert = matrices * (h + width)
    total += (m.layers - moe_layers) * matrices * (h + m.ffn_hidden_size)
    routed = (m.moe_experts or 0) if targets == "all_linear" else 0
    copies = shared + routed
    total += moe_layers * copies * expert
    return float(rank * total)
