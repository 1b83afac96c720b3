"""What a serving workload asks of every layout, and what one accelerator delivers.

Weights are split by role because a layout shards and reads each role differently:
attention (replicated on every data-parallel attention rank), dense FFNs and shared
experts (read whole every step), routed experts (only the ones the batch touches), and the
embedding table (a lookup, never streamed) versus the output head (read every step).
"""

from __future__ import annotations

from dataclasses import dataclass

from .attention import (
    decode_attention_flops,
    kv_cache_bytes,
    prefill_attention_flops,
)
from .catalog import FP4_PRECISIONS, Accelerator, ModelArch
from .errors import SizingInputError
from .memory import serving_memory_budget
from .model import (
    default_quant_scope,
    override_scale,
    param_breakdown,
    param_counts,
    role_bytes,
)
from .workload import Workload

# Share of the dense peak that GEMMs reach in serving: below the 80 % H100 BF16 matmul
# ceiling (MLE MAMF 794.5 of 989) and the 38-52 % MFU of large training runs.
ETA_COMPUTE = 0.5
# Share of HBM bandwidth that decode reaches streaming weights and KV (sizing-formulas 9:
# 0.6-0.9); calibrated on TensorRT-LLM Llama 3.1 8B / 70B FP8 throughput (test).
ETA_MEM = 0.7
PREFILL_CHUNK_TOKENS = 8192
# Measured large-GEMM share of the dense peak per tensor-core format, over the Hopper
# BF16 share ETA_COMPUTE was calibrated on (MAMF 794.5 / 989 = 0.803, ml-engineering):
# Hopper FP8 DeepGEMM 1550 / 1979 = 0.783 on H800 (DeepGEMM README, 2025-04-18) ->
# 0.975. Blackwell FP4 (NVFP4/MXFP4 tensor cores) reaches a smaller share of its doubled
# peak: 0.5, chosen on the calibration set's B200 FP4 rows (MoE, with the dense 70B FP4
# rows as a control that stays within +-30 %; tests/sizing/engine/
# test_moe_serving_calibration.py), i.e. 0.25 x the FP4 peak instead of 0.5 x: about
# what FP8 reaches on the same part (0.49 x 4,500 TFLOPS), the 4-bit weights saving
# bytes rather than time in the tensor cores.
GEMM_SHARE_OF_REFERENCE = {"fp8": 1550.0 / 1979.0 / (794.5 / 989.0), "fp4": 0.5}


@dataclass(frozen=True)
class WeightRoles:
    """Bytes of each weight role at the serving precision."""

    attention: float  # attention projections + norms + routers, all layers
    dense_ffn: float
    shared_experts: float
    routed_expert: float  # one routed expert of one layer
    moe_layers: int
    experts: int
    active_experts: int
    embedding: float
    head: float

    @property
    def routed(self) -> float:
        return self.routed_expert * self.experts * self.moe_layers

    @property
    def total(self) -> float:
        ffn = self.dense_ffn + self.shared_experts + self.routed
        return ffn + self.attention + self.embedding + self.head


def weight_roles(m: ModelArch, precision: str, scope: str | None = None) -> WeightRoles:
    """Each tensor group at its bytes under the quantisation scope
    (``model.default_quant_scope``: FP4 the FFN/expert weights, gpt-oss MXFP4; INT4 on
    an MoE the routed experts, Kimi K2)."""
    breakdown = param_breakdown(m)
    scale = override_scale(m)[0]
    per = role_bytes(precision, scope or default_quant_scope(m, precision))
    other_bytes = per.other * scale
    return WeightRoles(
        attention=(breakdown.attention + breakdown.other) * other_bytes,
        dense_ffn=breakdown.dense_ffn * per.dense_ffn * scale,
        shared_experts=breakdown.shared_experts * per.shared_experts * scale,
        routed_expert=breakdown.routed_expert * per.routed * scale,
        moe_layers=breakdown.moe_layers,
        experts=breakdown.experts,
        active_experts=breakdown.active_experts,
        embedding=breakdown.embedding * other_bytes,
        head=breakdown.head * other_bytes,
    )


@dataclass(frozen=True)
class ServingNeeds:
    """Request sizes, per-request work and the targets every layout is judged by."""

    precision: str
    kv_precision: str
    context_tokens: int
    output_tokens: int
    weights: WeightRoles
    attention_params: float  # active parameters on the attention rank (per token)
    ffn_active_params: float  # active FFN + head parameters (per token)
    routed_active_params: float  # the routed experts' share of ffn_active_params
    kv_bytes_per_request: float  # cache of a finished request: context + output
    kv_read_bytes_per_request: float  # read per decode step on average: ctx + out/2
    decode_core_flops: float  # attention core of one decode token at ctx + out/2
    prefill_linear_flops: float  # 2 x active (without the embedding lookup) x ctx
    prefill_core_flops: float
    activation_width: int  # values per token of a layer's widest intermediate
    required_rps: float | None
    required_concurrency: int | None
    ttft_ms: float | None
    tpot_ms: float | None
    expert_load_balancing: bool = False
    arrival: str = "steady"  # serving_latency.ARRIVALS
    output_lengths: str = "varied"  # serving_latency.OUTPUT_LENGTHS

    @property
    def linear_params(self) -> float:
        return self.attention_params + self.ffn_active_params

    @property
    def prefill_chunk_tokens(self) -> int:
        return min(self.context_tokens, PREFILL_CHUNK_TOKENS)


def required_load(w: Workload) -> tuple[float | None, int | None]:
    """(requests/s, concurrent requests) the deployment must carry."""
    rps = w.requests_per_second
    if w.tokens_per_second:
        from_tokens = w.tokens_per_second / (w.output_tokens or 1)
        rps = max(rps or 0.0, from_tokens)
    return rps, w.concurrent_requests


def _activation_width(m: ModelArch) -> int:
    """4h + 2 x the widest FFN intermediate a token produces (all its experts)."""
    if m.is_moe:
        experts = (m.moe_active_experts or 1) + m.moe_shared_experts
        ffn = max(
            m.ffn_hidden_size if m.moe_dense_layers else 0, experts * m.expert_ffn_size
        )
    else:
        ffn = m.ffn_hidden_size
    return 4 * m.hidden_size + 2 * ffn


def serving_needs(w: Workload) -> ServingNeeds:
    m = w.model
    breakdown = param_breakdown(m)
    _, active = param_counts(m)
    scale = override_scale(m)[1]
    attention_params = (breakdown.attention + breakdown.other) * scale
    compute_params = active - breakdown.embedding * scale  # the lookup is not a GEMM
    context, output = w.context_tokens or 1, w.output_tokens or 1
    required_rps, required_concurrency = required_load(w)
    kv = w.kv_cache_precision
    routed_active = (
        breakdown.routed_expert
        * breakdown.active_experts
        * breakdown.moe_layers
        * scale
    )
    return ServingNeeds(
        precision=w.precision,
        kv_precision=kv,
        context_tokens=context,
        output_tokens=output,
        weights=weight_roles(m, w.precision, w.quant_scope),
        attention_params=attention_params,
        ffn_active_params=compute_params - attention_params,
        routed_active_params=routed_active,
        kv_bytes_per_request=kv_cache_bytes(m, context + output, kv),
        kv_read_bytes_per_request=kv_cache_bytes(m, context + output / 2.0, kv),
        decode_core_flops=decode_attention_flops(m, context + output / 2.0),
        prefill_linear_flops=2.0 * compute_params * context,
        prefill_core_flops=prefill_attention_flops(m, context),
        activation_width=_activation_width(m),
        required_rps=required_rps,
        required_concurrency=required_concurrency,
        ttft_ms=w.ttft_ms,
        tpot_ms=w.tpot_ms,
        expert_load_balancing=w.expert_load_balancing,
        arrival=w.arrival,
        output_lengths=w.output_lengths,
    )


@dataclass(frozen=True)
class DeviceRates:
    """Achieved rates of one accelerator; HBM left for weights, activations and KV."""

    peak_tflops: float  # dense peak at the weight precision
    attention_tflops: float  # dense peak at the KV precision (attention core)
    mem_bw_tbs: float
    gemm_flops_per_s: float
    attention_flops_per_s: float
    decode_bytes_per_s: float
    memory_budget_bytes: float


def serving_peak_tflops(acc: Accelerator, precision: str) -> float | None:
    """Dense peak the weight GEMMs run at. A weight format the part cannot multiply in
    (FP8 on A100) is served weight-only, dequantised to 16-bit (vLLM's Marlin kernels
    on Ampere), so the BF16 peak applies."""
    return acc.peak_tflops(precision) or acc.bf16_tflops


def gemm_efficiency(acc: Accelerator, precision: str) -> float:
    """Share of the dense peak the serving GEMMs reach at ``precision``: ETA_COMPUTE
    scaled by the measured large-GEMM share of that tensor-core format (FP4 only where
    the part multiplies in FP4; elsewhere it runs at the 16-bit peak and share)."""
    if precision == "fp8" and acc.fp8_tflops:
        return ETA_COMPUTE * GEMM_SHARE_OF_REFERENCE["fp8"]
    if precision in FP4_PRECISIONS and acc.fp4_tflops:
        return ETA_COMPUTE * GEMM_SHARE_OF_REFERENCE["fp4"]
    return ETA_COMPUTE


def device_rates(acc: Accelerator, w: Workload) -> DeviceRates:
    """Dense peaks at their measured GEMM efficiency, HBM bandwidth at ETA_MEM, and the
    memory budget: the engine's memory fraction of the reported device memory, less the
    runtime context and the CUDA-graph pool (``memory.serving_memory_budget``)."""
    peak = serving_peak_tflops(acc, w.precision)
    if not peak:
        raise SizingInputError(
            f"{acc.name} has no published dense {w.precision} peak",
            field="workload.precision",
            code="no_published_peak",
            params={"accelerator": acc.name, "precision": w.precision},
        )
    if not acc.mem_bw_tbs:
        raise SizingInputError(
            f"{acc.name} has no published memory bandwidth",
            field="accelerator",
            code="no_memory_bandwidth",
            params={"accelerator": acc.name},
        )
    attention_peak = serving_peak_tflops(acc, w.kv_cache_precision) or peak
    budget = serving_memory_budget(acc, w.gpu_memory_fraction)
    return DeviceRates(
        peak_tflops=peak,
        attention_tflops=attention_peak,
        mem_bw_tbs=acc.mem_bw_tbs,
        gemm_flops_per_s=peak * 1e12 * gemm_efficiency(acc, w.precision),
        attention_flops_per_s=attention_peak
        * 1e12
        * gemm_efficiency(acc, w.kv_cache_precision),
        decode_bytes_per_s=acc.mem_bw_tbs * 1e12 * ETA_MEM,
        memory_budget_bytes=budget,
    )
