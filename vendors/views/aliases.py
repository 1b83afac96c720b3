"""The buyer's preview before blind grading: per vendor, what is masked (its name,
declared and learnt aliases) and which name-like terms would remain visible, with
where they occur; one click declares a term an alias or keeps a learnt one visible."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clusterbuy.access import Capability, access_procurement
from clusterbuy.services import ServiceError
from clusterbuy.views import render_procurement

from ..services import aliases


@login_required
def blind_preview(request, pk):
    procurement = access_procurement(request.user, pk, Capability.EDIT_VENDORS)
    return render_procurement(
        request,
        procurement,
        "vendors/blind_preview.html",
        {"maskings": aliases.vendor_maskings(procurement)},
        active="bids",
    )


@login_required
@require_POST
def blind_alias(request, pk):
    procurement = access_procurement(request.user, pk, Capability.EDIT_VENDORS)
    vendors = {m.vendor.pk: m.vendor for m in aliases.vendor_maskings(procurement)}
    vendor_id = request.POST.get("vendor", "")
    vendor = vendors.get(int(vendor_id)) if vendor_id.isdigit() else None
    if vendor is None:
        raise Http404("not a vendor of this procurement")
    term = request.POST.get("term", "")
    masked = request.POST.get("action") != "keep"
    try:
        aliases.set_alias(
            procurement=procurement,
            vendor=vendor,
            user=request.user,
            term=term,
            masked=masked,
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            (
                _("“%(term)s” is masked for blind evaluators.")
                if masked
                else _("“%(term)s” stays visible to blind evaluators.")
            )
            % {"term": " ".join(term.split())},
        )
    return redirect("vendors:blind-preview", pk=pk)
