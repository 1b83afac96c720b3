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

from .catalog import Accelerator, ServerPlatform
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


def _required(w: Workload) -> tuple[float | None, int | None]:
    rps = w.requests_per_second
    if w.tokens_per_second:
        from_tokens = w.tokens_per_second / (w.output_tokens or 1)
        rps = max(rps or 0.0, from_tokens)
    return rps, w.concurrent_requests


def plan_inference(
    acc: Accelerator, server: ServerPlatform, fabric: Fabric, w: Workload
) -> InferencePlan:
    m = w.model
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
    total, active = param_counts(m)
    ctx, out = w.context_tokens or 1, w.output_tokens or 1
    kv_tok = kv_cache_bytes_per_token(m, w.kv_cache_precision)
    kv_req = kv_tok * (ctx + out)
    kv_read_req = kv_tok * (ctx + out / 2.0)
    weights_total = total * BYTES_PER_VALUE[w.precision]
    flops_s = peak * 1e12 * ETA_PREFILL
    bw = acc.mem_bw_tbs * 1e12 * ETA_MEM
    rps_req, conc_req = _required(w)
    chunk = min(ctx, PREFILL_CHUNK_TOKENS)
    best: InferencePlan | None = None
    best_key: tuple | None = None
    pipelines = [1, 2, 4, 8, 16, 32, 64]
    for pp in pipelines:
        if pp > m.layers:
            break
        for t in tensor_degrees(m, server.gpus_per_node, server.gpus_per_node):
            shard_gpus = t * pp
            budget = (
                (1.0 - MEMORY_HEADROOM) * acc.memory_gb * GB - RUNTIME_CONTEXT_BYTES
            ) / (1.0 + FRAGMENTATION_SHARE)
            base = inference_memory(
                m,
                precision=w.precision,
                kv_bytes_per_token=kv_tok,
                tokens_in_cache=0,
                tensor=shard_gpus,
                prefill_chunk_tokens=chunk,
            )
            kv_room = budget - base.weights - base.activations
            kv_per_req_gpu = kv_req / kv_shard_divisor(m, t) / pp
            batch_mem = int(kv_room // kv_per_req_gpu) if kv_room > 0 else 0
            fits = batch_mem >= 1
            batch_cap = max(1, min(batch_mem, MAX_BATCH))
            if (
                conc_req and not rps_req
            ):  # no need to batch beyond the concurrency asked
                batch_cap = min(batch_cap, conc_req)
            latency = ALLREDUCE_LATENCY_S[
                "scaleup" if t <= fabric.scaleup_domain else "pcie"
            ]
            comm_s = (2 * m.layers * latency if t > 1 else 0.0) + (
                pp - 1
            ) * PIPELINE_HOP_S
            prefill_s = (
                2.0 * active * ctx
                + 2.0 * m.layers * ctx * ctx * m.attention_heads * m.head_dim
            ) / (shard_gpus * flops_s) + comm_s

            def step(b: int, t=t, pp=pp, comm_s=comm_s) -> float:
                compute = 2.0 * active * b / (t * flops_s)  # stages run in sequence
                memory = (
                    weights_total / t + b * kv_read_req / kv_shard_divisor(m, t)
                ) / bw
                return max(compute, memory) + comm_s

            def eff_tpot(b: int, prefill_s=prefill_s, step=step) -> float:
                return step(b) + b * prefill_s / out

            def ok(b: int, prefill_s=prefill_s, step=step, eff_tpot=eff_tpot) -> bool:
                if w.tpot_ms is not None and eff_tpot(b) * 1e3 > w.tpot_ms:
                    return False
                return not (
                    w.ttft_ms is not None and (prefill_s + step(b)) * 1e3 > w.ttft_ms
                )

            meets = ok(1)
            batch = 1
            if meets:
                lo, hi = 1, batch_cap
                while lo < hi:  # largest batch within the latency targets
                    mid = (lo + hi + 1) // 2
                    if ok(mid):
                        lo = mid
                    else:
                        hi = mid - 1
                batch = lo
            rps_replica = batch / (out * eff_tpot(batch))
            if w.gpu_count:
                replicas = max(1, w.gpu_count // shard_gpus)
            else:
                replicas = 1
                if rps_req:
                    replicas = max(
                        replicas,
                        math.ceil(rps_req / (SERVING_UTILISATION * rps_replica)),
                    )
                if conc_req:
                    replicas = max(replicas, math.ceil(conc_req / batch))
            gpus = replicas * shard_gpus
            mem = inference_memory(
                m,
                precision=w.precision,
                kv_bytes_per_token=kv_tok,
                tokens_in_cache=batch * (ctx + out) / pp,
                tensor=t,
                prefill_chunk_tokens=chunk,
            )
            mem = InferenceMemory(
                mem.weights / pp,
                mem.kv_cache,
                mem.activations,
                RUNTIME_CONTEXT_BYTES
                + FRAGMENTATION_SHARE
                * (mem.weights / pp + mem.kv_cache + mem.activations),
            )
            plan = InferencePlan(
                gpus=gpus,
                tensor=t,
                pipeline=pp,
                replicas=replicas,
                batch_per_replica=batch,
                memory=mem,
                kv_bytes_per_token=kv_tok,
                kv_bytes_per_request=kv_req,
                weights_total_bytes=weights_total,
                prefill_s=prefill_s,
                ttft_s=prefill_s + step(batch),
                tpot_s=eff_tpot(batch),
                decode_step_s=step(batch),
                tokens_per_second=replicas * rps_replica * out,
                requests_per_second=replicas * rps_replica,
                required_rps=rps_req,
                required_concurrency=conc_req,
                meets_latency=meets,
                fits=fits,
                peak_tflops=peak,
                mem_bw_tbs=acc.mem_bw_tbs,
            )
            key = (not fits, not meets, gpus if meets else plan.tpot_s, plan.ttft_s)
            if best_key is None or key < best_key:
                best, best_key = plan, key
        if best is not None and best.fits:
            break  # more pipeline stages only add hops once something fits
    assert best is not None
    return best
