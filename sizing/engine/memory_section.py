"""The ``memory`` section: what one GPU holds, term by term, and how much is left free."""

from __future__ import annotations

from .activations import attention_values_per_token
from .explain import Explainer, Section
from .memory import GB
from .model import kv_cache_bytes_per_token, quantised_param_share
from .sized_workload import SizedWorkload

SRC_MEM = "Korthikanti et al. 2022; ZeRO (Rajbhandari et al. 2020); sizing-formulas 3-5"


SRC_ACTIVATIONS = (
    "Korthikanti et al. 2022, section 4 and Table 2; Narayanan et al. 2021 (1F1B, "
    "interleaved); Megatron-LM theoretical_memory_usage.py; Llama 3 paper 3.3.2"
)


def _training_terms(section: Section, sized: SizedWorkload) -> None:
    workload, choice = sized.workload, sized.training.choice  # type: ignore[union-attr]
    memory, layout = choice.memory, choice.layout
    inputs = {
        "tensor": layout.tensor,
        "context": layout.context,
        "pipeline": layout.pipeline,
        "data": layout.data,
        "expert": layout.expert,
        "zero_stage": layout.zero_stage,
        "precision": workload.precision,
        "base_precision": workload.base_precision,
        "optimizer": workload.optimizer,
        "recompute": workload.recompute,
        "lora_trainable_fraction": workload.lora_trainable_fraction,
    }
    for key, value_bytes, formula in (
        (
            "weights_gb",
            memory.weights,
            "stage params / t (experts / t e) x 2 B (4 B fp32); LoRA: frozen base at "
            "its precision (4-bit: 0.516 B, embeddings and norms 2 B) + adapters 2 B; "
            "ZeRO-3: / (d c) + 4 x largest layer",
        ),
        (
            "gradients_gb",
            memory.gradients,
            "trainable params x 2 B (4 B fp32 accumulation), / (d c) from ZeRO-2",
        ),
        (
            "optimizer_gb",
            memory.optimizer,
            "trainable params x 12 B (fp32 master + Adam m, v), / (d c) from ZeRO-1",
        ),
    ):
        section.put(
            key=key,
            value=value_bytes / GB,
            unit="GB",
            formula=formula,
            inputs=inputs,
            source=SRC_MEM,
        )
    _activation_terms(section, sized, inputs)
    _not_applicable(section, "kv_cache_gb", "training")
    m = workload.model
    section.put(
        key="attention_values_per_token",
        value=attention_values_per_token(m, workload.recompute),
        unit="",
        formula="MLA: h + q_lora + kv_lora + d_rope + H d_v (up-projections "
        "recomputed; no recompute: + 2 H (d_nope + d_rope) + H d_v); GQA: h + 2 a d "
        "+ 2 kv d",
        inputs={
            "hidden_size": m.hidden_size,
            "heads": m.attention_heads,
            "q_lora_rank": m.q_lora_rank,
            "kv_lora_rank": m.kv_lora_rank,
            "recompute": workload.recompute,
        },
        source="DeepSeek-V3 report section 3.2.3; Korthikanti et al. 2022, Table 2",
    )


def _activation_terms(section: Section, sized: SizedWorkload, inputs: dict) -> None:
    workload, choice = sized.workload, sized.training.choice  # type: ignore[union-attr]
    memory = choice.memory
    section.put(
        key="activations_gb",
        value=memory.activations / GB,
        unit="GB",
        formula="per layer and micro-batch s b (4h + h + 2aq + 4kv d + [6f | 4f] x "
        "experts) / (t c) [+ 5 a s^2 b without recompute; GPT dropout masks], x "
        "stage layers x micro-batches in flight; last stage + fp32 logits 4 b s V "
        "/ (t c)",
        inputs={
            **inputs,
            "seq_len": workload.seq_len,
            "micro_batch": workload.micro_batch,
        },
        source=SRC_ACTIVATIONS,
    )
    for key, value, unit, formula in (
        (
            "pipeline_stage",
            memory.stage,
            "",
            "the stage with the most memory: 0 (embedding, p in flight), 1 (most "
            "layers x (p - 1)) or the last (head and logits)",
        ),
        ("stage_layers", memory.stage_layers, "layers", "floor/ceil(L / p) by stage"),
        (
            "in_flight_micro_batches",
            memory.in_flight,
            "",
            "1F1B: min(p - i, m); interleaved: p (1 + (p - 1) / (p v)) on stage 0",
        ),
    ):
        section.put(
            key=key,
            value=value,
            unit=unit,
            formula=formula,
            inputs={"pipeline": choice.layout.pipeline, "m": choice.micro_batches},
            source=SRC_ACTIVATIONS,
        )


def _inference_terms(section: Section, sized: SizedWorkload) -> None:
    workload, plan = sized.workload, sized.inference
    assert plan is not None
    memory = plan.memory
    inputs = {
        "tensor": plan.tensor,
        "pipeline": plan.pipeline,
        "stage_gpus": plan.stage_gpus,
        "expert": plan.expert_parallel,
        "attention_data": plan.attention_data_parallel,
        "precision": workload.precision,
        "batch": plan.batch_per_replica,
    }
    section.put(
        key="weights_gb",
        value=memory.weights / GB,
        unit="GB",
        formula="(attention / t + (FFN + experts + embeddings) / g) / p x bytes"
        "(precision); attention is replicated on each data-parallel attention rank",
        inputs=inputs,
        source="sizing-formulas section 2",
    )
    _not_applicable(section, "gradients_gb", "inference")
    _not_applicable(section, "optimizer_gb", "inference")
    section.put(
        key="activations_gb",
        value=memory.activations / GB,
        unit="GB",
        formula="prefill chunk x (4h + 2 x widest FFN) x 2 B / t + batch x fp32 "
        "logits / g",
        inputs=inputs,
        source="engine assumption (docs/methodology.md)",
    )
    section.put(
        key="kv_cache_gb",
        value=memory.kv_cache / GB,
        unit="GB",
        formula="KV per request x ceil(batch / attention ranks) / p / KV divisor; "
        "divisor min(t, kv_heads) for GQA; for MLA (one latent for all heads) the "
        "decode-context-parallel degree",
        inputs={
            **inputs,
            "kv_divisor": plan.kv_divisor,
            "kv_precision": plan.kv_precision,
            "context": workload.context_tokens,
            "output": workload.output_tokens,
        },
        source="sizing-formulas section 5",
    )


def _not_applicable(section: Section, key: str, kind: str) -> None:
    section.put(
        key=key, value=None, unit="GB", formula=f"not applicable to {kind}", inputs={}
    )


def _model_terms(section: Section, sized: SizedWorkload) -> None:
    """The tensor groups a 4/8-bit precision quantises, and the context limit."""
    workload, m = sized.workload, sized.workload.model
    precision = workload.base_precision or workload.precision
    scope = workload.quant_scope_for(precision)
    section.put(
        key="quantised_params_share",
        value=quantised_param_share(m, scope),
        unit="share",
        formula="parameters in the quantised tensor groups / all parameters (all; "
        "ffn: FFN and experts; routed_experts)",
        inputs={"precision": precision, "quant_scope": scope},
        source="gpt-oss-120b config.json modules_to_not_convert; Kimi-K2-Thinking "
        "model card (INT4 on the MoE components)",
    )
    section.put(
        key="context_limit_tokens",
        value=m.context_limit_tokens,
        unit="tokens",
        formula="max(max_position_embeddings, original context x RoPE scaling factor)",
        inputs={
            "max_position_embeddings": m.max_context_tokens,
            "rope_scaling": m.rope_scaling_type,
            "factor": m.rope_scaling_factor,
            "original_context": m.rope_original_context_tokens,
        },
        source="the model's config.json rope_scaling; Qwen3 docs, Enabling Long "
        "Context (YaRN)",
    )


def memory_section(sized: SizedWorkload, explainer: Explainer) -> dict:
    section = Section(explainer, "memory")
    if sized.training:
        _training_terms(section, sized)
        memory = sized.training.choice.memory
    else:
        _inference_terms(section, sized)
        memory = sized.inference.memory  # type: ignore[union-attr]
    _model_terms(section, sized)
    _totals(section, sized, memory.overhead, memory.total)
    return section.values


def _totals(
    section: Section, sized: SizedWorkload, overhead_bytes: float, total_bytes: float
) -> None:
    workload, acc = sized.workload, sized.accelerator
    serving = not workload.is_training
    section.put(
        key="kv_cache_bytes_per_token",
        value=kv_cache_bytes_per_token(workload.model, workload.kv_cache_precision),
        unit="B",
        formula="2 x layers x kv_heads x head_dim x bytes (MLA: layers x (d_c + "
        "d_rope) x bytes)",
        inputs={
            "layers": workload.model.layers,
            "kv_heads": workload.model.kv_heads,
            "head_dim": workload.model.head_dim,
            "kv_precision": workload.kv_cache_precision,
        },
        source="sizing-formulas section 5",
    )
    section.put(
        key="overhead_gb",
        value=overhead_bytes / GB,
        unit="GB",
        formula="1 GB runtime context + 0.5 GiB CUDA-graph pool (the paged KV cache "
        "leaves no fragmentation share)"
        if serving
        else "1 GB runtime context + 5 % allocator fragmentation",
        inputs={},
        source="sizing-formulas pitfall 3 (CUDA context 0.65-1 GB)"
        + (
            "; vLLM CUDA-graph capture; Kwon et al. 2023 (PagedAttention)"
            if serving
            else ""
        ),
    )
    section.put(
        key="per_gpu_gb",
        value=total_bytes / GB,
        unit="GB",
        formula="sum of the above",
        inputs={},
        source=SRC_MEM,
    )
    section.put(
        key="capacity_gb",
        value=acc.memory_gb,
        unit="GB",
        formula="accelerator memory (vendor GB)",
        inputs={},
        source=acc.source[:200],
    )
    # serving engines take their fraction of the memory the driver reports
    capacity = acc.memory_capacity_bytes if serving else acc.memory_gb * GB
    section.put(
        key="headroom_share",
        value=1.0 - total_bytes / capacity,
        unit="share",
        formula="1 - per_gpu_gb / reported memory (1 - memory fraction when full)"
        if serving
        else "1 - per_gpu_gb / capacity_gb (layouts keep >= 10 %)",
        inputs={"capacity_gb": capacity / GB},
    )
