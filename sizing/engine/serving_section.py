"""The ``inference`` section and the serving half of ``parallelism``: every figure of a
serving plan with the formula, inputs and source behind it."""

from __future__ import annotations

from .explain import Explainer, Section
from .memory import CUDA_GRAPH_BYTES, GB, RUNTIME_CONTEXT_BYTES
from .moe_cost import (
    A2A_NVLINK_EFFICIENCY,
    A2A_RDMA_EFFICIENCY,
    GROUPED_GEMM_STREAM_LOSS,
    MOE_LAYER_EXTRA_KERNELS,
    ROUTING_SKEW_CV,
)
from .serving_latency import (
    DENSE_LAYER_KERNELS,
    KERNEL_FLOOR_S,
    LAYER_OVERHEAD_S,
    burst_prefill_tokens,
    layer_overhead_s,
)
from .serving_needs import ETA_COMPUTE, ETA_MEM, PREFILL_CHUNK_TOKENS
from .sized_workload import SizedWorkload

SRC_SERVING = "sizing-formulas section 9; docs/methodology.md (serving)"
SRC_MOE = (
    "TensorRT-LLM v1.0 perf-overview MoE tables and the second blind set's odd half "
    "(calibration; its even half validates); LMSYS, SGLang large-scale EP on 96 "
    "H100, 2025-05-05 (EPLB ablation); DeepGEMM README at 989c9e3 (kernel bound); "
    "DeepEP README"
)
SRC_MEMORY_BUDGET = (
    "vLLM --gpu-memory-utilization (default 0.9); nvidia-smi reported MiB; Kwon et "
    "al. 2023 (PagedAttention)"
)
SRC_LATENCY = (
    "Agrawal et al. 2024 (Sarathi-Serve, chunked prefill); vLLM "
    "--enable-chunked-prefill; Kleinrock 1975 (M/D/1); vLLM CI latency tests, "
    "buildkite vllm performance-benchmark 9515 (per-layer overhead check)"
)
SRC_BURST = (
    "vLLM max_num_batched_tokens, TensorRT-LLM max_num_tokens, SGLang "
    "chunked_prefill_size (8192); TensorRT-LLM docs/source/blogs/H100vsA100.md (GPT-J "
    "6B, 64 x 128-token static batch, first token 102 ms; calibration row)"
)
SRC_BURST_DRAIN = (
    "expected maximum of n exponentials (harmonic number H_n); GPUStack performance "
    "lab, ShareGPT bursts of 1,000 requests (second blind set, both halves)"
)
SRC_LAYOUT = (
    "DeepSeek-V3 report section 3.4 (EP, DP attention); SGLang --enable-dp-attention, "
    "--dcp-size; vLLM --decode-context-parallel-size; Narayanan et al. 2021 (TP "
    "inside NVLink)"
)


def _inputs(sized: SizedWorkload) -> dict:
    plan, workload = sized.inference, sized.workload
    assert plan is not None
    return {
        "peak_tflops": plan.peak_tflops,
        "mem_bw_tbs": plan.mem_bw_tbs,
        "tensor": plan.tensor,
        "pipeline": plan.pipeline,
        "expert": plan.expert_parallel,
        "attention_data": plan.attention_data_parallel,
        "decode_context": plan.decode_context,
        "batch": plan.batch_per_replica,
        "context": workload.context_tokens,
        "output": workload.output_tokens,
        "precision": workload.precision,
        "kv_precision": plan.kv_precision,
        "arrival": workload.arrival,
    }


def inference_section(sized: SizedWorkload, explainer: Explainer) -> dict:
    section = Section(explainer, "inference")
    _latency(section, sized)
    _serving_capacity(section, sized)
    _weights_and_cache(section, sized)
    _memory_budget(section, sized)
    _moe_losses(section, sized)
    return section.values


def _memory_budget(section: Section, sized: SizedWorkload) -> None:
    plan, acc = sized.inference, sized.accelerator
    assert plan is not None
    section.put(
        key="memory_budget_gb",
        value=plan.memory_budget_bytes / GB,
        unit="GB",
        formula=f"memory fraction x reported device memory - {RUNTIME_CONTEXT_BYTES / GB:g}"
        f" GB runtime context - {CUDA_GRAPH_BYTES / GB:.2f} GB CUDA graphs (weights, "
        "activations and KV cache must fit in it)",
        inputs={
            "gpu_memory_fraction": plan.gpu_memory_fraction,
            "reported_memory_mib": acc.reported_memory_mib,
            "memory_capacity_gb": acc.memory_capacity_bytes / GB,
        },
        source=SRC_MEMORY_BUDGET,
    )
    section.put(
        key="gemm_efficiency",
        value=plan.gemm_efficiency,
        unit="share",
        formula=f"{ETA_COMPUTE} x the measured large-GEMM share of the format over "
        "Hopper BF16 (FP8: DeepGEMM 1550 / 1979 over MAMF 794.5 / 989 = 0.975; FP4 "
        "tensor cores: 0.5, calibration set)",
        inputs={"precision": sized.workload.precision},
        source="DeepGEMM README (H800 FP8); ml-engineering MAMF (H100 BF16); "
        "TensorRT-LLM v1.0 perf-overview (FP4 calibration)",
    )
    section.put(
        key="linear_state_gb_per_request",
        value=plan.linear_state_bytes_per_request / GB,
        unit="GB",
        formula="linear-attention / state-space layers x their fixed state per "
        "sequence (does not grow with the context; 0 without such layers)",
        inputs={
            "linear_attention_layers": sized.workload.model.linear_attention_layers,
            "linear_state_bytes": sized.workload.model.linear_state_bytes,
        },
        source="Hugging Face config.json (full_attention_interval, attn_type_list, "
        "linear_* head sizes)",
    )


def _moe_losses(section: Section, sized: SizedWorkload) -> None:
    """The MoE loss terms at the plan's batch (none for a dense model)."""
    plan = sized.inference
    assert plan is not None
    moe = plan.moe
    if not moe:
        return
    inputs = {
        "batch": plan.batch_per_replica,
        "expert": plan.expert_parallel,
        "attention_data": plan.attention_data_parallel,
        "expert_load_balancing": sized.workload.expert_load_balancing,
    }
    section.put(
        key="expert_imbalance",
        value=moe["expert_imbalance"],
        unit="ratio",
        formula="busiest expert-parallel GPU / mean = 1 + sqrt(2 ln g) x sqrt(c^2 g "
        f"/ E + g / copies); c = {ROUTING_SKEW_CV} without load balancing, 0 with it",
        inputs=inputs,
        source=SRC_MOE,
    )
    section.put(
        key="grouped_gemm_efficiency",
        value=moe["grouped_gemm_efficiency"],
        unit="share",
        formula="max(compute of the m real rows, weight stream) / [max(compute of "
        "the rows padded to 64-row tiles (8 below 64) x imbalance, weight stream) + "
        f"{GROUPED_GEMM_STREAM_LOSS:g} x weight stream], m = tokens per touched "
        f"expert and step, weight stream = touched experts' bytes / ({ETA_MEM} x "
        "HBM BW)",
        inputs=inputs,
        source=SRC_MOE,
    )
    section.put(
        key="attention_barrier",
        value=moe["attention_barrier"],
        unit="ratio",
        formula="slowest data-parallel attention rank / mean = 1 + sqrt(2 ln r) / "
        "sqrt(requests per rank)",
        inputs=inputs,
        source=SRC_MOE,
    )
    section.put(
        key="expert_step_ms",
        value=moe["expert_step_s"] * 1e3,
        unit="ms",
        formula="per decode step: max(grouped GEMMs at that efficiency x imbalance, "
        "touched experts' bytes / HBM) + routed copies x (7 h + 9 f) bytes / HBM",
        inputs=inputs,
        source=SRC_MOE,
    )
    section.put(
        key="layer_collective_ms",
        value=moe["layer_collective_s"] * 1e3,
        unit="ms",
        formula="one layer's collectives at the plan's batch; dispatch + combine = "
        "k x h x 3 B per token x imbalance, the node's share over NVLink at "
        f"{A2A_NVLINK_EFFICIENCY:.2f} x its bandwidth and the rest over RDMA at "
        f"{A2A_RDMA_EFFICIENCY:.2f} x the NICs'",
        inputs=inputs,
        source="DeepEP README (intranode 153 of 200 GB/s, RDMA 43 of 50 GB/s); "
        + SRC_MOE,
    )


def _latency(section: Section, sized: SizedWorkload) -> None:
    plan, inputs = sized.inference, _inputs(sized)
    assert plan is not None
    _waits(section, sized, inputs)
    section.put(
        key="decode_step_ms",
        value=plan.decode_step_s * 1e3,
        unit="ms",
        formula=f"p x [max(compute at the GEMM efficiency x peak, bytes / ({ETA_MEM} x "
        "HBM BW)) + routed experts (expert_step_ms) + attention x barrier + "
        "collectives] per stage; bytes = attention / t + (dense FFN + shared experts "
        "+ head) / g + own requests' KV / KV divisor"
        "; + the fixed overhead per step (layer_overhead_ms)",
        inputs=inputs,
        source=SRC_SERVING,
    )
    model = sized.workload.model
    moe_layers = model.moe_layers if model.is_moe else 0
    section.put(
        key="layer_overhead_ms",
        value=layer_overhead_s(model.layers, moe_layers) * 1e3,
        unit="ms",
        formula=f"layers x {LAYER_OVERHEAD_S * 1e6:.0f} us (about "
        f"{DENSE_LAYER_KERNELS} kernels per decoder layer x ~"
        f"{KERNEL_FLOOR_S * 1e6:.1f} us floor each, CUDA graphs) + MoE layers x "
        f"{MOE_LAYER_EXTRA_KERNELS} more kernels (router, top-k, sort, quantise, "
        "un-permute) x the same floor",
        inputs={"layers": model.layers, "moe_layers": moe_layers},
        source=SRC_LATENCY,
    )
    section.put(
        key="prefill_ms",
        value=plan.prefill_s * 1e3,
        unit="ms",
        formula=f"(2 N_attention ctx + attention core) / (t x p) + 2 N_ffn ctx / (g x "
        f"p) at {ETA_COMPUTE} x peak, + collectives; attention core = heads x (d_qk + "
        "d_v) x ctx^2 per layer (window-capped on local layers)",
        inputs=inputs,
        source="sizing-formulas section 9; PaLM App. B",
    )
    section.put(
        key="peak_tflops",
        value=plan.peak_tflops,
        unit="TFLOPS",
        formula="dense peak at the weight precision; FP8/FP4 weights on a part without "
        "those tensor cores are dequantised and multiplied at the BF16 peak",
        inputs={"precision": inputs["precision"]},
        source="accelerators.csv; vLLM Marlin weight-only kernels",
    )


def _waits(section: Section, sized: SizedWorkload, inputs: dict) -> None:
    """TTFT and TPOT, steady or in a burst (serving_latency), and a burst's wait."""
    plan = sized.inference
    assert plan is not None
    burst = sized.workload.arrival == "burst"
    if burst:
        ttft = (
            "its prefill + (tokens prefilled before it - context) / context x "
            f"prefill work + one layer overhead per {PREFILL_CHUNK_TOKENS}-token step "
            "+ mean earlier waves x request time (a burst arriving at once)"
        )
    else:
        ttft = (
            "queue wait (M/D/1: rho / (2 (1 - rho)) x prefill, rho = arrivals x "
            "prefill work) + prefill of one request + one decode step of the running "
            f"batch per {PREFILL_CHUNK_TOKENS}-token prefill chunk"
        )
    section.put(
        key="ttft_ms",
        value=plan.ttft_s * 1e3,
        unit="ms",
        formula=ttft,
        inputs=inputs,
        source=SRC_LATENCY,
    )
    if burst:
        section.put(
            key="burst_prefill_tokens",
            value=burst_prefill_tokens(
                plan.batch_per_replica,
                sized.workload.context_tokens or 1,
                PREFILL_CHUNK_TOKENS,
            ),
            unit="tokens",
            formula=f"min((B + 1) L / 2 + (M / 2)(B - 1) / B, B L), M = "
            f"{PREFILL_CHUNK_TOKENS} prompt tokens per prefill step",
            inputs={"batch": plan.batch_per_replica, "context": inputs["context"]},
            source=SRC_BURST,
        )
    section.put(
        key="tpot_ms",
        value=plan.tpot_s * 1e3,
        unit="ms",
        formula=(
            "decode step + (batch - burst_prefill_tokens / context) x prefill work / "
            "output tokens (the prompts prefilled after its first token)"
            if burst
            else "decode step + batch x "
            "prefill work / output tokens (prefills interleaved into decoding)"
        ),
        inputs=inputs,
        source=SRC_SERVING,
    )


def _serving_capacity(section: Section, sized: SizedWorkload) -> None:
    plan = sized.inference
    assert plan is not None
    section.put(
        key="tokens_per_second",
        value=plan.tokens_per_second,
        unit="tokens/s",
        formula="replicas x requests served per second per replica x output tokens; "
        "per replica: running requests / (output x decode step + batch x prefill "
        "work), in a burst of varied output lengths its requests / "
        "burst_makespan_s (whole deployment, at the SLO)",
        inputs={"replicas": plan.replicas},
        source="sizing-formulas pitfall 9 (size at the SLO)",
    )
    _burst_makespan(section, sized)
    section.put(
        key="requests_per_second",
        value=plan.requests_per_second,
        unit="requests/s",
        formula="tokens_per_second / output tokens",
        inputs={},
    )
    section.put(
        key="batch_per_replica",
        value=plan.batch_per_replica,
        unit="requests",
        formula="largest batch within memory and the TTFT/TPOT targets",
        inputs={"max_batch_by_memory": plan.max_batch_by_memory},
    )
    section.put(
        key="replicas",
        value=plan.replicas,
        unit="replicas",
        formula="max(required rps / (0.8 x replica rps), concurrency / batch)",
        inputs={
            "required_rps": plan.required_rps,
            "concurrency": plan.required_concurrency,
        },
    )
    if plan.concurrency_per_replica is not None:
        section.put(
            key="concurrency_per_replica",
            value=plan.concurrency_per_replica,
            unit="requests",
            formula="ceil(concurrent requests / replicas of the GPU count given)",
            inputs={
                "concurrency": plan.required_concurrency,
                "replicas": plan.replicas,
            },
        )
    section.put(
        key="concurrency_served",
        value=plan.concurrency_served,
        unit="requests",
        formula="replicas x min(largest batch within the TTFT/TPOT targets, each "
        "replica's share of the concurrent requests)",
        inputs={"replicas": plan.replicas},
    )
    if sized.workload.gpu_count and not plan.meets_load:
        section.put(
            key="gpus_needed",
            value=plan.gpus_needed or 0,
            unit="GPUs",
            formula="the fewest GPUs that carry the load within the targets (the "
            "same search without the GPU count given; 0: none does)",
            inputs={"gpu_count": sized.workload.gpu_count},
        )
    section.put(
        key="layouts_searched",
        value=plan.layouts_searched,
        unit="layouts",
        formula="pipeline x stage width x attention split, smallest first; stops "
        "once no larger layout can need fewer GPUs",
        inputs={},
        source=SRC_LAYOUT,
    )


def _burst_makespan(section: Section, sized: SizedWorkload) -> None:
    """A burst of varied output lengths: the time a replica takes to serve it."""
    plan = sized.inference
    assert plan is not None
    if plan.burst_makespan_s is not None:
        section.put(
            key="burst_makespan_s",
            value=plan.burst_makespan_s,
            unit="s",
            formula="N x prefill work + (N - B) x mean output x step(B) / B + mean "
            "output x integral_0^H step(max(1, ceil(B e^-x))) dx, H = ln n + 0.5772 "
            "+ 1 / 2n for the n = min(all requests, replicas x B) whose longest "
            "output ends the burst; N = requests per replica, B = batch (output "
            "lengths exponential around the mean, ASSUMED)",
            inputs={
                "requests_per_replica": plan.burst_requests_per_replica,
                "replicas": plan.replicas,
                "batch": plan.batch_per_replica,
                "output": sized.workload.output_tokens,
                "output_lengths": sized.workload.output_lengths,
            },
            source=SRC_BURST_DRAIN,
        )


def _weights_and_cache(section: Section, sized: SizedWorkload) -> None:
    plan, inputs = sized.inference, _inputs(sized)
    assert plan is not None
    section.put(
        key="weights_total_gb",
        value=plan.weights_total_bytes / GB,
        unit="GB",
        formula="params x bytes(precision); MXFP4 / NVFP4 quantise FFN and expert "
        "weights (4.25 / 4.5 bits), attention and embeddings stay 16-bit",
        inputs={"precision": inputs["precision"]},
        source="sizing-formulas 2; OCP MX v1.0; gpt-oss config.json",
    )
    section.put(
        key="kv_precision",
        value=plan.kv_precision,
        unit="",
        formula="given (default bf16; fp8 halves the cache)",
        inputs={},
    )
    section.put(
        key="kv_cache_gb_per_request",
        value=plan.kv_bytes_per_request / GB,
        unit="GB",
        formula="bytes per token and layer x (full layers x (ctx + out) + local layers "
        "x min(ctx + out, window or chunk)) + linear layers x their fixed state; GQA "
        "2 x kv_heads x head_dim, MLA kv_lora + rope",
        inputs=inputs,
        source="sizing-formulas 5; DeepSeek-V2 report 2.1",
    )
    section.put(
        key="max_batch_by_memory",
        value=plan.max_batch_by_memory,
        unit="requests",
        formula="(budget - weights - activations) / (KV per request / KV divisor / p "
        "+ logits) x attention ranks; budget = memory_budget_gb",
        inputs={**inputs, "kv_divisor": plan.kv_divisor},
        source="sizing-formulas 5; pitfall 3",
    )
    section.put(
        key="experts_touched",
        value=plan.experts_touched,
        unit="experts",
        formula="E (1 - (1 - k/E)^(batch / p)) per MoE layer and decode step (0: dense)",
        inputs=inputs,
        source="expected distinct experts of B tokens each choosing k of E",
    )


def serving_parallelism(sized: SizedWorkload, explainer: Explainer) -> dict:
    """The split of one replica: attention tensor x data parallel per stage, experts
    over the stage, pipeline stages; data = replicas."""
    plan = sized.inference
    assert plan is not None
    section = Section(explainer, "parallelism")
    for key, value, formula in (
        ("tensor", plan.tensor, "attention tensor-parallel degree (inside a node)"),
        ("pipeline", plan.pipeline, "pipeline stages per replica"),
        ("data", plan.replicas, "replicas"),
        ("zero_stage", None, "not applicable to serving"),
        (
            "expert",
            plan.expert_parallel,
            "GPUs the experts of a stage are spread over (1: dense or tensor-sliced)",
        ),
        (
            "attention_data",
            plan.attention_data_parallel,
            "data-parallel attention ranks per stage, each with its own requests' KV",
        ),
        (
            "decode_context",
            plan.decode_context,
            "ranks of a tensor-parallel group the MLA latents are striped over by "
            "token (decode context parallelism; 1: none)",
        ),
    ):
        section.put(
            key=key,
            value=value,
            unit="",
            formula=f"{formula}; fewest GPUs that fit and meet the targets",
            inputs={"stage_gpus": plan.stage_gpus},
            source=SRC_LAYOUT,
        )
    return section.values
