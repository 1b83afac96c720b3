"""The RFP pack to download: PDF, DOCX, or a ZIP of both with the bid's line-item
workbook (`vendors.services.line_item_template`, with its drop-downs, data validation and
instructions sheet; ``xlsx`` is that workbook alone), all in the requested language. Buyers download it from the RFP
page, invited vendors from the supplier portal: nothing here reads the request."""

from __future__ import annotations

import io
import zipfile

from django.http import Http404, HttpResponse
from django.utils import translation
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from ..services.line_item_template import build_template_xlsx
from .content import rfp_content
from .docx import rfp_docx
from .frozen import FROZEN_FORMATS, file_bytes, frozen_file, frozen_zip
from .pdf import rfp_pdf
from .versions import latest_version

CONTENT_TYPES = {
    "pdf": "application/pdf",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "zip": "application/zip",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}
FORMATS = tuple(CONTENT_TYPES)


class UnknownPackFormat(ValueError):
    """Not one of FORMATS: the entry points answer 404."""


def pack_basename(procurement, language: str) -> str:
    lang = "zh" if language.lower().startswith("zh") else "en"
    return f"rfp-{procurement.pk}-{lang}"


def rfp_pack(procurement, fmt: str, *, language: str) -> tuple[bytes, str, str]:
    """(bytes, content type, file name) of the pack in ``fmt`` and ``language``: the
    frozen files of the published version once there is one (`frozen`)."""
    if fmt not in CONTENT_TYPES:
        raise UnknownPackFormat(fmt)
    version = latest_version(procurement)
    if version is not None:
        return _published_pack(procurement, version, fmt, language)
    return _rendered_pack(procurement, fmt, language)


def _published_pack(procurement, version, fmt: str, language: str):
    base = f"{pack_basename(procurement, language)}-v{version.number}"

    def one(file_fmt: str):
        def render():
            data, _type, _name = _rendered_pack(procurement, file_fmt, language)
            name = _template_name(base) if file_fmt == "xlsx" else f"{base}.{file_fmt}"
            return data, name

        return frozen_file(version, file_fmt, language=language, render=render)

    if fmt == "zip":
        rows = [one(f) for f in FROZEN_FORMATS]
        return frozen_zip(version, rows), CONTENT_TYPES[fmt], f"{base}.zip"
    row = one(fmt)
    return file_bytes(row), CONTENT_TYPES[fmt], row.name


def _rendered_pack(procurement, fmt: str, language: str) -> tuple[bytes, str, str]:
    base = pack_basename(procurement, language)
    with translation.override(language):
        content = rfp_content(procurement)
        if fmt == "xlsx":
            data = build_template_xlsx(acceptance=content["acceptance"])
            return data, CONTENT_TYPES[fmt], _template_name(base)
        if fmt == "pdf":
            data = rfp_pdf(content)
        elif fmt == "docx":
            data = rfp_docx(content)
        else:
            data = _zip(base, content)
    return data, CONTENT_TYPES[fmt], f"{base}.{fmt}"


def pack_download(procurement, fmt: str, *, formats=FORMATS) -> HttpResponse:
    """The pack as an attachment in the active language, for the buyer's page, the
    API and the portal (which offers fewer ``formats``); 404 for any other format."""
    if fmt not in formats:
        raise Http404(_("No such format."))
    data, content_type, filename = rfp_pack(
        procurement, fmt, language=get_language() or "en"
    )
    response = HttpResponse(data, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _template_name(base: str) -> str:
    return f"{base}-bid-line-items.xlsx"


def _zip(base: str, content: dict) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(f"{base}.pdf", rfp_pdf(content))
        archive.writestr(f"{base}.docx", rfp_docx(content))
        archive.writestr(
            _template_name(base),
            build_template_xlsx(acceptance=content["acceptance"]),
        )
    return buffer.getvalue()
