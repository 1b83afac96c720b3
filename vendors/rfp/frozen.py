"""The pack files of a published RFP version, frozen: each file (PDF, DOCX, the
line-item XLSX, per language) is rendered once from the version's frozen facts,
stored with its SHA-256 (`RfpPackFile`) and served as stored ever after, so every
vendor and the buyer download the same bytes and can prove what was sent. The ZIP is
assembled from the stored files with fixed time stamps, so it too is the same bytes
each time."""

from __future__ import annotations

import hashlib
import io
import zipfile

from django.core.files.base import ContentFile
from django.db import IntegrityError, transaction

from ..models import RfpPackFile, RfpVersion

FROZEN_FORMATS = ("pdf", "docx", "xlsx")


def language_code(language: str) -> str:
    return "zh" if language.lower().startswith("zh") else "en"


def frozen_file(version: RfpVersion, fmt: str, *, language: str, render) -> RfpPackFile:
    """The stored file of ``version`` in ``fmt`` and ``language``; ``render()`` ->
    (bytes, name) makes it the first time."""
    lang = language_code(language)
    row = RfpPackFile.objects.filter(version=version, language=lang, fmt=fmt).first()
    if row is not None:
        return row
    data, name = render()
    row = RfpPackFile(
        version=version,
        language=lang,
        fmt=fmt,
        name=name,
        sha256=hashlib.sha256(data).hexdigest(),
        size_bytes=len(data),
    )
    row.file.save(name, ContentFile(data), save=False)
    try:
        with transaction.atomic():
            row.save()
    except IntegrityError:  # a concurrent first download stored it: serve that one
        return RfpPackFile.objects.get(version=version, language=lang, fmt=fmt)
    return row


def file_bytes(row: RfpPackFile) -> bytes:
    with row.file.open("rb") as handle:
        return handle.read()


def frozen_zip(version: RfpVersion, rows: list[RfpPackFile]) -> bytes:
    """The stored files in one ZIP, time-stamped with the version's publication."""
    stamp = version.published_at.timetuple()[:6]
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for row in rows:
            info = zipfile.ZipInfo(row.name, date_time=stamp)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, file_bytes(row))
    return buffer.getvalue()


def pack_files_of(version: RfpVersion) -> list[RfpPackFile]:
    """The files frozen so far, for the pages that list their hashes."""
    return list(version.pack_files.order_by("language", "fmt"))
