"""Parameter counts, FLOPs per token and KV-cache bytes of a transformer.

Counting follows the architecture, not the model's name: grouped KV heads (K/V are
h x kv x d), gated FFNs (three matrices), untied output heads, MoE experts (all stored,
top-k active) with shared experts and leading dense layers (DeepSeek ``n_shared_experts``,
``first_k_dense_replace``; Llama 4 Maverick's interleaved dense layers), and multi-head
latent attention (DeepSeek-V2 report, section 2.1: query and KV down/up projections).
Checks in tests: GPT-3 174.6 B (Brown et al. 2020, Table D.1), Llama 3 8B 8.03 B,
Llama 2 70B 68.98 B, Mixtral 46.7 B / 12.9 B, DeepSeek-V3 671 B / 37 B, Kimi K2 1.04 T,
gpt-oss-120b 116.8 B and the other 2025 presets against their published totals.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from .catalog import FP4_PRECISIONS, ModelArch

BYTES_PER_VALUE = {
    "fp32": 4.0,
    "bf16": 2.0,
    "fp16": 2.0,
    "fp8": 1.0,
    "int8": 1.0,
    # int4 plus one fp16 scale per 128 weights: 0.5 + 2/128 (formulas 2)
    "int4": 0.5 + 2.0 / 128.0,
    # OCP MX spec v1.0: 4-bit E2M1 elements + one 8-bit E8M0 scale per 32 = 4.25 bits
    "mxfp4": (4.0 + 8.0 / 32.0) / 8.0,
    # NVFP4: 4-bit E2M1 + one 8-bit E4M3 scale per 16 = 4.5 bits (NVIDIA Blackwell docs)
    "nvfp4": (4.0 + 8.0 / 16.0) / 8.0,
}
# FP4 checkpoints keep attention, router, embeddings and head in 16-bit: gpt-oss
# config.json quantization_config "modules_to_not_convert" lists self_attn, router,
# embed_tokens and lm_head (openai/gpt-oss-120b; checkpoint 60.8 GiB for 116.8 B).
FP4_UNQUANTISED_BYTES = 2.0


@dataclass(frozen=True)
class ParamBreakdown:
    """Parameters by role; the serving planner shards and reads each role differently."""

    attention: int  # all layers' attention projections (GQA or MLA), with biases
    dense_ffn: int  # FFNs of the dense layers (every layer of a dense model)
    shared_experts: int  # always-active experts of all MoE layers
    routed_expert: int  # one routed expert of one layer
    moe_layers: int
    experts: int
    active_experts: int
    embedding: int  # input embedding table (0 when tied: it is the head)
    head: int  # output projection (the tied table when tied)
    other: int  # norms, routers, learned positions

    @property
    def routed(self) -> int:
        return self.routed_expert * self.experts * self.moe_layers

    @property
    def ffn(self) -> int:
        """Every FFN weight: dense layers, shared and routed experts."""
        return self.dense_ffn + self.shared_experts + self.routed

    @property
    def total(self) -> int:
        rest = self.attention + self.embedding + self.head + self.other
        return self.ffn + rest

    @property
    def active(self) -> int:
        routed_active = self.routed_expert * self.active_experts * self.moe_layers
        rest = self.attention + self.embedding + self.head + self.other
        return self.dense_ffn + self.shared_experts + routed_active + rest


def _mla_attention(m: ModelArch) -> int:
    """DeepSeek-V2/V3 MLA: q down (h x q_lora) + norm + q up (q_lora x H(nope+rope)),
    kv down (h x (kv_lora + rope)) + norm, kv up (kv_lora x H(nope + v)), out (H v x h)."""
    h, heads = m.hidden_size, m.attention_heads
    rope = m.qk_rope_head_dim or 0
    nope = m.qk_nope_head_dim or m.head_dim
    value = m.v_head_dim or m.head_dim
    query_width = heads * (nope + rope)
    if m.q_lora_rank:
        query = h * m.q_lora_rank + m.q_lora_rank + m.q_lora_rank * query_width
    else:
        query = h * query_width
    kv_lora = m.kv_lora_rank or 0
    kv_down = h * (kv_lora + rope) + kv_lora
    kv_up = kv_lora * heads * (nope + value)
    return query + kv_down + kv_up + heads * value * h


def _layer_attention(m: ModelArch) -> int:
    if m.is_mla:
        return _mla_attention(m)
    h, d = m.hidden_size, m.head_dim
    q_width, kv_width = m.attention_heads * d, m.kv_heads * d
    attention = h * q_width + 2 * h * kv_width + q_width * h
    if m.arch_style == "gpt":
        attention += q_width + 2 * kv_width + h  # q, k, v and output biases
    elif m.qkv_bias:
        attention += q_width + 2 * kv_width
    return attention


def _ffn(m: ModelArch, width: int) -> int:
    matrices = 3 if m.gated_ffn else 2
    ffn = matrices * m.hidden_size * width
    if m.arch_style == "gpt":
        ffn += width * (matrices - 1) + m.hidden_size
    return ffn


@lru_cache(maxsize=512)
def param_breakdown(m: ModelArch) -> ParamBreakdown:
    """Parameters by role, from the architecture alone."""
    h, layers = m.hidden_size, m.layers
    moe_layers = m.moe_layers
    dense_layers = layers - moe_layers
    norms = (4 * h if m.arch_style == "gpt" else 2 * h) * layers
    final_norm = 2 * h if m.arch_style == "gpt" else h
    positions = (m.max_context_tokens or 0) * h if m.arch_style == "gpt" else 0
    routers = h * (m.moe_experts or 0) * moe_layers
    table = m.vocab_size * h
    return ParamBreakdown(
        attention=layers * _layer_attention(m),
        dense_ffn=dense_layers * _ffn(m, m.ffn_hidden_size),
        shared_experts=moe_layers * m.moe_shared_experts * _ffn(m, m.expert_ffn_size),
        routed_expert=_ffn(m, m.expert_ffn_size) if moe_layers else 0,
        moe_layers=moe_layers,
        experts=m.moe_experts if moe_layers else 0,
        active_experts=(m.moe_active_experts or 0) if moe_layers else 0,
        embedding=0 if m.tied_embeddings else table,
        head=table,
        other=norms + final_norm + positions + routers,
    )


def derived_param_counts(m: ModelArch) -> tuple[int, int]:
    """(total, active) parameters from the architecture alone."""
    breakdown = param_breakdown(m)
    return breakdown.total, breakdown.active


@lru_cache(maxsize=512)
def param_counts(m: ModelArch) -> tuple[float, float]:
    """(total, active) parameters; a published/user override wins over the derivation."""
    total, active = derived_param_counts(m)
    if m.params_override_b:
        total = m.params_override_b * 1e9
        if not m.is_moe and not m.active_params_override_b:
            active = total
    if m.active_params_override_b:
        active = m.active_params_override_b * 1e9
    return float(total), float(min(active, total))


def override_scale(m: ModelArch) -> tuple[float, float]:
    """(total, active) published-or-user count over the derived count; 1 when none.

    Role breakdowns are scaled by it so every figure agrees with ``param_counts``.
    """
    total, active = param_counts(m)
    derived_total, derived_active = derived_param_counts(m)
    return total / derived_total, active / max(derived_active, 1)


def layer_params(m: ModelArch) -> float:
    """Parameters of the largest transformer block (all experts), scaled to any
    override."""
    breakdown = param_breakdown(m)
    per_layer = (breakdown.attention + breakdown.other) / m.layers
    if breakdown.moe_layers:
        experts = breakdown.routed_expert * breakdown.experts
        ffn = experts + breakdown.shared_experts / breakdown.moe_layers
    else:
        ffn = breakdown.dense_ffn / m.layers
    return (per_layer + ffn) * override_scale(m)[0]


def norm_params(m: ModelArch) -> float:
    """Per block, the share of norms (LayerNorm/RMSNorm, the final norm) and learned
    positions that ``layer_params`` spreads over the blocks: the parameters a LoRA base
    keeps in 16-bit when its linear layers are quantised (bitsandbytes quantises
    ``nn.Linear`` only; QLoRA, Dettmers et al. 2023, section 3). Routers are linear
    layers and stay with the quantised part; MLA's small latent norms stay in the
    attention count."""
    breakdown = param_breakdown(m)
    routers = m.hidden_size * (m.moe_experts or 0) * breakdown.moe_layers
    return (breakdown.other - routers) / m.layers * override_scale(m)[0]


def embedding_params(m: ModelArch) -> int:
    return m.vocab_size * m.hidden_size


# Which tensor groups a quantised checkpoint stores at its precision; the rest is 16-bit.
QUANT_SCOPES = ("all", "ffn", "routed_experts")
QUANTISED_BELOW_8_BIT = ("int4", *FP4_PRECISIONS)


def default_quant_scope(m: ModelArch, precision: str) -> str:
    """What published checkpoints quantise at this precision:
    - FP4 (MXFP4/NVFP4): the FFN and expert weights; attention, router, embeddings and
      head stay 16-bit (openai/gpt-oss-120b config.json ``modules_to_not_convert``);
    - INT4 on an MoE: the routed experts only; attention, shared experts and the dense
      layers stay BF16 (moonshotai/Kimi-K2-Thinking model card: "INT4 weight-only
      quantization to the MoE components"; the routed experts are 98 % of the weights);
    - otherwise every weight (FP8 checkpoints such as DeepSeek-V3's quantise all linear
      layers; 8-bit and dense INT4 as GPTQ/AWQ: all linear layers)."""
    if precision in FP4_PRECISIONS:
        return "ffn"
    if precision == "int4" and m.is_moe:
        return "routed_experts"
    return "all"


@dataclass(frozen=True)
class RoleBytes:
    """Bytes per parameter of each tensor group under a quantisation scope."""

    other: float  # attention, norms, routers, embeddings, head
    dense_ffn: float
    shared_experts: float
    routed: float


def role_bytes(precision: str, scope: str) -> RoleBytes:
    value = BYTES_PER_VALUE[precision]
    if scope == "all" or precision not in (*QUANTISED_BELOW_8_BIT, "fp8", "int8"):
        return RoleBytes(value, value, value, value)
    rest = FP4_UNQUANTISED_BYTES
    if scope == "ffn":
        return RoleBytes(rest, value, value, value)
    return RoleBytes(rest, rest, rest, value)


def quantised_param_share(m: ModelArch, scope: str) -> float:
    """Share of all parameters in the tensor groups the scope quantises."""
    if scope == "all":
        return 1.0
    b = param_breakdown(m)
    quantised = b.routed if scope == "routed_experts" else b.ffn
    return quantised * override_scale(m)[0] / param_counts(m)[0]


def weight_bytes(m: ModelArch, precision: str, scope: str | None = None) -> float:
    """Bytes of all weights: each tensor group at its bytes under the quantisation
    scope (``default_quant_scope`` when none is given)."""
    total, _ = param_counts(m)
    scope = scope or default_quant_scope(m, precision)
    if scope == "all":
        return total * BYTES_PER_VALUE[precision]
    b = param_breakdown(m)
    scale = override_scale(m)[0]
    per = role_bytes(precision, scope)
    quantised = (
        b.dense_ffn * per.dense_ffn
        + b.shared_experts * per.shared_experts
        + b.routed * per.routed
    ) * scale
    ffn = b.ffn * scale
    return quantised + (total - ffn) * per.other


def kv_cache_bytes_per_token(m: ModelArch, kv_precision: str = "bf16") -> float:
    """2 x layers x kv_heads x head_dim x bytes; MLA caches layers x (d_c + d_rope) x bytes.

    Sources: sizing-formulas.md section 5; DeepSeek-V2/V3 reports for MLA. Every layer
    with a KV cache counted (not linear-attention layers, whose fixed state is in
    ``attention.kv_cache_bytes``); local-attention layers stop growing at their window.
    """
    value_bytes = BYTES_PER_VALUE[kv_precision]
    layers = m.layers - m.linear_attention_layers  # linear layers keep a fixed state
    if m.kv_lora_rank:
        return layers * (m.kv_lora_rank + (m.qk_rope_head_dim or 0)) * value_bytes
    return 2 * layers * m.kv_heads * m.head_dim * value_bytes


def attention_flops_per_token(m: ModelArch, seq_len: int) -> float:
    """12 x s x (heads x head_dim) per layer and trained token (PaLM, Chowdhery et al.
    2022, App. B), summed over the layers by the span each attends to.

    The PaLM count takes every token over all s positions (twice the causal average
    s/2). Keeping that convention, a sliding-window layer (gpt-oss, Gemma) attends to
    at most its w latest tokens, on average w when s >> w, so it counts min(s, 2w); a
    chunked layer (Llama 4 ``attention_chunk_size`` c) attends within its chunk, on
    average c/2, so it counts min(s, c); a linear-attention / state-space layer has no
    s-long score matrix (its state update is linear in s and is left out, like norms).
    """
    local = min(m.sliding_window_layers, m.layers) if m.sliding_window_tokens else 0
    full = max(0, m.layers - local - m.linear_attention_layers)
    span = full * float(seq_len)
    if local:
        window = m.sliding_window_tokens or seq_len
        reach = window if m.local_attention == "chunked" else 2 * window
        span += local * float(min(seq_len, reach))
    return 12.0 * span * m.attention_heads * m.head_dim


def training_flops_per_token(
    m: ModelArch, seq_len: int, recompute: str, lora_fraction: float | None = None
) -> tuple[float, float]:
    """(model FLOPs, recompute FLOPs) per trained token.

    Model FLOPs: 6N + 12 L s H Q (Kaplan et al. 2020; PaLM App. B), N = active params.
    LoRA: forward 2N + input-gradient 2N + weight-gradient only for the trainable share
    2fN, i.e. (4 + 2f) N. Recompute adds its extra forward: full = 2N + 4 L s H Q (the
    "8ND" hardware FLOPs), selective = the attention core only, 4 L s H Q
    (Korthikanti et al. 2022, section 5).
    """
    _, active = param_counts(m)
    attention = attention_flops_per_token(m, seq_len)
    if lora_fraction is None:
        dense = 6.0 * active
    else:
        dense = (4.0 + 2.0 * lora_fraction) * active
    model_flops = dense + attention
    if recompute == "full":
        extra = 2.0 * active + attention / 3.0
    elif recompute == "selective":
        extra = attention / 3.0
    else:
        extra = 0.0
    return model_flops, extra
