"""The sizing engine's input errors in the user's language.

``SizingInputError`` carries a ``code``, its ``params`` and the dotted ``field`` path
(``workload.model.hidden_size``); this module says the same in the active language
and names the field by the label the questionnaire shows (the model field's
verbose name, else the engine-only names below). Every refusal of a number states the
range that is allowed. Registered with `clusterbuy.errors` in ``SizingConfig.ready``.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clusterbuy.engine.numbers import figure
from clusterbuy.errors import range_sentence
from clusterbuy.models import Procurement

from .engine import SizingInputError
from .models import Requirement, Workload

#: Names of engine inputs that no model field holds (the API's and the CLI's).
ENGINE_FIELD_LABELS: dict[str, Any] = {
    "accelerator": gettext_lazy("Accelerator"),
    "workloads": gettext_lazy("Workloads"),
    "workload": gettext_lazy("Workload"),
    "model": gettext_lazy("Model"),
    "preset": gettext_lazy("Model preset"),
    "constraints": gettext_lazy("Constraints"),
    "params_b": gettext_lazy("Parameters (billions)"),
    "active_params_b": gettext_lazy("Active parameters (billions)"),
    "arch_style": gettext_lazy("Architecture style"),
    "base_precision": gettext_lazy("Base model precision"),
    "head_dim": gettext_lazy("Head dimension"),
    "moe_shared_experts": gettext_lazy("MoE shared experts"),
    "moe_dense_layers": gettext_lazy("Dense layers before the MoE layers"),
    "moe_ffn_hidden_size": gettext_lazy("MoE expert FFN size"),
    "sliding_window_layers": gettext_lazy("Sliding-window layers"),
    "sliding_window_tokens": gettext_lazy("Sliding window (tokens)"),
    "local_attention": gettext_lazy("Local attention kind"),
    "linear_attention_layers": gettext_lazy("Linear-attention / state-space layers"),
    "linear_state_bytes": gettext_lazy("Fixed state per sequence and layer (bytes)"),
    "max_context_tokens": gettext_lazy("Model's context window (tokens)"),
    "kv_lora_rank": gettext_lazy("KV compression rank (MLA)"),
    "q_lora_rank": gettext_lazy("Query compression rank (MLA)"),
    "qk_rope_head_dim": gettext_lazy("RoPE head dimension (MLA)"),
    "qk_nope_head_dim": gettext_lazy("Non-RoPE head dimension (MLA)"),
    "v_head_dim": gettext_lazy("Value head dimension (MLA)"),
    "gated_ffn": gettext_lazy("Gated FFN"),
    "qkv_bias": gettext_lazy("QKV bias"),
    "tied_embeddings": gettext_lazy("Tied embeddings"),
    "global_batch_tokens": gettext_lazy("Global batch (tokens)"),
    "micro_batch": gettext_lazy("Micro-batch (sequences)"),
    "mfu": gettext_lazy("Model FLOPs utilization (MFU)"),
    "recompute": gettext_lazy("Activation recompute"),
    "optimizer": gettext_lazy("Optimizer"),
    "lora_rank": gettext_lazy("LoRA rank"),
    "lora_targets": gettext_lazy("LoRA target layers"),
    "quant_scope": gettext_lazy("Quantised tensor groups"),
    "rope_scaling_factor": gettext_lazy("RoPE scaling factor"),
    "rope_original_context_tokens": gettext_lazy(
        "Context before RoPE scaling (tokens)"
    ),
    "requests_per_second": gettext_lazy("Requests per second"),
    "checkpoint_interval_min": gettext_lazy("Checkpoint interval (minutes)"),
    "checkpoint_stall_share": gettext_lazy("Checkpoint stall budget (share)"),
    "checkpoints_kept": gettext_lazy("Checkpoints kept"),
    "restart_practice": gettext_lazy("Restart practice"),
    "failures_per_gpu_hour": gettext_lazy("Failures per GPU-hour"),
    "restart_min": gettext_lazy("Restart time (minutes)"),
    "pue": gettext_lazy("PUE"),
    "region": gettext_lazy("Region"),
    "budget_usd": gettext_lazy("Budget (USD)"),
    "electricity_usd_per_kwh": gettext_lazy("Electricity price (USD/kWh)"),
    "fx_cny_per_usd": gettext_lazy("Exchange rate (CNY per USD)"),
    "planning_years": gettext_lazy("Planning horizon (years)"),
    "preferred_fabric": gettext_lazy("Preferred network fabric"),
    "data_growth_per_year": gettext_lazy("Data and demand growth per year"),
}


def field_label(path: str) -> str | None:
    """The label of an engine path or a form field name: the last segment's model
    verbose name (``workloads.0.target_days`` -> "target duration (days)")."""
    name = path.rsplit(".", 1)[-1]
    if path.endswith("model.preset"):
        name = "model_preset"
    if name == "data_growth_per_year":
        name = "growth_per_year"
    for model in (Workload, Requirement):
        try:
            field = model._meta.get_field(name)
        except Exception:  # FieldDoesNotExist: not a field of this model
            continue
        label = str(getattr(field, "verbose_name", ""))
        return label[:1].upper() + label[1:] if label else None
    label = ENGINE_FIELD_LABELS.get(name)
    return str(label) if label is not None else None


def allowed_range(params: dict) -> str:
    """ "a whole number from 1 to 1,000,000", in the active language."""
    low, high = params.get("minimum") or 0, params.get("maximum")
    if params.get("integer", False):
        low = max(low, 0 if params.get("zero_allowed") else 1)
        return range_sentence(low=low, high=high, whole=True)
    above = low == 0 and high is not None and not params.get("zero_allowed")
    return range_sentence(low=low, high=high, above=above)


def _range_reason(code: str, params: dict) -> str:
    values = {
        "low": figure(params.get("minimum") or 0),
        "high": figure(params.get("maximum")),
    }
    reasons = {
        "not_a_number": _("Enter a number."),
        "not_finite": _("Enter a finite number (no NaN or infinity)."),
        "negative": _("Must not be negative."),
        "zero": _("Must be greater than zero."),
        "below_minimum": _("Must be at least %(low)s.") % values,
        "above_maximum": _("Must be at most %(high)s.") % values,
        "not_whole": _("Must be a whole number."),
    }
    return reasons[code]


RANGE_CODES = frozenset(
    (
        "not_a_number",
        "not_finite",
        "negative",
        "zero",
        "below_minimum",
        "above_maximum",
        "not_whole",
    )
)


def _region(code: str) -> str:
    return str(dict(Procurement._meta.get_field("region").choices).get(code, code))


def _messages(p: dict) -> dict[str, Any]:
    """The sentence of each code, ``p`` its params (formatted where used)."""
    return {**_model_messages(p), **_sizing_messages(p), **_training_messages(p)}


def _model_messages(p: dict) -> dict[str, Any]:
    """The codes of the workload's and the model's shape."""
    return {
        "not_a_choice": lambda: (
            _("Choose one of: %(choices)s.")
            % {"choices": ", ".join(p.get("choices", []))}
        ),
        "not_a_bool": lambda: _("Must be yes or no (true or false)."),
        "required": lambda: _("This field is required."),
        "required_custom_model": lambda: _(
            "Required for a custom model (or choose a preset)."
        ),
        "not_an_object": lambda: _("Must be an object (names mapped to values)."),
        "unknown_preset": lambda: (
            _("Unknown model preset %(key)s: choose one from the list.")
            % {"key": p.get("key")}
        ),
        "hidden_not_divisible": lambda: _(
            "The hidden size must be divisible by the number of attention heads (or "
            "give the head dimension)."
        ),
        "heads_not_multiple": lambda: _(
            "The attention heads must be a multiple of the KV heads."
        ),
        "required_with_moe": lambda: _(
            "Required when the model has more than one expert."
        ),
        "above_moe_experts": lambda: _("Must not exceed the number of MoE experts."),
        "above_params_b": lambda: _("Must not exceed the total parameters."),
        "not_fewer_than_layers": lambda: _("Must be fewer than the number of layers."),
        "above_layers": lambda: _("Must not exceed the number of layers."),
        "required_with_sliding_window": lambda: _(
            "Required when some layers use a sliding window."
        ),
    }


def _sizing_messages(p: dict) -> dict[str, Any]:
    """The codes of the sizing itself: accelerators, targets, layouts."""
    return {
        "no_published_peak": lambda: (
            _(
                "%(accelerator)s has no published dense %(precision)s peak: choose "
                "another precision or accelerator."
            )
            % {
                "accelerator": p.get("accelerator"),
                "precision": str(p.get("precision", "")).upper(),
            }
        ),
        "no_memory_bandwidth": lambda: (
            _(
                "%(accelerator)s has no published memory bandwidth: choose another "
                "accelerator."
            )
            % {"accelerator": p.get("accelerator")}
        ),
        "target_unreachable": lambda: (
            _(
                "A target of %(days)s days cannot be met even with %(gpus)s GPUs: allow "
                "more days or give a GPU count."
            )
            % {"days": figure(p.get("target_days")), "gpus": figure(p.get("max_gpus"))}
        ),
        "no_layout": lambda: (
            _(
                "No tensor × pipeline × data-parallel layout divides %(gpus)s GPUs with "
                "a global batch of %(tokens)s tokens: choose another GPU count (a power "
                "of two or whole nodes) or another global batch."
            )
            % {
                "gpus": figure(p.get("gpus")),
                "tokens": figure(p.get("global_batch_tokens")),
            }
        ),
        "no_priced_accelerator": lambda: (
            _(
                "No priced accelerator that can be bought in the region “%(region)s” "
                "can run this workload: check the model, the targets and the GPU "
                "count, or the procurement's region."
            )
            % {"region": _region(p.get("region", ""))}
        ),
        "no_accelerator_for_all": lambda: (
            _(
                "No priced accelerator that can be bought in the region “%(region)s” "
                "can run all the workloads: check each workload's model, targets and "
                "GPU count, or the procurement's region."
            )
            % {"region": _region(p.get("region", ""))}
        ),
        "context_beyond_model": lambda: (
            _(
                "Context plus output is %(tokens)s tokens, beyond the model's context "
                "window of %(limit)s tokens."
            )
            % {"tokens": figure(p.get("tokens")), "limit": figure(p.get("limit"))}
        ),
        "seq_len_beyond_model": lambda: (
            _(
                "%(tokens)s tokens is beyond the model's context window of %(limit)s "
                "tokens."
            )
            % {"tokens": figure(p.get("tokens")), "limit": figure(p.get("limit"))}
        ),
        "unknown_accelerator": lambda: (
            _("Unknown accelerator %(key)s.") % {"key": p.get("key")}
        ),
    }


def _training_messages(p: dict) -> dict[str, Any]:
    """The codes of a training or fine-tuning workload's own answers."""
    return {
        "tokens_required": lambda: _("How many tokens will be trained?"),
        "target_or_gpus": lambda: _("Give a target duration or a GPU count."),
        "fine_tuning_only": lambda: _("Only applies to fine-tuning."),
        "lora_rank_or_fraction": lambda: _(
            "Give the LoRA rank or the LoRA trainable share, not both."
        ),
        "quantised_needs_lora": lambda: _(
            "A quantised base model can only be fine-tuned with LoRA (give a LoRA "
            "rank)."
        ),
        "batch_below_micro_batch": lambda: _(
            "Must hold at least one micro-batch of sequence-length tokens."
        ),
        "no_workloads": lambda: _("Add at least one workload."),
        "no_gpus_left": lambda: _("No GPUs are left for this workload."),
        "no_gpu_count": lambda: _("No GPU count is given."),
    }


def error_message(exc: SizingInputError) -> str | None:
    """The error in the active language; None for a code this module does not know
    (the engine's English then stands)."""
    code, params = getattr(exc, "code", ""), getattr(exc, "params", {}) or {}
    if code in RANGE_CODES:
        return _("%(reason)s Allowed: %(range)s.") % {
            "reason": _range_reason(code, params),
            "range": allowed_range(params),
        }
    message = _messages(params).get(code)
    return message() if message is not None else None


def delivered_error(entry: dict) -> str:
    """Why a bid's delivered capability could not be sized (``error_code`` and
    ``error_params`` of `sizing.services.delivered`), in the active language; entries
    computed before the code was stored keep their English ``error``."""
    code = entry.get("error_code") or ""
    message = _messages(entry.get("error_params") or {}).get(code)
    if code in RANGE_CODES:
        exc = SizingInputError("", code=code, params=entry.get("error_params"))
        return error_message(exc) or entry.get("error", "")
    return message() if message is not None else entry.get("error", "")
