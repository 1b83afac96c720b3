"""The side-by-side comparison of a procurement's bids, assembled from the pure modules.

Reads only (no ORM writes besides the first-use creation of the evaluation settings in
`evaluation.evaluation_settings_for`), in a constant number of queries whatever the number
of bids: one for the bids with their vendors, one each for their line items, case
studies and scores, one for the checklist, one for the catalog rows, the sizing plan's
own queries, one training bound per distinct accelerator, and what each distinct
(accelerator, GPU count) delivers (`delivered`: one read of the plan, then engine time).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from decimal import Decimal

from clusterbuy.models import Procurement
from sizing.services import PlanSummary

from ..engine.compliance import PlanNeeds
from ..engine.detectors import ProcurementFacts
from ..models import Bid, ChecklistSection, Decision, EvaluationSettings
from ..services import evaluation, plan_facts, qualification
from ..services import tender as tender_services
from ..visibility import Visibility, visibility_for
from . import checks, claims, delivered, pricing
from . import tender as tender_review
from .ranking import rank_columns, score_sections
from .result import PRICE_FIGURES, Column, Comparison, SectionInfo


@dataclass(frozen=True)
class _Surroundings:
    """What every bid is measured against: the plan, the other bids, the catalog."""

    procurement: Procurement
    plan: PlanSummary | None
    needs: PlanNeeds | None
    facts: ProcurementFacts
    accelerators: dict
    training_bounds: dict[int, float]
    proposal_texts: dict[int, str]
    delivered: dict[int, dict]
    #: The server each offered accelerator comes in (pricing.server_for_bids).
    servers: dict = field(default_factory=dict)


def _surroundings(procurement: Procurement, bids: list[Bid]) -> _Surroundings:
    plan = plan_facts.plan_summary(procurement=procurement)
    needs = checks.plan_needs(plan)
    plan_key = plan.accelerator if plan else ""
    accelerators = plan_facts.accelerators_by_key(
        [plan_key, *(b.accelerator for b in bids)]
    )
    return _Surroundings(
        procurement=procurement,
        plan=plan,
        needs=needs,
        facts=checks.procurement_facts(procurement, plan, needs),
        accelerators=accelerators,
        training_bounds=checks.training_bounds(procurement, bids),
        proposal_texts={b.pk: checks.proposal_text(b) for b in bids},
        delivered=delivered.delivered_by_bid(procurement, bids, plan, accelerators),
        servers=pricing.servers_for(bids),
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


def _column(bid: Bid, around: _Surroundings, visibility: Visibility) -> Column:
    """The bid's column before scoring, as the viewer may see it: "Vendor n" rather
    than the name under blind grading, no price-derived pitfall under a sealed
    envelope (prices themselves are cleared by `_hide_prices` after ranking)."""
    procurement = around.procurement
    lines = pricing.bid_lines(bid)
    priced = lines if pricing.lines_are_valid(bid) else None
    tco = pricing.bid_tco(
        bid, priced, procurement=procurement, plan=around.plan, servers=around.servers
    )
    quoted = pricing.quoted_total(priced, procurement.horizon_years)
    invalid = set(bid.invalid_fields)
    invalid |= {"quoted_total"} if quoted is None else set()
    invalid |= {"normalized_tco"} if tco is None else set()
    offered_now = around.delivered.get(bid.pk)
    bid_facts = replace(
        around.facts,
        training_days_lower_bound=around.training_bounds.get(bid.pk),
        engine_training_days=checks.engine_training_days(offered_now),
        engine_tokens_per_s=checks.engine_tokens_per_s(offered_now),
    )
    others = [text for pk, text in around.proposal_texts.items() if pk != bid.pk]
    accelerator = around.accelerators.get(bid.accelerator)
    offered = around.delivered.get(bid.pk)
    capability = delivered.capability_for(offered)
    return Column(
        bid=bid,
        label=visibility.label(bid),
        vendor=visibility.vendor(bid),
        quoted_total=quoted,
        normalized_tco=None if tco is None else tco.normalized_tco,
        hidden_costs=[] if tco is None else tco.hidden_costs,
        compliance=checks.compliance_for(bid, accelerator, around.needs, capability),
        pitfalls=visibility.pitfalls(
            checks.pitfalls_for(bid, lines, bid_facts, others)
        ),
        evidence=checks.evidence_counts(bid),
        tco_value=Decimal(0) if tco is None else tco.normalized_tco,
        invalid=frozenset(invalid),
        spec_claims=claims.spec_claims_for(bid, accelerator, visibility),
        delivered=offered,
        tco_breakdown=[] if tco is None else tco.breakdown,
        budget_ceiling=procurement.budget_max,
        currency=procurement.currency,
    )


def _hide_prices(columns: list[Column], sections: list[SectionInfo]) -> None:
    """Sealed envelope, technical evaluator: no price, TCO or price score is shown."""
    for column in columns:
        column.invalid -= PRICE_FIGURES
        column.quoted_total = None
        column.normalized_tco = None
        column.hidden_costs = []
        column.tco_breakdown = []
        column.price_100 = None
        for section in sections:
            if section.auto_price:
                column.sections[section.code] = None


def build_comparison(
    *, procurement: Procurement, user, weights: dict | None = None
) -> Comparison:
    """Everything the comparison page and API show, for this user.

    ``weights`` (section code -> weight) overrides the saved section weights without
    saving them (the page's "try weights" form). Blind labels, redacted text and sealed
    prices follow `visibility.visibility_for`, the one visibility rule.
    """
    settings_row = evaluation.evaluation_settings_for(procurement=procurement)
    sections = _sections(settings_row, weights)
    bids = list(
        Bid.objects.for_procurement(procurement).for_comparison().order_by("id")
    )
    around = _surroundings(procurement, bids)
    visibility = visibility_for(
        procurement=procurement, user=user, settings_row=settings_row
    )
    columns: list[Column] = []
    for bid in bids:
        column = _column(bid, around, visibility)
        score_sections(column, bid, sections, settings_row.disagreement_points)
        columns.append(column)
    rank_columns(columns, sections, settings_row, visibility.prices_hidden)
    review = _tender(procurement, columns, sections, visibility.prices_hidden)
    if visibility.prices_hidden:
        _hide_prices(columns, sections)
    return Comparison(
        procurement=procurement,
        settings=settings_row,
        sections=sections,
        columns=columns,
        plan=around.plan,
        blind=visibility.blind,
        prices_hidden=visibility.prices_hidden,
        decision=_decision(procurement, visibility),
        visibility=visibility,
        tender=review,
    )


def _tender(
    procurement: Procurement,
    columns: list[Column],
    sections: list[SectionInfo],
    prices_hidden: bool,
):
    """The regime's review, re-ranking the columns, once tender settings are stored."""
    row = tender_services.stored_tender_settings(procurement)
    if row is None:
        return None
    failures = qualification.bid_failures(procurement)
    for column in columns:
        column.qualification = failures.get(column.bid.pk, [])
    review = tender_review.review_columns(
        columns,
        row,
        budget_cny=procurement.budget_max,
        horizon_years=procurement.horizon_years,
        prices_hidden=prices_hidden,
    )
    tender_review.apply_review(review, columns, sections)
    return review


def _decision(procurement: Procurement, visibility: Visibility) -> Decision | None:
    """The decision, its rationale redacted in memory for a blind viewer."""
    decision = Decision.objects.filter(procurement=procurement).first()
    if decision is not None:
        decision.rationale = visibility.redact(decision.rationale)
    return decision
