"""Tender settings: the regime, method, price weight, 最高限价, policy deductions, ★
mandatory items, 资格审查 requirements, uniform standards and bid bond of one
procurement (`models.TenderSettings`).

Every rule is the engine's (`vendors.engine.regimes`); this module reads and writes the
row and turns the engine's ``RuleViolation`` into messages per field. The ★ items come
from the sizing plan (`regimes.mandatory_from_plan`) and can change only until the RFP
is published (its version 1, `models.RfpVersion`): what vendors answered must stay what
they were asked. The qualification requirements start as the regime's statutory ones
(`qualification_items.statutory_items`) and freeze with the ★ items.
"""

from __future__ import annotations

from dataclasses import replace
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal, InvalidOperation
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from clusterbuy.models import Procurement
from clusterbuy.services import ServiceError

from ..engine.capability import catalog_pflops
from ..engine.regimes import (
    DeductionPolicy,
    MandatoryItem,
    Method,
    PlanFacts,
    Regime,
    RegimeInputError,
    RuleViolation,
    Subject,
    evaluated_prices,
    mandatory_from_plan,
    rules_for,
    validate_bond,
    validate_method,
    validate_price_weight,
)
from ..models import AuditAction, RfpVersion, TenderSettings
from . import plan_facts, qualification_items
from .audit import record_audit

#: The ★ items a buyer may require: key -> (comparison, unit). The set the engine's
#: `mandatory_from_plan` produces; each may be removed, re-added and re-thresholded.
ITEM_KINDS: dict[str, tuple[str, str]] = {
    "delivered_pflops": ("gte", "PFLOPS"),
    "memory_fit": ("true", ""),
    "network_gbps_per_gpu": ("gte", "Gbit/s"),
    "storage_tb": ("gte", "TB"),
    "delivery_days": ("lte", "days"),
    "open_scheduler": ("true", ""),
}

#: Defaults per regime: 政府采购 starts at the goods floor (87号令 第五十五条) with the
#: SME deduction at the bottom of 财库〔2022〕19号's 10-20 % and the 20 % domestic
#: preference of 国办发〔2025〕34号; the others start with no deduction.
REGIME_DEFAULTS: dict[str, dict[str, Decimal]] = {
    Regime.COMMERCIAL: {
        "price_weight_pct": Decimal(30),
        "sme_deduction_pct": Decimal(0),
        "domestic_deduction_pct": Decimal(0),
    },
    Regime.GOV_PROCUREMENT: {
        "price_weight_pct": Decimal(30),
        "sme_deduction_pct": Decimal(10),
        "domestic_deduction_pct": Decimal(20),
    },
    Regime.TENDERING: {
        "price_weight_pct": Decimal(30),
        "sme_deduction_pct": Decimal(0),
        "domestic_deduction_pct": Decimal(0),
    },
}

SETTING_FIELDS = (
    "regime",
    "method",
    "subject",
    "price_weight_pct",
    "ceiling_cny",
    "sme_deduction_pct",
    "domestic_deduction_pct",
    "stacking",
    "abnormally_low_pct",
    "mandatory_items",
    "qualification_items",
    "uniform_standards",
    "bid_bond_cny",
)
#: The lists that freeze once the RFP is published (what vendors were asked).
FROZEN_LISTS = ("mandatory_items", "qualification_items")


class TenderSettingsInvalid(ServiceError):
    """Settings the regime refuses: ``errors`` maps each field to its messages."""

    def __init__(self, errors: dict[str, list[str]]):
        field = next(iter(errors))
        super().__init__(errors[field][0], field)
        self.errors = errors


# --- the plan's ★ items -----------------------------------------------------------


def _pflops_floor(value: float | None) -> Decimal | None:
    """The plan's compute to 0.01 PFLOPS, rounded down: a bid offering the plan's own
    cluster meets it to the last digit."""
    if not value:
        return None
    return Decimal(str(value)).quantize(Decimal("0.01"), rounding=ROUND_FLOOR)


def plan_mandatory_facts(*, procurement: Procurement) -> PlanFacts | None:
    """What the stored sizing plan requires, as the engine's ``PlanFacts``; None
    without a plan. Delivered compute as `vendors.rfp.facts` prints it: the engine's
    figure for the plan's own cluster, else GPUs x dense BF16 peak."""
    plan = plan_facts.plan_summary(procurement=procurement)
    if plan is None:
        return None
    basis = plan_facts.delivery_basis(procurement=procurement)
    workloads: list = []
    if basis is not None:
        delivered = plan_facts.delivered_capability(
            basis=basis, accelerator_key=plan.accelerator, gpu_count=plan.gpu_count
        )
        pflops = delivered.get("compute_pflops")
        workloads = delivered.get("workloads") or []
    else:
        row = plan_facts.accelerators_by_key([plan.accelerator]).get(plan.accelerator)
        pflops = catalog_pflops(plan.gpu_count, getattr(row, "bf16_dense_tflops", None))
    required = _pflops_floor(pflops)
    if required is None:
        return None
    return PlanFacts(
        delivered_pflops=required,
        memory_fit=bool(workloads),  # no sized workload: nothing to fit
        network_gbps_per_gpu=_decimal_or_none(plan.network_gbps_per_gpu),
        storage_tb=_decimal_or_none(plan.storage_tb),
        delivery_days=None,
        open_scheduler=True,
    )


def _decimal_or_none(value) -> Decimal | None:
    """A plan figure to 0.01, rounded up: the bar is the plan's need."""
    if not value:
        return None
    return Decimal(str(value)).quantize(Decimal("0.01"), rounding=ROUND_CEILING)


def decimal_text(value: Decimal) -> str:
    """``value`` as plain digits without trailing zeros ("400", "4.97")."""
    text = f"{Decimal(value):f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def item_json(item: MandatoryItem) -> dict:
    required = item.required
    return {
        "key": item.key,
        "comparison": item.comparison,
        "required": required if isinstance(required, bool) else decimal_text(required),
        "unit": item.unit,
        "source": item.source,
    }


def item_from_json(row: dict) -> MandatoryItem:
    required = row["required"]
    return MandatoryItem(
        key=row["key"],
        comparison=row["comparison"],
        required=required if isinstance(required, bool) else Decimal(str(required)),
        unit=row.get("unit", ""),
        source=row.get("source", ""),
    )


def mandatory_items_of(row: TenderSettings) -> tuple[MandatoryItem, ...]:
    return tuple(item_from_json(r) for r in row.mandatory_items or [])


def plan_items(*, procurement: Procurement) -> list[dict]:
    facts = plan_mandatory_facts(procurement=procurement)
    if facts is None:
        return []
    items = mandatory_from_plan(facts)
    return [item_json(i) for i in items if i.key != "memory_fit" or facts.memory_fit]


# --- reading ------------------------------------------------------------------------


def stored_tender_settings(procurement: Procurement) -> TenderSettings | None:
    return TenderSettings.objects.filter(procurement=procurement).first()


def tender_settings_for(*, procurement: Procurement) -> TenderSettings:
    """The stored settings, or (read only, unsaved) the commercial defaults with the ★
    items from the plan. Saving them (`update_tender_settings`) applies the regime's
    ranking in the comparison."""
    row = stored_tender_settings(procurement)
    if row is not None:
        return row
    return TenderSettings(
        procurement=procurement,
        mandatory_items=plan_items(procurement=procurement),
        **REGIME_DEFAULTS[Regime.COMMERCIAL],
    )


def rfp_published(procurement: Procurement) -> bool:
    """The RFP's version 1 exists: the ★ items are what vendors were sent."""
    return RfpVersion.objects.filter(procurement=procurement).exists()


# --- validation ---------------------------------------------------------------------


def violation_message(violation: RuleViolation) -> str:
    """The engine's violation in the reader's language, with the article it breaks."""
    p = dict(violation.params)
    texts = {
        "price_weight_below_floor": _(
            "The price weight must be at least %(floor)s %% (given %(weight)s %%)."
        ),
        "price_weight_above_cap": _(
            "The price weight must be at most %(cap)s %% (given %(weight)s %%)."
        ),
        "method_not_allowed": _("This regime does not allow this method."),
        "uniform_standards_need_lowest_price": _(
            "Goods with uniform standards use the lowest evaluated price method."
        ),
        "too_few_bidders": _(
            "%(bidders)s bidders: at least %(min_bidders)s are needed; "
            "the tender fails."
        ),
        "too_few_valid_bids": _(
            "%(valid)s valid bids: at least %(min_valid)s are needed; the tender fails."
        ),
        "bond_above_cap": _(
            "The bid bond of %(bond)s CNY is above %(share)s %% of the budget "
            "(%(cap)s CNY)."
        ),
    }
    text = texts.get(violation.code)
    if text is None:
        message = violation.message_en
    else:
        message = text % {
            "floor": _number(p.get("floor_pct")),
            "weight": _number(p.get("weight_pct")),
            "bidders": p.get("bidders"),
            "min_bidders": p.get("min_bidders"),
            "valid": p.get("valid_bids"),
            "min_valid": p.get("min_valid_bids"),
            "bond": _number(p.get("bond_cny")),
            "cap": _number(p.get("cap_cny"), places=2) or _number(p.get("cap_pct")),
            "share": _number(p.get("share_pct")),
        }
    if violation.article is not None:
        message = f"{message} ({violation.article.citation})"
    return message


def _number(value, *, places: int | None = None) -> str:
    if value is None:
        return ""
    value = Decimal(value)
    if places is not None:
        value = value.quantize(Decimal(1).scaleb(-places))
    return f"{value.normalize():f}" if value == value.to_integral() else f"{value:f}"


def _clean_items(items: Any) -> list[dict]:
    """The ★ items as given (key, required; comparison and unit from the key)."""
    if not isinstance(items, list):
        raise ValueError(_("Give the mandatory items as a list."))
    cleaned: list[dict] = []
    seen: set[str] = set()
    for row in items:
        key = row.get("key") if isinstance(row, dict) else None
        if key not in ITEM_KINDS:
            raise ValueError(_("Unknown mandatory item: %(key)s.") % {"key": key})
        if key in seen:
            raise ValueError(_("Mandatory item %(key)s given twice.") % {"key": key})
        seen.add(key)
        comparison, unit = ITEM_KINDS[key]
        required = row.get("required", True)
        if comparison == "true":
            required = True
        else:
            try:
                required = Decimal(str(required))
            except (InvalidOperation, ValueError):
                required = None
            if required is None or not required.is_finite() or required <= 0:
                raise ValueError(
                    _("Mandatory item %(key)s needs a positive threshold.")
                    % {"key": key}
                )
            required = decimal_text(required)
        cleaned.append(
            {
                "key": key,
                "comparison": comparison,
                "required": required,
                "unit": unit,
                # English like the engine's own sources (a stored fact, not a label)
                "source": row.get("source") or "set by the buyer",
            }
        )
    return cleaned


def validation_errors(row: TenderSettings) -> dict[str, list[str]]:
    """Every rule the row breaks, per field (empty: lawful)."""
    errors: dict[str, list[str]] = {}
    try:
        rules = rules_for(row.regime)
        method, subject = Method(row.method), Subject(row.subject)
    except ValueError:
        return {"regime": [_("Unknown regime, method or subject.")]}
    found = list(
        validate_method(
            rules, method, subject, uniform_standards=bool(row.uniform_standards)
        )
    )
    try:
        found += validate_price_weight(
            rules, method, subject, Decimal(row.price_weight_pct)
        )
    except RegimeInputError:
        errors["price_weight_pct"] = [_("The price weight must be 0-100 %.")]
    for violation in found:
        field = {"price_weight_pct": "price_weight_pct"}.get(violation.field, "method")
        errors.setdefault(field, []).append(violation_message(violation))
    try:
        evaluated_prices([], deduction_policy(row))
    except RegimeInputError:
        errors.setdefault("sme_deduction_pct", []).append(
            _("Each deduction must be 0-20 %.")
        )
    share = Decimal(row.abnormally_low_pct)
    if not Decimal(0) < share < Decimal(100):
        errors["abnormally_low_pct"] = [_("The share must be between 0 and 100 %.")]
    bond = _bond_errors(rules, row)
    if bond:
        errors["bid_bond_cny"] = bond
    return errors


def _bond_errors(rules, row: TenderSettings) -> list[str]:
    """投标保证金 at most the regime's share of the budget (实施条例 第三十三条)."""
    if row.bid_bond_cny is None or rules.bid_bond_cap_share is None:
        return []
    bond = Decimal(row.bid_bond_cny)
    if bond < 0:
        return [_("The bid bond cannot be negative.")]
    budget = row.procurement.budget_max
    if budget is None or budget <= 0:
        return [_("Set the procurement's budget first: the bid bond is capped by it.")]
    found = validate_bond(rules, bond, Decimal(budget))
    return [
        violation_message(
            replace(
                v,
                params={
                    **v.params,
                    "share_pct": rules.bid_bond_cap_share * 100,
                },
            )
        )
        for v in found
    ]


def deduction_policy(row: TenderSettings) -> DeductionPolicy:
    return DeductionPolicy(
        sme_pct=Decimal(row.sme_deduction_pct),
        domestic_pct=Decimal(row.domestic_deduction_pct),
        stacking=row.stacking,
    )


# --- writing ------------------------------------------------------------------------


def _audit_values(row: TenderSettings) -> dict:
    return {
        name: getattr(row, name) if name in FROZEN_LISTS else str(getattr(row, name))
        for name in SETTING_FIELDS
    }


def _clean_frozen_lists(procurement, row, values: dict) -> dict[str, list[str]]:
    """Clean the ★ items and the qualification requirements given in ``values`` (in
    place); a change after the RFP is published is refused."""
    errors: dict[str, list[str]] = {}
    cleaners = {
        "mandatory_items": _clean_items,
        "qualification_items": qualification_items.clean_items,
    }
    frozen = {
        "mandatory_items": _(
            "The RFP is published: its mandatory (★) items can no longer change."
        ),
        "qualification_items": _(
            "The RFP is published: its qualification requirements can no longer change."
        ),
    }
    published = None
    for name in FROZEN_LISTS:
        if name not in values:
            continue
        try:
            items = cleaners[name](values[name])
        except ValueError as error:
            errors[name] = [str(error)]
            continue
        if items != getattr(row, name):
            if published is None:
                published = rfp_published(procurement)
            if published:
                errors[name] = [frozen[name]]
        values[name] = items
    return errors


@transaction.atomic
def update_tender_settings(
    *, procurement: Procurement, user, **values: Any
) -> TenderSettings:
    """Store the settings given (the rest unchanged), judged by the regime's rules.

    A change of regime with no price weight or deductions given takes the new
    regime's defaults. Changing the ★ items after the RFP is published is refused."""
    unknown = set(values) - set(SETTING_FIELDS)
    if unknown:
        raise ServiceError(_("Unknown setting."), sorted(unknown)[0])
    stored = (
        TenderSettings.objects.select_for_update()
        .filter(procurement=procurement)
        .first()
    )
    row = stored or tender_settings_for(procurement=procurement)
    old = _audit_values(row) if stored else {}
    regime = values.get("regime", row.regime)
    if regime != row.regime and regime in REGIME_DEFAULTS:
        for name, default in REGIME_DEFAULTS[regime].items():
            values.setdefault(name, default)
        if "qualification_items" not in values and not rfp_published(procurement):
            values["qualification_items"] = qualification_items.statutory_items(regime)
    errors = _clean_frozen_lists(procurement, row, values)
    for name, value in values.items():
        if name not in errors:
            setattr(row, name, value)
    errors = {**validation_errors(row), **errors}
    if errors:
        raise TenderSettingsInvalid(errors)
    row.save()
    record_audit(
        procurement=procurement,
        actor=user,
        action=AuditAction.SETTINGS,
        target="tender settings",
        old=old,
        new=_audit_values(row),
    )
    return row


def reset_mandatory_items(*, procurement: Procurement, user) -> TenderSettings:
    """The ★ items generated from the plan again (refused after publication)."""
    return update_tender_settings(
        procurement=procurement,
        user=user,
        mandatory_items=plan_items(procurement=procurement),
    )
