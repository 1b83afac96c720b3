"""Acceptance (验收): the plan, the results recorded against it, the thresholds the
buyer tightens and the signature.

The plan is built by the pure engine (`vendors.engine.acceptance.build_clauses`) from
`AcceptanceInputs` read off the decided bid, the sizing catalog and the sizing plan
(before a decision: from the sizing plan alone), and completed with the bid's service
terms and the safety checks, so that the 验收书 covers "每一项技术、服务、安全标准的履约
情况" (政府采购法实施条例 第四十五条, as commonly published: "采购人或者采购代理机构应当按照
政府采购合同规定的技术、服务、安全标准组织对供应商履约情况进行验收，并出具验收书。验收书
应当包括每一项技术、服务、安全标准的履约情况。" The project's search tool did not return the
State Council's own text; the wording follows secondary sources).

A log is parsed and graded before anything is written, and everything it produces
(the attempt with its raw bytes and SHA-256, the verdicts) is saved in one
transaction: an unreadable, truncated or foreign log leaves nothing behind. A rerun
after a repair is one more attempt; the clause's standing is its latest verdict per
node, the failed runs stay in the history.
"""

from __future__ import annotations

import dataclasses
import math

from django.db import transaction
from django.utils.translation import gettext as _

from clusterbuy.access import Capability, can
from clusterbuy.models import Procurement
from clusterbuy.services import ConflictError, ServiceError

from ..engine.acceptance import AcceptanceInputs
from ..models import (
    AcceptanceClause,
    AcceptancePlan,
    AuditAction,
    Bid,
    Decision,
    PlanBasis,
)
from .acceptance_inputs import acceptance_inputs, clause_rows, predictions
from .audit import record_audit

HAND_TOOLS = ("workload", "burn_in", "manual")


# --- the plan ------------------------------------------------------------------------


def decided_bid(procurement: Procurement) -> Bid | None:
    decision = (
        Decision.objects.filter(procurement=procurement).select_related("bid").first()
    )
    return decision.bid if decision is not None else None


def require(user, capability: Capability, message: str) -> None:
    if not can(user, capability):
        raise ServiceError(message)


@transaction.atomic
def create_acceptance_plan(
    *, procurement: Procurement, user, burn_in_hours: int = 72
) -> AcceptancePlan:
    """The procurement's acceptance plan, built anew from the decided bid (or the
    sizing plan before a decision). Rebuilding replaces the clauses while no result
    is recorded; after that the plan is fixed (a conflict)."""
    require(
        user,
        Capability.RECORD_ACCEPTANCE,
        _("Only the IT lead or an administrator can plan the acceptance."),
    )
    if not 1 <= burn_in_hours <= 24 * 31:
        raise ServiceError(
            _("The burn-in lasts between 1 hour and 31 days."), field="burn_in_hours"
        )
    Procurement.objects.select_for_update().filter(pk=procurement.pk).first()
    plan = AcceptancePlan.objects.filter(procurement=procurement).first()
    if plan is not None and (plan.signed or plan.attempts.exists()):
        raise ConflictError(
            _(
                "Results are recorded against this acceptance plan: it can no longer "
                "be rebuilt."
            )
        )
    bid = decided_bid(procurement)
    inputs = acceptance_inputs(
        procurement=procurement, bid=bid, burn_in_hours=burn_in_hours
    )
    rows = clause_rows(inputs, bid)
    if plan is None:
        plan = AcceptancePlan(procurement=procurement, created_by=user)
    plan.basis = PlanBasis.BID if bid is not None else PlanBasis.SIZING
    plan.bid = bid
    plan.inputs = {**_jsonable_inputs(inputs), **predictions(procurement, inputs)}
    plan.burn_in_hours = burn_in_hours
    plan.save()
    plan.clauses.all().delete()
    AcceptanceClause.objects.bulk_create(
        [
            AcceptanceClause(
                plan=plan,
                derived_required=row["required"],
                **{k: row[k] for k in CLAUSE_FIELDS},
            )
            for row in rows
        ]
    )
    record_audit(
        procurement=procurement,
        actor=user,
        action=AuditAction.ACCEPTANCE,
        target="plan",
        old=None,
        new={"basis": plan.basis, "bid": plan.bid_id, "clauses": len(rows)},
    )
    return plan


CLAUSE_FIELDS = (
    "key",
    "order",
    "category",
    "tool",
    "metric",
    "unit",
    "comparison",
    "required",
    "scope",
    "command",
    "source",
    "basis",
    "gpus",
    "operation",
)


def _jsonable_inputs(inputs: AcceptanceInputs) -> dict:
    data = dataclasses.asdict(inputs)
    data["promised"] = dict(inputs.promised)
    return data


def plan_for(procurement: Procurement) -> AcceptancePlan | None:
    return (
        AcceptancePlan.objects.filter(procurement=procurement)
        .select_related("bid", "bid__vendor", "signed_by", "created_by")
        .first()
    )


def preview_clauses(*, procurement: Procurement) -> list[dict]:
    """The clauses as plain rows for the RFP: the stored plan's when there is one,
    else built from the sizing plan (nothing stored); [] when neither can be."""
    plan = plan_for(procurement)
    if plan is not None:
        return [{k: getattr(c, k) for k in CLAUSE_FIELDS} for c in plan.clauses.all()]
    try:
        inputs = acceptance_inputs(procurement=procurement)
        return clause_rows(inputs, None)
    except ServiceError:
        return []


def assert_open(plan: AcceptancePlan) -> None:
    if plan.signed:
        raise ConflictError(
            _("The acceptance certificate is signed: the record is closed.")
        )


@transaction.atomic
def tighten_threshold(
    *, plan: AcceptancePlan, user, clause_key: str, required: float
) -> AcceptanceClause:
    """The buyer's stricter threshold for a clause: higher for a floor (>=), lower
    for a ceiling (<=); never looser than the derived one, and fixed once the clause
    has a result."""
    require(
        user,
        Capability.RECORD_ACCEPTANCE,
        _("Only the IT lead or an administrator can change a threshold."),
    )
    assert_open(plan)
    clause = plan.clauses.filter(key=clause_key).first()
    if clause is None:
        raise ServiceError(_("No such clause."), field="clause")
    if clause.comparison not in (">=", "<="):
        raise ServiceError(
            _("A pass/fail clause has no threshold to tighten."), field="required"
        )
    if not math.isfinite(required) or required < 0:
        raise ServiceError(_("Give a threshold of 0 or more."), field="required")
    floor = clause.derived_required
    looser = floor is not None and (
        required < floor if clause.comparison == ">=" else required > floor
    )
    if looser:
        raise ServiceError(
            _(
                "A threshold may be tightened, never loosened: %(comparison)s "
                "%(floor)s %(unit)s is the plan's."
            )
            % {"comparison": clause.comparison, "floor": floor, "unit": clause.unit},
            field="required",
        )
    if clause.verdicts.exists():
        raise ServiceError(
            _("Results are recorded for this clause: its threshold is fixed."),
            field="required",
        )
    old = clause.required
    clause.required = required
    clause.save(update_fields=["required"])
    record_audit(
        procurement=plan.procurement,
        actor=user,
        action=AuditAction.ACCEPTANCE,
        target=f"threshold {clause.key}",
        old=old,
        new=required,
    )
    return clause


@transaction.atomic
def record_delivery(*, plan: AcceptancePlan, user, delivered_on) -> AcceptancePlan:
    """The date the cluster was delivered (the delay counts from the decision plus
    the bid's delivery weeks)."""
    require(
        user,
        Capability.RECORD_ACCEPTANCE,
        _("Only the IT lead or an administrator can record the delivery."),
    )
    assert_open(plan)
    old = plan.delivered_on
    plan.delivered_on = delivered_on
    plan.save(update_fields=["delivered_on"])
    record_audit(
        procurement=plan.procurement,
        actor=user,
        action=AuditAction.ACCEPTANCE,
        target="delivered_on",
        old=old,
        new=delivered_on,
    )
    return plan
