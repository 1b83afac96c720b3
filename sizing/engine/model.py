"""Parameter counts, FLOPs per token and KV-cache bytes of a transformer.

Counting follows the architecture, not the model's name: grouped KV heads (K/V are
h x kv x d), gated FFNs (three matrices), untied output heads, MoE experts (all stored,
top-k active). Checks in tests: GPT-3 174.6 B (Brown et al. 2020, Table D.1),
Llama 3 8B 8.03 B, Llama 2 70B 68.98 B, Mixtral 46.7 B / 12.9 B.
"""

from __future__ import annotations

from functools import lru_cache

from .catalog import ModelArch

BYTES_PER_VALUE = {
    "fp32": 4.0,
    "bf16": 2.0,
    "fp16": 2.0,
    "fp8": 1.0,
    "int8": 1.0,
    # int4 plus one fp16 scale per 128 weights: 0.5 + 2/128 (formulas 2)
    "int4": 0.5 + 2.0 / 128.0,
}


def _layer_params(m: ModelArch, experts: int) -> int:
    h, d = m.hidden_size, m.head_dim
    q_width, kv_width = m.attention_heads * d, m.kv_heads * d
    attention = h * q_width + 2 * h * kv_width + q_width * h
    gpt = m.arch_style == "gpt"
    if gpt:
        attention += q_width + 2 * kv_width + h  # q, k, v and output biases
    elif m.qkv_bias:
        attention += q_width + 2 * kv_width
    matrices = 3 if m.gated_ffn else 2
    ffn = matrices * h * m.ffn_hidden_size
    if gpt:
        ffn += m.ffn_hidden_size * (matrices - 1) + h
    router = h * m.moe_experts if m.is_moe else 0
    norms = 4 * h if gpt else 2 * h
    return attention + experts * ffn + router + norms


@lru_cache(maxsize=512)
def derived_param_counts(m: ModelArch) -> tuple[int, int]:
    """(total, active) parameters from the architecture alone."""
    h = m.hidden_size
    embeddings = m.vocab_size * h * (1 if m.tied_embeddings else 2)
    final_norm = 2 * h if m.arch_style == "gpt" else h
    positions = (m.max_context_tokens or 0) * h if m.arch_style == "gpt" else 0
    rest = embeddings + final_norm + positions
    experts = m.moe_experts if m.is_moe else 1
    active_experts = m.moe_active_experts if m.is_moe else 1
    total = m.layers * _layer_params(m, experts) + rest
    active = m.layers * _layer_params(m, active_experts) + rest
    return total, active


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


def layer_params(m: ModelArch) -> float:
    """Parameters of one transformer block (all experts), scaled to any override."""
    total, _ = param_counts(m)
    derived_total, _ = derived_param_counts(m)
    return _layer_params(m, m.moe_experts if m.is_moe else 1) * total / derived_total


def embedding_params(m: ModelArch) -> int:
    return m.vocab_size * m.hidden_size


def kv_cache_bytes_per_token(m: ModelArch, kv_precision: str = "bf16") -> float:
    """2 x layers x kv_heads x head_dim x bytes; MLA caches layers x (d_c + d_rope) x bytes.

    Sources: sizing-formulas.md section 5; DeepSeek-V2/V3 reports for MLA.
    """
    value_bytes = BYTES_PER_VALUE[kv_precision]
    if m.kv_lora_rank:
        return m.layers * (m.kv_lora_rank + (m.qk_rope_head_dim or 0)) * value_bytes
    return 2 * m.layers * m.kv_heads * m.head_dim * value_bytes


def attention_flops_per_token(m: ModelArch, seq_len: int) -> float:
    """12 x L x s x (heads x head_dim) per trained token: PaLM (Chowdhery et al. 2022), App. B."""
    return 12.0 * m.layers * seq_len * m.attention_heads * m.head_dim


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
