"""A bid's line items: add one, remove one, import a sheet, download the blank sheet."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clusterbuy.access import Capability, access_procurement
from clusterbuy.services import ServiceError

from ..engine.importing import LineItemImportError
from ..forms import LineItemForm, UploadForm
from ..models import BidLineItem
from ..services import bids as bid_services
from ..services.import_errors import row_error_sentence
from ..services.line_item_template import build_template_csv, build_template_xlsx
from .bids import bid_or_404

XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


@login_required
@require_POST
def line_item_add(request, pk, bid_pk):
    procurement = access_procurement(request.user, pk, Capability.EDIT_VENDORS)
    bid = bid_or_404(procurement, bid_pk)
    form = LineItemForm(request.POST)
    if form.is_valid():
        try:
            bid_services.add_line_item(bid=bid, user=request.user, **form.cleaned_data)
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Line item added."))
    else:
        messages.error(
            request,
            _("Check the line item: %(errors)s")
            % {
                "errors": "; ".join(
                    f"{k}: {' '.join(v)}" for k, v in form.errors.items()
                )
            },
        )
    return redirect("vendors:bid-detail", pk=pk, bid_pk=bid_pk)


@login_required
@require_POST
def line_item_delete(request, pk, bid_pk, item_pk):
    procurement = access_procurement(request.user, pk, Capability.EDIT_VENDORS)
    bid = bid_or_404(procurement, bid_pk)
    try:
        bid_services.delete_line_item(
            item=get_object_or_404(BidLineItem, bid=bid, pk=item_pk), user=request.user
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
    return redirect("vendors:bid-detail", pk=pk, bid_pk=bid_pk)


@login_required
@require_POST
def line_item_import(request, pk, bid_pk):
    procurement = access_procurement(request.user, pk, Capability.EDIT_VENDORS)
    bid = bid_or_404(procurement, bid_pk)
    form = UploadForm(request.POST, request.FILES)
    if not form.is_valid():
        messages.error(request, _("Choose a file to upload."))
        return redirect("vendors:bid-detail", pk=pk, bid_pk=bid_pk)
    upload = form.cleaned_data["file"]
    try:
        items = bid_services.import_line_items(
            bid=bid, fileobj=upload, filename=upload.name, user=request.user
        )
    except ServiceError as exc:
        messages.error(request, exc.message)
    except LineItemImportError as exc:
        for error in exc.errors[:50]:
            messages.error(request, row_error_sentence(error))
        messages.error(request, _("Nothing was imported."))
    else:
        messages.success(request, _("%(n)s line items imported.") % {"n": len(items)})
    return redirect("vendors:bid-detail", pk=pk, bid_pk=bid_pk)


#: The blank sheet's formats: its builder and content type. Any other extension in the
#: URL (".exe") is a 404, so the file is only ever served under its own type.
TEMPLATE_FORMATS = {
    "xlsx": (build_template_xlsx, XLSX_CONTENT_TYPE),
    "csv": (build_template_csv, "text/csv"),
}


def line_item_template(request, fmt):
    if fmt not in TEMPLATE_FORMATS:
        raise Http404("no such template format")
    build, content_type = TEMPLATE_FORMATS[fmt]
    response = HttpResponse(build(), content_type=content_type)
    response["Content-Disposition"] = (
        f'attachment; filename="line_items_template.{fmt}"'
    )
    return response
