"""The engine's training-layout, fit-remedy and platform words in the user's language:
the names of the quantities the layout search, the efficiency model, the NIC cap and the
rack ceiling add to a result, what each remedy changes, and the pipeline schedules."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

#: Names of the explained quantities ("section.key").
TRAINING_QUANTITY_LABELS: dict[str, Any] = {
    "training.recompute_flops": _("Recompute FLOPs"),
    "training.attention_flops_per_token": _("Attention FLOPs per token"),
    "training.lora_trainable_share": _("LoRA trainable share"),
    "memory.attention_values_per_token": _("Attention values kept per token"),
    "memory.quantised_params_share": _("Quantised share of the weights"),
    "memory.context_limit_tokens": _("Model's context limit"),
    "training.matmul_ceiling": _("Matmul ceiling (share of peak)"),
    "training.gemm_time_share": _("GEMM share of the token time"),
    "training.attention_time_share": _("Attention share of the token time"),
    "training.memory_bound_time_share": _("Memory-bound share of the token time"),
    "training.exposed_share": _("Exposed communication and bubble (share of compute)"),
    "training.failures_per_gpu_hour": _("Failures per GPU-hour"),
    "training.restart_min": _("Restart time (minutes)"),
    "training.failure_loss_share": _("Time lost to failures (share)"),
    "training.checkpoint_interval_min": _("Checkpoint interval"),
    "training.scale_factor": _("Scale factor (GPU count)"),
    "training.hfu": _("Hardware FLOPs utilization (HFU)"),
    "training.fits": _("Fits in GPU memory"),
    "training.fit_remedies": _("Changes that make it fit"),
    "parallelism.context": _("Context parallel degree"),
    "parallelism.expert": _("Expert parallel degree"),
    "parallelism.schedule": _("Pipeline schedule"),
    "parallelism.virtual_stages": _("Pipeline chunks per GPU"),
    "parallelism.micro_batches": _("Micro-batches per step"),
    "parallelism.bubble_share": _("Pipeline bubble"),
    "parallelism.communication_share": _("Communication time per step"),
    "memory.pipeline_stage": _("Fullest pipeline stage"),
    "memory.stage_layers": _("Layers on that stage"),
    "memory.in_flight_micro_batches": _("Micro-batches in flight"),
    "interconnect.platform_nics": _("NICs in the server platform"),
    "interconnect.platform_nic_gbps": _("Platform's top NIC speed"),
    "interconnect.fabric_max_nodes": _("Nodes the leaf switches can take"),
    "interconnect.growth_option": _("Growth option (scalable unit)"),
    "power.cooling_ceiling_kw": _("Cooling ceiling per rack"),
    "power.rack_limit_kw": _("Rack power limit used"),
}

#: What each remedy changes (``fit_remedies[].change``).
REMEDY_LABELS: dict[str, Any] = {
    "full_recompute": _("Recompute all activations in the backward pass"),
    "micro_batch_1": _("One sequence per micro-batch"),
    "optimizer_8bit": _("8-bit Adam optimizer states"),
    "more_gpus": _("More GPUs"),
}

SCHEDULE_LABELS: dict[str, Any] = {
    "none": _("no pipeline"),
    "1f1b": "1F1B",
    "interleaved-1f1b": _("interleaved 1F1B"),
}


def schedule_label(schedule: str) -> str:
    return str(SCHEDULE_LABELS.get(schedule, schedule))


def describe_remedies(remedies: list[dict]) -> list[dict]:
    """Each remedy with its change in words and its schedule's name."""
    return [
        {
            **remedy,
            "label": REMEDY_LABELS.get(remedy.get("change", ""), remedy.get("change")),
            "schedule_label": schedule_label(remedy.get("schedule", "")),
        }
        for remedy in remedies
    ]


def remedy_summary(remedy: dict) -> str:
    """One line of an explanation's value: the change, GPUs, GB per GPU, days."""
    label = REMEDY_LABELS.get(remedy.get("change", ""), remedy.get("change", ""))
    return _("%(change)s: %(gpus)s GPUs, %(gb).1f GB/GPU, %(days).1f days") % {
        "change": label,
        "gpus": f"{remedy.get('gpus', 0):,}",
        "gb": remedy.get("per_gpu_gb") or 0.0,
        "days": remedy.get("days") or 0.0,
    }
