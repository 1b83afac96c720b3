"""The buyer's side of corrections: asking the vendor of an opened bid for an
arithmetic correction or a clarification (`vendors.services.corrections`)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clusterbuy.access import Capability, access_procurement, can
from clusterbuy.forms import add_service_error
from clusterbuy.services import ServiceError

from ..portal.correction_forms import CorrectionRequestForm
from ..services import corrections, opened_bids


def _shown(correction, redact) -> dict:
    """One request as the page shows it, its texts redacted as the viewer reads them
    (blind grading: `Visibility.redact`)."""
    return {
        "pk": correction.pk,
        "kind": correction.get_kind_display(),
        "status": correction.status,
        "status_label": correction.get_status_display(),
        "what": redact(correction.what),
        "why": redact(correction.why),
        "response": redact(correction.response),
        "changes": [
            {**c, "description": redact(c["description"])} for c in correction.changes
        ],
        "requested_by": getattr(correction.requested_by, "username", ""),
        "requested_at": correction.requested_at,
        "responded_at": correction.responded_at,
        "bid_version": correction.bid_version,
    }


def bid_corrections_context(request, bid, *, form=None, redact=str) -> dict:
    """The bid page's lock note, its corrections and the request form."""
    refusal = opened_bids.edit_refusal(bid)
    portal = corrections.portal_invitation(bid) is not None
    shown = corrections.corrections_for_bid(bid) if portal else []
    return {
        "locked": refusal is not None,
        "locked_note": refusal[1] if refusal else "",
        "corrections": [_shown(c, redact) for c in shown],
        "correction_form": form or CorrectionRequestForm(bid=bid)
        if portal and can(request.user, Capability.EDIT_VENDORS)
        else None,
    }


@login_required
@require_POST
def correction_request(request, pk, bid_pk):
    """A refused request is the bid page again with the form's errors (200)."""
    from .bids import bid_or_404, render_bid_detail

    procurement = access_procurement(request.user, pk, Capability.EDIT_VENDORS)
    bid = bid_or_404(procurement, bid_pk)
    form = CorrectionRequestForm(request.POST, bid=bid)
    if form.is_valid():
        try:
            corrections.request_correction(
                bid=bid, user=request.user, **form.service_values()
            )
        except ServiceError as exc:
            add_service_error(form, exc)
        else:
            messages.success(
                request,
                _("Request sent: the vendor answers it through its portal link."),
            )
            return redirect("vendors:bid-detail", pk=pk, bid_pk=bid_pk)
    return render_bid_detail(request, procurement, bid, correction_form=form)
