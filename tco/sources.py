"""Where a scenario starts: a vendor's bid or the sizing plan, and a capex that follows
the GPU count until the user edits it.

A bid's scenario is the bid's normalisation (tco.engine.normalise): the same capex
pieces, horizon and defaults, so its TCO is the bid's normalised TCO to the cent. The
vendors app registers the function that builds it (``register_bid_source``): apps
depend one way, tco never imports vendors. A plan's scenario is the same normalisation
of a bid with no lines: GPU servers = GPU count x the catalogue price per GPU, and the
network, storage, facility and installation the plan does not price filled in by the
same sourced rules.

Derived capex: the scenario keeps what its capex was derived from (``derivation``);
while the user has not edited capex or IT power, both follow the GPU count in
proportion (capex per GPU and kW per GPU of the source).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from typing import Any

from django.utils.translation import gettext as _

from clusterbuy.errors import error_sentence
from clusterbuy.models import DeploymentSite, Procurement
from clusterbuy.services import ServiceError
from sizing import services as sizing_services

from .engine import TcoInputError
from .engine.bill_of_materials import ClusterScale
from .engine.currency import convert_money
from .engine.normalise import normalise_tco
from .labels import CAPEX_LABELS, breakdown_label
from .models import ScenarioSource, TcoScenario
from .price_book import cloud_prices_for, price_book

#: Amounts closer than this are the same amount (a form shows floats as typed).
SAME_AMOUNT = 0.005


@dataclass(frozen=True)
class ScenarioSeed:
    """A new scenario's inputs and where they come from."""

    kind: str  # ScenarioSource
    source_id: int
    name: str
    inputs: dict[str, Any]
    #: The bid's normalised TCO the scenario reproduces (None for a plan).
    normalized_tco: Decimal | None = None


BidSource = Callable[..., ScenarioSeed]
PriceSeal = Callable[..., bool]
_bid_source: list[BidSource] = []
_price_seal: list[PriceSeal] = []


def register_bid_source(source: BidSource, *, prices_sealed: PriceSeal) -> None:
    """The vendors app's ``source(procurement=, bid_id=, user=) -> ScenarioSeed`` and
    its visibility rule ``prices_sealed(procurement=, user=) -> bool``."""
    _bid_source[:] = [source]
    _price_seal[:] = [prices_sealed]


def seed_from_bid(*, procurement: Procurement, bid_id: int, user) -> ScenarioSeed:
    if not _bid_source:
        raise ServiceError(_("Bids are not available."), field="bid")
    return _bid_source[0](procurement=procurement, bid_id=bid_id, user=user)


def prices_sealed(*, procurement: Procurement, user) -> bool:
    """Whether bid prices are sealed from ``user`` (vendors.visibility): then no
    scenario started from a bid is shown to them either."""
    return bool(_price_seal) and _price_seal[0](procurement=procurement, user=user)


def label_capex(capex: list[dict], category_label: Callable[[str], str]) -> list[dict]:
    """Capex lines of a normalisation ("code:category" descriptions) described in
    the active language."""
    lines = []
    for line in capex:
        code, _sep, category = str(line.get("description", "")).partition(":")
        description = breakdown_label(code, category_label(category)) if _sep else ""
        lines.append({**line, "description": description or line["description"]})
    return lines


def _plan_price(plan: sizing_services.PlanSummary, currency: str) -> Decimal:
    try:
        price = Decimal(str(plan.gpu_price))
        if not price.is_finite() or price <= 0:
            raise InvalidOperation
        return convert_money(
            price,
            from_currency=plan.gpu_price_currency or currency,
            to_currency=currency,
        )
    except (InvalidOperation, ValueError):
        raise ServiceError(
            _(
                "The sizing plan's accelerator has no catalogue price: enter the "
                "capex by hand."
            ),
            field="sizing_plan",
        ) from None


def plan_scale(plan) -> ClusterScale:
    """The plan's own bill of materials inputs: its nodes, fabric and storage."""
    return ClusterScale(
        gpu_count=int(plan.gpu_count),
        gpus_per_node=plan.gpus_per_node or 8,
        nics_per_node=plan.nics_per_node,
        nic_gbps=plan.nic_gbps or 400.0,
        switch_radix=plan.switch_radix or 64,
        rail_optimized=True if plan.rail_optimized is None else plan.rail_optimized,
        storage_tb=plan.storage_tb,
        storage_tier=plan.storage_tier,
    )


def seed_from_plan(*, procurement: Procurement, plan_id: int) -> ScenarioSeed:
    """The plan's scenario: its GPU count and IT power, GPU servers at the catalogue
    price, what the plan does not price filled in (see the module docstring)."""
    plan = sizing_services.plan_summary(procurement=procurement)
    if plan is None or plan.plan_id != plan_id:
        raise ServiceError(
            _("Start from the procurement's current sizing plan (%(id)s).")
            % {"id": plan.plan_id if plan else "—"},
            field="sizing_plan",
        )
    currency = procurement.currency if procurement.currency in ("CNY", "USD") else "CNY"
    gpu_count = int(plan.gpu_count)
    try:
        normalised = normalise_tco(
            [],
            horizon_years=procurement.horizon_years,
            currency=currency,
            gpu_count=gpu_count,
            it_power_kw=float(plan.it_power_kw) if plan.it_power_kw else None,
            warranty_years=None,
            on_prem=procurement.deployment_site != DeploymentSite.CLOUD,
            gpu_price=_plan_price(plan, currency),
            price_book=price_book(),
            scale=plan_scale(plan),
        )
    except TcoInputError as exc:
        raise ServiceError(error_sentence(exc), field="sizing_plan") from None
    inputs = dict(normalised.inputs)
    inputs.update(
        cloud_prices_for(
            accelerator=plan.accelerator, region=procurement.region, currency=currency
        )
        or {}
    )
    name = plan.accelerator_name or plan.accelerator or "GPU"
    inputs["capex"] = [
        {**line, "description": f"{gpu_count} x {name}"}
        if line["description"] == "added:gpu_servers"
        else label_capex([line], _capex_label)[0]
        for line in inputs["capex"]
    ]
    return ScenarioSeed(
        ScenarioSource.SIZING_PLAN,
        plan_id,
        _("Sizing plan %(id)s: %(count)s x %(name)s")
        % {"id": plan_id, "count": gpu_count, "name": name},
        inputs,
    )


def _capex_label(category: str) -> str:
    """The fill-in categories of a plan's normalisation by their capex names."""
    capex = {"power_cooling": "facility"}.get(category, category)
    return str(CAPEX_LABELS.get(capex, category))


# --- a derived capex follows the GPU count ----------------------------------------


def derivation_of(inputs: dict) -> dict:
    """What a derived capex is computed from: the source's GPU count, capex lines and
    IT power (None when the source gave none: the engine derives it)."""
    return {
        "gpu_count": int(inputs["gpu_count"]),
        "capex": [dict(line) for line in inputs.get("capex") or []],
        "it_power_kw": inputs.get("it_power_kw"),
    }


def derived_values(derivation: dict, gpu_count: int) -> dict:
    """Capex (and IT power) for ``gpu_count`` GPUs: the source's per GPU x count; the
    source's own figures, exactly, at its own count."""
    base = derivation["gpu_count"]
    factor = 1.0 if gpu_count == base else gpu_count / base
    values: dict[str, Any] = {
        "capex": [
            {
                **line,
                "amount": line["amount"] if factor == 1.0 else line["amount"] * factor,
            }
            for line in derivation["capex"]
        ]
    }
    if derivation.get("it_power_kw") is not None:
        power = derivation["it_power_kw"]
        values["it_power_kw"] = power if factor == 1.0 else power * factor
    return values


def _amount(value: Any) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return number if math.isfinite(number) else None


def _same_lines(given: Any, stored: list[dict]) -> bool:
    if not isinstance(given, list | tuple) or len(given) != len(stored):
        return False
    for line, kept in zip(given, stored, strict=True):
        if not isinstance(line, dict):
            return False
        amount = _amount(line.get("amount"))
        if (
            line.get("category") != kept["category"]
            or (line.get("description") or "") != kept.get("description", "")
            or amount is None
            or abs(amount - kept["amount"]) > SAME_AMOUNT
        ):
            return False
    return True


def _edited(inputs: dict, stored: dict) -> bool:
    """Whether the user changed capex or IT power from what the scenario holds."""
    if inputs.get("capex") is not None and not _same_lines(
        inputs["capex"], stored.get("capex") or []
    ):
        return True
    power = inputs.get("it_power_kw")
    if power is None or "it_power_kw" not in (stored.get("user_fields") or []):
        return power is not None  # typed where the scenario had the default
    kept, given = stored["it_power_kw"], _amount(power)
    return given is None or abs(given - kept) > SAME_AMOUNT * max(1.0, abs(kept))


def follow_gpu_count(scenario: TcoScenario | None, inputs: dict) -> tuple[dict, bool]:
    """``inputs`` as they are saved for ``scenario``, and whether its capex is still
    derived: while it is and the user left capex and IT power as they were, both
    follow the GPU count; editing either ends the derivation (``capex_is_derived``)."""
    if scenario is None or not scenario.derivation or not scenario.capex_is_derived:
        return inputs, False
    if _edited(inputs, scenario.inputs):
        return inputs, False
    count = inputs.get("gpu_count", scenario.inputs.get("gpu_count"))
    number = _amount(count)
    if number is None or number != int(number) or number < 1:
        return inputs, True  # the engine names the bad gpu_count
    return {**inputs, **derived_values(scenario.derivation, int(number))}, True


# --- a sealed envelope hides the scenarios started from a bid ----------------------


def without_sealed_bids(queryset, *, user, prefix: str = ""):
    """``queryset`` (scenarios, or runs with ``prefix="scenario__"``) less those
    started from a bid of a procurement whose bid prices are sealed from ``user``:
    their capex is the bid's prices."""
    kind = f"{prefix}source_kind"
    procurement = f"{prefix}procurement"
    ids = set(
        queryset.filter(**{kind: ScenarioSource.BID}).values_list(
            procurement, flat=True
        )
    )
    sealed = [
        p.pk
        for p in Procurement.objects.filter(pk__in=ids)
        if prices_sealed(procurement=p, user=user)
    ]
    if not sealed:
        return queryset
    return queryset.exclude(**{kind: ScenarioSource.BID, f"{procurement}__in": sealed})
