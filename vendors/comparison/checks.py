"""A bid checked against the sizing plan (compliance) and against the pitfall
detectors, and the case-study evidence it brings: the facts the pure modules
(`compliance.py`, `detectors.py`) are given, read from the ORM rows."""

from __future__ import annotations

from clusterbuy.models import Procurement
from sizing.services import PlanSummary
from tco.services import price_book

from ..engine.capability import Capability, check_capability_compliance
from ..engine.compliance import (
    COOLING_KINDS,
    BidOffer,
    ComplianceInputError,
    ComplianceItem,
    ComplianceStatus,
    PlanNeeds,
)
from ..engine.detectors import (
    WORKLOAD_KINDS,
    BidFacts,
    LineItemFacts,
    Pitfall,
    ProcurementFacts,
    detect_all,
)
from ..models import PROPOSAL_TEXT_MAX_CHARS, Bid
from ..services import plan_facts
from ..services.rfp_text import published_rfp_text
from .labels import COMPLIANCE_ITEMS
from .pricing import Line, plan_scale


def plan_needs(plan: PlanSummary | None) -> PlanNeeds | None:
    if not plan:
        return None
    try:
        cooling = plan.cooling if plan.cooling in COOLING_KINDS else "air"
        return PlanNeeds(
            gpu_count=int(plan.gpu_count),
            vram_gb_per_gpu=float(plan.vram_gb_per_gpu or 0),
            scaleup_domain_gpus=int(plan.scaleup_domain_gpus or 0),
            network_gbps_per_gpu=float(plan.network_gbps_per_gpu or 0),
            storage_tb=float(plan.storage_tb or 0),
            storage_read_gbs=float(plan.storage_read_gbs or 0),
            storage_write_gbs=float(plan.storage_write_gbs or 0),
            it_power_kw=float(plan.it_power_kw or 0),
            cooling=cooling,
            ecosystem=plan.ecosystem or None,
        )
    except (KeyError, TypeError, ValueError):
        return None


def no_plan_items(offer: BidOffer | None = None) -> list[ComplianceItem]:
    return [
        ComplianceItem(
            item,
            ComplianceStatus.WARN,
            None,
            getattr(offer, item, None),
            "",
            "warn: no sizing plan",
            "提醒：尚无配置方案",
        )
        for item in COMPLIANCE_ITEMS
    ]


def bid_offer(bid: Bid, accelerator) -> BidOffer:
    """The bid's offer as the compliance engine reads it; an invalid stored figure is
    not stated (`Bid.checked`), and the page marks it invalid."""
    return BidOffer(
        gpu_count=bid.checked("gpu_count"),
        vram_gb_per_gpu=getattr(accelerator, "memory_gb", None),
        scaleup_domain_gpus=bid.checked("scaleup_domain_gpus")
        or getattr(accelerator, "scaleup_domain_gpus", None),
        network_gbps_per_gpu=bid.checked("network_gbps_per_gpu"),
        storage_tb=bid.checked("storage_tb"),
        storage_read_gbs=bid.checked("storage_read_gbs"),
        storage_write_gbs=bid.checked("storage_write_gbs"),
        it_power_kw=bid.checked("peak_power_kw"),
        cooling=bid.cooling or None,
        ecosystem=getattr(accelerator, "ecosystem", None) or None,
    )


def compliance_for(
    bid: Bid,
    accelerator,
    needs: PlanNeeds | None,
    capability: Capability | None = None,
) -> list[ComplianceItem]:
    """The plan's items, ``compute`` and ``memory_fit`` first (what the bid's GPUs
    deliver, `comparison.delivered`), then the infrastructure figures."""
    offer = bid_offer(bid, accelerator)
    if needs is None:
        return no_plan_items(offer)
    try:
        return check_capability_compliance(needs, offer, capability)
    except ComplianceInputError:
        return no_plan_items(offer)


def procurement_facts(
    procurement: Procurement, plan: PlanSummary | None, needs: PlanNeeds | None
) -> ProcurementFacts:
    plan = plan or PlanSummary()
    kinds = [k for k in plan.workload_kinds if k in WORKLOAD_KINDS]
    return ProcurementFacts(
        workload_kind=kinds[0] if kinds else "",
        model_names=tuple(n for n in plan.model_names if n),
        model_params_b=plan.model_params_b,
        data_tb=plan.data_tb,
        location=procurement.city,
        needs=needs,
        rfp_text=published_rfp_text(procurement=procurement),
        plan_scale=plan_scale(plan) if needs is not None else None,
        price_book=price_book(),
    )


def evidence_kinds(bid: Bid) -> frozenset[str]:
    kinds: set[str] = set()
    for study in bid.case_studies.all():
        kinds |= study.evidence_kinds
    return frozenset(kinds)


def pitfalls_for(
    bid: Bid,
    lines: list[Line],
    context: ProcurementFacts,
    others: list[str],
) -> list[Pitfall]:
    """The detectors on one bid. Line items are read with their descriptions (a lump
    sum that declares its scope covers those categories); ``lines`` is the priced
    view the TCO uses, kept for a bid whose rows cannot be read."""
    rows = [li for li in bid.line_items.all() if li.is_valid]
    items = (
        tuple(
            LineItemFacts(
                li.category,
                li.amount,
                li.recurring,
                li.description,
                tuple(li.scope or ()),
            )
            for li in rows
        )
        if rows
        else tuple(
            LineItemFacts(li.category, li.amount, li.recurring, scope=li.scope)
            for li in lines
        )
    )
    facts = BidFacts(
        line_items=items,
        network_gbps_per_gpu=bid.checked("network_gbps_per_gpu"),
        storage_tb=bid.checked("storage_tb"),
        storage_read_gbs=bid.checked("storage_read_gbs"),
        proposal_text=proposal_text(bid),
        evidence_kinds=evidence_kinds(bid),
        promised_training_days=bid.checked("promised_training_days"),
        scheduler=bid.scheduler,
        frameworks=tuple(bid.checked("frameworks") or ()),
        gpu_count=bid.checked("gpu_count"),
        nodes=bid.checked("nodes"),
        delivery_weeks=bid.checked("delivery_weeks"),
        availability_pct=bid.checked("availability_pct"),
        promised_tokens_per_s=bid.checked("promised_tokens_per_s"),
        root_access=bid.root_access,
        native_scheduler_access=bid.native_scheduler_access,
        job_submission=bid.job_submission,
        licence_fee=bid.licence_fee,
        expansion_terms=bid.expansion_terms,
    )
    return detect_all(facts, context, others)


def engine_tokens_per_s(delivered: dict | None) -> float | None:
    """What the sizing engine says the bid's hardware serves (output tokens a second,
    summed over the plan's serving workloads; None without one)."""
    figures = [
        w.get("tokens_per_second")
        for w in (delivered or {}).get("workloads", [])
        if w.get("kind") == "inference" and w.get("tokens_per_second")
    ]
    return float(sum(figures)) if figures else None


def engine_training_days(delivered: dict | None) -> float | None:
    days = [
        w.get("training_days")
        for w in (delivered or {}).get("workloads", [])
        if w.get("kind") == "training" and w.get("training_days")
    ]
    return float(days[0]) if days else None


def proposal_text(bid: Bid) -> str:
    """The proposal as the detectors read it: at most its field's length, so a text
    stored past validation cannot make every pairwise comparison slow."""
    return (bid.proposal_text or "")[:PROPOSAL_TEXT_MAX_CHARS]


def training_bounds(procurement: Procurement, bids: list[Bid]) -> dict[int, float]:
    """Lower bound per bid. The bound assumes perfect scaling, so it is inversely
    proportional to the GPU count: one sizing call per distinct accelerator."""
    per_gpu: dict[str, float | None] = {}
    bounds: dict[int, float] = {}
    for bid in bids:
        gpu_count = bid.checked("gpu_count")
        if bid.checked("promised_training_days") is None or not gpu_count:
            continue
        if bid.accelerator not in per_gpu:
            per_gpu[bid.accelerator] = plan_facts.training_lower_bound_days(
                procurement=procurement, accelerator_key=bid.accelerator, gpu_count=1
            )
        single = per_gpu[bid.accelerator]
        if single is not None:
            bounds[bid.pk] = single / gpu_count
    return bounds


def evidence_counts(bid: Bid) -> dict:
    studies = list(bid.case_studies.all())
    return {
        "case_studies": len(studies),
        "measured_outcomes": sum(
            1 for s in studies if s.outcome_before and s.outcome_after
        ),
        "site_visits": sum(1 for s in studies if s.site_visit_done),
        "demos": sum(1 for s in studies if s.remote_demo_done),
        "references": sum(1 for s in studies if s.reference_contacted),
    }
