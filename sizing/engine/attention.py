"""Attention of served tokens: KV-cache bytes and attention-core FLOPs.

GQA caches K and V per KV head: 2 x kv_heads x head_dim values per layer and token
(sizing-formulas 5). MLA (DeepSeek-V2/V3, Kimi K2) caches one latent of kv_lora_rank
plus the decoupled RoPE key of qk_rope_head_dim per layer and token, shared by every head
(DeepSeek-V2 report, section 2.1): 61 x (512 + 64) x 2 B = 70,272 B for DeepSeek-V3.
Local-attention layers keep at most their window: gpt-oss alternates full layers with
128-token sliding-window layers; Llama 4 attends within 8,192-token chunks on three of
every four layers (config.json ``sliding_window``, ``attention_chunk_size``): a chunked
layer attends only to the tokens of the current chunk, (t mod c) of them. Linear-
attention and state-space layers (Qwen3-Next's Gated DeltaNet on 3 of every 4 layers,
config.json ``full_attention_interval`` 4; MiniMax-M1's lightning attention on 7 of
every 8, ``attn_type_list``) keep one fixed state per sequence whatever its length
(``linear_state_bytes`` per layer), which decode reads and writes once per token.

The attention core (scores and weighted values) costs 2 x heads x (d_qk + d_v) FLOPs per
cached token and layer. MLA decodes with the up-projections absorbed into the query and
output (DeepSeek-V2 section 2.1.3; FlashMLA), so each head works in the latent:
d_qk = kv_lora + rope, d_v = kv_lora; prefill uses the expanded heads (nope + rope, v).
"""

from __future__ import annotations

from .catalog import ModelArch
from .model import BYTES_PER_VALUE


def kv_bytes_per_token_layer(m: ModelArch, kv_precision: str) -> float:
    value_bytes = BYTES_PER_VALUE[kv_precision]
    if m.is_mla:
        return ((m.kv_lora_rank or 0) + (m.qk_rope_head_dim or 0)) * value_bytes
    return 2.0 * m.kv_heads * m.head_dim * value_bytes


def _local_layers(m: ModelArch) -> int:
    return min(m.sliding_window_layers, m.layers) if m.sliding_window_tokens else 0


def _full_layers(m: ModelArch) -> int:
    return max(0, m.layers - _local_layers(m) - m.linear_attention_layers)


def cached_token_layers(m: ModelArch, tokens: float) -> float:
    """Layer-tokens held for a sequence of ``tokens``: full layers keep every token,
    local layers at most their window (the engine allocates the whole window or chunk),
    linear layers none (their state is ``linear_state_total_bytes``)."""
    local = _local_layers(m)
    window = m.sliding_window_tokens or 0
    return _full_layers(m) * tokens + local * min(tokens, window)


def linear_state_total_bytes(m: ModelArch) -> float:
    """Fixed state of one sequence over all linear-attention / state-space layers."""
    return float(m.linear_attention_layers * m.linear_state_bytes)


def kv_cache_bytes(m: ModelArch, tokens: float, kv_precision: str) -> float:
    """KV cache of one sequence of ``tokens`` tokens, all layers: the growing cache of
    full and local layers plus the fixed state of linear layers."""
    growing = kv_bytes_per_token_layer(m, kv_precision) * cached_token_layers(m, tokens)
    return growing + linear_state_total_bytes(m)


def _attended_token_layers(m: ModelArch, tokens: float) -> float:
    """Layer-tokens a new token attends to at position ``tokens``: every token on full
    layers, the window on sliding layers, the current chunk's tokens on chunked ones."""
    local = _local_layers(m)
    window = m.sliding_window_tokens or 0
    if local and m.local_attention == "chunked" and window:
        attended = tokens % window if tokens > window else tokens
    else:
        attended = min(tokens, window)
    return _full_layers(m) * tokens + local * attended


def _core_widths(m: ModelArch, decode: bool) -> int:
    """d_qk + d_v of one head for the attention core."""
    if not m.is_mla:
        return 2 * m.head_dim
    rope = m.qk_rope_head_dim or 0
    latent = m.kv_lora_rank or 0
    if decode:
        return (latent + rope) + latent
    return (m.qk_nope_head_dim or m.head_dim) + rope + (m.v_head_dim or m.head_dim)


def decode_attention_flops(m: ModelArch, context_tokens: float) -> float:
    """Attention-core FLOPs of one new token attending to ``context_tokens``."""
    widths = _core_widths(m, decode=True)
    return 2.0 * m.attention_heads * widths * _attended_token_layers(m, context_tokens)


def _windowed_pairs(tokens: float, window: float) -> float:
    """Causal query-key pairs within a sliding window, x2 (so full = tokens^2)."""
    if tokens <= window:
        return tokens * tokens
    return 2.0 * window * tokens - window * window


def _chunked_pairs(tokens: float, chunk: float) -> float:
    """Causal pairs inside whole chunks and the last partial one, x2: n c^2 + r^2."""
    whole = tokens // chunk
    rest = tokens - whole * chunk
    return whole * chunk * chunk + rest * rest


def prefill_attention_flops(m: ModelArch, context_tokens: float) -> float:
    """Attention-core FLOPs of a causal prefill: heads x (d_qk + d_v) x ctx^2 per full
    layer (= 2 L ctx^2 H Q for GQA, sizing-formulas 9), window-capped on local layers."""
    local = _local_layers(m)
    window = m.sliding_window_tokens or 0
    pairs = _full_layers(m) * context_tokens * context_tokens
    if local and m.local_attention == "chunked":
        pairs += local * _chunked_pairs(context_tokens, window)
    elif local:
        pairs += local * _windowed_pairs(context_tokens, window)
    return float(m.attention_heads * _core_widths(m, decode=False) * pairs)
