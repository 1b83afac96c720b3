"""The side-by-side comparison of a procurement's bids, assembled from the pure modules.

Reads only (no ORM writes besides the first-use creation of the evaluation settings in
`evaluation.evaluation_settings_for`), in a constant number of queries whatever the number
of bids: one for the bids with their vendors, one each for their line items, case
studies and scores, one for the checklist, one for the catalog rows, the sizing plan's
own queries, and one training bound per distinct accelerator.

Money: `quoted_total` is what the vendor asks over the procurement's horizon:
sum(qty x unit price of one-off lines) + horizon_years x sum(qty x unit price of
recurring lines). `normalized_tco` is the TCO engine's nominal total cost over the same
horizon (residual value subtracted) after mapping the bid's lines to TCO inputs and
filling the categories a complete purchase needs but the bid omits ("added by
ClusterBuy", listed in `hidden_costs`). Every bid gets the same horizon, currency and
operating defaults (energy price, staff, failure rate), so the totals compare.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field, replace
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.html import escape
from django.utils.translation import (
    get_language,
    gettext_lazy,
    gettext_noop,
    pgettext_lazy,
)
from django.utils.translation import gettext as _

from clusterbuy.models import DeploymentSite, Procurement
from tco.engine import DEFAULTS, TcoInputError, compute, inputs_from_dict
from tco.engine.inputs import IT_POWER_KW_PER_GPU

from . import caching, evaluation, plan_facts, scoring
from .compliance import (
    COOLING_KINDS,
    BidOffer,
    ComplianceInputError,
    ComplianceItem,
    ComplianceStatus,
    PlanNeeds,
    check_compliance,
)
from .detectors import (
    WORKLOAD_KINDS,
    BidFacts,
    LineItemFacts,
    Pitfall,
    ProcurementFacts,
    detect_all,
)
from .models import (
    MONITORING_ITEMS,
    SUPPORT_CHANNELS,
    Bid,
    ChecklistSection,
    Decision,
    EvaluationSettings,
)

CENT = Decimal("0.01")

# One-off line category -> TCO capex category.
ONE_OFF_CAPEX = {
    "gpu_servers": "gpu_servers",
    "network": "network",
    "storage": "storage",
    "power_cooling": "facility",
    "installation": "installation",
    "software": "software_once",
    "support": "other",  # prepaid support
    "training": "other",
    "other": "other",
}

# What ClusterBuy adds when a bid omits a category a complete purchase needs. Every
# default names its source, or says it is a ClusterBuy assumption (docs/methodology.md,
# Part C.3). Support and software use the TCO engine's own DEFAULTS.
NETWORK_SHARE_OF_CLUSTER = 0.19  # Epoch AI CLUSTER_INTERCONNECT_COST_FRACTION (2024)
STORAGE_SHARE_OF_GPU_SERVERS = 0.05  # ClusterBuy assumption
FACILITY_USD_PER_W = 10.0  # reallm Constants.py (Barroso-style TCO), 2024
FACILITY_LIFE_YEARS = 12  # same source: facility amortised over 12 years
INSTALLATION_SHARE_OF_HARDWARE = 0.02  # ClusterBuy assumption

FILL_IN_SOURCES: dict[str, str] = {
    "gpu_servers": gettext_noop(
        "GPU servers priced from the sizing plan: GPU price x GPU count."
    ),
    "network": gettext_noop(
        "Interconnect is about 19 per cent of total cluster cost: network = GPU servers x "
        "0.19 / 0.81 (Epoch AI, cluster interconnect ≈ 19 per cent of cluster cost, 2024)."
    ),
    "storage": gettext_noop(
        "Shared high-throughput storage for data and checkpoints: 5 per cent of GPU-server "
        "capex. ClusterBuy assumption (no published share found), indicative."
    ),
    "power_cooling": gettext_noop(
        "Facility (power distribution, UPS, cooling): 10 USD per W of IT power, "
        "amortised over a 12-year facility life, so the horizon carries "
        "horizon/12 of it (reallm Constants.py, Barroso-style datacenter TCO, "
        "2024); on-premises sites only."
    ),
    "installation": gettext_noop(
        "Racking, cabling, burn-in and acceptance: 2 per cent of hardware capex (GPU "
        "servers + network + storage). ClusterBuy assumption, indicative."
    ),
    "support": gettext_noop(
        "Support after the warranty: 10 per cent of hardware capex a year (contracts cost "
        "8-15 per cent a year, Sesterce GPU TCO calculator, 2025), for the years after the "
        "bid's warranty (3 years when not stated)."
    ),
}


# Shown names of the codes the pure modules return (pitfalls, compliance statuses,
# SLA severities): pages never show the raw code.
PITFALL_LABELS = {
    "gpu_only": gettext_lazy("GPU-only quote"),
    "over_promising": gettext_lazy("Over-promising"),
    "template_proposal": gettext_lazy("Template proposal"),
    "closed_ecosystem": gettext_lazy("Closed ecosystem"),
}
STATUS_LABELS = {
    "pass": pgettext_lazy("compliance status", "pass"),
    "warn": pgettext_lazy("compliance status", "warning"),
    "fail": pgettext_lazy("compliance status", "fail"),
}
SEVERITY_LABELS = {
    "sev1": gettext_lazy("Severity 1"),
    "sev2": gettext_lazy("Severity 2"),
    "sev3": gettext_lazy("Severity 3"),
}


def pitfall_label(code: str) -> str:
    return str(PITFALL_LABELS.get(str(code), code))


def status_label(status: str) -> str:
    return str(STATUS_LABELS.get(str(status), status))


def severity_label(code: str) -> str:
    return str(SEVERITY_LABELS.get(str(code), code))


def fill_in_help() -> str:
    """Every fill-in rule, translated, for the hidden-cost row's tooltip."""
    return "\n".join(
        f"{_category_label(category)}: {_(source)}"
        for category, source in FILL_IN_SOURCES.items()
    )


COMPLIANCE_ITEMS = (
    "gpu_count",
    "vram_gb_per_gpu",
    "scaleup_domain_gpus",
    "network_gbps_per_gpu",
    "storage_tb",
    "storage_read_gbs",
    "storage_write_gbs",
    "it_power_kw",
    "cooling",
    "ecosystem",
)


def money(value: float | Decimal) -> Decimal:
    return Decimal(str(value)).quantize(CENT, rounding=ROUND_HALF_UP)


# --- price and TCO -----------------------------------------------------------------


@dataclass(frozen=True)
class Line:
    category: str
    amount: Decimal  # qty x unit price (per year when recurring)
    recurring: bool


def quoted_total(lines: list[Line], horizon_years: int) -> Decimal:
    """One-off lines + horizon_years x recurring lines."""
    one_off = sum((li.amount for li in lines if not li.recurring), Decimal(0))
    yearly = sum((li.amount for li in lines if li.recurring), Decimal(0))
    return money(one_off + yearly * horizon_years)


@dataclass
class TcoNormalisation:
    normalized_tco: Decimal
    hidden_costs: list[dict]  # [{category, amount, source, basis}]
    tco: dict  # TcoResult.to_dict()


def normalise_tco(
    lines: list[Line],
    *,
    horizon_years: int,
    currency: str,
    gpu_count: int,
    it_power_kw: float | None,
    warranty_years: float | None,
    on_prem: bool,
    gpu_price: Decimal | None = None,
) -> TcoNormalisation:
    """Map a bid to TCO inputs, fill what it omits, and run the TCO engine.

    ``gpu_price`` (per GPU, in ``currency``) prices GPU servers for a bid that has none.
    """
    capex: dict[str, float] = defaultdict(float)
    categories = {li.category for li in lines}
    support_per_year = 0.0
    software_per_year = 0.0
    for li in lines:
        amount = float(li.amount)
        if not li.recurring:
            capex[ONE_OFF_CAPEX[li.category]] += amount
        elif li.category == "support":
            support_per_year += amount
        elif li.category == "software":
            software_per_year += amount
        else:  # other recurring fees: their nominal total over the horizon
            capex["other"] += amount * horizon_years
    hidden: list[dict] = []

    def add(category: str, capex_category: str, amount: float, basis: str) -> None:
        if amount > 0:
            capex[capex_category] += amount
            hidden.append(
                {
                    "category": category,
                    "amount": money(amount),
                    "source": FILL_IN_SOURCES[category],
                    "basis": basis,
                }
            )

    if "gpu_servers" not in categories and gpu_price:
        add(
            "gpu_servers",
            "gpu_servers",
            float(gpu_price) * gpu_count,
            f"{gpu_price:,.0f} x {gpu_count}",
        )
    gpu_capex = capex["gpu_servers"]
    if "network" not in categories:
        share = NETWORK_SHARE_OF_CLUSTER / (1 - NETWORK_SHARE_OF_CLUSTER)
        add("network", "network", gpu_capex * share, f"{gpu_capex:,.0f} x 0.19 / 0.81")
    if "storage" not in categories:
        add(
            "storage",
            "storage",
            gpu_capex * STORAGE_SHARE_OF_GPU_SERVERS,
            f"{gpu_capex:,.0f} x 5 %",
        )
    if "power_cooling" not in categories and on_prem:
        power_kw = it_power_kw or max(1, gpu_count) * IT_POWER_KW_PER_GPU
        fx = 1.0 if currency == "USD" else float(DEFAULTS["fx_usd_cny"].value)
        years = min(horizon_years, FACILITY_LIFE_YEARS)
        amount = power_kw * 1000 * FACILITY_USD_PER_W * fx * years / FACILITY_LIFE_YEARS
        fx_text = "" if currency == "USD" else f" x {fx:g} CNY/USD"
        add(
            "power_cooling",
            "facility",
            amount,
            f"{power_kw:,.1f} kW x 10 USD/W{fx_text} x {years}/{FACILITY_LIFE_YEARS}",
        )
    if "installation" not in categories:
        hardware = capex["gpu_servers"] + capex["network"] + capex["storage"]
        add(
            "installation",
            "installation",
            hardware * INSTALLATION_SHARE_OF_HARDWARE,
            f"{hardware:,.0f} x 2 %",
        )
    hardware = capex["gpu_servers"] + capex["network"] + capex["storage"]
    data: dict[str, Any] = {
        "horizon_years": horizon_years,
        "currency": currency,
        "gpu_count": max(1, gpu_count),
        "capex": [
            {"category": c, "description": "", "amount": a}
            for c, a in capex.items()
            if a > 0
        ],
        "software_per_year": software_per_year,
    }
    if it_power_kw:
        data["it_power_kw"] = it_power_kw
    support_added = False
    if support_per_year > 0:
        if hardware > 0 and support_per_year <= hardware:
            data["support_rate"] = support_per_year / hardware
            data["warranty_years"] = 0
        else:
            data["support_rate"] = 0
            data["capex"].append(
                {
                    "category": "other",
                    "description": "support",
                    "amount": support_per_year * horizon_years,
                }
            )
    elif "support" not in categories:
        support_added = True  # engine default: support_rate after the warranty
        if warranty_years is not None:
            data["warranty_years"] = float(warranty_years)
    else:
        data["support_rate"] = 0  # prepaid support, already in capex "other"
    result = compute(inputs_from_dict(data))
    totals = result.totals_by_category
    if support_added and totals["support"] > 0:
        warranty = data.get("warranty_years", DEFAULTS["warranty_years"].value)
        years_paid = max(0.0, horizon_years - float(warranty))
        hidden.append(
            {
                "category": "support",
                "amount": money(totals["support"]),
                "source": FILL_IN_SOURCES["support"],
                "basis": f"{hardware:,.0f} x {DEFAULTS['support_rate'].value:.0%}"
                f" x {years_paid:g}",
            }
        )
    return TcoNormalisation(money(result.total_cost), hidden, result.to_dict())


# --- plan, compliance, detectors ---------------------------------------------------


def plan_needs(plan: dict | None) -> PlanNeeds | None:
    if not plan:
        return None
    try:
        cooling = plan.get("cooling") if plan.get("cooling") in COOLING_KINDS else "air"
        return PlanNeeds(
            gpu_count=int(plan["gpu_count"]),
            vram_gb_per_gpu=float(plan.get("vram_gb_per_gpu") or 0),
            scaleup_domain_gpus=int(plan.get("scaleup_domain_gpus") or 0),
            network_gbps_per_gpu=float(plan.get("network_gbps_per_gpu") or 0),
            storage_tb=float(plan.get("storage_tb") or 0),
            storage_read_gbs=float(plan.get("storage_read_gbs") or 0),
            storage_write_gbs=float(plan.get("storage_write_gbs") or 0),
            it_power_kw=float(plan.get("it_power_kw") or 0),
            cooling=cooling,
            ecosystem=plan.get("ecosystem") or None,
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
    return BidOffer(
        gpu_count=bid.gpu_count,
        vram_gb_per_gpu=getattr(accelerator, "memory_gb", None),
        scaleup_domain_gpus=bid.scaleup_domain_gpus
        or getattr(accelerator, "scaleup_domain_gpus", None),
        network_gbps_per_gpu=bid.network_gbps_per_gpu,
        storage_tb=bid.storage_tb,
        storage_read_gbs=bid.storage_read_gbs,
        storage_write_gbs=bid.storage_write_gbs,
        it_power_kw=bid.peak_power_kw,
        cooling=bid.cooling or None,
        ecosystem=getattr(accelerator, "ecosystem", None) or None,
    )


def compliance_for(
    bid: Bid, accelerator, needs: PlanNeeds | None
) -> list[ComplianceItem]:
    offer = bid_offer(bid, accelerator)
    if needs is None:
        return no_plan_items(offer)
    try:
        return check_compliance(needs, offer)
    except ComplianceInputError:
        return no_plan_items(offer)


def procurement_facts(
    procurement: Procurement, plan: dict | None, needs: PlanNeeds | None
) -> ProcurementFacts:
    plan = plan or {}
    kinds = [k for k in plan.get("workload_kinds") or [] if k in WORKLOAD_KINDS]
    return ProcurementFacts(
        workload_kind=kinds[0] if kinds else "",
        model_names=tuple(n for n in plan.get("model_names") or [] if n),
        model_params_b=plan.get("model_params_b"),
        data_tb=plan.get("data_tb"),
        location=procurement.city,
        needs=needs,
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
    facts = BidFacts(
        line_items=tuple(
            LineItemFacts(li.category, li.amount, li.recurring) for li in lines
        ),
        network_gbps_per_gpu=bid.network_gbps_per_gpu,
        storage_tb=bid.storage_tb,
        storage_read_gbs=bid.storage_read_gbs,
        proposal_text=bid.proposal_text,
        evidence_kinds=evidence_kinds(bid),
        promised_training_days=bid.promised_training_days,
        scheduler=bid.scheduler,
        frameworks=tuple(bid.frameworks or ()),
    )
    return detect_all(facts, context, others)


# --- the comparison ----------------------------------------------------------------


@dataclass
class SectionInfo:
    code: str
    title: str  # as shown: the default's translation, or as the user typed it
    weight: float
    auto_price: bool
    criteria: list  # ChecklistCriterion rows


@dataclass
class Column:
    bid: Bid
    label: str
    vendor: dict
    quoted_total: Decimal | None
    normalized_tco: Decimal | None
    hidden_costs: list[dict]
    compliance: list[ComplianceItem]
    pitfalls: list[Pitfall]
    evidence: dict
    sections: dict[str, float | None] = field(default_factory=dict)
    criteria: dict[str, scoring.CriterionScore] = field(default_factory=dict)
    technical_100: float = 0.0
    price_100: float | None = None
    weighted_total: float | None = None
    rank: int | None = None
    excluded: bool = False
    tco_value: Decimal = Decimal(0)  # kept for ranking even when hidden

    @property
    def hidden_cost_list(self) -> list[dict]:
        return [
            {
                "label": _category_label(h["category"]),
                "amount": h["amount"],
                "source": _(h["source"]),
                "basis": h.get("basis", ""),
            }
            for h in self.hidden_costs
        ]

    @property
    def pitfall_list(self) -> list[dict]:
        lang = _lang()
        return [
            {
                "code": str(p.code),
                "label": pitfall_label(p.code),
                "reason": p.reason(lang),
            }
            for p in self.pitfalls
        ]

    @property
    def compliance_list(self) -> list[dict]:
        lang = _lang()
        return [
            {
                "item": i.item,
                "label": _compliance_label(i.item),
                "status": str(i.status),
                "status_label": status_label(i.status),
                "required": _shown_value(i.required),
                "offered": _shown_value(i.offered),
                "unit": i.unit,
                "note": i.note_for(lang),
            }
            for i in self.compliance
        ]


@dataclass
class Comparison:
    procurement: Procurement
    settings: EvaluationSettings
    sections: list[SectionInfo]
    columns: list[Column]
    plan: dict | None
    blind: bool
    prices_hidden: bool
    decision: Decision | None

    @property
    def weights(self) -> dict[str, float]:
        return {s.code: s.weight for s in self.sections}


def _lines(bid: Bid) -> list[Line]:
    return [
        Line(li.category, li.quantity * li.unit_price, li.recurring)
        for li in bid.line_items.all()
    ]


def _training_bounds(procurement: Procurement, bids: list[Bid]) -> dict[int, float]:
    """Lower bound per bid. The bound assumes perfect scaling, so it is inversely
    proportional to the GPU count: one sizing call per distinct accelerator."""
    per_gpu: dict[str, float | None] = {}
    bounds: dict[int, float] = {}
    for bid in bids:
        if bid.promised_training_days is None or not bid.gpu_count:
            continue
        if bid.accelerator not in per_gpu:
            per_gpu[bid.accelerator] = plan_facts.training_lower_bound_days(
                procurement=procurement, accelerator_key=bid.accelerator, gpu_count=1
            )
        single = per_gpu[bid.accelerator]
        if single is not None:
            bounds[bid.pk] = single / bid.gpu_count
    return bounds


def _evidence(bid: Bid) -> dict:
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


def _section_points(
    section: SectionInfo, marks: dict[int, list[float]], disagreement: float
) -> tuple[float | None, dict[str, scoring.CriterionScore]]:
    criteria_scores: dict[str, scoring.CriterionScore] = {}
    engine_criteria = []
    means: dict[str, float] = {}
    for criterion in section.criteria:
        points = marks.get(criterion.pk)
        if not points:
            continue
        agg = scoring.aggregate_criterion(
            criterion.code, points, disagreement_points=disagreement
        )
        criteria_scores[criterion.code] = agg
        means[criterion.code] = agg.mean_points
        engine_criteria.append(
            scoring.Criterion(criterion.code, section.code, float(criterion.weight))
        )
    if not engine_criteria or sum(c.weight for c in engine_criteria) <= 0:
        return None, criteria_scores
    return (
        scoring.section_score(section.code, means, engine_criteria).points,
        criteria_scores,
    )


def _sections(settings_row: EvaluationSettings, weights: dict | None) -> list:
    rows = list(
        ChecklistSection.objects.filter(template_id=settings_row.template_id)
        .prefetch_related("criteria")
        .order_by("position", "id")
    )
    effective = evaluation.section_weights(settings_row, rows)
    if weights:
        effective.update(evaluation.clean_section_weights(weights, rows))
    return [
        SectionInfo(
            code=s.code,
            title=s.display_title,
            weight=effective[s.code],
            auto_price=s.auto_price,
            criteria=list(s.criteria.all()),
        )
        for s in rows
    ]


def build_comparison(
    *, procurement: Procurement, user, weights: dict | None = None
) -> Comparison:
    """Everything the comparison page and API show, for this user.

    ``weights`` (section code -> weight) overrides the saved section weights without
    saving them (the page's "try weights" form).
    """
    settings_row = evaluation.evaluation_settings_for(procurement=procurement)
    sections = _sections(settings_row, weights)
    bids = list(
        Bid.objects.for_procurement(procurement).for_comparison().order_by("id")
    )
    plan = plan_facts.plan_summary(procurement=procurement)
    needs = plan_needs(plan)
    context = procurement_facts(procurement, plan, needs)
    accelerators = plan_facts.accelerators_by_key(b.accelerator for b in bids)
    bounds = _training_bounds(procurement, bids)
    blind, prices_hidden = evaluation.viewer_variant(procurement, settings_row, user)
    gpu_price = _plan_gpu_price(plan, procurement.currency)
    on_prem = procurement.deployment_site != DeploymentSite.CLOUD
    texts = {b.pk: b.proposal_text for b in bids}
    columns: list[Column] = []
    for index, bid in enumerate(bids, start=1):
        lines = _lines(bid)
        try:
            tco = normalise_tco(
                lines,
                horizon_years=procurement.horizon_years,
                currency=procurement.currency,
                gpu_count=bid.gpu_count,
                it_power_kw=bid.peak_power_kw,
                warranty_years=float(bid.warranty_years)
                if bid.warranty_years is not None
                else None,
                on_prem=on_prem,
                gpu_price=gpu_price,
            )
        except TcoInputError:
            tco = TcoNormalisation(Decimal(0), [], {})
        bid_context = replace(context, training_days_lower_bound=bounds.get(bid.pk))
        others = [t for pk, t in texts.items() if pk != bid.pk]
        label = _("Vendor %(n)s") % {"n": index}
        vendor = (
            {"id": None, "name": label, "blind": True}
            if blind
            else {"id": bid.vendor_id, "name": bid.vendor.name, "blind": False}
        )
        column = Column(
            bid=bid,
            label=label if blind else bid.vendor.name,
            vendor=vendor,
            quoted_total=quoted_total(lines, procurement.horizon_years),
            normalized_tco=tco.normalized_tco,
            hidden_costs=tco.hidden_costs,
            compliance=compliance_for(bid, accelerators.get(bid.accelerator), needs),
            pitfalls=pitfalls_for(bid, lines, bid_context, others),
            evidence=_evidence(bid),
            tco_value=tco.normalized_tco,
        )
        _score(column, bid, sections, settings_row.disagreement_points)
        columns.append(column)
    _rank(columns, sections, settings_row, prices_hidden)
    if prices_hidden:
        for column in columns:
            column.quoted_total = None
            column.normalized_tco = None
            column.hidden_costs = []
            column.price_100 = None
            for section in sections:
                if section.auto_price:
                    column.sections[section.code] = None
    decision = Decision.objects.filter(procurement=procurement).first()
    return Comparison(
        procurement=procurement,
        settings=settings_row,
        sections=sections,
        columns=columns,
        plan=plan,
        blind=blind,
        prices_hidden=prices_hidden,
        decision=decision,
    )


def _plan_gpu_price(plan: dict | None, currency: str) -> Decimal | None:
    if not plan or plan.get("gpu_price") is None:
        return None
    price = Decimal(str(plan["gpu_price"]))
    source = plan.get("gpu_price_currency") or currency
    fx = Decimal(str(DEFAULTS["fx_usd_cny"].value))
    if source == "USD" and currency == "CNY":
        return price * fx
    if source == "CNY" and currency == "USD":
        return price / fx
    return price


def _score(
    column: Column, bid: Bid, sections: list[SectionInfo], disagreement: float
) -> None:
    marks: dict[int, list[float]] = defaultdict(list)
    for score in bid.scores.all():
        marks[score.criterion_id].append(float(score.points))
    for section in sections:
        if section.auto_price:
            column.sections[section.code] = None  # filled in by _rank
            continue
        points, criteria = _section_points(section, marks, disagreement)
        column.sections[section.code] = points
        column.criteria.update(criteria)


def _technical(column: Column, sections: list[SectionInfo]) -> float:
    weights = {s.code: s.weight for s in sections if not s.auto_price}
    if sum(weights.values()) <= 0:
        return 0.0
    points = {code: column.sections.get(code) or 0.0 for code in weights}
    return scoring.weighted_total_100(points, weights)


def _rank(
    columns: list[Column],
    sections: list[SectionInfo],
    settings_row: EvaluationSettings,
    prices_hidden: bool,
) -> None:
    if not columns:
        return
    for column in columns:
        column.technical_100 = _technical(column, sections)
    ids = {str(c.bid.pk): c for c in columns}
    tco = {str(c.bid.pk): c.tco_value for c in columns if c.tco_value > 0}
    if prices_hidden:
        for column in columns:
            column.weighted_total = column.technical_100
        for ranked in scoring.rank_bids({k: c.technical_100 for k, c in ids.items()}):
            ids[ranked.bid_id].rank = ranked.rank
        return
    price_weight = sum(s.weight for s in sections if s.auto_price)
    tech_weight = sum(s.weight for s in sections if not s.auto_price)
    price_codes = [s.code for s in sections if s.auto_price]
    if settings_row.sealed_envelope and tech_weight + price_weight > 0:
        threshold = settings_row.technical_threshold or 0.0
        technical = {k: c.technical_100 for k, c in ids.items() if k in tco}
        result = scoring.evaluate_sealed_envelope(
            technical,
            tco,
            threshold_100=threshold,
            technical_weight=tech_weight,
            price_weight=price_weight,
        )
        for bid_id, price in result.price_100.items():
            ids[bid_id].price_100 = price
            for code in price_codes:
                ids[bid_id].sections[code] = price / 20.0
        for ranked in result.ranking:
            ids[ranked.bid_id].weighted_total = ranked.score
            ids[ranked.bid_id].rank = ranked.rank
        for bid_id in ids:
            if ids[bid_id].rank is None:
                ids[bid_id].excluded = True
        return
    prices = scoring.price_scores(tco)
    totals: dict[str, float] = {}
    weights = {s.code: s.weight for s in sections}
    for bid_id, column in ids.items():
        column.price_100 = prices.get(bid_id)
        for code in price_codes:
            column.sections[code] = (
                None if column.price_100 is None else column.price_100 / 20.0
            )
        points = {code: column.sections.get(code) or 0.0 for code in weights}
        try:
            totals[bid_id] = scoring.weighted_total_100(points, weights)
        except scoring.ScoringInputError:
            totals[bid_id] = 0.0
        column.weighted_total = totals[bid_id]
    for ranked in scoring.rank_bids(totals, tie_break_cny=tco):
        ids[ranked.bid_id].rank = ranked.rank


# --- output ------------------------------------------------------------------------


def _lang() -> str:
    return get_language() or "en"


ECOSYSTEM_NAMES = {
    "cuda": "CUDA",
    "rocm": "ROCm",
    "cann": "CANN",
    "synapseai": "SynapseAI",
}


def _shown_value(value: Any) -> Any:
    """A compliance value as the page shows it: cooling and ecosystem codes named."""
    from .models import Cooling

    if isinstance(value, str):
        if value in Cooling.values:
            return str(Cooling(value).label)
        return ECOSYSTEM_NAMES.get(value, value)
    return _number(value)


def _number(value: Any) -> Any:
    if isinstance(value, float) and math.isfinite(value):
        return round(value, 4)
    return value


def comparison_json(comparison: Comparison) -> list[dict]:
    """The API shape: one entry per bid."""
    lang = _lang()
    out = []
    for c in comparison.columns:
        scores = {
            s.code: None
            if c.sections.get(s.code) is None
            else round(c.sections[s.code], 4)
            for s in comparison.sections
        }
        scores["technical_100"] = round(c.technical_100, 4)
        scores["weighted_total"] = (
            None if c.weighted_total is None else round(c.weighted_total, 4)
        )
        out.append(
            {
                "bid": c.bid.pk,
                "vendor": c.vendor,
                "currency": comparison.procurement.currency,
                "quoted_total": None if c.quoted_total is None else str(c.quoted_total),
                "hidden_costs": [
                    {"category": h["category"], "amount": str(h["amount"])}
                    for h in c.hidden_costs
                ],
                "normalized_tco": None
                if c.normalized_tco is None
                else str(c.normalized_tco),
                "compliance": [
                    {
                        "item": i.item,
                        "status": str(i.status),
                        "required": _number(i.required),
                        "offered": _number(i.offered),
                        "unit": i.unit,
                        "note": i.note_for(lang),
                    }
                    for i in c.compliance
                ],
                "pitfalls": [
                    {"code": str(p.code), "reason": p.reason(lang)} for p in c.pitfalls
                ],
                "scores": scores,
                "disagreements": sorted(
                    code for code, agg in c.criteria.items() if agg.disagreement
                ),
                "excluded": c.excluded,
                "rank": c.rank,
            }
        )
    return out


# --- table rows with best/worst highlighting ---------------------------------------


@dataclass
class Detail:
    """One line under a cell's value: an optional code badge, the text, a tooltip."""

    text: str
    badge: str = ""
    title: str = ""

    def __str__(self) -> str:
        return f"{self.badge}: {self.text}" if self.badge else self.text


@dataclass
class Cell:
    text: str
    css: str = ""
    detail: list[Detail] = field(default_factory=list)


@dataclass
class Row:
    label: str
    cells: list[Cell]
    help: str = ""


@dataclass
class Group:
    label: str
    rows: list[Row]


def _fmt_money(value: Decimal | None) -> str:
    if value is None:
        return "—"
    return f"{value:,.0f}"


def _fmt(value: Any, digits: int = 1) -> str:
    if value is None:
        return "—"
    if isinstance(value, Decimal) and value != value.to_integral_value():
        value = float(value)
    if isinstance(value, float):
        return (
            f"{value:.{digits}f}".rstrip("0").rstrip(".") if digits else f"{value:.0f}"
        )
    return str(value)


def _highlight(
    values: list[float | Decimal | None], *, higher_is_better: bool
) -> list[str]:
    present = [v for v in values if v is not None]
    if len(present) < 2 or min(present) == max(present):
        return ["" for _ in values]
    best = max(present) if higher_is_better else min(present)
    worst = min(present) if higher_is_better else max(present)
    return ["best" if v == best else "worst" if v == worst else "" for v in values]


def _numeric_row(label: str, values: list, *, higher: bool, fmt=_fmt) -> Row:
    classes = _highlight(values, higher_is_better=higher)
    return Row(
        label, [Cell(fmt(v), css) for v, css in zip(values, classes, strict=True)]
    )


def comparison_groups(comparison: Comparison) -> list[Group]:
    """The comparison table: vendors as columns, rows grouped, best/worst marked."""
    cols = comparison.columns
    lang = _lang()
    groups: list[Group] = []

    price_rows = [
        _numeric_row(
            _("Quoted price"),
            [c.quoted_total for c in cols],
            higher=False,
            fmt=_fmt_money,
        ),
        _numeric_row(
            _("Normalised TCO"),
            [c.normalized_tco for c in cols],
            higher=False,
            fmt=_fmt_money,
        ),
    ]
    hidden_values = [
        None
        if comparison.prices_hidden
        else sum((h["amount"] for h in c.hidden_costs), Decimal(0))
        for c in cols
    ]
    hidden_row = _numeric_row(
        _("Hidden costs added by ClusterBuy"),
        hidden_values,
        higher=False,
        fmt=_fmt_money,
    )
    hidden_row.help = fill_in_help()
    for cell, c in zip(hidden_row.cells, cols, strict=True):
        cell.detail = [
            Detail(
                f"{_category_label(h['category'])}: {_fmt_money(h['amount'])}",
                title=f"{_(h['source'])} ({h.get('basis', '')})",
            )
            for h in c.hidden_costs
        ]
    price_rows.append(hidden_row)
    groups.append(Group(_("Price"), price_rows))

    compliance_rows = []
    for index, item in enumerate(COMPLIANCE_ITEMS):
        cells = []
        for c in cols:
            entry = c.compliance[index] if index < len(c.compliance) else None
            if entry is None:
                cells.append(Cell("—"))
                continue
            text = f"{_fmt(_shown_value(entry.offered))} / {_fmt(_shown_value(entry.required))}"
            if entry.unit:
                text += f" {entry.unit}"
            note = entry.note_for(lang)
            cells.append(
                Cell(text, f"status-{entry.status}", [Detail(note)] if note else [])
            )
        compliance_rows.append(Row(_compliance_label(item), cells))
    compliance_rows.append(
        _numeric_row(
            _("Items passed"),
            [sum(1 for i in c.compliance if i.status == "pass") for c in cols],
            higher=True,
        )
    )
    groups.append(Group(_("Compliance with the sizing plan"), compliance_rows))

    bids = [c.bid for c in cols]
    sla = [
        _numeric_row(
            _("Response time, severity 1 (h)"),
            [_hours(b.response_hours, "sev1") for b in bids],
            higher=False,
        ),
        _numeric_row(
            _("Response time, severity 2 (h)"),
            [_hours(b.response_hours, "sev2") for b in bids],
            higher=False,
        ),
        _numeric_row(
            _("On-site arrival (h)"), [b.onsite_hours for b in bids], higher=False
        ),
        _numeric_row(
            _("Availability (%)"),
            [b.availability_pct for b in bids],
            higher=True,
            fmt=lambda v: _fmt(v, 2),
        ),
        _numeric_row(
            _("Support channels"),
            [
                len([x for x in b.support_channels or [] if x in SUPPORT_CHANNELS])
                for b in bids
            ],
            higher=True,
        ),
        _numeric_row(
            _("Delivery (weeks)"), [b.delivery_weeks for b in bids], higher=False
        ),
        _numeric_row(
            _("Warranty (years)"),
            [
                float(b.warranty_years) if b.warranty_years is not None else None
                for b in bids
            ],
            higher=True,
        ),
    ]
    groups.append(Group(_("Service level"), sla))

    monitoring = _numeric_row(
        _("Monitoring items covered"),
        [len([m for m in b.monitoring or [] if m in MONITORING_ITEMS]) for b in bids],
        higher=True,
        fmt=lambda v: f"{v} / {len(MONITORING_ITEMS)}",
    )
    alerts = Row(
        _("Configurable alert rules"),
        [
            Cell(
                _("yes") if b.configurable_alerts else _("no"),
                "" if b.configurable_alerts else "worst",
            )
            for b in bids
        ],
    )
    groups.append(Group(_("Monitoring"), [monitoring, alerts]))

    evidence_rows = [
        _numeric_row(label, [c.evidence[key] for c in cols], higher=True)
        for key, label in (
            ("case_studies", _("Case studies")),
            ("measured_outcomes", _("Measured outcomes")),
            ("site_visits", _("Site visits")),
            ("demos", _("Remote demos")),
            ("references", _("References contacted")),
        )
    ]
    groups.append(Group(_("Case-study evidence"), evidence_rows))

    pitfalls = _numeric_row(
        _("Pitfall flags"), [len(c.pitfalls) for c in cols], higher=False
    )
    for cell, c in zip(pitfalls.cells, cols, strict=True):
        cell.detail = [
            Detail(p.reason(lang), badge=pitfall_label(p.code), title=str(p.code))
            for p in c.pitfalls
        ]
    groups.append(Group(_("Pitfalls"), [pitfalls]))

    score_rows = []
    for section in comparison.sections:
        row = _numeric_row(
            f"{section.title} (×{section.weight:g})",
            [c.sections.get(section.code) for c in cols],
            higher=True,
            fmt=lambda v: _fmt(v, 2),
        )
        for cell, c in zip(row.cells, cols, strict=True):
            codes = {cr.code for cr in section.criteria}
            texts = {cr.code: cr.display_text for cr in section.criteria}
            cell.detail = [
                Detail(
                    _("Evaluators disagree on %(criterion)s")
                    % {"criterion": texts.get(code, code)}
                )
                for code, agg in c.criteria.items()
                if code in codes and agg.disagreement
            ]
            if cell.detail:
                cell.css += " disagreement"
        score_rows.append(row)
    groups.append(Group(_("Checklist scores (0–5)"), score_rows))

    total = _numeric_row(
        _("Weighted total (0–100)"),
        [c.weighted_total for c in cols],
        higher=True,
        fmt=lambda v: _fmt(v, 1),
    )
    rank = _numeric_row(_("Rank"), [c.rank for c in cols], higher=False)
    for cell, c in zip(rank.cells, cols, strict=True):
        if c.excluded:
            cell.text = _("excluded (below technical threshold)")
            cell.css = "worst"
    groups.append(Group(_("Result"), [total, rank]))
    return groups


def _hours(value: dict | None, severity: str) -> float | None:
    if not value or value.get(severity) is None:
        return None
    return float(value[severity])


def _category_label(code: str) -> str:
    from .models import LineCategory

    try:
        return str(LineCategory(code).label)
    except ValueError:
        return code


def _compliance_label(item: str) -> str:
    labels = {
        "gpu_count": _("GPU count"),
        "vram_gb_per_gpu": _("Memory per GPU"),
        "scaleup_domain_gpus": _("Scale-up domain"),
        "network_gbps_per_gpu": _("Network per GPU"),
        "storage_tb": _("Storage capacity"),
        "storage_read_gbs": _("Storage read throughput"),
        "storage_write_gbs": _("Storage write throughput"),
        "it_power_kw": _("IT power"),
        "cooling": _("Cooling"),
        "ecosystem": _("Software compatibility"),
    }
    return str(labels.get(item, item))


# --- radar chart (hand-built SVG) ---------------------------------------------------

RADAR_COLOURS = (
    "#2563eb",
    "#dc2626",
    "#059669",
    "#d97706",
    "#7c3aed",
    "#0891b2",
    "#be185d",
    "#4b5563",
)


RADAR_MAX_WIDTH_PX = 520


def _label_lines(text: str, width: int = 16) -> list[str]:
    """Split a long Latin-script label at the space nearest its middle (CJK labels are
    short enough as they are)."""
    if len(text) <= width or " " not in text:
        return [text]
    middle = len(text) // 2
    spaces = [i for i, ch in enumerate(text) if ch == " "]
    cut = min(spaces, key=lambda i: abs(i - middle))
    return [text[:cut], text[cut + 1 :]]


def radar_svg(comparison: Comparison, size: int = 300) -> str:
    """Section scores (0-5) of every bid as polygons on one radar, as SVG markup.

    The drawing is ``size`` px across plus room for the axis labels, at most
    RADAR_MAX_WIDTH_PX wide on the page, with a compact legend in columns below.
    """
    sections = comparison.sections
    n = len(sections)
    if n < 3 or not comparison.columns:
        return ""
    pad_x, pad_y = 110, 34
    width = size + 2 * pad_x
    cx, cy = pad_x + size / 2, pad_y + size / 2
    radius = size / 2
    angle = [(-math.pi / 2) + 2 * math.pi * i / n for i in range(n)]
    columns = comparison.columns
    per_row = 2 if len(columns) <= 4 else 3
    legend_rows = math.ceil(len(columns) / per_row)
    height = size + 2 * pad_y + 18 * legend_rows + 4

    def point(i: int, r: float) -> tuple[float, float]:
        return cx + r * math.cos(angle[i]), cy + r * math.sin(angle[i])

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" class="radar" role="img" '
        f'style="max-width:{RADAR_MAX_WIDTH_PX}px;width:100%;height:auto" '
        f'aria-label="{escape(_("Section scores"))}">'
    ]
    for level in range(1, 6):
        ring = " ".join(
            f"{x:.1f},{y:.1f}"
            for x, y in (point(i, radius * level / 5) for i in range(n))
        )
        parts.append(
            f'<polygon points="{ring}" fill="none" stroke="#d1d5db" stroke-width="1"/>'
        )
    for i, section in enumerate(sections):
        x, y = point(i, radius)
        lx, ly = point(i, radius + 12)
        cos = math.cos(angle[i])
        anchor = "start" if cos > 0.2 else "end" if cos < -0.2 else "middle"
        lines = _label_lines(section.title)
        if math.sin(angle[i]) < -0.2:  # upper half: grow upwards
            ly -= 13 * (len(lines) - 1)
        elif math.sin(angle[i]) > 0.2:
            ly += 9
        parts.append(
            f'<line x1="{cx:.1f}" y1="{cy:.1f}" x2="{x:.1f}" y2="{y:.1f}" stroke="#d1d5db"/>'
        )
        tspans = "".join(
            f'<tspan x="{lx:.1f}" dy="{0 if k == 0 else 13}">{escape(text)}</tspan>'
            for k, text in enumerate(lines)
        )
        parts.append(
            f'<text x="{lx:.1f}" y="{ly:.1f}" font-size="12" fill="#374151" '
            f'text-anchor="{anchor}">{tspans}</text>'
        )
    for k, column in enumerate(columns):
        colour = RADAR_COLOURS[k % len(RADAR_COLOURS)]
        pts = " ".join(
            f"{x:.1f},{y:.1f}"
            for x, y in (
                point(i, radius * (column.sections.get(s.code) or 0) / 5)
                for i, s in enumerate(sections)
            )
        )
        parts.append(
            f'<polygon points="{pts}" fill="{colour}" fill-opacity="0.12" '
            f'stroke="{colour}" stroke-width="2"/>'
        )
    cell_width = (width - 20) / per_row
    for k, column in enumerate(columns):
        colour = RADAR_COLOURS[k % len(RADAR_COLOURS)]
        lx = 10 + cell_width * (k % per_row)
        ly = size + 2 * pad_y + 12 + 18 * (k // per_row)
        label = column.label if len(column.label) <= 30 else column.label[:29] + "…"
        parts.append(
            f'<rect x="{lx:.1f}" y="{ly - 10}" width="11" height="11" fill="{colour}"/>'
        )
        parts.append(
            f'<text x="{lx + 16:.1f}" y="{ly}" font-size="12">{escape(label)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def comparison_context(*, procurement, user) -> dict:
    """{"result", "groups", "radar", "grid_html"} for this user, from the cache when
    nothing changed since it was built for the same language and viewer variant."""
    settings_row = evaluation.evaluation_settings_for(procurement=procurement)
    blind, prices_hidden = evaluation.viewer_variant(procurement, settings_row, user)
    key = caching.cache_key(procurement, blind, prices_hidden)
    # Only with a cache all web processes share (CACHE_URL): with per-process caches a
    # write in one process would not invalidate another process's copy.
    enabled = settings.COMPARISON_CACHE_ENABLED
    cached = cache.get(key) if enabled else None
    if cached is not None:
        return cached
    result = build_comparison(procurement=procurement, user=user)
    # Belt and braces: never store an entry under another variant's key.
    if (result.blind, result.prices_hidden) != (blind, prices_hidden):
        key = caching.cache_key(procurement, result.blind, result.prices_hidden)
    groups = comparison_groups(result)
    context = {
        "result": result,
        "groups": groups,
        "radar": radar_svg(result),
    }
    context["grid_html"] = render_to_string("vendors/_comparison_grid.html", context)
    if enabled:
        cache.set(key, context, caching.TTL_SECONDS)
    return context
