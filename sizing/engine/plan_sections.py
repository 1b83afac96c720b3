"""The ``training`` and ``parallelism`` sections: how long and how the model is split,
each value with the formula and source behind it (serving: ``serving_section``)."""

from __future__ import annotations

from .explain import Explainer, Section
from .model import param_counts
from .serving_section import serving_parallelism
from .sized_workload import SizedWorkload

LAYOUT_KEYS = ("tensor", "pipeline", "data", "zero_stage")


def training_section(sized: SizedWorkload, explainer: Explainer) -> dict:
    plan, workload = sized.training, sized.workload
    assert plan is not None
    section = Section(explainer, "training")
    section.put(
        key="total_flops",
        value=plan.total_flops,
        unit="FLOP",
        formula="(6N + 12 L s H Q) x D [+ recompute: full 2N + 4LsHQ, selective "
        "4LsHQ per token]; LoRA (4 + 2f) N",
        inputs={
            "params_active": param_counts(workload.model)[1],
            "tokens": (workload.tokens_b or 0) * 1e9,
            "seq_len": workload.seq_len,
            "recompute": workload.recompute,
            "model_flops": plan.model_flops,
            "recompute_flops": plan.recompute_flops,
        },
        source="Kaplan et al. 2020; PaLM (Chowdhery et al. 2022) App. B; "
        "Korthikanti et al. 2022",
    )
    section.put(
        key="mfu",
        value=plan.mfu,
        unit="share",
        formula="override"
        if plan.mfu_overridden
        else "family base x scale factor (-5 %/doubling above 1,024 GPUs) x 0.55 "
        "for FP8 x 0.85 for MoE",
        inputs={
            "family": sized.accelerator.family,
            "gpus": plan.gpus,
            "precision": workload.precision,
        },
        source="calibrated on Llama 2, Llama 3.1 405B, DeepSeek-V3 "
        "(docs/methodology.md)",
    )
    section.put(
        key="goodput",
        value=plan.goodput,
        unit="share",
        formula="1 / (1 + N x 1.97e-5 /GPU-h x 0.25 h) x (1 - checkpoint stall share)",
        inputs={"gpus": plan.gpus, "stall_share": workload.checkpoint_stall_share},
        source="Llama 3: 419 unexpected interruptions in 54 days on 16,384 GPUs",
    )
    _training_time(section, sized)
    return section.values


def _training_time(section: Section, sized: SizedWorkload) -> None:
    plan = sized.training
    assert plan is not None
    section.put(
        key="peak_tflops",
        value=plan.peak_tflops,
        unit="TFLOPS",
        formula=f"dense {sized.workload.precision} peak per GPU (not sparse)",
        inputs={},
        source="accelerators.csv",
    )
    section.put(
        key="days",
        value=plan.days,
        unit="days",
        formula="total_flops / (GPUs x peak x MFU) / goodput / 86400",
        inputs={
            "gpus": plan.gpus,
            "peak_tflops": plan.peak_tflops,
            "mfu": plan.mfu,
            "goodput": plan.goodput,
        },
        source="sizing-formulas section 7",
    )
    section.put(
        key="gpu_hours",
        value=plan.gpu_hours,
        unit="GPU-h",
        formula="days x 24 x GPUs",
        inputs={},
    )
    section.put(
        key="memory_limited",
        value=plan.memory_limited,
        unit="bool",
        formula="GPU count raised above the time target so a layout fits",
        inputs={},
    )


def parallelism_section(sized: SizedWorkload, explainer: Explainer) -> dict:
    """Training: the searched layout; serving: the split of one replica and the copies."""
    if sized.training:
        layout = sized.training.choice.layout
        values = (layout.tensor, layout.pipeline, layout.data, layout.zero_stage)
        formula = (
            "least communication + bubble time among layouts fitting with 10 % "
            "headroom (TP within node, PP powers of two, ZeRO 0-3)"
        )
    else:
        return serving_parallelism(sized, explainer)
    section = Section(explainer, "parallelism")
    for key, value in zip(LAYOUT_KEYS, values, strict=True):
        section.put(
            key=key,
            value=value,
            unit="",
            formula=formula,
            inputs={},
            source="Narayanan et al. 2021; Rajbhandari et al. 2020",
        )
    return section.values
