"""The side-by-side comparison of a procurement's bids, assembled from the pure modules.

Reads only (no ORM writes besides the first-use creation of the evaluation settings in
`evaluation.evaluation_settings_for`), in a constant number of queries whatever the number
of bids: one for the bids with their vendors, one each for their line items, case
studies and scores, one for the checklist, one for the catalog rows, the sizing plan's
own queries, and one training bound per distinct accelerator.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from decimal import Decimal

from django.utils.translation import gettext as _

from clusterbuy.models import Procurement

from .. import evaluation, plan_facts
from ..compliance import PlanNeeds
from ..detectors import ProcurementFacts
from ..models import Bid, ChecklistSection, Decision, EvaluationSettings
from . import checks, pricing
from .ranking import rank_columns, score_sections
from .result import PRICE_FIGURES, Column, Comparison, SectionInfo


@dataclass(frozen=True)
class _Surroundings:
    """What every bid is measured against: the plan, the other bids, the catalog."""

    procurement: Procurement
    plan: dict | None
    needs: PlanNeeds | None
    facts: ProcurementFacts
    accelerators: dict
    training_bounds: dict[int, float]
    proposal_texts: dict[int, str]


def _surroundings(procurement: Procurement, bids: list[Bid]) -> _Surroundings:
    plan = plan_facts.plan_summary(procurement=procurement)
    needs = checks.plan_needs(plan)
    return _Surroundings(
        procurement=procurement,
        plan=plan,
        needs=needs,
        facts=checks.procurement_facts(procurement, plan, needs),
        accelerators=plan_facts.accelerators_by_key(b.accelerator for b in bids),
        training_bounds=checks.training_bounds(procurement, bids),
        proposal_texts={b.pk: checks.proposal_text(b) for b in bids},
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


def _column(bid: Bid, index: int, around: _Surroundings, *, blind: bool) -> Column:
    """The bid's column before scoring; a blind viewer sees "Vendor n", not the name."""
    procurement = around.procurement
    lines = pricing.bid_lines(bid)
    priced = lines if pricing.lines_are_valid(bid) else None
    tco = pricing.bid_tco(bid, priced, procurement=procurement, plan=around.plan)
    quoted = pricing.quoted_total(priced, procurement.horizon_years)
    invalid = set(bid.invalid_fields)
    invalid |= {"quoted_total"} if quoted is None else set()
    invalid |= {"normalized_tco"} if tco is None else set()
    bid_facts = replace(
        around.facts, training_days_lower_bound=around.training_bounds.get(bid.pk)
    )
    others = [text for pk, text in around.proposal_texts.items() if pk != bid.pk]
    label = _("Vendor %(n)s") % {"n": index}
    vendor = (
        {"id": None, "name": label, "blind": True}
        if blind
        else {"id": bid.vendor_id, "name": bid.vendor.name, "blind": False}
    )
    accelerator = around.accelerators.get(bid.accelerator)
    return Column(
        bid=bid,
        label=label if blind else bid.vendor.name,
        vendor=vendor,
        quoted_total=quoted,
        normalized_tco=None if tco is None else tco.normalized_tco,
        hidden_costs=[] if tco is None else tco.hidden_costs,
        compliance=checks.compliance_for(bid, accelerator, around.needs),
        pitfalls=checks.pitfalls_for(bid, lines, bid_facts, others),
        evidence=checks.evidence_counts(bid),
        tco_value=Decimal(0) if tco is None else tco.normalized_tco,
        invalid=frozenset(invalid),
    )


def _hide_prices(columns: list[Column], sections: list[SectionInfo]) -> None:
    """Sealed envelope, technical evaluator: no price, TCO or price score is shown."""
    for column in columns:
        column.invalid -= PRICE_FIGURES
        column.quoted_total = None
        column.normalized_tco = None
        column.hidden_costs = []
        column.price_100 = None
        for section in sections:
            if section.auto_price:
                column.sections[section.code] = None


def build_comparison(
    *, procurement: Procurement, user, weights: dict | None = None
) -> Comparison:
    """Everything the comparison page and API show, for this user.

    ``weights`` (section code -> weight) overrides the saved section weights without
    saving them (the page's "try weights" form). Blind labels and sealed prices follow
    `evaluation.viewer_variant`, the one visibility rule.
    """
    settings_row = evaluation.evaluation_settings_for(procurement=procurement)
    sections = _sections(settings_row, weights)
    bids = list(
        Bid.objects.for_procurement(procurement).for_comparison().order_by("id")
    )
    around = _surroundings(procurement, bids)
    blind, prices_hidden = evaluation.viewer_variant(procurement, settings_row, user)
    columns: list[Column] = []
    for index, bid in enumerate(bids, start=1):
        column = _column(bid, index, around, blind=blind)
        score_sections(column, bid, sections, settings_row.disagreement_points)
        columns.append(column)
    rank_columns(columns, sections, settings_row, prices_hidden)
    if prices_hidden:
        _hide_prices(columns, sections)
    return Comparison(
        procurement=procurement,
        settings=settings_row,
        sections=sections,
        columns=columns,
        plan=around.plan,
        blind=blind,
        prices_hidden=prices_hidden,
        decision=Decision.objects.filter(procurement=procurement).first(),
    )
