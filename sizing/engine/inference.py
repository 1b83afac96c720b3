"""Inference: the serving layout that meets the load with the fewest GPUs.

Every layout of ``serving_layout`` (pipeline x stage width, the stage's attention split
into tensor x data parallel, experts spread over the stage) is sized at its largest batch
that fits in memory and meets the TTFT/TPOT targets (``serving_cost``); its replica count
follows from the load. The plan with the fewest GPUs wins, then the lowest TPOT; the
search walks layouts from the smallest and stops once no larger layout can need fewer
GPUs. Capacity is sized at the latency targets and a utilisation ceiling, not at
saturation (pitfall 9: NIM Llama-3.3-70B TTFT 0.83 s at concurrency 50 vs 8.0 s at 100).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from functools import lru_cache

from .attention import linear_state_total_bytes
from .catalog import Accelerator, ServerPlatform
from .memory import InferenceMemory
from .model import kv_cache_bytes_per_token
from .parallelism import Fabric
from .serving_cost import LayoutCost, experts_touched
from .serving_layout import ServingLayout, candidate_layouts
from .serving_needs import ServingNeeds, device_rates, gemm_efficiency, serving_needs
from .workload import Workload

SERVING_UTILISATION = 0.8  # run replicas at <= 80 % of SLO capacity to bound queueing
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
    stage_gpus: int = 1
    expert_parallel: int = 1
    attention_data_parallel: int = 1
    decode_context: int = 1
    kv_precision: str = "bf16"
    kv_divisor: int = 1
    experts_touched: float = 0.0  # per MoE layer and decode step, at the plan's batch
    max_batch_by_memory: int = 0
    layouts_searched: int = 0
    memory_budget_bytes: float = 0.0  # fraction x reported memory - context - graphs
    gpu_memory_fraction: float = 0.9
    gemm_efficiency: float = 0.0  # share of the dense peak the weight GEMMs reach
    linear_state_bytes_per_request: float = 0.0  # fixed state of linear layers
    moe: dict = field(default_factory=dict)  # serving_cost.LayoutCost.moe_terms
    # With a GPU count given: the concurrency each replica carries (the load split
    # over the replicas), and the GPUs the load needs when the count given misses it.
    concurrency_per_replica: int | None = None
    gpus_needed: int | None = None
    single_request_meets: bool = True  # one request alone meets the targets
    batch_within_targets: int = 0  # the largest batch per replica within the targets
    # a burst of varied output lengths: the time the deployment takes to serve it
    # (its longest output ends it), and the requests each replica carries
    burst_makespan_s: float | None = None
    burst_requests_per_replica: float | None = None

    @property
    def concurrency_served(self) -> int:
        """Concurrent requests the deployment carries within the targets: replicas x
        the largest batch within them (at most each replica's share of the load)."""
        if not (self.fits and self.single_request_meets):
            return 0
        batch = self.batch_within_targets or self.batch_per_replica
        share = self.concurrency_per_replica
        if share is None and self.required_concurrency:
            share = math.ceil(self.required_concurrency / self.replicas)
        if share is not None:
            batch = min(batch, share)
        return self.replicas * batch

    @property
    def meets_load(self) -> bool:
        """Fits, meets the targets and carries its share of the concurrent requests."""
        share = self.concurrency_per_replica
        served = share is None or self.batch_per_replica >= share
        return self.fits and self.meets_latency and served


def _batch_cap(max_batch: int, needs: ServingNeeds, share: int | None = None) -> int:
    cap = max(1, min(max_batch, MAX_BATCH))
    if share is not None:
        cap = min(cap, share)  # a count given: a replica runs at most its share
    elif needs.required_concurrency and not needs.required_rps:
        cap = min(cap, needs.required_concurrency)  # no need to batch beyond
    return cap


def _given_replicas(w: Workload, layout: ServingLayout) -> int:
    return max(1, (w.gpu_count or 0) // layout.gpus)


def _concurrency_share(w: Workload, needs: ServingNeeds, layout: ServingLayout):
    """With a GPU count given, each of its replicas carries concurrency / replicas
    (2 replicas at 64 requests run 32 each); None without a count or a concurrency."""
    if not (w.gpu_count and needs.required_concurrency):
        return None
    return math.ceil(needs.required_concurrency / _given_replicas(w, layout))


def _largest_batch(cost: LayoutCost, batch_cap: int) -> tuple[bool, int]:
    """(meets the latency targets, largest batch within them); (False, 1) when even a
    single request misses them. Binary search: latency grows with the batch."""
    if not cost.within_targets(1):
        return False, 1
    low, high = 1, batch_cap
    while low < high:
        middle = (low + high + 1) // 2
        if cost.within_targets(middle):
            low = middle
        else:
            high = middle - 1
    return True, low


def _replicas(
    w: Workload, needs: ServingNeeds, layout: ServingLayout, batch: int, rps: float
) -> int:
    """The buyer's GPU count, else enough replicas for the load at SERVING_UTILISATION
    and for the concurrent requests."""
    if w.gpu_count:
        return _given_replicas(w, layout)
    replicas = 1
    if needs.required_rps:
        replicas = max(
            replicas, math.ceil(needs.required_rps / (SERVING_UTILISATION * rps))
        )
    if needs.required_concurrency:
        replicas = max(replicas, math.ceil(needs.required_concurrency / batch))
    return replicas


def _plan_layout(w: Workload, cost: LayoutCost) -> InferencePlan:
    needs, layout = cost.needs, cost.layout
    max_batch = cost.max_batch()
    share = _concurrency_share(w, needs, layout)
    meets, batch = _largest_batch(cost, _batch_cap(max_batch, needs, share))
    single_meets, within = meets, batch
    if share and batch < share and max_batch >= 1:
        # the count given cannot hold its share within the targets: report the
        # latency at the share (at most what memory holds), not at a smaller batch
        batch = max(1, min(share, max_batch))
        meets = cost.within_targets(batch, share if share > batch else None)
    tpot_s = cost.tpot_s(batch)
    # with a count and a concurrency given the rate is at each replica's share (the
    # rate at a full batch would be unused; in a burst of varied lengths it costs a
    # drain)
    rps_per_replica = 0.0
    if share is None:
        rps_per_replica = cost.served_per_s(batch, batch)
    replicas = _replicas(w, needs, layout, batch, rps_per_replica)
    per_replica = _requests_per_replica(cost, share, batch, replicas)
    if share is not None or cost.drains_bursts:
        # a count given: only the requests there are run (1 request on 2 replicas
        # keeps one idle), so the delivered rate is at the concurrency, not beyond it;
        # a burst of varied lengths waits for the longest output of all replicas
        rps_per_replica = cost.served_per_s(batch, per_replica, replicas)
    weights = needs.weights
    micro_batch = math.ceil(batch / layout.pipeline)
    return InferencePlan(
        gpus=replicas * layout.gpus,
        tensor=layout.attention_tensor,
        pipeline=layout.pipeline,
        replicas=replicas,
        batch_per_replica=batch,
        memory=cost.memory(batch),
        kv_bytes_per_token=kv_cache_bytes_per_token(w.model, needs.kv_precision),
        kv_bytes_per_request=needs.kv_bytes_per_request,
        weights_total_bytes=weights.total,
        prefill_s=cost.prefill_latency_s,
        ttft_s=cost.ttft_s(batch, share if share and share > batch else None),
        tpot_s=tpot_s,
        decode_step_s=cost.decode_step_s(batch),
        tokens_per_second=replicas * rps_per_replica * needs.output_tokens,
        requests_per_second=replicas * rps_per_replica,
        required_rps=needs.required_rps,
        required_concurrency=needs.required_concurrency,
        meets_latency=meets,
        fits=max_batch >= 1,
        peak_tflops=cost.rates.peak_tflops,
        mem_bw_tbs=cost.rates.mem_bw_tbs,
        stage_gpus=layout.stage_gpus,
        expert_parallel=layout.expert_parallel,
        attention_data_parallel=layout.attention_data,
        decode_context=layout.decode_context,
        kv_precision=needs.kv_precision,
        kv_divisor=cost.kv_divisor,
        experts_touched=experts_touched(
            weights.experts, weights.active_experts, micro_batch
        ),
        max_batch_by_memory=max_batch,
        memory_budget_bytes=cost.rates.memory_budget_bytes,
        gpu_memory_fraction=w.gpu_memory_fraction,
        linear_state_bytes_per_request=linear_state_total_bytes(w.model),
        moe=cost.moe_terms(batch),
        concurrency_per_replica=share,
        single_request_meets=single_meets,
        batch_within_targets=within,
        burst_makespan_s=(
            cost.burst_span_s(batch, per_replica, replicas)
            if cost.drains_bursts
            else None
        ),
        burst_requests_per_replica=per_replica if cost.drains_bursts else None,
    )


def _requests_per_replica(
    cost: LayoutCost, share: int | None, batch: int, replicas: int
) -> float:
    """Requests each replica carries: with a count given, the concurrency over its
    replicas (fewer than one when replicas outnumber requests, more than the batch
    when they queue); in a burst of varied lengths without a count, its share of the
    concurrency (at most the batch); else the batch."""
    concurrency = cost.needs.required_concurrency
    if share is not None:
        return (concurrency or 0) / replicas
    if cost.drains_bursts and concurrency:
        return min(float(batch), concurrency / replicas)
    return float(batch)


def _request_latency_s(plan: InferencePlan, w: Workload) -> float:
    """A request end to end: TTFT + (output tokens - 1) x TPOT."""
    return plan.ttft_s + ((w.output_tokens or 1) - 1) * plan.tpot_s


def _preference(plan: InferencePlan, w: Workload) -> tuple:
    """Sort key: fitting first (else the least memory per GPU), then meeting the latency
    targets, then the fewest GPUs (with a GPU count given: the most throughput; with the
    targets missed: the lowest TPOT), then the shortest request (TTFT + output x TPOT)."""
    if not plan.fits:
        return (1, 1, plan.memory.total, plan.tpot_s)
    if not plan.meets_load:
        # none carries the load: the one that holds the most of it, then the fastest
        held = plan.replicas * plan.batch_per_replica
        if plan.required_concurrency:
            held = min(held, plan.required_concurrency)
        return (0, 1, -held if w.gpu_count else 0, plan.tpot_s, plan.ttft_s)
    if w.gpu_count and plan.required_concurrency:
        # the count and the concurrent requests are given: every layout that carries
        # them delivers concurrency / request time, so the shortest request wins
        # (NIM's TP2 profile on 2 GPUs at concurrency 1, not two idle-half replicas)
        return (0, 0, _request_latency_s(plan, w), -plan.requests_per_second)
    first = -plan.requests_per_second if w.gpu_count else plan.gpus
    return (0, 0, first, _request_latency_s(plan, w))


def _cannot_win(layout: ServingLayout, best: InferencePlan | None, w: Workload) -> bool:
    """Layouts come smallest first: once a plan fits and meets the targets, a layout
    with more GPUs per replica than its total cannot need fewer."""
    if best is None or not best.meets_load:
        return False
    return layout.gpus > best.gpus


def _needs_more_gpus(cost: LayoutCost, best: InferencePlan | None, w: Workload) -> bool:
    """True when even this layout's largest batch would need more GPUs than the best
    plan: no batch fits, or the replicas for the concurrency (batch <= memory limit) or
    for the load (throughput <= that of the memory-limited batch) exceed it."""
    if best is None or not (best.fits and best.meets_latency) or w.gpu_count:
        return best is not None and best.fits and cost.max_batch() < 1
    needs = cost.needs
    largest = min(cost.max_batch(), MAX_BATCH)
    if largest < 1:
        return True
    replicas = 1
    if needs.required_concurrency:
        replicas = math.ceil(needs.required_concurrency / largest)
    if needs.required_rps:
        rps = largest / cost.turnover_s(largest)
        replicas = max(
            replicas, math.ceil(needs.required_rps / (SERVING_UTILISATION * rps))
        )
    return replicas * cost.layout.gpus > best.gpus


def plan_inference(
    acc: Accelerator, server: ServerPlatform, fabric: Fabric, w: Workload
) -> InferencePlan:
    """The serving layout and replica count with the fewest GPUs for the load."""
    rates = device_rates(acc, w)
    needs = serving_needs(w)
    best: InferencePlan | None = None
    searched = 0
    for layout in candidate_layouts(w.model, server.gpus_per_node):
        if _cannot_win(layout, best, w) or _beyond_count(layout, best, w):
            break
        cost = LayoutCost(w.model, fabric, needs, rates, layout)
        if _needs_more_gpus(cost, best, w):
            continue
        searched += 1
        plan = _plan_layout(w, cost)
        if best is None or _preference(plan, w) < _preference(best, w):
            best = plan
    assert best is not None
    best = replace(
        best,
        layouts_searched=searched,
        gemm_efficiency=gemm_efficiency(acc, w.precision),
    )
    if w.gpu_count and not best.meets_load:
        best = replace(best, gpus_needed=_gpus_needed(acc, server, fabric, w))
    return best


def _beyond_count(
    layout: ServingLayout, best: InferencePlan | None, w: Workload
) -> bool:
    """A GPU count given is kept: no replica larger than it is searched (the
    smallest layout is, when even it is larger, so that a plan exists to report)."""
    return bool(w.gpu_count and best is not None and layout.gpus > w.gpu_count)


@lru_cache(maxsize=256)
def _gpus_needed(
    acc: Accelerator, server: ServerPlatform, fabric: Fabric, w: Workload
) -> int | None:
    """The GPUs the same load needs when the engine chooses the count; None when no
    count meets it. Cached: the quick calculator and a comparison of several bids ask
    it again for the same load."""
    plan = plan_inference(acc, server, fabric, replace(w, gpu_count=None))
    return plan.gpus if plan.meets_load else None
