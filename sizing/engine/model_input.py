"""Reading the API body's ``workload.model``: a preset key, or a custom architecture
checked for consistency. Every rejection names the dotted field path."""

from __future__ import annotations

from typing import Any

from .catalog import Catalog, ModelArch
from .errors import SizingInputError
from .fields import read_bool, read_choice, read_number, require

# A custom model's whole-number shape, read in this order.
MODEL_COUNTS = (
    "layers",
    "hidden_size",
    "attention_heads",
    "vocab_size",
    "kv_heads",
    "head_dim",
)
MODEL_REQUIRED = ("layers", "hidden_size", "attention_heads", "vocab_size")
# Optional architecture details (MLA, MoE layout, local attention), all whole numbers.
MODEL_DETAILS = (
    "kv_lora_rank",
    "q_lora_rank",
    "qk_nope_head_dim",
    "v_head_dim",
    "moe_ffn_hidden_size",
    "sliding_window_tokens",
)
MODEL_DETAIL_COUNTS = (
    "moe_shared_experts",
    "moe_dense_layers",
    "sliding_window_layers",
    "linear_attention_layers",
    "linear_state_bytes",
)


def model_from_dict(
    data: Any, catalog: Catalog, path: str = "workload.model"
) -> ModelArch:
    """A catalogue preset by key, or a custom architecture checked for consistency."""
    if not isinstance(data, dict):
        raise SizingInputError("must be an object", field=path, code="not_an_object")
    if data.get("preset") is not None:
        return _preset(data["preset"], catalog, path)
    for name in MODEL_REQUIRED:
        require(
            data, name, path, "is required for a custom model", "required_custom_model"
        )
    counts = {
        name: read_number(data, name, path, integer=True) for name in MODEL_COUNTS
    }
    head_dim = _head_dim(counts, path)
    kv_heads = _kv_heads(counts, path)
    gated = read_bool(data, "gated_ffn", path, True)
    ffn = read_number(data, "ffn_hidden_size", path, integer=True)
    if ffn is None:
        ffn = 4 * counts["hidden_size"]  # GPT convention; gated FFNs should give theirs
    experts, active_experts = _moe_experts(data, path)
    params_b, active_params_b = _param_counts_given(data, path)
    model = ModelArch(
        key=str(data.get("key") or "custom"),
        name=str(data.get("name") or "Custom model"),
        layers=counts["layers"],
        hidden_size=counts["hidden_size"],
        attention_heads=counts["attention_heads"],
        kv_heads=kv_heads,
        head_dim=head_dim,
        ffn_hidden_size=ffn,
        vocab_size=counts["vocab_size"],
        gated_ffn=gated,
        moe_experts=experts,
        moe_active_experts=active_experts,
        params_b=params_b,
        active_params_b=active_params_b,
        params_override_b=params_b,
        active_params_override_b=active_params_b,
        source="user input",
        **_model_options(data, path),
    )
    return _check_layer_counts(model, path)


def _preset(key: Any, catalog: Catalog, path: str) -> ModelArch:
    if not isinstance(key, str) or key not in catalog.presets:
        raise SizingInputError(
            f"unknown model preset {key!r}",
            field=f"{path}.preset",
            code="unknown_preset",
            params={"key": key},
        )
    return catalog.presets[key]


def _head_dim(counts: dict[str, Any], path: str) -> int:
    if counts["head_dim"] is not None:
        return counts["head_dim"]
    hidden, heads = counts["hidden_size"], counts["attention_heads"]
    if hidden % heads:
        raise SizingInputError(
            "hidden_size must be divisible by attention_heads (or give head_dim)",
            field=f"{path}.hidden_size",
            code="hidden_not_divisible",
        )
    return hidden // heads


def _kv_heads(counts: dict[str, Any], path: str) -> int:
    """KV heads default to the attention heads (multi-head attention); GQA groups must
    divide the heads evenly."""
    heads = counts["attention_heads"]
    kv_heads = counts["kv_heads"] or heads
    if kv_heads > heads or heads % kv_heads:
        raise SizingInputError(
            "attention_heads must be a multiple of kv_heads",
            field=f"{path}.kv_heads",
            code="heads_not_multiple",
        )
    return kv_heads


def _moe_experts(data: dict, path: str) -> tuple[int | None, int | None]:
    experts = read_number(data, "moe_experts", path, integer=True)
    active = read_number(data, "moe_active_experts", path, integer=True)
    if experts and experts > 1:
        if active is None:
            raise SizingInputError(
                "is required when moe_experts > 1",
                field=f"{path}.moe_active_experts",
                code="required_with_moe",
            )
        if active > experts:
            raise SizingInputError(
                "must not exceed moe_experts",
                field=f"{path}.moe_active_experts",
                code="above_moe_experts",
            )
    return experts, active


def _param_counts_given(data: dict, path: str) -> tuple[float | None, float | None]:
    """Published parameter counts, which override the ones computed from the shape."""
    params_b = read_number(data, "params_b", path)
    active_params_b = read_number(data, "active_params_b", path)
    if params_b and active_params_b and active_params_b > params_b:
        raise SizingInputError(
            "must not exceed params_b",
            field=f"{path}.active_params_b",
            code="above_params_b",
        )
    return params_b, active_params_b


def _model_options(data: dict, path: str) -> dict[str, Any]:
    options: dict[str, Any] = {
        "tied_embeddings": read_bool(data, "tied_embeddings", path, False),
        "max_context_tokens": read_number(
            data, "max_context_tokens", path, integer=True
        ),
        "arch_style": read_choice(data, "arch_style", path, ("llama", "gpt"), "llama"),
        "qkv_bias": read_bool(data, "qkv_bias", path, False),
        "local_attention": read_choice(
            data, "local_attention", path, ("sliding", "chunked"), "sliding"
        ),
        "qk_rope_head_dim": read_number(
            data, "qk_rope_head_dim", path, integer=True, allow_zero=True
        ),
    }
    options["rope_scaling_factor"] = read_number(
        data, "rope_scaling_factor", path, maximum=1024
    )
    options["rope_original_context_tokens"] = read_number(
        data, "rope_original_context_tokens", path, integer=True
    )
    for name in MODEL_DETAILS:
        options[name] = read_number(data, name, path, integer=True)
    for name in MODEL_DETAIL_COUNTS:
        options[name] = (
            read_number(data, name, path, integer=True, allow_zero=True) or 0
        )
    return options


def _check_layer_counts(model: ModelArch, path: str) -> ModelArch:
    """Dense layers of an MoE model and local-attention layers are some of the layers;
    a local-attention layer count needs its window."""
    if model.moe_dense_layers >= model.layers:
        raise SizingInputError(
            "must be fewer than layers",
            field=f"{path}.moe_dense_layers",
            code="not_fewer_than_layers",
        )
    if model.sliding_window_layers > model.layers:
        raise SizingInputError(
            "must not exceed layers",
            field=f"{path}.sliding_window_layers",
            code="above_layers",
        )
    if model.sliding_window_layers + model.linear_attention_layers > model.layers:
        raise SizingInputError(
            "local-attention and linear-attention layers must not exceed layers",
            field=f"{path}.linear_attention_layers",
            code="above_layers",
        )
    if model.linear_attention_layers and not model.linear_state_bytes:
        raise SizingInputError(
            "is required with linear_attention_layers",
            field=f"{path}.linear_state_bytes",
            code="required",
        )
    if model.sliding_window_layers and not model.sliding_window_tokens:
        raise SizingInputError(
            "is required with sliding_window_layers",
            field=f"{path}.sliding_window_tokens",
            code="required_with_sliding_window",
        )
    return model
