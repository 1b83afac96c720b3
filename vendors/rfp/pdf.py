"""The RFP as a PDF: templates/vendors/rfp_pdf.html rendered by the app's one
renderer (`clusterbuy.pdf.render_pdf`: the Noto Sans SC subset and the base stylesheet,
~1 s a document instead of ~5 s with a system CJK collection)."""

from __future__ import annotations

from django.template.loader import render_to_string

from clusterbuy.pdf import render_pdf
from clusterbuy.text import printable_tree


def rfp_html(content: dict) -> str:
    return render_to_string("vendors/rfp_pdf.html", {"rfp": content})


def rfp_pdf(content: dict) -> bytes:
    """The pack's content (`content.rfp_content`, in the active language) as A4 PDF."""
    return render_pdf(rfp_html(printable_tree(content)))
