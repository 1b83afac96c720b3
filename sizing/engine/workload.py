"""What is being sized (Workload) and the site's limits (Constraints), and their parsing.

``workload_from_dict`` reads the API body's ``workload`` object; every rejection names the
dotted field path so the API can return a 400 on that field. Defaults are documented in
docs/methodology.md, Part A.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from clusterbuy.engine.currency import DEFAULT_FX_CNY_PER_USD
from clusterbuy.engine.limits import MAX_GPU_COUNT

from .catalog import Catalog, ModelArch
from .errors import SizingInputError
from .fields import (
    NumberField,
    read_bool,
    read_choice,
    read_number,
    read_numbers,
    require,
)
from .goodput import RESTART_PRACTICES, RestartPractice, practice_of
from .memory import DEFAULT_GPU_MEMORY_FRACTION
from .model import QUANT_SCOPES, default_quant_scope
from .model_input import model_from_dict
from .serving_latency import ARRIVALS, OUTPUT_LENGTHS
from .training_input import (
    DEFAULT_GLOBAL_BATCH_TOKENS,
    TRAINING_PRECISIONS,
    lora_values,
    training_values,
)

KINDS = ("training", "fine_tuning", "inference")
INFERENCE_PRECISIONS = ("bf16", "fp16", "fp8", "int8", "int4", "mxfp4", "nvfp4")
KV_PRECISIONS = ("bf16", "fp16", "fp8", "int8")
REGIONS = ("global", "cn")
ECOSYSTEMS = ("cuda", "rocm", "cann", "synapseai")
FABRICS = ("infiniband", "roce", "ethernet")


@dataclass(frozen=True)
class Workload:
    kind: str
    model: ModelArch
    seq_len: int = 4096
    precision: str = "bf16"
    # Why ``precision`` is what it is: "requested" (the body named it), "published"
    # (serving at the weights' published precision) or "training_default" (BF16).
    precision_source: str = "requested"
    # training / fine-tuning
    tokens_b: float | None = None
    target_days: float | None = None
    gpu_count: int | None = None
    mfu: float | None = None
    lora_trainable_fraction: float | None = None  # None = full fine-tuning
    lora_rank: int | None = None  # adapters r (d_in + d_out) on every linear layer
    base_precision: str | None = (
        None  # frozen LoRA base (int4 = QLoRA); None = precision
    )
    # which LoRA targets get adapters (training_input.LORA_TARGETS)
    lora_targets: str = "all_linear"
    # tensor groups a 4/8-bit precision quantises (model.QUANT_SCOPES); None: what
    # published checkpoints do (model.default_quant_scope)
    quant_scope: str | None = None
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
    # share of the reported device memory the serving engine may use (vLLM
    # --gpu-memory-utilization)
    gpu_memory_fraction: float = DEFAULT_GPU_MEMORY_FRACTION
    # expert-parallel load balancing (DeepSeek EPLB, SGLang --enable-eplb)
    expert_load_balancing: bool = False
    # how the concurrent requests arrive (serving_latency.ARRIVALS): "steady" users
    # arriving independently, or a "burst" arriving at once (a batch job)
    arrival: str = "steady"
    # whether the requests' output lengths vary around output_tokens (real traffic,
    # chat datasets) or are all the same (synthetic benchmarks): a burst's makespan
    # waits for its longest outputs when they vary (serving_latency.OUTPUT_LENGTHS)
    output_lengths: str = "varied"
    # storage
    dataset_tb: float | None = None
    # None: balanced for the run's scale (goodput.balanced_interval_min)
    checkpoint_interval_min: float | None = None
    checkpoint_stall_share: float = 0.02
    checkpoints_kept: int = 3
    # goodput: the era's restart practice and its overrides (``goodput``)
    restart_practice: str = "automated"
    failures_per_gpu_hour: float | None = None
    restart_min: float | None = None

    @property
    def restart(self) -> RestartPractice:
        return practice_of(
            self.restart_practice,
            self.failures_per_gpu_hour,
            self.restart_min,
            self.checkpoint_interval_min,
        )

    @property
    def is_training(self) -> bool:
        return self.kind in ("training", "fine_tuning")

    @property
    def is_lora(self) -> bool:
        return self.kind == "fine_tuning" and self.lora_trainable_fraction is not None

    def quant_scope_for(self, precision: str) -> str:
        return self.quant_scope or default_quant_scope(self.model, precision)


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
    fx_cny_per_usd: float = DEFAULT_FX_CNY_PER_USD
    electricity_usd_per_kwh: float | None = None
    time_shared: bool = False
    data_tb: float | None = None  # the organisation's data today (questionnaire)


# --------------------------------------------------------------------------- parsing

INFERENCE_LOAD = (
    NumberField("concurrent_requests", integer=True),
    NumberField("tokens_per_second"),
    NumberField("requests_per_second"),
)
LATENCY_TARGETS = (NumberField("ttft_ms"), NumberField("tpot_ms"))
STORAGE_FIELDS = (
    NumberField("dataset_tb", allow_zero=True),
    NumberField("checkpoint_interval_min"),
    NumberField("checkpoint_stall_share", maximum=0.5, default=0.02),
    NumberField("checkpoints_kept", integer=True, default=3),
)

GOODPUT_FIELDS = (
    NumberField("failures_per_gpu_hour", maximum=0.01),
    NumberField("restart_min", allow_zero=True, maximum=10080.0),
)


def workload_from_dict(data: Any, catalog: Catalog) -> Workload:
    """Parse the API body's ``workload`` object; raise SizingInputError naming the field."""
    path = "workload"
    if not isinstance(data, dict):
        raise SizingInputError("must be an object", field=path, code="not_an_object")
    require(data, "kind", path)
    kind = read_choice(data, "kind", path, KINDS, None)
    require(data, "model", path)
    model = model_from_dict(data["model"], catalog)
    training = kind != "inference"
    precisions = TRAINING_PRECISIONS if training else INFERENCE_PRECISIONS
    if kind == "fine_tuning":
        precisions = (*TRAINING_PRECISIONS, "int8", "int4")
    # Serving defaults to the precision the weights are published in (DeepSeek-V3 FP8,
    # gpt-oss MXFP4); training to BF16.
    default = "bf16" if training else model.native_precision
    precision = read_choice(data, "precision", path, precisions, default)
    source = "training_default" if training else "published"
    if data.get("precision") is not None:
        source = "requested"
    seq_len = read_number(data, "seq_len", path, integer=True)
    limit = model.context_limit_tokens
    if training:
        seq_len, values = training_values(data, path, seq_len, limit)
        precision, lora = lora_values(data, path, kind, model, precision)
        values.update(lora)
    else:
        seq_len, values = _inference_values(data, path, seq_len, limit)
    values.update(read_numbers(data, path, STORAGE_FIELDS))
    if training:
        values.update(read_numbers(data, path, GOODPUT_FIELDS))
        values["restart_practice"] = read_choice(
            data, "restart_practice", path, RESTART_PRACTICES, "automated"
        )
    values["quant_scope"] = read_choice(data, "quant_scope", path, QUANT_SCOPES, None)
    return Workload(
        kind=kind,
        model=model,
        seq_len=seq_len,
        precision=precision,
        precision_source=source,
        **values,
    )


def _inference_values(
    data: dict, path: str, seq_len: int | None, limit: int | None
) -> tuple[int, dict[str, Any]]:
    """Serving: request shape (default 2048 in, 256 out), load, latency targets."""
    context = read_number(data, "context_tokens", path, integer=True)
    output = read_number(data, "output_tokens", path, integer=True)
    context = context or min(limit or 2048, 2048)
    output = output or 256
    if limit and context + output > limit:
        raise SizingInputError(
            f"context + output = {context + output} tokens is beyond the model's "
            f"{limit}-token context",
            field=f"{path}.context_tokens",
            code="context_beyond_model",
            params={"tokens": context + output, "limit": limit},
        )
    values: dict[str, Any] = {
        "context_tokens": context,
        "output_tokens": output,
        **read_numbers(data, path, INFERENCE_LOAD),
        **read_numbers(data, path, LATENCY_TARGETS),
        "kv_cache_precision": read_choice(
            data, "kv_cache_precision", path, KV_PRECISIONS, "bf16"
        ),
        "gpu_count": read_number(
            data, "gpu_count", path, integer=True, maximum=MAX_GPU_COUNT
        ),
        "gpu_memory_fraction": _memory_fraction(data, path),
        "expert_load_balancing": read_bool(data, "expert_load_balancing", path, False),
        "arrival": read_choice(data, "arrival", path, ARRIVALS, "steady"),
        "output_lengths": read_choice(
            data, "output_lengths", path, OUTPUT_LENGTHS, "varied"
        ),
    }
    if not any(values[field.name] for field in INFERENCE_LOAD):
        values["concurrent_requests"] = 1  # no load given: one request at a time
    return seq_len or context + output, values


def _memory_fraction(data: dict, path: str) -> float:
    """The serving engine's memory fraction: 0.5 to 1 (vLLM rejects > 1), default 0.9."""
    fraction = read_number(data, "gpu_memory_fraction", path, maximum=1)
    return DEFAULT_GPU_MEMORY_FRACTION if fraction is None else fraction


def _pue(data: dict) -> float | None:
    pue = read_number(data, "pue", "constraints", maximum=5)
    if pue is not None and pue < 1.0:
        raise SizingInputError(
            "must be between 1 and 5",
            field="constraints.pue",
            code="below_minimum",
            params={"minimum": 1.0, "maximum": 5.0, "integer": False},
        )
    return pue


def constraints_from_dict(data: Any) -> Constraints:
    """Parse the API body's optional ``constraints`` object."""
    path = "constraints"
    if data is None:
        return Constraints()
    if not isinstance(data, dict):
        raise SizingInputError("must be an object", field=path, code="not_an_object")
    base = Constraints()
    eco = data.get("preferred_ecosystem")
    fabric = data.get("preferred_fabric")
    return replace(
        base,
        region=read_choice(data, "region", path, REGIONS, "global"),
        rack_power_limit_kw=read_number(data, "rack_power_limit_kw", path),
        liquid_cooling_ok=read_bool(data, "liquid_cooling_ok", path, False),
        preferred_ecosystem=None
        if eco is None
        else read_choice(data, "preferred_ecosystem", path, ECOSYSTEMS, None),
        preferred_fabric=None
        if fabric is None
        else read_choice(data, "preferred_fabric", path, FABRICS, None),
        budget_usd=read_number(data, "budget_usd", path),
        data_growth_per_year=read_number(
            data, "data_growth_per_year", path, allow_zero=True, maximum=10
        )
        or 0.0,
        planning_years=read_number(data, "planning_years", path, maximum=30) or 3.0,
        pue=_pue(data),
        fx_cny_per_usd=read_number(data, "fx_cny_per_usd", path)
        or DEFAULT_FX_CNY_PER_USD,
        electricity_usd_per_kwh=read_number(data, "electricity_usd_per_kwh", path),
        time_shared=read_bool(data, "time_shared", path, False),
        data_tb=read_number(data, "data_tb", path, allow_zero=True),
    )
