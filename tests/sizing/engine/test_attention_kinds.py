"""Per-layer attention kinds (issue 21, item 3): full, sliding window, chunked and
linear / state-space layers with a fixed per-sequence state.

Presets from their published config.json (sources in sizing/data/model_presets.json):
- Qwen3-Next-80B-A3B: 48 layers, full_attention_interval 4 -> 12 full-attention layers
  (2 KV heads x 256), 36 Gated DeltaNet layers with a fixed state of 32 x 128 x 128 x 4 B
  recurrent + 3 x 8,192 x 2 B convolution = 2,146,304 B per layer and sequence.
- MiniMax-M1: 80 layers, attn_type_list 7 lightning : 1 softmax -> 10 full-attention
  layers (8 KV heads x 128), 70 lightning layers of 64 x 128 x 128 x 4 B = 4,194,304 B.
"""

from dataclasses import replace

import pytest

from sizing.engine import SizingInputError, estimate
from sizing.engine.attention import (
    decode_attention_flops,
    kv_cache_bytes,
    prefill_attention_flops,
)
from sizing.engine.model import kv_cache_bytes_per_token

TOKENS = 32_768


def test_qwen3_next_keeps_a_growing_cache_on_its_12_full_layers_only(catalog):
    m = catalog.presets["qwen3-next-80b-a3b"]
    assert (m.full_attention_layers, m.linear_attention_layers) == (12, 36)
    # 12 x 2 x 2 x 256 x 2 B = 24,576 B per token (not 48 layers' 98,304)
    assert kv_cache_bytes_per_token(m, "bf16") == 24_576
    # 32k tokens: 24,576 x 32,768 = 805,306,368 + 36 x 2,146,304 = 77,266,944
    assert kv_cache_bytes(m, TOKENS, "bf16") == 805_306_368 + 77_266_944
    # the state does not grow: 64k tokens add only the full layers' cache
    grown = kv_cache_bytes(m, 2 * TOKENS, "bf16") - kv_cache_bytes(m, TOKENS, "bf16")
    assert grown == 805_306_368


def test_minimax_m1_counts_10_full_layers_and_70_lightning_states(catalog):
    m = catalog.presets["minimax-m1"]
    assert (m.full_attention_layers, m.linear_attention_layers) == (10, 70)
    # 10 x 2 x 8 x 128 x 2 B = 40,960 B per token; 70 x 4,194,304 B of state
    assert kv_cache_bytes_per_token(m, "bf16") == 40_960
    assert kv_cache_bytes(m, TOKENS, "bf16") == 40_960 * TOKENS + 70 * 4_194_304


def test_hybrid_attention_halves_the_gpus_of_all_full_attention(catalog, make):
    # 256 concurrent Qwen3-Next requests of 32k in BF16 on H200: 256 x 0.8826 GB = 226
    # GB of cache + 160 GB of weights fit on 4 GPUs; counted as 48 full layers the
    # cache alone would be 256 x 3.22 GB = 825 GB and need 8
    w = make(
        kind="inference",
        model={"preset": "qwen3-next-80b-a3b"},
        context_tokens=TOKENS - 1024,
        output_tokens=1024,
        concurrent_requests=256,
    )
    r = estimate(w, catalog, "h200-sxm-141gb")
    assert r.inference["kv_cache_gb_per_request"] == pytest.approx(0.8826, abs=1e-4)
    assert r.inference["linear_state_gb_per_request"] == pytest.approx(
        0.07727, abs=1e-5
    )
    assert r.gpu_count == 4
    as_full = replace(
        w, model=replace(w.model, linear_attention_layers=0, linear_state_bytes=0)
    )
    assert estimate(as_full, catalog, "h200-sxm-141gb").gpu_count == 8


def test_chunked_layers_attend_to_the_current_chunk_only(catalog):
    # Llama 4 Scout: 36 chunked layers (8,192-token chunks), 12 full (NoPE) layers. A
    # token at position 10,000 attends to 10,000 tokens on full layers and 10,000 - 8,192
    # = 1,808 on chunked ones: (12 x 10,000 + 36 x 1,808) x 2 x 40 heads x 256
    m = catalog.presets["llama-4-scout"]
    assert m.local_attention == "chunked"
    expected = (12 * 10_000 + 36 * 1_808) * 2 * 40 * 256
    assert decode_attention_flops(m, 10_000) == pytest.approx(expected)
    # prefill of 10,000: full layers 10,000^2; chunked one whole chunk 8,192^2 + the
    # partial 1,808^2 (pairs x 2), x heads x (d_qk + d_v)
    pairs = 12 * 10_000**2 + 36 * (8_192**2 + 1_808**2)
    assert prefill_attention_flops(m, 10_000) == pytest.approx(40 * 256 * pairs)


def test_sliding_window_layers_keep_their_window(catalog):
    # gpt-oss-120b: 18 full layers, 18 with a 128-token window; at position 10,000 the
    # windowed layers attend to 128
    m = catalog.presets["gpt-oss-120b"]
    assert m.local_attention == "sliding"
    expected = (18 * 10_000 + 18 * 128) * 2 * 64 * 128
    assert decode_attention_flops(m, 10_000) == pytest.approx(expected)


def test_custom_model_with_linear_layers_needs_their_state(catalog, make):
    base = {
        "layers": 48,
        "hidden_size": 2048,
        "attention_heads": 16,
        "kv_heads": 2,
        "head_dim": 256,
        "vocab_size": 151_936,
        "linear_attention_layers": 36,
    }
    with pytest.raises(SizingInputError) as error:
        make(kind="inference", model=base)
    assert error.value.field == "workload.model.linear_state_bytes"
    w = make(kind="inference", model={**base, "linear_state_bytes": 2_146_304})
    assert w.model.full_attention_layers == 12
    with pytest.raises(SizingInputError):
        make(
            kind="inference",
            model={
                **base,
                "linear_state_bytes": 1,
                "sliding_window_layers": 20,
                "sliding_window_tokens": 128,
            },
        )
