"""A bid's attachments: upload (PDF or XLSX, checked by content) and download."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import FileResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clusterbuy.access import Capability, access_procurement
from clusterbuy.services import ServiceError

from .. import visibility
from ..forms import AttachmentForm
from ..models import BidAttachment
from ..services import attachments
from .bids import bid_or_404


@login_required
@require_POST
def attachment_upload(request, pk, bid_pk):
    procurement = access_procurement(request.user, pk, Capability.EDIT_VENDORS)
    bid = bid_or_404(procurement, bid_pk)
    form = AttachmentForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            attachments.add_attachment(
                bid=bid,
                user=request.user,
                upload=form.cleaned_data["file"],
                purpose=form.cleaned_data.get("purpose") or "",
            )
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("Attachment uploaded."))
    else:
        messages.error(request, _("Choose a file to upload."))
    return redirect("vendors:bid-detail", pk=pk, bid_pk=bid_pk)


@login_required
def attachment_download(request, pk, bid_pk, attachment_pk):
    procurement = access_procurement(request.user, pk)
    bid = bid_or_404(procurement, bid_pk)
    attachment = get_object_or_404(BidAttachment, bid=bid, pk=attachment_pk)
    shown = visibility.visibility_for(procurement=procurement, user=request.user)
    if shown.attachments_sealed:
        raise PermissionDenied(visibility.ATTACHMENTS_SEALED)
    return FileResponse(
        attachment.file.open("rb"),
        as_attachment=True,
        filename=attachments.download_name(attachment),
        content_type=attachments.CONTENT_TYPES[attachment.kind],
    )
