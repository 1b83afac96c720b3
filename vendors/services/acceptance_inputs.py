"""What the acceptance plan is derived from: `AcceptanceInputs` read off the decided
bid (or the sizing plan), the sizing catalog's datasheet figures and the planned
workload, and the clauses the app adds to the engine's: the bid's service terms and
the safety checks."""

from __future__ import annotations

import dataclasses
import math

from django.utils.translation import gettext as _

from clusterbuy.models import Procurement
from clusterbuy.services import ServiceError
from sizing.models import Workload

from ..engine.acceptance import AcceptanceInputs, build_clauses
from ..models import Bid, ClauseCategory
from . import plan_facts

#: GPUs in an HGX/DGX-class server board, the usual node when a bid states no nodes.
DEFAULT_GPUS_PER_NODE = 8
SECONDS_PER_DAY = 86_400

# --- the inputs ----------------------------------------------------------------------


def _vendor_family(vendor: str) -> str:
    name = (vendor or "").lower()
    if "nvidia" in name:
        return "nvidia"
    if "huawei" in name:
        return "huawei"
    return "other"


def _workload_target(
    *, procurement: Procurement, accelerator_key: str, gpu_count: int
) -> tuple[str | None, float | None, str | None, Workload | None]:
    """The first planned workload's kind, its target and unit: serving, the output
    tokens a second it must sustain; training, the cluster's training throughput
    (tokens/s) the sizing engine predicts for this cluster (the stored plan has no
    step time). None when there is no workload or the engine could not size it."""
    workload = Workload.objects.for_procurement(procurement).order_by("id").first()
    if workload is None:
        return None, None, None, None
    if not workload.is_training:
        target = workload.tokens_per_second
        return "serving", target, "tokens/s", workload
    predicted = predicted_training_days(
        procurement=procurement, accelerator_key=accelerator_key, gpu_count=gpu_count
    )
    throughput = training_throughput(workload.tokens_b, predicted)
    return "training", throughput, "tokens/s", workload


def training_throughput(tokens_b: float | None, days: float | None) -> float | None:
    """Tokens a second a run of ``tokens_b`` billion tokens in ``days`` days keeps
    up (tokens_b x 1e9 / (days x 86 400))."""
    if not tokens_b or not days or days <= 0:
        return None
    return tokens_b * 1e9 / (days * SECONDS_PER_DAY)


def predicted_training_days(
    *, procurement: Procurement, accelerator_key: str, gpu_count: int
) -> float | None:
    basis = plan_facts.delivery_basis(procurement=procurement)
    if basis is None:
        return None
    delivered = plan_facts.delivered_capability(
        basis=basis, accelerator_key=accelerator_key, gpu_count=gpu_count
    )
    for entry in delivered.get("workloads", []):
        if entry.get("kind") == "training" and entry.get("training_days"):
            return float(entry["training_days"])
    return None


def predicted_tokens_per_s(
    *, procurement: Procurement, accelerator_key: str, gpu_count: int
) -> float | None:
    basis = plan_facts.delivery_basis(procurement=procurement)
    if basis is None:
        return None
    delivered = plan_facts.delivered_capability(
        basis=basis, accelerator_key=accelerator_key, gpu_count=gpu_count
    )
    for entry in delivered.get("workloads", []):
        if entry.get("kind") != "training" and entry.get("tokens_per_second"):
            return float(entry["tokens_per_second"])
    return None


def acceptance_inputs(
    *, procurement: Procurement, bid: Bid | None = None, burn_in_hours: int = 72
) -> AcceptanceInputs:
    """What the engine derives the clauses from: the bid's cluster (or, without a
    bid, the sizing plan's) with the catalog's datasheet figures for its accelerator.

    One compute NIC per GPU at the bid's network figure per GPU: the rail-optimised
    layout of 8-GPU servers (8 NICs for 8 GPUs); a bid that states no network figure
    gets no NIC clause (0 NICs). ServiceError without a bid and a plan, or for an
    accelerator the catalog does not hold."""
    plan = plan_facts.plan_summary(procurement=procurement)
    if bid is None and plan is None:
        raise ServiceError(
            _(
                "There is neither a decided bid nor a sizing plan to derive the "
                "acceptance tests from."
            )
        )
    key = (
        plan_facts.accelerator_key_for(bid.accelerator) or bid.accelerator
        if bid is not None
        else plan.accelerator
    )
    row = plan_facts.accelerators_by_key([key]).get(key)
    if row is None:
        raise ServiceError(
            _("The accelerator %(key)s is not in the hardware catalog.") % {"key": key}
        )
    gpu_count = bid.gpu_count if bid is not None else plan.gpu_count
    stated_nodes = bid.nodes if bid is not None else plan.nodes
    if stated_nodes:
        gpus_per_node = max(1, gpu_count // stated_nodes)
    elif plan is not None and plan.gpus_per_node and plan.accelerator == key:
        gpus_per_node = plan.gpus_per_node
    else:
        gpus_per_node = min(gpu_count, DEFAULT_GPUS_PER_NODE)
    nodes = stated_nodes or math.ceil(gpu_count / gpus_per_node)
    if bid is not None:
        nic_gbps = bid.network_gbps_per_gpu
        read_gbs, write_gbs = bid.storage_read_gbs, bid.storage_write_gbs
        link = bid.scaleup_link or row.scaleup_link
    else:
        nic_gbps = plan.network_gbps_per_gpu
        read_gbs, write_gbs = plan.storage_read_gbs, plan.storage_write_gbs
        link = row.scaleup_link
    kind, target, unit, workload = _workload_target(
        procurement=procurement, accelerator_key=key, gpu_count=gpu_count
    )
    return AcceptanceInputs(
        accelerator_key=key,
        vendor_family=_vendor_family(row.vendor),
        gpu_count=gpu_count,
        nodes=nodes,
        gpus_per_node=gpus_per_node,
        scaleup_link=link or "",
        scaleup_bw_gbs=float(row.scaleup_gbs_per_gpu or 0.0),
        hbm_bw_tbs=float(row.mem_bw_tbs or 0.0),
        fp64_tflops=row.fp64_tflops,
        fp64_source=f"FP64 peak: {row.fp64_source}" if row.fp64_source else "",
        nics_per_node=gpus_per_node if nic_gbps else 0,
        nic_gbps=float(nic_gbps or 0.0),
        storage_read_gbs=read_gbs,
        storage_write_gbs=write_gbs,
        workload_kind=kind,
        workload_target=target,
        workload_unit=unit,
        burn_in_hours=burn_in_hours,
        promised=_promised(bid, kind, workload),
    )


def _promised(bid: Bid | None, kind: str | None, workload) -> dict[str, float]:
    """The bid's own performance promise in the workload clause's unit."""
    if bid is None or kind is None:
        return {}
    if kind == "serving" and bid.promised_tokens_per_s:
        return {"workload": float(bid.promised_tokens_per_s)}
    if kind == "training" and workload is not None:
        promised = training_throughput(workload.tokens_b, bid.promised_training_days)
        if promised:
            return {"workload": promised}
    return {}


# --- the clauses the app adds: the bid's service terms and the safety checks --------

_SERVICE_SOURCE = "The winning bid's service terms (its SLA), part of the contract"


def _service_clauses(bid: Bid | None) -> list[dict]:
    """The SLA the bid promised, as clauses checked by hand during acceptance: the
    response time per severity (a test ticket answered within it), the on-site
    arrival, the availability and the warranty in the contract."""
    if bid is None:
        return []
    rows = []
    for severity, hours in sorted((bid.response_hours or {}).items()):
        rows.append(
            {
                "key": f"service_response_{severity}",
                "metric": "response_hours",
                "unit": "h",
                "comparison": "<=",
                "required": float(hours),
                "command": "Open a test ticket of this severity; record the hours "
                "until the vendor's engineer answered.",
                "basis": f"response time promised for {severity}",
            }
        )
    if bid.onsite_hours is not None:
        rows.append(
            {
                "key": "service_onsite",
                "metric": "onsite_hours",
                "unit": "h",
                "comparison": "<=",
                "required": float(bid.onsite_hours),
                "command": "Record the hours until an engineer was on site for the "
                "first hardware fault.",
                "basis": "on-site arrival promised",
            }
        )
    if bid.availability_pct is not None:
        rows.append(
            {
                "key": "service_availability",
                "metric": "availability_pct",
                "unit": "%",
                "comparison": ">=",
                "required": float(bid.availability_pct),
                "command": "Availability over the burn-in (hours up / hours) from the "
                "monitoring.",
                "basis": "availability promised",
            }
        )
    if bid.warranty_years is not None:
        rows.append(
            {
                "key": "service_warranty",
                "metric": "warranty_years",
                "unit": "years",
                "comparison": ">=",
                "required": float(bid.warranty_years),
                "command": "Warranty years written in the signed contract.",
                "basis": "warranty promised",
            }
        )
    return [
        {
            **row,
            "category": ClauseCategory.SERVICE,
            "tool": "manual",
            "scope": "cluster",
            "source": _SERVICE_SOURCE,
        }
        for row in rows
    ]


def _safety_clauses(bid: Bid | None) -> list[dict]:
    """Electrical safety: the peak power drawn at full load (the burn-in) within the
    power the bid stated, for which the circuits and cooling were sized; and the
    electrical inspection (grounding, PDUs, breakers) passed."""
    rows = []
    if bid is not None and bid.peak_power_kw:
        rows.append(
            {
                "key": "safety_peak_power",
                "metric": "peak_power_kw",
                "unit": "kW",
                "comparison": "<=",
                "required": float(bid.peak_power_kw),
                "command": "Peak IT power (kW) at the PDUs during the burn-in.",
                "basis": "peak power the bid stated; circuits and cooling sized for it",
                "source": "The winning bid's stated peak power",
            }
        )
    rows.append(
        {
            "key": "safety_electrical",
            "metric": "pass",
            "unit": "",
            "comparison": "pass",
            "required": None,
            "command": "Electrical inspection of the racks: grounding, PDUs, breakers, "
            "cable routing; the inspector's report attached.",
            "basis": "inspection passed",
            "source": "The site's electrical safety rules",
        }
    )
    return [
        {**row, "category": ClauseCategory.SAFETY, "tool": "manual", "scope": "cluster"}
        for row in rows
    ]


def clause_rows(inputs: AcceptanceInputs, bid: Bid | None) -> list[dict]:
    rows = [dataclasses.asdict(spec) for spec in build_clauses(inputs)]
    for row in rows:
        row["operation"] = row.get("operation") or ""
    keys = {row["key"] for row in rows}
    extra = [
        {"gpus": None, "operation": "", **r}
        for r in _service_clauses(bid) + _safety_clauses(bid)
        if r["key"] not in keys
    ]
    start = max((row["order"] for row in rows), default=0)
    for offset, row in enumerate(extra, start=1):
        row["order"] = start + offset
    return rows + extra


def predictions(procurement: Procurement, inputs: AcceptanceInputs) -> dict:
    """Beside the engine's inputs: the sizing engine's prediction of the workload
    figure for this cluster (the sizing error compares it with the measured one) and
    the training run's tokens (to say a measured throughput in days)."""
    workload = Workload.objects.for_procurement(procurement).order_by("id").first()
    out = {"workload_predicted": None, "training_tokens_b": None}
    if workload is None:
        return out
    if workload.is_training:
        out["training_tokens_b"] = workload.tokens_b
        out["workload_predicted"] = inputs.workload_target
    else:
        out["workload_predicted"] = predicted_tokens_per_s(
            procurement=procurement,
            accelerator_key=inputs.accelerator_key,
            gpu_count=inputs.gpu_count,
        )
    return out
