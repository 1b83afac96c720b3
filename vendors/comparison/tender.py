"""The tender review of the comparison's columns under the procurement's regime:
符合性审查 (★ items, budget and 最高限价) and the 资格审查 failures the buyer recorded
(`comparison.qualification`), evaluated prices after policy deductions, the
regime's price score, the abnormally-low check, the ranking without invalid bids and
whether the tender can go on (`vendors.engine.regimes` does every sum and rule).

It reads what the comparison already computed per bid (the quoted total, the normalised
TCO, what the GPUs deliver) and then re-ranks the columns, so the page, the API, the
memo and the guard all see one ranking. Under a sealed envelope a technical evaluator
sees the ★ review only: no price, deduction, price check or price ranking.

* 政府采购 / 依法必须招标: 低价优先法 on the quoted price (投标报价) after deductions, the
  base from valid bids only (87号令 第五十五条).
* Commercial: the same formula on cost per delivered capacity: normalised TCO (less
  the same share of deductions) / PFLOPS-days over the horizon, so a cut-down
  accelerator cannot win on GPU count.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from ..engine.regimes import (
    EvaluatedPrice,
    InvalidReason,
    Method,
    PriceBasis,
    PriceInput,
    RankedEntry,
    Regime,
    abnormally_low,
    capacity_price_scores,
    check_viability,
    evaluated_prices,
    low_price_first_scores,
    rank,
    review_conformity,
    rules_for,
)
from ..models import TenderSettings
from ..services import declarations as declaration_services
from ..services import tender as tender_services
from .justifications import justification_json, justifications_of, not_justified
from .qualification import qualification_reasons
from .result import Column, SectionInfo

_DAYS_PER_YEAR = Decimal(365)


@dataclass
class BidReview:
    bid_id: int
    label: str
    valid: bool
    reasons: list[dict] = field(default_factory=list)
    quoted_cny: Decimal | None = None
    evaluated_cny: Decimal | None = None
    deductions: list[dict] = field(default_factory=list)
    unit_cost_cny: Decimal | None = None  # commercial: per delivered PFLOPS-day
    price_points: Decimal | None = None  # of price_weight_pct
    total: Decimal | None = None
    rank: int | None = None
    candidate: bool = False
    abnormally_low: bool = False
    # 87号令 第六十条: {"id", "state"} once flagged or asked (state: needed, requested,
    # answered, justified, not_justified), with the judgement's note, who and when.
    justification: dict | None = None
    # The declaration kinds ("sme", "domestic") -> the evidence attachments' ids.
    declaration_evidence: dict = field(default_factory=dict)


@dataclass
class TenderReview:
    regime: str
    regime_label: str
    method: str
    method_label: str
    price_weight_pct: Decimal
    budget_cny: Decimal | None
    ceiling_cny: Decimal | None
    prices_hidden: bool
    items: list[dict]
    bids: list[BidReview]
    viable: bool = True
    viability: dict | None = None
    # What it was built from, so tried weights can review the columns again.
    settings_row: TenderSettings | None = None
    horizon_years: int = 1
    # "committee" once the committee's marks are summed (its mean counts), else
    # "evaluation" (the comparison's technical score).
    technical_source: str = "evaluation"

    @property
    def valid_count(self) -> int:
        return sum(1 for b in self.bids if b.valid)

    @property
    def invalid_bids(self) -> list[BidReview]:
        return [b for b in self.bids if not b.valid]


def _decimal(value) -> Decimal | None:
    if value is None or value == "":
        return None
    return Decimal(str(value))


def bid_facts(column: Column) -> dict:
    """The bid's answer to each ★ item, from what the comparison computed."""
    bid = column.bid
    delivered = column.delivered or {}
    facts: dict = {}
    pflops = delivered.get("compute_pflops")
    if pflops:
        facts["delivered_pflops"] = Decimal(str(pflops))
    workloads = delivered.get("workloads") or []
    if workloads and all(w.get("fits") is not None for w in workloads):
        facts["memory_fit"] = all(w.get("fits") for w in workloads)
    for name in ("network_gbps_per_gpu", "storage_tb"):
        value = _decimal(bid.checked(name))
        if value is not None:
            facts[name] = value
    weeks = bid.checked("delivery_weeks")
    if weeks is not None:
        facts["delivery_days"] = Decimal(weeks) * 7
    if bid.scheduler:
        facts["open_scheduler"] = bid.scheduler in ("slurm", "kubernetes") and (
            bid.native_scheduler_access in ("", "open")
        )
    return facts


#: Where a ★ item comes from (the engine's ``MandatoryItem.source`` and the buyer's
#: own), stored in English as facts; shown in the reader's language.
ITEM_SOURCES = {
    "sizing plan: delivered compute the workload needs": gettext_lazy(
        "sizing plan: delivered compute the workload needs"
    ),
    "sizing plan: the model fits": gettext_lazy("sizing plan: the model fits"),
    "sizing plan: scale-out bandwidth per GPU": gettext_lazy(
        "sizing plan: scale-out bandwidth per GPU"
    ),
    "sizing plan: storage": gettext_lazy("sizing plan: storage"),
    "RFP: delivery window": gettext_lazy("RFP: delivery window"),
    "RFP: an open scheduler (Slurm or Kubernetes) is offered": gettext_lazy(
        "RFP: an open scheduler (Slurm or Kubernetes) is offered"
    ),
    "set by the buyer": gettext_lazy("set by the buyer"),
}


def item_source(source: str) -> str:
    shown = ITEM_SOURCES.get(source)
    return str(shown) if shown is not None else source


def item_unit(unit: str) -> str:
    """A ★ item's unit: the word translated ("days"), symbols as they are."""
    return pgettext("unit", "days") if unit == "days" else unit


def item_label(key: str) -> str:
    """A ★ item's name in the active language."""
    return {
        "delivered_pflops": _("delivered compute"),
        "memory_fit": _("the model fits in memory"),
        "network_gbps_per_gpu": _("network per GPU"),
        "storage_tb": _("storage capacity"),
        "delivery_days": _("delivery time"),
        "open_scheduler": _("open scheduler (Slurm or Kubernetes)"),
        "quoted_total": _("quoted price"),
    }.get(key, key)


def _shown(value) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    value = Decimal(value)
    return f"{value.quantize(Decimal('0.01')):,}"


def reason_json(
    reason: InvalidReason, items: dict[str, dict], *, cite: bool = True
) -> dict:
    item = items.get(reason.item_key, {})
    params = {
        "item": item_label(reason.item_key),
        "offered": _shown(reason.offered),
        "required": _shown(reason.required),
        "unit": item.get("unit", ""),
    }
    texts = {
        "missing_fact": _("★ %(item)s: not stated in the bid (required %(required)s)."),
        "mandatory_not_met": _(
            "★ %(item)s: offered %(offered)s, required %(required)s %(unit)s."
        ),
        "over_budget": _("Price %(offered)s above the budget %(required)s."),
        "over_ceiling": _("Price %(offered)s above the maximum price %(required)s."),
        "no_price": _("No valid quoted price."),
        "abnormally_low_not_justified": _(
            "Price abnormally low; the committee judged the vendor's justification "
            "insufficient."
        ),
    }
    message = texts.get(reason.code, reason.code) % params
    return {
        "code": reason.code,
        "item": reason.item_key,
        "offered": None if reason.offered is None else str(reason.offered),
        "required": None if reason.required is None else str(reason.required),
        "message": message.replace("  ", " ").replace(" .", "."),
        "citation": reason.article.citation if cite and reason.article else "",
    }


def _price_inputs(
    columns: list[Column], backed: dict[int, set[str]]
) -> list[PriceInput]:
    """``backed``: the declarations accepted with their evidence attached
    (`declarations.backed_declarations`): only they earn a deduction."""
    return [
        PriceInput(
            str(c.bid.pk),
            c.quoted_total,
            None,
            "sme" in backed.get(c.bid.pk, ()),
            "domestic" in backed.get(c.bid.pk, ()),
        )
        for c in columns
        if c.quoted_total is not None and c.quoted_total > 0
    ]


def _capacity_pflops_days(column: Column, horizon_years: int) -> Decimal | None:
    pflops = (column.delivered or {}).get("compute_pflops")
    if not pflops:
        return None
    return Decimal(str(pflops)) * _DAYS_PER_YEAR * Decimal(horizon_years or 1)


def _unit_costs(
    columns: list[Column],
    valid: list[str],
    prices: dict[str, EvaluatedPrice],
    horizon_years: int,
) -> tuple[dict[str, Decimal], dict[str, Decimal]]:
    """Commercial: the valid bids' cost (TCO less the deduction share) and capacity."""
    by_id = {str(c.bid.pk): c for c in columns}
    cost: dict[str, Decimal] = {}
    capacity: dict[str, Decimal] = {}
    for bid_id in valid:
        column = by_id[bid_id]
        days = _capacity_pflops_days(column, horizon_years)
        if column.tco_value <= 0 or days is None or bid_id not in prices:
            continue
        price = prices[bid_id]
        cost[bid_id] = column.tco_value * price.evaluated_cny / price.corrected_cny
        capacity[bid_id] = days
    return cost, capacity


def review_columns(
    columns: list[Column],
    row: TenderSettings,
    *,
    budget_cny: Decimal | None,
    horizon_years: int,
    prices_hidden: bool,
) -> TenderReview:
    """The review of every column: the columns carry what it needs, but for the
    price justifications (87号令 第六十条) and the declarations' evidence, read once.
    A bid judged "not justified" is invalid before the prices are compared."""
    rules = rules_for(row.regime)
    justifications = justifications_of(columns)
    method = Method(row.method)
    items = tender_services.mandatory_items_of(row)
    items_by_key = {i["key"]: i for i in row.mandatory_items or []}
    weight = Decimal(row.price_weight_pct)
    ceiling = row.ceiling_cny
    reviews: list[BidReview] = []
    for column in columns:
        result = review_conformity(
            items,
            bid_facts(column),
            budget_cny=None if prices_hidden else budget_cny,
            ceiling_cny=None if prices_hidden else ceiling,
            price_cny=None if prices_hidden else column.quoted_total,
            rules=rules,
        )
        cite = rules.regime != Regime.COMMERCIAL  # the buyer's own rule: no statute
        reasons = [reason_json(r, items_by_key, cite=cite) for r in result.failures]
        reasons += qualification_reasons(column, cite=cite)
        if not prices_hidden and column.quoted_total is None:
            missing = InvalidReason("no_price", "quoted_total", None, None, None)
            reasons.append(reason_json(missing, items_by_key))
        judged = justifications.get(column.bid.pk)
        for low in not_justified(judged, rules):
            reasons.append(reason_json(low, items_by_key, cite=cite))
        reviews.append(
            BidReview(
                bid_id=column.bid.pk,
                label=column.label,
                valid=not reasons,
                reasons=reasons,
                quoted_cny=None if prices_hidden else column.quoted_total,
                justification=None
                if judged is None or prices_hidden
                else justification_json(judged),
            )
        )
    review = TenderReview(
        regime=row.regime,
        regime_label=str(row.get_regime_display()),
        method=row.method,
        method_label=str(row.get_method_display()),
        price_weight_pct=weight,
        budget_cny=None if prices_hidden else budget_cny,
        ceiling_cny=None if prices_hidden else ceiling,
        prices_hidden=prices_hidden,
        items=list(row.mandatory_items or []),
        bids=reviews,
        settings_row=row,
        horizon_years=horizon_years,
    )
    violation = check_viability(
        rules, bidders=len(reviews), valid_bids=review.valid_count
    )
    if violation is not None:
        review.viable = False
        review.viability = {
            "code": violation.code,
            "message": tender_services.violation_message(violation),
            "citation": violation.article.citation if violation.article else "",
        }
    if not prices_hidden:
        _price_and_rank(review, columns, row, rules, method, horizon_years)
    return review


def _price_and_rank(review, columns, row, rules, method, horizon_years) -> None:
    by_id = {str(r.bid_id): r for r in review.bids}
    evidence = declaration_services.evidence_by_kind(c.bid.pk for c in columns)
    backed = declaration_services.backed_declarations(
        (c.bid for c in columns), evidence=evidence
    )
    for bid_id, kinds in evidence.items():
        by_id[str(bid_id)].declaration_evidence = {
            kind: [a.pk for a in found] for kind, found in kinds.items()
        }
    prices = dict(evaluated_prices(_price_inputs(columns, backed), _policy(row)))
    valid = sorted(b for b, r in by_id.items() if r.valid and b in prices)
    weight = review.price_weight_pct
    for bid_id, price in prices.items():
        by_id[bid_id].evaluated_cny = price.evaluated_cny
        by_id[bid_id].deductions = [
            {"kind": d.kind, "pct": d.pct, "amount_cny": d.amount_cny}
            for d in price.deductions
        ]
    if rules.price_basis == PriceBasis.CAPACITY_COST:
        cost, capacity = _unit_costs(columns, valid, prices, horizon_years)
        points = capacity_price_scores(cost, capacity, weight)
        for bid_id in cost:
            by_id[bid_id].unit_cost_cny = cost[bid_id] / capacity[bid_id]
        ranked_prices = {
            b: EvaluatedPrice(b, p.quoted_cny, p.corrected_cny, p.deductions, u)
            for b, p in prices.items()
            if (u := by_id[b].unit_cost_cny) is not None
        }
        valid = [b for b in valid if b in ranked_prices]
    else:
        points = low_price_first_scores(prices, valid, weight)
        ranked_prices = prices
    for bid_id, value in points.items():
        by_id[bid_id].price_points = value
    for bid_id in abnormally_low(prices, valid, Decimal(row.abnormally_low_pct)):
        by_id[bid_id].abnormally_low = True
        if by_id[bid_id].justification is None:
            by_id[bid_id].justification = justification_json(None)
    technical, review.technical_source = _technical_100(columns, valid)
    technical_share = (Decimal(100) - weight) / Decimal(100)
    totals = {
        b: technical[b] * technical_share + points.get(b, Decimal(0)) for b in valid
    }
    entries: tuple[RankedEntry, ...] = rank(rules, method, totals, ranked_prices, valid)
    for entry in entries:
        target = by_id[entry.bid_id]
        target.rank = entry.rank
        target.candidate = entry.candidate
        target.total = totals[entry.bid_id] if method == Method.COMPREHENSIVE else None


def _technical_100(columns: list[Column], valid: list[str]) -> tuple[dict, str]:
    """Each valid bid's technical score out of 100, and where it comes from.

    Once the committee has summed its marks, the committee's score: the mean of the
    members who scored alone and submitted (``committee_scoring.committee_results``;
    the automatic pre-scores never enter it, issue 25). Before that, the comparison's
    own technical score (the evaluators' marks), so a buyer sees a ranking while the
    committee works."""
    from ..services import committee_results as committee_scoring

    by_id = {str(c.bid.pk): c for c in columns}
    own = {b: Decimal(str(by_id[b].technical_100)) for b in valid}
    if not columns or not committee_scoring.is_summed(columns[0].bid.procurement):
        return own, "evaluation"
    results = committee_scoring.committee_results(
        columns[0].bid.procurement, [int(b) for b in valid]
    )
    means = {b: results.get(int(b), {}).get("mean") for b in valid}
    if any(m is None for m in means.values()):
        return own, "evaluation"  # a valid bid the committee did not score
    return {b: Decimal(str(m)) for b, m in means.items()}, "committee"


def _policy(row: TenderSettings):
    return tender_services.deduction_policy(row)


def apply_review(
    review: TenderReview, columns: list[Column], sections: list[SectionInfo]
) -> None:
    """The comparison's ranking follows the review: an invalid bid is out of the rank
    (shown as 无效投标 with its reason), the valid ones take the regime's rank, total
    and price score (as 0-100 of the price sections)."""
    by_id = {r.bid_id: r for r in review.bids}
    price_codes = [s.code for s in sections if s.auto_price]
    for column in columns:
        entry = by_id.get(column.bid.pk)
        column.tender = entry
        if entry is None or review.prices_hidden:
            if entry is not None and not entry.valid:
                column.rank = None
            continue
        column.rank = entry.rank
        if not entry.valid or entry.rank is None:
            column.rank = None
            column.weighted_total = None
            continue
        if entry.total is not None:
            column.weighted_total = float(entry.total)
        if entry.price_points is not None and review.price_weight_pct > 0:
            column.price_100 = float(entry.price_points / review.price_weight_pct * 100)
            for code in price_codes:
                column.sections[code] = column.price_100 / 20.0
