"""Bid attachments: quotes and proposals accepted by their content (PDF, XLSX), never
by the name the uploader gave.
"""

from __future__ import annotations

import io
import zipfile

import openpyxl
import pypdf
from django.core.files.base import ContentFile
from django.db import transaction
from django.utils.text import get_valid_filename
from django.utils.translation import gettext as _

from clusterbuy.services import ServiceError

from ..models import Bid, BidAttachment, EvidencePurpose

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


#: What the parts of an XLSX package are (ECMA-376 Part 2, Open Packaging
#: Conventions: XML parts, relationships, and the media, printer settings and
#: embedded images a spreadsheet application writes). Anything else in the ZIP (an
#: ``.exe``, a macro project ``vbaProject.bin``, a nested archive) is not a workbook.
_XLSX_PART_SUFFIXES = (
    ".xml",
    ".rels",
    ".vml",
    ".png",
    ".jpeg",
    ".jpg",
    ".gif",
    ".emf",
    ".wmf",
    ".tif",
    ".tiff",
    ".bmp",
    ".svg",
)
_XLSX_BINARY_PARTS = ("xl/printerSettings/",)


def _is_xlsx_part(name: str) -> bool:
    lowered = name.lower()
    if name.endswith("/"):  # a folder entry
        return True
    if lowered.endswith(".bin"):
        return name.startswith(_XLSX_BINARY_PARTS)
    return lowered.endswith(_XLSX_PART_SUFFIXES)


def _is_xlsx(data: bytes) -> bool:
    """A workbook openpyxl can open, whose every part is a workbook's (any ZIP
    holding ``[Content_Types].xml`` and ``xl/`` used to pass, with a ``payload.exe``
    beside them). Read-only mode parses the workbook part and the sheet list, never
    the rows, so a sheet declaring a huge range costs nothing here."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = archive.namelist()
        if "[Content_Types].xml" not in names or "xl/workbook.xml" not in names:
            return False
        if not all(_is_xlsx_part(name) for name in names):
            return False
        workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=True)
    except Exception:  # openpyxl raises many kinds on a broken package
        return False
    has_sheets = bool(workbook.sheetnames)
    workbook.close()
    return has_sheets


def _is_pdf(data: bytes) -> bool:
    """A PDF that pypdf can read the page tree of (magic bytes alone let anything
    that starts with ``%PDF-`` through)."""
    try:
        return len(pypdf.PdfReader(io.BytesIO(data), strict=False).pages) > 0
    except Exception:  # pypdf raises many kinds on a broken file
        return False


CONTENT_TYPES = {
    "pdf": "application/pdf",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


def download_name(attachment: BidAttachment) -> str:
    """The name a download is served under: the uploaded name with the extension of
    what the file really is (a PDF uploaded as ``quote.exe`` is served as
    ``quote.pdf``)."""
    stem = attachment.original_name.rsplit(".", 1)[0] or "attachment"
    return f"{stem}.{attachment.kind}"


@transaction.atomic
def add_attachment(*, bid: Bid, user, upload, purpose: str = "") -> BidAttachment:
    """Store a PDF or XLSX (checked by content, at most 10 MB) with the bid;
    ``purpose``: what it proves (`EvidencePurpose`, general when empty)."""
    purpose = purpose or EvidencePurpose.GENERAL
    if purpose not in EvidencePurpose.values:
        raise ServiceError(_("Choose what the file is for."), field="purpose")
    size = getattr(upload, "size", None)
    if size is not None and size > MAX_ATTACHMENT_BYTES:
        raise ServiceError(_("Attachments are limited to 10 MB."), field="file")
    data = upload.read(MAX_ATTACHMENT_BYTES + 1)
    if len(data) > MAX_ATTACHMENT_BYTES:
        raise ServiceError(_("Attachments are limited to 10 MB."), field="file")
    kind = content_kind(data)
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
        purpose=purpose,
        uploaded_by=user,
    )
    stored = f"{name.rsplit('.', 1)[0] or 'attachment'}.{kind}"
    attachment.file.save(stored, ContentFile(data), save=False)
    attachment.save()
    return attachment


def content_kind(data: bytes) -> str | None:
    """'pdf' or 'xlsx' when the whole file really is one (magic bytes, then a reader
    that opens it), else None: the one content check of every stored upload (the
    buyer's attachments, the portal's workbooks and evidence, by page or API)."""
    kind = attachment_kind(data[:8])
    if (kind == "xlsx" and not _is_xlsx(data)) or (kind == "pdf" and not _is_pdf(data)):
        return None
    return kind
