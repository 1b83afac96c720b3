"""The plan's scenario and a bid's scenario of the same cluster, reconciled item by
item (`tco.engine.reconcile`): shown on the TCO page and in the API.

Two scenarios describe the same cluster when they belong to the same procurement,
one started from the sizing plan and one from a bid, and either the bid offers the
plan's accelerator with the scenario's GPU count, or it is the chosen bid. tco cannot
import vendors (apps depend one way): the vendors app registers ``bid_cluster``,
``(procurement=, bid_id=) -> {"accelerator", "chosen"} | None``. The amounts are in the
procurement's currency (converted through tco.engine.currency at each scenario's own
rate); a viewer from whom bid prices are sealed gets no reconciliation.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext as _

from clusterbuy.engine.numbers import money as shown_money
from sizing.models import SizingPlan

from .engine import TcoInputError, compute, cost_breakdown, inputs_from_dict
from .engine.breakdown import CostItem, money
from .engine.currency import convert_money
from .engine.reconcile import Reconciliation, reconcile
from .labels import CAPEX_LABELS, INPUT_LABELS, breakdown_label, format_input
from .models import ScenarioSource, TcoScenario
from .sources import prices_sealed

BidCluster = Callable[..., dict | None]
_bid_cluster: list[BidCluster] = []


def register_bid_cluster(source: BidCluster) -> None:
    _bid_cluster[:] = [source]


@dataclass(frozen=True)
class ScenarioPair:
    plan: TcoScenario
    bid: TcoScenario
    chosen: bool  # paired because the bid is the chosen one
    accelerator: str


def _plan_accelerator(scenario: TcoScenario) -> str | None:
    plan = SizingPlan.objects.filter(
        pk=scenario.source_id, procurement=scenario.procurement
    ).first()
    return None if plan is None else plan.result.get("accelerator")


def _pairs(procurement, plan_scenarios, bid_scenarios) -> list[ScenarioPair]:
    if not _bid_cluster:
        return []
    pairs = []
    for plan in plan_scenarios:
        accelerator = _plan_accelerator(plan)
        for bid in bid_scenarios:
            facts = _bid_cluster[0](procurement=procurement, bid_id=bid.source_id)
            if not facts:
                continue
            same = facts["accelerator"] == accelerator and bid.inputs.get(
                "gpu_count"
            ) == plan.inputs.get("gpu_count")
            if same or facts["chosen"]:
                pairs.append(
                    ScenarioPair(plan, bid, bool(facts["chosen"]), accelerator)
                )
    return pairs


def pair_for(*, scenario: TcoScenario, user) -> ScenarioPair | None:
    """The plan/bid pair ``scenario`` is part of (its newest counterpart, the chosen
    bid first), or None."""
    procurement = scenario.procurement
    if prices_sealed(procurement=procurement, user=user):
        return None
    scenarios = TcoScenario.objects.for_procurement(procurement).order_by("-id")
    kind = scenario.source_kind
    if kind == ScenarioSource.SIZING_PLAN:
        plans = [scenario]
        bids = list(scenarios.filter(source_kind=ScenarioSource.BID))
    elif kind == ScenarioSource.BID:
        plans = list(scenarios.filter(source_kind=ScenarioSource.SIZING_PLAN))
        bids = [scenario]
    else:
        return None
    pairs = _pairs(procurement, plans, bids)
    pairs.sort(key=lambda p: (not p.chosen, -p.plan.pk, -p.bid.pk))
    return pairs[0] if pairs else None


def _side(scenario: TcoScenario, currency: str):
    inputs = inputs_from_dict(scenario.inputs)
    items = cost_breakdown(inputs, compute(inputs))
    if inputs.currency != currency:
        fx = Decimal(str(inputs.fx_usd_cny))
        items = [
            CostItem(
                i.code,
                i.category,
                money(
                    convert_money(
                        i.amount,
                        from_currency=inputs.currency,
                        to_currency=currency,
                        fx_usd_cny=fx,
                    )
                ),
                i.source,
                i.basis,
            )
            for i in items
        ]
    return inputs, items


def reconcile_pair(pair: ScenarioPair) -> Reconciliation | None:
    """Plan (side a) and bid (side b) item by item; None when a scenario's inputs
    no longer pass the engine (its page names the field)."""
    currency = pair.plan.procurement.currency
    try:
        plan_inputs, plan_items = _side(pair.plan, currency)
        bid_inputs, bid_items = _side(pair.bid, currency)
    except TcoInputError:
        return None
    return reconcile(plan_inputs, plan_items, bid_inputs, bid_items)


def _input_label(name: str) -> str:
    if name.startswith("capex:"):
        category = name.split(":", 1)[1]
        return str(CAPEX_LABELS.get(category, category))
    if name == "hardware_capex":
        return _("Hardware capex")
    return str(INPUT_LABELS.get(name, name))


def _value(name: str, value) -> str:
    if isinstance(value, Decimal) or name == "hardware_capex":
        return shown_money(value)
    return format_input(name, value)


def reconciliation_rows(result: Reconciliation) -> list[dict]:
    """The items as the page shows them: label, both amounts, the difference and
    why (each differing input with its value on each side)."""
    return [
        {
            "label": breakdown_label(
                item.code, str(CAPEX_LABELS.get(item.category, item.category))
            ),
            "amount_a": item.amount_a,
            "amount_b": item.amount_b,
            "difference": item.difference,
            "reasons": [
                {
                    "label": _input_label(d.name),
                    "a": _value(d.name, d.value_a),
                    "b": _value(d.name, d.value_b),
                }
                for d in item.inputs
            ],
        }
        for item in result.items
    ]


def reconciliation_context(*, scenario: TcoScenario, user) -> dict | None:
    """{"pair", "result", "rows"} for the page, or None (no pair, or invalid)."""
    pair = pair_for(scenario=scenario, user=user)
    result = None if pair is None else reconcile_pair(pair)
    if result is None:
        return None
    return {"pair": pair, "result": result, "rows": reconciliation_rows(result)}
