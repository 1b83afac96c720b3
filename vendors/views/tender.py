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
    return _render(request, procurement, form=form, row=row, frozen=frozen)


def declaration_rows(*, procurement, shown, posted=None, errors=None) -> list[dict]:
    """Each bid with what its vendor declared, the evidence behind each declaration
    (names redacted for a blind viewer; no link while attachments are sealed), what
    was accepted (or, on a refused table, what was ticked) and its errors."""
    bids = list(Bid.objects.for_procurement(procurement).select_related("vendor"))
    evidence = declarations.evidence_by_kind(b.pk for b in bids)
    rows = []
    for bid in sorted(bids, key=lambda b: b.pk):
        ticked = (posted or {}).get(bid.pk, (bid.sme_declared, bid.domestic_product))
        files = {
            kind: [
                {"pk": a.pk, "name": shown.redact(a.original_name)}
                for a in evidence.get(bid.pk, {}).get(kind, [])
            ]
            for kind in ("sme", "domestic")
        }
        rows.append(
            {
                "bid": bid,
                "label": shown.label(bid),
                "sme": ticked[0],
                "domestic": ticked[1],
                "evidence": files,
                "errors": (errors or {}).get(bid.pk, []),
            }
        )
    return rows


def _render(request, procurement, *, form, row, frozen, posted=None, errors=None):
    """The page; ``posted``/``errors``: a refused declarations table, as ticked."""
    shown = visibility_for(procurement=procurement, user=request.user)
    context = {
        "form": form,
        "bids": declaration_rows(
            procurement=procurement, shown=shown, posted=posted, errors=errors
        ),
        "sealed_attachments": shown.attachments_sealed,
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
    """Tick which bids' 中小企业声明函 and 本国产品 proof were accepted; one without its
    evidence file refuses the table (the page again, 200, with the row's error)."""
    procurement = access_procurement(request.user, pk, Capability.CONFIGURE_EVALUATION)
    bids = Bid.objects.for_procurement(procurement)
    posted = {
        b: (f"sme_{b}" in request.POST, f"domestic_{b}" in request.POST)
        for b in bids.values_list("pk", flat=True)
    }
    try:
        declarations.accept_declarations(
            procurement=procurement, user=request.user, accepted=posted
        )
    except declarations.DeclarationsInvalid as error:
        row = tender.tender_settings_for(procurement=procurement)
        frozen = tender.rfp_published(procurement)
        form = TenderSettingsForm(instance=row, items_frozen=frozen)
        return _render(
            request,
            procurement,
            form=form,
            row=row,
            frozen=frozen,
            posted=posted,
            errors=error.errors,
        )
    messages.success(request, _("Policy declarations saved."))
    return redirect("vendors:tender", pk=pk)
