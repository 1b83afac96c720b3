"""What is being sized (Workload) and the site's limits (Constraints), and their parsing.

``workload_from_dict`` reads the API body's ``workload`` object; every rejection names the
dotted field path so the API can return a 400 on that field. Defaults are documented in
docs/methodology.md, Part A.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any

from .catalog import Catalog, ModelArch
from .errors import SizingInputError

KINDS = ("training", "fine_tuning", "inference")
TRAINING_PRECISIONS = ("bf16", "fp16", "fp8", "fp32")
INFERENCE_PRECISIONS = ("bf16", "fp16", "fp8", "int8", "int4")
KV_PRECISIONS = ("bf16", "fp16", "fp8", "int8")
RECOMPUTE = ("none", "selective", "full")
OPTIMIZERS = ("adamw", "adam", "adam_8bit", "sgd", "adafactor")
REGIONS = ("global", "cn")
ECOSYSTEMS = ("cuda", "rocm", "cann", "synapseai")
FABRICS = ("infiniband", "roce", "ethernet")

# Llama 2 used a 4M-token global batch (Touvron et al. 2023, section 2.2).
DEFAULT_GLOBAL_BATCH_TOKENS = 4 * 1024 * 1024


@dataclass(frozen=True)
class Workload:
    kind: str
    model: ModelArch
    seq_len: int = 4096
    precision: str = "bf16"
    # training / fine-tuning
    tokens_b: float | None = None
    target_days: float | None = None
    gpu_count: int | None = None
    mfu: float | None = None
    lora_trainable_fraction: float | None = None  # None = full fine-tuning
    recompute: str = "selective"
    micro_batch: int = 1
    global_batch_tokens: int = DEFAULT_GLOBAL_BATCH_TOKENS
    optimizer: str = "adamw"
    grad_accum_fp32: bool = False
    # inference
    context_tokens: int | None = None
    output_tokens: int | None = None
    concurrent_requests: int | None = None
    tokens_per_second: float | None = None
    requests_per_second: float | None = None
    ttft_ms: float | None = None
    tpot_ms: float | None = None
    kv_cache_precision: str = "bf16"
    # storage
    dataset_tb: float | None = None
    checkpoint_interval_min: float = 60.0
    checkpoint_stall_share: float = 0.02
    checkpoints_kept: int = 3

    @property
    def is_training(self) -> bool:
        return self.kind in ("training", "fine_tuning")

    @property
    def is_lora(self) -> bool:
        return self.kind == "fine_tuning" and self.lora_trainable_fraction is not None


@dataclass(frozen=True)
class Constraints:
    region: str = "global"
    rack_power_limit_kw: float | None = None
    liquid_cooling_ok: bool = False
    preferred_ecosystem: str | None = None
    preferred_fabric: str | None = None
    budget_usd: float | None = None
    data_growth_per_year: float = 0.0
    planning_years: float = 3.0
    pue: float | None = None
    fx_cny_per_usd: float = 7.2
    electricity_usd_per_kwh: float | None = None
    time_shared: bool = False


# --------------------------------------------------------------------------- parsing


def _number(
    data: dict,
    name: str,
    path: str,
    *,
    integer: bool = False,
    positive: bool = True,
    allow_zero: bool = False,
    maximum: float | None = None,
):
    value = data.get(name)
    if value is None:
        return None
    where = f"{path}.{name}"
    if isinstance(value, bool) or not isinstance(value, int | float):
        if isinstance(value, str):
            try:
                value = float(value)
            except ValueError:
                raise SizingInputError("must be a number", field=where) from None
        else:
            raise SizingInputError("must be a number", field=where)
    if not math.isfinite(value):
        raise SizingInputError(
            "must be a finite number (no NaN or infinity)", field=where
        )
    if value < 0:
        raise SizingInputError("must not be negative", field=where)
    if positive and value == 0 and not allow_zero:
        raise SizingInputError("must be greater than zero", field=where)
    if maximum is not None and value > maximum:
        raise SizingInputError(f"must be at most {maximum:g}", field=where)
    if integer:
        if value != int(value):
            raise SizingInputError("must be a whole number", field=where)
        return int(value)
    return float(value)


def _choice(data: dict, name: str, path: str, choices: tuple[str, ...], default):
    value = data.get(name, default)
    if value is None:
        return default
    if not isinstance(value, str) or value.lower() not in choices:
        raise SizingInputError(
            f"must be one of {', '.join(choices)}", field=f"{path}.{name}"
        )
    return value.lower()


def _bool(data: dict, name: str, path: str, default: bool) -> bool:
    value = data.get(name, default)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise SizingInputError("must be true or false", field=f"{path}.{name}")
    return value


def model_from_dict(
    data: Any, catalog: Catalog, path: str = "workload.model"
) -> ModelArch:
    if not isinstance(data, dict):
        raise SizingInputError("must be an object", field=path)
    if data.get("preset") is not None:
        key = data["preset"]
        if not isinstance(key, str) or key not in catalog.presets:
            raise SizingInputError(
                f"unknown model preset {key!r}", field=f"{path}.preset"
            )
        return catalog.presets[key]
    required = ("layers", "hidden_size", "attention_heads", "vocab_size")
    for name in required:
        if data.get(name) is None:
            raise SizingInputError(
                "is required for a custom model", field=f"{path}.{name}"
            )
    layers = _number(data, "layers", path, integer=True)
    hidden = _number(data, "hidden_size", path, integer=True)
    heads = _number(data, "attention_heads", path, integer=True)
    vocab = _number(data, "vocab_size", path, integer=True)
    kv_heads = _number(data, "kv_heads", path, integer=True) or heads
    head_dim = _number(data, "head_dim", path, integer=True)
    if head_dim is None:
        if hidden % heads:
            raise SizingInputError(
                "hidden_size must be divisible by attention_heads (or give head_dim)",
                field=f"{path}.hidden_size",
            )
        head_dim = hidden // heads
    if kv_heads > heads or heads % kv_heads:
        raise SizingInputError(
            "attention_heads must be a multiple of kv_heads", field=f"{path}.kv_heads"
        )
    gated = _bool(data, "gated_ffn", path, True)
    ffn = _number(data, "ffn_hidden_size", path, integer=True)
    if ffn is None:
        ffn = 4 * hidden  # GPT convention; gated FFNs should give their width
    experts = _number(data, "moe_experts", path, integer=True)
    active = _number(data, "moe_active_experts", path, integer=True)
    if experts and experts > 1:
        if active is None:
            raise SizingInputError(
                "is required when moe_experts > 1", field=f"{path}.moe_active_experts"
            )
        if active > experts:
            raise SizingInputError(
                "must not exceed moe_experts", field=f"{path}.moe_active_experts"
            )
    params_b = _number(data, "params_b", path)
    active_params_b = _number(data, "active_params_b", path)
    if params_b and active_params_b and active_params_b > params_b:
        raise SizingInputError(
            "must not exceed params_b", field=f"{path}.active_params_b"
        )
    return ModelArch(
        key=str(data.get("key") or "custom"),
        name=str(data.get("name") or "Custom model"),
        layers=layers,
        hidden_size=hidden,
        attention_heads=heads,
        kv_heads=kv_heads,
        head_dim=head_dim,
        ffn_hidden_size=ffn,
        vocab_size=vocab,
        gated_ffn=gated,
        tied_embeddings=_bool(data, "tied_embeddings", path, False),
        moe_experts=experts,
        moe_active_experts=active,
        max_context_tokens=_number(data, "max_context_tokens", path, integer=True),
        arch_style=_choice(data, "arch_style", path, ("llama", "gpt"), "llama"),
        qkv_bias=_bool(data, "qkv_bias", path, False),
        kv_lora_rank=_number(data, "kv_lora_rank", path, integer=True),
        qk_rope_head_dim=_number(
            data, "qk_rope_head_dim", path, integer=True, allow_zero=True
        ),
        params_b=params_b,
        active_params_b=active_params_b,
        params_override_b=params_b,
        active_params_override_b=active_params_b,
        source="user input",
    )


def workload_from_dict(data: Any, catalog: Catalog) -> Workload:
    """Parse the API body's ``workload`` object; raise SizingInputError naming the field."""
    path = "workload"
    if not isinstance(data, dict):
        raise SizingInputError("must be an object", field=path)
    if data.get("kind") is None:
        raise SizingInputError("is required", field=f"{path}.kind")
    kind = _choice(data, "kind", path, KINDS, None)
    if data.get("model") is None:
        raise SizingInputError("is required", field=f"{path}.model")
    model = model_from_dict(data["model"], catalog)
    training = kind != "inference"
    precisions = TRAINING_PRECISIONS if training else INFERENCE_PRECISIONS
    precision = _choice(data, "precision", path, precisions, "bf16")
    seq_len = _number(data, "seq_len", path, integer=True)
    limit = model.max_context_tokens
    values: dict[str, Any] = {}
    if training:
        tokens_b = _number(data, "tokens_b", path)
        if tokens_b is None:
            raise SizingInputError(
                "is required for training and fine-tuning", field=f"{path}.tokens_b"
            )
        target_days = _number(data, "target_days", path)
        gpu_count = _number(data, "gpu_count", path, integer=True, maximum=1_000_000)
        if target_days is None and gpu_count is None:
            raise SizingInputError(
                "give target_days or gpu_count", field=f"{path}.target_days"
            )
        seq_len = seq_len or min(limit or 4096, 4096)
        if limit and seq_len > limit:
            raise SizingInputError(
                f"{seq_len} tokens is beyond the model's {limit}-token context",
                field=f"{path}.seq_len",
            )
        lora = _number(data, "lora_trainable_fraction", path, maximum=1.0)
        if lora is not None and kind != "fine_tuning":
            raise SizingInputError(
                "only applies to fine_tuning", field=f"{path}.lora_trainable_fraction"
            )
        micro_batch = _number(data, "micro_batch", path, integer=True) or 1
        gbt = _number(data, "global_batch_tokens", path, integer=True)
        gbt = gbt or DEFAULT_GLOBAL_BATCH_TOKENS
        if gbt < seq_len * micro_batch:
            raise SizingInputError(
                "must hold at least one micro-batch of seq_len tokens",
                field=f"{path}.global_batch_tokens",
            )
        values.update(
            tokens_b=tokens_b,
            target_days=target_days,
            gpu_count=gpu_count,
            mfu=_number(data, "mfu", path, maximum=1.0),
            lora_trainable_fraction=lora,
            recompute=_choice(data, "recompute", path, RECOMPUTE, "selective"),
            micro_batch=micro_batch,
            global_batch_tokens=gbt,
            optimizer=_choice(data, "optimizer", path, OPTIMIZERS, "adamw"),
            grad_accum_fp32=_bool(data, "grad_accum_fp32", path, False),
        )
    else:
        context = _number(data, "context_tokens", path, integer=True)
        output = _number(data, "output_tokens", path, integer=True)
        context = context or min(limit or 2048, 2048)
        output = output or 256
        if limit and context + output > limit:
            raise SizingInputError(
                f"context + output = {context + output} tokens is beyond the model's "
                f"{limit}-token context",
                field=f"{path}.context_tokens",
            )
        seq_len = seq_len or context + output
        values.update(
            context_tokens=context,
            output_tokens=output,
            concurrent_requests=_number(
                data, "concurrent_requests", path, integer=True
            ),
            tokens_per_second=_number(data, "tokens_per_second", path),
            requests_per_second=_number(data, "requests_per_second", path),
            ttft_ms=_number(data, "ttft_ms", path),
            tpot_ms=_number(data, "tpot_ms", path),
            kv_cache_precision=_choice(
                data, "kv_cache_precision", path, KV_PRECISIONS, "bf16"
            ),
            gpu_count=_number(data, "gpu_count", path, integer=True, maximum=1_000_000),
        )
        if not any(
            values[k]
            for k in ("concurrent_requests", "tokens_per_second", "requests_per_second")
        ):
            values["concurrent_requests"] = 1
    values.update(
        dataset_tb=_number(data, "dataset_tb", path, allow_zero=True),
        checkpoint_interval_min=_number(data, "checkpoint_interval_min", path) or 60.0,
        checkpoint_stall_share=_number(
            data, "checkpoint_stall_share", path, maximum=0.5
        )
        or 0.02,
        checkpoints_kept=_number(data, "checkpoints_kept", path, integer=True) or 3,
    )
    return Workload(
        kind=kind, model=model, seq_len=seq_len, precision=precision, **values
    )


def _pue(data: dict) -> float | None:
    pue = _number(data, "pue", "constraints", maximum=5)
    if pue is not None and pue < 1.0:
        raise SizingInputError("must be at least 1.0", field="constraints.pue")
    return pue


def constraints_from_dict(data: Any) -> Constraints:
    """Parse the API body's optional ``constraints`` object."""
    path = "constraints"
    if data is None:
        return Constraints()
    if not isinstance(data, dict):
        raise SizingInputError("must be an object", field=path)
    base = Constraints()
    eco = data.get("preferred_ecosystem")
    fabric = data.get("preferred_fabric")
    return replace(
        base,
        region=_choice(data, "region", path, REGIONS, "global"),
        rack_power_limit_kw=_number(data, "rack_power_limit_kw", path),
        liquid_cooling_ok=_bool(data, "liquid_cooling_ok", path, False),
        preferred_ecosystem=None
        if eco is None
        else _choice(data, "preferred_ecosystem", path, ECOSYSTEMS, None),
        preferred_fabric=None
        if fabric is None
        else _choice(data, "preferred_fabric", path, FABRICS, None),
        budget_usd=_number(data, "budget_usd", path),
        data_growth_per_year=_number(
            data, "data_growth_per_year", path, allow_zero=True, maximum=10
        )
        or 0.0,
        planning_years=_number(data, "planning_years", path, maximum=30) or 3.0,
        pue=_pue(data),
        fx_cny_per_usd=_number(data, "fx_cny_per_usd", path) or 7.2,
        electricity_usd_per_kwh=_number(data, "electricity_usd_per_kwh", path),
        time_shared=_bool(data, "time_shared", path, False),
    )
