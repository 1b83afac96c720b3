"""The buyer's side of corrections: asking the vendor of an opened bid for an
arithmetic correction or a clarification (`vendors.services.corrections`)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clusterbuy.access import Capability, access_procurement
from clusterbuy.forms import add_service_error
from clusterbuy.services import ServiceError

from ..portal.correction_forms import CorrectionRequestForm
from ..services import corrections
from .bids import bid_or_404, render_bid_detail


@login_required
@require_POST
def correction_request(request, pk, bid_pk):
    """A refused request is the bid page again with the form's errors (200)."""
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
