"""The text a reader of a generated document sees: PDF (pdftotext), DOCX
(python-docx: paragraphs and table cells) and XLSX (openpyxl: every cell of every
sheet), for the crawler's language and raw-key checks."""

from __future__ import annotations

import io
import re
import subprocess

#: The links the crawler follows to a generated document.
DOCUMENT = re.compile(r"\.(pdf|docx|xlsx)$")


def pdf_text(data: bytes) -> str:
    return subprocess.run(
        ["pdftotext", "-", "-"], input=data, capture_output=True, check=True
    ).stdout.decode("utf-8", "replace")


def docx_text(data: bytes) -> str:
    import docx

    document = docx.Document(io.BytesIO(data))
    parts = [p.text for p in document.paragraphs]
    for table in document.tables:
        for row in table.rows:
            parts += [cell.text for cell in row.cells]
    return "\n".join(parts)


def xlsx_text(data: bytes) -> str:
    import openpyxl

    workbook = openpyxl.load_workbook(io.BytesIO(data), read_only=True)
    parts = []
    for sheet in workbook.worksheets:
        parts.append(sheet.title)
        for row in sheet.iter_rows(values_only=True):
            parts += [str(v) for v in row if isinstance(v, str)]
    return "\n".join(parts)


def document_text(path: str, data: bytes) -> str:
    """The text of the document at ``path`` (its suffix says the format)."""
    suffix = DOCUMENT.search(path).group(1)
    return {"pdf": pdf_text, "docx": docx_text, "xlsx": xlsx_text}[suffix](data)
