"""The author and last editor an uploaded document's metadata names, for the
collusion signal "the same author in different bids" (招标投标法实施条例 第四十条:
投标文件由同一单位或者个人编制).

PDF: the document information's /Author (not /Creator or /Producer, which name the
program - "Microsoft Word" - and would tie every bid written in it). XLSX and DOCX:
the core properties' creator and last-modified-by. A file that cannot be read gives
nothing: a signal needs evidence, never a guess.
"""

from __future__ import annotations

import io
import zipfile

import pypdf

from ..models import BidAttachment


def _pdf_authors(data: bytes) -> list[str]:
    info = pypdf.PdfReader(io.BytesIO(data), strict=False).metadata or {}
    return [str(info.get("/Author") or "")]


def _core_authors(data: bytes) -> list[str]:
    from xml.etree import ElementTree

    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        if "docProps/core.xml" not in archive.namelist():
            return []
        root = ElementTree.fromstring(archive.read("docProps/core.xml"))
    wanted = ("creator", "lastModifiedBy")
    return [
        (child.text or "") for child in root if child.tag.rsplit("}", 1)[-1] in wanted
    ]


def document_authors(data: bytes) -> tuple[str, ...]:
    """The distinct non-empty authors ``data``'s metadata names (PDF, XLSX, DOCX)."""
    try:
        if data.startswith(b"%PDF"):
            names = _pdf_authors(data)
        elif data.startswith(b"PK"):
            names = _core_authors(data)
        else:
            names = []
    except Exception:  # a broken file: no evidence
        return ()
    seen: list[str] = []
    for name in (n.strip() for n in names):
        if name and name not in seen:
            seen.append(name)
    return tuple(seen)


def attachment_authors(attachment: BidAttachment) -> tuple[str, ...]:
    try:
        with attachment.file.open("rb") as handle:
            data = handle.read()
    except OSError:
        return ()
    return document_authors(data)
