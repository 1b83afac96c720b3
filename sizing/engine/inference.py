"""Inference: memory to fit, prefill/decode latency, and GPUs to meet a load at an SLO.

Prefill is compute-bound: 2 N ctx + 2 L ctx^2 H Q FLOPs at eta_prefill of the dense peak.
Decode is memory-bound: each step reads the weights shard and the batch's KV cache at
eta_mem of HBM bandwidth (sizing-formulas section 9). Capacity is sized at the latency
targets and a utilisation ceiling, not at saturation (pitfall 9: NIM Llama-3.3-70B TTFT
0.83 s at concurrency 50 vs 8.0 s at 100).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .catalog import Accelerator, ModelArch, ServerPlatform
from .errors import SizingInputError
from .memory import (
    FRAGMENTATION_SHARE,
    GB,
    MEMORY_HEADROOM,
    RUNTIME_CONTEXT_BYTES,
    InferenceMemory,
    inference_memory,
    kv_shard_divisor,
)
from .model import BYTES_PER_VALUE, kv_cache_bytes_per_token, param_counts
from .parallelism import Fabric, tensor_degrees
from .workload import Workload

ETA_PREFILL = 0.5  # prefill MFU; below the 80 % H100 matmul ceiling (MLE MAMF)
ETA_MEM = 0.7  # achieved share of HBM bandwidth in decode (range 0.6-0.9)
SERVING_UTILISATION = 0.8  # run replicas at <= 80 % of SLO capacity to bound queueing
PREFILL_CHUNK_TOKENS = 8192
ALLREDUCE_LATENCY_S = {"scaleup": 5e-6, "pcie": 15e-6}  # small-message latency, assumed
PIPELINE_HOP_S = 20e-6
MAX_BATCH = 4096
PIPELINE_DEGREES = (1, 2, 4, 8, 16, 32, 64)


@dataclass(frozen=True)
class InferencePlan:
    gpus: int
    tensor: int
    pipeline: int
    replicas: int
    batch_per_replica: int
    memory: InferenceMemory
    kv_bytes_per_token: float
    kv_bytes_per_request: float
    weights_total_bytes: float
    prefill_s: float
    ttft_s: float
    tpot_s: float
    decode_step_s: float
    tokens_per_second: float
    requests_per_second: float
    required_rps: float | None
    required_concurrency: int | None
    meets_latency: bool
    fits: bool
    peak_tflops: float
    mem_bw_tbs: float


@dataclass(frozen=True)
class _ServingNeeds:
    """What the workload asks of every candidate layout: request sizes and targets."""

    precision: str
    context_tokens: int
    output_tokens: int
    active_params: float
    weights_total_bytes: float
    kv_bytes_per_token: float
    kv_bytes_per_request: float  # the cache of a finished request: context + output
    kv_read_bytes_per_request: float  # read per decode step on average: ctx + out/2
    prefill_chunk_tokens: int
    required_rps: float | None
    required_concurrency: int | None
    ttft_ms: float | None
    tpot_ms: float | None


@dataclass(frozen=True)
class _DeviceRates:
    """Achieved rates of one accelerator; HBM left for weights, activations and KV."""

    peak_tflops: float
    mem_bw_tbs: float
    prefill_flops_per_s: float
    decode_bytes_per_s: float
    memory_budget_bytes: float


def _required(w: Workload) -> tuple[float | None, int | None]:
    rps = w.requests_per_second
    if w.tokens_per_second:
        from_tokens = w.tokens_per_second / (w.output_tokens or 1)
        rps = max(rps or 0.0, from_tokens)
    return rps, w.concurrent_requests


def _device_rates(acc: Accelerator, w: Workload) -> _DeviceRates:
    """Dense peak at ETA_PREFILL, HBM bandwidth at ETA_MEM, and the memory budget after
    the headroom, the runtime context and allocator fragmentation."""
    peak = acc.peak_tflops(w.precision)
    if not peak:
        raise SizingInputError(
            f"{acc.name} has no published dense {w.precision} peak",
            field="workload.precision",
        )
    if not acc.mem_bw_tbs:
        raise SizingInputError(
            f"{acc.name} has no published memory bandwidth", field="accelerator"
        )
    budget = ((1.0 - MEMORY_HEADROOM) * acc.memory_gb * GB - RUNTIME_CONTEXT_BYTES) / (
        1.0 + FRAGMENTATION_SHARE
    )
    return _DeviceRates(
        peak_tflops=peak,
        mem_bw_tbs=acc.mem_bw_tbs,
        prefill_flops_per_s=peak * 1e12 * ETA_PREFILL,
        decode_bytes_per_s=acc.mem_bw_tbs * 1e12 * ETA_MEM,
        memory_budget_bytes=budget,
    )


def _serving_needs(w: Workload) -> _ServingNeeds:
    m = w.model
    total, active = param_counts(m)
    context, output = w.context_tokens or 1, w.output_tokens or 1
    kv_per_token = kv_cache_bytes_per_token(m, w.kv_cache_precision)
    required_rps, required_concurrency = _required(w)
    return _ServingNeeds(
        precision=w.precision,
        context_tokens=context,
        output_tokens=output,
        active_params=active,
        weights_total_bytes=total * BYTES_PER_VALUE[w.precision],
        kv_bytes_per_token=kv_per_token,
        kv_bytes_per_request=kv_per_token * (context + output),
        kv_read_bytes_per_request=kv_per_token * (context + output / 2.0),
        prefill_chunk_tokens=min(context, PREFILL_CHUNK_TOKENS),
        required_rps=required_rps,
        required_concurrency=required_concurrency,
        ttft_ms=w.ttft_ms,
        tpot_ms=w.tpot_ms,
    )


@dataclass(frozen=True)
class _ShardTiming:
    """Latency of one tensor x pipeline shard serving a batch (sizing-formulas 9)."""

    needs: _ServingNeeds
    rates: _DeviceRates
    tensor: int
    kv_divisor: int
    comm_s: float
    prefill_s: float

    def decode_step_s(self, batch: int) -> float:
        """Compute- or memory-bound, whichever is slower. Pipeline stages run one
        after another for a token, so only the tensor degree divides the work."""
        needs, tensor = self.needs, self.tensor
        flops_per_s = self.rates.prefill_flops_per_s
        compute = 2.0 * needs.active_params * batch / (tensor * flops_per_s)
        memory = (
            needs.weights_total_bytes / tensor
            + batch * needs.kv_read_bytes_per_request / self.kv_divisor
        ) / self.rates.decode_bytes_per_s
        return max(compute, memory) + self.comm_s

    def tpot_s(self, batch: int) -> float:
        """Time per output token with the batch's prefills interleaved into decoding."""
        return (
            self.decode_step_s(batch)
            + batch * self.prefill_s / self.needs.output_tokens
        )

    def ttft_s(self, batch: int) -> float:
        return self.prefill_s + self.decode_step_s(batch)

    def within_targets(self, batch: int) -> bool:
        tpot_ms, ttft_ms = self.needs.tpot_ms, self.needs.ttft_ms
        if tpot_ms is not None and self.tpot_s(batch) * 1e3 > tpot_ms:
            return False
        return not (ttft_ms is not None and self.ttft_s(batch) * 1e3 > ttft_ms)


def _shard_timing(
    m: ModelArch,
    fabric: Fabric,
    needs: _ServingNeeds,
    rates: _DeviceRates,
    *,
    tensor: int,
    pipeline: int,
) -> _ShardTiming:
    """Prefill 2 N ctx + 2 L ctx^2 H Q FLOPs over the shard; every step pays the tensor
    all-reduce latency (2 per layer) and one hop per pipeline stage boundary."""
    link = "scaleup" if tensor <= fabric.scaleup_domain else "pcie"
    all_reduce_s = 2 * m.layers * ALLREDUCE_LATENCY_S[link] if tensor > 1 else 0.0
    comm_s = all_reduce_s + (pipeline - 1) * PIPELINE_HOP_S
    context = needs.context_tokens
    prefill_flops = (
        2.0 * needs.active_params * context
        + 2.0 * m.layers * context * context * m.attention_heads * m.head_dim
    )
    prefill_s = prefill_flops / (tensor * pipeline * rates.prefill_flops_per_s) + comm_s
    return _ShardTiming(
        needs, rates, tensor, kv_shard_divisor(m, tensor), comm_s, prefill_s
    )


def _kv_batch_limit(
    m: ModelArch,
    needs: _ServingNeeds,
    rates: _DeviceRates,
    *,
    tensor: int,
    pipeline: int,
) -> int:
    """Requests whose KV cache fits in the budget beside weights and activations."""
    base = inference_memory(
        m,
        precision=needs.precision,
        kv_bytes_per_token=needs.kv_bytes_per_token,
        tokens_in_cache=0,
        tensor=tensor * pipeline,
        prefill_chunk_tokens=needs.prefill_chunk_tokens,
    )
    kv_room = rates.memory_budget_bytes - base.weights - base.activations
    kv_per_request_per_gpu = (
        needs.kv_bytes_per_request / kv_shard_divisor(m, tensor) / pipeline
    )
    return int(kv_room // kv_per_request_per_gpu) if kv_room > 0 else 0


def _batch_cap(kv_batch_limit: int, needs: _ServingNeeds) -> int:
    cap = max(1, min(kv_batch_limit, MAX_BATCH))
    if needs.required_concurrency and not needs.required_rps:
        cap = min(cap, needs.required_concurrency)  # no need to batch beyond it
    return cap


def _largest_batch(timing: _ShardTiming, batch_cap: int) -> tuple[bool, int]:
    """(meets the latency targets, largest batch within them); (False, 1) when even a
    single request misses them. Binary search: latency grows with the batch."""
    if not timing.within_targets(1):
        return False, 1
    low, high = 1, batch_cap
    while low < high:
        middle = (low + high + 1) // 2
        if timing.within_targets(middle):
            low = middle
        else:
            high = middle - 1
    return True, low


def _replicas(
    w: Workload,
    needs: _ServingNeeds,
    shard_gpus: int,
    batch: int,
    rps_per_replica: float,
) -> int:
    """The buyer's GPU count, else enough replicas for the load at SERVING_UTILISATION
    and for the concurrent requests."""
    if w.gpu_count:
        return max(1, w.gpu_count // shard_gpus)
    replicas = 1
    if needs.required_rps:
        replicas = max(
            replicas,
            math.ceil(needs.required_rps / (SERVING_UTILISATION * rps_per_replica)),
        )
    if needs.required_concurrency:
        replicas = max(replicas, math.ceil(needs.required_concurrency / batch))
    return replicas


def _memory_per_gpu(
    m: ModelArch, needs: _ServingNeeds, *, tensor: int, pipeline: int, batch: int
) -> InferenceMemory:
    """One GPU at the chosen batch: weights split over the stages as well, each stage
    holding the cache of its own layers."""
    memory = inference_memory(
        m,
        precision=needs.precision,
        kv_bytes_per_token=needs.kv_bytes_per_token,
        tokens_in_cache=batch * (needs.context_tokens + needs.output_tokens) / pipeline,
        tensor=tensor,
        prefill_chunk_tokens=needs.prefill_chunk_tokens,
    )
    weights = memory.weights / pipeline
    live = weights + memory.kv_cache + memory.activations
    return InferenceMemory(
        weights,
        memory.kv_cache,
        memory.activations,
        RUNTIME_CONTEXT_BYTES + FRAGMENTATION_SHARE * live,
    )


def _plan_layout(
    w: Workload,
    fabric: Fabric,
    needs: _ServingNeeds,
    rates: _DeviceRates,
    *,
    tensor: int,
    pipeline: int,
) -> InferencePlan:
    m = w.model
    kv_batch_limit = _kv_batch_limit(m, needs, rates, tensor=tensor, pipeline=pipeline)
    timing = _shard_timing(m, fabric, needs, rates, tensor=tensor, pipeline=pipeline)
    meets, batch = _largest_batch(timing, _batch_cap(kv_batch_limit, needs))
    rps_per_replica = batch / (needs.output_tokens * timing.tpot_s(batch))
    shard_gpus = tensor * pipeline
    replicas = _replicas(w, needs, shard_gpus, batch, rps_per_replica)
    return InferencePlan(
        gpus=replicas * shard_gpus,
        tensor=tensor,
        pipeline=pipeline,
        replicas=replicas,
        batch_per_replica=batch,
        memory=_memory_per_gpu(m, needs, tensor=tensor, pipeline=pipeline, batch=batch),
        kv_bytes_per_token=needs.kv_bytes_per_token,
        kv_bytes_per_request=needs.kv_bytes_per_request,
        weights_total_bytes=needs.weights_total_bytes,
        prefill_s=timing.prefill_s,
        ttft_s=timing.ttft_s(batch),
        tpot_s=timing.tpot_s(batch),
        decode_step_s=timing.decode_step_s(batch),
        tokens_per_second=replicas * rps_per_replica * needs.output_tokens,
        requests_per_second=replicas * rps_per_replica,
        required_rps=needs.required_rps,
        required_concurrency=needs.required_concurrency,
        meets_latency=meets,
        fits=kv_batch_limit >= 1,
        peak_tflops=rates.peak_tflops,
        mem_bw_tbs=rates.mem_bw_tbs,
    )


def _preference(plan: InferencePlan) -> tuple:
    """Sort key: fitting first, then meeting the latency targets, then the fewest GPUs
    (or, when the targets are missed, the lowest TPOT), then the lowest TTFT."""
    meets = plan.meets_latency
    return (not plan.fits, not meets, plan.gpus if meets else plan.tpot_s, plan.ttft_s)


def plan_inference(
    acc: Accelerator, server: ServerPlatform, fabric: Fabric, w: Workload
) -> InferencePlan:
    """The preferred tensor x pipeline shard and its replicas for the load."""
    rates = _device_rates(acc, w)
    needs = _serving_needs(w)
    per_node = server.gpus_per_node
    best: InferencePlan | None = None
    for pipeline in PIPELINE_DEGREES:
        if pipeline > w.model.layers:
            break
        for tensor in tensor_degrees(w.model, per_node, per_node):
            plan = _plan_layout(
                w, fabric, needs, rates, tensor=tensor, pipeline=pipeline
            )
            if best is None or _preference(plan) < _preference(best):
                best = plan
        if best is not None and best.fits:
            break  # more pipeline stages only add hops once something fits
    assert best is not None
    return best
