"""What a cluster of given accelerators delivers for a procurement's planned workloads.

A vendor offers N GPUs of some accelerator; the buyer needs to know what that runs, not
how many cards it is. Each workload of the latest stored plan is sized again with the
same engine call the plan used (`estimate`, which `plan_cluster` calls per workload),
with the offered accelerator and the workload's share of the offered GPUs given as its
``gpu_count``: training days at the engine's default (calibrated) MFU, memory fit with a
valid layout, serving capacity at the latency targets. A bid identical to the plan gets
the plan's days, because the engine computes them the same way at the same count.

Plain data out (dicts), read by vendors through `vendors/plan_facts.py`. The stored plan
and the catalogue are read once (`delivery_basis`); `delivered_capability` then makes no
query, so a comparison of many bids costs one basis plus engine time per distinct
(accelerator, GPU count).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from clusterbuy.models import Procurement
from sizing.engine import (
    Catalog,
    Constraints,
    SizingInputError,
    constraints_from_dict,
    estimate,
    workload_from_dict,
)
from sizing.engine import Workload as EngineWorkload
from sizing.engine.platform import server_for
from sizing.engine.serving_needs import required_load

from .catalog import engine_catalog
from .plans import latest_plan

# A GPU count no layout divides (e.g. 100 GPUs under a 4M-token batch) is tried again at
# the next lower node multiples, at most this many times.
LAYOUT_FALLBACK_STEPS = 16
NO_FIT = "memory_exceeds_capacity"
LATENCY_UNMET = "latency_target_unmet"


@dataclass(frozen=True)
class PlannedWorkload:
    """One workload of the stored plan: its parsed inputs and what the plan gave it."""

    name: str
    workload: EngineWorkload
    plan_gpus: int
    plan_days: float | None


@dataclass(frozen=True)
class DeliveryBasis:
    """What every offer is sized against: the plan's workloads, site and catalogue."""

    catalog: Catalog
    constraints: Constraints
    workloads: tuple[PlannedWorkload, ...]
    plan_accelerator: str
    plan_gpu_count: int
    time_shared: bool


def delivery_basis(*, procurement: Procurement) -> DeliveryBasis | None:
    """The latest plan's workloads as the engine reads them; None without a plan (or
    when its stored inputs no longer parse, e.g. a preset removed from the catalogue)."""
    plan = latest_plan(procurement=procurement)
    if plan is None:
        return None
    catalog = engine_catalog()
    result, inputs = plan.result, plan.inputs
    results = result.get("workloads") or []
    items = inputs.get("workloads") or []
    if not items or len(items) != len(results):
        return None
    try:
        constraints = constraints_from_dict(inputs.get("constraints"))
        workloads = tuple(
            PlannedWorkload(
                name=item.get("name") or item.get("model_name") or "",
                workload=workload_from_dict(item["workload"], catalog),
                plan_gpus=int(planned["gpu_count"]),
                plan_days=(planned.get("training") or {}).get("days"),
            )
            for item, planned in zip(items, results, strict=True)
        )
    except (SizingInputError, KeyError, TypeError, ValueError):
        return None
    return DeliveryBasis(
        catalog=catalog,
        constraints=constraints,
        workloads=workloads,
        plan_accelerator=result["accelerator"],
        plan_gpu_count=int(result["gpu_count"]),
        time_shared=constraints.time_shared,
    )


def gpu_shares(basis: DeliveryBasis, gpu_count: int) -> list[int]:
    """The offered GPUs split as the plan split its own: every workload gets all of
    them when the plan time-shares the cluster; otherwise each gets its planned share
    (rounded down, the remainder to the largest), so the plan's own count gives back
    the plan's split exactly."""
    if basis.time_shared or len(basis.workloads) == 1:
        return [gpu_count] * len(basis.workloads)
    total = sum(w.plan_gpus for w in basis.workloads) or 1
    shares = [gpu_count * w.plan_gpus // total for w in basis.workloads]
    largest = max(range(len(shares)), key=lambda i: basis.workloads[i].plan_gpus)
    shares[largest] += gpu_count - sum(shares)
    return shares


def _peak_pflops(basis: DeliveryBasis, key: str, gpus: int, precision: str) -> float:
    acc = basis.catalog.accelerators.get(key)
    peak = acc.peak_tflops(precision) if acc else None
    return gpus * (peak or 0.0) / 1000.0


def primary_precision(basis: DeliveryBasis) -> str:
    """The precision effective compute is counted at: the first training workload's,
    else the first workload's."""
    training = [p for p in basis.workloads if p.workload.is_training]
    return (training or list(basis.workloads))[0].workload.precision


def _sized(basis: DeliveryBasis, planned: PlannedWorkload, key: str, gpus: int):
    """The engine's result at ``gpus`` GPUs, or at the next lower node multiple a layout
    divides; (result, gpus used, the engine's refusal or None)."""
    per_node = server_for(basis.catalog.accelerators[key], basis.catalog).gpus_per_node
    counts = [gpus] + [
        c
        for step in range(LAYOUT_FALLBACK_STEPS)
        if (c := (gpus // per_node - step) * per_node) > 0 and c < gpus
    ]
    error = None
    for count in counts:
        workload = replace(planned.workload, gpu_count=count)
        try:
            result = estimate(workload, basis.catalog, key, basis.constraints)
            return result, count, None
        except SizingInputError as exc:
            error = exc
            if exc.field not in ("workload.gpu_count", "workload.global_batch_tokens"):
                break
    return None, gpus, error


def _training(result, planned: PlannedWorkload) -> dict:
    training = result.training or {}
    return {
        "training_days": training.get("days"),
        "mfu": training.get("mfu"),
        "target_days": planned.workload.target_days,
        "plan_training_days": planned.plan_days,
    }


def _serving(result, planned: PlannedWorkload, codes: set[str]) -> dict:
    serving = result.inference or {}
    rps, concurrency = required_load(planned.workload)
    # the engine's one figure: replicas x the largest batch within the targets, each
    # replica carrying its share of the load (the plan's own count serves the plan's)
    served = serving.get("concurrency_served")
    if served is None:
        served = (serving.get("replicas") or 0) * (
            serving.get("batch_per_replica") or 0
        )
    return {
        "tokens_per_second": serving.get("tokens_per_second"),
        "requests_per_second": serving.get("requests_per_second"),
        "concurrent_requests": served,
        "meets_latency": LATENCY_UNMET not in codes,
        "ttft_ms": serving.get("ttft_ms"),
        "tpot_ms": serving.get("tpot_ms"),
        "required_requests_per_second": rps,
        "required_concurrent_requests": concurrency,
        "ttft_target_ms": planned.workload.ttft_ms,
        "tpot_target_ms": planned.workload.tpot_ms,
    }


def _workload_delivery(
    basis: DeliveryBasis, planned: PlannedWorkload, key: str, share: int
) -> dict:
    w = planned.workload
    entry = {
        "name": planned.name,
        "kind": w.kind,
        "precision": w.precision,
        "gpu_count": share,
        "plan_gpu_count": planned.plan_gpus,
        "gpus_used": None,
        "fits": None,
        "error": "",
    }
    if share <= 0:
        return {
            **entry,
            "fits": False,
            "error": "no GPUs left for this workload",
            "error_code": "no_gpus_left",
        }
    result, used, error = _sized(basis, planned, key, share)
    if result is None:
        # The code and params let a page say it in the reader's language.
        return {
            **entry,
            "error": error.message if error else "",
            "error_code": error.code if error else "",
            "error_params": error.params if error else {},
        }
    codes = {b.code for b in result.bottlenecks}
    fits = NO_FIT not in codes and result.gpu_count <= share
    entry.update(
        gpus_used=used,
        fits=fits,
        # what the run needs around the GPUs at this size (the bid's network and
        # storage are compared with it by the caller)
        network_need_gbps_per_gpu=result.interconnect.get("scale_out_gbps_per_gpu"),
        storage_write_need_gbs=result.storage.get("checkpoint_write_gbs"),
    )
    if w.is_training:
        entry.update(_training(result, planned))
    else:
        entry.update(_serving(result, planned, codes))
    return entry


def delivered_from_basis(
    *, basis: DeliveryBasis, accelerator_key: str, gpu_count: int
) -> dict:
    """What ``gpu_count`` x ``accelerator_key`` delivers for each planned workload.

    Keys: accelerator, gpu_count, precision (of the effective compute), compute_pflops
    (GPUs x dense peak at that precision / 1000), plan {accelerator, gpu_count,
    compute_pflops}, workloads [one dict per workload: name, kind, precision,
    gpu_count (its share), plan_gpu_count, gpus_used, fits, error,
    network_need_gbps_per_gpu (scale-out traffic to hide behind compute),
    storage_write_need_gbs (checkpoint writes within the stall budget); training:
    training_days, mfu, target_days, plan_training_days; serving: tokens_per_second,
    requests_per_second, concurrent_requests, meets_latency, ttft_ms, tpot_ms and the
    required load and latency targets], error ("" or why nothing was sized).
    """
    precision = primary_precision(basis)
    plan = {
        "accelerator": basis.plan_accelerator,
        "gpu_count": basis.plan_gpu_count,
        "compute_pflops": _peak_pflops(
            basis, basis.plan_accelerator, basis.plan_gpu_count, precision
        ),
    }
    delivered = {
        "accelerator": accelerator_key,
        "gpu_count": gpu_count,
        "precision": precision,
        "compute_pflops": None,
        "plan": plan,
        "workloads": [],
        "error": "",
    }
    if accelerator_key not in basis.catalog.accelerators:
        return {
            **delivered,
            "error": f"unknown accelerator {accelerator_key!r}",
            "error_code": "unknown_accelerator",
            "error_params": {"key": accelerator_key},
        }
    if not gpu_count or gpu_count <= 0 or not math.isfinite(gpu_count):
        return {**delivered, "error": "no GPU count", "error_code": "no_gpu_count"}
    delivered["compute_pflops"] = _peak_pflops(
        basis, accelerator_key, gpu_count, precision
    )
    shares = gpu_shares(basis, gpu_count)
    delivered["workloads"] = [
        _workload_delivery(basis, planned, accelerator_key, share)
        for planned, share in zip(basis.workloads, shares, strict=True)
    ]
    return delivered


def delivered_capability(
    *, procurement: Procurement, accelerator_key: str, gpu_count: int
) -> dict | None:
    """`delivered_from_basis` for one offer; None when the procurement has no plan."""
    basis = delivery_basis(procurement=procurement)
    if basis is None:
        return None
    return delivered_from_basis(
        basis=basis, accelerator_key=accelerator_key, gpu_count=gpu_count
    )
