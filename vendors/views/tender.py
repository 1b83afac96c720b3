"""The tender settings page: regime, method, price weight, 最高限价, deductions and the
★ items (frozen once the RFP is published)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clusterbuy.access import Capability, access_procurement, require
from clusterbuy.views import render_procurement

from ..models import Bid
from ..services import declarations, tender
from ..tender_forms import TenderSettingsForm
from ..visibility import visibility_for


@login_required
def tender_page(request, pk):
    procurement = access_procurement(request.user, pk)
    row = tender.tender_settings_for(procurement=procurement)
    frozen = tender.rfp_published(procurement)
    form = TenderSettingsForm(request.POST or None, instance=row, items_frozen=frozen)
    if request.method == "POST":
        require(request.user, Capability.CONFIGURE_EVALUATION)
        if form.is_valid():
            try:
                tender.update_tender_settings(
                    procurement=procurement,
                    user=request.user,
                    **form.settings_values(),
                )
            except tender.TenderSettingsInvalid as error:
                form.add_service_errors(error.errors)
            else:
                messages.success(request, _("Tender settings saved."))
                return redirect("vendors:tender", pk=pk)
    shown = visibility_for(procurement=procurement, user=request.user)
    bids = Bid.objects.for_procurement(procurement).select_related("vendor")
    context = {
        "form": form,
        "bids": [{"bid": b, "label": shown.label(b)} for b in bids.order_by("id")],
        "settings_row": row,
        "items_frozen": frozen,
        "budget": procurement.budget_max,
    }
    return render_procurement(
        request, procurement, "vendors/tender.html", context, active="comparison"
    )


@login_required
@require_POST
def tender_declarations(request, pk):
    """Tick which bids' 中小企业声明函 and 本国产品 proof were accepted."""
    procurement = access_procurement(request.user, pk, Capability.CONFIGURE_EVALUATION)
    for bid in Bid.objects.for_procurement(procurement).select_related("procurement"):
        sme = f"sme_{bid.pk}" in request.POST
        domestic = f"domestic_{bid.pk}" in request.POST
        if (sme, domestic) != (bid.sme_declared, bid.domestic_product):
            declarations.set_bid_declarations(
                bid=bid, user=request.user, sme_declared=sme, domestic_product=domestic
            )
    messages.success(request, _("Policy declarations saved."))
    return redirect("vendors:tender", pk=pk)
