"""The tender settings page: regime, method, price weight, 最高限价, deductions, the
★ items and the 资格审查 requirements (frozen once the RFP is published), the 第二十条
warnings on the checklist, and per bid the qualification review."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clusterbuy.access import Capability, access_procurement, require
from clusterbuy.views import render_procurement

from ..models import Bid
from ..services import declarations, qualification, restriction, tender
from ..services.qualification_items import item_citation, item_label
from ..tender_forms import TenderSettingsForm
from ..visibility import visibility_for


def _qualification_rows(procurement, row, bids, shown, posted=None, errors=None):
    """Per bid, each requirement with its recorded (or just posted) result."""
    items = row.qualification_items or []
    labels = {i["key"]: item_label(i) for i in items}
    recorded = qualification.procurement_results(procurement)
    rows = []
    for bid in bids:
        mine = recorded.get(bid.pk, {})
        cells = []
        for item in items:
            key = item["key"]
            if posted is not None and posted["bid"] == bid.pk:
                state, note = posted["values"].get(key, ("", ""))
            else:
                passed, note = mine.get(key, (None, ""))
                state = "" if passed is None else ("pass" if passed else "fail")
            cells.append(
                {
                    "key": key,
                    "label": labels[key],
                    "citation": item_citation(key),
                    "state": state,
                    "note": note,
                }
            )
        rows.append(
            {
                "bid": bid,
                "label": shown.label(bid),
                "cells": cells,
                "errors": errors if posted and posted["bid"] == bid.pk else [],
            }
        )
    return rows


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


def _render(
    request,
    procurement,
    *,
    form,
    row,
    frozen,
    posted=None,
    errors=None,
    qualification_posted=None,
    qualification_errors=None,
):
    """The page; ``posted``/``errors``: a refused declarations table, as ticked;
    ``qualification_posted``/``qualification_errors``: a refused 资格审查, as typed."""
    shown = visibility_for(procurement=procurement, user=request.user)
    bids = list(
        Bid.objects.for_procurement(procurement).select_related("vendor").order_by("id")
    )
    qual_rows = _qualification_rows(
        procurement, row, bids, shown, qualification_posted, qualification_errors
    )
    context = {
        "form": form,
        "bids": declaration_rows(
            procurement=procurement, shown=shown, posted=posted, errors=errors
        ),
        "sealed_attachments": shown.attachments_sealed,
        "settings_row": row,
        "items_frozen": frozen,
        "budget": procurement.budget_max,
        "qualification_rows": qual_rows,
        "restriction_warnings": restriction.restriction_warnings(
            procurement=procurement
        ),
    }
    return render_procurement(
        request, procurement, "vendors/tender.html", context, active="comparison"
    )


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


@login_required
@require_POST
def tender_qualification(request, pk, bid_pk):
    """Record the 资格审查 of one bid: per requirement passed, failed (with its
    reason) or pending. A refused entry re-renders the page with what was typed."""
    procurement = access_procurement(request.user, pk, Capability.CONFIGURE_EVALUATION)
    bid = get_object_or_404(
        Bid.objects.for_procurement(procurement).select_related("procurement"),
        pk=bid_pk,
    )
    row = tender.tender_settings_for(procurement=procurement)
    values, results = {}, []
    for item in row.qualification_items or []:
        key = item["key"]
        state = request.POST.get(f"result_{key}", "")
        note = request.POST.get(f"note_{key}", "")
        values[key] = (state, note)
        passed = {"pass": True, "fail": False}.get(state)
        results.append({"key": key, "passed": passed, "note": note})
    try:
        qualification.record_qualification(bid=bid, user=request.user, results=results)
    except tender.TenderSettingsInvalid as error:
        errors = [m for found in error.errors.values() for m in found]
        frozen = tender.rfp_published(procurement)
        form = TenderSettingsForm(instance=row, items_frozen=frozen)
        posted = {"bid": bid.pk, "values": values}
        return _render(
            request,
            procurement,
            form=form,
            row=row,
            frozen=frozen,
            qualification_posted=posted,
            qualification_errors=errors,
        )
    messages.success(request, _("Qualification review saved."))
    return redirect("vendors:tender", pk=pk)


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
