"""The RFP as a PDF: templates/vendors/rfp_pdf.html rendered by WeasyPrint with the
Noto Sans SC subset (`tco.report.render_pdf`: one font configuration per process,
~1 s a document instead of ~5 s with a system CJK collection)."""

from __future__ import annotations

from django.template.loader import render_to_string

from clusterbuy.text import printable_tree
from tco.report import FONT_DIR, render_pdf


def rfp_html(content: dict) -> str:
    return render_to_string(
        "vendors/rfp_pdf.html", {"rfp": content, "font_dir_url": FONT_DIR.as_uri()}
    )


def rfp_pdf(content: dict) -> bytes:
    """The pack's content (`content.rfp_content`, in the active language) as A4 PDF."""
    return render_pdf(rfp_html(printable_tree(content)))
