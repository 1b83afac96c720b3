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
from clusterbuy.services import ServiceError

from ..comparison import build_comparison
from ..models import AuditAction, Bid, Decision
from ..visibility import viewer_variant, visibility_for
from . import decision_memo, stages
from .audit import record_audit
from .decision_memo import comparison_snapshot


@transaction.atomic
def record_decision(
    *, procurement: Procurement, user, bid: Bid, rationale: str
) -> Decision:
    """Stage 5: the chosen bid and why. Only a role with DECIDE (manager, admin).
    Recording it again replaces the choice and freezes a new snapshot."""
    if not can(user, Capability.DECIDE):
        raise ServiceError(_("Only a manager can record the decision."), field="bid")
    if bid.procurement_id != procurement.pk:
        raise ServiceError(_("No such bid."), field="bid")
    if not rationale.strip():
        raise ServiceError(_("Give the rationale for the decision."), field="rationale")
    refusal = stages.decision_refusal(procurement)
    if refusal is not None:
        raise ServiceError(refusal, field="bid")
    decision = (
        Decision.objects.select_for_update().filter(procurement=procurement).first()
    )
    old = None if decision is None else f"bid {decision.bid_id}: {decision.rationale}"
    if decision is None:
        decision = Decision(procurement=procurement)
    snapshot = comparison_snapshot(
        build_comparison(procurement=procurement, user=user), chosen_bid_id=bid.pk
    )
    snapshot.update(
        rationale=rationale,
        decided_by=user.get_full_name() or user.get_username(),
        decided_at=timezone.localtime().strftime("%Y-%m-%d %H:%M"),
    )
    decision.bid = bid
    decision.rationale = rationale
    decision.decided_by = user
    decision.snapshot = snapshot
    decision.save()
    record_audit(
        procurement=procurement,
        bid=bid,
        actor=user,
        action=AuditAction.DECISION,
        target="decision",
        old=old,
        new=f"bid {bid.pk}: {rationale}",
    )
    return decision


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
