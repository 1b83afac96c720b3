"""The crawler's reading of generated documents (tests/browser/documents.py): fast, no
browser."""

from __future__ import annotations

import io

import openpyxl

from tests.browser.documents import document_text, normalised


def _xlsx(rows: list[list]) -> bytes:
    workbook = openpyxl.Workbook()
    for row in rows:
        workbook.active.append(row)
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def test_a_layout_line_break_inside_chinese_is_undone():
    assert (
        normalised("继续预训\n练 在线推理\nInference")
        == "继续预训练 在线推理 Inference"
    )


def test_the_bilingual_code_legend_of_a_workbook_is_not_read_as_copy():
    data = _xlsx(
        [
            ["How to fill in the line items"],
            [],
            ["Column", "Code", "中文", "English"],
            ["Category", "gpu_servers", "GPU 服务器", "GPU servers"],
            [],
            ["A note after the legend"],
        ]
    )
    text = document_text("/template.xlsx", data)
    assert "How to fill in the line items" in text
    assert "A note after the legend" in text
    assert "gpu_servers" not in text and "GPU 服务器" not in text


def test_a_pdf_is_read_in_content_order():
    from clusterbuy.pdf import render_pdf

    pdf = render_pdf(
        "<table><tr><td style='width:12mm'>在线推理 Inference</td>"
        "<td>4,800</td></tr></table>"
    )
    assert "在线推理 Inference" in document_text("/x.pdf", pdf)
