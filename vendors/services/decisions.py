"""Stage 5, the decision: the chosen bid, why, who decided, and the comparison frozen
as the decider saw it (`decision_memo.comparison_snapshot`), from which the decision
memo is rendered."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _

from clusterbuy.access import Capability, can
from clusterbuy.models import Procurement
from clusterbuy.services import ConflictError, ServiceError

from ..comparison import build_comparison
from ..models import AuditAction, Bid, Decision
from ..visibility import viewer_variant, visibility_for
from . import decision_memo, stages
from .audit import record_audit
from .decision_memo import comparison_snapshot
from .decision_override import OverrideRequired, override_checks


@transaction.atomic
def record_decision(
    *,
    procurement: Procurement,
    user,
    bid: Bid,
    rationale: str,
    override_reason: str = "",
    seen: str | None = None,
) -> Decision:
    """Stage 5: the chosen bid and why. Only a role with DECIDE (manager, admin).
    Recording it again replaces the choice and freezes a new snapshot.

    A bid that fails a mandatory requirement or the technical threshold, or is not
    ranked first, needs ``override_reason`` (`decision_override`): kept on the row,
    in the snapshot (the memo prints it) and in the audit trail.

    Two decisions at once run one after the other: the procurement's row is locked
    first, so the second finds the first's row instead of inserting a second one
    (issue 23, item 8: the unique constraint answered 500). ``seen`` is the
    `decision_token` of the decision the caller saw ("" for none, None unchecked):
    when another decision was recorded since, the call is refused with a conflict,
    unless it asks for exactly what is stored (then the stored one is the answer)."""
    if not can(user, Capability.DECIDE):
        raise ServiceError(_("Only a manager can record the decision."), field="bid")
    if bid.procurement_id != procurement.pk:
        raise ServiceError(_("No such bid."), field="bid")
    if not rationale.strip():
        raise ServiceError(_("Give the rationale for the decision."), field="rationale")
    refusal = stages.decision_refusal(procurement)
    if refusal is not None:
        raise ServiceError(refusal, field="bid")
    Procurement.objects.select_for_update().filter(pk=procurement.pk).first()
    decision = Decision.objects.filter(procurement=procurement).first()
    if decision is not None and _same_choice(decision, bid, rationale, override_reason):
        return decision
    if seen is not None and decision_token(decision) != seen:
        raise DecisionChangedError(decision)
    result = build_comparison(procurement=procurement, user=user)
    checks = override_checks(result, bid_id=bid.pk)
    if checks and not override_reason.strip():
        raise OverrideRequired(checks)
    override_reason = override_reason.strip() if checks else ""
    old = None if decision is None else f"bid {decision.bid_id}: {decision.rationale}"
    if decision is None:
        decision = Decision(procurement=procurement)
    snapshot = comparison_snapshot(result, chosen_bid_id=bid.pk)
    snapshot.update(
        rationale=rationale,
        decided_by=user.get_full_name() or user.get_username(),
        decided_at=timezone.localtime().strftime("%Y-%m-%d %H:%M"),
        override={"checks": checks, "reason": override_reason} if checks else None,
    )
    decision.bid = bid
    decision.rationale = rationale
    decision.decided_by = user
    decision.snapshot = snapshot
    decision.override_checks = checks
    decision.override_reason = override_reason
    decision.save()
    _audit_decision(procurement, user, bid, old, rationale, checks, override_reason)
    return decision


def _same_choice(decision: Decision, bid: Bid, rationale: str, override: str) -> bool:
    return (
        decision.bid_id == bid.pk
        and decision.rationale == rationale
        and decision.override_reason == (override.strip() if override else "")
    )


def _audit_decision(procurement, user, bid, old, rationale, checks, reason) -> None:
    record_audit(
        procurement=procurement,
        bid=bid,
        actor=user,
        action=AuditAction.DECISION,
        target="decision",
        old=old,
        new=f"bid {bid.pk}: {rationale}",
    )
    if checks:
        record_audit(
            procurement=procurement,
            bid=bid,
            actor=user,
            action=AuditAction.DECISION,
            target="override",
            old=", ".join(c["code"] for c in checks),
            new=reason,
        )


def decision_token(decision: Decision | None) -> str:
    """What a form or client names as the decision it saw: "" for none."""
    return "" if decision is None else decision.decided_at.isoformat()


class DecisionChangedError(ConflictError):
    """Another decision was recorded after the caller read the page."""

    def __init__(self, decision: Decision | None):
        who = ""
        if decision is not None and decision.decided_by is not None:
            who = decision.decided_by.get_full_name() or decision.decided_by.username
        super().__init__(
            _(
                "A decision was recorded by %(user)s while you were choosing. "
                "Reload the page and check it before you record yours."
            )
            % {"user": who or _("another user")},
            details={"seen": decision_token(decision)},
        )


def memo_readable(*, decision: Decision, user) -> bool:
    """Whether ``user`` may read the memo: its snapshot shows no more than they may
    see now (vendor names only to a viewer who is not blind, prices only to one
    whose prices are not sealed, `visibility.viewer_variant`)."""
    if not decision.snapshot:
        return False
    settings_row = getattr(decision.procurement, "evaluation_settings", None)
    if settings_row is None:
        return True
    blind, prices_hidden = viewer_variant(decision.procurement, settings_row, user)
    snap = decision.snapshot
    return (not blind or snap.get("blind", False)) and (
        not prices_hidden or snap.get("prices_hidden", False)
    )


def memo_download(*, procurement, user) -> tuple[bytes, str]:
    """The memo's PDF and file name for ``user`` (the page's and the API's download):
    404 without a recorded decision, 403 when its snapshot shows more than the reader
    may see now (`memo_readable`); text redacted as the reader sees it."""
    decision = Decision.objects.filter(procurement=procurement).first()
    if decision is None or not decision.snapshot:
        raise Http404(_("No decision yet."))
    if not memo_readable(decision=decision, user=user):
        raise PermissionDenied(
            _("The memo shows vendor names and prices you may not see yet.")
        )
    shown = visibility_for(procurement=procurement, user=user)
    return decision_memo.decision_memo_pdf(
        decision, redact=shown.redact
    ), decision_memo.memo_filename(decision)
