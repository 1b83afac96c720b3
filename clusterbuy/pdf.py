"""The one PDF renderer of ClusterBuy: every PDF (the TCO report, the comparison, the
RFP pack, the decision memo) is HTML rendered here by WeasyPrint.

Each render gets the base stylesheet (static/css/pdf-base.css: the fonts, the A4 page
and its page numbers, the text colour) as a *user* stylesheet, so a document's own
<style> (an author sheet) overrides what it needs (landscape, margins, a footer label)
and never repeats @font-face or @page. Chinese comes from the GB2312 subset of Noto Sans
SC in static/fonts: a system CJK collection costs ~5 s a render instead of ~1 s, since
the embedded subset is rebuilt from the whole font file each time
(shared/reference/pdf-rendering.md). The font configuration and the parsed base sheet
are made once per process, and cyclic garbage collection is paused while WeasyPrint
builds a document. Figures: benchmarks/bench_tco_pdf.py.
"""

from __future__ import annotations

import gc
import threading
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings

FONT_DIR = Path(settings.BASE_DIR) / "static" / "fonts"
BASE_STYLESHEET = Path(settings.BASE_DIR) / "static" / "css" / "pdf-base.css"

_lock = threading.Lock()
_shared: dict = {}


def _font_configuration_and_base():
    """One FontConfiguration per process (WeasyPrint caches the fonts it has loaded)
    and the base stylesheet parsed once into it."""
    with _lock:
        if not _shared:
            from weasyprint import CSS
            from weasyprint.text.fonts import FontConfiguration

            font_config = FontConfiguration()
            _shared["font_config"] = font_config
            _shared["base"] = CSS(
                filename=str(BASE_STYLESHEET), font_config=font_config
            )
        return _shared["font_config"], _shared["base"]


_gc_lock = threading.Lock()
_gc_pause = {"depth": 0, "was_enabled": True}


@contextmanager
def _cyclic_gc_paused():
    """No cyclic garbage collection while WeasyPrint builds a document.

    A render allocates hundreds of thousands of small objects, which sets off full
    collections that walk the whole heap of a long-lived worker (Django, numpy,
    WeasyPrint's caches): ~25 % of the render's CPU time (benchmarks/bench_tco_pdf.py).
    The document's own objects are freed by reference counting, or by the first
    collection after the pause. The pause is process-wide: concurrent renders share it.
    """
    with _gc_lock:
        if _gc_pause["depth"] == 0:
            _gc_pause["was_enabled"] = gc.isenabled()
            gc.disable()
        _gc_pause["depth"] += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_pause["depth"] -= 1
            if _gc_pause["depth"] == 0 and _gc_pause["was_enabled"]:
                gc.enable()


def render_document(html: str):
    """``html`` laid out as WeasyPrint's Document (its pages), with the base
    stylesheet under the document's own styles; relative URLs resolve in static/fonts.
    For counting pages; a PDF is `render_pdf`."""
    from weasyprint import HTML

    font_config, base = _font_configuration_and_base()
    with _cyclic_gc_paused():
        document = HTML(string=html, base_url=str(FONT_DIR))
        return document.render(stylesheets=[base], font_config=font_config)


def render_pdf(html: str) -> bytes:
    """``html`` (a document of the app, in its language) as PDF bytes: the one call
    of WeasyPrint's ``write_pdf`` in the project (tests/test_pdf.py holds it so)."""
    with _cyclic_gc_paused():
        return render_document(html).write_pdf()
