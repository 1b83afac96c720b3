"""Vendor pages: the organisation's vendors, one vendor with its case studies."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from clusterbuy.access import Capability, organisation_of, require
from clusterbuy.forms import add_service_error
from clusterbuy.services import ServiceError

from ..forms import CaseStudyForm, VendorForm
from ..services import acceptance_view, suppliers
from ..visibility import visible_vendors


@login_required
def vendor_list(request):
    organisation = organisation_of(request.user)
    form = VendorForm(request.POST or None)
    if request.method == "POST":
        require(request.user, Capability.EDIT_VENDORS)
        if form.is_valid():
            try:
                vendor = suppliers.create_vendor(
                    organisation=organisation, **form.cleaned_data
                )
            except ServiceError as exc:
                add_service_error(form, exc)
            else:
                messages.success(request, _("Vendor added."))
                return redirect("vendors:vendor-detail", pk=vendor.pk)
    vendors = visible_vendors(request.user).prefetch_related("case_studies")
    return render(
        request, "vendors/vendor_list.html", {"vendors": vendors, "form": form}
    )


@login_required
def vendor_detail(request, pk):
    vendor = get_object_or_404(visible_vendors(request.user), pk=pk)
    form = VendorForm(request.POST or None, instance=vendor, prefix="vendor")
    case_form = CaseStudyForm(prefix="case")
    if request.method == "POST":
        require(request.user, Capability.EDIT_VENDORS)
        if "case-client_industry" in request.POST:
            case_form = CaseStudyForm(request.POST, prefix="case")
            if case_form.is_valid():
                suppliers.create_case_study(vendor=vendor, **case_form.cleaned_data)
                messages.success(request, _("Case study added."))
                return redirect("vendors:vendor-detail", pk=pk)
        elif form.is_valid():
            try:
                suppliers.update_vendor(vendor=vendor, **form.cleaned_data)
            except ServiceError as exc:
                vendor.refresh_from_db()
                add_service_error(form, exc)
            else:
                messages.success(request, _("Vendor saved."))
                return redirect("vendors:vendor-detail", pk=pk)
    return render(
        request,
        "vendors/vendor_detail.html",
        {
            "vendor": vendor,
            "form": form,
            "case_form": case_form,
            "case_studies": vendor.case_studies.prefetch_related("bids"),
            "bids": vendor.bids.select_related("procurement"),
            "track_record": acceptance_view.vendor_track_record(vendor),
        },
    )
