"""What each bid delivers for the procurement's planned workloads, as the comparison
reads it: the sizing engine's figures (`plan_facts.delivered_capability`) per bid, and
the `capability.Capability` the compliance items are judged from.

The stored plan is read once; the engine runs once per distinct (accelerator, GPU
count), so the comparison's queries do not grow with the number of bids. Without a
stored plan workload (a plan summary only) the delivered figures are the effective
compute from the catalog rows: GPUs x dense BF16 peak.
"""

from __future__ import annotations

from django.utils import translation

from clusterbuy.models import Procurement
from sizing.input_errors import delivered_error
from sizing.services import PlanSummary

from ..engine.capability import Capability, WorkloadCapability, catalog_pflops
from ..models import Bid
from ..services import plan_facts


def _name(key: str, accelerators: dict) -> str:
    row = accelerators.get(key)
    return str(row) if row is not None else key


def _catalog_pflops(key: str, gpu_count: int | None, accelerators: dict):
    peak = getattr(accelerators.get(key), "bf16_dense_tflops", None)
    return catalog_pflops(gpu_count, peak)


def _from_catalog(
    key: str, gpu_count: int, plan: PlanSummary | None, accelerators: dict
) -> dict:
    """Effective compute only, when the plan's workloads cannot be sized again."""
    plan_key = plan.accelerator if plan else ""
    plan_count = plan.gpu_count if plan else None
    return {
        "accelerator": key,
        "gpu_count": gpu_count,
        "precision": "bf16",
        "compute_pflops": _catalog_pflops(key, gpu_count, accelerators),
        "plan": {
            "accelerator": plan_key,
            "gpu_count": plan_count,
            "compute_pflops": _catalog_pflops(plan_key, plan_count, accelerators),
        },
        "workloads": [],
        "error": "" if key in accelerators else f"unknown accelerator {key!r}",
    }


def delivered_by_bid(
    procurement: Procurement,
    bids: list[Bid],
    plan: PlanSummary | None,
    accelerators: dict,
) -> dict[int, dict]:
    """Bid id -> what it delivers (`sizing.services.delivered_from_basis` keys plus
    accelerator_name and plan.accelerator_name); no entry without a plan or a valid
    GPU count."""
    if plan is None:
        return {}
    basis = plan_facts.delivery_basis(procurement=procurement)
    by_offer: dict[tuple[str, int], dict] = {}
    delivered: dict[int, dict] = {}
    for bid in bids:
        gpu_count = bid.checked("gpu_count")
        if not gpu_count:
            continue
        offer = (bid.accelerator, gpu_count)
        if offer not in by_offer:
            entry = (
                plan_facts.delivered_capability(
                    basis=basis, accelerator_key=offer[0], gpu_count=gpu_count
                )
                if basis is not None
                else _from_catalog(offer[0], gpu_count, plan, accelerators)
            )
            entry["accelerator_name"] = _name(offer[0], accelerators)
            entry["plan"]["accelerator_name"] = _name(
                entry["plan"]["accelerator"], accelerators
            )
            by_offer[offer] = entry
        delivered[bid.pk] = by_offer[offer]
    return delivered


def _workload(entry: dict) -> WorkloadCapability:
    training = entry["kind"] in ("training", "fine_tuning")
    needed = entry.get("target_days") or entry.get("plan_training_days")
    return WorkloadCapability(
        name=entry["name"],
        kind=entry["kind"],
        fits=entry.get("fits"),
        training_days=entry.get("training_days"),
        needed_days=needed if training else None,
        plan_days=entry.get("plan_training_days"),
        tokens_per_second=entry.get("tokens_per_second"),
        requests_per_second=entry.get("requests_per_second"),
        concurrent_requests=entry.get("concurrent_requests"),
        required_requests_per_second=entry.get("required_requests_per_second"),
        required_concurrent_requests=entry.get("required_concurrent_requests"),
        meets_latency=entry.get("meets_latency"),
        **_errors(entry),
    )


def _errors(entry: dict) -> dict:
    """Why the workload could not be sized, in both languages of the notes."""
    if not entry.get("error"):
        return {}
    with translation.override("en"):
        error = delivered_error(entry)
    with translation.override("zh-hans"):
        error_zh = delivered_error(entry)
    return {"error": error, "error_zh": error_zh}


def capability_for(delivered: dict | None) -> Capability | None:
    """The figures `capability.compute_item` and `memory_fit_item` judge."""
    if delivered is None:
        return None
    plan = delivered["plan"]
    return Capability(
        plan_label=f"{plan['gpu_count']} x {plan['accelerator_name']}",
        offer_label=f"{delivered['gpu_count']} x {delivered['accelerator_name']}",
        precision=delivered["precision"],
        needed_pflops=plan["compute_pflops"],
        offered_pflops=delivered["compute_pflops"],
        workloads=tuple(_workload(w) for w in delivered["workloads"]),
    )


def _rounded(value):
    if isinstance(value, float):
        return round(value, 4)
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_rounded(v) for v in value]
    return value


def delivered_json(delivered: dict | None, bid: Bid) -> dict | None:
    """The API's ``delivered`` of one bid: the engine's figures rounded, the share of
    the plan's effective compute, and the vendor's own promises beside them."""
    if delivered is None:
        return None
    needed = delivered["plan"]["compute_pflops"]
    offered = delivered["compute_pflops"]
    return {
        **_rounded(delivered),
        "compute_share": round(offered / needed, 4) if needed and offered else None,
        "promised_training_days": bid.checked("promised_training_days"),
        "promised_tokens_per_s": bid.checked("promised_tokens_per_s"),
    }
