"""The comparison as built for one viewer: one Column per bid, the checklist sections
with their effective weights, and the viewer variant it was built for."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.translation import gettext as _

from clusterbuy.models import Procurement
from sizing.engine.budget import BudgetCheck, check_budget
from sizing.services import PlanSummary
from tco.labels import shown_basis

from ..engine import scoring
from ..engine.compliance import ComplianceItem
from ..engine.detectors import Pitfall
from ..models import Bid, Decision, EvaluationSettings
from ..visibility import Visibility
from .labels import (
    breakdown_rows,
    category_label,
    compliance_label,
    current_language,
    pitfall_label,
    shown_value,
    status_label,
)

#: The computed prices a column may mark invalid besides the bid's own figures.
PRICE_FIGURES = frozenset({"quoted_total", "normalized_tco"})
# A compliance item named otherwise than the bid figure it reads.
_OFFER_FIGURES = {"it_power_kw": "peak_power_kw", "compute": "gpu_count"}


def offered_figure(item: str) -> str:
    """The bid figure behind compliance item ``item`` (its offered value)."""
    return _OFFER_FIGURES.get(item, item)


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
    # Figures shown as "invalid": the bid's own (`Bid.invalid_fields`) and the prices
    # that could not be computed from them (PRICE_FIGURES).
    invalid: frozenset[str] = frozenset()
    spec_claims: list[dict] = field(default_factory=list)  # comparison.claims
    # What the bid's GPUs deliver for the planned workloads (`comparison.delivered`).
    delivered: dict | None = None
    # The procurement's budget ceiling and currency, for `quoted_budget`/`tco_budget`.
    budget_ceiling: Decimal | None = None
    currency: str = ""
    # The tender review of this bid (`comparison.tender.BidReview`) once the
    # procurement's tender settings are stored: valid or 无效投标 with its reasons.
    tender: object = None
    # The supplier's 资格审查 failures (`services.qualification.bid_failures`), set
    # with the tender review: each makes the bid invalid.
    qualification: list = field(default_factory=list)

    @property
    def quoted_budget(self) -> BudgetCheck | None:
        """The quoted price against the budget ceiling (None: no budget, or the
        price is invalid or sealed)."""
        return check_budget(self.quoted_total, self.budget_ceiling, self.currency)

    @property
    def tco_budget(self) -> BudgetCheck | None:
        """The normalised TCO against the budget ceiling."""
        return check_budget(self.normalized_tco, self.budget_ceiling, self.currency)

    @property
    def over_budget(self) -> bool:
        """The quoted price or the normalised TCO above the budget ceiling."""
        return any(
            c is not None and c.over for c in (self.quoted_budget, self.tco_budget)
        )

    @property
    def accelerator_name(self) -> str:
        """The catalog name of the bid's accelerator (its key without a plan)."""
        return (self.delivered or {}).get("accelerator_name") or self.bid.accelerator

    #: Every item of the normalised TCO (tco.engine.breakdown.CostItem), summing to
    #: ``normalized_tco`` to the cent; empty when the TCO is invalid or hidden.
    tco_breakdown: list = field(default_factory=list)

    @property
    def tco_breakdown_list(self) -> list[dict]:
        return breakdown_rows(self.tco_breakdown)

    # Criterion code -> its automatic score from the findings (`vendors.engine.autoscore`),
    # and the sections that count in the rank with no score / some criteria unscored.
    automatic: dict = field(default_factory=dict)
    unscored_sections: list[str] = field(default_factory=list)
    partial_sections: list[str] = field(default_factory=list)

    @property
    def scores_complete(self) -> bool:
        return not self.unscored_sections and not self.partial_sections

    @property
    def hidden_cost_list(self) -> list[dict]:
        return [
            {
                "label": category_label(h["category"]),
                "amount": h["amount"],
                "source": _(h["source"]),
                "basis": shown_basis(h.get("basis", "")),
            }
            for h in self.hidden_costs
        ]

    @property
    def pitfall_list(self) -> list[dict]:
        lang = current_language()
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
        lang = current_language()
        return [
            {
                "item": i.item,
                "label": compliance_label(i.item),
                "status": str(i.status),
                "status_label": status_label(i.status),
                "required": shown_value(i.required),
                "offered": _("invalid")
                if offered_figure(i.item) in self.invalid
                else shown_value(i.offered),
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
    plan: PlanSummary | None  # the sizing plan's summary
    blind: bool
    prices_hidden: bool
    decision: Decision | None
    visibility: Visibility = field(default_factory=Visibility)
    # `comparison.tender.TenderReview` under the stored tender settings, else None.
    tender: object = None

    @property
    def weights(self) -> dict[str, float]:
        return {s.code: s.weight for s in self.sections}
