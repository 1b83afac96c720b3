"""Bid attachments: quotes and proposals accepted by their content (PDF, XLSX), never
by the name the uploader gave.
"""

from __future__ import annotations

import io
import zipfile

from django.core.files.base import ContentFile
from django.db import transaction
from django.utils.text import get_valid_filename
from django.utils.translation import gettext as _

from clusterbuy.services import ServiceError

from .models import (
    Bid,
    BidAttachment,
)

MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024


_PDF_MAGIC = b"%PDF-"


_ZIP_MAGIC = b"PK\x03\x04"


def attachment_kind(head: bytes) -> str | None:
    """'pdf' or 'xlsx' from the first bytes of a file (never from its name)."""
    if head.startswith(_PDF_MAGIC):
        return "pdf"
    if head.startswith(_ZIP_MAGIC):
        return "xlsx"
    return None


def _is_xlsx(data: bytes) -> bool:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = set(archive.namelist())
    except zipfile.BadZipFile:
        return False
    return "[Content_Types].xml" in names and any(n.startswith("xl/") for n in names)


@transaction.atomic
def add_attachment(*, bid: Bid, user, upload) -> BidAttachment:
    """Store a PDF or XLSX (checked by content, at most 10 MB) with the bid."""
    size = getattr(upload, "size", None)
    if size is not None and size > MAX_ATTACHMENT_BYTES:
        raise ServiceError(_("Attachments are limited to 10 MB."), field="file")
    data = upload.read(MAX_ATTACHMENT_BYTES + 1)
    if len(data) > MAX_ATTACHMENT_BYTES:
        raise ServiceError(_("Attachments are limited to 10 MB."), field="file")
    kind = attachment_kind(data[:8])
    if kind == "xlsx" and not _is_xlsx(data):
        kind = None
    if kind is None:
        raise ServiceError(
            _("Only PDF and XLSX files can be attached."),
            field="file",
        )
    name = get_valid_filename(getattr(upload, "name", "") or f"attachment.{kind}")
    attachment = BidAttachment(
        bid=bid,
        original_name=name[:255],
        kind=kind,
        size_bytes=len(data),
        uploaded_by=user,
    )
    stored = name if name.lower().endswith(f".{kind}") else f"{name}.{kind}"
    attachment.file.save(stored, ContentFile(data), save=False)
    attachment.save()
    return attachment
