"""The ``training`` and ``parallelism`` sections: how long and how the model is split,
each value with the formula and source behind it (serving: ``serving_section``)."""

from __future__ import annotations

from .explain import Explainer, Section
from .goodput import DEFAULT_CHECKPOINT_INTERVAL_MIN, MIN_CHECKPOINT_INTERVAL_MIN
from .model import attention_flops_per_token, param_counts
from .serving_section import serving_parallelism
from .sized_workload import SizedWorkload

LAYOUT_KEYS = ("tensor", "pipeline", "data", "zero_stage")
TRAINING_ONLY_KEYS = (
    "context",
    "expert",
    "schedule",
    "virtual_stages",
    "micro_batches",
    "bubble_share",
    "communication_share",
)


SRC_EFFICIENCY = (
    "roofline of the layer's shapes, no fitted constant: MAMF (ml-engineering); "
    "DeepGEMM README (FP8 share); FlashAttention-2 (Dao 2023), FlashAttention-3 "
    "(Shah et al. 2024); DeepSeek-V3 report 3.2.1 (MoE); Llama 3 paper Table 4 (scale)"
)


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
        key="recompute_flops",
        value=plan.recompute_flops,
        unit="FLOP",
        formula="extra forward of recomputed activations: full 2N + 4LsHQ, selective "
        "4LsHQ per token",
        inputs={"recompute": workload.recompute},
        source="Korthikanti et al. 2022, section 5",
    )
    _attention_and_lora(section, sized)
    _efficiency(section, sized)
    _training_time(section, sized)
    _fit(section, sized)
    return section.values


def _attention_and_lora(section: Section, sized: SizedWorkload) -> None:
    """The attention FLOPs by each layer's span, and the LoRA adapters' share."""
    workload = sized.workload
    m = workload.model
    local = m.sliding_window_layers if m.sliding_window_tokens else 0
    section.put(
        key="attention_flops_per_token",
        value=attention_flops_per_token(m, workload.seq_len),
        unit="FLOP",
        formula="12 x (L_full s + L_sliding min(s, 2w) + L_chunked min(s, c)) x H Q; "
        "linear-attention layers 0",
        inputs={
            "seq_len": workload.seq_len,
            "layers": m.layers,
            "local_layers": local,
            "window": m.sliding_window_tokens,
            "local_attention": m.local_attention,
            "linear_attention_layers": m.linear_attention_layers,
        },
        source="PaLM (Chowdhery et al. 2022) App. B; gpt-oss and Llama 4 config.json "
        "(sliding_window, attention_chunk_size)",
    )
    if not workload.is_lora:
        return
    section.put(
        key="lora_trainable_share",
        value=workload.lora_trainable_fraction,
        unit="share",
        formula="r x sum of (d_in + d_out) over the adapted matrices / parameters "
        "(targets: all_linear, no_routed_experts, attention)",
        inputs={"lora_rank": workload.lora_rank, "lora_targets": workload.lora_targets},
        source="Hu et al. 2021 (LoRA); PEFT target_modules all-linear; Unsloth MoE "
        "guide (router not adapted)",
    )


def _efficiency(section: Section, sized: SizedWorkload) -> None:
    plan, workload = sized.training, sized.workload
    assert plan is not None
    factors = plan.efficiency
    inputs = {
        "accelerator": sized.accelerator.key,
        "gpus": plan.gpus,
        "hidden_size": workload.model.hidden_size,
        "seq_len": workload.seq_len,
        "precision": workload.precision,
    }
    for key, value, unit, formula in (
        ("matmul_ceiling", factors.ceiling, "share", "measured maximum matmul share"),
        (
            "gemm_time_share",
            factors.gemm_share,
            "share",
            "sum over GEMMs of max(2MKN / (peak x ceiling), bytes / (0.9 x HBM)) + "
            "5 us, x3 (forward, input and weight gradients) / token time",
        ),
        (
            "attention_time_share",
            factors.attention_share,
            "share",
            "7/12 x 12 L s H Q / (16-bit peak x ceiling x 0.68) / token time",
        ),
        (
            "memory_bound_time_share",
            factors.memory_share,
            "share",
            "norms, rotary, residuals, activation, MoE permute, FP8 casts, logits: "
            "bytes / (0.9 x HBM bandwidth) / token time",
        ),
        (
            "scale_factor",
            factors.scale,
            "share",
            "1 / (1 + 0.097 log2(N / 1,024)), N > 1,024",
        ),
    ):
        section.put(
            key=key,
            value=value,
            unit=unit,
            formula=formula,
            inputs=inputs,
            source=SRC_EFFICIENCY,
        )
    section.put(
        key="hfu",
        value=plan.hfu,
        unit="share",
        formula="buyer's MFU x hardware / model FLOPs"
        if plan.mfu_overridden
        else "hardware FLOPs per token / (token time x peak) x scale; compute time / "
        "step share (dense 0.81, MoE 0.37, each the median optimum of its "
        "calibration rows)",
        inputs=inputs,
        source=SRC_EFFICIENCY,
    )
    section.put(
        key="mfu",
        value=plan.mfu,
        unit="share",
        formula="override" if plan.mfu_overridden else "HFU x model / hardware FLOPs",
        inputs=inputs,
        source=SRC_EFFICIENCY,
    )
    _goodput(section, sized)


SRC_GOODPUT = (
    "Llama 3 (Grattafiori et al. 2024) section 3.3.4: 419 unexpected of 466 "
    "interruptions in 54 days on 16,384 H100; Huawei MindCluster resumable-training "
    "guide (lost time = checkpoint period / 2 + restart); OPT-175B (Zhang et al. "
    "2022) section 2.5 (manual restarts)"
)


def _goodput(section: Section, sized: SizedWorkload) -> None:
    plan, workload = sized.training, sized.workload
    assert plan is not None
    restart = workload.restart
    section.put(
        key="failures_per_gpu_hour",
        value=restart.failures_per_gpu_hour,
        unit="1/GPU-h",
        formula="buyer's figure, or 419 / (16,384 GPUs x 54 days x 24 h)",
        inputs={"overridden": workload.failures_per_gpu_hour is not None},
        source=SRC_GOODPUT,
    )
    section.put(
        key="restart_min",
        value=restart.restart_min,
        unit="min",
        formula="buyer's figure, or by restart practice: automated 10, manual 120",
        inputs={"restart_practice": workload.restart_practice},
        source=SRC_GOODPUT,
    )
    stall = workload.checkpoint_stall_share
    interval = restart.interval_min(plan.gpus, stall)
    section.put(
        key="checkpoint_interval_min",
        value=interval,
        unit="min",
        formula=f"buyer's figure, or min({DEFAULT_CHECKPOINT_INTERVAL_MIN:g}, max("
        f"{MIN_CHECKPOINT_INTERVAL_MIN:g}, 2 s / (lambda N))): the interval whose "
        "rollback equals the checkpoint stall",
        inputs={
            "overridden": workload.checkpoint_interval_min is not None,
            "gpus": plan.gpus,
            "checkpoint_stall_share": stall,
            "failures_per_gpu_hour": restart.failures_per_gpu_hour,
        },
        source="Young 1974 (optimum checkpoint interval); Daly 2006; " + SRC_GOODPUT,
    )
    section.put(
        key="failure_loss_share",
        value=restart.failure_loss(plan.gpus, stall),
        unit="share",
        formula="lambda x N x (restart + checkpoint interval / 2)",
        inputs={
            "gpus": plan.gpus,
            "failures_per_gpu_hour": restart.failures_per_gpu_hour,
            "restart_min": restart.restart_min,
            "checkpoint_interval_min": interval,
        },
        source=SRC_GOODPUT,
    )
    section.put(
        key="goodput",
        value=plan.goodput,
        unit="share",
        formula="(1 - checkpoint stall share) / (1 + lambda N (R + tau / 2))",
        inputs={
            "gpus": plan.gpus,
            "stall_share": workload.checkpoint_stall_share,
            "restart_practice": workload.restart_practice,
        },
        source=SRC_GOODPUT,
    )


def _training_time(section: Section, sized: SizedWorkload) -> None:
    plan = sized.training
    assert plan is not None
    section.put(
        key="exposed_share",
        value=plan.exposed_share,
        unit="share",
        formula="(tensor + context + pipeline traffic time + data-parallel time beyond "
        "2/3 of the step + pipeline bubble) / the step's compute",
        inputs={
            "tensor": plan.choice.layout.tensor,
            "pipeline": plan.choice.layout.pipeline,
            "data": plan.choice.layout.data,
            "bubble_s": plan.choice.bubble_s,
            "step_compute_s": plan.choice.step_compute_s,
        },
        source="Narayanan et al. 2021 (bubble (p - 1) / (v m)); sizing-formulas "
        "section 8; PyTorch DDP / Megatron distributed optimizer (gradients overlap "
        "the backward pass)",
    )
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
        formula="total_flops / (GPUs x peak x HFU) x (1 + exposed share) / goodput "
        "/ 86400",
        inputs={
            "gpus": plan.gpus,
            "peak_tflops": plan.peak_tflops,
            "hfu": plan.hfu,
            "exposed_share": plan.exposed_share,
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


def _fit(section: Section, sized: SizedWorkload) -> None:
    plan = sized.training
    assert plan is not None
    section.put(
        key="fits",
        value=plan.choice.fits,
        unit="bool",
        formula="the chosen layout's memory per GPU <= the GPU's memory",
        inputs={"per_gpu_gb": plan.choice.memory.total / 1e9},
        source="memory section",
    )
    section.put(
        key="fit_remedies",
        value=[remedy.to_dict() for remedy in plan.remedies],
        unit="",
        formula="when nothing fits: each single change (full recompute, micro-batch "
        "1, 8-bit optimizer states, more GPUs) that makes a layout fit, sized like "
        "the plan; cheapest GPU-hours first",
        inputs={"gpus": plan.gpus},
        source="Korthikanti et al. 2022 (recompute); Dettmers et al. 2022 (8-bit "
        "optimizers); docs/methodology.md A.5",
    )


def parallelism_section(sized: SizedWorkload, explainer: Explainer) -> dict:
    """Training: the searched layout; serving: the split of one replica and the copies."""
    if not sized.training:
        return serving_parallelism(sized, explainer)
    section = Section(explainer, "parallelism")
    _training_layout(section, sized)
    return section.values


def _training_layout(section: Section, sized: SizedWorkload) -> None:
    choice = sized.training.choice  # type: ignore[union-attr]
    layout = choice.layout
    formula = (
        "least communication + bubble time among layouts fitting with 10 % headroom "
        "(TP within node, CP for long sequences, PP powers of two with 1F1B or "
        "interleaved 1F1B, EP for MoE, ZeRO 0-3)"
    )
    source = "Narayanan et al. 2021; Rajbhandari et al. 2020; Llama 3 paper 3.3.2"
    for key, value, unit in (
        ("tensor", layout.tensor, ""),
        ("pipeline", layout.pipeline, ""),
        ("data", layout.data, ""),
        ("zero_stage", layout.zero_stage, ""),
        ("context", layout.context, ""),
        ("expert", layout.expert, ""),
        ("schedule", layout.schedule, ""),
        ("virtual_stages", layout.virtual_stages, ""),
        ("micro_batches", choice.micro_batches, ""),
    ):
        section.put(key=key, value=value, unit=unit, formula=formula, source=source)
    step_s = choice.step_compute_s
    section.put(
        key="bubble_share",
        value=choice.bubble_s / step_s if step_s else 0.0,
        unit="share",
        formula="(p - 1) / (v x m) of the step's compute (1F1B: v = 1)",
        inputs={"pipeline": layout.pipeline, "micro_batches": choice.micro_batches},
        source="Narayanan et al. 2021, sections 2.2.1-2.2.2",
    )
    section.put(
        key="communication_share",
        value=choice.comm_s / step_s if step_s else 0.0,
        unit="share",
        formula="TP + CP + EP + PP + DP bytes / (link x 0.8), over the step's compute "
        "(before overlap)",
        inputs={
            "tensor_bytes": choice.traffic.tensor_bytes,
            "context_bytes": choice.traffic.context_bytes,
            "expert_bytes": choice.traffic.expert_bytes,
            "pipeline_bytes": choice.traffic.pipeline_bytes,
            "data_bytes": choice.traffic.data_bytes,
        },
        source="sizing-formulas section 8; hardware-facts 2c",
    )
