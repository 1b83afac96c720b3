"""Parsing of a training or fine-tuning workload's fields: the work, the time or the
GPUs, the batch, recompute and optimizer, and LoRA / QLoRA.

Every rejection names the dotted field path (``workload.lora_rank``) so the API can
return a 400 on that field. Defaults are documented in docs/methodology.md, Part A.
"""

from __future__ import annotations

from typing import Any

from clusterbuy.engine.limits import MAX_GPU_COUNT

from .catalog import ModelArch
from .errors import SizingInputError
from .fields import read_bool, read_choice, read_number
from .model import param_counts
from .model_states import LORA_TARGETS, lora_adapter_params

TRAINING_PRECISIONS = ("bf16", "fp16", "fp8", "fp32")
# Frozen LoRA base weights may be 8- or 4-bit (QLoRA, Dettmers et al. 2023): given as
# ``base_precision`` or, for fine-tuning with LoRA, as ``precision`` (matmuls then run
# in BF16 on the dequantised weights).
LORA_BASE_PRECISIONS = ("bf16", "fp16", "fp8", "int8", "int4")
RECOMPUTE = ("none", "selective", "full")
OPTIMIZERS = ("adamw", "adam", "adam_8bit", "sgd", "adafactor")
# Llama 2 used a 4M-token global batch (Touvron et al. 2023, section 2.2).
DEFAULT_GLOBAL_BATCH_TOKENS = 4 * 1024 * 1024


def training_values(
    data: dict, path: str, seq_len: int | None, limit: int | None
) -> tuple[int, dict[str, Any]]:
    """Training and fine-tuning: the work (tokens), the time or the GPUs, the batch."""
    tokens_b = read_number(data, "tokens_b", path)
    if tokens_b is None:
        raise SizingInputError(
            "is required for training and fine-tuning",
            field=f"{path}.tokens_b",
            code="tokens_required",
        )
    target_days = read_number(data, "target_days", path)
    gpu_count = read_number(
        data, "gpu_count", path, integer=True, maximum=MAX_GPU_COUNT
    )
    if target_days is None and gpu_count is None:
        raise SizingInputError(
            "give target_days or gpu_count",
            field=f"{path}.target_days",
            code="target_or_gpus",
        )
    seq_len = seq_len or min(limit or 4096, 4096)
    if limit and seq_len > limit:
        raise SizingInputError(
            f"{seq_len} tokens is beyond the model's {limit}-token context",
            field=f"{path}.seq_len",
            code="seq_len_beyond_model",
            params={"tokens": seq_len, "limit": limit},
        )
    micro_batch, global_batch_tokens = batch_sizes(data, path, seq_len)
    return seq_len, {
        "tokens_b": tokens_b,
        "target_days": target_days,
        "gpu_count": gpu_count,
        "mfu": read_number(data, "mfu", path, maximum=1.0),
        "recompute": read_choice(data, "recompute", path, RECOMPUTE, "selective"),
        "micro_batch": micro_batch,
        "global_batch_tokens": global_batch_tokens,
        "optimizer": read_choice(data, "optimizer", path, OPTIMIZERS, "adamw"),
        "grad_accum_fp32": read_bool(data, "grad_accum_fp32", path, False),
    }


def lora_values(
    data: dict, path: str, kind: str, model: ModelArch, precision: str
) -> tuple[str, dict[str, Any]]:
    """LoRA: a trainable share, or a rank whose adapters give it; a 4/8-bit frozen base
    (QLoRA) as ``base_precision`` or as the fine-tuning ``precision``."""
    fraction = read_number(data, "lora_trainable_fraction", path, maximum=1.0)
    rank = read_number(data, "lora_rank", path, integer=True, maximum=65536)
    base = read_choice(data, "base_precision", path, LORA_BASE_PRECISIONS, None)
    for name, given in (("lora_trainable_fraction", fraction), ("lora_rank", rank)):
        if given is not None and kind != "fine_tuning":
            raise SizingInputError(
                "only applies to fine_tuning",
                field=f"{path}.{name}",
                code="fine_tuning_only",
            )
    if fraction is not None and rank is not None:
        raise SizingInputError(
            "give lora_rank or lora_trainable_fraction, not both",
            field=f"{path}.lora_rank",
            code="lora_rank_or_fraction",
        )
    if precision in ("int8", "int4"):
        base, precision = precision, "bf16"
    if base is not None and fraction is None and rank is None:
        raise SizingInputError(
            "a quantised base can only be fine-tuned with LoRA (give lora_rank)",
            field=f"{path}.precision",
            code="quantised_needs_lora",
        )
    targets = read_choice(data, "lora_targets", path, LORA_TARGETS, "all_linear")
    if rank is not None:
        total, _ = param_counts(model)
        fraction = min(lora_adapter_params(model, rank, targets) / total, 1.0)
    return precision, {
        "lora_trainable_fraction": fraction,
        "lora_rank": rank,
        "base_precision": base,
        "lora_targets": targets,
    }


def batch_sizes(data: dict, path: str, seq_len: int) -> tuple[int, int]:
    """Micro-batch (default 1) and global batch in tokens (default Llama 2's 4M)."""
    micro_batch = read_number(data, "micro_batch", path, integer=True) or 1
    global_batch_tokens = read_number(data, "global_batch_tokens", path, integer=True)
    global_batch_tokens = global_batch_tokens or DEFAULT_GLOBAL_BATCH_TOKENS
    if global_batch_tokens < seq_len * micro_batch:
        raise SizingInputError(
            "must hold at least one micro-batch of seq_len tokens",
            field=f"{path}.global_batch_tokens",
            code="batch_below_micro_batch",
        )
    return micro_batch, global_batch_tokens
