"""The physical ceiling of every number the sizing API reads, by field name.

Each ceiling is far above anything built or announced (the largest models have a few
hundred layers, hidden sizes near 30k, ~2T parameters, 10M-token contexts, 36T training
tokens), and low enough that the engine's arithmetic stays finite: without them a
`hidden_size` of 1e308 overflows a float (a 500, not a 400 naming the field). A call
that gives its own ``maximum`` (a share at most 1, `MAX_GPU_COUNT`) keeps it; a number
listed nowhere gets `DEFAULT_MAXIMUM`.
"""

from __future__ import annotations

DEFAULT_MAXIMUM = 1e12

MAXIMA: dict[str, float] = {
    # a custom model's shape
    "layers": 10_000,
    "hidden_size": 1_000_000,
    "attention_heads": 100_000,
    "kv_heads": 100_000,
    "head_dim": 100_000,
    "ffn_hidden_size": 10_000_000,
    "moe_ffn_hidden_size": 10_000_000,
    "vocab_size": 100_000_000,
    "moe_experts": 1_000_000,
    "moe_active_experts": 1_000_000,
    "moe_shared_experts": 1_000_000,
    "moe_dense_layers": 10_000,
    "sliding_window_layers": 10_000,
    "params_b": 1_000_000,  # a quadrillion parameters
    "active_params_b": 1_000_000,
    "kv_lora_rank": 1_000_000,
    "q_lora_rank": 1_000_000,
    "qk_rope_head_dim": 100_000,
    "qk_nope_head_dim": 100_000,
    "v_head_dim": 100_000,
    # sequence lengths (tokens)
    "max_context_tokens": 100_000_000,
    "sliding_window_tokens": 100_000_000,
    "seq_len": 100_000_000,
    "context_tokens": 100_000_000,
    "output_tokens": 100_000_000,
    # training
    "tokens_b": 10_000_000,  # 10 quadrillion tokens
    "target_days": 3_650,  # ten years
    "micro_batch": 1_000_000,
    "global_batch_tokens": 10_000_000_000,
    # serving
    "concurrent_requests": 100_000_000,
    "tokens_per_second": 10_000_000_000,
    "requests_per_second": 100_000_000,
    "ttft_ms": 3_600_000,  # an hour
    "tpot_ms": 3_600_000,
    # storage
    "dataset_tb": 10_000_000,  # 10 EB, as a bid's storage
    "checkpoint_interval_min": 525_600,  # a year
    "checkpoints_kept": 10_000,
    # constraints
    "rack_power_limit_kw": 10_000,
    "budget_usd": 100_000_000_000_000,  # 1e14, the budget column's digits
    "fx_cny_per_usd": 1_000,
    "electricity_usd_per_kwh": 100,
}


#: The smallest positive value a field accepts where zero-ish values are meaningless:
#: a training target under about two hours cannot be planned (nor met: restarts,
#: checkpoint loads and warm-up alone take longer), and 0.001 days would otherwise
#: send the search to a million GPUs and answer "no accelerator" instead of naming it.
MINIMA: dict[str, float] = {
    "target_days": 0.1,
    "pue": 1.0,  # facility power over IT power is at least 1 by definition
    # a serving engine below half the device memory cannot hold its own graphs and
    # workspace beside the weights of any model worth sizing (vLLM default 0.9)
    "gpu_memory_fraction": 0.5,
}


def floor(name: str) -> float:
    """The smallest value field ``name`` accepts (0 when it has no floor)."""
    return MINIMA.get(name, 0.0)


def ceiling(name: str, maximum: float | None = None) -> float:
    """The largest value field ``name`` accepts: ``maximum`` when the caller gives
    one, else its row in MAXIMA, else DEFAULT_MAXIMUM."""
    if maximum is not None:
        return maximum
    return MAXIMA.get(name, DEFAULT_MAXIMUM)
