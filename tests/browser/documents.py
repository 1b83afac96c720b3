"""The text a reader of a generated document sees: PDF (pdftotext), DOCX
(python-docx: paragraphs and table cells) and XLSX (openpyxl: every cell of every
sheet), for the crawler's language and raw-key checks."""

from __future__ import annotations

import io
import re
import subprocess

#: The links the crawler follows to a generated document.
DOCUMENT = re.compile(r"\.(pdf|docx|xlsx)$")
_CJK = "\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff01-\uff5e"
#: A line break a layout put inside a run of Chinese ("继续预训\n练"): no space there.
_CJK_BREAK = re.compile(f"(?<=[{_CJK}])\\s*\\n\\s*(?=[{_CJK}])")
#: A Latin-script run of a citation, as the ``citation`` filter marks it lang="en".
LATIN_RUN = re.compile(r"[A-Za-z][A-Za-z0-9 .,:'’&/+()-]*[A-Za-z0-9)]|[A-Za-z]")


def normalised(text: str) -> str:
    """A document's text with the line breaks of its layout undone, so a user's
    string or a name wrapped over two lines is found as it was typed."""
    return " ".join(_CJK_BREAK.sub("", text).split())


def _legend_header(row: tuple) -> bool:
    """The header of a workbook's code legend ("Column", "Code", "中文", "English"):
    the codes a supplier may type and each code's name in both languages, by design."""
    return {"中文", "English"} <= {str(v).strip() for v in row if v is not None}


def pdf_text(data: bytes) -> str:
    return subprocess.run(
        # -raw: in content order, so a table cell's wrapped lines stay together.
        ["pdftotext", "-raw", "-", "-"],
        input=data,
        capture_output=True,
        check=True,
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
        in_legend = False
        for row in sheet.iter_rows(values_only=True):
            cells = [str(v) for v in row if isinstance(v, str) and v.strip()]
            if _legend_header(row):
                in_legend = True  # to the next empty row
            elif not cells:
                in_legend = False
            elif not in_legend:
                parts += cells
    return "\n".join(parts)


def document_text(path: str, data: bytes) -> str:
    """The text of the document at ``path`` (its suffix says the format)."""
    suffix = DOCUMENT.search(path).group(1)
    text = {"pdf": pdf_text, "docx": docx_text, "xlsx": xlsx_text}[suffix](data)
    return normalised(text)
