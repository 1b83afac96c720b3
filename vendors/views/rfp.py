"""The buyer's RFP page: its settings, a preview of the pack and its downloads."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from clusterbuy.access import Capability, access_procurement, require
from clusterbuy.forms import add_service_error
from clusterbuy.services import ServiceError
from clusterbuy.views import render_procurement
from sizing import services as sizing_services

from ..rfp import publication, services
from ..rfp.content import rfp_content
from ..rfp.forms import AddendumForm, RfpSettingsForm
from ..rfp.pack import FORMATS, pack_download
from ..rfp.published import addendum_message, published_context


@login_required
@require_http_methods(["GET", "POST"])
def rfp_page(request, pk):
    procurement = access_procurement(request.user, pk)
    row = services.stored_rfp_settings(procurement)
    form = RfpSettingsForm.showing(row)
    if request.method == "POST":
        require(request.user, Capability.EDIT_VENDORS)
        form = RfpSettingsForm(request.POST)
        if form.is_valid():
            try:
                services.update_rfp_settings(
                    procurement, request.user, **form.cleaned_data
                )
            except ServiceError as exc:
                add_service_error(form, exc)
            else:
                messages.success(request, _("RFP settings saved."))
                return redirect("vendors:rfp", pk=pk)
    return _render(request, procurement, row, form=form)


def _render(request, procurement, row, *, form=None, addendum_form=None):
    return render_procurement(
        request,
        procurement,
        "vendors/rfp.html",
        {
            "form": form or RfpSettingsForm.showing(row),
            "rfp_settings": row,
            "progress": services.rfp_progress(procurement, row),
            "rfp": rfp_content(procurement),
            "formats": FORMATS,
            "stale": sizing_services.plan_is_stale(
                procurement=procurement,
                plan=sizing_services.latest_plan(procurement=procurement),
            ),
            **published_context(procurement),
            "addendum_form": addendum_form or AddendumForm.showing(row),
        },
        active="rfp",
    )


@login_required
@require_POST
def rfp_addendum(request, pk):
    procurement = access_procurement(request.user, pk, Capability.EDIT_VENDORS)
    row = services.stored_rfp_settings(procurement)
    form = AddendumForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            result = publication.issue_addendum(
                procurement,
                request.user,
                note=data["note"],
                deadline=data["deadline"],
                two_person_opening=data["two_person_opening"],
                publish_weights=data["publish_weights"],
                affects_bids=data["affects_bids"],
                request_base_url=request.build_absolute_uri("/"),
            )
        except ServiceError as exc:
            add_service_error(form, exc)
        else:
            messages.success(request, addendum_message(result))
            return redirect("vendors:rfp", pk=pk)
    return _render(request, procurement, row, addendum_form=form)


@login_required
@require_GET
def rfp_pack_download(request, pk, fmt):
    return pack_download(access_procurement(request.user, pk), fmt)
