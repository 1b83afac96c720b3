"""The tender settings page: regime, method, price weight, 最高限价, deductions and the
★ items (frozen once the RFP is published)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from clusterbuy.access import Capability, access_procurement, require
from clusterbuy.views import render_procurement

from ..services import tender
from ..tender_forms import TenderSettingsForm


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
    context = {
        "form": form,
        "settings_row": row,
        "items_frozen": frozen,
        "budget": procurement.budget_max,
    }
    return render_procurement(
        request, procurement, "vendors/tender.html", context, active="comparison"
    )
