"""Every PDF goes through one renderer (clusterbuy.pdf) and one base stylesheet."""

from __future__ import annotations

import ast
import io
import re
import subprocess
from pathlib import Path

import pypdf
import pytest

from clusterbuy.pdf import BASE_STYLESHEET, render_pdf

ROOT = Path(__file__).resolve().parents[2]
CODE_DIRS = ("clusterbuy", "sizing", "tco", "vendors", "benchmarks")
PDF_TEMPLATES = (
    "templates/tco/report.html",
    "templates/vendors/comparison_pdf.html",
    "templates/vendors/decision_memo.html",
    "templates/vendors/rfp_pdf.html",
)


def _write_pdf_callers(root: Path) -> list[str]:
    """Modules under ``root`` that call ``<anything>.write_pdf(...)``."""
    callers = []
    for folder in CODE_DIRS:
        for path in sorted((root / folder).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if (
                    isinstance(node, ast.Call)
                    and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "write_pdf"
                ):
                    callers.append(f"{path.relative_to(root)}:{node.lineno}")
    return callers


def test_only_the_renderer_calls_write_pdf():
    callers = _write_pdf_callers(ROOT)
    assert [c.split(":")[0] for c in callers] == ["clusterbuy/pdf.py"], callers


def test_a_second_renderer_is_found(tmp_path):
    for folder in CODE_DIRS:
        (tmp_path / folder).mkdir()
    (tmp_path / "vendors" / "memo.py").write_text(
        "from weasyprint import HTML\n\ndef pdf(h):\n"
        "    return HTML(string=h).write_pdf()\n"
    )
    assert _write_pdf_callers(tmp_path) == ["vendors/memo.py:4"]


@pytest.mark.parametrize("template", PDF_TEMPLATES)
def test_no_pdf_template_repeats_the_fonts(template):
    """Fonts live in the base stylesheet only; a template overrides the page's size,
    margins or footer label, never declares a font face or a font family again."""
    text = (ROOT / template).read_text(encoding="utf-8")
    assert "@font-face" not in text
    assert "font-family" not in text
    assert "NotoSansSC" not in text


def test_the_base_stylesheet_declares_both_weights_of_the_subset():
    css = BASE_STYLESHEET.read_text(encoding="utf-8")
    assert re.findall(r"NotoSansSC-Subset-(\w+)\.otf", css) == ["Regular", "Bold"]
    assert "@page" in css


def _text(pdf: bytes) -> str:
    return subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode()


def test_a_bare_document_gets_the_subset_font_a4_and_page_numbers(tmp_path):
    pdf = render_pdf(
        '<html lang="zh-hans"><body><p>总拥有成本 TCO</p>'
        '<p style="page-break-before: always">第二页</p></body></html>'
    )
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == 2
    width, height = (float(v) for v in reader.pages[0].mediabox[2:])
    assert (round(width), round(height)) == (595, 842)  # A4 in points
    (tmp_path / "bare.pdf").write_bytes(pdf)
    fonts = subprocess.run(
        ["pdffonts", str(tmp_path / "bare.pdf")], capture_output=True, check=True
    ).stdout.decode()
    text = _text(pdf)
    assert "总拥有成本 TCO" in text
    assert re.findall(r"(\d) ?/ ?(\d)", text) == [("1", "2"), ("2", "2")]
    embedded = [line.split()[0].split("+")[-1] for line in fonts.splitlines()[2:]]
    assert embedded == ["Noto-Sans-SC-Subset"]  # the shipped subset, embedded


def test_a_document_overrides_the_base_page():
    pdf = render_pdf(
        "<html><head><style>@page { size: A4 landscape; "
        "@bottom-center { content: none; } }</style></head>"
        "<body><p>Landscape</p></body></html>"
    )
    page = pypdf.PdfReader(io.BytesIO(pdf)).pages[0]
    assert (round(float(page.mediabox[2])), round(float(page.mediabox[3]))) == (
        842,
        595,
    )
    assert not re.search(r"1 ?/ ?1", _text(pdf))
