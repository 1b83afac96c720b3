"""The sizing engine's texts in the user's language (the engine writes English).

A ``Bottleneck`` carries a stable ``code`` and the numbers behind it (``value``,
``limit``, ``unit``): the pages show a translated title and sentence per code, filled
with those numbers (see the rule per code in ``sizing/engine/bottlenecks.py`` for what
value and limit mean for each code). A code this module does not know (a newer engine)
keeps the engine's own English message. The same goes for the other engine words a page
shows: the plan's combination rule, cooling, workload kinds and explanation quantities.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from . import explanation_texts
from .models import Availability, WorkloadKind
from .training_messages import TRAINING_QUANTITY_LABELS, remedy_summary

#: Short titles (badges) of the engine's bottleneck codes.
BOTTLENECK_TITLES: dict[str, Any] = {
    "accelerator_not_available_in_region": _("Not available in the region"),
    "accelerator_availability_conditional": _("Availability conditional"),
    "memory_exceeds_capacity": _("Does not fit in GPU memory"),
    "memory_headroom_low": _("Little memory headroom"),
    "network_below_need": _("Network below the traffic need"),
    "tensor_parallel_over_pcie": _("Tensor parallelism over PCIe"),
    "gpu_count_set_by_memory": _("GPU count set by memory"),
    "target_days_missed": _("Target duration missed"),
    "fp8_peak_rarely_reached": _("FP8 peak rarely reached"),
    "storage_below_checkpoint_need": _("Storage too slow for checkpoints"),
    "latency_target_unmet": _("Latency target not met"),
    "throughput_below_target": _("Throughput below target"),
    "gpu_count_below_load": _("GPU count below the load"),
    "latency_above_interactive_default": _("Slower than interactive chat"),
    "expert_parallel_over_network": _("Expert parallelism across nodes"),
    "rack_power_above_site_limit": _("Rack power above the site limit"),
    "liquid_cooling_required": _("Liquid cooling required"),
    "software_stack_risk": _("Software stack risk"),
    "estimated_specifications": _("Estimated specifications"),
    "over_budget": _("Over budget"),
}

#: One sentence per code; %(value)s and %(limit)s are the bottleneck's figures,
#: formatted for their unit.
BOTTLENECK_MESSAGES: dict[str, Any] = {
    "accelerator_not_available_in_region": _(
        "This accelerator cannot be bought in the chosen region (export controls or "
        "sales restrictions); see the availability note in the hardware catalogue."
    ),
    "accelerator_availability_conditional": _(
        "This accelerator is only conditionally available in the chosen region "
        "(licences, volume caps or customs approval); confirm delivery with the "
        "vendor and see the availability note in the hardware catalogue."
    ),
    "memory_exceeds_capacity": _(
        "The job needs %(value)s GB per GPU but the GPU has %(limit)s GB: it does not "
        "fit with any parallel layout searched."
    ),
    "memory_headroom_low": _(
        "%(value)s GB per GPU is above %(limit)s GB (90 %% of the GPU memory): less "
        "than 10 %% of the memory is left free."
    ),
    "network_below_need": _(
        "Gradient traffic needs %(value)s Gbit/s per GPU but the platform's NICs give "
        "%(limit)s Gbit/s per GPU: communication will not hide behind compute."
    ),
    "tensor_parallel_over_pcie": _(
        "Tensor parallel degree %(value)s exceeds the scale-up domain of %(limit)s "
        "GPUs: tensor-parallel traffic crosses PCIe."
    ),
    "gpu_count_set_by_memory": _(
        "%(value)s GPUs are needed to fit the job in memory, more than the time "
        "target alone needs."
    ),
    "target_days_missed": _(
        "With the GPU count given, training takes %(value)s days, longer than the "
        "target of %(limit)s days."
    ),
    "fp8_peak_rarely_reached": _(
        "FP8 speeds the linear layers up about 1.42x, not 2x (attention stays in "
        "BF16), so the MFU against the FP8 peak is well below the BF16 MFU; this "
        "estimate uses an MFU of %(value)s."
    ),
    "storage_below_checkpoint_need": _(
        "The fastest parallel file system tier writes %(value)s GB/s, below the "
        "%(limit)s GB/s needed to write a checkpoint within the stall budget."
    ),
    "latency_target_unmet": _(
        "Even one request per replica misses the latency target: TPOT %(value)s ms "
        "against a target of %(limit)s ms."
    ),
    "throughput_below_target": _(
        "The GPU count given serves %(value)s requests/s, below the target load of "
        "%(limit)s requests/s."
    ),
    "latency_above_interactive_default": _(
        "No TTFT/TPOT target was given and the plan takes %(value)s ms per output "
        "token (or more than 2 s to the first token): slower than interactive chat "
        "(%(limit)s ms per token, 2 s to the first). Set the workload's targets if "
        "people read the answers as they stream."
    ),
    "gpu_count_below_load": _(
        "The %(value)s GPUs given cannot carry the concurrent requests within the "
        "TTFT/TPOT targets; the load needs %(limit)s GPUs (0: no count of this "
        "accelerator meets the targets)."
    ),
    "expert_parallel_over_network": _(
        "The experts of one replica are spread over %(value)s GPUs, more than the "
        "%(limit)s of one scale-up domain: every MoE layer dispatches and combines "
        "tokens over the scale-out network, so its NICs carry decode traffic."
    ),
    "rack_power_above_site_limit": _(
        "One node draws %(value)s kW, more than the site's rack power limit of "
        "%(limit)s kW."
    ),
    "liquid_cooling_required": _(
        "The platform is liquid-cooled (racks of %(value)s kW) and the site has no "
        "liquid cooling."
    ),
    "software_stack_risk": _(
        "The %(value)s software stack is not CUDA: CUDA-only kernels and extensions "
        "must be ported and framework support checked."
    ),
    "estimated_specifications": _(
        "There is no vendor datasheet for this accelerator: its figures are estimates."
    ),
    "over_budget": _(
        "GPU capex plus energy comes to %(value)s USD, above the budget of %(limit)s "
        "USD."
    ),
}

#: Decimals shown per unit of a bottleneck's figures.
_DIGITS = {
    "GB": 1,
    "Gbit/s": 1,
    "GPUs": 0,
    "days": 1,
    "share": 2,
    "GB/s": 1,
    "ms": 1,
    "requests/s": 1,
    "kW": 1,
    "USD": 0,
}
#: Counting units as the value columns show them (physical units stay as they are).
UNIT_LABELS: dict[str, Any] = {
    "GPUs": pgettext_lazy("unit", "GPUs"),
    "days": pgettext_lazy("unit", "days"),
    "requests/s": _("requests/s"),
    "nodes": pgettext_lazy("unit", "nodes"),
    "switches": pgettext_lazy("unit", "switches"),
    "replicas": pgettext_lazy("unit", "replicas"),
    "layers": pgettext_lazy("unit", "layers"),
    "tiers": pgettext_lazy("unit", "tiers"),
    "racks": pgettext_lazy("unit", "racks"),
    "cables": pgettext_lazy("unit", "cables"),
    "tokens": pgettext_lazy("unit", "tokens"),
    "requests": pgettext_lazy("unit", "requests"),
    "ports": pgettext_lazy("unit", "ports"),
    "feeds": pgettext_lazy("unit", "feeds"),
    "NICs": pgettext_lazy("unit", "NICs"),
    "experts": pgettext_lazy("unit", "experts"),
    "layouts": pgettext_lazy("unit", "layouts"),
    "share": "",
    "bool": "",
}
#: Words the engine puts in value/limit (availability status, software ecosystem).
_STATUS_LABELS = {choice.value: choice.label for choice in Availability}
_ECOSYSTEMS = {"cuda": "CUDA", "rocm": "ROCm", "cann": "CANN", "synapseai": "SynapseAI"}


def _figure(value: Any, unit: str) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int | float):
        digits = _DIGITS.get(unit, 1)
        if digits == 0 or float(value).is_integer():
            return f"{value:,.0f}"
        return f"{value:,.{digits}f}"
    text = str(value)
    return str(_STATUS_LABELS.get(text) or _ECOSYSTEMS.get(text.lower()) or text)


def describe_bottleneck(bottleneck: dict) -> dict:
    """The bottleneck with ``title``, ``text`` (the sentence) and ``value_text`` /
    ``limit_text`` (figure and unit) in the active language: plain strings, fixed
    when called (not lazy), like every other text this module hands out."""
    code = bottleneck.get("code", "")
    unit = bottleneck.get("unit") or ""
    value = _figure(bottleneck.get("value"), unit)
    limit = _figure(bottleneck.get("limit"), unit)
    template = BOTTLENECK_MESSAGES.get(code)
    text = (
        str(template) % {"value": value, "limit": limit}
        if template is not None
        else bottleneck.get("message", "")
    )
    unit_text = str(UNIT_LABELS.get(unit, unit))

    def shown(figure: str) -> str:
        return f"{figure} {unit_text}".strip() if figure else ""

    return {
        **bottleneck,
        "title": str(BOTTLENECK_TITLES.get(code, code)),
        "text": text,
        "value_text": shown(value),
        "limit_text": shown(limit),
    }


def describe_bottlenecks(bottlenecks: list[dict]) -> list[dict]:
    return [describe_bottleneck(b) for b in bottlenecks]


def warning_titles(codes: list[str]) -> list[str]:
    """Bottleneck codes (an alternative's warnings) as their translated titles."""
    return [str(BOTTLENECK_TITLES.get(code, code)) for code in codes]


COMBINATION_RULES: dict[str, Any] = {
    "time-shared: GPUs = max over workloads": _(
        "time-shared: GPUs = the largest workload's count"
    ),
    "partitioned: GPUs = sum over workloads": _(
        "partitioned: GPUs = sum over the workloads"
    ),
}
COOLING_LABELS: dict[str, Any] = {
    "air": _("air cooling"),
    "liquid": _("liquid cooling"),
}
_KIND_LABELS = {choice.value: choice.label for choice in WorkloadKind}


#: The engine's compatibility risks (``_compatibility`` in estimate.py).
RISK_LABELS: dict[str, Any] = {
    "CUDA-only kernels and extensions must be ported": _(
        "CUDA-only kernels and extensions must be ported"
    ),
    "consumer GPU: licence terms and no NVLink": _(
        "consumer GPU: licence terms and no NVLink"
    ),
    "no FP8 support": _("no FP8 support"),
}


def risk_labels(risks: list[str]) -> list[str]:
    return [str(RISK_LABELS.get(risk, risk)) for risk in risks]


def combination_rule(rule: str) -> str:
    return str(COMBINATION_RULES.get(rule, rule))


def cooling_label(cooling: str) -> str:
    return str(COOLING_LABELS.get(cooling, cooling))


def ecosystem_label(ecosystem: str) -> str:
    return _ECOSYSTEMS.get(ecosystem, ecosystem)


def kind_label(kind: str) -> str:
    return str(_KIND_LABELS.get(kind, kind))


#: Why a workload is sized at its weight precision (engine result ``precision.source``).
PRECISION_SOURCES: dict[str, Any] = {
    "requested": _("chosen in the workload"),
    "published": _("the model's published precision (no precision chosen)"),
    "training_default": _("the training default (no precision chosen)"),
}


def precision_text(precision: dict | None) -> str:
    """ "FP8: the model's published precision (no precision chosen)"; "" for plans
    computed before the engine reported it."""
    if not precision or not precision.get("weights"):
        return ""
    source = precision.get("source", "")
    reason = str(PRECISION_SOURCES.get(source, source))
    weights = str(precision["weights"]).upper()
    return f"{weights}: {reason}" if reason else weights


#: Names of the explained quantities ("section.key" as the engine writes them).
QUANTITY_LABELS: dict[str, Any] = {
    "accelerator": _("Accelerator"),
    "gpu_count": _("Number of GPUs"),
    "nodes": _("Nodes"),
    "cost.capex_usd": _("GPU capex (USD)"),
    "cost.energy_usd": _("Energy cost (USD)"),
    "cost.total_usd": _("GPU capex plus energy (USD)"),
    "inference.batch_per_replica": _("Batch per replica"),
    "inference.burst_prefill_tokens": _(
        "Prompt tokens prefilled before the first token"
    ),
    "inference.burst_makespan_s": _("Time to finish the burst"),
    "inference.decode_step_ms": _("Decode step"),
    "inference.layer_overhead_ms": _("Fixed overhead per decode step"),
    "inference.concurrency_per_replica": _("Concurrent requests per replica"),
    "inference.concurrency_served": _("Concurrent requests served within the targets"),
    "inference.gpus_needed": _("GPUs the load needs"),
    "inference.experts_touched": _("Experts read per decode step"),
    "inference.kv_cache_gb_per_request": _("KV cache per request"),
    "inference.kv_precision": _("KV cache precision"),
    "inference.layouts_searched": _("Serving layouts searched"),
    "inference.max_batch_by_memory": _("Largest batch the memory holds"),
    "inference.memory_budget_gb": _("Serving memory budget per GPU"),
    "inference.gemm_efficiency": _("GEMM efficiency"),
    "inference.linear_state_gb_per_request": _(
        "Fixed linear-attention state per request"
    ),
    "inference.expert_imbalance": _("Expert load imbalance"),
    "inference.grouped_gemm_efficiency": _("Grouped-GEMM efficiency"),
    "inference.attention_barrier": _("Attention/MoE barrier"),
    "inference.expert_step_ms": _("Routed experts per decode step"),
    "inference.layer_collective_ms": _("Collectives per layer"),
    "inference.peak_tflops": _("Peak TFLOPS per GPU"),
    "inference.prefill_ms": _("Prefill of one request"),
    "inference.replicas": _("Replicas"),
    "inference.requests_per_second": _("Requests per second"),
    "inference.tokens_per_second": _("Tokens per second"),
    "inference.tpot_ms": _("Time per output token (TPOT)"),
    "inference.ttft_ms": _("Time to first token (TTFT)"),
    "inference.weights_total_gb": _("Weights of the whole model"),
    "interconnect.cables": _("Cables"),
    "interconnect.core_switches": _("Core switches"),
    "interconnect.fabric": _("Network fabric"),
    "interconnect.fat_tree_tiers": _("Fat-tree tiers"),
    "interconnect.leaf_switches": _("Leaf switches"),
    "interconnect.nic_gbps": _("NIC speed"),
    "interconnect.nics_per_node": _("NICs per node"),
    "interconnect.rail_optimized": _("Rail-optimized"),
    "interconnect.scale_out_gbps_per_gpu": _("Scale-out bandwidth needed per GPU"),
    "interconnect.scaleup_domain_gpus": _("GPUs in the scale-up domain"),
    "interconnect.spine_switches": _("Spine switches"),
    "interconnect.switch": _("Switch model"),
    "interconnect.switch_radix": _("Switch radix (ports)"),
    "interconnect.tensor_parallel_in_domain": _("Tensor parallelism inside the domain"),
    "memory.activations_gb": _("Activations per GPU"),
    "memory.capacity_gb": _("GPU memory capacity"),
    "memory.gradients_gb": _("Gradients per GPU"),
    "memory.headroom_share": _("Memory headroom"),
    "memory.kv_cache_bytes_per_token": _("KV cache per token"),
    "memory.kv_cache_gb": _("KV cache per GPU"),
    "memory.optimizer_gb": _("Optimizer states per GPU"),
    "memory.overhead_gb": _("Framework overhead per GPU"),
    "memory.per_gpu_gb": _("Memory needed per GPU"),
    "memory.weights_gb": _("Weights per GPU"),
    "parallelism.attention_data": _("Data-parallel attention ranks"),
    "parallelism.data": _("Data parallel degree"),
    "parallelism.decode_context": _("Decode context parallel degree"),
    "parallelism.expert": _("Expert parallel degree"),
    "parallelism.pipeline": _("Pipeline parallel degree"),
    "parallelism.tensor": _("Tensor parallel degree"),
    "parallelism.zero_stage": _("ZeRO stage"),
    "power.annual_mwh": _("Energy per year"),
    "power.cooling": _("Cooling"),
    "power.facility_kw": _("Facility power"),
    "power.feeds_per_rack": _("Power feeds per rack"),
    "power.it_kw": _("IT power"),
    "power.node_kw": _("Power per node"),
    "power.nodes_per_rack": _("Nodes per rack"),
    "power.pue": _("PUE"),
    "power.rack_kw": _("Power per rack"),
    "power.racks": _("Racks"),
    "power.redundant_feeds": _("Redundant power feeds"),
    "power.tflops_per_kw": _("TFLOPS per kW"),
    "storage.capacity_tb": _("Storage capacity"),
    "storage.checkpoint_gb": _("Checkpoint size"),
    "storage.checkpoint_write_gbs": _("Checkpoint write bandwidth needed"),
    "storage.dataset_tb": _("Dataset size (planning horizon)"),
    "storage.dataset_tb_now": _("Dataset size today"),
    "storage.parallel_fs_write_gbs": _("Parallel file system write bandwidth"),
    "storage.read_gbs_per_gpu": _("Read bandwidth per GPU"),
    "storage.read_gbs_total": _("Total read bandwidth"),
    "storage.tiers": _("Storage tiers"),
    "training.days": _("Training duration"),
    "training.goodput": _("Goodput (useful share of time)"),
    "training.gpu_hours": _("GPU-hours"),
    "training.memory_limited": _("GPU count set by memory"),
    "training.mfu": _("Model FLOPs utilization (MFU)"),
    "training.peak_tflops": _("Peak TFLOPS per GPU"),
    "training.total_flops": _("Total training FLOPs"),
    **TRAINING_QUANTITY_LABELS,
}


def _explained_value(value: Any) -> Any:
    """A readable figure: a few significant digits, words for yes/no."""
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if abs(value) >= 1e7:
            return f"{value:.4g}"
        if value.is_integer():
            return f"{value:,.0f}"
        if abs(value) >= 100:
            return f"{value:,.1f}"
        return f"{value:.4g}"
    if isinstance(value, str):
        return str(COOLING_LABELS.get(value, value))
    if isinstance(value, list) and all(isinstance(v, dict) for v in value):
        return "; ".join(remedy_summary(v) for v in value) if value else "—"
    return value


def quantity_label(quantity: str) -> str:
    """The label of an explained quantity ("memory.per_gpu_gb", or a workload's
    "w0.memory.per_gpu_gb") in the active language; "" for one without a label."""
    parts = quantity.split(".")
    key = ".".join(parts[-2:]) if len(parts) > 1 else quantity
    return str(QUANTITY_LABELS.get(key) or QUANTITY_LABELS.get(parts[-1], ""))


def labelled_result(result: dict) -> dict:
    """A plan's result as the API returns it: every explanation entry (the plan's and
    each workload's) with its ``label`` in the requested language beside its key."""

    def labelled(entries: list) -> list:
        return [
            {**e, "label": quantity_label(e.get("quantity", ""))}
            if isinstance(e, dict)
            else e
            for e in entries
        ]

    out = dict(result)
    if isinstance(out.get("explanation"), list):
        out["explanation"] = labelled(out["explanation"])
    if isinstance(out.get("workloads"), list):
        out["workloads"] = [
            {**w, "explanation": labelled(w["explanation"])}
            if isinstance(w, dict) and isinstance(w.get("explanation"), list)
            else w
            for w in out["workloads"]
        ]
    return out


def describe_explanation(entries: list[dict]) -> list[dict]:
    """Explanation rows in the active language: the quantity's ``label`` (its code is
    kept as ``quantity``), the ``formula`` in words (the engine's symbols kept as
    ``formula_symbols``), the unit, and the ``source`` as a readable citation."""
    rows = []
    for entry in entries:
        quantity = entry.get("quantity", "")
        parts = quantity.split(".")
        # Plan-level rows of a workload carry its prefix: "w0.memory.per_gpu_gb".
        key = ".".join(parts[-2:]) if len(parts) > 1 else quantity
        label = quantity_label(quantity)
        formula = entry.get("formula", "")
        unit = entry.get("unit", "")
        words = (
            str(COMBINATION_RULES[formula])
            if formula in COMBINATION_RULES
            else explanation_texts.formula_words(key)
            or explanation_texts.formula_words(parts[-1])
        )
        rows.append(
            {
                **entry,
                "label": str(label),
                "value": _explained_value(entry.get("value")),
                "unit": str(
                    UNIT_LABELS.get(
                        unit, explanation_texts.EXTRA_UNIT_LABELS.get(unit, unit)
                    )
                ),
                "formula": words or formula,
                "formula_symbols": formula,
                "source": explanation_texts.readable_source(entry.get("source", "")),
            }
        )
    return rows
