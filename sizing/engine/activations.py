"""Activation memory of training: bytes per transformer layer, and how many layers' and
micro-batches' worth the busiest pipeline stage holds under the schedule.

Per layer (16-bit values, sequence parallelism on, so everything divides by the tensor
degree t; context parallelism splits the sequence, so it divides by c too), counted
tensor by tensor as Korthikanti et al. 2022 (section 4.1, Table 2) do for GPT-3:
- two norm inputs, 2 x 2 s b h;
- attention: QKV input 2 sbh, Q 2 s b (a d), K and V 2 x 2 s b (kv d), attention output
  (the out-projection input) 2 s b (a d), dropout mask s b h (GPT only); without any
  recompute the score terms 5 a s^2 b (softmax, its dropout mask and output);
- MLP: input 2 sbh; plain GeLU: activation input and output 2 x 2 s b f; gated (SwiGLU):
  gate and up outputs 2 x 2 s b f plus their product 2 s b f; dropout mask s b h (GPT
  only); MoE: the MLP part for each of the k experts a token is routed to.
- MLA (DeepSeek-V2/V3): the layer keeps its latents, not 128 heads' Q, K and V: the
  down-projection input h, the query latent q_lora, the KV latent kv_lora + d_rope and
  the attention output H d_v. The up-projected Q, K, V are recomputed in the backward
  pass ("Recomputation of RMSNorm and MLA Up-Projection", DeepSeek-V3 report section
  3.2.3); only without any recompute are they kept, 2 H (d_nope + d_rope) + H d_v.
- FP8 training keeps the routed and shared experts' inputs in FP8 (1 byte) and the
  SwiGLU inputs only, recomputing its output (DeepSeek-V3 report section 3.3.2,
  "Low-Precision Storage"; Transformer Engine saves the FP8 copy of a linear input).
For GPT-3 (f = 4h, a d = h, kv = a) this is 34 s b h + 5 a s^2 b, Korthikanti eq. 2;
Megatron-LM's estimator uses 18 + 4 f/h (megatron/training/theoretical_memory_usage.py).

Schedules (the busiest stage): 1F1B keeps stage i's activations for min(p - i, m)
micro-batches in flight; the first and last stages take the fewer layers when L does
not divide by p (Llama 3 paper section 3.3.2 balances exactly so), so the busiest is
stage 0 (floor(L/p) layers x p) or stage 1 (ceil(L/p) layers x (p - 1)). Interleaved
1F1B (Narayanan et al. 2021 section 2.2) with v chunks of L/(p v) layers per GPU needs
m >= p and warms up (p - 1 - i) x 2 + (v - 1) p chunk micro-batches on GPU i (Megatron-LM
schedules), so GPU 0 holds (L/p) x p x (1 + (p - 1)/(p v)) layers' worth (the factor of
Megatron-LM's estimator) and the last GPU (L/p) x (p (v - 1) + 1)/v. The last stage also
holds the fp32 logits, 4 b s V / (t c) (vocabulary-parallel).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from .catalog import ModelArch

BYTES_16 = 2.0
LOGIT_BYTES = 4.0  # fp32 logits for the loss


def activation_bytes_per_layer(
    m: ModelArch,
    seq_len: int,
    micro_batch: int,
    tensor: int,
    recompute: str,
    context: int = 1,
    precision: str = "bf16",
) -> float:
    """Bytes one GPU keeps for one layer and one micro-batch (see the module doc)."""
    s, b, h = seq_len, micro_batch, m.hidden_size
    shard = tensor * context
    if recompute == "full":  # only the layer input is kept
        return BYTES_16 * s * b * h / shard
    values = _stored_values_per_token(m, recompute, precision)
    return values * s * b * BYTES_16 / shard + (
        _score_bytes(m, s, b) / shard if recompute == "none" else 0.0
    )


def _stored_values_per_token(
    m: ModelArch, recompute: str = "selective", precision: str = "bf16"
) -> float:
    """16-bit values per token kept by one layer (the sum in the module doc)."""
    h, f = m.hidden_size, m.ffn_hidden_size
    dropout = 0.5 * h if m.arch_style == "gpt" else 0.0  # 1-byte mask
    norms = 2.0 * h
    attention = attention_values_per_token(m, recompute) + dropout
    if not m.is_moe:
        return norms + attention + h + (3.0 if m.gated_ffn else 2.0) * f + dropout
    width, shared = expert_ffn_width(m)
    if precision == "fp8":  # FP8 input copy, SwiGLU output recomputed
        expert = 0.5 * h + 2.0 * width + dropout
    else:
        expert = h + (3.0 if m.gated_ffn else 2.0) * width + dropout
    return norms + attention + ((m.moe_active_experts or 1) + shared) * expert


def attention_values_per_token(m: ModelArch, recompute: str = "selective") -> float:
    """16-bit values per token the attention block keeps (module doc): GQA its input,
    Q, K, V and output; MLA its latents and output (up-projections recomputed)."""
    h = m.hidden_size
    if m.is_mla:
        rope = m.qk_rope_head_dim or 0
        nope = m.qk_nope_head_dim or m.head_dim
        value_width = m.attention_heads * (m.v_head_dim or m.head_dim)
        latents = (m.q_lora_rank or 0) + (m.kv_lora_rank or 0) + rope
        kept = h + latents + value_width
        if recompute == "none":
            kept += 2.0 * m.attention_heads * (nope + rope) + value_width
        return kept
    q_width, kv_width = m.attention_heads * m.head_dim, m.kv_heads * m.head_dim
    return h + q_width + 2.0 * kv_width + q_width


def expert_ffn_width(m: ModelArch) -> tuple[int, int]:
    """(one expert's FFN width, shared experts per MoE layer). Catalogues that give
    ``moe_ffn_hidden_size`` and ``moe_shared_experts`` (DeepSeek, Qwen3 MoE) are read
    through ``ModelArch.expert_ffn_size``; otherwise the FFN width is the expert's."""
    width = getattr(m, "expert_ffn_size", m.ffn_hidden_size)
    return width, getattr(m, "moe_shared_experts", 0)


def _score_bytes(m: ModelArch, seq_len: int, micro_batch: int) -> float:
    """Softmax input/output and dropout mask of the attention scores: 5 a s^2 b."""
    return 5.0 * m.attention_heads * seq_len * seq_len * micro_batch


def logits_bytes(m: ModelArch, seq_len: int, micro_batch: int, shard: int) -> float:
    return LOGIT_BYTES * micro_batch * seq_len * m.vocab_size / shard


@dataclass(frozen=True)
class Stage:
    """A pipeline stage that could hold the most memory."""

    index: int
    layers: int
    in_flight: float  # micro-batches' activations held at the peak
    has_embedding: bool
    has_head: bool


@lru_cache(maxsize=4096)
def busiest_stages(
    layers: int, pipeline: int, micro_batches: int, virtual_stages: int = 1
) -> tuple[Stage, ...]:
    """The stages whose memory can be the largest: the first (embedding), the second
    (most layers x in-flight), the last (output head and logits)."""
    m = max(micro_batches, 1)
    p = pipeline
    if p == 1:
        return (Stage(0, layers, 1.0, True, True),)
    if virtual_stages > 1:
        per_stage = math.ceil(layers / (p * virtual_stages)) * virtual_stages
        v = virtual_stages
        return (
            Stage(0, per_stage, p + (p - 1) / v, True, False),
            Stage(p - 1, per_stage, (p * (v - 1) + 1) / v, False, True),
        )
    base, extra = divmod(layers, p)
    # extra layers go to the middle stages first, the last stage only when p - 1 remain
    last = base + (1 if extra == p - 1 else 0)
    stages = [Stage(0, base, float(min(p, m)), True, False)]
    if p > 2:
        stages.append(
            Stage(1, base + (1 if extra else 0), float(min(p - 1, m)), False, False)
        )
    stages.append(Stage(p - 1, last, 1.0, False, True))
    return tuple(stages)
