"""Everything the RFP says, read from the services that own it into plain data: the
procurement's facts, the questionnaire's answers and workloads, the sizing plan's
headline figures and what the plan's own cluster delivers (`vendors.services.plan_facts`), the
evaluation checklist with its effective weights and the RFP settings. One query
pass; `content.assemble_rfp` then works on this dict alone."""

from __future__ import annotations

from clusterbuy.models import Procurement
from sizing import services as sizing_services
from sizing.models import Workload
from sizing.names import model_name

from ..engine.capability import catalog_pflops
from ..services import acceptance, checklists, evaluation, plan_facts, tender
from .services import stored_rfp_settings
from .versions import latest_version, version_facts

WORKLOAD_FIGURES = (
    "seq_len",
    "tokens_b",
    "target_days",
    "context_tokens",
    "output_tokens",
    "concurrent_requests",
    "tokens_per_second",
    "ttft_ms",
    "tpot_ms",
    "dataset_tb",
)


def _procurement(procurement: Procurement) -> dict:
    return {
        "id": procurement.pk,
        "name": procurement.name,
        "description": procurement.description,
        "deployment_site": procurement.deployment_site,
        "city": procurement.city,
        "region": procurement.region,
        "data_sensitivity": procurement.data_sensitivity,
        "requires_local": procurement.requires_local_deployment,
        "horizon_years": procurement.horizon_years,
        "ops_staff_count": procurement.ops_staff_count,
        "slurm_experience": procurement.slurm_experience,
        "kubernetes_experience": procurement.kubernetes_experience,
    }


def _requirement(procurement: Procurement) -> dict:
    row = sizing_services.requirement_for(procurement=procurement)
    return {
        "stored": row.pk is not None,
        "scenario": row.scenario,
        "data_tb": row.data_tb,
        "growth_per_year": row.growth_per_year,
        "rack_power_limit_kw": row.rack_power_limit_kw,
        "liquid_cooling_ok": row.liquid_cooling_ok,
        "preferred_ecosystem": row.preferred_ecosystem,
    }


def _workloads(procurement: Procurement) -> list[dict]:
    return [
        {
            "name": w.name,
            "kind": w.kind,
            "model": model_name(w.model_preset, w.model_name or str(w.model_label)),
            "precision": w.precision,
            **{name: getattr(w, name) for name in WORKLOAD_FIGURES},
        }
        for w in Workload.objects.for_procurement(procurement)
    ]


def _plan_delivery(
    procurement: Procurement, plan: sizing_services.PlanSummary | None
) -> dict | None:
    """What the plan's own cluster delivers (compute, per-workload targets): the
    floor a bid is held to by `vendors.engine.capability`. Without stored workloads the
    catalog's dense BF16 peak x GPU count, as the comparison does."""
    if plan is None:
        return None
    basis = plan_facts.delivery_basis(procurement=procurement)
    if basis is not None:
        return plan_facts.delivered_capability(
            basis=basis,
            accelerator_key=plan.accelerator,
            gpu_count=plan.gpu_count,
        )
    row = plan_facts.accelerators_by_key([plan.accelerator]).get(plan.accelerator)
    peak = getattr(row, "bf16_dense_tflops", None)
    return {
        "precision": "bf16",
        "compute_pflops": catalog_pflops(plan.gpu_count, peak),
        "workloads": [],
    }


def _sections(procurement: Procurement) -> list[dict]:
    """The checklist's sections with the procurement's effective weights."""
    row = evaluation.evaluation_settings_for(procurement=procurement)
    override = row.section_weights or {}
    sections = checklists.template_sections(row.template)
    return [
        {**s, "weight": float(override.get(s["code"], s["weight"]))} for s in sections
    ]


def _settings(procurement: Procurement) -> dict:
    row = stored_rfp_settings(procurement)
    return {
        "deadline": row.deadline,
        "publish_weights": row.publish_weights,
        "two_person_opening": row.two_person_opening,
        "instructions": row.instructions,
        "opened": row.is_open,
    }


def rfp_facts(procurement: Procurement) -> dict:
    """What vendors were sent: the latest published version's frozen facts once the
    RFP is published (`versions`), the live plan before. The pack, the portal and
    its feedback read this, never the live plan behind a published RFP."""
    version = latest_version(procurement)
    if version is None:
        return live_rfp_facts(procurement)
    facts = version_facts(version)
    facts["settings"]["opened"] = stored_rfp_settings(procurement).is_open
    return facts


def live_rfp_facts(procurement: Procurement) -> dict:
    """The plain data `content.assemble_rfp` turns into the pack, as the plan and the
    settings stand now."""
    plan = plan_facts.plan_summary(procurement=procurement)
    return {
        "procurement": _procurement(procurement),
        "requirement": _requirement(procurement),
        "workloads": _workloads(procurement),
        "plan": plan,
        "delivery": _plan_delivery(procurement, plan),
        "sections": _sections(procurement),
        "settings": _settings(procurement),
        # the acceptance tests, contractual criteria (`services.acceptance`)
        "acceptance": acceptance.preview_clauses(procurement=procurement),
        # the ★ items of the stored tender settings (`services.tender`), frozen with
        # the version: what a bid must meet or be invalid
        "mandatory": _mandatory(procurement),
        # the 资格审查 requirements and the bid bond, frozen with the version too
        **_qualification(procurement),
    }


def _mandatory(procurement: Procurement) -> list[dict]:
    row = tender.stored_tender_settings(procurement)
    return list(row.mandatory_items) if row is not None else []


def _qualification(procurement: Procurement) -> dict:
    row = tender.stored_tender_settings(procurement)
    if row is None:
        return {"qualification": [], "bid_bond_cny": None}
    bond = row.bid_bond_cny
    return {
        "qualification": list(row.qualification_items or []),
        "bid_bond_cny": None if bond is None else str(bond),
    }
